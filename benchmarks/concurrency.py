"""Benchmark: concurrent writers and a reader.

For 1, 2, 4 and 8 writer processes, each casting readings in a loop (one transaction per
reading, its own engine) for a few seconds, prints the readings committed per second, and
the latency of a read-only chart query (``yimao_db.readings.chart`` of a random existing
reading through one reader engine) run in a loop while the writers write: median and p99.

    python benchmarks/concurrency.py [POSTGRESQL_URL] [--seconds S]

Always on a fresh SQLite file; also on PostgreSQL when a server URL is given (a throwaway
database ``yimao_bench_…`` is created on that server and dropped afterwards, so the URL's
user needs CREATEDB). Takes about a minute per backend.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from throwaway import postgresql_database

from yimao_db.building import build
from yimao_db.db import reader_engine, writer_engine
from yimao_db.readings import cast, chart

WRITERS = (1, 2, 4, 8)
SEED_READINGS = 200
CONTEXT = multiprocessing.get_context("spawn")
CASTS: list[dict[str, Any]] = [
    {"lines": "789678", "pillars": "甲子,丙寅,甲子,甲子"},
    {"lines": "乾之姤", "pillars": "甲辰,丙寅,乙丑,丙子"},
    {"lines": "天風姤", "moving": "1,4", "day": "丙寅", "month": "卯"},
    {"coins": "2,1,3,0,2,2", "pillars": "癸卯,甲寅,丁卯,庚子"},
]


def writer(db: str, seconds: float, start: Barrier, results: Any, worker: int) -> None:
    engine = writer_engine(db)
    committed, errors = 0, []
    try:
        cast(**CASTS[0], db=engine)  # warm: connection, imports, name lookups
        start.wait(timeout=120)
        end = time.perf_counter() + seconds
        i = worker
        while time.perf_counter() < end:
            try:
                cast(**CASTS[i % len(CASTS)], db=engine)
                committed += 1
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
            i += 1
    finally:
        engine.dispose()
        results.put((committed + 1, errors))  # + the warm-up reading


def run(db: str, writers: int, seconds: float) -> dict[str, Any]:
    engine = reader_engine(db)
    with engine.connect() as conn:
        top = int(conn.execute(text("SELECT MAX(id) FROM reading")).scalar_one())
    chart(top, engine)  # warm the reader's connection
    start = CONTEXT.Barrier(writers + 1)
    results = CONTEXT.Queue()
    procs = [
        CONTEXT.Process(target=writer, args=(db, seconds, start, results, w))
        for w in range(writers)
    ]
    for p in procs:
        p.start()
    start.wait(timeout=120)
    began = time.perf_counter()
    latencies: list[float] = []
    rng = random.Random(writers)
    outcomes: list[tuple[int, list[str]]] = []
    while len(outcomes) < writers:
        t = time.perf_counter()
        chart(rng.randint(1, top), engine)
        latencies.append(time.perf_counter() - t)
        while not results.empty():
            outcomes.append(results.get())
    elapsed = time.perf_counter() - began
    for p in procs:
        p.join()
    engine.dispose()
    committed = sum(c for c, _ in outcomes) - writers  # warm-ups happened before the start
    errors = [e for _, errs in outcomes for e in errs]
    latencies.sort()
    return {
        "writers": writers,
        "readings": committed,
        "seconds": elapsed,
        "rate": committed / elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "reads": len(latencies),
        "errors": errors,
    }


def bench(label: str, db: str, seconds: float) -> None:
    build(db)
    engine = writer_engine(db)
    for i in range(SEED_READINGS):
        cast(**CASTS[i % len(CASTS)], db=engine)
    engine.dispose()
    print(f"\n{label}: {seconds:g} s per run, chart of a random reading read in a loop")
    print(
        f"{'writers':>7}  {'readings':>8}  {'readings/s':>10}  "
        f"{'chart p50 ms':>12}  {'chart p99 ms':>12}  {'charts':>6}  errors"
    )
    for n in WRITERS:
        r = run(db, n, seconds)
        print(
            f"{r['writers']:>7}  {r['readings']:>8}  {r['rate']:>10.0f}  "
            f"{r['p50']:>12.2f}  {r['p99']:>12.2f}  {r['reads']:>6}  {len(r['errors'])}",
            flush=True,
        )
        for e in sorted(set(r["errors"]))[:5]:
            print(f"         {e}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pg_url", nargs="?", help="PostgreSQL server URL (postgresql+psycopg://…)")
    parser.add_argument("--seconds", type=float, default=4.0, help="per run (default 4)")
    args = parser.parse_args(argv)
    print(f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        bench("SQLite (WAL, one file)", str(Path(tmp) / "bench.db"), args.seconds)
    if args.pg_url:
        server = make_url(args.pg_url)
        with postgresql_database(args.pg_url) as url:
            bench(f"PostgreSQL ({server.host}:{server.port})", url, args.seconds)


if __name__ == "__main__":
    main()
