"""A `yimao serve` subprocess for the tests: a database with known readings, served on a
free port of 127.0.0.1, stopped with SIGINT (Ctrl-C) at the end; its stderr is read as it
comes and kept."""

from __future__ import annotations

import os
import queue
import resource
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from yimao_db.building import build
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


@dataclass
class Server:
    """A running ``yimao serve``: its base URL, its process and what it wrote to stderr."""

    url: str
    process: subprocess.Popen[str]
    stderr: list[str]


@contextmanager
def server(db: Path, *args: str, address_space: int | None = None) -> Iterator[Server]:
    """``yimao serve --db DB ARGS`` on a free port; ``address_space``: the process may map
    at most that many bytes (a test of its memory cannot exhaust the machine)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("YIMAO_DB_URL", None)

    def limit() -> None:
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    proc = subprocess.Popen(
        yimao_command("serve", "--db", str(db), "--port", "0", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=limit,
    )
    lines: queue.Queue[str] = queue.Queue()
    errors: list[str] = []
    assert proc.stdout is not None and proc.stderr is not None
    stdout, stderr = proc.stdout, proc.stderr

    def pump() -> None:
        for line in stdout:
            lines.put(line)

    def drain() -> None:  # read stderr as it comes: a full pipe would stop the server
        errors.extend(stderr)

    threading.Thread(target=pump, daemon=True).start()
    threading.Thread(target=drain, daemon=True).start()
    try:
        try:
            first = lines.get(timeout=STARTUP_SECONDS)
        except queue.Empty:
            raise AssertionError(f"yimao serve printed nothing: {errors}") from None
        assert first.startswith("serving "), first
        url = first.split(" at ", 1)[1].split("/ ", 1)[0]
        yield Server(url, proc, errors)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def served(db: Path, *args: str) -> Iterator[str]:
    """The base URL (``http://127.0.0.1:PORT``) of ``yimao serve --db DB`` on a free port."""
    with server(db, *args) as running:
        yield running.url
