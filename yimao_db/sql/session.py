"""The connection ``yimao sql`` runs its one statement on: read-only, limited, rolled back.

Each ``yimao sql`` opens its own connection (never a pooled one) and closes it at the end.

SQLite (the file opened ``mode=ro`` with ``PRAGMA query_only`` by
:func:`yimao_db.db.reader_engine`):

* the authorizer of :mod:`yimao_db.sql.guard` (reads, reporting pragmas, computing functions);
* one ``BEGIN`` … ``ROLLBACK`` transaction, so every row comes from one snapshot;
* a value (string, blob, row) may hold at most :data:`SQLITE_MAX_VALUE` bytes
  (``SQLITE_LIMIT_LENGTH``): ``zeroblob(1e9)`` or a runaway ``group_concat`` fails at once;
* temporary tables and sorts stay in memory (``temp_store = MEMORY``, so a runaway sort
  cannot fill the disk), and SQLite's heap is capped at :data:`SQLITE_HEAP_LIMIT` bytes
  (``PRAGMA hard_heap_limit``: for the whole process, and it can only be lowered again —
  yimao-db's own work needs a few MiB of it); past it the query fails with "out of memory".

PostgreSQL (psycopg, whatever driver the URL names):

* ``BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`` … always ``ROLLBACK``, never COMMIT:
  READ ONLY does not stop large objects (``lo_from_bytea``), notifications or
  transaction-level advisory locks, and a rollback undoes all three;
* ``SET LOCAL`` through ``set_config(…, true)``: ``statement_timeout`` (the server stops a
  statement at the limit even if yimao is killed), ``standard_conforming_strings = on``
  (backslashes in '…' are text, as :mod:`yimao_db.sql.lex` reads them) and, from
  PostgreSQL 14, ``client_connection_check_interval`` (the server notices within a second
  that yimao is gone);
* the function checks of :mod:`yimao_db.sql.guard`, on every name of the text (a call,
  attribute notation ``(x).f``, anything) and on the calls in the definitions of the views
  it may read, before the statement runs;
* rows come through a server-side cursor (``DECLARE`` … ``FETCH``), a batch at a time,
  over the statement as a sub-query whose rows the server measures: one larger than
  :data:`PG_MAX_ROW` bytes fails the query instead of reaching yimao (this also refuses a
  data-modifying WITH). EXPLAIN and SHOW run as one prepared statement; an unterminated
  literal is sent as it is, for the server's own syntax error. All go through the
  extended protocol, which refuses a second statement hidden in the text.
"""

from __future__ import annotations

import contextlib
import math
import os
import socket
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import URL

from yimao_db.db import reader_engine
from yimao_db.dialect import POSTGRESQL, WORK_MEM_AT_LEAST
from yimao_db.errors import DatabaseError
from yimao_db.sql import guard as sqlguard
from yimao_db.sql import lex as sqllex

APPLICATION_NAME = "yimao sql"
SQLITE_MAX_VALUE = 16 * 2**20  # bytes in one string, blob or row
SQLITE_HEAP_LIMIT = 128 * 2**20  # bytes; the literal below must say the same
_SQLITE_SETUP = ("PRAGMA temp_store = MEMORY", "PRAGMA hard_heap_limit = 134217728")
# Statements a PostgreSQL server-side cursor can hold; EXPLAIN and SHOW run directly.
_CURSOR_KEYWORDS = frozenset({"SELECT", "WITH", "VALUES", "TABLE"})
_PG_BEGIN = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
_PG_SETTINGS = (
    "SELECT set_config('statement_timeout', %(timeout)s, true), "
    "set_config('standard_conforming_strings', 'on', true), "
    "set_config('jit', 'off', true)"  # as every yimao session: dialect.postgresql_session
)
_PG_CLIENT_CHECK = "SELECT set_config('client_connection_check_interval', '1000', true)"
# The statement's rows, unchanged, unless one is larger than PG_MAX_ROW bytes: the server then
# fails the query (a text cast to int names the limit) instead of sending the row.
PG_MAX_ROW = 16 * 2**20
PG_TOO_BIG = "yimao sql: a row of more than 16 MiB"
_PG_ROWS_HEAD = "SELECT q.* FROM (\n"
_PG_ROWS_TAIL = (
    "\n) AS q WHERE CASE WHEN pg_catalog.pg_column_size(q.*) > 16777216 "
    "THEN ('yimao sql: a row of more than 16 MiB: ' || pg_catalog.pg_column_size(q.*))::integer "
    "END IS NULL"
)

if TYPE_CHECKING:
    import psycopg

Fetch = Callable[[int], list[tuple[Any, ...]]]  # the next rows, at most that many


def _no_rows(_count: int) -> list[tuple[Any, ...]]:
    return []


class SqliteSession:
    """``yimao sql``'s SQLite connection, in its transaction (see the module docstring)."""

    def __init__(self, url: URL) -> None:
        self.path = url.database or "the database"  # how errors name the file
        self._engine = reader_engine(url)
        raw = self._engine.raw_connection()
        con = raw.driver_connection
        raw.detach()  # ours alone: closed, not handed back to the pool (and reset) at the end
        assert isinstance(con, sqlite3.Connection)
        self.connection = con
        self._cursor: sqlite3.Cursor | None = None
        self.authorizer = sqlguard.SqliteAuthorizer()
        try:
            con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, SQLITE_MAX_VALUE)
            for pragma in _SQLITE_SETUP:
                con.execute(pragma)
            con.set_authorizer(self.authorizer)
            con.execute("BEGIN")
        except BaseException:
            self._release()
            raise

    def start(
        self, statement: sqllex.Statement, params: Mapping[str, Any]
    ) -> tuple[list[str] | None, Fetch]:
        self._cursor = cursor = self.connection.execute(statement.sql, dict(params))
        if cursor.description is None:
            return None, _no_rows
        return [str(d[0]) for d in cursor.description], cursor.fetchmany

    def interrupt(self, *, hard: bool = False) -> None:
        """Stop the running statement (from another thread); nothing harder exists."""
        self.connection.interrupt()

    def close(self) -> None:
        try:
            if self._cursor is not None:
                self._cursor.close()  # its statement ends: an interrupt is over
            if self.connection.in_transaction:
                self.connection.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # closing the connection rolls back all the same
        finally:
            self._release()

    def _release(self) -> None:
        self.connection.close()
        self._engine.dispose()


class PostgresSession:
    """``yimao sql``'s PostgreSQL connection, in its transaction (see the module docstring)."""

    def __init__(self, url: URL, timeout: float | None) -> None:
        import psycopg
        from psycopg.types.string import TextLoader

        psycopg_url = url.set(drivername="postgresql+psycopg")
        args, kwargs = psycopg_url.get_dialect()().create_connect_args(psycopg_url)
        kwargs.setdefault("application_name", APPLICATION_NAME)  # pg_stat_activity shows it
        self.connection = psycopg.connect(*args, **kwargs, autocommit=True)
        try:
            for json_type in ("json", "jsonb"):  # JSON values as their text, as on SQLite
                self.connection.adapters.register_loader(json_type, TextLoader)
            self._cursor = self.connection.cursor()
            self._cursor.execute(_PG_BEGIN)
            milliseconds = 0 if timeout is None else max(1, math.ceil(timeout * 1000))
            self._cursor.execute(_PG_SETTINGS, {"timeout": str(milliseconds)})
            self._cursor.execute(WORK_MEM_AT_LEAST)  # as dialect.postgresql_session
            if self.connection.info.server_version >= 140000:
                self._cursor.execute(_PG_CLIENT_CHECK)
        except BaseException:
            self.connection.close()
            raise

    def _view_calls(self, names: set[str]) -> set[str]:
        """The names called in the definitions of the views ``names`` may be, and of the
        views those read, and so on."""
        calls: set[str] = set()
        seen: list[int] = []
        while names:
            found = self._cursor.execute(
                sqlguard.PG_VIEWS_SQL, {"names": sorted(names), "seen": seen}
            ).fetchall()
            names = set()
            for oid, definition in found:
                seen.append(oid)
                pieces = sqllex.lex(definition, POSTGRESQL)
                calls |= sqllex.called_names(pieces)
                names |= sqllex.identifiers(pieces)
        return calls

    def _refuse_calls(self, names: set[str]) -> None:
        if not names:
            return
        rows = self._cursor.execute(sqlguard.PG_FUNCTIONS_SQL, {"names": sorted(names)})
        refused = sqlguard.pg_refused(rows.fetchall())
        if refused:
            raise sqlguard.function_refused(refused[0])

    def start(
        self, statement: sqllex.Statement, params: Mapping[str, Any]
    ) -> tuple[list[str] | None, Fetch]:
        bound = dict(params) or None
        # Every name of the statement, not only those before "(": PostgreSQL reads
        # (x).f, t.f and $1.f as f(x) (see yimao_db.sql.guard).
        names = sqllex.identifiers(statement.pieces)
        self._refuse_calls(names | self._view_calls(names))
        keyword = sqllex.first_keyword(statement.pieces)
        sql = sqllex.driver_sql(POSTGRESQL, statement.pieces, with_params=bound is not None)
        cursor: psycopg.Cursor[Any] | psycopg.ServerCursor[Any]
        streamed = keyword in _CURSOR_KEYWORDS
        if streamed and any(kind == "open" for kind, _ in statement.pieces):
            streamed = False  # an unterminated literal: the server's own syntax error
        if streamed:
            cursor = self.connection.cursor(name="yimao_sql")
            limited = _PG_ROWS_HEAD + sql + _PG_ROWS_TAIL  # the statement, as yimao sql runs it
            cursor.execute(limited, bound)
        else:
            cursor = self._cursor
            cursor.execute(sql, bound, prepare=True)
        if cursor.description is None:
            return None, _no_rows
        return [d.name for d in cursor.description], cursor.fetchmany

    def interrupt(self, *, hard: bool = False) -> None:
        """From another thread: ask the server to cancel the statement; ``hard``: shut the
        connection's socket down, so that a call waiting on it (or reading a huge message)
        fails at once (a duplicate descriptor: libpq's own stays open until close)."""
        if not hard:
            self.connection.cancel_safe(timeout=1.0)
            return
        with contextlib.suppress(OSError):
            with socket.socket(fileno=os.dup(self.connection.fileno())) as sock:
                sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        import psycopg

        in_transaction = psycopg.pq.TransactionStatus.INTRANS
        in_error = psycopg.pq.TransactionStatus.INERROR
        try:
            status = self.connection.info.transaction_status
            if status in (in_transaction, in_error):
                self.connection.execute("ROLLBACK")
        except psycopg.Error:
            pass  # a broken connection: the server rolls back when it closes
        finally:
            self.connection.close()


Session = SqliteSession | PostgresSession


@contextmanager
def open_session(url: URL, deadline: float | None) -> Iterator[Session]:
    """A session for ``url`` (closed, its transaction rolled back, on leaving); ``deadline``
    is a :func:`time.monotonic` time, or None for no limit."""
    backend = url.get_backend_name()
    if backend == POSTGRESQL:
        remaining = None if deadline is None else max(0.001, deadline - time.monotonic())
        session: Session = PostgresSession(url, remaining)
    elif backend == "sqlite":
        session = SqliteSession(url)
    else:
        raise DatabaseError(f"yimao sql runs on SQLite and PostgreSQL, not {backend}")
    try:
        yield session
    finally:
        session.close()
