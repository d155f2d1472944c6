"""The one generic loader: run the seed scripts, check them, and sync their rows into the tables.

Seed scripts are ``seed/sNN_*.py`` modules, run in name order. Each defines
``rows(done) -> {table: [row, ...]}`` (``done`` holds the rows of the scripts before it) and
may define ``checks(tables) -> [message, ...]`` returning the messages of its failing self-checks.
The loader refuses to write anything if a check fails. Syncing compares each table with
the computed rows by primary key and inserts, updates or deletes only what differs, so a
second build changes nothing and readings that reference the tables are never disturbed.
After syncing, the SQL invariants of :mod:`yimao_db.kb.invariants` must return no rows.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from types import ModuleType
from typing import Any, cast

from sqlalchemy import Connection, Index, Integer, Table, UniqueConstraint, and_

from yimao_db import dialect
from yimao_db.errors import SeedCheckFailed
from yimao_db.kb.schema import metadata
from yimao_db.paths import seed_dir

Tables = dict[str, list[dict[str, Any]]]


@cache
def seed_scripts() -> tuple[ModuleType, ...]:
    """The seed scripts in run order."""
    modules = []
    for path in sorted(seed_dir().glob("s[0-9][0-9]_*.py")):
        module_spec = importlib.util.spec_from_file_location(f"yimao_seed_{path.stem}", path)
        assert module_spec is not None and module_spec.loader is not None
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        modules.append(module)
    return tuple(modules)


def computed_rows() -> Tables:
    """Every seeded table's rows as the seed scripts derive them, before their self-checks."""
    tables: Tables = {}
    for script in seed_scripts():
        tables.update(script.rows(tables))
    return tables


def compute_tables() -> Tables:
    """Every seeded table's rows, derived afresh; raises SeedCheckFailed if a self-check fails."""
    tables = computed_rows()
    failures = [
        msg
        for script in seed_scripts()
        if hasattr(script, "checks")
        for msg in script.checks(tables)
    ]
    if failures:
        raise SeedCheckFailed("seed self-check failed:\n  " + "\n  ".join(failures))
    unknown = set(tables) - set(metadata.tables)
    if unknown:
        raise SeedCheckFailed(f"seed produced rows for unknown tables: {sorted(unknown)}")
    return tables


@dataclass
class SyncReport:
    inserted: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)

    @property
    def changed(self) -> int:
        return sum(self.inserted.values()) + sum(self.updated.values()) + sum(self.deleted.values())

    @property
    def changed_tables(self) -> set[str]:
        """The tables with a row inserted, updated or deleted."""
        return {t for d in (self.inserted, self.updated, self.deleted) for t, n in d.items() if n}


def seeded_tables(tables: Mapping[str, object]) -> Iterator[Table]:
    """The seeded tables in foreign-key dependency order."""
    return (t for t in _sorted_tables() if t.name in tables)


@cache
def _sorted_tables() -> tuple[Table, ...]:
    """The models' tables in foreign-key dependency order, sorted once (SQLAlchemy sorts
    them again at each ``metadata.sorted_tables``)."""
    return tuple(metadata.sorted_tables)


def _tuple_of(keys: Sequence[Any]) -> Callable[[Any], tuple[Any, ...]]:
    """The function giving a row's values at ``keys`` (column names of a dict, positions of
    a tuple) as a tuple."""
    if len(keys) == 1:
        one = keys[0]
        return lambda row: (row[one],)
    return cast(Callable[[Any], tuple[Any, ...]], itemgetter(*keys))


@cache
def _referenced() -> frozenset[str]:
    """The tables some foreign key points to."""
    return frozenset(
        fk.column.table.name for t in metadata.tables.values() for fk in t.foreign_keys
    )


def sync(conn: Connection, tables: Tables) -> SyncReport:
    """Make the database's seeded tables equal ``tables``, touching only what differs.

    Only the columns the rows give are read and written (a database at an older revision
    is seeded with rows cut down to its columns). Rows are inserted and updated parents
    first and deleted children last, so that no foreign key is ever left dangling. No two
    rows ever hold one unique value on the way, though today's rules may give a value to
    another row than the one holding it (an ordinal, when a row is added, removed or renamed
    in the middle): a table no foreign key points to deletes its stale and changed rows
    before it inserts the changed and new ones; a table some foreign key points to first
    parks the unique integer columns of its changed and stale rows (:func:`_park`).
    """
    report = SyncReport()
    ordered = list(seeded_tables(tables))
    referenced = _referenced()
    stale: dict[str, list[tuple[Any, ...]]] = {}
    for table in ordered:
        rows = tables[table.name]
        # the columns the rows give (a database at an older revision lacks some), compared
        # as plain tuples: a row is changed when any of those values differs
        names = [c.name for c in table.columns if not rows or c.name in rows[0]]
        pk = [c.name for c in table.primary_key.columns]
        row_key, values = _tuple_of(pk), _tuple_of(names)
        wanted = {row_key(r): r for r in rows}
        key = _tuple_of([names.index(n) for n in pk])
        current = {key(t): t for t in map(tuple, current_rows(conn, table, names))}
        gone = sorted(current.keys() - wanted.keys())
        # in the order the seed gives them (its primary key's, for the eighty thousand stays
        # of lodge_ingress: SQLite inserts them in half the time of a set's order)
        new = [r for k, r in wanted.items() if k not in current]
        changed_keys = [
            k for k, r in wanted.items() if (t := current.get(k)) is not None and t != values(r)
        ]
        changed = [wanted[k] for k in changed_keys]
        early = table.name not in referenced
        if early:  # nothing points here: the changed rows are written again with the new
            _delete(conn, table, gone + changed_keys)
            written = new + changed
        else:
            _park(conn, table, names, current, gone + changed_keys, wanted)
            for row in changed:
                conn.execute(table.update().where(_match(table, row)).values(row))
            written = new
        if written:
            _insert(conn, table, written)
        stale[table.name] = [] if early else gone
        report.inserted[table.name] = len(new)
        report.updated[table.name] = len(changed)
        report.deleted[table.name] = len(gone)
        report.rows[table.name] = len(wanted)
    for table in reversed(ordered):
        _delete(conn, table, stale[table.name])
    return report


def _parkable(table: Table) -> list[str]:
    """The integer columns of ``table``'s unique constraints and indexes (its ordinals)."""
    unique = [
        c
        for u in (*table.constraints, *table.indexes)
        if isinstance(u, UniqueConstraint) or (isinstance(u, Index) and u.unique)
        for c in u.columns
    ]
    return sorted({c.name for c in unique if isinstance(c.type, Integer)})


def _park(
    conn: Connection,
    table: Table,
    present: Sequence[str],
    current_values: Mapping[tuple[Any, ...], tuple[Any, ...]],
    moving: Sequence[tuple[Any, ...]],
    wanted: Mapping[tuple[Any, ...], Mapping[str, Any]],
) -> None:
    """Before a table some foreign key points to is written: move each row of ``moving``
    (its changed and stale rows) that holds a unique integer value (of the columns
    ``present``) which ``wanted`` gives to another row past every value in use, each such
    row to values of its own.

    Such a table keeps its rows and updates them in place, and deletes its stale rows only
    after the rows pointing at them. Today's rules may give an ordinal to another row than
    the one holding it — a sign added, removed or renamed in the middle moves the ordinals
    after it — and the update or insert would collide; the parked rows leave every value
    free for the row that is to hold it."""
    names = [n for n in _parkable(table) if n in present]
    if not names or not moving:
        return
    current = {k: dict(zip(present, t, strict=True)) for k, t in current_values.items()}
    taker = {(n, row.get(n)): k for k, row in wanted.items() for n in names}
    parked = [
        k
        for k in moving
        if any(
            taker.get((n, current[k].get(n)), k) != k
            for n in names
            if current[k].get(n) is not None
        )
    ]
    used = [*current.values(), *wanted.values()]
    top = {n: max((r[n] for r in used if isinstance(r.get(n), int)), default=0) for n in names}
    pk = [c.name for c in table.primary_key.columns]
    for i, k in enumerate(parked, 1):
        where = _match(table, dict(zip(pk, k, strict=True)))
        conn.execute(table.update().where(where).values({n: top[n] + i for n in names}))


def current_rows(conn: Connection, table: Table, names: Sequence[str]) -> list[Any]:
    """The table's current rows, those columns, as the driver gives them (the types of the
    seeded columns convert nothing: see :func:`_insert`): the driver's own tuples, fetched
    in one call (SQLAlchemy's rows took longer than comparing them, for the eighty thousand
    of ``lodge_ingress``). When the driver fails to fetch them (text that is not UTF-8 in a
    damaged file), they are read again through SQLAlchemy, whose error handling names the
    damaged file to the command line."""
    quote = conn.dialect.identifier_preparer.quote
    columns = ", ".join(quote(n) for n in names)
    sql = f"SELECT {columns} FROM {quote(table.name)}"
    result = conn.exec_driver_sql(sql)
    try:
        return list(result.cursor.fetchall())
    except conn.dialect.loaded_dbapi.Error:
        pass
    finally:
        result.close()
    return list(conn.exec_driver_sql(sql))  # the driver's error again, as SQLAlchemy raises it


COPY_ROWS = 1000  # PostgreSQL: a table of at least this many new rows is COPYed


def _insert(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """INSERT ``rows`` (dicts with the same keys). When no column's type converts its
    values, the driver takes plain tuples: on SQLite its ``executemany`` (SQLAlchemy's
    per-row parameter processing was a third of a build), on PostgreSQL ``COPY`` for a
    thousand rows or more (``lodge_ingress``'s eighty thousand took seconds as INSERTs)."""
    names = list(rows[0])
    plain = not any(table.c[n].type.bind_processor(conn.dialect) for n in names)
    backend = conn.dialect.name
    if not plain or (backend != "sqlite" and (backend != "postgresql" or len(rows) < COPY_ROWS)):
        conn.execute(table.insert(), rows)
        return
    pick = itemgetter(*names)
    values = [pick(r) for r in rows] if len(names) > 1 else [(r[names[0]],) for r in rows]
    if backend == "postgresql":
        dialect.pg_copy(conn, table.name, names, values)
    else:
        conn.exec_driver_sql(dialect.insert_sql(conn, table.name, names), values)


def _delete(conn: Connection, table: Table, keys: list[tuple[Any, ...]]) -> None:
    for key in keys:
        row = dict(zip([c.name for c in table.primary_key.columns], key, strict=True))
        conn.execute(table.delete().where(_match(table, row)))


def _match(table: Table, row: Mapping[str, Any]) -> Any:
    return and_(*(c == row[c.name] for c in table.primary_key.columns))
