"""Structural invariants written as SQL: each query must return no rows on a correct
database.

The seed runs them before committing, ``yimao check`` runs them on demand, and the tests run
them on every build. Each returns the offending keys so a failure says where to look.

Only structure is checked here: counts the book fixes, totality over keys, and one fact
stored in two places agreeing with itself (each invariant says which, and why, in ``why``).
What a rule decides (the lines around the 世身, a day's bearing on a branch, 獨發, 旬空,
納音, the hidden spirits) is not restated in SQL: the rule tests hold the rule functions to
the book, the oracle (``yimao_db.kb.expected``) holds the views to the rule functions
(tests/test_readings_props.py), and ``yimao check`` recomputes every seeded table from the
rule functions, row by row.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Connection, inspect, text

from yimao_db.kb.rules.signs import FAMILIES


class Invariant(NamedTuple):
    name: str
    why: str  # "count: …", "totality: …" or "consistency: …": what kind, and why it is here
    sql: str
    needs: tuple[str, ...] = ()  # tables an older revision may lack: skipped without them
    # the same query written for SQLite's planner, where the one above is slow there (the
    # tests hold the two to the same rows on every damage they try)
    sqlite_sql: str | None = None

    def sql_for(self, conn: Connection) -> str:
        """The query to run on ``conn``'s backend."""
        if self.sqlite_sql is not None and conn.dialect.name == "sqlite":
            return self.sqlite_sql
        return self.sql


KINDS = ("count", "totality", "consistency")


SIGN_TABLES = ("sign",)  # revision 0006 made the sign tables and source_passage.coverage


# the sign tables (the families of yimao_db.kb.rules.signs): every row of every rule table of
# the signs, with the name of its table (a literal: no value reaches this text)
SIGN_ROWS = " UNION ALL ".join(
    f"SELECT '{f.table}' AS t, sign, passage, basis FROM {f.table}" for f in FAMILIES
)

SIGN_INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "every sign can fire: the rule table it names holds it",
        "totality: a sign of the catalogue no rule table holds would never show in a chart",
        "SELECT s.name FROM sign s WHERE NOT EXISTS (SELECT 1 FROM ("
        + SIGN_ROWS
        + ") f WHERE f.sign = s.name AND f.t = s.rule_table)",
        SIGN_TABLES,
    ),
    Invariant(
        "a sign's rows are in the rule table it names and cite its passage and basis",
        "consistency: the catalogue's table, passage and basis are repeated on every row",
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
        "count: one row per place and hexagram, what the views join line by line",
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
        "line places agree with the hexagram: world, response, between, the 卦身 branch and "
        "the 世身 line",
        "consistency: line_place repeats what hexagram and hexagram_line hold",
        """SELECT p.king_wen, p.position, p.place FROM line_place p
           JOIN hexagram h ON h.king_wen = p.king_wen
           JOIN hexagram_line l ON l.king_wen = p.king_wen AND l.position = p.position
           WHERE (p.place = '世' AND l.is_world <> 1) OR (p.place = '應' AND l.is_response <> 1)
              OR (p.place = '間' AND l.is_between <> 1)
              OR (p.place = '卦身' AND l.branch <> h.gua_shen)
              OR (p.place = '世身' AND p.position <> h.shi_shen_line)""",
        SIGN_TABLES,
    ),
    Invariant(
        "every line holding the 卦身 branch has that place",
        "totality: a 卦身 line without its row would lose its signs in every chart",
        """SELECT l.king_wen, l.position FROM hexagram_line l
           JOIN hexagram h ON h.king_wen = l.king_wen AND h.gua_shen = l.branch
           WHERE NOT EXISTS (SELECT 1 FROM line_place p WHERE p.king_wen = l.king_wen
                             AND p.position = l.position AND p.place = '卦身')""",
        SIGN_TABLES,
    ),
    Invariant(
        "現 and 隱 are keyed on the moving values (§10.5 with §2.3)",
        "consistency: a typed-in table (seed/data/line_aspect.tsv) keyed on line_value",
        """SELECT a.value FROM line_aspect a JOIN line_value v ON v.value = a.value
           WHERE v.is_moving <> 1""",
        SIGN_TABLES,
    ),
    Invariant(
        "a passage is encoded exactly when some row cites it; at most ten are theory",
        "consistency: source_passage.coverage repeats what passage_citation holds",
        """SELECT p.id FROM source_passage p
           WHERE (p.coverage IN ('encoded', 'partial')) <> EXISTS (
                   SELECT 1 FROM passage_citation c WHERE c.passage = p.id)
           UNION ALL
           SELECT 'theory' FROM (SELECT COUNT(*) AS n FROM source_passage
                                 WHERE coverage = 'theory') t WHERE t.n > 10""",
        SIGN_TABLES,
    ),
)


# lodge_ingress (revision 0010): the stays of a body, in time order, follow one another
# without a gap or an overlap, each in the lodge after the one before (mansion.ordinal).
# Each stay is compared with the next of its body: found by a window on PostgreSQL, by a
# search of the primary key on SQLite (its windows took 0.15 s of every build's 1 s for the
# eighty thousand stays, the search 0.09 s; PostgreSQL's plan of the search took 1 s).
LODGE_INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "each stay of the sun or the moon in a lodge ends where the next begins, in the next lodge",
        "consistency: the stays are a table of intervals; a gap, an overlap or a skipped lodge"
        " would leave a moment with no lodge or two",
        """SELECT x.body, x.starts_at FROM (
             SELECT body, starts_at, ends_at, mansion,
                    LEAD(starts_at) OVER (PARTITION BY body ORDER BY starts_at) AS next_start,
                    LEAD(mansion) OVER (PARTITION BY body ORDER BY starts_at) AS next_mansion
             FROM lodge_ingress) x
           JOIN mansion a ON a.name = x.mansion
           LEFT JOIN mansion b ON b.name = x.next_mansion
           WHERE x.next_start IS NOT NULL
             AND (x.ends_at <> x.next_start OR b.ordinal <> a.ordinal % 28 + 1)""",
        ("lodge_ingress",),
        sqlite_sql="""SELECT x.body, x.starts_at FROM (
             SELECT i.body, i.starts_at, i.ends_at, i.mansion,
                    (SELECT n.starts_at FROM lodge_ingress n
                     WHERE n.body = i.body AND n.starts_at > i.starts_at
                     ORDER BY n.starts_at LIMIT 1) AS next_start
             FROM lodge_ingress i) x
           JOIN lodge_ingress y ON y.body = x.body AND y.starts_at = x.next_start
           JOIN mansion a ON a.name = x.mansion
           LEFT JOIN mansion b ON b.name = y.mansion
           WHERE x.ends_at <> y.starts_at OR b.ordinal <> a.ordinal % 28 + 1""",
    ),
)

INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "sixty ganzhi, 30 nayin, 64 hexagrams, 384 lines",
        "count: the book's numbers; a table short of rows would leave charts without lines",
        """SELECT 'counts' AS problem WHERE (SELECT COUNT(*) FROM ganzhi) <> 60
           OR (SELECT COUNT(*) FROM nayin) <> 30 OR (SELECT COUNT(*) FROM hexagram) <> 64
           OR (SELECT COUNT(*) FROM hexagram_line) <> 384""",
    ),
    Invariant(
        "every hexagram has six lines, one world, one response and two between lines",
        "count: the lines a chart joins, and the places every sign of the world reads",
        """SELECT h.king_wen FROM hexagram h LEFT JOIN hexagram_line l ON l.king_wen = h.king_wen
           GROUP BY h.king_wen
           HAVING COUNT(l.position) <> 6 OR SUM(l.is_world) <> 1 OR SUM(l.is_response) <> 1
               OR SUM(l.is_between) <> 2""",
    ),
    Invariant(
        "line flags agree with the hexagram's world and response",
        "consistency: hexagram_line repeats hexagram.world and hexagram.response as flags",
        """SELECT l.king_wen, l.position FROM hexagram_line l
           JOIN hexagram h ON h.king_wen = l.king_wen
           WHERE l.is_world <> CASE WHEN l.position = h.world THEN 1 ELSE 0 END
              OR l.is_response <> CASE WHEN l.position = h.response THEN 1 ELSE 0 END""",
    ),
    Invariant(
        "world and response agree with the generation table",
        "consistency: hexagram repeats the world and response of its generation's row",
        """SELECT h.king_wen FROM hexagram h JOIN generation g ON g.ordinal = h.generation
           WHERE h.world <> g.world OR h.response <> g.response""",
    ),
    Invariant(
        "line yin/yang agrees with the hexagram bits; trigrams agree with the bits",
        "consistency: the bits, the trigrams and the lines' yang are one fact, kept thrice",
        """SELECT l.king_wen, l.position FROM hexagram_line l
           JOIN hexagram h ON h.king_wen = l.king_wen
           JOIN trigram lo ON lo.name = h.lower JOIN trigram up ON up.name = h.upper
           WHERE substr(h.bits, l.position, 1) <> CAST(l.yang AS VARCHAR(1))
              OR substr(h.bits, 1, 3) <> lo.bits OR substr(h.bits, 4, 3) <> up.bits""",
    ),
    Invariant(
        "line ganzhi and element follow its stem and branch",
        "consistency: a line repeats its ganzhi's stem and branch and its branch's element",
        """SELECT l.king_wen, l.position FROM hexagram_line l
           JOIN ganzhi g ON g.name = l.ganzhi JOIN branch b ON b.name = l.branch
           WHERE g.stem <> l.stem OR g.branch <> l.branch OR b.element <> l.element""",
    ),
    Invariant(
        "each palace holds eight hexagrams, one per generation",
        "count: the palaces and generations are keys of hexagram",
        """SELECT p.name FROM palace p LEFT JOIN hexagram h ON h.palace = p.name
           GROUP BY p.name HAVING COUNT(DISTINCT h.generation) <> 8 OR COUNT(*) <> 8""",
    ),
    Invariant(
        "hexagram names resolve through name_alias",
        "totality: a hexagram's own name must find it in yimao show, cast and the web",
        """SELECT h.king_wen FROM hexagram h WHERE NOT EXISTS (
             SELECT 1 FROM name_alias a WHERE a.kind = 'hexagram' AND a.alias = h.name
               AND a.canonical = CAST(h.king_wen AS VARCHAR(2)))""",
    ),
    *SIGN_INVARIANTS,
    *LODGE_INVARIANTS,
)


def violations(conn: Connection) -> list[tuple[str, list[tuple[object, ...]]]]:
    """The invariants that fail, each with up to ten offending rows (an invariant whose
    tables an older revision lacks is not run)."""
    failed = []
    present = set(inspect(conn).get_table_names())
    for inv in INVARIANTS:
        if not set(inv.needs) <= present:
            continue
        rows = [tuple(r) for r in conn.execute(text(inv.sql_for(conn))).fetchmany(10)]
        if rows:
            failed.append((inv.name, rows))
    return failed
