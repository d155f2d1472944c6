"""Readings benchmark: the same random casts at random dates, measured three ways.

(a) one reading cast → stored → charted through the API (``yimao_db.readings.cast`` then
    ``chart``, one shared writer Engine): median latency in ms;
(b) charting stored readings set-wise from the views: ``v_reading``, ``v_reading_line`` and
    ``v_reading_hidden`` each read whole, ordered by reading (and line), every row fetched:
    readings per second;
(c) the PyPI package ``najia`` (``Najia(0).compile(params, date=...)``) on the same casts
    and dates: readings per second.

Goals: (b) >= 30 x (c); (a) no slower than one ``najia`` reading, 1 / (c).

Run: ``python benchmarks/readings.py`` (``pip install -e '.[bench]'`` for ``najia``). It
builds a fresh SQLite database in a temporary directory; ``--db URL`` uses an empty or
built database of your own instead (PostgreSQL: a fresh database, readings are added).
Wall-clock figures are what count; CPU time is printed as well because a shared machine
makes wall time noisy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, insert, select

from yimao_db.build import build
from yimao_db.calendar.moment import Moment, moment_at
from yimao_db.db import writer_engine
from yimao_db.readings import cast, chart
from yimao_db.schema.readings import reading, reading_line

NAJIA_PARAM = {"7": 1, "8": 2, "9": 3, "6": 4}  # najia: 1/2 young yang/yin, 3/4 old yang/yin
VIEW_QUERIES = (
    "SELECT * FROM v_reading ORDER BY reading_id",
    "SELECT * FROM v_reading_line ORDER BY reading_id, position",
    "SELECT * FROM v_reading_hidden ORDER BY reading_id, position",
)


@dataclass(frozen=True)
class Input:
    values: str  # six values 6..9 from line 1 up
    when: datetime  # local civil time, Asia/Shanghai


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float


def timed(fn: Callable[[], Any]) -> tuple[Any, Timing]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, Timing(time.perf_counter() - wall, time.process_time() - cpu)


def make_inputs(n: int, seed: int) -> list[Input]:
    """Random casts (three coins a line) at random minutes of 1950-2049."""
    rng = random.Random(seed)
    start = datetime(1950, 1, 1).timestamp()
    span = datetime(2050, 1, 1).timestamp() - start
    inputs = []
    for _ in range(n):
        values = "".join(str(6 + sum(rng.randrange(2) for _ in range(3))) for _ in range(6))
        when = datetime.fromtimestamp(start + rng.random() * span).replace(second=0, microsecond=0)
        inputs.append(Input(values, when))
    return inputs


def bench_api(engine: Engine, inputs: Sequence[Input]) -> list[float]:
    """(a) cast + store + chart through the API, one reading at a time; ms per reading."""
    latencies = []
    for item in inputs:
        start = time.perf_counter()
        reading_id = cast(item.values, at=item.when, tz="Asia/Shanghai", db=engine)
        chart(reading_id, db=engine)
        latencies.append((time.perf_counter() - start) * 1000)
    return latencies


def reading_row(moment: Moment) -> dict[str, Any]:
    return {
        "created_at": "2026-01-01T00:00:00.000000+00:00",
        "question": None,
        "method": "values",
        "cast_input": None,
        "cast_at": moment.cast_at,
        "tz": moment.tz,
        "year_gz": moment.year_gz,
        "month_gz": moment.month_gz,
        "month_branch": moment.month_branch,
        "day_gz": moment.day_gz,
        "hour_gz": moment.hour_gz,
        "solar_term": moment.solar_term,
        "half_year": moment.half_year,
        "early_rat": 0,
        "najia_variant": "fixed",
    }


def store_many(engine: Engine, inputs: Sequence[Input], count: int) -> int:
    """Store ``count`` readings (the inputs over and over) in one transaction; returns the
    number of readings in the database afterwards."""
    moments = [moment_at(item.when, "Asia/Shanghai") for item in inputs]
    with engine.begin() as conn:
        ids = conn.execute(
            insert(reading).returning(reading.c.id, sort_by_parameter_order=True),
            [reading_row(moments[k % len(inputs)]) for k in range(count)],
        ).scalars()
        conn.execute(
            insert(reading_line),
            [
                {"reading_id": i, "position": p, "value": int(v), "coins": None}
                for k, i in enumerate(ids)
                for p, v in enumerate(inputs[k % len(inputs)].values, 1)
            ],
        )
        return int(conn.execute(select(func.count()).select_from(reading)).scalar_one())


def chart_set_wise(engine: Engine) -> dict[str, int]:
    """(b) every view read whole through the DB-API cursor, all rows fetched."""
    rows = {}
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        for query in VIEW_QUERIES:
            cursor.execute(query)
            rows[query.split()[3]] = len(cursor.fetchall())
        cursor.close()
    finally:
        raw.close()
    return rows


def bench_najia(inputs: Sequence[Input]) -> int:
    """(c) the najia package on the same casts and dates."""
    from najia import Najia

    for item in inputs:
        Najia(0).compile([NAJIA_PARAM[v] for v in item.values], date=item.when)
    return len(inputs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=2000, help="distinct random casts (2000)")
    parser.add_argument("--api", type=int, default=200, help="casts timed through the API (200)")
    parser.add_argument("--stored", type=int, default=100_000, help="readings charted (100000)")
    parser.add_argument("--seed", type=int, default=3, help="random seed (3)")
    parser.add_argument("--db", help="database URL instead of a temporary SQLite file")
    args = parser.parse_args(argv)
    inputs = make_inputs(args.inputs, args.seed)

    with tempfile.TemporaryDirectory(prefix="yimao-bench-") as tmp:
        target = args.db or str(Path(tmp) / "bench.db")
        build(target)
        engine = writer_engine(target)
        try:
            print(f"database: {engine.url.render_as_string()}")
            print(f"inputs: {len(inputs)} random casts at random minutes of 1950-2049")

            bench_api(engine, inputs[:20])  # warm-up: imports, statement caches
            latencies = bench_api(engine, inputs[: args.api])
            median_a = statistics.median(latencies)
            print(
                f"(a) cast + store + chart via the API: median {median_a:.2f} ms"
                f" (p90 {statistics.quantiles(latencies, n=10)[-1]:.2f} ms, {len(latencies)} casts)"
            )

            total, insert_t = timed(lambda: store_many(engine, inputs, args.stored))
            print(
                f"    stored {args.stored} readings in one transaction in {insert_t.wall:.1f} s"
                f" ({total} in the database)"
            )
            rows, chart_t = timed(lambda: chart_set_wise(engine))
            rate_b, cpu_b = total / chart_t.wall, total / chart_t.cpu
            print(
                f"(b) set-wise from the views: {total} readings in {chart_t.wall:.2f} s"
                f" = {rate_b:,.0f} readings/s (CPU {cpu_b:,.0f}/s); rows: "
                + ", ".join(f"{view} {n}" for view, n in rows.items())
            )
        finally:
            engine.dispose()

    try:
        count, najia_t = timed(lambda: bench_najia(inputs))
    except ImportError:
        print("(c) najia is not installed: pip install -e '.[bench]'")
        return 1
    rate_c, cpu_c = count / najia_t.wall, count / najia_t.cpu
    print(
        f"(c) najia Najia(0).compile: {count} readings in {najia_t.wall:.2f} s"
        f" = {rate_c:,.0f} readings/s (CPU {cpu_c:,.0f}/s)"
    )

    per_najia_ms = 1000 / rate_c
    goal_b = "met" if rate_b >= 30 * rate_c else "MISSED"
    print(f"(b)/(c) = {rate_b / rate_c:.1f}x (goal >= 30x: {goal_b}); CPU {cpu_b / cpu_c:.1f}x")
    goal_a = "met" if median_a <= per_najia_ms else "MISSED"
    print(
        f"(a) = {median_a:.2f} ms vs 1/(c) = {per_najia_ms:.2f} ms per najia reading:"
        f" {goal_a} ({per_najia_ms / median_a:.1f}x faster)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
