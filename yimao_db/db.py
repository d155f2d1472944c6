"""Opening the database: URL resolution, SQLite pragmas, transactions, read-only mode.

Every SQLite connection gets ``PRAGMA foreign_keys=ON`` and a busy timeout; writers use WAL
and ``BEGIN IMMEDIATE`` so concurrent writers queue instead of failing (for up to
``BUSY_TIMEOUT_MS``), and readers open the file with ``mode=ro`` plus ``PRAGMA query_only``.
In WAL mode a reader sees the database as of its transaction's first read: never a reading
without its lines. The pysqlite driver's own transaction handling is switched off so that
DDL (migrations) runs inside the same transaction as the seed: a build either commits whole
or leaves the previous database as it was. Engines pool their connections (opening a SQLite
connection costs more than a cast); dispose of an engine to close its file.

PostgreSQL readers run read-only REPEATABLE READ transactions (one snapshot per read).
The SQL that differs between the backends is in :mod:`yimao_db.dialect`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from yimao_db import dialect
from yimao_db.errors import DatabaseError, UsageError

DEFAULT_DB = "yimao.db"
ENV_VAR = "YIMAO_DB_URL"
BUSY_TIMEOUT_MS = 60_000


def resolve_url(db: str | None = None) -> URL:
    """``--db`` value, else ``$YIMAO_DB_URL``, else ``./yimao.db``; a path or an SQLAlchemy URL."""
    target = db or os.environ.get(ENV_VAR) or DEFAULT_DB
    if "://" in target:
        try:
            return make_url(target)
        except ArgumentError as exc:
            raise UsageError(f"not a database URL: {target!r} ({exc})") from None
    return URL.create("sqlite", database=str(Path(target).expanduser().resolve()))


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def sqlite_path(url: URL) -> Path | None:
    """The file behind a SQLite URL, or None for an in-memory database."""
    if not is_sqlite(url) or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database).resolve()


def check_writable(url: URL) -> None:
    """Refuse, with a clear message, to create a SQLite file where none can be written."""
    path = sqlite_path(url)
    if path is None:
        return
    if path.exists():
        if path.is_dir():
            raise DatabaseError(f"{path} is a directory, expected a database file")
        if not os.access(path, os.R_OK | os.W_OK):
            raise DatabaseError(f"cannot write the database {path}: permission denied")
        return
    parent = path.parent
    if not parent.is_dir():
        raise DatabaseError(f"cannot create {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DatabaseError(f"cannot create {path}: directory {parent} is not writable")


def _install_sqlite_hooks(engine: Engine, *, readonly: bool, foreign_keys: bool = True) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        for pragma in dialect.sqlite_connect_pragmas(
            readonly=readonly, busy_timeout_ms=BUSY_TIMEOUT_MS, foreign_keys=foreign_keys
        ):
            cursor.execute(pragma)
        cursor.close()

    begin = dialect.sqlite_begin(readonly=readonly)

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql(begin)


def writer_engine(db: str | URL | None = None, *, building: bool = False) -> Engine:
    """An engine for building and casting. ``building``: SQLite foreign keys are left off
    for the migrations to rebuild tables; ``yimao build`` checks them before committing."""
    url = db if isinstance(db, URL) else resolve_url(db)
    if is_sqlite(url):
        check_writable(url)
        engine = create_engine(url)
        _install_sqlite_hooks(engine, readonly=False, foreign_keys=not building)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _readonly_uri(path: Path) -> str:
    """``file:PATH?mode=ro``, percent-encoded; ``immutable=1`` where nothing can write.

    A WAL database opened read-only still needs its ``-shm`` file, which cannot be made in
    a directory we cannot write (a read-only file system or mount). When the directory is
    not writable and there is no ``-wal`` file (so no writer is at work), the file is read
    as immutable instead.
    """
    uri = f"file:{quote(str(path))}?mode=ro"
    wal = path.with_name(path.name + "-wal")
    if not os.access(path.parent, os.W_OK) and not wal.exists():
        uri += "&immutable=1"
    return uri


def reader_engine(db: str | URL | None = None) -> Engine:
    """A read-only engine: SQLite ``mode=ro`` + ``query_only``; PostgreSQL read-only
    REPEATABLE READ transactions."""
    url = db if isinstance(db, URL) else resolve_url(db)
    if is_sqlite(url):
        path = sqlite_path(url)
        if path is not None and not path.is_file():
            raise DatabaseError(f"no database at {path}; run `yimao build` first")
        target = _readonly_uri(path) if path is not None else ":memory:"
        engine = create_engine(URL.create("sqlite", database=target, query={"uri": "true"}))
        _install_sqlite_hooks(engine, readonly=True)
        return engine
    engine = create_engine(url, pool_pre_ping=True, **dialect.postgresql_reader_options())

    @event.listens_for(engine, "connect")
    def _session(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            for statement in dialect.postgresql_reader_session():
                cursor.execute(statement)
        dbapi_connection.commit()

    dialect.postgresql_end_reads_with_commit(engine)
    return engine
