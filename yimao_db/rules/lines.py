"""The six lines of a hexagram and its hidden spirits 伏神 (§4, §6, §8, §11)."""

from __future__ import annotations

from dataclasses import dataclass

from yimao_db.facts import facts
from yimao_db.rules.elements import relative
from yimao_db.rules.najia import line_stem_branch


@dataclass(frozen=True)
class Line:
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
