"""Readings through the API and the three views (docs/rules.md chapters 2, 4, 7, 9, 11, 12).

Every reading is cast with :func:`yimao_db.readings.cast` into a fresh database and read back
with :func:`yimao_db.readings.chart` (which reads ``v_reading``, ``v_reading_line`` and
``v_reading_hidden``) or with SQL on the views. Backend-neutral: ``fresh_db`` is SQLite or
PostgreSQL as the environment chooses.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypedDict

import pytest
from helpers import counts
from sqlalchemy import Engine, text

from yimao_db.db import writer_engine
from yimao_db.errors import UsageError
from yimao_db.readings import Chart, ChartLine, cast, chart, recent

CYCLE = ("青龍", "朱雀", "勾陳", "騰蛇", "白虎", "玄武")


@pytest.fixture
def engine(fresh_db: str) -> Iterator[Engine]:
    eng = writer_engine(fresh_db)
    yield eng
    eng.dispose()


def lines_by(c: Chart, attr: str) -> list[Any]:
    return [getattr(line, attr) for line in c.lines]


def line_with_branch(c: Chart, branch: str) -> ChartLine:
    (line,) = [line for line in c.lines if line.branch == branch]
    return line


def cast_chart(engine: Engine, lines: str, **kwargs: Any) -> Chart:
    return chart(cast(lines, db=engine, **kwargs), db=engine)


# --- §7 spirits: the worked examples ------------------------------------------------------


def test_hour_spirit_jiazi_day_yin_hour(engine: Engine) -> None:
    """§7.2: 甲子 day, 寅 hour → 丙寅 by 五子遁 → line 1 朱雀, then the cycle upward."""
    c = cast_chart(engine, "乾", day="甲子", month="寅", hour="丙寅")
    assert c.hour_gz == "丙寅"
    assert lines_by(c, "hour_spirit") == ["朱雀", "勾陳", "騰蛇", "白虎", "玄武", "青龍"]
    assert lines_by(c, "spirit") == list(CYCLE)  # by the day stem 甲


def test_noble_generals_xinwei_day_chen_hour(engine: Engine) -> None:
    """§7.2: 辛未 day, 辰 hour (陽貴) → 貴人 on 寅, 青龍 on 未, 白虎 on 酉.

    澤天夬 has lines 子 寅 辰 亥 酉 未; the twelve generals run forward from 寅.
    """
    c = cast_chart(engine, "夬", day="辛未", month="寅", hour="壬辰")
    assert lines_by(c, "branch") == ["子", "寅", "辰", "亥", "酉", "未"]
    assert line_with_branch(c, "寅").noble_general == "貴人"
    assert line_with_branch(c, "未").noble_general == "青龍"
    assert line_with_branch(c, "酉").noble_general == "白虎"
    assert lines_by(c, "noble_general") == ["太陰", "貴人", "朱雀", "玄武", "白虎", "青龍"]


def test_no_hour_no_hour_spirit_or_noble(engine: Engine) -> None:
    c = cast_chart(engine, "夬", day="辛未", month="寅")
    assert c.hour_gz is None
    assert lines_by(c, "hour_spirit") == [None] * 6
    assert lines_by(c, "noble_general") == [None] * 6


def test_month_spirits_in_the_yin_month(engine: Engine) -> None:
    """§7.2 verse for 正月 (寅): 龍 寅, 虎 申, 勾陳 丑, 朱雀 巳, 玄武 亥, 騰蛇 辰."""
    qian = cast_chart(engine, "乾", day="甲子", month="寅")  # 子 寅 辰 午 申 戌
    kun = cast_chart(engine, "坤", day="甲子", month="寅")  # 未 巳 卯 丑 亥 酉
    found = {
        line.branch: line.month_spirit for c in (qian, kun) for line in c.lines if line.month_spirit
    }
    assert found == {
        "寅": "青龍",
        "申": "白虎",
        "丑": "勾陳",
        "巳": "朱雀",
        "亥": "玄武",
        "辰": "騰蛇",
    }
    assert {line.branch for line in qian.lines + kun.lines if line.month_spirit is None} == {
        "子",
        "午",
        "戌",
        "未",
        "卯",
        "酉",
    }


def test_two_month_spirits_share_a_branch(engine: Engine) -> None:
    """In the 卯 month 青龍 (forward from 子) and 騰蛇 (backward from 午) both stand on 卯."""
    c = cast_chart(engine, "坤", day="甲子", month="卯")
    assert line_with_branch(c, "卯").month_spirit == "青龍,騰蛇"
    assert line_with_branch(c, "酉").month_spirit == "白虎"


DAY_FIRST_SPIRIT = {
    "甲子": "青龍",
    "乙丑": "青龍",
    "丙寅": "朱雀",
    "丁卯": "朱雀",
    "戊辰": "勾陳",
    "己巳": "騰蛇",
    "庚午": "白虎",
    "辛未": "白虎",
    "壬申": "玄武",
    "癸酉": "玄武",
}


def test_day_stem_spirits(engine: Engine) -> None:
    """§7.2 司日: line 1 by the day stem (甲乙 青龍 … 壬癸 玄武), then the cycle upward."""
    for day, first in DAY_FIRST_SPIRIT.items():
        c = cast_chart(engine, "789678", day=day, month="寅")
        start = CYCLE.index(first)
        assert lines_by(c, "spirit") == [CYCLE[(start + k) % 6] for k in range(6)], day


# --- §11 hidden spirits, hexagram facts ------------------------------------------------------


def test_gou_hides_jiayin_wife_wealth_under_line_2(engine: Engine) -> None:
    """§11: 姤 lacks 妻財; 甲寅 妻財 of 乾為天 hides under line 2 (飛神 辛亥)."""
    rid = cast("姤", day="甲子", month="寅", db=engine)
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT position, relative, ganzhi, element, over_ganzhi, is_void, is_month_break,"
                " strength, stage FROM v_reading_hidden WHERE reading_id = :id"
            ),
            {"id": rid},
        ).all()
    assert [tuple(r) for r in rows] == [(2, "妻財", "甲寅", "木", "辛亥", 0, 0, "旺", "沐浴")]
    c = chart(rid, db=engine)
    assert {line.relative for line in c.lines} == {"父母", "子孫", "兄弟", "官鬼"}
    assert c.palace == "乾" and c.generation_name == "一世"


LIUCHONG = {"乾", "坤", "震", "巽", "坎", "離", "艮", "兌", "無妄", "大壯"}
LIUHE = {"否", "泰", "困", "節", "賁", "旅", "復", "豫"}


def test_liuchong_and_liuhe_hexagrams(engine: Engine) -> None:
    """§11: the 六衝 and 六合 hexagrams, read from v_reading for all 64."""
    for king_wen in range(1, 65):
        cast(str(king_wen), day="甲子", month="寅", db=engine)
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT primary_short_name, is_liuchong, is_liuhe FROM v_reading")
        ).all()
    assert len(rows) == 64
    assert {name for name, chong, _ in rows if chong == 1} == LIUCHONG
    assert {name for name, _, he in rows if he == 1} == LIUHE
    assert {chong for _, chong, _ in rows} == {0, 1} and {he for _, _, he in rows} == {0, 1}


def test_hexagram_facts_of_a_reading(engine: Engine) -> None:
    """789678 = 既濟之隨: 互卦 未濟, palace 坎 三世, 卦身 寅 (absent), 世身 line 6."""
    c = cast_chart(engine, "789678", day="戊申", month="亥")
    assert (c.primary_king_wen, c.primary_name, c.changed_king_wen, c.changed_name) == (
        63,
        "水火既濟",
        17,
        "澤雷隨",
    )
    assert (c.palace, c.generation_name, c.moving_lines) == ("坎", "三世", "3,4")
    assert (c.nuclear_king_wen, c.is_liuchong, c.is_liuhe) == (64, 0, 0)
    assert (c.gua_shen, c.gua_shen_positions, c.shi_shen_line) == ("寅", "", 6)
    assert lines_by(c, "is_world") == [0, 0, 1, 0, 0, 0]
    assert lines_by(c, "is_response") == [0, 0, 0, 0, 0, 1]
    assert lines_by(c, "is_between") == [0, 0, 0, 1, 1, 0]
    qian = cast_chart(engine, "乾", day="甲子", month="寅")
    assert (qian.gua_shen, qian.gua_shen_positions) == ("巳", "")  # §9.1: yang world on 6
    kun = cast_chart(engine, "坤", day="甲子", month="寅")
    assert (kun.gua_shen, kun.gua_shen_positions) == ("亥", "5")


def test_all_six_moving_has_a_name_for_qian_and_kun_only(engine: Engine) -> None:
    """用九: 乾 with all six lines 9; 用六: 坤 with all six 6. Five moving lines of 乾, or six
    moving lines of another hexagram (999666 = 泰 all moving), have no such name."""
    moment = {"day": "甲子", "month": "寅"}
    named = {v: cast_chart(engine, v, **moment).all_moving_name for v in ("999999", "666666")}
    assert named == {"999999": "用九", "666666": "用六"}
    for values in ("999997", "999666", "777777", "888888"):
        assert cast_chart(engine, values, **moment).all_moving_name is None, values


def test_gua_shen_positions_can_be_two(engine: Engine) -> None:
    """§9.3: the 卦身 may appear twice (two bodies): positions joined by ','."""
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT h.short_name, p.gua_shen_positions FROM v_hexagram_pattern p"
                " JOIN hexagram h ON h.king_wen = p.king_wen"
            )
        ).all()
    positions = {name: pos for name, pos in rows}
    assert any("," in pos for pos in positions.values())
    cast_name = next(name for name, pos in positions.items() if "," in pos)
    c = cast_chart(engine, cast_name, day="甲子", month="寅")
    assert c.gua_shen_positions == positions[cast_name]
    expected = [str(line.position) for line in c.lines if line.branch == c.gua_shen]
    assert c.gua_shen_positions == ",".join(expected) and len(expected) == 2


# --- against the moment: void, 月破, 日衝, strength, stage --------------------------------


def test_void_break_clash_strength_stage(engine: Engine) -> None:
    """乾 (子 寅 辰 午 申 戌) on a 甲子 day in the 寅 month.

    甲子旬 → 戌亥 void; 申 clashes the month 寅 (月破); 午 clashes the day 子 (日衝);
    寅 month = 木 旺: 木 旺, 火 相, 水 休, 金 囚, 土 死; stages at 子: 水 and 土 帝旺,
    木 沐浴, 火 胎, 金 死.
    """
    c = cast_chart(engine, "乾", day="甲子", month="寅")
    assert c.void_branches == "戌亥" and c.month_branch == "寅"
    assert lines_by(c, "branch") == ["子", "寅", "辰", "午", "申", "戌"]
    assert lines_by(c, "is_void") == [0, 0, 0, 0, 0, 1]
    assert lines_by(c, "is_month_break") == [0, 0, 0, 0, 1, 0]
    assert lines_by(c, "is_day_clash") == [0, 0, 0, 1, 0, 0]
    assert lines_by(c, "strength") == ["休", "旺", "死", "相", "囚", "死"]
    assert lines_by(c, "stage") == ["帝旺", "沐浴", "帝旺", "胎", "死", "帝旺"]


def test_dusk_mansion(engine: Engine) -> None:
    """§8.12: a line whose mansion is the month's 昏中 mansion is marked."""
    with engine.connect() as conn:
        row = conn.execute(
            text(
                "SELECT l.king_wen, l.position, d.month_branch FROM hexagram_line l"
                " JOIN dusk_mansion d ON d.mansion = l.mansion ORDER BY l.king_wen, l.position"
            )
        ).first()
    assert row is not None
    king_wen, position, month = row
    c = cast_chart(engine, str(king_wen), day="甲子", month=month)
    assert [line.position for line in c.lines if line.is_dusk_mansion] == [position]


# --- transformations of moving lines ----------------------------------------------------


TRANSFORMS = [  # cast, day, month → the moving line, its change, relative, transform
    ("復:2", "甲子", "午", 2, ("庚寅", "丁卯"), "官鬼", "化進神"),  # 寅→卯
    ("乾:6", "甲子", "午", 6, ("壬戌", "丁未"), "父母", "化退神"),  # 戌→未
    ("乾:5", "甲子", "午", 5, ("壬申", "己未"), "父母", "回頭生"),  # 土 生 金
    ("乾:1", "甲子", "午", 1, ("甲子", "辛丑"), "父母", "回頭克"),  # 土 克 水
    ("屯:2", "甲辰", "午", 2, ("庚寅", "丁卯"), "子孫", "化進神,化空"),  # 甲辰旬 寅卯 void
    ("否:6", "甲子", "丑", 6, ("壬戌", "丁未"), "父母", "化退神,化破"),  # 未 clashes 丑
    ("未濟:6", "甲辰", "午", 6, ("己巳", "庚戌"), "子孫", "化墓"),  # 火 墓 戌
    ("剝:5", "甲子", "午", 5, ("丙子", "辛巳"), "官鬼", "化絕"),  # 水 絕 巳
    ("既濟:3", "戊申", "亥", 3, ("己亥", "庚辰"), "官鬼", "回頭克,化墓"),  # 水 墓 辰
]


def test_transforms(engine: Engine) -> None:
    """§11: each transformation of a moving line, with the day and month that produce it.

    (化進神 from 亥 to 子 cannot arise: no cast turns a 亥 line into 子 under the najia
    table; the four 進神 that do arise are 丑→辰, 寅→卯, 未→戌, 申→酉.)
    """
    for lines, day, month, position, change, relative, transform in TRANSFORMS:
        c = cast_chart(engine, lines, day=day, month=month)
        moving = [line for line in c.lines if line.is_moving]
        assert [line.position for line in moving] == [position], lines
        (line,) = moving
        assert (line.ganzhi, line.changed_ganzhi) == change, lines
        assert f"{line.changed_stem}{line.changed_branch}" == change[1]
        assert line.changed_relative == relative, lines
        assert line.transform == transform, lines


def test_advancing_and_retreating_pairs_that_arise(engine: Engine) -> None:
    """Every single moving line of every hexagram: the 進神/退神 pairs the views produce."""
    pairs: dict[str, set[tuple[str, str]]] = {"化進神": set(), "化退神": set()}
    for king_wen in range(1, 65):
        for position in range(1, 7):
            cast(f"{king_wen}:{position}", day="甲子", month="寅", db=engine)
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT branch, changed_branch, transform FROM v_reading_line WHERE is_moving = 1")
        ).all()
    assert len(rows) == 384
    for branch, changed, transform in rows:
        for name in pairs:
            if name in (transform or "").split(","):
                pairs[name].add((branch, changed))
    assert pairs["化進神"] == {("丑", "辰"), ("寅", "卯"), ("未", "戌"), ("申", "酉")}
    assert pairs["化退神"] == {("辰", "丑"), ("卯", "寅"), ("戌", "未"), ("酉", "申")}


def test_still_lines_have_no_change(engine: Engine) -> None:
    c = cast_chart(engine, "789678", day="戊申", month="亥")
    for line in c.lines:
        changed = (
            line.changed_stem,
            line.changed_branch,
            line.changed_ganzhi,
            line.changed_element,
            line.changed_relative,
            line.transform,
        )
        if line.is_moving:
            assert None not in changed[:5] and line.value in (6, 9)
        else:
            assert changed == (None,) * 6 and line.value in (7, 8)
    still = cast_chart(engine, "乾", day="甲子", month="寅")
    assert (still.changed_king_wen, still.changed_name, still.moving_lines) == (None, None, "")
    assert lines_by(still, "is_moving") == [0] * 6


def test_no_transform_is_null_on_a_moving_line_as_on_a_still_one(engine: Engine) -> None:
    """A moving line to which none of the eight applies has transform NULL, as a still line
    has: is_moving (and the changed line's own columns) tell the two apart."""
    c = cast_chart(engine, "乾:4", day="乙丑", month="子")  # 壬午 → 辛未
    (line,) = [line for line in c.lines if line.is_moving]
    assert (line.ganzhi, line.changed_ganzhi, line.transform) == ("壬午", "辛未", None)
    assert [line.transform for line in c.lines] == [None] * 6
    with engine.connect() as conn:
        (empty,) = conn.execute(
            text("SELECT COUNT(*) FROM line_transform WHERE transforms = ''")
        ).one()
        (none,) = conn.execute(
            text("SELECT COUNT(*) FROM line_transform WHERE transforms IS NULL")
        ).one()
    assert (empty, none) == (0, 62)  # of the 12 × 12 × 2 × 2 = 576 rows


def test_moving_lines_listed(engine: Engine) -> None:
    c = cast_chart(engine, "967896", day="甲子", month="寅")
    assert c.moving_lines == "1,2,5,6"
    c = cast_chart(engine, "乾:4,1", day="甲子", month="寅")
    assert c.moving_lines == "1,4"
    assert c.changed_name is not None


# --- 二老時遷: the seasonal najia (§4.3) -----------------------------------------------


def stems(c: Chart) -> str:
    return "".join(lines_by(c, "stem"))


def test_seasonal_najia_after_the_summer_solstice(engine: Engine) -> None:
    """After 夏至 乾 takes 壬 inside and 甲 outside, 坤 癸 and 乙; nothing else changes."""
    summer = "2026-08-01T10:00"
    c = cast_chart(engine, "乾", at=summer, najia="seasonal")
    assert c.half_year == "夏至後" and c.najia_variant == "seasonal"
    assert stems(c) == "壬壬壬甲甲甲"
    assert lines_by(c, "branch") == ["子", "寅", "辰", "午", "申", "戌"]
    assert stems(cast_chart(engine, "坤", at=summer, najia="seasonal")) == "癸癸癸乙乙乙"
    assert stems(cast_chart(engine, "泰", at=summer, najia="seasonal")) == "壬壬壬乙乙乙"
    assert stems(cast_chart(engine, "震", at=summer, najia="seasonal")) == "庚庚庚庚庚庚"
    # the hidden spirit comes from 乾為天 too: 甲寅 becomes 壬寅
    (hidden,) = cast_chart(engine, "姤", at=summer, najia="seasonal").hidden
    assert (hidden.position, hidden.relative, hidden.ganzhi) == (2, "妻財", "壬寅")
    # a changed line into 乾 follows the variant as well
    (moving,) = [
        line
        for line in cast_chart(engine, "姤:1", at=summer, najia="seasonal").lines
        if line.is_moving
    ]
    assert (moving.ganzhi, moving.changed_ganzhi) == ("辛丑", "壬子")


def test_fixed_najia_or_after_the_winter_solstice(engine: Engine) -> None:
    winter = "2026-01-10T10:00"
    summer = "2026-08-01T10:00"
    assert stems(cast_chart(engine, "乾", at=summer)) == "甲甲甲壬壬壬"  # fixed by default
    assert stems(cast_chart(engine, "乾", at=summer, najia="fixed")) == "甲甲甲壬壬壬"
    winter_chart = cast_chart(engine, "乾", at=winter, najia="seasonal")
    assert winter_chart.half_year == "冬至後" and stems(winter_chart) == "甲甲甲壬壬壬"
    assert stems(cast_chart(engine, "坤", at=winter, najia="seasonal")) == "乙乙乙癸癸癸"
    (hidden,) = cast_chart(engine, "姤", at=summer).hidden
    assert hidden.ganzhi == "甲寅"


def test_seasonal_najia_needs_a_date(engine: Engine) -> None:
    before = counts(engine)
    with pytest.raises(UsageError, match="seasonal najia needs the half-year"):
        cast("乾", day="甲子", month="寅", najia="seasonal", db=engine)
    with pytest.raises(UsageError, match="unknown najia variant"):
        cast("乾", at="2026-08-01T10:00", najia="summer", db=engine)
    assert counts(engine) == before


# --- the cast forms -----------------------------------------------------------------------


class When(TypedDict):
    at: str
    tz: str


SAME: When = {"at": "2026-11-30T09:15", "tz": "Asia/Shanghai"}


def chart_facts(c: Chart) -> dict[str, Any]:
    """Everything of a chart but what says how and when it was stored."""
    data = c.as_dict()
    for key in ("reading_id", "created_at", "method", "cast_input"):
        data.pop(key)
    return data


def test_every_cast_form_gives_the_same_chart(engine: Engine) -> None:
    charts = {
        "values": cast_chart(engine, "789678", **SAME),
        "coins": chart(cast(coins="1,2,3,0,1,2", db=engine, **SAME), db=engine),
        "notation": cast_chart(engine, "既濟之隨", **SAME),
        "lines after a colon": cast_chart(engine, "既濟:3,4", **SAME),
        "moving list": cast_chart(engine, "既濟", moving=[3, 4], **SAME),
        "moving text": cast_chart(engine, "水火既濟", moving="4,3", **SAME),
        "king wen": cast_chart(engine, "63:3,4", **SAME),
        "simplified notation": cast_chart(engine, "既济之随", **SAME),
    }
    reference = chart_facts(charts["values"])
    for form, c in charts.items():
        assert chart_facts(c) == reference, form
    assert reference["primary_name"] == "水火既濟" and reference["changed_name"] == "澤雷隨"
    assert [c.method for c in charts.values()] == [
        "values",
        "coins",
        "notation",
        "hexagram",
        "hexagram",
        "hexagram",
        "hexagram",
        "notation",
    ]
    assert charts["values"].cast_input == "789678"
    assert charts["notation"].cast_input == "既濟之隨"
    assert charts["moving list"].cast_input == "既濟:3,4"


def stored_lines(engine: Engine, reading_id: int) -> list[tuple[int, int, int | None]]:
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT position, value, coins FROM reading_line WHERE reading_id = :id"
                " ORDER BY position"
            ),
            {"id": reading_id},
        ).all()
    return [(int(p), int(v), None if c is None else int(c)) for p, v, c in rows]


def test_coins_are_recorded(engine: Engine) -> None:
    rid = cast(coins="2,1,3,0,2,2", db=engine, **SAME)
    assert stored_lines(engine, rid) == [
        (1, 8, 2),
        (2, 7, 1),
        (3, 9, 3),
        (4, 6, 0),
        (5, 8, 2),
        (6, 8, 2),
    ]
    c = chart(rid, db=engine)
    assert (c.method, c.cast_input, c.moving_lines) == ("coins", "2,1,3,0,2,2", "3,4")
    assert stored_lines(engine, cast("789678", db=engine, **SAME))[0] == (1, 7, None)


def test_random_cast_records_its_coins(engine: Engine) -> None:
    for _ in range(5):
        rid = cast(random=True, db=engine, **SAME)
        rows = stored_lines(engine, rid)
        assert [p for p, _, _ in rows] == [1, 2, 3, 4, 5, 6]
        assert all(coins is not None and 0 <= coins <= 3 for _, _, coins in rows)
        assert all(value == 6 + coins for _, value, coins in rows)  # type: ignore[operator]
        c = chart(rid, db=engine)
        assert (c.method, c.cast_input) == ("random", None)
        assert lines_by(c, "value") == [v for _, v, _ in rows]


def test_cast_at_now_by_default(engine: Engine) -> None:
    c = cast_chart(engine, "乾")
    assert c.cast_at is not None and c.tz == "Asia/Shanghai"
    assert c.solar_term is not None and c.half_year in ("冬至後", "夏至後")


def test_moment_is_stored(engine: Engine) -> None:
    c = cast_chart(engine, "乾", **SAME)
    assert (c.cast_at, c.tz, c.solar_term, c.half_year, c.early_rat) == (
        "2026-11-30T09:15:00+08:00",
        "Asia/Shanghai",
        "小雪",
        "夏至後",
        0,
    )
    assert (c.year_gz, c.month_gz, c.day_gz, c.hour_gz, c.void_branches) == (
        "丙午",
        "己亥",
        "戊申",
        "丁巳",
        "寅卯",
    )
    late = cast_chart(engine, "乾", at="2026-11-30T23:30")
    early = cast_chart(engine, "乾", at="2026-11-30T23:30", early_rat=True)
    assert (late.day_gz, late.hour_gz, late.early_rat) == ("戊申", "壬子", 0)
    assert (early.day_gz, early.hour_gz, early.early_rat) == ("己酉", "甲子", 1)
    pillars = cast_chart(engine, "乾", pillars="甲辰,丙寅,戊戌,庚申")
    assert (pillars.year_gz, pillars.month_gz, pillars.day_gz, pillars.hour_gz) == (
        "甲辰",
        "丙寅",
        "戊戌",
        "庚申",
    )
    assert (pillars.cast_at, pillars.tz, pillars.solar_term, pillars.half_year) == (None,) * 4


def test_calendar_anchors_through_stored_readings(engine: Engine) -> None:
    """Anchors: 2000-01-01 戊午; 1949-10-01 甲子; 立春 2024 falls between 16:00 and 17:00."""
    assert cast_chart(engine, "乾", at="2000-01-01T12:00").day_gz == "戊午"
    assert cast_chart(engine, "乾", at="1949-10-01T12:00").day_gz == "甲子"
    before = cast_chart(engine, "乾", at="2024-02-04T16:00+08:00")
    after = cast_chart(engine, "乾", at="2024-02-04T17:00+08:00")
    assert (before.year_gz, before.month_gz, before.month_branch) == ("癸卯", "乙丑", "丑")
    assert (after.year_gz, after.month_gz, after.month_branch) == ("甲辰", "丙寅", "寅")


# --- the question -------------------------------------------------------------------------

QUESTIONS = [
    "He said \"it's\" 'fine'",
    "'); DROP TABLE reading; --",
    "SELECT * FROM reading WHERE 1=1; /* */ %s :id ?",
    "問事業 🀄️🧧 🇨🇳 e\u0301 ‮rtl",
    "  leading and trailing spaces \t\n second line\r\n",
    "易" * 20_000 + "x" * 40_000,  # 100 KB of UTF-8
]


def test_question_round_trips_verbatim(engine: Engine) -> None:
    for question in QUESTIONS:
        rid = cast("乾", question=question, db=engine, **SAME)
        assert chart(rid, db=engine).question == question
        with engine.connect() as conn:
            stored = conn.execute(
                text("SELECT question FROM reading WHERE id = :id"), {"id": rid}
            ).scalar_one()
        assert stored == question
        assert stored.encode("utf-8") == question.encode("utf-8")
    assert len(QUESTIONS[-1].encode("utf-8")) == 100_000


def test_question_a_database_cannot_store_is_refused(engine: Engine) -> None:
    for question in ["a\x00b", "lone \ud800 surrogate"]:
        before = counts(engine)
        with pytest.raises(UsageError, match="question"):
            cast("乾", question=question, db=engine, **SAME)
        assert counts(engine) == before


# --- bad input writes nothing ---------------------------------------------------------------


BAD_CASTS: list[tuple[tuple[str, ...], dict[str, Any], str]] = [
    (("78967",), {}, "bad line values '78967'"),
    (("7896789",), {}, "bad line values"),
    (("789675",), {}, "bad line values"),
    ((), {"coins": "2,1,3,0,2"}, "bad coins"),
    ((), {"coins": "2,1,4,0,2,2"}, "bad coins"),
    (("不存在",), {}, "unknown hexagram '不存在'"),
    (("乾之不存在",), {}, "unknown hexagram '不存在'"),
    (("乾:7",), {}, "bad moving lines"),
    (("789678",), {"moving": [1]}, "moving lines go with a hexagram"),
    ((), {"random": True, "moving": [1]}, "moving lines go with a hexagram"),
    ((), {}, "give exactly one of"),
    (("乾",), {"at": "2026-13-01"}, "bad date"),
    (("乾",), {"at": "2026-11-30T09:15", "tz": "Mars/Olympus"}, "unknown time zone"),
    (("乾",), {"pillars": "甲辰,丙寅,甲丑"}, "one of the sixty"),
    (("乾",), {"day": "甲子"}, "month is needed"),
    (("乾",), {"day": "甲子", "month": "寅", "hour": "甲寅"}, "五子遁"),
    (("乾",), {"pillars": "甲辰,戊寅,戊戌"}, "五虎遁"),
    (("乾",), {"day": "甲子", "month": "寅", "at": "2026-11-30"}, "not both"),
    (("乾",), {"day": "甲子", "month": "寅", "early_rat": True}, "--early-rat"),
]


def test_bad_input_writes_nothing(engine: Engine) -> None:
    cast("乾", db=engine, **SAME)
    for args, kwargs, message in BAD_CASTS:
        with pytest.raises(UsageError, match=message):
            cast(*args, db=engine, **kwargs)
        assert counts(engine) == (1, 6), (args, kwargs)


def test_unknown_reading(engine: Engine) -> None:
    with pytest.raises(UsageError, match="no reading with id 99"):
        chart(99, db=engine)


# --- listing ----------------------------------------------------------------------------------


def test_recent_lists_newest_first(engine: Engine) -> None:
    ids = [cast(v, question=f"q{i}", db=engine, **SAME) for i, v in enumerate(["乾", "坤", "姤"])]
    columns, rows = recent(2, db=engine)
    assert columns[0] == "reading_id"
    assert [r[0] for r in rows] == ids[::-1][:2]
    assert rows[0][columns.index("primary_name")] == "天風姤"
    assert rows[0][columns.index("question")] == "q2"
    with pytest.raises(UsageError, match="--limit"):
        recent(0, db=engine)


def test_public_api(engine: Engine) -> None:
    """``yimao_db.cast`` and ``yimao_db.chart`` are the readings API."""
    import yimao_db

    reading_id = yimao_db.cast("乾之姤", day="甲子", month="寅", db=engine)
    assert yimao_db.chart(reading_id, db=engine) == chart(reading_id, db=engine)
    assert isinstance(reading_id, int)


def test_the_places_of_the_lines(engine: Engine) -> None:
    """§10.5: 乾's 世身 is line 5 (戌 world): 將來 on line 6, 已往 on line 4; 同人's 世身 is line 6
    (亥 world): 將來 wraps to line 1; the fixed places by position in every reading. No sign
    names them any more."""
    qian = cast_chart(engine, "777777", day="甲子", month="寅")
    assert lines_by(qian, "places") == [
        "地,右鄰,後鄰",
        "臣",
        "門戶",
        "已往,近彼,門戶,左鄰,前鄰",  # between: beside the response (3), §10.3 近彼
        "近我,君",  # beside the world (6)
        "將來,天",
    ]
    tongren = cast_chart(engine, "787777", day="甲子", month="寅")  # world 3, response 6
    assert lines_by(tongren, "places")[0] == "將來,地,右鄰,後鄰"
    assert lines_by(tongren, "places")[3] == "近我,門戶,左鄰,前鄰"
    assert lines_by(tongren, "places")[4] == "已往,近彼,君"
    assert not {s.sign for s in qian.signs + tongren.signs} & {"將來", "已往"}
