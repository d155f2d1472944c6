"""Bulk reading: every chart of N readings through `yimao export` and `yimao sql --jsonl`.

Each command runs as a process, as a user runs it, on a copy of a file of readings (made by
``benchmarks/reports.py --db FILE``). The copy also holds every reading view's rows in a flat
table (``CREATE TABLE flat_V AS SELECT * FROM V``) and a view over it (``v_flat_V``), so one
export writes both, through the same code and the same ORDER BY; each file's time is the time
between it and the file written before it (their modification times: the files are written
one after another, in the order of their names). Prints, for each reading view, its rows,
rows/s and the ratio to its flat table's rows/s; the export's wall time and peak RSS; and
``yimao sql --jsonl "SELECT * FROM v_reading_line"`` against the same of its flat table.

Goals: peak RSS ≤ 300 MB for every command; each view ≥ 0.5 of its flat table's rows/s.

    python benchmarks/bulk.py --db FILE [--runs N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

from processes import compile_package, measure

from yimao_db.export import DEFINITIONS

RSS_GOAL = 300 * 2**20
RATIO_GOAL = 0.5


def reading_views(db: Path) -> list[str]:
    """The reading views an export writes."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        names = [
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE 'v_reading%' "
                "ORDER BY name"
            )
        ]
    finally:
        con.close()
    return [n for n in names if n not in DEFINITIONS]


def add_flat_tables(db: Path, views: list[str]) -> None:
    """``flat_V`` holding the rows of each view ``V``, and ``v_flat_V`` reading it."""
    con = sqlite3.connect(db)
    try:
        for view in views:
            sys.stderr.write(f"  flat copy of {view}\n")
            con.execute(f"CREATE TABLE flat_{view} AS SELECT * FROM {view}")
            con.execute(f"CREATE VIEW v_flat_{view} AS SELECT * FROM flat_{view}")
            con.commit()
    finally:
        con.close()


def exported_rows(readme: Path) -> dict[str, int]:
    """The rows of each file, from the export's README table (``| file | kind | rows |``)."""
    rows = {}
    for line in readme.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[2].isdigit():
            rows[cells[0]] = int(cells[2])
    return rows


def file_seconds(folder: Path) -> dict[str, float]:
    """Each data file's time: its modification time minus that of the file before it."""
    files = sorted(
        (p for p in folder.iterdir() if p.name != "README.md"), key=lambda p: p.stat().st_mtime_ns
    )
    return {
        b.name: (b.stat().st_mtime_ns - a.stat().st_mtime_ns) / 1e9
        for a, b in itertools.pairwise(files)
    }


def yimao(*argv: str) -> list[str]:
    return [sys.executable, "-m", "yimao_db", *argv]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", required=True, help="a SQLite file of readings (copied, not changed)")
    p.add_argument("--runs", type=int, default=1, help="runs of each yimao sql command")
    p.add_argument("--keep", help="make the copy here (and keep it) instead of a temporary one")
    args = p.parse_args()
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        place = Path(args.keep or tmp)
        place.mkdir(parents=True, exist_ok=True)
        copy = place / "bulk.db"
        views = reading_views(Path(args.db))
        if not copy.exists():
            sys.stderr.write(f"copying {args.db}\n")
            shutil.copyfile(args.db, copy)
            add_flat_tables(copy, views)
        out = place / "export"
        shutil.rmtree(out, ignore_errors=True)
        wall, _, rss, code = measure(yimao("export", str(out), "--db", str(copy)))
        assert code == 0, code
        rows = exported_rows(out / "README.md")
        seconds = file_seconds(out)
        print(
            f"yimao export: {sum(rows.values()):,} rows in {wall:.1f} s, peak RSS "
            f"{rss / 2**20:.0f} MiB (goal ≤ {RSS_GOAL / 2**20:.0f})"
        )
        print(f"{'view':<28}{'rows':>12}{'s':>8}{'rows/s':>10}{'flat rows/s':>13}{'ratio':>7}")
        for view in views:
            name, flat = f"{view}.csv", f"v_flat_{view}.csv"
            if not rows[name]:
                print(f"{view:<28}{0:>12}  (no rows: the readings ask about no subject)")
                continue
            rate = rows[name] / seconds[name] if seconds.get(name) else float("nan")
            flat_rate = rows[flat] / seconds[flat] if seconds.get(flat) else float("nan")
            print(
                f"{view:<28}{rows[name]:>12,}{seconds.get(name, 0):>8.1f}{rate:>10,.0f}"
                f"{flat_rate:>13,.0f}{rate / flat_rate:>7.2f}"
            )
        shutil.rmtree(out, ignore_errors=True)
        lines = rows["v_reading_line.csv"]
        rates = {}
        for source in ("v_reading_line", "flat_v_reading_line"):
            query = f"SELECT * FROM {source}"
            argv = yimao("sql", query, "--jsonl", "--timeout", "none", "--db", str(copy))
            runs = [measure(argv) for _ in range(args.runs)]
            assert all(r[3] == 0 for r in runs), runs
            secs = statistics.median(r[0] for r in runs)
            rates[source] = lines / secs
            print(
                f"yimao sql --jsonl '{query}': {secs:.1f} s, {rates[source]:,.0f} rows/s, "
                f"peak RSS {max(r[2] for r in runs) / 2**20:.0f} MiB"
            )
        ratio = rates["v_reading_line"] / rates["flat_v_reading_line"]
        print(f"  v_reading_line against its flat table: {ratio:.2f} (goal ≥ {RATIO_GOAL})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
