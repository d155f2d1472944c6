"""The two bodies (§9.1): 卦身 (月卦身) and 世身."""

from __future__ import annotations

from yimao_db.facts import facts


def gua_shen(world_position: int, world_is_yang: bool) -> str:
    """Count from 子 (yang world) or 午 (yin world) up to the world's position."""
    branches = facts().branches
    start = 0 if world_is_yang else 6
    return branches[(start + world_position - 1) % 12]


def shi_shen_line(world_branch: str) -> int:
    """子午 → 1, 丑未 → 2, 寅申 → 3, 卯酉 → 4, 辰戌 → 5, 巳亥 → 6."""
    return facts().branches.index(world_branch) % 6 + 1
