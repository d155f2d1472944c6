"""The whole chart from views, and NULL for a line without a transform.

v_reading gains changed_palace, changed_generation_name and nuclear_name, and the new view
v_reading_changed_line gives the changed hexagram's six lines (najia under the reading's
half, relatives against the primary palace): what the chart read with two queries of its
own before, now views with a contract like the rest. line_transform.transforms, and so
v_reading_line.transform, is NULL when no transform applies (it was '', while a still
line had NULL: is_moving tells the two apart).

Revision ID: 0012
Revises: 0011
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0012"
down_revision: str | None = "0011"
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
       c.palace AS changed_palace, cg.name AS changed_generation_name, n.name AS nuclear_name
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
        "v_reading_changed_line",
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
    ),
)
REPLACES = {
    "v_reading": "0007",
}

TRANSFORMS_COMMENT = (  # the comment of line_transform.transforms, before and after
    "The transforms that apply, joined by ',' in the order 化進神 化退神 回頭生 回頭克 化空 "
    "化破 化墓 化絕; {}"
)


def _transforms_nullable(nullable: bool) -> None:
    """line_transform.transforms may be NULL (``nullable``), or not again; on PostgreSQL its
    comment says which."""
    migrating.set_nullable(op, "line_transform", "transforms", "VARCHAR(40)", nullable=nullable)
    if op.get_bind().dialect.name != "sqlite":
        now, before = "NULL when none does", "empty when none does"
        op.alter_column(
            "line_transform",
            "transforms",
            existing_type=sa.String(40),
            nullable=nullable,
            comment=TRANSFORMS_COMMENT.format(now if nullable else before),
            existing_comment=TRANSFORMS_COMMENT.format(before if nullable else now),
        )


def upgrade() -> None:
    migrating.replace_views(op, VIEWS, REPLACES)
    _transforms_nullable(True)
    op.execute("UPDATE line_transform SET transforms = NULL WHERE transforms = ''")


def downgrade() -> None:
    op.execute("UPDATE line_transform SET transforms = '' WHERE transforms IS NULL")
    _transforms_nullable(False)
    migrating.restore_views(op, VIEWS, REPLACES)
