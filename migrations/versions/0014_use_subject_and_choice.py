"""用神: subjects, the choice rule as data, reading.about and its change log, the views.

The tables subject, matter_subject, use_role, relative_role, use_candidate_rank,
use_loss_reason, fly_hidden_relation and use_rule (docs/use.md); reading.about (the
subject asked about) and reading_about_change (yimao about); the new views
v_reading_use_candidate and v_reading_use. The downgrade refuses to drop a stored subject
or change unless forced.

Revision ID: 0014
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ABOUT_COMMENT = (
    "The subject asked about (docs/use.md): its 用神 is v_reading_use; NULL if not said. Set at "
    "the cast (--about, or the matter's default subject) or later with yimao about, which "
    "records the change in reading_about_change"
)

VIEWS = (
    ViewSQL(
        "v_reading_use_candidate",
        """
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, c.relative, c.source, c.position,
       c.is_moving, c.is_world, c.is_response, c.strength, c.is_void, c.is_month_break,
       c.key_rank, c.rank, c.candidate_count, lr.reason
FROM (
  SELECT a.*,
         ROW_NUMBER() OVER w AS rank,
         FIRST_VALUE(a.key_rank) OVER w AS chosen_rank,
         COUNT(*) OVER (PARTITION BY a.reading_id, a.role) AS candidate_count
  FROM (
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, s.kind AS source, l.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
JOIN subject s ON s.name = r.about
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role
JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = sp.position
JOIN reading_line rl ON rl.reading_id = r.id AND rl.position = l.position
JOIN line_value lv ON lv.value = rl.value

LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
JOIN use_candidate_rank k ON k.is_moving = lv.is_moving AND k.is_world = l.is_world
  AND k.is_response = l.is_response AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break
WHERE ur.by_place = 1
UNION ALL
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, 'visible' AS source, l.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
JOIN subject s ON s.name = r.about
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role
JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.relative = rr.relative
JOIN reading_line rl ON rl.reading_id = r.id AND rl.position = l.position
JOIN line_value lv ON lv.value = rl.value

LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
JOIN use_candidate_rank k ON k.is_moving = lv.is_moving AND k.is_world = l.is_world
  AND k.is_response = l.is_response AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break
WHERE s.place IS NULL OR ur.by_place = 0
UNION ALL
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, 'hidden' AS source, hs.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
JOIN subject s ON s.name = r.about
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role
JOIN hidden_spirit hs ON hs.king_wen = r.primary_kw AND hs.relative = rr.relative

LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = hs.branch
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = hs.branch
JOIN use_candidate_rank k ON k.is_moving = 0 AND k.is_world = 0
  AND k.is_response = 0 AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break
WHERE s.place IS NULL OR ur.by_place = 0
  ) a
  WINDOW w AS (PARTITION BY a.reading_id, a.role ORDER BY a.key_rank, a.position)
) c
LEFT JOIN use_loss_reason lr
  ON c.rank > 1 AND lr.winner_rank = c.chosen_rank AND lr.loser_rank = c.key_rank
""",
    ),
    ViewSQL(
        "v_reading_use",
        """
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, ur.mark, c.relative, c.source,
       c.position, COALESCE(hz.stem, vl.stem) AS stem, COALESCE(vh.branch, vl.branch) AS branch,
       COALESCE(vh.element, vl.element) AS element, COALESCE(vh.ganzhi, vl.ganzhi) AS ganzhi,
       c.strength, COALESCE(vh.stage, vl.stage) AS stage,
       COALESCE(vh.day_on, vl.day_on) AS day_on,
       COALESCE(vh.day_generates, vl.day_generates) AS day_generates,
       COALESCE(vh.day_helps, vl.day_helps) AS day_helps,
       COALESCE(vh.day_controls, vl.day_controls) AS day_controls,
       COALESCE(vh.day_combines, vl.day_combines) AS day_combines,
       COALESCE(vh.month_on, vl.month_on) AS month_on,
       COALESCE(vh.month_generates, vl.month_generates) AS month_generates,
       COALESCE(vh.month_helps, vl.month_helps) AS month_helps,
       COALESCE(vh.month_controls, vl.month_controls) AS month_controls,
       COALESCE(vh.month_combines, vl.month_combines) AS month_combines,
       c.is_void, c.is_month_break, COALESCE(vh.is_day_clash, vl.is_day_clash) AS is_day_clash,
       c.is_moving, vl.transform, vl.changed_ganzhi,
       fh.relation AS fly_relation, vh.over_ganzhi AS fly_ganzhi,
       fl.is_moving AS fly_is_moving, fl.is_day_clash AS fly_is_day_clash,
       CAST(mr.relative = c.relative AS INTEGER) AS month_stands_for,
       CAST(dr.relative = c.relative AS INTEGER) AS day_stands_for,
       c.candidate_count
FROM v_reading_use_candidate c
JOIN reading r ON r.id = c.reading_id
LEFT JOIN use_role ur ON ur.role = c.role
LEFT JOIN v_reading_line vl
  ON c.source <> 'hidden' AND vl.reading_id = c.reading_id AND vl.position = c.position
LEFT JOIN v_reading_hidden vh
  ON c.source = 'hidden' AND vh.reading_id = c.reading_id AND vh.position = c.position
LEFT JOIN v_reading_line fl
  ON c.source = 'hidden' AND fl.reading_id = c.reading_id AND fl.position = c.position
LEFT JOIN ganzhi hz ON hz.name = vh.ganzhi
LEFT JOIN fly_hidden_relation fh ON fh.fly_element = fl.element AND fh.hidden_element = vh.element
LEFT JOIN hexagram h ON h.king_wen = r.primary_kw
LEFT JOIN trigram pt ON pt.name = h.palace
LEFT JOIN ganzhi d ON d.name = r.day_gz
LEFT JOIN branch mb ON mb.name = r.month_branch
LEFT JOIN branch db ON db.name = d.branch
LEFT JOIN element_relation mr ON mr.me = pt.element AND mr.other = mb.element
LEFT JOIN element_relation dr ON dr.me = pt.element AND dr.other = db.element
WHERE c.rank = 1
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
) x
JOIN sign s ON s.name = x.sign
""",
    ),
)
REPLACES = {"v_reading_sign": "0013"}  # the two use views are new


# the sign catalogue gains the subject 用神, the chart group "use" and the weight 6
OLD_SUBJECTS = (
    "世",
    "應",
    "世應",
    "卦身",
    "世身",
    "間爻",
    "line",
    "hexagram",
    "spirit",
    "star",
    "mansion",
)
NEW_SUBJECTS = ("用神", *OLD_SUBJECTS)
OLD_GROUPS = ("world", "bodies", "between", "lines")
NEW_GROUPS = ("use", *OLD_GROUPS)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


CHECKS = (  # table, constraint, the expression before, after
    ("sign", "ck_sign_subject_domain", _in("subject", OLD_SUBJECTS), _in("subject", NEW_SUBJECTS)),
    (
        "sign",
        "ck_sign_chart_group_domain",
        _in("chart_group", OLD_GROUPS),
        _in("chart_group", NEW_GROUPS),
    ),
    (
        "sign_weight",
        "ck_sign_weight_weight_range",
        "weight BETWEEN 1 AND 5",
        "weight BETWEEN 1 AND 6",
    ),
)
SIGN_TABLES = ("use_change_sign", "use_fly_sign", "use_state_sign", "use_strength_sign")


# (table, column, type, comment before, comment after): the catalogue's comments name 用神
COMMENTS = (
    (
        "sign",
        "subject",
        sa.String(length=8),
        "What it speaks of: 世 應 世應 卦身 世身 間爻 line hexagram spirit star mansion",
        "What it speaks of: 用神 世 應 世應 卦身 世身 間爻 line hexagram spirit star mansion",
    ),
    (
        "sign",
        "chart_group",
        sa.String(length=8),
        "Where a chart lists it: world bodies between lines",
        "Where a chart lists it: use world bodies between lines",
    ),
    ("sign_weight", "weight", sa.Integer(), "1..5, higher weighs more", "1..6, higher weighs more"),
    (
        "sign_weight",
        "name",
        sa.String(length=4),
        "What weighs so: 世應 卦身 世身 爻 星宿",
        "What weighs so: 用神 世應 卦身 世身 爻 星宿",
    ),
)


def _comments(after: bool) -> None:
    """PostgreSQL stores column comments (SQLite does not)."""
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column, type_, old, new in COMMENTS:
        op.alter_column(
            table,
            column,
            existing_type=type_,
            existing_nullable=False,
            comment=new if after else old,
            existing_comment=old if after else new,
        )


def _create_sign_tables() -> None:
    op.create_table(
        "use_change_sign",
        sa.Column(
            "role",
            sa.String(length=2),
            nullable=False,
            comment="The role: 用神 原神 忌神 or 仇神 (docs/use.md)",
        ),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="Its branch"),
        sa.Column(
            "changed_branch",
            sa.String(length=1),
            nullable=False,
            comment="The changed line's branch",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_change_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_use_change_sign_basis_domain"),
        ),
        sa.CheckConstraint(
            "role IN ('用神', '原神', '忌神', '仇神')", name=op.f("ck_use_change_sign_role_domain")
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_use_change_sign_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["changed_branch"],
            ["branch.name"],
            name=op.f("fk_use_change_sign_changed_branch_branch"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_use_change_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_use_change_sign_sign_sign")),
        sa.PrimaryKeyConstraint(
            "role", "branch", "changed_branch", "sign", name=op.f("pk_use_change_sign")
        ),
        comment="Signs of a moving 用神's change: 化回頭克 化回頭生 化進神 化退神 (standard; §8.14 for the world line).",
        info={"section": "rules"},
    )
    op.create_table(
        "use_fly_sign",
        sa.Column(
            "role",
            sa.String(length=2),
            nullable=False,
            comment="The role: 用神 原神 忌神 or 仇神 (docs/use.md)",
        ),
        sa.Column(
            "fly_is_moving",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if its 飛神 moves",
        ),
        sa.Column(
            "fly_is_day_clash",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the day clashes its 飛神",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_fly_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_use_fly_sign_basis_domain")
        ),
        sa.CheckConstraint(
            "role IN ('用神', '原神', '忌神', '仇神')", name=op.f("ck_use_fly_sign_role_domain")
        ),
        sa.CheckConstraint(
            "fly_is_day_clash IN (0, 1)", name=op.f("ck_use_fly_sign_fly_is_day_clash_bool")
        ),
        sa.CheckConstraint(
            "fly_is_moving IN (0, 1)", name=op.f("ck_use_fly_sign_fly_is_moving_bool")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_use_fly_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_use_fly_sign_sign_sign")),
        sa.PrimaryKeyConstraint(
            "role", "fly_is_moving", "fly_is_day_clash", "sign", name=op.f("pk_use_fly_sign")
        ),
        comment="The sign of a hidden 用神 whose 飛神 moves or is clashed by the day: 伏神得出 (standard; docs/use.md).",
        info={"section": "rules"},
    )
    op.create_table(
        "use_state_sign",
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
            comment="Where it is: visible, hidden, world or response",
        ),
        sa.Column(
            "is_moving", sa.Integer(), autoincrement=False, nullable=False, comment="1 if it moves"
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
            "day_controls",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the day branch controls it 剋",
        ),
        sa.Column(
            "month_controls",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the month branch controls it 剋",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_state_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_use_state_sign_basis_domain")
        ),
        sa.CheckConstraint(
            "role IN ('用神', '原神', '忌神', '仇神')", name=op.f("ck_use_state_sign_role_domain")
        ),
        sa.CheckConstraint(
            "source IN ('visible', 'hidden', 'world', 'response')",
            name=op.f("ck_use_state_sign_source_domain"),
        ),
        sa.CheckConstraint(
            "day_controls IN (0, 1)", name=op.f("ck_use_state_sign_day_controls_bool")
        ),
        sa.CheckConstraint(
            "is_month_break IN (0, 1)", name=op.f("ck_use_state_sign_is_month_break_bool")
        ),
        sa.CheckConstraint("is_moving IN (0, 1)", name=op.f("ck_use_state_sign_is_moving_bool")),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_use_state_sign_is_void_bool")),
        sa.CheckConstraint(
            "month_controls IN (0, 1)", name=op.f("ck_use_state_sign_month_controls_bool")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_use_state_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_use_state_sign_sign_sign")),
        sa.PrimaryKeyConstraint(
            "role",
            "source",
            "is_moving",
            "is_void",
            "is_month_break",
            "day_controls",
            "month_controls",
            "sign",
            name=op.f("pk_use_state_sign"),
        ),
        comment="Signs of the 用神 and its chain by where each is and what the day and month do to it: 用神被克, 忌神被克, 原神動生用, 忌神動克用, 用神空, 用神破, 用神伏藏 (§6.5–6.6; docs/use.md). Only a reading that names its subject has them.",
        info={"section": "rules"},
    )
    op.create_table(
        "use_strength_sign",
        sa.Column(
            "role",
            sa.String(length=2),
            nullable=False,
            comment="The role: 用神 原神 忌神 or 仇神 (docs/use.md)",
        ),
        sa.Column(
            "strength",
            sa.String(length=1),
            nullable=False,
            comment="The line's strength in the month 旺相休囚死",
        ),
        sa.Column(
            "day_generates",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the day branch generates it 生",
        ),
        sa.Column(
            "day_helps",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the day branch helps it 扶",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_strength_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_use_strength_sign_basis_domain"),
        ),
        sa.CheckConstraint(
            "role IN ('用神', '原神', '忌神', '仇神')",
            name=op.f("ck_use_strength_sign_role_domain"),
        ),
        sa.CheckConstraint(
            "day_generates IN (0, 1)", name=op.f("ck_use_strength_sign_day_generates_bool")
        ),
        sa.CheckConstraint("day_helps IN (0, 1)", name=op.f("ck_use_strength_sign_day_helps_bool")),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_use_strength_sign_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["sign"], ["sign.name"], name=op.f("fk_use_strength_sign_sign_sign")
        ),
        sa.ForeignKeyConstraint(
            ["strength"], ["strength.name"], name=op.f("fk_use_strength_sign_strength_strength")
        ),
        sa.PrimaryKeyConstraint(
            "role",
            "strength",
            "day_generates",
            "day_helps",
            "sign",
            name=op.f("pk_use_strength_sign"),
        ),
        comment="Signs of the 用神's strength: 用神旺 and 用神衰 (standard; docs/use.md).",
        info={"section": "rules"},
    )


def upgrade() -> None:
    op.create_table(
        "fly_hidden_relation",
        sa.Column("fly_element", sa.String(length=1), nullable=False, comment="The 飛神's element"),
        sa.Column(
            "hidden_element", sa.String(length=1), nullable=False, comment="The 伏神's element"
        ),
        sa.Column(
            "relation",
            sa.String(length=4),
            nullable=False,
            comment="飛生伏 伏生飛 飛克伏 伏克飛 or 比和",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_fly_hidden_relation_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_fly_hidden_relation_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["fly_element"],
            ["element.name"],
            name=op.f("fk_fly_hidden_relation_fly_element_element"),
        ),
        sa.ForeignKeyConstraint(
            ["hidden_element"],
            ["element.name"],
            name=op.f("fk_fly_hidden_relation_hidden_element_element"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_fly_hidden_relation_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint(
            "fly_element", "hidden_element", name=op.f("pk_fly_hidden_relation")
        ),
        comment="How a 飛神 stands to the 伏神 under it: 飛生伏 伏生飛 飛克伏 伏克飛 or 比和 (standard).",
        info={"section": "rules"},
    )
    op.create_table(
        "use_loss_reason",
        sa.Column(
            "winner_rank",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The chosen rank",
        ),
        sa.Column(
            "loser_rank",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The loser's rank",
        ),
        sa.Column(
            "criterion",
            sa.String(length=16),
            nullable=False,
            comment="moving, world_response, strength, sound or position",
        ),
        sa.Column("reason", sa.Text(), nullable=False, comment="The reason in words"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_loss_reason_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_use_loss_reason_basis_domain"),
        ),
        sa.CheckConstraint(
            "criterion IN ('moving', 'world_response', 'strength', 'sound', 'position')",
            name=op.f("ck_use_loss_reason_criterion_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_use_loss_reason_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("winner_rank", "loser_rank", name=op.f("pk_use_loss_reason")),
        comment="Why a candidate lost to the chosen one: the first criterion on which their ranks (use_candidate_rank.rank) differ, for every pair with the chosen one's rank first.",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "use_role",
        sa.Column("role", sa.String(length=2), nullable=False, comment="用神 原神 忌神 or 仇神"),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..4 in that order"),
        sa.Column(
            "mark",
            sa.String(length=1),
            nullable=False,
            comment="The one-character mark a chart shows: 用 原 忌 仇",
        ),
        sa.Column("gloss", sa.Text(), nullable=False, comment="What the role is"),
        sa.Column(
            "by_place",
            sa.Integer(),
            nullable=False,
            comment="1 if a world/response subject fixes this role to its line (the 用神)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_role_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_use_role_basis_domain")
        ),
        sa.CheckConstraint(
            "role IN ('用神', '原神', '忌神', '仇神')", name=op.f("ck_use_role_role_domain")
        ),
        sa.CheckConstraint("by_place IN (0, 1)", name=op.f("ck_use_role_by_place_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_use_role_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("role", name=op.f("pk_use_role")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_use_role_ordinal")),
        comment="The four roles around a subject (§6.5–6.6 commentary): 用神, 原神 (generates it), 忌神 (controls it), 仇神 (controls the 原神).",
        info={"section": "rules"},
    )
    op.create_table(
        "use_rule",
        sa.Column("step", sa.String(length=24), nullable=False, comment="The step's name"),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="Its order"),
        sa.Column("text", sa.Text(), nullable=False, comment="What the step does"),
        sa.Column("reason", sa.Text(), nullable=True, comment="Why, for a decision"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_rule_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_use_rule_basis_domain")
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 99", name=op.f("ck_use_rule_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_use_rule_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("step", name=op.f("pk_use_rule")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_use_rule_ordinal")),
        comment="The rule choosing the 用神 and its chain, one row per step, so the rule itself is readable from the database (docs/use.md).",
        info={"section": "rules"},
    )
    op.create_table(
        "relative_role",
        sa.Column(
            "use_relative", sa.String(length=2), nullable=False, comment="The 用神's relative"
        ),
        sa.Column("role", sa.String(length=2), nullable=False, comment="The role"),
        sa.Column(
            "relative", sa.String(length=2), nullable=False, comment="The relative playing it"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_relative_role_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_relative_role_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_relative_role_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_relative_role_relative_relative")
        ),
        sa.ForeignKeyConstraint(
            ["role"], ["use_role.role"], name=op.f("fk_relative_role_role_use_role")
        ),
        sa.ForeignKeyConstraint(
            ["use_relative"], ["relative.name"], name=op.f("fk_relative_role_use_relative_relative")
        ),
        sa.PrimaryKeyConstraint("use_relative", "role", name=op.f("pk_relative_role")),
        comment="The chain: for a 用神 of each relative, the relative playing each role (the five-element cycles, §5.5–5.6).",
        info={"section": "rules"},
    )
    op.create_table(
        "subject",
        sa.Column(
            "name",
            sa.String(length=8),
            nullable=False,
            comment="Canonical name, e.g. 妻財, 貨貝, 世, 考試",
        ),
        sa.Column(
            "kind",
            sa.String(length=8),
            nullable=False,
            comment="relative (its 用神 is a line of the relative), world or response",
        ),
        sa.Column(
            "relative",
            sa.String(length=2),
            nullable=True,
            comment="The relative whose line stands for it; NULL for world and response",
        ),
        sa.Column(
            "place",
            sa.String(length=2),
            nullable=True,
            comment="世 or 應: the place whose line is the 用神 (line_place.place); NULL otherwise",
        ),
        sa.Column("gloss", sa.Text(), nullable=False, comment="What it is, in English"),
        sa.Column(
            "symbol",
            sa.String(length=8),
            nullable=True,
            comment="For a book image: its relative_symbol row (with relative); NULL otherwise",
        ),
        sa.Column("reason", sa.Text(), nullable=True, comment="Why, for a decision"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_subject_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_subject_basis_domain")
        ),
        sa.CheckConstraint(
            "kind IN ('relative', 'world', 'response')", name=op.f("ck_subject_kind_domain")
        ),
        sa.CheckConstraint("place IN ('世', '應')", name=op.f("ck_subject_place_domain")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_subject_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["relative", "symbol"],
            ["relative_symbol.relative", "relative_symbol.symbol"],
            name=op.f("fk_subject_relative_symbol_relative_symbol"),
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_subject_relative_relative")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_subject")),
        comment="What a reading may be asked about (§6.2–6.4, §6.7, §8.14–8.15): the images of the six relatives (book), the relatives themselves, the asker 世 and the other party 應, and the common subjects practitioners ask about (standard). Names resolve through name_alias (kind subject).",
        info={"section": "rules"},
    )
    op.create_table(
        "use_candidate_rank",
        sa.Column(
            "is_moving", sa.Integer(), autoincrement=False, nullable=False, comment="1 if it moves"
        ),
        sa.Column(
            "is_world",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 on the world line",
        ),
        sa.Column(
            "is_response",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 on the response line",
        ),
        sa.Column(
            "strength", sa.String(length=1), nullable=False, comment="Its strength in the month"
        ),
        sa.Column(
            "is_void", sa.Integer(), autoincrement=False, nullable=False, comment="1 if void"
        ),
        sa.Column(
            "is_month_break",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if month-broken",
        ),
        sa.Column(
            "rank", sa.Integer(), nullable=False, comment="1 = best; equal standing, equal rank"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_candidate_rank_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_use_candidate_rank_basis_domain"),
        ),
        sa.CheckConstraint(
            "is_month_break IN (0, 1)", name=op.f("ck_use_candidate_rank_is_month_break_bool")
        ),
        sa.CheckConstraint(
            "is_moving IN (0, 1)", name=op.f("ck_use_candidate_rank_is_moving_bool")
        ),
        sa.CheckConstraint(
            "is_response IN (0, 1)", name=op.f("ck_use_candidate_rank_is_response_bool")
        ),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_use_candidate_rank_is_void_bool")),
        sa.CheckConstraint("is_world IN (0, 1)", name=op.f("ck_use_candidate_rank_is_world_bool")),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_use_candidate_rank_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["strength"], ["strength.name"], name=op.f("fk_use_candidate_rank_strength_strength")
        ),
        sa.PrimaryKeyConstraint(
            "is_moving",
            "is_world",
            "is_response",
            "strength",
            "is_void",
            "is_month_break",
            name=op.f("pk_use_candidate_rank"),
        ),
        comment="The standing of a candidate line for a role, by its key (total over the key): moving over still, 世 or 應 over neither, 旺 相 休 囚 死, sound over void or broken (docs/use.md). The view orders candidates by rank, then by position (the lower line first).",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "matter_subject",
        sa.Column("matter", sa.String(length=2), nullable=False, comment="功名 財利 獄訟 or 憂患"),
        sa.Column(
            "subject", sa.String(length=8), nullable=False, comment="A subject of the matter"
        ),
        sa.Column(
            "is_default",
            sa.Integer(),
            nullable=False,
            comment="1 for the subject the matter implies",
        ),
        sa.Column("reason", sa.Text(), nullable=True, comment="Why, for a decision"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_matter_subject_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_matter_subject_basis_domain")
        ),
        sa.CheckConstraint("is_default IN (0, 1)", name=op.f("ck_matter_subject_is_default_bool")),
        sa.ForeignKeyConstraint(
            ["matter"], ["matter.name"], name=op.f("fk_matter_subject_matter_matter")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_matter_subject_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["subject"], ["subject.name"], name=op.f("fk_matter_subject_subject_subject")
        ),
        sa.PrimaryKeyConstraint("matter", "subject", name=op.f("pk_matter_subject")),
        comment="The subjects each matter of §9.5 asks about; the default one is taken when a reading names its matter and no subject.",
        info={"section": "rules"},
    )
    op.create_table(
        "reading_about_change",
        sa.Column(
            "id",
            sa.Integer(),
            nullable=False,
            comment="Change id, in the order the changes were made",
        ),
        sa.Column("reading_id", sa.Integer(), nullable=False, comment="The reading"),
        sa.Column(
            "changed_at",
            sa.String(length=40),
            nullable=False,
            comment="When: local time with offset, ISO 8601",
        ),
        sa.Column(
            "old",
            sa.String(length=8),
            nullable=True,
            comment="The subject before (NULL: none was said)",
        ),
        sa.Column(
            "new", sa.String(length=8), nullable=True, comment="The subject after (NULL: cleared)"
        ),
        sa.ForeignKeyConstraint(
            ["new"], ["subject.name"], name=op.f("fk_reading_about_change_new_subject")
        ),
        sa.ForeignKeyConstraint(
            ["old"], ["subject.name"], name=op.f("fk_reading_about_change_old_subject")
        ),
        sa.ForeignKeyConstraint(
            ["reading_id"],
            ["reading.id"],
            name=op.f("fk_reading_about_change_reading_id_reading"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reading_about_change")),
        comment="Each change of a reading's subject after the cast (yimao about), in the order made: the subject before and after, and when.",
        info={"section": "readings"},
    )
    with op.batch_alter_table("reading_about_change", schema=None) as batch_op:
        batch_op.create_index("ix_reading_about_change_reading_id", ["reading_id"], unique=False)

    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its key in place; a batch rebuild would trip on the views
        op.execute(
            "ALTER TABLE reading ADD COLUMN about VARCHAR(8) "
            "CONSTRAINT fk_reading_about_subject REFERENCES subject (name)"
        )
    else:
        op.add_column(
            "reading", sa.Column("about", sa.String(length=8), nullable=True, comment=ABOUT_COMMENT)
        )
        op.create_foreign_key(
            op.f("fk_reading_about_subject"), "reading", "subject", ["about"], ["name"]
        )
    migrating.require_foreign_keys_off(op)
    for table, name, old, new in CHECKS:
        migrating.replace_check(op, table, name, old, new)
    _create_sign_tables()
    _comments(after=True)
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.user_data_dropped(
        op,
        "0014",
        {
            "the subject (reading.about) of {n} reading{s}": (
                "SELECT COUNT(*) FROM reading WHERE about IS NOT NULL"
            ),
            "{n} change{s} of a reading's subject": "SELECT COUNT(*) FROM reading_about_change",
        },
    )
    migrating.require_foreign_keys_off(op)
    migrating.restore_views(op, VIEWS, REPLACES)
    for table in SIGN_TABLES:
        op.drop_table(table)
    # the catalogue's rows of what this revision adds go before its CHECKs narrow again
    op.execute("DELETE FROM sign WHERE subject = '用神'")
    op.execute("DELETE FROM sign_weight WHERE weight = 6")
    for table, name, old, new in CHECKS:
        migrating.replace_check(op, table, name, new, old)
    _comments(after=False)
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(op.f("fk_reading_about_subject"), "reading", type_="foreignkey")
    op.drop_column("reading", "about")
    with op.batch_alter_table("reading_about_change", schema=None) as batch_op:
        batch_op.drop_index("ix_reading_about_change_reading_id")

    op.drop_table("reading_about_change")
    op.drop_table("matter_subject")
    op.drop_table("use_candidate_rank")
    op.drop_table("subject")
    op.drop_table("relative_role")
    op.drop_table("use_rule")
    op.drop_table("use_role")
    op.drop_table("use_loss_reason")
    op.drop_table("fly_hidden_relation")
