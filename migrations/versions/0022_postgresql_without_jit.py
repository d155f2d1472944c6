"""PostgreSQL: the database does not compile its plans to machine code (``jit = off``).

A report over every reading's signs (``SELECT sign, count(*) FROM v_reading_sign GROUP BY
1``) plans some ninety joined tables in 24 arms; at 100,000 readings the plan's cost passes
PostgreSQL's thresholds for JIT compilation with inlining and optimisation, which took 10
of the query's 15 s and gained nothing back (4.7 s without it). The setting is the
database's (``ALTER DATABASE … SET jit = off``), so that any client's sessions (psql, a
reporting tool) get it, not only yimao's, whose engines also set it for each session
(``yimao_db.dialect.postgresql_session``: they do so where this revision could not).

Only the database's owner (or a superuser) may change its settings: for any other role
(a NOINHERIT member of the owner role too) the revision changes nothing and says so in the
log. The downgrade removes the setting.
SQLite has no JIT: nothing to do there.

Revision ID: 0022
Revises: 0021
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Change the current database's jit setting (SET or RESET) when the role may: its owner, a
# member of the owner role that inherits its privileges, or a superuser. The statement
# itself decides, not a test of membership first: a NOINHERIT member of the owner role is a
# member (pg_has_role … 'MEMBER') that ALTER DATABASE refuses all the same.
_SETTING = """
DO $$
BEGIN
  EXECUTE pg_catalog.format('ALTER DATABASE %I {change}', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'jit left as it is: only the owner of database % may change it',
    current_database();
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_SETTING.format(change="SET jit = off"))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_SETTING.format(change="RESET jit"))
