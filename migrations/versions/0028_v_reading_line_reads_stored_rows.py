"""A derived table: v_reading_line reads stored rows.

A reading's six lines were worked out whenever read: some twenty lookups of rule tables a
line. A chart pays that once, but a report over all readings pays it for every line on
every run, since SQLite keeps every join of a view under an aggregate: ``SELECT spirit,
count(*) FROM v_reading_line GROUP BY 1`` took about 100 × the time of reading every line
once, and a filter on a relative and void 12 ×. The rows are now stored per reading in
``reading_line_chart`` (six a reading, keyed by reading and line), written with the reading
(yimao_db.kb.derived); their definition stays a view (``v_reading_line_computed``: the SQL
v_reading_line had), and creating it fills the table for every stored reading. The public
view reads the table and keeps its columns. Indexes on (relative, is_void, reading_id),
spirit and transform serve the counts and filters asked most.

v_reading_use_computed reads v_reading_line: it is made again (its SQL unchanged) and the
stored 用神 rewritten from it, now reading the stored lines (the table of the lines comes
before reading_use in the order the derived tables are written).

Writing six rows of 43 columns a reading costs the import (docs/performance.md); the
report goals were chosen over the import's, as for the signs (revision 0026).

The downgrade drops the table: it is derived, not user data.

Revision ID: 0028
Revises: 0027
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading_line_computed",
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
        "v_reading_line",
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
    ),
    ViewSQL(
        "v_reading_use_computed",
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
    ),
)
REPLACES = {
    "v_reading_line": "0013",
    "v_reading_use_computed": "0025",
}

# (name, columns) of the indexes, made once the table is filled
INDEXES = (
    ("relative", ("relative", "is_void", "reading_id")),
    ("spirit", ("spirit",)),
    ("transform", ("transform",)),
)


def upgrade() -> None:
    op.create_table(
        "reading_line_chart",
        sa.Column(
            "reading_id", sa.Integer(), autoincrement=False, nullable=False, comment="The reading"
        ),
        sa.Column(
            "position",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="Line 1..6 from the bottom",
        ),
        sa.Column(
            "value",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="6 old yin, 7 young yang, 8 young yin, 9 old yang",
        ),
        sa.Column(
            "is_moving",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 for 6 and 9, the moving lines",
        ),
        sa.Column(
            "stem",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Najia stem under the reading's variant (§4.3)",
        ),
        sa.Column("branch", sa.Text(), autoincrement=False, nullable=True, comment="Najia branch"),
        sa.Column(
            "element", sa.Text(), autoincrement=False, nullable=True, comment="The branch's element"
        ),
        sa.Column(
            "relative",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Relative against the palace element",
        ),
        sa.Column(
            "spirit",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="司日: the spirit by the day stem (§7.2): line 1 甲乙 青龍, 丙丁 朱雀, 戊 勾陳, 己 騰蛇, 庚辛 白虎, 壬癸 玄武, then 青龍 朱雀 勾陳 騰蛇 白虎 玄武 upward",
        ),
        sa.Column(
            "hour_spirit",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="司時: the same rule with the hour's stem, which 五子遁 gives (§7.2); NULL with no hour",
        ),
        sa.Column(
            "month_spirit",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="司月 / 大六神: the spirits standing on the line's branch this month, joined by ',' (in the 卯 month 青龍,騰蛇 on 卯; §7.2, §7.10); NULL if none",
        ),
        sa.Column(
            "noble_general",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="司貴: the general on the line's branch, counted from the day stem's 陽貴 (hours 卯–申) or 陰貴 (酉–寅), forward or backward (§7.2); NULL with no hour",
        ),
        sa.Column(
            "is_world",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 on the world line",
        ),
        sa.Column(
            "is_response",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 on the response line",
        ),
        sa.Column(
            "is_between",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 on the two lines between world and response (§10.1)",
        ),
        sa.Column(
            "mansion",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="黃金策 mansion of the line (§8.11)",
        ),
        sa.Column(
            "is_dusk_mansion",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if it is the month's 昏中 mansion (§8.12)",
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
            "is_day_clash",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if its branch clashes the day branch 日衝",
        ),
        sa.Column(
            "strength",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Seasonal strength in the month 旺相休囚死",
        ),
        sa.Column(
            "stage",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Twelve stage of its element at the day branch (土 with 水)",
        ),
        sa.Column(
            "changed_stem",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: the changed line's najia stem",
        ),
        sa.Column(
            "changed_branch",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: the changed line's branch",
        ),
        sa.Column(
            "changed_element",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: the changed line's element",
        ),
        sa.Column(
            "changed_relative",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: the changed line's relative, against the primary palace",
        ),
        sa.Column(
            "transform",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: what applies of 化進神 化退神 回頭生 回頭克 化空 化破 化墓 化絕, joined by ',' (§8.14); NULL when none does, and on a still line",
        ),
        sa.Column(
            "ganzhi",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Stem + branch of the line",
        ),
        sa.Column(
            "changed_ganzhi",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: stem + branch of the changed line",
        ),
        sa.Column(
            "day_on",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch stands on the line: its branch is the line's 臨",
        ),
        sa.Column(
            "day_generates",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch generates the line 生: its element generates the line's",
        ),
        sa.Column(
            "day_helps",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch helps the line 扶: its element is the line's (臨 included)",
        ),
        sa.Column(
            "day_controls",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch controls the line 剋: its element controls the line's",
        ),
        sa.Column(
            "day_combines",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the day branch combines with the line 合: the two branches form a 六合",
        ),
        sa.Column(
            "month_on",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch 月建 stands on the line: its branch is the line's 臨",
        ),
        sa.Column(
            "month_generates",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch 月建 generates the line 生: its element generates the line's",
        ),
        sa.Column(
            "month_helps",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch 月建 helps the line 扶: its element is the line's (臨 included)",
        ),
        sa.Column(
            "month_controls",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch 月建 controls the line 剋: its element controls the line's",
        ),
        sa.Column(
            "month_combines",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if the month branch 月建 combines with the line 合: the two branches form a 六合",
        ),
        sa.Column(
            "changed_is_void",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: 1 if the changed line's branch is void 旬空 on the day; NULL for a still line",
        ),
        sa.Column(
            "changed_is_month_break",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: 1 if the changed line's branch clashes the month branch 月破; NULL for a still line",
        ),
        sa.Column(
            "changed_is_day_clash",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="Moving lines: 1 if the changed line's branch clashes the day branch 日衝; NULL for a still line",
        ),
        sa.Column(
            "places",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The line's places, joined by ',': 將來 after the 世身 line, 已往 before it (§10.5), 近我 or 近彼 on the between line beside the world or the response (§10.3), then 地 右鄰 後鄰 (1), 臣 (2), 門戶 (3, 4), 左鄰 前鄰 (4), 君 (5), 天 (6) (§10.5); what the line stands for, not a judgment",
        ),
        sa.ForeignKeyConstraint(
            ["reading_id"],
            ["reading.id"],
            name=op.f("fk_reading_line_chart_reading_id_reading"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("reading_id", "position", name=op.f("pk_reading_line_chart")),
        comment="Derived: the rows of v_reading_line_computed stored for every reading, written with the reading (yimao check compares the two).",
        info={"section": "readings"},
        sqlite_with_rowid=False,
    )
    migrating.replace_views(op, VIEWS, REPLACES)
    for name, columns in INDEXES:
        op.create_index(op.f(f"ix_reading_line_chart_{name}"), "reading_line_chart", list(columns))


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
    for name, _ in INDEXES:
        op.drop_index(op.f(f"ix_reading_line_chart_{name}"), table_name="reading_line_chart")
    op.drop_table("reading_line_chart")
