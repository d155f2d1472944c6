"""Invariants written as SQL: each query must return no rows on a correct database.

The seed runs them before committing, ``yimao check`` runs them on demand, and the tests run
them on every build. Each returns the offending keys so a failure says where to look.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Connection, text


class Invariant(NamedTuple):
    name: str
    sql: str


INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "sixty ganzhi, 30 nayin, 64 hexagrams, 384 lines",
        """SELECT 'counts' AS problem WHERE (SELECT COUNT(*) FROM ganzhi) <> 60
           OR (SELECT COUNT(*) FROM nayin) <> 30 OR (SELECT COUNT(*) FROM hexagram) <> 64
           OR (SELECT COUNT(*) FROM hexagram_line) <> 384""",
    ),
    Invariant(
        "every hexagram has six lines, one world and one response",
        """SELECT h.king_wen FROM hexagram h LEFT JOIN hexagram_line l ON l.king_wen = h.king_wen
           GROUP BY h.king_wen
           HAVING COUNT(l.position) <> 6 OR SUM(l.is_world) <> 1 OR SUM(l.is_response) <> 1
               OR SUM(l.is_between) <> 2""",
    ),
    Invariant(
        "line flags agree with the hexagram's world and response",
        """SELECT l.king_wen, l.position FROM hexagram_line l
           JOIN hexagram h ON h.king_wen = l.king_wen
           WHERE l.is_world <> CASE WHEN l.position = h.world THEN 1 ELSE 0 END
              OR l.is_response <> CASE WHEN l.position = h.response THEN 1 ELSE 0 END""",
    ),
    Invariant(
        "world and response agree with the generation table",
        """SELECT h.king_wen FROM hexagram h JOIN generation g ON g.ordinal = h.generation
           WHERE h.world <> g.world OR h.response <> g.response""",
    ),
    Invariant(
        "line yin/yang agrees with the hexagram bits; trigrams agree with the bits",
        """SELECT l.king_wen, l.position FROM hexagram_line l
           JOIN hexagram h ON h.king_wen = l.king_wen
           JOIN trigram lo ON lo.name = h.lower JOIN trigram up ON up.name = h.upper
           WHERE substr(h.bits, l.position, 1) <> CAST(l.yang AS VARCHAR(1))
              OR substr(h.bits, 1, 3) <> lo.bits OR substr(h.bits, 4, 3) <> up.bits""",
    ),
    Invariant(
        "line ganzhi and element follow its stem and branch",
        """SELECT l.king_wen, l.position FROM hexagram_line l
           JOIN ganzhi g ON g.name = l.ganzhi JOIN branch b ON b.name = l.branch
           WHERE g.stem <> l.stem OR g.branch <> l.branch OR b.element <> l.element""",
    ),
    Invariant(
        "each palace holds eight hexagrams, one per generation",
        """SELECT p.name FROM palace p LEFT JOIN hexagram h ON h.palace = p.name
           GROUP BY p.name HAVING COUNT(DISTINCT h.generation) <> 8 OR COUNT(*) <> 8""",
    ),
    Invariant(
        "a hidden relative is absent from its hexagram",
        """SELECT s.king_wen, s.position FROM hidden_spirit s
           JOIN hexagram_line l ON l.king_wen = s.king_wen AND l.relative = s.relative""",
    ),
    Invariant(
        "every relative is on a line or hidden",
        """SELECT h.king_wen, r.name FROM hexagram h CROSS JOIN relative r
           WHERE NOT EXISTS (SELECT 1 FROM hexagram_line l
                             WHERE l.king_wen = h.king_wen AND l.relative = r.name)
             AND NOT EXISTS (SELECT 1 FROM hidden_spirit s
                             WHERE s.king_wen = h.king_wen AND s.relative = r.name)""",
    ),
    Invariant(
        "納音 element is the last character of its name",
        "SELECT name FROM nayin WHERE substr(name, 3, 1) <> element",
    ),
    Invariant(
        "void branches are the two the decade does not reach",
        """SELECT g.name FROM ganzhi g JOIN ganzhi x ON x.xun_head = g.xun_head
           WHERE x.branch IN (g.void_first, g.void_second)""",
    ),
    Invariant(
        "hexagram names resolve through name_alias",
        """SELECT h.king_wen FROM hexagram h WHERE NOT EXISTS (
             SELECT 1 FROM name_alias a WHERE a.kind = 'hexagram' AND a.alias = h.name
               AND a.canonical = CAST(h.king_wen AS VARCHAR(2)))""",
    ),
)


def violations(conn: Connection) -> list[tuple[str, list[tuple[object, ...]]]]:
    """The invariants that fail, each with up to ten offending rows."""
    failed = []
    for inv in INVARIANTS:
        rows = [tuple(r) for r in conn.execute(text(inv.sql)).fetchmany(10)]
        if rows:
            failed.append((inv.name, rows))
    return failed
