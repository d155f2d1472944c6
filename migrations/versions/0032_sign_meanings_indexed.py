"""Indexes of a sign's meanings and of what it cancels, for the counts grouped by them.

Grouped by a sign's meaning (English or Chinese) or by what it cancels, a count of
``v_reading_sign`` read every stored sign, looked up its sign and sorted them: 32-39 × the
time of reading every cast line once at 100,000 readings, where a count of the signs should
take at most 5 ×. With an index of ``sign`` led by each, as the sign's other attributes have
had since revision 0026, SQLite reads ``sign`` in that order and counts each sign's range of
``reading_sign``'s index: 4.2-4.6 ×. ``sign`` is a rule table: a write of readings does not
touch the indexes.

The indexes hold nothing new; the downgrade drops them.

Revision ID: 0032
Revises: 0031
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# the attributes of a sign given an index led by each, then the sign's name
GROUPINGS = ("meaning", "meaning_zh", "cancels")


def upgrade() -> None:
    for name in GROUPINGS:
        op.create_index(op.f(f"ix_sign_{name}"), "sign", [name, "name"])


def downgrade() -> None:
    for name in GROUPINGS:
        op.drop_index(op.f(f"ix_sign_{name}"), table_name="sign")
