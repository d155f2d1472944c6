"""Readings: the reading and reading_line tables and the chart views.

v_reading, v_reading_line and v_reading_hidden assemble a chart by joining the reference and
rule tables; nothing derived is stored. Helper views: v_reading_cast (primary and changed
bits per reading), v_hexagram_pattern (互卦, 六衝卦, 六合卦, 卦身 lines) and
v_month_spirit_branch (the 大六神 standing on each branch, at most two, joined by ',').
The SQL is portable between SQLite and PostgreSQL (no string_agg/group_concat).

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# How the views are written (measured; docs/readings.md has the figures):
# - No GROUP BY on the reading path. SQLite materialises an aggregate view whole, for every
#   stored reading, before a filter applies: the first views pivoted the six lines with
#   GROUP BY and charting one reading read every stored line. v_reading_cast now pivots
#   with correlated subqueries on the reading_line primary key, v_hexagram_pattern joins a
#   hexagram's six lines by primary key, and both are flattened into the views using them,
#   so ``WHERE reading_id = ?`` costs the same at 100 or 100,000 stored readings.
# - The join order is pinned: ``CROSS JOIN`` (conditions in WHERE) for the tables that
#   must match, LEFT JOIN for the rule lookups. SQLite never moves a CROSS or LEFT JOIN
#   operand before a table written to its left, so the reading drives the loop whether or
#   not ANALYZE has run (with statistics, an unpinned plan began with the rule tables and
#   ran 30-40 times slower). PostgreSQL reads CROSS JOIN + WHERE as an inner join.
# - v_reading_line looks up what depends only on the reading (hexagrams, day, hour, month,
#   palace, the branches clashing month and day) before reading_line, once per reading. A
#   still line's changed-line lookups have NULL keys and cost nothing. The month spirits
#   come from v_month_spirit_branch, materialised once per query.
# - SQLite allows 64 tables in a statement: the three views together use fewer (the
#   subqueries do not count), so users can join them.
VIEWS = (
    ViewSQL(
        "v_month_spirit_branch",
        """
SELECT x.month_branch, x.branch, x.spirit_count,
       s_lo.name || CASE WHEN x.hi <> x.lo THEN ',' || s_hi.name ELSE '' END AS spirits
FROM (SELECT m.month_branch, m.branch, MIN(s.ordinal) AS lo, MAX(s.ordinal) AS hi,
             COUNT(*) AS spirit_count
      FROM month_spirit m JOIN spirit s ON s.name = m.spirit
      GROUP BY m.month_branch, m.branch) x
JOIN spirit s_lo ON s_lo.ordinal = x.lo
JOIN spirit s_hi ON s_hi.ordinal = x.hi
""",
    ),
    ViewSQL(
        "v_hexagram_pattern",
        """
SELECT h.king_wen, n.king_wen AS nuclear_king_wen,
       CASE WHEN c1.first IS NOT NULL AND c2.first IS NOT NULL AND c3.first IS NOT NULL
            THEN 1 ELSE 0 END AS is_liuchong,
       CASE WHEN m1.first IS NOT NULL AND m2.first IS NOT NULL AND m3.first IS NOT NULL
            THEN 1 ELSE 0 END AS is_liuhe,
       rtrim(CASE WHEN l1.branch = h.gua_shen THEN '1,' ELSE '' END || CASE WHEN l2.branch = h.gua_shen THEN '2,' ELSE '' END || CASE WHEN l3.branch = h.gua_shen THEN '3,' ELSE '' END || CASE WHEN l4.branch = h.gua_shen THEN '4,' ELSE '' END || CASE WHEN l5.branch = h.gua_shen THEN '5,' ELSE '' END || CASE WHEN l6.branch = h.gua_shen THEN '6,' ELSE '' END, ',')
         AS gua_shen_positions
FROM hexagram h
CROSS JOIN hexagram n
CROSS JOIN hexagram_line l1
CROSS JOIN hexagram_line l2
CROSS JOIN hexagram_line l3
CROSS JOIN hexagram_line l4
CROSS JOIN hexagram_line l5
CROSS JOIN hexagram_line l6
LEFT JOIN branch_relation c1 ON c1.relation = '六衝' AND c1.first = l1.branch AND c1.second = l4.branch
LEFT JOIN branch_relation c2 ON c2.relation = '六衝' AND c2.first = l2.branch AND c2.second = l5.branch
LEFT JOIN branch_relation c3 ON c3.relation = '六衝' AND c3.first = l3.branch AND c3.second = l6.branch
LEFT JOIN branch_relation m1 ON m1.relation = '六合' AND m1.first = l1.branch AND m1.second = l4.branch
LEFT JOIN branch_relation m2 ON m2.relation = '六合' AND m2.first = l2.branch AND m2.second = l5.branch
LEFT JOIN branch_relation m3 ON m3.relation = '六合' AND m3.first = l3.branch AND m3.second = l6.branch
WHERE n.bits = substr(h.bits, 2, 3) || substr(h.bits, 3, 3)
  AND l1.king_wen = h.king_wen AND l1.position = 1 AND l2.king_wen = h.king_wen AND l2.position = 2 AND l3.king_wen = h.king_wen AND l3.position = 3 AND l4.king_wen = h.king_wen AND l4.position = 4 AND l5.king_wen = h.king_wen AND l5.position = 5 AND l6.king_wen = h.king_wen AND l6.position = 6
""",
    ),
    ViewSQL(
        "v_reading_cast",
        """
SELECT r.id AS reading_id,
       (SELECT MAX(CASE WHEN x.position = 1 THEN CASE WHEN x.value IN (7, 9) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 2 THEN CASE WHEN x.value IN (7, 9) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 3 THEN CASE WHEN x.value IN (7, 9) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 4 THEN CASE WHEN x.value IN (7, 9) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 5 THEN CASE WHEN x.value IN (7, 9) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 6 THEN CASE WHEN x.value IN (7, 9) THEN '1' ELSE '0' END ELSE '' END)
        FROM reading_line x WHERE x.reading_id = r.id) AS primary_bits,
       (SELECT MAX(CASE WHEN x.position = 1 THEN CASE WHEN x.value IN (6, 7) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 2 THEN CASE WHEN x.value IN (6, 7) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 3 THEN CASE WHEN x.value IN (6, 7) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 4 THEN CASE WHEN x.value IN (6, 7) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 5 THEN CASE WHEN x.value IN (6, 7) THEN '1' ELSE '0' END ELSE '' END) || MAX(CASE WHEN x.position = 6 THEN CASE WHEN x.value IN (6, 7) THEN '1' ELSE '0' END ELSE '' END)
        FROM reading_line x WHERE x.reading_id = r.id) AS changed_bits,
       (SELECT rtrim(MAX(CASE WHEN x.position = 1 THEN CASE WHEN x.value IN (6, 9) THEN '1,' ELSE '' END ELSE '' END) || MAX(CASE WHEN x.position = 2 THEN CASE WHEN x.value IN (6, 9) THEN '2,' ELSE '' END ELSE '' END) || MAX(CASE WHEN x.position = 3 THEN CASE WHEN x.value IN (6, 9) THEN '3,' ELSE '' END ELSE '' END) || MAX(CASE WHEN x.position = 4 THEN CASE WHEN x.value IN (6, 9) THEN '4,' ELSE '' END ELSE '' END) || MAX(CASE WHEN x.position = 5 THEN CASE WHEN x.value IN (6, 9) THEN '5,' ELSE '' END ELSE '' END) || MAX(CASE WHEN x.position = 6 THEN CASE WHEN x.value IN (6, 9) THEN '6,' ELSE '' END ELSE '' END), ',')
        FROM reading_line x WHERE x.reading_id = r.id) AS moving_lines,
       (SELECT COALESCE(SUM(CASE WHEN x.value IN (6, 9) THEN 1 ELSE 0 END), 0)
        FROM reading_line x WHERE x.reading_id = r.id) AS moving_count,
       (SELECT COUNT(*) FROM reading_line x WHERE x.reading_id = r.id) AS line_count
FROM reading r
""",
    ),
    ViewSQL(
        "v_reading",
        """
SELECT r.id AS reading_id, r.question, r.cast_at, r.tz,
       r.year_gz, r.month_gz, r.day_gz, r.hour_gz,
       d.void_first || d.void_second AS void_branches,
       p.king_wen AS primary_king_wen, p.name AS primary_name,
       c.king_wen AS changed_king_wen, c.name AS changed_name,
       p.palace, rc.moving_lines, pat.nuclear_king_wen, pat.is_liuchong, pat.is_liuhe,
       g.name AS generation_name, p.gua_shen, pat.gua_shen_positions, p.shi_shen_line,
       r.created_at, r.method, r.cast_input, r.month_branch, r.solar_term, r.half_year,
       r.early_rat, r.najia_variant, p.bits AS primary_bits, c.bits AS changed_bits,
       p.short_name AS primary_short_name, c.short_name AS changed_short_name
FROM reading r
CROSS JOIN v_reading_cast rc
CROSS JOIN ganzhi d
CROSS JOIN hexagram p
CROSS JOIN generation g
CROSS JOIN v_hexagram_pattern pat
LEFT JOIN hexagram c ON c.bits = rc.changed_bits AND c.king_wen <> p.king_wen
WHERE rc.reading_id = r.id AND d.name = r.day_gz AND p.bits = rc.primary_bits
  AND g.ordinal = p.generation AND pat.king_wen = p.king_wen
""",
    ),
    ViewSQL(
        "v_reading_line",
        """
SELECT r.id AS reading_id, rl.position, rl.value,
       CASE WHEN rl.value IN (6, 9) THEN 1 ELSE 0 END AS is_moving,
       nj.stem, l.branch, l.element, l.relative,
       ds.spirit, hsp.spirit AS hour_spirit,
       (SELECT x.spirits FROM v_month_spirit_branch x
        WHERE x.month_branch = r.month_branch AND x.branch = l.branch) AS month_spirit,
       ng.general AS noble_general,
       l.is_world, l.is_response, l.is_between, l.mansion,
       CASE WHEN l.mansion = dm.mansion THEN 1 ELSE 0 END AS is_dusk_mansion,
       CASE WHEN l.branch IN (d.void_first, d.void_second) THEN 1 ELSE 0 END AS is_void,
       CASE WHEN l.branch = mcl.second THEN 1 ELSE 0 END AS is_month_break,
       CASE WHEN l.branch = dcl.second THEN 1 ELSE 0 END AS is_day_clash,
       ss.strength, ts.stage,
       cnj.stem AS changed_stem, cl.branch AS changed_branch, cl.element AS changed_element,
       crel.name AS changed_relative,
       CASE WHEN cl.branch IS NOT NULL THEN rtrim(
              CASE WHEN jin.first IS NOT NULL THEN '化進神,' ELSE '' END
           || CASE WHEN tui.first IS NOT NULL THEN '化退神,' ELSE '' END
           || CASE WHEN ce.generates = l.element THEN '回頭生,' ELSE '' END
           || CASE WHEN ce.controls = l.element THEN '回頭克,' ELSE '' END
           || CASE WHEN cl.branch IN (d.void_first, d.void_second) THEN '化空,' ELSE '' END
           || CASE WHEN cl.branch = mcl.second THEN '化破,' ELSE '' END
           || CASE WHEN cts.stage = '墓' THEN '化墓,' ELSE '' END
           || CASE WHEN cts.stage = '絕' THEN '化絕,' ELSE '' END, ',') END AS transform,
       nj.stem || l.branch AS ganzhi,
       CASE WHEN cnj.stem IS NULL THEN NULL ELSE cnj.stem || cl.branch END AS changed_ganzhi
FROM reading r
CROSS JOIN v_reading_cast rc
CROSS JOIN hexagram h
CROSS JOIN ganzhi d
CROSS JOIN trigram pt
CROSS JOIN element pe
LEFT JOIN branch_relation mcl ON mcl.relation = '六衝' AND mcl.first = r.month_branch
LEFT JOIN branch_relation dcl ON dcl.relation = '六衝' AND dcl.first = d.branch
LEFT JOIN dusk_mansion dm ON dm.month_branch = r.month_branch
LEFT JOIN hour_stem hs ON hs.day_stem = d.stem AND hs.hour_branch = substr(r.hour_gz, 2, 1)
LEFT JOIN noble_hour nh ON nh.hour_branch = hs.hour_branch
LEFT JOIN hexagram ch ON ch.bits = rc.changed_bits AND ch.king_wen <> h.king_wen
CROSS JOIN reading_line rl
CROSS JOIN hexagram_line l
LEFT JOIN najia nj ON nj.half_year = CASE WHEN r.najia_variant = 'seasonal' AND r.half_year = '夏至後' THEN '夏至後' ELSE '冬至後' END
  AND nj.trigram = CASE WHEN rl.position <= 3 THEN h.lower ELSE h.upper END
  AND nj.position = rl.position
LEFT JOIN day_spirit ds ON ds.day_stem = d.stem AND ds.position = rl.position
LEFT JOIN seasonal_strength ss ON ss.month_branch = r.month_branch AND ss.element = l.element
LEFT JOIN twelve_stage ts ON ts.element = l.element AND ts.branch = d.branch
LEFT JOIN day_spirit hsp
  ON hsp.day_stem = substr(hs.hour_ganzhi, 1, 1) AND hsp.position = rl.position
LEFT JOIN noble_general ng ON ng.day_stem = d.stem AND ng.half = nh.half AND ng.branch = l.branch
LEFT JOIN hexagram_line cl  -- still lines look up nothing from here on (NULL keys)
  ON cl.king_wen = CASE WHEN rl.value IN (6, 9) THEN ch.king_wen END AND cl.position = rl.position
LEFT JOIN najia cnj ON cnj.half_year = CASE WHEN r.najia_variant = 'seasonal' AND r.half_year = '夏至後' THEN '夏至後' ELSE '冬至後' END
  AND cnj.trigram = CASE WHEN rl.position <= 3 THEN ch.lower ELSE ch.upper END
  AND cnj.position = cl.position
LEFT JOIN element ce ON ce.name = cl.element
LEFT JOIN relative crel ON crel.relation = CASE
       WHEN ce.name IS NULL THEN NULL WHEN ce.name = pe.name THEN 'same'
       WHEN pe.generates = ce.name THEN 'i_generate' WHEN pe.controls = ce.name THEN 'i_control'
       WHEN ce.generates = pe.name THEN 'generates_me' ELSE 'controls_me' END
LEFT JOIN branch_relation jin ON jin.relation = '進神' AND jin.first = l.branch AND jin.second = cl.branch
LEFT JOIN branch_relation tui ON tui.relation = '退神' AND tui.first = l.branch AND tui.second = cl.branch
LEFT JOIN twelve_stage cts ON cts.element = l.element AND cts.branch = cl.branch
WHERE rc.reading_id = r.id AND h.bits = rc.primary_bits AND d.name = r.day_gz
  AND pt.name = h.palace AND pe.name = pt.element AND rl.reading_id = r.id
  AND l.king_wen = h.king_wen AND l.position = rl.position
""",
    ),
    ViewSQL(
        "v_reading_hidden",
        """
SELECT r.id AS reading_id, hs.position, hs.relative,
       hnj.stem || hs.branch AS ganzhi, hs.element, onj.stem || o.branch AS over_ganzhi,
       CASE WHEN hs.branch IN (d.void_first, d.void_second) THEN 1 ELSE 0 END AS is_void,
       CASE WHEN mb.first IS NULL THEN 0 ELSE 1 END AS is_month_break,
       ss.strength, ts.stage, hs.stem, hs.branch, o.relative AS over_relative
FROM reading r
CROSS JOIN v_reading_cast rc
CROSS JOIN hexagram h
CROSS JOIN ganzhi d
CROSS JOIN hidden_spirit hs
LEFT JOIN hexagram_line o ON o.king_wen = h.king_wen AND o.position = hs.position
LEFT JOIN najia hnj ON hnj.half_year = CASE WHEN r.najia_variant = 'seasonal' AND r.half_year = '夏至後' THEN '夏至後' ELSE '冬至後' END AND hnj.trigram = h.palace
  AND hnj.position = hs.position
LEFT JOIN najia onj ON onj.half_year = CASE WHEN r.najia_variant = 'seasonal' AND r.half_year = '夏至後' THEN '夏至後' ELSE '冬至後' END
  AND onj.trigram = CASE WHEN hs.position <= 3 THEN h.lower ELSE h.upper END
  AND onj.position = hs.position
LEFT JOIN seasonal_strength ss ON ss.month_branch = r.month_branch AND ss.element = hs.element
LEFT JOIN twelve_stage ts ON ts.element = hs.element AND ts.branch = d.branch
LEFT JOIN branch_relation mb
  ON mb.relation = '六衝' AND mb.first = hs.branch AND mb.second = r.month_branch
WHERE rc.reading_id = r.id AND h.bits = rc.primary_bits AND d.name = r.day_gz
  AND hs.king_wen = h.king_wen
""",
    ),
)


def upgrade() -> None:
    op.create_table(
        "reading",
        sa.Column("id", sa.Integer(), nullable=False, comment="Reading id"),
        sa.Column(
            "created_at",
            sa.String(length=32),
            nullable=False,
            comment="When the reading was stored, UTC ISO 8601",
        ),
        sa.Column("question", sa.Text(), nullable=True, comment="The question, verbatim"),
        sa.Column(
            "method",
            sa.String(length=16),
            nullable=False,
            comment="values, coins, notation (乾之姤), hexagram (+ moving lines) or random",
        ),
        sa.Column(
            "cast_input",
            sa.Text(),
            nullable=True,
            comment="What was typed to cast it (NULL for random)",
        ),
        sa.Column(
            "cast_at",
            sa.String(length=40),
            nullable=True,
            comment="The moment as local civil time with offset, ISO 8601",
        ),
        sa.Column("tz", sa.String(length=64), nullable=True, comment="IANA time zone of cast_at"),
        sa.Column("year_gz", sa.String(length=2), nullable=True, comment="Year pillar"),
        sa.Column("month_gz", sa.String(length=2), nullable=True, comment="Month pillar"),
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="月建, the month's branch"
        ),
        sa.Column("day_gz", sa.String(length=2), nullable=False, comment="Day pillar"),
        sa.Column("hour_gz", sa.String(length=2), nullable=True, comment="Hour pillar"),
        sa.Column(
            "solar_term",
            sa.String(length=4),
            nullable=True,
            comment="The solar term in force at cast_at",
        ),
        sa.Column(
            "half_year",
            sa.String(length=4),
            nullable=True,
            comment="冬至後 or 夏至後 at cast_at (§4.3, §12)",
        ),
        sa.Column(
            "early_rat",
            sa.Integer(),
            nullable=False,
            comment="1 if 23:00–24:00 counted as the next day (早子時, §12)",
        ),
        sa.Column(
            "najia_variant",
            sa.String(length=8),
            nullable=False,
            comment="fixed (default) or seasonal 二老時遷 (§4.3)",
        ),
        sa.CheckConstraint(
            "half_year IN ('冬至後', '夏至後')", name=op.f("ck_reading_half_year_domain")
        ),
        sa.CheckConstraint(
            "method IN ('values', 'coins', 'notation', 'hexagram', 'random')",
            name=op.f("ck_reading_method_domain"),
        ),
        sa.CheckConstraint(
            "najia_variant IN ('fixed', 'seasonal')", name=op.f("ck_reading_najia_variant_domain")
        ),
        sa.CheckConstraint("early_rat IN (0, 1)", name=op.f("ck_reading_early_rat_bool")),
        sa.ForeignKeyConstraint(["day_gz"], ["ganzhi.name"], name=op.f("fk_reading_day_gz_ganzhi")),
        sa.ForeignKeyConstraint(
            ["hour_gz"], ["ganzhi.name"], name=op.f("fk_reading_hour_gz_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_reading_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["month_gz"], ["ganzhi.name"], name=op.f("fk_reading_month_gz_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["year_gz"], ["ganzhi.name"], name=op.f("fk_reading_year_gz_ganzhi")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reading")),
        comment="A cast: the question, how it was cast, and the moment (as given or as computed by the calendar). The chart is assembled from the reference tables by v_reading.",
    )
    op.create_table(
        "reading_line",
        sa.Column("reading_id", sa.Integer(), nullable=False, comment="The reading"),
        sa.Column("position", sa.Integer(), nullable=False, comment="Line 1..6 from the bottom"),
        sa.Column(
            "value",
            sa.Integer(),
            nullable=False,
            comment="6 old yin (moving), 7 young yang, 8 young yin, 9 old yang (moving)",
        ),
        sa.Column(
            "coins",
            sa.Integer(),
            nullable=True,
            comment="Number of backs among the three coins (value = 6 + backs), when thrown",
        ),
        sa.CheckConstraint(
            "coins IS NULL OR coins = value - 6", name=op.f("ck_reading_line_coins_value")
        ),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_reading_line_position_range")),
        sa.CheckConstraint("value BETWEEN 6 AND 9", name=op.f("ck_reading_line_value_range")),
        sa.ForeignKeyConstraint(
            ["reading_id"],
            ["reading.id"],
            name=op.f("fk_reading_line_reading_id_reading"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("reading_id", "position", name=op.f("pk_reading_line")),
        comment="The six cast lines of a reading: value 6..9 and, when thrown, the coins (§2).",
    )
    migrating.create_views(op, VIEWS)


def downgrade() -> None:
    migrating.user_data_dropped(
        op, "0003", {"{n} reading{s}, lines included": "SELECT COUNT(*) FROM reading"}
    )
    migrating.drop_views(op, VIEWS)
    op.drop_table("reading_line")
    op.drop_table("reading")
