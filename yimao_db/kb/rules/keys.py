"""Which hexagrams a cast is, and the keys a reading stores beside its lines.

The bits a hexagram's name stands for and every hexagram's King Wen number and names by its
bits (§3); the primary and changed hexagram of six cast values (§11); the keys derived from
the lines at insert: primary and changed hexagram, moving-line mask and najia half (§4.3).

Kept apart from :mod:`yimao_db.kb.rules.hexagrams` and the chart oracle
(:mod:`yimao_db.kb.expected.chart`) so that casting one reading imports only the rules it needs.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from yimao_db.kb.facts import facts
from yimao_db.kb.rules.lines import changed_yang, is_yang, moving_mask
from yimao_db.kb.rules.najia import table_half

__all__ = [
    "KEYS_MEMO",
    "KEY_COLUMNS",
    "ReadingKeys",
    "bits_from_name",
    "changed_bits",
    "names_by_bits",
    "primary_bits",
    "reading_keys",
]


def bits_from_name(name: str) -> str:
    """Bits of a received full name: ``X為Y`` is X doubled, else upper image + lower image."""
    by_image = {t.image: t for t in facts().trigrams.values()}
    by_name = facts().trigrams
    if len(name) == 3 and name[1] == "為":
        return by_name[name[0]].bits * 2
    upper, lower = by_image[name[0]], by_image[name[1]]
    return lower.bits + upper.bits


def primary_bits(values: str) -> str:
    """The primary hexagram 本卦 of six values 6..9, line 1 first."""
    return "".join("1" if is_yang(int(v)) else "0" for v in values)


def changed_bits(values: str) -> str:
    """The hexagram the lines change into 變卦: the old lines turned into their opposite."""
    return "".join("1" if changed_yang(int(v)) else "0" for v in values)


@cache
def names_by_bits() -> dict[str, tuple[int, str, str]]:
    """(King Wen number, name, short name) of every hexagram by its bits (§3)."""
    return {bits_from_name(name): (kw, name, short) for kw, name, short in facts().hexagram_names}


class ReadingKeys(NamedTuple):
    """What a reading stores beside its lines, derived from them at insert."""

    primary_kw: int
    changed_kw: int | None  # None when no line moves
    moving_mask: int  # bit p-1 set when line p moves
    najia_half: str  # the half of the najia table its chart uses (§4.3)


# The columns of reading that hold the keys (the rest are its inputs), in this order.
KEY_COLUMNS = ReadingKeys._fields

# 4,096 casts × 2 najia variants × 3 half-years (None for pillars): every valid argument
KEYS_MEMO = 4096 * 2 * 3


@lru_cache(maxsize=KEYS_MEMO)
def reading_keys(values: str, najia_variant: str, half_year: str | None) -> ReadingKeys:
    """The keys of a reading cast as ``values`` (six digits 6..9, line 1 first).

    Remembered per argument (a pure function of them; an import meets the same casts again
    and again): after the first call for a cast its keys are one look-up."""
    names = names_by_bits()
    mask = moving_mask(values)
    return ReadingKeys(
        primary_kw=names[primary_bits(values)][0],
        changed_kw=names[changed_bits(values)][0] if mask else None,
        moving_mask=mask,
        najia_half=table_half(najia_variant, half_year),
    )
