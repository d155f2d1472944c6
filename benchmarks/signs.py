"""Signs benchmark: ``v_reading_sign`` at scale.

Stores N random readings (three coins a line, a random day, month and hour; one in five
asks about each of the four matters), then measures:

(a) the signs of one reading, ``SELECT * FROM v_reading_sign WHERE reading_id = ?``, for
    ``--sample`` random ids: median and p90 in ms;
(b) the report "how often each sign fires" of docs/queries.md over every reading: seconds;
(c) the same report restricted to the first 10 000 readings (``reading_id <= 10000``),
    the size of a report on a slice: seconds;
(d) the oracle (``yimao_db.check.signs.sign_problems``) on ``--sample`` readings: ms per
    reading, and the number of differences (0 expected).

Run: ``python benchmarks/signs.py --readings 1000000`` (a temporary SQLite file; about
a minute and a half to store a million readings), or ``--db URL`` for a database of your
own (PostgreSQL: a fresh database; readings are added, then ANALYZE). Wall-clock figures
are what count; CPU time is printed too because a shared machine makes wall time noisy.

Measured on the shared two-core machine of the change (SQLite, 1 000 000 readings): (a)
median 0.45 ms, p90 0.69 ms; (b) 148 s; (c) 1.4 s; (d) 0.95 ms a reading, 0 differences.
PostgreSQL 15, 100 000 readings: (a) 1.8 ms once the statement is prepared (planning the
view the first time on a connection takes about 0.25 s); (b) 14.5 s; (c) 1.8 s; (d) 1.4 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, insert, select, text

from yimao_db.building import build
from yimao_db.check.signs import sign_problems
from yimao_db.db import reader_engine, writer_engine
from yimao_db.kb.rules import spirits
from yimao_db.kb.rules.ganzhi import sixty
from yimao_db.kb.rules.keys import reading_keys
from yimao_db.kb.schema.readings import reading, reading_line

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
MATTERS = (None, "功名", "財利", "獄訟", "憂患")
FREQUENCY = """
SELECT s.sign, s.weight, s.polarity, COUNT(*) AS fired,
       COUNT(DISTINCT s.reading_id) AS readings
FROM v_reading_sign s {where}
GROUP BY s.sign, s.weight, s.polarity
ORDER BY fired DESC, s.sign
"""
CHUNK = 20_000


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def rows_for(rng: random.Random, start: int, count: int) -> tuple[list[dict[str, Any]], ...]:
    """``count`` random readings from id ``start``: reading rows and their line rows."""
    days = [g.name for g in sixty()]
    readings, lines = [], []
    for rid in range(start, start + count):
        values = "".join(str(6 + sum(rng.randrange(2) for _ in range(3))) for _ in range(6))
        keys = reading_keys(values, "fixed", None)
        day, hour = rng.choice(days), rng.choice(BRANCHES)
        readings.append(
            {
                "id": rid,
                "created_at": "2026-01-01T00:00:00.000000+00:00",
                "question": None,
                "method": "values",
                "cast_input": values,
                "cast_at": None,
                "tz": None,
                "year_gz": None,
                "month_gz": None,
                "month_branch": rng.choice(BRANCHES),
                "day_gz": day,
                "hour_gz": spirits.hour_stem(day[0], hour) + hour,
                "solar_term": None,
                "half_year": None,
                "early_rat": 0,
                "najia_variant": "fixed",
                "primary_kw": keys.primary_kw,
                "changed_kw": keys.changed_kw,
                "moving_mask": keys.moving_mask,
                "najia_half": keys.najia_half,
                "matter": MATTERS[rid % len(MATTERS)],
            }
        )
        lines += [
            {"reading_id": rid, "position": p, "value": int(v), "coins": None}
            for p, v in enumerate(values, 1)
        ]
    return readings, lines


def store(engine: Engine, count: int, seed: int) -> int:
    """Add ``count`` random readings in chunks; returns how many the database holds."""
    rng = random.Random(seed)
    with engine.begin() as conn:
        start = int(conn.execute(select(func.coalesce(func.max(reading.c.id), 0))).scalar_one())
    for offset in range(0, count, CHUNK):
        done, lines = rows_for(rng, start + offset + 1, min(CHUNK, count - offset))
        with engine.begin() as conn:
            conn.execute(insert(reading), done)
            conn.execute(insert(reading_line), lines)
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("ANALYZE"))  # statistics for the planner after a bulk load
        return int(conn.execute(select(func.count()).select_from(reading)).scalar_one())


def one_reading(engine: Engine, ids: Sequence[int]) -> list[float]:
    query = text("SELECT * FROM v_reading_sign WHERE reading_id = :id")
    out = []
    with engine.connect() as conn:
        conn.execute(query, {"id": ids[0]}).all()  # warm-up: statement cache, pages
        for rid in ids:
            start = time.perf_counter()
            conn.execute(query, {"id": rid}).all()
            out.append((time.perf_counter() - start) * 1000)
    return out


def report(engine: Engine, where: str = "") -> int:
    with engine.connect() as conn:
        return len(conn.execute(text(FREQUENCY.format(where=where))).all())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readings", type=int, default=100_000, help="readings stored")
    parser.add_argument("--sample", type=int, default=1000, help="readings timed one by one")
    parser.add_argument("--seed", type=int, default=12, help="random seed (12)")
    parser.add_argument("--db", help="database URL instead of a temporary SQLite file")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="yimao-signs-") as tmp:
        target = args.db or str(Path(tmp) / "signs.db")
        build(target)
        writer = writer_engine(target)
        try:
            total, wall, _ = timed(lambda: store(writer, args.readings, args.seed))
        finally:
            writer.dispose()
        print(f"database: {target}; stored {args.readings} readings in {wall:.0f} s ({total})")
        engine = reader_engine(target)
        try:
            rng = random.Random(args.seed)
            ids = [rng.randint(1, total) for _ in range(args.sample)]
            ms = one_reading(engine, ids)
            print(
                f"(a) one reading's signs: median {statistics.median(ms):.2f} ms, "
                f"p90 {statistics.quantiles(ms, n=10)[-1]:.2f} ms ({len(ms)} readings)"
            )
            n, wall, cpu = timed(lambda: report(engine))
            print(
                f"(b) how often each sign fires, {total} readings: {wall:.1f} s "
                f"(CPU {cpu:.1f} s), {n} signs"
            )
            n, wall, cpu = timed(lambda: report(engine, "WHERE s.reading_id <= 10000"))
            print(f"(c) the same for readings 1..10000: {wall:.2f} s (CPU {cpu:.2f} s)")
            with engine.connect() as conn:
                found, wall, _ = timed(lambda: sign_problems(conn, ids))
            print(
                f"(d) the oracle on {len(set(ids))} readings: "
                f"{wall * 1000 / len(set(ids)):.2f} ms a reading, {len(found)} differences"
            )
        finally:
            engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
