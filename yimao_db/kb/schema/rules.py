"""Rule tables: relations, stages, strength, spirits, generals, and what a chart joins.

Every row is derived by :mod:`yimao_db.kb.rules` and cites its passage (``Cited``). Symmetric
branch relations are stored in both orders so that a join on (first = a line's branch,
second = another branch) finds them.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, Integer, String, UniqueConstraint

from yimao_db.kb.schema.base import between, boolean, col, fk, key, name_pk, one_of, ref, table

SECTION = "rules"

BRANCH_RELATIONS = ("六合", "六衝", "六害", "三刑", "進神", "退神")
PUNISHMENT_KINDS = ("無恩之刑", "恃勢之刑", "無禮之刑", "自刑")
TRIAD_ROLES = ("長生", "帝旺", "墓")
SPIRIT_DIRECTIONS = ("東", "南", "西", "北", "中央")
EIGHT_DIRECTIONS = ("北", "東北", "東", "東南", "南", "西南", "西", "西北")
HALVES = ("陽貴", "陰貴")


# --- vocabularies ------------------------------------------------------------------------


spirit = table(
    "spirit",
    "The six spirits 六神 in their cycle order, with element and direction (§7.3–7.6).",
    name_pk("name", "Spirit 青龍 朱雀 勾陳 騰蛇 白虎 玄武"),
    col("ordinal", Integer, unique=True, comment="1..6 in the cycle from 青龍"),
    ref("element", "element.name", "Its element (騰蛇 火, serving under 土)"),
    col("direction", String(2), comment="Its place: 東 南 西 北 or 中央 (勾陳 and 騰蛇)"),
    between("ordinal", 1, 6),
    one_of("direction", SPIRIT_DIRECTIONS),
    section=SECTION,
    cited=True,
)


general = table(
    "general",
    "The twelve generals that follow the noble 貴人 (司貴, §7.2), in placing order.",
    name_pk("name", "General 貴人 騰蛇 朱雀 六合 勾陳 青龍 天空 白虎 太常 玄武 太陰 天后"),
    col("ordinal", Integer, unique=True, comment="1..12 from 貴人"),
    between("ordinal", 1, 12),
    section=SECTION,
    cited=True,
)


stage = table(
    "stage",
    "The twelve stages 長生十二宮 in their forward order (§1.7, standard).",
    name_pk("name", "Stage 長生 沐浴 冠帶 臨官 帝旺 衰 病 死 墓 絕 胎 養"),
    col("ordinal", Integer, unique=True, comment="1..12 from 長生"),
    between("ordinal", 1, 12),
    section=SECTION,
    cited=True,
)


strength = table(
    "strength",
    "The five seasonal strengths 旺相休囚死 (§1.7, standard).",
    name_pk("name", "Strength 旺 相 休 囚 死"),
    col("ordinal", Integer, unique=True, comment="1..5 from 旺 (strongest) to 死"),
    between("ordinal", 1, 5),
    section=SECTION,
    cited=True,
)


# --- relations ---------------------------------------------------------------------------


branch_relation = table(
    "branch_relation",
    "Relations between two branches (§1.7, §8.14; tables standard): 六合 六衝 六害 stored "
    "in both orders; 三刑 directed (first punishes second; 自刑 with first = second); "
    "進神 and 退神 directed (a moving line's branch changing into the second).",
    col("relation", String(2), primary_key=True, comment="六合 六衝 六害 三刑 進神 or 退神"),
    key("first", "branch.name", "The first branch (the line's own, or the mover)"),
    key("second", "branch.name", "The other branch (or what the line changes into)"),
    col(
        "kind",
        String(4),
        nullable=True,
        comment="For 三刑 only: 無恩之刑 恃勢之刑 無禮之刑 or 自刑; NULL otherwise",
    ),
    one_of("relation", BRANCH_RELATIONS),
    one_of("kind", PUNISHMENT_KINDS),
    CheckConstraint("(relation = '三刑') = (kind IS NOT NULL)", name="kind_iff_punishment"),
    CheckConstraint(
        "(first = second) = (COALESCE(kind, '') = '自刑')", name="self_iff_self_punishment"
    ),
    section=SECTION,
    cited=True,
)


branch_triad = table(
    "branch_triad",
    "三合 (§8.14, standard): 申子辰 水, 亥卯未 木, 寅午戌 火, 巳酉丑 金, each branch with "
    "its role 長生, 帝旺 or 墓 in the element's twelve stages.",
    key("element", "element.name", "The element the triad forms"),
    key("branch", "branch.name", "One of its three branches"),
    ref("role", "stage.name", "The branch's stage for the element: 長生 帝旺 or 墓", 2),
    one_of("role", TRIAD_ROLES),
    UniqueConstraint("element", "role"),
    UniqueConstraint("branch"),
    section=SECTION,
    cited=True,
)


stem_combination = table(
    "stem_combination",
    "五合 of stems and the element they become (§1.7 commentary, standard): 甲己 土, "
    "乙庚 金, 丙辛 水, 丁壬 木, 戊癸 火, stored in both orders.",
    key("first", "stem.name", "One stem"),
    key("second", "stem.name", "Its partner, five stems away"),
    ref("element", "element.name", "The element the pair becomes 化"),
    UniqueConstraint("first"),
    CheckConstraint("first <> second", name="distinct"),
    section=SECTION,
    cited=True,
)


twelve_stage = table(
    "twelve_stage",
    "The stage of each element at each branch (§1.7, standard 六爻, 水土同宮): 長生 at "
    "木 亥, 火 寅, 金 巳, 水 申, 土 申, then forward.",
    key("element", "element.name", "The element"),
    key("branch", "branch.name", "The branch (e.g. the day branch of a reading)"),
    ref("stage", "stage.name", "The element's stage there", 2),
    UniqueConstraint("element", "stage"),
    section=SECTION,
    cited=True,
)


seasonal_strength = table(
    "seasonal_strength",
    "旺相休囚死 of each element in each month (§1.7, standard): the month's element 旺, "
    "what it generates 相, what generates it 休, what controls it 囚, what it controls 死.",
    key("month_branch", "branch.name", "The month's branch"),
    key("element", "element.name", "The element judged"),
    ref("strength", "strength.name", "Its strength in that month"),
    section=SECTION,
    cited=True,
)


# --- directions and mansions -------------------------------------------------------------


direction_24 = table(
    "direction_24",
    "The 24 directions 二十四山 clockwise from 壬, with their 8 directions (§1.8).",
    name_pk("name", "A stem (not 戊 己), a branch, or one of 乾 坤 艮 巽"),
    col("ordinal", Integer, unique=True, comment="1..24 clockwise from 壬"),
    col("direction", String(2), comment="北 東北 東 東南 南 西南 西 or 西北"),
    between("ordinal", 1, 24),
    one_of("direction", EIGHT_DIRECTIONS),
    section=SECTION,
    cited=True,
)


dusk_mansion = table(
    "dusk_mansion",
    "The mansion culminating at dusk 昏中 in each month, an auspicious sign (§8.12).",
    key("month_branch", "branch.name", "The month's branch (寅 = 正月)"),
    ref("mansion", "mansion.name", "The mansion 昏中 that month"),
    UniqueConstraint("mansion"),
    section=SECTION,
    cited=True,
)


# --- spirits and generals ----------------------------------------------------------------


day_spirit = table(
    "day_spirit",
    "司日 (§7.2): the spirit on each line for each day stem (甲乙 start at 青龍 …).",
    key("day_stem", "stem.name", "The day's stem (or the hour's, for 司時)"),
    col("position", Integer, primary_key=True, comment="Line 1..6 from the bottom"),
    ref("spirit", "spirit.name", "The spirit on that line", 2),
    between("position", 1, 6),
    UniqueConstraint("day_stem", "spirit"),
    section=SECTION,
    cited=True,
    sqlite_with_rowid=False,  # revision 0009: a line's lookups are one search each
)


month_spirit = table(
    "month_spirit",
    "司月 / 大六神 (§7.2, §7.10): the branch each spirit stands on in each month; a line "
    "gets the spirit on its branch (none, or two sharing it).",
    key("month_branch", "branch.name", "The month's branch"),
    col("spirit", String(2), fk("spirit.name"), primary_key=True, comment="The spirit"),
    ref("branch", "branch.name", "The branch it stands on that month"),
    section=SECTION,
    cited=True,
)


noble_hour = table(
    "noble_hour",
    "Which noble an hour uses (a decision, docs/rules.md): 卯..申 陽貴, 酉..寅 陰貴 (§7.2).",
    key("hour_branch", "branch.name", "The hour's branch"),
    col("half", String(2), comment="陽貴 or 陰貴"),
    one_of("half", HALVES),
    section=SECTION,
    cited=True,
    sqlite_with_rowid=False,  # revision 0009: a line's lookups are one search each
)


noble_general = table(
    "noble_general",
    "司貴 (§7.2): the general on each branch, placed from the 貴人's branch of the day "
    "stem (standard 陽貴/陰貴 songs), forward for the 陽貴 and backward for the 陰貴.",
    key("day_stem", "stem.name", "The day's stem"),
    col("half", String(2), primary_key=True, comment="陽貴 or 陰貴"),
    key("branch", "branch.name", "A branch"),
    ref("general", "general.name", "The general standing on it", 2),
    one_of("half", HALVES),
    UniqueConstraint("day_stem", "half", "general"),
    section=SECTION,
    cited=True,
    sqlite_with_rowid=False,  # revision 0009: a line's lookups are one search each
)


hour_stem = table(
    "hour_stem",
    "五子遁 (§7.2): the hour pillar from the day stem and hour branch (甲己 → 甲子 …).",
    key("day_stem", "stem.name", "The day's stem"),
    key("hour_branch", "branch.name", "The hour's branch"),
    ref("hour_ganzhi", "ganzhi.name", "The hour pillar", 2),
    CheckConstraint("substr(hour_ganzhi, 2, 1) = hour_branch", name="ganzhi_branch"),
    section=SECTION,
    cited=True,
)


month_stem = table(
    "month_stem",
    "五虎遁 (standard): the month pillar from the year stem and month branch "
    "(甲己 years → 丙寅 …; 子 and 丑 close the year).",
    key("year_stem", "stem.name", "The year's stem"),
    key("month_branch", "branch.name", "The month's branch"),
    ref("month_ganzhi", "ganzhi.name", "The month pillar", 2),
    CheckConstraint("substr(month_ganzhi, 2, 1) = month_branch", name="ganzhi_branch"),
    section=SECTION,
    cited=True,
)


# --- what a chart joins -------------------------------------------------------------------


element_relation = table(
    "element_relation",
    "How one element stands to another (§6.1): the same, generating it, generated by it, "
    "controlled by it or controlling it, and the relative 六親 that names it when the first "
    "is the palace element 我 (the changed line's relative is taken against the primary "
    "palace).",
    key("me", "element.name", "The element judged from (for the relatives: the palace's)"),
    key("other", "element.name", "The other element (a line's)"),
    col(
        "relation",
        String(16),
        comment="same, generates_me, i_generate, i_control or controls_me",
    ),
    ref("relative", "relative.name", "The relative the other element is to 我", 2),
    section=SECTION,
    sqlite_with_rowid=False,
    cited=True,
)


line_value = table(
    "line_value",
    "What a cast value means (§2.3, §4.5): 6 交 old yin and 9 重 old yang move and change "
    "into their opposite; 7 單 young yang and 8 拆 young yin stand still.",
    col("value", Integer, primary_key=True, autoincrement=False, comment="6, 7, 8 or 9"),
    col("name", String(1), unique=True, comment="交 單 拆 重"),
    col("yang", Integer, comment="1 for the yang lines 7 and 9"),
    col("is_moving", Integer, comment="1 for the old lines 6 and 9, which change (§4.5)"),
    col("changed_yang", Integer, comment="1 if the line is yang after the change"),
    between("value", 6, 9),
    boolean("yang"),
    boolean("is_moving"),
    boolean("changed_yang"),
    section=SECTION,
    cited=True,
)


all_moving = table(
    "all_moving",
    "What a cast is called whose six lines all move, by its hexagram: 用九 for 乾 (six old yang "
    "lines 9), 用六 for 坤 (six old yin lines 6), the Zhouyi's names; none for the others, "
    "whose lines are not all of one kind. A reading finds its row by its primary hexagram and "
    "its moving lines.",
    col("king_wen", Integer, fk("hexagram.king_wen"), primary_key=True, comment="The hexagram"),
    col(
        "mask",
        Integer,
        fk("moving_lines.mask"),
        primary_key=True,
        autoincrement=False,
        comment="63: every line moving (as reading.moving_mask)",
    ),
    col("name", String(2), nullable=True, comment="用九, 用六 or NULL"),
    CheckConstraint("mask = 63", name="all_six"),
    one_of("name", ("用九", "用六")),
    section=SECTION,
    cited=True,
)


line_transform = table(
    "line_transform",
    "What a moving line of one branch changing into another becomes (§8.14, standard): "
    "化進神 化退神 回頭生 回頭克 化空 化破 化墓 化絕. Keyed by the two branches and by whether "
    "the changed branch is void on the day and broken by the month, so a chart joins it "
    "with branch_on_day and branch_in_month of the changed branch.",
    key("branch", "branch.name", "The moving line's branch"),
    key("changed_branch", "branch.name", "The branch it changes into"),
    col(
        "changed_void",
        Integer,
        primary_key=True,
        autoincrement=False,
        comment="1 if the changed branch is void 旬空 on the day",
    ),
    col(
        "changed_break",
        Integer,
        primary_key=True,
        autoincrement=False,
        comment="1 if the month clashes the changed branch 月破",
    ),
    col(
        "transforms",
        String(40),
        nullable=True,
        comment="The transforms that apply, joined by ',' in the order 化進神 化退神 回頭生 "
        "回頭克 化空 化破 化墓 化絕; NULL when none does",
    ),
    col("is_advance", Integer, comment="1 for 化進神"),
    col("is_retreat", Integer, comment="1 for 化退神"),
    col("returns_generating", Integer, comment="1 for 回頭生"),
    col("returns_controlling", Integer, comment="1 for 回頭克"),
    col("to_void", Integer, comment="1 for 化空"),
    col("to_break", Integer, comment="1 for 化破"),
    col("to_tomb", Integer, comment="1 for 化墓"),
    col("to_extinction", Integer, comment="1 for 化絕"),
    *(
        boolean(c)
        for c in (
            "changed_void",
            "changed_break",
            "is_advance",
            "is_retreat",
            "returns_generating",
            "returns_controlling",
            "to_void",
            "to_break",
            "to_tomb",
            "to_extinction",
        )
    ),
    section=SECTION,
    sqlite_with_rowid=False,
    cited=True,
)


hour_spirit = table(
    "hour_spirit",
    "司時 (§7.2): the spirit on each line for a day stem and hour branch — the day rule "
    "applied to the hour's stem, which 五子遁 gives (甲子 day, 寅 hour → 丙 → line 1 朱雀).",
    key("day_stem", "stem.name", "The day's stem"),
    key("hour_branch", "branch.name", "The hour's branch"),
    col(
        "position",
        Integer,
        primary_key=True,
        autoincrement=False,
        comment="Line 1..6 from the bottom",
    ),
    ref("spirit", "spirit.name", "The spirit on that line", 2),
    between("position", 1, 6),
    section=SECTION,
    sqlite_with_rowid=False,
    cited=True,
)


month_spirit_branch = table(
    "month_spirit_branch",
    "大六神 by branch (§7.2, §7.10): for each month, the spirits standing on each branch "
    "(one or two; branches no spirit stands on have no row).",
    key("month_branch", "branch.name", "The month's branch"),
    key("branch", "branch.name", "A branch some spirit stands on that month"),
    col("spirit_count", Integer, comment="How many spirits stand on it"),
    col("spirits", String(8), comment="The spirits, in cycle order, joined by ','"),
    between("spirit_count", 1, 2),
    section=SECTION,
    sqlite_with_rowid=False,
    cited=True,
)


line_places = table(
    "line_places",
    "The places §10.5 and §10.3 give each line of each hexagram: 將來 after the 世身 line "
    "and 已往 before it (line 6 wrapping to 1; the book's 身世 read as the 世身, a "
    "decision), on a between line 近我 beside the world or 近彼 beside the response (§10.3), "
    "then the places of its position (line_role: 地 右鄰 後鄰, 臣, 門戶, 左鄰 前鄰, 君, 天). "
    "Places, not judgments: what the line stands for in the matter. Every line has a row.",
    col(
        "king_wen",
        Integer,
        fk("hexagram.king_wen"),
        primary_key=True,
        autoincrement=False,
        comment="The hexagram",
    ),
    col("position", Integer, primary_key=True, autoincrement=False, comment="Line 1..6"),
    col("places", String(24), comment="Its places, joined by ',' (將來 or 已往 first)"),
    between("position", 1, 6),
    section=SECTION,
    sqlite_with_rowid=False,
    cited=True,
)


branch_on_day = table(
    "branch_on_day",
    "What the day does to a branch (standard): void 旬空 (its decade does not reach the "
    "branch), 日衝 (the branch clashes the day's) and the stage of the branch's element at "
    "the day branch. Every day and branch has a row.",
    key("day_gz", "ganzhi.name", "The day pillar", 2),
    key("branch", "branch.name", "A line's branch"),
    col("is_void", Integer, comment="1 if the branch is void 旬空 on that day"),
    col("is_day_clash", Integer, comment="1 if the branch clashes the day branch 日衝"),
    ref("stage", "stage.name", "Stage of the branch's element at the day branch", 2),
    boolean("is_void"),
    boolean("is_day_clash"),
    section=SECTION,
    sqlite_with_rowid=False,
    cited=True,
)


branch_in_month = table(
    "branch_in_month",
    "What the month does to a branch (standard): 月破 (the branch clashes the month's) and "
    "the seasonal strength 旺相休囚死 of the branch's element. Every month and branch has a "
    "row.",
    key("month_branch", "branch.name", "The month's branch 月建"),
    key("branch", "branch.name", "A line's branch"),
    col("is_month_break", Integer, comment="1 if the branch clashes the month branch 月破"),
    ref("strength", "strength.name", "Strength of the branch's element that month", 1),
    boolean("is_month_break"),
    section=SECTION,
    sqlite_with_rowid=False,
    cited=True,
)


month_mansion = table(
    "month_mansion",
    "Each mansion in each month: whether it is the month's dusk-culminating mansion 昏中, an "
    "auspicious sign on a line (§8.12). Every month and mansion has a row.",
    key("month_branch", "branch.name", "The month's branch"),
    key("mansion", "mansion.name", "A mansion"),
    col("is_dusk", Integer, comment="1 if it culminates at dusk that month 昏中"),
    boolean("is_dusk"),
    section=SECTION,
    sqlite_with_rowid=False,
    cited=True,
)


# --- the lodges of the sun and the moon (§8.12) ------------------------------------------

LODGE_BODIES = ("日", "月")
UTC_INSTANT = "____-__-__T__:__:__Z"  # LIKE pattern of YYYY-MM-DDTHH:MM:SSZ


lodge_star = table(
    "lodge_star",
    "The determinative star 距星 of each lodge: a lodge begins where the star's hour circle "
    "crosses the equator of date (赤道宿度, §8.12; the standard modern identification, with "
    "the star some lists take instead). Positions and proper motions: "
    "seed/data/lodge_stars.tsv.",
    key("mansion", "mansion.name", "The lodge"),
    col("star", String(8), comment="Its determinative star (Bayer or Flamsteed), e.g. α Vir"),
    col("hip", Integer, unique=True, comment="The star's number in the Hipparcos catalogue"),
    col(
        "variant",
        String(24),
        nullable=True,
        comment="The star some lists take instead, e.g. η And (HIP 4463); NULL if none",
    ),
    section=SECTION,
    cited=True,
)


lodge_ingress = table(
    "lodge_ingress",
    "Every stay of the sun 日 and the moon 月 in a lodge that overlaps 1901-2100 (UTC), for "
    "日纏 and 月麗 (§8.12): from the instant the body's apparent geocentric right ascension "
    "of date reaches that of the lodge's determinative star (lodge_star) to the instant it "
    "reaches the next lodge's, computed with ephem (docs/rules.md). A UTC instant t falls "
    "in the row with starts_at <= t < ends_at; the rows of a body follow one another.",
    col("body", String(1), primary_key=True, comment="日 (the sun) or 月 (the moon)"),
    col(
        "starts_at",
        String(20),
        primary_key=True,
        comment="The instant the body enters the lodge, UTC, YYYY-MM-DDTHH:MM:SSZ",
    ),
    col(
        "ends_at",
        String(20),
        comment="The instant it enters the next lodge (the end of the stay, excluded), UTC",
    ),
    ref("mansion", "lodge_star.mansion", "The lodge the body is in"),
    one_of("body", LODGE_BODIES),
    CheckConstraint(f"starts_at LIKE '{UTC_INSTANT}'", name="starts_at_utc"),
    CheckConstraint(f"ends_at LIKE '{UTC_INSTANT}'", name="ends_at_utc"),
    CheckConstraint("starts_at < ends_at", name="starts_before_ends"),
    section=SECTION,
    sqlite_with_rowid=False,  # keyed by (body, starts_at): looked up by the key
)
