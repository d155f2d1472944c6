"""The datasette site of ``yimao serve``: its metadata, read from the database's own
documentation, and how the file is opened (:mod:`yimao_db.web.server` runs it).

The database is served under the name ``yimao`` whatever the file is called (so every URL
in the documentation holds), read-only:

* **immutable** (``immutable=1``: no locks, no ``-shm`` file) when nothing can be writing
  it: the directory cannot be written by this user (so no writer could make a ``-wal``
  file beside the database) and there is no ``-wal`` file. This is how the read-only
  commands open such a file too (:func:`yimao_db.db.reader_engine`).
* **plain read-only** (``mode=ro``) otherwise: a ``yimao cast`` or ``yimao import`` may
  write while the site is up, and the pages show its readings as soon as it commits. An
  immutable connection would not see them and could read a half-moved page of the
  write-ahead log, so it is never used for a file that can be written.

Every connection to it, datasette's and the pages', is also read-only by ``PRAGMA
query_only`` and limited by :mod:`yimao_db.web.limits` (``yimao sql``'s guard, the size of
a value, SQLite's memory, time, the rows of one query); datasette is given no writer.

The site has no login, so it listens on a loopback address unless ``--allow-remote`` says
otherwise (:func:`check_host`), and it shows no visitor the file's path or the server's
threads (:mod:`yimao_db.web.plugin`).
"""

from __future__ import annotations

import html
import ipaddress
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import Engine, event

from yimao_db import db as dbmod
from yimao_db.errors import UsageError
from yimao_db.sql.session import SQLITE_MAX_VALUE
from yimao_db.web import limits

DATABASE = "yimao"  # the database's name in datasette's URLs
STATIC = "yimao-static"  # the URL prefix of the plugin's CSS and JavaScript
HERE = Path(__file__).resolve().parent
SETTINGS = {
    "sql_time_limit_ms": limits.TIME_LIMIT_MS,
    "facet_time_limit_ms": limits.FACET_TIME_LIMIT_MS,
    "max_returned_rows": limits.MAX_RETURNED_ROWS,
    "allow_csv_stream": False,  # every row of a table in one request: yimao export does it
    "suggest_facets": False,  # a query per column on every table page; the facets are set
    "num_sql_threads": 3,
}
MAX_CONNECTIONS = 64  # requests served at once; more get 503 (uvicorn's limit_concurrency)


@dataclass(frozen=True)
class Entry:
    """A table or view as the home and database pages list it."""

    name: str
    kind: str  # table or view
    description: str


@dataclass(frozen=True)
class Group:
    key: str  # views, readings, passages, other
    title: str
    entries: tuple[Entry, ...]


READING_TABLES = ("reading", "reading_line", "reading_note", "reading_outcome", "reading_tag")
PASSAGE_TABLES = ("source_passage", "passage_citation")


def guide(tables: list[dict[str, Any]]) -> list[Group]:
    """The order the home and database pages list ``tables`` (rows of ``meta_table``, in
    documentation order) in: the public views (the stable contract), the readings with
    their journal, the book's passages, then every other table and view as the
    documentation orders them (alembic's bookkeeping last)."""
    from yimao_db.kb.views import views

    rows = {t["name"]: t for t in tables}

    def entries(names: list[str]) -> tuple[Entry, ...]:
        return tuple(
            Entry(n, rows[n]["kind"], " ".join(str(rows[n]["description"]).split()))
            for n in names
            if n in rows
        )

    public = [v.name for v in views().values() if v.public]
    led = [*public, *READING_TABLES, *PASSAGE_TABLES]
    return [
        Group("views", "The public views: one row per thing, ready to read", entries(public)),
        Group("readings", "The readings and their journal", entries(list(READING_TABLES))),
        Group("passages", "The book's passages", entries(list(PASSAGE_TABLES))),
        Group(
            "other",
            "Every other table and view: the rules, symbols and their documentation",
            entries([t["name"] for t in tables if t["name"] not in led]),
        ),
    ]


@dataclass(frozen=True)
class Site:
    """What the plugin needs: the served file, how it is opened, and an engine reading it."""

    path: Path
    immutable: bool
    engine: Engine


def opens_immutable(path: Path) -> bool:
    """True when nothing can be writing ``path`` (see the module's docstring)."""
    return dbmod.nothing_writes(path)


def metadata(tables: list[dict[str, Any]], columns: list[dict[str, Any]]) -> dict[str, Any]:
    """datasette's metadata: the documentation with sort orders and facets
    (:func:`yimao_db.present.schema_doc.datasette_metadata`) and the canned queries."""
    from yimao_db.present.schema_doc import datasette_metadata
    from yimao_db.web.queries import queries

    found = datasette_metadata(tables, columns, DATABASE)
    canned: dict[str, Any] = {}
    for q in queries().values():
        entry: dict[str, Any] = {"sql": q.canned_sql, "title": q.title}
        if q.params:  # the heading names the printed value: the page asks for any
            example = html.escape(f"{q.name}?{urlencode(q.example)}")
            names = ", ".join(f"<code>{html.escape(n)}</code>" for n in q.example)
            entry["params"] = list(q.example)
            entry["description_html"] = (
                f"From docs/queries.md, with the parameter{'s' if len(q.params) > 1 else ''} "
                f'{names}: <a href="{example}">the example in the documentation</a>.'
            )
        else:
            entry["description_html"] = f"From docs/queries.md, under “{html.escape(q.heading)}”."
        canned[q.name] = entry
    found["databases"][DATABASE]["queries"] = canned
    return found


def loopback(host: str) -> bool:
    """True when every address ``host`` names is this machine's loopback (127.0.0.0/8,
    ::1; ``localhost``); False for any other, or a name that does not resolve."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return False
    try:
        return bool(infos) and all(
            ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]).is_loopback for info in infos
        )
    except ValueError:
        return False


def check_host(host: str, allow_remote: bool) -> str | None:
    """None for a loopback ``host``; else UsageError unless ``allow_remote``, and then the
    warning to print."""
    if loopback(host):
        return None
    exposed = (
        f"--host {host} is not a loopback address: whoever reaches it reads everything in "
        "the database, stored questions and notes included (the site has no login)"
    )
    if not allow_remote:
        raise UsageError(f"{exposed}; add --allow-remote to serve it anyway")
    return f"warning: {exposed}"


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening (port 0: any free port); UsageError
    for a busy port or a host that is not this machine's."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UsageError(f"cannot listen on {host!r}: {exc}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        reason = exc.strerror or str(exc)
        hint = " (another server uses it: give another --port)" if port else ""
        raise UsageError(f"cannot listen on {host}:{port}: {reason}{hint}") from None
    sock.set_inheritable(True)
    return sock


@contextmanager
def opened(path: Path) -> Iterator[Site]:
    """The site for the file at ``path``, its engine disposed of at the end; every
    connection of the engine is limited as datasette's are, with the value limit of
    ``yimao sql`` (the pages run only their own SQL)."""
    engine = dbmod.reader_engine(str(path))

    @event.listens_for(engine, "connect")
    def _limited(dbapi_connection: Any, _record: Any) -> None:
        limits.limit_connection(dbapi_connection, SQLITE_MAX_VALUE)

    try:
        yield Site(path, opens_immutable(path), engine)
    finally:
        engine.dispose()
