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
