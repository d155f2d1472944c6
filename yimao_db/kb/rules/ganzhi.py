"""The sixty 甲子 (§1.2), their 旬 and 旬空 (standard) and 納音 (§1.5)."""

from __future__ import annotations

from typing import NamedTuple

from yimao_db.kb.facts import facts
from yimao_db.kb.rules.elements import generates


class GanZhi(NamedTuple):
    ordinal: int  # 1..60
    stem: str
    branch: str

    @property
    def name(self) -> str:
        return self.stem + self.branch


def ganzhi(ordinal: int) -> GanZhi:
    """The ``ordinal``-th of the sixty (1 = 甲子)."""
    if not 1 <= ordinal <= 60:
        raise ValueError(f"ganzhi ordinal must be 1..60, got {ordinal}")
    f = facts()
    return GanZhi(ordinal, f.stems[(ordinal - 1) % 10], f.branches[(ordinal - 1) % 12])


def sixty() -> list[GanZhi]:
    return [ganzhi(n) for n in range(1, 61)]


def ordinal_of(stem: str, branch: str) -> int:
    """Ordinal of a stem-branch pair; ValueError if the pair is not one of the sixty."""
    f = facts()
    s, b = f.stems.index(stem), f.branches.index(branch)
    if s % 2 != b % 2:
        raise ValueError(f"{stem}{branch} is not one of the sixty")
    return next(n for n in range(1, 61) if (n - 1) % 10 == s and (n - 1) % 12 == b)


def xun_head(ordinal: int) -> int:
    """Ordinal of the 甲 that opens this ganzhi's decade."""
    return ordinal - (ordinal - 1) % 10


def void_branches(ordinal: int) -> tuple[str, str]:
    """The two branches the decade does not reach, in branch order (甲子旬 → 戌亥)."""
    branches = facts().branches
    head = xun_head(ordinal)
    first = (head - 1 + 10) % 12
    return branches[first], branches[(first + 1) % 12]


def nayin_index(ordinal: int) -> int:
    """Which of the thirty 納音 pairs (1..30) this ganzhi belongs to."""
    return (ordinal + 1) // 2


def nayin_element(pair: int) -> str:
    """The 納音 element of pair 1..30 by the 大衍 rule of §1.5.

    Add the numbers of the pair's two stems and two branches, take them from 49, keep the
    remainder mod 5 (0 counts as 5): 1 水 2 火 3 木 4 金 5 土, then take what that generates.
    """
    numbers = facts().nayin_numbers
    first, second = ganzhi(2 * pair - 1), ganzhi(2 * pair)
    total = sum(numbers[c] for c in (first.stem, first.branch, second.stem, second.branch))
    remainder = (49 - total) % 5 or 5
    base = {1: "水", 2: "火", 3: "木", 4: "金", 5: "土"}[remainder]
    return generates(base)


def nayin_name(pair: int) -> str:
    """The 納音 name (婁景's song) of pair 1..30."""
    return facts().nayin_names[pair - 1]
