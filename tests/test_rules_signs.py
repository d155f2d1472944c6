"""The conditions of the signs as pure functions (rules/signs.py), the rules they read
(day and month bearing, 神煞, hidden stems, the lines around the 世身, 旦中) and the
catalogue's integrity. The view is compared with these in test_readings_props.py."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from yimao_db.kb.facts import read_tsv
from yimao_db.kb.rules import bodies, day_month, dusk, hidden_stems, lines, shensha, signs, spirits
from yimao_db.kb.rules.hexagrams import gua_shen_positions, hexagrams
from yimao_db.kb.vocab import SIGN_POLARITIES as POLARITIES
from yimao_db.kb.vocab import SIGN_SUBJECTS as SUBJECTS

RULES = Path(__file__).resolve().parents[1] / "yimao_db" / "kb" / "rules"
PASSAGES = {f"{r['chapter_no']}.{r['passage_no']}" for r in read_tsv("passages")}


def fires(table: str, **key: object) -> list[str]:
    return signs.firing(table, signs.KEYS[table](**key))


def body(place: str, value: int = 7, void: int = 0, brk: int = 0, clash: int = 0) -> list[str]:
    return fires(
        "line_sign", place=place, value=value, is_void=void, is_month_break=brk, is_day_clash=clash
    )


def line(
    value: int = 7,
    void: int = 0,
    clash: int = 0,
    day: str = "i_control",
    strength: str = "囚",
    nature: str = "吉",
) -> list[str]:
    return fires(
        "line_state_sign",
        nature=nature,
        value=value,
        is_void=void,
        is_day_clash=clash,
        day_relation=day,
        strength=strength,
    )


# --- the catalogue -------------------------------------------------------------------------


def test_every_sign_is_defined_once_in_the_rules() -> None:
    """``grep -rn NAME yimao_db/kb/rules`` finds one line for every sign (built names counted
    by their template)."""
    text = {p.name: p.read_text(encoding="utf-8") for p in RULES.glob("*.py")}
    for s in signs.SIGNS:
        if s.table in ("sole_sign", "moving_relative_sign") and s.name != "獨發":
            continue  # named in a generated row of a table of their family
        hits = [(f, n) for f, t in text.items() for n in range(t.count(f'"{s.name}"'))]
        assert len(hits) == 1, (s.name, hits)
    # once more in the description of its family's table, which names the signs it holds
    described = sum(f.doc.count("世空") for f in signs.FAMILIES)
    assert sum(t.count("世空") for t in text.values()) == 1 + described == 2


def test_the_catalogue() -> None:
    names = [s.name for s in signs.SIGNS]
    assert len(names) == len(set(names)) == len(signs.by_name())
    for s in signs.SIGNS:
        assert s.subject in SUBJECTS and s.polarity in POLARITIES, s.name
        assert s.basis in ("book", "standard", "decision"), s.name
        assert s.passage is None or s.passage in PASSAGES, s.name
        assert s.basis != "book" or s.passage is not None, s.name
        assert s.condition and s.meaning and s.meaning_zh, s.name
        assert (s.when is None) == (
            s.table in ("world_group_sign", "matter_sign", "matter_relief_sign", "use_lodge_sign")
        )
    assert {s.weight for s in signs.SIGNS if s.subject in ("世", "應", "世應")} == {5}
    assert signs.by_name()["世空"].weight > signs.by_name()["卦身空"].weight
    assert signs.by_name()["卦身空"].weight > signs.by_name()["世身空"].weight  # §9.6


def test_every_sign_can_fire() -> None:
    fired = {r["sign"] for f in signs.FAMILIES for r in signs.family_rows(f.table)}
    assert fired == set(signs.by_name())


# --- the places of the lines (§8.2–8.4, §9.1, §10.1, §10.5) ----------------------------------


def test_line_places_of_every_hexagram() -> None:
    for h in hexagrams().values():
        gua = gua_shen_positions([x.branch for x in h.lines], h.gua_shen)
        places = signs.line_places(h.world, h.response, h.generation, gua, h.shi_shen_line)
        count = Counter(p.place for p in places)
        assert (count["世"], count["應"], count["間"], count["世身"]) == (1, 1, 2, 1)
        assert count["卦身"] == len(gua) and count["身前"] == count["身後"] == 1
        at = {p.place: p.position for p in places if p.place not in ("間", "卦身")}
        assert at["世"] == h.world and at["世身"] == h.shi_shen_line
        assert at["身前"] == bodies.ahead(h.shi_shen_line)
        assert at["身後"] == bodies.behind(h.shi_shen_line)


def test_a_line_moves_alone_when_it_is_the_only_moving_line() -> None:
    """§8.7 獨發 over every set of moving lines (once an SQL invariant over mask_line)."""
    for mask in range(64):
        for position in range(1, 7):
            assert lines.is_sole(mask, position) == (lines.mask_lines(mask) == (position,))
    assert [p for p in range(1, 7) if lines.is_sole(0b000100, p)] == [3]


@pytest.mark.parametrize(("line", "ahead", "behind"), [(1, 2, 6), (3, 4, 2), (6, 1, 5)])
def test_the_lines_around_the_world_body_wrap(line: int, ahead: int, behind: int) -> None:
    """§10.5 commentary: 世身 on 6 → line 1 ahead, 5 behind; on 1 → 2 ahead, 6 behind."""
    assert (bodies.ahead(line), bodies.behind(line)) == (ahead, behind)


# --- decisions ------------------------------------------------------------------------------


def test_still_line_clashed_by_the_day_stirs_when_strong() -> None:
    assert "暗動" in line(value=8, clash=1, strength="旺") and "暗動" in line(
        clash=1, strength="相"
    )
    for weak in ("休", "囚", "死"):
        assert "日破" in line(value=8, clash=1, strength=weak) and "暗動" not in line(
            clash=1, strength=weak
        )
    assert not {"暗動", "日破"} & set(line(value=9, clash=1, strength="旺"))  # it moves


def shi_shen(
    value: int = 7, void: int = 0, brk: int = 0, clash: int = 0, world: str = "囚"
) -> list[str]:
    return fires(
        "shi_shen_sign",
        value=value,
        is_void=void,
        is_month_break=brk,
        is_day_clash=clash,
        world_strength=world,
    )


def test_dispersed_is_a_moving_line_the_day_clashes() -> None:
    assert "世身散" in shi_shen(value=6, clash=1)
    assert "世身散" not in shi_shen(value=8, clash=1)
    assert "卦身衝亡" in body("卦身", value=9, clash=1)
    # one reading for one fact: a still 卦身 clashed is 卦身衝, a moving one 卦身衝亡
    assert body("卦身", value=7, clash=1) == ["卦身衝"]
    assert "卦身衝" not in body("卦身", 9, clash=1)
    assert "卦身暗衝" not in signs.by_name()
    reasons = {signs.by_name()[n].basis for n in ("卦身衝亡", "世身散", "凶神散")}
    assert reasons == {"decision"}
    for name in ("卦身衝亡", "世身散", "凶神散"):
        assert signs.SCATTER_REASON in signs.by_name()[name].condition, name


def test_the_world_strong_the_shi_shen_takes_no_harm() -> None:
    """§9.4 commentary: while the world line is 旺 or 相 the 世身's five conditions do no
    harm; 休 囚 死, they are read."""
    spoiled = {
        "世身空": {"void": 1},
        "世身破": {"brk": 1},
        "世身動": {"value": 9},
        "世身衝": {"clash": 1},
        "世身散": {"value": 6, "clash": 1},
    }
    for name, state in spoiled.items():
        for weak in ("休", "囚", "死"):
            assert name in shi_shen(**state, world=weak), (name, weak)
        for strong in ("旺", "相"):
            assert shi_shen(**state, world=strong) == [], (name, strong)


def test_what_is_wanted_needs_a_sound_body() -> None:
    """§9.5 先宜無病: a want row only for a still body neither void, broken nor clashed; a
    fear row for every state."""
    rules = signs.matter_rules()
    want = {
        (r.value, r.is_void, r.is_month_break, r.is_day_clash)
        for r in rules
        if (r.matter, r.place, r.attitude) == ("財利", "世身", "want")
    }
    fear = {
        (r.value, r.is_void, r.is_month_break, r.is_day_clash)
        for r in rules
        if (r.matter, r.place, r.attitude) == ("財利", "世身", "fear")
    }
    assert want == {(7, 0, 0, 0), (8, 0, 0, 0)}
    assert len(fear) == 4 * 2 * 2 * 2


def test_the_gua_shen_at_rest() -> None:
    assert "卦身靜" in body("卦身")
    for spoiled in (
        body("卦身", 9),
        body("卦身", void=1),
        body("卦身", brk=1),
        body("卦身", clash=1),
    ):
        assert "卦身靜" not in spoiled


def test_world_combined_and_clashed() -> None:
    def world(dc: int, mc: int, brk: int, clash: int) -> list[str]:
        return fires(
            "bearing_sign",
            place="世",
            is_void=0,
            is_month_break=brk,
            is_day_clash=clash,
            day_relation="same",
            strength="旺",
            day_combines=dc,
            month_combines=mc,
        )

    assert "合處逢衝" in world(1, 0, 1, 0) and "合處逢衝" in world(0, 1, 0, 1)
    assert "合處逢衝" not in world(1, 0, 0, 1)  # combined and clashed by the same day: no
    assert "合處逢衝" not in world(0, 0, 1, 1)


def test_the_world_with_the_ghost() -> None:
    def rel(relative: str, value: int, stage: str, world: int = 1) -> list[str]:
        return fires(
            "relative_sign",
            is_world=world,
            is_between=0,
            relative=relative,
            value=value,
            stage=stage,
        )

    assert "隨官入墓" in rel("官鬼", 7, "墓") and "隨官入墓" not in rel("官鬼", 7, "絕")
    assert "隨官入墓" not in rel("兄弟", 7, "墓") and "隨官入墓" not in rel("官鬼", 7, "墓", 0)
    assert "助鬼傷身" in rel("妻財", 9, "墓") and "助鬼傷身" not in rel("妻財", 8, "墓")
    # 化墓: 亥 水 changing into 辰, the tomb of 水
    assert "隨官化墓" in fires(
        "change_sign", is_world=1, relative="官鬼", branch="亥", changed_branch="辰"
    )
    assert "隨官化墓" not in fires(
        "change_sign", is_world=1, relative="官鬼", branch="亥", changed_branch="子"
    )


def test_changes() -> None:
    def change(b: str, c: str) -> list[str]:
        return fires("change_sign", is_world=0, relative="兄弟", branch=b, changed_branch=c)

    assert change("子", "丑") == ["化合"] and change("子", "子") == ["伏吟"]
    assert change("子", "午") == ["反吟"] and change("子", "寅") == []


def test_the_groups_around_the_world() -> None:
    rules = {(g.branch, g.sign, g.is_void, g.is_moving): g for g in signs.group_rules()}
    triad = rules[("戌", "三合生有", 1, 0)]
    assert (triad.partner_a, triad.partner_b) == ("午", "寅") or {
        triad.partner_a,
        triad.partner_b,
    } == {"寅", "午"}
    empty: dict[str, set[str]] = {"day": set(), "month": set(), "moving": set(), "changed": set()}
    assert triad.fires({**empty, "day": {"寅"}, "moving": {"午"}})
    assert not triad.fires({**empty, "day": {"寅"}, "changed": {"午"}})  # changed lines: no
    assert ("戌", "三合生有", 0, 0) not in rules  # the world must be void
    punished = rules[("寅", "三刑自敝", 0, 1)]
    assert {punished.partner_a, punished.partner_b} == {"巳", "申"}
    assert punished.fires({**empty, "month": {"巳"}, "changed": {"申"}})
    assert not punished.fires({**empty, "month": {"巳"}})
    assert {rules[("子", "三刑自敝", 0, 1)].partner_a} == {"卯"}
    assert rules[("午", "三刑自敝", 1, 1)].partner_a == "午"  # 自刑
    assert ("寅", "三刑自敝", 0, 0) not in rules  # the world must move


def test_spirit_preferences_by_day_or_month() -> None:
    assert "吉神生" in line(day="generates_me") and "吉神生" in line(strength="相")
    assert "吉神助" in line(day="same") and "吉神助" in line(strength="旺")
    assert "凶神制" in line(nature="凶", day="controls_me") and "凶神制" in line(
        nature="凶", strength="死"
    )
    assert "凶神化" in line(nature="凶", day="i_generate") and "凶神化" in line(
        nature="凶", strength="休"
    )
    assert "凶神散" in line(nature="凶", value=6, clash=1)
    assert "凶神空" in line(nature="凶", void=1) and "凶神空" not in line(void=1)
    assert line() == []


def test_spirit_natures() -> None:
    """勾陳 and 青龍 吉, 白虎 凶 from the book; 朱雀 玄武 騰蛇 凶 by decision."""
    rows = {r["spirit"]: (r["nature"], r["basis"]) for r in read_tsv("spirit_nature")}
    assert rows == {
        "青龍": ("吉", "book"),
        "朱雀": ("凶", "decision"),
        "勾陳": ("吉", "book"),
        "騰蛇": ("凶", "decision"),
        "白虎": ("凶", "book"),
        "玄武": ("凶", "decision"),
    }


# --- the rules the signs read ------------------------------------------------------------------


def test_bearing_of_the_day_and_month() -> None:
    b = day_month.bearing("亥", "寅")  # 亥 水 generates 寅 木; 寅亥 combine
    assert (b.is_on, b.generates, b.helps, b.controls, b.combines, b.clashes) == (
        False,
        True,
        False,
        False,
        True,
        False,
    )
    assert day_month.bearing("寅", "寅").is_on and day_month.bearing("寅", "卯").helps
    assert day_month.bearing("申", "寅").controls and day_month.bearing("申", "寅").clashes
    assert day_month.bearing("寅", "巳").punishes and day_month.bearing("午", "午").punishes


def test_xianchi_and_the_wealth_of_the_day() -> None:
    assert {b: shensha.xianchi(b) for b in "申子辰寅午戌巳酉丑亥卯未"} == dict(
        zip("申子辰寅午戌巳酉丑亥卯未", "酉酉酉卯卯卯午午午子子子", strict=True)
    )
    assert shensha.day_wealth("甲") == "土" and shensha.day_wealth("戊") == "水"
    assert shensha.on_line("甲子", "戊辰") == ["天財", "地財"]  # 戊 and 辰 are 土
    assert shensha.on_line("甲子", "乙酉") == ["咸池"]  # 子 day: 咸池 on 酉


def test_dawn_mansion_is_the_dusk_mansion_six_months_on() -> None:
    assert dusk.dawn_mansion("寅") == dusk.dusk_mansion("申") == "氐"
    dawn = {dusk.dawn_mansion(b) for b in "子丑寅卯辰巳午未申酉戌亥"}
    assert len(dawn) == 12 and all(dusk.dawn_mansion(b) != dusk.dusk_mansion(b) for b in "子寅辰")


def test_hidden_stems() -> None:
    """§5.6 commentary: 寅 holds 甲, 卯 乙, 辰 戊 (each branch's main stem)."""
    assert [hidden_stems.hidden_stems(b)[0][0] for b in "寅卯辰"] == list("甲乙戊")
    assert hidden_stems.hidden_stems("丑") == (("己", "本氣"), ("癸", "中氣"), ("辛", "餘氣"))
    assert len(hidden_stems.hidden_stems("子")) == 1


def test_matter_rules() -> None:
    rules = {(m.matter, m.place, m.attitude): m.sign for m in signs.matter_rules()}
    assert rules[("財利", "卦身", "want")] == "卦身得喜"
    assert rules[("功名", "世身", "fear")] == "世身逢忌"
    assert ("憂患", "卦身", "want") not in rules  # worries want nothing (§9.5)
    assert {(r.matter, r.place) for r in signs.relief_rules()} == {
        ("憂患", "卦身"),
        ("憂患", "世身"),
    }


def test_sign_names_are_not_split_across_modules() -> None:
    for path in RULES.glob("*.py"):
        if path.name in ("signs.py",):
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'"(世空|卦身缺|間動|獨發)"', text), path.name


# --- the catalogue claims no more than the book ------------------------------------------------


def test_the_stars_speak_by_decision_and_weigh_last() -> None:
    """§8.7 commentary says only 必以獨發; tying the star to the world line is an inference.
    §8.13 commentary: 五星經星，又其次爾 — the stars after the world's own omens."""
    for name in ("獨發", "鎮星特現", "太白特現", "太陰特現", "歲星特現", "熒惑特現"):
        s = signs.by_name()[name]
        assert (s.basis, s.weight) == ("decision", 1), name
        assert signs.SOLE_REASON in s.condition, name
    stars = next(w for w in signs.WEIGHTS if w.weight == 1)
    assert (stars.passage, stars.basis) == ("8.13", "book")
    world = next(w for w in signs.WEIGHTS if w.weight == 5)
    assert (world.passage, world.basis) == ("9.6", "decision")  # the response by decision


def test_the_void_inauspicious_spirit_is_book_only_for_the_white_tiger() -> None:
    s = signs.by_name()["凶神空"]
    assert s.basis == "decision" and signs.NATURE_REASON in s.condition
    assert [n for n, nature in spirits.natures().items() if nature == "凶"] == [
        "朱雀",
        "騰蛇",
        "白虎",
        "玄武",
    ]


def test_what_cancels_is_neither_good_nor_bad() -> None:
    """§7.8 commentary 吉而不吉, 凶而不凶; §8.8–8.9 無咎, 無患: a harm or a good cancelled."""
    cancels = {s.name: (s.polarity, s.cancels) for s in signs.SIGNS if s.cancels}
    assert cancels == {
        "龍避金爻": ("中", "青龍之吉"),
        "虎伏火爻": ("中", "白虎之凶"),
        "熒惑受制": ("中", "熒惑特現"),
        "太白無咎": ("中", "太白特現"),
    }


def test_standard_signs_cite_no_passage() -> None:
    for name in ("化合", "暗動", "日破", "伏吟", "反吟"):
        s = signs.by_name()[name]
        assert (s.passage, s.basis) == (None, "standard"), name


def test_places_are_not_signs() -> None:
    assert not {"將來", "已往", "左鄰", "右鄰", "君", "臣", "天", "地", "門戶"} & set(
        signs.by_name()
    )
    qian = (5, 6, 3)  # 乾: 世身 5, world 6, response 3
    assert bodies.places(1, *qian) == ("地", "右鄰", "後鄰")
    assert bodies.places(6, *qian) == ("將來", "天")
    assert bodies.places(4, *qian) == ("已往", "近彼", "門戶", "左鄰", "前鄰")
    assert bodies.places(5, *qian) == ("近我", "君")
    assert bodies.places(1, 6, 3, 6) == ("將來", "地", "右鄰", "後鄰")
    assert bodies.places(6, 1, 1, 4) == ("已往", "天")
