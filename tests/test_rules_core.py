"""The pure rule functions behind the core tables, checked against worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import bodies, ganzhi, palaces, stars
from yimao_db.kb.rules.elements import controls, generates, relation, relative
from yimao_db.kb.rules.hexagrams import hexagrams, nuclear_bits
from yimao_db.kb.rules.keys import bits_from_name
from yimao_db.kb.rules.lines import hidden_spirits, lines
from yimao_db.kb.rules.najia import line_stem_branch, lower_upper
from yimao_db.kb.vocab import AFTER_SUMMER, AFTER_WINTER, SEASONAL

ELEMENTS = ("木", "火", "土", "金", "水")
RELATIVES = ("兄弟", "父母", "子孫", "妻財", "官鬼")


def short_bits() -> dict[str, str]:
    """Short hexagram name → bits, from the received names."""
    return {short: bits_from_name(name) for _, name, short in facts().hexagram_names}


def walk_by_short() -> dict[str, palaces.PalaceMember]:
    by_bits = {bits: short for short, bits in short_bits().items()}
    return {by_bits[m.bits]: m for m in palaces.palace_walk()}


def pure(trigram: str) -> str:
    return facts().trigrams[trigram].bits * 2


# --- §1.2 the sixty ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ordinal", "name"), [(1, "甲子"), (2, "乙丑"), (11, "甲戌"), (60, "癸亥")]
)
def test_sixty_ordinals(ordinal: int, name: str) -> None:
    gz = ganzhi.ganzhi(ordinal)
    assert gz.name == name
    assert (gz.stem, gz.branch) == (name[0], name[1])
    assert ganzhi.ordinal_of(name[0], name[1]) == ordinal


def test_sixty_is_sixty_distinct_pairs() -> None:
    names = [gz.name for gz in ganzhi.sixty()]
    assert len(set(names)) == 60
    assert names[:3] == ["甲子", "乙丑", "丙寅"]
    assert names[-1] == "癸亥"


@pytest.mark.parametrize("ordinal", [0, 61, -1])
def test_ganzhi_out_of_range(ordinal: int) -> None:
    with pytest.raises(ValueError):
        ganzhi.ganzhi(ordinal)


def test_mixed_parity_pair_is_not_one_of_the_sixty() -> None:
    with pytest.raises(ValueError):
        ganzhi.ordinal_of("甲", "丑")


@given(st.integers(min_value=1, max_value=60))
def test_ordinal_of_round_trip(n: int) -> None:
    gz = ganzhi.ganzhi(n)
    assert ganzhi.ordinal_of(gz.stem, gz.branch) == n


# --- 旬 and 旬空 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("head", "void"),
    [
        ("甲子", "戌亥"),
        ("甲戌", "申酉"),
        ("甲申", "午未"),
        ("甲午", "辰巳"),
        ("甲辰", "寅卯"),
        ("甲寅", "子丑"),
    ],
)
def test_void_branches_of_each_decade(head: str, void: str) -> None:
    start = ganzhi.ordinal_of(head[0], head[1])
    for n in range(start, start + 10):
        assert ganzhi.ganzhi(ganzhi.xun_head(n)).name == head
        assert "".join(ganzhi.void_branches(n)) == void
    reached = {ganzhi.ganzhi(n).branch for n in range(start, start + 10)}
    assert reached.isdisjoint(void)
    assert len(reached) == 10


# --- §1.5 納音 --------------------------------------------------------------------------------


def test_nayin_worked_example() -> None:
    # 甲子乙丑: 9+9+8+8 = 34; 49-34 = 15 → 5 土 → 土生金 → 金
    numbers = facts().nayin_numbers
    assert [numbers[c] for c in "甲子乙丑"] == [9, 9, 8, 8]
    assert ganzhi.nayin_index(1) == ganzhi.nayin_index(2) == 1
    assert ganzhi.nayin_name(1) == "海中金"
    assert ganzhi.nayin_element(1) == "金"


def test_nayin_numbers_table() -> None:
    numbers = facts().nayin_numbers
    expected = {"甲己子午": 9, "乙庚丑未": 8, "丙辛寅申": 7, "丁壬卯酉": 6, "戊癸辰戌": 5}
    expected["巳亥"] = 4
    assert numbers == {c: n for chars, n in expected.items() for c in chars}


def test_every_computed_nayin_element_matches_its_name() -> None:
    names = [ganzhi.nayin_name(p) for p in range(1, 31)]
    assert len(set(names)) == 30
    assert names[0] == "海中金" and names[6] == "澗下水" and names[-1] == "大海水"
    for pair, name in enumerate(names, 1):
        assert ganzhi.nayin_element(pair) == name[-1], (pair, name)


@pytest.mark.parametrize(
    ("head", "absent"), [("甲子", "水"), ("甲午", "水"), ("甲申", "金"), ("甲寅", "金")]
)
def test_decades_missing_a_nayin_element(head: str, absent: str) -> None:
    start = ganzhi.ordinal_of(head[0], head[1])
    found = {ganzhi.nayin_element(ganzhi.nayin_index(n)) for n in range(start, start + 10)}
    assert absent not in found
    assert len(found) == 4  # five pairs, four elements: one element is repeated


# --- §5.5–5.6 elements and §6 relatives ------------------------------------------------------


def test_generating_and_controlling_cycles() -> None:
    assert [generates(e) for e in ELEMENTS] == ["火", "土", "金", "水", "木"]
    assert [controls(e) for e in ELEMENTS] == ["土", "金", "水", "木", "火"]
    # the two cycles (docs/rules.md chapter 1): 木→火→土→金→水→木 and 木→土→水→火→金→木
    chain_g, chain_c = ["木"], ["木"]
    for _ in range(5):
        chain_g.append(generates(chain_g[-1]))
        chain_c.append(controls(chain_c[-1]))
    assert "".join(chain_g) == "木火土金水木"
    assert "".join(chain_c) == "木土水火金木"


def test_relatives_against_a_metal_palace() -> None:
    assert {e: relative("金", e) for e in ELEMENTS} == {
        "金": "兄弟",
        "土": "父母",
        "水": "子孫",
        "木": "妻財",
        "火": "官鬼",
    }


def test_relatives_against_a_wood_palace() -> None:
    assert {e: relative("木", e) for e in ELEMENTS} == {
        "木": "兄弟",
        "水": "父母",
        "火": "子孫",
        "土": "妻財",
        "金": "官鬼",
    }


@given(st.sampled_from(ELEMENTS), st.sampled_from(ELEMENTS))
def test_relative_is_total_and_follows_the_cycles(me: str, other: str) -> None:
    name = relative(me, other)
    assert name in RELATIVES
    expected = {
        me: "兄弟",
        generates(me): "子孫",
        controls(me): "妻財",
    }
    if other in expected:
        assert name == expected[other]
    elif generates(other) == me:
        assert name == "父母" and relation(me, other) == "generates_me"
    else:
        assert controls(other) == me
        assert name == "官鬼" and relation(me, other) == "controls_me"


@given(st.sampled_from(ELEMENTS))
def test_the_five_relatives_are_distinct_for_a_palace(me: str) -> None:
    assert sorted(relative(me, e) for e in ELEMENTS) == sorted(RELATIVES)


# --- §3.3 the eight palaces ------------------------------------------------------------------


def test_qian_palace_walk() -> None:
    walk = [palaces.generation_bits("111111", g) for g in range(8)]
    assert walk == [
        "111111",
        "011111",
        "001111",
        "000111",
        "000011",
        "000001",
        "000101",
        "111101",
    ]
    by_bits = {bits: short for short, bits in short_bits().items()}
    assert [by_bits[b] for b in walk] == ["乾", "姤", "遯", "否", "觀", "剝", "晉", "大有"]


def test_generation_out_of_range() -> None:
    with pytest.raises(ValueError):
        palaces.generation_bits("111111", 8)


def test_every_hexagram_in_exactly_one_palace() -> None:
    walk = palaces.palace_walk()
    assert len(walk) == 64
    assert len({m.bits for m in walk}) == 64
    assert set(short_bits().values()) == {m.bits for m in walk}
    assert [m.sequence for m in walk] == list(range(1, 65))
    order = [m.palace for m in walk if m.generation == 0]
    assert order == ["乾", "震", "坎", "艮", "坤", "巽", "離", "兌"]
    for member in walk:
        assert member.bits == palaces.generation_bits(pure(member.palace), member.generation)


def test_palace_members_by_name() -> None:
    walk = walk_by_short()
    assert [(walk[s].palace, walk[s].generation) for s in ("復", "隨", "歸妹", "無妄", "同人")] == [
        ("坤", 1),
        ("震", 7),
        ("兌", 7),
        ("巽", 4),
        ("離", 7),
    ]


bit_strings = st.text(alphabet="01", min_size=6, max_size=6)


@given(bit_strings)
def test_generation_bits_distinct_and_invertible(base: str) -> None:
    members = [palaces.generation_bits(base, g) for g in range(8)]
    assert len(set(members)) == 8
    for g, bits in enumerate(members):
        # each generation flips a fixed set of lines, so applying it twice restores the base
        assert palaces.generation_bits(bits, g) == base


@given(st.sampled_from("乾震坎艮坤巽離兌"), st.integers(min_value=0, max_value=7))
def test_generation_bits_keeps_the_palace_in_every_member(palace: str, g: int) -> None:
    bits = palaces.generation_bits(pure(palace), g)
    member = next(m for m in palaces.palace_walk() if m.bits == bits)
    assert (member.palace, member.generation) == (palace, g)
    if g == 7:  # 歸魂 restores the pure inner trigram
        assert bits[:3] == facts().trigrams[palace].bits


# --- §8.3–8.5 world and response, §10.1 between lines ----------------------------------------


def test_world_and_response_by_generation() -> None:
    got = [(palaces.world_line(g), palaces.response_line(g)) for g in range(8)]
    assert got == [(6, 3), (1, 4), (2, 5), (3, 6), (4, 1), (5, 2), (4, 1), (3, 6)]
    assert facts().generations == ("本宮", "一世", "二世", "三世", "四世", "五世", "遊魂", "歸魂")


@pytest.mark.parametrize(("short", "between"), [("乾", (4, 5)), ("復", (2, 3)), ("姤", (2, 3))])
def test_between_lines(short: str, between: tuple[int, int]) -> None:
    g = walk_by_short()[short].generation
    world, response = palaces.world_line(g), palaces.response_line(g)
    assert palaces.between_lines(world, response) == between
    assert palaces.between_lines(response, world) == between


# --- §4 納甲 ----------------------------------------------------------------------------------


def najia(bits: str, variant: str = "fixed", half: str = AFTER_WINTER) -> str:
    """The six najia ganzhi, line 1 first, separated by spaces."""
    return " ".join("".join(line_stem_branch(bits, p, variant, half)) for p in range(1, 7))


def test_najia_qian_and_kun() -> None:
    assert najia("111111") == "甲子 甲寅 甲辰 壬午 壬申 壬戌"
    assert najia("000000") == "乙未 乙巳 乙卯 癸丑 癸亥 癸酉"


def test_najia_children() -> None:
    assert najia("100100") == "庚子 庚寅 庚辰 庚午 庚申 庚戌"  # 震
    assert najia("011011") == "辛丑 辛亥 辛酉 辛未 辛巳 辛卯"  # 巽
    assert najia("010010") == "戊寅 戊辰 戊午 戊申 戊戌 戊子"  # 坎
    assert najia("101101") == "己卯 己丑 己亥 己酉 己未 己巳"  # 離
    assert najia("001001") == "丙辰 丙午 丙申 丙戌 丙子 丙寅"  # 艮
    assert najia("110110") == "丁巳 丁卯 丁丑 丁亥 丁酉 丁未"  # 兌


def test_najia_depends_on_trigram_and_half_only() -> None:
    # 姤: inner 巽, outer 乾
    assert lower_upper("011111") == ("巽", "乾")
    assert najia("011111") == "辛丑 辛亥 辛酉 壬午 壬申 壬戌"


def test_najia_seasonal_variant_swaps_qian_kun_stems_after_summer() -> None:
    assert najia("111111", SEASONAL, AFTER_SUMMER) == "壬子 壬寅 壬辰 甲午 甲申 甲戌"
    assert najia("000000", SEASONAL, AFTER_SUMMER) == "癸未 癸巳 癸卯 乙丑 乙亥 乙酉"
    # after 冬至 the seasonal variant is the fixed table
    assert najia("111111", SEASONAL, AFTER_WINTER) == najia("111111")
    # the six children never change
    for child in ("100100", "011011", "010010", "101101", "001001", "110110"):
        assert najia(child, SEASONAL, AFTER_SUMMER) == najia(child)
    # a mixed hexagram: only the 乾 half swaps (姤: 巽 inside, 乾 outside)
    assert najia("011111", SEASONAL, AFTER_SUMMER) == "辛丑 辛亥 辛酉 甲午 甲申 甲戌"


def test_najia_position_out_of_range() -> None:
    with pytest.raises(ValueError):
        line_stem_branch("111111", 7)


# --- §3 hexagram names, 互卦 ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "bits"),
    [
        ("天風姤", "011111"),
        ("乾為天", "111111"),
        ("坤為地", "000000"),
        ("水雷屯", "100010"),
        ("火水未濟", "010101"),
        ("地雷復", "100000"),
    ],
)
def test_bits_from_name(name: str, bits: str) -> None:
    assert bits_from_name(name) == bits


def test_hexagram_names_are_64_distinct_hexagrams() -> None:
    names = facts().hexagram_names
    assert [kw for kw, _, _ in names] == list(range(1, 65))
    assert len(set(short_bits().values())) == 64
    assert (names[0][1], names[1][1], names[2][1], names[63][1]) == (
        "乾為天",
        "坤為地",
        "水雷屯",
        "火水未濟",
    )


@pytest.mark.parametrize(
    ("bits", "nuclear"),
    [
        ("111111", "111111"),
        ("000000", "000000"),
        ("011111", "111111"),
        ("101010", "010101"),
        ("010101", "101010"),
        ("100010", "000001"),
    ],
)
def test_nuclear_bits(bits: str, nuclear: str) -> None:
    # 乾→乾, 坤→坤, 姤→乾, 既濟↔未濟, 屯→剝
    assert nuclear_bits(bits) == nuclear


# --- §8.6 five stars, §8.10–8.11 mansions -----------------------------------------------------


def test_five_stars_worked_examples() -> None:
    walk = walk_by_short()
    expected = {
        "乾": "鎮星",
        "姤": "太白",
        "遯": "太陰",
        "否": "歲星",
        "觀": "熒惑",
        "剝": "鎮星",
        "晉": "太白",
        "大有": "太陰",
        "震": "歲星",
        "歸妹": "歲星",
    }
    assert {s: stars.five_star(walk[s].sequence) for s in expected} == expected
    assert walk["歸妹"].sequence == 64


def test_jingfang_world_mansions() -> None:
    walk = walk_by_short()
    got = {s: stars.jingfang_world_mansion(walk[s].sequence) for s in ("乾", "姤", "遯", "否")}
    assert got == {"乾": "參", "姤": "井", "遯": "鬼", "否": "柳"}


def huangjin(short: str) -> str:
    member = walk_by_short()[short]
    g = member.generation
    world, response = palaces.world_line(g), palaces.response_line(g)
    mansions = stars.huangjin_mansions(member.palace, g, world, response)
    assert sorted(mansions) == [1, 2, 3, 4, 5, 6]
    return "".join(mansions[p] for p in range(1, 7))


@pytest.mark.parametrize(
    ("short", "mansions"),
    [("乾", "房尾亢心氐角"), ("姤", "亢房尾氐箕心"), ("歸妹", "氐心角尾房亢")],
)
def test_huangjin_line_mansions(short: str, mansions: str) -> None:
    assert huangjin(short) == mansions


def test_huangjin_returning_soul_repeats_next_palace_start() -> None:
    # 大有 (乾 歸魂, world 3) gets 斗 like 坎; 歸妹 (兌 歸魂, world 3) gets 角 like 乾
    assert huangjin("大有")[2] == "斗"
    assert huangjin("歸妹")[2] == "角"
    assert huangjin("坎")[5] == "斗" and huangjin("乾")[5] == "角"


@given(st.integers(min_value=0, max_value=7))
def test_line_order_is_a_permutation_starting_with_world_and_response(g: int) -> None:
    world, response = palaces.world_line(g), palaces.response_line(g)
    order = stars.line_order(world, response)
    assert sorted(order) == [1, 2, 3, 4, 5, 6]
    assert order[:2] == [world, response]


@given(st.integers(min_value=1, max_value=6))
def test_line_order_alternates_trigrams_from_the_worlds_own(world: int) -> None:
    response = world - 3 if world > 3 else world + 3
    rest = stars.line_order(world, response)[2:]
    inner_first = world <= 3
    sides = [p <= 3 for p in rest]
    assert sides == [inner_first, not inner_first, inner_first, not inner_first]
    inner = [p for p in rest if p <= 3]
    outer = [p for p in rest if p >= 4]
    assert inner == sorted(inner) and outer == sorted(outer, reverse=True)


# --- §9.1 the two bodies ----------------------------------------------------------------------


def test_gua_shen_worked_examples() -> None:
    assert bodies.gua_shen(6, True) == "巳"  # 乾: yang world on 6
    assert bodies.gua_shen(6, False) == "亥"  # 坤: yin world on 6
    assert bodies.gua_shen(1, True) == "子"
    assert bodies.gua_shen(1, False) == "午"  # 姤: yin world on line 1
    assert [bodies.gua_shen(p, True) for p in range(1, 7)] == list("子丑寅卯辰巳")
    assert [bodies.gua_shen(p, False) for p in range(1, 7)] == list("午未申酉戌亥")


def test_shi_shen_line() -> None:
    assert bodies.shi_shen_line("子") == 1  # 小畜: world 子
    assert bodies.shi_shen_line("寅") == 3  # 大畜: world 寅
    assert [bodies.shi_shen_line(b) for b in "子丑寅卯辰巳午未申酉戌亥"] == [
        1,
        2,
        3,
        4,
        5,
        6,
        1,
        2,
        3,
        4,
        5,
        6,
    ]


@pytest.mark.parametrize(("short", "branch", "line"), [("小畜", "子", 1), ("大畜", "寅", 3)])
def test_shi_shen_of_worked_hexagrams(short: str, branch: str, line: int) -> None:
    member = walk_by_short()[short]
    world = palaces.world_line(member.generation)
    world_branch = line_stem_branch(member.bits, world)[1]
    assert world_branch == branch
    assert bodies.shi_shen_line(world_branch) == line


# --- §11 hidden spirits -----------------------------------------------------------------------


def test_gou_hides_wealth_under_line_two() -> None:
    own = lines("011111", "金")
    assert [(ln.relative, ln.ganzhi) for ln in own] == [
        ("父母", "辛丑"),
        ("子孫", "辛亥"),
        ("兄弟", "辛酉"),
        ("官鬼", "壬午"),
        ("兄弟", "壬申"),
        ("父母", "壬戌"),
    ]
    hidden = hidden_spirits(own, lines("111111", "金"))
    assert [(h.position, h.relative, h.ganzhi, h.element) for h in hidden] == [
        (2, "妻財", "甲寅", "木")
    ]


def test_every_relative_is_on_a_line_or_hidden_never_both() -> None:
    """§11 over the 64 hexagrams: the hidden spirits are exactly the relatives the
    hexagram's own lines lack (once two SQL invariants over hidden_spirit)."""
    for h in hexagrams().values():
        own = {line.relative for line in h.lines}
        hidden = [line.relative for line in h.hidden]
        assert not own & set(hidden) and own | set(hidden) == set(RELATIVES), h.name
        assert len(hidden) == len(set(hidden)), h.name


def test_pure_hexagrams_hide_nothing() -> None:
    for trigram in facts().trigrams.values():
        own = lines(pure(trigram.name), trigram.element)
        assert {ln.relative for ln in own} == set(RELATIVES)
        assert hidden_spirits(own, own) == []
