"""Concurrent writers and readers, on SQLite (always) and PostgreSQL (when a server is given).

8 processes cast readings into one database at the same time: every reading arrives whole,
ids are unique, and no 'database is locked' reaches a caller. By default each process casts
50 readings (8 × 50); ``YIMAO_FULL_SIZE=1`` (set by .ci/run) makes it the full
8 × 500 = 4,000 readings and 24,000 lines (how long they take: benchmarks/concurrency.py). A
reader that counts readings and lines while writers cast always sees six lines per reading.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from writers import CASTS, JOURNAL_ROUNDS, JOURNAL_TAGS, build_once, cast_many, journal_many

from yimao_db.building import build
from yimao_db.db import reader_engine, writer_engine
from yimao_db.kb import derived

WRITERS = 8
PER_WRITER = 500 if os.environ.get("YIMAO_FULL_SIZE") == "1" else 50
CONTEXT = multiprocessing.get_context("spawn")  # each process imports afresh, owns its engine


@pytest.fixture(
    params=[
        pytest.param("sqlite", marks=pytest.mark.sqlite_only),
        pytest.param("postgresql", marks=pytest.mark.needs_pg),
    ]
)
def target_db(request: pytest.FixtureRequest) -> Iterator[str]:
    """A built database on each backend: SQLite (but in the PostgreSQL pass, which the SQLite
    one has run), PostgreSQL when a server is given."""
    if request.param == "sqlite":
        yield request.getfixturevalue("sqlite_built_db")
        return
    url: str = request.getfixturevalue("pg_empty_db")  # skips without YIMAO_TEST_PG_URL
    build(url)
    yield url


def counts(db: str) -> tuple[int, int, list[int]]:
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            n = conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one()
            lines = conn.execute(text("SELECT COUNT(*) FROM reading_line")).scalar_one()
            ids = [r[0] for r in conn.execute(text("SELECT id FROM reading ORDER BY id"))]
            return int(n), int(lines), ids
    finally:
        engine.dispose()


def run_at_once(target: Any, args: tuple[Any, ...], processes: int) -> list[tuple[Any, ...]]:
    """Start `processes` processes of `target(*args, start, results, worker)`, released
    together by a barrier; return what each put on the queue, after each exited cleanly."""
    start = CONTEXT.Barrier(processes)
    results = CONTEXT.Queue()
    procs = [
        CONTEXT.Process(target=target, args=(*args, start, results, w)) for w in range(processes)
    ]
    for p in procs:
        p.start()
    got = [results.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    return got


def run_writers(db: str, writers: int, per_writer: int) -> tuple[list[int], list[str]]:
    ids: list[int] = []
    errors: list[str] = []
    for _worker, got, failed in run_at_once(cast_many, (db, per_writer), writers):
        ids += got
        errors += failed
    return ids, errors


def test_eight_writers_at_once(target_db: str) -> None:
    ids, errors = run_writers(target_db, WRITERS, PER_WRITER)
    assert errors == []  # in particular, no 'database is locked'
    total = WRITERS * PER_WRITER
    assert len(ids) == total
    assert len(set(ids)) == total  # ids unique
    n, lines, stored = counts(target_db)
    assert (n, lines) == (total, 6 * total)
    assert stored == sorted(ids)
    engine = reader_engine(target_db)  # each writer wrote its readings' derived rows
    try:
        with engine.connect() as conn:
            spans = derived.spans(min(ids), max(ids))
            assert list(derived.differences(conn, spans)) == []
            headers = conn.execute(text("SELECT COUNT(*) FROM reading_header")).scalar_one()
            assert headers == total
    finally:
        engine.dispose()


def test_readers_never_see_half_a_reading(target_db: str) -> None:
    """Two writers cast while a reader, in one transaction per look, counts readings and
    lines in separate statements and through the chart view: always six lines each."""
    writers, per_writer = 2, max(PER_WRITER, 100)
    start = CONTEXT.Barrier(writers + 1)
    results = CONTEXT.Queue()
    procs = [
        CONTEXT.Process(target=cast_many, args=(target_db, per_writer, start, results, w))
        for w in range(writers)
    ]
    for p in procs:
        p.start()
    engine = reader_engine(target_db)
    seen: set[int] = set()
    looks = 0
    try:
        start.wait(timeout=120)
        done = 0
        outcomes = []
        deadline = time.monotonic() + 300
        while done < writers:
            assert time.monotonic() < deadline, "the writers did not finish"
            with engine.connect() as conn:
                n = conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one()
                lines = conn.execute(text("SELECT COUNT(*) FROM reading_line")).scalar_one()
                charts = conn.execute(text("SELECT COUNT(*) FROM v_reading")).scalar_one()
                chart_lines = conn.execute(text("SELECT COUNT(*) FROM v_reading_line")).scalar_one()
            assert lines == 6 * n, (n, lines)
            assert (charts, chart_lines) == (n, lines)
            seen.add(int(n))
            looks += 1
            while not results.empty():
                outcomes.append(results.get())
                done += 1
    finally:
        engine.dispose()
        for p in procs:
            p.join(timeout=60)
    assert all(errors == [] for _w, _ids, errors in outcomes)
    assert counts(target_db)[:2] == (writers * per_writer, 6 * writers * per_writer)
    assert len(seen) > 2, f"the reader saw only {sorted(seen)} in {looks} looks"


def test_builds_of_one_empty_database_at_once_take_turns(empty_db: str) -> None:
    """Three builds of one empty database at once: one creates it, the others wait for it
    and find it at head (on PostgreSQL the second once failed on the server's catalogue,
    a duplicate type name); the database is whole."""
    from yimao_db.building import current_revision, head_revision

    done: list[str] = []
    errors: list[str] = []
    for _worker, did, failed in run_at_once(build_once, (empty_db,), 3):
        done += did
        errors += failed
    assert errors == []
    assert sorted(done) == ["at head", "at head", "created"]
    engine = reader_engine(empty_db)
    try:
        with engine.connect() as conn:
            assert current_revision(conn) == head_revision()
            assert conn.execute(text("SELECT COUNT(*) FROM hexagram")).scalar_one() == 64
    finally:
        engine.dispose()


def test_sqlite_is_in_wal_mode_with_a_busy_timeout(sqlite_built_db: str) -> None:
    from yimao_db.db import BUSY_TIMEOUT_MS

    for engine in (writer_engine(sqlite_built_db), reader_engine(sqlite_built_db)):
        try:
            with engine.connect() as conn:
                assert conn.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
                assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == BUSY_TIMEOUT_MS
                assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        finally:
            engine.dispose()


def test_a_writer_waits_for_another_instead_of_failing(sqlite_built_db: str) -> None:
    """One writer holds the write lock for a while; a second one queues behind it."""
    from yimao_db.readings import cast

    holder = writer_engine(sqlite_built_db)
    other = writer_engine(sqlite_built_db)
    results = CONTEXT.Queue()
    start = CONTEXT.Barrier(2)
    try:
        with holder.begin() as conn:  # BEGIN IMMEDIATE: the write lock is ours
            conn.execute(text("UPDATE reading SET question = question"))
            proc = CONTEXT.Process(target=cast_many, args=(sqlite_built_db, 1, start, results, 0))
            proc.start()
            start.wait(timeout=120)
            time.sleep(1.0)  # a cast takes milliseconds: the other process is waiting
            assert results.empty()
        _worker, ids, errors = results.get(timeout=60)
        proc.join(timeout=60)
        assert (errors, len(ids)) == ([], 1)
        assert cast("789678", pillars="甲子,丙寅,甲子,甲子", db=other) == ids[0] + 1
    finally:
        holder.dispose()
        other.dispose()


# --- tags and outcomes of one reading, from many processes at once ---------------------------


def test_tags_and_outcomes_of_one_reading_at_once(target_db: str) -> None:
    """8 processes tag one reading and record its outcome at the same time: none fails (on
    PostgreSQL a unique violation once did), and they take turns as on SQLite: each
    tag is reported new by exactly one call, and each outcome replaces exactly the one
    recorded before it (one call found none; the last one recorded is the one stored)."""
    from yimao_db.journaling import journal
    from yimao_db.readings import cast

    reading_id = cast(**CASTS[0], db=target_db)
    added: list[str] = []
    replaced: list[str | None] = []
    errors: list[str] = []
    for _worker, got, before, failed in run_at_once(journal_many, (target_db, reading_id), WRITERS):
        added += got
        replaced += before
        errors += failed
    assert errors == []
    stored = journal(reading_id, db=target_db)
    assert sorted(added) == sorted(stored.tags) == sorted(f"t{i}" for i in range(JOURNAL_TAGS))
    recorded = {f"{w}.{i}" for w in range(WRITERS) for i in range(JOURNAL_ROUNDS)}
    assert len(replaced) == len(recorded)
    assert replaced.count(None) == 1
    assert stored.outcome is not None and stored.outcome.note in recorded
    assert sorted(n for n in replaced if n is not None) == sorted(recorded - {stored.outcome.note})


@pytest.mark.sqlite_only
def test_switching_a_file_to_wal_waits_for_another_connection(tmp_path: Path) -> None:
    """Switching a file to WAL needs an exclusive lock, and SQLite answers "database is
    locked" at once instead of waiting (its busy handler is not called, to avoid a
    deadlock): a writer opening a file that another process is writing in rollback mode
    (builds of a new file at once, one of which failed so once in CI) waits until it may,
    as for any other lock."""
    path = tmp_path / "rollback.db"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE other (x)")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # writing, in rollback mode
    other.execute("INSERT INTO other VALUES (1)")
    released = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    released.start()
    began = time.monotonic()
    engine = writer_engine(str(path))
    try:
        with engine.connect() as conn:
            mode = conn.exec_driver_sql("PRAGMA journal_mode").scalar_one()
    finally:
        engine.dispose()
        released.join()
        other.close()
    assert mode == "wal"
    assert time.monotonic() - began >= 0.25  # it waited for the other writer
