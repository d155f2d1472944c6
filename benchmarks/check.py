"""Benchmark: ``yimao check`` on a database with many readings (goal: 1,000,000 in seconds).

Builds a SQLite database with ``--readings`` readings (default 1,000,000) thrown as coins at
``--moments`` distinct moments (default 100,000; random seconds of 1950-2049 in three zones,
a fifth with the early rat), each stored with the moment the calendar gives, then times
:func:`yimao_db.check.run` on it, stage by stage, wall clock and CPU. The check must find
nothing. The calendar runs once per distinct moment, so the readings stage costs
(readings x streaming) + (moments x one calendar computation): both figures are printed.

    python benchmarks/check.py [--readings N] [--moments K] [--db PATH]

``--db PATH`` keeps the generated database (and reuses it when it exists).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

from yimao_db import check
from yimao_db.building import build
from yimao_db.calendar import moment
from yimao_db.calendar.moment import Moment, moment_at
from yimao_db.kb import seeding

ZONES = ("Asia/Shanghai",) * 8 + ("America/New_York", "Europe/London")
COLUMNS = (
    "id, created_at, question, method, cast_input, cast_at, tz, year_gz, month_gz, "
    "month_branch, day_gz, hour_gz, solar_term, half_year, early_rat, najia_variant"
)


def moments(count: int, rng: random.Random) -> list[Moment]:
    """Random instants (aware: a naive time could fall in a zone's summer-time gap)."""
    start = datetime(1950, 1, 1, tzinfo=UTC).timestamp()
    span = datetime(2050, 1, 1, tzinfo=UTC).timestamp() - start
    found = []
    for _ in range(count):
        when = datetime.fromtimestamp(int(start + rng.random() * span), tz=UTC)
        found.append(moment_at(when, rng.choice(ZONES), early_rat=rng.random() < 0.2))
    return found


def generate(path: Path, readings: int, distinct: int, seed: int) -> None:
    rng = random.Random(seed)
    build(str(path))
    started = time.perf_counter()
    at = moments(distinct, rng)
    print(f"computed {distinct:,} moments in {time.perf_counter() - started:.1f} s")
    con = sqlite3.connect(path)
    batch: list[tuple[object, ...]] = []
    lines: list[tuple[int, int, int, int]] = []
    insert = f"INSERT INTO reading ({COLUMNS}) VALUES ({', '.join('?' * 16)})"
    for rid in range(1, readings + 1):
        m = at[rng.randrange(distinct)]
        backs = [rng.randrange(2) + rng.randrange(2) + rng.randrange(2) for _ in range(6)]
        batch.append(
            (
                rid,
                "2026-01-01T00:00:00.000000+00:00",
                None,
                "coins",
                ",".join(map(str, backs)),
                m.cast_at,
                m.tz,
                m.year_gz,
                m.month_gz,
                m.month_branch,
                m.day_gz,
                m.hour_gz,
                m.solar_term,
                m.half_year,
                int(m.early_rat),
                "fixed",
            )
        )
        lines += [(rid, p, 6 + b, b) for p, b in enumerate(backs, 1)]
        if len(batch) == 50_000 or rid == readings:
            con.executemany(insert, batch)
            con.executemany("INSERT INTO reading_line VALUES (?, ?, ?, ?)", lines)
            batch, lines = [], []
    con.commit()
    con.close()
    print(f"stored {readings:,} readings in {time.perf_counter() - started:.1f} s")


def timed_check(path: Path) -> None:
    expected = seeding.compute_tables()
    stages: list[tuple[str, float, float]] = []  # stage, wall and CPU clock at its start

    def progress(stage: str, done: int, total: int) -> None:
        if not stages or stages[-1][0] != stage:
            stages.append((stage, time.perf_counter(), time.process_time()))

    in_calendar = [0.0, 0]  # CPU seconds in moment_at, calls
    real_moment_at = moment.moment_at

    def timed_moment_at(*args: Any, **kwargs: Any) -> Moment:
        started = time.process_time()
        try:
            return real_moment_at(*args, **kwargs)
        finally:
            in_calendar[0] += time.process_time() - started
            in_calendar[1] += 1

    moment.moment_at = timed_moment_at
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        report = check.run(str(path), expected, progress=progress)
    finally:
        moment.moment_at = real_moment_at
    stages.append(("end", time.perf_counter(), time.process_time()))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"  {'stage':<28} {'wall':>8} {'CPU':>8}")
    for (stage, w0, c0), (_, w1, c1) in pairwise(stages):
        print(f"  {stage:<28} {w1 - w0:7.2f}s {c1 - c0:7.2f}s")
    print(f"check: {wall:.2f} s wall, {cpu:.2f} s CPU; " + "; ".join(report.checked[-3:]))
    seconds, calls = in_calendar
    print(
        f"of which the calendar: {seconds:.2f} s CPU for {calls:,} moments "
        f"({calls / seconds if seconds else 0:,.0f}/s); the rest {cpu - seconds:.2f} s CPU"
    )
    if not report.ok:
        print("\n".join(str(p) for p in report.problems[:20]), file=sys.stderr)
        raise SystemExit("the generated database has problems")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readings", type=int, default=1_000_000)
    parser.add_argument("--moments", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="keep (or reuse) the database here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="yimao-check-") as tmp:
        path = args.db or Path(tmp) / "check.db"
        if not path.exists():
            generate(path, args.readings, min(args.moments, args.readings), args.seed)
        timed_check(path)


if __name__ == "__main__":
    main()
