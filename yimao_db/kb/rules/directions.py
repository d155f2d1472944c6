"""The 24 directions 二十四山 (§1.8 commentary).

Typed in as eight groups of three (``seed/data/directions.tsv``), clockwise from 壬:
壬子癸 北, 丑艮寅 東北, 甲卯乙 東, 辰巽巳 東南, 丙午丁 南, 未坤申 西南, 庚酉辛 西, 戌乾亥 西北.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from yimao_db.kb.facts import read_tsv

EIGHT_DIRECTIONS = ("北", "東北", "東", "東南", "南", "西南", "西", "西北")


@dataclass(frozen=True)
class Mountain:
    ordinal: int  # 1..24 clockwise from 壬
    name: str  # a stem, branch or trigram
    direction: str  # one of the eight directions


@cache
def directions_24() -> tuple[Mountain, ...]:
    """The 24 directions in clockwise order from 壬."""
    out: list[Mountain] = []
    for row in read_tsv("directions"):
        for name in row["mountains"]:
            out.append(Mountain(len(out) + 1, name, row["direction"]))
    return tuple(out)
