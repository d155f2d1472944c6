"""Running ``yimao sql``'s statement in a worker thread and streaming its rows, within limits.

The statement runs in a worker thread while the calling thread waits for its rows in
batches of about :data:`BATCH_BYTES` (one row at first, then up to :data:`MAX_BATCH`),
through a queue of a few batches: memory does not grow with the result. The caller watches the
clock and the process's memory: at the ``timeout``, or when the process has grown by
:data:`MEMORY_LIMIT`, it interrupts the query (``sqlite3_interrupt``; a PostgreSQL cancel
request, on top of the server's own ``statement_timeout``); Ctrl-C does the same at once.
The timeout bounds the whole run, printing included. A server stopping (``yimao mcp`` at
Ctrl-C or SIGTERM, its queries in worker threads) stops every query at once
(:func:`halt_all`); a request withdrawn (an assistant cancelling a tool call,
:mod:`yimao_db.withdrawal`) stops its own. A worker that does not stop within
:data:`GRACE` seconds of being interrupted has its PostgreSQL connection cut; one that still
runs (SQLite busy inside one long function call, where it cannot be interrupted) is left
behind — it is a daemon thread — and the caller gets its answer.

Driver errors become the project's errors here, with the database's own message.
"""

from __future__ import annotations

import os
import queue
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import URL

from yimao_db import withdrawal
from yimao_db.db import MAYBE_DAMAGED_ATTR, NOT_UTF8, mark_if_damage, recovery_error
from yimao_db.errors import DatabaseError, UsageError, YimaoError, shown
from yimao_db.export import normalise
from yimao_db.sql.guard import function_refused, write_refused
from yimao_db.sql.lex import Statement
from yimao_db.sql.session import (
    PG_MAX_ROW,
    PG_TOO_BIG,
    SQLITE_HEAP_LIMIT,
    SQLITE_MAX_VALUE,
    Session,
    SqliteSession,
    open_session,
)

GRACE = 0.5  # seconds a query has to stop once interrupted
MEMORY_LIMIT = 256 * 2**20  # bytes the process may grow by while a query runs
_POLL = 0.05  # seconds between looks at the clock while waiting for rows
_MEMORY_POLL = 0.01  # seconds between looks at the process's memory while a query runs
_QUEUED_BATCHES = 4
MAX_BATCH = 1000  # rows fetched at a time at most
BATCH_BYTES = 4 * 2**20  # the characters a batch aims at: big rows come fewer at a time


class _Process:
    # the process is stopping: every query running, or started after, is interrupted. A
    # plain flag, not a threading.Event: a signal handler sets it, maybe again while it is
    # setting it (an Event's lock would then wait for itself)
    halting = False


def halt_all() -> None:
    """Interrupt every query of this process now, and any started after: the process is
    stopping. A server (``yimao mcp``) calls it at Ctrl-C or SIGTERM, which would otherwise
    wait for a query in a worker thread to end, or reach its time limit. Safe in a signal
    handler."""
    _Process.halting = True


class QueryTimedOut(DatabaseError):
    """The query ran past ``--timeout`` and was stopped."""

    def __init__(self, timeout: float) -> None:
        super().__init__(
            f"yimao sql stopped the query after {timeout:g} s (--timeout {timeout:g}); give it "
            "more time with --timeout SECONDS, or --timeout none for no limit"
        )


class QueryTooBig(DatabaseError):
    """The query made the process grow past MEMORY_LIMIT and was stopped."""

    def __init__(self) -> None:
        super().__init__(
            f"yimao sql stopped the query: it made the process grow by more than "
            f"{MEMORY_LIMIT // 2**20} MiB of memory, the limit of yimao sql"
        )


def _resident_bytes() -> int | None:
    """The process's resident memory (Linux); elsewhere its peak so far; None if unknown."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


@dataclass(frozen=True)
class QueryResult:
    columns: list[str] | None  # None: the statement returns no rows (not even a header)
    rows: Iterator[tuple[Any, ...]]


_AS_IS = frozenset({str, int, type(None)})  # as the drivers return them: nothing to normalise


def _converted(batch: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [
        row if all(type(v) in _AS_IS for v in row) else tuple(_value(v) for v in row)
        for row in batch
    ]


def _next_size(batch: list[tuple[Any, ...]], size: int) -> int:
    """How many rows to fetch next: about BATCH_BYTES worth, judging by a few rows of the
    last batch; from 1 row, growing at most fourfold a batch, up to MAX_BATCH."""
    step = max(1, len(batch) // 8)
    sample = batch[::step]
    chars = sum(len(v) for row in sample for v in row if isinstance(v, str)) / len(sample)
    fits = int(BATCH_BYTES / chars) if chars else MAX_BATCH
    return max(1, min(MAX_BATCH, 4 * size, fits))


def _value(value: Any) -> Any:
    value = normalise(value)
    if isinstance(value, int) and value.bit_length() > 10_000:
        try:
            str(value)
        except ValueError:
            raise UsageError(
                f"a value has more than {sys.get_int_max_str_digits()} digits, more than "
                "Python prints as a number; cast it to text in the query (e.g. x::text)"
            ) from None
    return value


def _translate(exc: BaseException, session: Session | None) -> BaseException:
    """The error to show for ``exc``, raised while running the statement on ``session``."""
    if isinstance(exc, YimaoError):
        return exc
    if isinstance(exc, sqlite3.OperationalError) and str(exc).startswith(NOT_UTF8):
        where = str(session.path) if isinstance(session, SqliteSession) else "the database"
        return not_utf8_value(str(exc), where)
    if isinstance(exc, sqlite3.Error | UnicodeDecodeError) and mark_if_damage(
        exc, str(session.path) if isinstance(session, SqliteSession) else "the database"
    ):
        return exc  # a damaged file: the command line names it (yimao_db.cli)
    if isinstance(exc, sqlite3.Error):
        plain = recovery_error(session.path, exc) if isinstance(session, SqliteSession) else None
        if plain is not None:  # the file needs a rollback: the query did not try to write
            return plain
        if isinstance(session, SqliteSession) and session.authorizer.refused:
            return function_refused(session.authorizer.refused)
        message = _first_line(exc)
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_TOOBIG":
            return DatabaseError(
                f"database: {message} (yimao sql allows up to "
                f"{SQLITE_MAX_VALUE // 2**20} MiB in one value or row)"
            )
        if "readonly database" in message or "not authorized" in message:
            return write_refused(message)
        return DatabaseError(f"database: {message}")
    if isinstance(exc, MemoryError) and isinstance(session, SqliteSession):
        return DatabaseError(
            f"yimao sql stopped the query: SQLite needed more than {SQLITE_HEAP_LIMIT // 2**20} "
            "MiB of memory for it, the limit of yimao sql (the sqlite3 shell has none)"
        )
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(exc, psycopg.Error):
        if exc.sqlstate == "25006" or (  # read_only_sql_transaction
            exc.sqlstate == "0A000" and "data-modifying" in str(exc)  # DECLARE says it first
        ):
            return write_refused(_first_line(exc))
        if exc.sqlstate == "57014" and "statement timeout" in str(exc):  # the server's limit
            return QueryTimedOut(0)
        if exc.sqlstate == "22P02" and PG_TOO_BIG in str(exc):  # the row size check
            size = str(exc).split(PG_TOO_BIG, 1)[1].strip(': "\n').split('"')[0]
            return DatabaseError(
                f"database: a row of {size} bytes; yimao sql allows up to "
                f"{PG_MAX_ROW // 2**20} MiB in one row"
            )
        return DatabaseError(f"database: {_first_line(exc)}")
    return exc


_NOT_UTF8_COLUMN = re.compile(r"column '(.*?)' with text ", re.S)


def not_utf8_value(message: str, where: str) -> DatabaseError:
    """A value of the result that is text but not UTF-8 (``CAST(x'ff' AS TEXT)``): not a sign
    of a damaged file by itself (a query computes such text as easily as a damaged table
    holds it), and its text is not echoed (it may be megabytes long). The exception is
    marked (:data:`yimao_db.db.MAYBE_DAMAGED_ATTR`): the command line asks ``yimao check``
    whether the file holds such text before it calls the file damaged."""
    found = _NOT_UTF8_COLUMN.search(message)
    column = f" (column {shown(found.group(1))})" if found else ""
    error = DatabaseError(
        f"the query's result holds text that is not valid UTF-8{column}, which yimao sql "
        "cannot print: select hex(…) or CAST(… AS BLOB) of it to see its bytes"
    )
    setattr(error, MAYBE_DAMAGED_ATTR, where)
    return error


def _first_line(exc: BaseException) -> str:
    """The database's own message, first line (no SQL echo, no driver class names)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class _Stopped(Exception):
    """The caller has stopped reading rows."""


class _Runner(threading.Thread):
    """Runs the statement and queues its rows: ("start", (columns, first batch)), then
    ("rows", batch) for each further batch, then ("end", None) — or ("error", exception)."""

    def __init__(
        self, url: URL, statement: Statement, params: Mapping[str, Any], deadline: float | None
    ) -> None:
        super().__init__(name="yimao-sql", daemon=True)
        self.url, self.statement, self.params, self.deadline = url, statement, params, deadline
        self.items: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=_QUEUED_BATCHES)
        self.stopping = threading.Event()
        self.session: Session | None = None
        self.baseline = _resident_bytes()
        self.too_big = False  # the runner saw the process outgrow MEMORY_LIMIT
        self.withdrawn = withdrawal.check()  # taken here: a thread starts with a context of its own

    def called_off(self) -> str | None:
        """Why the query is to stop now, if it is: the process is stopping (:func:`halt_all`),
        or the request it runs for has been withdrawn."""
        if _Process.halting:
            return "the server is stopping"
        if self.withdrawn():
            return "its request was withdrawn"
        return None

    def grown(self) -> int:
        """Bytes the process has grown by since the query was started (0 if unknown)."""
        now = _resident_bytes()
        return 0 if now is None or self.baseline is None else now - self.baseline

    def run(self) -> None:
        threading.Thread(target=self._watch_memory, name="yimao-sql-memory", daemon=True).start()
        try:
            with open_session(self.url, self.deadline) as session:
                self.session = session
                if self.stopping.is_set() or self.called_off():
                    raise _Stopped  # stopped while it connected: the statement never starts
                try:
                    try:
                        columns, fetch = session.start(self.statement, self.params)
                    except (OverflowError, ValueError) as exc:  # the driver binding a value
                        raise UsageError(f"a parameter does not fit the database: {exc}") from None
                    size = 1
                    batch = _converted(fetch(size))
                    self._put(("start", (columns, batch)))
                    while batch:
                        size = _next_size(batch, size)
                        batch = _converted(fetch(size))
                        if batch:
                            self._put(("rows", batch))
                    self._put(("end", None))
                except _Stopped:
                    raise
                except BaseException as exc:
                    raise _translate(exc, session) from None
        except _Stopped:
            pass
        except BaseException as exc:
            try:
                self._put(("error", _translate(exc, self.session)))
            except _Stopped:
                pass

    def _watch_memory(self) -> None:
        """Its own thread: the memory is looked at every _MEMORY_POLL seconds while the
        query runs, whatever the reader is doing (writing a huge row) and however many rows
        one fetch brings (small rows, then rows of megabytes: the batch size is the small
        rows'). Past MEMORY_LIMIT the query is interrupted and the runner marked."""
        while self.is_alive() and not self.stopping.is_set():
            if self.grown() > MEMORY_LIMIT:
                self.too_big = True
                self.stopping.set()
                self.interrupt(hard=True)
                return
            time.sleep(_MEMORY_POLL)

    def _put(self, item: tuple[str, Any]) -> None:
        while not self.stopping.is_set():
            if self.deadline is not None and time.monotonic() > self.deadline:
                break  # the caller reports the timeout; end the transaction now
            try:
                self.items.put(item, timeout=_POLL)
                return
            except queue.Full:
                continue
        raise _Stopped

    def interrupt(self, *, hard: bool = False) -> None:
        session = self.session
        if session is not None:
            try:
                session.interrupt(hard=hard)
            except Exception:  # a failed cancel request: the next step is to let go
                pass

    def halt(self) -> None:
        """Stop the statement and end its transaction; after GRACE, cut the connection and
        give up waiting."""
        self.stopping.set()
        if self.is_alive():
            self.interrupt()
            self.join(GRACE)
        if self.is_alive():
            self.interrupt(hard=True)


class _Reader:
    """The caller's side: takes the runner's items, watching the clock and the memory."""

    def __init__(self, runner: _Runner, timeout: float | None) -> None:
        self.runner, self.timeout = runner, timeout
        self.stopped: YimaoError | None = None  # why the caller stopped the query
        self.stopped_at = 0.0

    def next(self) -> tuple[str, Any]:
        while True:
            self._watch()
            try:
                kind, value = self.runner.items.get(timeout=_POLL)
            except queue.Empty:
                if not self.runner.is_alive() and self.runner.items.empty():
                    if self.stopped is not None:
                        raise self.stopped from None
                    if self.runner.too_big:
                        raise QueryTooBig() from None
                    deadline = self.runner.deadline
                    if deadline is not None and time.monotonic() >= deadline:
                        # the runner saw the deadline pass (its error is not queued after it)
                        raise QueryTimedOut(self.timeout or 0) from None
                    raise DatabaseError("yimao sql: the query ended without an answer") from None
                continue
            if kind == "error":
                if self.runner.too_big:  # the runner's error is the interruption
                    raise QueryTooBig()
                if isinstance(value, QueryTimedOut):  # the server's statement_timeout
                    raise QueryTimedOut(self.timeout or 0)
                raise self.stopped or value
            if self.stopped is not None:
                continue  # rows queued before the stop are dropped, not handed out
            return kind, value

    def _watch(self) -> None:
        now = time.monotonic()
        if self.stopped is None:
            deadline = self.runner.deadline
            why = self.runner.called_off()
            if why is not None:
                self.stopped = DatabaseError(f"the query was interrupted: {why}")
                self.stopped_at = now
                self.runner.interrupt()
            elif deadline is not None and now >= deadline:
                self.stopped, self.stopped_at = QueryTimedOut(self.timeout or 0), now
                self.runner.interrupt()
            elif self.runner.too_big:  # the runner has interrupted the query itself
                self.stopped, self.stopped_at = QueryTooBig(), now
        elif now > self.stopped_at + GRACE or not self.runner.is_alive():
            self.runner.interrupt(hard=True)
            raise self.stopped

    def rows(self, first: list[tuple[Any, ...]]) -> Iterator[tuple[Any, ...]]:
        batch = first
        while batch:
            for row in batch:
                if self.runner.stopping.is_set():
                    break  # stopped (the memory): the rest of the batch is dropped unwritten
                yield row
            batch = []  # let go of its rows while waiting for the next batch
            kind, value = self.next()
            batch = value if kind == "rows" else []


@contextmanager
def stream(
    url: URL, statement: Statement, params: Mapping[str, Any], timeout: float | None
) -> Iterator[QueryResult]:
    """Run a checked statement; its rows stream while the ``with`` block reads them.
    Leaving the block stops the statement and ends its transaction."""
    deadline = None if timeout is None else time.monotonic() + timeout
    runner = _Runner(url, statement, params, deadline)
    runner.start()
    try:
        reader = _Reader(runner, timeout)
        _start, (columns, first) = reader.next()
        yield QueryResult(columns, reader.rows(first))
    finally:
        runner.halt()
