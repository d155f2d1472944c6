"""v_reading takes a reading's outcome by a subquery, not a join.

v_reading read its outcome (``outcome``, ``outcome_on``) through a LEFT JOIN of
``reading_outcome``. SQLite keeps every join of a view under an aggregate, so every count
of the view looked up each reading's outcome, used or not: with an outcome for 100,000 of
1,000,000 readings, ``SELECT palace, count(*) FROM v_reading GROUP BY 1`` took 395 ms
instead of reading its index alone (65 ms), ``SELECT count(*) FROM v_reading`` 343 ms
instead of 5, and the page of ``v_reading`` in ``yimao serve`` (a count and three facets)
1.6 s, past its limit. The two columns are now scalar subqueries, as the counts of notes
and tags already were: SQLite runs them only for a query that reads them. A query that
does read them pays two lookups of the outcome's key instead of one (``SELECT *`` about 8 %
more; ``GROUP BY outcome`` about 13 %). The columns and their values are unchanged.

Revision ID: 0029
Revises: 0028
"""

from collections.abc import Sequence

from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading",
        """
SELECT h.reading_id, h.question, h.cast_at, h.tz,
       h.year_gz, h.month_gz, h.day_gz, h.hour_gz,
       h.void_branches, h.primary_king_wen, h.primary_name, h.changed_king_wen, h.changed_name,
       h.palace, h.moving_lines, h.nuclear_king_wen, h.is_liuchong, h.is_liuhe,
       h.generation_name, h.gua_shen, h.gua_shen_positions, h.shi_shen_line,
       h.created_at, h.method, h.cast_input, h.month_branch, h.solar_term, h.half_year,
       h.early_rat, h.najia_variant, h.primary_bits, h.changed_bits,
       h.primary_short_name, h.changed_short_name,
       h.year_relative, h.month_relative, h.day_relative, h.hour_relative, h.matter,
       (SELECT o.verdict FROM reading_outcome o WHERE o.reading_id = h.reading_id) AS outcome,
       (SELECT o.happened_on FROM reading_outcome o WHERE o.reading_id = h.reading_id)
         AS outcome_on,
       (SELECT COUNT(*) FROM reading_note n WHERE n.reading_id = h.reading_id) AS note_count,
       (SELECT COUNT(*) FROM reading_tag t WHERE t.reading_id = h.reading_id) AS tag_count,
       h.changed_palace, h.changed_generation_name, h.nuclear_name,
       h.cast_utc, h.sun_mansion, h.moon_mansion, h.all_moving_name
FROM reading_header h  -- its reading_id is the view's: ORDER BY reading_id walks its key
""",
    ),
)
REPLACES = {
    "v_reading": "0023",
}


def upgrade() -> None:
    migrating.replace_views(op, VIEWS, REPLACES)


def downgrade() -> None:
    migrating.restore_views(op, VIEWS, REPLACES)
