"""Hexagrams from their names (§3); primary, changed and nuclear (互卦) bits (§11)."""

from __future__ import annotations

from yimao_db.facts import facts


def bits_from_name(name: str) -> str:
    """Bits of a received full name: ``X為Y`` is X doubled, else upper image + lower image."""
    by_image = {t.image: t for t in facts().trigrams.values()}
    by_name = facts().trigrams
    if len(name) == 3 and name[1] == "為":
        return by_name[name[0]].bits * 2
    upper, lower = by_image[name[0]], by_image[name[1]]
    return lower.bits + upper.bits


def nuclear_bits(bits: str) -> str:
    """互卦: lines 2–4 as the lower trigram, 3–5 as the upper."""
    return bits[1:4] + bits[2:5]


def changed_bits(values: str) -> str:
    """The changed hexagram's bits from six line values 6..9 (old lines flip)."""
    return "".join({"6": "1", "7": "1", "8": "0", "9": "0"}[v] for v in values)


def primary_bits(values: str) -> str:
    """The primary hexagram's bits from six line values 6..9 (7, 9 yang)."""
    return "".join("1" if v in "79" else "0" for v in values)
