"""The counts of the signs: ``sign_count`` and ``v_sign_count``.

Counting every stored sign, how often each fired and in how many readings, reads all of
``reading_sign`` (some 18 rows a reading): 4.4 s at a million readings, past the limit of a
page of ``yimao serve`` (the canned query ``sign_frequency``). ``sign_count`` holds the
count per sign, changed with the rows of ``reading_sign`` in the same transaction
(yimao_db.kb.sign_count), and ``v_sign_count`` reads it with each sign's attributes. The
revision counts the signs already stored. ``yimao check`` counts them again.

The index of ``reading_sign`` by reading holds the sign and the line too: the signs of the
readings that have an outcome (``yimao stats --by sign``) are read from it alone, where
each row's sign was looked up in the table (2.9 s for 100,000 outcomes at a million
readings; 1.9 s so).

The downgrade drops both: the counts are derived, not user data.

Revision ID: 0027
Revises: 0026
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating, sign_count
from yimao_db.kb.migrating import ViewSQL

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VIEWS = (
    ViewSQL(
        "v_sign_count",
        """
SELECT s.name AS sign, s.subject, s.polarity, s.weight, s.passage, s.basis, c.fired,
       c.readings
FROM sign_count c
JOIN sign s ON s.name = c.sign
""",
    ),
)
REPLACES: dict[str, str] = {}


def upgrade() -> None:
    op.create_table(
        "sign_count",
        sa.Column("sign", sa.Text(), nullable=False, comment="The sign, e.g. 世空"),
        sa.Column(
            "fired",
            sa.Integer(),
            nullable=False,
            comment="How many rows of reading_sign it has (a line each)",
        ),
        sa.Column(
            "readings", sa.Integer(), nullable=False, comment="In how many readings it fired"
        ),
        sa.PrimaryKeyConstraint("sign", name=op.f("pk_sign_count")),
        comment="Derived: how many times each sign fired in reading_sign and in how many "
        "readings, changed with its rows in the same transaction (yimao check counts them "
        "again). No row for a sign that fired nowhere.",
        info={"section": "readings"},
    )
    migrating.replace_views(op, VIEWS, REPLACES)
    sign_count.refresh(op.get_bind())
    op.drop_index(op.f("ix_reading_sign_reading_id"), table_name="reading_sign")
    op.create_index(
        op.f("ix_reading_sign_reading_id"), "reading_sign", ["reading_id", "sign", "position"]
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_reading_sign_reading_id"), table_name="reading_sign")
    op.create_index(op.f("ix_reading_sign_reading_id"), "reading_sign", ["reading_id"])
    migrating.restore_views(op, VIEWS, REPLACES)
    op.drop_table("sign_count")
