"""Small things a user expects: ``--version``, a default zone from ``$YIMAO_TZ``, and
``export-metadata`` naming the database after ``--db``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

import yimao_db
from yimao_db.cli import main


def _count(db: str) -> int:
    engine = create_engine(make_url(db) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one())
    finally:
        engine.dispose()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--version")
    assert (code, out, err) == (0, f"yimao {yimao_db.__version__}\n", "")


def test_version_as_a_program() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "yimao_db", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (0, f"yimao {yimao_db.__version__}\n")


def test_yimao_tz_is_the_default_zone(
    fresh_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YIMAO_TZ", "Europe/Paris")
    code, out, _ = run(capsys, "cast", "789678", "--at", "2026-11-30T09:15", "--db", fresh_db)
    assert code == 0
    assert "2026-11-30T09:15:00+01:00 Europe/Paris" in out
    # --tz still wins
    code, out, _ = run(
        capsys, "cast", "789678", "--at", "2026-11-30T09:15", "--tz", "Asia/Tokyo", "--db", fresh_db
    )
    assert code == 0 and "2026-11-30T09:15:00+09:00 Asia/Tokyo" in out


def test_yimao_tz_unset_or_empty_is_shanghai(
    fresh_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YIMAO_TZ", "")
    code, out, _ = run(capsys, "cast", "789678", "--at", "2026-11-30T09:15", "--db", fresh_db)
    assert code == 0 and "2026-11-30T09:15:00+08:00 Asia/Shanghai" in out
    monkeypatch.delenv("YIMAO_TZ")
    code, out, _ = run(capsys, "cast", "789678", "--at", "2026-11-30T09:15", "--db", fresh_db)
    assert code == 0 and "2026-11-30T09:15:00+08:00 Asia/Shanghai" in out


def test_bad_yimao_tz_is_one_error_and_writes_nothing(
    fresh_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YIMAO_TZ", "Mars/Olympus")
    code, out, err = run(capsys, "cast", "789678", "--at", "2026-11-30T09:15", "--db", fresh_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and "YIMAO_TZ" in err and err.count("\n") == 1
    assert _count(fresh_db) == 0
    # a zone given on the command line does not need the environment's
    code, _, _ = run(
        capsys, "cast", "789678", "--at", "2026-11-30T09:15", "--tz", "UTC", "--db", fresh_db
    )
    assert code == 0 and _count(fresh_db) == 1


def test_help_states_the_default_zone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cast", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "$YIMAO_TZ" in out and "Asia/Shanghai" in out


def test_export_metadata_names_the_database_after_db(
    built_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "export-metadata", "--db", built_db)
    assert code == 0
    url = make_url(built_db if "://" in built_db else f"sqlite:///{built_db}")
    assert url.database is not None
    expected = url.database if "://" in built_db else url.database.rsplit("/", 1)[-1][:-3]
    assert list(json.loads(out)["databases"]) == [expected]


# A ``yimao`` process run by a wrapper that registers an exit function and keeps an object
# whose finalizer says when Python tears the process's modules down.
_WRAPPER = """
import atexit, sys, threading, time
atexit.register(lambda: sys.stderr.write("exit functions ran\\n"))
class Finalized:
    def __del__(self):
        sys.stderr.write("modules torn down\\n")
kept = Finalized()
from yimao_db.cli import main
if sys.argv[1] == "--thread":  # started once the imports are done: it outlives the command
    del sys.argv[1]
    def late():
        time.sleep(1)
        sys.stdout.write("the thread finished\\n")
    threading.Thread(target=late).start()
sys.exit(main())
"""


def _python(source: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """Python running ``source`` with ``argv``, in a process of its own."""
    return subprocess.run(
        [sys.executable, "-c", source, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _wrapped(*argv: str) -> subprocess.CompletedProcess[str]:
    return _python(_WRAPPER, *argv)


def test_a_command_ends_its_process_after_its_exit_functions_and_output(fresh_db: str) -> None:
    """The process ends as soon as the command is done (no teardown of its modules), yet
    its exit functions run and every byte of its output is written, with its exit code."""
    proc = _wrapped("cast", "789678", "--at", "2026-11-30T09:15", "--db", fresh_db)
    assert proc.returncode == 0 and "水火既濟 之 澤雷隨" in proc.stdout
    assert proc.stderr == "exit functions ran\n"  # not torn down
    query = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
    proc = _wrapped("sql", "--csv", query + "SELECT i FROM n", "--db", fresh_db)
    lines = proc.stdout.splitlines()
    assert (proc.returncode, len(lines), lines[0], lines[-1]) == (0, 200001, "i", "200000")
    assert proc.stderr.startswith("exit functions ran\n")
    proc = _wrapped("cast", "789678", "--at", "notatime", "--db", fresh_db)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ")
    assert proc.stderr.endswith("exit functions ran\n")
    assert _count(fresh_db) == 1


def test_a_command_leaves_a_running_thread_to_finish() -> None:
    """Where another thread still runs, the process exits the usual way, after it."""
    proc = _wrapped("--thread", "--version")
    assert proc.returncode == 0
    assert proc.stdout == f"yimao {yimao_db.__version__}\nthe thread finished\n"
    assert "exit functions ran\n" in proc.stderr and "modules torn down\n" in proc.stderr


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_output_that_cannot_be_written_is_one_error(
    fresh_db: str, buffered: bool, tmp_path: Path
) -> None:
    """stdout on a full disk (/dev/full): one line and exit 2, whether the write fails while
    the command runs (unbuffered) or at the last flush (a short output, buffered); a cast
    whose chart could not be shown says that its reading stays, an export whose summary
    could not be shown that its files do."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"

    def to_full(*argv: str) -> tuple[int, str]:
        with open("/dev/full", "w", encoding="utf-8") as full:
            proc = subprocess.run(
                [sys.executable, "-m", "yimao_db", *argv],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
                timeout=120,
                check=False,
            )
        return proc.returncode, proc.stderr

    failed = "error: cannot write the output: No space left on device"
    assert to_full("--version") == (2, failed + "\n")
    assert to_full("show", "--help") == (2, failed + "\n")  # argparse would pass it over
    assert to_full("show", "乾", "--db", fresh_db) == (2, failed + "\n")
    stays = failed + "; what the command committed stays\n"
    assert to_full("cast", "789678", "--db", fresh_db) == (2, stays)
    assert _count(fresh_db) == 1
    folder = tmp_path / "export"  # the files are made; only the summary is lost
    made = failed + f"; the export to {folder} stays\n"
    assert to_full("export", str(folder), "--db", fresh_db) == (2, made)
    assert (folder / "README.md").is_file() and (folder / "v_reading.csv").is_file()


def _closed(redirect: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """``yimao ARGV`` started with stdout (``>&-``) or stderr (``2>&-``) closed."""
    return subprocess.run(
        ["sh", "-c", f'exec "$0" "$@" {redirect}', sys.executable, "-m", "yimao_db", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_closed_stdout_or_stderr(fresh_db: str) -> None:
    """stdout closed: output cannot be written, one line and exit 2 (after a commit, saying
    what stays); stderr closed: the command runs as usual and its exit code tells."""
    failed = "error: cannot write the output: stdout is closed"
    proc = _closed(">&-", "show", "乾", "--db", fresh_db)
    assert (proc.returncode, proc.stderr) == (2, failed + "\n")
    proc = _closed(">&-", "cast", "789678", "--db", fresh_db)
    assert (proc.returncode, proc.stderr) == (2, failed + "; what the command committed stays\n")
    assert _count(fresh_db) == 1
    proc = _closed("2>&-", "show", "乾", "--db", fresh_db)
    assert proc.returncode == 0 and proc.stdout.startswith("乾為天")
    assert _closed("2>&-", "reading", "99", "--db", fresh_db).returncode == 2


@pytest.mark.parametrize("argv", [["outcome", "1", "maybe"], ["reading", "99"]])
def test_an_error_line_stderr_cannot_take_keeps_the_exit_code(
    fresh_db: str, argv: list[str]
) -> None:
    """A refused command whose stderr cannot take its error line (a full disk, a pipe whose
    reader has gone: ``yimao … 2>&1 | head -0``) still exits 2; it ended with Python's own
    failure to print the exception, exit 1."""
    command = [sys.executable, "-m", "yimao_db", *argv, "--db", fresh_db]
    with open("/dev/full", "w", encoding="utf-8") as full:
        proc = subprocess.run(command, stderr=full, timeout=120, check=False)
    assert proc.returncode == 2
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    try:
        proc = subprocess.run(command, stderr=write, timeout=120, check=False)
    finally:
        os.close(write)
    assert proc.returncode == 2


_LEFT_OPEN = """
import sys
from yimao_db import db
engine = db.writer_engine(sys.argv[1])
with engine.connect() as conn:  # its connection stays in the pool: the engine not disposed
    conn.exec_driver_sql("SELECT count(*) FROM reading").scalar_one()
sys.argv[1:] = ["--version"]
from yimao_db.cli import main
sys.exit(main())
"""


def test_an_engine_left_open_is_closed_before_the_process_ends(sqlite_built_db: str) -> None:
    """A connection a command left in its engine's pool (a Ctrl-C that stopped its disposal)
    is closed when the command is done: SQLite's last connection to the WAL database removes
    the -wal and -shm files, which Python's teardown no longer does."""
    proc = _python(_LEFT_OPEN, sqlite_built_db)
    assert proc.returncode == 0, proc.stderr
    assert not Path(sqlite_built_db + "-wal").exists()
    assert not Path(sqlite_built_db + "-shm").exists()


_LOST = """
import sys
from yimao_db import db
from yimao_db.present import show
engine = db.writer_engine(sys.argv[1])
lost = engine.raw_connection()  # checked out and never given back: no pool closes it
cursor = lost.driver_connection.execute("SELECT count(*) FROM reading")  # a statement open

def interrupted(*args, **kwargs):
    raise KeyboardInterrupt

show.render_show = interrupted  # the command is interrupted
sys.argv[1:] = ["show", "乾", "--db", sys.argv[1]]
from yimao_db.cli import main
sys.exit(main())
"""


def test_a_connection_lost_by_an_interrupted_command_is_closed(sqlite_built_db: str) -> None:
    """A Ctrl-C inside SQLAlchemy can lose a connection between its pool and its closing
    (once in some 300 imports under bursts of Ctrl-C every 2 ms): when the interrupted
    command's process ends, every SQLite connection still open is closed, its open
    statement first, and the -wal and -shm files go with the last one."""
    proc = _python(_LOST, sqlite_built_db)
    assert (proc.returncode, proc.stderr) == (130, "interrupted\n")
    assert not Path(sqlite_built_db + "-wal").exists()
    assert not Path(sqlite_built_db + "-shm").exists()
