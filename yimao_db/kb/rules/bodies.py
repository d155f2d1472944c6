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


def is_sound(moving: bool, is_void: bool, is_month_break: bool, is_day_clash: bool) -> bool:
    """A body line without 病 (§9.5 先宜無病): still, and neither void, broken by the month
    nor clashed by the day. What counts as 病 is a decision: the conditions §9.3 and §9.4
    read on a body (空 破 動 衝, and 散, a moving line clashed)."""
    return not (moving or is_void or is_month_break or is_day_clash)


def harmless(world_strength: str) -> bool:
    """The 世身's conditions do no harm while the world line is 旺 or 相 in the month (§9.4
    commentary)."""
    return world_strength in ("旺", "相")


# the places §10.5 gives a line by its position alone (commentary: 四 左鄰, 初 右鄰; 五 君,
# 二 臣; 初 地, 上 天; 三 四 門戶)
POSITION_PLACES = {
    1: ("地", "右鄰"),
    2: ("臣",),
    3: ("門戶",),
    4: ("門戶", "左鄰"),
    5: ("君",),
    6: ("天",),
}
COMING, PAST = "將來", "已往"


def places(position: int, shi_shen_line: int) -> tuple[str, ...]:
    """The places §10.5 gives line ``position`` of a hexagram whose 世身 is on
    ``shi_shen_line``: 將來 after the 世身 and 已往 before it (the book's 身世 read as the 世身,
    a decision), then those of its position (左鄰 右鄰, 君 臣, 天 地, 門戶). Places, not
    judgments: they say what the line stands for in the matter."""
    around = (
        (COMING,)
        if position == ahead(shi_shen_line)
        else (PAST,)
        if position == behind(shi_shen_line)
        else ()
    )
    return around + POSITION_PLACES[position]
