"""``yimao build``: create or upgrade the database to the head revision and seed it.

Migrations and seed run in one transaction on one connection: either the whole build
commits or the database is left exactly as it was (on SQLite the journal rolls back a
build that is killed part-way). A database stamped with a revision this code does not
know was made by a newer yimao-db and is refused untouched. Builds of one database take
turns (:func:`yimao_db.dialect.lock_build`): a second build started while one runs waits,
then finds the database the first left.

How the one transaction holds on SQLite: the driver's own transaction handling is off
(:mod:`yimao_db.db`), the connection starts with ``BEGIN IMMEDIATE``, and alembic is handed
that connection already inside its transaction, so ``env.py``'s ``begin_transaction()`` is a
no-op ("external transaction") and no migration commits: DDL, seed rows and the version
stamp are committed by the single ``COMMIT`` at the end. :func:`_still_in_transaction`
refuses to go on if anything (a migration with ``op.execute("COMMIT")`` or an
``autocommit_block``) ended the transaction early. ``tests/test_crash.py`` kills the build
with SIGKILL at each stage and ``tests/test_migrations.py`` traces the SQL it sends.

A new SQLite file is built under a hidden name beside its place and given its name once
committed (:func:`_build_new_file`): a build of a new path that fails or is interrupted
leaves no file. On SQLite a build at the head also makes again the views and indexes that
are missing or changed (:func:`yimao_db.kb.head_schema.restore`) and refuses a database
that lost a table; a build that fails on a file SQLite finds damaged, and ``--mend`` of one,
say it is damaged (:func:`yimao_db.db.quick_check`).

Test hook: with ``YIMAO_TEST_KILL_AT`` set to one of :data:`KILL_POINTS`, the build sends
itself SIGKILL at that point (``migration``: after the first of several revisions;
``upgrade``: after all migrations; ``seed``: after the seed sync; ``invariants``: after the
invariants, just before ``COMMIT``; ``begin``: right after ``BEGIN IMMEDIATE`` and the
revision check). It exists only for the crash tests; unset, it does nothing.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import signal
import sqlite3
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from yimao_db import dialect, sigint
from yimao_db.db import (
    QUICK_CHECK,
    damaged,
    is_sqlite,
    quick_check,
    resolve_url,
    sqlite_path,
    writer_engine,
)
from yimao_db.errors import DatabaseError, SeedCheckFailed, UsageError, shown
from yimao_db.kb import derived, head_schema, invariants, seeding
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


def head_revision() -> str:
    """The newest revision this yimao-db has, known without importing alembic (about 0.1 s
    of CPU time): the revision the head schema was generated at
    (:mod:`yimao_db.kb.head_schema`), when it is also the newest revision file's (each
    file is named after its revision, ``0031_….py``: tests/test_migrations.py holds the
    names to alembic's history). A file that is stale or damaged, or says another
    revision, is not believed: alembic answers, and such a file is not used to build."""
    try:
        recorded: str | None = head_schema.statements()[0]
    except (OSError, ValueError):
        recorded = None
    if recorded is not None and recorded == newest_revision_file():
        return recorded
    from yimao_db.kb.migrating import script_directory

    head = script_directory().get_current_head()
    assert head is not None
    return head


@cache
def newest_revision_file() -> str | None:
    """The revision of the newest file in the migrations' directory, by its name."""
    names = (p.name for p in (migrations_dir() / "versions").glob("[0-9]*_*.py"))
    return max((name.split("_", 1)[0] for name in names), default=None)


VERSION_TABLE = "alembic_version"  # where alembic stamps the schema revision
VERSION_COLUMN = "version_num"
REVISION_TABLE = "the schema revision table alembic_version"  # in messages
REVISION_SQL = "SELECT version_num FROM alembic_version"


class RevisionTableError(DatabaseError):
    """The schema revision table does not hold one revision: tampered with or damaged."""


def stored_revisions(conn: Connection) -> list[object] | None:
    """Every value of ``alembic_version.version_num`` as stored (text that is not UTF-8 comes
    back with lone surrogates), or None when there is no such table.

    RevisionTableError when it is a view, or has no ``version_num`` column.
    """
    insp = inspect(conn)
    if VERSION_TABLE in insp.get_view_names():
        raise RevisionTableError(f"{REVISION_TABLE} is a view, not a table: it was changed by hand")
    if VERSION_TABLE not in insp.get_table_names():
        return None
    if VERSION_COLUMN not in {c["name"] for c in insp.get_columns(VERSION_TABLE)}:
        raise RevisionTableError(
            f"{REVISION_TABLE} has no {VERSION_COLUMN} column: it was changed by hand"
        )
    with dialect.sqlite_tolerant_text(conn):
        return list(conn.execute(text(REVISION_SQL)).scalars())


def current_revision(conn: Connection) -> str | None:
    """The one schema revision stamped in the database; None when it has none (no
    ``alembic_version`` table, or an empty one).

    RevisionTableError when the table holds anything but one revision: several rows, NULL,
    a value that is not text, text that is not UTF-8, or no ``version_num`` column.
    """
    values = stored_revisions(conn)
    if not values:
        return None
    if len(values) > 1:
        listed = ", ".join(shown(v) for v in sorted(values[:10], key=repr))
        more = ", …" if len(values) > 10 else ""
        raise RevisionTableError(
            f"{REVISION_TABLE} holds {len(values)} rows ({listed}{more}); a database has "
            "exactly one revision: it was changed by hand"
        )
    (value,) = values
    if value is None:
        raise RevisionTableError(
            f"{REVISION_TABLE} holds NULL instead of a revision like {shown(head_revision())}"
        )
    if not isinstance(value, str):
        raise RevisionTableError(
            f"{REVISION_TABLE} holds {shown(value)} ({type(value).__name__}) instead of a "
            f"revision like {shown(head_revision())}"
        )
    if not dialect.is_utf8(value):
        raise RevisionTableError(f"{REVISION_TABLE} holds {shown(value)}, which is not UTF-8 text")
    return value


def yimao_tables(conn: Connection) -> list[str]:
    """The tables of the models that the database has."""
    from yimao_db.kb.schema import metadata

    present = set(inspect(conn).get_table_names())
    return [t.name for t in metadata.sorted_tables if t.name in present]


def no_revision_but_tables(conn: Connection) -> str | None:
    """Why a database without a revision cannot be built on: it has yimao-db tables (the
    revision table was emptied or dropped). None when it has none (never built)."""
    tables = yimao_tables(conn)
    if not tables:
        return None
    listed = ", ".join(tables[:3]) + (", …" if len(tables) > 3 else "")
    return (
        f"the database has no schema revision, but it has yimao-db tables ({listed}): "
        f"{VERSION_TABLE} was emptied or dropped"
    )


def ensure_known_revision(conn: Connection) -> str | None:
    """The database's revision, or None for a database that was never built.

    DatabaseError if the revision is unknown to this code (a newer yimao-db, or a changed
    revision table), if the revision table is damaged (RevisionTableError), or if there is
    no revision but there are tables.
    """
    current = current_revision(conn)
    if current is None:
        reason = no_revision_but_tables(conn)
        if reason is not None:
            raise RevisionTableError(
                f"{reason}; refusing to build over it. The database was left untouched."
            )
        return None
    if current != head_revision() and current not in known_revisions():
        raise DatabaseError(
            f"{unknown_revision(current)}. Upgrade yimao-db; the database was left untouched."
        )
    return current


def known_revisions() -> frozenset[str]:
    """Every revision this yimao-db has."""
    from yimao_db.kb.migrating import script_directory

    return frozenset(rev.revision for rev in script_directory().walk_revisions())


def unknown_revision(current: str) -> str:
    """What a revision this code does not know means."""
    return (
        f"the database is at schema revision {shown(current)}, which is unknown to this yimao-db "
        f"(its newest is {shown(head_revision())}): it was made by a newer yimao-db, or "
        f"{VERSION_TABLE} was changed"
    )


def migrate(conn: Connection, target: str = "head") -> None:
    """Run the migrations up to ``target`` on ``conn``, inside its open transaction."""
    from yimao_db.kb.migrating import move

    if _kill_requested("migration") and current_revision(conn) != head_revision():
        move(conn, "+1")  # test hook: one revision, then die part-way
        _test_kill("migration")
    move(conn, target)


def upgrade(conn: Connection, target: str = "head") -> None:
    """Bring ``conn`` to ``target`` inside its open transaction: an empty SQLite file to the
    head at once, from the SQL the migrations leave (:mod:`yimao_db.kb.head_schema`), any
    other database by the migrations (:func:`migrate`)."""
    if target == "head" and not _kill_requested("migration"):
        if head_schema.applies(conn, head_revision()):
            head_schema.create(conn)
            return
    migrate(conn, target)


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
    mended: int = 0  # readings whose derived rows were rewritten
    notes: tuple[str, ...] = ()  # what the user should know about the database built

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
        if self.mended:
            n = self.mended
            data += f"; the derived rows of {n} reading{'s' if n != 1 else ''} rewritten"
        return f"{where}: {schema}; {data} in {self.seconds:.2f}s"


def build(db: str | URL | None = None, *, mend: bool = False) -> BuildReport:
    """Build or upgrade the database and (re)seed it in one transaction. The derived rows
    that differ from their definitions are rewritten when the seed changed a table they
    read, or with ``mend`` (every reading compared: seconds at a million readings). A new
    SQLite file is built beside its place and put there when complete
    (:func:`_build_new_file`)."""
    url = db if isinstance(db, URL) else resolve_url(db)
    path = sqlite_path(url) if is_sqlite(url) else None
    if path is None and is_sqlite(url):
        raise UsageError(
            f"{url.render_as_string()} is a database in memory, gone when the build ends: "
            "give a file's path"
        )
    if path is None:
        return _build(url, mend=mend)
    if len(path.name.encode()) > NAME_MAX:  # SQLite could not make its -journal beside it
        raise UsageError(
            f"the file name {shown(path.name)} is too long: SQLite adds -journal to it, so "
            f"it may have at most {NAME_MAX} bytes"
        )
    _remove_abandoned(path)
    if (
        not os.path.lexists(path)
        and os.access(path.parent, os.W_OK)
        and len(_partial(path).name.encode()) <= NAME_MAX
    ):
        return _build_new_file(url, path, mend=mend)
    return _build(url, mend=mend)


def _build_new_file(url: URL, path: Path, *, mend: bool) -> BuildReport:
    """Build a new SQLite file as ``.NAME.PID.building`` beside ``path`` and give it its
    name when the build has committed (a hard link: never over a file that appeared
    meanwhile). A build that fails or is interrupted leaves no file; one killed leaves its
    hidden file, which the next build of the path removes. When another build placed its
    file first, this one builds on that file (at the head: nothing to do); on a file system
    without hard links it builds in place. A name too long for the hidden one (over some
    230 bytes) is built in place."""
    partial = _partial(path)
    try:
        report = _build(url.set(database=str(partial)), mend=mend)
        _checkpoint(partial)
        try:
            os.link(partial, path)
        except OSError:  # placed by another build first, or no hard links here
            return _build(url, mend=mend)
        return report
    finally:
        with sigint.ignored():  # a second Ctrl-C does not cut the tidying short
            for leftover in (partial, *_side_files(partial)):
                with contextlib.suppress(FileNotFoundError):
                    leftover.unlink()


BUILDING = ".building"  # the end of a new file's name while it is built
NAME_MAX = 255 - len("-journal")  # bytes of a file name, with SQLite's side files' ends
SIDE_FILES = ("-wal", "-shm", "-journal")


def _partial(path: Path) -> Path:
    """The name a new file of ``path`` is built under by this process."""
    return path.with_name(f".{path.name}.{os.getpid()}{BUILDING}")


def _side_files(path: Path) -> list[Path]:
    return [path.with_name(path.name + end) for end in SIDE_FILES]


def _checkpoint(path: Path) -> None:
    """Move everything the WAL holds into the file itself, which alone gets the name. The
    file must be there (``mode=rw``: never made empty here); no room to finish it is a
    DatabaseError."""
    try:
        conn = sqlite3.connect(f"file:{quote(str(path))}?mode=rw", uri=True)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise DatabaseError(f"database: {exc} (finishing the new file {path})") from None


def _remove_abandoned(path: Path) -> None:
    """Remove the hidden files of builds of ``path`` that were killed (their process is
    gone): exactly ``.NAME.PID.building`` and its side files, never another name's."""
    own = re.compile(
        rf"\.{re.escape(path.name)}\.(\d+){re.escape(BUILDING)}(?:-wal|-shm|-journal)?"
    )
    for found in path.parent.glob(f".{glob.escape(path.name)}.*{BUILDING}*"):
        match = own.fullmatch(found.name)
        if match and not _alive(int(match.group(1))):
            with contextlib.suppress(FileNotFoundError):
                found.unlink()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs: exists, and on Linux is not a zombie (a killed process
    whose parent has not yet collected it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    with contextlib.suppress(OSError, IndexError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    return True


def _build(url: URL, *, mend: bool) -> BuildReport:
    """:func:`build` of the database at ``url``, in place."""
    started = time.perf_counter()
    tables = seeding.compute_tables()  # self-checks run before anything is written
    engine = writer_engine(url, building=True)
    try:
        with engine.begin() as conn:
            dialect.lock_build(conn)  # PostgreSQL: builds of one database take turns
            before = ensure_known_revision(conn)
            _test_kill("begin")
            if mend:
                _refuse_damaged(conn, url)  # mending a damaged file could spread the damage
            if before != head_revision():  # at the head: alembic is not even loaded
                _upgrade(conn, before)
            _still_in_transaction(conn, "after the migrations")
            _test_kill("upgrade")
            restored = _restore(conn)
            report = seeding.sync(conn, tables)
            # a rule table they read changed, or a view was made again (or asked to): the
            # rows that differ from their definitions are written again
            views = any(kind == "view" for kind, _ in restored)
            stale = views or derived.stale(report.changed_tables)
            mended = derived.mend(conn) if mend or stale else 0
            dialect.analyze(conn, report.changed_tables)  # PostgreSQL: plans for their rows
            _test_kill("seed")
            failed = invariants.violations(conn)
            if conn.dialect.name == "sqlite":
                failed += _foreign_key_violations(conn)
            if failed:
                lines = [f"{name}: {rows}" for name, rows in failed]
                raise SeedCheckFailed("SQL invariants failed:\n  " + "\n  ".join(lines))
            jit = dialect.database_without_jit(conn)  # PostgreSQL: a note, or None
            _still_in_transaction(conn, "before the commit")
            _test_kill("invariants")
    except (SeedCheckFailed, DBAPIError, RevisionTableError) as exc:
        # the file may be damaged where this build read it (SQLite finds damage only where
        # it reads): say so, rather than what the damage made of the build (not for an
        # error about the machine: busy, locked, full)
        if isinstance(exc, DBAPIError) and not dialect.sqlite_file_problem(exc):
            raise
        damage = quick_check(sqlite_path(url) if is_sqlite(url) else None)
        if damage is not None:
            raise DatabaseError(f"{damage}; run `yimao check` to see where") from exc
        raise
    finally:
        engine.dispose()
    seconds = time.perf_counter() - started
    notes: tuple[str, ...] = () if jit is None else (jit,)
    if restored:
        notes += (
            "made again the views and indexes that were missing or changed: "
            + ", ".join(name for _, name in restored),
        )
    return BuildReport(before, head_revision(), report, seconds, mended, notes)


def _upgrade(conn: Connection, before: str | None) -> None:
    """:func:`upgrade`, where a migration that finds what it makes already made says that
    the revision table is probably wrong (edited by hand, or damaged)."""
    try:
        upgrade(conn)
    except DBAPIError as exc:
        made = ("already exists", "duplicate column name")
        if before is None or not any(m in str(exc.orig) for m in made):
            raise
        raise DatabaseError(
            f"cannot upgrade from revision {before}: {exc.orig}; the schema already holds "
            f"what a later revision makes, so the revision table (alembic_version, "
            f"{before}) is probably wrong: restore the file from a copy"
        ) from None


def _restore(conn: Connection) -> list[tuple[str, str]]:
    """The views and indexes made again (:func:`yimao_db.kb.head_schema.restore`)."""
    try:
        return head_schema.restore(conn, head_revision())
    except head_schema.DamagedSchema as exc:
        raise DatabaseError(str(exc)) from None


def _refuse_damaged(conn: Connection, url: URL) -> None:
    """DatabaseError when SQLite's quick check finds the file damaged (``--mend``)."""
    if conn.dialect.name != "sqlite":
        return
    damage = damaged(sqlite_path(url), [str(r[0]) for r in conn.exec_driver_sql(QUICK_CHECK)])
    if damage is not None:
        raise DatabaseError(
            f"{damage}; --mend rewrites derived rows, not damaged pages: run `yimao check`"
        )
