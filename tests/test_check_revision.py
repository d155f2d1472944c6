"""A tampered schema revision table (``alembic_version``): ``yimao check`` reports it (exit 1),
``yimao build`` refuses it (exit 2, one ``error:`` line, nothing written). Never a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import built_copy, copy_db, raw, run
from sqlalchemy import text

from yimao_db.building import build, current_revision, head_revision
from yimao_db.db import reader_engine, writer_engine
from yimao_db.errors import DatabaseError

BACKEND = os.environ.get("YIMAO_TEST_BACKEND", "sqlite")

# name: (statements on the built database, what check and build say)
TAMPERED = {
    "second row": (
        ["INSERT INTO alembic_version VALUES ('0001')"],
        "alembic_version holds 2 rows ('0001', '{head}')",
    ),
    "two rows, both head": (
        [
            "CREATE TABLE v AS SELECT * FROM alembic_version",
            "DROP TABLE alembic_version",
            "CREATE TABLE alembic_version (version_num VARCHAR(32))",
            "INSERT INTO alembic_version SELECT version_num FROM v",
            "INSERT INTO alembic_version SELECT version_num FROM v",
            "DROP TABLE v",
        ],
        "alembic_version holds 2 rows ('{head}', '{head}')",
    ),
    "empty": (
        ["DELETE FROM alembic_version"],
        "no schema revision, but it has yimao-db tables",
    ),
    "missing": (
        ["DROP TABLE alembic_version"],
        "no schema revision, but it has yimao-db tables",
    ),
    "NULL": (
        [
            "DROP TABLE alembic_version",
            "CREATE TABLE alembic_version (version_num VARCHAR(32))",
            "INSERT INTO alembic_version VALUES (NULL)",
        ],
        "alembic_version holds NULL",
    ),
    "integer": (
        [
            "DROP TABLE alembic_version",
            "CREATE TABLE alembic_version (version_num)",
            "INSERT INTO alembic_version VALUES (4)",
        ],
        "alembic_version holds 4 (int)",
    ),
    "blob": (
        [
            "DROP TABLE alembic_version",
            "CREATE TABLE alembic_version (version_num)",
            "INSERT INTO alembic_version VALUES (X'30303034')",
        ],
        "alembic_version holds b'0004' (bytes)",
    ),
    "not UTF-8": (
        ["UPDATE alembic_version SET version_num = CAST(X'30303034FF' AS TEXT)"],
        "alembic_version holds '0004\\udcff'",
    ),
    "no version_num column": (
        [
            "DROP TABLE alembic_version",
            "CREATE TABLE alembic_version (revision VARCHAR(32))",
            "INSERT INTO alembic_version VALUES ('0004')",
        ],
        "alembic_version has no version_num column",
    ),
    "a view": (
        [
            "DROP TABLE alembic_version",
            "CREATE VIEW alembic_version AS SELECT '{head}' AS version_num",
        ],
        "alembic_version is a view, not a table",
    ),
    "unknown": (
        ["UPDATE alembic_version SET version_num = 'abcd'"],
        "'abcd', which is unknown to this yimao-db",
    ),
}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    path = tmp_path_factory.mktemp("revision") / "template.db"
    built_copy(sqlite_template, path)
    return path


def tampered(template: Path, tmp_path: Path, statements: list[str]) -> Path:
    path = copy_db(template, tmp_path / "tampered.db")
    with raw(path) as con:
        for statement in statements:
            con.execute(statement.format(head=head_revision()))
    return path


@pytest.mark.sqlite_only
@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("case", TAMPERED)
def test_a_tampered_revision_table(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, command: str
) -> None:
    """check: exactly one ``revision:`` line saying what is wrong, exit 1; build: one
    ``error:`` line, exit 2. Neither changes a byte of the file."""
    statements, says = TAMPERED[case]
    path = tampered(template, tmp_path, statements)
    before = path.read_bytes()
    code, out, err = run(capsys, command, "--db", str(path))
    if command == "check":
        assert (code, err) == (1, ""), (out, err)
        (said,) = [line for line in out.splitlines() if line.startswith("revision: ")]
    else:
        assert code == 2 and out == "", (out, err)
        assert err.startswith("error: ") and err.count("\n") == 1, err
        said = err
    assert says.format(head=head_revision()) in said
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


def test_second_revision_row_on_any_backend(fresh_db: str) -> None:
    """A second row can be added on PostgreSQL too (the key only forbids the same one)."""
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO alembic_version VALUES ('0001')"))
    finally:
        engine.dispose()
    reader = reader_engine(fresh_db)
    try:
        with reader.connect() as conn, pytest.raises(DatabaseError, match="holds 2 rows"):
            current_revision(conn)
    finally:
        reader.dispose()
    from yimao_db.check import check

    problems = check(fresh_db)
    assert [p.kind for p in problems if p.kind == "revision"] == ["revision"]
    with pytest.raises(DatabaseError, match="holds 2 rows"):
        build(fresh_db)


def test_a_database_that_was_never_built_is_still_just_not_built(
    empty_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if BACKEND == "sqlite":
        Path(empty_db).write_bytes(b"")
    code, out, _ = run(capsys, "check", "--db", empty_db)
    assert code == 1 and "the database is not built (no schema revision)" in out
    code, _, err = run(capsys, "build", "--db", empty_db)
    assert code == 0, err
