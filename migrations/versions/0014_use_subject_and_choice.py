"""用神: subjects, the choice rule as data, reading.about and its change log, the views.

The tables subject, matter_subject, use_role, relative_role, use_candidate_rank,
use_loss_reason, fly_hidden_relation and use_rule (docs/use.md); reading.about (the
subject asked about) and reading_about_change (yimao about); the new views
v_reading_use_candidate and v_reading_use. The downgrade refuses to drop a stored subject
or change unless forced.

Revision ID: 0014
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0014"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ABOUT_COMMENT = (
    "The subject asked about (docs/use.md): its 用神 is v_reading_use; NULL if not said. Set at "
    "the cast (--about, or the matter's default subject) or later with yimao about, which "
    "records the change in reading_about_change"
)

VIEWS = (
    ViewSQL(
        "v_reading_use_candidate",
        """
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, c.relative, c.source, c.position,
       c.is_moving, c.is_world, c.is_response, c.strength, c.is_void, c.is_month_break,
       c.key_rank, c.rank, c.candidate_count, lr.reason
FROM (
  SELECT a.*,
         ROW_NUMBER() OVER w AS rank,
         FIRST_VALUE(a.key_rank) OVER w AS chosen_rank,
         COUNT(*) OVER (PARTITION BY a.reading_id, a.role) AS candidate_count
  FROM (
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, s.kind AS source, l.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
JOIN subject s ON s.name = r.about
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role
JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.position = sp.position
JOIN reading_line rl ON rl.reading_id = r.id AND rl.position = l.position
JOIN line_value lv ON lv.value = rl.value

LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
JOIN use_candidate_rank k ON k.is_moving = lv.is_moving AND k.is_world = l.is_world
  AND k.is_response = l.is_response AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break
WHERE ur.by_place = 1
UNION ALL
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, 'visible' AS source, l.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
JOIN subject s ON s.name = r.about
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role
JOIN hexagram_line l ON l.king_wen = r.primary_kw AND l.relative = rr.relative
JOIN reading_line rl ON rl.reading_id = r.id AND rl.position = l.position
JOIN line_value lv ON lv.value = rl.value

LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = l.branch
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = l.branch
JOIN use_candidate_rank k ON k.is_moving = lv.is_moving AND k.is_world = l.is_world
  AND k.is_response = l.is_response AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break
WHERE s.place IS NULL OR ur.by_place = 0
UNION ALL
SELECT r.id AS reading_id, r.about AS subject, rr.role, ur.ordinal AS role_ordinal, rr.relative, 'hidden' AS source, hs.position AS position, k.is_moving, k.is_world, k.is_response, k.strength, k.is_void, k.is_month_break, k.rank AS key_rank

FROM reading r
JOIN subject s ON s.name = r.about
LEFT JOIN line_place sp ON sp.king_wen = r.primary_kw AND sp.place = s.place
LEFT JOIN hexagram_line sl ON sl.king_wen = r.primary_kw AND sl.position = sp.position
JOIN relative_role rr ON rr.use_relative = COALESCE(s.relative, sl.relative)
JOIN use_role ur ON ur.role = rr.role
JOIN hidden_spirit hs ON hs.king_wen = r.primary_kw AND hs.relative = rr.relative

LEFT JOIN branch_in_month bm ON bm.month_branch = r.month_branch AND bm.branch = hs.branch
LEFT JOIN branch_on_day bd ON bd.day_gz = r.day_gz AND bd.branch = hs.branch
JOIN use_candidate_rank k ON k.is_moving = 0 AND k.is_world = 0
  AND k.is_response = 0 AND k.strength = bm.strength AND k.is_void = bd.is_void
  AND k.is_month_break = bm.is_month_break
WHERE s.place IS NULL OR ur.by_place = 0
  ) a
  WINDOW w AS (PARTITION BY a.reading_id, a.role ORDER BY a.key_rank, a.position)
) c
LEFT JOIN use_loss_reason lr
  ON c.rank > 1 AND lr.winner_rank = c.chosen_rank AND lr.loser_rank = c.key_rank
""",
    ),
    ViewSQL(
        "v_reading_use",
        """
SELECT c.reading_id, c.subject, c.role, c.role_ordinal, ur.mark, c.relative, c.source,
       c.position, COALESCE(hz.stem, vl.stem) AS stem, COALESCE(vh.branch, vl.branch) AS branch,
       COALESCE(vh.element, vl.element) AS element, COALESCE(vh.ganzhi, vl.ganzhi) AS ganzhi,
       c.strength, COALESCE(vh.stage, vl.stage) AS stage,
       COALESCE(vh.day_on, vl.day_on) AS day_on,
       COALESCE(vh.day_generates, vl.day_generates) AS day_generates,
       COALESCE(vh.day_helps, vl.day_helps) AS day_helps,
       COALESCE(vh.day_controls, vl.day_controls) AS day_controls,
       COALESCE(vh.day_combines, vl.day_combines) AS day_combines,
       COALESCE(vh.month_on, vl.month_on) AS month_on,
       COALESCE(vh.month_generates, vl.month_generates) AS month_generates,
       COALESCE(vh.month_helps, vl.month_helps) AS month_helps,
       COALESCE(vh.month_controls, vl.month_controls) AS month_controls,
       COALESCE(vh.month_combines, vl.month_combines) AS month_combines,
       c.is_void, c.is_month_break, COALESCE(vh.is_day_clash, vl.is_day_clash) AS is_day_clash,
       c.is_moving, vl.transform, vl.changed_ganzhi,
       fh.relation AS fly_relation, vh.over_ganzhi AS fly_ganzhi,
       fl.is_moving AS fly_is_moving, fl.is_day_clash AS fly_is_day_clash,
       CAST(mr.relative = c.relative AS INTEGER) AS month_stands_for,
       CAST(dr.relative = c.relative AS INTEGER) AS day_stands_for,
       c.candidate_count
FROM v_reading_use_candidate c
JOIN reading r ON r.id = c.reading_id
LEFT JOIN use_role ur ON ur.role = c.role
LEFT JOIN v_reading_line vl
  ON c.source <> 'hidden' AND vl.reading_id = c.reading_id AND vl.position = c.position
LEFT JOIN v_reading_hidden vh
  ON c.source = 'hidden' AND vh.reading_id = c.reading_id AND vh.position = c.position
LEFT JOIN v_reading_line fl
  ON c.source = 'hidden' AND fl.reading_id = c.reading_id AND fl.position = c.position
LEFT JOIN ganzhi hz ON hz.name = vh.ganzhi
LEFT JOIN fly_hidden_relation fh ON fh.fly_element = fl.element AND fh.hidden_element = vh.element
LEFT JOIN hexagram h ON h.king_wen = r.primary_kw
LEFT JOIN trigram pt ON pt.name = h.palace
LEFT JOIN ganzhi d ON d.name = r.day_gz
LEFT JOIN branch mb ON mb.name = r.month_branch
LEFT JOIN branch db ON db.name = d.branch
LEFT JOIN element_relation mr ON mr.me = pt.element AND mr.other = mb.element
LEFT JOIN element_relation dr ON dr.me = pt.element AND dr.other = db.element
WHERE c.rank = 1
""",
    ),
)
REPLACES: dict[str, str] = {}  # both views are new


def upgrade() -> None:
    op.create_table(
        "fly_hidden_relation",
        sa.Column("fly_element", sa.String(length=1), nullable=False, comment="The 飛神's element"),
        sa.Column(
            "hidden_element", sa.String(length=1), nullable=False, comment="The 伏神's element"
        ),
        sa.Column(
            "relation",
            sa.String(length=4),
            nullable=False,
            comment="飛生伏 伏生飛 飛克伏 伏克飛 or 比和",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_fly_hidden_relation_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_fly_hidden_relation_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["fly_element"],
            ["element.name"],
            name=op.f("fk_fly_hidden_relation_fly_element_element"),
        ),
        sa.ForeignKeyConstraint(
            ["hidden_element"],
            ["element.name"],
            name=op.f("fk_fly_hidden_relation_hidden_element_element"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_fly_hidden_relation_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint(
            "fly_element", "hidden_element", name=op.f("pk_fly_hidden_relation")
        ),
        comment="How a 飛神 stands to the 伏神 under it: 飛生伏 伏生飛 飛克伏 伏克飛 or 比和 (standard).",
        info={"section": "rules"},
    )
    op.create_table(
        "use_loss_reason",
        sa.Column(
            "winner_rank",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The chosen rank",
        ),
        sa.Column(
            "loser_rank",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="The loser's rank",
        ),
        sa.Column(
            "criterion",
            sa.String(length=16),
            nullable=False,
            comment="moving, world_response, strength, sound or position",
        ),
        sa.Column("reason", sa.Text(), nullable=False, comment="The reason in words"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_loss_reason_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_use_loss_reason_basis_domain"),
        ),
        sa.CheckConstraint(
            "criterion IN ('moving', 'world_response', 'strength', 'sound', 'position')",
            name=op.f("ck_use_loss_reason_criterion_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_use_loss_reason_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("winner_rank", "loser_rank", name=op.f("pk_use_loss_reason")),
        comment="Why a candidate lost to the chosen one: the first criterion on which their ranks (use_candidate_rank.rank) differ, for every pair with the chosen one's rank first.",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "use_role",
        sa.Column("role", sa.String(length=2), nullable=False, comment="用神 原神 忌神 or 仇神"),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..4 in that order"),
        sa.Column(
            "mark",
            sa.String(length=1),
            nullable=False,
            comment="The one-character mark a chart shows: 用 原 忌 仇",
        ),
        sa.Column("gloss", sa.Text(), nullable=False, comment="What the role is"),
        sa.Column(
            "by_place",
            sa.Integer(),
            nullable=False,
            comment="1 if a world/response subject fixes this role to its line (the 用神)",
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_role_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_use_role_basis_domain")
        ),
        sa.CheckConstraint(
            "role IN ('用神', '原神', '忌神', '仇神')", name=op.f("ck_use_role_role_domain")
        ),
        sa.CheckConstraint("by_place IN (0, 1)", name=op.f("ck_use_role_by_place_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_use_role_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("role", name=op.f("pk_use_role")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_use_role_ordinal")),
        comment="The four roles around a subject (§6.5–6.6 commentary): 用神, 原神 (generates it), 忌神 (controls it), 仇神 (controls the 原神).",
        info={"section": "rules"},
    )
    op.create_table(
        "use_rule",
        sa.Column("step", sa.String(length=24), nullable=False, comment="The step's name"),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="Its order"),
        sa.Column("text", sa.Text(), nullable=False, comment="What the step does"),
        sa.Column("reason", sa.Text(), nullable=True, comment="Why, for a decision"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_rule_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_use_rule_basis_domain")
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 99", name=op.f("ck_use_rule_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_use_rule_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("step", name=op.f("pk_use_rule")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_use_rule_ordinal")),
        comment="The rule choosing the 用神 and its chain, one row per step, so the rule itself is readable from the database (docs/use.md).",
        info={"section": "rules"},
    )
    op.create_table(
        "relative_role",
        sa.Column(
            "use_relative", sa.String(length=2), nullable=False, comment="The 用神's relative"
        ),
        sa.Column("role", sa.String(length=2), nullable=False, comment="The role"),
        sa.Column(
            "relative", sa.String(length=2), nullable=False, comment="The relative playing it"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_relative_role_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_relative_role_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_relative_role_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_relative_role_relative_relative")
        ),
        sa.ForeignKeyConstraint(
            ["role"], ["use_role.role"], name=op.f("fk_relative_role_role_use_role")
        ),
        sa.ForeignKeyConstraint(
            ["use_relative"], ["relative.name"], name=op.f("fk_relative_role_use_relative_relative")
        ),
        sa.PrimaryKeyConstraint("use_relative", "role", name=op.f("pk_relative_role")),
        comment="The chain: for a 用神 of each relative, the relative playing each role (the five-element cycles, §5.5–5.6).",
        info={"section": "rules"},
    )
    op.create_table(
        "subject",
        sa.Column(
            "name",
            sa.String(length=8),
            nullable=False,
            comment="Canonical name, e.g. 妻財, 貨貝, 世, 考試",
        ),
        sa.Column(
            "kind",
            sa.String(length=8),
            nullable=False,
            comment="relative (its 用神 is a line of the relative), world or response",
        ),
        sa.Column(
            "relative",
            sa.String(length=2),
            nullable=True,
            comment="The relative whose line stands for it; NULL for world and response",
        ),
        sa.Column(
            "place",
            sa.String(length=2),
            nullable=True,
            comment="世 or 應: the place whose line is the 用神 (line_place.place); NULL otherwise",
        ),
        sa.Column("gloss", sa.Text(), nullable=False, comment="What it is, in English"),
        sa.Column(
            "symbol",
            sa.String(length=8),
            nullable=True,
            comment="For a book image: its relative_symbol row (with relative); NULL otherwise",
        ),
        sa.Column("reason", sa.Text(), nullable=True, comment="Why, for a decision"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_subject_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_subject_basis_domain")
        ),
        sa.CheckConstraint(
            "kind IN ('relative', 'world', 'response')", name=op.f("ck_subject_kind_domain")
        ),
        sa.CheckConstraint("place IN ('世', '應')", name=op.f("ck_subject_place_domain")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_subject_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["relative", "symbol"],
            ["relative_symbol.relative", "relative_symbol.symbol"],
            name=op.f("fk_subject_relative_symbol_relative_symbol"),
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_subject_relative_relative")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_subject")),
        comment="What a reading may be asked about (§6.2–6.4, §6.7, §8.14–8.15): the images of the six relatives (book), the relatives themselves, the asker 世 and the other party 應, and the common subjects practitioners ask about (standard). Names resolve through name_alias (kind subject).",
        info={"section": "rules"},
    )
    op.create_table(
        "use_candidate_rank",
        sa.Column(
            "is_moving", sa.Integer(), autoincrement=False, nullable=False, comment="1 if it moves"
        ),
        sa.Column(
            "is_world",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 on the world line",
        ),
        sa.Column(
            "is_response",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 on the response line",
        ),
        sa.Column(
            "strength", sa.String(length=1), nullable=False, comment="Its strength in the month"
        ),
        sa.Column(
            "is_void", sa.Integer(), autoincrement=False, nullable=False, comment="1 if void"
        ),
        sa.Column(
            "is_month_break",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="1 if month-broken",
        ),
        sa.Column(
            "rank", sa.Integer(), nullable=False, comment="1 = best; equal standing, equal rank"
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_use_candidate_rank_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_use_candidate_rank_basis_domain"),
        ),
        sa.CheckConstraint(
            "is_month_break IN (0, 1)", name=op.f("ck_use_candidate_rank_is_month_break_bool")
        ),
        sa.CheckConstraint(
            "is_moving IN (0, 1)", name=op.f("ck_use_candidate_rank_is_moving_bool")
        ),
        sa.CheckConstraint(
            "is_response IN (0, 1)", name=op.f("ck_use_candidate_rank_is_response_bool")
        ),
        sa.CheckConstraint("is_void IN (0, 1)", name=op.f("ck_use_candidate_rank_is_void_bool")),
        sa.CheckConstraint("is_world IN (0, 1)", name=op.f("ck_use_candidate_rank_is_world_bool")),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_use_candidate_rank_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["strength"], ["strength.name"], name=op.f("fk_use_candidate_rank_strength_strength")
        ),
        sa.PrimaryKeyConstraint(
            "is_moving",
            "is_world",
            "is_response",
            "strength",
            "is_void",
            "is_month_break",
            name=op.f("pk_use_candidate_rank"),
        ),
        comment="The standing of a candidate line for a role, by its key (total over the key): moving over still, 世 or 應 over neither, 旺 相 休 囚 死, sound over void or broken (docs/use.md). The view orders candidates by rank, then by position (the lower line first).",
        info={"section": "rules"},
        sqlite_with_rowid=False,
    )
    op.create_table(
        "matter_subject",
        sa.Column("matter", sa.String(length=2), nullable=False, comment="功名 財利 獄訟 or 憂患"),
        sa.Column(
            "subject", sa.String(length=8), nullable=False, comment="A subject of the matter"
        ),
        sa.Column(
            "is_default",
            sa.Integer(),
            nullable=False,
            comment="1 for the subject the matter implies",
        ),
        sa.Column("reason", sa.Text(), nullable=True, comment="Why, for a decision"),
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
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_matter_subject_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_matter_subject_basis_domain")
        ),
        sa.CheckConstraint("is_default IN (0, 1)", name=op.f("ck_matter_subject_is_default_bool")),
        sa.ForeignKeyConstraint(
            ["matter"], ["matter.name"], name=op.f("fk_matter_subject_matter_matter")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_matter_subject_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["subject"], ["subject.name"], name=op.f("fk_matter_subject_subject_subject")
        ),
        sa.PrimaryKeyConstraint("matter", "subject", name=op.f("pk_matter_subject")),
        comment="The subjects each matter of §9.5 asks about; the default one is taken when a reading names its matter and no subject.",
        info={"section": "rules"},
    )
    op.create_table(
        "reading_about_change",
        sa.Column(
            "id",
            sa.Integer(),
            nullable=False,
            comment="Change id, in the order the changes were made",
        ),
        sa.Column("reading_id", sa.Integer(), nullable=False, comment="The reading"),
        sa.Column(
            "changed_at",
            sa.String(length=40),
            nullable=False,
            comment="When: local time with offset, ISO 8601",
        ),
        sa.Column(
            "old",
            sa.String(length=8),
            nullable=True,
            comment="The subject before (NULL: none was said)",
        ),
        sa.Column(
            "new", sa.String(length=8), nullable=True, comment="The subject after (NULL: cleared)"
        ),
        sa.ForeignKeyConstraint(
            ["new"], ["subject.name"], name=op.f("fk_reading_about_change_new_subject")
        ),
        sa.ForeignKeyConstraint(
            ["old"], ["subject.name"], name=op.f("fk_reading_about_change_old_subject")
        ),
        sa.ForeignKeyConstraint(
            ["reading_id"],
            ["reading.id"],
            name=op.f("fk_reading_about_change_reading_id_reading"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reading_about_change")),
        comment="Each change of a reading's subject after the cast (yimao about), in the order made: the subject before and after, and when.",
        info={"section": "readings"},
    )
    with op.batch_alter_table("reading_about_change", schema=None) as batch_op:
        batch_op.create_index("ix_reading_about_change_reading_id", ["reading_id"], unique=False)

    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its key in place; a batch rebuild would trip on the views
        op.execute(
            "ALTER TABLE reading ADD COLUMN about VARCHAR(8) "
            "CONSTRAINT fk_reading_about_subject REFERENCES subject (name)"
        )
    else:
        op.add_column(
            "reading", sa.Column("about", sa.String(length=8), nullable=True, comment=ABOUT_COMMENT)
        )
        op.create_foreign_key(
            op.f("fk_reading_about_subject"), "reading", "subject", ["about"], ["name"]
        )
    migrating.create_views(op, VIEWS)


def downgrade() -> None:
    migrating.user_data_dropped(
        op,
        "0014",
        {
            "the subject (reading.about) of {n} reading{s}": (
                "SELECT COUNT(*) FROM reading WHERE about IS NOT NULL"
            ),
            "{n} change{s} of a reading's subject": "SELECT COUNT(*) FROM reading_about_change",
        },
    )
    migrating.drop_views(op, VIEWS)
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(op.f("fk_reading_about_subject"), "reading", type_="foreignkey")
    op.drop_column("reading", "about")
    with op.batch_alter_table("reading_about_change", schema=None) as batch_op:
        batch_op.drop_index("ix_reading_about_change_reading_id")

    op.drop_table("reading_about_change")
    op.drop_table("matter_subject")
    op.drop_table("use_candidate_rank")
    op.drop_table("subject")
    op.drop_table("relative_role")
    op.drop_table("use_rule")
    op.drop_table("use_role")
    op.drop_table("use_loss_reason")
    op.drop_table("fly_hidden_relation")
