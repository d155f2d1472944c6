"""``yimao check``: clean on a good database; catches every single damaged cell.

The damage tests copy one built SQLite file (``sqlite3`` backup: milliseconds), change
values with a plain ``sqlite3`` connection (foreign keys off, so the schema cannot object),
and require :func:`yimao_db.check.check` to name the table, the key and the column of each.
The cells of the reference tables are all changed in one copy, each on a row of its own,
and checked once: one check run finds every one of them.
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from helpers import built_copy, copy_db, raw, seeded
from sqlalchemy import UniqueConstraint, text

from yimao_db import check as doctor
from yimao_db.building import head_revision, upgrade
from yimao_db.calendar import solarterms, term_table
from yimao_db.cli import main
from yimao_db.db import writer_engine
from yimao_db.kb.schema import metadata
from yimao_db.readings import cast

BACKEND = os.environ.get("YIMAO_TEST_BACKEND", "sqlite")
sqlite_only = pytest.mark.sqlite_only  # damages a SQLite file

Tables = dict[str, list[dict[str, Any]]]


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def expected() -> Tables:
    return seeded()


def cast_some(db: str) -> list[int]:
    """Three readings of different kinds: values, coins at a date-time, notation at pillars."""
    return [
        cast("789678", pillars="甲辰,丙寅,戊戌,庚申", question="values", db=db),
        cast(coins="2,1,3,0,2,2", at="2024-06-30T10:00", najia="seasonal", db=db),
        cast("乾之姤", day="甲子", month="寅", hour="丙寅", db=db),
    ]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    """A built SQLite database with three readings (copied, never changed)."""
    path = tmp_path_factory.mktemp("check") / "template.db"
    built_copy(sqlite_template, path)
    cast_some(str(path))
    return path


@pytest.fixture
def damaged(template: Path, tmp_path: Path) -> Path:
    return copy_db(template, tmp_path / "damaged.db")


def where(key: dict[str, Any]) -> tuple[str, list[Any]]:
    return " AND ".join(f'"{k}" = ?' for k in key), list(key.values())


def unique_group(table: str, column: str) -> list[str] | None:
    """The columns of a UNIQUE constraint that ``column`` belongs to, if any."""
    t = metadata.tables[table]
    if t.c[column].unique:
        return [column]
    for c in t.constraints:
        if isinstance(c, UniqueConstraint) and column in c.columns:
            return [x.name for x in c.columns]
    return None


def damage_cell(path: Path, table: str, column: str, key: dict[str, Any]) -> list[dict[str, Any]]:
    """Change ``column`` of the row ``key`` to another valid value; returns the changed keys.

    The new value is one the column already holds in another row, so types, foreign keys and
    CHECK constraints stay satisfied and only a recomputation can tell. A column under a
    UNIQUE constraint (bits, palace_sequence, a twelve_stage stage) swaps its value with a
    row that agrees on the constraint's other columns.
    """
    pk = [c.name for c in metadata.tables[table].primary_key.columns]
    cond, params = where(key)
    with raw(path) as con:
        (current,) = con.execute(
            f'SELECT "{column}" FROM "{table}" WHERE {cond}', params
        ).fetchone()
        group = unique_group(table, column)
        if group is not None:
            same = [g for g in group if g != column]
            values = con.execute(
                f'SELECT {", ".join(same) or "1"} FROM "{table}" WHERE {cond}', params
            ).fetchone()
            alike = "".join(f' AND "{g}" = ?' for g in same)
            other = con.execute(
                f'SELECT {", ".join(pk)}, "{column}" FROM "{table}" '
                f'WHERE "{column}" IS NOT NULL AND "{column}" <> ?{alike} ORDER BY 1 LIMIT 1',
                [current, *(values if same else [])],
            ).fetchone()
            other_key, other_value = dict(zip(pk, other[:-1], strict=True)), other[-1]
            ocond, oparams = where(other_key)
            placeholder = -1 if isinstance(current, int) else "#"
            con.execute("PRAGMA ignore_check_constraints=ON")  # for the placeholder only
            con.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE {cond}', [placeholder, *params])
            con.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE {ocond}', [current, *oparams])
            con.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE {cond}', [other_value, *params])
            return [key, other_key]
        candidates = [
            v
            for (v,) in con.execute(
                f'SELECT DISTINCT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL '
                f'ORDER BY "{column}"'
            )
            if v != current
        ]
        assert candidates, f"{table}.{column} holds one value only"
        for value in candidates:
            try:
                con.execute(f'UPDATE "{table}" SET "{column}" = ? WHERE {cond}', [value, *params])
            except sqlite3.IntegrityError:  # a multi-column CHECK: try the next value
                continue
            return [key]
    raise AssertionError(f"no valid other value for {table}.{column}")


def reported(problems: list[doctor.Problem], table: str, key: dict[str, Any], column: str) -> bool:
    text_key = doctor.format_key(list(key), list(key.values()))
    return any(
        p.kind == "data"
        and p.table == table
        and p.key == text_key
        and f"column {column} " in p.detail
        for p in problems
    )


def non_key_columns(table: str) -> list[str]:
    return [c.name for c in metadata.tables[table].columns if not c.primary_key]


# --- a sound database -------------------------------------------------------------------------


def test_fresh_database_is_clean(fresh_db: str) -> None:
    cast_some(fresh_db)
    report = doctor.run(fresh_db)
    assert report.problems == []
    assert report.ok
    assert f"revision {head_revision()} (head)" in report.checked
    assert "3 readings" in report.checked


def test_tampered_readings_on_any_backend(fresh_db: str, expected: Tables) -> None:
    """What the constraints let through on every backend (PostgreSQL included): values that
    are valid alone but disagree with the reading's inputs."""
    values, coins, notation = cast_some(fresh_db)
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as conn:
            for statement, params in (
                ("UPDATE reading SET day_gz = '丁卯' WHERE id = :id", {"id": coins}),
                ("UPDATE reading SET created_at = 'yesterday' WHERE id = :id", {"id": coins}),
                ("UPDATE reading SET cast_input = '999999' WHERE id = :id", {"id": values}),
                ("UPDATE reading SET hour_gz = '戊寅' WHERE id = :id", {"id": notation}),
            ):
                conn.execute(text(statement), params)
    finally:
        engine.dispose()
    found = "\n".join(str(p) for p in doctor.check(fresh_db, expected))
    assert f"reading: reading id={coins}: day_gz is '丁卯', the calendar gives " in found
    assert f"reading: reading id={coins}: created_at 'yesterday' is not a UTC" in found
    assert f"reading: reading id={values}: cast_input '999999' (method values) gives " in found
    assert f"reading: reading id={notation}: hour pillar 戊寅 does not fit the day 甲子" in found


@sqlite_only
def test_template_is_clean_and_check_writes_nothing(template: Path, expected: Tables) -> None:
    before = template.read_bytes()
    assert doctor.check(template.as_posix(), expected) == []
    assert template.read_bytes() == before


def test_check_recomputes_the_shipped_term_table(
    template: Path, expected: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The term instants the calendar reads from the package are compared with tyme4py:
    one changed instant is a problem, and so is a line of the table that cannot be read."""
    report = doctor.run(template.as_posix(), expected)
    assert "term table 1901-2100 equals tyme4py" in report.checked
    lines = list(term_table.INSTANTS)
    lines[2024 - 1901] = lines[2024 - 1901].replace("2024-02-04T16:27:07", "2024-02-04T16:27:06")
    lines[2100 - 1901] = "damaged"
    monkeypatch.setattr(term_table, "INSTANTS", tuple(lines))
    monkeypatch.setattr(solarterms, "_CACHE", {})
    assert [str(p) for p in doctor.check(template.as_posix(), expected)] == [
        "calendar: term table: 2024 立春: cached 2024-02-04T16:27:06+08:00,"
        " tyme4py 2024-02-04T16:27:07+08:00",
        "calendar: term table: the shipped term table is damaged at 2100:"
        " 'damaged' is not YYYY-MM-DDTHH:MM:SS",
    ]


@sqlite_only
def test_cli_ok_problems_and_exit_codes(template: Path, damaged: Path, tmp_path: Path) -> None:
    def run(db: Path) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", "--db", str(db)])
        return code, out.getvalue(), err.getvalue()

    code, out, err = run(template)
    assert (code, err) == (0, "")
    assert out.startswith(f"ok: {template}: integrity_check, foreign_key_check, revision ")
    assert "seeded tables" in out and "SQL invariants" in out and "3 readings" in out

    damage_cell(damaged, "hexagram_line", "relative", {"king_wen": 44, "position": 2})
    code, out, err = run(damaged)
    assert (code, err) == (1, "")
    assert "data: hexagram_line king_wen=44 position=2: column relative is " in out
    assert out.rstrip().endswith("problem found") or out.rstrip().endswith("problems found")

    code, out, err = run(tmp_path / "missing.db")
    assert code == 2 and out == "" and err.startswith("error: no database at ")

    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    code, out, err = run(empty)
    assert code == 1 and "not built" in out and "Traceback" not in err


# --- every column of the 64 hexagrams and the 384 lines ---------------------------------------


OTHER_CELLS: list[tuple[str, dict[str, Any], str]] = [
    ("ganzhi", {"name": "甲子"}, "nayin"),
    ("ganzhi", {"name": "丙寅"}, "void_first"),
    ("ganzhi", {"name": "癸亥"}, "xun_head"),
    ("hidden_spirit", {"king_wen": 44, "position": 2}, "relative"),
    ("hidden_spirit", {"king_wen": 44, "position": 2}, "ganzhi"),
    ("twelve_stage", {"element": "木", "branch": "亥"}, "stage"),
    ("seasonal_strength", {"month_branch": "寅", "element": "木"}, "strength"),
    ("day_spirit", {"day_stem": "甲", "position": 1}, "spirit"),
    ("name_alias", {"kind": "hexagram", "alias": "姤"}, "canonical"),
]


def cell_cases() -> list[tuple[str, dict[str, Any], str]]:
    """Every damaged cell: each column of the 64 and the 384 on a row of its own, and a few
    cells of other reference tables."""
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("hexagram", {"king_wen": 1 + (43 + 5 * i) % 64}, column)
        for i, column in enumerate(non_key_columns("hexagram"))
    ]
    cases += [
        ("hexagram_line", {"king_wen": 1 + (43 + 7 * i) % 64, "position": 1 + i % 6}, column)
        for i, column in enumerate(non_key_columns("hexagram_line"))
    ]
    return cases + OTHER_CELLS


@pytest.fixture(scope="module")
def cells_checked(
    template: Path, expected: Tables, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[tuple[str, str], list[dict[str, Any]]], list[doctor.Problem]]:
    """One copy with every cell of :func:`cell_cases` changed, and one check of it: each
    change is found by its own key and column, whatever else was changed beside it."""
    damaged = copy_db(template, tmp_path_factory.mktemp("cells") / "damaged.db")
    changed = {(t, c): damage_cell(damaged, t, c, key) for t, key, c in cell_cases()}
    return changed, doctor.check(damaged.as_posix(), expected)


@sqlite_only
@pytest.mark.parametrize(("table", "key", "column"), cell_cases())
def test_one_changed_cell_is_caught(
    cells_checked: tuple[dict[tuple[str, str], list[dict[str, Any]]], list[doctor.Problem]],
    table: str,
    key: dict[str, Any],
    column: str,
) -> None:
    changed, problems = cells_checked
    assert key in changed[table, column]
    for k in changed[table, column]:
        assert reported(problems, table, k, column), problems


def test_every_derived_column_is_covered() -> None:
    """The damage covers every non-key column the two tables have."""
    for table in ("hexagram", "hexagram_line"):
        names = {c.name for c in metadata.tables[table].columns}
        keys = {c.name for c in metadata.tables[table].primary_key.columns}
        assert set(non_key_columns(table)) == names - keys
        assert len(non_key_columns(table)) >= 10
        assert {c for t, _, c in cell_cases() if t == table} == names - keys


@sqlite_only
def test_missing_and_extra_rows_are_caught(damaged: Path, expected: Tables) -> None:
    with raw(damaged) as con:
        con.execute("DELETE FROM hidden_spirit WHERE king_wen = 44")
        con.execute(
            "CREATE TEMP TABLE extra AS SELECT * FROM branch_relation "
            "WHERE relation = '六衝' AND first = '子'"
        )
        con.execute("UPDATE extra SET relation = '六合'")
        con.execute("INSERT INTO branch_relation SELECT * FROM extra")
    problems = {str(p) for p in doctor.check(damaged.as_posix(), expected)}
    assert "data: hidden_spirit king_wen=44 position=2: row missing (the rules give it)" in problems
    assert (
        "data: branch_relation relation=六合 first=子 second=午: extra row (the rules give none)"
        in problems
    )


# --- readings ---------------------------------------------------------------------------------


@sqlite_only
def test_damaged_readings_are_caught(damaged: Path, expected: Tables) -> None:
    with raw(damaged, ignore_checks=True) as con:
        ids = [r for (r,) in con.execute("SELECT id FROM reading ORDER BY id")]
        first, second, third = ids
        con.execute("DELETE FROM reading_line WHERE reading_id = ? AND position = 3", [first])
        con.execute(
            "UPDATE reading_line SET value = 5, coins = NULL WHERE reading_id = ? AND position = 1",
            [second],
        )
        con.execute("UPDATE reading SET month_gz = '甲子' WHERE id = ?", [third])
        con.execute("INSERT INTO reading_line (reading_id, position, value) VALUES (999, 1, 7)")
    problems = [str(p) for p in doctor.check(damaged.as_posix(), expected)]
    text = "\n".join(problems)
    assert f"reading: reading_line reading_id={first}: 5 lines" in text
    assert f"reading: reading_line reading_id={second}: 6 lines" in text
    assert "1 values outside 6..9" in text
    assert f"reading: reading id={third}: month pillar 甲子 and month branch 寅 disagree" in text
    assert "reading: reading_line reading_id=999 position=1: line of a reading" in text
    assert "foreign key: reading_line reading_id=999 position=1: column reading_id" in text
    # the stored lines keep the deleted line: the definition no longer gives it (revision 0028)
    assert (
        f"derived: reading_line_chart reading_id={first}: rows stored that the definition "
        "does not give" in text
    )


@sqlite_only
def test_reading_with_a_day_that_is_not_a_ganzhi(damaged: Path, expected: Tables) -> None:
    with raw(damaged) as con:
        con.execute("UPDATE reading SET day_gz = '甲丑' WHERE id = (SELECT MIN(id) FROM reading)")
    text = "\n".join(str(p) for p in doctor.check(damaged.as_posix(), expected))
    assert "foreign key: reading id=1: column day_gz refers to a row of ganzhi" in text
    assert "invalid moment: day '甲丑'" in text


# --- schema and file --------------------------------------------------------------------------


@sqlite_only
def test_revisions_older_newer_and_none(damaged: Path, expected: Tables, tmp_path: Path) -> None:
    with raw(damaged) as con:
        con.execute("UPDATE alembic_version SET version_num = '9999'")
    problems = doctor.check(damaged.as_posix(), expected)
    assert [p.kind for p in problems] == ["revision"]
    assert "'9999', which is unknown to this yimao-db" in problems[0].detail

    older = tmp_path / "older.db"
    engine = writer_engine(str(older), building=True)
    try:
        with engine.begin() as conn:
            upgrade(conn, "0003")
    finally:
        engine.dispose()
    problems = doctor.check(older.as_posix(), expected)
    assert any(p.kind == "revision" and "older than head" in p.detail for p in problems)
    assert any(p.kind == "data" and "row missing" in p.detail for p in problems)


@sqlite_only
def test_dropped_index_and_broken_view_are_caught(damaged: Path, expected: Tables) -> None:
    with raw(damaged) as con:
        (index,) = con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hexagram' "
            "AND sql IS NOT NULL ORDER BY name LIMIT 1"
        ).fetchone() or (None,)
        if index is not None:
            con.execute(f'DROP INDEX "{index}"')
        con.execute("DROP VIEW v_hidden")
        con.execute("CREATE VIEW v_hidden AS SELECT * FROM no_such_table")
    problems = doctor.check(damaged.as_posix(), expected)
    assert any(p.kind == "view" and p.table == "v_hidden" for p in problems), problems
    if index is not None:
        assert any(p.kind == "schema" for p in problems), problems


@sqlite_only
def test_a_quietly_changed_view_and_a_trigger_are_caught(damaged: Path, expected: Tables) -> None:
    """A view that still answers but filters rows, and a trigger that would rewrite data."""
    with raw(damaged) as con:
        (sql,) = con.execute("SELECT sql FROM sqlite_master WHERE name = 'v_line'").fetchone()
        con.execute("DROP VIEW v_line")
        con.execute(sql + " WHERE l.position < 6")
        con.execute(
            "CREATE TRIGGER sneaky AFTER INSERT ON reading BEGIN "
            "UPDATE reading SET question = NULL WHERE id = NEW.id; END"
        )
        con.execute("CREATE VIEW my_own_view AS SELECT 1 AS x")  # allowed: not a problem
    problems = [str(p) for p in doctor.check(damaged.as_posix(), expected)]
    assert "schema: v_line: view SQL differs from what the migrations create" in "\n".join(problems)
    assert "schema: sneaky: trigger not created by the migrations" in problems
    assert not any("my_own_view" in p for p in problems)


@sqlite_only
def test_corrupt_pages_are_reported_not_raised(damaged: Path, expected: Tables) -> None:
    data = bytearray(damaged.read_bytes())
    page = 4096
    for start in range(page * 20, min(len(data), page * 60), page * 7):
        data[start + 100 : start + 400] = os.urandom(300)
    damaged.write_bytes(bytes(data))
    problems = doctor.check(damaged.as_posix(), expected)
    assert problems
    assert any(p.kind == "integrity" for p in problems), problems
