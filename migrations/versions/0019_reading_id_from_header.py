"""v_reading's reading_id is reading_header's: a page sorted by it reads the last rows.

datasette shows v_reading newest first (``ORDER BY reading_id DESC LIMIT 101``). The view
took its reading_id from ``reading``, which SQLite reads after ``reading_header``, so it
sorted every reading to return a page (2.1 s at a million readings). Taken from
``reading_header`` (the same values: the join is on them), the order is the table's key and
the page reads 101 rows. The columns and rows are unchanged.

Revision ID: 0019
Revises: 0018
"""

from collections.abc import Sequence

from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading",
        """
SELECT h.reading_id, r.question, r.cast_at, r.tz,
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
FROM reading_header h  -- its reading_id is the view's: ORDER BY reading_id walks its key
CROSS JOIN reading r  -- after h on SQLite: r is then read in id order
LEFT JOIN reading_outcome o ON o.reading_id = r.id
WHERE r.id = h.reading_id
""",
    ),
)
REPLACES = {
    "v_reading": "0018",
}


def upgrade() -> None:
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
