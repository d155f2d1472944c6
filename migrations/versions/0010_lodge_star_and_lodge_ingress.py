"""The lodges of the sun and the moon (§8.12: 日纏, 月麗): lodge_star and lodge_ingress.

lodge_star holds the determinative star 距星 of each of the 28 lodges; lodge_ingress every
stay of the sun and the moon in a lodge in 1901-2100 (UTC), bounded by the stars' right
ascensions of date, from the table computed with ephem (yimao_db/kb/rules/lodge_table.py).
Both are reference tables the seed fills: the downgrade drops no user data.

Revision ID: 0010
Revises: 0009
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lodge_star",
        sa.Column("mansion", sa.String(length=1), nullable=False, comment="The lodge"),
        sa.Column(
            "star",
            sa.String(length=8),
            nullable=False,
            comment="Its determinative star (Bayer or Flamsteed), e.g. α Vir",
        ),
        sa.Column(
            "hip",
            sa.Integer(),
            nullable=False,
            comment="The star's number in the Hipparcos catalogue",
        ),
        sa.Column(
            "variant",
            sa.String(length=24),
            nullable=True,
            comment="The star some lists take instead, e.g. η And (HIP 4463); NULL if none",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a choice made where the book is silent (docs/rules.md)",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_lodge_star_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_lodge_star_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["mansion"], ["mansion.name"], name=op.f("fk_lodge_star_mansion_mansion")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_lodge_star_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("mansion", name=op.f("pk_lodge_star")),
        sa.UniqueConstraint("hip", name=op.f("uq_lodge_star_hip")),
        comment="The determinative star 距星 of each lodge: a lodge begins where the star's hour circle crosses the equator of date (赤道宿度, §8.12; the standard modern identification, with the star some lists take instead). Positions and proper motions: seed/data/lodge_stars.tsv.",
        info={"section": "rules"},
    )
    op.create_table(
        "lodge_ingress",
        sa.Column(
            "body", sa.String(length=1), nullable=False, comment="日 (the sun) or 月 (the moon)"
        ),
        sa.Column(
            "starts_at",
            sa.String(length=20),
            nullable=False,
            comment="The instant the body enters the lodge, UTC, YYYY-MM-DDTHH:MM:SSZ",
        ),
        sa.Column(
            "ends_at",
            sa.String(length=20),
            nullable=False,
            comment="The instant it enters the next lodge (the end of the stay, excluded), UTC",
        ),
        sa.Column(
            "mansion", sa.String(length=1), nullable=False, comment="The lodge the body is in"
        ),
        sa.CheckConstraint("body IN ('日', '月')", name=op.f("ck_lodge_ingress_body_domain")),
        sa.CheckConstraint(
            "ends_at LIKE '____-__-__T__:__:__Z'", name=op.f("ck_lodge_ingress_ends_at_utc")
        ),
        sa.CheckConstraint(
            "starts_at LIKE '____-__-__T__:__:__Z'", name=op.f("ck_lodge_ingress_starts_at_utc")
        ),
        sa.CheckConstraint("starts_at < ends_at", name=op.f("ck_lodge_ingress_starts_before_ends")),
        sa.ForeignKeyConstraint(
            ["mansion"], ["lodge_star.mansion"], name=op.f("fk_lodge_ingress_mansion_lodge_star")
        ),
        sa.PrimaryKeyConstraint("body", "starts_at", name=op.f("pk_lodge_ingress")),
        comment="Every stay of the sun 日 and the moon 月 in a lodge that overlaps 1901-2100 (UTC), for 日纏 and 月麗 (§8.12): from the instant the body's apparent geocentric right ascension of date reaches that of the lodge's determinative star (lodge_star) to the instant it reaches the next lodge's, computed with ephem (docs/rules.md). A UTC instant t falls in the row with starts_at <= t < ends_at; the rows of a body follow one another.",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("lodge_ingress")
    op.drop_table("lodge_star")
