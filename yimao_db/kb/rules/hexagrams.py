"""Hexagrams: the facts of a whole hexagram read from its lines: 互卦, 六衝卦, 六合卦 and the
lines holding the 卦身 (§9.1, standard), and every hexagram as its palace lays it out (§3.3,
§8, §9, §11). Names, and the hexagrams of cast values, are in :mod:`yimao_db.kb.rules.keys`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import bodies, stars
from yimao_db.kb.rules.keys import names_by_bits
from yimao_db.kb.rules.lines import Line, hidden_spirits, lines
from yimao_db.kb.rules.najia import lower_upper
from yimao_db.kb.rules.palaces import between_lines, palace_walk, response_line, world_line
from yimao_db.kb.rules.relations import clash, harmony


def nuclear_bits(bits: str) -> str:
    """互卦: lines 2–4 as the lower trigram, 3–5 as the upper."""
    return bits[1:4] + bits[2:5]


PAIRS = ((1, 4), (2, 5), (3, 6))  # a line and its counterpart in the other trigram


def is_liuchong(branches: Sequence[str]) -> bool:
    """六衝卦: the branches of lines 1–4, 2–5 and 3–6 all clash (``branches`` line 1 first)."""
    return all(clash(branches[a - 1]) == branches[b - 1] for a, b in PAIRS)


def is_liuhe(branches: Sequence[str]) -> bool:
    """六合卦: the branches of lines 1–4, 2–5 and 3–6 all combine 六合."""
    return all(harmony(branches[a - 1]) == branches[b - 1] for a, b in PAIRS)


def gua_shen_positions(branches: Sequence[str], gua_shen: str) -> tuple[int, ...]:
    """The lines whose branch is the 卦身 (none when it is absent, two for 兩身, §9.1, §9.3)."""
    return tuple(p for p, b in enumerate(branches, 1) if b == gua_shen)


# --- the 64 hexagrams as the book lays them out ---------------------------------------------


@dataclass(frozen=True)
class Hexagram:
    """A hexagram with everything the book derives from its place in its palace."""

    king_wen: int
    bits: str
    name: str
    short_name: str
    lower: str  # inner trigram
    upper: str  # outer trigram
    palace: str
    palace_element: str
    pure_bits: str  # the palace's pure hexagram 本宮, its trigram doubled
    generation: int  # 0 本宮 .. 5 五世, 6 遊魂, 7 歸魂
    sequence: int  # 1..64 in the palace-by-palace walk
    world: int
    response: int
    between: tuple[int, int]
    five_star: str
    world_mansion_jingfang: str
    mansions: dict[int, str]  # 黃金策 mansion of each line
    gua_shen: str
    shi_shen_line: int
    lines: tuple[Line, ...]  # bottom first, fixed najia, relatives against the palace
    hidden: tuple[Line, ...]  # 伏神, each at the position of its 飛神


@cache
def hexagrams() -> dict[str, Hexagram]:
    """Every hexagram by its bits, derived from the palace walk (§3.3, §8, §9, §11)."""
    f = facts()
    names = names_by_bits()
    out = {}
    for member in palace_walk():
        kw, name, short = names[member.bits]
        element = f.trigrams[member.palace].element
        pure = f.trigrams[member.palace].bits * 2
        own = lines(member.bits, element)
        world, response = world_line(member.generation), response_line(member.generation)
        lower, upper = lower_upper(member.bits)
        out[member.bits] = Hexagram(
            king_wen=kw,
            bits=member.bits,
            name=name,
            short_name=short,
            lower=lower,
            upper=upper,
            palace=member.palace,
            palace_element=element,
            pure_bits=pure,
            generation=member.generation,
            sequence=member.sequence,
            world=world,
            response=response,
            between=between_lines(world, response),
            five_star=stars.five_star(member.sequence),
            world_mansion_jingfang=stars.jingfang_world_mansion(member.sequence),
            mansions=stars.huangjin_mansions(member.palace, member.generation, world, response),
            gua_shen=bodies.gua_shen(world, own[world - 1].yang),
            shi_shen_line=bodies.shi_shen_line(own[world - 1].branch),
            lines=tuple(own),
            hidden=tuple(hidden_spirits(own, lines(pure, element))),
        )
    return out
