"""What ``yimao build`` does with a database that a hand or damage changed, found by hostile
testing: on SQLite it makes again the views and indexes that are missing or changed (they
hold no rows) and rewrites the derived rows a changed definition may have written; it
refuses, with one line, a database that lost a table, a revision table set back under a
later schema, and ``--mend`` of a file SQLite's quick check finds damaged."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from helpers import run

from yimao_db import check as doctor
from yimao_db.building import head_revision

pytestmark = pytest.mark.sqlite_only

PILLARS = "甲辰,丙寅,戊戌,庚申"


def digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def tamper(db: str, sql: str) -> None:
    conn = sqlite3.connect(db)
    try:
        conn.executescript(sql)
    finally:
        conn.close()


@pytest.fixture
def cast_db(capsys: pytest.CaptureFixture[str], sqlite_built_db: str) -> str:
    for lines in ("789678", "乾之姤"):
        assert run(capsys, "cast", lines, "--pillars", PILLARS, "--db", sqlite_built_db)[0] == 0
    return sqlite_built_db


def test_a_build_makes_again_the_views_and_indexes_a_hand_dropped_or_changed(
    capsys: pytest.CaptureFixture[str], cast_db: str
) -> None:
    tamper(
        cast_db,
        "DROP VIEW v_reading; DROP INDEX ix_reading_changed_kw;"
        "DROP VIEW v_reading_sign_computed;"
        "CREATE VIEW v_reading_sign_computed AS"
        " SELECT reading_id, sign, position FROM reading_sign WHERE 0;"
        "DELETE FROM reading_sign WHERE reading_id = 2;",
    )
    code, _, err = run(capsys, "reading", "1", "--db", cast_db)
    assert code == 2 and "no such table: v_reading (is the database built? run" in err
    code, out, err = run(capsys, "build", "--db", cast_db)
    assert code == 0 and "schema already at head" in out
    assert err == (
        "note: made again the views and indexes that were missing or changed: "
        "ix_reading_changed_kw, v_reading, v_reading_sign_computed\n"
    )
    # the definition made again: the rows that differ from it are written again
    assert "the derived rows of 1 reading rewritten" in out
    assert doctor.check(cast_db) == []
    code, out, err = run(capsys, "build", "--db", cast_db)
    assert (code, err) == (0, "")  # nothing left to make again


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            "DROP TABLE reading_note;",
            [
                f"error: the database is at revision {head_revision()} but has lost the table "
                "reading_note: a build cannot make its rows again; restore the file from a "
                "copy (`yimao check` lists what else differs)\n"
            ],
        ),
        (  # a later revision's column is there already
            "UPDATE alembic_version SET version_num = '0020';",
            [
                "error: cannot upgrade from revision 0020: duplicate column name: ",
                "so the revision table (alembic_version, 0020) is probably wrong: restore the"
                " file from a copy\n",
            ],
        ),
        (  # a later revision's index is there already
            "UPDATE alembic_version SET version_num = '0031';",
            [
                "error: cannot upgrade from revision 0031: ",
                " already exists; the schema already holds what a later revision makes, so the"
                " revision table (alembic_version, 0031) is probably wrong: restore the file from a"
                " copy\n",
            ],
        ),
    ],
)
def test_a_build_refuses_what_it_cannot_mend(
    capsys: pytest.CaptureFixture[str], cast_db: str, change: str, said: list[str]
) -> None:
    """A lost table (its rows cannot be made again), a revision table set back under a later
    schema: one line, the file unchanged."""
    tamper(cast_db, change)
    before = digest(cast_db)
    code, out, err = run(capsys, "build", "--db", cast_db)
    assert (code, out) == (2, "")
    assert err.startswith(said[0]) and err.endswith(said[-1]) and err.count("\n") == 1, err
    assert digest(cast_db) == before


def test_mend_refuses_a_damaged_file(capsys: pytest.CaptureFixture[str], cast_db: str) -> None:
    """A page in the middle overwritten: --mend rewrites derived rows, not damaged pages."""
    size = Path(cast_db).stat().st_size
    page = 4096
    with open(cast_db, "r+b") as f:
        f.seek((size // page // 2) * page)
        f.write(b"\x5a" * page)
    before = digest(cast_db)
    code, out, err = run(capsys, "build", "--mend", "--db", cast_db)
    assert (code, out) == (2, "")
    # named damaged where SQLite meets the damage itself, or by its quick check
    assert err.startswith(f"error: the database file {cast_db} is damaged (SQLite")
    assert "run `yimao check" in err and err.count("\n") == 1
    assert digest(cast_db) == before


def test_a_write_that_breaks_a_constraint_on_a_damaged_file_says_it_is_damaged(
    cast_db: str,
) -> None:
    """yimao's writes never break a UNIQUE index or a foreign key; when one is broken and
    SQLite's quick check finds the file damaged (a page no longer what its index says), the
    line says the file is damaged instead of naming the constraint."""
    import argparse

    from sqlalchemy.exc import DBAPIError

    from yimao_db.cli import explain

    scratch = sqlite3.connect(":memory:")
    scratch.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    scratch.execute("INSERT INTO t VALUES (1)")
    try:
        scratch.execute("INSERT INTO t VALUES (1)")
    except sqlite3.IntegrityError as broken:
        exc = DBAPIError.instance("INSERT", None, broken, sqlite3.Error)
    args = argparse.Namespace(db=cast_db)
    assert explain(exc, args) == (
        "error: database: UNIQUE constraint failed: t.k",
        2,
    )  # a sound file: the constraint, as SQLite says it
    size = Path(cast_db).stat().st_size
    with open(cast_db, "r+b") as f:
        f.seek((size // 4096 // 2) * 4096)
        f.write(b"\x5a" * 4096)
    line, code = explain(exc, args)
    assert code == 2
    assert line.startswith(f"error: the database file {cast_db} is damaged (SQLite's quick check: ")
    assert line.endswith(f"; run `yimao check --db {cast_db}` to see where")


def test_a_build_removes_only_its_own_paths_abandoned_files(
    capsys: pytest.CaptureFixture[str], sqlite_built_db: str
) -> None:
    """The hidden files of killed builds of this path go (a dead process's), even once the
    database exists; another name's, which only starts the same (``NAME.2026.db``), stay."""
    db = Path(sqlite_built_db)
    dead = 2**22 + 12345  # above Linux's largest pid: no such process
    ours = [db.with_name(f".{db.name}.{dead}.building{end}") for end in ("", "-wal", "-shm")]
    other = db.with_name(f".{db.name}.2026.db.{dead}.building")
    for planted in (*ours, other):
        planted.write_bytes(b"")
    assert run(capsys, "build", "--db", sqlite_built_db)[0] == 0
    assert not any(p.exists() for p in ours)
    assert other.exists()


@pytest.mark.parametrize(
    ("db", "said"),
    [
        ("x" * 245 + ".db", "is too long: SQLite adds -journal to it, so it may have at most 247"),
        ("sqlite://", "sqlite:// is a database in memory, gone when the build ends"),
        ("sqlite:///", "sqlite:/// is a database in memory"),
        ("sqlite:///u 3 #?.db", "a SQLite URL takes no options (after ?); give the file's path"),
    ],
)
def test_a_build_refuses_a_place_it_cannot_keep(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    db: str,
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "build", "--db", db)
    assert (code, out) == (2, "")
    assert said in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []


def test_a_trigger_on_a_view_made_again_is_made_again_with_it(
    capsys: pytest.CaptureFixture[str], sqlite_built_db: str
) -> None:
    """Another program's trigger on a yimao view that a hand changed: the view is made
    again, and the trigger with it (SQLite drops a view's triggers with the view)."""
    tamper(
        sqlite_built_db,
        "DROP VIEW v_ganzhi; CREATE VIEW v_ganzhi AS SELECT * FROM ganzhi;"
        "CREATE TABLE mine (n TEXT);"
        "CREATE TRIGGER my_trig INSTEAD OF INSERT ON v_ganzhi"
        " BEGIN INSERT INTO mine VALUES (NEW.name); END;",
    )
    code, _, err = run(capsys, "build", "--db", sqlite_built_db)
    assert (code, err) == (
        0,
        "note: made again the views and indexes that were missing or changed: v_ganzhi\n",
    )
    conn = sqlite3.connect(sqlite_built_db)
    try:
        kinds = conn.execute(
            "SELECT type, tbl_name FROM sqlite_schema WHERE name = 'my_trig'"
        ).fetchall()
    finally:
        conn.close()
    assert kinds == [("trigger", "v_ganzhi")]
