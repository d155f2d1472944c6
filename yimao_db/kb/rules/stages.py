"""The twelve stages 長生十二宮 and seasonal strength 旺相休囚死 (§1.7, standard).

§1.7 names the places of growth and death (四生四死) and 旺/相; the tables are standard 六爻
practice (docs/rules.md chapter 1). Both are derived here from the branches and the element
cycles; only the stage and strength names are typed in (``seed/data/stages.tsv``,
``strengths.tsv``).
"""

from __future__ import annotations

from functools import cache

from yimao_db.kb.facts import facts, read_tsv
from yimao_db.kb.rules.elements import relation

EARTH = "土"
EARTH_LODGES_WITH = "水"  # 水土同宮: 土 runs its stages with 水 (standard 六爻)
PEAK_TO_BIRTH = 4  # 長生 stands four branches before 帝旺


@cache
def stage_names() -> tuple[str, ...]:
    """長生 沐浴 冠帶 臨官 帝旺 衰 病 死 墓 絕 胎 養, in the order they run forward."""
    return tuple(row["name"] for row in read_tsv("stages"))


@cache
def _strengths() -> tuple[tuple[str, str], ...]:
    return tuple((row["name"], row["relation"]) for row in read_tsv("strengths"))


def strength_names() -> tuple[str, ...]:
    """旺 相 休 囚 死."""
    return tuple(name for name, _ in _strengths())


def peak_branch(element: str) -> str:
    """帝旺: the element's mid-season branch (子 水, 卯 木, 午 火, 酉 金; 土 as 水)."""
    f = facts()
    own = EARTH_LODGES_WITH if element == EARTH else element
    return next(b for i, b in enumerate(f.branches) if i % 3 == 0 and f.branch_element[b] == own)


def birth_branch(element: str) -> str:
    """長生: 木 亥, 火 寅, 金 巳, 水 申, 土 申."""
    branches = facts().branches
    return branches[(branches.index(peak_branch(element)) - PEAK_TO_BIRTH) % 12]


def stage(element: str, branch: str) -> str:
    """The stage of ``element`` at ``branch``, counting forward from its 長生."""
    branches = facts().branches
    if element not in facts().elements:
        raise ValueError(f"unknown element {element!r}")
    steps = (branches.index(branch) - branches.index(birth_branch(element))) % 12
    return stage_names()[steps]


def stage_branch(element: str, stage_name: str) -> str:
    """Where ``element`` reaches ``stage_name`` (e.g. 墓 of 木 → 未)."""
    branches = facts().branches
    start = branches.index(birth_branch(element))
    return branches[(start + stage_names().index(stage_name)) % 12]


def strength(month_branch: str, element: str) -> str:
    """旺相休囚死 of ``element`` in the month of ``month_branch``.

    The month's element is 旺; what it generates 相; what generates it 休; what controls
    it 囚; what it controls 死 (standard practice) — :func:`relation` from the season's side.
    """
    season = facts().branch_element[month_branch]
    wanted = relation(season, element)
    return next(name for name, rel in _strengths() if rel == wanted)
