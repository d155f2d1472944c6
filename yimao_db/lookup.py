"""Resolving what a user typed to a canonical entity, always through ``name_alias``."""

from __future__ import annotations

from sqlalchemy import Connection, text

from yimao_db.errors import UsageError, shown
from yimao_db.kb.names import loose, normalise

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
    "sign": "sign 徵",
    "subject": "subject asked about (用神)",
}

NAME_FORMS = (
    "or the name of an element, stem, branch, trigram, palace, relative, spirit, general, "
    "star, mansion, 納音, generation, stage, strength, matter or sign (青龍, 青龙, 元武, 子, 角, "
    "官鬼, office, 世空), in traditional or simplified characters, a seed variant, pinyin (tones "
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
        raise UsageError(f"unknown matter {shown(typed)}: expected {MATTER_FORMS}")
    return found


SUBJECT_FORMS = (
    "a subject: a relative (父母 官鬼 兄弟 子孫 妻財), self 世 or other 應, or a subject such as "
    "wealth, office, illness, exam, house (traditional or simplified characters, pinyin or "
    "English; docs/use.md lists them)"
)


def _close_subjects(typed: str, aliases: dict[str, str]) -> str:
    """Up to five subjects whose names are close to ``typed``, as ``wealth (財)``."""
    from difflib import get_close_matches

    close = get_close_matches(normalise(typed), list(aliases), n=5, cutoff=0.6)
    return ", ".join(f"{a} ({aliases[a]})" if aliases[a] != a else a for a in close)


def unknown_subject(typed: str, aliases: dict[str, str]) -> UsageError:
    close = _close_subjects(typed, aliases)
    hint = f"close names: {close}; " if close else ""
    return UsageError(f"unknown subject {shown(typed)}: {hint}expected {SUBJECT_FORMS}")


def subject_aliases(conn: Connection) -> dict[str, str]:
    """Every spelling of a subject → its canonical name."""
    rows = conn.execute(text("SELECT alias, canonical FROM name_alias WHERE kind = 'subject'"))
    return {str(a): str(c) for a, c in rows}


def default_subjects(conn: Connection) -> dict[str, str]:
    """Each matter → the subject it implies (matter_subject.is_default)."""
    rows = conn.execute(text("SELECT matter, subject FROM matter_subject WHERE is_default = 1"))
    return {str(m): str(s) for m, s in rows}


def subject(names: Connection | HexagramNames, typed: str) -> str:
    """The canonical subject ``typed`` names; UsageError listing close names if none."""
    if not isinstance(typed, str):
        raise UsageError(f"the subject must be text, got {type(typed).__name__}")
    if isinstance(names, HexagramNames):
        found = names.subjects.get(normalise(typed))
        if found is None:
            raise unknown_subject(typed, names.subjects)
        return found
    found = resolve(names, "subject", typed)
    if found is None:
        raise unknown_subject(typed, subject_aliases(names))
    return found


def default_subject(names: Connection | HexagramNames, matter: str | None) -> str | None:
    """The subject a (canonical) matter implies, or None."""
    if matter is None:
        return None
    if isinstance(names, HexagramNames):
        return names.default_subjects.get(matter)
    return default_subjects(names).get(matter)


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


Candidate = tuple[str, str, str]  # kind, canonical, the alias (pinyin with tones) it reads as


def _pinyin_rows(conn: Connection, kind: str | None = None) -> list[Candidate]:
    query = "SELECT kind, canonical, alias FROM name_alias WHERE form = 'pinyin'"
    if kind is not None:
        query += " AND kind = :kind"
    return [(str(k), str(c), str(a)) for k, c, a in conn.execute(text(query), {"kind": kind})]


def _matching(rows: list[Candidate], typed: str) -> list[Candidate]:
    """The entities among ``rows`` whose pinyin reads as ``typed`` without tones and spaces,
    one alias each (the one with tone marks, which tells them apart)."""
    wanted = loose(typed)
    best: dict[tuple[str, str], str] = {}
    for kind, canonical, alias in rows:
        if wanted and loose(alias) == wanted:
            shown = best.get((kind, canonical))
            if shown is None or (loose(shown) == shown.replace(" ", "") and alias != shown):
                best[(kind, canonical)] = alias
    return sorted((k, c, a) for (k, c), a in best.items())


def candidates(conn: Connection, typed: str, kind: str | None = None) -> list[Candidate]:
    """Every entity (of ``kind``, or of any kind) whose pinyin ``typed`` matches once tone
    marks and spaces are dropped: what a name that is no alias may have meant (``qian`` is
    乾 qián and 謙 qiān)."""
    return _matching(_pinyin_rows(conn, kind), typed)


def _label(conn: Connection | None, kind: str, canonical: str, alias: str) -> str:
    if kind == "hexagram" and conn is not None:
        name = conn.execute(
            text("SELECT name FROM hexagram WHERE king_wen = :kw"), {"kw": int(canonical)}
        ).scalar_one()
        return f"{name} ({alias}, King Wen {canonical})"
    return f"{kind} {canonical} ({alias})"


def ambiguous(
    typed: str,
    found: list[Candidate],
    conn: Connection | None = None,
    what: str = "name",
    hint: str = "",
) -> UsageError:
    """The one-line error for a name that reads as several entities (``hint``: another way
    to choose, after "type it with tone marks or in characters")."""
    listed = ", ".join(_label(conn, k, c, a) for k, c, a in found)
    return UsageError(
        f"ambiguous {what} {shown(typed)}: it may be {listed}; type it with tone marks or in"
        f" characters{', ' + hint if hint else ''}"
    )


def unknown_hexagram(typed: str) -> UsageError:
    return UsageError(f"unknown hexagram {shown(typed)}: expected {HEXAGRAM_FORMS}")


def hexagram(conn: Connection, typed: str) -> int:
    """King Wen number of the hexagram ``typed`` names; UsageError if none, or if it reads
    as several (the error lists them)."""
    found = resolve(conn, "hexagram", typed)
    if found is None:
        meant = candidates(conn, typed, "hexagram")
        if len(meant) == 1:
            return int(meant[0][1])
        if meant:
            raise ambiguous(typed, meant, conn, "hexagram")
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
        self.subjects = subject_aliases(conn)
        self.default_subjects = default_subjects(conn)
        self._memo: dict[str, str] = {}
        # pinyin spellings, for the candidates of a name that is none (read now: rows are
        # resolved after this connection is closed)
        self._pinyin = _pinyin_rows(conn, "hexagram")

    def bits(self, typed: str) -> str:
        """The bits of the hexagram ``typed`` names; UsageError if none."""
        found = self._memo.get(typed)
        if found is None:
            found = self._by_alias.get(normalise(typed))
            if found is None:
                meant = _matching(self._pinyin, typed)
                if meant:
                    raise ambiguous(typed, meant, None, "hexagram")
                raise unknown_hexagram(typed)
            if len(self._memo) < self.MEMO_SIZE:
                self._memo[typed] = found
        return found


def entities(conn: Connection, typed: str) -> list[tuple[str, str]]:
    """Every (kind, canonical) ``typed`` names, hexagram first, then in KIND_NAMES order
    (else the one its pinyin reads as without tones); UsageError naming every accepted form
    if it names nothing, or listing the candidates if it reads as several."""
    found = resolve_any(conn, typed)
    if not found:
        meant = candidates(conn, typed)
        if len(meant) == 1:
            return [meant[0][:2]]
        if meant:
            raise ambiguous(typed, meant, conn)
        raise UsageError(
            f"unknown hexagram or name {shown(typed)}: expected {HEXAGRAM_FORMS}; {NAME_FORMS}"
        )
    order = list(KIND_NAMES)
    return sorted(found, key=lambda kc: (order.index(kc[0]) if kc[0] in order else 99, kc))
