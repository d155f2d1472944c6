"""The processes of tests/test_concurrency.py: what each writer does.

A module of their own, importing nothing at its top but the standard library: the writers
are started with ``spawn``, and each imports the module its function lives in afresh (the
test module would bring pytest, alembic and the rest of the build with it: about a second
of every process).
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.synchronize import Barrier
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Engine

# Inputs cycled by the writers: values, notation, hexagram + moving lines, coins.
CASTS: list[dict[str, Any]] = [
    {"lines": "789678", "pillars": "甲子,丙寅,甲子,甲子"},
    {"lines": "乾之姤", "pillars": "甲辰,丙寅,乙丑,丙子"},
    {"lines": "天風姤", "moving": "1,4", "day": "丙寅", "month": "卯"},
    {"coins": "2,1,3,0,2,2", "pillars": "癸卯,甲寅,丁卯,庚子"},
]


@contextmanager
def _own_engine(db: str, errors: list[str]) -> Iterator[Engine]:
    """The process's own engine for ``db``, disposed of after the block; an exception that
    leaves the block is reported in ``errors`` (the test fails on any)."""
    from yimao_db.db import writer_engine

    try:
        engine = writer_engine(db)
        try:
            yield engine
        finally:
            engine.dispose()
    except Exception:
        errors.append(traceback.format_exc())


def cast_many(db: str, count: int, start: Barrier | None, results: Any, worker: int) -> None:
    """A writer process: cast ``count`` readings with its own engine; report ids or errors."""
    from yimao_db.readings import cast

    ids: list[int] = []
    errors: list[str] = []
    try:
        with _own_engine(db, errors) as engine:
            if start is not None:
                start.wait(timeout=120)
            for i in range(count):
                try:
                    ids.append(cast(**CASTS[(worker + i) % len(CASTS)], db=engine))
                except Exception as exc:  # reported to the test, which fails on any
                    errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        results.put((worker, ids, errors))


JOURNAL_ROUNDS = 10
JOURNAL_TAGS = 12


def journal_many(db: str, reading_id: int, start: Barrier, results: Any, worker: int) -> None:
    """A process that tags one reading and records its outcome, ``JOURNAL_ROUNDS`` times each;
    reports the tags each ``tag`` said were new and the outcome each ``record_outcome`` replaced."""
    from yimao_db.journaling import record_outcome, tag

    added: list[str] = []
    replaced: list[str | None] = []
    errors: list[str] = []
    try:
        with _own_engine(db, errors) as engine:
            start.wait(timeout=120)
            for i in range(JOURNAL_ROUNDS):
                try:
                    wanted = [
                        f"t{(worker + i) % JOURNAL_TAGS}",
                        f"t{(worker * 3 + i) % JOURNAL_TAGS}",
                    ]
                    added += tag(reading_id, wanted, db=engine)
                    verdict = ("hit", "miss", "partial")[i % 3]
                    before = record_outcome(reading_id, verdict, note=f"{worker}.{i}", db=engine)
                    replaced.append(None if before is None else before.note)
                except Exception as exc:  # reported to the test, which fails on any
                    errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        results.put((worker, added, replaced, errors))


def build_once(db: str, start: Barrier, results: Any, worker: int) -> None:
    """A process that builds ``db`` once, released with the others; reports what the build
    said it did, or the error."""
    from yimao_db.building import build

    done: list[str] = []
    errors: list[str] = []
    try:
        start.wait(timeout=120)
        report = build(db)
        done.append("created" if report.before is None else "at head")
    except Exception as exc:  # reported to the test, which fails on any
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        results.put((worker, done, errors))
