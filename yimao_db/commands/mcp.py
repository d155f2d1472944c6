"""``yimao mcp``: the knowledge base for AI assistants, over the Model Context Protocol (the
optional extra ``mcp``). Only this command imports the MCP SDK, inside its handler."""

from __future__ import annotations

import argparse
import sys

from yimao_db import sigint
from yimao_db.commands import SubParsers, db_option
from yimao_db.errors import UsageError, shown

INSTALL = "pip install 'yimao-db[mcp]'"
DEFAULT_HOST = "127.0.0.1"


def http_address(text: str) -> tuple[str, int]:
    """``--http``: ``PORT`` (on 127.0.0.1) or ``HOST:PORT`` (``[::1]:PORT`` for IPv6)."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = DEFAULT_HOST, text
    host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not port.isascii() or not port.isdigit() or int(port) > 65535 or (sep and not host):
        raise UsageError(
            f"bad --http {shown(text)}: expected HOST:PORT (127.0.0.1:8765, [::1]:8765) or a "
            "port alone, on 127.0.0.1 (0: any free port)"
        )
    return host, int(port)


def check_host(host: str, allow_remote: bool, allow_writes: bool) -> str | None:
    """None for a loopback ``host``; else UsageError unless ``allow_remote``, and then the
    warning to print."""
    from yimao_db.web.site import loopback

    if loopback(host):
        return None
    reach = "reads and writes" if allow_writes else "reads"
    exposed = (
        f"--http {host} is not a loopback address: whoever reaches it {reach} everything in "
        "the database through the tools, stored questions and notes included (it has no login)"
    )
    if not allow_remote:
        raise UsageError(f"{exposed}; add --allow-remote to serve it anyway")
    return f"warning: {exposed}"


def cmd_mcp(args: argparse.Namespace) -> int:
    address = None if args.http is None else http_address(args.http)
    warning = None
    if address is not None:
        warning = check_host(address[0], args.allow_remote, args.allow_writes)
    elif args.allow_remote:
        raise UsageError("--allow-remote goes with --http HOST:PORT")
    with sigint.held():  # a Ctrl-C while pydantic builds the SDK's validators
        try:
            import mcp  # noqa: F401  (the SDK, not this module)
        except ModuleNotFoundError:
            raise UsageError(
                f"yimao mcp needs the MCP SDK, which is not installed ({INSTALL})"
            ) from None
        from yimao_db.mcp.server import run_http, run_stdio
        from yimao_db.mcp.service import Service

    service = Service(args.db, allow_writes=args.allow_writes)
    try:
        if address is None:
            run_stdio(service)
            return 0
        from yimao_db.web.site import listen

        sock = listen(*address)
        try:
            if warning is not None:
                sys.stderr.write(warning + "\n")
                sys.stderr.flush()
            run_http(service, sock, loopback=warning is None)
        finally:
            sock.close()
    finally:
        service.close()
    return 0


def register(sub: SubParsers) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve the database to AI assistants (Model Context Protocol)",
        description="Serve the database to AI assistants over the Model Context Protocol: "
        "tools (show, chart, preview, readings, stats, passages, sql, schema; with "
        "--allow-writes also cast, note, outcome, tag), the schema docs and docs/signs.md as "
        "resources, and the prompt read_chart. On standard input and output unless --http "
        f"is given; read-only unless --allow-writes is. Needs the extra mcp ({INSTALL}); "
        "see docs/mcp.md.",
    )
    p.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve the streamable HTTP transport at http://HOST:PORT/mcp instead of stdio "
        "(a port alone: on 127.0.0.1; 0: any free port); a host other than loopback needs "
        "--allow-remote",
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="with --http, listen on a host other machines can reach (no login: whoever "
        "reaches it uses the tools); prints a warning",
    )
    p.add_argument(
        "--allow-writes",
        action="store_true",
        help="offer the tools that write: cast (store a reading), note, outcome and tag",
    )
    db_option(p)
    p.set_defaults(handler=cmd_mcp)
