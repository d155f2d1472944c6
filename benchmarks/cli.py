"""Benchmark: one ``yimao`` command as a process, against a process that only imports SQLAlchemy.

Measured, each as a fresh ``python`` process run to its end (start-up included, as a user
sees it), interleaved so that a change in the machine's load touches all of them alike:

- the **floor**: ``python -c "import sqlalchemy"``;
- ``yimao cast 789678 --at 2026-11-30T09:15 --db FILE`` (stores a reading and prints its chart);
- ``yimao show 乾 --db FILE`` (lays out a hexagram).

The package is compiled to bytecode first (``compileall``, as ``pip install`` does), so that
both sides load compiled modules: SQLAlchemy's were compiled when it was installed, and with
``PYTHONDONTWRITEBYTECODE`` set (or an editable install never run) yimao's would otherwise be
compiled from source in every process.

For each: the median wall time and the median CPU time (user + system, ``wait4`` rusage of
the child) of ``--runs`` runs after one warm-up run each, and each one's ratio to the floor.
The CPU figures matter on a shared, loaded machine, where wall time also counts the time
the process waited for a core.

    python benchmarks/cli.py [--runs 15]

Goal: cast and show each within 1.3 x the floor.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from processes import compile_package, run_child

GOAL = 1.3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each (default 15)")
    args = parser.parse_args(argv)

    from yimao_db.building import build

    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "yimao.db")
        build(db)
        python = sys.executable
        commands = {
            "import sqlalchemy": [python, "-c", "import sqlalchemy"],
            "yimao cast": [
                python,
                "-m",
                "yimao_db",
                "cast",
                "789678",
                "--at",
                "2026-11-30T09:15",
                "--db",
                db,
            ],
            "yimao show 乾": [python, "-m", "yimao_db", "show", "乾", "--db", db],
        }
        for command in commands.values():  # warm-up: page cache, .pyc files
            run_child(command)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                wall, cpu = run_child(command)
                walls[name].append(wall)
                cpus[name].append(cpu)

    load = os.getloadavg()
    print(
        f"{os.cpu_count()} CPUs, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f},"
        f" Python {sys.version.split()[0]}; medians of {args.runs} runs after a warm-up"
    )
    floor_wall = statistics.median(walls["import sqlalchemy"])
    floor_cpu = statistics.median(cpus["import sqlalchemy"])
    missed = False
    for name in commands:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        ratio_wall, ratio_cpu = wall / floor_wall, cpu / floor_cpu
        if name != "import sqlalchemy":
            missed = missed or ratio_cpu > GOAL
        print(
            f"  {name:<18} wall {wall * 1000:6.0f} ms ({ratio_wall:.2f} x)"
            f"   CPU {cpu * 1000:6.0f} ms ({ratio_cpu:.2f} x)"
        )
    print(f"goal: cast and show within {GOAL} x the floor (CPU): {'MISSED' if missed else 'met'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
