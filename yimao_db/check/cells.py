"""``yimao check``: every cell of every table against its column as the models declare it.

SQLite evaluates CHECK and NOT NULL constraints, and converts values to a column's type,
only when a row is written by SQLite itself, and ``PRAGMA integrity_check`` re-evaluates
CHECK constraints only on a writable connection, never on the read-only one ``yimao
check`` uses. A file written by another program, with ``PRAGMA ignore_check_constraints``,
through an edited ``sqlite_master`` or byte by byte holds whatever was put there. So each
table is read once with one query that selects, by primary key (every column for a table
without one), the rows breaking any of:

* every CHECK constraint of the models (:data:`yimao_db.kb.schema.metadata`), by its name. A
  CHECK holds when its expression is true *or NULL* (SQL), so a row is reported only when
  the expression is false: ``NOT (expression)`` is true;
* NOT NULL, for every column the models declare not nullable;
* on SQLite only, the storage class and text (on PostgreSQL the server enforces types,
  lengths and encoding, and these checks would find nothing):

  - an INTEGER column holds integers: text that does not look like a number, a real with
    a fraction and a blob can each be stored in one;
  - a VARCHAR or TEXT column holds text: a blob can be stored in one, and an integer or a
    real where the declared type was changed behind SQLite's back (text affinity turns
    numbers into text on the way in);
  - VARCHAR(n) text is at most n characters: SQLite ignores n, PostgreSQL enforces it (such
    a value could not be copied there, and the models promise it);
  - text is UTF-8: SQLite does not validate what it stores, and Python cannot read it.

  Not checked as types: that integers fit the column's meaning (the CHECKs and the
  comparison with the rules do that), and affinity itself (REAL/NUMERIC columns: the
  models have none).

A table the database has without every column of the models (an older revision) is left
to the revision and schema checks. Each finding names the table, the row's primary key and
the constraint or column; at most :data:`~yimao_db.check.problems.MAX_PER_TABLE` are listed per
table and constraint, the rest counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import CheckConstraint, Column, Connection, Integer, String, Table, inspect

from yimao_db import dialect
from yimao_db.check.problems import Capped, CheckReport, format_key
from yimao_db.check.readings import COMPARED
from yimao_db.errors import shown
from yimao_db.kb.schema import metadata

# A storage class as a value of that class is called in a sentence.
STORAGE = {"integer": "an integer", "real": "a real", "text": "text", "blob": "a blob"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ONE_OF = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*) IN \(")  # CHECK (x IN (...)): one_of()


@dataclass(frozen=True)
class Rule:
    """One thing a cell must satisfy: ``broken`` is true for the rows that do not."""

    kind: str  # constraint or type
    what: str  # how the report counts them: "rows where CHECK x is false"
    broken: str  # SQL, true for a row that breaks the rule
    describe: Callable[[Mapping[Any, Any]], str]  # the detail line from the row


def _value(row: Mapping[Any, Any], column: str) -> Any:
    return row[f"v_{column}"]


def _shown(row: Mapping[Any, Any], columns: Iterable[str]) -> str:
    return " ".join(f"{c}={shown(_value(row, c))}" for c in columns)


def check_rule(table: Table, constraint: CheckConstraint) -> Rule:
    """The rows for which ``constraint``'s expression is false (not NULL)."""
    sql = str(constraint.sqltext)
    named = set(_WORD.findall(sql))
    columns = [c.name for c in table.columns if c.name in named]
    name = str(constraint.name)

    def describe(row: Mapping[Any, Any]) -> str:
        return f"CHECK {name} is false: {_shown(row, columns)} ({sql})"

    return Rule(
        "constraint",
        f"rows where CHECK {name} is false",
        f"NOT ({sql})",
        describe,
    )


def not_null_rule(column: Column[Any], backend: str) -> Rule:
    return Rule(
        "constraint",
        f"rows where NOT NULL column {column.name} is NULL",
        dialect.is_null(backend, column_sql(column)),
        lambda _row: f"NOT NULL column {column.name} is NULL",
    )


def storage_rules(column: Column[Any]) -> list[Rule]:
    """SQLite: the storage class of ``column`` and the length of VARCHAR(n) text."""
    name = column.name
    if isinstance(column.type, Integer):
        wanted = "integer"
    elif isinstance(column.type, String):
        wanted = "text"
    else:
        return []
    storage = dialect.sqlite_storage_class(column_sql(column))
    rules = [
        Rule(
            "type",
            f"rows where column {name} does not hold {STORAGE[wanted]}",
            f"{storage} NOT IN ('{wanted}', 'null')",
            lambda row: (
                f"column {name} holds {STORAGE.get(row[f't_{name}'], row[f't_{name}'])}, "
                f"expected {STORAGE[wanted]}: {shown(_value(row, name))}"
            ),
        )
    ]
    length = getattr(column.type, "length", None)
    if wanted == "text" and length is not None:
        rules.append(
            Rule(
                "type",
                f"rows where column {name} is longer than VARCHAR({length})",
                f"{storage} = 'text' AND length({column_sql(column)}) > {length}",
                lambda row: (
                    f"column {name} is {row[f'n_{name}']} characters long, longer than "
                    f"VARCHAR({length})"
                ),
            )
        )
    return rules


def utf8_rule(table: Table) -> Rule | None:
    """SQLite: the text of the table's text columns is UTF-8, one Python call per row whose
    text is not all ASCII. Left out, as checked otherwise: columns with a foreign key (the
    foreign key check holds them to a key of a checked table), columns whose CHECK holds
    them to a list of values, and the reading columns that the readings check compares
    value by value (:data:`yimao_db.check.readings.COMPARED`)."""
    listed = {
        m.group(1)
        for c in table.constraints
        if isinstance(c, CheckConstraint) and (m := _ONE_OF.match(str(c.sqltext)))
    }
    columns = [
        c
        for c in table.columns
        if isinstance(c.type, String)
        and not c.foreign_keys
        and c.name not in listed
        and (table.name, c.name) not in COMPARED
    ]
    if not columns:
        return None

    def describe(row: Mapping[Any, Any]) -> str:
        bad = [
            c.name
            for c in columns
            if isinstance(_value(row, c.name), str) and not dialect.is_utf8(_value(row, c.name))
        ]
        values = " ".join(f"{name}={shown(_value(row, name))}" for name in bad)
        are = "columns {} are" if len(bad) > 1 else "column {} is"
        return f"{are.format(', '.join(bad))} not valid UTF-8 text: {values}"

    return Rule(
        "type",
        "rows with text that is not valid UTF-8",
        dialect.sqlite_not_utf8([column_sql(c) for c in columns]),
        describe,
    )


def table_rules(table: Table, backend: str) -> list[Rule]:
    # by name: a table's constraints are a set, whose order differs from one process to the next
    checks = sorted(
        (c for c in table.constraints if isinstance(c, CheckConstraint)), key=lambda c: str(c.name)
    )
    rules = [check_rule(table, c) for c in checks]
    rules += [not_null_rule(c, backend) for c in table.columns if not c.nullable]
    if backend == dialect.SQLITE:
        for column in table.columns:
            rules += storage_rules(column)
        if (utf8 := utf8_rule(table)) is not None:
            rules.append(utf8)
    return rules


def column_sql(column: Column[Any]) -> str:
    """SQL naming ``column`` of its table, quoted (:func:`yimao_db.dialect.quote`)."""
    return f"{dialect.quote(column.table.name)}.{dialect.quote(column.name)}"


@cache
def table_check(table_name: str, backend: str) -> tuple[str, tuple[Rule, ...]]:
    """The query over one table (SQL text, made once per backend) and its rules.

    It selects the primary key, the cells the rules show and a flag per rule, for the rows
    that break at least one rule. The SQL is made from the models and literals only.
    """
    table = metadata.tables[table_name]
    rules = tuple(table_rules(table, backend))
    named = [(c.name, column_sql(c)) for c in table.columns]
    shown = [f"{sql} AS v_{name}" for name, sql in named]
    if backend == dialect.SQLITE:
        shown += [f"{dialect.sqlite_storage_class(sql)} AS t_{name}" for name, sql in named]
        shown += [f"length({sql}) AS n_{name}" for name, sql in named]
    flags = [f"CASE WHEN {rule.broken} THEN 1 ELSE 0 END AS r_{i}" for i, rule in enumerate(rules)]
    where = " OR ".join(f"({rule.broken})" for rule in rules) or "1 = 0"
    order = ", ".join(column_sql(c) for c in row_key(table))
    quoted = dialect.quote(table.name)
    sql = f"SELECT {', '.join(shown + flags)} FROM {quoted} WHERE {where} ORDER BY {order}"
    return sql, rules


def row_key(table: Table) -> list[Column[Any]]:
    """The columns that name a row of ``table`` in a finding: its primary key, or every
    column for a table without one (``reading_sign``: a sign of the whole reading has no
    line, and a key column cannot be NULL)."""
    return list(table.primary_key.columns) or list(table.columns)


def check_table(conn: Connection, table: Table, found: dict[str, Capped]) -> None:
    """One query over ``table`` (:func:`table_check`); each broken rule of each row found
    is filed under its kind."""
    sql, rules = table_check(table.name, dialect.backend(conn))
    if not rules:
        return
    pk = [c.name for c in row_key(table)]
    for row in conn.exec_driver_sql(sql).mappings():
        key = format_key(pk, [row[f"v_{c}"] for c in pk])
        for i, rule in enumerate(rules):
            if row[f"r_{i}"]:
                found[rule.kind].add(table.name, key, rule.what, rule.describe(row))


def complete_tables(conn: Connection) -> list[Table]:
    """The tables of the models that the database has with every column."""
    insp = inspect(conn)
    present = set(insp.get_table_names())
    tables = []
    for table in metadata.sorted_tables:
        if table.name not in present:
            continue
        have = {c["name"] for c in insp.get_columns(table.name)}
        if {c.name for c in table.columns} <= have:
            tables.append(table)
    return tables


def check_cells(conn: Connection, report: CheckReport) -> None:
    """Every CHECK constraint, NOT NULL and (SQLite) storage type of every table."""
    if dialect.backend(conn) == dialect.SQLITE:
        dialect.sqlite_add_functions(conn)
    found = {"constraint": Capped("constraint"), "type": Capped("type")}
    tables = complete_tables(conn)
    for table in tables:
        check_table(conn, table, found)
    for capped in found.values():
        report.problems.extend(capped.problems())
    checks = sum(1 for t in tables for c in t.constraints if isinstance(c, CheckConstraint)) + sum(
        1 for t in tables for c in t.columns if not c.nullable
    )
    what = "CHECK and NOT NULL constraints"
    if dialect.backend(conn) == dialect.SQLITE:
        what += ", column types and UTF-8"
    report.checked.append(f"{checks} {what} of {len(tables)} tables")
