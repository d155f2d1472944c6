"""Symbol tables: correspondences, relative and spirit symbols, omens, roles.

These are the book's images (象) of chapters 5–10, typed in as ``seed/data/*.tsv`` and
seeded by ``seed/s30_symbols.py``. Each row cites its passage (``Cited``); the glosses are
short labels, never the book's sentences. Where one row gathers statements from several
passages, the row cites the passage that describes the subject and each column's comment
names the passage its value comes from.

Passage ids follow ``seed/data/passages.tsv``: in chapter 7 the spirits' portraits are
7.3–7.6, the offices 司 7.7, the affinities 7.8 and the likes of the auspicious and
inauspicious spirits 7.9.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import CheckConstraint, Column, Integer, String, UniqueConstraint

from yimao_db.kb.schema.base import between, boolean, col, fk, one_of, table

SECTION = "symbols"

VERDICTS = ("吉", "凶")
MOVING_KINDS = ("生象", "克象")
RELATIVE_ASPECTS = ("theme", "image")
CORRESPONDENCE_ASPECTS = ("體", "用")
LUMINARIES = ("日", "月", "金", "木", "水", "火", "土")
SPIRIT_OFFICES = ("生", "言", "實", "虛", "殺", "計")
AFFINITY_EFFECTS = ("避", "伏", "制")
STAR_VERDICTS = ("吉", "凶", "隨")
WORLD_VERDICTS = ("吉", "凶", "變")
BODIES = ("卦身", "世身")
WEIGHED_BODIES = ("世爻", "卦身", "世身")
ATTITUDES = ("want", "fear", "relief")
ITEM_KINDS = ("relative", "spirit", "general", "shensha", "condition")
BETWEEN_USES = ("obstacle", "helper", "worry")
ACTIVATIONS = ("moving", "supported", "present")
LINE_ASPECTS = ("現", "隱")
SPIRIT_LAYERS = ("司日", "司月", "司時", "司貴")
COIN_FACES = ("背", "眉")
CAST_METHODS = ("values", "coins", "notation", "hexagram", "random")

GLOSS = 200  # length of the English gloss columns


def gloss(
    name: str, comment: str = "Short English label (our words, not the book's)"
) -> Column[Any]:
    return col(name, String(GLOSS), comment=comment)


# --- 五行章 (§5) ---------------------------------------------------------------------------


element_correspondence = table(
    "element_correspondence",
    "The five images 五類 of each element (§5.1–5.5): season 令, branch, direction 位, "
    "colour 色, shape 形 and nature 性. 土 has no season point or branch of its own: it "
    "takes the four last months 四季 and lodges in the four corners (§5.5).",
    col("element", String(1), fk("element.name"), primary_key=True, comment="The element"),
    col(
        "season",
        String(4),
        unique=True,
        comment="Its season 令: 冬至 春分 夏至 秋分, or 四季 for 土",
    ),
    col(
        "branch",
        String(1),
        fk("branch.name"),
        unique=True,
        nullable=True,
        comment="The branch at the heart of its season 子 卯 午 酉; none for 土",
    ),
    col("direction", String(4), unique=True, comment="Its direction 位: 北 東 南 西 中央"),
    col("colour", String(1), unique=True, comment="Its colour 色: 黑 蒼 赤 白 黃"),
    col("shape", String(1), unique=True, comment="Its shape 形: 溼 潤 燥 稿 安"),
    col("nature", String(1), unique=True, comment="Its nature 性: 寒 溫 熱 涼 平"),
    col(
        "lodging",
        String(4),
        nullable=True,
        comment="Where 土 lodges: 四維, the four corners (§5.5); none for the others",
    ),
    CheckConstraint("(branch IS NULL) = (element = '土')", name="earth_has_no_branch"),
    CheckConstraint("(lodging IS NULL) = (element <> '土')", name="earth_lodges"),
    section=SECTION,
    cited=True,
)


element_trigram = table(
    "element_trigram",
    "The trigram that embodies each element in the correspondences (§5.2–5.3, §5.7): "
    "坎 水 and 離 火 as its body 體, 震 木 and 兌 金 as its use 用, 艮 and 坤 for 土. "
    "(乾 and 巽 are 金 and 木 by position only; see trigram.element.)",
    col("element", String(1), fk("element.name"), primary_key=True, comment="The element"),
    col(
        "trigram",
        String(1),
        fk("trigram.name"),
        primary_key=True,
        unique=True,
        comment="The trigram that images it",
    ),
    col(
        "aspect",
        String(1),
        nullable=True,
        comment="體 (body) or 用 (use) as the book says it; none for 艮 坤 (§5.7)",
    ),
    one_of("aspect", CORRESPONDENCE_ASPECTS),
    section=SECTION,
    cited=True,
)


five_omen = table(
    "five_omen",
    "The five omens 五兆 and their elements (§5.7 commentary).",
    col("omen", String(1), primary_key=True, comment="The omen 雨 霽 蒙 馹 克"),
    col("element", String(1), fk("element.name"), unique=True, comment="Its element"),
    gloss("gloss"),
    section=SECTION,
    cited=True,
)


seven_luminary = table(
    "seven_luminary",
    "The seven luminaries 七耀 and the temper each stands for (§5.7 commentary).",
    col("name", String(1), primary_key=True, comment="The temper 喜 善 威 文 弱 燥 怒"),
    col(
        "luminary",
        String(1),
        unique=True,
        comment="Its luminary 日 月 or the planet 金 木 水 火 土",
    ),
    col(
        "element",
        String(1),
        fk("element.name"),
        nullable=True,
        comment="The planet's element; none for sun and moon",
    ),
    gloss("gloss"),
    one_of("luminary", LUMINARIES),
    CheckConstraint(
        "(element IS NULL AND luminary IN ('日', '月')) OR element = luminary",
        name="planet_element",
    ),
    section=SECTION,
    cited=True,
)


# --- 六親章 (§6) ---------------------------------------------------------------------------


relative_symbol = table(
    "relative_symbol",
    "What each of the six relatives stands for (§6.2–6.4): one theme per relative "
    "(shelter, binding, rivalry, subduing the ghost, service) and its images 象.",
    col("relative", String(2), fk("relative.name"), primary_key=True, comment="The relative"),
    col("symbol", String(8), primary_key=True, comment="The image, e.g. 城池 for 父母"),
    col("aspect", String(8), comment="theme: what the relative does; image: a thing it stands for"),
    gloss("gloss"),
    one_of("aspect", RELATIVE_ASPECTS),
    section=SECTION,
    cited=True,
)


moving_relative = table(
    "moving_relative",
    "The ten images of a moving relative (§6.5 生象, §6.6 克象): the relative it "
    "generates or controls when it moves, read as a human affair. Under 克象 a controlled "
    "忌神 is good and a controlled 用神 bad (§6.6 commentary).",
    col("mover", String(2), fk("relative.name"), primary_key=True, comment="The moving relative"),
    col("kind", String(2), primary_key=True, comment="生象 (it generates) or 克象 (it controls)"),
    col("target", String(2), fk("relative.name"), comment="The relative generated or controlled"),
    gloss("gloss", "The human affair it images (short English label)"),
    one_of("kind", MOVING_KINDS),
    CheckConstraint("mover <> target", name="distinct"),
    UniqueConstraint("target", "kind"),
    section=SECTION,
    cited=True,
)


# --- 六神章 (§7) ---------------------------------------------------------------------------


spirit_attribute = table(
    "spirit_attribute",
    "What each of the six spirits stands for (§7.3–7.9). The row cites the spirit's "
    "portrait (7.3 勾陳, 7.4 騰蛇, 7.5 青龍 白虎, 7.6 朱雀 玄武); element and direction "
    "are on ``spirit``.",
    col("spirit", String(2), fk("spirit.name"), primary_key=True, comment="The spirit"),
    col("charge", String(8), comment="What it presides over 主, e.g. 文事 for 青龍 (its portrait)"),
    col(
        "trait",
        String(4),
        comment="Its character: 仁 爭 信 虛浮 殺 智 (§7.8, 勾陳 §7.3, 騰蛇 §7.4 commentary)",
    ),
    col(
        "governs",
        String(1),
        unique=True,
        comment="Its office 司: 生 言 實 虛 殺 計 (§7.7 commentary)",
    ),
    col(
        "post",
        String(4),
        unique=True,
        comment="Its post at the court: 文臣 諫臣 宰 使臣 武臣 謀臣 (portrait commentary; "
        "勾陳 as 宰 §7.10 commentary)",
    ),
    gloss("gloss"),
    one_of("governs", SPIRIT_OFFICES),
    section=SECTION,
    cited=True,
)


spirit_nature = table(
    "spirit_nature",
    "Which spirits count as auspicious 吉 and which as inauspicious 凶 for §7.9. The book "
    "says so of 勾陳 (§7.3) and implies it of 青龍 and 白虎 (§7.8); 朱雀, 玄武 and 騰蛇 are "
    "counted 凶 by decision (docs/rules.md).",
    col("spirit", String(2), fk("spirit.name"), primary_key=True, comment="The spirit"),
    col("nature", String(1), comment="吉 or 凶"),
    gloss("gloss", "Why, in a few words (our words, not the book's)"),
    one_of("nature", VERDICTS),
    section=SECTION,
    cited=True,
)


spirit_layer = table(
    "spirit_layer",
    "The four kinds of spirit a line may carry and their weight (§7.2, §7.11–7.12): the day "
    "and month spirits rule, the hour spirits and the noble's generals follow them.",
    col("layer", String(2), primary_key=True, comment="司日 司月 司時 or 司貴"),
    col(
        "counted_from",
        String(16),
        comment="What it is counted from: day stem, month branch, hour stem, noble",
    ),
    col("rank", Integer, comment="1 for the day and month spirits, 2 for the others"),
    gloss("gloss"),
    one_of("layer", SPIRIT_LAYERS),
    between("rank", 1, 2),
    section=SECTION,
    cited=True,
)


spirit_affinity = table(
    "spirit_affinity",
    "The four affinities of the spirits (§7.8): 青龍 avoids metal lines, 白虎 is tamed "
    "on fire lines, water (玄武) subdues 朱雀, earth (勾陳) subdues 玄武.",
    col("spirit", String(2), fk("spirit.name"), primary_key=True, comment="The spirit affected"),
    col("condition", String(4), primary_key=True, comment="What affects it: 金爻, 火爻, 水 or 土"),
    col("effect", String(1), comment="避 it keeps away, 伏 it is tamed, 制 it is subdued"),
    col(
        "subduer",
        String(2),
        fk("spirit.name"),
        nullable=True,
        comment="The spirit whose virtue subdues it (制 only)",
    ),
    gloss("gloss"),
    one_of("effect", AFFINITY_EFFECTS),
    CheckConstraint("(effect = '制') = (subduer IS NOT NULL)", name="subduer_subdues"),
    section=SECTION,
    cited=True,
)


spirit_preference = table(
    "spirit_preference",
    "What suits the auspicious and the inauspicious spirits (§7.9): the 吉 like being "
    "generated, helped, moving and holding the world; the 凶 are best controlled, "
    "transformed, dispersed or void.",
    col("nature", String(1), primary_key=True, comment="吉 or 凶, as spirit_nature.nature"),
    col(
        "condition",
        String(4),
        primary_key=True,
        comment="The condition that suits it: 生 助 動 持世 (吉) or 制 化 散 空 (凶)",
    ),
    gloss("gloss"),
    one_of("nature", VERDICTS),
    section=SECTION,
    cited=True,
)


# --- 世應章 (§8) ---------------------------------------------------------------------------


star_meaning = table(
    "star_meaning",
    "What each of the five stars governs when it shows (§8.8–8.9): 鎮星 stability, "
    "太白 arms, 熒惑 letters (else harm), 太陰 mercy (spoiled by 咸池), 歲星 all things.",
    col("star", String(2), fk("star.name"), primary_key=True, comment="The star"),
    col(
        "meaning",
        String(4),
        primary_key=True,
        comment="A thing it governs, e.g. 安 or 城郭 for 鎮星",
    ),
    col("verdict", String(1), comment="吉, 凶, or 隨 (follows what it meets, 歲星)"),
    gloss("gloss"),
    one_of("verdict", STAR_VERDICTS),
    section=SECTION,
    cited=True,
)


world_omen = table(
    "world_omen",
    "Omens read from the world line (§8.13–8.15): the three bad signs, void world and "
    "sunken response, ruin, change, growth and decline, and world against response.",
    col("omen", String(8), primary_key=True, comment="The omen, e.g. 隨官入墓, 化進神, 世克應"),
    col("verdict", String(1), comment="吉, 凶, or 變 (change)"),
    gloss("gloss"),
    one_of("verdict", WORLD_VERDICTS),
    section=SECTION,
    cited=True,
)


# --- 身法章 (§9) ---------------------------------------------------------------------------


body_condition = table(
    "body_condition",
    "What a state of either body means (§9.2–9.4): for the 卦身 rest and combination are "
    "good, void or broken is hesitation, moving or clashed is change, twice is two minds; "
    "for the 世身 void is doubt, moving disorder, broken defeat, clashed change, "
    "dispersed loss.",
    col("body", String(2), primary_key=True, comment="卦身 (hexagram body) or 世身 (world body)"),
    col(
        "condition",
        String(4),
        primary_key=True,
        comment="Its state: 空 動 破 衝 散, 靜 合, 重見, 衝亡",
    ),
    col("meaning", String(4), comment="What it means, in a word: 疑 亂 敗 變 失, 猶豫 …"),
    gloss("gloss"),
    one_of("body", BODIES),
    section=SECTION,
    cited=True,
)


body_weight = table(
    "body_weight",
    "How much each body weighs in the verdict (§9.6): world line, then 卦身, then 世身.",
    col("body", String(2), primary_key=True, comment="世爻 (the world line), 卦身 or 世身"),
    col("rank", Integer, unique=True, comment="1 weighs most .. 3 least"),
    gloss("gloss"),
    one_of("body", WEIGHED_BODIES),
    between("rank", 1, 3),
    section=SECTION,
    cited=True,
)


matter_preference = table(
    "matter_preference",
    "What each kind of matter wants or fears on the two bodies (§9.5): office wants "
    "父母 官鬼 青龍 朱雀 貴人 and fears 子孫 勾陳; wealth wants 子孫 妻財 青龍 天財 地財 and fears "
    "官鬼 兄弟 白虎; lawsuits want 子孫, fear 官鬼; worries fear 官鬼 and a void body "
    "is a relief. ``item`` names a relative, spirit, general, 神煞 or condition by "
    "``item_kind``.",
    col(
        "matter",
        String(2),
        fk("matter.name"),
        primary_key=True,
        comment="功名 office, 財利 wealth, 獄訟 lawsuits, 憂患 worries",
    ),
    col("attitude", String(8), primary_key=True, comment="want, fear, or relief (a welcome state)"),
    col("item", String(4), primary_key=True, comment="The relative, spirit, general or condition"),
    col(
        "item_kind",
        String(16),
        comment="relative, spirit, general, shensha or condition: which vocabulary item is in",
    ),
    gloss("gloss"),
    one_of("attitude", ATTITUDES),
    one_of("item_kind", ITEM_KINDS),
    section=SECTION,
    cited=True,
)


# --- 間爻章 (§10) --------------------------------------------------------------------------


between_use = table(
    "between_use",
    "What the between lines mean per matter (§10.2–10.4): obstacles when they move, "
    "helpers when generated or helped (not void or broken), and a 官鬼 between line as "
    "worry at home, shown when present and worse when moving.",
    col(
        "use",
        String(8),
        primary_key=True,
        comment="obstacle (§10.2), helper (§10.3) or worry (§10.4)",
    ),
    col(
        "domain", String(4), primary_key=True, comment="The matter, e.g. 婚姻 marriage, 謀望 plans"
    ),
    col(
        "role",
        String(4),
        comment="What the between line is there, e.g. 媒妁 the matchmaker, 阻滯 delay",
    ),
    col(
        "activation",
        String(16),
        comment="moving: acts when it moves; supported: helps when generated or helped; "
        "present: shows when it holds 官鬼",
    ),
    gloss("gloss"),
    one_of("use", BETWEEN_USES),
    one_of("activation", ACTIVATIONS),
    CheckConstraint(
        "(use = 'obstacle' AND activation = 'moving') "
        "OR (use = 'helper' AND activation = 'supported') "
        "OR (use = 'worry' AND activation = 'present')",
        name="use_activation",
    ),
    section=SECTION,
    cited=True,
)


line_role = table(
    "line_role",
    "What each line position stands for (§10.5): 初 earth and right/rear neighbour, "
    "二 minister, 三 and 四 the threshold, 四 left/front neighbour, 五 ruler, 上 heaven.",
    col(
        "position",
        Integer,
        primary_key=True,
        autoincrement=False,
        comment="Line 1..6 from the bottom",
    ),
    col("role", String(4), primary_key=True, comment="Its role, e.g. 君"),
    gloss("gloss"),
    between("position", 1, 6),
    section=SECTION,
    cited=True,
)


line_aspect = table(
    "line_aspect",
    "The moving lines as time (§10.5 with §2.3): 重, the moving 9, shows what has already "
    "sprouted 現; 交, the moving 6, what has not yet sprouted 隱.",
    col(
        "value",
        Integer,
        fk("line_value.value"),
        primary_key=True,
        autoincrement=False,
        comment="9 (重) or 6 (交)",
    ),
    col("aspect", String(1), unique=True, comment="現 or 隱"),
    gloss("gloss"),
    one_of("aspect", LINE_ASPECTS),
    CheckConstraint("value IN (6, 9)", name="moving_value"),
    section=SECTION,
    cited=True,
)


# --- 成爻章 (§2) and the readings --------------------------------------------------------------


coin_face = table(
    "coin_face",
    "The two faces of a coin (§2.2–2.4): the back 背 up, the coin lying face down, is odd and "
    "yang and counts three; the face 眉 up is even and yin and counts two.",
    col("face", String(1), primary_key=True, comment="背 (back up) or 眉 (face up)"),
    col("parity", String(1), unique=True, comment="奇 odd or 偶 even (§2.2)"),
    col("yang", Integer, comment="1 for the yang face 背"),
    col("count", Integer, comment="What it counts: 3 or 2 (§2.3 commentary)"),
    col("image", String(1), comment="覆 lying face down like the sky, 仰 face up like the earth"),
    gloss("gloss"),
    one_of("face", COIN_FACES),
    boolean("yang"),
    between("count", 2, 3),
    section=SECTION,
    cited=True,
)


cast_method = table(
    "cast_method",
    "The ways a reading can be cast (reading.method), and the passage each rests on: coins "
    "stand in for the stalks (§2.1), their four numbers (§2.3).",
    col("name", String(16), primary_key=True, comment="values coins notation hexagram random"),
    gloss("gloss"),
    one_of("name", CAST_METHODS),
    section=SECTION,
    cited=True,
)


matter = table(
    "matter",
    "The kinds of matter a reading may ask about, as §9.5 names them, with their English "
    "kinds (accepted as aliases): what each wants or fears on the bodies is matter_preference.",
    col("name", String(2), primary_key=True, comment="功名 財利 獄訟 or 憂患"),
    col("kind", String(8), unique=True, comment="office, wealth, lawsuit or worry"),
    gloss("gloss"),
    section=SECTION,
    cited=True,
)
