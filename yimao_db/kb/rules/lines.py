"""The six lines: what a cast value means (§2.3, §4.5), the najia lines of a hexagram with
their relatives (§4, §6), and its hidden spirits 伏神 (standard, §11)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from yimao_db.kb.facts import facts
from yimao_db.kb.rules.elements import relative
from yimao_db.kb.rules.najia import line_stem_branch

# --- a cast value 6..9 (§2.3) ---------------------------------------------------------------

VALUES = (6, 7, 8, 9)
VALUE_NAMES = {6: "交", 7: "單", 8: "拆", 9: "重"}  # §2.3: 三仰 交, 一奇 單, 二奇 拆, 三覆 重


def is_yang(value: int) -> bool:
    """7 (少陽) and 9 (老陽) are yang lines; 6 and 8 yin (§2.3)."""
    return value in (7, 9)


def is_moving(value: int) -> bool:
    """The old lines 6 and 9 change; the young ones do not (老變少不變, §4.5)."""
    return value in (6, 9)


def changed_yang(value: int) -> bool:
    """Whether the line is yang once the old lines have changed into their opposite."""
    return is_yang(value) != is_moving(value)


def all_moving_name(values: Sequence[int]) -> str | None:
    """用九 when all six lines are old yang 9, 用六 when all are old yin 6 (the Zhouyi's
    names for a cast whose every line moves, standard); None otherwise."""
    if len(values) == 6 and all(v == 9 for v in values):
        return "用九"
    if len(values) == 6 and all(v == 6 for v in values):
        return "用六"
    return None


def moving_mask(values: str) -> int:
    """The moving lines of six values (line 1 first) as a bit mask: bit p-1 for line p."""
    return sum(1 << i for i, v in enumerate(values) if is_moving(int(v)))


def is_sole(mask: int, position: int) -> bool:
    """Whether line ``position`` is the only moving line of ``mask`` (§8.7)."""
    return mask == 1 << (position - 1)


def mask_lines(mask: int) -> tuple[int, ...]:
    """The line numbers of a moving-line mask, bottom first (0b1001 → 1, 4)."""
    return tuple(p for p in range(1, 7) if mask >> (p - 1) & 1)


# --- the najia lines of a hexagram ----------------------------------------------------------


class Line(NamedTuple):
    position: int
    yang: bool
    stem: str
    branch: str
    element: str
    relative: str

    @property
    def ganzhi(self) -> str:
        return self.stem + self.branch


def lines(bits: str, palace_element: str) -> list[Line]:
    """The six najia lines, bottom first, with relatives taken against ``palace_element``."""
    out = []
    for position in range(1, 7):
        stem, branch = line_stem_branch(bits, position)
        element = facts().branch_element[branch]
        out.append(
            Line(
                position,
                bits[position - 1] == "1",
                stem,
                branch,
                element,
                relative(palace_element, element),
            )
        )
    return out


def hidden_spirits(own: list[Line], pure: list[Line]) -> list[Line]:
    """Relatives absent from ``own``, taken from the palace's pure hexagram at the same position.

    Each hides under the hexagram's own line at that position (standard 京房, §11).
    """
    present = {line.relative for line in own}
    return [line for line in pure if line.relative not in present]
