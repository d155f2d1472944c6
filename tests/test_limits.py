"""The limits stated in docs/reliability.md, one test (or two) per guarantee.

1. Concurrent writes queue (WAL, busy timeout, ``BEGIN IMMEDIATE``); readers are never blocked
   and never see half a reading; past the busy timeout a writer fails cleanly (exit 2).
2. A crash during ``yimao build`` leaves the previous database intact.
3. A database made by a newer yimao-db is refused untouched.
4. Read-only: readers work on a read-only file; writers refuse with a clear message, exit 2.
   On a read-only file system (or directory) the writers refuse the same way; the readers
   currently fail there (reported, marked xfail).

Root ignores file permissions, so when the tests run as root the read-only cases run their
commands as ``nobody`` (or under a read-only bind mount in a private mount namespace).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import built_copy, cast_into, copy_db, seed_existing

from yimao_db import check as doctor
from yimao_db import db as dbmod
from yimao_db.building import KILL_ENV, head_revision, upgrade
from yimao_db.cli import main
from yimao_db.db import ENV_VAR, writer_engine
from yimao_db.readings import cast

pytestmark = pytest.mark.sqlite_only  # SQLite file limits

PILLARS = "甲辰,丙寅,戊戌,庚申"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NOBODY = 65534


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def count(db: Path) -> int:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT COUNT(*) FROM reading").fetchone()[0])
    finally:
        con.close()


def dump(db: Path) -> list[str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


def child_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in (ENV_VAR, KILL_ENV)}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    path = tmp_path_factory.mktemp("limits") / "template.db"
    built_copy(sqlite_template, path)
    cast("789678", pillars=PILLARS, db=str(path))
    return path


# --- 1. concurrent writes ---------------------------------------------------------------------

WRITER = """
import sys, time
from pathlib import Path
from yimao_db.readings import cast
name, db, ready, go, n = sys.argv[1:6]
Path(ready).touch()
while not Path(go).exists():
    time.sleep(0.005)
for i in range(int(n)):
    cast("789678", pillars="甲辰,丙寅,戊戌,庚申", question=f"{name}-{i}", db=db)
"""


def test_concurrent_writers_queue_and_readers_see_whole_readings(
    template: Path, tmp_path: Path
) -> None:
    db = copy_db(template, tmp_path / "busy.db")
    before = count(db)
    go = tmp_path / "go"
    writers, per_writer = 2, 10
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WRITER,
                f"w{i}",
                str(db),
                str(tmp_path / f"r{i}"),
                str(go),
                str(per_writer),
            ],
            env=child_env(),
            stderr=subprocess.PIPE,
        )
        for i in range(writers)
    ]
    builder = subprocess.Popen(
        [sys.executable, "-m", "yimao_db", "build", "--db", str(db)],
        env=child_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"r{i}").exists() for i in range(writers)):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    go.touch()
    snapshots = 0
    reader = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:  # meanwhile: every snapshot shows whole readings only
        while any(p.poll() is None for p in procs):
            half = reader.execute(
                "SELECT COUNT(*) FROM reading r WHERE "
                "(SELECT COUNT(*) FROM reading_line l WHERE l.reading_id = r.id) <> 6"
            ).fetchone()[0]
            assert half == 0
            snapshots += 1
            time.sleep(0.01)
    finally:
        reader.close()
    for proc in [*procs, builder]:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()
        assert b"locked" not in err
    assert snapshots > 0
    assert count(db) == before + writers * per_writer
    assert doctor.check(str(db)) == []


def test_a_writer_past_the_busy_timeout_fails_cleanly(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = copy_db(template, tmp_path / "locked.db")
    monkeypatch.setattr(dbmod, "BUSY_TIMEOUT_MS", 200)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock and does not let go
        holder.execute("DELETE FROM reading_line")
        started = time.monotonic()
        code, out, err = cli("cast", "789678", "--pillars", PILLARS, "--db", str(db))
        assert time.monotonic() - started >= 0.15  # it waited for the timeout
        assert code == 2 and out == ""
        assert err.startswith("error: database: database is locked")
        code, out, err = cli("readings", "--db", str(db))  # readers are not blocked
        assert code == 0 and err == ""
        assert "甲辰" not in out or "戊戌" in out
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert count(db) == 1
    code, _, err = cli("cast", "789678", "--pillars", PILLARS, "--db", str(db))
    assert (code, err) == (0, "")


# --- 2. a crash during build ------------------------------------------------------------------


def test_a_crash_during_build_leaves_the_previous_database(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    engine = writer_engine(str(db))
    try:
        with engine.begin() as conn:
            upgrade(conn, "0003")
            seed_existing(conn)
    finally:
        engine.dispose()
    cast_into(str(db), "789678", pillars=PILLARS)
    before = dump(db)
    proc = subprocess.run(
        [sys.executable, "-m", "yimao_db", "build", "--db", str(db)],
        env={**child_env(), KILL_ENV: "seed"},
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == -signal.SIGKILL
    assert dump(db) == before
    code, out, _ = cli("build", "--db", str(db))
    assert code == 0 and f"0003 → {head_revision()}" in out
    assert count(db) == 1
    assert doctor.check(str(db)) == []


# --- 3. a newer schema ------------------------------------------------------------------------


def test_a_newer_schema_is_refused_untouched(template: Path, tmp_path: Path) -> None:
    db = copy_db(template, tmp_path / "newer.db")
    con = sqlite3.connect(db)
    con.execute("UPDATE alembic_version SET version_num = 'ffff99'")
    con.commit()
    con.close()
    before = db.read_bytes()
    code, out, err = cli("build", "--db", str(db))
    assert code == 2 and out == ""
    assert "'ffff99'" in err and "newer yimao-db" in err and "untouched" in err
    assert db.read_bytes() == before
    code, out, err = cli("check", "--db", str(db))
    assert code == 1 and "unknown to this yimao-db" in out
    assert db.read_bytes() == before


# --- 4. read-only files and file systems ------------------------------------------------------

READERS = [
    ["show", "姤"],
    ["reading", "1"],
    ["readings"],
    ["sql", "SELECT COUNT(*) FROM v_reading"],
    ["check"],
]
WRITERS = [
    ["build"],
    ["cast", "789678", "--pillars", PILLARS],
]


def with_import(shared_dir: Path) -> list[list[str]]:
    """The writing commands, ``import`` of a good CSV file included."""
    csv = shared_dir / "readings.csv"
    csv.write_text("lines,at\n789678,2024-01-01T09:00\n", encoding="utf-8")
    csv.chmod(0o644)
    return [*WRITERS, ["import", str(csv)]]


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory outside root's private pytest tree, so ``nobody`` can reach it."""
    path = Path(tempfile.mkdtemp(prefix="yimao-limits-"))
    path.chmod(0o755)
    yield path
    for p in [path, *path.rglob("*")]:
        with contextlib.suppress(OSError):
            p.chmod(0o755 if p.is_dir() else 0o644)
    shutil.rmtree(path, ignore_errors=True)


def unprivileged() -> list[str]:
    """The command prefix that runs a child as ``nobody`` when we are root (else nothing)."""
    if not IS_ROOT:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot drop to an ordinary user")
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


RUNNER = """
import contextlib, io, json, sys
from yimao_db.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = main(argv)
        except BaseException as exc:  # reported as output, so the test shows it
            code, _ = -1, out.write(f"Traceback: {exc!r}")
    results.append([code, out.getvalue()])
print(json.dumps(results))
"""


def run_cli(commands: list[list[str]], db: Path, prefix: list[str]) -> list[tuple[int, str]]:
    """``yimao ARGV --db DB`` for each ARGV, one after another in one child process started
    with PREFIX (as ``nobody``, or under a read-only mount): the user's own view."""
    env = {**child_env(), "HOME": str(db.parent.parent), "PYTHONDONTWRITEBYTECODE": "1"}
    argvs = [[*argv, "--db", str(db)] for argv in commands]
    proc = subprocess.run(
        [*prefix, sys.executable, "-c", RUNNER, json.dumps(argvs)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return [(int(code), str(out)) for code, out in json.loads(proc.stdout)]


def test_read_only_file_readers_work_writers_refuse(template: Path, shared_dir: Path) -> None:
    place = shared_dir / "rw-dir"
    place.mkdir()
    db = copy_db(template, place / "ro.db")
    if IS_ROOT:
        os.chown(place, NOBODY, NOBODY)  # the directory is writable, the file is not
        os.chown(db, NOBODY, NOBODY)
    db.chmod(0o444)
    before = db.read_bytes()
    prefix = unprivileged()
    writers = with_import(shared_dir)
    commands = READERS + writers
    results = run_cli(commands, db, prefix)
    for argv, (code, output) in zip(READERS, results, strict=False):
        assert code == 0, (argv, output)
        assert "Traceback" not in output
    for argv, (code, output) in zip(writers, results[len(READERS) :], strict=True):
        assert code == 2, (argv, output)
        assert f"error: cannot write the database {db}: permission denied" in output
        assert "Traceback" not in output
    assert db.read_bytes() == before


def read_only_place(
    shared_dir: Path, template: Path, prepare: Callable[[Path], None] | None = None
) -> tuple[Path, list[str]]:
    """A database in a directory that cannot be written, and the command prefix for it;
    ``prepare(db)`` runs on the copy while it can still be written.

    As root: a read-only bind mount in a private mount namespace (a real read-only file
    system); else a directory without write permission (same effect for SQLite)."""
    place = shared_dir / "ro-dir"
    place.mkdir()
    db = copy_db(template, place / "y.db")
    if prepare is not None:
        prepare(db)
    if IS_ROOT:
        unshare = shutil.which("unshare")
        probe = [unshare or "unshare", "-m", "--propagation", "private", "true"]
        if unshare is None or subprocess.run(probe, capture_output=True).returncode != 0:
            pytest.skip("running as root without mount namespaces: cannot make a read-only place")
        script = f'mount --bind -o ro "{place}" "{place}" && exec "$@"'
        return db, [unshare, "-m", "--propagation", "private", "sh", "-c", script, "sh"]
    place.chmod(0o555)
    return db, []


def test_read_only_file_system_writers_refuse(template: Path, shared_dir: Path) -> None:
    db, prefix = read_only_place(shared_dir, template)
    before = db.read_bytes()
    writers = with_import(shared_dir)
    for argv, (code, output) in zip(writers, run_cli(writers, db, prefix), strict=True):
        assert code == 2, (argv, output)
        assert output.startswith("error: ") and "Traceback" not in output
        assert "cannot write" in output or "read-only" in output or "readonly" in output
    assert db.read_bytes() == before
    [(code, output)] = run_cli([["build"]], db.parent / "new.db", prefix)
    assert code == 2 and "is not writable" in output
    assert not (db.parent / "new.db").exists()
    # an export there is refused before a row is read, and leaves nothing (read by a reader)
    [(code, output)] = run_cli([["export", str(db.parent / "out" / "x")]], db, prefix)
    assert code == 2 and output.startswith(f"error: cannot write in {db.parent}: "), output
    assert sorted(p.name for p in db.parent.iterdir()) == ["y.db"]


def test_read_only_file_system_readers_work(template: Path, shared_dir: Path) -> None:
    db, prefix = read_only_place(shared_dir, template)
    readers = [["show", "姤"], ["check"]]
    for argv, (code, output) in zip(readers, run_cli(readers, db, prefix), strict=True):
        assert code == 0, (argv, output)


def test_unreadable_file_and_unwritable_directory(template: Path, shared_dir: Path) -> None:
    """A file the user cannot read is named as such by readers and writers; a writable file
    in a directory the user cannot write (SQLite's journal goes there) is refused by a
    writer before SQLite opens it, and an empty one stays empty."""
    prefix = unprivileged()
    unreadable = copy_db(template, shared_dir / "unreadable.db")
    unreadable.chmod(0o000)
    results = run_cli(
        [["show", "姤"], ["cast", "789678", "--pillars", PILLARS]], unreadable, prefix
    )
    assert results[0] == (2, f"error: cannot read the database {unreadable}: permission denied\n")
    assert results[1] == (2, f"error: cannot write the database {unreadable}: permission denied\n")
    place = shared_dir / "locked"
    place.mkdir()
    empty = place / "empty.db"
    empty.touch()
    if IS_ROOT:
        os.chown(empty, NOBODY, NOBODY)  # the file is writable, its directory is not
    else:
        place.chmod(0o555)
    for argv in (["build"], ["cast", "789678", "--pillars", PILLARS]):
        [(code, output)] = run_cli([argv], empty, prefix)
        assert code == 2, (argv, output)
        assert output.startswith("error: ") and "Traceback" not in output
        if argv == ["build"]:
            assert f"directory {place} is not writable" in output
        assert empty.stat().st_size == 0 and sorted(place.iterdir()) == [empty]


# --- 4b. a writer that stopped mid-transaction ------------------------------------------------

# Another program writes in rollback-journal mode and dies mid-transaction: its small page
# cache spills, so the file holds rows that were never committed, and its -journal is hot.
STOPPED_WRITER = """
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA journal_mode=DELETE")
con.execute("PRAGMA cache_size=2")
con.execute("BEGIN")
names = [r[1] for r in con.execute("PRAGMA table_info(reading)")]
listed = ", ".join(n for n in names if n not in ("id", "question"))
for n in range(400):
    con.execute(
        f"INSERT INTO reading (question, {listed}) SELECT 'uncommitted', {listed} FROM reading"
        " WHERE id = 1"
    )
os._exit(0)
"""
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


def stop_a_writer_mid_transaction(db: Path) -> None:
    """Leave ``db`` with a hot journal and uncommitted rows in the file itself."""
    subprocess.run([sys.executable, "-c", STOPPED_WRITER, str(db)], check=True, env=child_env())
    journal = db.with_name(db.name + "-journal")
    assert journal.read_bytes()[:8] == JOURNAL_MAGIC
    con = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)  # the file as it is
    try:
        assert con.execute("SELECT COUNT(*) FROM reading").fetchone()[0] > 1
    finally:
        con.close()


HOT_READERS = [
    ["readings", "--csv"],
    ["reading", "1"],
    ["sql", "SELECT COUNT(*), MAX(question) FROM reading"],
    ["check"],
    ["show", "姤"],
]


def test_a_hot_journal_is_never_read_as_committed_on_a_read_only_mount(
    template: Path, shared_dir: Path
) -> None:
    """On a read-only mount a file with a hot journal is not opened immutable (which showed
    the uncommitted rows as stored, and `yimao check` said ok): every reader says that the
    transaction must be rolled back and that this needs write access."""
    db, prefix = read_only_place(shared_dir, template, stop_a_writer_mid_transaction)
    before = db.read_bytes()
    for argv, (code, output) in zip(HOT_READERS, run_cli(HOT_READERS, db, prefix), strict=True):
        assert code == 2, (argv, output)
        assert output.startswith(f"error: {db} holds a transaction that a writer left unfinished")
        assert "rolling them back needs write access to the file and its directory" in output
        assert "uncommitted" not in output and "Traceback" not in output
    assert db.read_bytes() == before
    assert db.with_name("y.db-journal").exists()


def test_a_hot_journal_in_a_writable_directory(template: Path, tmp_path: Path) -> None:
    """A reader (mode=ro) cannot roll back: it says so, not that the query tried to write;
    a writer rolls the transaction back first, and then only committed rows are there."""
    db = copy_db(template, tmp_path / "hot.db")
    stop_a_writer_mid_transaction(db)
    for argv in HOT_READERS:
        code, out, err = cli(*argv, "--db", str(db))
        assert (code, out) == (2, ""), (argv, err)
        assert err == (
            f"error: {db} holds a transaction that a writer left unfinished ({db}-journal is "
            "its hot journal): it must be rolled back before the file can be read, and a "
            f"command that only reads does not write; run `yimao build --db {db}`, which "
            "rolls it back first, and read again\n"
        )
    code, out, err = cli("note", "1", "after the crash", "--db", str(db))
    assert (code, out, err) == (0, "note 1 added to reading 1\n", "")
    assert not db.with_name("hot.db-journal").exists()
    assert count(db) == 1
    assert doctor.check(str(db)) == []


def make_wal(db: Path) -> None:
    """A change committed to ``db``'s write-ahead log and not checkpointed (the writer was
    killed): the -wal and -shm files stay beside the database."""
    script = (
        "import os, sqlite3, sys\n"
        "con = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "con.execute('PRAGMA journal_mode=WAL')\n"
        "con.execute('PRAGMA wal_autocheckpoint=0')\n"
        "con.execute(\"UPDATE reading SET question = 'in the log' WHERE id = 1\")\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", script, str(db)], check=True, env=child_env())
    assert db.with_name(db.name + "-wal").stat().st_size > 0


def test_a_write_ahead_log_on_a_read_only_mount(template: Path, shared_dir: Path) -> None:
    """With its -wal and -shm, a WAL file on a read-only mount is read with what the log
    holds; without the -shm (which cannot be made there) the reader says why it cannot read
    it, instead of SQLite's 'unable to open database file'."""
    db, prefix = read_only_place(shared_dir, template, make_wal)
    query = [["sql", "SELECT question FROM reading WHERE id = 1", "--csv"]]
    assert run_cli(query, db, prefix) == [(0, "question\nin the log\n")]
    if IS_ROOT:  # the mount is read-only only inside the child: the -shm can go beforehand
        db.with_name("y.db-shm").unlink()
    else:
        pytest.skip("the -shm cannot be removed from a directory without write permission")
    [(code, output)] = run_cli(query, db, prefix)
    assert code == 2
    assert output == (
        f"error: cannot read {db}: its write-ahead log {db}-wal is read through {db}-shm, which "
        f"SQLite cannot create here because {db.parent} cannot be written (a read-only mount?); "
        "the log may hold committed changes, so the file is not read without it: run "
        f"`yimao build --db {db}` where the file and its directory can be written, or copy the "
        "database with its -wal into a writable directory and read the copy\n"
    )


def test_never_immutable_beside_a_hot_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "y.db"
    db.write_bytes(b"SQLite format 3\x00" + bytes(100))
    monkeypatch.setattr(os, "access", lambda *a, **k: False)  # nothing can write here
    assert dbmod.nothing_writes(db)
    journal = tmp_path / "y.db-journal"
    journal.write_bytes(b"")  # truncated by its writer: not hot
    assert dbmod.nothing_writes(db)
    journal.write_bytes(bytes(28))  # zeroed by its writer (journal_mode=PERSIST): not hot
    assert dbmod.nothing_writes(db)
    journal.write_bytes(JOURNAL_MAGIC + bytes(20))  # hot
    assert not dbmod.nothing_writes(db)
    assert dbmod._readonly_uri(db).endswith("?mode=ro")
