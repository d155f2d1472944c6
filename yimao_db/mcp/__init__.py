"""``yimao mcp``: the knowledge base for AI assistants, over the Model Context Protocol.

The tools, resources and prompt are thin calls into the package's API, written without the
SDK (:mod:`~yimao_db.mcp.service`, :mod:`~yimao_db.mcp.tools`, :mod:`~yimao_db.mcp.knowledge`):
each answer is the data the command line prints for the same question, and each bad input
the sentence it prints. Only :mod:`~yimao_db.mcp.server` imports the MCP SDK (the extra
``mcp``), and only ``yimao mcp`` imports it. docs/mcp.md describes the server.
"""
