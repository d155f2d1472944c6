"""The two bodies (§9.1): 卦身 (月卦身) and 世身, and the lines on either side of the 世身
that §10.5 reads as time: the line after it is the coming matter, the line before it the
past."""

from __future__ import annotations

from functools import cache

from yimao_db.kb.facts import facts, read_tsv


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


COMING, PAST = "將來", "已往"
NEAR_ME, NEAR_THEM = "近我", "近彼"


@cache
def position_roles() -> dict[int, tuple[str, ...]]:
    """The places §10.5 gives a line by its position alone (table ``line_role``: 初 地 and
    右鄰/後鄰, 二 臣, 三 四 門戶, 四 左鄰/前鄰, 五 君, 上 天)."""
    roles: dict[int, list[str]] = {}
    for r in read_tsv("line_role"):
        roles.setdefault(int(r["position"]), []).append(r["role"])
    return {p: tuple(found) for p, found in roles.items()}


def places(position: int, shi_shen_line: int, world: int, response: int) -> tuple[str, ...]:
    """The places of line ``position`` in a hexagram whose 世身 is on ``shi_shen_line``:
    將來 after the 世身 and 已往 before it (§10.5; the book's 身世 read as the 世身, a
    decision); on a between line 近我 beside the world or 近彼 beside the response (§10.3
    近彼近我); then those of its position (``line_role``). Places, not judgments: they say
    what the line stands for in the matter."""
    around = (
        (COMING,)
        if position == ahead(shi_shen_line)
        else (PAST,)
        if position == behind(shi_shen_line)
        else ()
    )
    low, high = sorted((world, response))
    near: tuple[str, ...] = ()
    if low < position < high:
        near = (NEAR_ME,) if abs(position - world) == 1 else (NEAR_THEM,)
    return around + near + position_roles()[position]
