"""The one MetaData and the helpers every schema module declares its tables with.

Tables are SQLAlchemy Core ``Table`` objects (no ORM: reading and writing go through Core,
and declaring tables this way costs a fraction of mapping classes). A naming convention
gives every constraint a stable name. Each table's description is its ``comment``; each
column carries one too. ``info["section"]`` says which part of the documentation a table
belongs to.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    MetaData,
    String,
    Table,
)
from sqlalchemy.schema import SchemaItem

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

BASIS = ("book", "standard", "decision")


def table(
    name: str,
    doc: str,
    *items: SchemaItem,
    section: str,
    cited: bool = False,
    sqlite_with_rowid: bool = True,
) -> Table:
    """Declare table ``name`` on the one MetaData; ``doc`` is its description.

    A ``cited`` table's rows say where they come from: a ``passage`` (a ``source_passage``
    id like ``'8.11'``) and a ``basis`` (book, standard or decision); a row whose basis is
    the book must cite a passage. ``sqlite_with_rowid=False`` stores a table keyed by a
    composite natural key as a WITHOUT ROWID table on SQLite: a join on the key reads one
    b-tree instead of an index and then the table (rule tables a chart joins per line).
    """
    if cited:
        items = (
            *items,
            Column(
                "passage",
                String(8),
                ForeignKey("source_passage.id"),
                comment="Source passage §chapter.passage",
            ),
            Column(
                "basis",
                String(8),
                nullable=False,
                comment="book: stated by the cited passage; standard: standard 京房 practice the "
                "book presupposes; decision: a choice made where the book is silent "
                "(docs/rules.md)",
            ),
            one_of("basis", BASIS),
            CheckConstraint("basis <> 'book' OR passage IS NOT NULL", name="book_cites"),
        )
    extra: dict[str, Any] = {} if sqlite_with_rowid else {"sqlite_with_rowid": False}
    return Table(
        name, metadata, *items, comment=" ".join(doc.split()), info={"section": section}, **extra
    )


def col(name: str, type_: Any, *args: Any, nullable: bool = False, **kw: Any) -> Column[Any]:
    """A column, NOT NULL unless ``nullable=True`` (a primary key column never is)."""
    return Column(name, type_, *args, nullable=nullable and not kw.get("primary_key"), **kw)


def fk(target: str, *, deferred: bool = False) -> ForeignKey:
    """A foreign key; ``deferred`` for self-references checked at commit."""
    if deferred:
        return ForeignKey(target, deferrable=True, initially="DEFERRED")
    return ForeignKey(target)


def name_pk(name: str, comment: str) -> Column[Any]:
    """A vocabulary's natural key: its canonical name."""
    return col(name, String(8), primary_key=True, comment=comment)


def key(name: str, target: str, comment: str, length: int = 1) -> Column[Any]:
    """A primary-key column that is also a foreign key."""
    return col(name, String(length), fk(target), primary_key=True, comment=comment)


def ref(name: str, target: str, comment: str, length: int = 1) -> Column[Any]:
    """A non-null foreign-key column."""
    return col(name, String(length), fk(target), comment=comment)


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
