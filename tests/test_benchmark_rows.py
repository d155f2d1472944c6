"""The readings benchmarks/reports.py makes: rows of the reading table as a cast stores them
(the benchmark itself runs for minutes and is not run here; its rows are cheap to make)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest
from sqlalchemy import text

from yimao_db.db import writer_engine
from yimao_db.kb.rules.keys import reading_keys
from yimao_db.readings import READING_COLUMNS

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture
def reports(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # it imports its neighbour processes.py
    import reports as module

    monkeypatch.delitem(sys.modules, "reports")
    return module


def test_the_report_benchmark_makes_readings_as_a_cast_stores_them(
    reports: ModuleType, sqlite_built_db: str
) -> None:
    """Every column of the reading table but the matter, the keys as the rules give them
    (ReadingKeys is a NamedTuple: its fields are read with _asdict, it has no __dict__),
    and fill() stores them with their derived rows."""
    rows = list(reports.random_rows(3, 7))
    assert len(rows) == 3
    for row, values in rows:
        assert {"created_at", *READING_COLUMNS} - set(row) == {"matter"}  # NULL: no matter
        assert set(row) <= {"created_at", *READING_COLUMNS}
        keys = reading_keys(row["cast_input"], "fixed", row["half_year"])
        assert {k: row[k] for k in keys._fields} == keys._asdict()
        assert [str(v) for v in values] == list(row["cast_input"])
    engine = writer_engine(sqlite_built_db)
    try:
        reports.fill(engine, 3, 7)
        with engine.connect() as conn:
            stored = conn.execute(
                text(
                    "SELECT r.id, r.primary_kw, h.primary_king_wen FROM reading r"
                    " JOIN reading_header h ON h.reading_id = r.id ORDER BY r.id"
                )
            ).all()
    finally:
        engine.dispose()
    assert [(i, kw) for i, kw, _ in stored] == [
        (i, row["primary_kw"]) for i, (row, _) in enumerate(rows, 1)
    ]
    assert all(kw == header_kw for _, kw, header_kw in stored)
