"""``yimao sql`` in a real process: memory stays bounded whatever the query, ``--timeout`` stops
an endless one, and Ctrl-C (a real SIGINT) stops any query, on the backend under test.

Nothing here asserts a duration: a deadline of HANG_GUARD seconds only turns a broken limit
into a failure instead of a hung suite. The figures (RSS of a 2,000,000-row stream, time from
SIGINT to exit, timeout accuracy) are measured by ``benchmarks/sql_limits.py``.

Sizes: with ``YIMAO_FULL_SIZE=1`` (one run of .ci/run) the stream has 2,000,000 rows, the
queries stopped by the timeout run 3 s and every query whose memory grows runs until a memory
limit stops it. By default the stream has 200,000 rows, the timeout is 1 s, and of the
queries whose memory grows the sort runs until SQLite's heap limit stops it (the others are
stopped by the timeout); the batch of huge rows meets the process's limit at both sizes.

The tests whose bound depends on how soon the command sees its memory grow are marked
``alone``: no other test of the suite runs beside them (tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import ENDLESS
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from yimao_db.db import resolve_url
from yimao_db.sql.stream import MEMORY_LIMIT

FULL_SIZE = os.environ.get("YIMAO_FULL_SIZE") == "1"
HANG_GUARD = 120.0  # seconds
MIB = 2**20
# A Python process with yimao-db and SQLAlchemy imported takes ~50 MiB; a stream must not
# grow with the number of rows. Attacks meet SQLite's 128 MiB heap limit, or yimao sql's
# 256 MiB limit on the process's growth.
STREAM_RSS = 120 * MIB
BIG_ROWS_RSS = 160 * MIB  # rows of 4 MB: a few of them in flight, copied on the way
ATTACK_RSS = 400 * MIB
# What the process may grow by past yimao sql's limit before the stop takes hold: rows of
# 15 MB fetched, or being written, before the query is interrupted. Measured: 1 to 115 MiB
# over the limit (up to eight such rows) in some 40 runs on a 2-core machine, where 96 MiB,
# the bound before, failed about one run in six.
REACTION = 160 * MIB
ROWS = 2_000_000 if FULL_SIZE else 200_000
BIG_ROWS = 64 if FULL_SIZE else 16  # rows of 4 MB
TIMEOUT = 3 if FULL_SIZE else 1  # seconds, for the queries the timeout stops
SORT = "x FROM r ORDER BY x DESC"  # a sort that never ends: met by SQLite's heap limit


@dataclass
class Finished:
    code: int
    err: str
    peak_rss: int  # bytes: VmHWM sampled every 10 ms
    lines: int
    last_line: str
    first_rss: int  # bytes: VmRSS when the first output came (0: none came)


def yimao(*argv: str) -> list[str]:
    return [sys.executable, "-m", "yimao_db", *argv]


@contextmanager
def started(argv: list[str]) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()  # type: ignore[union-attr]
        proc.stderr.close()  # type: ignore[union-attr]


def peak_rss(pid: int, field: str = "VmHWM") -> int | None:
    """The process's peak resident memory so far (VmHWM, Linux; ``field="VmRSS"``: its
    resident memory now). Not ru_maxrss from wait4: a child started with vfork or fork
    inherits its parent's, here the large pytest's."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) * 1024
    return None  # a zombie has no memory lines


def finish(proc: subprocess.Popen[bytes]) -> Finished:
    """Read the output to its end (counting lines) while sampling the peak RSS, then reap."""
    assert proc.stdout is not None and proc.stderr is not None
    deadline = time.monotonic() + HANG_GUARD
    lines, tail, peak, first = 0, b"", 0, 0
    os.set_blocking(proc.stdout.fileno(), False)
    while True:
        peak = max(peak, peak_rss(proc.pid) or 0)
        chunk = proc.stdout.read(1 << 20)
        if chunk:
            if not first:
                first = peak_rss(proc.pid, "VmRSS") or 0
            lines += chunk.count(b"\n")
            tail = (tail + chunk)[-4096:]
        elif chunk == b"":
            break  # end of file: the process has closed its output
        elif time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"still running after {HANG_GUARD} s: {proc.args!r}")
        else:
            time.sleep(0.01)
    err = proc.stderr.read().decode()
    while proc.poll() is None:
        peak = max(peak, peak_rss(proc.pid) or 0)
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"still running after {HANG_GUARD} s: {proc.args!r}")
        time.sleep(0.01)
    last = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1].decode()
    return Finished(int(proc.returncode), err, peak, lines, last, first)


@pytest.fixture
def measured() -> None:
    """For the tests that measure memory (through /proc)."""
    if not Path("/proc/self/status").exists():
        pytest.skip("measures memory through /proc")


def is_sqlite(db: str) -> bool:
    return resolve_url(db).get_backend_name() == "sqlite"


# --- memory --------------------------------------------------------------------------------


@pytest.mark.usefixtures("measured")
def test_two_million_rows_stream_in_bounded_memory(built_db: str) -> None:
    query = (
        f"WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < {ROWS}) "
        "SELECT x FROM r"
    )
    with started(yimao("sql", query, "--jsonl", "--timeout", "none", "--db", built_db)) as proc:
        done = finish(proc)
    assert (done.code, done.err) == (0, "")
    assert (done.lines, json.loads(done.last_line)) == (ROWS, {"x": ROWS})
    assert done.peak_rss < STREAM_RSS, f"{done.peak_rss / MIB:.0f} MiB"


@pytest.mark.usefixtures("measured")
def test_an_endless_stream_is_stopped_by_the_timeout(built_db: str) -> None:
    argv = yimao("sql", ENDLESS.format("x FROM r"), "--jsonl", "--timeout", str(TIMEOUT))
    with started([*argv, "--db", built_db]) as proc:
        done = finish(proc)
    assert done.code == 2
    assert done.err.startswith(
        f"error: yimao sql stopped the query after {TIMEOUT} s (--timeout {TIMEOUT})"
    )
    assert done.lines > 1000  # rows were streamed until the limit
    assert done.peak_rss < STREAM_RSS, f"{done.peak_rss / MIB:.0f} MiB"


@pytest.mark.parametrize(
    ("what", "postgresql", "grows"),
    [
        ("COUNT(*) FROM r", None, False),
        # stops growing at SQLite's length limit
        ("length(group_concat(x)) FROM r", "length(string_agg(x::text, ',')) FROM r", False),
        (SORT, None, True),
        # grows outside SQLite's length limit
        ("length(json_group_array(x)) FROM r", "length(json_agg(x)::text) FROM r", True),
        ("COUNT(DISTINCT x) FROM r", None, True),
    ],
)
@pytest.mark.usefixtures("measured")
@pytest.mark.alone
def test_endless_queries_stop_with_bounded_memory(
    built_db: str, what: str, postgresql: str | None, grows: bool
) -> None:
    """With --timeout none on SQLite, a query whose memory grows is stopped by SQLite's heap
    limit; the others run on in constant memory until the timeout. Either way: exit 2, one
    error line, bounded memory. (PostgreSQL's memory is the server's: the timeout applies.)
    At the default size only the sort is left to meet the limit."""
    to_the_limit = grows and is_sqlite(built_db) and (FULL_SIZE or what == SORT)
    timeout = "none" if to_the_limit else str(TIMEOUT)
    what = what if is_sqlite(built_db) else postgresql or what
    argv = yimao("sql", ENDLESS.format(what), "--csv", "--timeout", timeout, "--db", built_db)
    with started(argv) as proc:
        done = finish(proc)
    assert done.code == 2, done.err
    assert len(done.err.splitlines()) == 1, done.err
    if timeout == "none":  # SQLite's heap limit, or the process's (glibc keeps freed memory)
        assert done.err.startswith("error: yimao sql stopped the query: "), done.err
        assert "MiB of memory" in done.err, done.err
    else:
        assert done.err.startswith(f"error: yimao sql stopped the query after {TIMEOUT} s")
    assert done.peak_rss < ATTACK_RSS, f"{done.peak_rss / MIB:.0f} MiB"


@pytest.mark.usefixtures("measured")
def test_a_huge_value_is_refused_in_bounded_memory(built_db: str) -> None:
    """SQLite stops at its length limit; PostgreSQL's server refuses to send a row of more
    than 16 MiB, so the client never holds it."""
    query = (
        "SELECT zeroblob(200000000) AS s"
        if is_sqlite(built_db)
        else "SELECT repeat('x', 200000000) AS s"
    )
    with started(yimao("sql", query, "--csv", "--timeout", "none", "--db", built_db)) as proc:
        done = finish(proc)
    assert done.code == 2 and "16 MiB" in done.err, done.err
    assert done.peak_rss < STREAM_RSS, f"{done.peak_rss / MIB:.0f} MiB"


@pytest.mark.usefixtures("measured")
def test_big_rows_stream_in_bounded_memory(built_db: str) -> None:
    """64 rows of 4 MB each (256 MB in all; 16 rows at the default size): rows this big come a
    few at a time."""
    value = "repeat('x', 4000000 + king_wen)"  # not a constant, which PostgreSQL would fold
    if is_sqlite(built_db):
        value = "hex(randomblob(2000000))"
    query = f"SELECT {value} AS s, king_wen FROM hexagram WHERE king_wen <= {BIG_ROWS}"
    query += " ORDER BY king_wen"
    with started(yimao("sql", query, "--jsonl", "--db", built_db)) as proc:
        done = finish(proc)
    assert (done.code, done.err, done.lines) == (0, "", BIG_ROWS)
    assert done.last_line.endswith(f'", "king_wen": {BIG_ROWS}}}')
    assert done.peak_rss < BIG_ROWS_RSS, f"{done.peak_rss / MIB:.0f} MiB"


@pytest.mark.usefixtures("measured")
@pytest.mark.alone
def test_a_batch_of_huge_rows_is_stopped_in_bounded_memory(built_db: str) -> None:
    """Small rows first (the batches grow to 1,000 rows), then rows of 15 MB: the process
    stops growing at yimao sql's memory limit. Its growth is measured from its own size when
    its output began (Python, yimao-db and the driver loaded), not from a guess of it."""
    if is_sqlite(built_db):
        query = ENDLESS.format(
            "CASE WHEN x <= 3000 THEN 'a' ELSE printf('%.*c', 15000000, 'x') END FROM r"
        )
    else:
        query = (
            "SELECT CASE WHEN x <= 3000 THEN 'a' ELSE repeat('x', 15000000) END "
            "FROM generate_series(1, 100000) x"
        )
    with started(yimao("sql", query, "--csv", "--timeout", "none", "--db", built_db)) as proc:
        done = finish(proc)
    assert done.code == 2
    assert done.err.startswith("error: yimao sql stopped the query: it made the process grow")
    assert done.first_rss > 0
    grown = done.peak_rss - done.first_rss
    assert grown < MEMORY_LIMIT + REACTION, (
        f"grew by {grown / MIB:.0f} MiB (from {done.first_rss / MIB:.0f} MiB)"
    )


# --- Ctrl-C ---------------------------------------------------------------------------------


def tagged(db: str) -> tuple[str, str]:
    """PostgreSQL: the URL with an application_name of its own, by which the server's view of
    this one command is found (others may still be ending); SQLite: the path, ""."""
    if is_sqlite(db):
        return db, ""
    name = f"yimao-test-{uuid.uuid4().hex[:8]}"
    url = make_url(db).update_query_dict({"application_name": name})
    return url.render_as_string(hide_password=False), name


def interrupt(proc: subprocess.Popen[bytes], db: str, name: str, wait: bool) -> Finished:
    """Send SIGINT once the command is running its query (printing rows, if ``wait``)."""
    assert proc.stdout is not None
    if wait:
        assert proc.stdout.readline()  # the query is running and printing
    elif is_sqlite(db):
        time.sleep(1.5)  # let it start (if it has not, SIGINT stops it all the same)
    else:
        assert server_runs(db, name)
    proc.send_signal(signal.SIGINT)
    return finish(proc)


@pytest.mark.parametrize("wait_for_output", [False, True])
def test_sigint_stops_an_endless_query(built_db: str, wait_for_output: bool) -> None:
    what = "x FROM r" if wait_for_output else "COUNT(*) FROM r"
    db, name = tagged(built_db)
    argv = yimao("sql", ENDLESS.format(what), "--jsonl", "--timeout", "none", "--db", db)
    with started(argv) as proc:
        done = interrupt(proc, built_db, name, wait_for_output)
    assert done.code == 130, done.err
    assert "interrupted" in done.err and "Traceback" not in done.err
    if not is_sqlite(built_db):
        assert server_forgets(built_db, name)


@pytest.mark.sqlite_only
def test_sigint_stops_a_query_stuck_in_one_long_call(built_db: str) -> None:
    """instr() of an 8 MB needle in a 16 MB haystack: hours inside one SQLite call, where no
    progress handler runs; the command still stops at once."""
    query = "SELECT instr(printf('%.*c', 16000000, 'a'), printf('%.*c', 8000000, 'a') || 'b') AS i"
    with started(yimao("sql", query, "--timeout", "none", "--db", built_db)) as proc:
        done = interrupt(proc, built_db, "", wait=False)
    assert done.code == 130, done.err
    with started(yimao("sql", query, "--timeout", str(TIMEOUT), "--db", built_db)) as proc:
        done = finish(proc)
    assert done.code == 2
    assert done.err.startswith(f"error: yimao sql stopped the query after {TIMEOUT} s"), done.err


def _running(db: str, name: str, want: bool) -> bool:
    """Whether the server comes to run (want) or to not run the query of the command
    connected as ``name`` (within HANG_GUARD)."""
    engine = create_engine(resolve_url(db))
    try:
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            with engine.connect() as conn:
                running = conn.execute(
                    text(
                        "SELECT COUNT(*) FROM pg_stat_activity "
                        "WHERE state = 'active' AND application_name = :name"
                    ),
                    {"name": name},
                ).scalar()
            if bool(running) == want:
                return True
            time.sleep(0.1)
        return False
    finally:
        engine.dispose()


def server_runs(db: str, name: str) -> bool:
    return _running(db, name, want=True)


def server_forgets(db: str, name: str) -> bool:
    return _running(db, name, want=False)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
def test_a_killed_command_leaves_no_query_on_the_server(built_db: str) -> None:
    """kill -9: no cancel request is sent, yet the server notices the client is gone (it
    checks every second) or stops at the statement timeout."""
    if is_sqlite(built_db):
        pytest.skip("a server-side query")
    db, name = tagged(built_db)
    query = ENDLESS.format("COUNT(*) FROM r")
    with started(yimao("sql", query, "--timeout", "600", "--db", db)) as proc:
        assert server_runs(built_db, name)
        proc.kill()
        proc.wait()
    assert server_forgets(built_db, name)


def test_a_runner_that_ends_at_its_deadline_is_a_timeout() -> None:
    """The runner may see the deadline pass, and end without queueing its error, between two
    looks of the reader at the clock: the reader still reports the timeout."""
    import queue

    from yimao_db.sql import stream

    class Ended:
        """A runner that has ended, its queue empty, its deadline a moment away."""

        def __init__(self) -> None:
            self.deadline = time.monotonic() + stream._POLL / 2
            self.items: queue.Queue[tuple[str, object]] = queue.Queue()
            self.too_big = False

        def called_off(self) -> str | None:
            return None

        def is_alive(self) -> bool:
            return False

        def interrupt(self, *, hard: bool = False) -> None:
            pass

    reader = stream._Reader(Ended(), 0.5)  # type: ignore[arg-type]
    with pytest.raises(stream.QueryTimedOut):
        reader.next()
