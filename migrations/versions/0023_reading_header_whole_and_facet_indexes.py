"""v_reading reads one table: reading_header stores the reading's own columns too, and the
default facets of v_reading and v_reading_hidden have indexes.

``v_reading`` joined ``reading_header`` with ``reading`` for the reading's own columns (its
question, moment, pillars, method). SQLite keeps every join of a view under GROUP BY, so a
count or a facet over all readings looked up ``reading`` for each, and sorted every reading
for its groups: each of the three default facets of its page in ``yimao serve`` took
0.7-1.5 s at a million readings, past datasette's limit. ``reading_header`` now stores the
reading's own columns too (appended, in v_reading's order), filled from its definition
``v_reading_header_computed``, which selects them; ``v_reading`` reads ``reading_header``
and the journal's tables only. The columns its page facets by default have indexes on
``reading_header`` (palace, generation_name, primary_name), and so has v_reading_hidden's
(``reading_hidden.relative``), so a facet reads an index in order instead of sorting; two of them hold a second column grouped with the first (a
palace's generations; a hexagram's name and key, which ``yimao stats --by hexagram`` groups
by). The public view keeps its columns
and rows.

Every input of a reading but its subject is fixed when it is stored, and a change of subject
writes the reading's derived rows again (yimao_db.kb.derived.rewrite), so the copy cannot
fall behind ``reading``; ``yimao check`` compares it with the definition as before.

Revision ID: 0023
Revises: 0022
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_reading_header_computed",
        """
SELECT r.id AS reading_id,
       d.void_first || d.void_second AS void_branches,
       p.king_wen AS primary_king_wen, p.name AS primary_name,
       c.king_wen AS changed_king_wen, c.name AS changed_name,
       p.palace, ml.lines AS moving_lines, hp.nuclear_king_wen, hp.is_liuchong, hp.is_liuhe,
       g.name AS generation_name, p.gua_shen, hp.gua_shen_positions, p.shi_shen_line,
       p.bits AS primary_bits, c.bits AS changed_bits,
       p.short_name AS primary_short_name, c.short_name AS changed_short_name,
       yr.relative AS year_relative, mr.relative AS month_relative,
       dr.relative AS day_relative, hr.relative AS hour_relative,
       c.palace AS changed_palace, cg.name AS changed_generation_name, n.name AS nuclear_name,
       (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = '日' AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc) AS sun_mansion, (SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li WHERE li.body = '月' AND li.starts_at <= r.cast_utc ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc) AS moon_mansion,
       am.name AS all_moving_name,
       r.question, r.cast_at, r.tz, r.year_gz, r.month_gz, r.day_gz, r.hour_gz, r.created_at,
       r.method, r.cast_input, r.month_branch, r.solar_term, r.half_year, r.early_rat,
       r.najia_variant, r.matter, r.cast_utc
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
LEFT JOIN generation cg ON cg.ordinal = c.generation
LEFT JOIN hexagram n ON n.king_wen = hp.nuclear_king_wen
LEFT JOIN all_moving am ON am.king_wen = r.primary_kw AND am.mask = r.moving_mask
""",
    ),
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
       o.verdict AS outcome, o.happened_on AS outcome_on,
       (SELECT COUNT(*) FROM reading_note n WHERE n.reading_id = h.reading_id) AS note_count,
       (SELECT COUNT(*) FROM reading_tag t WHERE t.reading_id = h.reading_id) AS tag_count,
       h.changed_palace, h.changed_generation_name, h.nuclear_name,
       h.cast_utc, h.sun_mansion, h.moon_mansion, h.all_moving_name
FROM reading_header h  -- its reading_id is the view's: ORDER BY reading_id walks its key
LEFT JOIN reading_outcome o ON o.reading_id = h.reading_id
""",
    ),
)
REPLACES = {
    "v_reading_header_computed": "0018",
    "v_reading": "0019",
}

# the reading's own columns, appended to reading_header in v_reading's order
READING_COLUMNS = (
    ("question", sa.Text(), "The question, verbatim"),
    (
        "cast_at",
        sa.Text(),
        "The moment as local civil time with offset, ISO 8601; NULL for a reading given as pillars",
    ),
    ("tz", sa.Text(), "IANA time zone of cast_at"),
    ("year_gz", sa.Text(), "Year pillar"),
    ("month_gz", sa.Text(), "Month pillar"),
    ("day_gz", sa.Text(), "Day pillar"),
    ("hour_gz", sa.Text(), "Hour pillar"),
    ("created_at", sa.Text(), "When the reading was stored, UTC ISO 8601"),
    ("method", sa.Text(), "How it was cast"),
    ("cast_input", sa.Text(), "What was typed to cast it (NULL for random)"),
    ("month_branch", sa.Text(), "月建, the month's branch"),
    ("solar_term", sa.Text(), "The solar term in force at cast_at; NULL with no cast_at"),
    ("half_year", sa.Text(), "冬至後 or 夏至後 at cast_at (§4.3)"),
    ("early_rat", sa.Integer(), "1 if 23:00–24:00 counted as the next day (早子時)"),
    ("najia_variant", sa.Text(), "fixed (default) or seasonal 二老時遷 (§4.3)"),
    (
        "matter",
        sa.Text(),
        "The kind of matter asked about (§9.5): 功名 財利 獄訟 憂患; NULL if not said",
    ),
    (
        "cast_utc",
        sa.Text(),
        "The instant of cast_at on the UTC clock, YYYY-MM-DDTHH:MM:SSZ; NULL for a reading "
        "given as pillars",
    ),
)
# (table, columns): an index led by each default facet of v_reading and v_reading_hidden
FACETS = (
    ("reading_header", ("palace", "generation_name")),
    ("reading_header", ("generation_name",)),
    ("reading_header", ("primary_name", "primary_king_wen")),
    ("reading_hidden", ("relative",)),
)


def upgrade() -> None:
    migrating.drop_views(op, migrating.previous_views(op, VIEWS, REPLACES))
    for name, type_, comment in READING_COLUMNS:
        op.add_column(
            "reading_header",
            sa.Column(name, type_, autoincrement=False, nullable=True, comment=comment),
        )
    for table, columns in FACETS:
        op.create_index(op.f(f"ix_{table}_{columns[0]}"), table, list(columns))
    migrating.create_views(op, VIEWS)  # fills the new columns from the definition


def downgrade() -> None:
    migrating.drop_views(op, VIEWS)
    for table, columns in FACETS:
        op.drop_index(op.f(f"ix_{table}_{columns[0]}"), table_name=table)
    for name, _type, _comment in READING_COLUMNS:
        op.drop_column("reading_header", name)
    migrating.create_views(op, migrating.previous_views(op, VIEWS, REPLACES))
