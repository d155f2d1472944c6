"""Crash-safe build: ``yimao build`` killed with SIGKILL never leaves a half-built database.

Each case runs ``python -m yimao_db build --db X`` as a real process. The deterministic cases
set ``YIMAO_TEST_KILL_AT`` (the test hook of :mod:`yimao_db.building`) so the build kills itself
right after ``BEGIN IMMEDIATE`` (``begin``), after the first of several migrations
(``migration``), after all migrations (``upgrade``), after the seed (``seed``) and after the
invariants, just before ``COMMIT`` (``invariants``). The random cases are killed from outside
after a random delay, wherever they happen to be. All processes run at once to keep it fast.

Afterwards: a fresh path holds no database or an empty one, which the next build completes; an
existing database (an older revision with readings, or one at head) is exactly as it was,
byte for byte in its dump, and ``yimao check`` is clean on it (at once when it was at head,
after a normal rebuild when it was older).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import cast_into, copy_db, seed_existing, seeded

from yimao_db import check as doctor
from yimao_db.building import KILL_ENV, KILL_POINTS, build, current_revision, head_revision, upgrade
from yimao_db.cli import main
from yimao_db.db import ENV_VAR, writer_engine
from yimao_db.kb.rules.keys import KEY_COLUMNS

LATER_INPUTS = ("matter", "about")  # inputs of a reading added after 0003 (0006, 0014)
LATER_DERIVED = ("cast_utc",)  # computed from the inputs, added after 0003 (0015)

Tables = dict[str, list[dict[str, Any]]]
READINGS_REVISION = "0003"
FRESH_POINTS = ("migration", "invariants")  # a first build killed mid-migrations, before COMMIT
HEAD_POINTS = ("invariants",)  # a no-op rebuild killed holding its write lock
RANDOM_KILLS = 2

pytestmark = pytest.mark.sqlite_only  # kills SQLite builds


def dump(path: Path) -> list[str]:
    """The whole database as SQL (schema and every row), read without writing."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


def tables(path: Path) -> set[str]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {n for (n,) in con.execute("SELECT name FROM sqlite_master")}
    finally:
        con.close()


def revision(path: Path) -> str | None:
    engine = writer_engine(str(path))
    try:
        with engine.connect() as conn:
            return current_revision(conn)
    finally:
        engine.dispose()


def readings(path: Path) -> list[tuple[object, ...]]:
    """What was cast: each reading's inputs with its lines (not the keys derived from them,
    which later revisions add)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        inputs = [
            f"r.{name}"
            for _, name, *_ in con.execute("PRAGMA table_info(reading)")
            if name not in (*KEY_COLUMNS, *LATER_INPUTS, *LATER_DERIVED)
        ]
        rows = con.execute(
            f"SELECT {', '.join(inputs)}, l.* FROM reading r "
            "JOIN reading_line l ON l.reading_id = r.id"
        )
        return sorted(rows.fetchall(), key=repr)
    finally:
        con.close()


def cli_check(path: Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["check", "--db", str(path)])
    return code, out.getvalue()


def with_readings(db: str) -> None:
    cast_into(db, "789678", pillars="甲辰,丙寅,戊戌,庚申", question="kept?")
    cast_into(db, coins="2,1,3,0,2,2", at="2024-06-30T10:00", najia="seasonal")
    cast_into(db, "乾之姤", day="甲子", month="寅")


@dataclass
class Case:
    name: str
    kind: str  # fresh, older, head, random
    path: Path
    kill_at: str | None = None
    delay: float | None = None
    before: list[str] | None = None
    returncode: int | None = None


@pytest.fixture(scope="module")
def crashes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Case]]:
    root = tmp_path_factory.mktemp("crash")
    older = root / "older.db"
    engine = writer_engine(str(older), building=True)
    try:
        with engine.begin() as conn:
            upgrade(conn, READINGS_REVISION)
            seed_existing(conn)
    finally:
        engine.dispose()
    with_readings(str(older))
    head = root / "head.db"
    build(str(head))
    with_readings(str(head))

    cases: list[Case] = []
    for point in FRESH_POINTS:
        cases.append(Case(f"fresh-{point}", "fresh", root / f"fresh-{point}.db", point))
    for point in KILL_POINTS:
        cases.append(Case(f"older-{point}", "older", copy_db(older, root / f"o-{point}.db"), point))
    for point in HEAD_POINTS:
        cases.append(Case(f"head-{point}", "head", copy_db(head, root / f"h-{point}.db"), point))
    rng = random.Random()
    for i in range(RANDOM_KILLS):
        path = copy_db(older, root / f"random-{i}.db")
        cases.append(Case(f"random-{i}", "random", path, delay=rng.uniform(0.3, 2.5)))
    for case in cases:
        case.before = dump(case.path) if case.path.exists() else None

    env = {k: v for k, v in os.environ.items() if k not in (ENV_VAR, KILL_ENV)}
    procs = {}
    started = time.monotonic()
    for case in cases:
        child_env = env if case.kill_at is None else {**env, KILL_ENV: case.kill_at}
        procs[case.name] = subprocess.Popen(
            [sys.executable, "-m", "yimao_db", "build", "--db", str(case.path)],
            env=child_env,
            cwd=root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    for case in sorted((c for c in cases if c.delay is not None), key=lambda c: c.delay or 0):
        assert case.delay is not None
        time.sleep(max(0.0, started + case.delay - time.monotonic()))
        proc = procs[case.name]
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
    for case in cases:
        proc = procs[case.name]
        _, err = proc.communicate(timeout=120)
        case.returncode = proc.returncode
        assert b"Traceback" not in err, err.decode()
    yield {c.name: c for c in cases}


def cases_of(kind: str) -> list[str]:
    if kind == "fresh":
        return [f"fresh-{p}" for p in FRESH_POINTS]
    if kind == "older":
        return [f"older-{p}" for p in KILL_POINTS]
    if kind == "head":
        return [f"head-{p}" for p in HEAD_POINTS]
    return [f"random-{i}" for i in range(RANDOM_KILLS)]


@pytest.fixture(scope="module")
def expected() -> Tables:
    return seeded()


@pytest.mark.parametrize("name", cases_of("fresh"))
def test_killed_first_build_leaves_nothing_half_built(
    crashes: dict[str, Case], expected: Tables, name: str
) -> None:
    case = crashes[name]
    assert case.returncode == -signal.SIGKILL
    # the new file is built beside its place, under a hidden name, and takes its name when
    # complete: a killed build leaves only its hidden file
    assert not case.path.exists()
    left = sorted(case.path.parent.glob(f".{case.path.name}.*.building*"))
    assert left, "the killed build's hidden file"
    code, out = cli_check(case.path)
    assert code == 2 and "no database" in out, out
    build(str(case.path))  # removes the hidden file of the build that was killed
    assert doctor.check(str(case.path), expected) == []
    assert sorted(case.path.parent.glob(f".{case.path.name}.*.building*")) == []


@pytest.mark.parametrize("name", cases_of("older"))
def test_killed_upgrade_leaves_the_older_database_intact(
    crashes: dict[str, Case], expected: Tables, name: str
) -> None:
    case = crashes[name]
    assert case.returncode == -signal.SIGKILL
    assert dump(case.path) == case.before
    assert revision(case.path) == READINGS_REVISION
    kept = readings(case.path)
    assert len(kept) == 3 * 6
    build(str(case.path))  # the next normal build completes the upgrade
    assert revision(case.path) == head_revision()
    assert readings(case.path) == kept
    assert doctor.check(str(case.path), expected) == []


@pytest.mark.parametrize("name", cases_of("head"))
def test_killed_rebuild_leaves_the_database_at_head_clean(
    crashes: dict[str, Case], name: str
) -> None:
    case = crashes[name]
    assert case.returncode == -signal.SIGKILL
    code, out = cli_check(case.path)  # at once, on the file the killed build left
    assert code == 0 and out.startswith("ok: "), out
    assert dump(case.path) == case.before


@pytest.mark.parametrize("name", cases_of("random"))
def test_killed_at_a_random_moment_is_old_or_new_never_half(
    crashes: dict[str, Case], expected: Tables, name: str
) -> None:
    case = crashes[name]
    where = f"killed after {case.delay:.2f}s, exit {case.returncode}"
    if dump(case.path) == case.before:
        assert revision(case.path) == READINGS_REVISION, where
    else:  # the build finished before the kill: the whole new database
        assert case.returncode == 0, where
        assert revision(case.path) == head_revision(), where
        assert doctor.check(str(case.path), expected) == [], where
    build(str(case.path))
    assert doctor.check(str(case.path), expected) == [], where
    assert len(readings(case.path)) == 3 * 6, where
