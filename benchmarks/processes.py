"""Timing a command as a user runs it: a fresh process, its wall and CPU time, bytecode ready."""

from __future__ import annotations

import compileall
import os
import signal
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


def peak_rss(pid: int) -> int:
    """VmHWM of a running process (Linux): its own peak, unlike wait4's ru_maxrss, which a
    child started by fork or vfork inherits from its parent."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure(argv: list[str], sigint_after: float | None = None) -> tuple[float, float, int, int]:
    """(seconds from start to exit, seconds from SIGINT to exit, peak RSS bytes, exit code)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sent, peak = 0.0, 0
    while proc.poll() is None:
        peak = max(peak, peak_rss(proc.pid))
        if sigint_after is not None and not sent and time.monotonic() - start > sigint_after:
            sent = time.monotonic()
            proc.send_signal(signal.SIGINT)
        time.sleep(0.005)
    end = time.monotonic()
    return end - start, (end - sent) if sent else 0.0, peak, proc.returncode
