"""納甲: stems and branches on the lines (§4.1–§4.6), with the seasonal variant (§4.3)."""

from __future__ import annotations

from yimao_db.kb.facts import facts
from yimao_db.kb.vocab import AFTER_SUMMER, AFTER_WINTER, FIXED, SEASONAL


def trigram_of_bits(bits: str) -> str:
    """The trigram whose bits (bottom first) are ``bits``."""
    return next(t.name for t in facts().trigrams.values() if t.bits == bits)


def table_half(variant: str, half_year: str | None) -> str:
    """The half of the najia table a reading uses (§4.3): the 夏至後 stems only with the
    seasonal variant after the summer solstice; the fixed table (冬至後) otherwise."""
    return AFTER_SUMMER if variant == SEASONAL and half_year == AFTER_SUMMER else AFTER_WINTER


def lower_upper(bits: str) -> tuple[str, str]:
    """The inner (lower) and outer (upper) trigram names of a hexagram."""
    return trigram_of_bits(bits[:3]), trigram_of_bits(bits[3:])


def line_stem_branch(
    bits: str, position: int, variant: str = FIXED, half_year: str = AFTER_WINTER
) -> tuple[str, str]:
    """The najia stem and branch of line ``position`` (1..6) of hexagram ``bits``.

    With the seasonal variant after 夏至, 乾 and 坤 swap their inner and outer stems;
    branches and the six children never change.
    """
    if not 1 <= position <= 6:
        raise ValueError(f"position must be 1..6, got {position}")
    inner = position <= 3
    trigram = facts().trigrams[trigram_of_bits(bits[:3] if inner else bits[3:])]
    swap = variant == SEASONAL and half_year == AFTER_SUMMER and trigram.name in ("乾", "坤")
    stem = trigram.inner_stem if inner != swap else trigram.outer_stem
    branches = trigram.inner_branches if inner else trigram.outer_branches
    return stem, branches[(position - 1) % 3]


FORWARD, BACKWARD = "forward", "backward"


def branch_course(trigram: str) -> tuple[str, str]:
    """Where a trigram's branches start (its line 1 as the inner trigram) and which way they
    run: the yang trigrams forward over the yang branches (§4.4), 坤 and the three daughters
    backward over the yin branches (§4.5, §4.6)."""
    branches = facts().branches
    inner = facts().trigrams[trigram].inner_branches
    step = (branches.index(inner[1]) - branches.index(inner[0])) % 12
    return inner[0], FORWARD if step == 2 else BACKWARD
