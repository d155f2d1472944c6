"""Six spirits, 五子遁, 大六神, the noble's generals and 五虎遁 (docs/rules.md chapters 7, 12)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import spirits

STEMS = facts().stems
BRANCHES = facts().branches
CYCLE = ["青龍", "朱雀", "勾陳", "騰蛇", "白虎", "玄武"]


def test_spirit_attributes() -> None:
    got = {s.name: (s.ordinal, s.element, s.direction) for s in spirits.spirits()}
    assert got == {
        "青龍": (1, "木", "東"),
        "朱雀": (2, "火", "南"),
        "勾陳": (3, "土", "中央"),
        "騰蛇": (4, "火", "中央"),
        "白虎": (5, "金", "西"),
        "玄武": (6, "水", "北"),
    }


def test_day_spirits_first_line() -> None:
    first = {s: spirits.day_spirits(s)[0] for s in STEMS}
    assert first == dict(
        zip(STEMS, "青龍 青龍 朱雀 朱雀 勾陳 騰蛇 白虎 白虎 玄武 玄武".split(), strict=True)
    )


@given(st.sampled_from(STEMS))
def test_day_spirits_follow_the_cycle(stem: str) -> None:
    lines = spirits.day_spirits(stem)
    start = CYCLE.index(lines[0])
    assert lines == [CYCLE[(start + k) % 6] for k in range(6)]


def test_five_rats() -> None:
    zi = {d: spirits.hour_stem(d, "子") for d in STEMS}
    assert zi == dict(zip(STEMS, "甲丙戊庚壬甲丙戊庚壬", strict=True))
    assert [spirits.hour_stem("甲", b) for b in BRANCHES] == list("甲乙丙丁戊己庚辛壬癸甲乙")


def test_hour_spirit_worked_example() -> None:
    # 甲子 day, 寅 hour → 丙寅 → line 1 朱雀 (§7.2)
    assert spirits.hour_stem("甲", "寅") == "丙"
    assert spirits.hour_spirits("甲", "寅")[0] == "朱雀"


def test_five_tigers() -> None:
    yin = {y: spirits.month_stem(y, "寅") for y in STEMS}
    assert yin == dict(zip(STEMS, "丙戊庚壬甲丙戊庚壬甲", strict=True))
    months = [spirits.month_stem("甲", b) + b for b in "寅卯辰巳午未申酉戌亥子丑"]
    assert months[-2:] == ["丙子", "丁丑"]


@given(st.sampled_from(STEMS), st.sampled_from(BRANCHES))
def test_pillars_are_among_the_sixty(stem: str, branch: str) -> None:
    for got in (spirits.hour_stem(stem, branch), spirits.month_stem(stem, branch)):
        assert STEMS.index(got) % 2 == BRANCHES.index(branch) % 2


def test_month_spirits() -> None:
    assert spirits.month_spirits("子") == {
        "青龍": "子",
        "朱雀": "卯",
        "勾陳": "亥",
        "騰蛇": "午",
        "白虎": "午",
        "玄武": "酉",
    }
    # §7.2's verse for the first month 寅
    assert spirits.month_spirits("寅") == {
        "青龍": "寅",
        "白虎": "申",
        "勾陳": "丑",
        "朱雀": "巳",
        "玄武": "亥",
        "騰蛇": "辰",
    }
    assert spirits.month_spirits("丑")["騰蛇"] == "巳"


def test_generals_and_halves() -> None:
    assert spirits.general_names() == tuple(
        "貴人 騰蛇 朱雀 六合 勾陳 青龍 天空 白虎 太常 玄武 太陰 天后".split()
    )
    halves = {b: spirits.noble_half(b) for b in BRANCHES}
    assert {b for b, h in halves.items() if h == "陽貴"} == set("卯辰巳午未申")
    assert {b for b, h in halves.items() if h == "陰貴"} == set("酉戌亥子丑寅")


def test_noble_tables() -> None:
    yang = "".join(spirits.noble_branch(s, "陽貴") for s in STEMS)
    yin = "".join(spirits.noble_branch(s, "陰貴") for s in STEMS)
    assert yang == "未申酉亥丑子丑寅卯巳"
    assert yin == "丑子亥酉未申未午巳卯"


def test_noble_worked_example() -> None:
    # 辛未 day, 辰 hour → 貴人 寅, 青龍 未, 白虎 酉 (§7.2)
    placed = spirits.generals("辛", spirits.noble_half("辰"))
    assert (placed["寅"], placed["未"], placed["酉"]) == ("貴人", "青龍", "白虎")


def test_yin_noble_runs_backward() -> None:
    placed = spirits.generals("甲", "陰貴")
    assert placed["丑"] == "貴人" and placed["子"] == "騰蛇" and placed["寅"] == "天后"


@given(st.sampled_from(STEMS), st.sampled_from(spirits.HALVES))
def test_generals_cover_every_branch_once(stem: str, half: str) -> None:
    placed = spirits.generals(stem, half)
    assert set(placed) == set(BRANCHES)
    assert sorted(placed.values()) == sorted(spirits.general_names())
