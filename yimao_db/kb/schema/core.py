"""Core reference tables: vocabularies, the sixty, trigrams, palaces, hexagrams, lines.

Vocabularies are lookup tables with natural ids (the canonical traditional character is the
key); association rows have composite keys. Every column carries a ``comment`` that the
documentation tables and ``docs/schema.md`` are generated from.
"""

from __future__ import annotations

from sqlalchemy import Integer, String, UniqueConstraint

from yimao_db.kb.schema.base import between, bits, boolean, col, fk, name_pk, one_of, table
from yimao_db.kb.vocab import ELEMENT_RELATIONS, HALF_YEARS

SECTION = "core"

RELATIONS = ELEMENT_RELATIONS


element = table(
    "element",
    "The five elements 五行 (§5.5–5.6) with the cycles between them.",
    name_pk("name", "Element 木 火 土 金 水"),
    col("ordinal", Integer, unique=True, comment="1..5 in generating order from 木"),
    col(
        "generates",
        String(1),
        fk("element.name", deferred=True),
        comment="The element this one generates",
    ),
    col(
        "controls",
        String(1),
        fk("element.name", deferred=True),
        comment="The element this one controls",
    ),
    between("ordinal", 1, 5),
    section=SECTION,
)


stem = table(
    "stem",
    "The ten heavenly stems 天干 (§1.1).",
    name_pk("name", "Stem 甲..癸"),
    col("ordinal", Integer, unique=True, comment="1..10 from 甲"),
    col("element", String(1), fk("element.name"), comment="Element (§5.6)"),
    col("yang", Integer, comment="1 for the yang stems 甲丙戊庚壬, 0 for yin"),
    between("ordinal", 1, 10),
    boolean("yang"),
    section=SECTION,
)


branch = table(
    "branch",
    "The twelve earthly branches 地支 (§1.1).",
    name_pk("name", "Branch 子..亥"),
    col("ordinal", Integer, unique=True, comment="1..12 from 子"),
    col("element", String(1), fk("element.name"), comment="Element (§5.5)"),
    col("yang", Integer, comment="1 for the yang branches 子寅辰午申戌, 0 for yin"),
    between("ordinal", 1, 12),
    boolean("yang"),
    section=SECTION,
)


nayin = table(
    "nayin",
    "The thirty 納音 (§1.4–1.5), one per pair of consecutive ganzhi.",
    name_pk("name", "納音 name, e.g. 海中金"),
    col("ordinal", Integer, unique=True, comment="1..30, pair n holds ganzhi 2n-1, 2n"),
    col(
        "element",
        String(1),
        fk("element.name"),
        comment="Element computed by the 大衍 rule of §1.5",
    ),
    between("ordinal", 1, 30),
    section=SECTION,
)


ganzhi = table(
    "ganzhi",
    "The sixty stem-branch pairs 六十甲子 (§1.2) with 旬, 旬空 and 納音.",
    name_pk("name", "Ganzhi, e.g. 甲子"),
    col("ordinal", Integer, unique=True, comment="1..60 from 甲子"),
    col("stem", String(1), fk("stem.name"), comment="Its stem"),
    col("branch", String(1), fk("branch.name"), comment="Its branch"),
    col("nayin", String(8), fk("nayin.name"), comment="Its 納音"),
    col(
        "xun_head",
        String(2),
        fk("ganzhi.name", deferred=True),
        comment="The 甲 that opens its decade 旬",
    ),
    col("void_first", String(1), fk("branch.name"), comment="First void branch 旬空 of its decade"),
    col(
        "void_second", String(1), fk("branch.name"), comment="Second void branch 旬空 of its decade"
    ),
    between("ordinal", 1, 60),
    UniqueConstraint("stem", "branch"),
    section=SECTION,
    sqlite_with_rowid=False,  # revision 0009: a line's lookups are one search each
)


trigram = table(
    "trigram",
    "The eight trigrams 八卦 (§3.2) with their najia stems (§4).",
    name_pk("name", "Trigram 乾 兌 離 震 巽 坎 艮 坤"),
    col("bits", String(3), unique=True, comment="Lines bottom first, 1 = yang"),
    col("image", String(1), unique=True, comment="Image 天 澤 火 雷 風 水 山 地"),
    col("element", String(1), fk("element.name"), comment="Element (§5.7)"),
    col("family", String(4), comment="Family role 父 母 長男 … 少女 (§3.2)"),
    col("xiantian", Integer, unique=True, comment="先天 number 1..8"),
    col(
        "inner_stem",
        String(1),
        fk("stem.name"),
        comment="Najia stem as the inner (lower) trigram (§4.1–4.2)",
    ),
    col(
        "outer_stem",
        String(1),
        fk("stem.name"),
        comment="Najia stem as the outer (upper) trigram (§4.1–4.2)",
    ),
    bits("bits", 3),
    between("xiantian", 1, 8),
    section=SECTION,
    sqlite_with_rowid=False,  # revision 0009: a line's lookups are one search each
)


najia = table(
    "najia",
    "The najia table (§4): stem and branch of each line position for each trigram, "
    "positions 1–3 as the inner trigram and 4–6 as the outer. The fixed table is the "
    "冬至後 half; 夏至後 rows carry the §4.3 seasonal swap of 乾 and 坤.",
    col(
        "half_year",
        String(4),
        primary_key=True,
        comment="冬至後 (also the fixed table) or 夏至後 (§4.3)",
    ),
    col("trigram", String(1), fk("trigram.name"), primary_key=True, comment="The trigram"),
    col("position", Integer, primary_key=True, comment="Line position 1..6"),
    col("stem", String(1), fk("stem.name"), comment="Najia stem"),
    col("branch", String(1), fk("branch.name"), comment="Najia branch"),
    between("position", 1, 6),
    one_of("half_year", HALF_YEARS),
    section=SECTION,
)


palace = table(
    "palace",
    "The eight palaces 八宮 (§3.3) in 京房 order.",
    col("name", String(1), fk("trigram.name"), primary_key=True, comment="The palace's trigram"),
    col(
        "jingfang_order", Integer, unique=True, comment="1..8 in 京房 order 乾 震 坎 艮 坤 巽 離 兌"
    ),
    between("jingfang_order", 1, 8),
    section=SECTION,
)


generation = table(
    "generation",
    "The eight generations of a palace (§3.3) with world and response (§8.3–8.5).",
    col("ordinal", Integer, primary_key=True, autoincrement=False, comment="0..7"),
    col("name", String(4), unique=True, comment="本宮 一世 … 五世 遊魂 歸魂"),
    col("world", Integer, comment="World line 世 of this generation"),
    col("response", Integer, comment="Response line 應 of this generation"),
    between("ordinal", 0, 7),
    between("world", 1, 6),
    between("response", 1, 6),
    section=SECTION,
)


relative = table(
    "relative",
    "The six relatives 六親 (§6), named by how a line's element stands to the palace's.",
    name_pk("name", "Relative 兄弟 父母 子孫 妻財 官鬼"),
    col("ordinal", Integer, unique=True, comment="1..5"),
    col(
        "relation",
        String(16),
        unique=True,
        comment="same, generates_me, i_generate, i_control or controls_me (the line against 我)",
    ),
    between("ordinal", 1, 5),
    one_of("relation", RELATIONS),
    section=SECTION,
)


star = table(
    "star",
    "The five stars 五星 (§8.6–8.9).",
    name_pk("name", "Star 鎮星 太白 太陰 歲星 熒惑"),
    col("ordinal", Integer, unique=True, comment="1..5 in the order they descend"),
    col("element", String(1), fk("element.name"), unique=True, comment="Its element"),
    between("ordinal", 1, 5),
    section=SECTION,
)


mansion = table(
    "mansion",
    "The 28 lunar mansions 二十八宿 (§8.10–8.12).",
    name_pk("name", "Mansion 角 … 軫"),
    col("ordinal", Integer, unique=True, comment="1..28 from 角"),
    between("ordinal", 1, 28),
    section=SECTION,
)


hexagram = table(
    "hexagram",
    "The 64 hexagrams with palace, generation, world/response, stars and bodies.",
    col(
        "king_wen", Integer, primary_key=True, autoincrement=False, comment="King Wen number 1..64"
    ),
    col("bits", String(6), unique=True, comment="Lines bottom first, 1 = yang"),
    col("name", String(8), unique=True, comment="Full name, e.g. 天風姤"),
    col("short_name", String(4), unique=True, comment="Short name, e.g. 姤"),
    col("lower", String(1), fk("trigram.name"), comment="Inner (lower) trigram 內卦"),
    col("upper", String(1), fk("trigram.name"), comment="Outer (upper) trigram 外卦"),
    col("palace", String(1), fk("palace.name"), comment="Its palace (§3.3)"),
    col("generation", Integer, fk("generation.ordinal"), comment="Generation 0..7 in its palace"),
    col(
        "palace_sequence",
        Integer,
        unique=True,
        comment="1..64 in the palace-by-palace walk (乾 本宮 = 1, 歸妹 = 64)",
    ),
    col("world", Integer, comment="World line 世 (§8.3)"),
    col("response", Integer, comment="Response line 應 (§8.3)"),
    col("five_star", String(2), fk("star.name"), comment="The star descending on it (§8.6)"),
    col(
        "world_mansion_jingfang",
        String(1),
        fk("mansion.name"),
        comment="京房 mansion of the world line (§8.10)",
    ),
    col(
        "world_mansion_huangjin",
        String(1),
        fk("mansion.name"),
        comment="黃金策 mansion of the world line (§8.11)",
    ),
    col("gua_shen", String(1), fk("branch.name"), comment="卦身 (月卦身) branch (§9.1)"),
    col("shi_shen_line", Integer, comment="世身 line position (§9.1)"),
    between("king_wen", 1, 64),
    bits("bits", 6),
    between("generation", 0, 7),
    between("palace_sequence", 1, 64),
    between("world", 1, 6),
    between("response", 1, 6),
    between("shi_shen_line", 1, 6),
    section=SECTION,
)


hexagram_line = table(
    "hexagram_line",
    "The 384 lines with najia, relative, world/response and 黃金策 mansion.",
    col("king_wen", Integer, fk("hexagram.king_wen"), primary_key=True, comment="The hexagram"),
    col("position", Integer, primary_key=True, comment="Line 1..6 from the bottom"),
    col("yang", Integer, comment="1 yang, 0 yin"),
    col("stem", String(1), fk("stem.name"), comment="Najia stem (fixed)"),
    col("branch", String(1), fk("branch.name"), comment="Najia branch"),
    col("ganzhi", String(2), fk("ganzhi.name"), comment="Stem + branch"),
    col("element", String(1), fk("element.name"), comment="The branch's element"),
    col(
        "relative",
        String(2),
        fk("relative.name"),
        comment="Relative against the palace element (§6)",
    ),
    col("is_world", Integer, comment="1 on the world line"),
    col("is_response", Integer, comment="1 on the response line"),
    col("is_between", Integer, comment="1 on the two lines between them (§10.1)"),
    col("mansion", String(1), fk("mansion.name"), comment="黃金策 mansion of this line (§8.11)"),
    between("position", 1, 6),
    boolean("yang"),
    boolean("is_world"),
    boolean("is_response"),
    boolean("is_between"),
    section=SECTION,
    sqlite_with_rowid=False,  # revision 0009: a line's lookups are one search each
)


hidden_spirit = table(
    "hidden_spirit",
    "伏神: relatives absent from a hexagram, taken from its palace's pure hexagram at the "
    "same position; each hides under the hexagram's own line there (§11, standard).",
    col("king_wen", Integer, fk("hexagram.king_wen"), primary_key=True, comment="The hexagram"),
    col("position", Integer, primary_key=True, comment="Line it hides under (its 飛神), 1..6"),
    col("relative", String(2), fk("relative.name"), comment="The hidden relative"),
    col("stem", String(1), fk("stem.name"), comment="Its najia stem"),
    col("branch", String(1), fk("branch.name"), comment="Its najia branch"),
    col("ganzhi", String(2), fk("ganzhi.name"), comment="Stem + branch"),
    col("element", String(1), fk("element.name"), comment="Its element"),
    between("position", 1, 6),
    section=SECTION,
)


name_alias = table(
    "name_alias",
    "Every accepted spelling of a name, mapped to its canonical entity (§0).",
    col(
        "kind",
        String(16),
        primary_key=True,
        comment="Which vocabulary: hexagram, trigram, element, stem, branch, relative, …",
    ),
    col("alias", String(120), primary_key=True, comment="An accepted form"),
    col(
        "canonical",
        String(16),
        comment="The canonical name (for hexagrams the King Wen number as text)",
    ),
    col(
        "form",
        String(16),
        comment="canonical, short, simplified, variant, pinyin, english, number or bits",
    ),
    section=SECTION,
)


line_najia = table(
    "line_najia",
    "The najia stem of every line under each half of the najia table (§4.3): the 冬至後 half "
    "is the fixed table, the 夏至後 half swaps the inner and outer stems of 乾 and 坤. A "
    "reading joins the half it uses (reading.najia_half).",
    col("king_wen", Integer, fk("hexagram.king_wen"), primary_key=True, comment="The hexagram"),
    col("position", Integer, primary_key=True, comment="Line 1..6 from the bottom"),
    col("half_year", String(4), primary_key=True, comment="冬至後 (the fixed table) or 夏至後"),
    col("stem", String(1), fk("stem.name"), comment="Najia stem in that half (§4.3)"),
    col("ganzhi", String(2), fk("ganzhi.name"), comment="Stem + branch in that half"),
    between("position", 1, 6),
    one_of("half_year", HALF_YEARS),
    section=SECTION,
    sqlite_with_rowid=False,
)


hexagram_pattern = table(
    "hexagram_pattern",
    "Facts of a whole hexagram read from its lines (standard): its nuclear hexagram 互卦, "
    "whether it is a 六衝卦 or a 六合卦 (lines 1–4, 2–5 and 3–6 all clash or all combine), "
    "and the lines holding its 卦身 (§9.1).",
    col("king_wen", Integer, fk("hexagram.king_wen"), primary_key=True, comment="The hexagram"),
    col(
        "nuclear_king_wen",
        Integer,
        fk("hexagram.king_wen"),
        comment="Its nuclear hexagram 互卦 (lines 2–4 below, 3–5 above)",
    ),
    col(
        "pure_king_wen",
        Integer,
        fk("hexagram.king_wen"),
        comment="The pure hexagram 本宮 of its palace, where its hidden spirits come from",
    ),
    col("is_liuchong", Integer, comment="1 for a 六衝卦: its three line pairs clash"),
    col("is_liuhe", Integer, comment="1 for a 六合卦: its three line pairs combine"),
    col(
        "gua_shen_positions",
        String(3),
        comment="The lines whose branch is the 卦身, joined by ',' (empty when absent, §9.1)",
    ),
    boolean("is_liuchong"),
    boolean("is_liuhe"),
    section=SECTION,
)
