"""Everything that differs between SQLite and PostgreSQL, in one place.

The schema, the views and the queries of yimao-db are portable SQL. What is not lives here:

* connection set-up: SQLite pragmas and ``BEGIN``/``BEGIN IMMEDIATE``; PostgreSQL reader
  transactions (read-only, repeatable read: one snapshot for every statement of a read);
* (the read-only query runner, ``yimao sql``, keeps its own per-backend rules in
  :mod:`yimao_db.sqllex`, :mod:`yimao_db.sqlguard` and :mod:`yimao_db.sqlsession`);
* the sort order of exports (:mod:`yimao_db.export`): byte order of UTF-8 text on both
  (SQLite ``BINARY`` = PostgreSQL ``COLLATE "C"``) and NULLs first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, text
from sqlalchemy import types as satypes
from sqlalchemy.engine import URL

SQLITE = "sqlite"
POSTGRESQL = "postgresql"


def backend(bind: Engine | Connection | URL) -> str:
    """``sqlite`` or ``postgresql`` (or another SQLAlchemy backend name)."""
    if isinstance(bind, URL):
        return bind.get_backend_name()
    return bind.dialect.name


# --- connection set-up (yimao_db.db) -------------------------------------------------------


def sqlite_connect_pragmas(
    *, readonly: bool, busy_timeout_ms: int, foreign_keys: bool = True
) -> tuple[str, ...]:
    """Run on every new SQLite connection (before any transaction).

    ``foreign_keys=False`` is for ``yimao build`` only: SQLite rebuilds a table to change
    it, and with foreign keys on, dropping the old table would cascade to the rows that
    refer to it; the build checks every foreign key itself before it commits.
    """
    common = (
        f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}",
        f"PRAGMA busy_timeout={int(busy_timeout_ms)}",
    )
    if readonly:
        return (*common, "PRAGMA query_only=ON")
    # WAL: readers never block the writer and see only committed transactions;
    # synchronous=NORMAL is durable against application crashes in WAL mode.
    return (*common, "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


def sqlite_begin(*, readonly: bool) -> str:
    """Writers take the write lock up front, so they queue on the busy timeout instead of
    failing with 'database is locked' when a deferred transaction tries to upgrade."""
    return "BEGIN" if readonly else "BEGIN IMMEDIATE"


def postgresql_reader_options() -> dict[str, Any]:
    """Engine options of a PostgreSQL reader: read-only transactions, one snapshot each;
    psycopg prepares every statement (``prepare_threshold=0``) so that a pooled connection
    plans the chart views once (see :func:`postgresql_reader_session` and
    :func:`postgresql_end_reads_with_commit`)."""
    return {
        "isolation_level": "REPEATABLE READ",
        "execution_options": {"postgresql_readonly": True},
        "connect_args": {"prepare_threshold": 0},
    }


def postgresql_end_reads_with_commit(engine: Engine) -> None:
    """End every transaction of a read-only PostgreSQL engine with COMMIT, not ROLLBACK.

    psycopg forgets its prepared statements whenever it rolls back, which is how
    SQLAlchemy ends a ``with engine.connect()`` block; the chart views would then be
    planned again on every read. Ending a READ ONLY transaction with COMMIT has the same
    effect as ROLLBACK (nothing was written; an aborted transaction is rolled back by the
    server either way), and keeps the plans.
    """

    def _commit(dbapi_connection: Any) -> None:
        dbapi_connection.commit()

    engine.dialect.do_rollback = _commit  # type: ignore[method-assign]


def postgresql_reader_session() -> tuple[str, ...]:
    """Run once per new PostgreSQL reader connection. Planning the chart views (some thirty
    joined tables) takes ~100 ms and running them ~1 ms: reuse one generic plan per
    prepared statement instead of planning every execution afresh."""
    return ("SET plan_cache_mode = force_generic_plan",)


# --- reading on the driver's own cursor -----------------------------------------------------


@contextmanager
def snapshot(conn: Connection) -> Iterator[Any]:
    """A cursor of the driver connection under ``conn``, for hot read paths that skip
    SQLAlchemy's result handling, reading one snapshot: inside ``conn``'s transaction if it
    has one; else SQLite gets a BEGIN … COMMIT of its own (its driver runs each statement
    in its own transaction otherwise), and psycopg opens one itself."""
    dbapi = conn.connection.dbapi_connection
    assert dbapi is not None
    cursor = dbapi.cursor()
    own = backend(conn) == SQLITE and not dbapi.in_transaction
    try:
        if own:
            cursor.execute("BEGIN")
        yield cursor
        if own:
            cursor.execute("COMMIT")
    finally:
        if own and dbapi.in_transaction:
            cursor.execute("ROLLBACK")
        cursor.close()


def named_params(conn: Connection, sql: str) -> str:
    """``sql`` with its ``:name`` placeholders as the driver takes them: sqlite3 reads them
    as they are, psycopg wants ``%(name)s`` (and the SQL must hold no other ``%`` or ``:``)."""
    if backend(conn) != POSTGRESQL:
        return sql
    return re.sub(r":(\w+)", r"%(\1)s", sql)


# --- exports (yimao_db.export) --------------------------------------------------------------


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def sort_term(name: str, column: str, type_: satypes.TypeEngine[Any] | None) -> str:
    """One ORDER BY term sorting identically on both backends: text by the bytes of its
    UTF-8 encoding (SQLite's BINARY collation; PostgreSQL's "C"), NULLs first."""
    term = quote(column)
    if name == SQLITE:
        term += " COLLATE BINARY"
    elif name == POSTGRESQL and isinstance(type_, satypes.String):
        term += ' COLLATE "C"'
    return term + " NULLS FIRST"


# --- SQLite catalogue and file checks (used by ``yimao check``) ------------------------

SQLITE_SCHEMA_SQL = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"


def sqlite_integrity_check(conn: Connection) -> list[str]:
    """``PRAGMA integrity_check``: ``['ok']`` for a sound file, else its messages."""
    return [str(r[0]) for r in conn.exec_driver_sql("PRAGMA integrity_check")]


def sqlite_foreign_key_violations(conn: Connection) -> list[tuple[str, Any, str, str | None]]:
    """``PRAGMA foreign_key_check`` rows as (table, rowid, parent table, referring column)."""
    column_of = text('SELECT "from" FROM pragma_foreign_key_list(:t) WHERE id = :id')
    found = []
    for table, rowid, parent, fkid in conn.exec_driver_sql("PRAGMA foreign_key_check"):
        column = conn.execute(column_of, {"t": table, "id": fkid}).scalar()
        found.append((str(table), rowid, str(parent), None if column is None else str(column)))
    return found


def sqlite_schema_key(sql: str | None) -> tuple[str, ...]:
    """A stored CREATE statement in a form that compares equal when only white space or the
    order of table constraints differs (alembic's batch mode, which rebuilds a table to
    change it, writes the constraints in an order that varies from run to run)."""
    flat = " ".join((sql or "").split())
    if not flat.upper().startswith("CREATE TABLE") or "(" not in flat:
        return (flat,)
    head, body = flat.split("(", 1)
    body, _, tail = body.rpartition(")")
    items, depth, start, quote = [], 0, 0, ""
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(body[start:i].strip())
            start = i + 1
    items.append(body[start:].strip())
    columns = [x for x in items if not x.upper().startswith("CONSTRAINT")]
    constraints = sorted(x for x in items if x.upper().startswith("CONSTRAINT"))
    return (head, *columns, *constraints, tail)


def sqlite_schema_sql(conn: Connection) -> dict[tuple[str, str], str | None]:
    """(type, name) → the stored SQL of every table, index, view and trigger."""
    return {(str(t), str(n)): sql for t, n, sql in conn.exec_driver_sql(SQLITE_SCHEMA_SQL)}


# --- bulk inserts (yimao_db.importer) -------------------------------------------------------


def insert_sql(conn: Connection, table: str, columns: Sequence[str], rows: int = 1) -> str:
    """``INSERT INTO table (columns) VALUES (…), (…) …`` for ``rows`` rows, in the driver's
    placeholder style (table and column names are the program's own, never user text)."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    row = f"({', '.join([mark] * len(columns))})"
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row] * rows)}"


def new_reading_ids(conn: Connection, count: int) -> list[int]:
    """``count`` new reading ids, ascending, for rows inserted before the next call.

    PostgreSQL: taken from the id sequence, as a cast takes its id (unique even with other
    writers at work; another session may take ids in between). SQLite: the ids after the
    largest stored one, as SQLite gives a cast (the caller holds the write lock)."""
    if conn.dialect.name == POSTGRESQL:
        query = text(
            "SELECT nextval(pg_get_serial_sequence('reading', 'id')) FROM generate_series(1, :n)"
        )
        return sorted(int(i) for i in conn.execute(query, {"n": count}).scalars())
    top = int(conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM reading")).scalar_one())
    return list(range(top + 1, top + count + 1))
