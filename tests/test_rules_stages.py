"""Twelve stages and seasonal strength (§1.7, standard 六爻)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import stages
from yimao_db.kb.rules.elements import controls, generates

ELEMENTS = facts().elements
BRANCHES = facts().branches


def test_stage_names() -> None:
    assert stages.stage_names() == tuple("長生 沐浴 冠帶 臨官 帝旺 衰 病 死 墓 絕 胎 養".split())
    assert stages.strength_names() == tuple("旺相休囚死")


def test_birth_places() -> None:
    got = {e: stages.birth_branch(e) for e in ELEMENTS}
    assert got == {"木": "亥", "火": "寅", "金": "巳", "水": "申", "土": "申"}
    assert all(stages.stage(e, b) == "長生" for e, b in got.items())


def test_tombs() -> None:
    got = {e: stages.stage_branch(e, "墓") for e in ELEMENTS}
    assert got == {"木": "未", "火": "戌", "金": "丑", "水": "辰", "土": "辰"}


def test_earth_shares_water() -> None:
    assert all(stages.stage("土", b) == stages.stage("水", b) for b in BRANCHES)


def test_wood_runs_forward() -> None:
    wood = [stages.stage("木", b) for b in "亥子丑寅卯辰巳午未申酉戌"]
    assert wood == list(stages.stage_names())


@given(st.sampled_from(ELEMENTS), st.sampled_from(BRANCHES))
def test_stage_and_stage_branch_invert(element: str, branch: str) -> None:
    assert stages.stage_branch(element, stages.stage(element, branch)) == branch


def test_strength_in_the_wood_month() -> None:
    got = {e: stages.strength("寅", e) for e in ELEMENTS}
    assert got == {"木": "旺", "火": "相", "水": "休", "金": "囚", "土": "死"}


@given(st.sampled_from(BRANCHES), st.sampled_from(ELEMENTS))
def test_strength_rule(month: str, element: str) -> None:
    season = facts().branch_element[month]
    expected = {
        season: "旺",
        generates(season): "相",
        next(e for e in ELEMENTS if generates(e) == season): "休",
        next(e for e in ELEMENTS if controls(e) == season): "囚",
        controls(season): "死",
    }
    assert stages.strength(month, element) == expected[element]


def test_earth_months() -> None:
    assert {stages.strength(m, "土") for m in "辰戌丑未"} == {"旺"}
    assert stages.strength("辰", "金") == "相"
