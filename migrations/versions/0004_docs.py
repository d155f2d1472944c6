"""Documentation inside the database: meta_table, meta_column and v_passage_citation.

meta_table and meta_column describe every table, view and column (seeded by
seed/s95_docs.py from yimao_db.kb.meta). v_passage_citation lists, per passage, every row of
every table with a passage column; its SQL was generated once by
the citation view builder of its day and is frozen here: a later table with a passage column
needs a revision that recreates the view (tests/test_docs.py checks the coverage).
Portable SQL (SQLite and PostgreSQL): CAST(... AS VARCHAR(n)) and || for the keys.

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_passage_citation",
        """
SELECT s.id AS passage, s.chapter_no, s.passage_no, s.chapter,
       c.table_name, c.row_key, c.basis
FROM (
SELECT CAST('between_use' AS VARCHAR(40)) AS table_name,
       CAST(use || '|' || domain AS VARCHAR(120)) AS row_key, passage, basis
FROM between_use
UNION ALL
SELECT CAST('body_condition' AS VARCHAR(40)) AS table_name,
       CAST(body || '|' || condition AS VARCHAR(120)) AS row_key, passage, basis
FROM body_condition
UNION ALL
SELECT CAST('body_weight' AS VARCHAR(40)) AS table_name,
       CAST(body AS VARCHAR(120)) AS row_key, passage, basis
FROM body_weight
UNION ALL
SELECT CAST('branch_relation' AS VARCHAR(40)) AS table_name,
       CAST(relation || '|' || first || '|' || second AS VARCHAR(120)) AS row_key, passage, basis
FROM branch_relation
UNION ALL
SELECT CAST('branch_triad' AS VARCHAR(40)) AS table_name,
       CAST(element || '|' || branch AS VARCHAR(120)) AS row_key, passage, basis
FROM branch_triad
UNION ALL
SELECT CAST('day_spirit' AS VARCHAR(40)) AS table_name,
       CAST(day_stem || '|' || CAST(position AS VARCHAR(12)) AS VARCHAR(120)) AS row_key, passage, basis
FROM day_spirit
UNION ALL
SELECT CAST('direction_24' AS VARCHAR(40)) AS table_name,
       CAST(name AS VARCHAR(120)) AS row_key, passage, basis
FROM direction_24
UNION ALL
SELECT CAST('dusk_mansion' AS VARCHAR(40)) AS table_name,
       CAST(month_branch AS VARCHAR(120)) AS row_key, passage, basis
FROM dusk_mansion
UNION ALL
SELECT CAST('element_correspondence' AS VARCHAR(40)) AS table_name,
       CAST(element AS VARCHAR(120)) AS row_key, passage, basis
FROM element_correspondence
UNION ALL
SELECT CAST('element_trigram' AS VARCHAR(40)) AS table_name,
       CAST(element || '|' || trigram AS VARCHAR(120)) AS row_key, passage, basis
FROM element_trigram
UNION ALL
SELECT CAST('five_omen' AS VARCHAR(40)) AS table_name,
       CAST(omen AS VARCHAR(120)) AS row_key, passage, basis
FROM five_omen
UNION ALL
SELECT CAST('general' AS VARCHAR(40)) AS table_name,
       CAST(name AS VARCHAR(120)) AS row_key, passage, basis
FROM general
UNION ALL
SELECT CAST('hour_stem' AS VARCHAR(40)) AS table_name,
       CAST(day_stem || '|' || hour_branch AS VARCHAR(120)) AS row_key, passage, basis
FROM hour_stem
UNION ALL
SELECT CAST('line_aspect' AS VARCHAR(40)) AS table_name,
       CAST(CAST(yang AS VARCHAR(12)) AS VARCHAR(120)) AS row_key, passage, basis
FROM line_aspect
UNION ALL
SELECT CAST('line_role' AS VARCHAR(40)) AS table_name,
       CAST(CAST(position AS VARCHAR(12)) || '|' || role AS VARCHAR(120)) AS row_key, passage, basis
FROM line_role
UNION ALL
SELECT CAST('matter_preference' AS VARCHAR(40)) AS table_name,
       CAST(matter || '|' || attitude || '|' || item AS VARCHAR(120)) AS row_key, passage, basis
FROM matter_preference
UNION ALL
SELECT CAST('meta_column' AS VARCHAR(40)) AS table_name,
       CAST(table_name || '|' || column_name AS VARCHAR(120)) AS row_key, passage, CAST(NULL AS VARCHAR(8)) AS basis
FROM meta_column
UNION ALL
SELECT CAST('meta_table' AS VARCHAR(40)) AS table_name,
       CAST(name AS VARCHAR(120)) AS row_key, passage, CAST(NULL AS VARCHAR(8)) AS basis
FROM meta_table
UNION ALL
SELECT CAST('month_spirit' AS VARCHAR(40)) AS table_name,
       CAST(month_branch || '|' || spirit AS VARCHAR(120)) AS row_key, passage, basis
FROM month_spirit
UNION ALL
SELECT CAST('month_stem' AS VARCHAR(40)) AS table_name,
       CAST(year_stem || '|' || month_branch AS VARCHAR(120)) AS row_key, passage, basis
FROM month_stem
UNION ALL
SELECT CAST('moving_relative' AS VARCHAR(40)) AS table_name,
       CAST(mover || '|' || kind AS VARCHAR(120)) AS row_key, passage, basis
FROM moving_relative
UNION ALL
SELECT CAST('noble_general' AS VARCHAR(40)) AS table_name,
       CAST(day_stem || '|' || half || '|' || branch AS VARCHAR(120)) AS row_key, passage, basis
FROM noble_general
UNION ALL
SELECT CAST('noble_hour' AS VARCHAR(40)) AS table_name,
       CAST(hour_branch AS VARCHAR(120)) AS row_key, passage, basis
FROM noble_hour
UNION ALL
SELECT CAST('relative_symbol' AS VARCHAR(40)) AS table_name,
       CAST(relative || '|' || symbol AS VARCHAR(120)) AS row_key, passage, basis
FROM relative_symbol
UNION ALL
SELECT CAST('seasonal_strength' AS VARCHAR(40)) AS table_name,
       CAST(month_branch || '|' || element AS VARCHAR(120)) AS row_key, passage, basis
FROM seasonal_strength
UNION ALL
SELECT CAST('seven_luminary' AS VARCHAR(40)) AS table_name,
       CAST(name AS VARCHAR(120)) AS row_key, passage, basis
FROM seven_luminary
UNION ALL
SELECT CAST('spirit' AS VARCHAR(40)) AS table_name,
       CAST(name AS VARCHAR(120)) AS row_key, passage, basis
FROM spirit
UNION ALL
SELECT CAST('spirit_affinity' AS VARCHAR(40)) AS table_name,
       CAST(spirit || '|' || condition AS VARCHAR(120)) AS row_key, passage, basis
FROM spirit_affinity
UNION ALL
SELECT CAST('spirit_attribute' AS VARCHAR(40)) AS table_name,
       CAST(spirit AS VARCHAR(120)) AS row_key, passage, basis
FROM spirit_attribute
UNION ALL
SELECT CAST('spirit_preference' AS VARCHAR(40)) AS table_name,
       CAST(nature || '|' || condition AS VARCHAR(120)) AS row_key, passage, basis
FROM spirit_preference
UNION ALL
SELECT CAST('stage' AS VARCHAR(40)) AS table_name,
       CAST(name AS VARCHAR(120)) AS row_key, passage, basis
FROM stage
UNION ALL
SELECT CAST('star_meaning' AS VARCHAR(40)) AS table_name,
       CAST(star || '|' || meaning AS VARCHAR(120)) AS row_key, passage, basis
FROM star_meaning
UNION ALL
SELECT CAST('stem_combination' AS VARCHAR(40)) AS table_name,
       CAST(first || '|' || second AS VARCHAR(120)) AS row_key, passage, basis
FROM stem_combination
UNION ALL
SELECT CAST('strength' AS VARCHAR(40)) AS table_name,
       CAST(name AS VARCHAR(120)) AS row_key, passage, basis
FROM strength
UNION ALL
SELECT CAST('twelve_stage' AS VARCHAR(40)) AS table_name,
       CAST(element || '|' || branch AS VARCHAR(120)) AS row_key, passage, basis
FROM twelve_stage
UNION ALL
SELECT CAST('world_omen' AS VARCHAR(40)) AS table_name,
       CAST(omen AS VARCHAR(120)) AS row_key, passage, basis
FROM world_omen
) c
JOIN source_passage s ON s.id = c.passage
""",
    ),
)


def upgrade() -> None:
    op.create_table(
        "meta_table",
        sa.Column("name", sa.String(length=40), nullable=False, comment="Table or view name"),
        sa.Column("kind", sa.String(length=8), nullable=False, comment="table or view"),
        sa.Column(
            "section",
            sa.String(length=16),
            nullable=False,
            comment="Where it belongs: sources, core, rules, symbols, readings, docs or system",
        ),
        sa.Column(
            "description", sa.Text(), nullable=False, comment="What it holds, in a few sentences"
        ),
        sa.Column(
            "passage",
            sa.String(length=8),
            nullable=True,
            comment="The first passage its description cites (§chapter.passage); none if it cites none",
        ),
        sa.CheckConstraint("kind IN ('table', 'view')", name=op.f("ck_meta_table_kind_domain")),
        sa.CheckConstraint(
            "section IN ('sources', 'core', 'rules', 'symbols', 'readings', 'docs', 'system')",
            name=op.f("ck_meta_table_section_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_meta_table_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_meta_table")),
        comment="One row per table and view of the database: what it holds and the passage it rests on. Generated from the schema; ``yimao schema`` prints it.",
    )
    op.create_table(
        "meta_column",
        sa.Column("table_name", sa.String(length=40), nullable=False, comment="The table or view"),
        sa.Column("column_name", sa.String(length=40), nullable=False, comment="The column's name"),
        sa.Column(
            "ordinal",
            sa.Integer(),
            nullable=False,
            comment="Its position in the table or view, from 1",
        ),
        sa.Column("description", sa.Text(), nullable=False, comment="What the column means"),
        sa.Column(
            "domain",
            sa.String(length=200),
            nullable=True,
            comment="The values it takes, e.g. 1..6, 0/1, 旺/相/休/囚/死, FK branch.name, text ≤ 8; 'or NULL' when it may be empty; none for a view column without a stated domain",
        ),
        sa.Column(
            "is_key",
            sa.Integer(),
            nullable=False,
            comment="1 if part of the table's primary key, else 0",
        ),
        sa.Column(
            "passage",
            sa.String(length=8),
            nullable=True,
            comment="The first passage its description cites, if any",
        ),
        sa.CheckConstraint("is_key IN (0, 1)", name=op.f("ck_meta_column_is_key_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_meta_column_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["table_name"], ["meta_table.name"], name=op.f("fk_meta_column_table_name_meta_table")
        ),
        sa.PrimaryKeyConstraint("table_name", "column_name", name=op.f("pk_meta_column")),
        sa.UniqueConstraint(
            "table_name", "ordinal", name=op.f("uq_meta_column_table_name_ordinal")
        ),
        comment="One row per column of every table and view: its meaning, its domain (from the CHECK constraints and foreign keys) and the passage it comes from.",
    )
    migrating.create_views(op, VIEWS)


def downgrade() -> None:
    migrating.drop_views(op, VIEWS)
    op.drop_table("meta_column")
    op.drop_table("meta_table")
