"""The lodges of the sun and the moon in the readings (§8.12): reading.cast_utc, v_reading's
sun_mansion and moon_mansion, and the signs 日纏, 月麗 (lodge_sign) and 盡善 (use_lodge_sign).

reading.cast_utc is the instant of cast_at on the UTC clock (YYYY-MM-DDTHH:MM:SSZ, NULL for a
reading given as pillars), which the calendar computes at insert; the upgrade computes it
for the readings already stored, from their cast_at and tz, in Python (the same function
the calendar uses), so no dialect's date arithmetic is needed. v_reading looks the lodges
up in lodge_ingress (revision 0010) by it; v_reading_sign gains the arms of the two new
sign families. The downgrade drops the column: it is derived from cast_at, not user data.

Revision ID: 0015
Revises: 0014
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CAST_UTC_COMMENT = (
    "The instant of cast_at on the UTC clock, YYYY-MM-DDTHH:MM:SSZ, computed at insert by "
    "the calendar: the lodges of the sun and the moon (lodge_ingress, §8.12) are looked up "
    "by it; NULL for a reading given as pillars"
)
CAST_UTC_CHECK = "cast_utc LIKE '____-__-__T__:__:__Z'"
CHECK_NAME = "ck_reading_cast_utc_utc"
SIGN_TABLES = ("use_lodge_sign", "lodge_sign")

VIEWS = (
    ViewSQL(
        "v_reading",
        """
SELECT r.id AS reading_id, r.question, r.cast_at, r.tz,
       r.year_gz, r.month_gz, r.day_gz, r.hour_gz,
       d.void_first || d.void_second AS void_branches,
       p.king_wen AS primary_king_wen, p.name AS primary_name,
       c.king_wen AS changed_king_wen, c.name AS changed_name,
       p.palace, ml.lines AS moving_lines, hp.nuclear_king_wen, hp.is_liuchong, hp.is_liuhe,
       g.name AS generation_name, p.gua_shen, hp.gua_shen_positions, p.shi_shen_line,
       r.created_at, r.method, r.cast_input, r.month_branch, r.solar_term, r.half_year,
       r.early_rat, r.najia_variant, p.bits AS primary_bits, c.bits AS changed_bits,
       p.short_name AS primary_short_name, c.short_name AS changed_short_name,
       yr.relative AS year_relative, mr.relative AS month_relative,
       dr.relative AS day_relative, hr.relative AS hour_relative, r.matter,
       o.verdict AS outcome, o.happened_on AS outcome_on,
       (SELECT COUNT(*) FROM reading_note n WHERE n.reading_id = r.id) AS note_count,
       (SELECT COUNT(*) FROM reading_tag t WHERE t.reading_id = r.id) AS tag_count,
       c.palace AS changed_palace, cg.name AS changed_generation_name, n.name AS nuclear_name,
       r.cast_utc, (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = '日' AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc) AS sun_mansion, (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = '月' AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc) AS moon_mansion
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
LEFT JOIN reading_outcome o ON o.reading_id = r.id
LEFT JOIN generation cg ON cg.ordinal = c.generation
LEFT JOIN hexagram n ON n.king_wen = hp.nuclear_king_wen
""",
    ),
    ViewSQL(
        "v_reading_sign",
        """
SELECT x.reading_id, x.sign, x.position, s.subject, s.polarity, s.weight, s.passage, s.basis,
       s.meaning, s.meaning_zh, s.cancels
FROM (
  -- the primary hexagram (its world and response elements, how many lines hold the 卦身, its generation)
  SELECT r.id AS reading_id, hs.sign, CAST(NULL AS INTEGER) AS position
  FROM reading r
  JOIN hexagram_sign hs ON hs.king_wen = r.primary_kw
  UNION ALL
  -- a line's place (`line_place`: 世 應 間 卦身 世身 身前 身後), value, void, 月破, 日衝
  SELECT r.id, ls.sign, lp.position
  FROM reading r
  JOIN line_place lp ON lp.king_wen = r.primary_kw
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = lp.position
  JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
  JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
  JOIN reading_line rl ON rl.reading_id = r.id AND rl.position = lp.position
  JOIN line_sign ls ON ls.place = lp.place AND ls.value = rl.value AND ls.is_void = bd.is_void
    AND ls.is_month_break = bm.is_month_break AND ls.is_day_clash = bd.is_day_clash
  UNION ALL
  -- the 世身 line's value, void, 月破, 日衝 and the world line's strength in the month
  SELECT r.id, sh.sign, l.position
  FROM reading r
  JOIN hexagram h ON h.king_wen = r.primary_kw
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = h.shi_shen_line
  JOIN hexagram_line w ON w.king_wen = r.primary_kw AND w.position = h.world
  JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
  JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
  JOIN branch_in_month wm ON wm.month_branch = r.month_branch AND wm.branch = w.branch
  JOIN reading_line rl ON rl.reading_id = r.id AND rl.position = l.position
  JOIN shi_shen_sign sh ON sh.value = rl.value AND sh.is_void = bd.is_void
    AND sh.is_month_break = bm.is_month_break AND sh.is_day_clash = bd.is_day_clash
    AND sh.world_strength = wm.strength
  UNION ALL
  -- a line's place, void, 月破, 日衝, how the day's element stands to it, its strength in the month, whether the day or month combines with it
  SELECT r.id, bs.sign, lp.position
  FROM reading r
  JOIN ganzhi d ON d.name = r.day_gz
  JOIN line_place lp ON lp.king_wen = r.primary_kw
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = lp.position
  JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
  JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
  JOIN branch_bearing db ON db.actor = d.branch AND db.branch = l.branch
  JOIN branch_bearing mb ON mb.actor = r.month_branch AND mb.branch = l.branch
  JOIN bearing_sign bs ON bs.place = lp.place AND bs.is_void = bd.is_void
    AND bs.is_month_break = bm.is_month_break AND bs.is_day_clash = bd.is_day_clash
    AND bs.day_relation = db.relation AND bs.strength = bm.strength
    AND bs.day_combines = db.combines AND bs.month_combines = mb.combines
  UNION ALL
  -- any line: its day spirit's nature, value, void, 日衝, the day's relation, its strength
  SELECT r.id, ss.sign, rl.position
  FROM reading r
  JOIN ganzhi d ON d.name = r.day_gz
  JOIN reading_line rl ON rl.reading_id = r.id
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = rl.position
  JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
  JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
  JOIN branch_bearing db ON db.actor = d.branch AND db.branch = l.branch
  JOIN day_spirit ds ON ds.day_stem = d.stem AND ds.position = rl.position
  JOIN spirit_nature sn ON sn.spirit = ds.spirit
  JOIN line_state_sign ss ON ss.nature = sn.nature AND ss.value = rl.value
    AND ss.is_void = bd.is_void AND ss.is_day_clash = bd.is_day_clash
    AND ss.day_relation = db.relation AND ss.strength = bm.strength
  UNION ALL
  -- a line's day spirit, element, whether it is the world
  SELECT r.id, sl.sign, l.position
  FROM reading r
  JOIN ganzhi d ON d.name = r.day_gz
  JOIN hexagram_line l ON l.king_wen = r.primary_kw
  JOIN day_spirit ds ON ds.day_stem = d.stem AND ds.position = l.position
  JOIN spirit_line_sign sl ON sl.spirit = ds.spirit AND sl.element = l.element
    AND sl.is_world = l.is_world
  UNION ALL
  -- a line's relative, value, stage at the day, whether world or between
  SELECT r.id, rs.sign, rl.position
  FROM reading r
  JOIN reading_line rl ON rl.reading_id = r.id
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = rl.position
  JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
  JOIN relative_sign rs ON rs.is_world = l.is_world AND rs.is_between = l.is_between
    AND rs.relative = l.relative AND rs.value = rl.value AND rs.stage = bd.stage
  UNION ALL
  -- a line's relative and value
  SELECT r.id, mr.sign, rl.position
  FROM reading r
  JOIN reading_line rl ON rl.reading_id = r.id
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = rl.position
  JOIN moving_relative_sign mr ON mr.relative = l.relative AND mr.value = rl.value
  UNION ALL
  -- a moving line's relative and branch, whether it is the world, the branch it changes into
  SELECT r.id, cs.sign, rl.position
  FROM reading r
  JOIN reading_line rl ON rl.reading_id = r.id
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = rl.position
  JOIN line_value lv ON lv.value = rl.value
  JOIN hexagram_line cl
    ON lv.is_moving = 1 AND cl.king_wen = r.changed_kw AND cl.position = rl.position
  JOIN change_sign cs ON cs.is_world = l.is_world AND cs.relative = l.relative
    AND cs.branch = l.branch AND cs.changed_branch = cl.branch
  UNION ALL
  -- a line's mansion and the month
  SELECT r.id, ms.sign, l.position
  FROM reading r
  JOIN hexagram_line l ON l.king_wen = r.primary_kw
  JOIN mansion_sign ms ON ms.month_branch = r.month_branch AND ms.mansion = l.mansion
  UNION ALL
  -- a line's mansion, and the lodge the sun and the moon are in at the cast (cast_utc in `lodge_ingress`)
  SELECT r.id, lg.sign, l.position
  FROM reading r
  JOIN hexagram_line l ON l.king_wen = r.primary_kw
  JOIN lodge_sign lg ON lg.mansion = l.mansion
    AND lg.lodge = (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = lg.body AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc)
  UNION ALL
  -- the world line moving alone (`mask_line`) and the hexagram's star
  SELECT r.id, so.sign, h.world
  FROM reading r
  JOIN hexagram h ON h.king_wen = r.primary_kw
  JOIN mask_line ml ON ml.mask = r.moving_mask AND ml.position = h.world
  JOIN sole_sign so ON so.is_sole = ml.is_sole AND so.star = h.five_star
  UNION ALL
  -- the world line moving alone, the hexagram's star, the world line's relative and day spirit, how the day's element stands to the star's
  SELECT r.id, st.sign, h.world
  FROM reading r
  JOIN hexagram h ON h.king_wen = r.primary_kw
  JOIN mask_line ml ON ml.mask = r.moving_mask AND ml.position = h.world
  JOIN hexagram_line w ON w.king_wen = r.primary_kw AND w.position = h.world
  JOIN ganzhi d ON d.name = r.day_gz
  JOIN branch dbr ON dbr.name = d.branch
  JOIN star s ON s.name = h.five_star
  JOIN element_relation er ON er.me = s.element AND er.other = dbr.element
  JOIN day_spirit ds ON ds.day_stem = d.stem AND ds.position = h.world
  JOIN star_sign st ON st.is_sole = ml.is_sole AND st.star = h.five_star
    AND st.relative = w.relative AND st.spirit = ds.spirit AND st.day_relation = er.relation
  UNION ALL
  -- the world line moving alone, the hexagram's star, a 神煞 on the world line
  SELECT r.id, sh.sign, h.world
  FROM reading r
  JOIN hexagram h ON h.king_wen = r.primary_kw
  JOIN mask_line ml ON ml.mask = r.moving_mask AND ml.position = h.world
  JOIN line_najia wn
    ON wn.king_wen = r.primary_kw AND wn.position = h.world AND wn.half_year = r.najia_half
  JOIN shensha_on so ON so.day_gz = r.day_gz AND so.ganzhi = wn.ganzhi
  JOIN star_shensha_sign sh
    ON sh.is_sole = ml.is_sole AND sh.star = h.five_star AND sh.shensha = so.shensha
  UNION ALL
  -- the world's branch, void and moving; the two other branches of its 三合 or 三刑 and where they may come from
  SELECT r.id, g.sign, h.world
  FROM reading r
  JOIN ganzhi d ON d.name = r.day_gz
  JOIN hexagram h ON h.king_wen = r.primary_kw
  JOIN hexagram_line w ON w.king_wen = r.primary_kw AND w.position = h.world
  JOIN reading_line wr ON wr.reading_id = r.id AND wr.position = h.world
  JOIN line_value wv ON wv.value = wr.value
  JOIN branch_on_day wd ON wd.day_gz = r.day_gz AND wd.branch = w.branch
  JOIN world_group_sign g
    ON g.branch = w.branch AND g.is_void = wd.is_void AND g.is_moving = wv.is_moving
  -- no partner is missing: each of the two (the branch rows partner_a and partner_b
  -- name, one row when they are the same) is the day's branch, the month's, a moving
  -- line's or a changed line's, as the row's by_* flags allow
  WHERE NOT EXISTS (
    SELECT 1 FROM branch p
    WHERE (p.name = g.partner_a OR p.name = g.partner_b) AND NOT (
      g.by_day = 1 AND d.branch = p.name
      OR g.by_month = 1 AND r.month_branch = p.name
      OR g.by_moving = 1 AND EXISTS (
        SELECT 1 FROM reading_line x
        JOIN line_value xv ON xv.value = x.value
        JOIN hexagram_line xl ON xl.king_wen = r.primary_kw AND xl.position = x.position
        WHERE x.reading_id = r.id AND xv.is_moving = 1 AND xl.branch = p.name)
      OR g.by_changed = 1 AND EXISTS (
        SELECT 1 FROM reading_line x
        JOIN line_value xv ON xv.value = x.value
        JOIN hexagram_line xc ON xc.king_wen = r.changed_kw AND xc.position = x.position
        WHERE x.reading_id = r.id AND xv.is_moving = 1 AND xc.branch = p.name)))
  UNION ALL
  -- the matter asked about, a body's place, its state (value, void, 月破, 日衝) and what the body holds (the items of `matter_preference`: relatives, day spirits, the noble's generals, 神煞)
  SELECT r.id, mt.sign, lp.position
  FROM reading r
  -- CROSS JOIN keeps the reading and its matter first: most readings ask about none
  CROSS JOIN matter_sign mt
  CROSS JOIN line_place lp
  CROSS JOIN hexagram_line l
  CROSS JOIN ganzhi d
  CROSS JOIN day_spirit ds
  CROSS JOIN line_najia ln
  CROSS JOIN reading_line rl
  CROSS JOIN branch_on_day bd
  CROSS JOIN branch_in_month bm
  LEFT JOIN ganzhi hg ON hg.name = r.hour_gz
  LEFT JOIN noble_hour nh ON nh.hour_branch = hg.branch
  LEFT JOIN noble_general ng
    ON ng.day_stem = d.stem AND ng.half = nh.half AND ng.branch = l.branch
  WHERE mt.matter = r.matter AND lp.king_wen = r.primary_kw AND lp.place = mt.place
    AND l.king_wen = r.primary_kw AND l.position = lp.position
    AND d.name = r.day_gz AND ds.day_stem = d.stem AND ds.position = lp.position
    AND ln.king_wen = r.primary_kw AND ln.position = lp.position
    AND ln.half_year = r.najia_half
    AND rl.reading_id = r.id AND rl.position = lp.position AND mt.value = rl.value
    AND bd.day_gz = r.day_gz AND bd.branch = l.branch AND mt.is_void = bd.is_void
    AND mt.is_day_clash = bd.is_day_clash
    AND bm.month_branch = r.month_branch AND bm.branch = l.branch
    AND mt.is_month_break = bm.is_month_break
    AND EXISTS (
    SELECT 1 FROM matter_preference mp
    WHERE mp.matter = r.matter AND mp.attitude = mt.attitude
      AND (mp.item_kind = 'relative' AND mp.item = l.relative
        OR mp.item_kind = 'spirit' AND mp.item = ds.spirit
        OR mp.item_kind = 'general' AND mp.item = ng.general
        OR mp.item_kind = 'shensha' AND EXISTS (
          SELECT 1 FROM shensha_on so
          WHERE so.day_gz = r.day_gz AND so.ganzhi = ln.ganzhi AND so.shensha = mp.item)))
  UNION ALL
  -- the matter asked about, a body's place and whether it is void
  SELECT r.id, mf.sign, lp.position
  FROM reading r
  CROSS JOIN matter_relief_sign mf
  CROSS JOIN line_place lp
  CROSS JOIN hexagram_line l
  CROSS JOIN branch_on_day bd
  WHERE mf.matter = r.matter AND lp.king_wen = r.primary_kw AND lp.place = mf.place
    AND l.king_wen = r.primary_kw AND l.position = lp.position
    AND bd.day_gz = r.day_gz AND bd.branch = l.branch AND bd.is_void = mf.is_void
  UNION ALL
  -- a role of the reading's subject (v_reading_use): where it is, whether it moves, is void, is month-broken, whether the day or the month controls it
  SELECT r.id, us.sign, u.position
  FROM reading r
  JOIN v_reading_use u ON u.reading_id = r.id
  JOIN use_state_sign us ON us.role = u.role AND us.source = u.source
    AND us.is_moving = u.is_moving AND us.is_void = u.is_void
    AND us.is_month_break = u.is_month_break AND us.day_controls = u.day_controls
    AND us.month_controls = u.month_controls
  UNION ALL
  -- a role's strength in the month and whether the day generates or helps it
  SELECT r.id, uw.sign, u.position
  FROM reading r
  JOIN v_reading_use u ON u.reading_id = r.id
  JOIN use_strength_sign uw ON uw.role = u.role AND uw.strength = u.strength
    AND uw.day_generates = u.day_generates AND uw.day_helps = u.day_helps
  UNION ALL
  -- a moving role's branch and its changed line's branch
  SELECT r.id, uc.sign, u.position
  FROM reading r
  JOIN v_reading_use u ON u.reading_id = r.id
  JOIN ganzhi ucg ON ucg.name = u.changed_ganzhi
  JOIN use_change_sign uc ON uc.role = u.role AND uc.branch = u.branch
    AND uc.changed_branch = ucg.branch
  UNION ALL
  -- a hidden role's 飛神: whether it moves, whether the day clashes it
  SELECT r.id, uf.sign, u.position
  FROM reading r
  JOIN v_reading_use u ON u.reading_id = r.id
  JOIN use_fly_sign uf ON uf.role = u.role AND uf.fly_is_moving = u.fly_is_moving
    AND uf.fly_is_day_clash = u.fly_is_day_clash
  UNION ALL
  -- the 用神's place and line mansion, the month, and 日纏 or 月麗 on its line
  SELECT r.id, ul.sign, l.position
  FROM reading r
  -- CROSS JOIN keeps this order: the month's dusk mansion on a line of the hexagram,
  -- the sun or the moon on it (日纏 or 月麗), and only then the 用神 on that line, in a
  -- subquery, so that v_reading_use is worked out only for the few readings that meet
  -- the rest (a join with it would build the roles of every reading first)
  CROSS JOIN use_lodge_sign ul
  CROSS JOIN hexagram_line l
  WHERE ul.month_branch = r.month_branch
    AND l.king_wen = r.primary_kw AND l.mansion = ul.mansion
    AND EXISTS (
    SELECT 1 FROM lodge_sign lg
    WHERE lg.mansion = l.mansion AND lg.lodge = (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = lg.body AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc))
    AND EXISTS (
    SELECT 1 FROM v_reading_use u
    WHERE u.reading_id = r.id AND u.role = ul.role AND u.source = ul.source
      AND u.position = l.position)
) x
JOIN sign s ON s.name = x.sign
""",
    ),
)
REPLACES = {
    "v_reading": "0012",
    "v_reading_sign": "0014",
}


def _create_sign_tables() -> None:
    op.create_table(
        "lodge_sign",
        sa.Column("mansion", sa.String(length=1), nullable=False, comment="The line's mansion"),
        sa.Column(
            "body", sa.String(length=1), nullable=False, comment="日 (the sun) or 月 (the moon)"
        ),
        sa.Column(
            "lodge",
            sa.String(length=1),
            nullable=False,
            comment="The lodge the body is in at the cast",
        ),
        sa.Column(
            "sign", sa.String(length=8), nullable=False, comment="A sign that fires for this key"
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_lodge_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_lodge_sign_basis_domain")
        ),
        sa.CheckConstraint("body IN ('日', '月')", name=op.f("ck_lodge_sign_body_domain")),
        sa.ForeignKeyConstraint(
            ["lodge"], ["mansion.name"], name=op.f("fk_lodge_sign_lodge_mansion")
        ),
        sa.ForeignKeyConstraint(
            ["mansion"], ["mansion.name"], name=op.f("fk_lodge_sign_mansion_mansion")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_lodge_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_lodge_sign_sign_sign")),
        sa.PrimaryKeyConstraint("mansion", "body", "lodge", "sign", name=op.f("pk_lodge_sign")),
        comment="日纏 and 月麗 (§8.12): the sun or the moon in a line's mansion at the cast. A row for each mansion and body where the body's lodge is the mansion: the equality is the rule, as data.",
        info={"section": "rules"},
    )
    op.create_table(
        "use_lodge_sign",
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="The month's branch"
        ),
        sa.Column(
            "mansion",
            sa.String(length=1),
            nullable=False,
            comment="The month's 昏中 mansion, which the line's must be",
        ),
        sa.Column(
            "role",
            sa.String(length=2),
            nullable=False,
            comment="The role: 用神 原神 忌神 or 仇神 (docs/use.md)",
        ),
        sa.Column(
            "source",
            sa.String(length=8),
            nullable=False,
            comment="Where it is: visible, world or response (not hidden)",
        ),
        sa.Column(
            "sign", sa.String(length=8), nullable=False, comment="A sign that fires for this key"
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_lodge_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_use_lodge_sign_basis_domain")
        ),
        sa.CheckConstraint(
            "role IN ('用神', '原神', '忌神', '仇神')", name=op.f("ck_use_lodge_sign_role_domain")
        ),
        sa.CheckConstraint(
            "source IN ('visible', 'hidden', 'world', 'response')",
            name=op.f("ck_use_lodge_sign_source_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["mansion"], ["mansion.name"], name=op.f("fk_use_lodge_sign_mansion_mansion")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_use_lodge_sign_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_use_lodge_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_use_lodge_sign_sign_sign")),
        sa.PrimaryKeyConstraint(
            "month_branch", "mansion", "role", "source", "sign", name=op.f("pk_use_lodge_sign")
        ),
        comment="盡善 (§8.12 commentary): the 用神 on a line whose mansion culminates at dusk this month 昏中, with the sun or the moon in that mansion at the cast (日纏 or 月麗 on the line, lodge_sign).",
        info={"section": "rules"},
    )


def _add_cast_utc() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its CHECK in place; a batch rebuild would trip on the views
        op.execute(
            f"ALTER TABLE reading ADD COLUMN cast_utc VARCHAR(20) "
            f"CONSTRAINT {CHECK_NAME} CHECK ({CAST_UTC_CHECK})"
        )
    else:
        op.add_column(
            "reading",
            sa.Column("cast_utc", sa.String(length=20), nullable=True, comment=CAST_UTC_COMMENT),
        )
        op.create_check_constraint(CHECK_NAME, "reading", CAST_UTC_CHECK)


def _backfill_cast_utc() -> None:
    """cast_utc of the readings stored before this revision: the instant of their cast_at,
    read as the calendar reads it (each distinct cast_at and tz once), written by id. A
    cast_at the calendar cannot read stays NULL, and yimao check reports the reading."""
    from yimao_db.calendar.civiltime import parse_at
    from yimao_db.calendar.moment import utc_text
    from yimao_db.errors import UsageError

    conn = op.get_bind()
    found = conn.execute(
        sa.text("SELECT id, cast_at, tz FROM reading WHERE cast_at IS NOT NULL AND tz IS NOT NULL")
    ).all()
    instants: dict[tuple[str, str], str | None] = {}
    rows = []
    for rid, cast_at, tz in found:
        if (cast_at, tz) not in instants:
            try:
                instants[cast_at, tz] = utc_text(parse_at(cast_at, tz))
            except (UsageError, ValueError, TypeError, OverflowError):
                instants[cast_at, tz] = None
        if (utc := instants[cast_at, tz]) is not None:
            rows.append({"utc": utc, "id": rid})
    if rows:
        conn.execute(sa.text("UPDATE reading SET cast_utc = :utc WHERE id = :id"), rows)


def upgrade() -> None:
    _create_sign_tables()
    _add_cast_utc()
    _backfill_cast_utc()
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(CHECK_NAME, "reading", type_="check")
    op.drop_column("reading", "cast_utc")
    for table in SIGN_TABLES:
        op.drop_table(table)
    # the catalogue's rows of the signs this revision adds go with their tables
    op.execute("DELETE FROM sign WHERE name IN ('日纏', '月麗', '盡善')")
