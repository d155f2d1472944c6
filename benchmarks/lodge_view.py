"""Revision 0015 (the lodges in the readings): ``v_reading`` and ``v_reading_sign`` before
(0014) and after (0015) on the same N imported readings, SQLite.

N random readings (benchmarks/import.py's rows: three coins a line at random minutes of
1901-2099) are imported into a freshly built database at the head; a copy is taken down
to revision 0014. Printed, for each: ``SELECT count(*)`` and ``SELECT *`` over ``v_reading``
and ``v_reading_sign`` (medians of ``--runs``), one reading's ``v_reading`` and
``v_reading_sign`` (mean over the first 100 ids), and the query plan of the lodge lookup.

    python benchmarks/lodge_view.py [--readings 10000] [--runs 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from alembic import command

from yimao_db.building import build
from yimao_db.db import writer_engine
from yimao_db.importing import import_file
from yimao_db.kb.migrating import alembic_config

QUERIES = (
    "SELECT count(*) FROM v_reading",
    "SELECT * FROM v_reading",
    "SELECT count(*) FROM v_reading_sign",
    "SELECT * FROM v_reading_sign",
)


def _import_benchmark() -> Any:
    path = Path(__file__).with_name("import.py")
    found = importlib.util.spec_from_file_location("import_benchmark", path)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    sys.modules[found.name] = module
    found.loader.exec_module(module)
    return module


def downgrade(db: Path, revision: str) -> None:
    engine = writer_engine(str(db), building=True)
    try:
        with engine.begin() as conn:
            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            cfg.cmd_opts = argparse.Namespace(x=[])
            command.downgrade(cfg, revision)
    finally:
        engine.dispose()


def timed(db: Path, sql: str, runs: int) -> tuple[float, int]:
    """Median milliseconds of ``sql`` over ``runs`` (after one warm-up), and its row count."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        con.execute(sql).fetchall()
        times, rows = [], 0
        for _ in range(runs):
            start = time.perf_counter()
            rows = len(con.execute(sql).fetchall())
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000, rows
    finally:
        con.close()


def one_reading(db: Path, view: str, n: int = 100) -> float:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        sql = f"SELECT * FROM {view} WHERE reading_id = ?"
        con.execute(sql, (1,)).fetchall()
        start = time.perf_counter()
        for i in range(1, n + 1):
            con.execute(sql, (i,)).fetchall()
        return (time.perf_counter() - start) / n * 1000
    finally:
        con.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readings", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="lodge_view_"))
    try:
        rows = folder / "rows.csv"
        _import_benchmark().write_rows(rows, args.readings)
        after = folder / "after.db"
        build(str(after))
        import_file(str(rows), db=str(after))
        before = folder / "before.db"
        shutil.copyfile(after, before)
        downgrade(before, "0014")
        print(f"{args.readings} readings, medians of {args.runs} runs (ms)")
        for sql in QUERIES:
            (b, nb), (a, na) = timed(before, sql, args.runs), timed(after, sql, args.runs)
            print(f"  {sql:38s} 0014 {b:8.1f} ({nb} rows)  0015 {a:8.1f} ({na} rows)")
        for view in ("v_reading", "v_reading_sign"):
            b, a = one_reading(before, view), one_reading(after, view)
            print(f"  one reading of {view:24s} 0014 {b:8.3f}  0015 {a:8.3f}")
        con = sqlite3.connect(f"file:{after}?mode=ro", uri=True)
        plan = con.execute(
            "EXPLAIN QUERY PLAN SELECT sun_mansion, moon_mansion FROM v_reading "
            "WHERE reading_id = 1"
        ).fetchall()
        con.close()
        print("  the lodge lookup:", *sorted({r[3] for r in plan if "li " in r[3]}))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
