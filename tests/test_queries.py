"""Every example query of docs/queries.md runs and gives the right answer.

The expected answers are computed here from the seed rows and the oracle (the Python
rules), not from SQL, so a wrong join in a query or a wrong row in a table fails. The
queries run on the backend the fixtures build (SQLite, or PostgreSQL with
YIMAO_TEST_BACKEND=postgresql), on a database holding the readings of ``CASTS``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers import seeded
from sqlalchemy import Connection, text

from yimao_db.db import reader_engine, writer_engine
from yimao_db.kb.expected.chart import ExpectedChart, expected_chart
from yimao_db.kb.facts import read_tsv
from yimao_db.kb.rules.ganzhi import sixty
from yimao_db.kb.rules.signs import by_name
from yimao_db.kb.rules.stages import stage_names
from yimao_db.kb.schema import metadata
from yimao_db.readings import cast, chart

QUERIES_MD = Path(__file__).resolve().parent.parent / "docs" / "queries.md"
Rows = Sequence[Sequence[Any]]

SIX_CLASHES = {frozenset(p) for p in ("子午", "丑未", "寅申", "卯酉", "辰戌", "巳亥")}


def queries() -> dict[str, str]:
    """The ``sql`` blocks of docs/queries.md by their ``-- query: NAME`` first line."""
    found: dict[str, str] = {}
    for block in re.findall(r"```sql\n(.*?)```", QUERIES_MD.read_text(encoding="utf-8"), re.S):
        first = block.splitlines()[0]
        m = re.fullmatch(r"-- query: (\w+)", first)
        assert m, f"query block without a '-- query: NAME' first line: {first!r}"
        assert m[1] not in found, f"two queries named {m[1]}"
        found[m[1]] = block.strip().rstrip(";")
    return found


# readings the reading queries run on: reading 1 has its world void and no 卦身 (乾 on a
# 甲子 day: 戌 void, 卦身 巳 absent); reading 2 has its world moving alone (鎮星 shows)
CASTS: tuple[dict[str, Any], ...] = (
    {"lines": "777777", "day": "甲子", "month": "寅"},
    {"lines": "777779", "day": "甲子", "month": "寅", "hour": "丙寅"},
    {"lines": "789678", "pillars": "甲辰,丙寅,戊戌,庚申", "matter": "wealth"},
    {"lines": "666666", "day": "丁卯", "month": "申", "matter": "worry"},
    {"lines": "乾之姤", "day": "辛未", "month": "辰", "hour": "壬辰", "matter": "office"},
    {"lines": "978686", "day": "癸亥", "month": "子"},
    {"lines": "姤:1,4", "day": "庚午", "month": "午", "matter": "lawsuit"},
    {"lines": "979797", "day": "甲戌", "month": "酉"},
)
CHARTS: dict[int, ExpectedChart] = {}  # reading id → the oracle's chart, filled by the fixture


@pytest.fixture(scope="module")
def conn(module_db: str) -> Iterator[Connection]:
    """The shared module database with the readings of CASTS, read-only."""
    engine = writer_engine(module_db)
    try:
        for item in CASTS:
            kwargs = {k: v for k, v in item.items() if k != "lines"}
            c = chart(cast(item["lines"], db=engine, **kwargs), db=engine)
            values = "".join(str(line.value) for line in c.lines)
            CHARTS[c.reading_id] = expected_chart(
                values,
                day_gz=c.day_gz,
                month_branch=c.month_branch,
                hour_gz=c.hour_gz,
                year_gz=c.year_gz,
                matter=c.matter,
                about=c.use[0].subject if c.use else None,  # a matter implies its subject
            )
    finally:
        engine.dispose()
    reader = reader_engine(module_db)
    with reader.connect() as connection:
        yield connection
    reader.dispose()


def fired() -> dict[int, list[tuple[str, int | None]]]:
    return {rid: [(s["sign"], s["position"]) for s in c.signs] for rid, c in CHARTS.items()}


@cache
def seed() -> dict[str, list[dict[str, Any]]]:
    return seeded()


def lines() -> list[dict[str, Any]]:
    return seed()["hexagram_line"]


def hexagrams() -> dict[int, dict[str, Any]]:
    return {h["king_wen"]: h for h in seed()["hexagram"]}


# --- the checks, one per query ------------------------------------------------------------


def check_hidden_wealth(rows: Rows) -> None:
    has_wealth = {ln["king_wen"] for ln in lines() if ln["relative"] == "妻財"}
    assert [r[0] for r in rows] == sorted(set(hexagrams()) - has_wealth)
    assert (44, "天風姤", 2, "甲寅", "辛亥") in [tuple(r) for r in rows]
    assert all(r[1] == hexagrams()[r[0]]["name"] for r in rows)


def check_liuchong(rows: Rows) -> None:
    by_kw: dict[int, dict[int, str]] = {}
    for ln in lines():
        by_kw.setdefault(ln["king_wen"], {})[ln["position"]] = ln["branch"]
    expected = sorted(
        kw
        for kw, b in by_kw.items()
        if all(frozenset((b[p], b[p + 3])) in SIX_CLASHES for p in (1, 2, 3))
    )
    assert [r[0] for r in rows] == expected == [1, 2, 25, 29, 30, 34, 51, 52, 57, 58]
    names = {r[1] for r in rows}
    assert {"天雷無妄", "雷天大壯", "乾為天", "坤為地"} <= names


def check_month_break_yin(rows: Rows) -> None:
    expected = {(ln["king_wen"], ln["position"]) for ln in lines() if ln["branch"] == "申"}
    assert {(r[0], r[2]) for r in rows} == expected
    assert len(rows) == len(expected) > 0
    assert all(r[3].endswith("申") for r in rows)


def check_month_break_yin_branches(rows: Rows) -> None:
    assert [tuple(r) for r in rows] == [("申", sum(ln["branch"] == "申" for ln in lines()))]


def _tengshe_keys() -> set[tuple[str, str, str]]:
    """(passage, table, key) of every cited row whose primary key holds 騰蛇."""
    found = set()
    for name, rows in seed().items():
        table = metadata.tables[name]
        if "passage" not in table.c or name == "passage_citation":
            continue
        keys = [c.name for c in table.primary_key.columns]
        for row in rows:
            values = [str(row[k]) for k in keys]
            if row["passage"] and "騰蛇" in values:
                found.add((row["passage"], name, "|".join(values)))
    return found


def check_tengshe_citations(rows: Rows) -> None:
    got = {(r[0], r[2], r[3]) for r in rows}
    assert got == _tengshe_keys()
    assert len(rows) == len(got)
    assert {("7.4", "spirit_attribute", "騰蛇"), ("7.2", "general", "騰蛇")} <= got
    assert {r[1] for r in rows if r[2] in ("spirit", "spirit_attribute", "month_spirit")} == {
        "六神章第七"
    }
    # the signs' rule tables name 騰蛇 in their keys too (the day spirit under a star, §8.8)
    assert ("7.4", "spirit_nature", "騰蛇") in got


def check_tengshe_passages(rows: Rows) -> None:
    expected = sorted(
        {p for p, _, _ in _tengshe_keys()}, key=lambda p: tuple(int(x) for x in p.split("."))
    )
    assert [r[2] for r in rows] == expected
    assert {"7.2", "7.4", "7.10"} <= set(expected)


def test_the_tengshe_prose_names_the_passages_the_query_returns() -> None:
    """The sentence that introduces ``tengshe_passages`` names every passage it returns (it
    named three of five)."""
    text_ = QUERIES_MD.read_text(encoding="utf-8")
    before = text_[: text_.index("-- query: tengshe_passages")]
    prose = before[before.rindex("```\n") : before.rindex("```sql")]
    named = set(re.findall(r"§(\d+\.\d+)", prose))
    assert named == {p for p, _, _ in _tengshe_keys()} == {"7.2", "7.4", "7.10", "8.8", "8.9"}


def _between_guangui() -> set[tuple[str, int, int]]:
    hx = hexagrams()
    return {
        (hx[ln["king_wen"]]["palace"], ln["king_wen"], ln["position"])
        for ln in lines()
        if ln["is_between"] and ln["relative"] == "官鬼"
    }


PALACE_ORDER = "乾震坎艮坤巽離兌"


def check_between_guangui(rows: Rows) -> None:
    assert {(r[0], r[1], r[3]) for r in rows} == _between_guangui()
    order = [PALACE_ORDER.index(r[0]) for r in rows]
    assert order == sorted(order)
    assert ("乾", 1, "乾為天", 4, "壬午") in [tuple(r) for r in rows]


def check_between_guangui_count(rows: Rows) -> None:
    counts = Counter(p for p, _, _ in _between_guangui())
    assert [(r[0], r[1], r[2]) for r in rows] == [
        (p, i, counts.get(p, 0)) for i, p in enumerate(PALACE_ORDER, start=1)
    ]


def check_speech(rows: Rows) -> None:
    assert [tuple(r[:2]) for r in rows] == [("朱雀", "言")]
    assert tuple(rows[0][3:5]) == ("火", "南")


def check_moving_guangui_between(rows: Rows) -> None:
    expected = {
        (u["use"], u["domain"], u["role"])
        for u in seed()["between_use"]
        if u["use"] in ("obstacle", "worry")
    }
    assert {(r[0], r[1], r[2]) for r in rows} == expected
    assert Counter(r[0] for r in rows) == {"obstacle": 7, "worry": 4}
    assert {r[5] for r in rows} == {"10.2", "10.4"}
    assert ("worry", "家宅", "內憂") in {(r[0], r[1], r[2]) for r in rows}


def check_marriage_between(rows: Rows) -> None:
    assert [tuple(r[:4]) for r in rows] == [("helper", "婚姻", "媒妁", "supported")]


def check_names(rows: Rows) -> None:
    assert [tuple(r) for r in rows] == [
        ("general", "玄武", "variant"),
        ("spirit", "玄武", "variant"),
    ]


def check_column_docs(rows: Rows) -> None:
    assert [r[1] for r in rows] == [c.name for c in metadata.tables["day_spirit"].columns]
    assert all(r[2] for r in rows)
    assert tuple(rows[1][1:4:2]) == ("position", "1..6")


def check_void_world_missing_body(rows: Rows) -> None:
    expected = [
        rid
        for rid, signs in sorted(fired().items())
        if {"世空", "卦身缺"} <= {name for name, _ in signs}
    ]
    assert [r[0] for r in rows] == expected and 1 in expected


def check_sign_frequency(rows: Rows) -> None:
    counts = Counter(name for signs in fired().values() for name, _ in signs)
    readings = Counter(name for signs in fired().values() for name in {n for n, _ in signs})
    signs = by_name()
    expected = {
        (name, signs[name].weight, signs[name].polarity, n, readings[name])
        for name, n in counts.items()
    }
    assert {tuple(r) for r in rows} == expected
    assert [r[3] for r in rows] == sorted((r[3] for r in rows), reverse=True)
    assert len(rows) > 30


def check_signs_of_a_reading(rows: Rows) -> None:
    order = {name: i for i, name in enumerate(by_name())}
    expected = sorted(fired()[1], key=lambda s: (-by_name()[s[0]].weight, s[1] or 0, order[s[0]]))
    assert [(r[0], r[1]) for r in rows] == expected
    assert ("世空", 6) in expected and ("卦身缺", None) in expected
    assert all(r[5] == by_name()[r[0]].meaning for r in rows)


def check_stars_that_show(rows: Rows) -> None:
    expected = sorted(
        (rid, name) for rid, signs in fired().items() for name, _ in signs if name.endswith("特現")
    )
    assert sorted(tuple(r) for r in rows) == expected
    assert (2, "鎮星特現") in expected


def check_helped_by_the_day(rows: Rows) -> None:
    expected = [
        (rid, line["position"], line["ganzhi"], line["relative"])
        for rid, c in sorted(CHARTS.items())
        for line in c.lines
        if line["day_generates"] or line["day_helps"]
    ]
    assert [tuple(r) for r in rows] == expected and expected


def check_theory_passages(rows: Rows) -> None:
    notes = {r["passage"]: r["note"] for r in read_tsv("theory")}
    assert {r[0]: r[2] for r in rows} == notes
    assert len(rows) <= 10


# --- queries over stored readings: a database with known casts --------------------------

_RNG = random.Random(2026)
RANDOM_CASTS = [  # (values, day, month branch): random casts on random days
    (
        "".join(_RNG.choice("6789") for _ in range(6)),
        _RNG.choice([g.name for g in sixty()]),
        _RNG.choice("子丑寅卯辰巳午未申酉戌亥"),
    )
    for _ in range(60)
]


def _oracle_charts() -> list[ExpectedChart]:
    return [expected_chart(v, day_gz=d, month_branch=m) for v, d, m in RANDOM_CASTS]


def check_readings_by_primary(rows: Rows) -> None:
    counts = Counter(c.head["primary_king_wen"] for c in _oracle_charts())
    assert {r[0]: r[2] for r in rows} == dict(counts)
    assert [r[2] for r in rows] == sorted((r[2] for r in rows), reverse=True)


def check_readings_wealth_void(rows: Rows) -> None:
    want = [
        i
        for i, c in enumerate(_oracle_charts(), 1)
        if any(line["relative"] == "妻財" and line["is_void"] for line in c.lines)
    ]
    assert want and [r[0] for r in rows] == want


def check_lines_by_stage(rows: Rows) -> None:
    """Every cast line's stage, counted from the rules, in the stages' order; and what the
    view gives grouped by stage (checked beside it, in
    :func:`test_lines_by_stage_is_the_views_grouping`)."""
    counts = Counter(line["stage"] for c in _oracle_charts() for line in c.lines)
    order = stage_names()
    assert [(r[0], r[1]) for r in rows] == [(s, counts[s]) for s in order if s in counts]
    assert sum(r[1] for r in rows) == 6 * len(RANDOM_CASTS)


READING_QUERIES = ("readings_by_primary", "readings_wealth_void", "lines_by_stage")


@pytest.fixture(scope="module")
def reading_conn(built_db_factory: Callable[[], str]) -> Iterator[Connection]:
    """A built database of the backend under test holding the readings of RANDOM_CASTS, ids
    1.. in order."""
    db = built_db_factory()
    engine = writer_engine(db)
    for values, day, month in RANDOM_CASTS:
        cast(values, day=day, month=month, db=engine)
    engine.dispose()
    reader = reader_engine(db)
    with reader.connect() as connection:
        yield connection
    reader.dispose()


CHECKS: dict[str, Callable[[Rows], None]] = {
    name.removeprefix("check_"): fn
    for name, fn in dict(globals()).items()
    if name.startswith("check_") and callable(fn)
}


# --- the tests ----------------------------------------------------------------------------


def test_every_query_has_a_check_and_every_check_a_query() -> None:
    assert set(queries()) == set(CHECKS)


def test_the_standard_questions_have_queries() -> None:
    assert {
        "hidden_wealth",
        "liuchong",
        "month_break_yin",
        "tengshe_passages",
        "between_guangui",
        "speech",
        "moving_guangui_between",
        "void_world_missing_body",
        "sign_frequency",
    } <= set(queries())


@pytest.mark.parametrize("name", sorted(queries()))
def test_query_is_portable(name: str) -> None:
    sql = queries()[name].lower()
    for word in ("group_concat", "string_agg", "ifnull", "ilike", "::", "`"):
        assert word not in sql, f"{name}: {word!r} is not portable SQLite/PostgreSQL SQL"


@pytest.mark.parametrize("name", sorted(set(queries()) - set(READING_QUERIES)))
def test_query_answer(conn: Connection, name: str) -> None:
    rows = conn.execute(text(queries()[name])).all()
    CHECKS[name](rows)


@pytest.mark.parametrize("name", READING_QUERIES)
def test_reading_query_answer(reading_conn: Connection, name: str) -> None:
    rows = reading_conn.execute(text(queries()[name])).all()
    CHECKS[name](rows)


def test_lines_by_stage_is_the_views_grouping(reading_conn: Connection) -> None:
    """The documented count of the lines by stage, from the readings' keys, is the natural
    grouping of v_reading_line."""
    natural = "SELECT stage, COUNT(*) FROM v_reading_line GROUP BY stage"
    rows = reading_conn.execute(text(queries()["lines_by_stage"])).all()
    assert sorted(map(tuple, rows)) == sorted(map(tuple, reading_conn.execute(text(natural))))
