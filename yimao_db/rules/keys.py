"""The keys a reading stores beside its lines, derived from them at insert: primary and
changed hexagram, moving-line mask and najia half (§4.3, §11).

Kept apart from the chart oracle (:mod:`yimao_db.rules.chart`) so that casting one reading
imports only the rules the keys need.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

from yimao_db.rules.hexagrams import changed_bits, names_by_bits, primary_bits
from yimao_db.rules.lines import moving_mask
from yimao_db.rules.najia import table_half

__all__ = ["KEYS_MEMO", "KEY_COLUMNS", "ReadingKeys", "reading_keys"]


@dataclass(frozen=True)
class ReadingKeys:
    """What a reading stores beside its lines, derived from them at insert."""

    primary_kw: int
    changed_kw: int | None  # None when no line moves
    moving_mask: int  # bit p-1 set when line p moves
    najia_half: str  # the half of the najia table its chart uses (§4.3)


# The columns of reading that hold the keys (the rest are its inputs), in this order.
KEY_COLUMNS = tuple(f.name for f in fields(ReadingKeys))

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
