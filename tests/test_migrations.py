"""Migrations: step walks base → head → base → head, readings kept, no drift, one transaction.

Every step runs as ``yimao build`` runs migrations: alembic's upgrade or downgrade
(:func:`yimao_db.kb.migrating.move`) on a connection of :func:`yimao_db.db.writer_engine`
that is already inside its ``BEGIN IMMEDIATE`` transaction.

Readings live in revision 0003: downgrading *past* 0003 drops the reading tables and with them
the readings (documented in docs/reliability.md; only with ``-x force=1``). Every other step
keeps them byte for byte, and ``yimao build`` on a database at any revision from 0003 on
upgrades it keeping them.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.util import CommandError
from helpers import cast_into, copy_db, seed_existing
from sqlalchemy import Connection, Engine, event, select, text

import yimao_db.building as buildmod
from yimao_db import check as doctor
from yimao_db.building import build, current_revision, head_revision
from yimao_db.cli import main
from yimao_db.db import writer_engine
from yimao_db.dialect import sqlite_schema_key
from yimao_db.errors import DatabaseError
from yimao_db.kb.migrating import alembic_config, move, script_directory
from yimao_db.kb.rules.keys import KEY_COLUMNS
from yimao_db.kb.schema import metadata
from yimao_db.kb.views import contract, views

LATER_INPUTS = ("matter", "about")  # inputs of a reading added after revision 0003 (0006, 0014)
LATER_DERIVED = ("cast_utc",)  # computed from the inputs, added after 0003 (0015)

READINGS_REVISION = "0003"  # the revision that creates reading and reading_line

# walks SQLite files (the PostgreSQL walk is the same alembic code)
pytestmark = pytest.mark.sqlite_only


def revisions() -> list[str]:
    """Every revision, base first."""
    return [rev.revision for rev in reversed(list(script_directory().walk_revisions()))]


def has_readings(revision: str | None) -> bool:
    """True if the schema at ``revision`` has the reading tables."""
    revs = revisions()
    return revision is not None and revs.index(revision) >= revs.index(READINGS_REVISION)


def above_readings() -> list[str]:
    revs = revisions()
    return revs[revs.index(READINGS_REVISION) + 1 :]


@contextlib.contextmanager
def writer(db: str) -> Iterator[Engine]:
    engine = writer_engine(db, building=True)
    try:
        yield engine
    finally:
        engine.dispose()


def step(engine: Engine, direction: str, *, force: bool = False) -> str | None:
    """One revision up (``+1``) or down (``-1``) in one transaction; returns the new revision.
    ``force``: ``-x force=1``, a downgrade may delete readings (tests/test_downgrade_data.py)."""
    with engine.begin() as conn:
        move(conn, direction, down=direction == "-1", x=["force=1"] if force else [])
        return current_revision(conn)


def db_at(path: Path, revision: str) -> str:
    """A database at ``revision``, seeded, stepped up one revision at a time."""
    db = str(path)
    with writer(db) as engine:
        while (current := step(engine, "+1")) != revision:
            assert current is not None
        with engine.begin() as conn:
            seed_existing(conn)
    return db


def cast_readings(db: str) -> list[int]:
    return [
        cast_into(db, "789678", pillars="甲辰,丙寅,戊戌,庚申", question='it\'s "quoted"'),
        cast_into(db, coins="2,1,3,0,2,2", at="2024-06-30T23:30", najia="seasonal", early_rat=True),
        cast_into(db, "乾之姤", day="甲子", month="寅", hour="丙寅"),
        cast_into(db, "姤", moving="1,4", at="1988-07-01T12:00", tz="Asia/Shanghai"),
    ]


def reading_rows(db: str) -> dict[str, list[tuple[Any, ...]]]:
    """The raw rows of the two reading tables: what was cast (the inputs; the keys derived
    from them exist from revision 0005 on, the instant on the UTC clock from 0015)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        columns = [
            name
            for _, name, *_ in con.execute("PRAGMA table_info(reading)")
            if name not in (*KEY_COLUMNS, *LATER_INPUTS, *LATER_DERIVED)
        ]
        return {
            "reading": con.execute(
                f"SELECT {', '.join(columns)} FROM reading ORDER BY 1"
            ).fetchall(),
            "reading_line": con.execute("SELECT * FROM reading_line ORDER BY 1, 2").fetchall(),
        }
    finally:
        con.close()


CHART_VIEWS = ("v_reading", "v_reading_line", "v_reading_hidden")


def charts(db: str, ids: list[int]) -> list[list[tuple[Any, ...]]]:
    """Each reading's chart as the chart views give it, in the columns of the first contract
    version (every revision from 0003 on has them; later versions add columns). A moving
    line without a transform has transform '' before revision 0012 and NULL from it on: read
    as NULL here."""
    first = contract.history()[0].views
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)

    def columns(view: str) -> str:
        return ", ".join("NULLIF(transform, '')" if c == "transform" else c for c in first[view])

    try:
        return [
            [
                row
                for view in CHART_VIEWS
                for row in con.execute(
                    f"SELECT {columns(view)} FROM {view} WHERE reading_id = ? ORDER BY 2", (i,)
                )
            ]
            for i in ids
        ]
    finally:
        con.close()


def tables_of(db: str) -> set[str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        return {name for (name,) in rows}
    finally:
        con.close()


def schema_of(db: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """Every object's SQL, table constraints in any order (batch mode varies it)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        return [(t, n, sqlite_schema_key(sql)) for t, n, sql in rows]
    finally:
        con.close()


# --- walks ------------------------------------------------------------------------------------


def built(sqlite_template: Path, path: Path) -> str:
    """A database as ``yimao build`` makes it (a copy of the session's build)."""
    shutil.copyfile(sqlite_template, path)
    path.chmod(0o644)
    return str(path)


def test_walk_base_head_base_head(tmp_path: Path, sqlite_template: Path) -> None:
    """base → head, then head → base with readings cast at head: at every step down that
    keeps the reading tables, the readings and their charts are unchanged. Then base → head
    again with readings cast at 0003: at every later step up the revision's rule tables are
    seeded (seeds own the data) and the readings and their charts are unchanged. The end is
    a clean database with the fresh build's schema."""
    revs = revisions()
    assert revs[0] == "0001" and revs[-1] == head_revision() and READINGS_REVISION in revs
    db = str(tmp_path / "walk.db")
    fresh = built(sqlite_template, tmp_path / "fresh.db")

    rev: str | None
    with writer(db) as engine:
        for rev in revs:  # base → head
            assert step(engine, "+1") == rev
    report = build(db)  # the seed runs after an upgrade (yimao build does it)
    assert report.before == head_revision()
    assert schema_of(db) == schema_of(fresh)
    ids = cast_readings(db)
    rows, before = reading_rows(db), charts(db, ids)

    with writer(db) as engine:  # head → base, readings intact while their tables exist
        for rev in reversed([None, *revs[:-1]]):
            assert step(engine, "-1", force=True) == rev
            if has_readings(rev):
                assert reading_rows(db) == rows
                assert charts(db, ids) == before
            else:  # documented: downgrading past 0003 drops the readings with their tables
                assert not {"reading", "reading_line", "v_reading"} & tables_of(db)
    assert tables_of(db) <= {"alembic_version"}

    with writer(db) as engine:  # base → head, readings cast at 0003 kept by every later step
        for rev in revs:
            assert step(engine, "+1") == rev
            if has_readings(rev):
                with engine.begin() as conn:  # a revision's new rule tables: seeds own the data
                    seed_existing(conn)
            if rev == READINGS_REVISION:
                ids = cast_readings(db)
                rows, before = reading_rows(db), charts(db, ids)
            elif has_readings(rev):
                assert reading_rows(db) == rows
                assert charts(db, ids) == before
    build(db)
    assert reading_rows(db) == rows
    assert charts(db, ids) == before
    assert schema_of(db) == schema_of(fresh)
    assert doctor.check(db) == []


def differences(db: str, other: str) -> dict[str, tuple[int, int]]:
    """The tables of either database whose rows differ (``created_at`` aside): how many
    rows are only in ``db`` and how many only in ``other`` (-1: it lacks the table),
    values and storage types compared alike."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        con.execute("ATTACH ? AS other", (f"file:{other}?mode=ro",))
        listed = (
            "SELECT name FROM {}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
        )
        mine = {n for (n,) in con.execute(listed.format("main"))}
        theirs = {n for (n,) in con.execute(listed.format("other"))}
        found = {name: (0, -1) for name in mine - theirs}
        found |= {name: (-1, 0) for name in theirs - mine}
        for name in sorted(mine & theirs):
            columns = ", ".join(
                f'"{c}"'
                for _, c, *_ in con.execute(f'PRAGMA main.table_info("{name}")')
                if c != "created_at"
            )
            only = tuple(
                con.execute(
                    f'SELECT count(*) FROM (SELECT {columns} FROM {a}."{name}"'
                    f' EXCEPT SELECT {columns} FROM {b}."{name}")'
                ).fetchone()[0]
                for a, b in (("main", "other"), ("other", "main"))
            )
            if only != (0, 0):
                found[name] = (only[0], only[1])
        return found
    finally:
        con.close()


@pytest.fixture(scope="module")
def older(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A seeded database at each revision that has the reading tables (as :func:`db_at`
    makes them), made by one walk up from the base: copy one, never open it."""
    folder = tmp_path_factory.mktemp("older")
    db = str(folder / "walk.db")
    made = {}
    with writer(db) as engine:
        for rev in revisions():
            assert step(engine, "+1") == rev
            if has_readings(rev):
                with engine.begin() as conn:
                    seed_existing(conn)
                made[rev] = copy_db(Path(db), folder / f"{rev}.db")
    return made


@pytest.mark.parametrize("revision", [r for r in revisions() if has_readings(r)])
def test_build_upgrades_an_older_database_keeping_readings(
    tmp_path: Path, sqlite_template: Path, older: dict[str, Path], revision: str
) -> None:
    """``yimao build`` of a database at an older revision, with readings: the readings and
    their charts are kept, and the database is then the fresh build with the same readings
    cast in it, row for row in every table, the keys the migrations derived for the older
    readings included (the fresh build itself is checked clean by tests/test_check.py)."""
    db = str(copy_db(older[revision], tmp_path / "old.db"))
    ids = cast_readings(db)
    rows, before = reading_rows(db), charts(db, ids)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["build", "--db", db])
    assert (code, err.getvalue()) == (0, "")
    head = head_revision()
    says = "schema already at head" if revision == head else f"{revision} → {head}"
    assert says in out.getvalue()
    assert reading_rows(db) == rows
    assert charts(db, ids) == before
    fresh = built(sqlite_template, tmp_path / "fresh.db")
    assert cast_readings(fresh) == ids
    assert schema_of(db) == schema_of(fresh)
    assert differences(db, fresh) == {}


def test_downgrade_past_readings_drops_them(tmp_path: Path, sqlite_template: Path) -> None:
    """The documented limit: revision 0003's downgrade drops the reading tables — only when
    forced (``-x force=1``); else it refuses and changes nothing."""
    db = built(sqlite_template, tmp_path / "drop.db")
    cast_readings(db)
    with writer(db) as engine:
        while step(engine, "-1") != READINGS_REVISION:
            pass
        rows = reading_rows(db)
        assert rows["reading"]
        with pytest.raises(CommandError, match=r"4 readings, lines included \(revision 0003\)"):
            step(engine, "-1")
        assert reading_rows(db) == rows
        step(engine, "-1", force=True)
    assert not {"reading", "reading_line"} & tables_of(db)
    build(db)
    assert reading_rows(db) == {"reading": [], "reading_line": []}


# --- drift ------------------------------------------------------------------------------------


def test_alembic_check_finds_no_drift(tmp_path: Path, sqlite_template: Path) -> None:
    db = built(sqlite_template, tmp_path / "drift.db")
    with writer(db) as engine, engine.connect() as conn:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.check(cfg)  # raises AutogenerateDiffsDetected on drift


def test_every_view_is_the_one_its_newest_revision_freezes() -> None:
    """The package's SQL of each view (v_reading_sign's made from the sign families) is the
    SQL the newest revision holding the view froze: a changed view needs a revision."""
    frozen: dict[str, str] = {}
    for rev in reversed(list(script_directory().walk_revisions())):  # oldest first
        frozen.update({v.name: v.sql for v in getattr(rev.module, "VIEWS", ())})
    stale = [name for name, view in views().items() if frozen.get(name) != view.sql]
    assert stale == [], "a revision must freeze these views (python -m yimao_db.kb.views)"


def test_each_replaced_view_names_the_revision_that_froze_it_last() -> None:
    """A revision's REPLACES names, for each view it changes, the newest earlier revision
    that froze that view: its downgrade creates that version again (a revision naming
    itself, or an older one, would restore the wrong SQL)."""
    newest: dict[str, str] = {}
    wrong = []
    for rev in reversed(list(script_directory().walk_revisions())):  # oldest first
        replaces = getattr(rev.module, "REPLACES", {})
        for view in getattr(rev.module, "VIEWS", ()):
            if replaces.get(view.name) != newest.get(view.name):
                wrong.append((rev.revision, view.name, replaces.get(view.name)))
            newest[view.name] = rev.revision
    assert wrong == []


def test_every_model_table_is_created_by_the_migrations(
    tmp_path: Path, sqlite_template: Path
) -> None:
    db = built(sqlite_template, tmp_path / "tables.db")
    assert set(metadata.tables) <= tables_of(db)


# --- one transaction --------------------------------------------------------------------------


def traced_build(monkeypatch: pytest.MonkeyPatch, db: str) -> list[str]:
    """Build ``db`` and return every SQL statement SQLite executed on the build's connection."""
    statements: list[str] = []
    real = writer_engine

    def traced(url: Any, **kwargs: Any) -> Engine:
        engine = real(url, **kwargs)

        @event.listens_for(engine, "connect")
        def _trace(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.set_trace_callback(statements.append)

        return engine

    monkeypatch.setattr(buildmod, "writer_engine", traced)
    build(db)
    return statements


def transaction_shape(statements: list[str]) -> list[str]:
    control = ("BEGIN", "COMMIT", "ROLLBACK", "END", "SAVEPOINT", "RELEASE")
    return [s.strip() for s in statements if s.strip().upper().startswith(control)]


def test_fresh_build_is_one_transaction(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    statements = traced_build(monkeypatch, str(tmp_path / "one.db"))
    assert transaction_shape(statements) == ["BEGIN IMMEDIATE", "COMMIT"]
    assert statements[0] == "BEGIN IMMEDIATE" and statements[-1] == "COMMIT"
    assert any(s.lstrip().startswith("CREATE TABLE") for s in statements)
    assert any(s.lstrip().startswith("INSERT INTO hexagram_line") for s in statements)
    assert any(s.lstrip().startswith("INSERT INTO alembic_version") for s in statements)


def test_upgrade_of_an_older_database_is_one_transaction(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = db_at(tmp_path / "older.db", READINGS_REVISION)
    cast_readings(db)
    statements = traced_build(monkeypatch, db)
    assert transaction_shape(statements) == ["BEGIN IMMEDIATE", "COMMIT"]


def test_a_migration_that_commits_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The guard behind the single transaction: a commit inside the migrations is caught."""
    real = buildmod.upgrade

    def committing(conn: Connection, target: str = "head") -> None:
        real(conn, target)
        conn.exec_driver_sql("COMMIT")

    monkeypatch.setattr(buildmod, "upgrade", committing)
    with pytest.raises(DatabaseError, match="ended early"):
        build(str(tmp_path / "commit.db"))


def test_failed_upgrade_leaves_the_older_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = db_at(tmp_path / "older.db", READINGS_REVISION)
    cast_readings(db)
    rows, schema = reading_rows(db), schema_of(db)
    real = buildmod.upgrade

    def failing(conn: Connection, target: str = "head") -> None:
        real(conn, target)
        conn.execute(select(text("1")).select_from(text("no_such_table")))

    monkeypatch.setattr(buildmod, "upgrade", failing)
    with pytest.raises(Exception, match="no_such_table"):
        build(db)
    assert reading_rows(db) == rows
    assert schema_of(db) == schema
    with writer(db) as engine, engine.connect() as conn:
        assert current_revision(conn) == READINGS_REVISION


def without_rowid(db: str) -> set[str]:
    """The tables a SQLite file stores WITHOUT ROWID."""
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
        return {name for name, sql in rows if sql.rstrip().upper().endswith("WITHOUT ROWID")}
    finally:
        con.close()


def test_0009_stores_the_chart_tables_without_rowid_and_back(
    tmp_path: Path, sqlite_template: Path
) -> None:
    db = built(sqlite_template, tmp_path / "rowid.db")
    ids = cast_readings(db)
    rows, before = reading_rows(db), charts(db, ids)
    moved = {"ganzhi", "trigram", "hexagram_line", "branch_bearing", "day_spirit"}
    moved |= {"noble_hour", "noble_general", "reading_line"}
    assert moved <= without_rowid(db)
    declared = {
        t.name
        for t in metadata.tables.values()
        if not t.dialect_options["sqlite"].get("with_rowid", True)
    }
    assert without_rowid(db) == declared  # the models say the same
    with writer(db) as engine:
        while step(engine, "-1") != "0008":
            pass
        assert not moved & without_rowid(db)
        assert reading_rows(db) == rows and charts(db, ids) == before
        assert step(engine, "+1") == "0009"
        assert moved <= without_rowid(db)
    build(db)
    assert reading_rows(db) == rows and charts(db, ids) == before
    assert doctor.check(db) == []


def transforms_state(db: str) -> tuple[int, int, int, str]:
    """(NULL transforms, '' transforms, whether the column is NOT NULL, a moving line's
    transform without one) of a database."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        nulls, empties = con.execute(
            "SELECT SUM(transforms IS NULL), SUM(transforms = '') FROM line_transform"
        ).fetchone()
        notnull = next(
            r[3] for r in con.execute("PRAGMA table_info(line_transform)") if r[1] == "transforms"
        )
        (transform,) = con.execute(
            "SELECT COALESCE(transform, 'NULL') FROM v_reading_line"
            " WHERE reading_id = (SELECT MAX(reading_id) FROM v_reading) AND is_moving = 1"
        ).fetchone()
        return nulls, empties, notnull, transform
    finally:
        con.close()


def test_0012_makes_no_transform_null_and_back(tmp_path: Path) -> None:
    """A moving line to which no transform applies: '' before 0012, NULL from it on (the
    rows of line_transform and the column's NOT NULL with them), and back on a downgrade."""
    db = str(tmp_path / "transform.db")
    build(db)
    cast_into(db, "乾:4", day="乙丑", month="子")  # 壬午 → 辛未: none of the eight
    assert transforms_state(db) == (62, 0, 0, "NULL")
    with writer(db) as engine:
        while step(engine, "-1") != "0011":  # the revision before the one making it NULL
            pass
        assert transforms_state(db) == (0, 62, 1, "")
        while step(engine, "+1") != head_revision():
            pass
    assert transforms_state(db) == (62, 0, 0, "NULL")
    build(db)  # the seed runs after an upgrade (the revisions after 0012 add rule rows)
    assert doctor.check(db) == []


def test_each_revision_file_is_named_after_its_revision() -> None:
    """What lets a build know the head without alembic (``building.head_revision``): each
    revision's file name begins with its revision, and the newest name is alembic's head."""
    revisions = list(script_directory().walk_revisions())
    assert all(Path(str(r.path)).name.startswith(f"{r.revision}_") for r in revisions)
    assert buildmod.newest_revision_file() == script_directory().get_current_head()
    assert head_revision() == script_directory().get_current_head()


def test_a_head_schema_of_another_revision_is_not_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A head schema file that says another revision than the newest revision file (stale,
    or damaged) is not believed: alembic names the head, and a fresh file is migrated."""
    from yimao_db.kb import head_schema

    head = head_revision()
    _, statements = head_schema.statements()
    older = script_directory().get_revision(head).down_revision
    monkeypatch.setattr(head_schema, "statements", lambda: (older, statements))

    def not_used(conn: Connection) -> None:
        raise AssertionError("the head schema file was used")

    monkeypatch.setattr(head_schema, "create", not_used)
    assert head_revision() == head
    report = build(str(tmp_path / "fresh.db"))
    assert report.after == head
    engine = writer_engine(str(tmp_path / "fresh.db"))
    with engine.connect() as conn:
        assert current_revision(conn) == head
    engine.dispose()
