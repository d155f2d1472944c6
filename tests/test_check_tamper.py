"""``yimao check`` against tampering that SQLite lets through on a read-only connection.

Each case copies one built SQLite database with readings of every kind, changes it with a
plain ``sqlite3`` connection (foreign keys and, where needed, CHECK constraints off) and
requires the change to be reported with its table, key and what is wrong: a CHECK that is
false, a NULL in a NOT NULL column, a value of the wrong storage type, text that is not
UTF-8, and — for readings — every column of ``reading`` and ``reading_line`` changed on its
own, including to values that are valid alone but disagree with the reading's inputs.
"""

from __future__ import annotations

import io
import os
import re
import sqlite3
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from helpers import built_copy, copy_db, raw, refresh_derived, seeded

from yimao_db import check as doctor
from yimao_db.cli import main
from yimao_db.readings import cast

pytestmark = pytest.mark.sqlite_only

Tables = dict[str, list[dict[str, object]]]

# The readings of the template, by id (cast in this order on a fresh database).
COINS = 1  # coins at 23:30 with the early rat, seasonal najia, a question
VALUES = 2  # six values at a date-time
PILLARS = 3  # four pillars
NOTATION = 4  # 乾之姤 at a date-time
RANDOM = 5  # random coins
HEXAGRAM = 6  # a hexagram with moving lines, in New York (summer time)


@pytest.fixture(scope="module")
def expected() -> Tables:
    return seeded()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    path = built_copy(sqlite_template, tmp_path_factory.mktemp("tamper") / "template.db")
    db = str(path)
    ids = [
        cast(
            coins="2,1,3,0,2,2",
            at="2024-06-30T23:30",
            early_rat=True,
            najia="seasonal",
            question="問題",
            db=db,
        ),
        cast("789678", at="2024-02-04T10:00", db=db),
        cast("789678", pillars="甲辰,丙寅,戊戌,庚申", db=db),
        cast("乾之姤", at="2025-12-21T12:00", db=db),
        cast(random=True, at="2024-06-30T10:00", db=db),
        cast("姤", moving="1,4", at="2024-07-04T18:00", tz="America/New_York", db=db),
    ]
    assert ids == [COINS, VALUES, PILLARS, NOTATION, RANDOM, HEXAGRAM]
    return path


@pytest.fixture
def damaged(template: Path, tmp_path: Path) -> Path:
    return copy_db(template, tmp_path / "damaged.db")


@dataclass(frozen=True)
class Loosened:
    """``statement`` run while ``table``'s stored SQL says ``new`` instead of ``old`` (how a
    NOT NULL or a declared type is got round); the SQL is put back afterwards."""

    table: str
    old: str
    new: str
    statement: str


# a case: what is done (statements run in order) and what the report must say
Case = tuple[str | Loosened | list[str], list[str]]


def loosen(path: Path, change: Loosened) -> None:
    with raw(path) as con:
        (sql,) = con.execute(
            "SELECT sql FROM sqlite_master WHERE name = ?", [change.table]
        ).fetchone()
        assert change.old in sql, sql
        con.execute("PRAGMA writable_schema=ON")
        con.execute(
            "UPDATE sqlite_master SET sql = ? WHERE name = ?",
            [sql.replace(change.old, change.new), change.table],
        )
    with raw(path, ignore_checks=True) as con:
        con.execute(change.statement)
        con.execute("PRAGMA writable_schema=ON")
        con.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", [sql, change.table])


def tamper(path: Path, *statements: str | Loosened) -> None:
    """Run ``statements`` on ``path`` behind yimao's back."""
    for statement in statements:
        if isinstance(statement, Loosened):
            loosen(path, statement)
    plain = [s for s in statements if isinstance(s, str)]
    with raw(path, ignore_checks=True) as con:  # one connection: pragmas hold for the rest
        for statement in plain:
            con.execute(statement)
        refresh_derived(con)  # readings stored so: their derived rows as a write gives them


def problems_after(path: Path, expected: Tables, *statements: str | Loosened) -> str:
    """Run ``statements`` on ``path`` behind yimao's back, then ``yimao check``: the report."""
    tamper(path, *statements)
    return "\n".join(str(p) for p in doctor.check(path.as_posix(), expected))


def test_template_is_clean(template: Path, expected: Tables) -> None:
    before = template.read_bytes()
    assert doctor.check(template.as_posix(), expected) == []
    assert template.read_bytes() == before


# --- every column of reading and reading_line, one at a time --------------------------------

# The cases of the two tables below are checked together (one ``yimao check``): each changes its
# own copy of the template's six readings, the k-th case those with ids 10k+1 to 10k+6 (10k+9
# is free). The tables name the readings by placeholders that ``placed`` fills in.
_COINS, _VALUES, _PILLARS = "{coins}", "{values}", "{pillars}"
_NOTATION, _RANDOM, _HEXAGRAM = "{notation}", "{random}", "{hexagram}"
_FREE = "{free}"

R = f"WHERE id = {COINS}"
L = f"WHERE reading_id = {COINS}"
_R = f"WHERE id = {_COINS}"
_L = f"WHERE reading_id = {_COINS}"

READING_CASES: dict[str, list[Case]] = {
    # column: [(statement, what the report must say), ...]
    "id": [
        (
            f"UPDATE reading SET id = {_FREE} {_R}",
            [
                f"reading: reading_line reading_id={_COINS} position=1: line of a reading that",
                f"reading: reading_line reading_id={_FREE}: 0 lines",
            ],
        )
    ],
    "created_at": [
        (
            f"UPDATE reading SET created_at = 'yesterday' {_R}",
            [f"reading: reading id={_COINS}: created_at 'yesterday' is not"],
        ),
        (
            f"UPDATE reading SET created_at = '2026-01-01T08:00:00.000000+08:00' {_R}",
            [f"reading: reading id={_COINS}: created_at '2026-01-01T08:00:00.000000+08:00' is not"],
        ),
        (
            Loosened(
                "reading",
                "created_at VARCHAR(32) NOT NULL",
                "created_at VARCHAR(32)",
                f"UPDATE reading SET created_at = NULL {_R}",
            ),
            [f"constraint: reading id={_COINS}: NOT NULL column created_at is NULL"],
        ),
    ],
    "question": [
        (
            f"UPDATE reading SET question = X'FF00' {_R}",
            [f"type: reading id={_COINS}: column question holds a blob, expected text"],
        ),
        (
            f"UPDATE reading SET question = CAST(X'E5158F' AS TEXT) {_R}",
            [f"type: reading id={_COINS}: column question is not valid UTF-8"],
        ),
    ],
    "method": [
        (
            f"UPDATE reading SET method = 'bogus' {_R}",
            [f"constraint: reading id={_COINS}: CHECK ck_reading_method_domain is false"],
        ),
        (
            f"UPDATE reading SET method = 'values' {_R}",
            [f"reading: reading id={_COINS}: cast_input '2,1,3,0,2,2' (method values)"],
        ),
        (
            f"UPDATE reading SET method = 'random' {_R}",
            [f"reading: reading id={_COINS}: cast_input '2,1,3,0,2,2' (method random)"],
        ),
        (
            f"UPDATE reading SET method = 'notation' WHERE id = {_HEXAGRAM}",
            [f"reading: reading id={_HEXAGRAM}: cast_input '姤:1,4' (method notation)"],
        ),
        (
            f"UPDATE reading SET method = 'coins' WHERE id = {_VALUES}",
            [f"reading: reading id={_VALUES}: cast_input '789678' (method coins)"],
        ),
    ],
    "cast_input": [
        (
            f"UPDATE reading SET cast_input = '3,1,3,0,2,2' {_R}",
            [f"reading: reading id={_COINS}: cast_input '3,1,3,0,2,2' (method coins) gives"],
        ),
        (
            f"UPDATE reading SET cast_input = '乾之坤' WHERE id = {_NOTATION}",
            [f"reading: reading id={_NOTATION}: cast_input '乾之坤' (method notation) gives"],
        ),
        (
            f"UPDATE reading SET cast_input = 'nonsense' WHERE id = {_HEXAGRAM}",
            [f"reading: reading id={_HEXAGRAM}: cast_input 'nonsense' (method hexagram) does"],
        ),
        (
            f"UPDATE reading SET cast_input = '789678' WHERE id = {_RANDOM}",
            [f"reading: reading id={_RANDOM}: cast_input '789678' (method random)"],
        ),
    ],
    "cast_at": [
        (
            f"UPDATE reading SET cast_at = '2024-06-30T21:30:00+08:00' {_R}",
            [f"reading: reading id={_COINS}: day_gz is '丙寅', the calendar gives '乙丑'"],
        ),
        (
            f"UPDATE reading SET cast_at = '2024-06-30T23:30:00+09:00' {_R}",
            [
                f"reading: reading id={_COINS}: cast_at is '2024-06-30T23:30:00+09:00', not the "
                "civil time of Asia/Shanghai with its offset: the calendar gives "
                "'2024-06-30T22:30:00+08:00'"
            ],
        ),
        (
            f"UPDATE reading SET cast_at = 'not a date' {_R}",
            [f"reading: reading id={_COINS}: cast_at 'not a date' (tz 'Asia/Shanghai') cannot"],
        ),
        (
            f"UPDATE reading SET cast_at = NULL {_R}",
            [f"reading: reading id={_COINS}: cast_at is NULL but tz is"],
        ),
    ],
    "tz": [
        (
            f"UPDATE reading SET tz = 'Asia/Tokyo' {_R}",
            [
                f"reading: reading id={_COINS}: cast_at is '2024-06-30T23:30:00+08:00', not the "
                "civil time of Asia/Tokyo with its offset: the calendar gives "
                "'2024-07-01T00:30:00+09:00'"
            ],
        ),
        (
            f"UPDATE reading SET tz = 'No/Such_Zone' {_R}",
            [
                f"reading: reading id={_COINS}: cast_at '2024-06-30T23:30:00+08:00' "
                "(tz 'No/Such_Zone') cannot be recomputed: unknown time zone"
            ],
        ),
    ],
    "year_gz": [
        (
            f"UPDATE reading SET year_gz = '乙巳' {_R}",
            [f"reading: reading id={_COINS}: year_gz is '乙巳', the calendar gives '甲辰'"],
        ),
        (
            f"UPDATE reading SET year_gz = '乙巳' WHERE id = {_PILLARS}",
            [f"reading: reading id={_PILLARS}: month pillar 丙寅 does not fit the year 乙巳"],
        ),
    ],
    "month_gz": [
        (
            f"UPDATE reading SET month_gz = '壬午' {_R}",
            [f"reading: reading id={_COINS}: month_gz is '壬午', the calendar gives '庚午'"],
        ),
        (
            f"UPDATE reading SET month_gz = '戊寅' WHERE id = {_PILLARS}",
            [f"reading: reading id={_PILLARS}: month pillar 戊寅 does not fit the year 甲辰"],
        ),
    ],
    "month_branch": [
        (
            f"UPDATE reading SET month_branch = '未' {_R}",
            [f"reading: reading id={_COINS}: month_branch is '未', the calendar gives '午'"],
        ),
        (
            f"UPDATE reading SET month_branch = '卯' WHERE id = {_PILLARS}",
            [f"reading: reading id={_PILLARS}: month pillar 丙寅 and month branch 卯 disagree"],
        ),
    ],
    "day_gz": [
        (
            f"UPDATE reading SET day_gz = '丁卯' {_R}",
            [f"reading: reading id={_COINS}: day_gz is '丁卯', the calendar gives '丙寅'"],
        ),
        (
            f"UPDATE reading SET day_gz = '庚子' WHERE id = {_PILLARS}",
            [f"reading: reading id={_PILLARS}: hour pillar 庚申 does not fit the day 庚子"],
        ),
    ],
    "hour_gz": [
        (
            f"UPDATE reading SET hour_gz = '庚子' {_R}",
            [f"reading: reading id={_COINS}: hour_gz is '庚子', the calendar gives '戊子'"],
        ),
        (
            f"UPDATE reading SET hour_gz = '壬申' WHERE id = {_PILLARS}",
            [f"reading: reading id={_PILLARS}: hour pillar 壬申 does not fit the day 戊戌"],
        ),
    ],
    "solar_term": [
        (
            f"UPDATE reading SET solar_term = '小暑' {_R}",
            [f"reading: reading id={_COINS}: solar_term is '小暑', the calendar gives '夏至'"],
        ),
        (
            f"UPDATE reading SET solar_term = '小暑' WHERE id = {_PILLARS}",
            [f"reading: reading id={_PILLARS}: solar_term is '小暑', but a reading given as"],
        ),
    ],
    "half_year": [
        (
            f"UPDATE reading SET half_year = '冬至後' {_R}",
            [f"reading: reading id={_COINS}: half_year is '冬至後', the calendar gives '夏至後'"],
        ),
        (
            f"UPDATE reading SET half_year = '秋' {_R}",
            [f"constraint: reading id={_COINS}: CHECK ck_reading_half_year_domain is false"],
        ),
    ],
    "early_rat": [
        (
            f"UPDATE reading SET early_rat = 0 {_R}",
            [f"reading: reading id={_COINS}: day_gz is '丙寅', the calendar gives '乙丑'"],
        ),
        (
            f"UPDATE reading SET early_rat = 2 {_R}",
            [f"constraint: reading id={_COINS}: CHECK ck_reading_early_rat_bool is false"],
        ),
        (
            f"UPDATE reading SET early_rat = 'yes' {_R}",
            [f"type: reading id={_COINS}: column early_rat holds text, expected an integer"],
        ),
        (
            f"UPDATE reading SET early_rat = 1 WHERE id = {_PILLARS}",
            [f"reading: reading id={_PILLARS}: early_rat is 1, but a reading given as"],
        ),
    ],
    "najia_variant": [
        (
            f"UPDATE reading SET najia_variant = 'bogus' {_R}",
            [f"constraint: reading id={_COINS}: CHECK ck_reading_najia_variant_domain is false"],
        ),
        (
            f"UPDATE reading SET najia_variant = 'seasonal' WHERE id = {_PILLARS}",
            [f"reading: reading id={_PILLARS}: najia_variant is 'seasonal', but"],
        ),
    ],
    "matter": [
        (
            f"UPDATE reading SET matter = 'bogus' {_R}",
            [
                f"foreign key: reading id={_COINS}: column matter refers to a row of matter that"
                " does not exist",
                f"type: reading id={_COINS}: column matter is 5 characters long, longer than"
                " VARCHAR(2)",
            ],
        ),
    ],
    "about": [
        (
            f"UPDATE reading SET about = 'bogus subject' {_R}",
            [
                f"foreign key: reading id={_COINS}: column about refers to a row of subject that"
                " does not exist",
                f"type: reading id={_COINS}: column about is 13 characters long, longer than"
                " VARCHAR(8)",
            ],
        ),
    ],
    # the instant of cast_at on the UTC clock (2024-06-30T23:30+08:00), which the lodges are
    # looked up by: the calendar's, and none for a reading given as pillars
    "cast_utc": [
        (
            f"UPDATE reading SET cast_utc = '2024-06-30T16:30:00Z' {_R}",
            [
                f"reading: reading id={_COINS}: cast_utc is '2024-06-30T16:30:00Z', the "
                "calendar gives '2024-06-30T15:30:00Z' for cast_at"
            ],
        ),
        (
            f"UPDATE reading SET cast_utc = '2024-06-30 15:30' {_R}",
            [f"constraint: reading id={_COINS}: CHECK ck_reading_cast_utc_utc is false"],
        ),
        (
            f"UPDATE reading SET cast_utc = '2024-06-30T15:30:00Z' WHERE id = {_PILLARS}",
            [
                f"reading: reading id={_PILLARS}: cast_utc is '2024-06-30T15:30:00Z', but a "
                "reading given as pillars has none"
            ],
        ),
    ],
    # the keys derived from the lines 879688 (seasonal, after the summer solstice)
    "primary_kw": [
        (
            f"UPDATE reading SET primary_kw = 1 {_R}",
            [f"reading: reading id={_COINS}: primary_kw is 1; the lines 879688 give 46"],
        ),
    ],
    "changed_kw": [
        (
            f"UPDATE reading SET changed_kw = 1 {_R}",
            [f"reading: reading id={_COINS}: changed_kw is 1; the lines 879688 give 40"],
        ),
        (
            f"UPDATE reading SET changed_kw = NULL {_R}",
            [
                f"constraint: reading id={_COINS}: CHECK ck_reading_changed_iff_moving is false",
                f"reading: reading id={_COINS}: changed_kw is None; the lines 879688 give 40",
            ],
        ),
    ],
    "moving_mask": [
        (
            f"UPDATE reading SET moving_mask = 1 {_R}",
            [f"reading: reading id={_COINS}: moving_mask is 1; the lines 879688 give 12"],
        ),
        (
            f"UPDATE reading SET moving_mask = 64 {_R}",
            [f"constraint: reading id={_COINS}: CHECK ck_reading_moving_mask_range is false"],
        ),
    ],
    "najia_half": [
        (
            f"UPDATE reading SET najia_half = '冬至後' {_R}",
            [f"reading: reading id={_COINS}: najia_half is '冬至後'; the lines 879688 give"],
        ),
        (
            f"UPDATE reading SET najia_half = 'x' {_R}",
            [f"constraint: reading id={_COINS}: CHECK ck_reading_najia_half_domain is false"],
        ),
    ],
}

LINE_CASES: dict[str, list[Case]] = {
    "reading_id": [
        (
            f"UPDATE reading_line SET reading_id = {_FREE} {_L} AND position = 3",
            [
                f"reading: reading_line reading_id={_FREE} position=3: line of a reading that",
                f"reading: reading_line reading_id={_COINS}: 5 lines",
            ],
        )
    ],
    "position": [
        (
            f"UPDATE reading_line SET position = 7 {_L} AND position = 3",
            [
                f"constraint: reading_line reading_id={_COINS} position=7: CHECK "
                "ck_reading_line_position_range is false",
                f"reading: reading_line reading_id={_COINS}: 6 lines (positions 1,2,4,5,6,7)",
            ],
        ),
        (  # two lines swapped: every value still 6..9, the coins still agree
            [
                f"UPDATE reading_line SET position = -3 {_L} AND position = 3",
                f"UPDATE reading_line SET position = 3 {_L} AND position = 4",
                f"UPDATE reading_line SET position = 4 {_L} AND position = -3",
            ],
            [f"reading: reading id={_COINS}: cast_input '2,1,3,0,2,2' (method coins) gives"],
        ),
    ],
    "value": [
        (
            f"UPDATE reading_line SET value = 8 {_L} AND position = 2",
            [
                f"constraint: reading_line reading_id={_COINS} position=2: CHECK "
                "ck_reading_line_coins_value is false: value=8 coins=1"
            ],
        ),
        (
            f"UPDATE reading_line SET value = 8, coins = 2 {_L} AND position = 2",
            [f"reading: reading id={_COINS}: cast_input '2,1,3,0,2,2' (method coins) gives"],
        ),
        (
            f"UPDATE reading_line SET value = 9 WHERE reading_id = {_VALUES} AND position = 1",
            [f"reading: reading id={_VALUES}: cast_input '789678' (method values) gives"],
        ),
        (
            f"UPDATE reading_line SET value = 5 WHERE reading_id = {_VALUES} AND position = 1",
            [
                f"constraint: reading_line reading_id={_VALUES} position=1: CHECK "
                "ck_reading_line_value_range is false: value=5",
                f"reading: reading_line reading_id={_VALUES}: 6 lines (positions 1..6), 1 values",
            ],
        ),
        (
            f"UPDATE reading_line SET value = '7' || 'x' WHERE reading_id = {_VALUES} "
            "AND position = 1",
            [f"type: reading_line reading_id={_VALUES} position=1: column value holds text"],
        ),
    ],
    "coins": [
        (  # the brief's example: a line of value 8 with no backs
            f"UPDATE reading_line SET coins = 0 {_L} AND position = 1",
            [
                f"constraint: reading_line reading_id={_COINS} position=1: CHECK "
                "ck_reading_line_coins_value is false: value=8 coins=0"
            ],
        ),
        (
            f"UPDATE reading_line SET coins = NULL {_L} AND position = 1",
            [f"reading: reading id={_COINS}: 5 of the six lines have coins"],
        ),
        (
            f"UPDATE reading_line SET coins = value - 6 WHERE reading_id = {_VALUES}",
            [f"reading: reading id={_VALUES}: 6 of the six lines have coins"],
        ),
        (
            f"UPDATE reading_line SET coins = 1.5 {_L} AND position = 1",
            [f"type: reading_line reading_id={_COINS} position=1: column coins holds a real"],
        ),
    ],
}


CELL_CASES: dict[str, Case] = {
    f"{column}-{n}": case
    for table in (READING_CASES, LINE_CASES)
    for column, cases in table.items()
    for n, case in enumerate(cases)
}
SPACING = 10  # reading ids per case


def placed(text: str, k: int) -> str:
    """``text`` as the k-th case (from 1) runs it: on its own readings."""
    base = SPACING * k
    return text.format(
        coins=base + COINS,
        values=base + VALUES,
        pillars=base + PILLARS,
        notation=base + NOTATION,
        random=base + RANDOM,
        hexagram=base + HEXAGRAM,
        free=base + SPACING - 1,
    )


def placed_statements(statement: str | Loosened | list[str], k: int) -> list[str | Loosened]:
    statements = statement if isinstance(statement, list) else [statement]
    return [
        replace(s, statement=placed(s.statement, k)) if isinstance(s, Loosened) else placed(s, k)
        for s in statements
    ]


@pytest.fixture(scope="module")
def cells_report(template: Path, expected: Tables, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The report of one ``yimao check`` of a database where every case of CELL_CASES has
    changed its own copy of the template's readings."""
    path = copy_db(template, tmp_path_factory.mktemp("cells") / "cells.db")
    with raw(path) as con:
        for table, key in (("reading", "id"), ("reading_line", "reading_id")):
            columns = [name for _, name, *_ in con.execute(f"PRAGMA table_info({table})")]
            values = ", ".join(f"{c} + :base" if c == key else c for c in columns)
            for k in range(1, len(CELL_CASES) + 1):
                con.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) "
                    f"SELECT {values} FROM {table} WHERE {key} <= {HEXAGRAM}",
                    {"base": SPACING * k},
                )
    for k, (statement, _wanted) in enumerate(CELL_CASES.values(), 1):
        tamper(path, *placed_statements(statement, k))
    return "\n".join(str(p) for p in doctor.check(path.as_posix(), expected))


def test_every_reading_column_is_attacked() -> None:
    from yimao_db.kb.schema import metadata

    for table, cases in (("reading", READING_CASES), ("reading_line", LINE_CASES)):
        assert set(cases) == {c.name for c in metadata.tables[table].columns}


def test_a_rows_broken_checks_are_reported_in_the_order_of_their_names() -> None:
    """A table's CHECK constraints are a set, iterated in an order that differs from one
    process to the next; the check reads them by name, so that two runs of ``yimao check`` on
    the same file print the same lines in the same order."""
    from yimao_db.check.cells import table_check

    for table in ("reading", "reading_line", "lodge_ingress"):
        _sql, rules = table_check(table, "sqlite")
        named = [r.what for r in rules if r.what.startswith("rows where CHECK ")]
        assert len(named) >= 2
        assert named == sorted(named)


@pytest.mark.parametrize("case", list(CELL_CASES))
def test_one_tampered_reading_cell_is_found(cells_report: str, case: str) -> None:
    k = list(CELL_CASES).index(case) + 1
    for text in CELL_CASES[case][1]:
        assert placed(text, k) in cells_report, f"{placed(text, k)!r} not in:\n{cells_report}"


def test_the_cases_of_cells_keep_to_their_own_readings(cells_report: str) -> None:
    """Every problem of the cells' report is one of a case's readings (each case has its
    own), and the template's own readings are clean; past the cap of a kind of problem the
    report counts the rest."""
    key = re.compile(r"\breading(?: id|_id)=([0-9]+)\b")
    more = re.compile(r"^[a-z ]+: [a-z_]+: … and [0-9]+ more ")
    for line in cells_report.splitlines():
        if more.match(line):
            continue
        found = key.findall(line)
        assert found, line
        assert all(int(i) > SPACING for i in found), line


# --- constraints, NOT NULL and types of every table -------------------------------------------


def test_a_time_that_summer_time_skipped(damaged: Path, expected: Tables) -> None:
    """02:30 on 1991-04-14 never showed on a clock in Shanghai (summer time began at 02:00).
    A reading stored with it (as moment_at once stored such times, with the offset before
    the gap) is reported with the reason."""
    report = problems_after(
        damaged,
        expected,
        "UPDATE reading SET cast_at = '1991-04-14T02:30:00+08:00', year_gz = '辛未', "
        "month_gz = '壬辰', month_branch = '辰', day_gz = '甲寅', hour_gz = '乙丑', "
        f"solar_term = '清明', half_year = '冬至後', early_rat = 0, "
        f"cast_utc = '1991-04-13T18:30:00Z' WHERE id = {VALUES}",
    )
    assert (
        f"reading: reading id={VALUES}: cast_at is '1991-04-14T02:30:00+08:00', a civil time "
        "that Asia/Shanghai skipped (summer time began): the calendar gives "
        "'1991-04-14T03:30:00+09:00'" in report
    )
    assert [line for line in report.splitlines() if f"id={VALUES}:" in line] == [
        line for line in report.splitlines() if "a civil time that" in line
    ]


def test_check_constraints_of_reference_tables(damaged: Path, expected: Tables) -> None:
    report = problems_after(
        damaged,
        expected,
        "UPDATE hexagram SET bits = '01111x' WHERE king_wen = 44",
        "UPDATE stem SET yang = 7 WHERE name = '甲'",
    )
    assert (
        "constraint: hexagram king_wen=44: CHECK ck_hexagram_bits_bits is false: bits='01111x'"
        in report
    )
    assert "constraint: stem name=甲: CHECK ck_stem_yang_bool is false: yang=7" in report


def test_a_check_that_is_null_passes(damaged: Path, expected: Tables) -> None:
    """SQL: a CHECK whose expression is NULL holds. ``coins IS NULL OR coins = value - 6``
    with a NULL value is NULL: only NOT NULL objects."""
    report = problems_after(
        damaged,
        expected,
        Loosened(
            "reading_line",
            "value INTEGER NOT NULL",
            "value INTEGER",
            f"UPDATE reading_line SET value = NULL {L} AND position = 4",
        ),
    )
    key = f"reading_line reading_id={COINS} position=4"
    assert f"constraint: {key}: NOT NULL column value is NULL" in report
    assert f"{key}: CHECK" not in report


def test_an_integer_in_a_text_column(damaged: Path, expected: Tables) -> None:
    """Text affinity turns a number into text on the way in: only a column whose declared
    type was changed (and changed back) can hold an integer. The doctor still looks."""
    change = Loosened(
        "reading", "question TEXT", "question INTEGER", f"UPDATE reading SET question = 42 {R}"
    )
    report = problems_after(damaged, expected, change)
    with raw(damaged) as con:
        assert con.execute(f"SELECT typeof(question) FROM reading {R}").fetchone() == ("integer",)
    assert f"type: reading id={COINS}: column question holds an integer, expected text: 42" in (
        report
    )


def test_text_longer_than_its_varchar(damaged: Path, expected: Tables) -> None:
    report = problems_after(damaged, expected, f"UPDATE reading SET tz = '{'A' * 65}' {R}")
    assert (
        f"type: reading id={COINS}: column tz is 65 characters long, longer than VARCHAR(64)"
        in (report)
    )


def test_text_that_is_not_utf8_in_a_reference_table(damaged: Path, expected: Tables) -> None:
    report = problems_after(
        damaged,
        expected,
        "UPDATE meta_table SET description = CAST(X'41E5' AS TEXT) WHERE name = 'reading'",
    )
    assert "type: meta_table name=reading: column description is not valid UTF-8" in report


def test_many_violations_are_counted_not_all_listed(damaged: Path, expected: Tables) -> None:
    with raw(damaged, ignore_checks=True) as con:
        con.execute("UPDATE hexagram_line SET position = position + 10")
    problems = doctor.check(damaged.as_posix(), expected)
    ck = [p for p in problems if "ck_hexagram_line_position_range" in p.detail and p.key]
    assert len(ck) == doctor.MAX_PER_TABLE
    assert any(
        p.table == "hexagram_line" and "… and 334 more" in p.detail and "position_range" in p.detail
        for p in problems
    ), problems


# --- moments at scale -------------------------------------------------------------------------


def test_each_distinct_moment_is_computed_once(
    damaged: Path, expected: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many readings at few moments: the calendar runs once per (cast_at, tz, early_rat)."""
    with raw(damaged) as con:
        for _ in range(5):  # 6 readings → 192
            con.execute(
                "INSERT INTO reading (created_at, question, method, cast_input, cast_at, tz, "
                "year_gz, month_gz, month_branch, day_gz, hour_gz, solar_term, half_year, "
                "early_rat, najia_variant, primary_kw, changed_kw, moving_mask, najia_half, "
                "cast_utc) "
                "SELECT created_at, question, method, cast_input, cast_at, tz, year_gz, "
                "month_gz, month_branch, day_gz, hour_gz, solar_term, half_year, early_rat, "
                "najia_variant, primary_kw, changed_kw, moving_mask, najia_half, cast_utc "
                "FROM reading"
            )
        con.execute(
            "INSERT INTO reading_line SELECT r.id, l.position, l.value, l.coins "
            "FROM reading r JOIN reading o ON o.id = (r.id - 1) % 6 + 1 "
            "JOIN reading_line l ON l.reading_id = o.id WHERE r.id > 6"
        )
        refresh_derived(con)
    from yimao_db.calendar import moment

    calls: list[tuple[object, ...]] = []
    real = moment.moment_at

    def counting(*args: object, **kwargs: object) -> moment.Moment:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(moment, "moment_at", counting)
    report = doctor.run(damaged.as_posix(), expected)
    assert report.problems == []
    assert "192 readings" in report.checked
    assert len(calls) == 5  # five readings of the template were cast at a date-time
    assert len(set(calls)) == 5


def test_progress_is_reported(damaged: Path, expected: Tables) -> None:
    seen: list[tuple[str, int, int]] = []
    doctor.run(damaged.as_posix(), expected, progress=lambda *a: seen.append(a))
    stages = [what for what, _, _ in seen]
    assert stages[0] == "integrity"
    assert "readings (lines and casts)" in stages
    assert ("readings (moments)", 6, 6) in seen
    assert seen[-4:] == [
        ("charts", 0, 0),
        ("derived tables", 0, 0),
        ("derived tables", 1, 1),
        ("journal", 0, 0),
    ]


def test_a_dropped_table_does_not_stop_the_other_checks(damaged: Path, expected: Tables) -> None:
    """The definitions of the stored lines need month_mansion: the stage that reads them says
    so in one line, and the readings and their stored charts are still checked."""
    report = problems_after(
        damaged, expected, "DROP TABLE month_mansion", f"UPDATE reading SET day_gz = '丁卯' {R}"
    )
    assert "schema: month_mansion: table missing" in report
    assert "data: month_mansion: table missing" in report
    assert "derived tables: could not be checked: no such table: main.month_mansion" in report
    assert "charts: could not be checked" not in report
    assert f"reading: reading id={COINS}: day_gz is '丁卯'" in report
    assert all("\n" not in line for line in report.splitlines())


def test_a_read_only_file_is_checked_and_left_as_it_was(damaged: Path, expected: Tables) -> None:
    with raw(damaged) as con:
        con.execute(f"UPDATE reading SET day_gz = '丁卯' {R}")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = damaged.read_bytes()
    os.chmod(damaged, 0o444)
    try:
        report = "\n".join(str(p) for p in doctor.check(damaged.as_posix(), expected))
    finally:
        os.chmod(damaged, 0o644)
    assert f"reading id={COINS}: day_gz is '丁卯'" in report
    assert damaged.read_bytes() == before
    assert sqlite3.connect(damaged).execute("PRAGMA integrity_check").fetchone() == ("ok",)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal(
    damaged: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a terminal, a check with many readings says how far it is on stderr, on one line
    that it clears at the end; stdout is the same as without."""
    from yimao_db.commands import check as command

    monkeypatch.setattr(command, "MANY_READINGS", 6)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["check", "--db", str(damaged)]) == 0
    shown = terminal.getvalue()
    assert "\rchecking readings (moments): 100% (6 of 6)" in shown
    assert shown.endswith("\r\x1b[K") and shown.count("\n") == 0
    assert capsys.readouterr().out.startswith(f"ok: {damaged}: integrity_check, ")


def test_an_index_entry_of_the_schema_naming_another_table(damaged: Path, expected: Tables) -> None:
    """sqlite_master rows of the indexes SQLite makes itself (no SQL to compare) are compared
    by the table they belong to."""
    report = problems_after(
        damaged,
        expected,
        "PRAGMA writable_schema=ON",
        "UPDATE sqlite_master SET tbl_name = 'seven_luoinary' "
        "WHERE name = 'sqlite_autoindex_seven_luminary_1'",
    )
    assert (
        "schema: sqlite_autoindex_seven_luminary_1: index belongs to table 'seven_luoinary', "
        "the migrations give 'seven_luminary'" in report
    )


def test_check_while_a_writer_casts(damaged: Path, expected: Tables) -> None:
    """The check reads one snapshot: readings cast meanwhile (each a reading and six lines
    in one transaction) never show up half-written as orphan lines or missing lines."""
    import threading

    from yimao_db.db import writer_engine

    stop = threading.Event()
    cast_ids: list[int] = []
    engine = writer_engine(str(damaged))

    def writer() -> None:  # a cast every 20 ms or so, not a loop that holds the GIL
        while not stop.wait(0.02):
            cast_ids.append(
                cast(coins="2,1,3,0,2,2", at="2024-06-30T10:00", question="meanwhile", db=engine)
            )

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        reports = [doctor.run(damaged.as_posix(), expected) for _ in range(3)]
    finally:
        stop.set()
        thread.join()
        engine.dispose()
    assert [r.problems for r in reports] == [[], [], []]
    assert len(cast_ids) > 0
    assert doctor.check(damaged.as_posix(), expected) == []


def test_a_chart_view_that_lies_is_caught_by_the_rules(damaged: Path, expected: Tables) -> None:
    """A view replaced behind yimao's back: the schema check sees other SQL, and the charts,
    compared value by value with the rules' chart of each reading's inputs, name the column."""
    from yimao_db.kb.views import views

    sql = views()["v_reading_line"].sql.replace(" strength,", " '旺' AS strength,")
    assert "'旺' AS strength" in sql
    report = problems_after(
        damaged, expected, "DROP VIEW v_reading_line", f"CREATE VIEW v_reading_line AS {sql}"
    )
    assert "schema: v_reading_line: view SQL differs from what the migrations create" in report
    assert "strength is '旺', the rules give" in report


# --- the journal: values that break the journal's own rules --------------------------------


def test_journal_values_that_break_the_journals_rules(
    damaged: Path, expected: Tables, capsys: pytest.CaptureFixture[str]
) -> None:
    """What `note`, `outcome` and `tag` refuse is found when stored (their CHECKs and types
    held, so `yimao check` said ok before), by the functions the commands validate with; and
    `untag` takes off any stored tag, a bad one included."""
    from yimao_db.journaling import add_note, record_outcome, tag

    db = damaged.as_posix()
    for text in ("one", "two", "three", "four"):
        add_note(VALUES, text, db=db)
    record_outcome(VALUES, "hit", on="2024-02-05", note="came", db=db)
    record_outcome(NOTATION, "miss", on="2025-12-22", db=db)
    record_outcome(COINS, "partial", on="2024-07-01", db=db)  # cast 2024-06-30 (Shanghai)
    record_outcome(PILLARS, "hit", on="1990-01-01", db=db)  # pillars: no day to be after
    tag(VALUES, ["a", "b", "c", "d", "e", "f", "g"], db=db)
    assert doctor.check(db, expected) == []
    report = problems_after(
        damaged,
        expected,
        f"UPDATE reading_outcome SET happened_on = 'yesterday' WHERE reading_id = {VALUES}",
        "UPDATE reading_outcome SET happened_on = '2026-02-30', recorded_at = 'zzz', "
        f"note = '  ' WHERE reading_id = {NOTATION}",
        f"UPDATE reading_outcome SET happened_on = '2024-06-29' WHERE reading_id = {COINS}",
        "UPDATE reading_note SET noted_at = 'zzz' WHERE id = 1",
        "UPDATE reading_note SET note = '' WHERE id = 2",
        "UPDATE reading_note SET note = 'a' || char(0) || 'b' WHERE id = 3",
        "UPDATE reading_note SET noted_at = '2026-01-01T09:00:00' WHERE id = 4",
        "UPDATE reading_tag SET tag = 'a,b' WHERE tag = 'a'",
        "UPDATE reading_tag SET tag = 'a b' WHERE tag = 'b'",
        "UPDATE reading_tag SET tag = '' WHERE tag = 'c'",
        "UPDATE reading_tag SET tag = 'esc' || char(27) || '[31m' WHERE tag = 'd'",
        "UPDATE reading_tag SET tag = 'e' || char(769) WHERE tag = 'e'",  # NFD of é
        "UPDATE reading_tag SET tag = ' f' WHERE tag = 'f'",
    )
    date_form = "expected a date like 2026-11-30 (YYYY-MM-DD)"
    local = "expected a local time with its offset, to the second, like 2026-11-30T09:15:00+08:00"
    one_word = (
        "expected one word of 1 to 64 characters, without spaces, commas or control characters"
    )
    assert report.splitlines() == [
        f"journal: reading_outcome reading_id={COINS}: the outcome's date 2024-06-29 is before "
        "the reading was cast, on 2024-06-30: expected that day or a later one",
        f"journal: reading_note id=1: bad noted_at 'zzz': {local}",
        "journal: reading_note id=2: the note is empty: expected some text",
        "journal: reading_note id=3: the note contains a NUL character, which cannot be stored",
        f"journal: reading_note id=4: bad noted_at '2026-01-01T09:00:00': {local}",
        f"journal: reading_outcome reading_id={VALUES}: bad happened_on 'yesterday': {date_form}",
        f"journal: reading_tag reading_id={VALUES} tag='': bad tag '': {one_word}",
        f"journal: reading_tag reading_id={VALUES} tag=' f': tag ' f' is not stored as typed "
        "tags are (NFC, trimmed): expected 'f'",
        f"journal: reading_tag reading_id={VALUES} tag='a b': bad tag 'a b': {one_word}",
        f"journal: reading_tag reading_id={VALUES} tag='a,b': bad tag 'a,b': {one_word}",
        f"journal: reading_tag reading_id={VALUES} tag='esc\\x1b[31m': bad tag 'esc\\x1b[31m': "
        f"{one_word}",
        f"journal: reading_tag reading_id={VALUES} tag='e\u0301': tag 'e\\u0301' is not stored "
        "as typed tags are (NFC, trimmed): expected '\\xe9'",
        f"journal: reading_outcome reading_id={NOTATION}: bad happened_on '2026-02-30': "
        f"{date_form}",
        f"journal: reading_outcome reading_id={NOTATION}: bad recorded_at 'zzz': {local}",
        f"journal: reading_outcome reading_id={NOTATION}: the outcome's note is empty: "
        "expected some text",
    ]
    # untag takes off every stored tag, as typed or NFC and trimmed (é for e + U+0301)
    argv = ["untag", str(VALUES), "a,b", "a b", "", "esc\x1b[31m", "é", "f", "--db", db]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert (out, err) == (
        f"reading {VALUES} untagged 'a,b', 'a b', '', 'esc\\x1b[31m', 'e\u0301', ' f'\n",
        "",
    )
    assert not [p for p in doctor.check(db, expected) if p.table == "reading_tag"]
