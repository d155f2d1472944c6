"""The spool of ``yimao import``: prepared readings in a private temporary SQLite database.

``ATTACH DATABASE ''`` gives a connection a database of its own that SQLite keeps in its
page cache while it is small and otherwise in a file of the temporary directory
(``$SQLITE_TMPDIR``, ``$TMPDIR``, ``/var/tmp``, ``/tmp``), which it unlinks as soon as it has
opened it: the spool has no name in the file system and disappears with the connection,
however the process ends (an error, Ctrl-C, ``kill -9``). Memory stays bounded by the page
cache (:data:`CACHE_KIB`).

Its two tables hold the rows of :func:`yimao_db.readings.reading_rows`, numbered 1, 2, … in
the order of the file: ``spooled_reading (n, READING_COLUMNS)`` and ``spooled_line (n,
LINE_COLUMNS)``. On SQLite the spool is attached to the writer's own connection, so
:meth:`Spool.copy` moves the rows into ``reading`` and ``reading_line`` with ``INSERT …
SELECT``, never through Python; on another database (PostgreSQL) it is attached to a
connection of its own and read back with :meth:`Spool.rows`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection

from yimao_db.db import sqlite_temp_dir
from yimao_db.errors import UsageError
from yimao_db.readings import LINE_COLUMNS, READING_COLUMNS, ReadingRow, Rows

NAME = "import_spool"
CACHE_KIB = 4096  # the spool's page cache; beyond it pages go to the (nameless) file
READINGS_PER_STATEMENT = 40  # 880 parameters for the readings, 960 for their lines (< 999)

_READING = ", ".join(READING_COLUMNS)
_LINE = ", ".join(LINE_COLUMNS)
_SETUP = (
    f"ATTACH DATABASE '' AS {NAME}",
    f"PRAGMA {NAME}.journal_mode = OFF",  # never rolled back: dropped whole instead
    f"PRAGMA {NAME}.synchronous = OFF",
    f"CREATE TABLE {NAME}.spooled_reading (n INTEGER PRIMARY KEY, {_READING})",
    f"CREATE TABLE {NAME}.spooled_line (n INTEGER, {_LINE}, PRIMARY KEY (n, position))"
    " WITHOUT ROWID",
)
_COPY_READINGS = (
    f"INSERT INTO main.reading (id, created_at, {_READING})"
    f" SELECT n + ?, ?, {_READING} FROM {NAME}.spooled_reading"
    " WHERE n BETWEEN ? AND ? ORDER BY n"
)
_COPY_LINES = (
    f"INSERT INTO main.reading_line (reading_id, {_LINE})"
    f" SELECT n + ?, {_LINE} FROM {NAME}.spooled_line"
    " WHERE n BETWEEN ? AND ? ORDER BY n, position"
)
_READ_READINGS = (
    f"SELECT n, {_READING} FROM {NAME}.spooled_reading WHERE n BETWEEN ? AND ? ORDER BY n"
)
_READ_LINES = (
    f"SELECT n, {_LINE} FROM {NAME}.spooled_line WHERE n BETWEEN ? AND ? ORDER BY n, position"
)


def _values(table: str, columns: int, rows: int) -> str:
    row = f"({', '.join('?' * columns)})"
    return f"INSERT INTO {NAME}.{table} VALUES {', '.join([row] * rows)}"


def _spool_error(exc: sqlite3.Error) -> UsageError:
    return UsageError(
        f"cannot write the import's temporary file in {sqlite_temp_dir()}: {exc}"
        " (set TMPDIR to a directory with room)"
    )


class Spool:
    """Readings prepared for insertion, numbered from 1 (see the module docstring).

    ``dbapi`` is a :mod:`sqlite3` connection in autocommit mode (``isolation_level=None``)
    and outside any transaction; the spool is attached to it until :meth:`close`."""

    def __init__(self, dbapi: sqlite3.Connection) -> None:
        self.dbapi = dbapi
        self.count = 0
        self._readings: list[Any] = []  # the parameters of the next INSERTs, flat
        self._lines: list[Any] = []
        self._sql: dict[tuple[str, int], str] = {}
        for statement in _SETUP:
            dbapi.execute(statement)
        dbapi.execute(f"PRAGMA {NAME}.cache_size = -{int(CACHE_KIB)}")
        dbapi.execute("BEGIN")  # deferred: it locks the spool only, never the main database

    def add(self, rows: Rows) -> None:
        reading, lines = rows
        n = self.count = self.count + 1
        self._readings.append(n)
        self._readings += reading
        for line in lines:
            self._lines.append(n)
            self._lines += line
        if n % READINGS_PER_STATEMENT == 0:
            self._write()

    def _insert(self, table: str, columns: int, values: list[Any]) -> None:
        key = (table, len(values) // columns)
        if key not in self._sql:
            self._sql[key] = _values(table, columns, key[1])
        self.dbapi.execute(self._sql[key], values)

    def _write(self) -> None:
        try:
            self._insert("spooled_reading", 1 + len(READING_COLUMNS), self._readings)
            self._insert("spooled_line", 1 + len(LINE_COLUMNS), self._lines)
        except sqlite3.Error as exc:  # the disk is full, or a value SQLite cannot hold
            raise _spool_error(exc) from None
        self._readings, self._lines = [], []

    def finish(self) -> None:
        """Write what is pending and end the spool's transaction (ready to be read)."""
        if self._readings:
            self._write()
        try:
            self.dbapi.execute("COMMIT")
        except sqlite3.Error as exc:  # the disk is full, or a value SQLite cannot hold
            raise _spool_error(exc) from None

    def copy(self, conn: Connection, offset: int, created_at: str, first: int, last: int) -> None:
        """Insert readings ``first`` to ``last`` into ``reading`` and ``reading_line`` of the
        main database of the connection the spool is attached to, as ids ``n + offset``."""
        conn.exec_driver_sql(_COPY_READINGS, (offset, created_at, first, last))
        conn.exec_driver_sql(_COPY_LINES, (offset, first, last))

    def rows(
        self, first: int, last: int
    ) -> tuple[list[tuple[int, ReadingRow]], list[tuple[Any, ...]]]:
        """Readings ``first`` to ``last``: [(n, reading row)] and [(n, *line row)]."""
        readings = [(r[0], r[1:]) for r in self.dbapi.execute(_READ_READINGS, (first, last))]
        lines = list(self.dbapi.execute(_READ_LINES, (first, last)))
        return readings, lines

    def ranges(self, size: int) -> Iterator[tuple[int, int]]:
        """(first, last) of consecutive groups of at most ``size`` readings."""
        for first in range(1, self.count + 1, size):
            yield first, min(first + size - 1, self.count)

    def close(self) -> None:
        """Detach (and so delete) the spool; the connection is left as it was before. A
        connection already closed took the spool with it (SQLAlchemy closes one that a
        Ctrl-C interrupted mid-statement): nothing is left to do."""
        try:
            if self.dbapi.in_transaction:
                self.dbapi.execute("ROLLBACK")
            self.dbapi.execute(f"DETACH DATABASE {NAME}")
        except sqlite3.ProgrammingError:  # "Cannot operate on a closed database"
            pass
