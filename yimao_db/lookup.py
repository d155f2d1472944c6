"""Resolving what a user typed to a canonical entity, always through ``name_alias``."""

from __future__ import annotations

from sqlalchemy import Connection, text

from yimao_db.errors import UsageError
from yimao_db.names import normalise

HEXAGRAM_FORMS = (
    "a hexagram: full or short name in traditional or simplified characters (乾為天, 姤, 天风姤), "
    "pinyin or English name, King Wen number 1..64, or six bits bottom line first (011111)"
)

KIND_NAMES = {
    "hexagram": "hexagram",
    "element": "element 五行",
    "stem": "stem 天干",
    "branch": "branch 地支",
    "trigram": "trigram 八卦",
    "palace": "palace 八宮",
    "relative": "relative 六親",
    "spirit": "spirit 六神",
    "general": "general 十二將",
    "star": "star 五星",
    "mansion": "mansion 二十八宿",
    "nayin": "納音",
    "generation": "generation 世",
    "stage": "stage 長生十二宮",
    "strength": "strength 旺相休囚死",
    "matter": "matter asked about",
}

NAME_FORMS = (
    "or the name of an element, stem, branch, trigram, palace, relative, spirit, general, "
    "star, mansion, 納音, generation, stage, strength or matter (青龍, 青龙, 元武, 子, 角, 官鬼, "
    "office), in traditional or simplified characters, a seed variant, pinyin (tones "
    "optional) or English"
)
MATTER_FORMS = (
    "a matter: office 功名, wealth 財利, lawsuit 獄訟 or worry 憂患 (traditional or simplified "
    "characters, pinyin or English)"
)


def matter(names: Connection | HexagramNames, typed: str) -> str:
    """The canonical matter (功名 財利 獄訟 憂患) ``typed`` names; UsageError if none."""
    if isinstance(names, HexagramNames):
        found = names.matters.get(normalise(typed))
    else:
        found = resolve(names, "matter", typed)
    if found is None:
        raise UsageError(f"unknown matter {typed!r}: expected {MATTER_FORMS}")
    return found


def resolve(conn: Connection, kind: str, typed: str) -> str | None:
    """The canonical name for ``typed`` in vocabulary ``kind``, or None."""
    row = conn.execute(
        text("SELECT canonical FROM name_alias WHERE kind = :kind AND alias = :alias"),
        {"kind": kind, "alias": normalise(typed)},
    ).first()
    return None if row is None else str(row[0])


def resolve_any(conn: Connection, typed: str) -> list[tuple[str, str]]:
    """Every (kind, canonical) that ``typed`` names."""
    rows = conn.execute(
        text("SELECT kind, canonical FROM name_alias WHERE alias = :alias ORDER BY kind"),
        {"alias": normalise(typed)},
    )
    return [(str(k), str(c)) for k, c in rows]


def unknown_hexagram(typed: str) -> UsageError:
    return UsageError(f"unknown hexagram {typed!r}: expected {HEXAGRAM_FORMS}")


def hexagram(conn: Connection, typed: str) -> int:
    """King Wen number of the hexagram ``typed`` names; UsageError if none."""
    found = resolve(conn, "hexagram", typed)
    if found is None:
        raise unknown_hexagram(typed)
    return int(found)


class HexagramNames:
    """Every hexagram spelling of ``name_alias`` with the hexagram's bits (and every spelling
    of a matter), read in three queries:
    :meth:`bits` resolves exactly as :func:`hexagram` does, without a query per name (for
    ``yimao import``, which resolves many rows before it may write)."""

    MEMO_SIZE = 10_000  # what was typed → bits, for the spellings actually used

    def __init__(self, conn: Connection) -> None:
        bits = {
            int(kw): str(b) for kw, b in conn.execute(text("SELECT king_wen, bits FROM hexagram"))
        }
        rows = conn.execute(text("SELECT alias, canonical FROM name_alias WHERE kind = 'hexagram'"))
        self._by_alias = {str(alias): bits[int(kw)] for alias, kw in rows}
        matters = conn.execute(
            text("SELECT alias, canonical FROM name_alias WHERE kind = 'matter'")
        )
        self.matters = {str(alias): str(canonical) for alias, canonical in matters}
        self._memo: dict[str, str] = {}

    def bits(self, typed: str) -> str:
        """The bits of the hexagram ``typed`` names; UsageError if none."""
        found = self._memo.get(typed)
        if found is None:
            found = self._by_alias.get(normalise(typed))
            if found is None:
                raise unknown_hexagram(typed)
            if len(self._memo) < self.MEMO_SIZE:
                self._memo[typed] = found
        return found


def entities(conn: Connection, typed: str) -> list[tuple[str, str]]:
    """Every (kind, canonical) ``typed`` names, hexagram first, then in KIND_NAMES order;
    UsageError naming every accepted form if it names nothing."""
    found = resolve_any(conn, typed)
    if not found:
        raise UsageError(
            f"unknown hexagram or name {typed!r}: expected {HEXAGRAM_FORMS}; {NAME_FORMS}"
        )
    order = list(KIND_NAMES)
    return sorted(found, key=lambda kc: (order.index(kc[0]) if kc[0] in order else 99, kc))
