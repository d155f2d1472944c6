"""The signs of a reading (v_reading_sign): a worked example for every sign the book's
table of required signs names, each with the lines it must fire on and a case where it must
not, and three readings whose every sign is written out and checked by hand.

Every reading is cast at a fixed moment (the day and month, or all four pillars), so the
void branches 旬空, the month's break 月破 and the day's clash 日衝 are known:

- 乾為天 (777777): lines 子寅辰午申戌 from line 1; world 6 (戌), response 3 (辰), between 4 and
  5 (午 官鬼, 申 兄弟), 卦身 巳 (no line holds it), 世身 line 5 (戌 world → 5).
- a 甲子 day voids 戌亥, a 甲戌 day 申酉, a 丙申 day (甲午 decade) 辰巳, a 甲寅 day 子丑.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from helpers import reading_view
from sqlalchemy import Engine

from yimao_db.db import writer_engine
from yimao_db.readings import cast


@pytest.fixture(scope="module")
def engine(module_db: str) -> Iterator[Engine]:
    eng = writer_engine(module_db)
    yield eng
    eng.dispose()


SIGNS = "SELECT sign, position FROM v_reading_sign WHERE reading_id = :id"


def signs_of(engine: Engine, lines: str, **moment: Any) -> list[tuple[str, int | None]]:
    """Cast ``lines`` at ``moment`` and return its signs as (sign, position), sorted."""
    rid = cast(lines, db=engine, **moment)
    rows = reading_view(
        engine, "SELECT sign, position FROM v_reading_sign WHERE reading_id = :id", rid
    )
    return sorted(((r["sign"], r["position"]) for r in rows), key=lambda r: (r[0], r[1] or 0))


def positions(found: list[tuple[str, int | None]], sign: str) -> list[int | None]:
    return sorted((p for s, p in found if s == sign), key=lambda p: p or 0)


# (sign, lines, moment, the lines it fires on: [None] for the whole reading, [] for none)
EXAMPLES: list[tuple[str, str, dict[str, str], list[int | None]]] = [
    # the world line (§8.14): 乾's world 戌 on line 6
    ("世空", "777777", {"day": "甲子", "month": "寅"}, [6]),  # 甲子 voids 戌亥
    ("世空", "777777", {"day": "甲戌", "month": "寅"}, []),  # 甲戌 voids 申酉
    ("世破", "777777", {"day": "甲子", "month": "辰"}, [6]),  # 辰 month breaks 戌
    ("世破", "777777", {"day": "甲子", "month": "戌"}, []),
    ("世動", "777779", {"day": "甲子", "month": "寅"}, [6]),
    ("世動", "977777", {"day": "甲子", "month": "寅"}, []),  # line 1 moves, not the world
    ("世衝", "777777", {"day": "戊辰", "month": "寅"}, [6]),  # a 辰 day clashes 戌
    ("世衝", "777777", {"day": "戊戌", "month": "寅"}, []),
    # 屯 (768878): world 2 寅 moves, 震 below becomes 兌, line 2 寅 → 卯: 化進神
    ("世化進神", "768878", {"day": "甲子", "month": "寅"}, [2]),
    ("世化退神", "768878", {"day": "甲子", "month": "寅"}, []),
    # 臨 (798888): world 2 卯 moves, 兌 below becomes 震, line 2 卯 → 寅: 化退神
    ("世化退神", "798888", {"day": "甲子", "month": "寅"}, [2]),
    ("世化進神", "798888", {"day": "甲子", "month": "寅"}, []),
    # the response (§8.14): 乾's response 辰 on line 3
    ("應空", "777777", {"day": "丙申", "month": "寅"}, [3]),  # 甲午 decade voids 辰巳
    ("應空", "777777", {"day": "甲子", "month": "寅"}, []),
    ("應破", "777777", {"day": "甲子", "month": "戌"}, [3]),  # 戌 month breaks 辰
    ("應破", "777777", {"day": "甲子", "month": "寅"}, []),
    # world against response (§8.15), about the whole reading, in a question between two
    # parties (a lawsuit, or the subject 世 or 應: question_parties)
    (
        "世克應",
        "888888",
        {"day": "甲子", "month": "寅", "matter": "lawsuit"},
        [None],
    ),  # 坤: 酉 金 controls 卯 木
    (
        "應克世",
        "878887",
        {"day": "甲子", "month": "寅", "about": "應"},
        [None],
    ),  # 蒙: 寅 木 controls 戌 土
    (
        "世生應",
        "777878",
        {"day": "甲子", "month": "寅", "about": "世"},
        [None],
    ),  # 需: 申 金 generates 子 水
    (
        "應生世",
        "878777",
        {"day": "甲子", "month": "寅", "matter": "lawsuit"},
        [None],
    ),  # 訟: 寅 木 generates 午 火
    *(
        (
            name,
            "777777",
            {"day": "甲子", "month": "寅", "matter": "lawsuit"},
            [],
        )  # 乾: 戌 and 辰 both 土
        for name in ("世克應", "應克世", "世生應", "應生世")
    ),
    *(  # the same hexagrams in a question of no two parties
        (name, lines, {"day": "甲子", "month": "寅", **question}, [])
        for name, lines in (("世克應", "888888"), ("應克世", "878887"), ("應生世", "878777"))
        for question in ({}, {"matter": "wealth"}, {"about": "妻財"})
    ),
    # the 卦身 (§9.1–9.3)
    ("卦身缺", "777777", {"day": "甲子", "month": "寅"}, [None]),  # 巳: no line of 乾
    ("卦身缺", "888888", {"day": "甲子", "month": "寅"}, []),  # 坤's 亥 is line 5
    ("卦身重", "778888", {"day": "甲子", "month": "寅"}, [None]),  # 臨's 丑 on lines 3, 4
    ("卦身重", "888888", {"day": "甲子", "month": "寅"}, []),
    ("卦身空", "778888", {"day": "甲寅", "month": "寅"}, [3, 4]),  # 甲寅 voids 子丑
    ("卦身空", "778888", {"day": "甲子", "month": "寅"}, []),
    ("卦身破", "778888", {"day": "甲子", "month": "未"}, [3, 4]),  # 未 month breaks 丑
    ("卦身破", "778888", {"day": "甲子", "month": "寅"}, []),
    ("卦身動", "776888", {"day": "甲子", "month": "寅"}, [3]),  # line 3 moves, line 4 not
    ("卦身動", "778888", {"day": "甲子", "month": "寅"}, []),
    ("卦身衝", "778888", {"day": "乙未", "month": "寅"}, [3, 4]),  # a 未 day clashes 丑
    ("卦身衝", "778888", {"day": "甲子", "month": "寅"}, []),
    # a moving 卦身 clashed by the day is 衝亡, not 衝: one reading for one fact
    ("卦身衝", "776888", {"day": "乙未", "month": "寅"}, [4]),
    ("卦身衝亡", "776888", {"day": "乙未", "month": "寅"}, [3]),
    ("卦身衝亡", "778888", {"day": "乙未", "month": "寅"}, []),
    # the 世身 (§9.4): 乾's 世身 is line 5, 申
    ("世身空", "777777", {"day": "甲戌", "month": "寅"}, [5]),  # 甲戌 voids 申酉
    ("世身空", "777777", {"day": "甲子", "month": "寅"}, []),
    ("世身破", "777777", {"day": "甲子", "month": "寅"}, [5]),  # 寅 month breaks 申
    ("世身破", "777777", {"day": "甲子", "month": "卯"}, []),
    ("世身動", "777797", {"day": "甲子", "month": "卯"}, [5]),
    ("世身動", "777779", {"day": "甲子", "month": "卯"}, []),
    ("世身衝", "777777", {"day": "甲寅", "month": "卯"}, [5]),  # a 寅 day clashes 申
    ("世身衝", "777777", {"day": "甲子", "month": "卯"}, []),
    # no harm while the world line (戌 土) is 旺 or 相 (§9.4 commentary): 相 in a 午 month,
    # 旺 in a 辰 month
    ("世身空", "777777", {"day": "甲戌", "month": "午"}, []),
    ("世身衝", "777777", {"day": "甲寅", "month": "辰"}, []),
    ("世身動", "777797", {"day": "甲子", "month": "未"}, []),
    # the between lines (§10.2, §10.4): 乾's lines 4 (午 官鬼) and 5 (申 兄弟)
    ("間動", "777977", {"day": "甲子", "month": "寅"}, [4]),
    ("間動", "777977", {"day": "甲子", "month": "寅", "matter": "office"}, [4]),
    ("間動", "977777", {"day": "甲子", "month": "寅"}, []),
    # in a lawsuit the between line is the witness (§10.3, question_between), not an obstacle
    ("間動", "777977", {"day": "甲子", "month": "寅", "matter": "lawsuit"}, []),
    # 乾 on a 甲子 day in the 寅 month: 午 (line 4) 相, 申 (line 5) broken by the month
    ("間生助", "777777", {"day": "甲子", "month": "寅", "matter": "lawsuit"}, [4]),
    ("間生助", "777777", {"day": "甲子", "month": "寅"}, []),
    ("間空破", "777777", {"day": "甲子", "month": "寅", "matter": "lawsuit"}, [5]),
    ("間空破", "777777", {"day": "甲子", "month": "寅", "matter": "wealth"}, []),
    ("間鬼", "777777", {"day": "甲子", "month": "寅"}, [4]),
    ("間鬼", "888888", {"day": "甲子", "month": "寅"}, []),  # 坤's between: 兄弟 妻財
    # the world moving alone (§8.7)
    ("獨發", "777779", {"day": "甲子", "month": "寅"}, [6]),
    ("獨發", "777799", {"day": "甲子", "month": "寅"}, []),  # line 5 moves too
    ("獨發", "977777", {"day": "甲子", "month": "寅"}, []),  # the world is still
    # 三合 around a void world (§8.14): 乾's world 戌 (void on a 丙寅 day) needs 寅 and 午
    # from the day, the month or the moving lines
    ("三合生有", "777777", {"day": "丙寅", "month": "午"}, [6]),  # the day and the month
    ("三合生有", "777977", {"day": "丙寅", "month": "子"}, [6]),  # the day and line 4's 午
    ("三合生有", "777777", {"day": "丙寅", "month": "子"}, []),  # 午 missing
    # 咸's world 申 (void on a 甲戌 day) needs 子 and 辰: 辰 the month, 子 only a changed line's
    ("三合生有", "667778", {"day": "甲戌", "month": "辰"}, []),
    # 三刑 around a moving world (§8.14): 乾's world 戌 changes into 未, the month gives 丑
    ("三刑自敝", "777779", {"day": "甲子", "month": "丑"}, [6]),
    ("三刑自敝", "777779", {"day": "甲子", "month": "寅"}, []),  # 丑 missing
    # 遯's world 午 moves: its 自刑 needs 午 again, here only a moving line's, not a changed one's
    ("三刑自敝", "667777", {"day": "甲子", "month": "子"}, []),
    # 重 and 交 (§10.5 with §2.3): the moving values, not every yang or yin line
    ("重現", "797979", {"day": "甲子", "month": "寅"}, [2, 4, 6]),
    ("重現", "777777", {"day": "甲子", "month": "寅"}, []),
    ("交隱", "686868", {"day": "甲子", "month": "寅"}, [1, 3, 5]),
    ("交隱", "888888", {"day": "甲子", "month": "寅"}, []),
]


@pytest.mark.parametrize(
    ("sign", "lines", "moment", "where"),
    EXAMPLES,
    ids=[f"{s}-{lines}-{''.join(m.values())}" for s, lines, m, _ in EXAMPLES],
)
def test_required_sign(
    engine: Engine, sign: str, lines: str, moment: dict[str, str], where: list[int | None]
) -> None:
    assert positions(signs_of(engine, lines, **moment), sign) == where


def test_every_required_sign_has_an_example_and_a_case_where_it_does_not_fire() -> None:
    required = (
        "世空 世破 世動 世衝 世化進神 世化退神 應空 應破 世克應 應克世 世生應 應生世 卦身缺 卦身重 "
        "卦身空 卦身破 卦身動 卦身衝 卦身衝亡 世身空 世身破 世身動 世身衝 間動 間鬼 獨發 重現 交隱"
    ).split()
    for name in required:
        cases = [where for sign, _, _, where in EXAMPLES if sign == name]
        assert any(cases) and [] in cases, name


# --- whole readings, every sign written out ----------------------------------------------


def test_qian_on_a_jiazi_day(engine: Engine) -> None:
    """乾 still on a 甲子 day (戌亥 void, 子 clashes 午) in the 寅 month (申 broken; 木 旺).
    Day spirits from line 1: 青龍 朱雀 勾陳 騰蛇 白虎 玄武."""
    assert signs_of(engine, "777777", day="甲子", month="寅") == sorted(
        [
            ("世空", 6),  # 戌 void
            ("世身破", 5),  # the 世身 申 broken by the 寅 month
            ("卦身缺", None),  # 巳 on no line
            ("吉神助", 1),  # 青龍 (吉) on 子 水, helped by the 子 day
            ("凶神制", 4),  # 騰蛇 (凶) on 午 火, controlled by the 子 day's 水
            ("暗動", 4),  # 午 still, clashed by the 子 day, 相 in the 寅 month
            ("間鬼", 4),  # a between line holding 官鬼
            ("凶神化", 5),  # 白虎 (凶) on 申 金, drained by the 子 day (金 generates 水)
            ("旦中", 5),  # 氐, the dawn mansion of the 寅 month (the dusk mansion of 申)
            ("凶神空", 6),  # 玄武 (凶) on the void 戌
            ("凶神制", 6),  # 玄武's 戌 土 is 死 in the 寅 month
            ("土制玄武", 6),  # 玄武 on an earth line
        ],
        key=lambda r: (r[0], r[1] or 0),
    )


def test_jiji_changing_to_sui(engine: Engine) -> None:
    """既濟之隨 (789678) on a 戊申 day (寅卯 void) in the 亥 month, 丁巳 hour: the chart of
    docs/signs.md. Lines 卯丑亥申戌子; world 3 亥 moves to 辰, line 4 申 to 亥; day spirits
    from line 1: 勾陳 騰蛇 白虎 玄武 青龍 朱雀."""
    assert signs_of(engine, "789678", pillars="丙午,己亥,戊申,丁巳") == sorted(
        [
            ("世動", 3),
            ("三刑自敝", 3),  # 亥 punishes itself: a changed line (4) turns into 亥 again
            ("卦身缺", None),  # 寅 on no line
            ("吉神生", 1),  # 勾陳 on 卯 木, 相 in the 亥 month
            ("凶神化", 2),  # 騰蛇 on 丑 土, drained by the 申 day
            ("重現", 3),
            ("兄動生子", 3),  # the moving 兄弟 (§6.5, §6.6)
            ("兄動克財", 3),
            ("交隱", 4),
            ("父動生兄", 4),
            ("父動克子", 4),
            ("凶神化", 4),  # 玄武 on 申 金, 休 in the 亥 month
            ("間動", 4),  # between lines 4 and 5: an obstacle (no lawsuit asked about)
            ("間鬼", 5),  # 戌 官鬼
            ("水制朱雀", 6),  # 朱雀 on 子 水
        ],
        key=lambda r: (r[0], r[1] or 0),
    )


def test_a_matter_adds_the_signs_of_the_bodies(engine: Engine) -> None:
    """The same cast on a 戊戌 day (辰巳 void) in the 寅 month (申 broken), asking about
    wealth (§9.5). The 世身 line 6 holds 子 兄弟: feared for wealth, and 地財 (the 戊 day's
    土 controls 水): wanted. Without the matter neither body sign fires."""
    with_matter = signs_of(engine, "789678", pillars="甲辰,丙寅,戊戌,庚申", matter="wealth")
    assert [s for s in with_matter if s[0].startswith("世身")] == [("世身得喜", 6), ("世身逢忌", 6)]
    without = signs_of(engine, "789678", pillars="甲辰,丙寅,戊戌,庚申")
    # the matter implies its subject (妻財, docs/use.md): the signs of its 用神 join too
    of_use = ("用神", "伏神", "原神", "忌神")
    use_signs = {name for name, _ in with_matter if name.startswith(of_use)}
    added = sorted(s for s in set(with_matter) - set(without) if s[0] not in use_signs)
    assert added == [("世身得喜", 6), ("世身逢忌", 6)]
    assert without == sorted(
        [
            ("世動", 3),
            ("三刑自敝", 3),
            ("卦身缺", None),
            ("吉神助", 1),  # 勾陳 on 卯, 旺 in the 寅 month
            ("凶神制", 2),  # 騰蛇 on 丑, 死 in the 寅 month
            ("凶神制", 3),  # 白虎 on 亥 水, controlled by the 戌 day
            ("凶神化", 3),  # and 休 in the 寅 month
            ("重現", 3),
            ("兄動生子", 3),
            ("兄動克財", 3),
            ("交隱", 4),
            ("父動生兄", 4),
            ("父動克子", 4),
            ("間動", 4),
            ("吉神助", 5),  # 青龍 on 戌, helped by the 戌 day
            ("間鬼", 5),
            ("凶神制", 6),  # 朱雀 on 子 水, controlled by the 戌 day
            ("凶神化", 6),
            ("水制朱雀", 6),
        ],
        key=lambda r: (r[0], r[1] or 0),
    )


def test_a_worry_is_relieved_by_a_void_body(engine: Engine) -> None:
    """坤 (888888): 卦身 亥 on line 5, 世身 line 4 (丑). On a 甲子 day 戌亥 are void: the 卦身
    line is void, a relief when the matter is a worry (§9.5) and no sign otherwise."""
    assert positions(
        signs_of(engine, "888888", day="甲子", month="寅", matter="worry"), "卦身空安"
    ) == [5]
    assert (
        positions(signs_of(engine, "888888", day="甲子", month="寅", matter="office"), "卦身空安")
        == []
    )
    assert (
        positions(signs_of(engine, "888888", day="甲子", month="寅", matter="worry"), "世身空安")
        == []
    )


def test_what_the_matter_wants_counts_only_on_a_sound_body(engine: Engine) -> None:
    """§9.5 先宜無病: 既濟之隨 asking about wealth on a 戊午 day in the 寅 month. The 世身
    line 6 holds 子 兄弟, 地財 on a 戊 day (wanted) and 兄弟 (feared), as on the 戊戌 day
    above; but the 午 day clashes 子 and its decade (甲寅) voids it: the body is not sound,
    so only the fear is read (the world 亥 is 休 in the 寅 month: 空 and 衝 harm)."""
    found = signs_of(engine, "789678", day="戊午", month="寅", matter="wealth")
    assert [s for s in found if s[0].startswith("世身")] == [
        ("世身空", 6),
        ("世身衝", 6),
        ("世身逢忌", 6),
    ]
    # the 卦身 likewise: 坤's 卦身 亥 on line 5 holds 子孫 (wanted for wealth) — sound on a
    # 甲寅 day (子丑 void), void on a 甲子 day (戌亥 void)
    sound = signs_of(engine, "888888", day="甲寅", month="寅", matter="wealth")
    void = signs_of(engine, "888888", day="甲子", month="寅", matter="wealth")
    assert positions(sound, "卦身得喜") == [5]
    assert positions(void, "卦身得喜") == []
