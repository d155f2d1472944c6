"""Branch and stem relations (§1, §8.14): the tables of docs/rules.md and their counts."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from helpers import seed_script
from hypothesis import given
from hypothesis import strategies as st

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import relations

BRANCHES = facts().branches


@cache
def _seed_rows() -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = seed_script("s20_rules").rows({})
    return rows


@pytest.fixture
def seed_rows() -> dict[str, list[dict[str, Any]]]:
    return _seed_rows()


def pairs(text: str) -> list[tuple[str, str]]:
    return [(p[0], p[1]) for p in text.split()]


def test_six_harmonies_are_the_table_of_the_rules() -> None:
    assert relations.six_harmonies() == pairs("子丑 寅亥 卯戌 辰酉 巳申 午未")


def test_six_clashes_are_the_table_of_the_rules() -> None:
    assert relations.six_clashes() == pairs("子午 丑未 寅申 卯酉 辰戌 巳亥")


def test_six_harms_are_the_table_of_the_rules() -> None:
    assert relations.six_harms() == pairs("子未 丑午 寅巳 卯辰 申亥 酉戌")


@given(st.sampled_from(BRANCHES))
def test_partner_functions_agree_with_the_tables(branch: str) -> None:
    for partner, table in (
        (relations.clash, relations.six_clashes()),
        (relations.harmony, relations.six_harmonies()),
    ):
        other = partner(branch)
        assert other != branch and partner(other) == branch
        assert (branch, other) in table or (other, branch) in table


def test_each_branch_in_exactly_one_pair_of_each_kind() -> None:
    for table in (relations.six_harmonies(), relations.six_clashes(), relations.six_harms()):
        members = [b for pair in table for b in pair]
        assert sorted(members, key=BRANCHES.index) == list(BRANCHES)


def test_triads() -> None:
    got = {t.element: "".join(t.roles) for t in relations.triads()}
    assert got == {"水": "申子辰", "木": "亥卯未", "火": "寅午戌", "金": "巳酉丑"}
    water = next(t for t in relations.triads() if t.element == "水")
    assert water.roles == {"申": "長生", "子": "帝旺", "辰": "墓"}
    assert sorted((b for t in relations.triads() for b in t.roles), key=BRANCHES.index) == list(
        BRANCHES
    )


def test_punishments() -> None:
    got = {(p.first, p.second): p.kind for p in relations.punishments()}
    assert set(got) == set(pairs("寅巳 巳申 申寅 丑戌 戌未 未丑 子卯 卯子 辰辰 午午 酉酉 亥亥"))
    assert {b for (b, c), kind in got.items() if kind == "自刑"} == set("辰午酉亥")
    assert all((b == c) == (kind == "自刑") for (b, c), kind in got.items())
    assert len({got[p] for p in pairs("寅巳 巳申 申寅")}) == 1
    assert len({got[p] for p in pairs("丑戌 戌未 未丑")}) == 1
    assert got[("子", "卯")] == got[("卯", "子")]


def test_advancing_and_retreating() -> None:
    expected = pairs("亥子 寅卯 巳午 申酉 丑辰 辰未 未戌 戌丑")
    assert sorted(relations.advancing()) == sorted(expected)
    assert sorted(relations.retreating()) == sorted((b, a) for a, b in expected)
    element = facts().branch_element
    assert all(element[a] == element[b] for a, b in relations.advancing())


def test_stem_combinations() -> None:
    assert relations.stem_combinations() == [
        ("甲", "己", "土"),
        ("乙", "庚", "金"),
        ("丙", "辛", "水"),
        ("丁", "壬", "木"),
        ("戊", "癸", "火"),
    ]


def test_seed_row_counts_and_symmetry(seed_rows: dict[str, list[dict[str, Any]]]) -> None:
    rows = seed_rows["branch_relation"]
    count = {r: sum(1 for x in rows if x["relation"] == r) for r in relations.BRANCH_RELATIONS}
    assert count == {"六合": 12, "六衝": 12, "六害": 12, "三刑": 12, "進神": 8, "退神": 8}
    keys = {(x["relation"], x["first"], x["second"]) for x in rows}
    assert len(keys) == len(rows)
    for relation in relations.SYMMETRIC:
        assert all((r, b, a) in keys for r, a, b in keys if r == relation)
    assert all((x["kind"] is None) == (x["relation"] != "三刑") for x in rows)
    # a join on (line branch, other branch) finds 子午 from either side
    assert ("六衝", "午", "子") in keys and ("六衝", "子", "午") in keys
    assert len(seed_rows["branch_triad"]) == 12
    combos = seed_rows["stem_combination"]
    assert len(combos) == 10
    assert {(c["first"], c["second"]): c["element"] for c in combos}[("己", "甲")] == "土"
