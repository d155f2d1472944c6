"""Derived tables: v_reading and v_reading_hidden read stored rows.

SQLite looks up every join of a view under GROUP BY, used or not, so a report over all
readings (``SELECT palace, count(*) FROM v_reading GROUP BY 1``, a datasette facet) paid
some twenty rule-table lookups a reading. The columns the rule tables give a reading, and
its hidden spirits, are now stored per reading in ``reading_header`` and ``reading_hidden``
(written with the reading, in its transaction; yimao_db.kb.derived). Their definitions stay
views (``v_reading_header_computed``, ``v_reading_hidden_computed``: the SQL v_reading and
v_reading_hidden had), and creating them fills the tables from them for every stored
reading (yimao_db.kb.migrating.create_views). The public views keep their columns.

The downgrade drops the tables: they are derived, not user data.

Revision ID: 0018
Revises: 0017
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading_header_computed",
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
       (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = '日' AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc) AS sun_mansion, (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = '月' AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc) AS moon_mansion,
       am.name AS all_moving_name
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
""",
    ),
    ViewSQL(
        "v_reading",
        """
SELECT r.id AS reading_id, r.question, r.cast_at, r.tz,
       r.year_gz, r.month_gz, r.day_gz, r.hour_gz,
       h.void_branches, h.primary_king_wen, h.primary_name, h.changed_king_wen, h.changed_name,
       h.palace, h.moving_lines, h.nuclear_king_wen, h.is_liuchong, h.is_liuhe,
       h.generation_name, h.gua_shen, h.gua_shen_positions, h.shi_shen_line,
       r.created_at, r.method, r.cast_input, r.month_branch, r.solar_term, r.half_year,
       r.early_rat, r.najia_variant, h.primary_bits, h.changed_bits,
       h.primary_short_name, h.changed_short_name,
       h.year_relative, h.month_relative, h.day_relative, h.hour_relative, r.matter,
       o.verdict AS outcome, o.happened_on AS outcome_on,
       (SELECT COUNT(*) FROM reading_note n WHERE n.reading_id = r.id) AS note_count,
       (SELECT COUNT(*) FROM reading_tag t WHERE t.reading_id = r.id) AS tag_count,
       h.changed_palace, h.changed_generation_name, h.nuclear_name,
       r.cast_utc, h.sun_mansion, h.moon_mansion, h.all_moving_name
FROM reading_header h
CROSS JOIN reading r  -- after h on SQLite: r is then read in id order
LEFT JOIN reading_outcome o ON o.reading_id = r.id
WHERE r.id = h.reading_id
""",
    ),
    ViewSQL(
        "v_reading_hidden_computed",
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
        "v_reading_hidden",
        """
SELECT reading_id, position, relative, ganzhi, element, over_ganzhi, is_void, is_month_break,
       strength, stage, stem, branch, over_relative, is_day_clash,
       day_on, day_generates, day_helps, day_controls, day_combines,
       month_on, month_generates, month_helps, month_controls, month_combines
FROM reading_hidden
""",
    ),
    ViewSQL(
        "v_reading_use",
        """
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, ur.mark, c.relative, c.source,
       c.position, vl.stem, vl.branch, vl.element, vl.ganzhi, c.strength, vl.stage,
       vl.day_on, vl.day_generates, vl.day_helps, vl.day_controls, vl.day_combines,
       vl.month_on, vl.month_generates, vl.month_helps, vl.month_controls, vl.month_combines,
       c.is_void, c.is_month_break, vl.is_day_clash, c.is_moving, vl.transform,
       vl.changed_ganzhi, NULL AS fly_relation, NULL AS fly_ganzhi, NULL AS fly_is_moving,
       NULL AS fly_is_day_clash, CAST(mr.relative = c.relative AS INTEGER) AS month_stands_for,
       CAST(dr.relative = c.relative AS INTEGER) AS day_stands_for, c.candidate_count
FROM v_reading_use_candidate c
JOIN reading r ON r.id = c.reading_id
JOIN use_role ur ON ur.role = c.role
JOIN v_reading_line vl ON vl.reading_id = c.reading_id AND vl.position = c.position
JOIN hexagram h ON h.king_wen = r.primary_kw
JOIN trigram pt ON pt.name = h.palace
JOIN ganzhi d ON d.name = r.day_gz
JOIN branch mb ON mb.name = r.month_branch
JOIN branch db ON db.name = d.branch
JOIN element_relation mr ON mr.me = pt.element AND mr.other = mb.element
JOIN element_relation dr ON dr.me = pt.element AND dr.other = db.element
WHERE c.rank = 1 AND c.source <> 'hidden'
UNION ALL
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, ur.mark, c.relative, c.source,
       c.position, hz.stem, vh.branch, vh.element, vh.ganzhi, c.strength, vh.stage,
       vh.day_on, vh.day_generates, vh.day_helps, vh.day_controls, vh.day_combines,
       vh.month_on, vh.month_generates, vh.month_helps, vh.month_controls, vh.month_combines,
       c.is_void, c.is_month_break, vh.is_day_clash, c.is_moving, NULL, NULL,
       fh.relation, vh.over_ganzhi, fl.is_moving, fl.is_day_clash,
       CAST(mr.relative = c.relative AS INTEGER), CAST(dr.relative = c.relative AS INTEGER),
       c.candidate_count
FROM v_reading_use_candidate c
JOIN reading r ON r.id = c.reading_id
JOIN use_role ur ON ur.role = c.role
JOIN v_reading_hidden vh ON vh.reading_id = c.reading_id AND vh.position = c.position
JOIN v_reading_line fl ON fl.reading_id = c.reading_id AND fl.position = c.position
JOIN ganzhi hz ON hz.name = vh.ganzhi
JOIN fly_hidden_relation fh ON fh.fly_element = fl.element AND fh.hidden_element = vh.element
JOIN hexagram h ON h.king_wen = r.primary_kw
JOIN trigram pt ON pt.name = h.palace
JOIN ganzhi d ON d.name = r.day_gz
JOIN branch mb ON mb.name = r.month_branch
JOIN branch db ON db.name = d.branch
JOIN element_relation mr ON mr.me = pt.element AND mr.other = mb.element
JOIN element_relation dr ON dr.me = pt.element AND dr.other = db.element
WHERE c.rank = 1 AND c.source = 'hidden'
""",
    ),
    ViewSQL(
        "v_reading_sign",
        """
SELECT x.reading_id, x.sign, x.position, s.subject, s.polarity, s.weight, s.passage, s.basis,
       s.meaning, s.meaning_zh, s.cancels
FROM (
  -- the primary hexagram (how many lines hold the 卦身, its generation)
  SELECT r.id AS reading_id, hs.sign, CAST(NULL AS INTEGER) AS position
  FROM reading r
  JOIN hexagram_sign hs ON hs.king_wen = r.primary_kw
  UNION ALL
  -- how the response line's element stands to the world line's, and whether the question is between two parties (`question_parties`, by the reading's matter and subject)
  SELECT r.id, wr.sign, CAST(NULL AS INTEGER)
  FROM reading r
  JOIN hexagram h ON h.king_wen = r.primary_kw
  JOIN hexagram_line w ON w.king_wen = r.primary_kw AND w.position = h.world
  JOIN hexagram_line o ON o.king_wen = r.primary_kw AND o.position = h.response
  JOIN element_relation er ON er.me = w.element AND er.other = o.element
  JOIN question_parties qp ON qp.matter = COALESCE(r.matter, '')
    AND qp.about = COALESCE(r.about, '')
  JOIN world_response_sign wr ON wr.relation = er.relation AND wr.two_parties = qp.two_parties
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
  -- a between line: what the question makes of it (`question_between`, by the reading's matter), its value, void, 月破, how the day's element stands to it, its strength
  SELECT r.id, bt.sign, l.position
  FROM reading r
  JOIN question_between qb ON qb.matter = COALESCE(r.matter, '')
  JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.is_between = 1
  JOIN ganzhi d ON d.name = r.day_gz
  JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
  JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
  JOIN branch_bearing db ON db.actor = d.branch AND db.branch = l.branch
  JOIN reading_line rl ON rl.reading_id = r.id AND rl.position = l.position
  JOIN between_sign bt ON bt.between_use = qb.between_use AND bt.value = rl.value
    AND bt.is_void = bd.is_void AND bt.is_month_break = bm.is_month_break
    AND bt.day_relation = db.relation AND bt.strength = bm.strength
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
    "v_reading": "0017",
    "v_reading_hidden": "0006",
    "v_reading_use": "0016",
    "v_reading_sign": "0016",
}


def upgrade() -> None:
    op.create_table(
        "reading_header",
        sa.Column(
            "reading_id", sa.Integer(), autoincrement=False, nullable=False, comment="The reading"
        ),
        sa.Column(
            "void_branches",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The day's two void branches 旬空",
        ),
        sa.Column(
            "primary_king_wen",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="本卦, the primary hexagram",
        ),
        sa.Column(
            "primary_name",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The primary hexagram's full name",
        ),
        sa.Column(
            "changed_king_wen",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="變卦, the changed hexagram; NULL with no moving line",
        ),
        sa.Column(
            "changed_name",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The changed hexagram's full name",
        ),
        sa.Column(
            "palace",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The primary hexagram's palace",
        ),
        sa.Column(
            "moving_lines",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Positions of the moving lines joined by ',', e.g. 1,4; empty when none",
        ),
        sa.Column(
            "nuclear_king_wen",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="互卦 of the primary hexagram (lines 2–4 below, 3–5 above)",
        ),
        sa.Column(
            "is_liuchong",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the primary hexagram is a 六衝卦: lines 1–4, 2–5 and 3–6 all clash (the eight pure hexagrams, 無妄, 大壯)",
        ),
        sa.Column(
            "is_liuhe",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the primary hexagram is a 六合卦: all three pairs combine (否 泰 困 節 賁 旅 復 豫)",
        ),
        sa.Column(
            "generation_name",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The primary's generation; 遊魂 change, 歸魂 return (§8.5)",
        ),
        sa.Column(
            "gua_shen",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="卦身 branch of the primary hexagram (§9.1)",
        ),
        sa.Column(
            "gua_shen_positions",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Lines holding the 卦身, joined by ','; empty when none does (§9.1)",
        ),
        sa.Column(
            "shi_shen_line",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="世身 line of the primary hexagram (§9.1)",
        ),
        sa.Column(
            "primary_bits",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The primary hexagram's bits",
        ),
        sa.Column(
            "changed_bits",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The changed hexagram's bits; NULL with no moving line",
        ),
        sa.Column(
            "primary_short_name",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The primary hexagram's short name",
        ),
        sa.Column(
            "changed_short_name",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The changed hexagram's short name; NULL with no moving line",
        ),
        sa.Column(
            "year_relative",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The relative the year branch is to the palace (§6.2 commentary: the moment's branches take relatives too); NULL with no year pillar",
        ),
        sa.Column(
            "month_relative",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The relative the month branch 月建 is to the palace",
        ),
        sa.Column(
            "day_relative",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The relative the day branch is to the palace",
        ),
        sa.Column(
            "hour_relative",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The relative the hour branch is to the palace; NULL with no hour",
        ),
        sa.Column(
            "changed_palace",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The changed hexagram's palace; NULL with no moving line",
        ),
        sa.Column(
            "changed_generation_name",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The changed hexagram's generation in its palace; NULL with no moving line",
        ),
        sa.Column(
            "nuclear_name",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The full name of the 互卦",
        ),
        sa.Column(
            "sun_mansion",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="日纏: the lodge the sun is in at cast_utc (lodge_ingress, §8.12); NULL with no cast_utc or outside the lodge table (1901–2100, UTC)",
        ),
        sa.Column(
            "moon_mansion",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="月麗: the lodge the moon is in at cast_utc (lodge_ingress, §8.12); NULL with no cast_utc or outside the lodge table (1901–2100, UTC)",
        ),
        sa.Column(
            "all_moving_name",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="用九 when all six lines of 乾 move, 用六 when all six of 坤 do (all_moving); NULL otherwise",
        ),
        sa.ForeignKeyConstraint(
            ["reading_id"],
            ["reading.id"],
            name=op.f("fk_reading_header_reading_id_reading"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("reading_id", name=op.f("pk_reading_header")),
        comment="Derived: the rows of v_reading_header_computed stored for every reading, written with the reading (yimao check compares the two).",
        info={"section": "readings"},
    )
    op.create_table(
        "reading_hidden",
        sa.Column(
            "reading_id", sa.Integer(), autoincrement=False, nullable=False, comment="The reading"
        ),
        sa.Column(
            "position",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The line it hides under, 1..6",
        ),
        sa.Column(
            "relative", sa.Text(), autoincrement=False, nullable=True, comment="The hidden relative"
        ),
        sa.Column(
            "ganzhi",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Its stem and branch under the reading's najia variant",
        ),
        sa.Column("element", sa.Text(), autoincrement=False, nullable=True, comment="Its element"),
        sa.Column(
            "over_ganzhi",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Stem and branch of the line above it (飛神)",
        ),
        sa.Column(
            "is_void",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if its branch is void 旬空 on the day",
        ),
        sa.Column(
            "is_month_break",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if its branch clashes the month branch 月破",
        ),
        sa.Column(
            "strength",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Seasonal strength in the month",
        ),
        sa.Column(
            "stage",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Twelve stage of its element at the day branch",
        ),
        sa.Column(
            "stem",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Its najia stem (fixed table)",
        ),
        sa.Column(
            "branch", sa.Text(), autoincrement=False, nullable=True, comment="Its najia branch"
        ),
        sa.Column(
            "over_relative",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Relative of the line above it (飛神)",
        ),
        sa.Column(
            "is_day_clash",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if its branch clashes the day branch 日衝",
        ),
        sa.Column(
            "day_on",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch stands on the spirit: its branch is the spirit's 臨",
        ),
        sa.Column(
            "day_generates",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch generates the spirit 生: its element generates the spirit's",
        ),
        sa.Column(
            "day_helps",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch helps the spirit 扶: its element is the spirit's (臨 included)",
        ),
        sa.Column(
            "day_controls",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch controls the spirit 剋: its element controls the spirit's",
        ),
        sa.Column(
            "day_combines",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch combines with the spirit 合: the two branches form a 六合",
        ),
        sa.Column(
            "month_on",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch stands on the spirit: its branch is the spirit's 臨",
        ),
        sa.Column(
            "month_generates",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch generates the spirit 生: its element generates the spirit's",
        ),
        sa.Column(
            "month_helps",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch helps the spirit 扶: its element is the spirit's (臨 included)",
        ),
        sa.Column(
            "month_controls",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch controls the spirit 剋: its element controls the spirit's",
        ),
        sa.Column(
            "month_combines",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch combines with the spirit 合: the two branches form a 六合",
        ),
        sa.ForeignKeyConstraint(
            ["reading_id"],
            ["reading.id"],
            name=op.f("fk_reading_hidden_reading_id_reading"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("reading_id", "position", name=op.f("pk_reading_hidden")),
        comment="Derived: the rows of v_reading_hidden_computed stored for every reading, written with the reading (yimao check compares the two).",
        info={"section": "readings"},
        sqlite_with_rowid=False,
    )
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
    op.drop_table("reading_hidden")
    op.drop_table("reading_header")
