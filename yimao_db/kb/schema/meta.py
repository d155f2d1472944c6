"""Documentation inside the database: every table, view and column described.

The rows are built by :mod:`yimao_db.kb.meta` (tables from the models' docstrings and column
comments, views from a hand-written dictionary) and seeded by ``seed/s95_docs.py``; SQLite
drops comments, so these tables are where its users find them. ``yimao schema`` prints them,
``docs/schema.md`` and ``yimao export-metadata`` are generated from them.
"""

from __future__ import annotations

from sqlalchemy import Integer, String, Text, UniqueConstraint

from yimao_db.kb.schema.base import boolean, col, fk, one_of, table

SECTION = "docs"

KINDS = ("table", "view")
SECTIONS = ("sources", "core", "rules", "symbols", "readings", "docs", "system")


meta_table = table(
    "meta_table",
    "One row per table and view of the database: what it holds and the passage it rests "
    "on. Generated from the schema; ``yimao schema`` prints it.",
    col("name", String(40), primary_key=True, comment="Table or view name"),
    col("kind", String(8), comment="table or view"),
    col(
        "section",
        String(16),
        comment="Where it belongs: sources, core, rules, symbols, readings, docs or system",
    ),
    col("description", Text, comment="What it holds, in a few sentences"),
    col(
        "passage",
        String(8),
        fk("source_passage.id"),
        nullable=True,
        comment="The first passage its description cites (§chapter.passage); none if it cites none",
    ),
    one_of("kind", KINDS),
    one_of("section", SECTIONS),
    section=SECTION,
)


meta_column = table(
    "meta_column",
    "One row per column of every table and view: its meaning, its domain (from the CHECK "
    "constraints and foreign keys) and the passage it comes from.",
    col(
        "table_name",
        String(40),
        fk("meta_table.name"),
        primary_key=True,
        comment="The table or view",
    ),
    col("column_name", String(40), primary_key=True, comment="The column's name"),
    col("ordinal", Integer, comment="Its position in the table or view, from 1"),
    col("description", Text, comment="What the column means"),
    col(
        "domain",
        String(200),
        nullable=True,
        comment="The values it takes, e.g. 1..6, 0/1, 旺/相/休/囚/死, FK branch.name, text ≤ 8; "
        "'or NULL' when it may be empty; none for a view column without a stated domain",
    ),
    col("is_key", Integer, comment="1 if part of the table's primary key, else 0"),
    col(
        "passage",
        String(8),
        fk("source_passage.id"),
        nullable=True,
        comment="The first passage its description cites, if any",
    ),
    UniqueConstraint("table_name", "ordinal"),
    boolean("is_key"),
    section=SECTION,
)


passage_citation = table(
    "passage_citation",
    "Every row that cites a passage, from every table with a passage column: the seed "
    "collects them from the schema, so a new cited table is listed without further work. "
    "v_passage_citation joins it with source_passage.",
    col(
        "table_name",
        String(40),
        fk("meta_table.name"),
        primary_key=True,
        comment="The table holding the citing row",
    ),
    col(
        "row_key",
        String(120),
        primary_key=True,
        comment="The citing row's primary key, its columns joined by '|' in key order",
    ),
    col("passage", String(8), fk("source_passage.id"), comment="The passage it cites"),
    col(
        "basis",
        String(8),
        nullable=True,
        comment="The row's basis (book, standard, decision); NULL for documentation rows",
    ),
    section=SECTION,
    sqlite_with_rowid=False,
)


contract_version = table(
    "contract_version",
    "The versions of the column contract of the public views (v_ganzhi, v_hexagram, v_line, "
    "v_hidden, v_reading, v_reading_line, v_reading_hidden, v_passage_citation): an app "
    "reads the highest version to know which columns it can rely on. A version changes "
    "whenever a public view gains, loses or renames a column.",
    col("version", Integer, primary_key=True, autoincrement=False, comment="1, 2, …"),
    col("summary", Text, comment="What changed in this version, in a sentence"),
    col(
        "changes",
        Text,
        comment="The columns added and removed, per view (+column, -column); for version 1 "
        "the views it starts with",
    ),
    section=SECTION,
)
