"""A derived table: v_reading_use_candidate reads stored rows.

Every candidate for each role of a reading with a subject was ranked whenever read: the
candidates of three arms sorted by reading and role and passed through a window of three
functions. Reading every candidate (``yimao export``, ``SELECT *``) went at 0.4 of the speed
of a flat table of the same rows. The rows are now stored per reading in
``reading_use_candidate`` (keyed by reading, role and rank), written with the reading and
when its subject changes (yimao_db.kb.derived); their definition stays a view
(``v_reading_use_candidate_computed``: the SQL v_reading_use_candidate had), and creating
it fills the table for every stored reading. The public view reads the table and keeps its
columns.

v_reading_use_computed reads v_reading_use_candidate: it is made again (its SQL unchanged)
and the stored 用神 rewritten from it, now reading the stored candidates (their table comes
before reading_use in the order the derived tables are written), so that a write ranks a
reading's candidates once, as before.

The downgrade drops the table: it is derived, not user data.

Revision ID: 0030
Revises: 0029
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading_use_candidate_computed",
        """
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, c.relative, c.source, c.position,
       c.is_moving, c.is_world, c.is_response, c.strength, c.is_void, c.is_month_break,
       c.key_rank, c.rank, c.candidate_count, lr.reason
FROM (
  SELECT a.*,
         ROW_NUMBER() OVER w AS rank,
         FIRST_VALUE(a.key_rank) OVER w AS chosen_rank,
         COUNT(*) OVER w AS candidate_count
  FROM (
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, s.kind AS source, l.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
CROSS JOIN subject s
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role
JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = sp.position
CROSS JOIN reading_line rl
JOIN line_value lv ON lv.value = rl.value

LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
JOIN use_candidate_rank k ON k.is_moving = lv.is_moving AND k.is_world = l.is_world
  AND k.is_response = l.is_response AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break
WHERE s.name = r.about AND rl.reading_id = r.id AND rl.position = l.position
  AND ur.by_place = 1
UNION ALL
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, 'visible' AS source, l.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
CROSS JOIN subject s
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role
JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.relative = rr.relative
CROSS JOIN reading_line rl
JOIN line_value lv ON lv.value = rl.value

LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
JOIN use_candidate_rank k ON k.is_moving = lv.is_moving AND k.is_world = l.is_world
  AND k.is_response = l.is_response AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break
WHERE s.name = r.about AND rl.reading_id = r.id AND rl.position = l.position
  AND (s.place IS NULL OR ur.by_place = 0)
UNION ALL
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, 'hidden' AS source, hs.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
CROSS JOIN subject s
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
WHERE s.name = r.about AND (s.place IS NULL OR ur.by_place = 0)
  ) a
  WINDOW w AS (PARTITION BY a.reading_id, a.role ORDER BY a.key_rank, a.position
               ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
) c
LEFT JOIN use_loss_reason lr
  ON c.rank > 1 AND lr.winner_rank = c.chosen_rank AND lr.loser_rank = c.key_rank
""",
    ),
    ViewSQL(
        "v_reading_use_candidate",
        """
SELECT reading_id, subject, role, role_ordinal, relative, source, position, is_moving, is_world, is_response, strength, is_void, is_month_break, key_rank, rank, candidate_count, reason
FROM reading_use_candidate
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
    "v_reading_use_candidate": "0025",
    "v_reading_use_computed": "0028",
}


def upgrade() -> None:
    op.create_table(
        "reading_use_candidate",
        sa.Column(
            "reading_id", sa.Integer(), autoincrement=False, nullable=False, comment="The reading"
        ),
        sa.Column(
            "subject",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="The subject asked about (reading.about)",
        ),
        sa.Column("role", sa.Text(), autoincrement=False, nullable=False, comment="The role"),
        sa.Column(
            "role_ordinal",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1..4: 用神 原神 忌神 仇神",
        ),
        sa.Column(
            "relative", sa.Text(), autoincrement=False, nullable=True, comment="The role's relative"
        ),
        sa.Column(
            "source",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Where the candidate is: a visible line, a hidden spirit, the world or the response line",
        ),
        sa.Column(
            "position",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="The line (for a hidden spirit, the line it hides under)",
        ),
        sa.Column(
            "is_moving",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if it moves (0 for a hidden spirit)",
        ),
        sa.Column(
            "is_world",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 on the world line (0 for a hidden spirit)",
        ),
        sa.Column(
            "is_response",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 on the response line (0 for a hidden spirit)",
        ),
        sa.Column(
            "strength",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Its strength in the month",
        ),
        sa.Column(
            "is_void", sa.Integer(), autoincrement=False, nullable=True, comment="1 if void 旬空"
        ),
        sa.Column(
            "is_month_break",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="1 if month-broken 月破",
        ),
        sa.Column(
            "key_rank",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="use_candidate_rank.rank of its key (1 best)",
        ),
        sa.Column(
            "rank",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="Its place among the role's candidates; 1 is the one chosen",
        ),
        sa.Column(
            "candidate_count",
            sa.Integer(),
            autoincrement=False,
            nullable=True,
            comment="How many candidates the role has",
        ),
        sa.Column(
            "reason",
            sa.Text(),
            autoincrement=False,
            nullable=True,
            comment="Why it lost to the chosen one (use_loss_reason); NULL for the chosen one",
        ),
        sa.ForeignKeyConstraint(
            ["reading_id"],
            ["reading.id"],
            name=op.f("fk_reading_use_candidate_reading_id_reading"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "reading_id", "role", "rank", name=op.f("pk_reading_use_candidate")
        ),
        comment="Derived: the rows of v_reading_use_candidate_computed stored for every reading, written with the reading (yimao check compares the two).",
        info={"section": "readings"},
        sqlite_with_rowid=False,
    )
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
    op.drop_table("reading_use_candidate")
