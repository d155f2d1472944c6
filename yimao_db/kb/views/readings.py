"""The chart of a stored reading: its head (v_reading), its six lines against the moment
(v_reading_line) and its hidden spirits (v_reading_hidden).

How these are written (docs/performance.md has the figures):

- A reading stores its inputs and the keys derived from them at insert (primary and
  changed hexagram, the moving-line mask, the half of the najia table); every other value
  is a join with a rule table, whose rows are total over their keys so that a flag is read,
  never computed.
- The reading drives the loop: everything that depends only on the reading (its day, hour,
  hexagram and palace) is joined before ``reading_line``, so it is looked up once per
  reading; LEFT JOINs keep that order on SQLite (which never moves a LEFT JOIN operand
  before the tables written to its left) and let it drop the joins a query does not use.
- A still line's changed-line lookups have a NULL key and cost nothing.
- Three of the views read derived tables (:mod:`yimao_db.kb.derived`): ``v_reading`` reads
  every column but the journal's from ``reading_header`` (what the rule tables give a
  reading, and the reading's own columns), ``v_reading_line`` reads ``reading_line_chart``
  (revision 0028) and ``v_reading_hidden`` reads ``reading_hidden``. Each table stores, for
  every reading, the rows of a private view that stays the definition
  (``v_reading_header_computed``, ``v_reading_line_computed``,
  ``v_reading_hidden_computed``): SQLite looks up every join of a view under GROUP BY,
  used or not, so an aggregate over all readings would pay some twenty lookups a reading
  (a line, some twenty lookups a line).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from yimao_db.kb.rules.sign_family import lodge_at_cast
from yimao_db.kb.views.base import (
    BITS,
    FLAG,
    FLAG_OR_NULL,
    KING_WEN,
    POSITION,
    POSITIONS,
    READING,
    View,
    col,
)

V_MONTH_SPIRIT_BRANCH = View(
    "v_month_spirit_branch",
    "rules",
    "大六神 by branch (§7.2, §7.10): for each month, the spirits standing on each branch "
    "(at most two). Kept for compatibility: the same rows as the table month_spirit_branch.",
    (
        col("month_branch", "The month's branch", "FK branch.name"),
        col("branch", "A branch some spirit stands on that month", "FK branch.name"),
        col("spirit_count", "How many spirits stand on it", "1..2"),
        col("spirits", "The spirits, in cycle order, joined by ','", "e.g. 青龍 or 朱雀,騰蛇"),
    ),
    """
SELECT month_branch, branch, spirit_count, spirits
FROM month_spirit_branch
""",
    public=False,
)

V_READING_CAST = View(
    "v_reading_cast",
    "readings",
    "What each reading's cast lines give: primary and changed bits and the moving lines. "
    "Kept for compatibility: reading holds these as keys (primary_kw, changed_kw, "
    "moving_mask).",
    (
        col("reading_id", "The reading", READING),
        col("primary_bits", "本卦 bits: 7 and 9 are yang", BITS),
        col("changed_bits", "變卦 bits: 6 and 9 flipped", BITS),
        col("moving_lines", "Positions of the moving lines joined by ','", "e.g. 1,4"),
        col("moving_count", "Number of moving lines", "0..6"),
        col("line_count", "Number of cast lines stored (6 for a complete reading)", "6"),
    ),
    """
SELECT r.id AS reading_id, p.bits AS primary_bits, COALESCE(c.bits, p.bits) AS changed_bits,
       ml.lines AS moving_lines, ml.line_count AS moving_count,
       (SELECT COUNT(*) FROM reading_line x WHERE x.reading_id = r.id) AS line_count
FROM reading r
LEFT JOIN hexagram p ON p.king_wen = r.primary_kw
LEFT JOIN hexagram c ON c.king_wen = r.changed_kw
LEFT JOIN moving_lines ml ON ml.mask = r.moving_mask
""",
    public=False,
)


V_READING = View(
    "v_reading",
    "readings",
    "A reading's chart header: the moment, its void branches, primary and changed "
    "hexagrams, palace, generation, 互卦, 六衝/六合, the two bodies, the relatives of the "
    "moment's branches and the matter asked about. All but the journal's columns are stored "
    "per reading in reading_header (the rows of v_reading_header_computed, which joins them).",
    (
        col("reading_id", "The reading", READING),
        col("question", "The question, verbatim", null=True),
        col(
            "cast_at",
            "The moment as local civil time with offset, ISO 8601; NULL for a reading given as "
            "pillars",
            null=True,
        ),
        col("tz", "IANA time zone of cast_at", null=True),
        col("year_gz", "Year pillar", "FK ganzhi.name or NULL"),
        col("month_gz", "Month pillar", "FK ganzhi.name or NULL"),
        col("day_gz", "Day pillar", "FK ganzhi.name"),
        col("hour_gz", "Hour pillar", "FK ganzhi.name or NULL"),
        col("void_branches", "The day's two void branches 旬空", "two branches"),
        col("primary_king_wen", "本卦, the primary hexagram", KING_WEN),
        col("primary_name", "The primary hexagram's full name", "FK hexagram.name"),
        col(
            "changed_king_wen",
            "變卦, the changed hexagram; NULL with no moving line",
            KING_WEN + " or NULL",
        ),
        col("changed_name", "The changed hexagram's full name", "FK hexagram.name or NULL"),
        col("palace", "The primary hexagram's palace", "FK palace.name"),
        col(
            "moving_lines",
            "Positions of the moving lines joined by ',', e.g. 1,4; empty when none",
            POSITIONS,
            kind="integers",
        ),
        col(
            "nuclear_king_wen",
            "互卦 of the primary hexagram (lines 2–4 below, 3–5 above)",
            KING_WEN,
        ),
        col(
            "is_liuchong",
            "1 if the primary hexagram is a 六衝卦: lines 1–4, 2–5 and 3–6 all clash (the eight "
            "pure hexagrams, 無妄, 大壯)",
            FLAG,
        ),
        col(
            "is_liuhe",
            "1 if the primary hexagram is a 六合卦: all three pairs combine "
            "(否 泰 困 節 賁 旅 復 豫)",
            FLAG,
        ),
        col("generation_name", "The primary's generation; 遊魂 change, 歸魂 return (§8.5)"),
        col("gua_shen", "卦身 branch of the primary hexagram (§9.1)", "FK branch.name"),
        col(
            "gua_shen_positions",
            "Lines holding the 卦身, joined by ','; empty when none does (§9.1)",
            POSITIONS,
            kind="integers",
        ),
        col("shi_shen_line", "世身 line of the primary hexagram (§9.1)", POSITION),
        col("created_at", "When the reading was stored, UTC ISO 8601"),
        col("method", "How it was cast", "values/coins/notation/hexagram/random"),
        col("cast_input", "What was typed to cast it (NULL for random)", null=True),
        col("month_branch", "月建, the month's branch", "FK branch.name"),
        col("solar_term", "The solar term in force at cast_at; NULL with no cast_at", null=True),
        col("half_year", "冬至後 or 夏至後 at cast_at (§4.3)", "冬至後/夏至後 or NULL"),
        col("early_rat", "1 if 23:00–24:00 counted as the next day (早子時)", FLAG),
        col("najia_variant", "fixed (default) or seasonal 二老時遷 (§4.3)", "fixed/seasonal"),
        col("primary_bits", "The primary hexagram's bits", BITS),
        col(
            "changed_bits",
            "The changed hexagram's bits; NULL with no moving line",
            BITS + " or NULL",
        ),
        col("primary_short_name", "The primary hexagram's short name"),
        col(
            "changed_short_name",
            "The changed hexagram's short name; NULL with no moving line",
            null=True,
        ),
        col(
            "year_relative",
            "The relative the year branch is to the palace (§6.2 commentary: the moment's "
            "branches take relatives too); NULL with no year pillar",
            "FK relative.name or NULL",
        ),
        col(
            "month_relative",
            "The relative the month branch 月建 is to the palace",
            "FK relative.name",
        ),
        col("day_relative", "The relative the day branch is to the palace", "FK relative.name"),
        col(
            "hour_relative",
            "The relative the hour branch is to the palace; NULL with no hour",
            "FK relative.name or NULL",
        ),
        col(
            "matter",
            "The kind of matter asked about (§9.5): 功名 財利 獄訟 憂患; NULL if not said",
            "FK matter.name or NULL",
        ),
        col(
            "outcome",
            "What happened, as recorded: hit, miss or partial; NULL if none yet",
            "hit/miss/partial or NULL",
        ),
        col("outcome_on", "The day the outcome happened, ISO 8601 date; NULL if none", null=True),
        col("note_count", "How many notes the reading has", "0.."),
        col("tag_count", "How many tags the reading has", "0.."),
        col(
            "changed_palace",
            "The changed hexagram's palace; NULL with no moving line",
            "FK palace.name or NULL",
        ),
        col(
            "changed_generation_name",
            "The changed hexagram's generation in its palace; NULL with no moving line",
            "FK generation.name or NULL",
        ),
        col("nuclear_name", "The full name of the 互卦", "FK hexagram.name"),
        col(
            "cast_utc",
            "The instant of cast_at on the UTC clock, YYYY-MM-DDTHH:MM:SSZ; NULL for a reading "
            "given as pillars",
            null=True,
        ),
        col(
            "sun_mansion",
            "日纏: the lodge the sun is in at cast_utc (lodge_ingress, §8.12); NULL with no "
            "cast_utc or outside the lodge table (1901–2100, UTC)",
            "FK mansion.name or NULL",
        ),
        col(
            "moon_mansion",
            "月麗: the lodge the moon is in at cast_utc (lodge_ingress, §8.12); NULL with no "
            "cast_utc or outside the lodge table (1901–2100, UTC)",
            "FK mansion.name or NULL",
        ),
        col(
            "all_moving_name",
            "用九 when all six lines of 乾 move, 用六 when all six of 坤 do (all_moving); NULL "
            "otherwise",
            "用九/用六 or NULL",
        ),
    ),
    """
SELECT h.reading_id, h.question, h.cast_at, h.tz,
       h.year_gz, h.month_gz, h.day_gz, h.hour_gz,
       h.void_branches, h.primary_king_wen, h.primary_name, h.changed_king_wen, h.changed_name,
       h.palace, h.moving_lines, h.nuclear_king_wen, h.is_liuchong, h.is_liuhe,
       h.generation_name, h.gua_shen, h.gua_shen_positions, h.shi_shen_line,
       h.created_at, h.method, h.cast_input, h.month_branch, h.solar_term, h.half_year,
       h.early_rat, h.najia_variant, h.primary_bits, h.changed_bits,
       h.primary_short_name, h.changed_short_name,
       h.year_relative, h.month_relative, h.day_relative, h.hour_relative, h.matter,
       (SELECT o.verdict FROM reading_outcome o WHERE o.reading_id = h.reading_id) AS outcome,
       (SELECT o.happened_on FROM reading_outcome o WHERE o.reading_id = h.reading_id)
         AS outcome_on,
       (SELECT COUNT(*) FROM reading_note n WHERE n.reading_id = h.reading_id) AS note_count,
       (SELECT COUNT(*) FROM reading_tag t WHERE t.reading_id = h.reading_id) AS tag_count,
       h.changed_palace, h.changed_generation_name, h.nuclear_name,
       h.cast_utc, h.sun_mansion, h.moon_mansion, h.all_moving_name
FROM reading_header h  -- its reading_id is the view's: ORDER BY reading_id walks its key
""",
)

# The columns of v_reading that are the journal's: read by v_reading itself from the journal's
# tables, which change after the cast. Every other column is stored in the derived table
# reading_header (yimao_db.kb.derived): what the rule tables give a reading and, since
# revision 0023, the reading's own columns, so that v_reading reads one table and a count
# or facet over all readings needs no lookup of `reading` (SQLite keeps every join of a view
# under GROUP BY). The reading's own columns follow the others, as 0023 added them.
JOURNAL_COLUMNS = ("outcome", "outcome_on", "note_count", "tag_count")
OWN_COLUMNS = (
    "question", "cast_at", "tz", "year_gz", "month_gz", "day_gz", "hour_gz", "created_at",
    "method", "cast_input", "month_branch", "solar_term", "half_year", "early_rat",
    "najia_variant", "matter", "cast_utc",
)  # fmt: skip
_STORED = tuple(
    c for c in V_READING.columns if c.name not in JOURNAL_COLUMNS + OWN_COLUMNS
) + tuple(c for c in V_READING.columns if c.name in OWN_COLUMNS)


def _wrapped(items: Iterable[str]) -> str:
    """``items`` as a select list: joined by commas, in lines of at most 100 characters
    indented like the SQL around them (whose text indents the first)."""
    indent = " " * 7
    return textwrap.fill(
        ", ".join(items), 100, initial_indent=indent, subsequent_indent=indent
    ).lstrip()


V_READING_HEADER_COMPUTED = View(
    "v_reading_header_computed",
    "readings",
    "The definition of the columns of v_reading but the journal's: what the rule tables give "
    "a reading, computed by joining them, then the reading's own columns. The table "
    "reading_header stores its rows for every reading (written with the reading; yimao check "
    "compares the two); v_reading reads the table.",
    _STORED,
    """
SELECT r.id AS reading_id,
       d.void_first || d.void_second AS void_branches,
       p.king_wen AS primary_king_wen, p.name AS primary_name,
       c.king_wen AS changed_king_wen, c.name AS changed_name,
       p.palace, ml.lines AS moving_lines, hp.nuclear_king_wen, hp.is_liuchong, hp.is_liuhe,
       g.name AS generation_name, p.gua_shen, hp.gua_shen_positions, p.shi_shen_line,
       p.bits AS primary_bits, c.bits AS changed_bits,
       p.short_name AS primary_short_name, c.short_name AS changed_short_name,
       yr.relative AS year_relative, mr.relative AS month_relative,
       dr.relative AS day_relative, hr.relative AS hour_relative,
       c.palace AS changed_palace, cg.name AS changed_generation_name, n.name AS nuclear_name,
       LODGE_OF_SUN AS sun_mansion, LODGE_OF_MOON AS moon_mansion,
       am.name AS all_moving_name,
       READING_OWN
FROM reading r
LEFT JOIN ganzhi d ON d.name = r.day_gz
LEFT JOIN hexagram p ON p.king_wen = r.primary_kw
LEFT JOIN generation g ON g.ordinal = p.generation
LEFT JOIN hexagram_pattern hp ON hp.king_wen = r.primary_kw
LEFT JOIN hexagram c ON c.king_wen = r.changed_kw
LEFT JOIN moving_lines ml ON ml.mask = r.moving_mask
LEFT JOIN trigram pt ON pt.name = p.palace
LEFT JOIN ganzhi yg ON yg.name = r.year_gz
LEFT JOIN ganzhi hg ON hg.name = r.hour_gz
LEFT JOIN branch yb ON yb.name = yg.branch
LEFT JOIN branch mb ON mb.name = r.month_branch
LEFT JOIN branch db ON db.name = d.branch
LEFT JOIN branch hb ON hb.name = hg.branch
LEFT JOIN element_relation yr ON yr.me = pt.element AND yr.other = yb.element
LEFT JOIN element_relation mr ON mr.me = pt.element AND mr.other = mb.element
LEFT JOIN element_relation dr ON dr.me = pt.element AND dr.other = db.element
LEFT JOIN element_relation hr ON hr.me = pt.element AND hr.other = hb.element
LEFT JOIN generation cg ON cg.ordinal = c.generation
LEFT JOIN hexagram n ON n.king_wen = hp.nuclear_king_wen
LEFT JOIN all_moving am ON am.king_wen = r.primary_kw AND am.mask = r.moving_mask
""".replace("LODGE_OF_SUN", lodge_at_cast("'日'"))
    .replace("LODGE_OF_MOON", lodge_at_cast("'月'"))
    .replace("READING_OWN", _wrapped(f"r.{name}" for name in OWN_COLUMNS)),
    public=False,
)

V_READING_LINE = View(
    "v_reading_line",
    "readings",
    "A reading's six lines against the moment: najia (seasonal variant applied), "
    "relative, the spirits by day, hour and month and the noble's general (§7.2), void, "
    "月破, 日衝, strength and stage, how the day and month bear on the line (臨 生 扶 剋 合), "
    "and for moving lines the changed line and its transformations (§8.14).",
    (
        col("reading_id", "The reading", READING),
        col("position", "Line 1..6 from the bottom", POSITION),
        col("value", "6 old yin, 7 young yang, 8 young yin, 9 old yang", "6..9"),
        col("is_moving", "1 for 6 and 9, the moving lines", FLAG),
        col("stem", "Najia stem under the reading's variant (§4.3)", "FK stem.name"),
        col("branch", "Najia branch", "FK branch.name"),
        col("element", "The branch's element", "FK element.name"),
        col("relative", "Relative against the palace element", "FK relative.name"),
        col(
            "spirit",
            "司日: the spirit by the day stem (§7.2): line 1 甲乙 青龍, 丙丁 朱雀, 戊 勾陳, "
            "己 騰蛇, 庚辛 白虎, 壬癸 玄武, then 青龍 朱雀 勾陳 騰蛇 白虎 玄武 upward",
            "FK spirit.name",
        ),
        col(
            "hour_spirit",
            "司時: the same rule with the hour's stem, which 五子遁 gives (§7.2); NULL with no "
            "hour",
            "FK spirit.name or NULL",
        ),
        col(
            "month_spirit",
            "司月 / 大六神: the spirits standing on the line's branch this month, joined by ',' "
            "(in the 卯 month 青龍,騰蛇 on 卯; §7.2, §7.10); NULL if none",
            "spirits joined by ',' or NULL",
            kind="texts",
        ),
        col(
            "noble_general",
            "司貴: the general on the line's branch, counted from the day stem's 陽貴 (hours "
            "卯–申) or 陰貴 (酉–寅), forward or backward (§7.2); NULL with no hour",
            "FK general.name or NULL",
        ),
        col("is_world", "1 on the world line", FLAG),
        col("is_response", "1 on the response line", FLAG),
        col("is_between", "1 on the two lines between world and response (§10.1)", FLAG),
        col("mansion", "黃金策 mansion of the line (§8.11)", "FK mansion.name"),
        col("is_dusk_mansion", "1 if it is the month's 昏中 mansion (§8.12)", FLAG),
        col("is_void", "1 if its branch is void 旬空 on the day", FLAG),
        col("is_month_break", "1 if its branch clashes the month branch 月破", FLAG),
        col("is_day_clash", "1 if its branch clashes the day branch 日衝", FLAG),
        col("strength", "Seasonal strength in the month 旺相休囚死", "FK strength.name"),
        col(
            "stage",
            "Twelve stage of its element at the day branch (土 with 水)",
            "FK stage.name",
        ),
        col("changed_stem", "Moving lines: the changed line's najia stem", "FK stem.name or NULL"),
        col("changed_branch", "Moving lines: the changed line's branch", "FK branch.name or NULL"),
        col(
            "changed_element",
            "Moving lines: the changed line's element",
            "FK element.name or NULL",
        ),
        col(
            "changed_relative",
            "Moving lines: the changed line's relative, against the primary palace",
            "FK relative.name or NULL",
        ),
        col(
            "transform",
            "Moving lines: what applies of 化進神 化退神 回頭生 回頭克 化空 化破 化墓 化絕, "
            "joined by ',' (§8.14); NULL when none does, and on a still line",
            "transforms joined by ',' or NULL",
            kind="texts",
        ),
        col("ganzhi", "Stem + branch of the line", "FK ganzhi.name"),
        col(
            "changed_ganzhi",
            "Moving lines: stem + branch of the changed line",
            "FK ganzhi.name or NULL",
        ),
        col("day_on", "1 if the day branch stands on the line: its branch is the line's 臨", FLAG),
        col(
            "day_generates",
            "1 if the day branch generates the line 生: its element generates the line's",
            FLAG,
        ),
        col(
            "day_helps",
            "1 if the day branch helps the line 扶: its element is the line's (臨 included)",
            FLAG,
        ),
        col(
            "day_controls",
            "1 if the day branch controls the line 剋: its element controls the line's",
            FLAG,
        ),
        col(
            "day_combines",
            "1 if the day branch combines with the line 合: the two branches form a 六合",
            FLAG,
        ),
        col(
            "month_on",
            "1 if the month branch 月建 stands on the line: its branch is the line's 臨",
            FLAG,
        ),
        col(
            "month_generates",
            "1 if the month branch 月建 generates the line 生: its element generates the line's",
            FLAG,
        ),
        col(
            "month_helps",
            "1 if the month branch 月建 helps the line 扶: its element is the line's (臨 included)",
            FLAG,
        ),
        col(
            "month_controls",
            "1 if the month branch 月建 controls the line 剋: its element controls the line's",
            FLAG,
        ),
        col(
            "month_combines",
            "1 if the month branch 月建 combines with the line 合: the two branches form a 六合",
            FLAG,
        ),
        col(
            "changed_is_void",
            "Moving lines: 1 if the changed line's branch is void 旬空 on the day; NULL for a "
            "still line",
            FLAG_OR_NULL,
        ),
        col(
            "changed_is_month_break",
            "Moving lines: 1 if the changed line's branch clashes the month branch 月破; NULL "
            "for a still line",
            FLAG_OR_NULL,
        ),
        col(
            "changed_is_day_clash",
            "Moving lines: 1 if the changed line's branch clashes the day branch 日衝; NULL "
            "for a still line",
            FLAG_OR_NULL,
        ),
        col(
            "places",
            "The line's places, joined by ',': 將來 after the 世身 line, 已往 before it "
            "(§10.5), 近我 or 近彼 on the between line beside the world or the response "
            "(§10.3), then 地 右鄰 後鄰 (1), 臣 (2), 門戶 (3, 4), 左鄰 前鄰 (4), 君 (5), 天 (6) "
            "(§10.5); what the line stands for, not a judgment",
            "places joined by ','",
            kind="texts",
        ),
    ),
    """
SELECT reading_id, position, value, is_moving, stem, branch, element, relative, spirit,
       hour_spirit, month_spirit, noble_general, is_world, is_response, is_between, mansion,
       is_dusk_mansion, is_void, is_month_break, is_day_clash, strength, stage, changed_stem,
       changed_branch, changed_element, changed_relative, transform, ganzhi, changed_ganzhi,
       day_on, day_generates, day_helps, day_controls, day_combines, month_on,
       month_generates, month_helps, month_controls, month_combines, changed_is_void,
       changed_is_month_break, changed_is_day_clash, places
FROM reading_line_chart
""",
)

V_READING_LINE_COMPUTED = View(
    "v_reading_line_computed",
    "readings",
    "The definition of v_reading_line: a reading's six lines computed by joining the rule "
    "tables. The table reading_line_chart stores its rows for every reading (written with "
    "the reading; yimao check compares the two); v_reading_line reads the table.",
    V_READING_LINE.columns,
    """
SELECT r.id AS reading_id, rl.position, rl.value, lv.is_moving,
       ln.stem, l.branch, l.element, l.relative,
       ds.spirit, hsp.spirit AS hour_spirit, msb.spirits AS month_spirit,
       ng.general AS noble_general,
       l.is_world, l.is_response, l.is_between, l.mansion, mm.is_dusk AS is_dusk_mansion,
       bd.is_void, bm.is_month_break, bd.is_day_clash, bm.strength, bd.stage,
       cn.stem AS changed_stem, cl.branch AS changed_branch, cl.element AS changed_element,
       er.relative AS changed_relative, lt.transforms AS transform,
       ln.ganzhi, cn.ganzhi AS changed_ganzhi,
       db.is_on AS day_on, db.generates AS day_generates, db.helps AS day_helps,
       db.controls AS day_controls, db.combines AS day_combines,
       mb.is_on AS month_on, mb.generates AS month_generates, mb.helps AS month_helps,
       mb.controls AS month_controls, mb.combines AS month_combines,
       cbd.is_void AS changed_is_void, cbm.is_month_break AS changed_is_month_break,
       cbd.is_day_clash AS changed_is_day_clash, lps.places
FROM reading r
LEFT JOIN ganzhi d ON d.name = r.day_gz
LEFT JOIN ganzhi hg ON hg.name = r.hour_gz
LEFT JOIN noble_hour nh ON nh.hour_branch = hg.branch
LEFT JOIN hexagram h ON h.king_wen = r.primary_kw
LEFT JOIN trigram pt ON pt.name = h.palace
CROSS JOIN reading_line rl
LEFT JOIN line_value lv ON lv.value = rl.value
LEFT JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = rl.position
LEFT JOIN line_najia ln
  ON ln.king_wen = r.primary_kw AND ln.position = rl.position AND ln.half_year = r.najia_half
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
LEFT JOIN branch_bearing db ON db.actor = d.branch AND db.branch = l.branch
LEFT JOIN branch_bearing mb ON mb.actor = r.month_branch AND mb.branch = l.branch
LEFT JOIN month_spirit_branch msb ON msb.month_branch = r.month_branch AND msb.branch = l.branch
LEFT JOIN month_mansion mm ON mm.month_branch = r.month_branch AND mm.mansion = l.mansion
LEFT JOIN line_places lps ON lps.king_wen = r.primary_kw AND lps.position = rl.position
LEFT JOIN day_spirit ds ON ds.day_stem = d.stem AND ds.position = rl.position
LEFT JOIN hour_spirit hsp
  ON hsp.day_stem = d.stem AND hsp.hour_branch = hg.branch AND hsp.position = rl.position
LEFT JOIN noble_general ng ON ng.day_stem = d.stem AND ng.half = nh.half AND ng.branch = l.branch
LEFT JOIN hexagram_line cl  -- the changed line, for moving lines only
  ON lv.is_moving = 1 AND cl.king_wen = r.changed_kw AND cl.position = rl.position
LEFT JOIN line_najia cn
  ON cn.king_wen = cl.king_wen AND cn.position = cl.position AND cn.half_year = r.najia_half
LEFT JOIN element_relation er ON er.me = pt.element AND er.other = cl.element
LEFT JOIN branch_on_day cbd ON cbd.day_gz = r.day_gz AND cbd.branch = cl.branch
LEFT JOIN branch_in_month cbm ON cbm.month_branch = r.month_branch AND cbm.branch = cl.branch
LEFT JOIN line_transform lt ON lt.branch = l.branch AND lt.changed_branch = cl.branch
  AND lt.changed_void = cbd.is_void AND lt.changed_break = cbm.is_month_break
WHERE rl.reading_id = r.id
""",
    public=False,
)

V_READING_HIDDEN = View(
    "v_reading_hidden",
    "readings",
    "A reading's hidden spirits 伏神 against the moment: void, 月破, 日衝, strength and "
    "stage, and how the day and month bear on them (臨 生 扶 剋 合).",
    (
        col("reading_id", "The reading", READING),
        col("position", "The line it hides under, 1..6", POSITION),
        col("relative", "The hidden relative", "FK relative.name"),
        col("ganzhi", "Its stem and branch under the reading's najia variant", "FK ganzhi.name"),
        col("element", "Its element", "FK element.name"),
        col("over_ganzhi", "Stem and branch of the line above it (飛神)", "FK ganzhi.name"),
        col("is_void", "1 if its branch is void 旬空 on the day", FLAG),
        col("is_month_break", "1 if its branch clashes the month branch 月破", FLAG),
        col("strength", "Seasonal strength in the month", "FK strength.name"),
        col("stage", "Twelve stage of its element at the day branch", "FK stage.name"),
        col("stem", "Its najia stem (fixed table)", "FK stem.name"),
        col("branch", "Its najia branch", "FK branch.name"),
        col("over_relative", "Relative of the line above it (飛神)", "FK relative.name"),
        col("is_day_clash", "1 if its branch clashes the day branch 日衝", FLAG),
        col(
            "day_on",
            "1 if the day branch stands on the spirit: its branch is the spirit's 臨",
            FLAG,
        ),
        col(
            "day_generates",
            "1 if the day branch generates the spirit 生: its element generates the spirit's",
            FLAG,
        ),
        col(
            "day_helps",
            "1 if the day branch helps the spirit 扶: its element is the spirit's (臨 included)",
            FLAG,
        ),
        col(
            "day_controls",
            "1 if the day branch controls the spirit 剋: its element controls the spirit's",
            FLAG,
        ),
        col(
            "day_combines",
            "1 if the day branch combines with the spirit 合: the two branches form a 六合",
            FLAG,
        ),
        col(
            "month_on",
            "1 if the month branch stands on the spirit: its branch is the spirit's 臨",
            FLAG,
        ),
        col(
            "month_generates",
            "1 if the month branch generates the spirit 生: its element generates the spirit's",
            FLAG,
        ),
        col(
            "month_helps",
            "1 if the month branch helps the spirit 扶: its element is the spirit's (臨 included)",
            FLAG,
        ),
        col(
            "month_controls",
            "1 if the month branch controls the spirit 剋: its element controls the spirit's",
            FLAG,
        ),
        col(
            "month_combines",
            "1 if the month branch combines with the spirit 合: the two branches form a 六合",
            FLAG,
        ),
    ),
    """
SELECT reading_id, position, relative, ganzhi, element, over_ganzhi, is_void, is_month_break,
       strength, stage, stem, branch, over_relative, is_day_clash,
       day_on, day_generates, day_helps, day_controls, day_combines,
       month_on, month_generates, month_helps, month_controls, month_combines
FROM reading_hidden
""",
)

V_READING_HIDDEN_COMPUTED = View(
    "v_reading_hidden_computed",
    "readings",
    "The definition of v_reading_hidden: a reading's hidden spirits computed by joining the "
    "rule tables. The table reading_hidden stores its rows for every reading (written with "
    "the reading; yimao check compares the two); v_reading_hidden reads the table.",
    V_READING_HIDDEN.columns,
    """
SELECT r.id AS reading_id, hs.position, hs.relative, hn.ganzhi, hs.element,
       onj.ganzhi AS over_ganzhi, bd.is_void, bm.is_month_break, bm.strength, bd.stage,
       hs.stem, hs.branch, o.relative AS over_relative, bd.is_day_clash,
       db.is_on AS day_on, db.generates AS day_generates, db.helps AS day_helps,
       db.controls AS day_controls, db.combines AS day_combines,
       mb.is_on AS month_on, mb.generates AS month_generates, mb.helps AS month_helps,
       mb.controls AS month_controls, mb.combines AS month_combines
FROM reading r
LEFT JOIN ganzhi d ON d.name = r.day_gz
LEFT JOIN hexagram_pattern hp ON hp.king_wen = r.primary_kw
CROSS JOIN hidden_spirit hs
LEFT JOIN line_najia hn ON hn.king_wen = hp.pure_king_wen AND hn.position = hs.position
  AND hn.half_year = r.najia_half
LEFT JOIN hexagram_line o ON o.king_wen = r.primary_kw AND o.position = hs.position
LEFT JOIN line_najia onj ON onj.king_wen = r.primary_kw AND onj.position = hs.position
  AND onj.half_year = r.najia_half
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = hs.branch
LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = hs.branch
LEFT JOIN branch_bearing db ON db.actor = d.branch AND db.branch = hs.branch
LEFT JOIN branch_bearing mb ON mb.actor = r.month_branch AND mb.branch = hs.branch
WHERE hs.king_wen = r.primary_kw
""",
    public=False,
)

V_READING_NUCLEAR = View(
    "v_reading_nuclear",
    "readings",
    "The six lines of a reading's nuclear hexagram 互卦 (lines 2–4 below, 3–5 above) with "
    "their najia under the reading's half of the table and their relatives against the "
    "primary palace (§6.2 commentary: 飛伏互變 take relatives from the same 我).",
    (
        col("reading_id", "The reading", READING),
        col("position", "Line 1..6 of the nuclear hexagram", POSITION),
        col("nuclear_king_wen", "The nuclear hexagram 互卦", KING_WEN),
        col("stem", "Najia stem under the reading's variant (§4.3)", "FK stem.name"),
        col("branch", "Najia branch", "FK branch.name"),
        col("ganzhi", "Stem + branch", "FK ganzhi.name"),
        col("element", "The branch's element", "FK element.name"),
        col("relative", "Relative against the primary hexagram's palace", "FK relative.name"),
    ),
    """
SELECT r.id AS reading_id, nl.position, nl.king_wen AS nuclear_king_wen, nn.stem, nl.branch,
       nn.ganzhi, nl.element, er.relative
FROM reading r
LEFT JOIN hexagram_pattern hp ON hp.king_wen = r.primary_kw
LEFT JOIN hexagram h ON h.king_wen = r.primary_kw
LEFT JOIN trigram pt ON pt.name = h.palace
CROSS JOIN hexagram_line nl
LEFT JOIN line_najia nn
  ON nn.king_wen = nl.king_wen AND nn.position = nl.position AND nn.half_year = r.najia_half
LEFT JOIN element_relation er ON er.me = pt.element AND er.other = nl.element
WHERE nl.king_wen = hp.nuclear_king_wen
""",
)

V_READING_CHANGED_LINE = View(
    "v_reading_changed_line",
    "readings",
    "The six lines of a reading's changed hexagram 變卦, moving or not, with their najia under "
    "the reading's half of the table and their relatives against the primary palace (§6.2 "
    "commentary); no rows when no line moves.",
    (
        col("reading_id", "The reading", READING),
        col("position", "Line 1..6 of the changed hexagram", POSITION),
        col("yang", "1 if the line is yang", FLAG),
        col("stem", "Najia stem under the reading's variant (§4.3)", "FK stem.name"),
        col("branch", "Najia branch", "FK branch.name"),
        col("element", "The branch's element", "FK element.name"),
        col("relative", "Relative against the primary hexagram's palace", "FK relative.name"),
        col("ganzhi", "Stem + branch", "FK ganzhi.name"),
    ),
    """
SELECT r.id AS reading_id, cl.position, cl.yang, cn.stem, cl.branch, cl.element, er.relative,
       cn.ganzhi
FROM reading r
LEFT JOIN hexagram h ON h.king_wen = r.primary_kw
LEFT JOIN trigram pt ON pt.name = h.palace
CROSS JOIN hexagram_line cl
LEFT JOIN line_najia cn
  ON cn.king_wen = cl.king_wen AND cn.position = cl.position AND cn.half_year = r.najia_half
LEFT JOIN element_relation er ON er.me = pt.element AND er.other = cl.element
WHERE cl.king_wen = r.changed_kw
""",
)

VIEWS = (
    V_MONTH_SPIRIT_BRANCH,
    V_READING_CAST,
    V_READING_HEADER_COMPUTED,
    V_READING,
    V_READING_LINE_COMPUTED,
    V_READING_LINE,
    V_READING_HIDDEN_COMPUTED,
    V_READING_HIDDEN,
    V_READING_NUCLEAR,
    V_READING_CHANGED_LINE,
)
