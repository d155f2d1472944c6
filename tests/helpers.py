"""Small helpers shared by the test modules (``from helpers import run, copy_db``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

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
