"""The six spirits 六神 and the twelve generals of the noble (§7.2–7.12), 五子遁 and 五虎遁.

Typed in: the six spirits with their element, direction, the day stems they govern and
their place in the 子 month (``seed/data/spirits.tsv``, §7.3–7.6, §7.10), the twelve
generals (``generals.tsv``, §7.2) and the 陽貴/陰貴 branches of each day stem
(``noble.tsv``, a decision: docs/rules.md chapter 7). Everything else is counted from those.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from yimao_db.kb.facts import facts, read_tsv

YANG_NOBLE = "陽貴"
YIN_NOBLE = "陰貴"
HALVES = (YANG_NOBLE, YIN_NOBLE)
FIRST_MONTH = "寅"  # the civil year's months run 寅 … 丑
FIRST_MONTH_STEM_OF_JIA_YEAR = "丙"  # 五虎遁: a 甲 year opens with 丙寅
FIRST_HOUR_STEM_OF_JIA_DAY = "甲"  # 五子遁: a 甲 day opens with 甲子


class Spirit(NamedTuple):
    ordinal: int  # 1..6 in the cycle 青龍 朱雀 勾陳 騰蛇 白虎 玄武
    name: str
    element: str
    direction: str
    day_stems: str  # the stems whose days it opens on line 1 (§7.2)
    zi_month: str  # the branch it stands on in the 子 month (大六神, §7.10)
    month_step: int  # +1 forward, -1 backward, per month
    passage: str  # where the book describes it


@cache
def spirits() -> tuple[Spirit, ...]:
    """The six spirits in their cycle order."""
    return tuple(
        Spirit(
            ordinal=i,
            name=row["name"],
            element=row["element"],
            direction=row["direction"],
            day_stems=row["day_stems"],
            zi_month=row["zi_month"],
            month_step={"forward": 1, "backward": -1}[row["month_move"]],
            passage=row["passage"],
        )
        for i, row in enumerate(read_tsv("spirits"), 1)
    )


def spirit_names() -> tuple[str, ...]:
    return tuple(s.name for s in spirits())


AUSPICIOUS, INAUSPICIOUS = "吉", "凶"


@cache
def natures() -> dict[str, str]:
    """Which spirits count as auspicious 吉 and which as inauspicious 凶 for §7.9.

    Typed in (``seed/data/spirit_nature.tsv``): 青龍 and 勾陳 吉, 白虎 凶 as the book says
    (§7.3, §7.8); 朱雀, 玄武 and 騰蛇 凶 by decision, the book never saying so.
    """
    return {row["spirit"]: row["nature"] for row in read_tsv("spirit_nature")}


def day_spirits(day_stem: str) -> list[str]:
    """Spirits of lines 1..6 on a day of ``day_stem`` (司日, §7.2).

    Line 1 gets the spirit that governs the stem (甲乙 青龍 … 壬癸 玄武); lines 2..6 follow
    the cycle.
    """
    names = spirit_names()
    start = next(i for i, s in enumerate(spirits()) if day_stem in s.day_stems)
    return [names[(start + k) % 6] for k in range(6)]


def _stem_after(anchor: str, steps: int) -> str:
    stems = facts().stems
    return stems[(stems.index(anchor) + steps) % 10]


def hour_stem(day_stem: str, hour_branch: str) -> str:
    """五子遁: the hour's stem.

    甲己 days → 甲子, 乙庚 → 丙子, 丙辛 → 戊子, 丁壬 → 庚子, 戊癸 → 壬子.

    Hours run on through the sixty, twelve a day, from 甲子 at the 子 hour of a 甲 day.
    """
    f = facts()
    day, hour = f.stems.index(day_stem), f.branches.index(hour_branch)
    return _stem_after(FIRST_HOUR_STEM_OF_JIA_DAY, 12 * day + hour)


def hour_spirits(day_stem: str, hour_branch: str) -> list[str]:
    """司時 (§7.2): the day rule applied to the hour's stem (甲子 day, 寅 hour → 丙 → 朱雀)."""
    return day_spirits(hour_stem(day_stem, hour_branch))


def month_stem(year_stem: str, month_branch: str) -> str:
    """五虎遁 (standard, docs/rules.md chapter 12).

    甲己 years → 丙寅, 乙庚 → 戊寅, 丙辛 → 庚寅, 丁壬 → 壬寅, 戊癸 → 甲寅.

    Months run on through the sixty, twelve a year from 寅 (子 and 丑 close the year).
    """
    f = facts()
    year = f.stems.index(year_stem)
    month = (f.branches.index(month_branch) - f.branches.index(FIRST_MONTH)) % 12
    return _stem_after(FIRST_MONTH_STEM_OF_JIA_YEAR, 12 * year + month)


def month_spirits(month_branch: str) -> dict[str, str]:
    """大六神 / 司月 (§7.2, §7.10): spirit → the branch it stands on in that month.

    In the 子 month 青龍 子, 朱雀 卯, 勾陳 亥, 白虎 午, 玄武 酉 move forward one branch a
    month; 騰蛇 starts on 午 and moves backward.
    """
    branches = facts().branches
    months = branches.index(month_branch)
    return {
        s.name: branches[(branches.index(s.zi_month) + s.month_step * months) % 12]
        for s in spirits()
    }


@cache
def general_names() -> tuple[str, ...]:
    """貴人 騰蛇 朱雀 六合 勾陳 青龍 天空 白虎 太常 玄武 太陰 天后 (§7.2)."""
    return tuple(row["name"] for row in read_tsv("generals"))


def noble_half(hour_branch: str) -> str:
    """Hours 卯辰巳午未申 use the 陽貴, 酉戌亥子丑寅 the 陰貴 (a decision, docs/rules.md ch. 7)."""
    index = facts().branches.index(hour_branch)
    return YANG_NOBLE if 3 <= index <= 8 else YIN_NOBLE


@cache
def _noble_table() -> dict[str, dict[str, str]]:
    return {
        row["day_stem"]: {YANG_NOBLE: row["yang_noble"], YIN_NOBLE: row["yin_noble"]}
        for row in read_tsv("noble")
    }


def noble_branch(day_stem: str, half: str) -> str:
    """Where the 貴人 stands on a day of ``day_stem`` (standard 陽貴/陰貴 songs)."""
    if half not in HALVES:
        raise ValueError(f"half must be one of {HALVES}, got {half!r}")
    return _noble_table()[day_stem][half]


def generals(day_stem: str, half: str) -> dict[str, str]:
    """司貴 (§7.2): branch → general, from the 貴人's branch forward (陽貴) or backward (陰貴).

    Worked example: 辛 day, 辰 hour (陽貴) → 貴人 寅, 青龍 未, 白虎 酉.
    """
    branches = facts().branches
    start = branches.index(noble_branch(day_stem, half))
    step = 1 if half == YANG_NOBLE else -1
    return {branches[(start + step * k) % 12]: g for k, g in enumerate(general_names())}
