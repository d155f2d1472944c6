"""Timing a command as a user runs it: a fresh process, its wall and CPU time, bytecode ready."""

from __future__ import annotations

import compileall
import os
import subprocess
import time
from pathlib import Path


def compile_package() -> None:
    """Compile yimao's modules, seed scripts and migrations to bytecode, as ``pip install`` does.

    SQLAlchemy's and alembic's modules were compiled when they were installed; with
    ``PYTHONDONTWRITEBYTECODE`` set (or an editable install never run) yimao's would otherwise
    be compiled from source in every process, which no installed copy does.
    """
    import yimao_db
    from yimao_db.paths import migrations_dir, seed_dir

    for folder in (Path(yimao_db.__file__).parent, seed_dir(), migrations_dir()):
        compileall.compile_dir(folder, quiet=1)


def run_child(argv: list[str]) -> tuple[float, float]:
    """Run ``argv`` to its end: (wall seconds, CPU seconds of the child)."""
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - began
    assert proc.stderr is not None
    err = proc.stderr.read()
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv} failed: {err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime
