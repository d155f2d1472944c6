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

A revision that changes a view lists it together with every view that selects from it
(PostgreSQL will not drop a view another one depends on): ``python -m yimao_db.views
revision NAME`` prints that list with the SQL of the package's definitions, and the tests
check that the head revisions agree with :func:`yimao_db.views.views`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from alembic.operations import Operations


@dataclass(frozen=True)
class ViewSQL:
    """One version of a view, frozen in the revision that creates it."""

    name: str
    sql: str


def create_views(op: Operations, views: Sequence[ViewSQL]) -> None:
    """Create ``views`` in order (each after the views it selects from)."""
    for view in views:
        op.execute(f"CREATE VIEW {view.name} AS {view.sql}")


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


def replace_views(op: Operations, views: Sequence[ViewSQL], replaces: Mapping[str, str]) -> None:
    """Replace the versions named by ``replaces`` (view → revision) with ``views``."""
    drop_views(op, previous_views(op, views, replaces))
    create_views(op, views)


def restore_views(op: Operations, views: Sequence[ViewSQL], replaces: Mapping[str, str]) -> None:
    """Undo :func:`replace`: drop ``views`` and create the versions they replaced again."""
    drop_views(op, views)
    create_views(op, previous_views(op, views, replaces))


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
