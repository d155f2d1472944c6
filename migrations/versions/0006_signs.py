"""Signs: the judgments of 卷一 applied to every reading; every passage accounted for.

New tables: the sign catalogue (sign, sign_weight) and the rule tables the signs' conditions
live in (line_place, mask_line, branch_bearing, shensha, shensha_on and the family tables
hexagram_sign … matter_relief_sign); hidden_stem; najia_stem_rule and najia_branch_rule;
the symbol tables matter, spirit_nature, spirit_layer, coin_face and cast_method.

Changed tables: line_aspect is keyed by the moving values 9 and 6 (it was keyed by yang and
applied to still lines too); spirit_attribute loses nature, which moves to spirit_nature with
a basis for each spirit; matter_preference.matter refers to matter and item_kind admits
shensha; source_passage gains coverage and note; reading gains matter. The rows of
line_aspect and matter_preference are dropped here and written again by the seed, in the
same transaction when ``yimao build`` runs both.

Views: v_reading, v_reading_line and v_reading_hidden gain columns; v_reading_nuclear and
v_reading_sign are new; v_reading_cast and v_passage_citation are created again unchanged
(the tables they read are rebuilt).

On SQLite reading, source_passage, matter_preference and spirit_attribute are rebuilt (batch
mode): the revision runs with foreign keys off, as ``yimao build`` does.

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading_cast",
        """
SELECT r.id AS reading_id, p.bits AS primary_bits, COALESCE(c.bits, p.bits) AS changed_bits,
       ml.lines AS moving_lines, ml.line_count AS moving_count,
       (SELECT COUNT(*) FROM reading_line x WHERE x.reading_id = r.id) AS line_count
FROM reading r
LEFT JOIN hexagram p ON p.king_wen = r.primary_kw
LEFT JOIN hexagram c ON c.king_wen = r.changed_kw
LEFT JOIN moving_lines ml ON ml.mask = r.moving_mask
""",
    ),
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
       dr.relative AS day_relative, hr.relative AS hour_relative, r.matter
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
""",
    ),
    ViewSQL(
        "v_reading_line",
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
       mb.controls AS month_controls, mb.combines AS month_combines
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
    ),
    ViewSQL(
        "v_reading_hidden",
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
    ),
    ViewSQL(
        "v_reading_nuclear",
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
    ),
    ViewSQL(
        "v_reading_sign",
        """
SELECT x.reading_id, x.sign, x.position, s.subject, s.polarity, s.weight, s.passage, s.basis
FROM (
  -- the primary hexagram as a whole
  SELECT r.id AS reading_id, hs.sign, CAST(NULL AS INTEGER) AS position
  FROM reading r
  JOIN hexagram_sign hs ON hs.king_wen = r.primary_kw
  UNION ALL
  -- a line in one of its places: its value, void, 月破, 日衝
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
  -- a line in one of its places: how the day and month bear on it
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
  -- every line: its value, its day spirit's nature, the day and the month
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
  -- every line: its day spirit on its element
  SELECT r.id, sl.sign, l.position
  FROM reading r
  JOIN ganzhi d ON d.name = r.day_gz
  JOIN hexagram_line l ON l.king_wen = r.primary_kw
  JOIN day_spirit ds ON ds.day_stem = d.stem AND ds.position = l.position
  JOIN spirit_line_sign sl ON sl.spirit = ds.spirit AND sl.element = l.element
    AND sl.is_world = l.is_world
  UNION ALL
  -- every line: its relative, value and stage at the day
  SELECT r.id, rs.sign, rl.position
  FROM reading r
  JOIN reading_line rl ON rl.reading_id = r.id
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = rl.position
  JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
  JOIN relative_sign rs ON rs.is_world = l.is_world AND rs.is_between = l.is_between
    AND rs.relative = l.relative AND rs.value = rl.value AND rs.stage = bd.stage
  UNION ALL
  -- every line: a moving relative's images
  SELECT r.id, mr.sign, rl.position
  FROM reading r
  JOIN reading_line rl ON rl.reading_id = r.id
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = rl.position
  JOIN moving_relative_sign mr ON mr.relative = l.relative AND mr.value = rl.value
  UNION ALL
  -- a moving line and the branch it changes into
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
  -- every line's mansion in the month
  SELECT r.id, ms.sign, l.position
  FROM reading r
  JOIN hexagram_line l ON l.king_wen = r.primary_kw
  JOIN mansion_sign ms ON ms.month_branch = r.month_branch AND ms.mansion = l.mansion
  UNION ALL
  -- the world moving alone, and the star that shows
  SELECT r.id, so.sign, h.world
  FROM reading r
  JOIN hexagram h ON h.king_wen = r.primary_kw
  JOIN mask_line ml ON ml.mask = r.moving_mask AND ml.position = h.world
  JOIN sole_sign so ON so.is_sole = ml.is_sole AND so.star = h.five_star
  UNION ALL
  -- what the showing star meets on the world line
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
  -- a 神煞 on the world line under the showing star
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
  -- 三合 and 三刑 around the world line: both other branches present where the row allows
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
  WHERE (
    g.by_day = 1 AND d.branch = g.partner_a
    OR g.by_month = 1 AND r.month_branch = g.partner_a
    OR g.by_moving = 1 AND EXISTS (
      SELECT 1 FROM reading_line x
      JOIN line_value xv ON xv.value = x.value
      JOIN hexagram_line xl ON xl.king_wen = r.primary_kw AND xl.position = x.position
      WHERE x.reading_id = r.id AND xv.is_moving = 1 AND xl.branch = g.partner_a)
    OR g.by_changed = 1 AND EXISTS (
      SELECT 1 FROM reading_line x
      JOIN line_value xv ON xv.value = x.value
      JOIN hexagram_line xc ON xc.king_wen = r.changed_kw AND xc.position = x.position
      WHERE x.reading_id = r.id AND xv.is_moving = 1 AND xc.branch = g.partner_a))
    AND (
    g.by_day = 1 AND d.branch = g.partner_b
    OR g.by_month = 1 AND r.month_branch = g.partner_b
    OR g.by_moving = 1 AND EXISTS (
      SELECT 1 FROM reading_line x
      JOIN line_value xv ON xv.value = x.value
      JOIN hexagram_line xl ON xl.king_wen = r.primary_kw AND xl.position = x.position
      WHERE x.reading_id = r.id AND xv.is_moving = 1 AND xl.branch = g.partner_b)
    OR g.by_changed = 1 AND EXISTS (
      SELECT 1 FROM reading_line x
      JOIN line_value xv ON xv.value = x.value
      JOIN hexagram_line xc ON xc.king_wen = r.changed_kw AND xc.position = x.position
      WHERE x.reading_id = r.id AND xv.is_moving = 1 AND xc.branch = g.partner_b))
  UNION ALL
  -- a body holding what the matter asked about wants or fears (CROSS JOIN keeps the
  -- reading and its matter first: most readings ask about none)
  SELECT r.id, mt.sign, lp.position
  FROM reading r
  CROSS JOIN matter_sign mt
  CROSS JOIN line_place lp
  CROSS JOIN hexagram_line l
  CROSS JOIN ganzhi d
  CROSS JOIN day_spirit ds
  CROSS JOIN line_najia ln
  LEFT JOIN ganzhi hg ON hg.name = r.hour_gz
  LEFT JOIN noble_hour nh ON nh.hour_branch = hg.branch
  LEFT JOIN noble_general ng ON ng.day_stem = d.stem AND ng.half = nh.half AND ng.branch = l.branch
  WHERE mt.matter = r.matter AND lp.king_wen = r.primary_kw AND lp.place = mt.place
    AND l.king_wen = r.primary_kw AND l.position = lp.position
    AND d.name = r.day_gz AND ds.day_stem = d.stem AND ds.position = lp.position
    AND ln.king_wen = r.primary_kw AND ln.position = lp.position AND ln.half_year = r.najia_half
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
  -- a void body as relief for the matter asked about
  SELECT r.id, mf.sign, lp.position
  FROM reading r
  CROSS JOIN matter_relief_sign mf
  CROSS JOIN line_place lp
  CROSS JOIN hexagram_line l
  CROSS JOIN branch_on_day bd
  WHERE mf.matter = r.matter AND lp.king_wen = r.primary_kw AND lp.place = mf.place
    AND l.king_wen = r.primary_kw AND l.position = lp.position
    AND bd.day_gz = r.day_gz AND bd.branch = l.branch AND bd.is_void = mf.is_void
) x
JOIN sign s ON s.name = x.sign
""",
    ),
    ViewSQL(
        "v_passage_citation",
        """
SELECT s.id AS passage, s.chapter_no, s.passage_no, s.chapter,
       c.table_name, c.row_key, c.basis
FROM passage_citation c
JOIN source_passage s ON s.id = c.passage
""",
    ),
)
REPLACES = {
    "v_reading_cast": "0005",
    "v_reading": "0005",
    "v_reading_line": "0005",
    "v_reading_hidden": "0005",
    "v_passage_citation": "0005",
}

BASIS_COMMENT = (
    "book: stated by the cited passage; standard: standard 京房 practice the book "
    "presupposes; decision: a choice made where the book is silent (docs/rules.md)"
)
ITEM_KINDS = "item_kind IN ('relative', 'spirit', 'general', 'shensha', 'condition')"
OLD_ITEM_KINDS = "item_kind IN ('relative', 'spirit', 'general', 'condition')"
OLD_MATTERS = "matter IN ('功名', '財利', '獄訟', '憂患')"
NATURES = "nature IN ('吉', '凶')"
COVERAGE_COMMENT = (
    "encoded: at least one row cites it (v_passage_citation); theory: cosmology, history or "
    "a summary with nothing to compute"
)
MATTER_COMMENT = "The kind of matter asked about (§9.5): 功名 財利 獄訟 or 憂患; NULL if not said"
# (table, column or None for the table, comment before, comment after)
COMMENTS_CHANGED = (
    (
        "source_passage",
        None,
        "The 77 numbered passages of 《易冒》卷一 (chapter and passage, as listed in seed/data/passages.tsv). No text of the book is stored; rows elsewhere cite a passage by its id.",
        "The 77 numbered passages of 《易冒》卷一 (chapter and passage, as listed in seed/data/passages.tsv). No text of the book is stored; rows elsewhere cite a passage by its id. Every passage is accounted for: encoded (some row cites it) or theory (nothing to compute; a note says why).",
    ),
    ("stem", "element", "Element (§5.5)", "Element (§5.6)"),
    ("branch", "element", "Element (§5.6)", "Element (§5.5)"),
    (
        "spirit_preference",
        "nature",
        "吉 or 凶, as spirit_attribute.nature",
        "吉 or 凶, as spirit_nature.nature",
    ),
    (
        "matter_preference",
        None,
        "What each kind of matter wants or fears on the two bodies (§9.5): office wants 父母 官鬼 青龍 朱雀 貴人 and fears 子孫 勾陳; wealth wants 子孫 妻財 青龍 and fears 官鬼 兄弟 白虎; lawsuits want 子孫, fear 官鬼; worries fear 官鬼 and a void body is a relief. ``item`` names a relative, spirit, general or condition by ``item_kind``.",
        "What each kind of matter wants or fears on the two bodies (§9.5): office wants 父母 官鬼 青龍 朱雀 貴人 and fears 子孫 勾陳; wealth wants 子孫 妻財 青龍 天財 地財 and fears 官鬼 兄弟 白虎; lawsuits want 子孫, fear 官鬼; worries fear 官鬼 and a void body is a relief. ``item`` names a relative, spirit, general, 神煞 or condition by ``item_kind``.",
    ),
    (
        "matter_preference",
        "item_kind",
        "relative, spirit, general or condition: which vocabulary item is in",
        "relative, spirit, general, shensha or condition: which vocabulary item is in",
    ),
)


def _create_tables() -> None:
    op.create_table(
        "cast_method",
        sa.Column(
            "name",
            sa.String(length=16),
            nullable=False,
            comment="values coins notation hexagram random",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_cast_method_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_cast_method_basis_domain")
        ),
        sa.CheckConstraint(
            "name IN ('values', 'coins', 'notation', 'hexagram', 'random')",
            name=op.f("ck_cast_method_name_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_cast_method_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_cast_method")),
        comment="The ways a reading can be cast (reading.method), and the passage each rests on: coins stand in for the stalks (§2.1), their four numbers (§2.3).",
        info={"section": "symbols"},
    )
    op.create_table(
        "coin_face",
        sa.Column(
            "face", sa.String(length=1), nullable=False, comment="背 (back up) or 眉 (face up)"
        ),
        sa.Column(
            "parity", sa.String(length=1), nullable=False, comment="奇 odd or 偶 even (§2.2)"
        ),
        sa.Column("yang", sa.Integer(), nullable=False, comment="1 for the yang face 背"),
        sa.Column(
            "count",
            sa.Integer(),
            nullable=False,
            comment="What it counts: 3 or 2 (§2.3 commentary)",
        ),
        sa.Column(
            "image",
            sa.String(length=1),
            nullable=False,
            comment="覆 lying face down like the sky, 仰 face up like the earth",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_coin_face_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_coin_face_basis_domain")
        ),
        sa.CheckConstraint("face IN ('背', '眉')", name=op.f("ck_coin_face_face_domain")),
        sa.CheckConstraint("count BETWEEN 2 AND 3", name=op.f("ck_coin_face_count_range")),
        sa.CheckConstraint("yang IN (0, 1)", name=op.f("ck_coin_face_yang_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_coin_face_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("face", name=op.f("pk_coin_face")),
        sa.UniqueConstraint("parity", name=op.f("uq_coin_face_parity")),
        comment="The two faces of a coin (§2.2–2.4): the back 背 up, the coin lying face down, is odd and yang and counts three; the face 眉 up is even and yin and counts two.",
        info={"section": "symbols"},
    )
    op.create_table(
        "mask_line",
        sa.Column(
            "mask",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The moving lines, bit p-1 for line p",
        ),
        sa.Column(
            "position",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="Line 1..6 from the bottom",
        ),
        sa.Column("is_moving", sa.Integer(), nullable=False, comment="1 if the line moves"),
        sa.Column(
            "is_sole", sa.Integer(), nullable=False, comment="1 if it is the only moving line"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_mask_line_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_mask_line_basis_domain")
        ),
        sa.CheckConstraint("is_moving IN (0, 1)", name=op.f("ck_mask_line_is_moving_bool")),
        sa.CheckConstraint("is_sole IN (0, 1)", name=op.f("ck_mask_line_is_sole_bool")),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_mask_line_position_range")),
        sa.ForeignKeyConstraint(
            ["mask"], ["moving_lines.mask"], name=op.f("fk_mask_line_mask_moving_lines")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_mask_line_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("mask", "position", name=op.f("pk_mask_line")),
        comment="Each line of each set of moving lines (reading.moving_mask): whether it moves and whether it is the only line that moves, 獨發 (§8.7). Every mask and position has a row.",
        info={"section": "rules"},
    )
    op.create_table(
        "matter",
        sa.Column("name", sa.String(length=2), nullable=False, comment="功名 財利 獄訟 or 憂患"),
        sa.Column(
            "kind", sa.String(length=8), nullable=False, comment="office, wealth, lawsuit or worry"
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_matter_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_matter_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_matter_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_matter")),
        sa.UniqueConstraint("kind", name=op.f("uq_matter_kind")),
        comment="The kinds of matter a reading may ask about, as §9.5 names them, with their English kinds (accepted as aliases): what each wants or fears on the bodies is matter_preference.",
        info={"section": "symbols"},
    )
    op.create_table(
        "shensha",
        sa.Column("name", sa.String(length=2), nullable=False, comment="咸池 天財 or 地財"),
        sa.Column(
            "derivation",
            sa.String(length=200),
            nullable=False,
            comment="How it is placed, in words",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_shensha_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_shensha_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_shensha_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_shensha")),
        comment="The 神煞 the book names beside the spirits: 咸池 (§8.9, spoils 太陰), 天財 and 地財 (§9.5, wanted on the bodies for wealth), with how each is placed.",
        info={"section": "rules"},
    )
    op.create_table(
        "sign_weight",
        sa.Column(
            "weight",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1..5, higher weighs more",
        ),
        sa.Column(
            "name",
            sa.String(length=4),
            nullable=False,
            comment="What weighs so: 世應 卦身 世身 爻 星宿",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_sign_weight_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_sign_weight_basis_domain")
        ),
        sa.CheckConstraint("weight BETWEEN 1 AND 5", name=op.f("ck_sign_weight_weight_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_sign_weight_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("weight", name=op.f("pk_sign_weight")),
        sa.UniqueConstraint("name", name=op.f("uq_sign_weight_name")),
        comment="How much a sign weighs, by what it speaks of (§9.6 world over 卦身 over 世身; §7.2, §7.12 day and month spirits over hour spirits and generals; §8.13 commentary stars and mansions after the world's omens). Higher weighs more.",
        info={"section": "rules"},
    )
    op.create_table(
        "spirit_layer",
        sa.Column("layer", sa.String(length=2), nullable=False, comment="司日 司月 司時 or 司貴"),
        sa.Column(
            "counted_from",
            sa.String(length=16),
            nullable=False,
            comment="What it is counted from: day stem, month branch, hour stem, noble",
        ),
        sa.Column(
            "rank",
            sa.Integer(),
            nullable=False,
            comment="1 for the day and month spirits, 2 for the others",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_spirit_layer_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_spirit_layer_basis_domain")
        ),
        sa.CheckConstraint(
            "layer IN ('司日', '司月', '司時', '司貴')", name=op.f("ck_spirit_layer_layer_domain")
        ),
        sa.CheckConstraint("rank BETWEEN 1 AND 2", name=op.f("ck_spirit_layer_rank_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_spirit_layer_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("layer", name=op.f("pk_spirit_layer")),
        comment="The four kinds of spirit a line may carry and their weight (§7.2, §7.11–7.12): the day and month spirits rule, the hour spirits and the noble's generals follow them.",
        info={"section": "symbols"},
    )
    op.create_table(
        "branch_bearing",
        sa.Column(
            "actor",
            sa.String(length=1),
            nullable=False,
            comment="The acting branch: the day's or the month's",
        ),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="The line's branch"),
        sa.Column(
            "is_on", sa.Integer(), nullable=False, comment="1 if it is the line's own branch 臨"
        ),
        sa.Column(
            "relation",
            sa.String(length=16),
            nullable=False,
            comment="How the acting branch's element stands to the line's: generates_me (the day generates it), same, controls_me (the day controls it), i_generate, i_control",
        ),
        sa.Column(
            "generates",
            sa.Integer(),
            nullable=False,
            comment="1 if its element generates the line's 生",
        ),
        sa.Column(
            "helps",
            sa.Integer(),
            nullable=False,
            comment="1 if its element is the line's 扶 (臨 included)",
        ),
        sa.Column(
            "controls",
            sa.Integer(),
            nullable=False,
            comment="1 if its element controls the line's 剋",
        ),
        sa.Column(
            "combines", sa.Integer(), nullable=False, comment="1 if the two branches combine 六合"
        ),
        sa.Column(
            "clashes",
            sa.Integer(),
            nullable=False,
            comment="1 if the two branches clash 六衝 (日衝, 月破)",
        ),
        sa.Column(
            "punishes",
            sa.Integer(),
            nullable=False,
            comment="1 if it punishes the line's branch 三刑 (自刑 included)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_branch_bearing_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_branch_bearing_basis_domain")
        ),
        sa.CheckConstraint(
            "relation IN ('same', 'generates_me', 'i_generate', 'i_control', 'controls_me')",
            name=op.f("ck_branch_bearing_relation_domain"),
        ),
        sa.CheckConstraint("clashes IN (0, 1)", name=op.f("ck_branch_bearing_clashes_bool")),
        sa.CheckConstraint("combines IN (0, 1)", name=op.f("ck_branch_bearing_combines_bool")),
        sa.CheckConstraint("controls IN (0, 1)", name=op.f("ck_branch_bearing_controls_bool")),
        sa.CheckConstraint("generates IN (0, 1)", name=op.f("ck_branch_bearing_generates_bool")),
        sa.CheckConstraint("helps IN (0, 1)", name=op.f("ck_branch_bearing_helps_bool")),
        sa.CheckConstraint("is_on IN (0, 1)", name=op.f("ck_branch_bearing_is_on_bool")),
        sa.CheckConstraint("punishes IN (0, 1)", name=op.f("ck_branch_bearing_punishes_bool")),
        sa.ForeignKeyConstraint(
            ["actor"], ["branch.name"], name=op.f("fk_branch_bearing_actor_branch")
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_branch_bearing_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_branch_bearing_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("actor", "branch", name=op.f("pk_branch_bearing")),
        comment="What a branch acting on a line (the day's or the month's) does to the line's branch (standard): stands on it 臨, generates it 生, helps it 扶 (same element), controls it 剋, combines with it 合, clashes it 衝, punishes it 刑. Every pair of branches has a row.",
        info={"section": "rules"},
    )
    op.create_table(
        "hidden_stem",
        sa.Column("branch", sa.String(length=1), nullable=False, comment="The branch"),
        sa.Column("stem", sa.String(length=1), nullable=False, comment="A stem it holds"),
        sa.Column(
            "role",
            sa.String(length=2),
            nullable=False,
            comment="本氣 (main), 中氣 (middle) or 餘氣 (residual)",
        ),
        sa.Column(
            "ordinal", sa.Integer(), nullable=False, comment="1 for the main stem, then 2, 3"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_hidden_stem_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_hidden_stem_basis_domain")
        ),
        sa.CheckConstraint(
            "role IN ('本氣', '中氣', '餘氣')", name=op.f("ck_hidden_stem_role_domain")
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 3", name=op.f("ck_hidden_stem_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_hidden_stem_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_hidden_stem_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["stem"], ["stem.name"], name=op.f("fk_hidden_stem_stem_stem")),
        sa.PrimaryKeyConstraint("branch", "stem", name=op.f("pk_hidden_stem")),
        sa.UniqueConstraint("branch", "ordinal", name=op.f("uq_hidden_stem_branch_ordinal")),
        comment="The stems each branch holds 地支藏干 (§5.6: 寅 holds 甲, 卯 乙, 辰 戊; the table is standard): main 本氣, middle 中氣 and residual 餘氣.",
        info={"section": "rules"},
    )
    op.create_table(
        "sign",
        sa.Column(
            "name",
            sa.String(length=8),
            nullable=False,
            comment="The sign, e.g. 世空 (canonical characters)",
        ),
        sa.Column(
            "ordinal",
            sa.Integer(),
            nullable=False,
            comment="Its place in the catalogue, for display",
        ),
        sa.Column(
            "subject",
            sa.String(length=8),
            nullable=False,
            comment="What it speaks of: 世 應 世應 卦身 世身 間爻 line hexagram spirit star mansion",
        ),
        sa.Column(
            "chart_group",
            sa.String(length=8),
            nullable=False,
            comment="Where a chart lists it: world bodies between lines",
        ),
        sa.Column(
            "polarity",
            sa.String(length=1),
            nullable=False,
            comment="吉 auspicious, 凶 inauspicious, 中 neither",
        ),
        sa.Column(
            "weight", sa.Integer(), nullable=False, comment="How much it weighs (sign_weight)"
        ),
        sa.Column(
            "rule_table",
            sa.String(length=40),
            nullable=False,
            comment="The table holding its condition, e.g. line_sign",
        ),
        sa.Column("condition", sa.Text(), nullable=False, comment="When it fires, in words"),
        sa.Column(
            "meaning",
            sa.String(length=200),
            nullable=False,
            comment="What it means, in English (our words)",
        ),
        sa.Column(
            "meaning_zh",
            sa.String(length=40),
            nullable=False,
            comment="What it means, in Chinese (our words)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_sign_basis_domain")
        ),
        sa.CheckConstraint(
            "chart_group IN ('world', 'bodies', 'between', 'lines')",
            name=op.f("ck_sign_chart_group_domain"),
        ),
        sa.CheckConstraint("polarity IN ('吉', '凶', '中')", name=op.f("ck_sign_polarity_domain")),
        sa.CheckConstraint(
            "subject IN ('世', '應', '世應', '卦身', '世身', '間爻', 'line', 'hexagram', 'spirit', 'star', 'mansion')",
            name=op.f("ck_sign_subject_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["weight"], ["sign_weight.weight"], name=op.f("fk_sign_weight_sign_weight")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_sign")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_sign_ordinal")),
        comment="Every judgment 卷一 makes about a reading (§7–§10): its subject, polarity, weight and meaning, and the rule table its condition is stored in (docs/signs.md).",
        info={"section": "rules"},
    )
    op.create_table(
        "spirit_nature",
        sa.Column("spirit", sa.String(length=2), nullable=False, comment="The spirit"),
        sa.Column("nature", sa.String(length=1), nullable=False, comment="吉 or 凶"),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Why, in a few words (our words, not the book's)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_spirit_nature_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_spirit_nature_basis_domain")
        ),
        sa.CheckConstraint("nature IN ('吉', '凶')", name=op.f("ck_spirit_nature_nature_domain")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_spirit_nature_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["spirit"], ["spirit.name"], name=op.f("fk_spirit_nature_spirit_spirit")
        ),
        sa.PrimaryKeyConstraint("spirit", name=op.f("pk_spirit_nature")),
        comment="Which spirits count as auspicious 吉 and which as inauspicious 凶 for §7.9. The book says so of 勾陳 (§7.3) and implies it of 青龍 and 白虎 (§7.8); 朱雀, 玄武 and 騰蛇 are counted 凶 by decision (docs/rules.md).",
        info={"section": "symbols"},
    )
    op.create_table(
        "bearing_sign",
        sa.Column(
            "place",
            sa.String(length=2),
            nullable=False,
            comment="The line's place: 世 應 間 卦身 世身 身前 (after the 世身) or 身後 (before it)",
        ),
        sa.Column(
            "is_void",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the line is void 旬空",
        ),
        sa.Column(
            "is_month_break",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the month breaks it 月破",
        ),
        sa.Column(
            "is_day_clash",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the day clashes it 日衝",
        ),
        sa.Column(
            "day_relation",
            sa.String(length=16),
            nullable=False,
            comment="How the day branch's element stands to the line's: generates_me (the day generates it), same, controls_me (the day controls it), i_generate, i_control",
        ),
        sa.Column(
            "strength",
            sa.String(length=1),
            nullable=False,
            comment="The line's strength in the month 旺相休囚死",
        ),
        sa.Column(
            "day_combines",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the day branch combines with the line's 六合",
        ),
        sa.Column(
            "month_combines",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the month branch combines with the line's 六合",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_bearing_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_bearing_sign_basis_domain")
        ),
        sa.CheckConstraint(
            "day_relation IN ('same', 'generates_me', 'i_generate', 'i_control', 'controls_me')",
            name=op.f("ck_bearing_sign_day_relation_domain"),
        ),
        sa.CheckConstraint(
            "place IN ('世', '應', '間', '卦身', '世身', '身前', '身後')",
            name=op.f("ck_bearing_sign_place_domain"),
        ),
        sa.CheckConstraint(
            "day_combines IN (0, 1)", name=op.f("ck_bearing_sign_day_combines_bool")
        ),
        sa.CheckConstraint(
            "is_day_clash IN (0, 1)", name=op.f("ck_bearing_sign_is_day_clash_bool")
        ),
        sa.CheckConstraint(
            "is_month_break IN (0, 1)", name=op.f("ck_bearing_sign_is_month_break_bool")
        ),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_bearing_sign_is_void_bool")),
        sa.CheckConstraint(
            "month_combines IN (0, 1)", name=op.f("ck_bearing_sign_month_combines_bool")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_bearing_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_bearing_sign_sign_sign")),
        sa.ForeignKeyConstraint(
            ["strength"], ["strength.name"], name=op.f("fk_bearing_sign_strength_strength")
        ),
        sa.PrimaryKeyConstraint(
            "place",
            "is_void",
            "is_month_break",
            "is_day_clash",
            "day_relation",
            "strength",
            "day_combines",
            "month_combines",
            "sign",
            name=op.f("pk_bearing_sign"),
        ),
        comment="Signs of a line in one of its places by how the day and month bear on it: the 卦身 combined (§9.2), a between line generated or helped (§10.3), the world combined and clashed (§8.13).",
        info={"section": "rules"},
    )
    op.create_table(
        "change_sign",
        sa.Column(
            "is_world",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 on the world line",
        ),
        sa.Column("relative", sa.String(length=2), nullable=False, comment="The line's relative"),
        sa.Column(
            "branch", sa.String(length=1), nullable=False, comment="The moving line's branch"
        ),
        sa.Column(
            "changed_branch",
            sa.String(length=1),
            nullable=False,
            comment="The branch it changes into",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_change_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_change_sign_basis_domain")
        ),
        sa.CheckConstraint("is_world IN (0, 1)", name=op.f("ck_change_sign_is_world_bool")),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_change_sign_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["changed_branch"], ["branch.name"], name=op.f("fk_change_sign_changed_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_change_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_change_sign_relative_relative")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_change_sign_sign_sign")),
        sa.PrimaryKeyConstraint(
            "is_world", "relative", "branch", "changed_branch", "sign", name=op.f("pk_change_sign")
        ),
        comment="Signs of a moving line by the branch it changes into: the world 化進神 or 化退神 (§8.14), entombed by its change (§8.13), 化合, 伏吟 and 反吟 (standard).",
        info={"section": "rules"},
    )
    op.create_table(
        "line_sign",
        sa.Column(
            "place",
            sa.String(length=2),
            nullable=False,
            comment="The line's place: 世 應 間 卦身 世身 身前 (after the 世身) or 身後 (before it)",
        ),
        sa.Column(
            "value",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The line's value 6..9",
        ),
        sa.Column(
            "is_void",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the line is void 旬空",
        ),
        sa.Column(
            "is_month_break",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the month breaks it 月破",
        ),
        sa.Column(
            "is_day_clash",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the day clashes it 日衝",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_sign_basis_domain")
        ),
        sa.CheckConstraint(
            "place IN ('世', '應', '間', '卦身', '世身', '身前', '身後')",
            name=op.f("ck_line_sign_place_domain"),
        ),
        sa.CheckConstraint("is_day_clash IN (0, 1)", name=op.f("ck_line_sign_is_day_clash_bool")),
        sa.CheckConstraint(
            "is_month_break IN (0, 1)", name=op.f("ck_line_sign_is_month_break_bool")
        ),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_line_sign_is_void_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_line_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_line_sign_sign_sign")),
        sa.ForeignKeyConstraint(
            ["value"], ["line_value.value"], name=op.f("fk_line_sign_value_line_value")
        ),
        sa.PrimaryKeyConstraint(
            "place",
            "value",
            "is_void",
            "is_month_break",
            "is_day_clash",
            "sign",
            name=op.f("pk_line_sign"),
        ),
        comment="Signs of a line in one of its places (line_place) by its value and what the day and month do to it: 世空 世破 世動 世衝, 應空 應破, the 卦身 and 世身 conditions, 間動, 將來 and 已往 (§8.14, §9.2–9.4, §10.2–10.5).",
        info={"section": "rules"},
    )
    op.create_table(
        "line_state_sign",
        sa.Column(
            "nature",
            sa.String(length=1),
            nullable=False,
            comment="吉 or 凶: the nature of the line's day spirit (spirit_nature)",
        ),
        sa.Column(
            "value",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The line's value 6..9",
        ),
        sa.Column(
            "is_void",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the line is void 旬空",
        ),
        sa.Column(
            "is_day_clash",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the day clashes it 日衝",
        ),
        sa.Column(
            "day_relation",
            sa.String(length=16),
            nullable=False,
            comment="How the day branch's element stands to the line's: generates_me (the day generates it), same, controls_me (the day controls it), i_generate, i_control",
        ),
        sa.Column(
            "strength",
            sa.String(length=1),
            nullable=False,
            comment="The line's strength in the month 旺相休囚死",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_state_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_line_state_sign_basis_domain"),
        ),
        sa.CheckConstraint(
            "day_relation IN ('same', 'generates_me', 'i_generate', 'i_control', 'controls_me')",
            name=op.f("ck_line_state_sign_day_relation_domain"),
        ),
        sa.CheckConstraint("nature IN ('吉', '凶')", name=op.f("ck_line_state_sign_nature_domain")),
        sa.CheckConstraint(
            "is_day_clash IN (0, 1)", name=op.f("ck_line_state_sign_is_day_clash_bool")
        ),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_line_state_sign_is_void_bool")),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_line_state_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_line_state_sign_sign_sign")),
        sa.ForeignKeyConstraint(
            ["strength"], ["strength.name"], name=op.f("fk_line_state_sign_strength_strength")
        ),
        sa.ForeignKeyConstraint(
            ["value"], ["line_value.value"], name=op.f("fk_line_state_sign_value_line_value")
        ),
        sa.PrimaryKeyConstraint(
            "nature",
            "value",
            "is_void",
            "is_day_clash",
            "day_relation",
            "strength",
            "sign",
            name=op.f("pk_line_state_sign"),
        ),
        comment="Signs of any line by its value, its day spirit's nature and what the day and month do to it: 重現 交隱 (§10.5), 暗動 日破, and what suits the spirits (§7.9).",
        info={"section": "rules"},
    )
    op.create_table(
        "mansion_sign",
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="The month's branch"
        ),
        sa.Column("mansion", sa.String(length=1), nullable=False, comment="The line's mansion"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_mansion_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_mansion_sign_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["mansion"], ["mansion.name"], name=op.f("fk_mansion_sign_mansion_mansion")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_mansion_sign_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_mansion_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_mansion_sign_sign_sign")),
        sa.PrimaryKeyConstraint("month_branch", "mansion", "sign", name=op.f("pk_mansion_sign")),
        comment="A line's mansion culminating at dusk 昏中 (auspicious) or at dawn 旦中 (inauspicious) in the month (§8.12).",
        info={"section": "rules"},
    )
    op.create_table(
        "matter_relief_sign",
        sa.Column("matter", sa.String(length=2), nullable=False, comment="The matter asked about"),
        sa.Column("place", sa.String(length=2), nullable=False, comment="The body: 卦身 or 世身"),
        sa.Column(
            "is_void",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the body line is void 旬空",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_matter_relief_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_matter_relief_sign_basis_domain"),
        ),
        sa.CheckConstraint(
            "place IN ('卦身', '世身')", name=op.f("ck_matter_relief_sign_place_domain")
        ),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_matter_relief_sign_is_void_bool")),
        sa.ForeignKeyConstraint(
            ["matter"], ["matter.name"], name=op.f("fk_matter_relief_sign_matter_matter")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_matter_relief_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["sign"], ["sign.name"], name=op.f("fk_matter_relief_sign_sign_sign")
        ),
        sa.PrimaryKeyConstraint(
            "matter", "place", "is_void", "sign", name=op.f("pk_matter_relief_sign")
        ),
        comment="The sign a void body line gives for a matter it relieves: a worry (§9.5).",
        info={"section": "rules"},
    )
    op.create_table(
        "matter_sign",
        sa.Column("matter", sa.String(length=2), nullable=False, comment="The matter asked about"),
        sa.Column("place", sa.String(length=2), nullable=False, comment="The body: 卦身 or 世身"),
        sa.Column("attitude", sa.String(length=8), nullable=False, comment="want or fear"),
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
            "attitude IN ('want', 'fear')", name=op.f("ck_matter_sign_attitude_domain")
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_matter_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_matter_sign_basis_domain")
        ),
        sa.CheckConstraint("place IN ('卦身', '世身')", name=op.f("ck_matter_sign_place_domain")),
        sa.ForeignKeyConstraint(
            ["matter"], ["matter.name"], name=op.f("fk_matter_sign_matter_matter")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_matter_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_matter_sign_sign_sign")),
        sa.PrimaryKeyConstraint("matter", "place", "attitude", "sign", name=op.f("pk_matter_sign")),
        comment="The sign a body line gives when it holds what the matter asked about wants or fears (§9.5; the items are the rows of matter_preference).",
        info={"section": "rules"},
    )
    op.create_table(
        "moving_relative_sign",
        sa.Column("relative", sa.String(length=2), nullable=False, comment="The line's relative"),
        sa.Column(
            "value",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The line's value 6..9",
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
            "basis <> 'book' OR passage IS NOT NULL",
            name=op.f("ck_moving_relative_sign_book_cites"),
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_moving_relative_sign_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_moving_relative_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_moving_relative_sign_relative_relative")
        ),
        sa.ForeignKeyConstraint(
            ["sign"], ["sign.name"], name=op.f("fk_moving_relative_sign_sign_sign")
        ),
        sa.ForeignKeyConstraint(
            ["value"], ["line_value.value"], name=op.f("fk_moving_relative_sign_value_line_value")
        ),
        sa.PrimaryKeyConstraint("relative", "value", "sign", name=op.f("pk_moving_relative_sign")),
        comment="The images of a moving relative (§6.5 生象, §6.6 克象): what it generates and controls.",
        info={"section": "rules"},
    )
    op.create_table(
        "najia_branch_rule",
        sa.Column("trigram", sa.String(length=1), nullable=False, comment="The trigram"),
        sa.Column(
            "first_branch",
            sa.String(length=1),
            nullable=False,
            comment="The branch of its line 1 as the inner trigram",
        ),
        sa.Column(
            "direction",
            sa.String(length=8),
            nullable=False,
            comment="forward (yang branches) or backward (yin branches)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_najia_branch_rule_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_najia_branch_rule_basis_domain"),
        ),
        sa.CheckConstraint(
            "direction IN ('forward', 'backward')",
            name=op.f("ck_najia_branch_rule_direction_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["first_branch"], ["branch.name"], name=op.f("fk_najia_branch_rule_first_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_najia_branch_rule_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["trigram"], ["trigram.name"], name=op.f("fk_najia_branch_rule_trigram_trigram")
        ),
        sa.PrimaryKeyConstraint("trigram", name=op.f("pk_najia_branch_rule")),
        comment="Where each trigram's najia branches start and which way they run (§4.4 the yang trigrams forward, §4.5 坤 and §4.6 巽 離 兌 backward): line 1 takes the first, each next line the branch two on.",
        info={"section": "rules"},
    )
    op.create_table(
        "najia_stem_rule",
        sa.Column("trigram", sa.String(length=1), nullable=False, comment="The trigram"),
        sa.Column(
            "inner_stem",
            sa.String(length=1),
            nullable=False,
            comment="Its stem as the inner trigram",
        ),
        sa.Column(
            "outer_stem",
            sa.String(length=1),
            nullable=False,
            comment="Its stem as the outer trigram",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_najia_stem_rule_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_najia_stem_rule_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["inner_stem"], ["stem.name"], name=op.f("fk_najia_stem_rule_inner_stem_stem")
        ),
        sa.ForeignKeyConstraint(
            ["outer_stem"], ["stem.name"], name=op.f("fk_najia_stem_rule_outer_stem_stem")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_najia_stem_rule_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["trigram"], ["trigram.name"], name=op.f("fk_najia_stem_rule_trigram_trigram")
        ),
        sa.PrimaryKeyConstraint("trigram", name=op.f("pk_najia_stem_rule")),
        comment="The stems each trigram takes in the najia (§4.1 乾 坤, §4.2 the six children): inner and outer, the fixed table.",
        info={"section": "rules"},
    )
    op.create_table(
        "relative_sign",
        sa.Column(
            "is_world",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 on the world line",
        ),
        sa.Column(
            "is_between",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 on a between line",
        ),
        sa.Column("relative", sa.String(length=2), nullable=False, comment="The line's relative"),
        sa.Column(
            "value",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The line's value 6..9",
        ),
        sa.Column(
            "stage",
            sa.String(length=2),
            nullable=False,
            comment="The stage of the line's element at the day branch",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_relative_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_relative_sign_basis_domain")
        ),
        sa.CheckConstraint("is_between IN (0, 1)", name=op.f("ck_relative_sign_is_between_bool")),
        sa.CheckConstraint("is_world IN (0, 1)", name=op.f("ck_relative_sign_is_world_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_relative_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_relative_sign_relative_relative")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_relative_sign_sign_sign")),
        sa.ForeignKeyConstraint(
            ["stage"], ["stage.name"], name=op.f("fk_relative_sign_stage_stage")
        ),
        sa.ForeignKeyConstraint(
            ["value"], ["line_value.value"], name=op.f("fk_relative_sign_value_line_value")
        ),
        sa.PrimaryKeyConstraint(
            "is_world",
            "is_between",
            "relative",
            "value",
            "stage",
            "sign",
            name=op.f("pk_relative_sign"),
        ),
        comment="Signs of a line's relative: a 官鬼 between line (§10.4), the world feeding the 官鬼 or entombed with it (§8.13).",
        info={"section": "rules"},
    )
    op.create_table(
        "shensha_on",
        sa.Column("day_gz", sa.String(length=2), nullable=False, comment="The day pillar"),
        sa.Column(
            "ganzhi",
            sa.String(length=2),
            nullable=False,
            comment="The line's najia stem and branch",
        ),
        sa.Column("shensha", sa.String(length=2), nullable=False, comment="A 神煞 standing on it"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_shensha_on_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_shensha_on_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["day_gz"], ["ganzhi.name"], name=op.f("fk_shensha_on_day_gz_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["ganzhi"], ["ganzhi.name"], name=op.f("fk_shensha_on_ganzhi_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_shensha_on_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["shensha"], ["shensha.name"], name=op.f("fk_shensha_on_shensha_shensha")
        ),
        sa.PrimaryKeyConstraint("day_gz", "ganzhi", "shensha", name=op.f("pk_shensha_on")),
        comment="Which 神煞 stand on a line of each stem-branch on each day: 咸池 by the day branch, 天財 and 地財 by the day stem (rules in shensha). Rows only where one stands.",
        info={"section": "rules"},
    )
    op.create_table(
        "sole_sign",
        sa.Column(
            "is_sole",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the world line is the only moving line",
        ),
        sa.Column(
            "star", sa.String(length=2), nullable=False, comment="The primary hexagram's star"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_sole_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_sole_sign_basis_domain")
        ),
        sa.CheckConstraint("is_sole IN (0, 1)", name=op.f("ck_sole_sign_is_sole_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_sole_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_sole_sign_sign_sign")),
        sa.ForeignKeyConstraint(["star"], ["star.name"], name=op.f("fk_sole_sign_star_star")),
        sa.PrimaryKeyConstraint("is_sole", "star", "sign", name=op.f("pk_sole_sign")),
        comment="獨發 and the star that shows when the world line is the only moving line (§8.7–8.9).",
        info={"section": "rules"},
    )
    op.create_table(
        "spirit_line_sign",
        sa.Column("spirit", sa.String(length=2), nullable=False, comment="The line's day spirit"),
        sa.Column("element", sa.String(length=1), nullable=False, comment="The line's element"),
        sa.Column(
            "is_world",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 on the world line",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_spirit_line_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_spirit_line_sign_basis_domain"),
        ),
        sa.CheckConstraint("is_world IN (0, 1)", name=op.f("ck_spirit_line_sign_is_world_bool")),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_spirit_line_sign_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_spirit_line_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["sign"], ["sign.name"], name=op.f("fk_spirit_line_sign_sign_sign")
        ),
        sa.ForeignKeyConstraint(
            ["spirit"], ["spirit.name"], name=op.f("fk_spirit_line_sign_spirit_spirit")
        ),
        sa.PrimaryKeyConstraint(
            "spirit", "element", "is_world", "sign", name=op.f("pk_spirit_line_sign")
        ),
        comment="Signs of a line's day spirit by the line's element and place: the affinities (§7.8) and an auspicious spirit holding the world (§7.9).",
        info={"section": "rules"},
    )
    op.create_table(
        "star_shensha_sign",
        sa.Column(
            "is_sole",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the world line is the only moving line",
        ),
        sa.Column(
            "star", sa.String(length=2), nullable=False, comment="The primary hexagram's star"
        ),
        sa.Column(
            "shensha", sa.String(length=2), nullable=False, comment="A 神煞 on the world line"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_star_shensha_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_star_shensha_sign_basis_domain"),
        ),
        sa.CheckConstraint("is_sole IN (0, 1)", name=op.f("ck_star_shensha_sign_is_sole_bool")),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_star_shensha_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["shensha"], ["shensha.name"], name=op.f("fk_star_shensha_sign_shensha_shensha")
        ),
        sa.ForeignKeyConstraint(
            ["sign"], ["sign.name"], name=op.f("fk_star_shensha_sign_sign_sign")
        ),
        sa.ForeignKeyConstraint(
            ["star"], ["star.name"], name=op.f("fk_star_shensha_sign_star_star")
        ),
        sa.PrimaryKeyConstraint(
            "is_sole", "star", "shensha", "sign", name=op.f("pk_star_shensha_sign")
        ),
        comment="A showing star meeting a 神煞 on the world line: 太陰 under 咸池 (§8.9).",
        info={"section": "rules"},
    )
    op.create_table(
        "star_sign",
        sa.Column(
            "is_sole",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the world line is the only moving line",
        ),
        sa.Column(
            "star", sa.String(length=2), nullable=False, comment="The primary hexagram's star"
        ),
        sa.Column(
            "relative", sa.String(length=2), nullable=False, comment="The world line's relative"
        ),
        sa.Column(
            "spirit", sa.String(length=2), nullable=False, comment="The world line's day spirit"
        ),
        sa.Column(
            "day_relation",
            sa.String(length=16),
            nullable=False,
            comment="How the day branch's element stands to the star's: generates_me (the day generates it), same, controls_me (the day controls it), i_generate, i_control",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_star_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_star_sign_basis_domain")
        ),
        sa.CheckConstraint(
            "day_relation IN ('same', 'generates_me', 'i_generate', 'i_control', 'controls_me')",
            name=op.f("ck_star_sign_day_relation_domain"),
        ),
        sa.CheckConstraint("is_sole IN (0, 1)", name=op.f("ck_star_sign_is_sole_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_star_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_star_sign_relative_relative")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_star_sign_sign_sign")),
        sa.ForeignKeyConstraint(
            ["spirit"], ["spirit.name"], name=op.f("fk_star_sign_spirit_spirit")
        ),
        sa.ForeignKeyConstraint(["star"], ["star.name"], name=op.f("fk_star_sign_star_star")),
        sa.PrimaryKeyConstraint(
            "is_sole",
            "star",
            "relative",
            "spirit",
            "day_relation",
            "sign",
            name=op.f("pk_star_sign"),
        ),
        comment="What a showing star meets on the world line (§8.8–8.9): 熒惑 controlled by the day, 太白 with 白虎 or 官鬼, or with 青龍 or 子孫.",
        info={"section": "rules"},
    )
    op.create_table(
        "world_group_sign",
        sa.Column("branch", sa.String(length=1), nullable=False, comment="The world line's branch"),
        sa.Column(
            "is_void",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the world must be void, 0 if it must not",
        ),
        sa.Column(
            "is_moving",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the world must move, 0 if it must not",
        ),
        sa.Column(
            "partner_a",
            sa.String(length=1),
            nullable=False,
            comment="One branch the group needs besides the world's",
        ),
        sa.Column(
            "partner_b",
            sa.String(length=1),
            nullable=False,
            comment="The other (the same as partner_a for a pair or 自刑)",
        ),
        sa.Column(
            "by_day", sa.Integer(), nullable=False, comment="1 if the day branch counts as present"
        ),
        sa.Column(
            "by_month",
            sa.Integer(),
            nullable=False,
            comment="1 if the month branch counts as present",
        ),
        sa.Column(
            "by_moving",
            sa.Integer(),
            nullable=False,
            comment="1 if the moving lines' branches count",
        ),
        sa.Column(
            "by_changed",
            sa.Integer(),
            nullable=False,
            comment="1 if the changed lines' branches count",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_world_group_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_world_group_sign_basis_domain"),
        ),
        sa.CheckConstraint(
            "by_changed IN (0, 1)", name=op.f("ck_world_group_sign_by_changed_bool")
        ),
        sa.CheckConstraint("by_day IN (0, 1)", name=op.f("ck_world_group_sign_by_day_bool")),
        sa.CheckConstraint("by_month IN (0, 1)", name=op.f("ck_world_group_sign_by_month_bool")),
        sa.CheckConstraint("by_moving IN (0, 1)", name=op.f("ck_world_group_sign_by_moving_bool")),
        sa.CheckConstraint("is_moving IN (0, 1)", name=op.f("ck_world_group_sign_is_moving_bool")),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_world_group_sign_is_void_bool")),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_world_group_sign_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["partner_a"], ["branch.name"], name=op.f("fk_world_group_sign_partner_a_branch")
        ),
        sa.ForeignKeyConstraint(
            ["partner_b"], ["branch.name"], name=op.f("fk_world_group_sign_partner_b_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_world_group_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["sign"], ["sign.name"], name=op.f("fk_world_group_sign_sign_sign")
        ),
        sa.PrimaryKeyConstraint(
            "branch", "is_void", "is_moving", "sign", name=op.f("pk_world_group_sign")
        ),
        comment="三合 and 三刑 around the world line (§8.14): the state of the world each needs, the other two branches it needs present, and where they may come from — the day, the month, the moving lines' branches (三合) or the changed lines' branches (三刑).",
        info={"section": "rules"},
    )
    op.create_table(
        "hexagram_sign",
        sa.Column(
            "king_wen",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The primary hexagram",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_hexagram_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_hexagram_sign_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["king_wen"], ["hexagram.king_wen"], name=op.f("fk_hexagram_sign_king_wen_hexagram")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_hexagram_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_hexagram_sign_sign_sign")),
        sa.PrimaryKeyConstraint("king_wen", "sign", name=op.f("pk_hexagram_sign")),
        comment="Signs of a primary hexagram as a whole (position NULL): world against response (§8.15), the 卦身 missing or doubled (§9.2–9.3), 遊魂 and 歸魂 (§8.5).",
        info={"section": "rules"},
    )
    op.create_table(
        "line_place",
        sa.Column(
            "king_wen", sa.Integer(), autoincrement=False, nullable=False, comment="The hexagram"
        ),
        sa.Column(
            "position",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="Line 1..6 from the bottom",
        ),
        sa.Column(
            "place", sa.String(length=2), nullable=False, comment="世 應 間 卦身 世身 身前 or 身後"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_place_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_place_basis_domain")
        ),
        sa.CheckConstraint(
            "place IN ('世', '應', '間', '卦身', '世身', '身前', '身後')",
            name=op.f("ck_line_place_place_domain"),
        ),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_line_place_position_range")),
        sa.ForeignKeyConstraint(
            ["king_wen"], ["hexagram.king_wen"], name=op.f("fk_line_place_king_wen_hexagram")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_line_place_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("king_wen", "position", "place", name=op.f("pk_line_place")),
        comment="The places the lines of each hexagram hold for the signs: world and response (§8.2–8.4), the between lines (§10.1), the lines holding the 卦身 and the 世身 line (§9.1), and the lines after (身前) and before (身後) the 世身, line 6 wrapping to 1 (§10.5).",
        info={"section": "rules"},
    )


def _create_line_aspect() -> None:
    op.create_table(
        "line_aspect",
        sa.Column(
            "value", sa.Integer(), autoincrement=False, nullable=False, comment="9 (重) or 6 (交)"
        ),
        sa.Column("aspect", sa.String(length=1), nullable=False, comment="現 or 隱"),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
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
        sa.CheckConstraint("aspect IN ('現', '隱')", name=op.f("ck_line_aspect_aspect_domain")),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_aspect_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_aspect_basis_domain")
        ),
        sa.CheckConstraint("value IN (6, 9)", name=op.f("ck_line_aspect_moving_value")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_line_aspect_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["value"], ["line_value.value"], name=op.f("fk_line_aspect_value_line_value")
        ),
        sa.PrimaryKeyConstraint("value", name=op.f("pk_line_aspect")),
        sa.UniqueConstraint("aspect", name=op.f("uq_line_aspect_aspect")),
        comment="The moving lines as time (§10.5 with §2.3): 重, the moving 9, shows what has already sprouted 現; 交, the moving 6, what has not yet sprouted 隱.",
        info={"section": "symbols"},
    )


def _create_old_line_aspect() -> None:
    op.create_table(
        "line_aspect",
        sa.Column(
            "yang", sa.Integer(), autoincrement=False, nullable=False, comment="1 yang, 0 yin"
        ),
        sa.Column("aspect", sa.String(length=1), nullable=False, comment="現 or 隱"),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column("basis", sa.String(length=8), nullable=False, comment=BASIS_COMMENT),
        sa.CheckConstraint("aspect IN ('現', '隱')", name=op.f("ck_line_aspect_aspect_domain")),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_aspect_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_aspect_basis_domain")
        ),
        sa.CheckConstraint("yang IN (0, 1)", name=op.f("ck_line_aspect_yang_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_line_aspect_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("yang", name=op.f("pk_line_aspect")),
        sa.UniqueConstraint("aspect", name=op.f("uq_line_aspect_aspect")),
        comment="Yang lines show what has appeared 現, yin lines what is still hidden 隱 (§10.5).",
    )


def _drop_tables() -> None:
    op.drop_table("line_place")
    op.drop_table("hexagram_sign")
    op.drop_table("world_group_sign")
    op.drop_table("star_sign")
    op.drop_table("star_shensha_sign")
    op.drop_table("spirit_line_sign")
    op.drop_table("sole_sign")
    op.drop_table("shensha_on")
    op.drop_table("relative_sign")
    op.drop_table("najia_stem_rule")
    op.drop_table("najia_branch_rule")
    op.drop_table("moving_relative_sign")
    op.drop_table("matter_sign")
    op.drop_table("matter_relief_sign")
    op.drop_table("mansion_sign")
    op.drop_table("line_state_sign")
    op.drop_table("line_sign")
    op.drop_table("change_sign")
    op.drop_table("bearing_sign")
    op.drop_table("spirit_nature")
    op.drop_table("sign")
    op.drop_table("hidden_stem")
    op.drop_table("branch_bearing")
    op.drop_table("spirit_layer")
    op.drop_table("sign_weight")
    op.drop_table("shensha")
    op.drop_table("matter")
    op.drop_table("mask_line")
    op.drop_table("coin_face")
    op.drop_table("cast_method")


def _comments(restore: bool = False) -> None:
    """PostgreSQL stores comments (SQLite does not): the descriptions that changed."""
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column, old, new in COMMENTS_CHANGED:
        comment, existing = (old, new) if restore else (new, old)
        if column is None:
            op.create_table_comment(table, comment, existing_comment=existing)
        else:
            op.alter_column(table, column, comment=comment, existing_comment=existing)


def upgrade() -> None:
    migrating.require_foreign_keys_off(op)
    migrating.drop_views(op, migrating.previous_views(op, VIEWS, REPLACES))
    _create_tables()
    # the seed writes matter and matter_preference again in the same transaction; the rows
    # go first so that the new foreign key has nothing to check against an empty matter
    op.execute("DELETE FROM matter_preference")
    op.drop_table("line_aspect")
    _create_line_aspect()
    with op.batch_alter_table("matter_preference", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_matter_preference_matter_domain"), type_="check")
        batch_op.drop_constraint(batch_op.f("ck_matter_preference_item_kind_domain"), type_="check")
        batch_op.create_check_constraint(
            batch_op.f("ck_matter_preference_item_kind_domain"), ITEM_KINDS
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_matter_preference_matter_matter"), "matter", ["matter"], ["name"]
        )
    with op.batch_alter_table("spirit_attribute", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_spirit_attribute_nature_domain"), type_="check")
        batch_op.drop_column("nature")
    with op.batch_alter_table("reading", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("matter", sa.String(length=2), nullable=True, comment=MATTER_COMMENT)
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_reading_matter_matter"), "matter", ["matter"], ["name"]
        )
    with op.batch_alter_table("source_passage", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("coverage", sa.String(length=8), nullable=True, comment=COVERAGE_COMMENT)
        )
        batch_op.add_column(
            sa.Column(
                "note", sa.Text(), nullable=True, comment="Why a theory passage encodes nothing"
            )
        )
    op.execute("UPDATE source_passage SET coverage = 'encoded'")  # the seed sets the theory ones
    with op.batch_alter_table("source_passage", schema=None) as batch_op:
        batch_op.alter_column(
            "coverage",
            existing_type=sa.String(length=8),
            nullable=False,
            existing_comment=COVERAGE_COMMENT,
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_source_passage_coverage_domain"), "coverage IN ('encoded', 'theory')"
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_source_passage_theory_has_note"),
            "coverage <> 'theory' OR note IS NOT NULL",
        )
    _comments()
    migrating.create_views(op, VIEWS)


def downgrade() -> None:
    migrating.user_data_dropped(
        op,
        "0006",
        {
            "the matter (reading.matter) of {n} reading{s}": (
                "SELECT COUNT(*) FROM reading WHERE matter IS NOT NULL"
            )
        },
    )
    migrating.require_foreign_keys_off(op)
    migrating.drop_views(op, VIEWS)
    with op.batch_alter_table("source_passage", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_source_passage_theory_has_note"), type_="check")
        batch_op.drop_constraint(batch_op.f("ck_source_passage_coverage_domain"), type_="check")
        batch_op.drop_column("note")
        batch_op.drop_column("coverage")
    with op.batch_alter_table("reading", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_reading_matter_matter"), type_="foreignkey")
        batch_op.drop_column("matter")
    with op.batch_alter_table("spirit_attribute", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "nature",
                sa.String(length=1),
                nullable=True,
                comment="吉 or 凶 for §7.9: 勾陳 吉 (§7.3 commentary), 朱雀 凶 as what water must "
                "subdue (§7.8), 騰蛇 凶 (standard)",
            )
        )
    op.execute(
        "UPDATE spirit_attribute SET nature = "
        "(SELECT n.nature FROM spirit_nature n WHERE n.spirit = spirit_attribute.spirit)"
    )
    with op.batch_alter_table("spirit_attribute", schema=None) as batch_op:
        batch_op.alter_column("nature", existing_type=sa.String(length=1), nullable=False)
        batch_op.create_check_constraint(batch_op.f("ck_spirit_attribute_nature_domain"), NATURES)
    op.execute("DELETE FROM matter_preference WHERE item_kind = 'shensha'")
    with op.batch_alter_table("matter_preference", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_matter_preference_matter_matter"), type_="foreignkey"
        )
        batch_op.drop_constraint(batch_op.f("ck_matter_preference_item_kind_domain"), type_="check")
        batch_op.create_check_constraint(
            batch_op.f("ck_matter_preference_item_kind_domain"), OLD_ITEM_KINDS
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_matter_preference_matter_domain"), OLD_MATTERS
        )
    op.drop_table("line_aspect")
    _create_old_line_aspect()
    _drop_tables()
    _comments(restore=True)
    migrating.create_views(op, migrating.previous_views(op, VIEWS, REPLACES))
