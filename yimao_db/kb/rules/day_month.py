"""How the day and the month of a reading act on a branch (standard 六爻 practice).

The day: a branch its decade does not reach is void 旬空; the branch opposite the day's
clashes it 日衝; the element of a branch stands at a stage of its twelve at the day branch.
The month: the branch opposite the month's is broken 月破; an element is 旺相休囚死 in it;
the 大六神 stand on branches (§7.2, §7.10).

Both, as a branch acting on a line's branch (:func:`bearing`): it stands on the line 臨 (the
same branch), generates it 生, helps it 扶 (the same element), controls it 剋, combines with
it 合 (§8.13, §9.2), clashes it 衝 (日衝; 月破 for the month) or punishes it 刑 (§8.14).
"""

from __future__ import annotations

from dataclasses import dataclass

from yimao_db.kb.facts import facts
from yimao_db.kb.rules.elements import relation
from yimao_db.kb.rules.ganzhi import ordinal_of, void_branches
from yimao_db.kb.rules.relations import clash, harmony, punishments
from yimao_db.kb.rules.spirits import month_spirits, spirit_names
from yimao_db.kb.rules.stages import stage, strength


def is_void(day_gz: str, branch: str) -> bool:
    """旬空: ``branch`` is one of the two branches the day's decade does not reach."""
    return branch in void_branches(ordinal_of(day_gz[0], day_gz[1]))


def is_day_clash(day_branch: str, branch: str) -> bool:
    """日衝: ``branch`` clashes the day's branch."""
    return clash(day_branch) == branch


def day_stage(day_branch: str, branch: str) -> str:
    """The stage of ``branch``'s element at the day branch (長生 … 養)."""
    return stage(facts().branch_element[branch], day_branch)


def is_month_break(month_branch: str, branch: str) -> bool:
    """月破: ``branch`` clashes the month's branch."""
    return clash(month_branch) == branch


def month_strength(month_branch: str, branch: str) -> str:
    """旺相休囚死 of ``branch``'s element in the month."""
    return strength(month_branch, facts().branch_element[branch])


def spirits_on(month_branch: str, branch: str) -> list[str]:
    """The 大六神 standing on ``branch`` in the month, in cycle order (none, one or two)."""
    placed = month_spirits(month_branch)
    return [name for name in spirit_names() if placed[name] == branch]


@dataclass(frozen=True)
class Bearing:
    """How a branch acting on a line (the day's or the month's) stands to the line's branch."""

    is_on: bool  # 臨: it is the line's own branch
    relation: str  # how it stands to the line's element: elements.relation(line, actor)
    generates: bool  # 生: its element generates the line's
    helps: bool  # 扶: its element is the line's (臨 included)
    controls: bool  # 剋: its element controls the line's
    combines: bool  # 合: the two branches form a 六合
    clashes: bool  # 衝: the two branches clash (日衝; for the month, 月破)
    punishes: bool  # 刑: it punishes the line's branch (三刑, 自刑 included)


GENERATES_ME, SAME, CONTROLS_ME = "generates_me", "same", "controls_me"


def bearing(actor: str, branch: str) -> Bearing:
    """What the branch ``actor`` (a day or month branch) does to a line of ``branch``."""
    element = facts().branch_element
    rel = relation(element[branch], element[actor])
    return Bearing(
        is_on=actor == branch,
        relation=rel,
        generates=rel == GENERATES_ME,
        helps=rel == SAME,
        controls=rel == CONTROLS_ME,
        combines=harmony(actor) == branch,
        clashes=clash(actor) == branch,
        punishes=any(p.first == actor and p.second == branch for p in punishments()),
    )
