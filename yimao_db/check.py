"""``yimao check``: a read-only doctor for a built database.

It checks, in order:

1. on SQLite, ``PRAGMA integrity_check`` (the file's b-trees and indexes) and
   ``PRAGMA foreign_key_check`` (every foreign key resolves);
2. the schema revision is the head revision of this yimao-db, and at head the schema matches
   the models (alembic autogenerate finds no difference), on SQLite every table, index, view
   and trigger has the SQL the migrations give it, and every view answers;
3. every seeded table equals a fresh recomputation from the rules
   (:func:`yimao_db.seeding.compute_tables`), row by row by primary key: missing rows, extra
   rows and differing cells, each named by table, key and column;
4. every SQL invariant of :mod:`yimao_db.invariants` returns no rows;
5. every reading has exactly six lines, positions 1..6 with values 6..9, a valid moment (a day
   pillar that is one of the sixty, a month branch, a month pillar that agrees with it) and a
   chart: ``v_reading`` has its row and ``v_reading_line`` its six lines.

Nothing is written: the database is opened with :func:`yimao_db.db.reader_engine`
(SQLite ``mode=ro`` + ``query_only``). :func:`check` returns the problems as data;
``yimao check`` prints them and exits 1 when there are any, 0 when there are none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    Connection,
    Engine,
    Select,
    Table,
    bindparam,
    inspect,
    literal_column,
    select,
    text,
)
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from yimao_db import dialect, invariants, seeding
from yimao_db.build import alembic_config, current_revision, head_revision
from yimao_db.db import reader_engine
from yimao_db.schema import metadata

# At most this many problems are listed per table (the rest are counted in one line).
MAX_PER_TABLE = 50


@dataclass(frozen=True)
class Problem:
    """One thing wrong: what kind of check found it, where (table and key), and what."""

    kind: str  # integrity, foreign key, revision, schema, view, data, invariant, reading
    table: str | None
    key: str | None
    detail: str

    def __str__(self) -> str:
        where = " ".join(x for x in (self.table, self.key) if x)
        return f"{self.kind}: {where}: {self.detail}" if where else f"{self.kind}: {self.detail}"


@dataclass
class CheckReport:
    problems: list[Problem] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)  # what was checked, for the 'ok' line

    @property
    def ok(self) -> bool:
        return not self.problems


def format_key(columns: Sequence[str], values: Sequence[Any]) -> str:
    """``king_wen=44 position=2``."""
    return " ".join(f"{c}={v}" for c, v in zip(columns, values, strict=True))


def _rows_of(conn: Connection, table: Table, columns: Sequence[str]) -> list[dict[str, Any]]:
    query = select(*(table.c[c] for c in columns))
    return [dict(r) for r in conn.execute(query).mappings()]


def compare_table(
    table: Table,
    expected: Iterable[Mapping[str, Any]],
    actual: Iterable[Mapping[str, Any]],
    columns: Iterable[str] | None = None,
) -> list[Problem]:
    """Missing, extra and differing rows of ``table``, compared by primary key.

    ``columns`` limits the comparison to the columns the database has (an older schema).
    """
    key_cols = [c.name for c in table.primary_key.columns]
    present = set(columns) if columns is not None else {c.name for c in table.columns}

    def key(row: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(row[c] for c in key_cols)

    want = {key(r): r for r in expected}
    have = {key(r): r for r in actual}
    problems: list[Problem] = []
    for k in sorted(want.keys() - have.keys(), key=repr):
        problems.append(
            Problem("data", table.name, format_key(key_cols, k), "row missing (the rules give it)")
        )
    for k in sorted(have.keys() - want.keys(), key=repr):
        problems.append(
            Problem("data", table.name, format_key(key_cols, k), "extra row (the rules give none)")
        )
    compared = [c for c in want_columns(expected, key_cols) if c in present]
    differing = [
        (k, c)
        for k, w in want.items()
        if (h := have.get(k)) is not None
        for c in compared
        if h.get(c) != w.get(c)
    ]
    for k, column in sorted(differing, key=repr):
        problems.append(
            Problem(
                "data",
                table.name,
                format_key(key_cols, k),
                f"column {column} is {have[k].get(column)!r}, the rules give {want[k][column]!r}",
            )
        )
    if len(problems) > MAX_PER_TABLE:
        more = len(problems) - MAX_PER_TABLE
        problems = [
            *problems[:MAX_PER_TABLE],
            Problem("data", table.name, None, f"… and {more} more differences"),
        ]
    return problems


def want_columns(rows: Iterable[Mapping[str, Any]], key_cols: Sequence[str]) -> list[str]:
    """The non-key columns the recomputed rows give values for, in first-seen order."""
    seen: dict[str, None] = {}
    for row in rows:
        seen.update(dict.fromkeys(row))
    return [c for c in seen if c not in key_cols]


def _pk_of_rowid(conn: Connection, table_name: str, rowid: object) -> str:
    """The primary key of a SQLite row given its rowid, as ``col=value`` text."""
    table = metadata.tables.get(table_name)
    if table is None or rowid is None:
        return f"rowid={rowid}"
    cols = list(table.primary_key.columns)
    query = select(*cols).where(literal_column("rowid") == bindparam("rowid"))
    row = conn.execute(query, {"rowid": rowid}).first()
    return f"rowid={rowid}" if row is None else format_key([c.name for c in cols], tuple(row))


def check_sqlite_file(conn: Connection, report: CheckReport) -> None:
    """``PRAGMA integrity_check`` and ``PRAGMA foreign_key_check``."""
    messages = dialect.sqlite_integrity_check(conn)
    if messages != ["ok"]:
        report.problems.extend(Problem("integrity", None, None, m) for m in messages)
    report.checked.append("integrity_check")
    for table_name, rowid, parent, from_column in dialect.sqlite_foreign_key_violations(conn):
        column = f"column {from_column} " if from_column is not None else ""
        report.problems.append(
            Problem(
                "foreign key",
                table_name,
                _pk_of_rowid(conn, table_name, rowid),
                f"{column}refers to a row of {parent} that does not exist",
            )
        )
    report.checked.append("foreign_key_check")


@cache
def _revisions() -> tuple[str, frozenset[str]]:
    """This yimao-db's head revision and every revision it knows."""
    script = ScriptDirectory.from_config(alembic_config())
    return head_revision(), frozenset(rev.revision for rev in script.walk_revisions())


def check_revision(conn: Connection, report: CheckReport) -> str:
    """``head``, ``older``, ``unknown`` or ``none``, with a problem for all but ``head``."""
    current = current_revision(conn)
    head, known = _revisions()
    if current is None:
        report.problems.append(
            Problem("revision", None, None, "the database is not built (no schema revision)")
        )
        return "none"
    if current not in known:
        report.problems.append(
            Problem(
                "revision",
                None,
                None,
                f"schema revision {current!r} is unknown to this yimao-db (head {head!r}): "
                "the database was made by a newer yimao-db",
            )
        )
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
def migrated_schema() -> dict[tuple[str, str], str | None]:
    """(type, name) → SQL of every object the migrations create, from an in-memory SQLite."""
    from sqlalchemy import create_engine

    from yimao_db.build import upgrade

    engine = create_engine("sqlite://")
    try:
        with engine.begin() as conn:
            upgrade(conn)
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
        if dialect.sqlite_schema_key(want[kind, name]) != dialect.sqlite_schema_key(
            have[kind, name]
        ):
            found.append(
                Problem(
                    "schema",
                    name,
                    None,
                    f"{kind} SQL differs from what the migrations create "
                    "(built by another version of its revision?)",
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
        columns = [c["name"] for c in insp.get_columns(table.name) if c["name"] in table.c]
        actual = _rows_of(conn, table, columns)
        report.problems.extend(compare_table(table, expected[table.name], actual, columns))
        rows += len(expected[table.name])
    report.checked.append(f"{len(expected)} seeded tables ({rows} rows) equal the rules")


def check_invariants(conn: Connection, report: CheckReport) -> None:
    for name, rows in invariants.violations(conn):
        for row in rows:
            key = ", ".join(str(x) for x in row)
            report.problems.append(Problem("invariant", None, key, name))
    report.checked.append(f"{len(invariants.INVARIANTS)} SQL invariants")


READING_LINES = """
SELECT r.id, COUNT(l.position) AS n, COUNT(DISTINCT l.position) AS positions,
       MIN(l.position) AS lo, MAX(l.position) AS hi,
       SUM(CASE WHEN l.value IN (6, 7, 8, 9) THEN 0 ELSE 1 END) AS bad_values
FROM reading r LEFT JOIN reading_line l ON l.reading_id = r.id
GROUP BY r.id
HAVING COUNT(l.position) <> 6 OR COUNT(DISTINCT l.position) <> 6
    OR MIN(l.position) <> 1 OR MAX(l.position) <> 6
    OR SUM(CASE WHEN l.value IN (6, 7, 8, 9) THEN 0 ELSE 1 END) > 0
ORDER BY r.id
"""

ORPHAN_LINES = """
SELECT l.reading_id, l.position FROM reading_line l
WHERE NOT EXISTS (SELECT 1 FROM reading r WHERE r.id = l.reading_id)
ORDER BY l.reading_id, l.position
"""

READING_MOMENT = """
SELECT r.id, r.day_gz, r.month_branch, r.month_gz, r.year_gz, r.hour_gz FROM reading r
WHERE r.day_gz IS NULL OR r.month_branch IS NULL
   OR NOT EXISTS (SELECT 1 FROM ganzhi g WHERE g.name = r.day_gz)
   OR NOT EXISTS (SELECT 1 FROM branch b WHERE b.name = r.month_branch)
   OR (r.month_gz IS NOT NULL AND (substr(r.month_gz, 2, 1) <> r.month_branch
       OR NOT EXISTS (SELECT 1 FROM ganzhi g WHERE g.name = r.month_gz)))
   OR (r.year_gz IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ganzhi g WHERE g.name = r.year_gz))
   OR (r.hour_gz IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ganzhi g WHERE g.name = r.hour_gz))
ORDER BY r.id
"""

# one pass over each chart view (a correlated subquery per reading would re-run the view)
CHART_HEADS = "SELECT reading_id, COUNT(*) FROM v_reading GROUP BY reading_id"
CHART_LINES = "SELECT reading_id, COUNT(*) FROM v_reading_line GROUP BY reading_id"


def check_readings(conn: Connection, report: CheckReport) -> None:
    """Six valid lines, a valid moment and a chart for every reading."""
    tables = set(inspect(conn).get_table_names())
    if not {"reading", "reading_line"} <= tables:
        return
    for rid, n, positions, lo, hi, bad in conn.execute(text(READING_LINES)):
        report.problems.append(
            Problem(
                "reading",
                "reading_line",
                f"reading_id={rid}",
                f"{n} lines ({positions} distinct positions, {lo}..{hi}), "
                f"{bad or 0} values outside 6..9; expected six lines 1..6 with values 6..9",
            )
        )
    for rid, pos in conn.execute(text(ORPHAN_LINES)):
        report.problems.append(
            Problem(
                "reading",
                "reading_line",
                f"reading_id={rid} position={pos}",
                "line of a reading that does not exist",
            )
        )
    for rid, day, branch, month, year, hour in conn.execute(text(READING_MOMENT)):
        report.problems.append(
            Problem(
                "reading",
                "reading",
                f"id={rid}",
                f"invalid moment: day {day!r}, month branch {branch!r}, month {month!r}, "
                f"year {year!r}, hour {hour!r} (day and month branch are required, every "
                "pillar one of the sixty, the month pillar's branch the month branch)",
            )
        )
    heads = dict(conn.execute(text(CHART_HEADS)).tuples().all())
    lines = dict(conn.execute(text(CHART_LINES)).tuples().all())
    ids = list(conn.execute(text("SELECT id FROM reading")).scalars())
    count = len(ids)
    for rid in sorted(ids):
        if heads.get(rid, 0) != 1 or lines.get(rid, 0) != 6:
            report.problems.append(
                Problem(
                    "reading",
                    "v_reading",
                    f"reading_id={rid}",
                    f"the chart does not resolve: {heads.get(rid, 0)} v_reading rows, "
                    f"{lines.get(rid, 0)} v_reading_line rows (expected 1 and 6)",
                )
            )
    report.checked.append(f"{count} readings")


def _reason(exc: DBAPIError) -> str:
    return str(exc.orig if exc.orig is not None else exc).strip()


def inspect_connection(
    conn: Connection, expected: Mapping[str, list[dict[str, Any]]] | None = None
) -> CheckReport:
    """Run every check on an open connection (nothing is written)."""
    report = CheckReport()
    try:
        if conn.dialect.name == "sqlite":
            check_sqlite_file(conn, report)
        state = check_revision(conn, report)
        if state in ("none", "unknown"):
            return report  # nothing to compare with (not built, or a newer schema)
        if state == "head":
            check_schema(conn, report)
        tables = expected if expected is not None else seeding.compute_tables()
        check_data(conn, report, tables)
        check_invariants(conn, report)
        check_readings(conn, report)
    except DBAPIError as exc:
        if not _is_corruption(exc):
            raise  # cannot read it at all (locked, unreadable): an error, not a finding
        # a damaged file can fail any query: report it as a problem, do not crash
        report.problems.append(Problem("integrity", None, None, f"query failed: {_reason(exc)}"))
    return report


def _is_corruption(exc: DBAPIError) -> bool:
    """True for SQLite's "malformed" and "not a database" errors."""
    name = str(getattr(exc.orig, "sqlite_errorname", ""))
    return name.startswith("SQLITE_CORRUPT") or name == "SQLITE_NOTADB"


def run(
    db: str | URL | Engine | None = None,
    expected: Mapping[str, list[dict[str, Any]]] | None = None,
) -> CheckReport:
    """Check the database ``db`` (path, URL or engine; default as for every command).

    ``expected`` is the recomputed seed (:func:`yimao_db.seeding.compute_tables`); pass it to
    check many databases without recomputing.
    """
    engine = db if isinstance(db, Engine) else reader_engine(db)
    try:
        with engine.connect() as conn:
            return inspect_connection(conn, expected)
    finally:
        if engine is not db:
            engine.dispose()


def check(
    db: str | URL | Engine | None = None,
    expected: Mapping[str, list[dict[str, Any]]] | None = None,
) -> list[Problem]:
    """The problems found in ``db``; an empty list when it is sound."""
    return run(db, expected).problems


__all__ = ["CheckReport", "Problem", "check", "compare_table", "run"]
