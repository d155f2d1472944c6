"""Core reference tables (issue 2): vocabularies, the sixty, trigrams, palaces, hexagrams, lines.

Vocabularies are lookup tables with natural ids (the canonical traditional character is the
key); association rows have composite keys. Every column carries a ``comment`` that the
documentation tables and ``docs/schema.md`` are generated from.
"""

from __future__ import annotations

from sqlalchemy import Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from yimao_db.schema.base import Base, between, bits, boolean, fk, name_pk, one_of

HALF_YEARS = ("冬至後", "夏至後")
RELATIONS = ("same", "generates_me", "i_generate", "i_control", "controls_me")


class Element(Base):
    __tablename__ = "element"
    __table_args__ = (between("ordinal", 1, 5),)
    __doc__ = "The five elements 五行 (§5.5–5.6) with the cycles between them."

    name: Mapped[str] = name_pk("Element 木 火 土 金 水")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..5 in generating order from 木")
    generates: Mapped[str] = mapped_column(
        String(1), fk("element.name", deferred=True), comment="The element this one generates"
    )
    controls: Mapped[str] = mapped_column(
        String(1), fk("element.name", deferred=True), comment="The element this one controls"
    )


class Stem(Base):
    __tablename__ = "stem"
    __table_args__ = (between("ordinal", 1, 10), boolean("yang"))
    __doc__ = "The ten heavenly stems 天干 (§1.1)."

    name: Mapped[str] = name_pk("Stem 甲..癸")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..10 from 甲")
    element: Mapped[str] = mapped_column(String(1), fk("element.name"), comment="Element (§5.5)")
    yang: Mapped[int] = mapped_column(comment="1 for the yang stems 甲丙戊庚壬, 0 for yin")


class Branch(Base):
    __tablename__ = "branch"
    __table_args__ = (between("ordinal", 1, 12), boolean("yang"))
    __doc__ = "The twelve earthly branches 地支 (§1.1)."

    name: Mapped[str] = name_pk("Branch 子..亥")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..12 from 子")
    element: Mapped[str] = mapped_column(String(1), fk("element.name"), comment="Element (§5.6)")
    yang: Mapped[int] = mapped_column(comment="1 for the yang branches 子寅辰午申戌, 0 for yin")


class Nayin(Base):
    __tablename__ = "nayin"
    __table_args__ = (between("ordinal", 1, 30),)
    __doc__ = "The thirty 納音 (§1.4–1.5), one per pair of consecutive ganzhi."

    name: Mapped[str] = name_pk("納音 name, e.g. 海中金")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..30, pair n holds ganzhi 2n-1, 2n")
    element: Mapped[str] = mapped_column(
        String(1), fk("element.name"), comment="Element computed by the 大衍 rule of §1.5"
    )


class Ganzhi(Base):
    __tablename__ = "ganzhi"
    __table_args__ = (
        between("ordinal", 1, 60),
        UniqueConstraint("stem", "branch"),
    )
    __doc__ = "The sixty stem-branch pairs 六十甲子 (§1.2) with 旬, 旬空 and 納音."

    name: Mapped[str] = name_pk("Ganzhi, e.g. 甲子")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..60 from 甲子")
    stem: Mapped[str] = mapped_column(String(1), fk("stem.name"), comment="Its stem")
    branch: Mapped[str] = mapped_column(String(1), fk("branch.name"), comment="Its branch")
    nayin: Mapped[str] = mapped_column(String(8), fk("nayin.name"), comment="Its 納音")
    xun_head: Mapped[str] = mapped_column(
        String(2), fk("ganzhi.name", deferred=True), comment="The 甲 that opens its decade 旬"
    )
    void_first: Mapped[str] = mapped_column(
        String(1), fk("branch.name"), comment="First void branch 旬空 of its decade"
    )
    void_second: Mapped[str] = mapped_column(
        String(1), fk("branch.name"), comment="Second void branch 旬空 of its decade"
    )


class Trigram(Base):
    __tablename__ = "trigram"
    __table_args__ = (bits("bits", 3), between("xiantian", 1, 8))
    __doc__ = "The eight trigrams 八卦 (§3.2) with their najia stems (§4)."

    name: Mapped[str] = name_pk("Trigram 乾 兌 離 震 巽 坎 艮 坤")
    bits: Mapped[str] = mapped_column(
        String(3), unique=True, comment="Lines bottom first, 1 = yang"
    )
    image: Mapped[str] = mapped_column(
        String(1), unique=True, comment="Image 天 澤 火 雷 風 水 山 地"
    )
    element: Mapped[str] = mapped_column(String(1), fk("element.name"), comment="Element (§5.7)")
    family: Mapped[str] = mapped_column(String(4), comment="Family role 父 母 長男 … 少女 (§3.2)")
    xiantian: Mapped[int] = mapped_column(unique=True, comment="先天 number 1..8")
    inner_stem: Mapped[str] = mapped_column(
        String(1), fk("stem.name"), comment="Najia stem as the inner (lower) trigram (§4.1–4.2)"
    )
    outer_stem: Mapped[str] = mapped_column(
        String(1), fk("stem.name"), comment="Najia stem as the outer (upper) trigram (§4.1–4.2)"
    )


class Najia(Base):
    __tablename__ = "najia"
    __table_args__ = (between("position", 1, 6), one_of("half_year", HALF_YEARS))
    __doc__ = (
        "The najia table (§4): stem and branch of each line position for each trigram, "
        "positions 1–3 as the inner trigram and 4–6 as the outer. The fixed table is the "
        "冬至後 half; 夏至後 rows carry the §4.3 seasonal swap of 乾 and 坤."
    )

    half_year: Mapped[str] = mapped_column(
        String(4), primary_key=True, comment="冬至後 (also the fixed table) or 夏至後 (§4.3)"
    )
    trigram: Mapped[str] = mapped_column(
        String(1), fk("trigram.name"), primary_key=True, comment="The trigram"
    )
    position: Mapped[int] = mapped_column(primary_key=True, comment="Line position 1..6")
    stem: Mapped[str] = mapped_column(String(1), fk("stem.name"), comment="Najia stem")
    branch: Mapped[str] = mapped_column(String(1), fk("branch.name"), comment="Najia branch")


class Palace(Base):
    __tablename__ = "palace"
    __table_args__ = (between("jingfang_order", 1, 8),)
    __doc__ = "The eight palaces 八宮 (§3.3) in 京房 order."

    name: Mapped[str] = mapped_column(
        String(1), fk("trigram.name"), primary_key=True, comment="The palace's trigram"
    )
    jingfang_order: Mapped[int] = mapped_column(
        unique=True, comment="1..8 in 京房 order 乾 震 坎 艮 坤 巽 離 兌"
    )


class Generation(Base):
    __tablename__ = "generation"
    __table_args__ = (
        between("ordinal", 0, 7),
        between("world", 1, 6),
        between("response", 1, 6),
    )
    __doc__ = "The eight generations of a palace (§3.3) with world and response (§8.3–8.5)."

    ordinal: Mapped[int] = mapped_column(
        Integer, primary_key=True, autoincrement=False, comment="0..7"
    )
    name: Mapped[str] = mapped_column(String(4), unique=True, comment="本宮 一世 … 五世 遊魂 歸魂")
    world: Mapped[int] = mapped_column(comment="World line 世 of this generation")
    response: Mapped[int] = mapped_column(comment="Response line 應 of this generation")


class Relative(Base):
    __tablename__ = "relative"
    __table_args__ = (between("ordinal", 1, 5), one_of("relation", RELATIONS))
    __doc__ = "The six relatives 六親 (§6), named by how a line's element stands to the palace's."

    name: Mapped[str] = name_pk("Relative 兄弟 父母 子孫 妻財 官鬼")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..5")
    relation: Mapped[str] = mapped_column(
        String(16),
        unique=True,
        comment="same, generates_me, i_generate, i_control or controls_me (the line against 我)",
    )


class Star(Base):
    __tablename__ = "star"
    __table_args__ = (between("ordinal", 1, 5),)
    __doc__ = "The five stars 五星 (§8.6–8.9)."

    name: Mapped[str] = name_pk("Star 鎮星 太白 太陰 歲星 熒惑")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..5 in the order they descend")
    element: Mapped[str] = mapped_column(
        String(1), fk("element.name"), unique=True, comment="Its element"
    )


class Mansion(Base):
    __tablename__ = "mansion"
    __table_args__ = (between("ordinal", 1, 28),)
    __doc__ = "The 28 lunar mansions 二十八宿 (§8.10–8.12)."

    name: Mapped[str] = name_pk("Mansion 角 … 軫")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..28 from 角")


class Hexagram(Base):
    __tablename__ = "hexagram"
    __table_args__ = (
        between("king_wen", 1, 64),
        bits("bits", 6),
        between("generation", 0, 7),
        between("palace_sequence", 1, 64),
        between("world", 1, 6),
        between("response", 1, 6),
        between("shi_shen_line", 1, 6),
    )
    __doc__ = "The 64 hexagrams with palace, generation, world/response, stars and bodies."

    king_wen: Mapped[int] = mapped_column(
        Integer, primary_key=True, autoincrement=False, comment="King Wen number 1..64"
    )
    bits: Mapped[str] = mapped_column(
        String(6), unique=True, comment="Lines bottom first, 1 = yang"
    )
    name: Mapped[str] = mapped_column(String(8), unique=True, comment="Full name, e.g. 天風姤")
    short_name: Mapped[str] = mapped_column(String(4), unique=True, comment="Short name, e.g. 姤")
    lower: Mapped[str] = mapped_column(
        String(1), fk("trigram.name"), comment="Inner (lower) trigram 內卦"
    )
    upper: Mapped[str] = mapped_column(
        String(1), fk("trigram.name"), comment="Outer (upper) trigram 外卦"
    )
    palace: Mapped[str] = mapped_column(String(1), fk("palace.name"), comment="Its palace (§3.3)")
    generation: Mapped[int] = mapped_column(
        fk("generation.ordinal"), comment="Generation 0..7 in its palace"
    )
    palace_sequence: Mapped[int] = mapped_column(
        unique=True, comment="1..64 in the palace-by-palace walk (乾 本宮 = 1, 歸妹 = 64)"
    )
    world: Mapped[int] = mapped_column(comment="World line 世 (§8.3)")
    response: Mapped[int] = mapped_column(comment="Response line 應 (§8.3)")
    five_star: Mapped[str] = mapped_column(
        String(2), fk("star.name"), comment="The star descending on it (§8.6)"
    )
    world_mansion_jingfang: Mapped[str] = mapped_column(
        String(1), fk("mansion.name"), comment="京房 mansion of the world line (§8.10)"
    )
    world_mansion_huangjin: Mapped[str] = mapped_column(
        String(1), fk("mansion.name"), comment="黃金策 mansion of the world line (§8.11)"
    )
    gua_shen: Mapped[str] = mapped_column(
        String(1), fk("branch.name"), comment="卦身 (月卦身) branch (§9.1)"
    )
    shi_shen_line: Mapped[int] = mapped_column(comment="世身 line position (§9.1)")


class HexagramLine(Base):
    __tablename__ = "hexagram_line"
    __table_args__ = (
        between("position", 1, 6),
        boolean("yang"),
        boolean("is_world"),
        boolean("is_response"),
        boolean("is_between"),
    )
    __doc__ = "The 384 lines with najia, relative, world/response and 黃金策 mansion."

    king_wen: Mapped[int] = mapped_column(
        fk("hexagram.king_wen"), primary_key=True, comment="The hexagram"
    )
    position: Mapped[int] = mapped_column(primary_key=True, comment="Line 1..6 from the bottom")
    yang: Mapped[int] = mapped_column(comment="1 yang, 0 yin")
    stem: Mapped[str] = mapped_column(String(1), fk("stem.name"), comment="Najia stem (fixed)")
    branch: Mapped[str] = mapped_column(String(1), fk("branch.name"), comment="Najia branch")
    ganzhi: Mapped[str] = mapped_column(String(2), fk("ganzhi.name"), comment="Stem + branch")
    element: Mapped[str] = mapped_column(
        String(1), fk("element.name"), comment="The branch's element"
    )
    relative: Mapped[str] = mapped_column(
        String(2), fk("relative.name"), comment="Relative against the palace element (§6)"
    )
    is_world: Mapped[int] = mapped_column(comment="1 on the world line")
    is_response: Mapped[int] = mapped_column(comment="1 on the response line")
    is_between: Mapped[int] = mapped_column(comment="1 on the two lines between them (§10.1)")
    mansion: Mapped[str] = mapped_column(
        String(1), fk("mansion.name"), comment="黃金策 mansion of this line (§8.11)"
    )


class HiddenSpirit(Base):
    __tablename__ = "hidden_spirit"
    __table_args__ = (between("position", 1, 6),)
    __doc__ = (
        "伏神: relatives absent from a hexagram, taken from its palace's pure hexagram at the "
        "same position; each hides under the hexagram's own line there (§11, standard)."
    )

    king_wen: Mapped[int] = mapped_column(
        fk("hexagram.king_wen"), primary_key=True, comment="The hexagram"
    )
    position: Mapped[int] = mapped_column(
        primary_key=True, comment="Line it hides under (its 飛神), 1..6"
    )
    relative: Mapped[str] = mapped_column(
        String(2), fk("relative.name"), comment="The hidden relative"
    )
    stem: Mapped[str] = mapped_column(String(1), fk("stem.name"), comment="Its najia stem")
    branch: Mapped[str] = mapped_column(String(1), fk("branch.name"), comment="Its najia branch")
    ganzhi: Mapped[str] = mapped_column(String(2), fk("ganzhi.name"), comment="Stem + branch")
    element: Mapped[str] = mapped_column(String(1), fk("element.name"), comment="Its element")


class NameAlias(Base):
    __tablename__ = "name_alias"
    __doc__ = "Every accepted spelling of a name, mapped to its canonical entity (§0)."

    kind: Mapped[str] = mapped_column(
        String(16),
        primary_key=True,
        comment="Which vocabulary: hexagram, trigram, element, stem, branch, relative, …",
    )
    alias: Mapped[str] = mapped_column(String(120), primary_key=True, comment="An accepted form")
    canonical: Mapped[str] = mapped_column(
        String(16), comment="The canonical name (for hexagrams the King Wen number as text)"
    )
    form: Mapped[str] = mapped_column(
        String(16),
        comment="canonical, short, simplified, variant, pinyin, english, number or bits",
    )
