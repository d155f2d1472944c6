"""Benchmark: ``yimao import`` against a floor, its memory, and a cast made while it runs.

The same CSV file of random readings (three coins a line, a random minute of 1901-2099,
Asia/Shanghai, a short question) is imported by

- the **floor**: plain ``csv`` + ``sqlite3.executemany`` inserting the same rows (one
  ``reading`` row of 17 columns and six ``reading_line`` rows a reading) into two bare
  tables, in one transaction: no validation, no calendar;
- **yimao import**: the real command line, ``python -m yimao_db import FILE --db DB``, on a
  freshly built database, moments computed for every row.

Both run as subprocesses (start-up included, as a user sees it) on a fresh database each
time, after one warm-up run each; the figures are medians. The package is compiled to
bytecode first (``compileall``, as ``pip install`` does). Printed: the floor's readings/s,
yimao import's readings/s, the ratio, the split of the import's time between the calendar
and everything else (an in-process run, and one with every moment computed beforehand and
looked up: the difference is the calendar's share), the peak
RSS of an import of ``--rss-rows`` readings (``wait4`` rusage of the child), and the latency
of a ``yimao cast`` started one second into an import of 30,000 readings (and of the same cast
alone).

    python benchmarks/import.py [--rows 100000] [--runs 3] [--rss-rows 1000000]

Goals: >= 20,000 readings/s; no slower than 5 x the floor; peak RSS <= 300 MB at 1,000,000
readings; the concurrent cast finishes within a few seconds.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import csv
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock
from zoneinfo import ZoneInfo

TZ = "Asia/Shanghai"
SUBJECTS = ("妻財", "官鬼", "父母", "子孫", "兄弟", "世", "應", "考試", "疾病")  # as reports.py
FIRST, LAST = datetime(1901, 1, 1), datetime(2100, 1, 1)
CONCURRENT_ROWS = 30_000
CAST = ["cast", "789678", "--at", "2026-11-30T09:15", "--question", "while importing"]


@dataclass(frozen=True)
class Run:
    seconds: float  # wall clock of the child
    cpu: float  # user + system time of the child
    max_rss_mb: float
    stdout: str


def _plain(wall: datetime, zone: ZoneInfo) -> bool:
    """True if ``wall`` happened exactly once in ``zone`` (not in a summer-time gap or fold,
    which yimao refuses without an offset)."""
    first, second = wall.replace(tzinfo=zone), wall.replace(tzinfo=zone, fold=1)
    if first.utcoffset() != second.utcoffset():
        return False
    return first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == wall


def write_rows(path: Path, n: int, seed: int = 1, subjects: float = 0.0) -> None:
    """N random readings: three coins a line, a random minute of 1901-2099 that exists once
    on Asia/Shanghai's clocks, a short question, and for the fraction ``subjects`` of them a
    subject asked about (the same rows as without, then, but for that column)."""
    rng = random.Random(seed)
    about = random.Random(seed + 1)  # apart: the other columns stay the same
    zone = ZoneInfo(TZ)
    minutes = int((LAST - FIRST).total_seconds() // 60)
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["lines", "at", "tz", "question", "about"])
        for i in range(n):
            values = "".join(str(6 + sum(rng.randrange(2) for _ in range(3))) for _ in range(6))
            wall = FIRST + timedelta(minutes=rng.randrange(minutes))
            while not _plain(wall, zone):
                wall = FIRST + timedelta(minutes=rng.randrange(minutes))
            at = wall.isoformat(timespec="minutes")
            subject = about.choice(SUBJECTS) if about.random() < subjects else ""
            writer.writerow([values, at, TZ, f"question {i}", subject])


def run_child(argv: list[str]) -> Run:
    """Run ARGV to the end: wall time, CPU time and peak RSS (``wait4``) of that child."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"{argv[2:5]} failed ({proc.returncode}): {err.read()[-2000:]!r}")
        cpu = usage.ru_utime + usage.ru_stime
        return Run(seconds, cpu, usage.ru_maxrss / 1024, out.read().decode())


# --- the floor ---------------------------------------------------------------------------------

FLOOR_READING = (
    "CREATE TABLE reading (id INTEGER PRIMARY KEY, created_at, question, method, cast_input,"
    " cast_at, tz, year_gz, month_gz, month_branch, day_gz, hour_gz, solar_term, half_year,"
    " early_rat, najia_variant, about)"
)
FLOOR_MOMENT = ("甲子", "丙寅", "寅", "甲子", "甲子", "立春", "冬至後", 0, "fixed")  # not computed
FLOOR_LINE = "CREATE TABLE reading_line (reading_id, position, value, coins)"


def floor(csv_path: str, db_path: str) -> None:
    """Plain csv + sqlite3.executemany: the same rows into two bare tables."""
    con = sqlite3.connect(db_path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute(FLOOR_READING)
    con.execute(FLOOR_LINE)
    created = datetime.now().isoformat()
    readings: list[tuple[object, ...]] = []
    lines: list[tuple[int, int, int, None]] = []
    with open(csv_path, encoding="utf-8", newline="") as f:
        rows = csv.reader(f)
        next(rows)
        for i, (values, at, tz, question, about) in enumerate(rows, 1):
            row = (i, created, question, "values", values, at, tz, *FLOOR_MOMENT, about or None)
            readings.append(row)
            lines.extend((i, p, int(v), None) for p, v in enumerate(values, 1))
    con.execute("BEGIN IMMEDIATE")
    con.executemany(f"INSERT INTO reading VALUES ({', '.join('?' * 17)})", readings)
    con.executemany("INSERT INTO reading_line VALUES (?, ?, ?, ?)", lines)
    con.execute("COMMIT")
    con.close()


# --- yimao ------------------------------------------------------------------------------------


def fresh_db(template: Path, folder: Path) -> Path:
    db = folder / "yimao.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    shutil.copy(template, db)
    return db


def yimao(*argv: str) -> list[str]:
    return [sys.executable, "-m", "yimao_db", *argv]


def in_process(csv_path: Path, db: Path) -> Run:
    """One import, run in this process (no interpreter start-up): wall and CPU seconds."""
    from yimao_db.cli import main as yimao_main

    wall, cpu = time.perf_counter(), time.process_time()
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        code = yimao_main(["import", str(csv_path), "--db", str(db)])
    if code != 0:
        raise SystemExit("the in-process import failed")
    return Run(time.perf_counter() - wall, time.process_time() - cpu, 0.0, "")


def split(csv_path: Path, template: Path, folder: Path) -> tuple[Run, Run]:
    """(the import, the import with every moment computed beforehand and looked up in a
    table): the difference is the time moments take inside the import."""
    from yimao_db import readings
    from yimao_db.calendar.civiltime import CivilTime, parse_at
    from yimao_db.calendar.moment import Moment, moment_of

    with csv_path.open(encoding="utf-8", newline="") as f:
        rows = csv.reader(f)
        next(rows)
        table = {civil: moment_of(civil) for civil in (parse_at(at, tz) for _, at, tz, *_ in rows)}

    def looked_up(civil: CivilTime, early_rat: bool = False) -> Moment:
        return table[civil]

    whole = in_process(csv_path, fresh_db(template, folder))
    with mock.patch.object(readings, "moment_of", looked_up):
        rest = in_process(csv_path, fresh_db(template, folder))
    return whole, rest


def concurrent_cast(template: Path, folder: Path, csv_path: Path) -> tuple[float, float, bool]:
    """(latency of a cast started 1 s into an import, of the same cast alone, and whether
    the cast committed before the import's readings)."""
    alone = []
    for _ in range(3):
        db = fresh_db(template, folder)
        alone.append(run_child(yimao(*CAST, "--json", "--db", str(db))).seconds)
    db = fresh_db(template, folder)
    importer = subprocess.Popen(
        yimao("import", str(csv_path), "--ids", "--db", str(db)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.0)
    during = run_child(yimao(*CAST, "--json", "--db", str(db)))
    out, err = importer.communicate()
    if importer.returncode != 0:
        raise SystemExit(f"the import failed: {err}")
    cast_id = json.loads(during.stdout)["reading_id"]
    first_first = cast_id < min(int(i) for i in out.split())
    return during.seconds, statistics.median(alone), first_first


def postgresql(server: str, n: int, runs: int) -> None:
    """``yimao import`` of the same random rows into a fresh PostgreSQL database on
    ``server`` (created, built and dropped each run): readings/s, median of ``runs``."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from yimao_db.building import build

    base = make_url(server)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    name = f"yimao_bench_import_{os.getpid()}"
    url = base.set(database=name).render_as_string(hide_password=False)
    with tempfile.TemporaryDirectory() as tmp:
        rows_csv = Path(tmp) / "rows.csv"
        write_rows(rows_csv, n)
        results = []
        for k in range(runs + 1):  # the first run is the warm-up
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            try:
                build(url)
                run = run_child(yimao("import", str(rows_csv), "--db", url))
            finally:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            if k:
                results.append(run)
    admin.dispose()
    wall = statistics.median(r.seconds for r in results)
    cpu = statistics.median(r.cpu for r in results)
    print(
        f"PostgreSQL {base.host}:{base.port}: yimao import of {n:,} readings, median of {runs}"
        f" after a warm-up: {n / wall:,.0f} readings/s ({wall:.2f} s; client CPU {cpu:.2f} s)"
        " (goal ≥ 5,000/s)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000, help="readings (default 100000)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs each (default 3)")
    parser.add_argument(
        "--rss-rows", type=int, default=1_000_000, help="readings of the RSS run (0: skip)"
    )
    parser.add_argument(
        "--subjects",
        type=float,
        default=0.0,
        help="the fraction of readings that ask about a subject, so their 用神 are stored too "
        "(default 0)",
    )
    parser.add_argument("--floor", nargs=2, metavar=("CSV", "DB"), help=argparse.SUPPRESS)
    parser.add_argument(
        "--pg", metavar="URL", help="PostgreSQL server URL: time the import into a fresh database"
    )
    args = parser.parse_args(argv)
    if args.floor:
        floor(*args.floor)
        return
    if args.pg:
        postgresql(args.pg, args.rows, args.runs)
        return

    import yimao_db
    from yimao_db.building import build

    compileall.compile_dir(Path(yimao_db.__file__).parent, quiet=1)
    print(
        f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        template = folder / "template.db"
        build(str(template))
        rows_csv = folder / "rows.csv"
        write_rows(rows_csv, args.rows, subjects=args.subjects)
        floor_argv = [sys.executable, __file__, "--floor", str(rows_csv), str(folder / "floor.db")]

        def floor_run() -> Run:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{folder / 'floor.db'}{suffix}").unlink(missing_ok=True)
            return run_child(floor_argv)

        def yimao_run() -> Run:
            db = fresh_db(template, folder)
            return run_child(yimao("import", str(rows_csv), "--db", str(db)))

        floor_run(), yimao_run()  # warm-up: page cache, .pyc files
        floors, yimaos = [], []
        for _ in range(args.runs):
            floors.append(floor_run())
            yimaos.append(yimao_run())
        n = args.rows
        f_wall = statistics.median(r.seconds for r in floors)
        y_wall = statistics.median(r.seconds for r in yimaos)
        f_cpu = statistics.median(r.cpu for r in floors)
        y_cpu = statistics.median(r.cpu for r in yimaos)
        print(f"\n{n} readings, median of {args.runs} runs after a warm-up (wall clock; CPU)")
        print(
            f"  floor (csv + sqlite3.executemany)  {n / f_wall:>9,.0f} readings/s"
            f"  ({f_wall:.2f} s; CPU {f_cpu:.2f} s)"
        )
        print(
            f"  yimao import (CLI subprocess)      {n / y_wall:>9,.0f} readings/s"
            f"  ({y_wall:.2f} s; CPU {y_cpu:.2f} s)"
        )
        print(
            f"  ratio yimao / floor                {y_wall / f_wall:>9.2f} x"
            f"  (CPU {y_cpu / f_cpu:.2f} x)"
        )
        print(f"  peak RSS                           {max(r.max_rss_mb for r in yimaos):>9.0f} MB")
        print(f"  summary line: {yimaos[0].stdout.strip()}")

        whole, rest = split(rows_csv, template, folder)
        moments = Run(whole.seconds - rest.seconds, whole.cpu - rest.cpu, 0.0, "")
        print("\nsplit, in-process runs: with moments, and with moments looked up (wall; CPU)")
        for label, part in (("the whole import", whole), ("moments", moments), ("the rest", rest)):
            print(
                f"  {label:<33} {part.seconds:>9.2f} s  ({n / part.seconds:>9,.0f}/s;"
                f" CPU {part.cpu:.2f} s, {n / part.cpu:,.0f}/s)"
            )

        head = folder / "head.csv"
        with rows_csv.open(encoding="utf-8") as src, head.open("w", encoding="utf-8") as dst:
            for i, line in enumerate(src):
                if i > CONCURRENT_ROWS:
                    break
                dst.write(line)
        during, alone, first = concurrent_cast(template, folder, head)
        print(f"\na cast started 1 s into an import of {CONCURRENT_ROWS} readings")
        print(f"  latency                            {during:>9.2f} s  (alone: {alone:.2f} s)")
        print(f"  committed before the import        {'yes' if first else 'NO'}")

        if args.rss_rows:
            big = folder / "big.csv"
            write_rows(big, args.rss_rows, seed=2)
            db = fresh_db(template, folder)
            run = run_child(yimao("import", str(big), "--db", str(db)))
            print(
                f"\n{args.rss_rows} readings: {run.seconds:.1f} s "
                f"({args.rss_rows / run.seconds:,.0f} readings/s), peak RSS {run.max_rss_mb:.0f} MB"
            )


if __name__ == "__main__":
    main()
