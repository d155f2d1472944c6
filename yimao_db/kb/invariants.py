"""Invariants written as SQL: each query must return no rows on a correct database.

The seed runs them before committing, ``yimao check`` runs them on demand, and the tests run
them on every build. Each returns the offending keys so a failure says where to look.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Connection, inspect, text

from yimao_db.kb.rules.signs import FAMILIES


class Invariant(NamedTuple):
    name: str
    sql: str
    needs: tuple[str, ...] = ()  # tables an older revision may lack: skipped without them


SIGN_TABLES = ("sign",)  # revision 0006 made the sign tables and source_passage.coverage


# the sign tables (the families of yimao_db.kb.rules.signs): every row of every rule table of
# the signs, with the name of its table (a literal: no value reaches this text)
SIGN_ROWS = " UNION ALL ".join(
    f"SELECT '{f.table}' AS t, sign, passage, basis FROM {f.table}" for f in FAMILIES
)

SIGN_INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "every sign can fire: the rule table it names holds it",
        "SELECT s.name FROM sign s WHERE NOT EXISTS (SELECT 1 FROM ("
        + SIGN_ROWS
        + ") f WHERE f.sign = s.name AND f.t = s.rule_table)",
        SIGN_TABLES,
    ),
    Invariant(
        "a sign's rows are in the rule table it names and cite its passage and basis",
        "SELECT f.t, f.sign FROM ("
        + SIGN_ROWS
        + """) f JOIN sign s ON s.name = f.sign
           WHERE f.t <> s.rule_table OR f.basis <> s.basis
              OR COALESCE(f.passage, '') <> COALESCE(s.passage, '')""",
        SIGN_TABLES,
    ),
    Invariant(
        "each hexagram's lines hold one world, one response, two between lines, one 世身 and "
        "the lines after and before it",
        """SELECT p.king_wen FROM line_place p GROUP BY p.king_wen
           HAVING SUM(CASE WHEN p.place = '世' THEN 1 ELSE 0 END) <> 1
               OR SUM(CASE WHEN p.place = '應' THEN 1 ELSE 0 END) <> 1
               OR SUM(CASE WHEN p.place = '間' THEN 1 ELSE 0 END) <> 2
               OR SUM(CASE WHEN p.place = '世身' THEN 1 ELSE 0 END) <> 1
               OR SUM(CASE WHEN p.place = '身前' THEN 1 ELSE 0 END) <> 1
               OR SUM(CASE WHEN p.place = '身後' THEN 1 ELSE 0 END) <> 1""",
        SIGN_TABLES,
    ),
    Invariant(
        "line places agree with the hexagram: world, response, between, the 卦身 branch, the "
        "世身 line and its neighbours (6 wrapping to 1)",
        """SELECT p.king_wen, p.position, p.place FROM line_place p
           JOIN hexagram h ON h.king_wen = p.king_wen
           JOIN hexagram_line l ON l.king_wen = p.king_wen AND l.position = p.position
           WHERE (p.place = '世' AND l.is_world <> 1) OR (p.place = '應' AND l.is_response <> 1)
              OR (p.place = '間' AND l.is_between <> 1)
              OR (p.place = '卦身' AND l.branch <> h.gua_shen)
              OR (p.place = '世身' AND p.position <> h.shi_shen_line)
              OR (p.place = '身前' AND p.position <> h.shi_shen_line % 6 + 1)
              OR (p.place = '身後' AND p.position <> (h.shi_shen_line + 4) % 6 + 1)""",
        SIGN_TABLES,
    ),
    Invariant(
        "every line holding the 卦身 branch has that place",
        """SELECT l.king_wen, l.position FROM hexagram_line l
           JOIN hexagram h ON h.king_wen = l.king_wen AND h.gua_shen = l.branch
           WHERE NOT EXISTS (SELECT 1 FROM line_place p WHERE p.king_wen = l.king_wen
                             AND p.position = l.position AND p.place = '卦身')""",
        SIGN_TABLES,
    ),
    Invariant(
        "a line moves alone exactly when its mask has one moving line, itself",
        """SELECT m.mask, m.position FROM mask_line m JOIN moving_lines ml ON ml.mask = m.mask
           WHERE (m.is_sole = 1) <> (ml.line_count = 1 AND m.is_moving = 1)""",
        SIGN_TABLES,
    ),
    Invariant(
        "the bearing of a branch agrees with the branch relations and the elements",
        """SELECT b.actor, b.branch FROM branch_bearing b
           JOIN branch a ON a.name = b.actor JOIN branch x ON x.name = b.branch
           JOIN element_relation e ON e.me = x.element AND e.other = a.element
           WHERE b.relation <> e.relation OR (b.is_on = 1) <> (b.actor = b.branch)
              OR (b.clashes = 1) <> EXISTS (SELECT 1 FROM branch_relation r WHERE
                   r.relation = '六衝' AND r.first = b.actor AND r.second = b.branch)
              OR (b.combines = 1) <> EXISTS (SELECT 1 FROM branch_relation r WHERE
                   r.relation = '六合' AND r.first = b.actor AND r.second = b.branch)
              OR (b.punishes = 1) <> EXISTS (SELECT 1 FROM branch_relation r WHERE
                   r.relation = '三刑' AND r.first = b.actor AND r.second = b.branch)""",
        SIGN_TABLES,
    ),
    Invariant(
        "現 and 隱 are keyed on the moving values (§10.5 with §2.3)",
        """SELECT a.value FROM line_aspect a JOIN line_value v ON v.value = a.value
           WHERE v.is_moving <> 1""",
        SIGN_TABLES,
    ),
    Invariant(
        "a passage is encoded exactly when some row cites it; at most ten are theory",
        """SELECT p.id FROM source_passage p
           WHERE (p.coverage = 'encoded') <> EXISTS (
                   SELECT 1 FROM passage_citation c WHERE c.passage = p.id)
           UNION ALL
           SELECT 'theory' FROM (SELECT COUNT(*) AS n FROM source_passage
                                 WHERE coverage = 'theory') t WHERE t.n > 10""",
        SIGN_TABLES,
    ),
)


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
    *SIGN_INVARIANTS,
)


def violations(conn: Connection) -> list[tuple[str, list[tuple[object, ...]]]]:
    """The invariants that fail, each with up to ten offending rows (an invariant whose
    tables an older revision lacks is not run)."""
    failed = []
    present = set(inspect(conn).get_table_names())
    for inv in INVARIANTS:
        if not set(inv.needs) <= present:
            continue
        rows = [tuple(r) for r in conn.execute(text(inv.sql)).fetchmany(10)]
        if rows:
            failed.append((inv.name, rows))
    return failed
