"""A `yimao serve` subprocess for the tests: a database with known readings, served on a
free port of 127.0.0.1, stopped with SIGINT (Ctrl-C) at the end."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from yimao_db.build import build
from yimao_db.readings import cast

# reading 1: 姤 moving into 乾 (姤 hides 妻財 甲寅 under line 2); reading 2: no moving line
CASTS = (("姤之乾", "2026-11-30T09:15"), ("789878", "2026-11-30T10:00"))
STARTUP_SECONDS = 120  # a loaded machine starts datasette slowly; not a timed assertion


def built_with_readings(path: Path) -> Path:
    build(str(path))
    for lines, at in CASTS:
        cast(lines, at=at, db=str(path))
    return path


def yimao_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "yimao_db", *args]


@contextmanager
def served(db: Path, *args: str) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT``) of ``yimao serve --db DB`` on a free port."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("YIMAO_DB_URL", None)
    proc = subprocess.Popen(
        yimao_command("serve", "--db", str(db), "--port", "0", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    stdout = proc.stdout
    threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
    try:
        try:
            first = lines.get(timeout=STARTUP_SECONDS)
        except queue.Empty:
            raise AssertionError("yimao serve printed nothing") from None
        assert first.startswith("serving "), first
        url = first.split(" at ", 1)[1].split("/ ", 1)[0]
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
