"""The eight palaces 八宮 (§3.3) and world/response by generation (§8.3–8.5)."""

from __future__ import annotations

from dataclasses import dataclass

from yimao_db.kb.facts import facts

GENERATIONS = 8  # 本宮, 一世..五世, 遊魂, 歸魂


def flip(bits: str, positions: range | list[int]) -> str:
    """Flip the lines at the given 1-based positions."""
    out = list(bits)
    for p in positions:
        out[p - 1] = "0" if out[p - 1] == "1" else "1"
    return "".join(out)


def generation_bits(pure: str, generation: int) -> str:
    """Bits of the hexagram of ``generation`` 0..7 in the palace whose pure hexagram is ``pure``.

    Change lines 1..g for g = 1..5; 遊魂 changes line 4 of the 五世 back; 歸魂 restores
    lines 1–3 of the 遊魂 to the pure trigram.
    """
    if not 0 <= generation < GENERATIONS:
        raise ValueError(f"generation must be 0..7, got {generation}")
    if generation <= 5:
        return flip(pure, range(1, generation + 1))
    wandering = flip(flip(pure, range(1, 6)), [4])
    if generation == 6:
        return wandering
    return pure[:3] + wandering[3:]


@dataclass(frozen=True)
class PalaceMember:
    palace: str  # the palace's trigram
    generation: int  # 0..7
    bits: str
    sequence: int  # 1..64 in the palace-by-palace walk (京房 order, 本宮 → 歸魂)


def palace_walk() -> list[PalaceMember]:
    """All 64 hexagrams palace by palace in 京房 order 乾 震 坎 艮 坤 巽 離 兌."""
    palaces = sorted(facts().trigrams.values(), key=lambda t: t.jingfang_order)
    walk: list[PalaceMember] = []
    for trigram in palaces:
        pure = trigram.bits * 2
        for g in range(GENERATIONS):
            walk.append(PalaceMember(trigram.name, g, generation_bits(pure, g), len(walk) + 1))
    return walk


def world_line(generation: int) -> int:
    """The world line: 本宮 6, 一世..五世 1..5, 遊魂 4, 歸魂 3."""
    return {0: 6, 6: 4, 7: 3}.get(generation, generation)


def response_line(generation: int) -> int:
    """The response is three lines from the world."""
    world = world_line(generation)
    return world - 3 if world > 3 else world + 3


def between_lines(world: int, response: int) -> tuple[int, int]:
    """The two lines strictly between world and response (§10.1)."""
    low = min(world, response)
    return low + 1, low + 2
