"""The tables every chart line joins, stored WITHOUT ROWID on SQLite.

``reading_line`` and the rule tables that ``v_reading_line`` and ``v_reading_sign`` look up
for every line of a reading (hexagram_line, branch_bearing, day_spirit, noble_general,
noble_hour, ganzhi, trigram) are keyed by a composite or text primary key. Stored
``WITHOUT ROWID``, a lookup by that key is one B-tree search instead of a search of the
key's index and a fetch of the row. Columns, constraints, rows and indexes are unchanged;
PostgreSQL has no rowid, and nothing changes there. An existing database's readings are
copied once (about a second per 100,000 readings: 6.2 s for a million here).

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

from alembic import op

from yimao_db.kb import migrating

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = (
    "ganzhi",
    "trigram",
    "hexagram_line",
    "branch_bearing",
    "day_spirit",
    "noble_hour",
    "noble_general",
    "reading_line",
)


def upgrade() -> None:
    migrating.rebuild_sqlite_tables(op, TABLES, with_rowid=False)


def downgrade() -> None:
    migrating.rebuild_sqlite_tables(op, TABLES, with_rowid=True)
