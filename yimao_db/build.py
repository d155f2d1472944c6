"""``yimao build``: create or upgrade the database to the head revision and seed it.

Migrations and seed run in one transaction on one connection: either the whole build
commits or the database is left exactly as it was (on SQLite the journal rolls back a
build that is killed part-way). A database stamped with a revision this code does not
know was made by a newer yimao-db and is refused untouched.

How the one transaction holds on SQLite: the driver's own transaction handling is off
(:mod:`yimao_db.db`), the connection starts with ``BEGIN IMMEDIATE``, and alembic is handed
that connection already inside its transaction, so ``env.py``'s ``begin_transaction()`` is a
no-op ("external transaction") and no migration commits: DDL, seed rows and the version
stamp are committed by the single ``COMMIT`` at the end. :func:`_still_in_transaction`
refuses to go on if anything (a migration with ``op.execute("COMMIT")`` or an
``autocommit_block``) ended the transaction early. ``tests/test_crash.py`` kills the build
with SIGKILL at each stage and ``tests/test_migrations.py`` traces the SQL it sends.

Test hook: with ``YIMAO_TEST_KILL_AT`` set to one of :data:`KILL_POINTS`, the build sends
itself SIGKILL at that point (``migration``: after the first of several revisions;
``upgrade``: after all migrations; ``seed``: after the seed sync; ``invariants``: after the
invariants, just before ``COMMIT``; ``begin``: right after ``BEGIN IMMEDIATE`` and the
revision check). It exists only for the crash tests; unset, it does nothing.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection
from sqlalchemy.engine import URL

from yimao_db import dialect, invariants, seeding
from yimao_db.db import writer_engine
from yimao_db.errors import DatabaseError, SeedCheckFailed
from yimao_db.paths import migrations_dir

KILL_ENV = "YIMAO_TEST_KILL_AT"
KILL_POINTS = ("begin", "migration", "upgrade", "seed", "invariants")


def _kill_requested(point: str) -> bool:
    return os.environ.get(KILL_ENV) == point


def _test_kill(point: str) -> None:
    """Test hook (see the module docstring): die here, as a crash or ``kill -9`` would."""
    if _kill_requested(point):
        os.kill(os.getpid(), signal.SIGKILL)


def _still_in_transaction(conn: Connection, stage: str) -> None:
    """Refuse to go on if the build's one transaction was committed part-way (SQLite)."""
    if conn.dialect.name != "sqlite":
        return
    dbapi = conn.connection.dbapi_connection
    if dbapi is not None and not getattr(dbapi, "in_transaction", True):
        raise DatabaseError(
            f"the build transaction ended early ({stage}): a migration committed on its own; "
            "the build must run in one transaction"
        )


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def ensure_known_revision(conn: Connection) -> str | None:
    """The database's revision; DatabaseError if it is newer than (unknown to) this code."""
    current = current_revision(conn)
    if current is not None:
        script = ScriptDirectory.from_config(alembic_config())
        if current not in {rev.revision for rev in script.walk_revisions()}:
            raise DatabaseError(
                f"the database is at schema revision {current!r}, which this yimao-db does not "
                f"know (its newest is {head_revision()!r}); it was made by a newer yimao-db. "
                "Upgrade yimao-db; the database was left untouched."
            )
    return current


def upgrade(conn: Connection, target: str = "head") -> None:
    """Run the migrations up to ``target`` on ``conn``, inside its open transaction."""
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    if _kill_requested("migration") and current_revision(conn) != head_revision():
        command.upgrade(cfg, "+1")  # test hook: one revision, then die part-way
        _test_kill("migration")
    command.upgrade(cfg, target)


def _foreign_key_violations(conn: Connection) -> list[tuple[str, list[tuple[object, ...]]]]:
    """SQLite: every row whose foreign key refers to nothing (the build runs with foreign
    keys off so that migrations can rebuild tables; this is their check)."""
    rows = [tuple(r) for r in dialect.sqlite_foreign_key_violations(conn)]
    return [("every foreign key refers to a row", rows)] if rows else []


@dataclass
class BuildReport:
    before: str | None
    after: str
    report: seeding.SyncReport
    seconds: float

    def describe(self, where: str) -> str:
        if self.before is None:
            schema = f"created schema at revision {self.after}"
        elif self.before != self.after:
            schema = f"upgraded schema {self.before} → {self.after}"
        else:
            schema = f"schema already at head {self.after}"
        r = self.report
        rows = sum(r.rows.values())
        if r.changed:
            data = (
                f"seeded {len(r.rows)} tables ({rows} rows: {sum(r.inserted.values())} inserted, "
                f"{sum(r.updated.values())} updated, {sum(r.deleted.values())} deleted)"
            )
        else:
            data = f"reference data unchanged ({len(r.rows)} tables, {rows} rows)"
        return f"{where}: {schema}; {data} in {self.seconds:.2f}s"


def build(db: str | URL | None = None) -> BuildReport:
    """Build or upgrade the database and (re)seed it in one transaction."""
    started = time.perf_counter()
    tables = seeding.compute_tables()  # self-checks run before anything is written
    engine = writer_engine(db, building=True)
    try:
        with engine.begin() as conn:
            before = ensure_known_revision(conn)
            _test_kill("begin")
            upgrade(conn)
            _still_in_transaction(conn, "after the migrations")
            _test_kill("upgrade")
            report = seeding.sync(conn, tables)
            _test_kill("seed")
            failed = invariants.violations(conn)
            if conn.dialect.name == "sqlite":
                failed += _foreign_key_violations(conn)
            if failed:
                lines = [f"{name}: {rows}" for name, rows in failed]
                raise SeedCheckFailed("SQL invariants failed:\n  " + "\n  ".join(lines))
            _still_in_transaction(conn, "before the commit")
            _test_kill("invariants")
    finally:
        engine.dispose()
    return BuildReport(before, head_revision(), report, time.perf_counter() - started)
