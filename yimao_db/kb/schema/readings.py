"""Readings: what was cast and when, plus the keys derived from the lines at insert.

A reading stores its inputs (the six values, the moment, how it was cast) and four keys
computed from them by :mod:`yimao_db.kb.rules` when it is written, in the same transaction
(primary and changed hexagram, moving-line mask, najia half), so that reports can group
and join on them; ``yimao check`` recomputes them. Everything else a chart shows comes
from the views.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, String, Text

from yimao_db.kb.schema.base import between, boolean, col, fk, one_of, table
from yimao_db.kb.schema.rules import UTC_INSTANT
from yimao_db.kb.vocab import HALF_YEARS, NAJIA_VARIANTS

SECTION = "readings"

# The columns of reading derived from its lines at insert are yimao_db.kb.rules.keys.KEY_COLUMNS;
# the largest id is yimao_db.dialect.MAX_ID.
METHODS = ("values", "coins", "notation", "hexagram", "random")
CAST_UTC_COMMENT = (
    "The instant of cast_at on the UTC clock, YYYY-MM-DDTHH:MM:SSZ, computed at insert by "
    "the calendar: the lodges of the sun and the moon (lodge_ingress, §8.12) are looked up "
    "by it; NULL for a reading given as pillars"
)


moving_lines = table(
    "moving_lines",
    "The 64 sets of moving lines, as a bit mask (bit p-1 for line p, as reading.moving_mask) "
    "and as the line numbers a chart prints.",
    col("mask", Integer, primary_key=True, autoincrement=False, comment="0..63"),
    col("lines", String(11), comment="The moving lines joined by ',', e.g. 1,4 (empty: none)"),
    col("line_count", Integer, comment="How many lines move"),
    between("mask", 0, 63),
    between("line_count", 0, 6),
    section=SECTION,
)


reading = table(
    "reading",
    "A cast: the question, how it was cast, and the moment (as given or as computed by the "
    "calendar). The chart is assembled from the reference tables by v_reading.",
    col("id", Integer, primary_key=True, comment="Reading id"),
    col("created_at", String(32), comment="When the reading was stored, UTC ISO 8601"),
    col("question", Text, nullable=True, comment="The question, verbatim"),
    col(
        "method",
        String(16),
        comment="values, coins, notation (乾之姤), hexagram (+ moving lines) or random",
    ),
    col("cast_input", Text, nullable=True, comment="What was typed to cast it (NULL for random)"),
    col(
        "cast_at",
        String(40),
        nullable=True,
        comment="The moment as local civil time with offset, ISO 8601",
    ),
    col("tz", String(64), nullable=True, comment="IANA time zone of cast_at"),
    col("year_gz", String(2), fk("ganzhi.name"), nullable=True, comment="Year pillar"),
    col("month_gz", String(2), fk("ganzhi.name"), nullable=True, comment="Month pillar"),
    col("month_branch", String(1), fk("branch.name"), comment="月建, the month's branch"),
    col("day_gz", String(2), fk("ganzhi.name"), comment="Day pillar"),
    col("hour_gz", String(2), fk("ganzhi.name"), nullable=True, comment="Hour pillar"),
    col("solar_term", String(4), nullable=True, comment="The solar term in force at cast_at"),
    col("half_year", String(4), nullable=True, comment="冬至後 or 夏至後 at cast_at (§4.3, §12)"),
    col("early_rat", Integer, comment="1 if 23:00–24:00 counted as the next day (早子時, §12)"),
    col("najia_variant", String(8), comment="fixed (default) or seasonal 二老時遷 (§4.3)"),
    col(
        "primary_kw",
        Integer,
        fk("hexagram.king_wen"),
        comment="Key derived from the lines at insert: the primary hexagram 本卦 (7 and 9 yang)",
    ),
    col(
        "changed_kw",
        Integer,
        fk("hexagram.king_wen"),
        nullable=True,
        index=True,
        comment="Key derived from the lines at insert: the changed hexagram 變卦 (6 and 9 "
        "turned over); NULL when no line moves",
    ),
    col(
        "moving_mask",
        Integer,
        comment="Key derived from the lines at insert: the moving lines 6 and 9, bit p-1 for "
        "line p",
    ),
    col(
        "najia_half",
        String(4),
        comment="Key derived at insert: the half of the najia table the chart uses, 夏至後 "
        "only for the seasonal variant after the summer solstice (§4.3)",
    ),
    col(
        "matter",
        String(2),
        fk("matter.name"),
        nullable=True,
        comment="The kind of matter asked about (§9.5): 功名 財利 獄訟 or 憂患; NULL if not said",
    ),
    col(
        "about",
        String(8),
        fk("subject.name"),
        nullable=True,
        comment="The subject asked about (docs/use.md): its 用神 is v_reading_use; NULL if not "
        "said. Set at the cast (--about, or the matter's default subject) or later with "
        "yimao about, which records the change in reading_about_change",
    ),
    col(
        "cast_utc",
        String(20),
        nullable=True,
        comment=CAST_UTC_COMMENT,
    ),
    one_of("method", METHODS),
    one_of("najia_variant", NAJIA_VARIANTS),
    one_of("half_year", HALF_YEARS),
    boolean("early_rat"),
    between("moving_mask", 0, 63),
    one_of("najia_half", HALF_YEARS),
    # reports by hexagram, and by hexagram and day (a covering index: docs/queries.md)
    Index("ix_reading_primary_kw_day_gz", "primary_kw", "day_gz"),
    CheckConstraint("(changed_kw IS NULL) = (moving_mask = 0)", name="changed_iff_moving"),
    CheckConstraint(f"cast_utc LIKE '{UTC_INSTANT}'", name="cast_utc_utc"),
    section=SECTION,
)


reading_line = table(
    "reading_line",
    "The six cast lines of a reading: value 6..9 and, when thrown, the coins (§2).",
    col(
        "reading_id",
        Integer,
        ForeignKey("reading.id", ondelete="CASCADE"),
        primary_key=True,
        comment="The reading",
    ),
    col("position", Integer, primary_key=True, comment="Line 1..6 from the bottom"),
    col(
        "value",
        Integer,
        comment="6 old yin (moving), 7 young yang, 8 young yin, 9 old yang (moving)",
    ),
    col(
        "coins",
        Integer,
        nullable=True,
        comment="Number of backs among the three coins (value = 6 + backs), when thrown",
    ),
    between("position", 1, 6),
    between("value", 6, 9),
    CheckConstraint("coins IS NULL OR coins = value - 6", name="coins_value"),
    section=SECTION,
    sqlite_with_rowid=False,  # revision 0009: a line's lookups are one search each
)
