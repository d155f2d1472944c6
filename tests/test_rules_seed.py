"""The rule tables' seed rows (seed/s20_rules.py): counts, citations, self-checks, schema."""

from __future__ import annotations

import copy
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from helpers import seed_script

from yimao_db.kb.facts import facts, read_tsv
from yimao_db.kb.rules import directions, dusk, relations, spirits, stages
from yimao_db.kb.schema import metadata
from yimao_db.kb.schema import rules as schema

Rows = dict[str, list[dict[str, Any]]]

COUNTS = {
    "spirit": 6,
    "general": 12,
    "stage": 12,
    "strength": 5,
    "branch_relation": 64,
    "branch_triad": 12,
    "stem_combination": 10,
    "twelve_stage": 60,
    "seasonal_strength": 60,
    "direction_24": 24,
    "dusk_mansion": 12,
    "day_spirit": 60,
    "month_spirit": 72,
    "noble_hour": 12,
    "noble_general": 240,
    "hour_stem": 120,
    "month_stem": 120,
    "element_relation": 25,
    "line_value": 4,
    "all_moving": 64,
    "line_transform": 576,
    "hour_spirit": 720,
    "month_spirit_branch": 68,
    "branch_on_day": 720,
    "branch_in_month": 144,
    "month_mansion": 336,
}


@cache
def _module() -> ModuleType:
    return seed_script("s20_rules")


@pytest.fixture
def seed_rows() -> Rows:
    rows: Rows = _module().rows({})
    return rows


def test_counts(seed_rows: Rows) -> None:
    assert {t: len(r) for t, r in seed_rows.items()} == COUNTS


def test_rows_fit_their_tables(seed_rows: Rows) -> None:
    for name, rows in seed_rows.items():
        table = metadata.tables[name]
        columns = {c.name for c in table.columns}
        for row in rows:
            assert set(row) == columns, name
        key = [c.name for c in table.primary_key.columns]
        assert len({tuple(r[k] for k in key) for r in rows}) == len(rows), name


def test_every_column_has_a_comment_and_every_table_a_doc() -> None:
    for name in COUNTS:
        table = metadata.tables[name]
        assert all(c.comment for c in table.columns), name
    for table in metadata.tables.values():
        if table.info["section"] == schema.SECTION:
            assert table.comment and table.comment.strip()


def test_citations(seed_rows: Rows) -> None:
    passages = {f"{r['chapter_no']}.{r['passage_no']}" for r in read_tsv("passages")}
    for name, rows in seed_rows.items():
        for row in rows:
            assert row["basis"] in ("book", "standard", "decision"), name
            assert row["passage"] is None or row["passage"] in passages, (name, row)
            assert row["basis"] != "book" or row["passage"], name
    assert {r["basis"] for r in seed_rows["noble_hour"]} == {"decision"}
    assert {r["passage"] for r in seed_rows["dusk_mansion"]} == {"8.12"}
    assert {r["passage"] for r in seed_rows["direction_24"]} == {"1.8"}
    assert {r["passage"] for r in seed_rows["day_spirit"]} == {"7.2"}


def test_checks_pass(seed_rows: Rows) -> None:
    assert _module().checks(seed_rows) == []


def test_checks_catch_failures(seed_rows: Rows) -> None:
    broken = copy.deepcopy(seed_rows)
    broken["branch_relation"] = [
        r for r in broken["branch_relation"] if (r["relation"], r["first"]) != ("六合", "丑")
    ]
    for row in broken["month_spirit"]:
        if (row["month_branch"], row["spirit"]) == ("寅", "騰蛇"):
            row["branch"] = "午"
    for row in broken["twelve_stage"]:
        if (row["element"], row["branch"]) == ("土", "辰"):
            row["stage"] = "養"
    for row in broken["noble_general"]:
        if (row["day_stem"], row["half"], row["branch"]) == ("辛", "陽貴", "寅"):
            row["general"] = "天后"
    messages = _module().checks(broken)
    assert len(messages) == 4
    for table in ("branch_relation", "month_spirit", "twelve_stage", "noble_general"):
        assert any(m.startswith(table) for m in messages)


def test_directions() -> None:
    names = "".join(m.name for m in directions.directions_24())
    assert names == "壬子癸丑艮寅甲卯乙辰巽巳丙午丁未坤申庚酉辛戌乾亥"
    direction = {m.name: m.direction for m in directions.directions_24()}
    assert (direction["子"], direction["艮"], direction["坤"]) == ("北", "東北", "西南")
    assert [m.ordinal for m in directions.directions_24()] == list(range(1, 25))
    assert set(facts().branches) <= set(names)


def test_dusk() -> None:
    got = "".join(dusk.dusk_mansion(b) for b in "寅卯辰巳午未申酉戌亥子丑")
    assert got == "胃畢井柳翼軫氐尾斗女室奎"
    assert set(got) <= set(facts().mansions)


def test_schema_domains_match_the_rules() -> None:
    assert schema.BRANCH_RELATIONS == relations.BRANCH_RELATIONS
    assert set(schema.PUNISHMENT_KINDS) == {p.kind for p in relations.punishments()}
    assert schema.TRIAD_ROLES == relations.TRIAD_ROLES
    assert set(relations.TRIAD_ROLES) <= set(stages.stage_names())
    assert schema.HALVES == spirits.HALVES
    assert schema.EIGHT_DIRECTIONS == directions.EIGHT_DIRECTIONS
    assert {s.direction for s in spirits.spirits()} <= set(schema.SPIRIT_DIRECTIONS)
