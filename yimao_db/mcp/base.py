"""What the tools, the resources and the prompt need of the server: the database's engines."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Engine
from sqlalchemy.engine import URL


class Database(Protocol):
    """The database a server serves (:class:`yimao_db.mcp.service.Service`)."""

    url: URL  # what ``yimao sql``'s session opens
    reader: Engine  # read-only

    def writer(self) -> Engine:
        """An engine that may write; DatabaseError when the database cannot be written."""
        ...
