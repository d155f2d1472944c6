"""Benchmark: the limits of `yimao sql`, each in a real `python -m yimao_db sql` process.

Prints, per backend:

* the peak RSS and the time of a 2,000,000-row query streamed as JSON Lines (and of
  `SELECT 1`, the cost of starting the command);
* how long the command takes to exit after a SIGINT sent while it runs an endless query
  (and, on SQLite, a query stuck inside one long function call);
* how long `--timeout 2` lets an endless query run: the time from start to exit, minus the
  start-up time of the command.

    python benchmarks/sql_limits.py [POSTGRESQL_URL] [--runs N]

Always on a fresh SQLite file; also on PostgreSQL when a server URL is given (a throwaway
database ``yimao_bench_…`` is created there and dropped afterwards).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from processes import measure
from throwaway import postgresql_database

from yimao_db.building import build

ENDLESS = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT COUNT(*) FROM r"
ROWS = (
    "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 2000000) "
    "SELECT x FROM r"
)
STUCK = "SELECT instr(printf('%.*c', 16000000, 'a'), printf('%.*c', 8000000, 'a') || 'b')"


def command(db: str, query: str, *options: str) -> list[str]:
    return [sys.executable, "-m", "yimao_db", "sql", query, "--db", db, *options]


def report(db: str, label: str, runs: int) -> None:
    print(f"--- {label}")
    starts = [measure(command(db, "SELECT 1"))[0] for _ in range(runs)]
    startup = statistics.median(starts)
    print(f"SELECT 1 (start-up and exit)          median {startup:6.2f} s")
    seconds, _, rss, code = measure(command(db, ROWS, "--jsonl", "--timeout", "none"))
    print(
        f"2,000,000 rows as jsonl               {seconds:6.2f} s  peak RSS {rss / 2**20:5.0f} MiB"
    )
    stops = []
    for _ in range(runs):
        _, stop, _, code = measure(command(db, ENDLESS, "--timeout", "none"), sigint_after=2)
        assert code == 130, code
        stops.append(stop)
    print(
        f"SIGINT to exit, endless query         median {statistics.median(stops):6.2f} s  "
        f"max {max(stops):.2f} s"
    )
    if db.startswith("postgresql") is False:
        _, stop, _, code = measure(command(db, STUCK, "--timeout", "none"), sigint_after=2)
        assert code == 130, code
        print(f"SIGINT to exit, one long SQLite call  {stop:6.2f} s")
    overshoot = []
    for _ in range(runs):
        seconds, _, rss, code = measure(command(db, ENDLESS, "--timeout", "2"))
        assert code == 2, code
        overshoot.append(seconds - startup - 2)
    print(
        f"--timeout 2: run past 2 s + start-up  median {statistics.median(overshoot):6.2f} s  "
        f"max {max(overshoot):.2f} s  (peak RSS {rss / 2**20:.0f} MiB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("postgresql", nargs="?", help="a PostgreSQL server URL (optional)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "yimao.db")
        build(db)
        report(db, "SQLite", args.runs)
    if args.postgresql:
        with postgresql_database(args.postgresql) as url:
            build(url)
            report(url, "PostgreSQL", args.runs)


if __name__ == "__main__":
    main()
