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


# casts of varied moments and subjects that with_many_readings copies (lines, at, about)
VARIED = (
    ("姤之乾", "2026-11-30T09:15", "妻財"),
    ("789878", "2026-11-30T10:00", None),
    ("坎之困", "1988-07-01T12:00", "官鬼"),
    ("796877", "2003-02-14T23:30", "世"),
    ("乾", "1950-10-01T06:00", None),
    ("866989", "2041-05-05T17:45", "父母"),
    ("泰之否", "1912-01-01T00:10", "兄弟"),
    ("977698", "2099-12-31T12:00", "子孫"),
)


def with_many_readings(path: Path, n: int) -> Path:
    """A fresh database holding ``n`` readings: the casts of :data:`VARIED`, copied (ids
    1..n) with their lines and their derived rows, as a large journal in a few seconds."""
    from sqlalchemy import text

    from yimao_db.db import writer_engine
    from yimao_db.kb import derived

    build(str(path))
    for lines, at, about in VARIED:
        cast(lines, at=at, about=about, db=str(path))
    engine = writer_engine(str(path))
    try:
        with engine.begin() as conn:
            names = [r[1] for r in conn.exec_driver_sql("PRAGMA table_info(reading)")]
            columns = ", ".join(c for c in names if c != "id")
            have = len(VARIED)
            while have < n:
                more = min(have, n - have)  # readings 1..more again, as have+1..have+more
                conn.execute(
                    text(
                        f"INSERT INTO reading (id, {columns}) "
                        f"SELECT id + :have, {columns} FROM reading WHERE id <= :more"
                    ),
                    {"have": have, "more": more},
                )
                conn.execute(
                    text(
                        "INSERT INTO reading_line (reading_id, position, value, coins) "
                        "SELECT reading_id + :have, position, value, coins FROM reading_line "
                        "WHERE reading_id <= :more"
                    ),
                    {"have": have, "more": more},
                )
                derived.insert_range(conn, have + 1, have + more)
                have += more
    finally:
        engine.dispose()
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
