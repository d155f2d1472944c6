"""How the day and the month of a reading act on a branch (standard 六爻 practice).

The day: a branch its decade does not reach is void 旬空; the branch opposite the day's
clashes it 日衝; the element of a branch stands at a stage of its twelve at the day branch.
The month: the branch opposite the month's is broken 月破; an element is 旺相休囚死 in it;
the 大六神 stand on branches (§7.2, §7.10).
"""

from __future__ import annotations

from yimao_db.facts import facts
from yimao_db.rules.ganzhi import ordinal_of, void_branches
from yimao_db.rules.relations import clash
from yimao_db.rules.spirits import month_spirits, spirit_names
from yimao_db.rules.stages import stage, strength


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
