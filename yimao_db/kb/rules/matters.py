"""The kinds of matter asked about (§9.5) and what each wants or fears on the two bodies.

Typed in: the four matters with their English kinds (``seed/data/matter.tsv``) and the
book's preferences (``seed/data/matter_preference.tsv``, seeded as ``matter_preference``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from yimao_db.kb.facts import read_tsv

WANT, FEAR, RELIEF = "want", "fear", "relief"


@dataclass(frozen=True)
class Preference:
    matter: str  # 功名 財利 獄訟 憂患
    attitude: str  # want, fear or relief
    item_kind: str  # relative, spirit, general, shensha or condition
    item: str


@cache
def matters() -> dict[str, str]:
    """Each matter's canonical name → its English kind (功名 → office)."""
    return {row["name"]: row["kind"] for row in read_tsv("matter")}


@cache
def preferences() -> tuple[Preference, ...]:
    """The rows of §9.5: what each matter wants or fears on the bodies, and its reliefs."""
    return tuple(
        Preference(row["matter"], row["attitude"], row["item_kind"], row["item"])
        for row in read_tsv("matter_preference")
    )
