"""The mansion culminating at dusk 昏中 in each month (§8.12 commentary).

Typed in (``seed/data/dusk.tsv``): 寅月 胃, 卯 畢, 辰 井, 巳 柳, 午 翼, 未 軫, 申 氐, 酉 尾,
戌 斗, 亥 女, 子 室, 丑 奎 (canonical 翼 and 斗 for the seed's 翌 and 鬥). A line whose
mansion is the month's 昏中 is auspicious.
"""

from __future__ import annotations

from functools import cache

from yimao_db.facts import read_tsv


@cache
def _table() -> dict[str, str]:
    return {row["month_branch"]: row["mansion"] for row in read_tsv("dusk")}


def dusk_mansion(month_branch: str) -> str:
    """The 昏中 mansion of the month of ``month_branch``."""
    return _table()[month_branch]
