"""Resolving what a user typed to a canonical entity, always through ``name_alias``."""

from __future__ import annotations

from sqlalchemy import Connection, text

from yimao_db.errors import UsageError
from yimao_db.names import normalise

HEXAGRAM_FORMS = (
    "a hexagram: full or short name in traditional or simplified characters (乾為天, 姤, 天风姤), "
    "pinyin or English name, King Wen number 1..64, or six bits bottom line first (011111)"
)


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


def hexagram(conn: Connection, typed: str) -> int:
    """King Wen number of the hexagram ``typed`` names; UsageError if none."""
    found = resolve(conn, "hexagram", typed)
    if found is None:
        raise UsageError(f"unknown hexagram {typed!r}: expected {HEXAGRAM_FORMS}")
    return int(found)
