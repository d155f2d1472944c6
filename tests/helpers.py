"""Small helpers shared by the test modules (``from helpers import run, copy_db``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import Engine, text

from yimao_db import dialect
from yimao_db.cli import main
from yimao_db.db import reader_engine
from yimao_db.kb import seeding

if TYPE_CHECKING:
    from yimao_db.sql.session import PostgresSession


# a query that never ends by itself, on either backend: SELECT {} of the rows 1, 2, 3, …
ENDLESS = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT {}"


def ctrl_c() -> None:
    """A real Ctrl-C, here: SIGINT to this process, then a call, where Python raises the
    KeyboardInterrupt for it (under Python's handler: :func:`as_a_command`)."""
    os.kill(os.getpid(), signal.SIGINT)
    (lambda: None)()


@contextlib.contextmanager
def as_a_command() -> Iterator[None]:
    """Inside, Ctrl-C is handled by Python's own handler, as in a command (pytest's may
    differ); the handler before is restored after."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def rows(db: str, sql: str) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` in the database ``db``, read through an engine of their own
    (disposed of after: nothing is left open)."""
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql))]
    finally:
        engine.dispose()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``yimao ARGV`` in-process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def reading_view(engine: Engine, sql: str, reading_id: int) -> list[dict[str, Any]]:
    """The rows of ``sql`` (a query of a reading view with ``:id``) for one reading.

    On PostgreSQL its joins are planned in the order the views write them, as the chart
    itself is read (:func:`yimao_db.dialect.joins_as_written`): searching every order takes
    the planner about a second for ``v_reading_sign``, on each new statement of a test."""
    with engine.connect() as conn, dialect.joins_as_written(conn, conn.connection.cursor()):
        return [dict(r) for r in conn.execute(text(sql), {"id": reading_id}).mappings()]


COMPUTE_ROWS = seeding.computed_rows  # the seed scripts run afresh (conftest replaces it)


@cache
def _derived_rows() -> seeding.Tables:
    return COMPUTE_ROWS()


def rows_derived_once() -> seeding.Tables:
    """What :func:`seeding.computed_rows` gives, derived once per worker: each call gets
    its own copy of the rows. tests/conftest.py has every build and check of the session
    call it (the self-checks still run each time)."""
    return {name: [dict(row) for row in rows] for name, rows in _derived_rows().items()}


@cache
def _seeded() -> seeding.Tables:
    return seeding.compute_tables()


def seeded() -> seeding.Tables:
    """Every seeded table's rows as the rules give them (:func:`seeding.compute_tables`),
    computed once per worker; each call gets its own copy of the rows, free to change."""
    return {name: [dict(row) for row in rows] for name, rows in _seeded().items()}


def seed_script(stem: str) -> ModuleType:
    """The seed script ``seed/STEM.py`` as the loader runs it (``s20_rules``)."""
    return next(m for m in seeding.seed_scripts() if m.__name__ == f"yimao_seed_{stem}")


def built_copy(template: Path, path: Path) -> Path:
    """A database as ``yimao build`` makes it at ``path``: a copy of the session's build
    (``sqlite_template`` in tests/conftest.py), without building again."""
    shutil.copyfile(template, path)
    return path


def copy_db(src: Path, dst: Path) -> Path:
    """A consistent copy of a SQLite database (WAL included) through the backup API."""
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    target = sqlite3.connect(dst)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return dst


def seed_existing(conn: Any) -> None:
    """Seed the tables a database at an older revision has, as far as their columns go: a
    build at that revision made with today's rules. A table whose key has changed since
    (line_aspect, keyed by yang before 0006) or whose rows its older constraints refuse
    (matter_preference's 神煞 before 0006) is left empty; line_transform before 0012 gets ''
    where today's rows have NULL."""
    from sqlalchemy import inspect
    from sqlalchemy.exc import IntegrityError

    from yimao_db.kb import seeding

    insp = inspect(conn)
    names = set(insp.get_table_names())
    tables = _seeded()  # read, never changed
    for table in seeding.seeded_tables(tables):
        if table.name not in names:
            continue
        nullable = {c["name"]: c["nullable"] for c in insp.get_columns(table.name)}
        columns = set(nullable)
        if not {c.name for c in table.primary_key.columns} <= columns:
            continue
        rows = tables[table.name]
        if rows and not set(rows[0]) <= columns:  # cut down to the columns it has
            rows = [{k: v for k, v in r.items() if k in columns} for r in rows]
        if table.name == "line_transform" and not nullable["transforms"]:
            # before 0012 a line without a transform had '' (NOT NULL), from it on NULL
            rows = [{**r, "transforms": r["transforms"] or ""} for r in rows]
        try:
            with conn.begin_nested():
                seeding.sync(conn, {table.name: rows})
        except IntegrityError:
            continue


def cast_into(db: str, lines: str | None = None, **kwargs: Any) -> int:
    """Cast a reading into ``db`` whatever its schema revision: the row holds the columns
    its reading table has (an older revision lacks the keys later ones derive)."""
    from sqlalchemy import column, insert, inspect, table

    from yimao_db.db import writer_engine
    from yimao_db.readings import (
        LINE_COLUMNS,
        READING_COLUMNS,
        make_moment,
        prepare,
        reading_rows,
        stored_at,
    )

    moment_args = ("at", "tz", "pillars", "year", "month", "day", "hour", "early_rat")
    moment = make_moment(**{k: kwargs.pop(k) for k in moment_args if k in kwargs})
    engine = writer_engine(db)
    try:
        with engine.begin() as conn:
            row, lines_ = reading_rows(prepare(conn, lines, moment=moment, **kwargs))
            names = {c["name"] for c in inspect(conn).get_columns("reading")}
            values = {k: v for k, v in zip(READING_COLUMNS, row, strict=True) if k in names}
            reading = table("reading", *(column(name) for name in names))
            inserted = conn.execute(
                insert(reading).values(created_at=stored_at(), **values).returning(reading.c.id)
            )
            reading_id = int(inserted.scalar_one())
            line_names = ("reading_id", *LINE_COLUMNS)
            conn.execute(
                insert(table("reading_line", *(column(name) for name in line_names))),
                [
                    {"reading_id": reading_id, **dict(zip(LINE_COLUMNS, x, strict=True))}
                    for x in lines_
                ],
            )
            from yimao_db.kb import derived  # as every write: the derived rows its revision has

            counted = inspect(conn).has_table("sign_count")  # from revision 0027
            for d in derived.DERIVED:
                if inspect(conn).has_table(d.table):
                    d = d._replace(counted=d.counted and counted)
                    derived.write(conn, d, (reading_id, reading_id), replace=False)
            return reading_id
    finally:
        engine.dispose()


def counts(engine: Engine) -> tuple[int, int]:
    """How many readings and reading lines are stored."""
    with engine.connect() as conn:
        row = conn.execute(
            text("SELECT (SELECT COUNT(*) FROM reading), (SELECT COUNT(*) FROM reading_line)")
        ).one()
    return int(row[0]), int(row[1])


def coins_of(engine: Engine, reading_id: int) -> list[int | None]:
    """The coins of a stored reading's lines, line 1 first."""
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT coins FROM reading_line WHERE reading_id = :id ORDER BY position"),
            {"id": reading_id},
        ).scalars()
        return [None if c is None else int(c) for c in rows]


@contextlib.contextmanager
def raw(path: Path, *, ignore_checks: bool = False) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection to ``path`` with foreign keys off, autocommit: tests use it
    to damage a database behind yimao's back (``ignore_checks``: CHECK constraints off too)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA foreign_keys=OFF")
    if ignore_checks:
        con.execute("PRAGMA ignore_check_constraints=ON")
    try:
        yield con
    finally:
        con.close()


def refresh_derived(con: sqlite3.Connection) -> None:
    """Rewrite every derived row from its definition (:mod:`yimao_db.kb.derived`) on a
    plain connection, as a write through yimao would have left them: for a test that
    changes readings behind yimao's back to stand for readings stored that way. A
    definition that no longer answers (a table dropped) leaves its table as it was."""
    from yimao_db.kb import derived, sign_count

    for d in derived.DERIVED:
        con.execute("SAVEPOINT derived")
        try:
            con.execute(f"DELETE FROM {d.table}")
            con.execute(f"INSERT INTO {d.table} SELECT * FROM {d.definition}")
        except sqlite3.Error:
            con.execute("ROLLBACK TO derived")
        con.execute("RELEASE derived")
    con.execute(f"DELETE FROM {sign_count.TABLE}")  # and the signs counted again
    con.execute(f"INSERT INTO {sign_count.TABLE} {sign_count.COUNTED.format(where='')}")


def execute_unchecked(session: PostgresSession, sql: str) -> list[tuple[Any, ...]]:
    """Run ``sql`` (one statement: the extended protocol) in ``yimao sql``'s PostgreSQL
    transaction without the function checks, to test the layers below them."""
    return session._cursor.execute(sql, prepare=True).fetchall()
