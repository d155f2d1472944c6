"""The signs exactly as strong as the book: 世身's harms only while the world line is weak
(shi_shen_sign, §9.4 commentary), 得喜 only on a sound body (matter_sign keyed by the body
line's state, §9.5 先宜無病), the places of §10.5 as a column of v_reading_line
(line_places) instead of the signs 將來 and 已往, what a sign cancels (sign.cancels),
and v_reading_sign with each sign's meaning. The rows of the rule tables come from the
seed.

Revision ID: 0013
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
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
) x
JOIN sign s ON s.name = x.sign
""",
    ),
)
REPLACES = {
    "v_reading_line": "0008",
    "v_reading_sign": "0011",
}


LINE_SIGN_COMMENT = (
    "Signs of a line in one of its places (line_place) by its value and what the day and "
    "month do to it: 世空 世破 世動 世衝, 應空 應破, the 卦身 conditions, 間動 (§8.14, "
    "§9.2–9.3, §10.2–10.3)."
)
LINE_SIGN_COMMENT_BEFORE = (
    "Signs of a line in one of its places (line_place) by its value and what the day and "
    "month do to it: 世空 世破 世動 世衝, 應空 應破, the 卦身 and 世身 conditions, 間動, "
    "將來 and 已往 (§8.14, §9.2–9.4, §10.2–10.5)."
)


def _matter_sign(new: bool) -> None:
    """matter_sign keyed by the body line's state (new) or without it (before)."""
    if new:
        op.create_table(
            "matter_sign",
            sa.Column(
                "matter", sa.String(length=2), nullable=False, comment="The matter asked about"
            ),
            sa.Column(
                "place", sa.String(length=2), nullable=False, comment="The body: 卦身 or 世身"
            ),
            sa.Column("attitude", sa.String(length=8), nullable=False, comment="want or fear"),
            sa.Column(
                "value",
                sa.Integer(),
                autoincrement=False,
                nullable=False,
                comment="The body line's value 6..9",
            ),
            sa.Column(
                "is_void",
                sa.Integer(),
                autoincrement=False,
                nullable=False,
                comment="1 if the body line is void 旬空",
            ),
            sa.Column(
                "is_month_break",
                sa.Integer(),
                autoincrement=False,
                nullable=False,
                comment="1 if the month breaks the body line 月破",
            ),
            sa.Column(
                "is_day_clash",
                sa.Integer(),
                autoincrement=False,
                nullable=False,
                comment="1 if the day clashes the body line 日衝",
            ),
            sa.Column(
                "sign",
                sa.String(length=8),
                nullable=False,
                comment="A sign that fires for this key",
            ),
            sa.Column(
                "passage",
                sa.String(length=8),
                nullable=True,
                comment="Source passage §chapter.passage",
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
                "basis IN ('book', 'standard', 'decision')",
                name=op.f("ck_matter_sign_basis_domain"),
            ),
            sa.CheckConstraint(
                "place IN ('卦身', '世身')", name=op.f("ck_matter_sign_place_domain")
            ),
            sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_matter_sign_is_void_bool")),
            sa.CheckConstraint(
                "is_month_break IN (0, 1)", name=op.f("ck_matter_sign_is_month_break_bool")
            ),
            sa.CheckConstraint(
                "is_day_clash IN (0, 1)", name=op.f("ck_matter_sign_is_day_clash_bool")
            ),
            sa.ForeignKeyConstraint(
                ["value"], ["line_value.value"], name=op.f("fk_matter_sign_value_line_value")
            ),
            sa.ForeignKeyConstraint(
                ["matter"], ["matter.name"], name=op.f("fk_matter_sign_matter_matter")
            ),
            sa.ForeignKeyConstraint(
                ["passage"],
                ["source_passage.id"],
                name=op.f("fk_matter_sign_passage_source_passage"),
            ),
            sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_matter_sign_sign_sign")),
            sa.PrimaryKeyConstraint(
                "matter",
                "place",
                "attitude",
                "value",
                "is_void",
                "is_month_break",
                "is_day_clash",
                "sign",
                name=op.f("pk_matter_sign"),
            ),
            comment="The sign a body line gives when it holds what the matter asked about wants or fears (§9.5; the items are the rows of matter_preference).",
            info={"section": "rules"},
        )
    else:
        op.create_table(
            "matter_sign",
            sa.Column(
                "matter", sa.String(length=2), nullable=False, comment="The matter asked about"
            ),
            sa.Column(
                "place", sa.String(length=2), nullable=False, comment="The body: 卦身 or 世身"
            ),
            sa.Column("attitude", sa.String(length=8), nullable=False, comment="want or fear"),
            sa.Column(
                "sign",
                sa.String(length=8),
                nullable=False,
                comment="A sign that fires for this key",
            ),
            sa.Column(
                "passage",
                sa.String(length=8),
                nullable=True,
                comment="Source passage §chapter.passage",
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
                "basis IN ('book', 'standard', 'decision')",
                name=op.f("ck_matter_sign_basis_domain"),
            ),
            sa.CheckConstraint(
                "place IN ('卦身', '世身')", name=op.f("ck_matter_sign_place_domain")
            ),
            sa.ForeignKeyConstraint(
                ["matter"], ["matter.name"], name=op.f("fk_matter_sign_matter_matter")
            ),
            sa.ForeignKeyConstraint(
                ["passage"],
                ["source_passage.id"],
                name=op.f("fk_matter_sign_passage_source_passage"),
            ),
            sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_matter_sign_sign_sign")),
            sa.PrimaryKeyConstraint(
                "matter", "place", "attitude", "sign", name=op.f("pk_matter_sign")
            ),
            comment="The sign a body line gives when it holds what the matter asked about wants or fears (§9.5; the items are the rows of matter_preference).",
            info={"section": "rules"},
        )


def _comments(upgrade: bool) -> None:
    """PostgreSQL stores comments (SQLite does not): line_sign no longer holds the 世身's
    signs, 將來 or 已往."""
    if op.get_bind().dialect.name != "postgresql":
        return
    new, old = (
        (LINE_SIGN_COMMENT, LINE_SIGN_COMMENT_BEFORE)
        if upgrade
        else (LINE_SIGN_COMMENT_BEFORE, LINE_SIGN_COMMENT)
    )
    op.create_table_comment("line_sign", new, existing_comment=old)


DOMAIN_BEFORE = "CHECK (coverage IN ('encoded', 'theory'))"
DOMAIN = "CHECK (coverage IN ('encoded', 'partial', 'theory'))"
PARTIAL_NOTE = "CONSTRAINT ck_source_passage_partial_has_note CHECK (coverage <> 'partial' OR note IS NOT NULL)"
THEORY_NOTE = (
    "CONSTRAINT ck_source_passage_theory_has_note CHECK (coverage <> 'theory' OR note IS NOT NULL)"
)
PASSAGE_COMMENT_BEFORE = (
    "The 77 numbered passages of 《易冒》卷一 (chapter and passage, as listed in "
    "seed/data/passages.tsv). No text of the book is stored; rows elsewhere cite a passage by "
    "its id. Every passage is accounted for: encoded (some row cites it) or theory (nothing to "
    "compute; a note says why)."
)
PASSAGE_COMMENT = (
    "The 77 numbered passages of 《易冒》卷一 (chapter and passage, as listed in "
    "seed/data/passages.tsv). No text of the book is stored; rows elsewhere cite a passage by "
    "its id. Every passage is accounted for: encoded (some row cites it), partial (some row "
    "cites it, and a note names what of it is not applied) or theory (nothing to compute; a "
    "note says why)."
)


def _coverage(upgrade: bool) -> None:
    """source_passage.coverage gains partial (a cited passage with a note of what of it is
    not applied), or loses it again (a partial passage is encoded then)."""
    if not upgrade:
        op.execute(
            "UPDATE source_passage SET coverage = 'encoded', note = NULL WHERE coverage = 'partial'"
        )
    if op.get_bind().dialect.name == "sqlite":
        old, new = (THEORY_NOTE, f"{THEORY_NOTE}, \n\t{PARTIAL_NOTE}")
        if upgrade:
            migrating.edit_sqlite_table(op, "source_passage", DOMAIN_BEFORE, DOMAIN)
            migrating.edit_sqlite_table(op, "source_passage", old, new)
        else:
            migrating.edit_sqlite_table(op, "source_passage", new, old)
            migrating.edit_sqlite_table(op, "source_passage", DOMAIN, DOMAIN_BEFORE)
        return
    op.drop_constraint(op.f("ck_source_passage_coverage_domain"), "source_passage", type_="check")
    values = "'encoded', 'partial', 'theory'" if upgrade else "'encoded', 'theory'"
    op.create_check_constraint(
        op.f("ck_source_passage_coverage_domain"), "source_passage", f"coverage IN ({values})"
    )
    if upgrade:
        op.create_check_constraint(
            op.f("ck_source_passage_partial_has_note"),
            "source_passage",
            "coverage <> 'partial' OR note IS NOT NULL",
        )
    else:
        op.drop_constraint(
            op.f("ck_source_passage_partial_has_note"), "source_passage", type_="check"
        )
    new, old = (
        (PASSAGE_COMMENT, PASSAGE_COMMENT_BEFORE)
        if upgrade
        else (PASSAGE_COMMENT_BEFORE, PASSAGE_COMMENT)
    )
    op.create_table_comment("source_passage", new, existing_comment=old)


def upgrade() -> None:
    migrating.drop_views(op, migrating.previous_views(op, VIEWS, REPLACES))
    op.create_table(
        "shi_shen_sign",
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
            "world_strength",
            sa.String(length=1),
            nullable=False,
            comment="The world line's strength in the month 旺相休囚死",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_shi_shen_sign_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_shi_shen_sign_basis_domain")
        ),
        sa.CheckConstraint(
            "is_day_clash IN (0, 1)", name=op.f("ck_shi_shen_sign_is_day_clash_bool")
        ),
        sa.CheckConstraint(
            "is_month_break IN (0, 1)", name=op.f("ck_shi_shen_sign_is_month_break_bool")
        ),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_shi_shen_sign_is_void_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_shi_shen_sign_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["sign"], ["sign.name"], name=op.f("fk_shi_shen_sign_sign_sign")),
        sa.ForeignKeyConstraint(
            ["value"], ["line_value.value"], name=op.f("fk_shi_shen_sign_value_line_value")
        ),
        sa.ForeignKeyConstraint(
            ["world_strength"],
            ["strength.name"],
            name=op.f("fk_shi_shen_sign_world_strength_strength"),
        ),
        sa.PrimaryKeyConstraint(
            "value",
            "is_void",
            "is_month_break",
            "is_day_clash",
            "world_strength",
            "sign",
            name=op.f("pk_shi_shen_sign"),
        ),
        comment="Signs of the 世身 line by its value and what the day and month do to it, while the world line is weak: 世身空 破 動 衝 散 (§9.4 and its commentary).",
        info={"section": "rules"},
    )
    op.create_table(
        "line_places",
        sa.Column(
            "king_wen", sa.Integer(), autoincrement=False, nullable=False, comment="The hexagram"
        ),
        sa.Column(
            "position", sa.Integer(), autoincrement=False, nullable=False, comment="Line 1..6"
        ),
        sa.Column(
            "places",
            sa.String(length=24),
            nullable=False,
            comment="Its places, joined by ',' (將來 or 已往 first)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_places_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_places_basis_domain")
        ),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_line_places_position_range")),
        sa.ForeignKeyConstraint(
            ["king_wen"], ["hexagram.king_wen"], name=op.f("fk_line_places_king_wen_hexagram")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_line_places_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("king_wen", "position", name=op.f("pk_line_places")),
        comment="The places §10.5 and §10.3 give each line of each hexagram: 將來 after the 世身 line and 已往 before it (line 6 wrapping to 1; the book's 身世 read as the 世身, a decision), on a between line 近我 beside the world or 近彼 beside the response (§10.3), then the places of its position (line_role: 地 右鄰 後鄰, 臣, 門戶, 左鄰 前鄰, 君, 天). Places, not judgments: what the line stands for in the matter. Every line has a row.",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.drop_table("matter_sign")
    _matter_sign(new=True)
    op.add_column(
        "sign",
        sa.Column(
            "cancels",
            sa.String(length=8),
            nullable=True,
            comment="What it cancels, when it cancels a harm or a good instead of being 吉 or "
            "凶 (polarity 中): a sign (太白特現) or a spirit's force (白虎之凶); NULL otherwise",
        ),
    )
    _comments(upgrade=True)
    _coverage(upgrade=True)
    migrating.create_views(op, VIEWS)


def downgrade() -> None:
    migrating.drop_views(op, VIEWS)
    _comments(upgrade=False)
    _coverage(upgrade=False)
    op.drop_column("sign", "cancels")
    op.drop_table("matter_sign")
    _matter_sign(new=False)
    op.drop_table("line_places")
    op.drop_table("shi_shen_sign")
    migrating.create_views(op, migrating.previous_views(op, VIEWS, REPLACES))
