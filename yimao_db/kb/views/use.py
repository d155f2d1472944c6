"""用神: the candidates for each role of a reading with a subject (v_reading_use_candidate)
and the chosen line of each role against the moment (v_reading_use); docs/use.md.

The candidates come from three arms: the world or response line for a subject of that kind
(the 用神 only), the visible lines of the role's relative, and its hidden spirits (which
exist only when no line shows the relative). Each candidate's key is looked up in
``use_candidate_rank``; candidates are ordered by that rank, then by position, and the
reason a candidate lost is the ``use_loss_reason`` row of its rank against the chosen one's.

``v_reading_use`` reads the derived table ``reading_use`` (:mod:`yimao_db.kb.derived`), the
rows of its definition ``v_reading_use_computed`` stored for every reading: the sign view
reads the roles in five arms, and a report over all readings would rank every reading's
candidates once for each. ``v_reading_use_candidate`` reads ``reading_use_candidate``, the
rows of ``v_reading_use_candidate_computed`` (revision 0030): ranking a reading's candidates
is a sort and a pass of three window functions, which made reading every candidate (an
export) 0.4 of a flat table's speed.
"""

from __future__ import annotations

from yimao_db.kb.views.base import FLAG, FLAG_OR_NULL, POSITION, READING, View, col

ROLE = "用神 原神 忌神 or 仇神"
SOURCE = "visible/hidden/world/response"

# the three arms share their head: the reading, its subject, the relative of each role.
# CROSS JOIN keeps, on SQLite, the subject right after the reading and a line after the
# rest of the head (each arm's WHERE joins them): most readings ask about no subject, and
# are then dropped at once, where SQLite would otherwise start from their lines (a range of
# reading_line for a range of readings) and look up five tables for each line first
_HEAD = """
FROM reading r
CROSS JOIN subject s
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role"""

_KEY = """
LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = {b}
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = {b}
JOIN use_candidate_rank k ON k.is_moving = {moving} AND k.is_world = {world}
  AND k.is_response = {response} AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break"""

_COLUMNS = (
    "r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, "
    "rr.relative, {source} AS source, {position} AS position, k.is_moving, k.is_world, "
    "k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank"
)

_ARMS = f"""
SELECT {_COLUMNS.format(source="s.kind", position="l.position")}
{_HEAD}
JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = sp.position
CROSS JOIN reading_line rl
JOIN line_value lv ON lv.value = rl.value
{_KEY.format(b="l.branch", moving="lv.is_moving", world="l.is_world", response="l.is_response")}
WHERE s.name = r.about AND rl.reading_id = r.id AND rl.position = l.position
  AND ur.by_place = 1
UNION ALL
SELECT {_COLUMNS.format(source="'visible'", position="l.position")}
{_HEAD}
JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.relative = rr.relative
CROSS JOIN reading_line rl
JOIN line_value lv ON lv.value = rl.value
{_KEY.format(b="l.branch", moving="lv.is_moving", world="l.is_world", response="l.is_response")}
WHERE s.name = r.about AND rl.reading_id = r.id AND rl.position = l.position
  AND (s.place IS NULL OR ur.by_place = 0)
UNION ALL
SELECT {_COLUMNS.format(source="'hidden'", position="hs.position")}
{_HEAD}
JOIN hidden_spirit hs ON hs.king_wen = r.primary_kw AND hs.relative = rr.relative
{_KEY.format(b="hs.branch", moving="0", world="0", response="0")}
WHERE s.name = r.about AND (s.place IS NULL OR ur.by_place = 0)"""

# The three window functions share one window, framed as the whole partition (ROW_NUMBER
# ignores the frame; FIRST_VALUE is then the chosen candidate's, COUNT the role's
# candidates), so that SQLite sorts the candidates once and computes the three in one pass:
# until revision 0025 COUNT had a window of its own, a second sort and pass.
_CANDIDATE_DESCRIPTION = (
    "Every candidate line for each role (用神 原神 忌神 仇神) of a reading with a subject: the "
    "world or response line for a subject of that kind, else the visible lines of the role's "
    "relative, else its hidden spirits (伏神); ranked by use_candidate_rank then position "
    "(rank 1 is chosen), each other one with the reason it lost (docs/use.md)."
)

V_READING_USE_CANDIDATE_COMPUTED = View(
    "v_reading_use_candidate_computed",
    "readings",
    "The definition of v_reading_use_candidate: each role's candidates, computed by joining "
    "the reading, its subject, its lines or hidden spirits and the ranking, and ranked by a "
    "window. The table reading_use_candidate stores its rows for every reading with a "
    "subject (written with the reading and when its subject changes; yimao check compares "
    "the two); v_reading_use_candidate reads the table.",
    (
        col("reading_id", "The reading", READING),
        col("subject", "The subject asked about (reading.about)", "FK subject.name"),
        col("role", "The role", ROLE),
        col("role_ordinal", "1..4: 用神 原神 忌神 仇神", "1..4"),
        col("relative", "The role's relative", "FK relative.name"),
        col(
            "source",
            "Where the candidate is: a visible line, a hidden spirit, the world or "
            "the response line",
            SOURCE,
        ),
        col("position", "The line (for a hidden spirit, the line it hides under)", POSITION),
        col("is_moving", "1 if it moves (0 for a hidden spirit)", FLAG),
        col("is_world", "1 on the world line (0 for a hidden spirit)", FLAG),
        col("is_response", "1 on the response line (0 for a hidden spirit)", FLAG),
        col("strength", "Its strength in the month", "FK strength.name"),
        col("is_void", "1 if void 旬空", FLAG),
        col("is_month_break", "1 if month-broken 月破", FLAG),
        col("key_rank", "use_candidate_rank.rank of its key (1 best)", "1..40"),
        col("rank", "Its place among the role's candidates; 1 is the one chosen", "1..6"),
        col("candidate_count", "How many candidates the role has", "1..6"),
        col(
            "reason",
            "Why it lost to the chosen one (use_loss_reason); NULL for the chosen one",
            null=True,
        ),
    ),
    f"""
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, c.relative, c.source, c.position,
       c.is_moving, c.is_world, c.is_response, c.strength, c.is_void, c.is_month_break,
       c.key_rank, c.rank, c.candidate_count, lr.reason
FROM (
  SELECT a.*,
         ROW_NUMBER() OVER w AS rank,
         FIRST_VALUE(a.key_rank) OVER w AS chosen_rank,
         COUNT(*) OVER w AS candidate_count
  FROM ({_ARMS}
  ) a
  WINDOW w AS (PARTITION BY a.reading_id, a.role ORDER BY a.key_rank, a.position
               ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
) c
LEFT JOIN use_loss_reason lr
  ON c.rank > 1 AND lr.winner_rank = c.chosen_rank AND lr.loser_rank = c.key_rank
""",
    public=False,
)

# read by every export and report of the candidates, and by the 用神's definition below:
# stored (revision 0030), each reading's candidates are ranked once, when it is written
V_READING_USE_CANDIDATE = View(
    "v_reading_use_candidate",
    "readings",
    _CANDIDATE_DESCRIPTION + " Stored per reading in reading_use_candidate, the rows of "
    "v_reading_use_candidate_computed.",
    V_READING_USE_CANDIDATE_COMPUTED.columns,
    f"""
SELECT {", ".join(V_READING_USE_CANDIDATE_COMPUTED.column_names)}
FROM reading_use_candidate
""",
)

_BEARINGS = ("on", "generates", "helps", "controls", "combines")


def _bearing_columns() -> tuple[object, ...]:
    out = []
    for side, what in (("day", "the day branch"), ("month", "the month branch 月建")):
        for b in _BEARINGS:
            out.append(col(f"{side}_{b}", f"1 if {what} {b} it (臨 生 扶 剋 合)", FLAG))
    return tuple(out)


V_READING_USE_COMPUTED = View(
    "v_reading_use_computed",
    "readings",
    "The definition of v_reading_use: the chosen candidate of each role, computed by joining "
    "v_reading_use_candidate, v_reading_line and the rule tables (for a hidden spirit, those "
    "v_reading_hidden_computed joins). "
    "The table reading_use stores its rows for every reading (written with the reading and "
    "when its subject changes; yimao check compares the two); v_reading_use reads the table.",
    (
        col("reading_id", "The reading", READING),
        col("subject", "The subject asked about", "FK subject.name"),
        col("role", "The role", ROLE),
        col("role_ordinal", "1..4: 用神 原神 忌神 仇神", "1..4"),
        col("mark", "用 原 忌 or 仇, as a chart marks the line", "用/原/忌/仇"),
        col("relative", "The role's relative", "FK relative.name"),
        col("source", "visible line, hidden spirit 伏神, world or response line", SOURCE),
        col("position", "The line (for a hidden spirit, the line it hides under)", POSITION),
        col("stem", "Its najia stem under the reading's variant", "FK stem.name"),
        col("branch", "Its branch", "FK branch.name"),
        col("element", "Its element", "FK element.name"),
        col("ganzhi", "Stem + branch", "FK ganzhi.name"),
        col("strength", "Strength in the month 旺相休囚死", "FK strength.name"),
        col("stage", "Twelve stage at the day branch", "FK stage.name"),
        *_bearing_columns(),  # type: ignore[arg-type]
        col("is_void", "1 if void 旬空", FLAG),
        col("is_month_break", "1 if month-broken 月破", FLAG),
        col("is_day_clash", "1 if the day branch clashes it 日衝", FLAG),
        col("is_moving", "1 if it moves (0 for a hidden spirit)", FLAG),
        col(
            "transform",
            "A moving line's transforms (as v_reading_line.transform); NULL otherwise",
            "transforms joined by ',' or NULL",
            kind="texts",
        ),
        col(
            "changed_ganzhi",
            "A moving line's changed line; NULL otherwise",
            "FK ganzhi.name or NULL",
        ),
        col(
            "fly_relation",
            "For a hidden spirit: 飛生伏 伏生飛 飛克伏 伏克飛 or 比和; NULL otherwise",
            "fly_hidden_relation.relation or NULL",
        ),
        col(
            "fly_ganzhi",
            "For a hidden spirit: the 飛神 above it; NULL otherwise",
            "FK ganzhi.name or NULL",
        ),
        col(
            "fly_is_moving",
            "For a hidden spirit: 1 if its 飛神 moves; NULL otherwise",
            FLAG_OR_NULL,
        ),
        col(
            "fly_is_day_clash",
            "For a hidden spirit: 1 if the day clashes its 飛神; NULL otherwise",
            FLAG_OR_NULL,
        ),
        col(
            "month_stands_for",
            "1 if the month branch is the role's relative (月日代用, information)",
            FLAG,
        ),
        col(
            "day_stands_for",
            "1 if the day branch is the role's relative (月日代用, information)",
            FLAG,
        ),
        col("candidate_count", "How many candidates the role had", "1..6"),
    ),
    # One arm over the ranked candidates, so that a write ranks each reading's candidates
    # once (until revision 0024 an arm for the visible lines and one for the hidden spirits
    # ranked them twice, two thirds of the cost of writing a reading's 用神). v_reading_line
    # (the stored lines since revision 0028, written before the 用神: yimao_db.kb.derived)
    # is joined at the candidate's position as an inner join, which SQLite flattens into the
    # arm (one line looked up by its key): the candidate's own line, or the line over a
    # hidden spirit, its 飛神. A hidden spirit's own state comes from the rule tables
    # v_reading_hidden_computed joins for it (hidden_spirit, the najia of its pure hexagram,
    # the moment's bearings), LEFT JOINs that only a hidden candidate meets (a visible one's
    # state is its line's);
    # what only a visible line or only a 飛神 shows is a LEFT JOIN that only it meets.
    """
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, ur.mark, c.relative, c.source,
       c.position, COALESCE(hz.stem, vl.stem) AS stem, COALESCE(hs.branch, vl.branch) AS branch,
       COALESCE(hs.element, vl.element) AS element, COALESCE(hn.ganzhi, vl.ganzhi) AS ganzhi,
       c.strength, COALESCE(bd.stage, vl.stage) AS stage,
       COALESCE(db.is_on, vl.day_on) AS day_on,
       COALESCE(db.generates, vl.day_generates) AS day_generates,
       COALESCE(db.helps, vl.day_helps) AS day_helps,
       COALESCE(db.controls, vl.day_controls) AS day_controls,
       COALESCE(db.combines, vl.day_combines) AS day_combines,
       COALESCE(mb.is_on, vl.month_on) AS month_on,
       COALESCE(mb.generates, vl.month_generates) AS month_generates,
       COALESCE(mb.helps, vl.month_helps) AS month_helps,
       COALESCE(mb.controls, vl.month_controls) AS month_controls,
       COALESCE(mb.combines, vl.month_combines) AS month_combines,
       c.is_void, c.is_month_break, COALESCE(bd.is_day_clash, vl.is_day_clash) AS is_day_clash,
       c.is_moving, lt.transforms AS transform, cg.name AS changed_ganzhi,
       fh.relation AS fly_relation, fg.name AS fly_ganzhi, fv.is_moving AS fly_is_moving,
       fd.is_day_clash AS fly_is_day_clash,
       CAST(mr.relative = c.relative AS INTEGER) AS month_stands_for,
       CAST(dr.relative = c.relative AS INTEGER) AS day_stands_for, c.candidate_count
FROM v_reading_use_candidate c
JOIN reading r ON r.id = c.reading_id
JOIN use_role ur ON ur.role = c.role
JOIN v_reading_line vl ON vl.reading_id = c.reading_id AND vl.position = c.position
JOIN hexagram h ON h.king_wen = r.primary_kw
JOIN trigram pt ON pt.name = h.palace
JOIN ganzhi d ON d.name = r.day_gz
JOIN branch mbr ON mbr.name = r.month_branch
JOIN branch dbr ON dbr.name = d.branch
JOIN element_relation mr ON mr.me = pt.element AND mr.other = mbr.element
JOIN element_relation dr ON dr.me = pt.element AND dr.other = dbr.element
-- a visible candidate: its line's transformations and changed line, as v_reading_line's
LEFT JOIN line_transform lt ON c.source <> 'hidden' AND lt.branch = vl.branch
  AND lt.changed_branch = vl.changed_branch AND lt.changed_void = vl.changed_is_void
  AND lt.changed_break = vl.changed_is_month_break
LEFT JOIN ganzhi cg ON c.source <> 'hidden' AND cg.name = vl.changed_ganzhi
-- a hidden candidate: its own state, and the line over it, its 飛神
LEFT JOIN hidden_spirit hs
  ON c.source = 'hidden' AND hs.king_wen = r.primary_kw AND hs.position = c.position
LEFT JOIN hexagram_pattern hp ON hp.king_wen = hs.king_wen
LEFT JOIN line_najia hn ON hn.king_wen = hp.pure_king_wen AND hn.position = hs.position
  AND hn.half_year = r.najia_half
LEFT JOIN ganzhi hz ON hz.name = hn.ganzhi
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = hs.branch
LEFT JOIN branch_bearing db ON db.actor = d.branch AND db.branch = hs.branch
LEFT JOIN branch_bearing mb ON mb.actor = r.month_branch AND mb.branch = hs.branch
LEFT JOIN fly_hidden_relation fh ON fh.fly_element = vl.element AND fh.hidden_element = hs.element
LEFT JOIN ganzhi fg ON c.source = 'hidden' AND fg.name = vl.ganzhi
LEFT JOIN line_value fv ON c.source = 'hidden' AND fv.value = vl.value
LEFT JOIN branch_on_day fd ON c.source = 'hidden' AND fd.day_gz = r.day_gz
  AND fd.branch = vl.branch
WHERE c.rank = 1
""",
    public=False,
)

V_READING_USE = View(
    "v_reading_use",
    "readings",
    "The 用神 of each reading with a subject, and its 原神 忌神 仇神, each the chosen "
    "candidate of v_reading_use_candidate, with its state against the moment (as "
    "v_reading_line or, for a hidden spirit, v_reading_hidden gives it) and, for a hidden "
    "one, how its 飛神 stands to it. Stored per reading in reading_use, the rows of "
    "v_reading_use_computed.",
    V_READING_USE_COMPUTED.columns,
    f"""
SELECT {", ".join(V_READING_USE_COMPUTED.column_names)}
FROM reading_use
""",
)

VIEWS = (
    V_READING_USE_CANDIDATE_COMPUTED,
    V_READING_USE_CANDIDATE,
    V_READING_USE_COMPUTED,
    V_READING_USE,
)
