"""What revisions share: views as replaceable objects, and the guard for table rebuilds.

Views (after alembic's cookbook, "replaceable objects"): a revision freezes the SQL of
every view it creates or changes in a module-level ``VIEWS`` tuple of :class:`ViewSQL`, and
calls these operations on alembic's ``op``:

- :func:`create_views` / :func:`drop_views`: create the views in order, or drop them in
  reverse order;
- :func:`replace_views`: ``replaces`` names, for each view, the revision whose ``VIEWS`` holds the
  version being replaced (a view it does not name is new); the old versions are dropped
  (dependants first) and the new ones created; :func:`restore_views` undoes it for
  ``downgrade()``;
- :func:`previous_views`: those old versions, for a revision that must drop them before it
  changes the tables they select from and create the new ones after.

A downgrade that drops what people stored (readings, their notes, outcomes and tags, what a
reading is about) calls :func:`user_data_dropped` first; the environment
(``migrations/env.py``) then refuses the whole downgrade, naming what it would delete and
changing nothing, unless it is run with ``-x force=1`` (:func:`refuse_data_loss`).

A revision that changes a view lists it together with every view that selects from it
(PostgreSQL will not drop a view another one depends on): ``python -m yimao_db.kb.views
revision NAME`` prints that list with the SQL of the package's definitions, and the tests
check that the head revisions agree with :func:`yimao_db.kb.views.views`.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol

import sqlalchemy as sa
from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

from yimao_db.kb import derived
from yimao_db.paths import migrations_dir


class Operations(Protocol):
    """What these helpers use of alembic's ``op``.

    A revision passes the module ``alembic.op`` (a proxy whose functions alembic types in
    ``op.pyi``), or an ``alembic.operations.Operations`` object; both fit.
    """

    def execute(self, sqltext: str) -> None: ...

    def get_bind(self) -> Connection: ...

    def get_context(self) -> MigrationContext: ...


@dataclass(frozen=True)
class ViewSQL:
    """One version of a view, frozen in the revision that creates it."""

    name: str
    sql: str


def create_views(op: Operations, views: Sequence[ViewSQL], *, same_rows: bool = False) -> None:
    """Create ``views`` in order (each after the views it selects from). A derived table
    whose definition is among them (:mod:`yimao_db.kb.derived`) is rewritten from it: a
    revision that changes a definition changes the stored rows with it. ``same_rows``: the
    revision writes a definition another way that gives the same rows; only the readings
    whose stored rows differ from it are written again (:func:`derived.mend_table`)."""
    for view in views:
        op.execute(f"CREATE VIEW {view.name} AS {view.sql}")
    names = {v.name for v in views}
    conn = op.get_bind()
    for d in derived.DERIVED:
        if d.definition in names and sa.inspect(conn).has_table(d.table):
            if same_rows:
                derived.mend_table(conn, d)
            else:
                derived.refresh_table(conn, d)


def drop_views(op: Operations, views: Sequence[ViewSQL]) -> None:
    """Drop ``views`` in reverse order (dependants first)."""
    for view in reversed(views):
        op.execute(f"DROP VIEW {view.name}")


def previous_views(
    op: Operations, views: Sequence[ViewSQL], replaces: Mapping[str, str]
) -> list[ViewSQL]:
    """The versions of ``views`` that ``replaces`` names; a view it does not name is new in
    this revision and has no previous version."""
    script = op.get_context().script
    assert script is not None, "migrating needs a migration context with its script directory"
    if not set(replaces) <= {v.name for v in views}:
        raise ValueError(
            f"replaces names {sorted(replaces)}, the views are {[v.name for v in views]}"
        )
    found = []
    for view in views:
        if view.name not in replaces:
            continue
        revision = script.get_revision(replaces[view.name])
        assert revision is not None and revision.module is not None
        old = {v.name: v for v in revision.module.VIEWS}
        found.append(old[view.name])
    return found


def replace_views(
    op: Operations,
    views: Sequence[ViewSQL],
    replaces: Mapping[str, str],
    *,
    same_rows: bool = False,
) -> None:
    """Replace the versions named by ``replaces`` (view → revision) with ``views``
    (``same_rows``: see :func:`create_views`)."""
    drop_views(op, previous_views(op, views, replaces))
    create_views(op, views, same_rows=same_rows)


def restore_views(
    op: Operations,
    views: Sequence[ViewSQL],
    replaces: Mapping[str, str],
    *,
    same_rows: bool = False,
) -> None:
    """Undo :func:`replace_views`: drop ``views`` and create the versions they replaced
    again."""
    drop_views(op, views)
    create_views(op, previous_views(op, views, replaces), same_rows=same_rows)


def require_foreign_keys_off(op: Operations) -> None:
    """Refuse to rebuild a SQLite table with foreign keys on.

    Alembic's batch mode changes a SQLite table by copying it into a new one and dropping
    the old; with foreign keys on, that drop deletes the old rows first and the deletion
    cascades to the rows that refer to them (a reading's lines). ``yimao build`` and
    ``alembic`` (through ``migrations/env.py``) run with foreign keys off and check every
    key before committing; anything else that runs the revisions must do the same.
    """
    conn = op.get_bind()
    if conn.dialect.name == "sqlite" and conn.exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise RuntimeError(
            "this revision rebuilds a table: run it with SQLite foreign keys off (PRAGMA "
            "foreign_keys=OFF before the transaction, as yimao build does) so that the "
            "rebuild cannot cascade, and check the keys before committing"
        )


_CREATE_TABLE = re.compile(r'^CREATE TABLE\s+("?)(\w+)\1\s*\(', re.IGNORECASE)
_WITHOUT_ROWID = re.compile(r"\)\s*WITHOUT\s+ROWID\s*$", re.IGNORECASE)


def rebuild_sqlite_tables(op: Operations, tables: Sequence[str], *, with_rowid: bool) -> None:
    """SQLite: store ``tables`` ``WITHOUT ROWID`` (``with_rowid=False``: a lookup by primary
    key is then one B-tree search instead of an index search and a row fetch) or back with a
    rowid; nothing on another database, and nothing for a table that is already so.

    Each table is copied into a new one made from its own ``CREATE TABLE`` text (its columns,
    constraints and rows unchanged), the old one dropped and the new one renamed; its
    indexes are made again. The rename runs with ``legacy_alter_table`` on, so that SQLite
    leaves the views over the table alone (they name it, and find the new one). Needs
    foreign keys off (:func:`require_foreign_keys_off`): no key is checked until the build's
    own check before COMMIT.
    """
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    require_foreign_keys_off(op)
    legacy = conn.exec_driver_sql("PRAGMA legacy_alter_table").scalar()
    conn.exec_driver_sql("PRAGMA legacy_alter_table = ON")
    try:
        for table in tables:
            _rebuild_sqlite_table(conn, table, with_rowid)
    finally:
        conn.exec_driver_sql(f"PRAGMA legacy_alter_table = {'ON' if legacy else 'OFF'}")


def _rebuild_sqlite_table(conn: Connection, table: str, with_rowid: bool) -> None:
    body = _create_sql(conn, table)
    if (_WITHOUT_ROWID.search(body) is None) == with_rowid:
        return
    _rebuild(conn, table, _WITHOUT_ROWID.sub(")", body) if with_rowid else body + " WITHOUT ROWID")


def _create_sql(conn: Connection, table: str) -> str:
    sql: str = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).scalar_one()
    return sql.rstrip()


def _rebuild(conn: Connection, table: str, body: str) -> None:
    """Copy ``table`` into a new table made by the CREATE TABLE text ``body``, drop it, and
    give the new one its name and indexes (legacy_alter_table on, foreign keys off)."""
    indexes = [
        row[0]
        for row in conn.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
            " AND sql IS NOT NULL ORDER BY name",
            (table,),
        )
    ]
    temp = f"_rebuild_{table}"
    match = _CREATE_TABLE.match(body)
    assert match is not None and match.group(2) == table, body[:60]
    conn.exec_driver_sql(f'CREATE TABLE "{temp}" (' + body[match.end() :])
    conn.exec_driver_sql(f'INSERT INTO "{temp}" SELECT * FROM "{table}"')
    conn.exec_driver_sql(f'DROP TABLE "{table}"')
    conn.exec_driver_sql(f'ALTER TABLE "{temp}" RENAME TO "{table}"')
    for index in indexes:
        conn.exec_driver_sql(index)


def set_nullable(op: Operations, table: str, column: str, type_sql: str, *, nullable: bool) -> None:
    """SQLite: let ``table.column`` (of SQL type ``type_sql``, as SQLite's CREATE TABLE text
    spells it: ``VARCHAR(40)``) hold NULL, or refuse it again; nothing on another database
    (where ``op.alter_column(…, nullable=…)`` does it). SQLite cannot alter a column: the
    table is rebuilt from its own CREATE TABLE text with the column's ``NOT NULL`` taken out
    or put back (rows, constraints, indexes, ``WITHOUT ROWID`` and the views over it
    unchanged; foreign keys must be off, :func:`require_foreign_keys_off`)."""
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    require_foreign_keys_off(op)
    body = _create_sql(conn, table)
    strict, loose = f"\n\t{column} {type_sql} NOT NULL,", f"\n\t{column} {type_sql},"
    old, new = (strict, loose) if nullable else (loose, strict)
    if body.count(old) != 1:
        if body.count(new) == 1:
            return  # already so
        raise ValueError(f"{table}.{column} {type_sql} is not in the table's SQL: {body[:200]}")
    edit_sqlite_table(op, table, old, new)


def edit_sqlite_table(op: Operations, table: str, old: str, new: str) -> None:
    """SQLite: rebuild ``table`` from its own CREATE TABLE text with ``old`` (which must be
    in it once) replaced by ``new``: a CHECK changed, a constraint added (rows, indexes,
    ``WITHOUT ROWID`` and the views over it unchanged; foreign keys must be off,
    :func:`require_foreign_keys_off`); nothing on another database, where the revision
    alters the constraint itself."""
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    require_foreign_keys_off(op)
    body = _create_sql(conn, table)
    if body.count(old) != 1:
        raise ValueError(f"{table}: {old!r} is not in the table's SQL once: {body[:200]}")
    legacy = conn.exec_driver_sql("PRAGMA legacy_alter_table").scalar()
    conn.exec_driver_sql("PRAGMA legacy_alter_table = ON")
    try:
        _rebuild(conn, table, body.replace(old, new))
    finally:
        conn.exec_driver_sql(f"PRAGMA legacy_alter_table = {'ON' if legacy else 'OFF'}")


def replace_check(op: Operations, table: str, name: str, old: str, new: str) -> None:
    """Replace the CHECK constraint ``name`` of ``table``, whose expression is ``old``, with
    one whose expression is ``new``: PostgreSQL drops and adds it; SQLite rebuilds the
    table (:func:`edit_sqlite_table`). Nothing when it already reads ``new``."""
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        conn.exec_driver_sql(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        conn.exec_driver_sql(f"ALTER TABLE {table} ADD CONSTRAINT {name} CHECK ({new})")
        return
    was, now = f"CONSTRAINT {name} CHECK ({old})", f"CONSTRAINT {name} CHECK ({new})"
    if _create_sql(conn, table).count(now) == 1:
        return  # already so
    edit_sqlite_table(op, table, was, now)


# --- downgrades that would delete what people stored ------------------------------------------

FORCE = "force"  # alembic -x force=1: a downgrade may delete user data
_LOST = "yimao_user_data_lost"  # the migration context's record of it, for env.py


@dataclass(frozen=True)
class DataLoss:
    """What one downgrade step would delete: ``count`` rows, described by ``what`` (a format
    string with ``{n}`` and ``{s}``, the plural ending)."""

    revision: str
    what: str
    count: int

    def __str__(self) -> str:
        return self.what.format(n=self.count, s="" if self.count == 1 else "s")


def user_data_dropped(op: Operations, revision: str, counts: Mapping[str, str]) -> None:
    """Called first in a ``downgrade()`` that drops user data: ``counts`` maps a description
    (``"{n} note{s}"``) to the SQL counting the rows this step deletes. Each one found is
    recorded in the migration context; :func:`refuse_data_loss` decides after the last step,
    before anything is committed. The steps of one ``alembic downgrade`` run in one
    transaction (``transaction_per_migration`` is off), so the refusal undoes them all."""
    conn = op.get_bind()
    lost: list[DataLoss] = op.get_context().opts.setdefault(_LOST, [])
    for what, sql in counts.items():
        count = int(conn.exec_driver_sql(sql).scalar_one())
        if count:
            lost.append(DataLoss(revision, what, count))


def data_lost(context: MigrationContext) -> list[DataLoss]:
    """What the steps run in ``context`` recorded with :func:`user_data_dropped`."""
    return list(context.opts.get(_LOST, ()))


def describe_loss(lost: Iterable[DataLoss]) -> str:
    """``3 notes, 1 outcome (revision 0007) and 2 readings, lines included (revision 0003)``."""
    by_revision: dict[str, list[str]] = {}
    for loss in lost:
        by_revision.setdefault(loss.revision, []).append(str(loss))
    parts = [f"{', '.join(items)} (revision {rev})" for rev, items in by_revision.items()]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def refuse_data_loss(context: MigrationContext, *, forced: bool) -> None:
    """After the steps of a downgrade, before its commit: unless ``forced``, raise alembic's
    CommandError (``FAILED: …`` on the command line) naming what the downgrade would delete,
    so that its transaction is rolled back and the database stays as it was (a caller that
    gave alembic its own connection must roll back on the error, as ``with engine.begin()``
    does); when forced, say what was deleted (alembic's messages, on stdout)."""
    from alembic.util import CommandError, msg

    lost = data_lost(context)
    if not lost:
        return
    said = describe_loss(lost)
    if forced:
        msg(f"the downgrade deleted user data (-x {FORCE}=1): {said}")
        return
    raise CommandError(
        f"this downgrade would delete user data: {said}; nothing was changed. Back the "
        "database up first (copy the file, or pg_dump) and run the downgrade again with "
        f"-x {FORCE}=1 to delete it."
    )


def forced(x_arguments: Mapping[str, str]) -> bool:
    """Whether alembic's ``-x`` arguments allow a downgrade to delete user data."""
    return x_arguments.get(FORCE, "").strip().lower() in ("1", "yes", "true")


def alembic_config() -> Config:
    """alembic's configuration for the package's revisions (``migrations/``, or the copy an
    installed wheel ships)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    return cfg


@cache
def script_directory() -> ScriptDirectory:
    """The package's revisions as alembic reads them, read once in a process: alembic runs
    every revision's module each time it reads the directory (compiling it, where no
    bytecode was written), and a build asked for the head and the known revisions several
    times. A running migration reads its own (``op.get_context().script``)."""
    return ScriptDirectory.from_config(alembic_config())


def move(conn: Connection, target: str, *, down: bool = False, x: Sequence[str] = ()) -> None:
    """Upgrade ``conn`` to ``target`` (with ``down``: downgrade it), inside its open
    transaction, as ``alembic upgrade``/``downgrade`` would with the ``-x`` arguments ``x``
    (``force=1``). The revisions are those read once in the process
    (:func:`script_directory`): alembic's commands read the directory, running every
    revision's module, each time they are called (a walk of the revisions one step at a
    time read them some 90 times)."""
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    cfg.cmd_opts = argparse.Namespace(x=list(x))
    script = script_directory()

    def steps(revision: str, _context: MigrationContext) -> object:
        if down:
            return script._downgrade_revs(target, revision)
        return script._upgrade_revs(target, revision)

    with EnvironmentContext(
        cfg, script, fn=steps, as_sql=False, starting_rev=None, destination_rev=target
    ):
        script.run_env()
