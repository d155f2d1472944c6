"""The declarative base: a naming convention so every constraint has a stable name."""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, MetaData, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def fk(target: str, *, deferred: bool = False) -> ForeignKey:
    """A foreign key; ``deferred`` for self-references checked at commit."""
    if deferred:
        return ForeignKey(target, deferrable=True, initially="DEFERRED")
    return ForeignKey(target)


def one_of(
    column: str, values: tuple[str, ...] | list[str], name: str | None = None
) -> CheckConstraint:
    """CHECK that ``column`` holds one of ``values`` (SQLite does not enforce Enum)."""
    quoted = ", ".join("'" + v.replace("'", "''") + "'" for v in values)
    return CheckConstraint(f"{column} IN ({quoted})", name=name or f"{column}_domain")


def between(column: str, low: int, high: int, name: str | None = None) -> CheckConstraint:
    """CHECK that ``column`` lies in ``low..high``."""
    return CheckConstraint(f"{column} BETWEEN {low} AND {high}", name=name or f"{column}_range")


def boolean(column: str) -> CheckConstraint:
    """CHECK that ``column`` is 0 or 1."""
    return CheckConstraint(f"{column} IN (0, 1)", name=f"{column}_bool")


def bits(column: str, length: int) -> CheckConstraint:
    """CHECK that ``column`` is a string of ``length`` characters, each 0 or 1."""
    return CheckConstraint(
        f"length({column}) = {length} AND replace(replace({column}, '0', ''), '1', '') = ''",
        name=f"{column}_bits",
    )


BASIS = ("book", "standard", "decision")


class Cited:
    """Mixin for rule and symbol rows: the passage they come from, or the basis they rest on.

    ``passage`` is a ``source_passage`` id like ``'8.11'``; rules the spec calls standard
    record ``basis = 'standard'`` and may have no passage.
    """

    passage: Mapped[str | None] = mapped_column(
        String(8), ForeignKey("source_passage.id"), comment="Source passage §chapter.passage"
    )
    basis: Mapped[str] = mapped_column(
        String(8),
        comment="book: stated by the cited passage; standard: standard 京房 practice the book "
        "presupposes; decision: a spec Decision",
    )


def cited(*constraints: CheckConstraint | UniqueConstraint) -> tuple[object, ...]:
    """``__table_args__`` for a cited table: its own constraints plus the basis checks."""
    return (
        *constraints,
        one_of("basis", BASIS),
        CheckConstraint("basis <> 'book' OR passage IS NOT NULL", name="book_cites"),
    )


def name_pk(comment: str) -> Mapped[str]:
    """A vocabulary's natural key: its canonical name."""
    return mapped_column(String(8), primary_key=True, comment=comment)
