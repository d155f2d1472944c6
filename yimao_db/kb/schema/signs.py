"""Signs: the judgments of 卷一 applied to a reading, and the rule tables their conditions
live in (:mod:`yimao_db.kb.rules.signs`).

``sign`` names every judgment with its subject, polarity, weight and passage. Each family
table maps the key a reading's line (or the reading) gives to the signs that fire for it;
``v_reading_sign`` joins them. The key columns read flags and names from the other rule
tables (``branch_on_day``, ``branch_in_month``, ``branch_bearing``, …), so a family table
holds a row for every key where a sign fires and none elsewhere.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Integer, String, Text, UniqueConstraint
from sqlalchemy.schema import SchemaItem

from yimao_db.kb.schema.base import between, boolean, col, fk, key, one_of, ref, table
from yimao_db.kb.schema.core import RELATIONS
from yimao_db.kb.vocab import AUSPICIOUS, INAUSPICIOUS
from yimao_db.kb.vocab import LINE_PLACES as PLACES
from yimao_db.kb.vocab import SIGN_GROUPS as GROUPS
from yimao_db.kb.vocab import SIGN_POLARITIES as POLARITIES
from yimao_db.kb.vocab import SIGN_SUBJECTS as SUBJECTS

SECTION = "rules"

NATURES = (AUSPICIOUS, INAUSPICIOUS)
ATTITUDES = ("want", "fear")


def flag_key(name: str, comment: str) -> list[SchemaItem]:
    """A 0/1 key column and its CHECK."""
    return [
        col(name, Integer, primary_key=True, autoincrement=False, comment=comment),
        boolean(name),
    ]


def text_key(name: str, length: int, comment: str, target: str | None = None) -> Column[Any]:
    """A text key column, a foreign key when ``target`` is given."""
    if target is None:
        return col(name, String(length), primary_key=True, comment=comment)
    return key(name, target, comment, length)


def int_key(name: str, comment: str, target: str | None = None) -> Column[Any]:
    args = (fk(target),) if target else ()
    return col(name, Integer, *args, primary_key=True, autoincrement=False, comment=comment)


def family(name: str, doc: str, *items: SchemaItem) -> Any:
    """A family table: its key columns, then the sign that fires for the key."""
    return table(
        name,
        doc,
        *items,
        key("sign", "sign.name", "A sign that fires for this key", 8),
        section=SECTION,
        cited=True,
    )


PLACE_DOC = "The line's place: 世 應 間 卦身 世身 身前 (after the 世身) or 身後 (before it)"
VALUE_DOC = "The line's value 6..9"
RELATION_DOC = (
    "How the day branch's element stands to the line's: generates_me (the day generates "
    "it), same, controls_me (the day controls it), i_generate, i_control"
)
STRENGTH_DOC = "The line's strength in the month 旺相休囚死"

sign_weight = table(
    "sign_weight",
    "How much a sign weighs, by what it speaks of (§9.6 world over 卦身 over 世身; §7.2, "
    "§7.12 day and month spirits over hour spirits and generals; §8.13 commentary stars "
    "and mansions after the world's omens). Higher weighs more.",
    col(
        "weight", Integer, primary_key=True, autoincrement=False, comment="1..5, higher weighs more"
    ),
    col("name", String(4), unique=True, comment="What weighs so: 世應 卦身 世身 爻 星宿"),
    col("gloss", String(200), comment="Short English label (our words, not the book's)"),
    between("weight", 1, 5),
    section=SECTION,
    cited=True,
)

sign = table(
    "sign",
    "Every judgment 卷一 makes about a reading (§7–§10): its subject, polarity, weight and "
    "meaning, and the rule table its condition is stored in (docs/signs.md).",
    col("name", String(8), primary_key=True, comment="The sign, e.g. 世空 (canonical characters)"),
    col("ordinal", Integer, unique=True, comment="Its place in the catalogue, for display"),
    col(
        "subject",
        String(8),
        comment="What it speaks of: 世 應 世應 卦身 世身 間爻 line hexagram spirit star mansion",
    ),
    col("chart_group", String(8), comment="Where a chart lists it: world bodies between lines"),
    col("polarity", String(1), comment="吉 auspicious, 凶 inauspicious, 中 neither"),
    col("weight", Integer, fk("sign_weight.weight"), comment="How much it weighs (sign_weight)"),
    col("rule_table", String(40), comment="The table holding its condition, e.g. line_sign"),
    col("condition", Text, comment="When it fires, in words"),
    col("meaning", String(200), comment="What it means, in English (our words)"),
    col("meaning_zh", String(40), comment="What it means, in Chinese (our words)"),
    one_of("subject", SUBJECTS),
    one_of("chart_group", GROUPS),
    one_of("polarity", POLARITIES),
    section=SECTION,
    cited=True,
)

line_place = table(
    "line_place",
    "The places the lines of each hexagram hold for the signs: world and response (§8.2–8.4), "
    "the between lines (§10.1), the lines holding the 卦身 and the 世身 line (§9.1), and the "
    "lines after (身前) and before (身後) the 世身, line 6 wrapping to 1 (§10.5).",
    int_key("king_wen", "The hexagram", "hexagram.king_wen"),
    int_key("position", "Line 1..6 from the bottom"),
    text_key("place", 2, "世 應 間 卦身 世身 身前 or 身後"),
    between("position", 1, 6),
    one_of("place", PLACES),
    section=SECTION,
    cited=True,
)

mask_line = table(
    "mask_line",
    "Each line of each set of moving lines (reading.moving_mask): whether it moves and whether "
    "it is the only line that moves, 獨發 (§8.7). Every mask and position has a row.",
    int_key("mask", "The moving lines, bit p-1 for line p", "moving_lines.mask"),
    int_key("position", "Line 1..6 from the bottom"),
    col("is_moving", Integer, comment="1 if the line moves"),
    col("is_sole", Integer, comment="1 if it is the only moving line"),
    between("position", 1, 6),
    boolean("is_moving"),
    boolean("is_sole"),
    section=SECTION,
    cited=True,
)

branch_bearing = table(
    "branch_bearing",
    "What a branch acting on a line (the day's or the month's) does to the line's branch "
    "(standard): stands on it 臨, generates it 生, helps it 扶 (same element), controls it 剋, "
    "combines with it 合, clashes it 衝, punishes it 刑. Every pair of branches has a row.",
    key("actor", "branch.name", "The acting branch: the day's or the month's"),
    key("branch", "branch.name", "The line's branch"),
    col("is_on", Integer, comment="1 if it is the line's own branch 臨"),
    col("relation", String(16), comment=RELATION_DOC.replace("day branch", "acting branch")),
    col("generates", Integer, comment="1 if its element generates the line's 生"),
    col("helps", Integer, comment="1 if its element is the line's 扶 (臨 included)"),
    col("controls", Integer, comment="1 if its element controls the line's 剋"),
    col("combines", Integer, comment="1 if the two branches combine 六合"),
    col("clashes", Integer, comment="1 if the two branches clash 六衝 (日衝, 月破)"),
    col("punishes", Integer, comment="1 if it punishes the line's branch 三刑 (自刑 included)"),
    one_of("relation", RELATIONS),
    *(
        boolean(c)
        for c in ("is_on", "generates", "helps", "controls", "combines", "clashes", "punishes")
    ),
    section=SECTION,
    cited=True,
    sqlite_with_rowid=False,  # revision 0009: a line's lookups are one search each
)

shensha = table(
    "shensha",
    "The 神煞 the book names beside the spirits: 咸池 (§8.9, spoils 太陰), 天財 and 地財 "
    "(§9.5, wanted on the bodies for wealth), with how each is placed.",
    col("name", String(2), primary_key=True, comment="咸池 天財 or 地財"),
    col("derivation", String(200), comment="How it is placed, in words"),
    section=SECTION,
    cited=True,
)

shensha_on = table(
    "shensha_on",
    "Which 神煞 stand on a line of each stem-branch on each day: 咸池 by the day branch, "
    "天財 and 地財 by the day stem (rules in shensha). Rows only where one stands.",
    key("day_gz", "ganzhi.name", "The day pillar", 2),
    key("ganzhi", "ganzhi.name", "The line's najia stem and branch", 2),
    key("shensha", "shensha.name", "A 神煞 standing on it", 2),
    section=SECTION,
    cited=True,
)

hidden_stem = table(
    "hidden_stem",
    "The stems each branch holds 地支藏干 (§5.6: 寅 holds 甲, 卯 乙, 辰 戊; the table is "
    "standard): main 本氣, middle 中氣 and residual 餘氣.",
    key("branch", "branch.name", "The branch"),
    key("stem", "stem.name", "A stem it holds"),
    col("role", String(2), comment="本氣 (main), 中氣 (middle) or 餘氣 (residual)"),
    col("ordinal", Integer, comment="1 for the main stem, then 2, 3"),
    one_of("role", ("本氣", "中氣", "餘氣")),
    between("ordinal", 1, 3),
    UniqueConstraint("branch", "ordinal"),
    section=SECTION,
    cited=True,
)

najia_stem_rule = table(
    "najia_stem_rule",
    "The stems each trigram takes in the najia (§4.1 乾 坤, §4.2 the six children): inner "
    "and outer, the fixed table.",
    key("trigram", "trigram.name", "The trigram"),
    ref("inner_stem", "stem.name", "Its stem as the inner trigram"),
    ref("outer_stem", "stem.name", "Its stem as the outer trigram"),
    section=SECTION,
    cited=True,
)

najia_branch_rule = table(
    "najia_branch_rule",
    "Where each trigram's najia branches start and which way they run (§4.4 the yang "
    "trigrams forward, §4.5 坤 and §4.6 巽 離 兌 backward): line 1 takes the first, each "
    "next line the branch two on.",
    key("trigram", "trigram.name", "The trigram"),
    ref("first_branch", "branch.name", "The branch of its line 1 as the inner trigram"),
    col("direction", String(8), comment="forward (yang branches) or backward (yin branches)"),
    one_of("direction", ("forward", "backward")),
    section=SECTION,
    cited=True,
)

# --- the families --------------------------------------------------------------------------

hexagram_sign = family(
    "hexagram_sign",
    "Signs of a primary hexagram as a whole (position NULL): world against response (§8.15), "
    "the 卦身 missing or doubled (§9.2–9.3), 遊魂 and 歸魂 (§8.5).",
    int_key("king_wen", "The primary hexagram", "hexagram.king_wen"),
)

line_sign = family(
    "line_sign",
    "Signs of a line in one of its places (line_place) by its value and what the day and "
    "month do to it: 世空 世破 世動 世衝, 應空 應破, the 卦身 and 世身 conditions, 間動, "
    "將來 and 已往 (§8.14, §9.2–9.4, §10.2–10.5).",
    text_key("place", 2, PLACE_DOC),
    int_key("value", VALUE_DOC, "line_value.value"),
    *flag_key("is_void", "1 if the line is void 旬空"),
    *flag_key("is_month_break", "1 if the month breaks it 月破"),
    *flag_key("is_day_clash", "1 if the day clashes it 日衝"),
    one_of("place", PLACES),
)

line_state_sign = family(
    "line_state_sign",
    "Signs of any line by its value, its day spirit's nature and what the day and month do "
    "to it: 重現 交隱 (§10.5), 暗動 日破, and what suits the spirits (§7.9).",
    text_key("nature", 1, "吉 or 凶: the nature of the line's day spirit (spirit_nature)"),
    int_key("value", VALUE_DOC, "line_value.value"),
    *flag_key("is_void", "1 if the line is void 旬空"),
    *flag_key("is_day_clash", "1 if the day clashes it 日衝"),
    text_key("day_relation", 16, RELATION_DOC),
    text_key("strength", 1, STRENGTH_DOC, "strength.name"),
    one_of("nature", NATURES),
    one_of("day_relation", RELATIONS),
)

bearing_sign = family(
    "bearing_sign",
    "Signs of a line in one of its places by how the day and month bear on it: the 卦身 "
    "combined (§9.2), a between line generated or helped (§10.3), the world combined and "
    "clashed (§8.13).",
    text_key("place", 2, PLACE_DOC),
    *flag_key("is_void", "1 if the line is void 旬空"),
    *flag_key("is_month_break", "1 if the month breaks it 月破"),
    *flag_key("is_day_clash", "1 if the day clashes it 日衝"),
    text_key("day_relation", 16, RELATION_DOC),
    text_key("strength", 1, STRENGTH_DOC, "strength.name"),
    *flag_key("day_combines", "1 if the day branch combines with the line's 六合"),
    *flag_key("month_combines", "1 if the month branch combines with the line's 六合"),
    one_of("place", PLACES),
    one_of("day_relation", RELATIONS),
)

spirit_line_sign = family(
    "spirit_line_sign",
    "Signs of a line's day spirit by the line's element and place: the affinities (§7.8) and "
    "an auspicious spirit holding the world (§7.9).",
    text_key("spirit", 2, "The line's day spirit", "spirit.name"),
    text_key("element", 1, "The line's element", "element.name"),
    *flag_key("is_world", "1 on the world line"),
)

relative_sign = family(
    "relative_sign",
    "Signs of a line's relative: a 官鬼 between line (§10.4), the world feeding the 官鬼 or "
    "entombed with it (§8.13).",
    *flag_key("is_world", "1 on the world line"),
    *flag_key("is_between", "1 on a between line"),
    text_key("relative", 2, "The line's relative", "relative.name"),
    int_key("value", VALUE_DOC, "line_value.value"),
    text_key("stage", 2, "The stage of the line's element at the day branch", "stage.name"),
)

moving_relative_sign = family(
    "moving_relative_sign",
    "The images of a moving relative (§6.5 生象, §6.6 克象): what it generates and controls.",
    text_key("relative", 2, "The line's relative", "relative.name"),
    int_key("value", VALUE_DOC, "line_value.value"),
)

change_sign = family(
    "change_sign",
    "Signs of a moving line by the branch it changes into: the world 化進神 or 化退神 "
    "(§8.14), entombed by its change (§8.13), 化合, 伏吟 and 反吟 (standard).",
    *flag_key("is_world", "1 on the world line"),
    text_key("relative", 2, "The line's relative", "relative.name"),
    text_key("branch", 1, "The moving line's branch", "branch.name"),
    text_key("changed_branch", 1, "The branch it changes into", "branch.name"),
)

sole_sign = family(
    "sole_sign",
    "獨發 and the star that shows when the world line is the only moving line (§8.7–8.9).",
    *flag_key("is_sole", "1 if the world line is the only moving line"),
    text_key("star", 2, "The primary hexagram's star", "star.name"),
)

star_sign = family(
    "star_sign",
    "What a showing star meets on the world line (§8.8–8.9): 熒惑 controlled by the day, "
    "太白 with 白虎 or 官鬼, or with 青龍 or 子孫.",
    *flag_key("is_sole", "1 if the world line is the only moving line"),
    text_key("star", 2, "The primary hexagram's star", "star.name"),
    text_key("relative", 2, "The world line's relative", "relative.name"),
    text_key("spirit", 2, "The world line's day spirit", "spirit.name"),
    text_key("day_relation", 16, RELATION_DOC.replace("line's", "star's")),
    one_of("day_relation", RELATIONS),
)

star_shensha_sign = family(
    "star_shensha_sign",
    "A showing star meeting a 神煞 on the world line: 太陰 under 咸池 (§8.9).",
    *flag_key("is_sole", "1 if the world line is the only moving line"),
    text_key("star", 2, "The primary hexagram's star", "star.name"),
    text_key("shensha", 2, "A 神煞 on the world line", "shensha.name"),
)

mansion_sign = family(
    "mansion_sign",
    "A line's mansion culminating at dusk 昏中 (auspicious) or at dawn 旦中 (inauspicious) in "
    "the month (§8.12).",
    text_key("month_branch", 1, "The month's branch", "branch.name"),
    text_key("mansion", 1, "The line's mansion", "mansion.name"),
)

world_group_sign = family(
    "world_group_sign",
    "三合 and 三刑 around the world line (§8.14): the state of the world each needs, the "
    "other two branches it needs present, and where they may come from — the day, the "
    "month, the moving lines' branches (三合) or the changed lines' branches (三刑).",
    text_key("branch", 1, "The world line's branch", "branch.name"),
    *flag_key("is_void", "1 if the world must be void, 0 if it must not"),
    *flag_key("is_moving", "1 if the world must move, 0 if it must not"),
    ref("partner_a", "branch.name", "One branch the group needs besides the world's"),
    ref("partner_b", "branch.name", "The other (the same as partner_a for a pair or 自刑)"),
    col("by_day", Integer, comment="1 if the day branch counts as present"),
    col("by_month", Integer, comment="1 if the month branch counts as present"),
    col("by_moving", Integer, comment="1 if the moving lines' branches count"),
    col("by_changed", Integer, comment="1 if the changed lines' branches count"),
    *(boolean(c) for c in ("by_day", "by_month", "by_moving", "by_changed")),
)

matter_sign = family(
    "matter_sign",
    "The sign a body line gives when it holds what the matter asked about wants or fears "
    "(§9.5; the items are the rows of matter_preference).",
    text_key("matter", 2, "The matter asked about", "matter.name"),
    text_key("place", 2, "The body: 卦身 or 世身"),
    text_key("attitude", 8, "want or fear"),
    one_of("place", ("卦身", "世身")),
    one_of("attitude", ATTITUDES),
)

matter_relief_sign = family(
    "matter_relief_sign",
    "The sign a void body line gives for a matter it relieves: a worry (§9.5).",
    text_key("matter", 2, "The matter asked about", "matter.name"),
    text_key("place", 2, "The body: 卦身 or 世身"),
    *flag_key("is_void", "1 if the body line is void 旬空"),
    one_of("place", ("卦身", "世身")),
)

FAMILIES = (
    "hexagram_sign",
    "line_sign",
    "line_state_sign",
    "bearing_sign",
    "spirit_line_sign",
    "relative_sign",
    "moving_relative_sign",
    "change_sign",
    "sole_sign",
    "star_sign",
    "star_shensha_sign",
    "mansion_sign",
    "world_group_sign",
    "matter_sign",
    "matter_relief_sign",
)
