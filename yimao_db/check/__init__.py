"""``yimao check``: a read-only doctor for a built database.

It checks, in order:

1. on SQLite, ``PRAGMA integrity_check`` (the file's pages, b-trees and indexes) and
   ``PRAGMA foreign_key_check`` (every foreign key resolves). Damaged pages, or a file that
   is not a database, are reported in one line and end the check: nothing read from such a
   file can be trusted. Indexes that do not match their tables are reported and the checks
   go on (the tables are readable; ``REINDEX`` rebuilds them);
2. the schema revision (:func:`yimao_db.building.current_revision`): ``alembic_version`` holds
   exactly one revision, this yimao-db's head. A damaged revision table (several rows, NULL,
   a value that is not text, a view, no revision in a database that has tables) is a
   problem and the checks go on against the head schema; a revision this code does not know
   ends the check (a newer schema cannot be compared). At head (or with a damaged revision
   table) the schema matches the models (alembic autogenerate finds no difference), on
   SQLite every table, index, view and trigger has the SQL the migrations give it, and
   every view answers;
3. every cell against its column (:mod:`yimao_db.check.cells`): every CHECK constraint and
   NOT NULL of the models evaluated explicitly (SQLite skips them on a read-only
   connection), and on SQLite the storage class, VARCHAR(n) lengths and UTF-8;
4. every seeded table equals a fresh recomputation from the rules
   (:func:`yimao_db.kb.seeding.compute_tables`), row by row by primary key: missing rows, extra
   rows and differing cells, each named by table, key and column;
5. every SQL invariant of :mod:`yimao_db.kb.invariants` returns no rows;
6. the solar term instants shipped with the package (:mod:`yimao_db.calendar.term_table`)
   equal those the installed tyme4py computes, every one of them
   (:func:`yimao_db.calendar.solarterms.verify_table`, about half a second); the lodge
   table shipped with it (:mod:`yimao_db.kb.rules.lodge_table`) reads whole, its years
   following one another (:func:`yimao_db.kb.rules.lodges.table_problems`), and, when the
   astronomy library ephem is installed, every 97th ingress of the sun and of the moon is
   found again at its instant, to the second (:func:`yimao_db.calendar.lodges.verify_table`,
   about half a second); ``lodge_ingress`` equals the table like every seeded table (4.);
7. every reading against its own inputs (:mod:`yimao_db.check.readings`): six lines, the
   cast input read again, the moment recomputed by the calendar column by column (or, for
   pillars, the pillars fitting each other), and its chart;
8. every note, outcome and tag against the rules the journal's commands enforce
   (:mod:`yimao_db.check.journal`): dates and times in their forms, notes that are text,
   tags that are one clean word, no outcome dated before its reading.

Nothing is written: the database is opened with :func:`yimao_db.db.reader_engine`
(SQLite ``mode=ro`` + ``query_only``), all in one read transaction (one snapshot). Text
that is not UTF-8 is read without failing (:func:`yimao_db.dialect.sqlite_tolerant_text`)
and reported; a query that fails because the file is damaged is reported as a problem and
ends the check. :func:`check` returns the problems as data; ``yimao check`` prints them,
one line each, and exits 1 when there are any, 0 when there are none. An error that says
nothing about the file (it cannot be opened, it stays locked) is raised, not reported.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    Connection,
    Engine,
    Select,
    Table,
    bindparam,
    exists,
    inspect,
    literal_column,
    select,
    text,
)
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from yimao_db import dialect
from yimao_db.building import (
    RevisionTableError,
    current_revision,
    head_revision,
    known_revisions,
    no_revision_but_tables,
    unknown_revision,
)
from yimao_db.calendar import solarterms
from yimao_db.check.cells import check_cells
from yimao_db.check.derived import check_derived
from yimao_db.check.journal import check_journal
from yimao_db.check.problems import MAX_PER_TABLE, CheckReport, Problem, Progress, format_key
from yimao_db.check.readings import check_charts, check_readings
from yimao_db.db import reader_engine
from yimao_db.errors import shown
from yimao_db.kb import invariants, seeding
from yimao_db.kb.schema import metadata


class Damaged(Exception):
    """The file is too damaged to go on checking (raised after reporting it)."""


def _tuples(rows: Iterable[Mapping[str, Any]], names: Sequence[str]) -> list[tuple[Any, ...]]:
    """Each row's values of ``names`` as a tuple (a name the row lacks reads None)."""
    rows = list(rows)
    if len(names) == 1:
        return [(row.get(names[0]),) for row in rows]
    getter = operator.itemgetter(*names)
    try:  # the usual case, every row has every name: at C speed
        return [getter(row) for row in rows]
    except KeyError:
        return [tuple(map(row.get, names)) for row in rows]


def compare_table(
    table: Table,
    expected: Iterable[Mapping[str, Any]],
    actual: Iterable[Sequence[Any]],
    columns: Sequence[str],
) -> list[Problem]:
    """Missing, extra and differing rows of ``table``, compared by primary key.

    ``actual`` holds the database's rows as sequences of the values of ``columns`` (its
    primary key first, then the columns compared: :func:`compared_columns`).
    """
    key_cols = [c.name for c in table.primary_key.columns]
    size = len(key_cols)
    want = {row[:size]: row for row in _tuples(expected, columns)}
    have = {row[:size]: row for row in map(tuple, actual)}
    problems: list[Problem] = []
    for k in sorted(want.keys() - have.keys(), key=repr):
        problems.append(
            Problem("data", table.name, format_key(key_cols, k), "row missing (the rules give it)")
        )
    for k in sorted(have.keys() - want.keys(), key=repr):
        problems.append(
            Problem("data", table.name, format_key(key_cols, k), "extra row (the rules give none)")
        )
    differing = [
        (k, i)
        for k in want.keys() & have.keys()
        if want[k] != have[k]
        for i in range(size, len(columns))
        if want[k][i] != have[k][i]
    ]
    for k, i in sorted(differing, key=repr):
        problems.append(
            Problem(
                "data",
                table.name,
                format_key(key_cols, k),
                f"column {columns[i]} is {shown(have[k][i])}, the rules give {shown(want[k][i])}",
            )
        )
    if len(problems) > MAX_PER_TABLE:
        more = len(problems) - MAX_PER_TABLE
        problems = [
            *problems[:MAX_PER_TABLE],
            Problem("data", table.name, None, f"… and {more} more differences"),
        ]
    return problems


def compared_columns(
    table: Table, rows: Iterable[Mapping[str, Any]], present: Iterable[str]
) -> list[str]:
    """The columns :func:`compare_table` compares: the primary key, then the columns of
    ``present`` (the database has them) that the recomputed ``rows`` give, in first-seen
    order."""
    key_cols = [c.name for c in table.primary_key.columns]
    given: dict[str, None] = {}
    for shape in dict.fromkeys(tuple(row) for row in rows):
        given.update(dict.fromkeys(shape))
    there = set(present)
    return [*key_cols, *(c for c in given if c in there and c not in key_cols)]


def _pk_of_rowid(conn: Connection, table_name: str, rowid: object) -> str:
    """The primary key of a SQLite row given its rowid, as ``col=value`` text."""
    table = metadata.tables.get(table_name)
    if table is None or rowid is None:
        return f"rowid={rowid}"
    cols = list(table.primary_key.columns)
    query = select(*cols).where(literal_column("rowid") == bindparam("rowid"))
    row = conn.execute(query, {"rowid": rowid}).first()
    return f"rowid={rowid}" if row is None else format_key([c.name for c in cols], tuple(row))


def _dangling(table: str, key: str | None, parent: str, from_column: str | None) -> Problem:
    column = f"column {from_column} " if from_column is not None else ""
    return Problem(
        "foreign key", table, key, f"{column}refers to a row of {parent} that does not exist"
    )


def _dangling_keys(conn: Connection, table_name: str, parent: str, column: str | None) -> list[str]:
    """The primary keys, as ``col=value`` text, of the rows of a ``WITHOUT ROWID`` table
    whose ``column`` refers to no row of ``parent`` (``PRAGMA foreign_key_check`` gives no
    rowid for such a table); empty when the models do not say which key that is."""
    table = metadata.tables.get(table_name)
    keys = [
        fk
        for fk in (table.foreign_keys if table is not None else ())
        if fk.parent.name == column and fk.column.table.name == parent
    ]
    if table is None or len(keys) != 1:
        return []
    child, target = keys[0].parent, keys[0].column
    other = target.table.alias("p")
    pk = list(table.primary_key.columns)
    query = select(*pk).where(child.is_not(None), ~exists().where(other.c[target.name] == child))
    return [format_key([c.name for c in pk], tuple(row)) for row in conn.execute(query)]


# integrity_check messages about rows and indexes of a sound file: the tables can be read.
# The rows' own messages (a NULL or a CHECK) are reported row by row by check_cells.
_ROW_MESSAGE = re.compile(r"(NULL value in|CHECK constraint failed in|[A-Z]+ value in) ")
_INDEX_MESSAGE = re.compile(
    r"(row \d+ missing from index|wrong # of entries in index"
    r"|non-unique entry in (?:UNIQUE )?index) "
)


def check_sqlite_file(conn: Connection, report: CheckReport) -> None:
    """``PRAGMA integrity_check`` and ``PRAGMA foreign_key_check``.

    A file whose pages are damaged (or that is no database at all) is reported in one line
    and nothing else is checked (:class:`Damaged`): its rows cannot be trusted. Indexes that
    no longer match their tables are reported in one line and the checks go on: the tables
    themselves are readable (``REINDEX`` rebuilds the indexes).
    """
    messages = [m for m in dialect.sqlite_integrity_check(conn) if m != "ok"]
    damage = [m for m in messages if not _ROW_MESSAGE.match(m) and not _INDEX_MESSAGE.match(m)]
    if damage:
        report.problems.append(Problem("integrity", None, None, _damaged(_some(damage))))
        raise Damaged
    indexes = [m for m in messages if _INDEX_MESSAGE.match(m)]
    if indexes:
        report.problems.append(
            Problem("integrity", None, None, f"indexes do not match their tables: {_some(indexes)}")
        )
    report.checked.append("integrity_check")
    keyless: dict[tuple[str, str, str | None], int] = {}  # WITHOUT ROWID tables: no rowid
    for table_name, rowid, parent, from_column in dialect.sqlite_foreign_key_violations(conn):
        if rowid is None:
            where = (table_name, parent, from_column)
            keyless[where] = keyless.get(where, 0) + 1
            continue
        found = _pk_of_rowid(conn, table_name, rowid)
        report.problems.append(_dangling(table_name, found, parent, from_column))
    for (table_name, parent, from_column), count in keyless.items():
        keys: list[str | None] = list(_dangling_keys(conn, table_name, parent, from_column))
        for key in keys if len(keys) == count else [None] * count:
            report.problems.append(_dangling(table_name, key, parent, from_column))
    report.checked.append("foreign_key_check")


def _some(messages: list[str]) -> str:
    """The first three messages, and how many more there are."""
    more = f" (and {len(messages) - 3} more)" if len(messages) > 3 else ""
    return "; ".join(messages[:3]) + more


def _damaged(reason: str) -> str:
    return f"the file is damaged, nothing else was checked: {reason}"


@cache
def _revisions() -> tuple[str, frozenset[str]]:
    """This yimao-db's head revision and every revision it knows."""
    return head_revision(), known_revisions()


def check_revision(conn: Connection, report: CheckReport) -> str:
    """``head``, ``older``, ``unknown``, ``damaged`` or ``none``, with a problem for all but
    ``head``. ``damaged``: the revision table does not hold one revision (several rows,
    NULL, not text, no such column, or none while the database has tables); the other
    checks still run, against the head revision's schema."""
    head, known = _revisions()
    try:
        current = current_revision(conn)
    except RevisionTableError as exc:
        report.problems.append(Problem("revision", None, None, str(exc)))
        return "damaged"
    if current is None:
        reason = no_revision_but_tables(conn)
        if reason is not None:
            report.problems.append(Problem("revision", None, None, reason))
            return "damaged"
        report.problems.append(
            Problem("revision", None, None, "the database is not built (no schema revision)")
        )
        return "none"
    if current not in known:
        report.problems.append(Problem("revision", None, None, unknown_revision(current)))
        return "unknown"
    if current != head:
        report.problems.append(
            Problem(
                "revision",
                None,
                None,
                f"schema revision {current} is older than head {head}: run `yimao build`",
            )
        )
        return "older"
    report.checked.append(f"revision {head} (head)")
    return "head"


def _describe_diff(diff: Any) -> tuple[str | None, str]:
    """(table, description) of one alembic autogenerate difference."""
    op = diff[0]
    names = [x.name for x in diff if hasattr(x, "name") and isinstance(x.name, str)]
    table = next((x for x in diff[1:] if isinstance(x, str)), None) or next(iter(names), None)
    things = ", ".join(str(x) for x in diff[1:] if not isinstance(x, dict))
    return table, f"{op} ({things})"


# SQLite schema text (sqlite_master) → its differences from the models, so that checking many
# copies of one database in one process compares the schema once.
_SCHEMA_DIFFS: dict[tuple[tuple[Any, ...], ...], list[Problem]] = {}


def schema_differences(conn: Connection) -> list[Problem]:
    """What alembic autogenerate finds between the live schema and the models."""
    key: tuple[tuple[Any, ...], ...] | None = None
    if conn.dialect.name == "sqlite":
        key = tuple(sorted(dialect.sqlite_schema_sql(conn).items(), key=repr))
        if key in _SCHEMA_DIFFS:
            return list(_SCHEMA_DIFFS[key])
    ctx = MigrationContext.configure(
        conn, opts={"compare_type": True, "target_metadata": metadata, "render_as_batch": True}
    )
    found = []
    for diff in compare_metadata(ctx, metadata):
        for item in diff if isinstance(diff, list) else [diff]:
            table, what = _describe_diff(item)
            found.append(Problem("schema", table, None, f"differs from the models: {what}"))
    if key is not None:
        if len(_SCHEMA_DIFFS) >= 32:
            _SCHEMA_DIFFS.clear()
        _SCHEMA_DIFFS[key] = list(found)
    return found


@cache
def migrated_schema() -> dict[tuple[str, str], tuple[str, str | None]]:
    """(type, name) → (table, SQL) of every object the migrations create, from an in-memory
    SQLite."""
    from sqlalchemy import create_engine

    from yimao_db.building import migrate

    engine = create_engine("sqlite://")
    try:
        with engine.begin() as conn:
            migrate(conn)
            return dialect.sqlite_schema_sql(conn)
    finally:
        engine.dispose()


def sqlite_schema_differences(conn: Connection) -> list[Problem]:
    """Tables, indexes, views and triggers whose SQL is not what the migrations create.

    This sees what the models cannot: view definitions, and a revision whose SQL changed
    after the database was built with it. Extra views are allowed (other programs may add
    their own); extra tables, indexes and triggers are reported.
    """
    want = migrated_schema()
    have = dialect.sqlite_schema_sql(conn)
    found = []
    for kind, name in sorted(want.keys() - have.keys()):
        found.append(Problem("schema", name, None, f"{kind} missing"))
    for kind, name in sorted(have.keys() - want.keys()):
        if kind != "view":
            found.append(Problem("schema", name, None, f"{kind} not created by the migrations"))
    for kind, name in sorted(want.keys() & have.keys()):
        (want_table, want_sql), (have_table, have_sql) = want[kind, name], have[kind, name]
        if dialect.sqlite_schema_key(want_sql) != dialect.sqlite_schema_key(have_sql):
            found.append(
                Problem(
                    "schema",
                    name,
                    None,
                    f"{kind} SQL differs from what the migrations create "
                    "(built by another version of its revision?)",
                )
            )
        elif want_table != have_table:
            found.append(
                Problem(
                    "schema",
                    name,
                    None,
                    f"{kind} belongs to table {shown(have_table)}, "
                    f"the migrations give {shown(want_table)}",
                )
            )
    return found


def check_schema(conn: Connection, report: CheckReport) -> None:
    """The live schema matches the models and (SQLite) the migrations' SQL; every view answers
    a query."""
    report.problems.extend(schema_differences(conn))
    report.checked.append("schema matches the models")
    if conn.dialect.name == "sqlite":
        report.problems.extend(sqlite_schema_differences(conn))
        report.checked.append("schema SQL matches the migrations")
    views = inspect(conn).get_view_names()
    for view in views:
        query: Select[Any] = select(literal_column("1")).select_from(text(_quoted(conn, view)))
        try:
            with conn.begin_nested():
                conn.execute(query.limit(1))
        except DBAPIError as exc:
            report.problems.append(Problem("view", view, None, f"does not answer: {_reason(exc)}"))
    report.checked.append(f"{len(views)} views answer")


def _quoted(conn: Connection, name: str) -> str:
    """An identifier read from the database's own catalogue, quoted for the dialect."""
    return conn.dialect.identifier_preparer.quote_identifier(name)


def check_data(
    conn: Connection, report: CheckReport, expected: Mapping[str, list[dict[str, Any]]]
) -> None:
    """Every seeded table equals its recomputation from the rules."""
    insp = inspect(conn)
    existing = set(insp.get_table_names())
    rows = 0
    for table in seeding.seeded_tables(expected):
        if table.name not in existing:
            report.problems.append(Problem("data", table.name, None, "table missing"))
            continue
        present = [c["name"] for c in insp.get_columns(table.name)]
        columns = compared_columns(table, expected[table.name], present)
        if not {c.name for c in table.primary_key.columns} <= set(present):
            report.problems.append(Problem("data", table.name, None, "primary key missing"))
            continue
        actual = seeding.current_rows(conn, table, columns)
        report.problems.extend(compare_table(table, expected[table.name], actual, columns))
        rows += len(expected[table.name])
    report.checked.append(f"{len(expected)} seeded tables ({rows} rows) equal the rules")


def check_invariants(conn: Connection, report: CheckReport) -> None:
    for name, rows in invariants.violations(conn):
        for row in rows:
            key = ", ".join(str(x) for x in row)
            report.problems.append(Problem("invariant", None, key, name))
    report.checked.append(f"{len(invariants.INVARIANTS)} SQL invariants")


def check_terms(report: CheckReport) -> None:
    """The solar term instants shipped with the package equal the installed tyme4py's."""
    for difference in solarterms.verify_table():
        report.problems.append(Problem("calendar", None, None, f"term table: {difference}"))
    years = solarterms.TABLE_YEARS
    report.checked.append(f"term table {years[0]}-{years[-1]} equals tyme4py")


def check_lodges(report: CheckReport) -> None:
    """The lodge table shipped with the package reads whole and, with ephem installed, a
    sample of its ingresses equals ephem's."""
    from yimao_db.calendar import lodges  # ephem only inside verify_table
    from yimao_db.kb.rules.lodges import FIRST_YEAR, LAST_YEAR, table_problems

    span = f"lodge table {FIRST_YEAR}-{LAST_YEAR}"
    problems = table_problems()
    for problem in problems:
        report.problems.append(Problem("calendar", None, None, problem))
    if not lodges.available():
        report.checked.append(f"{span} reads whole (ephem not installed: nothing recomputed)")
        return
    if not problems:
        for difference in lodges.verify_table():
            report.problems.append(Problem("calendar", None, None, difference))
    report.checked.append(f"{span}: a sample of ingresses equals ephem")


def _reason(exc: DBAPIError) -> str:
    return " ".join(str(exc.orig if exc.orig is not None else exc).split())


@contextmanager
def _stage(conn: Connection, report: CheckReport, name: str) -> Iterator[None]:
    """Run one stage of the checks. On SQLite, an error that says the file is damaged is
    reported and ends the checks (:class:`Damaged`); one that says the database is not what
    a statement expects (a dropped table or view, a malformed schema object) is reported
    and the next stage runs. Neither escapes as an exception."""
    try:
        yield
    except DBAPIError as exc:
        if dialect.backend(conn) != dialect.SQLITE or not dialect.sqlite_file_problem(exc):
            raise  # cannot read it at all (locked, unreadable): an error, not a finding
        if name == "integrity":
            report.problems.append(Problem("integrity", None, None, _damaged(_reason(exc))))
            raise Damaged from None
        if dialect.sqlite_damage(exc):
            detail = f"the file is damaged, the checks stopped at {name}: {_reason(exc)}"
            report.problems.append(Problem("integrity", None, None, detail))
            raise Damaged from None
        report.problems.append(Problem(name, None, None, f"could not be checked: {_reason(exc)}"))
    except UnicodeDecodeError as exc:
        if dialect.backend(conn) != dialect.SQLITE:
            raise
        # sqlite3 decodes SQLite's messages and column names strictly: bytes of a damaged
        # schema (a name that is not UTF-8) end up there
        reason = f"SQLite answered with a name or message that is not UTF-8 text ({exc})"
        detail = (
            _damaged(reason)
            if name == "integrity"
            else (f"the file is damaged, the checks stopped at {name}: {reason}")
        )
        report.problems.append(Problem("integrity", None, None, detail))
        raise Damaged from None


def inspect_connection(
    conn: Connection,
    expected: Mapping[str, list[dict[str, Any]]] | None = None,
    progress: Progress | None = None,
) -> CheckReport:
    """Run every check on an open connection (nothing is written)."""
    report = CheckReport()

    def stage(name: str) -> Any:
        if progress is not None:
            progress(name, 0, 0)
        return _stage(conn, report, name)

    try:
        with dialect.sqlite_tolerant_text(conn):
            if conn.dialect.name == "sqlite":
                with stage("integrity"):
                    check_sqlite_file(conn, report)
            with stage("revision"):
                state = check_revision(conn, report)
            if state in ("none", "unknown"):
                return report  # nothing to compare with (not built, or a newer schema)
            if state in ("head", "damaged"):
                with stage("schema"):
                    check_schema(conn, report)
            with stage("constraints"):
                check_cells(conn, report)
            tables = expected if expected is not None else seeding.compute_tables()
            with stage("reference data"):
                check_data(conn, report, tables)
            with stage("invariants"):
                check_invariants(conn, report)
            with stage("solar terms"):
                check_terms(report)
            with stage("lodges"):
                check_lodges(report)
            charts: list[int] = []
            with stage("readings"):
                charts = check_readings(conn, report, progress)
            with stage("charts"):
                check_charts(conn, charts, report)
            with stage("derived tables"):
                check_derived(conn, report, progress)
            with stage("journal"):
                check_journal(conn, report)
    except Damaged:
        pass
    return report


def run(
    db: str | URL | Engine | None = None,
    expected: Mapping[str, list[dict[str, Any]]] | None = None,
    progress: Progress | None = None,
) -> CheckReport:
    """Check the database ``db`` (path, URL or engine; default as for every command).

    ``expected`` is the recomputed seed (:func:`yimao_db.kb.seeding.compute_tables`); pass it to
    check many databases without recomputing. ``progress(stage, done, total)`` is called as
    the stages start and, for the readings, every few thousand.
    """
    engine = db if isinstance(db, Engine) else reader_engine(db)
    try:
        with engine.connect() as conn:
            return inspect_connection(conn, expected, progress)
    finally:
        if engine is not db:
            engine.dispose()


def check(
    db: str | URL | Engine | None = None,
    expected: Mapping[str, list[dict[str, Any]]] | None = None,
) -> list[Problem]:
    """The problems found in ``db``; an empty list when it is sound."""
    return run(db, expected).problems


__all__ = [
    "MAX_PER_TABLE",
    "CheckReport",
    "Problem",
    "check",
    "compare_table",
    "format_key",
    "run",
]
