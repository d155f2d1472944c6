"""The two bodies (§9.1): 卦身 (月卦身) and 世身, and the lines on either side of the 世身
that §10.5 reads as time: the line after it is the coming matter, the line before it the
past."""

from __future__ import annotations

from yimao_db.kb.facts import facts


def gua_shen(world_position: int, world_is_yang: bool) -> str:
    """Count from 子 (yang world) or 午 (yin world) up to the world's position."""
    branches = facts().branches
    start = 0 if world_is_yang else 6
    return branches[(start + world_position - 1) % 12]


def shi_shen_line(world_branch: str) -> int:
    """子午 → 1, 丑未 → 2, 寅申 → 3, 卯酉 → 4, 辰戌 → 5, 巳亥 → 6."""
    return facts().branches.index(world_branch) % 6 + 1


def ahead(shi_shen_line: int) -> int:
    """將來: the line after the 世身 line, line 6 wrapping round to line 1 (§10.5)."""
    return shi_shen_line % 6 + 1


def behind(shi_shen_line: int) -> int:
    """已往: the line before the 世身 line, line 1 wrapping round to line 6 (§10.5)."""
    return (shi_shen_line - 2) % 6 + 1
