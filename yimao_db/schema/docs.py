"""Documentation inside the database (issue 4): every table, view and column described.

The rows are built by :mod:`yimao_db.docs` (tables from the models' docstrings and column
comments, views from a hand-written dictionary) and seeded by ``seed/s95_docs.py``; SQLite
drops comments, so these tables are where its users find them. ``yimao schema`` prints them,
``docs/schema.md`` and ``yimao export-metadata`` are generated from them.
"""

from __future__ import annotations

from sqlalchemy import String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from yimao_db.schema.base import Base, boolean, fk, one_of

KINDS = ("table", "view")
SECTIONS = ("sources", "core", "rules", "symbols", "readings", "docs", "system")


class MetaTable(Base):
    __tablename__ = "meta_table"
    __table_args__ = (one_of("kind", KINDS), one_of("section", SECTIONS))
    __doc__ = (
        "One row per table and view of the database: what it holds and the passage it rests "
        "on. Generated from the schema; ``yimao schema`` prints it."
    )

    name: Mapped[str] = mapped_column(String(40), primary_key=True, comment="Table or view name")
    kind: Mapped[str] = mapped_column(String(8), comment="table or view")
    section: Mapped[str] = mapped_column(
        String(16),
        comment="Where it belongs: sources, core, rules, symbols, readings, docs or system",
    )
    description: Mapped[str] = mapped_column(Text, comment="What it holds, in a few sentences")
    passage: Mapped[str | None] = mapped_column(
        String(8),
        fk("source_passage.id"),
        comment="The first passage its description cites (§chapter.passage); none if it cites none",
    )


class MetaColumn(Base):
    __tablename__ = "meta_column"
    __table_args__ = (UniqueConstraint("table_name", "ordinal"), boolean("is_key"))
    __doc__ = (
        "One row per column of every table and view: its meaning, its domain (from the CHECK "
        "constraints and foreign keys) and the passage it comes from."
    )

    table_name: Mapped[str] = mapped_column(
        String(40), fk("meta_table.name"), primary_key=True, comment="The table or view"
    )
    column_name: Mapped[str] = mapped_column(
        String(40), primary_key=True, comment="The column's name"
    )
    ordinal: Mapped[int] = mapped_column(comment="Its position in the table or view, from 1")
    description: Mapped[str] = mapped_column(Text, comment="What the column means")
    domain: Mapped[str | None] = mapped_column(
        String(200),
        comment="The values it takes, e.g. 1..6, 0/1, 旺/相/休/囚/死, FK branch.name, text ≤ 8; "
        "'or NULL' when it may be empty; none for a view column without a stated domain",
    )
    is_key: Mapped[int] = mapped_column(comment="1 if part of the table's primary key, else 0")
    passage: Mapped[str | None] = mapped_column(
        String(8),
        fk("source_passage.id"),
        comment="The first passage its description cites, if any",
    )
