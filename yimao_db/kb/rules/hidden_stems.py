"""The stems each branch holds 地支藏干 (§5.6 commentary; the table is standard).

§5.6 says the stems answer the branches they sit in and gives three cases: 寅 holds 甲, 卯
holds 乙, 辰 holds 戊. The full table of main 本氣, middle 中氣 and residual 餘氣 stems is the
standard one, typed in (``seed/data/hidden_stems.tsv``, main stem first).
"""

from __future__ import annotations

from functools import cache

from yimao_db.kb.facts import read_tsv

ROLES = ("本氣", "中氣", "餘氣")
BOOK_EXAMPLES = {"寅": "甲", "卯": "乙", "辰": "戊"}  # §5.6 commentary: each branch's main stem


@cache
def _table() -> dict[str, str]:
    return {row["branch"]: row["stems"] for row in read_tsv("hidden_stems")}


def hidden_stems(branch: str) -> tuple[tuple[str, str], ...]:
    """(stem, role) of the stems ``branch`` holds, the main stem 本氣 first.

    The roles follow the order: a branch holding two stems has a main and a middle one
    (午 丁 己, 亥 壬 甲).
    """
    stems = _table()[branch]
    return tuple(zip(stems, ROLES, strict=False))
