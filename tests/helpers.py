"""Small helpers shared by the test modules (``from helpers import run, copy_db``)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

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
