"""``yimao stats``: counts of readings and their outcomes, in plain SQL over the views.

Each grouping is one query over ``v_reading`` (``v_sign_count``, and the stored rows of
``v_reading_sign`` with the outcomes of ``reading_outcome``, for signs; ``v_reading_use``
for the 用神's state); the
counts come from SQL, the hit rate (hits among the readings with an outcome, partial
counted as no hit) is the one division done here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, text

VERDICT_COLUMNS = ("hit", "partial", "miss")  # their counts, in this order

OUTCOME_COUNTS = (
    "COUNT(*) AS readings, "
    "COUNT(v.outcome) AS judged, "
    "COUNT(CASE WHEN v.outcome = 'hit' THEN 1 END) AS hit, "
    "COUNT(CASE WHEN v.outcome = 'partial' THEN 1 END) AS partial, "
    "COUNT(CASE WHEN v.outcome = 'miss' THEN 1 END) AS miss"
)

QUERIES = {
    "all": f"SELECT {OUTCOME_COUNTS} FROM v_reading v",
    "hexagram": (
        f"SELECT v.primary_king_wen AS king_wen, v.primary_name AS hexagram, {OUTCOME_COUNTS} "
        "FROM v_reading v GROUP BY v.primary_king_wen, v.primary_name "
        "ORDER BY COUNT(*) DESC, v.primary_king_wen"
    ),
    "changed": (
        f"SELECT v.changed_king_wen AS king_wen, v.changed_name AS hexagram, {OUTCOME_COUNTS} "
        "FROM v_reading v WHERE v.changed_king_wen IS NOT NULL "
        "GROUP BY v.changed_king_wen, v.changed_name ORDER BY COUNT(*) DESC, v.changed_king_wen"
    ),
    # a sign counts a reading once, however many of its lines it fires on; signs that
    # fire as often keep the catalogue's order (the same on every backend). The readings a
    # sign fires for are v_sign_count's, kept with every write (counting them from
    # v_reading_sign read every stored sign: 2.6 s at a million readings), the outcomes
    # are counted from the readings that have one: joining every reading's signs to its
    # outcome looked up a million readings once per sign.
    "sign": (
        "SELECT n.sign, n.polarity, n.readings, COALESCE(j.judged, 0) AS judged, "
        "COALESCE(j.hit, 0) AS hit, COALESCE(j.partial, 0) AS partial, "
        "COALESCE(j.miss, 0) AS miss "
        "FROM v_sign_count n "
        "JOIN sign s ON s.name = n.sign "
        "LEFT JOIN (SELECT sign, COUNT(*) AS judged, "
        + ", ".join(f"COUNT(CASE WHEN verdict = '{v}' THEN 1 END) AS {v}" for v in VERDICT_COLUMNS)
        # each reading with an outcome once per sign: its stored signs (reading_sign, the
        # rows of v_reading_sign) read in the order of their index by reading, grouped in
        # that order without a sort (with v_reading_sign's sign, the sign table's name,
        # SQLite sorted them: 2.9 s against 1.9 s for 100,000 outcomes at a million
        # readings; four COUNT(DISTINCT) took 3.4 s). CROSS JOIN: SQLite reads the outcomes
        # first; left to choose, it read every stored sign and looked up each one's outcome
        + " FROM (SELECT f.sign, o.verdict FROM reading_outcome o CROSS JOIN reading_sign f "
        "WHERE f.reading_id = o.reading_id GROUP BY o.reading_id, f.sign, o.verdict) x "
        "GROUP BY sign) j ON j.sign = n.sign "
        "ORDER BY n.readings DESC, s.ordinal"
    ),
    # the 用神's state (docs/use.md): readings naming a subject, grouped by what the moment
    # does to the line standing for it
    "use": (
        "SELECT u.source, u.strength, u.is_void AS void, u.is_month_break AS broken, "
        "u.is_moving AS moving, COALESCE(u.transform, '') AS transform, "
        + OUTCOME_COUNTS.replace("v.outcome", "o.verdict")
        + " FROM v_reading_use u LEFT JOIN reading_outcome o ON o.reading_id = u.reading_id "
        "JOIN strength st ON st.name = u.strength WHERE u.role_ordinal = 1 "
        "GROUP BY u.source, u.strength, st.ordinal, u.is_void, u.is_month_break, u.is_moving, "
        "COALESCE(u.transform, '') ORDER BY COUNT(*) DESC, u.source, st.ordinal, u.is_void, "
        "u.is_month_break, u.is_moving, COALESCE(u.transform, '')"
    ),
    "outcome": (
        "SELECT COALESCE(v.outcome, 'none') AS outcome, COUNT(*) AS readings FROM v_reading v "
        "GROUP BY v.outcome ORDER BY COUNT(*) DESC, COALESCE(v.outcome, 'none')"
    ),
}
GROUPINGS = ("all", "hexagram", "changed", "sign", "use", "outcome")


def stats(conn: Connection, by: str = "all") -> tuple[list[str], list[tuple[Any, ...]]]:
    """(columns, rows) of one grouping; with outcome counts a ``hit_rate`` column (None
    where no reading of the group has an outcome)."""
    result = conn.execute(text(QUERIES[by]))
    columns = list(result.keys())
    rows = [tuple(r) for r in result]
    if "judged" not in columns:
        return columns, rows
    judged, hit = columns.index("judged"), columns.index("hit")
    rated = [(*r, round(r[hit] / r[judged], 3) if r[judged] else None) for r in rows]
    return [*columns, "hit_rate"], rated
