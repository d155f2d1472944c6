"""Pillars of a moment (docs/rules.md chapters 12, 1 旬空, 7 五子遁).

tyme4py is the oracle: the fast calendar of :mod:`yimao_db.calendar.moment` is compared with
tyme4py's own objects on a fixed sample of moments and on every 節 ± 1 minute, 1901-2099.
"""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from tyme4py.solar import SolarTerm, SolarTime

from yimao_db.calendar import solarterms, term_table, tymeoracle
from yimao_db.calendar.civiltime import parse_at, zone_names
from yimao_db.calendar.moment import (
    SOLAR_TERMS,
    Moment,
    moment_at,
    moment_from_pillars,
    moment_of,
    parse_pillars,
)
from yimao_db.errors import UsageError
from yimao_db.kb.rules.ganzhi import ganzhi

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
        assert moment_at(when) == moment_at(when, early_rat=True)._replace(early_rat=False)
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
@example(datetime(1900, 1, 1, 0, 55))  # local mean time in Shanghai until 1901
@example(datetime(1900, 12, 31, 23, 58))  # the last minutes of local mean time
@example(datetime(1901, 1, 1, 0, 2))
@example(datetime(1912, 11, 22, 23, 50))  # tyme4py's get_term() lags its 小雪 instant here
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
    early = moment_at(when.replace(tzinfo=BEIJING), early_rat=True)
    assert (early.day_gz, early.hour_gz) == (
        tyme.get_day().get_name(),
        tyme.get_sixty_cycle().get_name(),
    )


# --- local mean time: before a zone's first standard time ------------------------------------


def test_shanghai_before_1901_is_on_the_plus_eight_clock() -> None:
    """The tz database gives Shanghai local mean time (+08:05:43) before 1901; the +08:00
    clock is used instead, for day and hour and for the recorded time."""
    m = moment_at("1900-01-01T00:55+08:00")
    tyme = SolarTime.from_ymd_hms(1900, 1, 1, 0, 55, 0).get_sixty_cycle_hour()
    assert (m.day_gz, m.hour_gz) == (tyme.get_day().get_name(), tyme.get_sixty_cycle().get_name())
    assert (m.day_gz, m.hour_gz) == ("甲戌", "甲子")
    assert m.cast_at == "1900-01-01T00:55:00+08:00"
    assert moment_at("1900-01-01T00:55") == m  # a naive time there means the +08:00 clock
    assert moment_at(datetime(1900, 1, 1, 0, 55)) == m
    # an aware local-mean-time reading is an instant: 00:55 at +08:05:43 is 00:49:17 at +08:00
    lmt = moment_at("1900-01-01T00:55+08:05:43")
    assert lmt.cast_at == "1900-01-01T00:49:17+08:00" and lmt.hour_gz == "甲子"
    # the clock runs on through 1901 without a jump: no fold at the change
    assert moment_at("1901-01-01T00:02").cast_at == "1901-01-01T00:02:00+08:00"
    assert moment_at("1900-12-31T23:59").cast_at == "1900-12-31T23:59:00+08:00"


def test_new_york_before_standard_time() -> None:
    """New York kept local mean time (-04:56:02) until 1883-11-18: taken as -05:00 (EST)."""
    m = moment_at("1880-06-01T12:00", "America/New_York")
    assert m.cast_at == "1880-06-01T12:00:00-05:00"
    tyme = SolarTime.from_ymd_hms(1880, 6, 1, 12, 0, 0).get_sixty_cycle_hour()
    assert (m.day_gz, m.hour_gz) == (tyme.get_day().get_name(), tyme.get_sixty_cycle().get_name())
    assert (m.day_gz, m.hour_gz) == (expected_day(date(1880, 6, 1)), "甲午")
    # year and month: the instant is 1880-06-02T01:00 on the +08:00 clock
    tyme = SolarTime.from_ymd_hms(1880, 6, 2, 1, 0, 0).get_sixty_cycle_hour()
    assert (m.year_gz, m.month_gz) == (tyme.get_year().get_name(), tyme.get_month().get_name())
    assert moment_at("1880-06-01T12:03:58-04:56:02", "America/New_York").cast_at == (
        "1880-06-01T12:00:00-05:00"
    )
    # the 1883 change (LMT 12:03:58 → EST 12:00) is no longer a fold: each time is one instant
    for wall in ("1883-11-18T12:00", "1883-11-18T12:02", "1883-11-18T12:05"):
        assert moment_at(wall, "America/New_York").cast_at == wall + ":00-05:00"


@pytest.mark.parametrize(
    ("wall", "tz", "cast_at"),
    [
        ("1800-06-01T12:00", "Asia/Manila", "1800-06-01T12:00:00+08:00"),  # LMT -15:56:08
        ("1890-06-01T12:00", "Asia/Manila", "1890-06-01T12:00:00+08:00"),  # LMT +08:03:52
        ("1850-06-01T12:00", "Asia/Kolkata", "1850-06-01T12:00:00+05:53:20"),  # HMT
        ("1910-06-01T12:00", "Africa/Lagos", "1910-06-01T12:00:00+00:00"),  # LMT again
        ("1583-01-01T00:00", "Europe/Paris", "1583-01-01T00:00:00+00:09:21"),  # PMT
    ],
)
def test_local_mean_time_is_the_first_standard_offset(wall: str, tz: str, cast_at: str) -> None:
    m = moment_at(wall, tz)
    assert m.cast_at == cast_at and m.tz == tz
    assert m.hour_gz is not None and m.hour_gz[1] == ("子" if wall.endswith("00:00") else "午")


# --- the supported range ---------------------------------------------------------------------

RANGE = r"expected a time from 1583-01-01T00:00 to 9998-12-31T23:59:59 in "


@pytest.mark.parametrize(
    ("when", "tz", "cast_at"),
    [
        ("1583-01-01T00:00", "Asia/Shanghai", "1583-01-01T00:00:00+08:00"),
        ("9998-12-31T23:59:59", "Asia/Shanghai", "9998-12-31T23:59:59+08:00"),
        ("1583-01-01T00:00", "Etc/GMT-14", "1583-01-01T00:00:00+14:00"),
        ("1583-01-01T00:00+14:00", "Etc/GMT-14", "1583-01-01T00:00:00+14:00"),
        ("1583-01-01T00:00-11:00", "Pacific/Pago_Pago", "1583-01-01T00:00:00-11:00"),
        ("9998-12-31T23:59:59-11:00", "Pacific/Pago_Pago", "9998-12-31T23:59:59-11:00"),
        ("9998-12-31T23:59:59-12:00", "Etc/GMT+12", "9998-12-31T23:59:59-12:00"),
        ("1583-01-01T00:00-10:00", "Asia/Shanghai", "1583-01-01T18:00:00+08:00"),
    ],
)
def test_range_edges_accepted(when: str, tz: str, cast_at: str) -> None:
    m = moment_at(when, tz)
    assert m.cast_at == cast_at
    civil = parse_at(when, tz)
    assert m == tymeoracle.reference_moment(civil, False)
    assert moment_at(when, tz, early_rat=True) == tymeoracle.reference_moment(civil, True)


@pytest.mark.parametrize(
    ("when", "tz"),
    [
        ("1582-12-31T23:59:59", "Asia/Shanghai"),
        ("9999-01-01T00:00", "Asia/Shanghai"),
        ("1582-12-31T23:59:59+14:00", "Etc/GMT-14"),
        ("1583-01-01T00:00+14:00", "Asia/Shanghai"),  # 1582-12-31T18:00 in Shanghai
        ("1583-01-01T00:00+14:00", "Pacific/Pago_Pago"),
        ("9999-01-01T00:00-11:00", "Pacific/Pago_Pago"),
        ("9998-12-31T23:59:59-12:00", "Asia/Shanghai"),  # 9999-01-01T19:59:59 in Shanghai
        ("9999-12-31T23:00-05:00", "America/New_York"),
        ("1500-06-01T12:00", "Asia/Shanghai"),
        ("1582-10-20", "Asia/Shanghai"),
        ("0001-01-01T00:00+01:00", "UTC"),
    ],
)
def test_range_edges_refused(when: str, tz: str) -> None:
    with pytest.raises(UsageError, match=f"^date {re.escape(when)} out of range: .*{RANGE}{tz}$"):
        moment_at(when, tz)


def test_range_message_says_where_the_time_falls() -> None:
    with pytest.raises(UsageError) as refused:
        moment_at("1583-01-01T00:00+14:00", "Asia/Shanghai")
    assert str(refused.value) == (
        "date 1583-01-01T00:00+14:00 out of range: in Asia/Shanghai that is"
        " 1582-12-31T18:00:00+08:00; expected a time from 1583-01-01T00:00 to"
        " 9998-12-31T23:59:59 in Asia/Shanghai"
    )


def test_range_edges_in_every_zone() -> None:
    """The first and last supported minute exist, or are refused as such, in every zone."""
    for tz in sorted(zone_names()):
        for wall in ("1583-01-01T00:00", "9998-12-31T23:59:59"):
            m = moment_at(wall, tz)
            assert m.cast_at is not None and m.cast_at.startswith(wall[:16]), (tz, m.cast_at)


# --- times that do not exist, or exist twice ---------------------------------------------------


def test_a_time_in_a_gap_is_refused() -> None:
    with pytest.raises(
        UsageError,
        match=r"^2026-03-08T02:30 does not exist in America/New_York: "
        r"clocks jumped from 02:00 to 03:00 \(-05:00 to -04:00\)$",
    ):
        moment_at("2026-03-08T02:30", "America/New_York")
    with pytest.raises(UsageError, match=r"^1988-04-17T02:30 does not exist in Asia/Shanghai"):
        moment_at("1988-04-17T02:30")
    # with an offset it is an instant, and recorded in the zone's time
    m = moment_at("2026-03-08T02:30-05:00", "America/New_York")
    assert m.cast_at == "2026-03-08T03:30:00-04:00"
    before = moment_at("2026-03-08T01:59:59", "America/New_York")
    after = moment_at("2026-03-08T03:00", "America/New_York")
    assert (before.cast_at, after.cast_at) == (
        "2026-03-08T01:59:59-05:00",
        "2026-03-08T03:00:00-04:00",
    )


def test_an_ambiguous_time_needs_an_offset() -> None:
    with pytest.raises(
        UsageError,
        match=r"^2026-11-01T01:30 is ambiguous in America/New_York: it happened twice, "
        r"at -04:00 and at -05:00; give the offset, e\.g\. 2026-11-01T01:30-04:00$",
    ):
        moment_at("2026-11-01T01:30", "America/New_York")
    with pytest.raises(UsageError, match=r"1988-09-11T01:30 is ambiguous in Asia/Shanghai"):
        moment_at("1988-09-11T01:30")
    summer = moment_at("2026-11-01T01:30-04:00", "America/New_York")
    winter = moment_at("2026-11-01T01:30-05:00", "America/New_York")
    assert (summer.cast_at, winter.cast_at) == (
        "2026-11-01T01:30:00-04:00",
        "2026-11-01T01:30:00-05:00",
    )
    # the standard clock reads 00:30 (子) in summer time and 01:30 (丑) after it
    assert summer.day_gz == winter.day_gz == expected_day(date(2026, 11, 1)) == "己卯"
    assert (summer.hour_gz, winter.hour_gz) == ("甲子", "乙丑")
    with pytest.raises(UsageError, match="is ambiguous"):
        moment_at(datetime(2026, 11, 1, 1, 30), "America/New_York")


def test_a_date_without_a_time_is_midnight_with_a_note() -> None:
    civil = parse_at("2026-11-30")
    assert civil.note == "no time given; taking 2026-11-30T00:00 Asia/Shanghai"
    assert moment_of(civil) == moment_at("2026-11-30T00:00") == moment_at("2026-11-30")
    assert parse_at("2026-11-30T00:00").note is None
    assert parse_at(datetime(2026, 11, 30)).note is None
    assert parse_at(" 20261130 ", "Europe/London").note == (
        "no time given; taking 2026-11-30T00:00 Europe/London"
    )


def test_a_date_whose_midnight_does_not_exist_starts_when_the_day_does() -> None:
    civil = parse_at("2018-11-04", "America/Sao_Paulo")  # clocks went 00:00 → 01:00
    assert civil.note == "no time given; taking 2018-11-04T01:00 America/Sao_Paulo"
    assert moment_of(civil).cast_at == "2018-11-04T01:00:00-02:00"
    with pytest.raises(UsageError, match="does not exist"):
        moment_at("2018-11-04T00:00", "America/Sao_Paulo")


# --- the fast calendar against tyme4py -----------------------------------------------------------


def test_fast_path_equals_tyme4py_on_random_moments() -> None:
    """0 differences from tyme4py's own objects on 1,000 random minutes in Asia/Shanghai,
    both day conventions; a fifth of them also against get_sixty_cycle_hour() itself."""
    for n, when in enumerate(tymeoracle.random_minutes(1000, seed=20261130)):
        civil = parse_at(when, "Asia/Shanghai")
        for early_rat in (False, True):
            assert moment_of(civil, early_rat) == tymeoracle.reference_moment(civil, early_rat)
        if n % 5 == 0:
            clock = when.astimezone(BEIJING)
            tyme = SolarTime.from_ymd_hms(
                clock.year, clock.month, clock.day, clock.hour, clock.minute, 0
            ).get_sixty_cycle_hour()
            m = moment_of(civil, early_rat=True)
            assert (m.year_gz, m.month_gz, m.day_gz, m.hour_gz) == (
                tyme.get_year().get_name(),
                tyme.get_month().get_name(),
                tyme.get_day().get_name(),
                tyme.get_sixty_cycle().get_name(),
            )


def test_fast_path_equals_tyme4py_around_every_jie() -> None:
    """Every 節 of 1901-2099, one minute before and one minute after its instant: the term,
    month and year as tyme4py's SolarTime.get_term() and SixtyCycleMonth give them."""
    moments = tymeoracle.jie_minutes(range(1901, 2100))
    assert len(moments) == 199 * 12 * 2
    assert moments[:2] == [
        term_instant(1901, 1) - timedelta(minutes=1),
        term_instant(1901, 1) + timedelta(minutes=1),
    ]
    for when in moments:
        civil = parse_at(when, "Asia/Shanghai")
        m = moment_of(civil)
        assert (m.solar_term, m.year_gz, m.month_gz) == tymeoracle.get_term_pillars(civil), when


def test_where_tyme4py_get_term_lags_its_own_instant() -> None:
    """tyme4py's SolarTime.get_term() starts a term no earlier than the midnight of the
    term's calendar day; in 1912 that day is the day after the instant of 小雪. The exact
    instant counts here (a 氣: only the term's name changes, not the month)."""
    instant = term_instant(1912, 22)
    assert instant.isoformat() == "1912-11-22T23:48:08+08:00"
    lagging = SolarTime.from_ymd_hms(1912, 11, 22, 23, 50, 0).get_term().get_name()
    assert lagging == "立冬"
    m = moment_at("1912-11-22T23:50+08:00")
    assert (m.solar_term, m.month_branch) == ("小雪", "亥")
    assert moment_at("1912-11-22T23:48:07+08:00").solar_term == "立冬"
    assert moment_at("1912-11-22T23:48:08+08:00").solar_term == "小雪"


def test_term_instants_are_tyme4py_s() -> None:
    assert solarterms.verify_terms(range(1901, 2100)) == []
    instants = solarterms.term_instants(2024)
    assert len(instants) == 24 and list(instants) == sorted(instants)
    assert solarterms.format_instant(instants[3]) == "2024-02-04T16:27:07+08:00"  # 立春
    assert solarterms.verify_terms([1583, 9999]) == []
    assert solarterms.verify_terms([1582, 10000]) == [
        "1582: outside the supported term years 1583-9999",
        "10000: outside the supported term years 1583-9999",
    ]


def test_verify_terms_reports_a_corrupt_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    good = solarterms.term_instants(2024)
    bad = (*good[:3], good[3] + 60, *good[4:])
    monkeypatch.setitem(solarterms._CACHE, 2024, bad)
    assert solarterms.verify_terms([2023, 2024]) == [
        "2024 立春: cached 2024-02-04T16:28:07+08:00, tyme4py 2024-02-04T16:27:07+08:00"
    ]


def test_the_shipped_term_table_is_tyme4py_s() -> None:
    """Every instant of the shipped table, 1901-2100, is the one tyme4py computes: the module
    is exactly what the generator writes from tyme4py now, and verify_table finds nothing."""
    shipped = Path(term_table.__file__).read_text(encoding="utf-8")
    assert solarterms.table_text() == shipped
    assert (term_table.FIRST_YEAR, term_table.LAST_YEAR) == (1901, 2100)
    assert len(term_table.INSTANTS) == 200
    assert solarterms.verify_table() == []
    assert tuple(solarterms.SOLAR_TERMS) == tuple(SolarTerm.NAMES)  # the table's order
    assert solarterms.TERM_NAMES[3] == "立春" and solarterms.TERM_NAMES[5] == "驚蟄"
    assert term_table.INSTANTS[2024 - 1901].split()[3] == "2024-02-04T16:27:07"


def test_moments_of_the_table_years_import_no_tyme4py() -> None:
    code = (
        "import sys\n"
        "from yimao_db.calendar.moment import moment_at\n"
        "for at in ('1901-01-01T00:00', '2026-11-30T09:15', '2099-12-31T23:59'):\n"
        "    moment_at(at)\n"
        "print(sorted(m for m in sys.modules if m.startswith('tyme4py')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "at",
    [
        "1900-12-22T14:41+08:00",  # the first 冬至 of the table, read from it
        "1900-12-22T14:42+08:00",
        "1900-12-21T12:00+08:00",  # term year 1900: asked of tyme4py
        "1850-06-01T12:00+08:00",
        "2100-12-21T12:00+08:00",  # term year 2100, the table's last
        "2100-12-24T12:00+08:00",  # term year 2101: asked of tyme4py
        "2150-02-04T12:00+08:00",
    ],
)
def test_moments_outside_the_table_are_tyme4py_s(at: str) -> None:
    civil = parse_at(at, "Asia/Shanghai")
    assert moment_of(civil) == tymeoracle.reference_moment(civil)


def test_verify_table_reports_a_changed_or_damaged_table(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = list(term_table.INSTANTS)
    i2024, i2025 = 2024 - 1901, 2025 - 1901
    lines[i2024] = lines[i2024].replace("2024-02-04T16:27:07", "2024-02-04T16:28:07")
    lines[i2025] = lines[i2025].rsplit(" ", 1)[0]  # 23 instants
    lines[0] = lines[0].replace("1901-01-06T07:53:23", "1901-01-06 07:53:23")
    monkeypatch.setattr(term_table, "INSTANTS", tuple(lines))
    monkeypatch.setattr(solarterms, "_CACHE", {})
    assert solarterms.verify_table() == [
        "the shipped term table is damaged at 1901: '1901-01-06' is not YYYY-MM-DDTHH:MM:SS",
        "2024 立春: cached 2024-02-04T16:28:07+08:00, tyme4py 2024-02-04T16:27:07+08:00",
        "the shipped term table is damaged at 2025: 23 instants, not 24",
    ]
    assert moment_at("2024-02-04T16:27:30+08:00").solar_term == "大寒"  # what the table says
    with pytest.raises(solarterms.TermTableError):
        moment_at("2025-06-01T12:00+08:00")


def test_hour_stem_comes_from_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hour stem is rules.spirits.hour_stem (五子遁), not a copy of it."""
    import yimao_db.calendar.moment as moment_module

    calls: list[tuple[str, str]] = []

    def spy(day_stem: str, branch: str) -> str:
        calls.append((day_stem, branch))
        return "甲"

    monkeypatch.setattr(moment_module, "hour_stem", spy)
    moment_module._hour_pillar.cache_clear()
    try:
        assert moment_at("2026-11-30T09:15").hour_gz == "甲巳"
        assert calls == [("戊", "巳")]
    finally:
        moment_module._hour_pillar.cache_clear()


# --- input forms ------------------------------------------------------------------------


def test_input_forms_agree() -> None:
    expected = moment_at("2026-11-30T09:15:00+08:00")
    assert moment_at(datetime(2026, 11, 30, 9, 15)) == expected
    with_seconds = expected._replace(
        cast_at="2026-11-30T09:15:30+08:00", cast_utc="2026-11-30T01:15:30Z"
    )
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


@pytest.mark.parametrize("zone", [["Asia/Shanghai"], {"tz": 1}, 8, None])
def test_a_zone_that_is_not_text(zone: object) -> None:
    """A JSON import row may give any value as tz: refused as a zone, before any look-up."""
    moment_at("2026-11-30T09:15", "Asia/Shanghai")  # the zone known from now on
    with pytest.raises(UsageError, match=r"unknown time zone .*expected an IANA name"):
        parse_at("2026-11-30T09:15", zone)  # type: ignore[arg-type]


@pytest.mark.parametrize("when", ["yesterday", "2026-13-01", "2026-11-31T09:15", ""])
def test_bad_date(when: str) -> None:
    with pytest.raises(UsageError, match="expected an ISO date-time like 2026-11-30T09:15"):
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
