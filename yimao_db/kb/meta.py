"""The database documents itself: the rows of ``meta_table``, ``meta_column`` and
``passage_citation``, collected from the schema and the views' contracts, and the checks of
those rows.

Tables are described by the schema: each table's comment is its description, each column's
``comment`` its description, and the domain is read from the CHECK constraints (``one_of``,
``between``, ``boolean``, ``bits``) and foreign keys. Views are described by their contract
in :mod:`yimao_db.kb.views`. No database is needed to collect the rows (the seed does it);
``tests/test_docs.py`` compares them with the columns of the live database, so a view or
column added without a description fails the tests.

A row's ``passage`` is the first ``§chapter.passage`` its description cites that exists in
``source_passage`` (numbered as in ``seed/data/passages.tsv``). Rendering these rows
(``docs/schema.md``, datasette's metadata) is :mod:`yimao_db.present.schema_doc`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import CheckConstraint, Column, Connection, Integer, MetaData, String, Table, text

from yimao_db.kb.facts import read_tsv
from yimao_db.kb.schema import metadata as schema_metadata
from yimao_db.kb.schema.meta import SECTIONS
from yimao_db.kb.views import views

Row = dict[str, Any]


@dataclass(frozen=True)
class Doc:
    """A hand-written description of a view (or of a table that has no model)."""

    section: str
    description: str
    columns: tuple[tuple[str, str, str | None], ...]  # name, description, domain
    kind: str = "view"


def _c(name: str, description: str, domain: str | None = None) -> tuple[str, str, str | None]:
    return (name, description, domain)


# tables that exist in the database without a model
EXTRA_TABLE_DOCS: dict[str, Doc] = {
    "alembic_version": Doc(
        "system",
        "The schema revision the database is at, kept by alembic; `yimao build` upgrades it.",
        (_c("version_num", "The revision id, e.g. 0004", "text ≤ 32"),),
        kind="table",
    ),
}

# --- domains ------------------------------------------------------------------------------

_IN = re.compile(r"^\s*(\w+)\s+IN\s*\((.*)\)\s*$", re.S)
_BETWEEN = re.compile(r"^\s*(\w+)\s+BETWEEN\s+(-?\d+)\s+AND\s+(-?\d+)\s*$")
_BITS = re.compile(r"^\s*length\((\w+)\)\s*=\s*(\d+)\s+AND\s+replace")
_VALUE = re.compile(r"'((?:[^']|'')*)'|(-?\d+)")
_CITE = re.compile(r"§(\d+)\.(\d+)")


@cache
def _check_domains(table: Table) -> Mapping[str, str]:
    """Column -> domain from the table's simple CHECK constraints (read once per table)."""
    found: dict[str, str] = {}
    for constraint in table.constraints:
        if not isinstance(constraint, CheckConstraint):
            continue
        sql = str(constraint.sqltext)
        if m := _IN.match(sql):
            values = [a.replace("''", "'") if a or not b else b for a, b in _VALUE.findall(m[2])]
            found[m[1]] = "/".join(values)
        elif m := _BETWEEN.match(sql):
            found[m[1]] = f"{m[2]}..{m[3]}"
        elif m := _BITS.match(sql):
            found[m[1]] = f"{m[2]} characters 0/1"
    return found


def _type_domain(column: Column[Any]) -> str:
    if isinstance(column.type, String) and column.type.length:
        return f"text ≤ {column.type.length}"
    if isinstance(column.type, Integer):
        return "integer"
    return "text"


def column_domain(table: Table, column: Column[Any]) -> str:
    """The values ``column`` takes: CHECK domain and/or FK target, else its type."""
    parts = []
    check = _check_domains(table).get(column.name)
    if check:
        parts.append(check)
    parts += sorted(f"FK {fk.target_fullname}" for fk in column.foreign_keys)
    domain = "; ".join(parts) or _type_domain(column)
    return f"{domain} or NULL" if column.nullable and not column.primary_key else domain


def first_passage(description: str, passages: Iterable[str]) -> str | None:
    """The first ``§c.p`` cited in ``description`` that is a known passage id."""
    known = set(passages)
    for m in _CITE.finditer(description):
        cited = f"{m[1]}.{m[2]}"
        if cited in known:
            return cited
    return None


def _flat(text_: str | None) -> str:
    return " ".join((text_ or "").split())


# --- the rows -----------------------------------------------------------------------------


def _section(table: Table) -> str:
    return str(table.info["section"])


def sort_key(row: Mapping[str, Any]) -> tuple[int, int, str]:
    """Order of tables in the documentation: by section, tables before views, by name."""
    return (SECTIONS.index(row["section"]), row["kind"] == "view", row["name"])


def meta_rows(passages: Iterable[str], md: MetaData | None = None) -> dict[str, list[Row]]:
    """Rows of ``meta_table`` and ``meta_column`` for every table and view (no database)."""
    md = schema_metadata if md is None else md
    known = set(passages)
    tables: list[Row] = []
    columns: list[Row] = []
    for table in md.sorted_tables:
        description = _flat(table.comment)
        tables.append(
            {
                "name": str(table.name),
                "kind": "table",
                "section": _section(table),
                "description": description,
                "passage": first_passage(description, known),
            }
        )
        for ordinal, column in enumerate(table.columns, start=1):
            text_ = _flat(column.comment)
            columns.append(
                {
                    "table_name": str(table.name),
                    "column_name": str(column.name),
                    "ordinal": ordinal,
                    "description": text_,
                    "domain": column_domain(table, column),
                    "is_key": int(column.primary_key),
                    "passage": first_passage(text_, known),
                }
            )
    view_docs = {
        v.name: Doc(
            v.section, v.description, tuple((c.name, c.description, c.domain) for c in v.columns)
        )
        for v in views().values()
    }
    for name, doc in {**EXTRA_TABLE_DOCS, **view_docs}.items():
        tables.append(
            {
                "name": name,
                "kind": doc.kind,
                "section": doc.section,
                "description": doc.description,
                "passage": first_passage(doc.description, known),
            }
        )
        for ordinal, (column_name, text_, domain) in enumerate(doc.columns, start=1):
            columns.append(
                {
                    "table_name": name,
                    "column_name": column_name,
                    "ordinal": ordinal,
                    "description": text_,
                    "domain": domain,
                    "is_key": 1 if doc.kind == "table" else 0,
                    "passage": first_passage(text_, known),
                }
            )
    tables.sort(key=sort_key)
    return {"meta_table": tables, "meta_column": columns}


def seed_passages() -> list[str]:
    """The passage ids of ``seed/data/passages.tsv``."""
    return [f"{r['chapter_no']}.{r['passage_no']}" for r in read_tsv("passages")]


def problems(tables: Sequence[Row], columns: Sequence[Row]) -> list[str]:
    """What is wrong with documentation rows: empty descriptions, duplicates, bad order."""
    found: list[str] = []
    names = [t["name"] for t in tables]
    found += [f"{n}: documented twice" for n in sorted({n for n in names if names.count(n) > 1})]
    for t in tables:
        if not t["description"]:
            found.append(f"{t['name']}: no description")
    by_table: dict[str, list[Row]] = {}
    for c in columns:
        by_table.setdefault(c["table_name"], []).append(c)
        if not c["description"]:
            found.append(f"{c['table_name']}.{c['column_name']}: no description")
    for name in names:
        cols = by_table.get(name, [])
        if not cols:
            found.append(f"{name}: no columns documented")
        if sorted(c["ordinal"] for c in cols) != list(range(1, len(cols) + 1)):
            found.append(f"{name}: column ordinals are not 1..{len(cols)}")
    found += [f"{n}: columns of an undocumented table" for n in sorted(set(by_table) - set(names))]
    return found


# --- reading the documentation back from a database ---------------------------------------


def read_meta(conn: Connection) -> tuple[list[Row], list[Row]]:
    """The ``meta_table`` and ``meta_column`` rows of a database, in documentation order."""
    tables = [dict(r) for r in conn.execute(text("SELECT * FROM meta_table")).mappings()]
    tables.sort(key=sort_key)
    columns = [
        dict(r)
        for r in conn.execute(
            text("SELECT * FROM meta_column ORDER BY table_name, ordinal")
        ).mappings()
    ]
    return tables, columns


# --- generated documents ------------------------------------------------------------------


def row_key(table: Table, row: Mapping[str, Any]) -> str:
    """How ``passage_citation.row_key`` names ``row`` of ``table``: its primary key's
    values joined by ``|`` in key order."""
    return "|".join([str(row[n]) for n in _key_names(table)])


@cache
def _key_names(table: Table) -> tuple[str, ...]:
    """The names of ``table``'s primary key columns (SQLAlchemy builds the list at each
    reading: a third of the time of the twelve thousand row keys of a build)."""
    return tuple(c.name for c in table.primary_key.columns)


def cited_rows(tables: Mapping[str, list[Row]], md: MetaData | None = None) -> list[Row]:
    """The rows of ``passage_citation``: every row of ``tables`` (seeded rows by table) whose
    table has a passage column (in ``md``, default the schema) and that cites a passage,
    keyed by its primary key."""
    md = schema_metadata if md is None else md
    out: list[Row] = []
    for table in sorted(md.tables.values(), key=lambda t: t.name):
        if "passage" not in table.c or table.name == "passage_citation":
            continue
        out.extend(
            {
                "table_name": str(table.name),
                "row_key": row_key(table, row),
                "passage": row["passage"],
                "basis": row.get("basis"),
            }
            for row in tables.get(table.name, [])
            if row.get("passage") is not None
        )
    return out
