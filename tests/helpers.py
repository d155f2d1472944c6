"""Small helpers shared by the test modules (``from helpers import run, copy_db``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from yimao_db.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``yimao ARGV`` in-process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


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
    (matter_preference's 神煞 before 0006) is left empty."""
    from sqlalchemy import inspect
    from sqlalchemy.exc import IntegrityError

    from yimao_db import seeding

    insp = inspect(conn)
    names = set(insp.get_table_names())
    tables = seeding.compute_tables()
    for table in seeding.seeded_tables(tables):
        if table.name not in names:
            continue
        columns = {c["name"] for c in insp.get_columns(table.name)}
        if not {c.name for c in table.primary_key.columns} <= columns:
            continue
        rows = [{k: v for k, v in r.items() if k in columns} for r in tables[table.name]]
        try:
            with conn.begin_nested():
                seeding.sync(conn, {table.name: rows})
        except IntegrityError:
            continue


def cast_into(db: str, lines: str | None = None, **kwargs: Any) -> int:
    """Cast a reading into ``db`` whatever its schema revision: the row holds the columns
    its reading table has (an older revision lacks the keys later ones derive)."""
    from sqlalchemy import MetaData, Table, insert

    from yimao_db.db import writer_engine
    from yimao_db.readings import line_rows, make_moment, prepare, reading_row

    moment_args = ("at", "tz", "pillars", "year", "month", "day", "hour", "early_rat")
    moment = make_moment(**{k: kwargs.pop(k) for k in moment_args if k in kwargs})
    engine = writer_engine(db)
    try:
        with engine.begin() as conn:
            request = prepare(conn, lines, moment=moment, **kwargs)
            table = Table("reading", MetaData(), autoload_with=conn)
            row = {k: v for k, v in reading_row(request).items() if k in table.c}
            reading_id = int(
                conn.execute(insert(table).values(row).returning(table.c.id)).scalar_one()
            )
            lines_table = Table("reading_line", MetaData(), autoload_with=conn)
            conn.execute(insert(lines_table), line_rows(request, reading_id))
            return reading_id
    finally:
        engine.dispose()
