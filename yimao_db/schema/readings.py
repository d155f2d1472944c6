"""Readings (issue 3): only what was cast and when. Every derived fact comes from the views."""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from yimao_db.schema.base import Base, between, boolean, fk, one_of
from yimao_db.schema.core import HALF_YEARS

MAX_ID = 2**63 - 1  # the largest reading id SQLite and PostgreSQL can hold
METHODS = ("values", "coins", "notation", "hexagram", "random")
NAJIA_VARIANTS = ("fixed", "seasonal")


class Reading(Base):
    __tablename__ = "reading"
    __table_args__ = (
        one_of("method", METHODS),
        one_of("najia_variant", NAJIA_VARIANTS),
        one_of("half_year", HALF_YEARS),
        boolean("early_rat"),
    )
    __doc__ = (
        "A cast: the question, how it was cast, and the moment (as given or as computed by the "
        "calendar). The chart is assembled from the reference tables by v_reading."
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, comment="Reading id")
    created_at: Mapped[str] = mapped_column(
        String(32), comment="When the reading was stored, UTC ISO 8601"
    )
    question: Mapped[str | None] = mapped_column(Text, comment="The question, verbatim")
    method: Mapped[str] = mapped_column(
        String(16), comment="values, coins, notation (乾之姤), hexagram (+ moving lines) or random"
    )
    cast_input: Mapped[str | None] = mapped_column(
        Text, comment="What was typed to cast it (NULL for random)"
    )
    cast_at: Mapped[str | None] = mapped_column(
        String(40), comment="The moment as local civil time with offset, ISO 8601"
    )
    tz: Mapped[str | None] = mapped_column(String(64), comment="IANA time zone of cast_at")
    year_gz: Mapped[str | None] = mapped_column(String(2), fk("ganzhi.name"), comment="Year pillar")
    month_gz: Mapped[str | None] = mapped_column(
        String(2), fk("ganzhi.name"), comment="Month pillar"
    )
    month_branch: Mapped[str] = mapped_column(
        String(1), fk("branch.name"), comment="月建, the month's branch"
    )
    day_gz: Mapped[str] = mapped_column(String(2), fk("ganzhi.name"), comment="Day pillar")
    hour_gz: Mapped[str | None] = mapped_column(String(2), fk("ganzhi.name"), comment="Hour pillar")
    solar_term: Mapped[str | None] = mapped_column(
        String(4), comment="The solar term in force at cast_at"
    )
    half_year: Mapped[str | None] = mapped_column(
        String(4), comment="冬至後 or 夏至後 at cast_at (§4.3, §12)"
    )
    early_rat: Mapped[int] = mapped_column(
        comment="1 if 23:00–24:00 counted as the next day (早子時, §12)"
    )
    najia_variant: Mapped[str] = mapped_column(
        String(8), comment="fixed (default) or seasonal 二老時遷 (§4.3)"
    )


class ReadingLine(Base):
    __tablename__ = "reading_line"
    __table_args__ = (
        between("position", 1, 6),
        between("value", 6, 9),
        CheckConstraint("coins IS NULL OR coins = value - 6", name="coins_value"),
    )
    __doc__ = "The six cast lines of a reading: value 6..9 and, when thrown, the coins (§2)."

    reading_id: Mapped[int] = mapped_column(
        ForeignKey("reading.id", ondelete="CASCADE"), primary_key=True, comment="The reading"
    )
    position: Mapped[int] = mapped_column(primary_key=True, comment="Line 1..6 from the bottom")
    value: Mapped[int] = mapped_column(
        comment="6 old yin (moving), 7 young yang, 8 young yin, 9 old yang (moving)"
    )
    coins: Mapped[int | None] = mapped_column(
        comment="Number of backs among the three coins (value = 6 + backs), when thrown"
    )
