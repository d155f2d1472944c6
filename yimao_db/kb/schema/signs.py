"""Signs: the judgments of 卷一 applied to a reading, and the rule tables their conditions
live in (:mod:`yimao_db.kb.rules.signs`).

``sign`` names every judgment with its subject, polarity, weight and passage. Each family
table maps the key a reading's line (or the reading) gives to the signs that fire for it;
``v_reading_sign`` joins them. The key columns read flags and names from the other rule
tables (``branch_on_day``, ``branch_in_month``, ``branch_bearing``, …), so a family table
holds a row for every key where a sign fires and none elsewhere. The family tables are not
written here: each is made from its family's declaration in ``FAMILIES``
(:mod:`yimao_db.kb.rules.signs`), its columns from the key's columns and their domains.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Index, Integer, String, Table, Text, UniqueConstraint
from sqlalchemy.schema import SchemaItem

from yimao_db.kb.rules.sign_family import INT, Family
from yimao_db.kb.rules.signs import FAMILIES, RELATION_DOC
from yimao_db.kb.schema.base import between, boolean, col, fk, key, one_of, ref, table
from yimao_db.kb.schema.core import RELATIONS
from yimao_db.kb.vocab import LINE_PLACES as PLACES
from yimao_db.kb.vocab import SIGN_GROUPS as GROUPS
from yimao_db.kb.vocab import SIGN_POLARITIES as POLARITIES
from yimao_db.kb.vocab import SIGN_SUBJECTS as SUBJECTS

SECTION = "rules"


def text_key(name: str, length: int, comment: str, target: str | None = None) -> Column[Any]:
    """A text key column, a foreign key when ``target`` is given."""
    if target is None:
        return col(name, String(length), primary_key=True, comment=comment)
    return key(name, target, comment, length)


def int_key(name: str, comment: str, target: str | None = None) -> Column[Any]:
    args = (fk(target),) if target else ()
    return col(name, Integer, *args, primary_key=True, autoincrement=False, comment=comment)


def family(name: str, doc: str, *items: SchemaItem) -> Table:
    """A family table: its key columns, then the sign that fires for the key."""
    return table(
        name,
        doc,
        *items,
        key("sign", "sign.name", "A sign that fires for this key", 8),
        section=SECTION,
        cited=True,
    )


sign_weight = table(
    "sign_weight",
    "How much a sign weighs, by what it speaks of (§9.6 world over 卦身 over 世身; §7.2, "
    "§7.12 day and month spirits over hour spirits and generals; §8.13 commentary stars "
    "and mansions after the world's omens). Higher weighs more.",
    col(
        "weight", Integer, primary_key=True, autoincrement=False, comment="1..6, higher weighs more"
    ),
    col("name", String(4), unique=True, comment="What weighs so: 用神 世應 卦身 世身 爻 星宿"),
    col("gloss", String(200), comment="Short English label (our words, not the book's)"),
    between("weight", 1, 6),
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
        comment="What it speaks of: 用神 世 應 世應 卦身 世身 間爻 line hexagram spirit star "
        "mansion",
    ),
    col("chart_group", String(8), comment="Where a chart lists it: use world bodies between lines"),
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

# added by revision 0013, after the columns every cited table ends with
sign.append_column(
    col(
        "cancels",
        String(8),
        nullable=True,
        comment="What it cancels, when it cancels a harm or a good instead of being 吉 or 凶 "
        "(polarity 中): a sign (太白特現) or a spirit's force (白虎之凶); NULL otherwise",
    )
)

# v_reading_sign takes a sign's attributes from here. With an index led by each attribute a
# report groups by (and the name, which leads reading_sign's index), a count of the stored
# signs grouped by one of them reads `sign` in that attribute's order and counts each sign's
# range of reading_sign's index: 2.8-3.7 x the time of reading every line once at 100,000
# readings, where without one SQLite read every stored row, looked up its sign and sorted
# (20-28 x; 32-39 x for the meanings and what a sign cancels, whose indexes came with
# revision 0032)
SIGN_GROUPINGS = (
    "subject", "polarity", "weight", "passage", "basis", "meaning", "meaning_zh", "cancels",
)  # fmt: skip
for _name in SIGN_GROUPINGS:
    Index(f"ix_sign_{_name}", sign.c[_name], sign.c.name)

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


def _family_table(f: Family) -> Table:
    """A family's table from its declaration: its columns, a CHECK for each listed domain
    (a key flag's right after it, the others after the columns), then the sign that fires."""
    items: list[SchemaItem] = []
    for c in f.columns:
        d = c.domain
        type_: Any = Integer if d.type == INT else String(d.length)
        args = (fk(d.references),) if d.references else ()
        kw: dict[str, Any] = {"primary_key": True} if c.primary_key else {}
        if c.primary_key and d.type == INT:
            kw["autoincrement"] = False
        items.append(col(c.name, type_, *args, comment=c.doc, **kw))
        if d.is_flag and c.primary_key:
            items.append(boolean(c.name))
    items += [boolean(c.name) for c in f.columns if c.domain.is_flag and not c.primary_key]
    items += [
        one_of(c.name, c.domain.listed)
        for c in f.columns
        if c.domain.listed is not None and not c.domain.is_flag
    ]
    return family(f.table, f.doc, *items)


FAMILY_TABLES: dict[str, Table] = {f.table: _family_table(f) for f in FAMILIES}
