"""Everything that differs between SQLite and PostgreSQL, in one place.

The schema, the views and the queries of yimao-db are portable SQL. What is not lives here:

* connection set-up: SQLite pragmas and ``BEGIN``/``BEGIN IMMEDIATE``; PostgreSQL reader
  transactions (read-only, repeatable read: one snapshot for every statement of a read);
* (the read-only query runner, ``yimao sql``, keeps its own per-backend rules in
  :mod:`yimao_db.sql.lex`, :mod:`yimao_db.sql.guard` and :mod:`yimao_db.sql.session`);
* the sort order of exports (:mod:`yimao_db.export`): byte order of UTF-8 text on both
  (SQLite ``BINARY`` = PostgreSQL ``COLLATE "C"``) and NULLs first;
* what ``yimao check`` must look at itself on SQLite (:mod:`yimao_db.check`): the file's
  integrity, the storage class of a value, text that is not UTF-8, and which errors mean a
  damaged file.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    text,
)
from sqlalchemy import types as satypes
from sqlalchemy.engine import URL, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.elements import TextClause

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


# The memory a sort or hash of a report may take before it spills to disk, at least (a
# server or role that gives more keeps it): PostgreSQL's default, 4 MB, spills the sort of a
# count(DISTINCT reading_id) of the readings whose 妻財 line is void (some 190,000 ids at
# a million readings): 30 ms, 21 ms with 16 MB, where SQLite reads them in order from its
# index in 14 ms. For the session (pg_settings gives work_mem in kB).
WORK_MEM_AT_LEAST = (
    "SELECT pg_catalog.set_config('work_mem', '16MB', false)"
    " FROM pg_catalog.pg_settings WHERE name = 'work_mem' AND setting::bigint < 16384"
)


def postgresql_session() -> tuple[str, ...]:
    """Run once per new PostgreSQL connection of every engine yimao makes. ``jit = off``:
    the plan of a report over the reading views is costly enough (``v_reading_sign`` joins
    some ninety tables in 24 arms) for PostgreSQL to compile it to machine code first, which
    took 10 of the 15 s of ``SELECT sign, count(*) FROM v_reading_sign GROUP BY 1`` at
    100,000 readings, and gained nothing back. Revision 0022 sets the same for the database
    itself, for every client, where the role that builds it may. ``work_mem`` at least
    16 MB (:data:`WORK_MEM_AT_LEAST`): for the session only, since it is the server's
    memory (docs/interop.md says how to give other clients the same)."""
    return ("SET jit = off", WORK_MEM_AT_LEAST)


# ALTER DATABASE … SET jit = off where the role may; a refusal is caught inside (the DO
# block's own subtransaction), leaving the build's transaction as it was
_JIT_OFF_FOR_DATABASE = """
DO $$
BEGIN
  EXECUTE pg_catalog.format('ALTER DATABASE %I SET jit = off', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  NULL;
END
$$
"""


def database_without_jit(conn: Connection) -> str | None:
    """PostgreSQL, in a build: make other clients' new sessions of the database run without
    JIT (:func:`postgresql_session`), as revision 0022 did, when they would not: a database
    copied from a template or restored without its settings has lost it. The setting is the
    database's, which only a role that may change its settings can set; for another, a note
    to print, unless the server or the role already turns JIT off. None on SQLite."""
    if backend(conn) != POSTGRESQL:
        return None
    if _sessions_without_jit(conn):
        return None
    conn.execute(text(_JIT_OFF_FOR_DATABASE))
    if _sessions_without_jit(conn):
        return None
    return (
        "jit stays on for other clients of this database (psql, a reporting tool): "
        "reports over many readings' signs take several times as long; its owner can run "
        "ALTER DATABASE … SET jit = off (docs/interop.md)"
    )


def _sessions_without_jit(conn: Connection) -> bool:
    """Whether a new session of the database starts with jit off: the database's setting,
    or this session's value before yimao's own SET (the server's or the role's)."""
    database_off = conn.execute(
        text(
            "SELECT 1 FROM pg_catalog.pg_db_role_setting s JOIN pg_catalog.pg_database d"
            " ON d.oid = s.setdatabase WHERE d.datname = current_database()"
            " AND s.setrole = 0 AND 'jit=off' = ANY (s.setconfig)"
        )
    ).first()
    # reset_val: this session's value before yimao's own SET (the server's, the role's)
    started_off = conn.execute(
        text("SELECT reset_val FROM pg_catalog.pg_settings WHERE name = 'jit'")
    ).scalar()
    return database_off is not None or started_off == "off"


def postgresql_reader_session() -> tuple[str, ...]:
    """Run once per new PostgreSQL reader connection, after :func:`postgresql_session`.
    Planning the chart views (some thirty joined tables) takes ~100 ms and running them
    ~1 ms: reuse one generic plan per prepared statement instead of planning every
    execution afresh."""
    return ("SET plan_cache_mode = force_generic_plan",)


def lock_reading(conn: Connection, reading_id: int) -> None:
    """Make the writers of one reading's journal take turns, until ``conn``'s transaction
    ends. SQLite writers already do: each holds the database's write lock from its
    ``BEGIN IMMEDIATE``. PostgreSQL writers run side by side, so two that both found a tag
    or an outcome missing would both insert it (a unique violation): the reading's row is
    locked ``FOR NO KEY UPDATE`` (casts and notes, which only refer to it, go on), and in
    READ COMMITTED the next statement sees what the writer before committed."""
    if backend(conn) == POSTGRESQL:
        conn.execute(
            text("SELECT id FROM reading WHERE id = :id FOR NO KEY UPDATE"), {"id": reading_id}
        )


_ADVISORY_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
BUILD_LOCK_KEY = 0x5167_B11D  # the builds of one database (advisory locks are per database)


def take_turns(conn: Connection, key: int) -> None:
    """PostgreSQL: wait for the advisory lock ``key``, held until ``conn``'s transaction
    ends, so that the transactions taking it run one at a time. SQLite: nothing (a writer
    holds the database's write lock from its ``BEGIN IMMEDIATE``)."""
    if backend(conn) == POSTGRESQL:
        conn.execute(_ADVISORY_LOCK, {"key": key})


def lock_build(conn: Connection) -> None:
    """Make the builds of one database take turns, until ``conn``'s transaction ends, before
    the build looks at the database. SQLite builds already do: each holds the write lock from
    its ``BEGIN IMMEDIATE``. Two PostgreSQL builds of an empty database would both create
    its tables, and the second would fail on the server's catalogue (a duplicate type
    name); with the lock the second waits for the first to commit and then, in READ
    COMMITTED, finds the database built and at head, like a build run after it."""
    take_turns(conn, BUILD_LOCK_KEY)


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


@contextmanager
def joins_as_written(conn: Connection, cursor: Any) -> Iterator[None]:
    """On PostgreSQL, plan the statements run on ``cursor`` with their joins in the order the
    views write them (``join_collapse_limit`` and ``from_collapse_limit`` 1, for this
    transaction only, restored after). The chart's views are written reading first, the
    order SQLite follows; searching every order instead made PostgreSQL plan one chart in
    about 1.3 s and run it in 50 ms (docs/performance.md). SQLite: nothing to do."""
    if backend(conn) != POSTGRESQL:
        yield
        return
    cursor.execute(
        "SELECT current_setting('join_collapse_limit'), current_setting('from_collapse_limit')"
    )
    before = cursor.fetchone()
    cursor.execute(
        "SELECT set_config('join_collapse_limit', '1', true), "
        "set_config('from_collapse_limit', '1', true)"
    )
    yield  # after an error the transaction is rolled back, and the settings with it
    cursor.execute(
        "SELECT set_config('join_collapse_limit', %s, true), "
        "set_config('from_collapse_limit', %s, true)",
        before,
    )


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

# every object of the schema but SQLite's own tables (sqlite_sequence, sqlite_stat1 …); the
# indexes SQLite makes for UNIQUE and PRIMARY KEY constraints are included
SQLITE_SCHEMA_SQL = (
    "SELECT type, name, tbl_name, sql FROM sqlite_master "
    "WHERE name NOT LIKE 'sqlite_%' OR name LIKE 'sqlite_autoindex_%'"
)


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


def sqlite_schema_sql(conn: Connection) -> dict[tuple[str, str], tuple[str, str | None]]:
    """(type, name) → (its table, its stored SQL) of every table, index, view and trigger."""
    return {
        (str(t), str(n)): (str(table), sql)
        for t, n, table, sql in conn.exec_driver_sql(SQLITE_SCHEMA_SQL)
    }


# SQLite errors about the machine rather than the file: the file could not be read at all.
_SQLITE_ENVIRONMENT = (
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "SQLITE_CANTOPEN",
    "SQLITE_PERM",
    "SQLITE_AUTH",
    "SQLITE_NOMEM",
    "SQLITE_INTERRUPT",
    "SQLITE_IOERR",
    "SQLITE_FULL",
    "SQLITE_READONLY",
)


def sqlite_file_problem(exc: DBAPIError) -> bool:
    """Whether a SQLite error says something about the file (damaged, not a database, a
    malformed schema, a table or index that is not what the statement expects) rather than
    about the machine (busy, locked, unreadable, out of memory): ``yimao check`` reports the
    former as a problem and stops with an error on the latter."""
    orig = exc.orig
    if not isinstance(orig, sqlite3.Error):
        return False
    return not str(getattr(orig, "sqlite_errorname", "")).startswith(_SQLITE_ENVIRONMENT)


def sqlite_damage(exc: DBAPIError) -> bool:
    """Whether a SQLite error says the file is damaged or not a database at all."""
    name = str(getattr(exc.orig, "sqlite_errorname", ""))
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def _decode_tolerant(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


@contextmanager
def sqlite_tolerant_text(conn: Connection) -> Iterator[None]:
    """SQLite stores whatever bytes it is given as text; Python's sqlite3 fails on those that
    are not UTF-8. Within the block they are read with their bad bytes as lone surrogates
    (U+DC80..U+DCFF), which :func:`is_utf8` tells apart. No-op on other backends, whose
    servers validate text."""
    if backend(conn) != SQLITE:
        yield
        return
    driver = conn.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    previous = driver.text_factory
    driver.text_factory = _decode_tolerant
    try:
        yield
    finally:
        driver.text_factory = previous


def is_utf8(value: str) -> bool:
    """False for text read by :func:`sqlite_tolerant_text` from bytes that are not UTF-8."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


SQLITE_UTF8_FUNCTION = "yimao_is_utf8"


def _bytes_are_utf8(data: object) -> int:
    if not isinstance(data, bytes):
        return 1
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return 1


def sqlite_add_functions(conn: Connection) -> None:
    """Register :data:`SQLITE_UTF8_FUNCTION` (1 if a blob's bytes are UTF-8) on ``conn``'s
    SQLite connection; it writes nothing, so a read-only connection can have it."""
    driver = conn.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    driver.create_function(SQLITE_UTF8_FUNCTION, 1, _bytes_are_utf8, deterministic=True)


def is_null(name: str, column: str) -> str:
    """SQL: ``column`` (SQL text naming a column) IS NULL, in a form that holds even in a NOT
    NULL column: SQLite's planner reads ``x IS NULL`` as false when ``x`` is declared NOT
    NULL, so a NULL written behind its back would go unseen; ``typeof(x) = 'null'`` is
    evaluated row by row."""
    if name == SQLITE:
        return f"typeof({column}) = 'null'"
    return f"{column} IS NULL"


def sqlalchemy_dialect(name: str) -> Dialect:
    """SQLAlchemy's dialect of a backend, to compile a statement for it once."""
    from sqlalchemy.dialects import postgresql, sqlite

    module = sqlite if name == SQLITE else postgresql
    made: Dialect = module.dialect()
    return made


def sqlite_storage_class(column: str) -> str:
    """SQL: ``typeof(column)`` (``column`` SQL text): null, integer, real, text or blob."""
    return f"typeof({column})"


def sqlite_not_utf8(columns: Sequence[str]) -> str:
    """SQL: true for a row where the text of one of ``columns`` (SQL text naming columns) is
    not UTF-8 (needs :func:`sqlite_add_functions`).

    The texts are joined with ``|`` (an ASCII byte never continues a UTF-8 sequence, so the
    join is UTF-8 exactly when each text is) and handed to Python once per row, and only
    when the join is not all printable ASCII: SQLite's GLOB reads any byte sequence that is
    not printable ASCII as a character outside ``' '..'~'``.
    """
    joined = " || '|' || ".join(
        f"CASE WHEN typeof({c}) = 'text' THEN {c} ELSE '' END" for c in columns
    )
    return f"({joined}) GLOB '*[^ -~]*' AND {SQLITE_UTF8_FUNCTION}(CAST(({joined}) AS BLOB)) = 0"


# Readings whose created_at may not be a UTC ISO 8601 time: what yimao check reads them
# with (a strict prefilter; Python's datetime.fromisoformat judges what it returns).
SQLITE_CREATED_AT_SUSPECTS = """
SELECT id, created_at FROM reading
WHERE NOT (strftime('%Y-%m-%dT%H:%M:%S', substr(created_at, 1, 19)) = substr(created_at, 1, 19)
           AND (substr(created_at, 20) = '+00:00'
                OR substr(created_at, 20) GLOB '.[0-9][0-9][0-9][0-9][0-9][0-9]+00:00'))
"""
POSTGRESQL_CREATED_AT_SUSPECTS = r"""
SELECT id, created_at FROM reading
WHERE created_at !~ ('^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])'
                     || 'T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{6})?\+00:00$')
"""


def created_at_suspects(conn: Connection) -> TextClause:
    """The readings (id, created_at) whose created_at may not be a UTC ISO 8601 time."""
    if backend(conn) == SQLITE:
        return text(SQLITE_CREATED_AT_SUSPECTS)
    return text(POSTGRESQL_CREATED_AT_SUSPECTS)


# --- bulk inserts (yimao_db.importing) -------------------------------------------------------


def insert_sql(conn: Connection, table: str, columns: Sequence[str], rows: int = 1) -> str:
    """``INSERT INTO table (columns) VALUES (…), (…) …`` for ``rows`` rows, in the driver's
    placeholder style (table and column names are the program's own, never user text)."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    row = f"({', '.join([mark] * len(columns))})"
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row] * rows)}"


def analyze(conn: Connection, tables: Iterable[str]) -> None:
    """PostgreSQL: gather the planner's statistics of ``tables`` (the seeded tables a build
    changed) in the caller's transaction, committed with it. Without them, until autovacuum
    gets to the new tables (a minute or more after the build), PostgreSQL plans the derived
    rows' statements for tables it takes to be nearly empty: the signs of an import's batch
    of 20,000 readings took 14.5-14.8 s so, 6.0-6.2 s with them. A role that does not own a
    table gets a warning and the table is skipped. SQLite: nothing (its plans are made
    without statistics)."""
    names = sorted(tables)
    if names and backend(conn) == POSTGRESQL:
        conn.exec_driver_sql("ANALYZE " + ", ".join(quote(n) for n in names))


def pg_copy(
    conn: Connection, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """``COPY table (columns) FROM STDIN`` with ``rows`` (PostgreSQL, psycopg 3), in the
    connection's transaction: several times faster than INSERT for many rows (table and
    column names are the program's own, never user text)."""
    quote = conn.dialect.identifier_preparer.quote
    sql = f"COPY {quote(table)} ({', '.join(quote(c) for c in columns)}) FROM STDIN"
    driver = conn.connection.driver_connection
    assert driver is not None  # an open connection
    try:
        with driver.cursor() as cursor, cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)
    except BaseException as exc:
        if not isinstance(exc, Exception):
            # Ctrl-C may land while psycopg talks to the server, leaving the connection in
            # the middle of the COPY ("another command is already in progress"): it is
            # closed, not rolled back and reused; the server rolls the transaction back.
            conn.invalidate(exc)
        raise


MAX_ID = 2**63 - 1  # the largest reading id SQLite and PostgreSQL can hold (a 64-bit integer)


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
