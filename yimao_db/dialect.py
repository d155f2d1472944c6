"""Everything that differs between SQLite and PostgreSQL, in one place.

The schema, the views and the queries of yimao-db are portable SQL. What is not lives here:

* connection set-up: SQLite pragmas and ``BEGIN``/``BEGIN IMMEDIATE``; PostgreSQL reader
  transactions (read-only, repeatable read: one snapshot for every statement of a read);
* the read-only query runner's guards (:mod:`yimao_db.sqlrun`): SQLite's authorizer, the
  PostgreSQL ``SET TRANSACTION READ ONLY`` and one-statement-per-call execution, the lexical
  rules of each dialect (nested comments, dollar quotes), the driver's placeholder style, and
  how each database says "you tried to write";
* the sort order of exports (:mod:`yimao_db.export`): byte order of UTF-8 text on both
  (SQLite ``BINARY`` = PostgreSQL ``COLLATE "C"``) and NULLs first;
* what ``yimao check`` must look at itself on SQLite (:mod:`yimao_db.check`): the file's
  integrity, the storage class of a value, text that is not UTF-8, and which errors mean a
  damaged file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    LargeBinary,
    and_,
    case,
    cast,
    event,
    func,
    literal,
    text,
)
from sqlalchemy import types as satypes
from sqlalchemy.engine import URL, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.elements import ColumnElement, TextClause

SQLITE = "sqlite"
POSTGRESQL = "postgresql"


def backend(bind: Engine | Connection | URL) -> str:
    """``sqlite`` or ``postgresql`` (or another SQLAlchemy backend name)."""
    if isinstance(bind, URL):
        return bind.get_backend_name()
    return bind.dialect.name


# --- connection set-up (yimao_db.db) -------------------------------------------------------


def sqlite_connect_pragmas(*, readonly: bool, busy_timeout_ms: int) -> tuple[str, ...]:
    """Run on every new SQLite connection (before any transaction)."""
    common = ("PRAGMA foreign_keys=ON", f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
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


# --- the read-only query runner (yimao_db.sqlrun) -------------------------------------------

# Statements ``yimao sql`` accepts, by first keyword; everything else is refused unread.
READ_KEYWORDS: dict[str, frozenset[str]] = {
    SQLITE: frozenset({"SELECT", "WITH", "VALUES", "EXPLAIN", "PRAGMA"}),
    POSTGRESQL: frozenset({"SELECT", "WITH", "VALUES", "EXPLAIN", "TABLE", "SHOW"}),
}

# SQLite pragmas that only report; those taking an argument take a table or index name.
SQLITE_READ_PRAGMAS = frozenset(
    {
        "application_id",
        "busy_timeout",
        "collation_list",
        "compile_options",
        "data_version",
        "database_list",
        "encoding",
        "foreign_key_check",
        "foreign_key_list",
        "foreign_keys",
        "freelist_count",
        "function_list",
        "index_info",
        "index_list",
        "index_xinfo",
        "integrity_check",
        "journal_mode",
        "module_list",
        "page_count",
        "page_size",
        "pragma_list",
        "query_only",
        "quick_check",
        "schema_version",
        "table_info",
        "table_list",
        "table_xinfo",
        "user_version",
    }
)
SQLITE_PRAGMAS_WITH_NAME_ARGUMENT = frozenset(
    {
        "foreign_key_check",
        "foreign_key_list",
        "index_info",
        "index_list",
        "index_xinfo",
        "integrity_check",
        "quick_check",
        "table_info",
        "table_list",
        "table_xinfo",
    }
)

_SQLITE_ALLOWED_ACTIONS = frozenset(
    {
        sqlite3.SQLITE_SELECT,
        sqlite3.SQLITE_READ,
        sqlite3.SQLITE_FUNCTION,
        sqlite3.SQLITE_RECURSIVE,
        sqlite3.SQLITE_TRANSACTION,  # our own BEGIN/ROLLBACK; users cannot type one
    }
)


def sqlite_pragma_is_read(name: str, argument: str | None) -> bool:
    name = name.lower()
    if name not in SQLITE_READ_PRAGMAS:
        return False
    return argument is None or name in SQLITE_PRAGMAS_WITH_NAME_ARGUMENT


def _sqlite_authorizer(action: int, arg1: str | None, arg2: str | None, *_: Any) -> int:
    if action in _SQLITE_ALLOWED_ACTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_UPDATE and arg1 in ("sqlite_master", "sqlite_temp_master"):
        # SQLite's own schema bookkeeping (e.g. declaring pragma_table_info()); a user's
        # UPDATE of the schema still meets mode=ro and query_only.
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and arg1 is not None and sqlite_pragma_is_read(arg1, arg2):
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def _prepared_execute(cursor: Any, statement: str, parameters: Any, _context: Any) -> bool:
    cursor.execute(statement, parameters or None, prepare=True)
    return True


def _prepared_execute_no_params(cursor: Any, statement: str, _context: Any) -> bool:
    cursor.execute(statement, None, prepare=True)
    return True


def guard_engine(engine: Engine) -> None:
    """PostgreSQL: send every statement of ``engine`` as one prepared statement (the
    extended protocol), which the server refuses to run if the text holds more than one
    statement: psycopg's simple protocol would run ``SELECT 1; COMMIT; DELETE …`` and so
    escape the read-only transaction. No-op on SQLite, whose driver runs one statement."""
    if backend(engine) != POSTGRESQL:
        return
    if not event.contains(engine, "do_execute", _prepared_execute):
        event.listen(engine, "do_execute", _prepared_execute, retval=True)
        event.listen(engine, "do_execute_no_params", _prepared_execute_no_params, retval=True)


@contextmanager
def read_only(conn: Connection) -> Iterator[None]:
    """Make ``conn``'s transaction refuse writes at the database, for the ``with`` block.

    SQLite (already ``mode=ro`` + ``query_only``): an authorizer that denies, at prepare
    time, anything but reading (no INSERT/UPDATE/DELETE/DDL/ATTACH, only reporting
    pragmas). PostgreSQL: ``SET TRANSACTION READ ONLY`` on top of the read-only engine.
    """
    if backend(conn) == SQLITE:
        driver = conn.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        driver.set_authorizer(_sqlite_authorizer)
        try:
            yield
        finally:
            driver.set_authorizer(None)
        return
    if backend(conn) == POSTGRESQL:
        conn.exec_driver_sql("SET TRANSACTION READ ONLY")
    yield


def nested_comments(name: str) -> bool:
    """PostgreSQL nests ``/* … */`` comments; SQLite does not."""
    return name == POSTGRESQL


def dollar_quotes(name: str) -> bool:
    """PostgreSQL has ``$tag$ … $tag$`` string constants."""
    return name == POSTGRESQL


def driver_sql(name: str, pieces: Iterable[tuple[str, str]], *, with_params: bool) -> str:
    """Join lexed ``(kind, text)`` pieces into the driver's SQL: ``:name`` placeholders stay
    as they are for sqlite3 (which takes them natively) and become ``%(name)s`` for psycopg,
    whose ``%`` must then be doubled everywhere else (only when parameters are passed)."""
    if name != POSTGRESQL or not with_params:
        return "".join(text for _kind, text in pieces)
    return "".join(
        f"%({text[1:]})s" if kind == "param" else text.replace("%", "%%") for kind, text in pieces
    )


def driver_params(name: str, params: Mapping[str, Any]) -> dict[str, Any] | None:
    """The parameters as the driver takes them (None: none, so ``%`` needs no escaping)."""
    return dict(params) if params else None


def is_write_refusal(exc: DBAPIError) -> bool:
    """Whether the database refused ``exc``'s statement because the transaction is read-only."""
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "25006":  # PostgreSQL read_only_sql_transaction
        return True
    message = str(orig).lower()
    return isinstance(orig, sqlite3.Error) and (
        "readonly database" in message or "not authorized" in message
    )


def error_message(exc: DBAPIError) -> str:
    """The database's own message, first line (no SQL echo, no driver class names)."""
    orig = exc.orig
    text = str(orig) if orig is not None else str(exc)
    return text.strip().splitlines()[0] if text.strip() else type(orig).__name__


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


def is_null(name: str, column: ColumnElement[Any]) -> ColumnElement[bool]:
    """``column IS NULL`` that holds even in a NOT NULL column: SQLite's planner reads ``x IS
    NULL`` as false when ``x`` is declared NOT NULL, so a NULL written behind its back would
    go unseen; ``typeof(x) = 'null'`` is evaluated row by row."""
    if name == SQLITE:
        return func.typeof(column) == "null"
    return column.is_(None)


def sqlalchemy_dialect(name: str) -> Dialect:
    """SQLAlchemy's dialect of a backend, to compile a statement for it once."""
    from sqlalchemy.dialects import postgresql, sqlite

    module = sqlite if name == SQLITE else postgresql
    made: Dialect = module.dialect()
    return made


def sqlite_storage_class(column: ColumnElement[Any]) -> ColumnElement[str]:
    """``typeof(column)``: null, integer, real, text or blob."""
    return func.typeof(column)


def sqlite_not_utf8(columns: Sequence[ColumnElement[Any]]) -> ColumnElement[bool]:
    """True for a row where the text of one of ``columns`` is not UTF-8 (needs
    :func:`sqlite_add_functions`).

    The texts are joined with ``|`` (an ASCII byte never continues a UTF-8 sequence, so the
    join is UTF-8 exactly when each text is) and handed to Python once per row, and only
    when the join is not all printable ASCII: SQLite's GLOB reads any byte sequence that is
    not printable ASCII as a character outside ``' '..'~'``.
    """
    texts = [case((func.typeof(c) == "text", c), else_=literal("")) for c in columns]
    joined: ColumnElement[Any] = texts[0]
    for more in texts[1:]:
        joined = joined.concat(literal("|")).concat(more)
    return and_(
        joined.op("GLOB")(literal("*[^ -~]*")),
        getattr(func, SQLITE_UTF8_FUNCTION)(cast(joined, LargeBinary)) == 0,
    )


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
