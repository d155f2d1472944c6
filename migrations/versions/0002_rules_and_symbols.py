"""Rule and symbol tables of the book (§1, §5–§10), each row citing its source passage.

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "between_use",
        sa.Column(
            "use",
            sa.String(length=8),
            nullable=False,
            comment="obstacle (§10.2), helper (§10.3) or worry (§10.4)",
        ),
        sa.Column(
            "domain",
            sa.String(length=4),
            nullable=False,
            comment="The matter, e.g. 婚姻 marriage, 謀望 plans",
        ),
        sa.Column(
            "role",
            sa.String(length=4),
            nullable=False,
            comment="What the between line is there, e.g. 媒妁 the matchmaker, 阻滯 delay",
        ),
        sa.Column(
            "activation",
            sa.String(length=16),
            nullable=False,
            comment="moving: acts when it moves; supported: helps when generated or helped; present: shows when it holds 官鬼",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "(use = 'obstacle' AND activation = 'moving') OR (use = 'helper' AND activation = 'supported') OR (use = 'worry' AND activation = 'present')",
            name=op.f("ck_between_use_use_activation"),
        ),
        sa.CheckConstraint(
            "activation IN ('moving', 'supported', 'present')",
            name=op.f("ck_between_use_activation_domain"),
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_between_use_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_between_use_basis_domain")
        ),
        sa.CheckConstraint(
            "use IN ('obstacle', 'helper', 'worry')", name=op.f("ck_between_use_use_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_between_use_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("use", "domain", name=op.f("pk_between_use")),
        comment="What the between lines mean per matter (§10.2–10.4): obstacles when they move, helpers when generated or helped (not void or broken), and a 官鬼 between line as worry at home, shown when present and worse when moving.",
    )
    op.create_table(
        "body_condition",
        sa.Column(
            "body",
            sa.String(length=2),
            nullable=False,
            comment="卦身 (hexagram body) or 世身 (world body)",
        ),
        sa.Column(
            "condition",
            sa.String(length=4),
            nullable=False,
            comment="Its state: 空 動 破 衝 散, 靜 合, 重見, 衝亡",
        ),
        sa.Column(
            "meaning",
            sa.String(length=4),
            nullable=False,
            comment="What it means, in a word: 疑 亂 敗 變 失, 猶豫 …",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_body_condition_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_body_condition_basis_domain")
        ),
        sa.CheckConstraint("body IN ('卦身', '世身')", name=op.f("ck_body_condition_body_domain")),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_body_condition_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("body", "condition", name=op.f("pk_body_condition")),
        comment="What a state of either body means (§9.2–9.4): for the 卦身 rest and combination are good, void or broken is hesitation, moving or clashed is change, twice is two minds; for the 世身 void is doubt, moving disorder, broken defeat, clashed change, dispersed loss.",
    )
    op.create_table(
        "body_weight",
        sa.Column(
            "body",
            sa.String(length=2),
            nullable=False,
            comment="世爻 (the world line), 卦身 or 世身",
        ),
        sa.Column("rank", sa.Integer(), nullable=False, comment="1 weighs most .. 3 least"),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_body_weight_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_body_weight_basis_domain")
        ),
        sa.CheckConstraint(
            "body IN ('世爻', '卦身', '世身')", name=op.f("ck_body_weight_body_domain")
        ),
        sa.CheckConstraint("rank BETWEEN 1 AND 3", name=op.f("ck_body_weight_rank_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_body_weight_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("body", name=op.f("pk_body_weight")),
        sa.UniqueConstraint("rank", name=op.f("uq_body_weight_rank")),
        comment="How much each body weighs in the verdict (§9.6): world line, then 卦身, then 世身.",
    )
    op.create_table(
        "direction_24",
        sa.Column(
            "name",
            sa.String(length=8),
            nullable=False,
            comment="A stem (not 戊 己), a branch, or one of 乾 坤 艮 巽",
        ),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..24 clockwise from 壬"),
        sa.Column(
            "direction",
            sa.String(length=2),
            nullable=False,
            comment="北 東北 東 東南 南 西南 西 or 西北",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_direction_24_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_direction_24_basis_domain")
        ),
        sa.CheckConstraint(
            "direction IN ('北', '東北', '東', '東南', '南', '西南', '西', '西北')",
            name=op.f("ck_direction_24_direction_domain"),
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 24", name=op.f("ck_direction_24_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_direction_24_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_direction_24")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_direction_24_ordinal")),
        comment="The 24 directions 二十四山 clockwise from 壬, with their 8 directions (§1.8).",
    )
    op.create_table(
        "five_omen",
        sa.Column("omen", sa.String(length=1), nullable=False, comment="The omen 雨 霽 蒙 馹 克"),
        sa.Column("element", sa.String(length=1), nullable=False, comment="Its element"),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_five_omen_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_five_omen_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_five_omen_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_five_omen_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("omen", name=op.f("pk_five_omen")),
        sa.UniqueConstraint("element", name=op.f("uq_five_omen_element")),
        comment="The five omens 五兆 and their elements (§5.7 commentary).",
    )
    op.create_table(
        "general",
        sa.Column(
            "name",
            sa.String(length=8),
            nullable=False,
            comment="General 貴人 騰蛇 朱雀 六合 勾陳 青龍 天空 白虎 太常 玄武 太陰 天后",
        ),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..12 from 貴人"),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_general_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_general_basis_domain")
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 12", name=op.f("ck_general_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_general_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_general")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_general_ordinal")),
        comment="The twelve generals that follow the noble 貴人 (司貴, §7.2), in placing order.",
    )
    op.create_table(
        "line_aspect",
        sa.Column(
            "yang", sa.Integer(), autoincrement=False, nullable=False, comment="1 yang, 0 yin"
        ),
        sa.Column("aspect", sa.String(length=1), nullable=False, comment="現 or 隱"),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint("aspect IN ('現', '隱')", name=op.f("ck_line_aspect_aspect_domain")),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_aspect_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_aspect_basis_domain")
        ),
        sa.CheckConstraint("yang IN (0, 1)", name=op.f("ck_line_aspect_yang_bool")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_line_aspect_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("yang", name=op.f("pk_line_aspect")),
        sa.UniqueConstraint("aspect", name=op.f("uq_line_aspect_aspect")),
        comment="Yang lines show what has appeared 現, yin lines what is still hidden 隱 (§10.5).",
    )
    op.create_table(
        "line_role",
        sa.Column(
            "position",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="Line 1..6 from the bottom",
        ),
        sa.Column("role", sa.String(length=4), nullable=False, comment="Its role, e.g. 君"),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_line_role_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_line_role_basis_domain")
        ),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_line_role_position_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_line_role_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("position", "role", name=op.f("pk_line_role")),
        comment="What each line position stands for (§10.5): 初 earth and right/rear neighbour, 二 minister, 三 and 四 the threshold, 四 left/front neighbour, 五 ruler, 上 heaven.",
    )
    op.create_table(
        "matter_preference",
        sa.Column(
            "matter",
            sa.String(length=2),
            nullable=False,
            comment="功名 office, 財利 wealth, 獄訟 lawsuits, 憂患 worries",
        ),
        sa.Column(
            "attitude",
            sa.String(length=8),
            nullable=False,
            comment="want, fear, or relief (a welcome state)",
        ),
        sa.Column(
            "item",
            sa.String(length=4),
            nullable=False,
            comment="The relative, spirit, general or condition",
        ),
        sa.Column(
            "item_kind",
            sa.String(length=16),
            nullable=False,
            comment="relative, spirit, general or condition: which vocabulary item is in",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "attitude IN ('want', 'fear', 'relief')",
            name=op.f("ck_matter_preference_attitude_domain"),
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_matter_preference_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_matter_preference_basis_domain"),
        ),
        sa.CheckConstraint(
            "item_kind IN ('relative', 'spirit', 'general', 'condition')",
            name=op.f("ck_matter_preference_item_kind_domain"),
        ),
        sa.CheckConstraint(
            "matter IN ('功名', '財利', '獄訟', '憂患')",
            name=op.f("ck_matter_preference_matter_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_matter_preference_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("matter", "attitude", "item", name=op.f("pk_matter_preference")),
        comment="What each kind of matter wants or fears on the two bodies (§9.5): office wants 父母 官鬼 青龍 朱雀 貴人 and fears 子孫 勾陳; wealth wants 子孫 妻財 青龍 and fears 官鬼 兄弟 白虎; lawsuits want 子孫, fear 官鬼; worries fear 官鬼 and a void body is a relief. ``item`` names a relative, spirit, general or condition by ``item_kind``.",
    )
    op.create_table(
        "moving_relative",
        sa.Column("mover", sa.String(length=2), nullable=False, comment="The moving relative"),
        sa.Column(
            "kind",
            sa.String(length=2),
            nullable=False,
            comment="生象 (it generates) or 克象 (it controls)",
        ),
        sa.Column(
            "target",
            sa.String(length=2),
            nullable=False,
            comment="The relative generated or controlled",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="The human affair it images (short English label)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_moving_relative_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_moving_relative_basis_domain"),
        ),
        sa.CheckConstraint("kind IN ('生象', '克象')", name=op.f("ck_moving_relative_kind_domain")),
        sa.CheckConstraint("mover <> target", name=op.f("ck_moving_relative_distinct")),
        sa.ForeignKeyConstraint(
            ["mover"], ["relative.name"], name=op.f("fk_moving_relative_mover_relative")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_moving_relative_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["target"], ["relative.name"], name=op.f("fk_moving_relative_target_relative")
        ),
        sa.PrimaryKeyConstraint("mover", "kind", name=op.f("pk_moving_relative")),
        sa.UniqueConstraint("target", "kind", name=op.f("uq_moving_relative_target_kind")),
        comment="The ten images of a moving relative (§6.5 生象, §6.6 克象): the relative it generates or controls when it moves, read as a human affair. Under 克象 a controlled 忌神 is good and a controlled 用神 bad (§6.6 commentary).",
    )
    op.create_table(
        "relative_symbol",
        sa.Column("relative", sa.String(length=2), nullable=False, comment="The relative"),
        sa.Column(
            "symbol", sa.String(length=8), nullable=False, comment="The image, e.g. 城池 for 父母"
        ),
        sa.Column(
            "aspect",
            sa.String(length=8),
            nullable=False,
            comment="theme: what the relative does; image: a thing it stands for",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "aspect IN ('theme', 'image')", name=op.f("ck_relative_symbol_aspect_domain")
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_relative_symbol_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_relative_symbol_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_relative_symbol_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_relative_symbol_relative_relative")
        ),
        sa.PrimaryKeyConstraint("relative", "symbol", name=op.f("pk_relative_symbol")),
        comment="What each of the six relatives stands for (§6.2–6.4): one theme per relative (shelter, binding, rivalry, subduing the ghost, service) and its images 象.",
    )
    op.create_table(
        "seven_luminary",
        sa.Column(
            "name", sa.String(length=1), nullable=False, comment="The temper 喜 善 威 文 弱 燥 怒"
        ),
        sa.Column(
            "luminary",
            sa.String(length=1),
            nullable=False,
            comment="Its luminary 日 月 or the planet 金 木 水 火 土",
        ),
        sa.Column(
            "element",
            sa.String(length=1),
            nullable=True,
            comment="The planet's element; none for sun and moon",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "(element IS NULL AND luminary IN ('日', '月')) OR element = luminary",
            name=op.f("ck_seven_luminary_planet_element"),
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_seven_luminary_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_seven_luminary_basis_domain")
        ),
        sa.CheckConstraint(
            "luminary IN ('日', '月', '金', '木', '水', '火', '土')",
            name=op.f("ck_seven_luminary_luminary_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_seven_luminary_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_seven_luminary_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_seven_luminary")),
        sa.UniqueConstraint("luminary", name=op.f("uq_seven_luminary_luminary")),
        comment="The seven luminaries 七耀 and the temper each stands for (§5.7 commentary).",
    )
    op.create_table(
        "spirit",
        sa.Column(
            "name",
            sa.String(length=8),
            nullable=False,
            comment="Spirit 青龍 朱雀 勾陳 騰蛇 白虎 玄武",
        ),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..6 in the cycle from 青龍"),
        sa.Column(
            "element",
            sa.String(length=1),
            nullable=False,
            comment="Its element (騰蛇 火, serving under 土)",
        ),
        sa.Column(
            "direction",
            sa.String(length=2),
            nullable=False,
            comment="Its place: 東 南 西 北 or 中央 (勾陳 and 騰蛇)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_spirit_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_spirit_basis_domain")
        ),
        sa.CheckConstraint(
            "direction IN ('東', '南', '西', '北', '中央')", name=op.f("ck_spirit_direction_domain")
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 6", name=op.f("ck_spirit_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_spirit_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_spirit_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_spirit")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_spirit_ordinal")),
        comment="The six spirits 六神 in their cycle order, with element and direction (§7.3–7.6).",
    )
    op.create_table(
        "spirit_preference",
        sa.Column(
            "nature",
            sa.String(length=1),
            nullable=False,
            comment="吉 or 凶, as spirit_attribute.nature",
        ),
        sa.Column(
            "condition",
            sa.String(length=4),
            nullable=False,
            comment="The condition that suits it: 生 助 動 持世 (吉) or 制 化 散 空 (凶)",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_spirit_preference_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_spirit_preference_basis_domain"),
        ),
        sa.CheckConstraint(
            "nature IN ('吉', '凶')", name=op.f("ck_spirit_preference_nature_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_spirit_preference_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("nature", "condition", name=op.f("pk_spirit_preference")),
        comment="What suits the auspicious and the inauspicious spirits (§7.9): the 吉 like being generated, helped, moving and holding the world; the 凶 are best controlled, transformed, dispersed or void.",
    )
    op.create_table(
        "stage",
        sa.Column(
            "name",
            sa.String(length=8),
            nullable=False,
            comment="Stage 長生 沐浴 冠帶 臨官 帝旺 衰 病 死 墓 絕 胎 養",
        ),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..12 from 長生"),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_stage_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_stage_basis_domain")
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 12", name=op.f("ck_stage_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_stage_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_stage")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_stage_ordinal")),
        comment="The twelve stages 長生十二宮 in their forward order (§1.7, standard).",
    )
    op.create_table(
        "strength",
        sa.Column("name", sa.String(length=8), nullable=False, comment="Strength 旺 相 休 囚 死"),
        sa.Column(
            "ordinal", sa.Integer(), nullable=False, comment="1..5 from 旺 (strongest) to 死"
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_strength_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_strength_basis_domain")
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 5", name=op.f("ck_strength_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_strength_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_strength")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_strength_ordinal")),
        comment="The five seasonal strengths 旺相休囚死 (§1.7, standard).",
    )
    op.create_table(
        "world_omen",
        sa.Column(
            "omen",
            sa.String(length=8),
            nullable=False,
            comment="The omen, e.g. 隨官入墓, 化進神, 世克應",
        ),
        sa.Column("verdict", sa.String(length=1), nullable=False, comment="吉, 凶, or 變 (change)"),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_world_omen_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_world_omen_basis_domain")
        ),
        sa.CheckConstraint(
            "verdict IN ('吉', '凶', '變')", name=op.f("ck_world_omen_verdict_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_world_omen_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("omen", name=op.f("pk_world_omen")),
        comment="Omens read from the world line (§8.13–8.15): the three bad signs, void world and sunken response, ruin, change, growth and decline, and world against response.",
    )
    op.create_table(
        "branch_relation",
        sa.Column(
            "relation",
            sa.String(length=2),
            nullable=False,
            comment="六合 六衝 六害 三刑 進神 or 退神",
        ),
        sa.Column(
            "first",
            sa.String(length=1),
            nullable=False,
            comment="The first branch (the line's own, or the mover)",
        ),
        sa.Column(
            "second",
            sa.String(length=1),
            nullable=False,
            comment="The other branch (or what the line changes into)",
        ),
        sa.Column(
            "kind",
            sa.String(length=4),
            nullable=True,
            comment="For 三刑 only: 無恩之刑 恃勢之刑 無禮之刑 or 自刑; NULL otherwise",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "(first = second) = (COALESCE(kind, '') = '自刑')",
            name=op.f("ck_branch_relation_self_iff_self_punishment"),
        ),
        sa.CheckConstraint(
            "(relation = '三刑') = (kind IS NOT NULL)",
            name=op.f("ck_branch_relation_kind_iff_punishment"),
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_branch_relation_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_branch_relation_basis_domain"),
        ),
        sa.CheckConstraint(
            "kind IN ('無恩之刑', '恃勢之刑', '無禮之刑', '自刑')",
            name=op.f("ck_branch_relation_kind_domain"),
        ),
        sa.CheckConstraint(
            "relation IN ('六合', '六衝', '六害', '三刑', '進神', '退神')",
            name=op.f("ck_branch_relation_relation_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["first"], ["branch.name"], name=op.f("fk_branch_relation_first_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_branch_relation_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["second"], ["branch.name"], name=op.f("fk_branch_relation_second_branch")
        ),
        sa.PrimaryKeyConstraint("relation", "first", "second", name=op.f("pk_branch_relation")),
        comment="Relations between two branches (§1.7, §8.14; tables standard): 六合 六衝 六害 stored in both orders; 三刑 directed (first punishes second; 自刑 with first = second); 進神 and 退神 directed (a moving line's branch changing into the second).",
    )
    op.create_table(
        "branch_triad",
        sa.Column(
            "element", sa.String(length=1), nullable=False, comment="The element the triad forms"
        ),
        sa.Column(
            "branch", sa.String(length=1), nullable=False, comment="One of its three branches"
        ),
        sa.Column(
            "role",
            sa.String(length=2),
            nullable=False,
            comment="The branch's stage for the element: 長生 帝旺 or 墓",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_branch_triad_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_branch_triad_basis_domain")
        ),
        sa.CheckConstraint(
            "role IN ('長生', '帝旺', '墓')", name=op.f("ck_branch_triad_role_domain")
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_branch_triad_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_branch_triad_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_branch_triad_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["role"], ["stage.name"], name=op.f("fk_branch_triad_role_stage")),
        sa.PrimaryKeyConstraint("element", "branch", name=op.f("pk_branch_triad")),
        sa.UniqueConstraint("branch", name=op.f("uq_branch_triad_branch")),
        sa.UniqueConstraint("element", "role", name=op.f("uq_branch_triad_element_role")),
        comment="三合 (§8.14, standard): 申子辰 水, 亥卯未 木, 寅午戌 火, 巳酉丑 金, each branch with its role 長生, 帝旺 or 墓 in the element's twelve stages.",
    )
    op.create_table(
        "day_spirit",
        sa.Column(
            "day_stem",
            sa.String(length=1),
            nullable=False,
            comment="The day's stem (or the hour's, for 司時)",
        ),
        sa.Column("position", sa.Integer(), nullable=False, comment="Line 1..6 from the bottom"),
        sa.Column("spirit", sa.String(length=2), nullable=False, comment="The spirit on that line"),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_day_spirit_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_day_spirit_basis_domain")
        ),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_day_spirit_position_range")),
        sa.ForeignKeyConstraint(
            ["day_stem"], ["stem.name"], name=op.f("fk_day_spirit_day_stem_stem")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_day_spirit_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["spirit"], ["spirit.name"], name=op.f("fk_day_spirit_spirit_spirit")
        ),
        sa.PrimaryKeyConstraint("day_stem", "position", name=op.f("pk_day_spirit")),
        sa.UniqueConstraint("day_stem", "spirit", name=op.f("uq_day_spirit_day_stem_spirit")),
        comment="司日 (§7.2): the spirit on each line for each day stem (甲乙 start at 青龍 …).",
    )
    op.create_table(
        "dusk_mansion",
        sa.Column(
            "month_branch",
            sa.String(length=1),
            nullable=False,
            comment="The month's branch (寅 = 正月)",
        ),
        sa.Column(
            "mansion", sa.String(length=1), nullable=False, comment="The mansion 昏中 that month"
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_dusk_mansion_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_dusk_mansion_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["mansion"], ["mansion.name"], name=op.f("fk_dusk_mansion_mansion_mansion")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_dusk_mansion_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_dusk_mansion_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("month_branch", name=op.f("pk_dusk_mansion")),
        sa.UniqueConstraint("mansion", name=op.f("uq_dusk_mansion_mansion")),
        comment="The mansion culminating at dusk 昏中 in each month, an auspicious sign (§8.12).",
    )
    op.create_table(
        "element_correspondence",
        sa.Column("element", sa.String(length=1), nullable=False, comment="The element"),
        sa.Column(
            "season",
            sa.String(length=4),
            nullable=False,
            comment="Its season 令: 冬至 春分 夏至 秋分, or 四季 for 土",
        ),
        sa.Column(
            "branch",
            sa.String(length=1),
            nullable=True,
            comment="The branch at the heart of its season 子 卯 午 酉; none for 土",
        ),
        sa.Column(
            "direction",
            sa.String(length=4),
            nullable=False,
            comment="Its direction 位: 北 東 南 西 中央",
        ),
        sa.Column(
            "colour", sa.String(length=1), nullable=False, comment="Its colour 色: 黑 蒼 赤 白 黃"
        ),
        sa.Column(
            "shape", sa.String(length=1), nullable=False, comment="Its shape 形: 溼 潤 燥 稿 安"
        ),
        sa.Column(
            "nature", sa.String(length=1), nullable=False, comment="Its nature 性: 寒 溫 熱 涼 平"
        ),
        sa.Column(
            "lodging",
            sa.String(length=4),
            nullable=True,
            comment="Where 土 lodges: 四維, the four corners (§5.5); none for the others",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "(branch IS NULL) = (element = '土')",
            name=op.f("ck_element_correspondence_earth_has_no_branch"),
        ),
        sa.CheckConstraint(
            "(lodging IS NULL) = (element <> '土')",
            name=op.f("ck_element_correspondence_earth_lodges"),
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL",
            name=op.f("ck_element_correspondence_book_cites"),
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_element_correspondence_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_element_correspondence_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_element_correspondence_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_element_correspondence_passage_source_passage"),
        ),
        sa.PrimaryKeyConstraint("element", name=op.f("pk_element_correspondence")),
        sa.UniqueConstraint("branch", name=op.f("uq_element_correspondence_branch")),
        sa.UniqueConstraint("colour", name=op.f("uq_element_correspondence_colour")),
        sa.UniqueConstraint("direction", name=op.f("uq_element_correspondence_direction")),
        sa.UniqueConstraint("nature", name=op.f("uq_element_correspondence_nature")),
        sa.UniqueConstraint("season", name=op.f("uq_element_correspondence_season")),
        sa.UniqueConstraint("shape", name=op.f("uq_element_correspondence_shape")),
        comment="The five images 五類 of each element (§5.1–5.5): season 令, branch, direction 位, colour 色, shape 形 and nature 性. 土 has no season point or branch of its own: it takes the four last months 四季 and lodges in the four corners (§5.5).",
    )
    op.create_table(
        "month_spirit",
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="The month's branch"
        ),
        sa.Column("spirit", sa.String(length=2), nullable=False, comment="The spirit"),
        sa.Column(
            "branch",
            sa.String(length=1),
            nullable=False,
            comment="The branch it stands on that month",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_month_spirit_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_month_spirit_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_month_spirit_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_month_spirit_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_month_spirit_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["spirit"], ["spirit.name"], name=op.f("fk_month_spirit_spirit_spirit")
        ),
        sa.PrimaryKeyConstraint("month_branch", "spirit", name=op.f("pk_month_spirit")),
        comment="司月 / 大六神 (§7.2, §7.10): the branch each spirit stands on in each month; a line gets the spirit on its branch (none, or two sharing it).",
    )
    op.create_table(
        "noble_general",
        sa.Column("day_stem", sa.String(length=1), nullable=False, comment="The day's stem"),
        sa.Column("half", sa.String(length=2), nullable=False, comment="陽貴 or 陰貴"),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="A branch"),
        sa.Column(
            "general", sa.String(length=2), nullable=False, comment="The general standing on it"
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_noble_general_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_noble_general_basis_domain")
        ),
        sa.CheckConstraint("half IN ('陽貴', '陰貴')", name=op.f("ck_noble_general_half_domain")),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_noble_general_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["day_stem"], ["stem.name"], name=op.f("fk_noble_general_day_stem_stem")
        ),
        sa.ForeignKeyConstraint(
            ["general"], ["general.name"], name=op.f("fk_noble_general_general_general")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_noble_general_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("day_stem", "half", "branch", name=op.f("pk_noble_general")),
        sa.UniqueConstraint(
            "day_stem", "half", "general", name=op.f("uq_noble_general_day_stem_half_general")
        ),
        comment="司貴 (§7.2): the general on each branch, placed from the 貴人's branch of the day stem (standard 陽貴/陰貴 songs), forward for the 陽貴 and backward for the 陰貴.",
    )
    op.create_table(
        "noble_hour",
        sa.Column("hour_branch", sa.String(length=1), nullable=False, comment="The hour's branch"),
        sa.Column("half", sa.String(length=2), nullable=False, comment="陽貴 or 陰貴"),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_noble_hour_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_noble_hour_basis_domain")
        ),
        sa.CheckConstraint("half IN ('陽貴', '陰貴')", name=op.f("ck_noble_hour_half_domain")),
        sa.ForeignKeyConstraint(
            ["hour_branch"], ["branch.name"], name=op.f("fk_noble_hour_hour_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_noble_hour_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("hour_branch", name=op.f("pk_noble_hour")),
        comment="Which noble an hour uses (spec Decision): 卯..申 陽貴, 酉..寅 陰貴 (§7.2).",
    )
    op.create_table(
        "seasonal_strength",
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="The month's branch"
        ),
        sa.Column("element", sa.String(length=1), nullable=False, comment="The element judged"),
        sa.Column(
            "strength", sa.String(length=1), nullable=False, comment="Its strength in that month"
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_seasonal_strength_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_seasonal_strength_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_seasonal_strength_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_seasonal_strength_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_seasonal_strength_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["strength"], ["strength.name"], name=op.f("fk_seasonal_strength_strength_strength")
        ),
        sa.PrimaryKeyConstraint("month_branch", "element", name=op.f("pk_seasonal_strength")),
        comment="旺相休囚死 of each element in each month (§1.7, standard): the month's element 旺, what it generates 相, what generates it 休, what controls it 囚, what it controls 死.",
    )
    op.create_table(
        "spirit_affinity",
        sa.Column("spirit", sa.String(length=2), nullable=False, comment="The spirit affected"),
        sa.Column(
            "condition",
            sa.String(length=4),
            nullable=False,
            comment="What affects it: 金爻, 火爻, 水 or 土",
        ),
        sa.Column(
            "effect",
            sa.String(length=1),
            nullable=False,
            comment="避 it keeps away, 伏 it is tamed, 制 it is subdued",
        ),
        sa.Column(
            "subduer",
            sa.String(length=2),
            nullable=True,
            comment="The spirit whose virtue subdues it (制 only)",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "(effect = '制') = (subduer IS NOT NULL)",
            name=op.f("ck_spirit_affinity_subduer_subdues"),
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_spirit_affinity_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_spirit_affinity_basis_domain"),
        ),
        sa.CheckConstraint(
            "effect IN ('避', '伏', '制')", name=op.f("ck_spirit_affinity_effect_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_spirit_affinity_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["spirit"], ["spirit.name"], name=op.f("fk_spirit_affinity_spirit_spirit")
        ),
        sa.ForeignKeyConstraint(
            ["subduer"], ["spirit.name"], name=op.f("fk_spirit_affinity_subduer_spirit")
        ),
        sa.PrimaryKeyConstraint("spirit", "condition", name=op.f("pk_spirit_affinity")),
        comment="The four affinities of the spirits (§7.8): 青龍 avoids metal lines, 白虎 is tamed on fire lines, water (玄武) subdues 朱雀, earth (勾陳) subdues 玄武.",
    )
    op.create_table(
        "spirit_attribute",
        sa.Column("spirit", sa.String(length=2), nullable=False, comment="The spirit"),
        sa.Column(
            "charge",
            sa.String(length=8),
            nullable=False,
            comment="What it presides over 主, e.g. 文事 for 青龍 (its portrait)",
        ),
        sa.Column(
            "trait",
            sa.String(length=4),
            nullable=False,
            comment="Its character: 仁 爭 信 虛浮 殺 智 (§7.8, 勾陳 §7.3, 騰蛇 §7.4 commentary)",
        ),
        sa.Column(
            "governs",
            sa.String(length=1),
            nullable=False,
            comment="Its office 司: 生 言 實 虛 殺 計 (§7.7 commentary)",
        ),
        sa.Column(
            "post",
            sa.String(length=4),
            nullable=False,
            comment="Its post at the court: 文臣 諫臣 宰 使臣 武臣 謀臣 (portrait commentary; 勾陳 as 宰 §7.10 commentary)",
        ),
        sa.Column(
            "nature",
            sa.String(length=1),
            nullable=False,
            comment="吉 or 凶 for §7.9: 勾陳 吉 (§7.3 commentary), 朱雀 凶 as what water must subdue (§7.8), 騰蛇 凶 (standard)",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_spirit_attribute_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_spirit_attribute_basis_domain"),
        ),
        sa.CheckConstraint(
            "governs IN ('生', '言', '實', '虛', '殺', '計')",
            name=op.f("ck_spirit_attribute_governs_domain"),
        ),
        sa.CheckConstraint(
            "nature IN ('吉', '凶')", name=op.f("ck_spirit_attribute_nature_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_spirit_attribute_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["spirit"], ["spirit.name"], name=op.f("fk_spirit_attribute_spirit_spirit")
        ),
        sa.PrimaryKeyConstraint("spirit", name=op.f("pk_spirit_attribute")),
        sa.UniqueConstraint("governs", name=op.f("uq_spirit_attribute_governs")),
        sa.UniqueConstraint("post", name=op.f("uq_spirit_attribute_post")),
        comment="What each of the six spirits stands for (§7.3–7.9). The row cites the spirit's portrait (7.3 勾陳, 7.4 騰蛇, 7.5 青龍 白虎, 7.6 朱雀 玄武); element and direction are on ``spirit``.",
    )
    op.create_table(
        "star_meaning",
        sa.Column("star", sa.String(length=2), nullable=False, comment="The star"),
        sa.Column(
            "meaning",
            sa.String(length=4),
            nullable=False,
            comment="A thing it governs, e.g. 安 or 城郭 for 鎮星",
        ),
        sa.Column(
            "verdict",
            sa.String(length=1),
            nullable=False,
            comment="吉, 凶, or 隨 (follows what it meets, 歲星)",
        ),
        sa.Column(
            "gloss",
            sa.String(length=200),
            nullable=False,
            comment="Short English label (our words, not the book's)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_star_meaning_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_star_meaning_basis_domain")
        ),
        sa.CheckConstraint(
            "verdict IN ('吉', '凶', '隨')", name=op.f("ck_star_meaning_verdict_domain")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_star_meaning_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(["star"], ["star.name"], name=op.f("fk_star_meaning_star_star")),
        sa.PrimaryKeyConstraint("star", "meaning", name=op.f("pk_star_meaning")),
        comment="What each of the five stars governs when it shows (§8.8–8.9): 鎮星 stability, 太白 arms, 熒惑 letters (else harm), 太陰 mercy (spoiled by 咸池), 歲星 all things.",
    )
    op.create_table(
        "stem_combination",
        sa.Column("first", sa.String(length=1), nullable=False, comment="One stem"),
        sa.Column(
            "second", sa.String(length=1), nullable=False, comment="Its partner, five stems away"
        ),
        sa.Column(
            "element",
            sa.String(length=1),
            nullable=False,
            comment="The element the pair becomes 化",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_stem_combination_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_stem_combination_basis_domain"),
        ),
        sa.CheckConstraint("first <> second", name=op.f("ck_stem_combination_distinct")),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_stem_combination_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["first"], ["stem.name"], name=op.f("fk_stem_combination_first_stem")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_stem_combination_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["second"], ["stem.name"], name=op.f("fk_stem_combination_second_stem")
        ),
        sa.PrimaryKeyConstraint("first", "second", name=op.f("pk_stem_combination")),
        sa.UniqueConstraint("first", name=op.f("uq_stem_combination_first")),
        comment="五合 of stems and the element they become (§1.7 commentary, standard): 甲己 土, 乙庚 金, 丙辛 水, 丁壬 木, 戊癸 火, stored in both orders.",
    )
    op.create_table(
        "twelve_stage",
        sa.Column("element", sa.String(length=1), nullable=False, comment="The element"),
        sa.Column(
            "branch",
            sa.String(length=1),
            nullable=False,
            comment="The branch (e.g. the day branch of a reading)",
        ),
        sa.Column(
            "stage", sa.String(length=2), nullable=False, comment="The element's stage there"
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_twelve_stage_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_twelve_stage_basis_domain")
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_twelve_stage_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_twelve_stage_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_twelve_stage_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["stage"], ["stage.name"], name=op.f("fk_twelve_stage_stage_stage")
        ),
        sa.PrimaryKeyConstraint("element", "branch", name=op.f("pk_twelve_stage")),
        sa.UniqueConstraint("element", "stage", name=op.f("uq_twelve_stage_element_stage")),
        comment="The stage of each element at each branch (§1.7, standard 六爻, 水土同宮): 長生 at 木 亥, 火 寅, 金 巳, 水 申, 土 申, then forward.",
    )
    op.create_table(
        "element_trigram",
        sa.Column("element", sa.String(length=1), nullable=False, comment="The element"),
        sa.Column(
            "trigram", sa.String(length=1), nullable=False, comment="The trigram that images it"
        ),
        sa.Column(
            "aspect",
            sa.String(length=1),
            nullable=True,
            comment="體 (body) or 用 (use) as the book says it; none for 艮 坤 (§5.7)",
        ),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint("aspect IN ('體', '用')", name=op.f("ck_element_trigram_aspect_domain")),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_element_trigram_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')",
            name=op.f("ck_element_trigram_basis_domain"),
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_element_trigram_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["passage"],
            ["source_passage.id"],
            name=op.f("fk_element_trigram_passage_source_passage"),
        ),
        sa.ForeignKeyConstraint(
            ["trigram"], ["trigram.name"], name=op.f("fk_element_trigram_trigram_trigram")
        ),
        sa.PrimaryKeyConstraint("element", "trigram", name=op.f("pk_element_trigram")),
        sa.UniqueConstraint("trigram", name=op.f("uq_element_trigram_trigram")),
        comment="The trigram that embodies each element in the correspondences (§5.2–5.3, §5.7): 坎 水 and 離 火 as its body 體, 震 木 and 兌 金 as its use 用, 艮 and 坤 for 土. (乾 and 巽 are 金 and 木 by position only; see trigram.element.)",
    )
    op.create_table(
        "hour_stem",
        sa.Column("day_stem", sa.String(length=1), nullable=False, comment="The day's stem"),
        sa.Column("hour_branch", sa.String(length=1), nullable=False, comment="The hour's branch"),
        sa.Column("hour_ganzhi", sa.String(length=2), nullable=False, comment="The hour pillar"),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_hour_stem_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_hour_stem_basis_domain")
        ),
        sa.CheckConstraint(
            "substr(hour_ganzhi, 2, 1) = hour_branch", name=op.f("ck_hour_stem_ganzhi_branch")
        ),
        sa.ForeignKeyConstraint(
            ["day_stem"], ["stem.name"], name=op.f("fk_hour_stem_day_stem_stem")
        ),
        sa.ForeignKeyConstraint(
            ["hour_branch"], ["branch.name"], name=op.f("fk_hour_stem_hour_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["hour_ganzhi"], ["ganzhi.name"], name=op.f("fk_hour_stem_hour_ganzhi_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_hour_stem_passage_source_passage")
        ),
        sa.PrimaryKeyConstraint("day_stem", "hour_branch", name=op.f("pk_hour_stem")),
        comment="五子遁 (§7.2): the hour pillar from the day stem and hour branch (甲己 → 甲子 …).",
    )
    op.create_table(
        "month_stem",
        sa.Column("year_stem", sa.String(length=1), nullable=False, comment="The year's stem"),
        sa.Column(
            "month_branch", sa.String(length=1), nullable=False, comment="The month's branch"
        ),
        sa.Column("month_ganzhi", sa.String(length=2), nullable=False, comment="The month pillar"),
        sa.Column(
            "passage", sa.String(length=8), nullable=True, comment="Source passage §chapter.passage"
        ),
        sa.Column(
            "basis",
            sa.String(length=8),
            nullable=False,
            comment="book: stated by the cited passage; standard: standard 京房 practice the book presupposes; decision: a spec Decision",
        ),
        sa.CheckConstraint(
            "basis <> 'book' OR passage IS NOT NULL", name=op.f("ck_month_stem_book_cites")
        ),
        sa.CheckConstraint(
            "basis IN ('book', 'standard', 'decision')", name=op.f("ck_month_stem_basis_domain")
        ),
        sa.CheckConstraint(
            "substr(month_ganzhi, 2, 1) = month_branch", name=op.f("ck_month_stem_ganzhi_branch")
        ),
        sa.ForeignKeyConstraint(
            ["month_branch"], ["branch.name"], name=op.f("fk_month_stem_month_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["month_ganzhi"], ["ganzhi.name"], name=op.f("fk_month_stem_month_ganzhi_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["passage"], ["source_passage.id"], name=op.f("fk_month_stem_passage_source_passage")
        ),
        sa.ForeignKeyConstraint(
            ["year_stem"], ["stem.name"], name=op.f("fk_month_stem_year_stem_stem")
        ),
        sa.PrimaryKeyConstraint("year_stem", "month_branch", name=op.f("pk_month_stem")),
        comment="五虎遁 (spec §12, standard): the month pillar from the year stem and month branch (甲己 years → 丙寅 …; 子 and 丑 close the year).",
    )


def downgrade() -> None:
    op.drop_table("month_stem")
    op.drop_table("hour_stem")
    op.drop_table("element_trigram")
    op.drop_table("twelve_stage")
    op.drop_table("stem_combination")
    op.drop_table("star_meaning")
    op.drop_table("spirit_attribute")
    op.drop_table("spirit_affinity")
    op.drop_table("seasonal_strength")
    op.drop_table("noble_hour")
    op.drop_table("noble_general")
    op.drop_table("month_spirit")
    op.drop_table("element_correspondence")
    op.drop_table("dusk_mansion")
    op.drop_table("day_spirit")
    op.drop_table("branch_triad")
    op.drop_table("branch_relation")
    op.drop_table("world_omen")
    op.drop_table("strength")
    op.drop_table("stage")
    op.drop_table("spirit_preference")
    op.drop_table("spirit")
    op.drop_table("seven_luminary")
    op.drop_table("relative_symbol")
    op.drop_table("moving_relative")
    op.drop_table("matter_preference")
    op.drop_table("line_role")
    op.drop_table("line_aspect")
    op.drop_table("general")
    op.drop_table("five_omen")
    op.drop_table("direction_24")
    op.drop_table("body_weight")
    op.drop_table("body_condition")
    op.drop_table("between_use")
