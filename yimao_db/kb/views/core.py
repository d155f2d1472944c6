"""Views of the knowledge base itself: the sixty, the hexagrams, their lines and hidden
spirits."""

from __future__ import annotations

from yimao_db.kb.views.base import BITS, FLAG, KING_WEN, POSITION, View, col

V_GANZHI = View(
    "v_ganzhi",
    "core",
    "The sixty stem-branch pairs (§1.2) with their 納音 (§1.4–1.5), the 旬 they open "
    "and its two void branches.",
    (
        col("ordinal", "1..60 from 甲子", "1..60"),
        col("name", "The pair, e.g. 甲子", "FK ganzhi.name"),
        col("stem", "Its stem", "FK stem.name"),
        col("branch", "Its branch", "FK branch.name"),
        col("nayin_element", "Element of its 納音 by the 大衍 rule (§1.5)", "FK element.name"),
        col("nayin_name", "Its 納音, e.g. 海中金 (§1.4)", "FK nayin.name"),
        col("xun_head", "The 甲 that opens its decade 旬", "FK ganzhi.name"),
        col("void_branches", "The decade's two void branches 旬空, e.g. 戌亥", "two branches"),
        col("nayin_ordinal", "1..30: which 納音 pair it belongs to", "1..30"),
    ),
    """
SELECT g.ordinal, g.name, g.stem, g.branch,
       n.element AS nayin_element, g.nayin AS nayin_name,
       g.xun_head, g.void_first || g.void_second AS void_branches,
       n.ordinal AS nayin_ordinal
FROM ganzhi g
JOIN nayin n ON n.name = g.nayin
""",
)

V_HEXAGRAM = View(
    "v_hexagram",
    "core",
    "Each of the 64 hexagrams as a practitioner reads it (§3.3): palace and its element, "
    "generation, world and response, star, mansions, 卦身 and 世身.",
    (
        col("king_wen", "King Wen number", KING_WEN),
        col("bits", "Lines bottom first, 1 = yang", BITS),
        col("name", "Full name, e.g. 天風姤", "FK hexagram.name"),
        col("short_name", "Short name, e.g. 姤", "FK hexagram.short_name"),
        col("upper", "Outer (upper) trigram 外卦", "FK trigram.name"),
        col("lower", "Inner (lower) trigram 內卦", "FK trigram.name"),
        col("palace", "Its palace (§3.3)", "FK palace.name"),
        col("palace_element", "The palace trigram's element, the 我 of the relatives"),
        col("palace_order", "The palace's place in 京房 order 乾 震 坎 艮 坤 巽 離 兌", "1..8"),
        col("generation", "Generation in its palace: 0 本宮 .. 5 五世, 6 遊魂, 7 歸魂", "0..7"),
        col("generation_name", "本宮 一世 … 五世 遊魂 歸魂", "FK generation.name"),
        col("world", "World line 世 (§8.3)", POSITION),
        col("response", "Response line 應 (§8.3)", POSITION),
        col("five_star", "The star descending on it (§8.6)", "FK star.name"),
        col("world_ganzhi", "Stem and branch of the world line", "FK ganzhi.name"),
        col("world_mansion_jingfang", "京房 mansion of the world line (§8.10)"),
        col("world_mansion_huangjin", "黃金策 mansion of the world line (§8.11)"),
        col("gua_shen", "卦身 (月卦身) branch (§9.1)", "FK branch.name"),
        col("shi_shen_line", "世身 line position (§9.1)", POSITION),
        col("palace_sequence", "1..64 in the palace-by-palace walk (乾 = 1, 歸妹 = 64)", KING_WEN),
    ),
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
)

V_LINE = View(
    "v_line",
    "core",
    "The 384 lines with their hexagram: najia stem and branch (§4.1), element, relative, "
    "world/response/between flags and 黃金策 mansion.",
    (
        col("king_wen", "The hexagram's King Wen number", KING_WEN),
        col("bits", "The hexagram's bits, bottom first", BITS),
        col("position", "Line 1..6 from the bottom", POSITION),
        col("yang", "1 yang, 0 yin", FLAG),
        col("stem", "Najia stem (fixed table)", "FK stem.name"),
        col("branch", "Najia branch", "FK branch.name"),
        col("ganzhi", "Stem + branch", "FK ganzhi.name"),
        col("element", "The branch's element", "FK element.name"),
        col("relative", "Relative against the palace element (§6.1)", "FK relative.name"),
        col("is_world", "1 on the world line", FLAG),
        col("is_response", "1 on the response line", FLAG),
        col("is_between", "1 on the two lines between world and response (§10.1)", FLAG),
        col("mansion", "黃金策 mansion of this line (§8.11)", "FK mansion.name"),
        col("hexagram_name", "The hexagram's full name", "FK hexagram.name"),
    ),
    """
SELECT l.king_wen, h.bits, l.position, l.yang, l.stem, l.branch, l.ganzhi,
       l.element, l.relative, l.is_world, l.is_response, l.is_between, l.mansion,
       h.name AS hexagram_name
FROM hexagram_line l
JOIN hexagram h ON h.king_wen = l.king_wen
""",
)

V_HIDDEN = View(
    "v_hidden",
    "core",
    "伏神: the relatives a hexagram lacks, taken from its palace's pure hexagram, with "
    "the 飛神 line they hide under (standard).",
    (
        col("king_wen", "The hexagram", KING_WEN),
        col("position", "The line it hides under, 1..6", POSITION),
        col("relative", "The hidden relative", "FK relative.name"),
        col("ganzhi", "Its stem and branch (from the pure hexagram)", "FK ganzhi.name"),
        col("element", "Its element", "FK element.name"),
        col("over_ganzhi", "Stem and branch of the line above it (飛神)", "FK ganzhi.name"),
        col("stem", "Its najia stem", "FK stem.name"),
        col("branch", "Its najia branch", "FK branch.name"),
        col("over_relative", "Relative of the line above it (飛神)", "FK relative.name"),
    ),
    """
SELECT s.king_wen, s.position, s.relative, s.ganzhi, s.element,
       o.ganzhi AS over_ganzhi, s.stem, s.branch, o.relative AS over_relative
FROM hidden_spirit s
JOIN hexagram_line o ON o.king_wen = s.king_wen AND o.position = s.position
""",
)

V_HEXAGRAM_PATTERN = View(
    "v_hexagram_pattern",
    "readings",
    "Facts of a whole hexagram read from its lines: 互卦, 六衝卦 and 六合卦 (all three "
    "pairs 1–4, 2–5, 3–6 clash or combine) and the lines holding the 卦身 (§9.1). Kept for "
    "compatibility: the same rows as the table hexagram_pattern.",
    (
        col("king_wen", "The hexagram", KING_WEN),
        col("nuclear_king_wen", "Its nuclear hexagram 互卦 (lines 2–4 below, 3–5 above)", KING_WEN),
        col("is_liuchong", "1 for a 六衝卦: its three line pairs clash", FLAG),
        col("is_liuhe", "1 for a 六合卦: its three line pairs combine", FLAG),
        col(
            "gua_shen_positions",
            "The lines whose branch is the 卦身, joined by ',' (empty when absent, §9.1)",
            "e.g. 3 or 2,5 or empty",
        ),
    ),
    """
SELECT king_wen, nuclear_king_wen, is_liuchong, is_liuhe, gua_shen_positions
FROM hexagram_pattern
""",
    public=False,
)

VIEWS = (V_GANZHI, V_HEXAGRAM, V_LINE, V_HIDDEN, V_HEXAGRAM_PATTERN)
