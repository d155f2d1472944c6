"""What ``--db`` may point at, and a file that could not be used is left exactly as it was.

* Not a regular file (after following symlinks): a directory, a FIFO, a socket, a character
  device (``/dev/null``, ``/dev/zero``), a symlink loop. Every command refuses it with one
  ``error:`` line (exit 2) and creates nothing (no ``/dev/null-journal``).
* A zero-byte file or a file that is not an SQLite database: every command but ``build``
  (which may build into a zero-byte file) refuses it and leaves it byte for byte, with its
  modification time, and without a ``-journal``, ``-wal`` or ``-shm`` beside it.
* A damaged database (text that is not UTF-8, a malformed schema, a flipped bit that only
  ``yimao check`` sees): one ``error:`` line saying the file is damaged and pointing at
  ``yimao check``, exit 2, the file unchanged.

The commands run in-process (``yimao_db.cli.main``); anything escaping ``main`` fails the test.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import random
import socket
import sqlite3
import traceback
from pathlib import Path

import pytest
from helpers import built_copy, copy_db

from yimao_db.cli import main
from yimao_db.readings import cast

pytestmark = pytest.mark.sqlite_only  # SQLite files

PILLARS = "甲辰,丙寅,戊戌,庚申"
SIDE_FILES = ("-journal", "-wal", "-shm")


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    except BaseException:
        pytest.fail(f"yimao {argv!r} raised:\n{traceback.format_exc()}")
    return code, out.getvalue(), err.getvalue()


def one_error_line(code: int, out: str, err: str) -> str:
    """Exit 2, nothing on stdout, exactly one line on stderr starting ``error: ``."""
    assert (code, out) == (2, ""), (code, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    return err


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    path = tmp_path_factory.mktemp("files") / "template.db"
    built_copy(sqlite_template, path)
    cast("789678", pillars=PILLARS, question="q", db=str(path))
    return path


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """A directory outside the database's, with a good import file and room for outputs."""
    place = tmp_path / "inputs"
    place.mkdir()
    (place / "readings.csv").write_text("lines,at\n乾之姤,2024-01-01T09:00\n", encoding="utf-8")
    (place / "out").mkdir()
    return place


def commands(inputs: Path) -> list[list[str]]:
    """Every command, with each option that reads or writes a file."""
    return [
        ["show", "乾"],
        ["show", "青龍", "--json"],
        ["reading", "1"],
        ["reading", "1", "--json"],
        ["readings"],
        ["readings", "--csv"],
        ["schema"],
        ["schema", "hexagram", "--json"],
        ["schema", "--markdown"],
        ["export-metadata"],
        ["export-metadata", "-o", str(inputs / "out" / "metadata.json")],
        ["sql", "SELECT COUNT(*) FROM reading"],
        ["export", str(inputs / "out" / "export")],
        ["cast", "789678", "--pillars", PILLARS],
        ["cast", "乾之姤", "--at", "2026-11-30T09:15", "--question", "q", "--json"],
        ["import", str(inputs / "readings.csv")],
        ["check"],
        ["build"],
    ]


def state(directory: Path) -> dict[str, tuple[int, int, str]]:
    """Every entry of ``directory``: (mode, mtime_ns, sha256 of a regular file's bytes)."""
    found = {}
    for entry in sorted(directory.rglob("*")):
        st = entry.lstat()
        digest = ""
        if entry.is_file() and not entry.is_symlink():
            digest = hashlib.sha256(entry.read_bytes()).hexdigest()
        found[str(entry.relative_to(directory))] = (st.st_mode, st.st_mtime_ns, digest)
    return found


# --- not a regular file -------------------------------------------------------------------


def _fifo(place: Path) -> Path:
    os.mkfifo(place / "fifo.db")
    return place / "fifo.db"


def _socket(place: Path) -> Path:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(place / "sock.db"))
    sock.close()  # the socket file stays
    return place / "sock.db"


def _directory(place: Path) -> Path:
    (place / "dir.db").mkdir()
    return place / "dir.db"


def _link(place: Path, target: str) -> Path:
    (place / "link.db").symlink_to(target)
    return place / "link.db"


def _loop(place: Path) -> Path:
    (place / "a.db").symlink_to(place / "b.db")
    (place / "b.db").symlink_to(place / "a.db")
    return place / "a.db"


NOT_FILES = {
    "fifo": (_fifo, "is a FIFO"),
    "directory": (_directory, "is a directory"),
    "dev-null": (lambda p: _link(p, os.devnull), "/dev/null is a character device"),
    "dev-zero": (lambda p: _link(p, "/dev/zero"), "/dev/zero is a character device"),
    "symlink-loop": (_loop, "loop"),
    "socket": (_socket, "is a socket"),
}


@pytest.mark.parametrize("kind", NOT_FILES)
def test_a_path_that_is_not_a_regular_file_is_refused_by_every_command(
    tmp_path: Path, inputs: Path, kind: str
) -> None:
    place = tmp_path / "place"
    place.mkdir()
    make, says = NOT_FILES[kind]
    target = make(place)
    journal_existed = Path(os.devnull + "-journal").exists()
    before, before_inputs = state(place), state(inputs)
    for argv in commands(inputs):
        err = one_error_line(*cli(*argv, "--db", str(target)))
        assert says in err, (argv, err)
        assert state(place) == before, argv
        assert state(inputs) == before_inputs, argv
    if not journal_existed:
        assert not Path(os.devnull + "-journal").exists()


# --- a file that is not a database ------------------------------------------------------------


def _assert_untouched(
    target: Path, before: dict[str, tuple[int, int, str]], argv: list[str]
) -> None:
    assert state(target.parent) == before, argv
    for side in SIDE_FILES:
        assert not Path(f"{target}{side}").exists(), (argv, side)


@pytest.mark.parametrize(
    "content", [b"", b"not a database, just notes\n" * 40, b"SQLite format 3\x00" + b"\xff" * 84]
)
def test_an_empty_or_foreign_file_is_left_exactly_as_it_was(
    tmp_path: Path, inputs: Path, content: bytes
) -> None:
    place = tmp_path / "place"
    place.mkdir()
    target = place / "notes.db"
    target.write_bytes(content)
    os.utime(target, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    before, before_inputs = state(place), state(inputs)
    for argv in commands(inputs):
        if argv == ["build"] and content == b"":
            continue  # building into an empty file is a use of it (below)
        code, out, err = cli(*argv, "--db", str(target))
        if argv == ["check"]:
            assert code in (1, 2) and "Traceback" not in err, (out, err)
        elif argv[0] == "sql" and content == b"":
            assert code == 2 and "no such table: reading" in err
        else:
            err = one_error_line(code, out, err)
            if content == b"":
                assert "not built" in err or "yimao build" in err, (argv, err)
            else:
                assert "not a database" in err or "damaged" in err, (argv, err)
        _assert_untouched(target, before, argv)
        assert state(inputs) == before_inputs, argv


def test_cast_and_import_refuse_an_empty_file_before_sqlite_touches_it(
    tmp_path: Path, inputs: Path
) -> None:
    """The writer engine sets WAL on connect, which makes an empty file a 4 KB database:
    the built check is made read-only first."""
    target = tmp_path / "empty.db"
    target.touch()
    for argv in (
        ["cast", "789678", "--pillars", PILLARS],
        ["import", str(inputs / "readings.csv")],
    ):
        err = one_error_line(*cli(*argv, "--db", str(target)))
        assert f"{target} is an empty file, not a built database; run `yimao build`" in err
        assert target.stat().st_size == 0
        assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db", "inputs"]


def test_cast_refuses_an_sqlite_database_that_is_not_built(tmp_path: Path) -> None:
    target = tmp_path / "other.db"
    con = sqlite3.connect(target)
    con.executescript(
        "PRAGMA journal_mode=WAL; CREATE TABLE notes(x); INSERT INTO notes VALUES (1);"
    )
    con.close()
    before = state(tmp_path)
    err = one_error_line(*cli("cast", "789678", "--pillars", PILLARS, "--db", str(target)))
    assert "not a built yimao database" in err and "yimao build" in err
    assert state(tmp_path) == before  # not even -wal/-shm from the read-only look


def test_build_uses_an_empty_file_and_refuses_a_foreign_one(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    code, out, err = cli("build", "--db", str(empty))
    assert (code, err) == (0, "") and "created schema" in out
    code, out, _ = cli("show", "姤", "--db", str(empty))
    assert code == 0 and out.startswith("天風姤")
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    before = state(tmp_path)
    err = one_error_line(*cli("build", "--db", str(notes)))
    assert f"{notes} is not a database" in err
    assert state(tmp_path) == before


def test_the_python_api_refuses_an_empty_file_too(tmp_path: Path) -> None:
    from yimao_db.errors import DatabaseError

    target = tmp_path / "empty.db"
    target.touch()
    with pytest.raises(DatabaseError, match="not a built database"):
        cast("789678", pillars=PILLARS, db=str(target))
    assert target.read_bytes() == b"" and list(tmp_path.iterdir()) == [target]


# --- a damaged database -----------------------------------------------------------------------


def damage(db: Path, *statements: str) -> Path:
    con = sqlite3.connect(db)
    try:
        con.execute("PRAGMA writable_schema=ON")
        con.execute("PRAGMA ignore_check_constraints=ON")  # as a flipped bit would
        for statement in statements:
            con.execute(statement)
        con.commit()
    finally:
        con.close()
    return db


NOT_UTF8 = [  # every command that reads one of these tables meets text that is not UTF-8
    "UPDATE hexagram SET name = CAST(CAST(name AS BLOB) || X'FF' AS TEXT)",
    "UPDATE name_alias SET canonical = CAST(X'E99D92FE' AS TEXT) WHERE alias IN ('乾', '青龍')",
    "UPDATE meta_table SET description = CAST(X'E4BDA0FF' AS TEXT)",
    "UPDATE reading SET question = CAST(X'C0' AS TEXT)",
    "UPDATE reading_header SET question = CAST(X'C0' AS TEXT)",  # v_reading's copy
]
MALFORMED = [
    "UPDATE sqlite_master SET sql = 'CREATE TABLE reading(' WHERE name = 'reading'",
]


@pytest.mark.parametrize("how", ["not-utf8", "malformed"])
def test_a_damaged_database_is_named_and_left_alone(
    template: Path, tmp_path: Path, inputs: Path, how: str
) -> None:
    db = copy_db(template, tmp_path / "damaged.db")
    damage(db, *(NOT_UTF8 if how == "not-utf8" else MALFORMED))
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    before_inputs = state(inputs)
    for argv in commands(inputs):
        if argv == ["check"]:
            continue  # `yimao check` reports the damage itself
        if argv[0] == "sql":
            argv = ["sql", "SELECT * FROM v_reading"]
        err = one_error_line(*cli(*argv, "--db", str(db)))
        assert f"the database file {db} is damaged" in err, (argv, err)
        assert f"run `yimao check --db {db}`" in err, (argv, err)
        assert hashlib.sha256(db.read_bytes()).hexdigest() == digest, argv
        assert state(inputs) == before_inputs, argv


def test_text_that_is_not_utf8_says_so(template: Path, tmp_path: Path) -> None:
    db = damage(copy_db(template, tmp_path / "d.db"), NOT_UTF8[0])
    err = one_error_line(*cli("show", "姤", "--db", str(db)))
    assert "it holds text that is not valid UTF-8" in err


def test_damage_only_yimao_check_sees_is_reported_as_damage(template: Path, tmp_path: Path) -> None:
    """A flipped byte in a value: SQLite sees nothing wrong, the command breaks on it. The
    command line runs `yimao check` before calling it a bug, and reports the damage."""
    db = damage(
        copy_db(template, tmp_path / "d.db"),
        "UPDATE hexagram SET bits = '1111!1' WHERE king_wen = 1",
    )
    err = one_error_line(*cli("cast", "乾之姤", "--pillars", PILLARS, "--db", str(db)))
    assert "the database is damaged: `yimao check --db" in err
    assert "hexagram king_wen=1" in err and "'1111!1'" in err


@pytest.mark.parametrize(("seed", "flips"), [(seed, 20) for seed in range(4)] + [(4, 2), (5, 3)])
def test_random_bit_flips_never_crash_a_command(
    template: Path, tmp_path: Path, inputs: Path, seed: int, flips: int
) -> None:
    data = bytearray(template.read_bytes())
    rng = random.Random(seed)
    for _ in range(flips):
        at = rng.randrange(100, len(data))
        data[at] ^= 1 << rng.randrange(8)
    for argv in commands(inputs):
        db = tmp_path / f"flipped-{seed}.db"
        for side in ("", *SIDE_FILES):
            Path(f"{db}{side}").unlink(missing_ok=True)
        db.write_bytes(bytes(data))
        code, out, err = cli(*argv, "--db", str(db))
        assert code in (0, 1, 2), (argv, code, err)
        if code == 2:
            one_error_line(code, out, err)


def test_reading_the_header_keeps_the_locks_this_process_holds(tmp_path: Path) -> None:
    """A writer's preflight reads the file's header. Opening and closing a new descriptor of
    the file would drop every POSIX lock this process holds on it, an open connection's
    write lock included, and let another process write at the same time; the header is read
    through the descriptor already held instead."""
    import subprocess
    import sys

    from sqlalchemy.engine import make_url

    from yimao_db import db as dbmod

    path = tmp_path / "held.db"
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode=delete")
        con.execute("CREATE TABLE t (x)")
        con.execute("BEGIN IMMEDIATE")  # a RESERVED lock, held by this process
        con.execute("INSERT INTO t VALUES (1)")
        dbmod.preflight(make_url(f"sqlite:///{path}"), require_built=False)
        other = (
            "import sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)\n"
            "try:\n    c.execute('BEGIN IMMEDIATE')\nexcept sqlite3.OperationalError as e:\n"
            "    print(e)\nelse:\n    print('got the write lock')\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", other, str(path)], capture_output=True, text=True, timeout=60
        )
        assert done.stdout.strip() == "database is locked"
    finally:
        con.close()


# --- readers of a WAL database ------------------------------------------------------------

READERS = [
    ["show", "乾"],
    ["reading", "1"],
    ["readings"],
    ["stats", "--by", "hexagram"],
    ["schema", "hexagram"],
    ["export-metadata"],
    ["sql", "SELECT COUNT(*) FROM reading"],
    ["check"],
]


def wal_copy(template: Path, db: Path) -> Path:
    copy_db(template, db)
    assert db.read_bytes()[18:20] == b"\x02\x02"  # the header says WAL, as a build leaves it
    return db


def test_a_reader_leaves_nothing_beside_a_wal_database(template: Path, tmp_path: Path) -> None:
    """A read-only connection to a WAL database makes its -wal and -shm files and cannot
    remove them; the command removes them as it ends, the file untouched."""
    db = wal_copy(template, tmp_path / "j.db")
    before = state(tmp_path)
    for argv in READERS:
        code, _out, err = cli(*argv, "--db", str(db))
        assert (code, err) == (0, ""), (argv, err)
        assert state(tmp_path) == before, argv


def test_a_truncated_wal_database_is_refused_and_left_alone(template: Path, tmp_path: Path) -> None:
    data = wal_copy(template, tmp_path / "whole.db").read_bytes()
    db = tmp_path / "cut.db"
    db.write_bytes(data[: len(data) // 2])
    before = state(tmp_path)
    for argv in READERS:
        code, out, err = cli(*argv, "--db", str(db))
        if argv == ["check"]:
            assert code == 1 and "integrity: the file is damaged" in out, (out, err)
        else:
            assert f"the database file {db} is damaged" in one_error_line(code, out, err), argv
        assert state(tmp_path) == before, argv


def test_the_files_another_connection_uses_stay(template: Path, tmp_path: Path) -> None:
    """Another connection opened after the reader made the files (a server, another
    process): SQLite keeps the files while it is open, and it reads on."""
    from yimao_db import db as dbmod

    db = wal_copy(template, tmp_path / "j.db")
    engine = dbmod.reader_engine(str(db))
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM reading").scalar() == 1
    other = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert other.execute("SELECT COUNT(*) FROM reading").fetchone() == (1,)
        dbmod.tidy_side_files()
        assert all(Path(f"{db}{side}").exists() for side in ("-wal", "-shm"))
        assert other.execute("SELECT COUNT(*) FROM reading_line").fetchone() == (6,)
    finally:
        other.close()
