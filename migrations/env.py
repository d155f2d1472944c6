"""Alembic environment for yimao-db.

``yimao build`` passes its open connection in ``config.attributes["connection"]`` so that the
migrations and the seed share one transaction. The ``alembic`` command line (``alembic check``,
``alembic revision --autogenerate``) connects to ``-x db=PATH_OR_URL``, ``$YIMAO_DB_URL`` or
``./yimao.db``. Revisions carry frozen DDL and view SQL; only this file sees the live models,
for autogenerate and ``alembic check``. A downgrade that would delete user data (readings,
their notes, outcomes, tags or matter) is rolled back with a message naming it, unless run
with ``-x force=1`` (:func:`yimao_db.kb.migrating.refuse_data_loss`).
"""

from __future__ import annotations

from alembic import context

from yimao_db import dialect
from yimao_db.db import writer_engine
from yimao_db.kb import migrating
from yimao_db.kb.schema import metadata

config = context.config


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    db = context.get_x_argument(as_dictionary=True).get("db")
    # foreign keys off while revisions rebuild SQLite tables; checked before the commit
    with writer_engine(db, building=True).connect() as conn:
        _run(conn)
        if conn.dialect.name == "sqlite" and dialect.sqlite_foreign_key_violations(conn):
            conn.rollback()
            raise SystemExit("foreign keys broken by the migration: rolled back")
        conn.commit()


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=metadata,
        render_as_batch=True,
        compare_type=True,
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()
        # a downgrade that would delete user data is undone here unless -x force=1
        forced = migrating.forced(context.get_x_argument(as_dictionary=True))
        migrating.refuse_data_loss(context.get_context(), forced=forced)


if context.is_offline_mode():
    raise SystemExit("yimao-db migrations run online only")
run_migrations_online()
