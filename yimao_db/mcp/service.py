"""What one ``yimao mcp`` serves: a database, read-only unless writes are allowed.

:class:`Service` holds the engines and answers the protocol's questions in plain Python:
which tools are offered, a tool's answer, a resource's text, the prompt. It knows nothing
of the MCP SDK (:mod:`yimao_db.mcp.server` wraps it), so every answer can be checked
without a client too.

Read-only means: reads go through a read-only engine (SQLite ``mode=ro`` and
``query_only``, PostgreSQL read-only transactions); ``sql`` through ``yimao sql``'s own
guarded session, whatever the server allows; the tools that write are not listed and are
refused by name; ``preview`` inserts the reading in a transaction it always rolls back
(:func:`yimao_db.readings.preview`).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Engine, text

from yimao_db import db as dbmod
from yimao_db.errors import DatabaseError, UsageError, shown
from yimao_db.mcp import knowledge
from yimao_db.mcp.arguments import Arguments
from yimao_db.mcp.tools import BY_NAME, TOOLS, Answer, Tool

ALLOW_WRITES = "yimao mcp --allow-writes"


class Service:
    """The database ``db`` (a path or URL as ``--db`` takes it) served to assistants."""

    def __init__(self, db: str | None, *, allow_writes: bool) -> None:
        self.db = db
        self.url = dbmod.resolve_url(db)
        self.allow_writes = allow_writes
        # The writer engine comes first, before any connection is open: making it reads the
        # SQLite file's header with a plain open(), and closing that file would drop the
        # POSIX locks of the connections this process already has on it (another process
        # would then take itself for the last one and delete the -wal and -shm files under
        # them). A read-only server makes it for preview, unless the file cannot be written
        # or a crashed writer's journal is there (rolling it back would write).
        self._writer: Engine | None = None
        self._no_writer: Exception | None = None
        path = dbmod.sqlite_path(self.url)
        if allow_writes or path is None or dbmod.hot_journal(path) is None:
            try:
                self._writer = dbmod.writer_engine(self.url, require_built=True)
            except DatabaseError as exc:
                if allow_writes:
                    raise
                self._no_writer = exc
        try:
            self.reader: Engine = dbmod.reader_engine(self.url)
        except BaseException:
            self.close()
            raise
        try:
            with self.reader.connect() as conn:  # refuse a database that is not built
                conn.execute(text("SELECT id FROM reading LIMIT 1")).all()
        except BaseException:
            self.close()
            raise

    def writer(self) -> Engine:
        """The writer engine: the tools that write (offered with ``--allow-writes``) and
        ``preview`` use it; DatabaseError when the database cannot be written."""
        if self._writer is None:
            raise self._no_writer or DatabaseError(
                "a crashed writer left an unfinished transaction in the database (a hot "
                "journal), which a read-only server does not roll back: run any command "
                "that writes, or `yimao check`"
            )
        return self._writer

    def close(self) -> None:
        if getattr(self, "reader", None) is not None:
            self.reader.dispose()
        if self._writer is not None:
            self._writer.dispose()

    @property
    def mode(self) -> str:
        return "read and write" if self.allow_writes else "read-only"

    @property
    def where(self) -> str:
        """The database as a message names it: a file's path, or the URL without password."""
        path = dbmod.sqlite_path(self.url)
        return str(path) if path is not None else self.url.render_as_string(hide_password=True)

    # --- tools ---

    def tools(self) -> list[Tool]:
        """The tools offered: the ones that write only with ``--allow-writes``."""
        return [t for t in TOOLS if self.allow_writes or not t.writes]

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> Answer:
        """The answer of tool ``name``; the error the command line raises for bad input."""
        tool = BY_NAME.get(name)
        if tool is None:
            offered = ", ".join(t.name for t in self.tools())
            raise UsageError(f"unknown tool {shown(name)}: expected one of {offered}")
        if tool.writes and not self.allow_writes:
            raise UsageError(
                f"the {name} tool writes to the database, and this server is read-only: "
                f"nothing was written (start it as `{ALLOW_WRITES}` to offer {name}"
                + ("; preview casts without storing)" if name == "cast" else ")")
            )
        if arguments is not None and not isinstance(arguments, Mapping):
            raise UsageError(f"the arguments of {name} must be an object")
        return tool.run(self, Arguments(name, tool.input_schema, arguments or {}))

    def explain(self, exc: BaseException) -> str:
        """The line the command line prints for ``exc`` (``error: …``; a bug: ``internal
        error: …``)."""
        from yimao_db.cli import explain

        if not isinstance(exc, Exception):
            return "error: interrupted"
        line, _code = explain(exc, argparse.Namespace(db=self.db))
        return line

    # --- resources and the prompt ---

    def resources(self) -> list[knowledge.Resource]:
        return list(knowledge.RESOURCES)

    def templates(self) -> list[knowledge.Template]:
        return list(knowledge.TEMPLATES)

    def read(self, uri: str) -> tuple[str, str]:
        """(the text, its MIME type) of the resource at ``uri``."""
        return knowledge.read(self, uri)

    def prompt(self, name: str, arguments: Mapping[str, str] | None) -> str:
        """The text of prompt ``name``."""
        if name != knowledge.READ_CHART.name:
            raise UsageError(f"unknown prompt {shown(name)}: expected {knowledge.READ_CHART.name}")
        given = dict(arguments or {})
        unknown = [k for k in given if k != "reading_id"]
        if unknown:
            raise UsageError(f"{name} takes no argument {shown(unknown[0])}: expected reading_id")
        if "reading_id" not in given:
            raise UsageError(f"{name} needs the argument reading_id")
        from yimao_db.inputs import reading_id

        return knowledge.read_chart(self, reading_id(str(given["reading_id"])))
