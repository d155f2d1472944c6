"""What one request to ``yimao serve`` may take, and which SQL it may run.

Every connection the site opens on the database (datasette's, through
:class:`LimitedDatabase`, and the one the project's pages read with) is read-only
(``mode=ro`` or ``immutable=1``, and ``PRAGMA query_only``) and limited by
:func:`limit_connection`:

* **the guard of ``yimao sql``**: its SQLite authorizer (:class:`yimao_db.sql.guard.
  SqliteAuthorizer`: reads, reporting pragmas and the functions that only compute), plus
  the two things datasette itself needs (its ``escape_fts()`` and reading ``PRAGMA
  schema_version``). ``fts3_tokenizer``, ``load_extension`` and the rest are refused in
  the SQL box, canned queries and ``?_where=`` alike;
* **a value** (string or blob, also a row of a sort or temporary table) holds at most
  :data:`VALUE_LIMIT` bytes on datasette's connections (``SQLITE_LIMIT_LENGTH``):
  ``zeroblob(1e9)``, a string doubled by a recursive CTE or a runaway ``group_concat``
  fail at once. It is smaller than ``yimao sql``'s 16 MiB because SQLite cannot stop a
  function call in the middle, and some calls take time that grows with the square of
  their arguments (one ``trim`` of 1 MiB: minutes). The project's own pages run only their
  own SQL and allow :data:`yimao_db.sql.session.SQLITE_MAX_VALUE` (16 MiB), as ``yimao sql``;
* **costly built-ins are checked before they run** (:func:`install_costly`, the built-in
  then runs on a plain connection): ``printf``/``format`` with a width or precision over
  :data:`VALUE_LIMIT` (SQLite would loop that many times, then return NULL) or a value over
  it; ``instr``, ``replace``, ``trim``, ``ltrim``, ``rtrim``, ``like`` and ``glob`` when
  their two strings' lengths multiply past :data:`WORK_LIMIT`;
* **a statement** has at most :data:`COLUMN_LIMIT` result columns and
  :data:`VDBE_OP_LIMIT` steps of program (SQLite checks the time only between rows, so
  this bounds what one row can cost: subqueries it flattens copy their expressions);
* **SQLite's memory** is capped at :data:`yimao_db.sql.session.SQLITE_HEAP_LIMIT` for the
  whole process (``PRAGMA hard_heap_limit``), temporary data stays in memory
  (``temp_store = MEMORY``: a runaway sort fails instead of filling the disk);
* **time**: a query is interrupted (``sqlite3_interrupt``) at datasette's
  ``sql_time_limit_ms`` by a timer; SQLite obeys at its next loop step;
* **the rows of one query** hold at most :data:`ROWS_LIMIT` bytes (and datasette's
  ``max_returned_rows``): a query over the limit fails with a message instead of being
  held in memory and rendered.

Errors are said plainly (what was refused, the limit, and ``yimao sql`` or ``yimao
export`` for more).
"""

from __future__ import annotations

import math
import re
import sqlite3
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from datasette.database import Database, QueryInterrupted, Results
from datasette.tracer import trace

from yimao_db.sql.guard import SqliteAuthorizer
from yimao_db.sql.session import SQLITE_HEAP_LIMIT, SQLITE_MAX_VALUE

VALUE_LIMIT = 64 * 2**10  # bytes in one string or blob on datasette's connections
LIKE_PATTERN_LIMIT = 2**10  # bytes in the pattern of LIKE or GLOB
COLUMN_LIMIT = 100  # columns of a result row (the widest view has 43)
VDBE_OP_LIMIT = 32_768  # steps of one compiled statement (v_reading_sign's chart query: 21,504)
WORK_LIMIT = 2**20  # characters one call of instr, replace, trim, like or glob may compare
ROWS_LIMIT = 8 * 2**20  # bytes the rows of one query may hold
MAX_RETURNED_ROWS = 1000  # rows of one query (datasette's max_returned_rows)
TIME_LIMIT_MS = 3000  # datasette's sql_time_limit_ms
FACET_TIME_LIMIT_MS = 500
PAGE_TIME_LIMIT_MS = 10_000  # all the SQL of one of the project's pages
_FETCH = 50  # rows fetched at a time while counting their bytes
HEAP_LIMIT_PRAGMA = "PRAGMA hard_heap_limit = 134217728"  # SQLITE_HEAP_LIMIT, as yimao sql

# functions datasette defines on its connections and calls itself (computing only)
DATASETTE_FUNCTIONS = frozenset({"escape_fts"})
# pragmas datasette reads with no argument besides those yimao sql allows
DATASETTE_PRAGMAS = frozenset({"schema_version"})


class ServeAuthorizer(SqliteAuthorizer):
    """``yimao sql``'s authorizer, and what datasette itself calls; ``stopped`` says why a
    costly call (:func:`install_costly`) was refused."""

    stopped: str | None = None

    def __call__(self, action: int, arg1: str | None, arg2: str | None, *rest: Any) -> int:
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in DATASETTE_FUNCTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and arg2 is None and arg1 in DATASETTE_PRAGMAS:
            return sqlite3.SQLITE_OK
        return super().__call__(action, arg1, arg2, *rest)


class GuardedConnection(sqlite3.Connection):
    """A connection that knows its authorizer (to name the function it refused)."""

    guard: ServeAuthorizer | None = None


def limit_connection(conn: sqlite3.Connection, value_limit: int = VALUE_LIMIT) -> ServeAuthorizer:
    """Make ``conn`` read-only and limited (see the module's docstring); its authorizer."""
    conn.execute("PRAGMA query_only = ON")
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute(HEAP_LIMIT_PRAGMA)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, value_limit)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, LIKE_PATTERN_LIMIT)
    conn.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, COLUMN_LIMIT)
    conn.setlimit(sqlite3.SQLITE_LIMIT_VDBE_OP, VDBE_OP_LIMIT)
    guard = ServeAuthorizer()
    install_costly(conn, guard)
    conn.set_authorizer(guard)
    if isinstance(conn, GuardedConnection):
        conn.guard = guard
    return guard


_HELPER = threading.local()  # per thread: a plain connection running the built-ins
_INT_PREFIX = re.compile(r"\s*([-+]?\d+)")
_PRINTF_SPEC = re.compile(r"%([-+ #0!,]*)(\*|\d*)(?:\.(\*|\d*))?(l{0,2})(.?)", re.S)


def _builtin(name: str, args: tuple[Any, ...]) -> Any:
    """SQLite's own ``name(*args)``, on a plain in-memory connection of this thread with
    the same value limit (the site's connections have it overridden)."""
    conn = getattr(_HELPER, "conn", None)
    if conn is None:
        conn = _HELPER.conn = sqlite3.connect(":memory:")
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, VALUE_LIMIT)
    marks = ", ".join("?" * len(args))
    return conn.execute(f"SELECT {name}({marks})", args).fetchone()[0]


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str | bytes) else 24


def _as_int(value: Any) -> int:
    """An argument as SQLite reads an integer from it (``sqlite3_value_int64``)."""
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) else 0
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        found = _INT_PREFIX.match(value)
        return int(found[1]) if found else 0
    return 0


def printf_sizes(args: tuple[Any, ...]) -> list[int]:
    """The widths and precisions ``printf(*args)`` asks for (SQLite's ``printf`` and
    ``format``: ``%[flags][width][.precision][l]type``, ``*`` taking the next argument)."""
    if not args or not isinstance(args[0], str):
        return []
    rest = list(args[1:])
    sizes = []
    for conversion in _PRINTF_SPEC.finditer(args[0]):
        _flags, width, precision, _length_mark, kind = conversion.groups()
        for part in (width, precision or ""):
            if part == "*":
                sizes.append(abs(_as_int(rest.pop(0) if rest else 0)))
            elif part:
                sizes.append(int(part))
        if kind not in ("%", "n", "") and rest:
            rest.pop(0)
    return sizes


def _printf(guard: ServeAuthorizer, name: str) -> Any:
    def call(*args: Any) -> Any:
        if any(size > VALUE_LIMIT for size in printf_sizes(args)):
            guard.stopped = (
                f"{name}() with a width or precision over {VALUE_LIMIT:,}, the longest value "
                "of the site"
            )
            raise ValueError(guard.stopped)
        made = _builtin(name, args)
        if made is None and args and args[0] is not None:  # SQLite says nothing else
            guard.stopped = f"{name}() would make a value of more than {VALUE_LIMIT:,} bytes"
            raise ValueError(guard.stopped)
        return made

    return call


def _costly(guard: ServeAuthorizer, name: str, text: int, other: int) -> Any:
    """``name`` refused when its two arguments' lengths multiply past WORK_LIMIT: the
    time it takes grows with that product."""

    def call(*args: Any) -> Any:
        if _length(args[text]) * _length(args[other]) > WORK_LIMIT:
            guard.stopped = (
                f"{name}() of values of {_length(args[text]):,} and {_length(args[other]):,} "
                f"characters: one call may compare at most {WORK_LIMIT:,} pairs of characters"
            )
            raise ValueError(guard.stopped)
        return _builtin(name, args)

    return call


# function, its number of arguments, the argument searched and the one searched for
COSTLY = (
    ("instr", 2, 0, 1),
    ("replace", 3, 0, 1),
    ("trim", 2, 0, 1),
    ("ltrim", 2, 0, 1),
    ("rtrim", 2, 0, 1),
    ("like", 2, 1, 0),
    ("like", 3, 1, 0),
    ("glob", 2, 1, 0),
)


def install_costly(conn: sqlite3.Connection, guard: ServeAuthorizer) -> None:
    """Put checks in front of the built-ins whose one call can take long (see the module's
    docstring): a call over the limit fails with ``guard.stopped`` saying why."""
    for name, count, text, other in COSTLY:
        conn.create_function(name, count, _costly(guard, name, text, other), deterministic=True)
    for name in ("printf", "format"):
        conn.create_function(name, -1, _printf(guard, name), deterministic=True)


def connect(path: str, immutable: bool) -> GuardedConnection:
    """A limited connection to the served file, ``immutable=1`` or ``mode=ro``."""
    mode = "immutable=1" if immutable else "mode=ro"
    conn = sqlite3.connect(
        f"file:{path}?{mode}", uri=True, check_same_thread=False, factory=GuardedConnection
    )
    assert isinstance(conn, GuardedConnection)
    try:
        limit_connection(conn)
    except BaseException:
        conn.close()
        raise
    return conn


@contextmanager
def deadline(conn: sqlite3.Connection, milliseconds: int) -> Iterator[None]:
    """Interrupt what ``conn`` runs once ``milliseconds`` have passed (a timer thread
    calls ``sqlite3_interrupt``, which SQLite obeys at the next step of a loop: between two
    rows, not only every thousand steps as datasette's progress handler looked)."""
    lock = threading.Lock()
    running = [True]

    def stop() -> None:
        with lock:
            if running[0]:
                conn.interrupt()

    timer = threading.Timer(milliseconds / 1000, stop)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            running[0] = False
        timer.cancel()


class RowsTooBig(sqlite3.OperationalError):
    """The rows of a query passed :data:`ROWS_LIMIT`."""


def _size(value: Any) -> int:
    if isinstance(value, str | bytes):
        return len(value)
    return 8


def fetch(cursor: sqlite3.Cursor, count: int | None) -> list[Any]:
    """At most ``count`` rows (None: all), failing once they hold more than ROWS_LIMIT."""
    rows: list[Any] = []
    held = 0
    while count is None or len(rows) < count:
        batch = cursor.fetchmany(_FETCH if count is None else min(_FETCH, count - len(rows)))
        if not batch:
            break
        held += sum(_size(v) for row in batch for v in row)
        if held > ROWS_LIMIT:
            rows.clear()
            raise RowsTooBig(
                f"yimao serve stopped the query: its rows hold more than "
                f"{ROWS_LIMIT // 2**20} MiB, the limit of one page (yimao sql or "
                "yimao export read more)"
            )
        rows += batch
    return rows


def explained(exc: BaseException, guard: ServeAuthorizer | None = None) -> BaseException:
    """The error a visitor sees for ``exc``, raised by SQL run under ``guard``: a sqlite3
    OperationalError (datasette shows its message on every page, as a 400) saying what was
    refused and the limit."""
    if isinstance(exc, RowsTooBig):
        return exc
    if isinstance(exc, sqlite3.DatabaseError) and guard is not None and guard.stopped:
        return sqlite3.OperationalError(f"yimao serve stopped the query: {guard.stopped}")
    if isinstance(exc, sqlite3.DatabaseError) and guard is not None and guard.refused:
        return sqlite3.OperationalError(
            f"yimao serve does not run {guard.refused}(): only functions that compute a "
            "value from their arguments and the data are allowed, as in yimao sql "
            "(docs/interop.md)"
        )
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_TOOBIG":
        return sqlite3.OperationalError(
            f"{exc} (yimao serve allows up to {VALUE_LIMIT // 2**10} KiB in one value, and "
            f"a LIKE or GLOB pattern of {LIKE_PATTERN_LIMIT} bytes; yimao sql reads up to "
            f"{SQLITE_MAX_VALUE // 2**20} MiB)"
        )
    if isinstance(exc, MemoryError):
        return sqlite3.OperationalError(
            f"yimao serve stopped the query: SQLite needed more than "
            f"{SQLITE_HEAP_LIMIT // 2**20} MiB of memory for it, or its program more than "
            f"{VDBE_OP_LIMIT:,} steps, the limits of the site"
        )
    if isinstance(exc, sqlite3.DatabaseError) and "not authorized" in str(exc):
        return sqlite3.OperationalError(
            "yimao serve is read-only: the database refused this statement (not authorized)"
        )
    if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.OperationalError):
        return sqlite3.OperationalError(str(exc))  # e.g. "one statement at a time"
    return exc


class LimitedDatabase(Database):  # type: ignore[misc]  # datasette is untyped
    """datasette's database, each connection limited (:func:`connect`) and each query run
    under :func:`deadline` with its rows counted (:func:`fetch`)."""

    def __init__(self, ds: Any, path: str, immutable: bool) -> None:
        super().__init__(ds, path=path, is_mutable=not immutable)

    def connect(self, write: bool = False) -> GuardedConnection:
        conn = connect(self.path, immutable=not self.is_mutable)  # never a writer
        self._all_file_connections.append(conn)
        return conn

    async def execute(
        self,
        sql: str,
        params: Any = None,
        truncate: bool = False,
        custom_time_limit: int | None = None,
        page_size: int | None = None,
        log_sql_errors: bool = True,
    ) -> Results:
        """datasette's ``Database.execute``, within the limits."""
        page_size = page_size or self.ds.page_size
        limit = int(self.ds.sql_time_limit_ms)
        if custom_time_limit and custom_time_limit < limit:
            limit = int(custom_time_limit)

        def run(conn: sqlite3.Connection) -> Results:
            guard = conn.guard if isinstance(conn, GuardedConnection) else None
            if guard is not None:
                guard.refused = guard.stopped = None
            cursor = conn.cursor()
            try:
                with deadline(conn, limit):
                    cursor.execute(sql, params if params is not None else {})
                    max_rows = self.ds.max_returned_rows
                    if max_rows == page_size:
                        max_rows += 1
                    if max_rows and truncate:
                        rows = fetch(cursor, max_rows + 1)
                        truncated = len(rows) > max_rows
                        rows = rows[:max_rows]
                    else:
                        rows, truncated = fetch(cursor, None), False
                    description = cursor.description
            except (sqlite3.Error, MemoryError) as exc:
                if isinstance(exc, sqlite3.OperationalError) and exc.args == ("interrupted",):
                    raise QueryInterrupted(exc, sql, params) from None
                if log_sql_errors:
                    sys.stderr.write(f"yimao serve: {exc} (sql = {sql!r})\n")
                raise explained(exc, guard) from None
            finally:
                # ends the statement: SQLite clears an interrupt only once no statement of
                # the connection is active, so one left open would stop every later query
                cursor.close()
            return Results(rows, truncated, description)

        with trace("sql", database=self.name, sql=sql.strip(), params=params):
            results: Results = await self.execute_fn(run)
        return results
