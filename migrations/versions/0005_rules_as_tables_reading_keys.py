"""Rules as tables, reading keys, views that only join.

Every rule a chart applies becomes a rule table seeded from yimao_db.kb.rules (element_relation,
line_value, line_transform, hour_spirit, month_spirit_branch, branch_on_day, branch_in_month,
month_mansion; line_najia and hexagram_pattern for the hexagrams; moving_lines). A reading
gains the keys derived from its lines at insert (primary_kw, changed_kw, moving_mask,
najia_half), backfilled here for the readings already stored. The chart views are replaced
by versions that only join those tables; v_passage_citation reads the seeded table
passage_citation; contract_version records the public views' column contract.

On SQLite the reading table is rebuilt (batch mode) to add NOT NULL columns and CHECK
constraints: ``yimao build`` runs with foreign keys off and checks them all before it
commits (the way SQLite documents such changes), so the rebuild cannot cascade.

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_hexagram_pattern",
        """
SELECT king_wen, nuclear_king_wen, is_liuchong, is_liuhe, gua_shen_positions
FROM hexagram_pattern
""",
    ),
    ViewSQL(
        "v_month_spirit_branch",
        """
SELECT month_branch, branch, spirit_count, spirits
FROM month_spirit_branch
""",
    ),
    ViewSQL(
        "v_reading_cast",
        """
SELECT r.id AS reading_id, p.bits AS primary_bits, COALESCE(c.bits, p.bits) AS changed_bits,
       ml.lines AS moving_lines, ml.line_count AS moving_count,
       (SELECT COUNT(*) FROM reading_line x WHERE x.reading_id = r.id) AS line_count
FROM reading r
LEFT JOIN hexagram p ON p.king_wen = r.primary_kw
LEFT JOIN hexagram c ON c.king_wen = r.changed_kw
LEFT JOIN moving_lines ml ON ml.mask = r.moving_mask
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
       p.palace, ml.lines AS moving_lines, hp.nuclear_king_wen, hp.is_liuchong, hp.is_liuhe,
       g.name AS generation_name, p.gua_shen, hp.gua_shen_positions, p.shi_shen_line,
       r.created_at, r.method, r.cast_input, r.month_branch, r.solar_term, r.half_year,
       r.early_rat, r.najia_variant, p.bits AS primary_bits, c.bits AS changed_bits,
       p.short_name AS primary_short_name, c.short_name AS changed_short_name
FROM reading r
LEFT JOIN ganzhi d ON d.name = r.day_gz
LEFT JOIN hexagram p ON p.king_wen = r.primary_kw
LEFT JOIN generation g ON g.ordinal = p.generation
LEFT JOIN hexagram_pattern hp ON hp.king_wen = r.primary_kw
LEFT JOIN hexagram c ON c.king_wen = r.changed_kw
LEFT JOIN moving_lines ml ON ml.mask = r.moving_mask
""",
    ),
    ViewSQL(
        "v_reading_line",
        """
SELECT r.id AS reading_id, rl.position, rl.value, lv.is_moving,
       ln.stem, l.branch, l.element, l.relative,
       ds.spirit, hsp.spirit AS hour_spirit, msb.spirits AS month_spirit,
       ng.general AS noble_general,
       l.is_world, l.is_response, l.is_between, l.mansion, mm.is_dusk AS is_dusk_mansion,
       bd.is_void, bm.is_month_break, bd.is_day_clash, bm.strength, bd.stage,
       cn.stem AS changed_stem, cl.branch AS changed_branch, cl.element AS changed_element,
       er.relative AS changed_relative, lt.transforms AS transform,
       ln.ganzhi, cn.ganzhi AS changed_ganzhi
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
LEFT JOIN month_spirit_branch msb ON msb.month_branch = r.month_branch AND msb.branch = l.branch
LEFT JOIN month_mansion mm ON mm.month_branch = r.month_branch AND mm.mansion = l.mansion
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
        "v_reading_hidden",
        """
SELECT r.id AS reading_id, hs.position, hs.relative, hn.ganzhi, hs.element,
       onj.ganzhi AS over_ganzhi, bd.is_void, bm.is_month_break, bm.strength, bd.stage,
       hs.stem, hs.branch, o.relative AS over_relative
FROM reading r
LEFT JOIN hexagram_pattern hp ON hp.king_wen = r.primary_kw
CROSS JOIN hidden_spirit hs
LEFT JOIN line_najia hn ON hn.king_wen = hp.pure_king_wen AND hn.position = hs.position
  AND hn.half_year = r.najia_half
LEFT JOIN hexagram_line o ON o.king_wen = r.primary_kw AND o.position = hs.position
LEFT JOIN line_najia onj ON onj.king_wen = r.primary_kw AND onj.position = hs.position
  AND onj.half_year = r.najia_half
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = hs.branch
LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = hs.branch
WHERE hs.king_wen = r.primary_kw
""",
    ),
    ViewSQL(
        "v_passage_citation",
        """
SELECT s.id AS passage, s.chapter_no, s.passage_no, s.chapter,
       c.table_name, c.row_key, c.basis
FROM passage_citation c
JOIN source_passage s ON s.id = c.passage
""",
    ),
)
REPLACES = {
    "v_hexagram_pattern": "0003",
    "v_month_spirit_branch": "0003",
    "v_reading_cast": "0003",
    "v_reading": "0003",
    "v_reading_line": "0003",
    "v_reading_hidden": "0003",
    "v_passage_citation": "0004",
}

KEY_COLUMNS = ("primary_kw", "changed_kw", "moving_mask", "najia_half")
_KEY_TYPES: dict[str, sa.types.TypeEngine[Any]] = {
    "primary_kw": sa.Integer(),
    "changed_kw": sa.Integer(),
    "moving_mask": sa.Integer(),
    "najia_half": sa.String(length=4),
}
_COMMENTS = {
    "primary_kw": "Key derived from the lines at insert: the primary hexagram 本卦 (7 and 9 yang)",
    "changed_kw": "Key derived from the lines at insert: the changed hexagram 變卦 (6 and 9 turned over); NULL when no line moves",
    "moving_mask": "Key derived from the lines at insert: the moving lines 6 and 9, bit p-1 for line p",
    "najia_half": "Key derived at insert: the half of the najia table the chart uses, 夏至後 only for the seasonal variant after the summer solstice (§4.3)",
}
BATCH = 10_000
COMMENTS_CHANGED = (
    (
        "source_passage",
        None,
        "The 77 numbered passages of 《易冒》卷一 (numbering of shared/seed/passages.tsv). No text of the book is stored; rows elsewhere cite a passage by its id.",
        "The 77 numbered passages of 《易冒》卷一 (chapter and passage, as listed in seed/data/passages.tsv). No text of the book is stored; rows elsewhere cite a passage by its id.",
    ),
    (
        "between_use",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "body_condition",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "body_weight",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "direction_24",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "five_omen",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "general",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "line_aspect",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "line_role",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "matter_preference",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "moving_relative",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "relative_symbol",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "seven_luminary",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "spirit",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "spirit_preference",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "stage",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "strength",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "world_omen",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "branch_relation",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "branch_triad",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "day_spirit",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "dusk_mansion",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "element_correspondence",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "month_spirit",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "noble_general",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "noble_hour",
        None,
        "Which noble an hour uses (spec Decision): 卯..申 陽貴, 酉..寅 陰貴 (§7.2).",
        "Which noble an hour uses (a decision, docs/rules.md): 卯..申 陽貴, 酉..寅 陰貴 (§7.2).",
    ),
    (
        "noble_hour",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "seasonal_strength",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "spirit_affinity",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "spirit_attribute",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "star_meaning",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "stem_combination",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "twelve_stage",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "element_trigram",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "hour_stem",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
    (
        "month_stem",
        None,
        "五虎遁 (spec §12, standard): the month pillar from the year stem and month branch (甲己 years → 丙寅 …; 子 and 丑 close the year).",
        "五虎遁 (standard): the month pillar from the year stem and month branch (甲己 years → 丙寅 …; 子 and 丑 close the year).",
    ),
    (
        "month_stem",
        "basis",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        "book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
    ),
)


# The rules the backfill applies, frozen as they stood when this revision was written (a
# revision imports no live rule): 7 and 9 are yang (§2.3), 6 and 9 move and change into their
# opposite (§4.5), and only the seasonal najia after the summer solstice uses the 夏至後 half
# of the table (§4.3).
_YANG = {6: "0", 7: "1", 8: "0", 9: "1"}
_CHANGED_YANG = {6: "1", 7: "1", 8: "0", 9: "0"}


def _reading_keys(
    values: list[int], variant: str, half_year: str | None, kw: dict[str, int]
) -> dict[str, Any]:
    """The keys of a reading cast as ``values`` (line 1 first); ``kw``: King Wen by bits."""
    mask = sum(1 << i for i, v in enumerate(values) if v in (6, 9))
    seasonal_summer = variant == "seasonal" and half_year == "夏至後"
    return {
        "primary_kw": kw["".join(_YANG[v] for v in values)],
        "changed_kw": kw["".join(_CHANGED_YANG[v] for v in values)] if mask else None,
        "moving_mask": mask,
        "najia_half": "夏至後" if seasonal_summer else "冬至後",
    }


def _backfill() -> None:
    """The keys of every stored reading, from its six lines by the rules."""
    conn = op.get_bind()
    readings = conn.execute(
        sa.text("SELECT id, najia_variant, half_year FROM reading ORDER BY id")
    ).all()
    if not readings:
        return
    king_wen: dict[str, int] = {
        bits: kw for bits, kw in conn.execute(sa.text("SELECT bits, king_wen FROM hexagram"))
    }
    lines: dict[int, list[tuple[int, int]]] = {}
    for reading_id, position, value in conn.execute(
        sa.text(
            "SELECT reading_id, position, value FROM reading_line ORDER BY reading_id, position"
        )
    ):
        lines.setdefault(reading_id, []).append((position, value))
    update = sa.text(
        "UPDATE reading SET primary_kw = :primary_kw, changed_kw = :changed_kw, "
        "moving_mask = :moving_mask, najia_half = :najia_half WHERE id = :id"
    )
    batch = []
    for reading_id, variant, half_year in readings:
        cast = lines.get(reading_id, [])
        if [p for p, _ in cast] != [1, 2, 3, 4, 5, 6]:
            raise RuntimeError(
                f"reading {reading_id} has lines {[p for p, _ in cast]}, not 1..6: "
                "its keys cannot be derived; repair or delete it, then build again"
            )
        keys = _reading_keys([v for _, v in cast], variant, half_year, king_wen)
        batch.append({"id": reading_id, **keys})
        if len(batch) >= BATCH:
            conn.execute(update, batch)
            batch = []
    if batch:
        conn.execute(update, batch)


def _create_tables() -> None:
    op.create_table(
        "contract_version",
        sa.Column("version", sa.Integer(), autoincrement=False, nullable=False, comment="1, 2, …"),
        sa.Column(
            "summary",
            sa.Text(),
            nullable=False,
            comment="What changed in this version, in a sentence",
        ),
        sa.Column(
            "changes",
            sa.Text(),
            nullable=False,
            comment="The columns added and removed, per view (+column, -column); for version 1 the views it starts with",
        ),
        sa.PrimaryKeyConstraint("version", name=op.f("pk_contract_version")),
        comment="The versions of the column contract of the public views (v_ganzhi, v_hexagram, v_line, v_hidden, v_reading, v_reading_line, v_reading_hidden, v_passage_citation): an app reads the highest version to know which columns it can rely on. A version changes whenever a public view gains, loses or renames a column.",
        info={"section": "docs"},
    )
    op.create_table(
        "moving_lines",
        sa.Column("mask", sa.Integer(), autoincrement=False, nullable=False, comment="0..63"),
        sa.Column(
            "lines",
            sa.String(length=11),
            nullable=False,
            comment="The moving lines joined by ',', e.g. 1,4 (empty: none)",
        ),
        sa.Column("line_count", sa.Integer(), nullable=False, comment="How many lines move"),
        sa.CheckConstraint(
            "line_count BETWEEN 0 AND 6", name=op.f("ck_moving_lines_line_count_range")
        ),
        sa.CheckConstraint("mask BETWEEN 0 AND 63", name=op.f("ck_moving_lines_mask_range")),
        sa.PrimaryKeyConstraint("mask", name=op.f("pk_moving_lines")),
        comment="The 64 sets of moving lines, as a bit mask (bit p-1 for line p, as reading.moving_mask) and as the line numbers a chart prints.",
        info={"section": "readings"},
    )
    op.create_table(
        "element_relation",
        sa.Column(
            "me",
            sa.String(length=1),
            nullable=False,
            comment="The element judged from (for the relatives: the palace's)",
        ),
        sa.Column(
            "other", sa.String(length=1), nullable=False, comment="The other element (a line's)"
        ),
        sa.Column(
            "relation",
            sa.String(length=16),
            nullable=False,
            comment="same, generates_me, i_generate, i_control or controls_me",
        ),
        sa.Column(
            "relative",
            sa.String(length=2),
            nullable=False,
            comment="The relative the other element is to 我",
        ),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_element_relation_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_element_relation_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["me"], ["element.name"], name=op.f("fk_element_relation_me_element")
        ),
        sa.ForeignKeyConstraint(
            ["other"], ["element.name"], name=op.f("fk_element_relation_other_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_element_relation_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_element_relation_relative_relative")
        ),
        sa.PrimaryKeyConstraint("me", "other", name=op.f("pk_element_relation")),
        comment="How one element stands to another (§6.1): the same, generating it, generated by it, controlled by it or controlling it, and the relative 六親 that names it when the first is the palace element 我 (the changed line's relative is taken against the primary palace).",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "line_value",
        sa.Column(
            "value", sa.Integer(), autoincrement=False, nullable=False, comment="6, 7, 8 or 9"
        ),
        sa.Column("name", sa.String(length=1), nullable=False, comment="交 單 拆 重"),
        sa.Column("yang", sa.Integer(), nullable=False, comment="1 for the yang lines 7 and 9"),
        sa.Column(
            "is_moving",
            sa.Integer(),
            nullable=False,
            comment="1 for the old lines 6 and 9, which change (§4.5)",
        ),
        sa.Column(
            "changed_yang",
            sa.Integer(),
            nullable=False,
            comment="1 if the line is yang after the change",
        ),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_value_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_value_basis_domain")
        ),
        sa.CheckConstraint("changed_yang IN (0, 1)", name=op.f("ck_line_value_changed_yang_bool")),
        sa.CheckConstraint("is_moving IN (0, 1)", name=op.f("ck_line_value_is_moving_bool")),
        sa.CheckConstraint("value BETWEEN 6 AND 9", name=op.f("ck_line_value_value_range")),
        sa.CheckConstraint("yang IN (0, 1)", name=op.f("ck_line_value_yang_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_line_value_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("value", name=op.f("pk_line_value")),
        sa.UniqueConstraint("name", name=op.f("uq_line_value_name")),
        comment="What a cast value means (§2.3, §4.5): 6 交 old yin and 9 重 old yang move and change into their opposite; 7 單 young yang and 8 拆 young yin stand still.",
        info={"section": "rules"},
    )
    op.create_table(
        "branch_in_month",
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="The month's branch 月建"
        ),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="A line's branch"),
        sa.Column(
            "is_month_break",
            sa.Integer(),
            nullable=False,
            comment="1 if the branch clashes the month branch 月破",
        ),
        sa.Column(
            "strength",
            sa.String(length=1),
            nullable=False,
            comment="Strength of the branch's element that month",
        ),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_branch_in_month_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_branch_in_month_basis_domain"),
        ),
        sa.CheckConstraint(
            "is_month_break IN (0, 1)", name=op.f("ck_branch_in_month_is_month_break_bool")
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_branch_in_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_branch_in_month_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_branch_in_month_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["strength"], ["strength.name"], name=op.f("fk_branch_in_month_strength_strength")
        ),
        sa.PrimaryKeyConstraint("month_branch", "branch", name=op.f("pk_branch_in_month")),
        comment="What the month does to a branch (standard): 月破 (the branch clashes the month's) and the seasonal strength 旺相休囚死 of the branch's element. Every month and branch has a row.",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "hour_spirit",
        sa.Column("day_stem", sa.String(length=1), nullable=False, comment="The day's stem"),
        sa.Column("hour_branch", sa.String(length=1), nullable=False, comment="The hour's branch"),
        sa.Column(
            "position",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="Line 1..6 from the bottom",
        ),
        sa.Column("spirit", sa.String(length=2), nullable=False, comment="The spirit on that line"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_hour_spirit_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_hour_spirit_basis_domain")
        ),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_hour_spirit_position_range")),
        sa.ForeignKeyConstraint(
            ["day_stem"], ["stem.name"], name=op.f("fk_hour_spirit_day_stem_stem")
        ),
        sa.ForeignKeyConstraint(
            ["hour_branch"], ["branch.name"], name=op.f("fk_hour_spirit_hour_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_hour_spirit_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["spirit"], ["spirit.name"], name=op.f("fk_hour_spirit_spirit_spirit")
        ),
        sa.PrimaryKeyConstraint("day_stem", "hour_branch", "position", name=op.f("pk_hour_spirit")),
        comment="司時 (§7.2): the spirit on each line for a day stem and hour branch — the day rule applied to the hour's stem, which 五子遁 gives (甲子 day, 寅 hour → 丙 → line 1 朱雀).",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "line_transform",
        sa.Column(
            "branch", sa.String(length=1), nullable=False, comment="The moving line's branch"
        ),
        sa.Column(
            "changed_branch",
            sa.String(length=1),
            nullable=False,
            comment="The branch it changes into",
        ),
        sa.Column(
            "changed_void",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the changed branch is void 旬空 on the day",
        ),
        sa.Column(
            "changed_break",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if the month clashes the changed branch 月破",
        ),
        sa.Column(
            "transforms",
            sa.String(length=40),
            nullable=False,
            comment="The transforms that apply, joined by ',' in the order 化進神 化退神 回頭生 回頭克 化空 化破 化墓 化絕; empty when none does",
        ),
        sa.Column("is_advance", sa.Integer(), nullable=False, comment="1 for 化進神"),
        sa.Column("is_retreat", sa.Integer(), nullable=False, comment="1 for 化退神"),
        sa.Column("returns_generating", sa.Integer(), nullable=False, comment="1 for 回頭生"),
        sa.Column("returns_controlling", sa.Integer(), nullable=False, comment="1 for 回頭克"),
        sa.Column("to_void", sa.Integer(), nullable=False, comment="1 for 化空"),
        sa.Column("to_break", sa.Integer(), nullable=False, comment="1 for 化破"),
        sa.Column("to_tomb", sa.Integer(), nullable=False, comment="1 for 化墓"),
        sa.Column("to_extinction", sa.Integer(), nullable=False, comment="1 for 化絕"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_transform_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_transform_basis_domain")
        ),
        sa.CheckConstraint(
            "changed_break IN (0, 1)", name=op.f("ck_line_transform_changed_break_bool")
        ),
        sa.CheckConstraint(
            "changed_void IN (0, 1)", name=op.f("ck_line_transform_changed_void_bool")
        ),
        sa.CheckConstraint("is_advance IN (0, 1)", name=op.f("ck_line_transform_is_advance_bool")),
        sa.CheckConstraint("is_retreat IN (0, 1)", name=op.f("ck_line_transform_is_retreat_bool")),
        sa.CheckConstraint(
            "returns_controlling IN (0, 1)", name=op.f("ck_line_transform_returns_controlling_bool")
        ),
        sa.CheckConstraint(
            "returns_generating IN (0, 1)", name=op.f("ck_line_transform_returns_generating_bool")
        ),
        sa.CheckConstraint("to_break IN (0, 1)", name=op.f("ck_line_transform_to_break_bool")),
        sa.CheckConstraint(
            "to_extinction IN (0, 1)", name=op.f("ck_line_transform_to_extinction_bool")
        ),
        sa.CheckConstraint("to_tomb IN (0, 1)", name=op.f("ck_line_transform_to_tomb_bool")),
        sa.CheckConstraint("to_void IN (0, 1)", name=op.f("ck_line_transform_to_void_bool")),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_line_transform_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["changed_branch"],
            ["branch.name"],
            name=op.f("fk_line_transform_changed_branch_branch"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_line_transform_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint(
            "branch",
            "changed_branch",
            "changed_void",
            "changed_break",
            name=op.f("pk_line_transform"),
        ),
        comment="What a moving line of one branch changing into another becomes (§8.14, standard): 化進神 化退神 回頭生 回頭克 化空 化破 化墓 化絕. Keyed by the two branches and by whether the changed branch is void on the day and broken by the month, so a chart joins it with branch_on_day and branch_in_month of the changed branch.",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "month_mansion",
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="The month's branch"
        ),
        sa.Column("mansion", sa.String(length=1), nullable=False, comment="A mansion"),
        sa.Column(
            "is_dusk",
            sa.Integer(),
            nullable=False,
            comment="1 if it culminates at dusk that month 昏中",
        ),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_month_mansion_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_month_mansion_basis_domain")
        ),
        sa.CheckConstraint("is_dusk IN (0, 1)", name=op.f("ck_month_mansion_is_dusk_bool")),
        sa.ForeignKeyConstraint(
            ["mansion"], ["mansion.name"], name=op.f("fk_month_mansion_mansion_mansion")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_month_mansion_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_month_mansion_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("month_branch", "mansion", name=op.f("pk_month_mansion")),
        comment="Each mansion in each month: whether it is the month's dusk-culminating mansion 昏中, an auspicious sign on a line (§8.12). Every month and mansion has a row.",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "month_spirit_branch",
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="The month's branch"
        ),
        sa.Column(
            "branch",
            sa.String(length=1),
            nullable=False,
            comment="A branch some spirit stands on that month",
        ),
        sa.Column(
            "spirit_count", sa.Integer(), nullable=False, comment="How many spirits stand on it"
        ),
        sa.Column(
            "spirits",
            sa.String(length=8),
            nullable=False,
            comment="The spirits, in cycle order, joined by ','",
        ),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_month_spirit_branch_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_month_spirit_branch_basis_domain"),
        ),
        sa.CheckConstraint(
            "spirit_count BETWEEN 1 AND 2", name=op.f("ck_month_spirit_branch_spirit_count_range")
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_month_spirit_branch_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"],
            ["branch.name"],
            name=op.f("fk_month_spirit_branch_month_branch_branch"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_month_spirit_branch_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("month_branch", "branch", name=op.f("pk_month_spirit_branch")),
        comment="大六神 by branch (§7.2, §7.10): for each month, the spirits standing on each branch (one or two; branches no spirit stands on have no row).",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "passage_citation",
        sa.Column(
            "table_name",
            sa.String(length=40),
            nullable=False,
            comment="The table holding the citing row",
        ),
        sa.Column(
            "row_key",
            sa.String(length=120),
            nullable=False,
            comment="The citing row's primary key, its columns joined by '|' in key order",
        ),
        sa.Column("passage", sa.String(length=8), nullable=False, comment="The passage it cites"),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=True,
            comment="The row's basis (book, standard, decision); NULL for documentation rows",
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_passage_citation_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["table_name"],
            ["meta_table.name"],
            name=op.f("fk_passage_citation_table_name_meta_table"),
        ),
        sa.PrimaryKeyConstraint("table_name", "row_key", name=op.f("pk_passage_citation")),
        comment="Every row that cites a passage, from every table with a passage column: the seed collects them from the schema, so a new cited table is listed without further work. v_passage_citation joins it with source_passage.",
        info={"section": "docs"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "branch_on_day",
        sa.Column("day_gz", sa.String(length=2), nullable=False, comment="The day pillar"),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="A line's branch"),
        sa.Column(
            "is_void",
            sa.Integer(),
            nullable=False,
            comment="1 if the branch is void 旬空 on that day",
        ),
        sa.Column(
            "is_day_clash",
            sa.Integer(),
            nullable=False,
            comment="1 if the branch clashes the day branch 日衝",
        ),
        sa.Column(
            "stage",
            sa.String(length=2),
            nullable=False,
            comment="Stage of the branch's element at the day branch",
        ),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_branch_on_day_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_branch_on_day_basis_domain")
        ),
        sa.CheckConstraint(
            "is_day_clash IN (0, 1)", name=op.f("ck_branch_on_day_is_day_clash_bool")
        ),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_branch_on_day_is_void_bool")),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_branch_on_day_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["day_gz"], ["ganzhi.name"], name=op.f("fk_branch_on_day_day_gz_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_branch_on_day_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["stage"], ["stage.name"], name=op.f("fk_branch_on_day_stage_stage")
        ),
        sa.PrimaryKeyConstraint("day_gz", "branch", name=op.f("pk_branch_on_day")),
        comment="What the day does to a branch (standard): void 旬空 (its decade does not reach the branch), 日衝 (the branch clashes the day's) and the stage of the branch's element at the day branch. Every day and branch has a row.",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "hexagram_pattern",
        sa.Column("king_wen", sa.Integer(), nullable=False, comment="The hexagram"),
        sa.Column(
            "nuclear_king_wen",
            sa.Integer(),
            nullable=False,
            comment="Its nuclear hexagram 互卦 (lines 2–4 below, 3–5 above)",
        ),
        sa.Column(
            "pure_king_wen",
            sa.Integer(),
            nullable=False,
            comment="The pure hexagram 本宮 of its palace, where its hidden spirits come from",
        ),
        sa.Column(
            "is_liuchong",
            sa.Integer(),
            nullable=False,
            comment="1 for a 六衝卦: its three line pairs clash",
        ),
        sa.Column(
            "is_liuhe",
            sa.Integer(),
            nullable=False,
            comment="1 for a 六合卦: its three line pairs combine",
        ),
        sa.Column(
            "gua_shen_positions",
            sa.String(length=3),
            nullable=False,
            comment="The lines whose branch is the 卦身, joined by ',' (empty when absent, §9.1)",
        ),
        sa.CheckConstraint(
            "is_liuchong IN (0, 1)", name=op.f("ck_hexagram_pattern_is_liuchong_bool")
        ),
        sa.CheckConstraint("is_liuhe IN (0, 1)", name=op.f("ck_hexagram_pattern_is_liuhe_bool")),
        sa.ForeignKeyConstraint(
            ["king_wen"], ["hexagram.king_wen"], name=op.f("fk_hexagram_pattern_king_wen_hexagram")
        ),
        sa.ForeignKeyConstraint(
            ["nuclear_king_wen"],
            ["hexagram.king_wen"],
            name=op.f("fk_hexagram_pattern_nuclear_king_wen_hexagram"),
        ),
        sa.ForeignKeyConstraint(
            ["pure_king_wen"],
            ["hexagram.king_wen"],
            name=op.f("fk_hexagram_pattern_pure_king_wen_hexagram"),
        ),
        sa.PrimaryKeyConstraint("king_wen", name=op.f("pk_hexagram_pattern")),
        comment="Facts of a whole hexagram read from its lines (standard): its nuclear hexagram 互卦, whether it is a 六衝卦 or a 六合卦 (lines 1–4, 2–5 and 3–6 all clash or all combine), and the lines holding its 卦身 (§9.1).",
        info={"section": "core"},
    )
    op.create_table(
        "line_najia",
        sa.Column("king_wen", sa.Integer(), nullable=False, comment="The hexagram"),
        sa.Column("position", sa.Integer(), nullable=False, comment="Line 1..6 from the bottom"),
        sa.Column(
            "half_year",
            sa.String(length=4),
            nullable=False,
            comment="冬至後 (the fixed table) or 夏至後",
        ),
        sa.Column(
            "stem", sa.String(length=1), nullable=False, comment="Najia stem in that half (§4.3)"
        ),
        sa.Column(
            "ganzhi", sa.String(length=2), nullable=False, comment="Stem + branch in that half"
        ),
        sa.CheckConstraint(
            "half_year IN ('冬至後', '夏至後')", name=op.f("ck_line_najia_half_year_domain")
        ),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_line_najia_position_range")),
        sa.ForeignKeyConstraint(
            ["ganzhi"], ["ganzhi.name"], name=op.f("fk_line_najia_ganzhi_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["king_wen"], ["hexagram.king_wen"], name=op.f("fk_line_najia_king_wen_hexagram")
        ),
        sa.ForeignKeyConstraint(["stem"], ["stem.name"], name=op.f("fk_line_najia_stem_stem")),
        sa.PrimaryKeyConstraint("king_wen", "position", "half_year", name=op.f("pk_line_najia")),
        comment="The najia stem of every line under each half of the najia table (§4.3): the 冬至後 half is the fixed table, the 夏至後 half swaps the inner and outer stems of 乾 and 坤. A reading joins the half it uses (reading.najia_half).",
        info={"section": "core"},
        sqlite_with_rowid=False,
    )


def _drop_tables() -> None:
    op.drop_table("line_najia")
    op.drop_table("hexagram_pattern")
    op.drop_table("branch_on_day")
    op.drop_table("passage_citation")
    op.drop_table("month_spirit_branch")
    op.drop_table("month_mansion")
    op.drop_table("line_transform")
    op.drop_table("hour_spirit")
    op.drop_table("branch_in_month")
    op.drop_table("line_value")
    op.drop_table("element_relation")
    op.drop_table("moving_lines")
    op.drop_table("contract_version")


def _comments(restore: bool = False) -> None:
    """PostgreSQL stores comments (SQLite does not): the descriptions that changed."""
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column, old, new in COMMENTS_CHANGED:
        comment, existing = (old, new) if restore else (new, old)
        if column is None:
            op.create_table_comment(table, comment, existing_comment=existing)
        else:
            op.alter_column(table, column, comment=comment, existing_comment=existing)


def upgrade() -> None:
    migrating.require_foreign_keys_off(op)
    migrating.drop_views(op, migrating.previous_views(op, VIEWS, REPLACES))
    _create_tables()
    with op.batch_alter_table("reading", schema=None) as batch_op:
        for name in KEY_COLUMNS:
            batch_op.add_column(
                sa.Column(name, _KEY_TYPES[name], nullable=True, comment=_COMMENTS[name])
            )
    _backfill()
    with op.batch_alter_table("reading", schema=None) as batch_op:
        for name in ("primary_kw", "moving_mask", "najia_half"):
            batch_op.alter_column(
                name,
                existing_type=_KEY_TYPES[name],
                nullable=False,
                existing_comment=_COMMENTS[name],
            )
        batch_op.create_index(batch_op.f("ix_reading_changed_kw"), ["changed_kw"], unique=False)
        batch_op.create_index(
            "ix_reading_primary_kw_day_gz", ["primary_kw", "day_gz"], unique=False
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_reading_changed_kw_hexagram"), "hexagram", ["changed_kw"], ["king_wen"]
        )
        batch_op.create_foreign_key(
            batch_op.f("fk_reading_primary_kw_hexagram"), "hexagram", ["primary_kw"], ["king_wen"]
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_reading_moving_mask_range"), "moving_mask BETWEEN 0 AND 63"
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_reading_najia_half_domain"), "najia_half IN ('冬至後', '夏至後')"
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_reading_changed_iff_moving"), "(changed_kw IS NULL) = (moving_mask = 0)"
        )
    _comments()
    migrating.create_views(op, VIEWS)


def downgrade() -> None:
    migrating.require_foreign_keys_off(op)
    migrating.drop_views(op, VIEWS)
    with op.batch_alter_table("reading", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_reading_changed_iff_moving"), type_="check")
        batch_op.drop_constraint(batch_op.f("ck_reading_najia_half_domain"), type_="check")
        batch_op.drop_constraint(batch_op.f("ck_reading_moving_mask_range"), type_="check")
        batch_op.drop_constraint(batch_op.f("fk_reading_primary_kw_hexagram"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("fk_reading_changed_kw_hexagram"), type_="foreignkey")
        batch_op.drop_index("ix_reading_primary_kw_day_gz")
        batch_op.drop_index(batch_op.f("ix_reading_changed_kw"))
        for name in reversed(KEY_COLUMNS):
            batch_op.drop_column(name)
    _drop_tables()
    _comments(restore=True)
    migrating.create_views(op, migrating.previous_views(op, VIEWS, REPLACES))
