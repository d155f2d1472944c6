"""Relations between branches and between stems (§1.7, §8.14; the tables are standard).

Branches are taken by their index 0..11 from 子. The symmetric relations come from sums and
differences of indices; 三合 from the twelve stages; 進神/退神 from the branch elements;
only the 三刑 groups are typed in (``seed/data/punishments.tsv``). Pairs are returned once,
first member earlier in branch order; directed relations as (from, to).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from yimao_db.kb.facts import facts, read_tsv
from yimao_db.kb.rules.spirits import month_stem
from yimao_db.kb.rules.stages import stage_branch

SIX_HARMONY = "六合"
SIX_CLASH = "六衝"
SIX_HARM = "六害"
PUNISHMENT = "三刑"
ADVANCE = "進神"
RETREAT = "退神"
SYMMETRIC = (SIX_HARMONY, SIX_CLASH, SIX_HARM)
BRANCH_RELATIONS = (SIX_HARMONY, SIX_CLASH, SIX_HARM, PUNISHMENT, ADVANCE, RETREAT)
TRIAD_ROLES = ("長生", "帝旺", "墓")  # the three stages a 三合 joins


def _index(branch: str) -> int:
    return facts().branches.index(branch)


def _pairs_by_sum(total: int) -> list[tuple[str, str]]:
    branches = facts().branches
    return [
        (a, b)
        for i, a in enumerate(branches)
        for j, b in enumerate(branches)
        if i < j and (i + j) % 12 == total
    ]


def six_harmonies() -> list[tuple[str, str]]:
    """六合: indices summing to 1 mod 12 — 子丑 寅亥 卯戌 辰酉 巳申 午未."""
    return _pairs_by_sum(1)


def six_harms() -> list[tuple[str, str]]:
    """六害: indices summing to 7 mod 12 — 子未 丑午 寅巳 卯辰 申亥 酉戌."""
    return _pairs_by_sum(7)


def six_clashes() -> list[tuple[str, str]]:
    """六衝: branches six apart — 子午 丑未 寅申 卯酉 辰戌 巳亥."""
    branches = facts().branches
    return [(branches[i], branches[i + 6]) for i in range(6)]


def clash(branch: str) -> str:
    """The branch that clashes ``branch`` (月破, 日衝)."""
    return facts().branches[(_index(branch) + 6) % 12]


def harmony(branch: str) -> str:
    """The branch that combines with ``branch`` in a 六合."""
    return facts().branches[(1 - _index(branch)) % 12]


@dataclass(frozen=True)
class Triad:
    """A 三合: the 長生, 帝旺 and 墓 branches of one element."""

    element: str
    roles: dict[str, str]  # branch -> role 長生 / 帝旺 / 墓


@cache
def triads() -> tuple[Triad, ...]:
    """三合 申子辰 水, 亥卯未 木, 寅午戌 火, 巳酉丑 金.

    An element forms a triad when its 帝旺 branch is of its own element; 土, which keeps
    水's stages, forms none.
    """
    f = facts()
    out = []
    for element in f.elements:
        roles = {stage_branch(element, role): role for role in TRIAD_ROLES}
        if f.branch_element[stage_branch(element, "帝旺")] == element:
            out.append(Triad(element, roles))
    return tuple(out)


@dataclass(frozen=True)
class Punishment:
    """One directed 三刑: ``first`` punishes ``second`` (自刑 when they are equal)."""

    first: str
    second: str
    kind: str


@cache
def punishments() -> tuple[Punishment, ...]:
    """三刑: 寅→巳→申→寅, 丑→戌→未→丑, 子↔卯, and 自刑 辰 午 酉 亥 on themselves."""
    out = []
    for row in read_tsv("punishments"):
        group, kind = row["branches"], row["kind"]
        for i, branch in enumerate(group):
            target = branch if row["form"] == "self" else group[(i + 1) % len(group)]
            out.append(Punishment(branch, target, kind))
    return tuple(out)


@cache
def advancing() -> tuple[tuple[str, str], ...]:
    """進神: a branch changing to the nearest branch of its element ahead of it.

    Only changes less than half the circle count as forward (亥→子, 寅→卯, 巳→午, 申→酉,
    丑→辰, 辰→未, 未→戌, 戌→丑); 子→亥 is eleven steps forward, i.e. one step back.
    """
    f = facts()
    out = []
    for i, branch in enumerate(f.branches):
        for step in range(1, 6):
            ahead = f.branches[(i + step) % 12]
            if f.branch_element[ahead] == f.branch_element[branch]:
                out.append((branch, ahead))
                break
    return tuple(out)


@cache
def retreating() -> tuple[tuple[str, str], ...]:
    """退神: each 進神 reversed (§8.14)."""
    return tuple((b, a) for a, b in advancing())


def stem_combinations() -> list[tuple[str, str, str]]:
    """五合 (first, second, element): stems five apart.

    甲己 土, 乙庚 金, 丙辛 水, 丁壬 木, 戊癸 火.

    The element a pair becomes is that of the stem its 辰 month carries by 五虎遁
    (甲己 years → 戊辰 → 土; the classical 逢辰而化).
    """
    f = facts()
    return [
        (f.stems[i], f.stems[i + 5], f.stem_element[month_stem(f.stems[i], "辰")]) for i in range(5)
    ]
