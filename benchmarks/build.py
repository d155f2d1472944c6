"""Benchmark: `yimao build` of a fresh database (target: ≤ 1 s on this machine).

Prints the median and the range over several runs of
  (1) the whole command in a new process (`python -m yimao_db build --db NEW`), its wall
      time and its CPU time (user + system of the child: what a loaded machine does not
      inflate), after one warm-up run and with the package, seeds and migrations compiled
      to bytecode as an installed copy has them, and
  (2) the build itself in-process (yimao_db.building.build on a new file, imports warm),
plus the time of a rebuild with nothing to change and of each public core view query.

    python benchmarks/build.py [RUNS]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from processes import compile_package, run_child
from sqlalchemy import text

from yimao_db.building import build
from yimao_db.db import reader_engine


def _report(label: str, seconds: list[float]) -> None:
    print(
        f"{label:<44} median {statistics.median(seconds) * 1000:8.1f} ms"
        f"   min {min(seconds) * 1000:8.1f} ms   max {max(seconds) * 1000:8.1f} ms"
    )


def main(runs: int = 7) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        whole, cpu, inproc, rebuild = [], [], [], []
        compile_package()
        for i in range(runs + 1):
            target = Path(tmp) / f"cmd{i}.db"
            wall, used = run_child([sys.executable, "-m", "yimao_db", "build", "--db", str(target)])
            if i:  # the first is the warm-up
                whole.append(wall)
                cpu.append(used)
        for i in range(runs):
            target = Path(tmp) / f"api{i}.db"
            started = time.perf_counter()
            build(str(target))
            inproc.append(time.perf_counter() - started)
            started = time.perf_counter()
            build(str(target))
            rebuild.append(time.perf_counter() - started)
        print(f"yimao build of a fresh database, {runs} runs each")
        _report("command in a new process (fresh db)", whole)
        _report("  its CPU time (user + system)", cpu)
        _report("build() in-process (fresh db)", inproc)
        _report("build() in-process (nothing to change)", rebuild)
        engine = reader_engine(str(Path(tmp) / "api0.db"))
        queries = {
            "v_ganzhi (all rows)": "SELECT * FROM v_ganzhi",
            "v_hexagram (all rows)": "SELECT * FROM v_hexagram",
            "v_line (all 384 rows)": "SELECT * FROM v_line",
            "v_hidden (all rows)": "SELECT * FROM v_hidden",
            "v_line for one hexagram": "SELECT * FROM v_line WHERE king_wen = 44",
        }
        with engine.connect() as conn:
            for label, sql in queries.items():
                times = []
                for _ in range(50):
                    started = time.perf_counter()
                    conn.execute(text(sql)).fetchall()
                    times.append(time.perf_counter() - started)
                _report(f"query {label}", times)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
