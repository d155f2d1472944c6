"""The mansion culminating at dusk 昏中 in each month (§8.12 commentary).

Typed in (``seed/data/dusk.tsv``): 寅月 胃, 卯 畢, 辰 井, 巳 柳, 午 翼, 未 軫, 申 氐, 酉 尾,
戌 斗, 亥 女, 子 室, 丑 奎 (canonical 翼 and 斗 for the seed's 翌 and 鬥). A line whose
mansion is the month's 昏中 is auspicious.

旦中, the mansion culminating at dawn, is inauspicious; the book gives no table for it.
**Decision**: the mansion culminating at dawn in a month is the one culminating at dusk in
the month six months on (the opposite branch). The sun's arc above the horizon in one
season is its arc below the horizon half a year later, so the meridian at dawn is where the
meridian stands at dusk six months on (to within the unequal widths of the mansions).
"""

from __future__ import annotations

from functools import cache

from yimao_db.kb.facts import read_tsv
from yimao_db.kb.rules.relations import clash


@cache
def _table() -> dict[str, str]:
    return {row["month_branch"]: row["mansion"] for row in read_tsv("dusk")}


def dusk_mansion(month_branch: str) -> str:
    """The 昏中 mansion of the month of ``month_branch``."""
    return _table()[month_branch]


def dawn_mansion(month_branch: str) -> str:
    """The 旦中 mansion of the month of ``month_branch``: the dusk mansion of the opposite
    month (寅 → 申's 氐)."""
    return dusk_mansion(clash(month_branch))
