"""End to end against najia: import plus chart of N random readings, and najia on the same.

The same inputs on both sides: N random casts (three coins a line) at random minutes of
1901-2099 that exist once on Asia/Shanghai's clocks.

- **yimao-db**, all the work counted: the inputs written as a CSV file, ``yimao import``
  (in-process, :func:`yimao_db.importing.import_file`: parsing, validation, the calendar for
  every row, storage in a freshly built SQLite file), then every chart read set-wise from the
  views (``v_reading``, ``v_reading_line``, ``v_reading_hidden``, every row fetched). The
  signs (``v_reading_sign``), which najia does not compute, are timed on their own line.
- **najia** (the PyPI package, ``Najia(0).compile(params, date=...)``, its own calendar
  included) compiles the same inputs one by one. najia takes milliseconds a reading, so by
  default it compiles a sample of ``--najia-sample`` of the same inputs (every k-th), in
  chunks; its rate is the median of the chunks.

Both sides are warmed up first (a small import and chart; a hundred najia compiles). Printed:
readings/s of each side, wall clock and CPU, and the ratio (goal: yimao-db ≥ 30 × najia).
Also (a): one cast stored and charted through the API, median latency.

    python benchmarks/readings.py [--readings 100000] [--najia-sample 3000] [--runs 3]

(``pip install -e '.[bench]'`` for najia.)
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from yimao_db.building import build
from yimao_db.db import reader_engine, writer_engine
from yimao_db.importing import import_file
from yimao_db.readings import cast, chart

NAJIA_PARAM = {"7": 1, "8": 2, "9": 3, "6": 4}  # najia: 1/2 young yang/yin, 3/4 old yang/yin
CHART_QUERIES = (
    "SELECT * FROM v_reading ORDER BY reading_id",
    "SELECT * FROM v_reading_line ORDER BY reading_id, position",
    "SELECT * FROM v_reading_hidden ORDER BY reading_id, position",
)
SIGN_QUERY = "SELECT * FROM v_reading_sign ORDER BY reading_id"


def _import_benchmark() -> Any:
    """benchmarks/import.py as a module: its random rows are the inputs here too."""
    path = Path(__file__).with_name("import.py")
    found = importlib.util.spec_from_file_location("import_benchmark", path)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    sys.modules[found.name] = module
    found.loader.exec_module(module)
    return module


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, wall seconds, CPU seconds)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def read_inputs(path: Path) -> list[tuple[str, datetime]]:
    with path.open(encoding="utf-8", newline="") as f:
        rows = csv.reader(f)
        next(rows)
        return [(values, datetime.fromisoformat(at)) for values, at, *_ in rows]


def chart_all(db: str, queries: Sequence[str]) -> int:
    """Every row of the queries fetched through the driver's cursor; the rows read."""
    engine = reader_engine(db)
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        count = 0
        for query in queries:
            cursor.execute(query)
            count += len(cursor.fetchall())
        cursor.close()
    finally:
        raw.close()
        engine.dispose()
    return count


def yimao_end_to_end(rows_csv: Path, template: Path, folder: Path, n: int) -> tuple[float, float]:
    """(wall, CPU) seconds of import plus every chart, on a fresh copy of the built database."""
    db = folder / f"e2e-{time.monotonic_ns()}.db"
    db.write_bytes(template.read_bytes())

    def work() -> None:
        ids = import_file(rows_csv, db=str(db))
        assert len(ids) == n
        chart_all(str(db), CHART_QUERIES)

    _, wall, cpu = timed(work)
    return wall, cpu


def najia_rate(inputs: Sequence[tuple[str, datetime]], chunks: int) -> tuple[float, float]:
    """(readings/s wall, readings/s CPU): medians over ``chunks`` chunks of the inputs."""
    from najia import Najia

    for values, when in inputs[:100]:  # warm-up
        Najia(0).compile([NAJIA_PARAM[v] for v in values], date=when)
    size = max(1, len(inputs) // chunks)
    walls, cpus = [], []
    for start in range(0, size * chunks, size):
        part = inputs[start : start + size]

        def work(part: Sequence[tuple[str, datetime]] = part) -> None:
            for values, when in part:
                Najia(0).compile([NAJIA_PARAM[v] for v in values], date=when)

        _, wall, cpu = timed(work)
        walls.append(len(part) / wall)
        cpus.append(len(part) / cpu)
    return statistics.median(walls), statistics.median(cpus)


def api_latency(db: str, inputs: Sequence[tuple[str, datetime]]) -> float:
    """(a) median ms of one cast stored and charted through the API (one shared engine)."""
    engine = writer_engine(db)
    try:
        latencies = []
        for k, (values, when) in enumerate(inputs):
            start = time.perf_counter()
            chart(cast(values, at=when, tz="Asia/Shanghai", db=engine), db=engine)
            if k >= 20:  # the first casts warm the statement caches
                latencies.append((time.perf_counter() - start) * 1000)
        return statistics.median(latencies)
    finally:
        engine.dispose()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readings", type=int, default=100_000, help="readings (100000)")
    parser.add_argument("--najia-sample", type=int, default=3000, help="najia compiles (3000)")
    parser.add_argument("--runs", type=int, default=3, help="timed yimao runs (3)")
    parser.add_argument("--seed", type=int, default=3, help="random seed (3)")
    args = parser.parse_args(argv)
    bench = _import_benchmark()

    with tempfile.TemporaryDirectory(prefix="yimao-bench-") as tmp:
        folder = Path(tmp)
        rows_csv, warm_csv = folder / "rows.csv", folder / "warm.csv"
        bench.write_rows(rows_csv, args.readings, seed=args.seed)
        bench.write_rows(warm_csv, 2000, seed=args.seed + 1)
        template = folder / "template.db"
        build(str(template))
        inputs = read_inputs(rows_csv)
        print(f"{args.readings:,} random readings at random minutes of 1901-2099, Asia/Shanghai")

        yimao_end_to_end(warm_csv, template, folder, 2000)  # warm-up
        runs = [
            yimao_end_to_end(rows_csv, template, folder, args.readings) for _ in range(args.runs)
        ]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        rate, rate_cpu = args.readings / wall, args.readings / cpu
        print(
            f"yimao-db import + every chart: {wall:.1f} s = {rate:,.0f} readings/s"
            f" (CPU {cpu:.1f} s = {rate_cpu:,.0f}/s; median of {args.runs})"
        )
        signs_db = folder / "signs.db"
        signs_db.write_bytes(template.read_bytes())
        import_file(rows_csv, db=str(signs_db))
        sign_rows, sign_wall, sign_cpu = timed(lambda: chart_all(str(signs_db), (SIGN_QUERY,)))
        print(
            f"    and every sign besides (v_reading_sign, {sign_rows:,} rows):"
            f" {sign_wall:.1f} s (CPU {sign_cpu:.1f} s)"
        )
        latency = api_latency(str(signs_db), inputs[:220])
        print(f"(a) one cast + store + chart via the API: median {latency:.2f} ms")

        step = max(1, len(inputs) // args.najia_sample)
        sample = inputs[::step][: args.najia_sample]
        try:
            najia_wall, najia_cpu = najia_rate(sample, chunks=3)
        except ImportError:
            print("najia is not installed: pip install -e '.[bench]'")
            return 0
        print(
            f"najia compile, {len(sample):,} of the same inputs: {najia_wall:,.0f} readings/s"
            f" (CPU {najia_cpu:,.0f}/s; median of 3 chunks)"
        )
        print(
            f"ratio yimao-db / najia: {rate / najia_wall:.1f} x wall,"
            f" {rate_cpu / najia_cpu:.1f} x CPU (goal ≥ 30)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
