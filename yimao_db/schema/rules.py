"""Rule tables (issue 4): branch and stem relations, stages, strength, spirits, generals.

Every row is derived by :mod:`yimao_db.rules` and cites its passage (``Cited``). Symmetric
branch relations are stored in both orders so that a join on (first = a line's branch,
second = another branch) finds them.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from yimao_db.schema.base import Base, Cited, between, cited, fk, name_pk, one_of

BRANCH_RELATIONS = ("六合", "六衝", "六害", "三刑", "進神", "退神")
PUNISHMENT_KINDS = ("無恩之刑", "恃勢之刑", "無禮之刑", "自刑")
TRIAD_ROLES = ("長生", "帝旺", "墓")
SPIRIT_DIRECTIONS = ("東", "南", "西", "北", "中央")
EIGHT_DIRECTIONS = ("北", "東北", "東", "東南", "南", "西南", "西", "西北")
HALVES = ("陽貴", "陰貴")


def key(target: str, comment: str, length: int = 1) -> Mapped[str]:
    """A primary-key column that is also a foreign key."""
    return mapped_column(String(length), fk(target), primary_key=True, comment=comment)


def ref(target: str, comment: str, length: int = 1) -> Mapped[str]:
    """A non-null foreign-key column."""
    return mapped_column(String(length), fk(target), comment=comment)


# --- vocabularies ------------------------------------------------------------------------


class Spirit(Cited, Base):
    __tablename__ = "spirit"
    __table_args__ = cited(between("ordinal", 1, 6), one_of("direction", SPIRIT_DIRECTIONS))
    __doc__ = "The six spirits 六神 in their cycle order, with element and direction (§7.3–7.6)."

    name: Mapped[str] = name_pk("Spirit 青龍 朱雀 勾陳 騰蛇 白虎 玄武")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..6 in the cycle from 青龍")
    element: Mapped[str] = ref("element.name", "Its element (騰蛇 火, serving under 土)")
    direction: Mapped[str] = mapped_column(
        String(2), comment="Its place: 東 南 西 北 or 中央 (勾陳 and 騰蛇)"
    )


class General(Cited, Base):
    __tablename__ = "general"
    __table_args__ = cited(between("ordinal", 1, 12))
    __doc__ = "The twelve generals that follow the noble 貴人 (司貴, §7.2), in placing order."

    name: Mapped[str] = name_pk(
        "General 貴人 騰蛇 朱雀 六合 勾陳 青龍 天空 白虎 太常 玄武 太陰 天后"
    )
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..12 from 貴人")


class Stage(Cited, Base):
    __tablename__ = "stage"
    __table_args__ = cited(between("ordinal", 1, 12))
    __doc__ = "The twelve stages 長生十二宮 in their forward order (§1.7, standard)."

    name: Mapped[str] = name_pk("Stage 長生 沐浴 冠帶 臨官 帝旺 衰 病 死 墓 絕 胎 養")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..12 from 長生")


class Strength(Cited, Base):
    __tablename__ = "strength"
    __table_args__ = cited(between("ordinal", 1, 5))
    __doc__ = "The five seasonal strengths 旺相休囚死 (§1.7, standard)."

    name: Mapped[str] = name_pk("Strength 旺 相 休 囚 死")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..5 from 旺 (strongest) to 死")


# --- relations ---------------------------------------------------------------------------


class BranchRelation(Cited, Base):
    __tablename__ = "branch_relation"
    __table_args__ = cited(
        one_of("relation", BRANCH_RELATIONS),
        one_of("kind", PUNISHMENT_KINDS),
        CheckConstraint("(relation = '三刑') = (kind IS NOT NULL)", name="kind_iff_punishment"),
        CheckConstraint(
            "(first = second) = (COALESCE(kind, '') = '自刑')", name="self_iff_self_punishment"
        ),
    )
    __doc__ = (
        "Relations between two branches (§1.7, §8.14; tables standard): 六合 六衝 六害 stored "
        "in both orders; 三刑 directed (first punishes second; 自刑 with first = second); "
        "進神 and 退神 directed (a moving line's branch changing into the second)."
    )

    relation: Mapped[str] = mapped_column(
        String(2), primary_key=True, comment="六合 六衝 六害 三刑 進神 or 退神"
    )
    first: Mapped[str] = key("branch.name", "The first branch (the line's own, or the mover)")
    second: Mapped[str] = key("branch.name", "The other branch (or what the line changes into)")
    kind: Mapped[str | None] = mapped_column(
        String(4), comment="For 三刑 only: 無恩之刑 恃勢之刑 無禮之刑 or 自刑; NULL otherwise"
    )


class BranchTriad(Cited, Base):
    __tablename__ = "branch_triad"
    __table_args__ = cited(
        one_of("role", TRIAD_ROLES),
        UniqueConstraint("element", "role"),
        UniqueConstraint("branch"),
    )
    __doc__ = (
        "三合 (§8.14, standard): 申子辰 水, 亥卯未 木, 寅午戌 火, 巳酉丑 金, each branch with "
        "its role 長生, 帝旺 or 墓 in the element's twelve stages."
    )

    element: Mapped[str] = key("element.name", "The element the triad forms")
    branch: Mapped[str] = key("branch.name", "One of its three branches")
    role: Mapped[str] = ref("stage.name", "The branch's stage for the element: 長生 帝旺 or 墓", 2)


class StemCombination(Cited, Base):
    __tablename__ = "stem_combination"
    __table_args__ = cited(
        UniqueConstraint("first"), CheckConstraint("first <> second", name="distinct")
    )
    __doc__ = (
        "五合 of stems and the element they become (§1.7 commentary, standard): 甲己 土, "
        "乙庚 金, 丙辛 水, 丁壬 木, 戊癸 火, stored in both orders."
    )

    first: Mapped[str] = key("stem.name", "One stem")
    second: Mapped[str] = key("stem.name", "Its partner, five stems away")
    element: Mapped[str] = ref("element.name", "The element the pair becomes 化")


class TwelveStage(Cited, Base):
    __tablename__ = "twelve_stage"
    __table_args__ = cited(UniqueConstraint("element", "stage"))
    __doc__ = (
        "The stage of each element at each branch (§1.7, standard 六爻, 水土同宮): 長生 at "
        "木 亥, 火 寅, 金 巳, 水 申, 土 申, then forward."
    )

    element: Mapped[str] = key("element.name", "The element")
    branch: Mapped[str] = key("branch.name", "The branch (e.g. the day branch of a reading)")
    stage: Mapped[str] = ref("stage.name", "The element's stage there", 2)


class SeasonalStrength(Cited, Base):
    __tablename__ = "seasonal_strength"
    __table_args__ = cited()
    __doc__ = (
        "旺相休囚死 of each element in each month (§1.7, standard): the month's element 旺, "
        "what it generates 相, what generates it 休, what controls it 囚, what it controls 死."
    )

    month_branch: Mapped[str] = key("branch.name", "The month's branch")
    element: Mapped[str] = key("element.name", "The element judged")
    strength: Mapped[str] = ref("strength.name", "Its strength in that month")


# --- directions and mansions -------------------------------------------------------------


class Direction24(Cited, Base):
    __tablename__ = "direction_24"
    __table_args__ = cited(between("ordinal", 1, 24), one_of("direction", EIGHT_DIRECTIONS))
    __doc__ = "The 24 directions 二十四山 clockwise from 壬, with their 8 directions (§1.8)."

    name: Mapped[str] = name_pk("A stem (not 戊 己), a branch, or one of 乾 坤 艮 巽")
    ordinal: Mapped[int] = mapped_column(unique=True, comment="1..24 clockwise from 壬")
    direction: Mapped[str] = mapped_column(String(2), comment="北 東北 東 東南 南 西南 西 or 西北")


class DuskMansion(Cited, Base):
    __tablename__ = "dusk_mansion"
    __table_args__ = cited(UniqueConstraint("mansion"))
    __doc__ = "The mansion culminating at dusk 昏中 in each month, an auspicious sign (§8.12)."

    month_branch: Mapped[str] = key("branch.name", "The month's branch (寅 = 正月)")
    mansion: Mapped[str] = ref("mansion.name", "The mansion 昏中 that month")


# --- spirits and generals ----------------------------------------------------------------


class DaySpirit(Cited, Base):
    __tablename__ = "day_spirit"
    __table_args__ = cited(between("position", 1, 6), UniqueConstraint("day_stem", "spirit"))
    __doc__ = "司日 (§7.2): the spirit on each line for each day stem (甲乙 start at 青龍 …)."

    day_stem: Mapped[str] = key("stem.name", "The day's stem (or the hour's, for 司時)")
    position: Mapped[int] = mapped_column(primary_key=True, comment="Line 1..6 from the bottom")
    spirit: Mapped[str] = ref("spirit.name", "The spirit on that line", 2)


class MonthSpirit(Cited, Base):
    __tablename__ = "month_spirit"
    __table_args__ = cited()
    __doc__ = (
        "司月 / 大六神 (§7.2, §7.10): the branch each spirit stands on in each month; a line "
        "gets the spirit on its branch (none, or two sharing it)."
    )

    month_branch: Mapped[str] = key("branch.name", "The month's branch")
    spirit: Mapped[str] = mapped_column(
        String(2), fk("spirit.name"), primary_key=True, comment="The spirit"
    )
    branch: Mapped[str] = ref("branch.name", "The branch it stands on that month")


class NobleHour(Cited, Base):
    __tablename__ = "noble_hour"
    __table_args__ = cited(one_of("half", HALVES))
    __doc__ = "Which noble an hour uses (spec Decision): 卯..申 陽貴, 酉..寅 陰貴 (§7.2)."

    hour_branch: Mapped[str] = key("branch.name", "The hour's branch")
    half: Mapped[str] = mapped_column(String(2), comment="陽貴 or 陰貴")


class NobleGeneral(Cited, Base):
    __tablename__ = "noble_general"
    __table_args__ = cited(one_of("half", HALVES), UniqueConstraint("day_stem", "half", "general"))
    __doc__ = (
        "司貴 (§7.2): the general on each branch, placed from the 貴人's branch of the day "
        "stem (standard 陽貴/陰貴 songs), forward for the 陽貴 and backward for the 陰貴."
    )

    day_stem: Mapped[str] = key("stem.name", "The day's stem")
    half: Mapped[str] = mapped_column(String(2), primary_key=True, comment="陽貴 or 陰貴")
    branch: Mapped[str] = key("branch.name", "A branch")
    general: Mapped[str] = ref("general.name", "The general standing on it", 2)


class HourStem(Cited, Base):
    __tablename__ = "hour_stem"
    __table_args__ = cited(
        CheckConstraint("substr(hour_ganzhi, 2, 1) = hour_branch", name="ganzhi_branch")
    )
    __doc__ = "五子遁 (§7.2): the hour pillar from the day stem and hour branch (甲己 → 甲子 …)."

    day_stem: Mapped[str] = key("stem.name", "The day's stem")
    hour_branch: Mapped[str] = key("branch.name", "The hour's branch")
    hour_ganzhi: Mapped[str] = ref("ganzhi.name", "The hour pillar", 2)


class MonthStem(Cited, Base):
    __tablename__ = "month_stem"
    __table_args__ = cited(
        CheckConstraint("substr(month_ganzhi, 2, 1) = month_branch", name="ganzhi_branch")
    )
    __doc__ = (
        "五虎遁 (spec §12, standard): the month pillar from the year stem and month branch "
        "(甲己 years → 丙寅 …; 子 and 丑 close the year)."
    )

    year_stem: Mapped[str] = key("stem.name", "The year's stem")
    month_branch: Mapped[str] = key("branch.name", "The month's branch")
    month_ganzhi: Mapped[str] = ref("ganzhi.name", "The month pillar", 2)
