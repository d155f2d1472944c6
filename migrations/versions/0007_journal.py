"""The journal of readings: notes, outcomes and tags, each a table of its own.

reading_note (dated notes), reading_outcome (what happened: hit, miss or partial, at most
one per reading) and reading_tag, each keyed by the reading and deleted with it. v_reading
gains the outcome, its day and how many notes and tags a reading has.

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0007"
down_revision: str | None = "0006"
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
       (SELECT COUNT(*) FROM reading_tag t WHERE t.reading_id = r.id) AS tag_count
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
""",
    ),
)
REPLACES = {
    "v_reading": "0006",
}


def _reading_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["reading_id"],
        ["reading.id"],
        name=op.f(f"fk_{table}_reading_id_reading"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.create_table(
        "reading_note",
        sa.Column(
            "id", sa.Integer(), nullable=False, comment="Note id, in the order the notes were added"
        ),
        sa.Column("reading_id", sa.Integer(), nullable=False, comment="The reading"),
        sa.Column(
            "noted_at",
            sa.String(length=40),
            nullable=False,
            comment="When the note was added: local time with offset, ISO 8601",
        ),
        sa.Column("note", sa.Text(), nullable=False, comment="The note, verbatim"),
        _reading_fk("reading_note"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reading_note")),
        comment="Notes added to a reading after it was cast, in the order written.",
    )
    op.create_index("ix_reading_note_reading_id", "reading_note", ["reading_id"])
    op.create_table(
        "reading_outcome",
        sa.Column("reading_id", sa.Integer(), nullable=False, comment="The reading"),
        sa.Column("verdict", sa.String(length=8), nullable=False, comment="hit, miss or partial"),
        sa.Column(
            "happened_on",
            sa.String(length=10),
            nullable=False,
            comment="The day it happened (or was known), ISO 8601 date",
        ),
        sa.Column("note", sa.Text(), nullable=True, comment="What happened, verbatim"),
        sa.Column(
            "recorded_at",
            sa.String(length=40),
            nullable=False,
            comment="When the outcome was recorded: local time with offset, ISO 8601",
        ),
        sa.CheckConstraint(
            "verdict IN ('hit', 'miss', 'partial')", name=op.f("ck_reading_outcome_verdict_domain")
        ),
        _reading_fk("reading_outcome"),
        sa.PrimaryKeyConstraint("reading_id", name=op.f("pk_reading_outcome")),
        comment="What happened (應驗): at most one outcome per reading; recording another "
        "replaces it.",
    )
    op.create_table(
        "reading_tag",
        sa.Column("reading_id", sa.Integer(), nullable=False, comment="The reading"),
        sa.Column(
            "tag", sa.String(length=64), nullable=False, comment="The tag, as typed (NFC, trimmed)"
        ),
        _reading_fk("reading_tag"),
        sa.PrimaryKeyConstraint("reading_id", "tag", name=op.f("pk_reading_tag")),
        comment="Tags a practitioner puts on readings, to find and count them by.",
    )
    op.create_index("ix_reading_tag_tag", "reading_tag", ["tag"])
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.user_data_dropped(
        op,
        "0007",
        {
            "{n} note{s}": "SELECT COUNT(*) FROM reading_note",
            "{n} outcome{s}": "SELECT COUNT(*) FROM reading_outcome",
            "{n} tag{s} on readings": "SELECT COUNT(*) FROM reading_tag",
        },
    )
    migrating.restore_views(op, VIEWS, REPLACES)
    op.drop_index("ix_reading_tag_tag", table_name="reading_tag")
    op.drop_table("reading_tag")
    op.drop_table("reading_outcome")
    op.drop_index("ix_reading_note_reading_id", table_name="reading_note")
    op.drop_table("reading_note")
