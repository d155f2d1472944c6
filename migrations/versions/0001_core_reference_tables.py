"""Core reference tables and the public views v_ganzhi, v_hexagram, v_line, v_hidden.

Revision ID: 0001
Revises:
Create Date: 2026-11-30 02:24:57.718128
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from yimao_db.kb import migrating
from yimao_db.kb.migrating import ViewSQL

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


VIEWS = (
    ViewSQL(
        "v_ganzhi",
        """
SELECT g.ordinal, g.name, g.stem, g.branch,
       n.element AS nayin_element, g.nayin AS nayin_name,
       g.xun_head, g.void_first || g.void_second AS void_branches,
       n.ordinal AS nayin_ordinal
FROM ganzhi g
JOIN nayin n ON n.name = g.nayin
""",
    ),
    ViewSQL(
        "v_hexagram",
        """
SELECT h.king_wen, h.bits, h.name, h.short_name, h.upper, h.lower,
       h.palace, t.element AS palace_element, p.jingfang_order AS palace_order,
       h.generation, gen.name AS generation_name, h.world, h.response,
       h.five_star, w.ganzhi AS world_ganzhi,
       h.world_mansion_jingfang, h.world_mansion_huangjin,
       h.gua_shen, h.shi_shen_line, h.palace_sequence
FROM hexagram h
JOIN palace p ON p.name = h.palace
JOIN trigram t ON t.name = h.palace
JOIN generation gen ON gen.ordinal = h.generation
JOIN hexagram_line w ON w.king_wen = h.king_wen AND w.position = h.world
""",
    ),
    ViewSQL(
        "v_line",
        """
SELECT l.king_wen, h.bits, l.position, l.yang, l.stem, l.branch, l.ganzhi,
       l.element, l.relative, l.is_world, l.is_response, l.is_between, l.mansion,
       h.name AS hexagram_name
FROM hexagram_line l
JOIN hexagram h ON h.king_wen = l.king_wen
""",
    ),
    ViewSQL(
        "v_hidden",
        """
SELECT s.king_wen, s.position, s.relative, s.ganzhi, s.element,
       o.ganzhi AS over_ganzhi, s.stem, s.branch, o.relative AS over_relative
FROM hidden_spirit s
JOIN hexagram_line o ON o.king_wen = s.king_wen AND o.position = s.position
""",
    ),
)


def upgrade() -> None:
    op.create_table(
        "element",
        sa.Column("name", sa.String(length=8), nullable=False, comment="Element 木 火 土 金 水"),
        sa.Column(
            "ordinal", sa.Integer(), nullable=False, comment="1..5 in generating order from 木"
        ),
        sa.Column(
            "generates",
            sa.String(length=1),
            nullable=False,
            comment="The element this one generates",
        ),
        sa.Column(
            "controls", sa.String(length=1), nullable=False, comment="The element this one controls"
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 5", name=op.f("ck_element_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["controls"],
            ["element.name"],
            name=op.f("fk_element_controls_element"),
            initially="DEFERRED",
            deferrable=True,
        ),
        sa.ForeignKeyConstraint(
            ["generates"],
            ["element.name"],
            name=op.f("fk_element_generates_element"),
            initially="DEFERRED",
            deferrable=True,
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_element")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_element_ordinal")),
        comment="The five elements 五行 (§5.5–5.6) with the cycles between them.",
    )
    op.create_table(
        "generation",
        sa.Column("ordinal", sa.Integer(), autoincrement=False, nullable=False, comment="0..7"),
        sa.Column(
            "name", sa.String(length=4), nullable=False, comment="本宮 一世 … 五世 遊魂 歸魂"
        ),
        sa.Column(
            "world", sa.Integer(), nullable=False, comment="World line 世 of this generation"
        ),
        sa.Column(
            "response", sa.Integer(), nullable=False, comment="Response line 應 of this generation"
        ),
        sa.CheckConstraint("ordinal BETWEEN 0 AND 7", name=op.f("ck_generation_ordinal_range")),
        sa.CheckConstraint("response BETWEEN 1 AND 6", name=op.f("ck_generation_response_range")),
        sa.CheckConstraint("world BETWEEN 1 AND 6", name=op.f("ck_generation_world_range")),
        sa.PrimaryKeyConstraint("ordinal", name=op.f("pk_generation")),
        sa.UniqueConstraint("name", name=op.f("uq_generation_name")),
        comment="The eight generations of a palace (§3.3) with world and response (§8.3–8.5).",
    )
    op.create_table(
        "mansion",
        sa.Column("name", sa.String(length=8), nullable=False, comment="Mansion 角 … 軫"),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..28 from 角"),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 28", name=op.f("ck_mansion_ordinal_range")),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_mansion")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_mansion_ordinal")),
        comment="The 28 lunar mansions 二十八宿 (§8.10–8.12).",
    )
    op.create_table(
        "name_alias",
        sa.Column(
            "kind",
            sa.String(length=16),
            nullable=False,
            comment="Which vocabulary: hexagram, trigram, element, stem, branch, relative, …",
        ),
        sa.Column("alias", sa.String(length=120), nullable=False, comment="An accepted form"),
        sa.Column(
            "canonical",
            sa.String(length=16),
            nullable=False,
            comment="The canonical name (for hexagrams the King Wen number as text)",
        ),
        sa.Column(
            "form",
            sa.String(length=16),
            nullable=False,
            comment="canonical, short, simplified, variant, pinyin, english, number or bits",
        ),
        sa.PrimaryKeyConstraint("kind", "alias", name=op.f("pk_name_alias")),
        comment="Every accepted spelling of a name, mapped to its canonical entity (§0).",
    )
    op.create_table(
        "relative",
        sa.Column(
            "name", sa.String(length=8), nullable=False, comment="Relative 兄弟 父母 子孫 妻財 官鬼"
        ),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..5"),
        sa.Column(
            "relation",
            sa.String(length=16),
            nullable=False,
            comment="same, generates_me, i_generate, i_control or controls_me (the line against 我)",
        ),
        sa.CheckConstraint(
            "relation IN ('same', 'generates_me', 'i_generate', 'i_control', 'controls_me')",
            name=op.f("ck_relative_relation_domain"),
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 5", name=op.f("ck_relative_ordinal_range")),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_relative")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_relative_ordinal")),
        sa.UniqueConstraint("relation", name=op.f("uq_relative_relation")),
        comment="The six relatives 六親 (§6), named by how a line's element stands to the palace's.",
    )
    op.create_table(
        "source_passage",
        sa.Column("id", sa.String(length=8), nullable=False, comment="Citation, e.g. 8.11"),
        sa.Column("chapter_no", sa.Integer(), nullable=False, comment="Chapter number 1..10"),
        sa.Column(
            "chapter",
            sa.String(length=16),
            nullable=False,
            comment="Chapter title, e.g. 世應章第八",
        ),
        sa.Column(
            "passage_no", sa.Integer(), nullable=False, comment="Passage number within the chapter"
        ),
        sa.Column(
            "line_no",
            sa.Integer(),
            nullable=False,
            comment="Line of the main text in the seed file",
        ),
        sa.Column(
            "commentary_line_no",
            sa.Integer(),
            nullable=False,
            comment="Line of the parenthesised commentary in the seed file",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_source_passage")),
        comment="The 77 numbered passages of 《易冒》卷一 (numbering of shared/seed/passages.tsv). No text of the book is stored; rows elsewhere cite a passage by its id.",
    )
    op.create_table(
        "branch",
        sa.Column("name", sa.String(length=8), nullable=False, comment="Branch 子..亥"),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..12 from 子"),
        sa.Column("element", sa.String(length=1), nullable=False, comment="Element (§5.6)"),
        sa.Column(
            "yang",
            sa.Integer(),
            nullable=False,
            comment="1 for the yang branches 子寅辰午申戌, 0 for yin",
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 12", name=op.f("ck_branch_ordinal_range")),
        sa.CheckConstraint("yang IN (0, 1)", name=op.f("ck_branch_yang_bool")),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_branch_element_element")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_branch")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_branch_ordinal")),
        comment="The twelve earthly branches 地支 (§1.1).",
    )
    op.create_table(
        "nayin",
        sa.Column("name", sa.String(length=8), nullable=False, comment="納音 name, e.g. 海中金"),
        sa.Column(
            "ordinal", sa.Integer(), nullable=False, comment="1..30, pair n holds ganzhi 2n-1, 2n"
        ),
        sa.Column(
            "element",
            sa.String(length=1),
            nullable=False,
            comment="Element computed by the 大衍 rule of §1.5",
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 30", name=op.f("ck_nayin_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_nayin_element_element")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_nayin")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_nayin_ordinal")),
        comment="The thirty 納音 (§1.4–1.5), one per pair of consecutive ganzhi.",
    )
    op.create_table(
        "star",
        sa.Column(
            "name", sa.String(length=8), nullable=False, comment="Star 鎮星 太白 太陰 歲星 熒惑"
        ),
        sa.Column(
            "ordinal", sa.Integer(), nullable=False, comment="1..5 in the order they descend"
        ),
        sa.Column("element", sa.String(length=1), nullable=False, comment="Its element"),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 5", name=op.f("ck_star_ordinal_range")),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_star_element_element")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_star")),
        sa.UniqueConstraint("element", name=op.f("uq_star_element")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_star_ordinal")),
        comment="The five stars 五星 (§8.6–8.9).",
    )
    op.create_table(
        "stem",
        sa.Column("name", sa.String(length=8), nullable=False, comment="Stem 甲..癸"),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..10 from 甲"),
        sa.Column("element", sa.String(length=1), nullable=False, comment="Element (§5.5)"),
        sa.Column(
            "yang",
            sa.Integer(),
            nullable=False,
            comment="1 for the yang stems 甲丙戊庚壬, 0 for yin",
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 10", name=op.f("ck_stem_ordinal_range")),
        sa.CheckConstraint("yang IN (0, 1)", name=op.f("ck_stem_yang_bool")),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_stem_element_element")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_stem")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_stem_ordinal")),
        comment="The ten heavenly stems 天干 (§1.1).",
    )
    op.create_table(
        "ganzhi",
        sa.Column("name", sa.String(length=8), nullable=False, comment="Ganzhi, e.g. 甲子"),
        sa.Column("ordinal", sa.Integer(), nullable=False, comment="1..60 from 甲子"),
        sa.Column("stem", sa.String(length=1), nullable=False, comment="Its stem"),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="Its branch"),
        sa.Column("nayin", sa.String(length=8), nullable=False, comment="Its 納音"),
        sa.Column(
            "xun_head",
            sa.String(length=2),
            nullable=False,
            comment="The 甲 that opens its decade 旬",
        ),
        sa.Column(
            "void_first",
            sa.String(length=1),
            nullable=False,
            comment="First void branch 旬空 of its decade",
        ),
        sa.Column(
            "void_second",
            sa.String(length=1),
            nullable=False,
            comment="Second void branch 旬空 of its decade",
        ),
        sa.CheckConstraint("ordinal BETWEEN 1 AND 60", name=op.f("ck_ganzhi_ordinal_range")),
        sa.ForeignKeyConstraint(["branch"], ["branch.name"], name=op.f("fk_ganzhi_branch_branch")),
        sa.ForeignKeyConstraint(["nayin"], ["nayin.name"], name=op.f("fk_ganzhi_nayin_nayin")),
        sa.ForeignKeyConstraint(["stem"], ["stem.name"], name=op.f("fk_ganzhi_stem_stem")),
        sa.ForeignKeyConstraint(
            ["void_first"], ["branch.name"], name=op.f("fk_ganzhi_void_first_branch")
        ),
        sa.ForeignKeyConstraint(
            ["void_second"], ["branch.name"], name=op.f("fk_ganzhi_void_second_branch")
        ),
        sa.ForeignKeyConstraint(
            ["xun_head"],
            ["ganzhi.name"],
            name=op.f("fk_ganzhi_xun_head_ganzhi"),
            initially="DEFERRED",
            deferrable=True,
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_ganzhi")),
        sa.UniqueConstraint("ordinal", name=op.f("uq_ganzhi_ordinal")),
        sa.UniqueConstraint("stem", "branch", name=op.f("uq_ganzhi_stem_branch")),
        comment="The sixty stem-branch pairs 六十甲子 (§1.2) with 旬, 旬空 and 納音.",
    )
    op.create_table(
        "trigram",
        sa.Column(
            "name", sa.String(length=8), nullable=False, comment="Trigram 乾 兌 離 震 巽 坎 艮 坤"
        ),
        sa.Column(
            "bits", sa.String(length=3), nullable=False, comment="Lines bottom first, 1 = yang"
        ),
        sa.Column(
            "image", sa.String(length=1), nullable=False, comment="Image 天 澤 火 雷 風 水 山 地"
        ),
        sa.Column("element", sa.String(length=1), nullable=False, comment="Element (§5.7)"),
        sa.Column(
            "family",
            sa.String(length=4),
            nullable=False,
            comment="Family role 父 母 長男 … 少女 (§3.2)",
        ),
        sa.Column("xiantian", sa.Integer(), nullable=False, comment="先天 number 1..8"),
        sa.Column(
            "inner_stem",
            sa.String(length=1),
            nullable=False,
            comment="Najia stem as the inner (lower) trigram (§4.1–4.2)",
        ),
        sa.Column(
            "outer_stem",
            sa.String(length=1),
            nullable=False,
            comment="Najia stem as the outer (upper) trigram (§4.1–4.2)",
        ),
        sa.CheckConstraint(
            "length(bits) = 3 AND replace(replace(bits, '0', ''), '1', '') = ''",
            name=op.f("ck_trigram_bits_bits"),
        ),
        sa.CheckConstraint("xiantian BETWEEN 1 AND 8", name=op.f("ck_trigram_xiantian_range")),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_trigram_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["inner_stem"], ["stem.name"], name=op.f("fk_trigram_inner_stem_stem")
        ),
        sa.ForeignKeyConstraint(
            ["outer_stem"], ["stem.name"], name=op.f("fk_trigram_outer_stem_stem")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_trigram")),
        sa.UniqueConstraint("bits", name=op.f("uq_trigram_bits")),
        sa.UniqueConstraint("image", name=op.f("uq_trigram_image")),
        sa.UniqueConstraint("xiantian", name=op.f("uq_trigram_xiantian")),
        comment="The eight trigrams 八卦 (§3.2) with their najia stems (§4).",
    )
    op.create_table(
        "najia",
        sa.Column(
            "half_year",
            sa.String(length=4),
            nullable=False,
            comment="冬至後 (also the fixed table) or 夏至後 (§4.3)",
        ),
        sa.Column("trigram", sa.String(length=1), nullable=False, comment="The trigram"),
        sa.Column("position", sa.Integer(), nullable=False, comment="Line position 1..6"),
        sa.Column("stem", sa.String(length=1), nullable=False, comment="Najia stem"),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="Najia branch"),
        sa.CheckConstraint(
            "half_year IN ('冬至後', '夏至後')", name=op.f("ck_najia_half_year_domain")
        ),
        sa.CheckConstraint("position BETWEEN 1 AND 6", name=op.f("ck_najia_position_range")),
        sa.ForeignKeyConstraint(["branch"], ["branch.name"], name=op.f("fk_najia_branch_branch")),
        sa.ForeignKeyConstraint(["stem"], ["stem.name"], name=op.f("fk_najia_stem_stem")),
        sa.ForeignKeyConstraint(
            ["trigram"], ["trigram.name"], name=op.f("fk_najia_trigram_trigram")
        ),
        sa.PrimaryKeyConstraint("half_year", "trigram", "position", name=op.f("pk_najia")),
        comment="The najia table (§4): stem and branch of each line position for each trigram, positions 1–3 as the inner trigram and 4–6 as the outer. The fixed table is the 冬至後 half; 夏至後 rows carry the §4.3 seasonal swap of 乾 and 坤.",
    )
    op.create_table(
        "palace",
        sa.Column("name", sa.String(length=1), nullable=False, comment="The palace's trigram"),
        sa.Column(
            "jingfang_order",
            sa.Integer(),
            nullable=False,
            comment="1..8 in 京房 order 乾 震 坎 艮 坤 巽 離 兌",
        ),
        sa.CheckConstraint(
            "jingfang_order BETWEEN 1 AND 8", name=op.f("ck_palace_jingfang_order_range")
        ),
        sa.ForeignKeyConstraint(["name"], ["trigram.name"], name=op.f("fk_palace_name_trigram")),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_palace")),
        sa.UniqueConstraint("jingfang_order", name=op.f("uq_palace_jingfang_order")),
        comment="The eight palaces 八宮 (§3.3) in 京房 order.",
    )
    op.create_table(
        "hexagram",
        sa.Column(
            "king_wen",
            sa.Integer(),
            autoincrement=False,
            nullable=False,
            comment="King Wen number 1..64",
        ),
        sa.Column(
            "bits", sa.String(length=6), nullable=False, comment="Lines bottom first, 1 = yang"
        ),
        sa.Column("name", sa.String(length=8), nullable=False, comment="Full name, e.g. 天風姤"),
        sa.Column("short_name", sa.String(length=4), nullable=False, comment="Short name, e.g. 姤"),
        sa.Column(
            "lower", sa.String(length=1), nullable=False, comment="Inner (lower) trigram 內卦"
        ),
        sa.Column(
            "upper", sa.String(length=1), nullable=False, comment="Outer (upper) trigram 外卦"
        ),
        sa.Column("palace", sa.String(length=1), nullable=False, comment="Its palace (§3.3)"),
        sa.Column(
            "generation", sa.Integer(), nullable=False, comment="Generation 0..7 in its palace"
        ),
        sa.Column(
            "palace_sequence",
            sa.Integer(),
            nullable=False,
            comment="1..64 in the palace-by-palace walk (乾 本宮 = 1, 歸妹 = 64)",
        ),
        sa.Column("world", sa.Integer(), nullable=False, comment="World line 世 (§8.3)"),
        sa.Column("response", sa.Integer(), nullable=False, comment="Response line 應 (§8.3)"),
        sa.Column(
            "five_star",
            sa.String(length=2),
            nullable=False,
            comment="The star descending on it (§8.6)",
        ),
        sa.Column(
            "world_mansion_jingfang",
            sa.String(length=1),
            nullable=False,
            comment="京房 mansion of the world line (§8.10)",
        ),
        sa.Column(
            "world_mansion_huangjin",
            sa.String(length=1),
            nullable=False,
            comment="黃金策 mansion of the world line (§8.11)",
        ),
        sa.Column(
            "gua_shen", sa.String(length=1), nullable=False, comment="卦身 (月卦身) branch (§9.1)"
        ),
        sa.Column(
            "shi_shen_line", sa.Integer(), nullable=False, comment="世身 line position (§9.1)"
        ),
        sa.CheckConstraint(
            "length(bits) = 6 AND replace(replace(bits, '0', ''), '1', '') = ''",
            name=op.f("ck_hexagram_bits_bits"),
        ),
        sa.CheckConstraint("generation BETWEEN 0 AND 7", name=op.f("ck_hexagram_generation_range")),
        sa.CheckConstraint("king_wen BETWEEN 1 AND 64", name=op.f("ck_hexagram_king_wen_range")),
        sa.CheckConstraint(
            "palace_sequence BETWEEN 1 AND 64", name=op.f("ck_hexagram_palace_sequence_range")
        ),
        sa.CheckConstraint("response BETWEEN 1 AND 6", name=op.f("ck_hexagram_response_range")),
        sa.CheckConstraint(
            "shi_shen_line BETWEEN 1 AND 6", name=op.f("ck_hexagram_shi_shen_line_range")
        ),
        sa.CheckConstraint("world BETWEEN 1 AND 6", name=op.f("ck_hexagram_world_range")),
        sa.ForeignKeyConstraint(
            ["five_star"], ["star.name"], name=op.f("fk_hexagram_five_star_star")
        ),
        sa.ForeignKeyConstraint(
            ["generation"], ["generation.ordinal"], name=op.f("fk_hexagram_generation_generation")
        ),
        sa.ForeignKeyConstraint(
            ["gua_shen"], ["branch.name"], name=op.f("fk_hexagram_gua_shen_branch")
        ),
        sa.ForeignKeyConstraint(
            ["lower"], ["trigram.name"], name=op.f("fk_hexagram_lower_trigram")
        ),
        sa.ForeignKeyConstraint(
            ["palace"], ["palace.name"], name=op.f("fk_hexagram_palace_palace")
        ),
        sa.ForeignKeyConstraint(
            ["upper"], ["trigram.name"], name=op.f("fk_hexagram_upper_trigram")
        ),
        sa.ForeignKeyConstraint(
            ["world_mansion_huangjin"],
            ["mansion.name"],
            name=op.f("fk_hexagram_world_mansion_huangjin_mansion"),
        ),
        sa.ForeignKeyConstraint(
            ["world_mansion_jingfang"],
            ["mansion.name"],
            name=op.f("fk_hexagram_world_mansion_jingfang_mansion"),
        ),
        sa.PrimaryKeyConstraint("king_wen", name=op.f("pk_hexagram")),
        sa.UniqueConstraint("bits", name=op.f("uq_hexagram_bits")),
        sa.UniqueConstraint("name", name=op.f("uq_hexagram_name")),
        sa.UniqueConstraint("palace_sequence", name=op.f("uq_hexagram_palace_sequence")),
        sa.UniqueConstraint("short_name", name=op.f("uq_hexagram_short_name")),
        comment="The 64 hexagrams with palace, generation, world/response, stars and bodies.",
    )
    op.create_table(
        "hexagram_line",
        sa.Column("king_wen", sa.Integer(), nullable=False, comment="The hexagram"),
        sa.Column("position", sa.Integer(), nullable=False, comment="Line 1..6 from the bottom"),
        sa.Column("yang", sa.Integer(), nullable=False, comment="1 yang, 0 yin"),
        sa.Column("stem", sa.String(length=1), nullable=False, comment="Najia stem (fixed)"),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="Najia branch"),
        sa.Column("ganzhi", sa.String(length=2), nullable=False, comment="Stem + branch"),
        sa.Column("element", sa.String(length=1), nullable=False, comment="The branch's element"),
        sa.Column(
            "relative",
            sa.String(length=2),
            nullable=False,
            comment="Relative against the palace element (§6)",
        ),
        sa.Column("is_world", sa.Integer(), nullable=False, comment="1 on the world line"),
        sa.Column("is_response", sa.Integer(), nullable=False, comment="1 on the response line"),
        sa.Column(
            "is_between",
            sa.Integer(),
            nullable=False,
            comment="1 on the two lines between them (§10.1)",
        ),
        sa.Column(
            "mansion",
            sa.String(length=1),
            nullable=False,
            comment="黃金策 mansion of this line (§8.11)",
        ),
        sa.CheckConstraint("is_between IN (0, 1)", name=op.f("ck_hexagram_line_is_between_bool")),
        sa.CheckConstraint("is_response IN (0, 1)", name=op.f("ck_hexagram_line_is_response_bool")),
        sa.CheckConstraint("is_world IN (0, 1)", name=op.f("ck_hexagram_line_is_world_bool")),
        sa.CheckConstraint(
            "position BETWEEN 1 AND 6", name=op.f("ck_hexagram_line_position_range")
        ),
        sa.CheckConstraint("yang IN (0, 1)", name=op.f("ck_hexagram_line_yang_bool")),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_hexagram_line_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_hexagram_line_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["ganzhi"], ["ganzhi.name"], name=op.f("fk_hexagram_line_ganzhi_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["king_wen"], ["hexagram.king_wen"], name=op.f("fk_hexagram_line_king_wen_hexagram")
        ),
        sa.ForeignKeyConstraint(
            ["mansion"], ["mansion.name"], name=op.f("fk_hexagram_line_mansion_mansion")
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_hexagram_line_relative_relative")
        ),
        sa.ForeignKeyConstraint(["stem"], ["stem.name"], name=op.f("fk_hexagram_line_stem_stem")),
        sa.PrimaryKeyConstraint("king_wen", "position", name=op.f("pk_hexagram_line")),
        comment="The 384 lines with najia, relative, world/response and 黃金策 mansion.",
    )
    op.create_table(
        "hidden_spirit",
        sa.Column("king_wen", sa.Integer(), nullable=False, comment="The hexagram"),
        sa.Column(
            "position", sa.Integer(), nullable=False, comment="Line it hides under (its 飛神), 1..6"
        ),
        sa.Column("relative", sa.String(length=2), nullable=False, comment="The hidden relative"),
        sa.Column("stem", sa.String(length=1), nullable=False, comment="Its najia stem"),
        sa.Column("branch", sa.String(length=1), nullable=False, comment="Its najia branch"),
        sa.Column("ganzhi", sa.String(length=2), nullable=False, comment="Stem + branch"),
        sa.Column("element", sa.String(length=1), nullable=False, comment="Its element"),
        sa.CheckConstraint(
            "position BETWEEN 1 AND 6", name=op.f("ck_hidden_spirit_position_range")
        ),
        sa.ForeignKeyConstraint(
            ["branch"], ["branch.name"], name=op.f("fk_hidden_spirit_branch_branch")
        ),
        sa.ForeignKeyConstraint(
            ["element"], ["element.name"], name=op.f("fk_hidden_spirit_element_element")
        ),
        sa.ForeignKeyConstraint(
            ["ganzhi"], ["ganzhi.name"], name=op.f("fk_hidden_spirit_ganzhi_ganzhi")
        ),
        sa.ForeignKeyConstraint(
            ["king_wen"], ["hexagram.king_wen"], name=op.f("fk_hidden_spirit_king_wen_hexagram")
        ),
        sa.ForeignKeyConstraint(
            ["relative"], ["relative.name"], name=op.f("fk_hidden_spirit_relative_relative")
        ),
        sa.ForeignKeyConstraint(["stem"], ["stem.name"], name=op.f("fk_hidden_spirit_stem_stem")),
        sa.PrimaryKeyConstraint("king_wen", "position", name=op.f("pk_hidden_spirit")),
        comment="伏神: relatives absent from a hexagram, taken from its palace's pure hexagram at the same position; each hides under the hexagram's own line there (§11, standard).",
    )

    migrating.create_views(op, VIEWS)


def downgrade() -> None:
    migrating.drop_views(op, VIEWS)
    op.drop_table("hidden_spirit")
    op.drop_table("hexagram_line")
    op.drop_table("hexagram")
    op.drop_table("palace")
    op.drop_table("najia")
    op.drop_table("trigram")
    op.drop_table("ganzhi")
    op.drop_table("stem")
    op.drop_table("star")
    op.drop_table("nayin")
    op.drop_table("branch")
    op.drop_table("source_passage")
    op.drop_table("relative")
    op.drop_table("name_alias")
    op.drop_table("mansion")
    op.drop_table("generation")
    op.drop_table("element")
