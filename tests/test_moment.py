"""Pillars of a moment (spec §12, §1 旬空, §7 五子遁)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tyme4py.solar import SolarTerm, SolarTime

from yimao_db.errors import UsageError
from yimao_db.moment import (
    SOLAR_TERMS,
    Moment,
    moment_at,
    moment_from_pillars,
    parse_pillars,
)
from yimao_db.rules.ganzhi import ganzhi

BEIJING = timezone(timedelta(hours=8))
JIE_BRANCH = {  # the twelve 節 and the month branch each one opens (§12)
    "小寒": "丑",
    "立春": "寅",
    "驚蟄": "卯",
    "清明": "辰",
    "立夏": "巳",
    "芒種": "午",
    "小暑": "未",
    "立秋": "申",
    "白露": "酉",
    "寒露": "戌",
    "立冬": "亥",
    "大雪": "子",
}


def pillars(m: Moment) -> tuple[str | None, ...]:
    return (m.year_gz, m.month_gz, m.day_gz, m.hour_gz)


def term_instant(year: int, index: int) -> datetime:
    """tyme4py's exact instant of a solar term, as an aware +08:00 datetime."""
    t = SolarTerm.from_index(year, index).get_julian_day().get_solar_time()
    return datetime(
        t.get_year(),
        t.get_month(),
        t.get_day(),
        t.get_hour(),
        t.get_minute(),
        t.get_second(),
        tzinfo=BEIJING,
    )


def expected_day(d: date) -> str:
    """Day pillar by counting from the anchor 2000-01-01 = 戊午 (ordinal 55)."""
    return ganzhi((55 - 1 + (d - date(2000, 1, 1)).days) % 60 + 1).name


# --- anchors and the worked examples of the brief -------------------------------------


def test_anchor_days() -> None:
    assert moment_at("2000-01-01T12:00").day_gz == "戊午"
    assert moment_at("1949-10-01").day_gz == "甲子"


def test_2026_11_30_against_tyme4py() -> None:
    m = moment_at("2026-11-30T09:15", "Asia/Shanghai")
    hour = SolarTime.from_ymd_hms(2026, 11, 30, 9, 15, 0).get_sixty_cycle_hour()
    print("2026-11-30T09:15 Asia/Shanghai:", m)
    assert (m.day_gz, m.hour_gz) == (hour.get_day().get_name(), hour.get_sixty_cycle().get_name())
    assert pillars(m) == ("丙午", "己亥", "戊申", "丁巳")
    assert m.month_branch == "亥"
    assert (m.solar_term, m.half_year, m.void_branches) == ("小雪", "夏至後", "寅卯")
    assert (m.cast_at, m.tz, m.early_rat) == ("2026-11-30T09:15:00+08:00", "Asia/Shanghai", False)


def test_lichun_2024_changes_year_and_month() -> None:
    before = moment_at("2024-02-04T16:00+08:00")
    after = moment_at("2024-02-04T17:00+08:00")
    assert (before.year_gz, before.month_gz, before.solar_term) == ("癸卯", "乙丑", "大寒")
    assert (after.year_gz, after.month_gz, after.solar_term) == ("甲辰", "丙寅", "立春")
    assert before.day_gz == after.day_gz == "戊戌"
    # tyme4py puts 立春 2024 at 16:27:07 Beijing time
    instant = term_instant(2024, 3)
    assert instant.strftime("%H:%M") == "16:27"
    assert moment_at(instant - timedelta(seconds=1)).year_gz == "癸卯"
    assert moment_at(instant).year_gz == "甲辰"


def test_late_rat_hour_default_and_early_rat() -> None:
    civil = moment_at("2024-02-04T23:30")
    early = moment_at("2024-02-04T23:30", early_rat=True)
    assert civil.day_gz == "戊戌" and early.day_gz == "己亥"
    assert civil.hour_gz is not None and early.hour_gz is not None
    assert civil.hour_gz[1] == early.hour_gz[1] == "子"
    # the stem follows the day in effect: 戊 day → 壬子, 己 day → 甲子 (五子遁)
    assert (civil.hour_gz, early.hour_gz) == ("壬子", "甲子")
    assert early.early_rat and not civil.early_rat
    # tyme4py's own convention is the early one
    tyme = SolarTime.from_ymd_hms(2024, 2, 4, 23, 30, 0).get_sixty_cycle_hour()
    assert (tyme.get_day().get_name(), tyme.get_sixty_cycle().get_name()) == ("己亥", "甲子")
    # 22:59 and 00:00 are unaffected by the option
    for when in ("2024-02-04T22:59", "2024-02-05T00:00"):
        assert moment_at(when) == replace(moment_at(when, early_rat=True), early_rat=False)
    assert moment_at("2024-02-05T00:00").hour_gz == "甲子"


def test_other_zone_converts_to_the_instant() -> None:
    m = moment_at("2024-02-04T09:00", "Europe/London")  # = 17:00 +08:00, after 立春
    assert (m.year_gz, m.month_gz) == ("甲辰", "丙寅")
    assert m.cast_at == "2024-02-04T09:00:00+00:00" and m.tz == "Europe/London"
    # day and hour read off London's own clock: 09:00 on a 戊戌 day → 巳 hour 丁巳
    assert (m.day_gz, m.hour_gz) == ("戊戌", "丁巳")
    assert moment_at("2024-02-04T08:00", "Europe/London").year_gz == "癸卯"  # 16:00 +08:00


def test_shanghai_summer_time_1988() -> None:
    m = moment_at("1988-07-01T12:00", "Asia/Shanghai")
    assert m.cast_at == "1988-07-01T12:00:00+09:00"
    assert m.hour_gz == "丙午"  # the +08:00 clock reads 11:00 → 午
    assert moment_at("1988-07-01T11:00+08:00") == m
    # 00:30 summer time is 23:30 of the previous day on the +08:00 clock
    assert moment_at("1988-07-01T00:30").day_gz == expected_day(date(1988, 6, 30))
    assert moment_at("1988-07-01T00:30").hour_gz is not None
    assert moment_at("1988-07-01T00:30", early_rat=True).day_gz == expected_day(date(1988, 7, 1))


def test_half_year() -> None:
    assert moment_at("2025-06-01T12:00").half_year == "冬至後"
    assert moment_at("2025-07-01T12:00").half_year == "夏至後"
    assert moment_at("2025-01-01T12:00").half_year == "冬至後"
    assert moment_at("2025-12-31T12:00").half_year == "冬至後"
    for index, before, after in ((12, "冬至後", "夏至後"), (24, "夏至後", "冬至後")):
        instant = term_instant(2025, index)
        assert moment_at(instant - timedelta(seconds=1)).half_year == before
        assert moment_at(instant).half_year == after


def test_void_branches() -> None:
    assert moment_at("1949-10-01T12:00").void_branches == "戌亥"
    assert moment_from_pillars(day="甲子", month_branch="寅").void_branches == "戌亥"
    assert moment_from_pillars(day="甲寅", month_branch="寅").void_branches == "子丑"
    assert moment_from_pillars(day="癸亥", month_branch="寅").void_branches == "子丑"


# --- the calendar over a whole year ---------------------------------------------------


def test_every_jie_of_2025_opens_its_month() -> None:
    for index in range(1, 24, 2):
        instant = term_instant(2025, index)
        before, after = moment_at(instant - timedelta(seconds=1)), moment_at(instant)
        assert after.solar_term in JIE_BRANCH
        assert after.month_branch == JIE_BRANCH[after.solar_term]
        assert before.month_branch != after.month_branch
        assert before.solar_term != after.solar_term


def test_term_names_are_traditional() -> None:
    assert set(SOLAR_TERMS) == set(SolarTerm.NAMES)
    assert len(set(SOLAR_TERMS.values())) == 24
    assert {SOLAR_TERMS[s] for s in ("惊蛰", "谷雨", "小满", "芒种", "处暑")} == {
        "驚蟄",
        "穀雨",
        "小滿",
        "芒種",
        "處暑",
    }
    assert moment_at("2025-03-10T12:00").solar_term == "驚蟄"
    assert moment_at("2025-04-25T12:00").solar_term == "穀雨"


@given(st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2100, 12, 31)))
def test_day_and_hour_agree_with_counting_and_tyme4py(when: datetime) -> None:
    when = when.replace(microsecond=0)
    m = moment_at(when.replace(tzinfo=BEIJING))
    assert m.day_gz == expected_day(when.date())
    tyme = SolarTime.from_ymd_hms(
        when.year, when.month, when.day, when.hour, when.minute, when.second
    ).get_sixty_cycle_hour()
    assert (m.year_gz, m.month_gz) == (tyme.get_year().get_name(), tyme.get_month().get_name())
    if when.hour != 23:
        assert (m.day_gz, m.hour_gz) == (
            tyme.get_day().get_name(),
            tyme.get_sixty_cycle().get_name(),
        )
    assert (
        moment_at(when.replace(tzinfo=BEIJING), early_rat=True).day_gz == tyme.get_day().get_name()
    )


# --- input forms ------------------------------------------------------------------------


def test_input_forms_agree() -> None:
    expected = moment_at("2026-11-30T09:15:00+08:00")
    assert moment_at(datetime(2026, 11, 30, 9, 15)) == expected
    with_seconds = replace(expected, cast_at="2026-11-30T09:15:30+08:00")
    assert moment_at(datetime(2026, 11, 30, 9, 15, 30, 500)) == with_seconds
    assert moment_at("2026-11-30T01:15:00Z") == expected
    assert moment_at(datetime(2026, 11, 30, 1, 15, tzinfo=UTC)) == expected
    assert moment_at(" 2026-11-30 09:15 ") == expected
    # an aware time in another offset is recorded in the civil time of tz
    assert moment_at("2026-11-30T10:15+09:00").cast_at == "2026-11-30T09:15:00+08:00"


def test_now() -> None:
    m = moment_at()
    assert m.cast_at is not None and m.tz == "Asia/Shanghai"
    now = datetime.fromisoformat(m.cast_at)
    assert abs(now - datetime.now(UTC)) < timedelta(minutes=1)


@pytest.mark.parametrize(
    "zone", ["Mars/Olympus", "", "America", "../etc/passwd", "/etc/localtime", "zone.tab", "a\0b"]
)
def test_bad_zone(zone: str) -> None:
    with pytest.raises(UsageError, match=r"time zone.*Asia/Shanghai"):
        moment_at("2026-11-30T09:15", zone)


@pytest.mark.parametrize("when", ["yesterday", "2026-13-01", "2026-11-31T09:15", ""])
def test_bad_date(when: str) -> None:
    with pytest.raises(UsageError, match="expected an ISO date-time like 2026-11-30T09:15"):
        moment_at(when)


@pytest.mark.parametrize("when", ["1500-06-01T12:00", "1582-10-20", "9999-06-01"])
def test_date_out_of_range(when: str) -> None:
    with pytest.raises(UsageError, match="1583-9998"):
        moment_at(when)


# --- pillars given directly -----------------------------------------------------------


def test_parse_pillars() -> None:
    m = parse_pillars("甲辰,丙寅,戊戌,庚申")
    assert pillars(m) == ("甲辰", "丙寅", "戊戌", "庚申")
    assert m.month_branch == "寅" and m.void_branches == "辰巳"
    assert (m.cast_at, m.tz, m.solar_term, m.half_year, m.early_rat) == (
        None,
        None,
        None,
        None,
        False,
    )
    assert parse_pillars(" 甲辰，丙寅  戊戌, 庚申 ") == m
    three = parse_pillars("甲辰 丙寅 戊戌")
    assert pillars(three) == ("甲辰", "丙寅", "戊戌", None)


@pytest.mark.parametrize("text", ["甲辰,丙寅", "甲辰,丙寅,戊戌,庚申,甲子", ""])
def test_parse_pillars_wrong_count(text: str) -> None:
    with pytest.raises(UsageError, match="expected year, month, day"):
        parse_pillars(text)


def test_moment_from_pillars() -> None:
    m = moment_from_pillars(day="甲子", month="丙寅", hour="丙寅", year="甲辰")
    assert pillars(m) == ("甲辰", "丙寅", "甲子", "丙寅")
    assert moment_from_pillars(day="甲子", month_branch="醜").month_branch == "丑"
    assert moment_from_pillars(day="乙醜", month="丁醜").day_gz == "乙丑"
    only_day = moment_from_pillars(day="甲子", month_branch="寅")
    assert (only_day.year_gz, only_day.month_gz, only_day.hour_gz) == (None, None, None)
    assert moment_from_pillars(day="甲子", month="丙寅", month_branch="寅").month_branch == "寅"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"day": "甲丑", "month_branch": "寅"}, "bad day pillar '甲丑'"),
        ({"day": "甲子", "month": "甲丑"}, "bad month pillar '甲丑'"),
        ({"day": "甲子", "month": "丙寅", "year": "X"}, "bad year pillar 'X'"),
        ({"day": "甲子", "month": "丙寅", "hour": "甲子丑"}, "bad hour pillar"),
        ({"day": "甲子", "month_branch": "甲"}, "bad month branch '甲'"),
        ({"day": "甲子", "month": "丙寅", "month_branch": "卯"}, "disagree"),
        ({"day": "甲子"}, "month is needed"),
    ],
)
def test_bad_pillars(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        moment_from_pillars(**kwargs)


def test_parse_pillars_rejects_bad_pillar() -> None:
    with pytest.raises(UsageError, match=r"甲丑.*one of the sixty"):
        parse_pillars("甲辰,丙寅,甲丑")
