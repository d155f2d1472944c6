"""The signs of a stored reading (v_reading_sign): every judgment of 卷一 that fires for it.

The view is a union of one arm per family of :mod:`yimao_db.kb.rules.signs`. Each arm builds
the family's key for the reading (or for each of its lines) by joining rule tables, and
joins the family table on that key: the rows it finds are the signs that fire. Every arm
starts from ``reading``, so a query for one reading reads a few dozen index entries; the
attributes of each sign come from ``sign``.

The arm of 三合 and 三刑 (``world_group_sign``) filters on the rule row's flags: each of
the two other branches of the group must be the day's, the month's, a moving line's or a
changed line's, as the row's ``by_*`` flags allow.
"""

from __future__ import annotations

from yimao_db.kb.views.base import POSITION, View, col

V_READING_SIGN = View(
    "v_reading_sign",
    "readings",
    "Every judgment of 卷一 that fires for a reading (§7–§10): one row per sign and line it "
    "fires on (position NULL for a sign about the whole reading), with the sign's subject, "
    "polarity, weight and passage from the table sign. docs/signs.md lists the signs.",
    (
        col("reading_id", "The reading", "FK reading.id"),
        col("sign", "The sign, e.g. 世空", "FK sign.name"),
        col(
            "position",
            "The line it fires on; NULL for a sign about the whole reading",
            POSITION + " or NULL",
        ),
        col(
            "subject",
            "What it speaks of: 世 應 世應 卦身 世身 間爻 line hexagram spirit star mansion",
        ),
        col("polarity", "吉 auspicious, 凶 inauspicious, 中 neither", "吉/凶/中"),
        col(
            "weight",
            "How much it weighs, higher more: 5 世應, 4 卦身, 3 世身, 2 lines and day "
            "spirits, 1 stars and mansions (§9.6)",
            "1..5",
        ),
        col("passage", "The passage it rests on §chapter.passage", "FK source_passage.id or NULL"),
        col("basis", "book, standard or decision (docs/signs.md)", "book/standard/decision"),
    ),
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
)

VIEWS = (V_READING_SIGN,)
