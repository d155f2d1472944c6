"""``yimao import``: store the readings of a CSV or JSON Lines file, all or none.

Two passes, so that the write lock is held only to insert:

1. **prepare** — the file is streamed (:mod:`yimao_db.importing.files`); every row is validated
   as a cast would be (:func:`yimao_db.readings.prepare`: the cast form, the moment, the
   question), turned into its rows (:func:`yimao_db.readings.reading_rows`, the same function
   ``cast`` uses) and written to the spool (:mod:`yimao_db.importing.spool`, a temporary SQLite
   database with no name in the file system). Hexagram names resolve through ``name_alias``
   read once (:class:`yimao_db.lookup.HexagramNames`) on a read-only connection. Nothing in
   the database is locked; a bad row stops the import here.
2. **insert** — one write transaction moves the spooled rows into ``reading`` and
   ``reading_line``, ``BATCH`` readings at a time (ids from
   :func:`yimao_db.dialect.new_reading_ids`), and commits once.

Memory stays bounded by the spool's page cache and a batch, whatever the file's size (plus
the list of new ids). Ctrl-C (KeyboardInterrupt) before the commit rolls everything back;
from the moment the commit starts until the caller's ``done`` has reported the ids, SIGINT
is ignored, so an import is either rolled back or complete and reported.

Test hook: with ``YIMAO_TEST_IMPORT_PAUSE=STAGE:DIR`` the import creates ``DIR/paused`` at
STAGE (``prepare``: after the first row is spooled; ``insert``: after the first batch is
inserted, inside the transaction) and waits until ``DIR/go`` exists. Unset, it does nothing.
"""

from __future__ import annotations

import os
import sqlite3
import time
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import chain
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import URL

from yimao_db import dialect, sigint
from yimao_db.db import reader_engine, resolve_url, writer_engine
from yimao_db.errors import UsageError
from yimao_db.importing import files as import_files
from yimao_db.importing.spool import Spool
from yimao_db.kb import derived
from yimao_db.lookup import HexagramNames
from yimao_db.readings import (
    LINE_COLUMNS,
    READING_COLUMNS,
    Rows,
    make_moment,
    prepare,
    reading_rows,
    stored_at,
)

PAUSE_ENV = "YIMAO_TEST_IMPORT_PAUSE"
BATCH = 2000  # readings inserted at a time
# readings whose derived rows are written at a time: each statement is planned once for
# them (PostgreSQL takes some 70 ms to plan the three, a third of a batch's time)
DERIVED_BATCH = 20_000
PROGRESS_EVERY = 2000

# progress(stage, done, total): stage "preparing" (total 0: not known yet) or "inserting"
Progress = Callable[[str, int, int], None]
Done = Callable[[list[int]], None]


def _pause_at(stage: str) -> None:
    """The test hook (see the module docstring)."""
    wanted = os.environ.get(PAUSE_ENV)
    if not wanted or wanted.partition(":")[0] != stage:
        return
    folder = Path(wanted.partition(":")[2])
    (folder / "paused").touch()
    while not (folder / "go").exists():
        time.sleep(0.01)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return str(value).strip() or None


def _cast_text(value: Any) -> str:
    """The ``lines`` of a row as text: a cast form, or a JSON list of six values."""
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return "".join(str(v) for v in value)
    text_ = _text(value)
    if text_ is None:
        raise UsageError("the 'lines' column is empty")
    return text_


def _prepare_row(names: HexagramNames, values: import_files.Values, notes: list[str]) -> Rows:
    lines, at, tz, question, matter, about = values
    cast_text = _cast_text(lines)
    moment = make_moment(at=_text(at), tz=_text(tz), notes=notes)
    question = None if question is None or question == "" else question
    matter = None if matter is None or matter == "" else matter
    about = None if about is None or about == "" else about
    request = prepare(
        names, cast_text, moment=moment, question=question, matter=matter, about=about
    )
    return reading_rows(request)


def _prepare_file(
    path: Path,
    names: HexagramNames,
    spool: Spool,
    progress: Progress | None,
    notes: list[str] | None,
) -> None:
    for number, line, values in import_files.rows(path):
        found: list[str] = []
        try:
            rows = _prepare_row(names, values, found)
        except UsageError as exc:
            raise UsageError(f"{import_files.label(number, line)}: {exc}") from None
        if notes is not None:
            notes.extend(f"{import_files.label(number, line)}: {note}" for note in found)
        spool.add(rows)
        if number == 1:
            _pause_at("prepare")
        if progress is not None and number % PROGRESS_EVERY == 0:
            progress("preparing", number, 0)


class _Table:
    """Multi-row INSERTs into one table, ``per`` rows a statement, run with ``executemany``
    (about half the work of one statement per row); for a database the spool is not
    attached to."""

    def __init__(self, conn: Connection, table: str, columns: tuple[str, ...], per: int) -> None:
        self.conn, self.table, self.columns, self.per = conn, table, columns, per
        self._sql: dict[int, str] = {}

    def _statement(self, rows: int) -> str:
        if rows not in self._sql:
            self._sql[rows] = dialect.insert_sql(self.conn, self.table, self.columns, rows)
        return self._sql[rows]

    def insert(self, rows: list[tuple[Any, ...]]) -> None:
        if dialect.backend(self.conn) == dialect.POSTGRESQL:
            self._copy(rows)
            return
        per, whole = self.per, len(rows) - len(rows) % self.per
        flat = chain.from_iterable
        if whole:
            params = [tuple(flat(rows[i : i + per])) for i in range(0, whole, per)]
            self.conn.exec_driver_sql(self._statement(per), params)
        if whole < len(rows):
            self.conn.exec_driver_sql(
                self._statement(len(rows) - whole), [tuple(flat(rows[whole:]))]
            )

    def _copy(self, rows: list[tuple[Any, ...]]) -> None:
        """PostgreSQL: the rows through ``COPY … FROM STDIN`` on the same connection and
        transaction (several times the speed of multi-row INSERTs)."""
        dialect.pg_copy(self.conn, self.table, self.columns, rows)


def _insert(conn: Connection, spool: Spool, progress: Progress | None) -> list[int]:
    """Move the spooled readings into the database, ``BATCH`` at a time; the new ids."""
    created_at = stored_at()
    attached = dialect.backend(conn) == dialect.SQLITE  # the spool is on this connection
    reading_table = _Table(conn, "reading", ("id", "created_at", *READING_COLUMNS), 40)
    line_table = _Table(conn, "reading_line", ("reading_id", *LINE_COLUMNS), 240)
    ids: list[int] = []
    pending: list[int] = []  # readings whose derived rows are still to write
    for first, last in spool.ranges(BATCH):
        new = dialect.new_reading_ids(conn, last - first + 1)
        if new[-1] > dialect.MAX_ID:
            raise UsageError(
                f"the reading ids would pass the largest possible id, {dialect.MAX_ID}"
            )
        if attached:  # SQLite: consecutive ids, the rows never pass through Python
            spool.copy(conn, new[0] - first, created_at, first, last)
        else:
            readings, lines = spool.rows(first, last)
            reading_table.insert([(new[n - first], created_at, *row) for n, row in readings])
            line_table.insert([(new[row[0] - first], *row[1:]) for row in lines])
        pending += new
        if len(pending) >= DERIVED_BATCH:
            derived.insert(conn, pending, count=False)  # in the same transaction
            pending = []
        if not ids:
            _pause_at("insert")
        ids += new
        if progress is not None:
            progress("inserting", len(ids), spool.count)
    derived.insert(conn, pending, count=False)
    derived.count(conn, ids)  # the signs' counts last (derived.count)
    return ids


@contextmanager
def _spool(conn: Connection) -> Iterator[Spool]:
    """A spool attached to the writer's own connection on SQLite, else to one of its own."""
    own = None
    if dialect.backend(conn) == dialect.SQLITE:
        dbapi = typing.cast(sqlite3.Connection, conn.connection.driver_connection)
    else:
        dbapi = own = sqlite3.connect(":memory:", isolation_level=None)
    spool = Spool(dbapi)
    try:
        yield spool
    finally:
        spool.close()
        if own is not None:
            own.close()


def _hexagram_names(db: str | URL | Engine | None) -> HexagramNames:
    """The hexagram names, read on a read-only connection (no write lock)."""
    url = db.url if isinstance(db, Engine) else db if isinstance(db, URL) else resolve_url(db)
    engine = reader_engine(url)
    try:
        with engine.connect() as conn:
            return HexagramNames(conn)
    finally:
        engine.dispose()


def import_file(
    path: str | Path,
    db: str | URL | Engine | None = None,
    *,
    progress: Progress | None = None,
    done: Done | None = None,
    notes: list[str] | None = None,
) -> list[int]:
    """Store every reading of a CSV or JSON Lines file in one transaction; returns the ids.

    ``path`` is a regular file, or ``-`` for standard input. Columns ``lines`` (any cast
    form; coins as ``2,1,3,0,2,2``), ``at`` (ISO date-time, default now), ``tz`` (default
    ``$YIMAO_TZ``, else Asia/Shanghai), ``question``, ``matter`` (office, wealth, lawsuit
    or worry, any spelling) and ``about`` (the subject, docs/use.md); any other column or
    key, one given twice, a CSV row with fewer or more fields than the header, and a row or
    field over the limits of :mod:`yimao_db.importing.files` are errors.
    Every row is validated, and its moment computed, before the write transaction begins: a
    bad row is reported by its number (``row 3``; the CSV header is not counted) and nothing
    is written. ``progress`` is called now and then; ``done`` right after the commit, with the
    ids, while Ctrl-C is ignored (see the module docstring). What was assumed about a row's
    date-time (a date without a time) is appended to ``notes`` (``row 1: no time given; …``).
    """
    path = Path(path)
    names = _hexagram_names(db)
    engine = db if isinstance(db, Engine) else writer_engine(db)
    try:
        with engine.connect() as conn, _spool(conn) as spool:
            _prepare_file(path, names, spool, progress, notes)
            spool.finish()
            if spool.count == 0:
                raise UsageError(f"{path}: no readings to import")
            with conn.begin() as transaction:
                ids = _insert(conn, spool, progress)
                with sigint.ignored():
                    transaction.commit()
                    if done is not None:
                        done(ids)
    finally:
        if engine is not db:
            engine.dispose()
    return ids
