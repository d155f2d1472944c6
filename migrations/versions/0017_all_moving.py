"""用九 and 用六 as data: the rule table all_moving and v_reading.all_moving_name.

A cast whose six lines all move has a name of its own when its hexagram is 乾 (用九) or 坤
(用六). The chart's header printed it by applying the rule function itself; the name is now a
row of all_moving (one per hexagram, keyed by the hexagram and the moving mask 63), which
v_reading looks up by the reading's primary hexagram and moving lines. The downgrade drops
the column and the table: both are derived, not user data.

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

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
       r.cast_utc, (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = '日' AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc) AS sun_mansion, (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = '月' AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc) AS moon_mansion,
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
LEFT JOIN reading_outcome o ON o.reading_id = r.id
LEFT JOIN generation cg ON cg.ordinal = c.generation
LEFT JOIN hexagram n ON n.king_wen = hp.nuclear_king_wen
LEFT JOIN all_moving am ON am.king_wen = r.primary_kw AND am.mask = r.moving_mask
""",
    ),
)
REPLACES = {
    "v_reading": "0015",
}


def upgrade() -> None:
    op.create_table(
        "all_moving",
        sa.Column("king_wen", sa.Integer(), nullable=False, comment="The hexagram"),
        sa.Column(
            "mask",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="63: every line moving (as reading.moving_mask)",
        ),
        sa.Column("name", sa.String(length=2), nullable=True, comment="用九, 用六 or NULL"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_all_moving_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_all_moving_basis_domain")
        ),
        sa.CheckConstraint("name IN ('用九', '用六')", name=op.f("ck_all_moving_name_domain")),
        sa.CheckConstraint("mask = 63", name=op.f("ck_all_moving_all_six")),
        sa.ForeignKeyConstraint(
            ["king_wen"], ["hexagram.king_wen"], name=op.f("fk_all_moving_king_wen_hexagram")
        ),
        sa.ForeignKeyConstraint(
            ["mask"], ["moving_lines.mask"], name=op.f("fk_all_moving_mask_moving_lines")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_all_moving_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("king_wen", "mask", name=op.f("pk_all_moving")),
        comment="What a cast is called whose six lines all move, by its hexagram: 用九 for 乾 (six old yang lines 9), 用六 for 坤 (six old yin lines 6), the Zhouyi's names; none for the others, whose lines are not all of one kind. A reading finds its row by its primary hexagram and its moving lines.",
        info={"section": "rules"},
    )
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
    op.drop_table("all_moving")
