"""The moment of a reading: year and month pillars from the exact solar term (spec §12), and
pillars given directly (:func:`yimao_db.readings.make_moment`).

:func:`yimao_db.moment.moment_at` takes the year and month from the solar term in force at
the instant instead of tyme4py's ``get_sixty_cycle_hour()`` (which also builds the lunar
calendar, three times slower); these tests hold the two equal.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tyme4py.solar import SolarTerm, SolarTime

from yimao_db.errors import UsageError
from yimao_db.moment import moment_at
from yimao_db.readings import make_moment

BEIJING = timezone(timedelta(hours=8))
JIE = {1: "丑", 3: "寅", 5: "卯", 7: "辰", 9: "巳", 11: "午"}  # tyme4py term index → month
JIE.update({13: "未", 15: "申", 17: "酉", 19: "戌", 21: "亥", 23: "子"})


def tyme_pillars(when: datetime) -> tuple[str, str]:
    """Year and month by tyme4py's own pillar computation, for a +08:00 wall clock."""
    t = SolarTime.from_ymd_hms(
        when.year, when.month, when.day, when.hour, when.minute, when.second
    ).get_sixty_cycle_hour()
    return t.get_year().get_name(), t.get_month().get_name()


def term_instant(year: int, index: int) -> datetime:
    t = SolarTerm.from_index(year, index).get_julian_day().get_solar_time()
    return datetime(
        t.get_year(), t.get_month(), t.get_day(), t.get_hour(), t.get_minute(), t.get_second()
    )


@settings(max_examples=150, deadline=None, database=None)
@given(st.datetimes(min_value=datetime(1700, 1, 1), max_value=datetime(2300, 12, 31)))
def test_year_and_month_agree_with_tyme4py(when: datetime) -> None:
    when = when.replace(microsecond=0)
    m = moment_at(when.replace(tzinfo=BEIJING))
    assert (m.year_gz, m.month_gz) == tyme_pillars(when)
    assert m.month_branch == m.month_gz[1]  # type: ignore[index]


@pytest.mark.parametrize("year", [1901, 1949, 1988, 2024, 2025, 2026, 2100])
def test_every_jie_changes_the_month_to_the_second(year: int) -> None:
    """At each 節 the month changes, at 立春 the year; one second before, neither has."""
    for index, branch in JIE.items():
        instant = term_instant(year, index)
        before = moment_at((instant - timedelta(seconds=1)).replace(tzinfo=BEIJING))
        after = moment_at(instant.replace(tzinfo=BEIJING))
        assert after.month_branch == branch
        assert before.month_branch != branch
        assert (after.year_gz, after.month_gz) == tyme_pillars(instant)
        assert (before.year_gz, before.month_gz) == tyme_pillars(instant - timedelta(seconds=1))
        assert (before.year_gz == after.year_gz) == (index != 3)


def test_lichun_2024() -> None:
    """Issue 3 §6: 2024-02-04 16:00 +08:00 is still 癸卯 year 乙丑 month; 17:00 is 甲辰 丙寅."""
    m = moment_at("2024-02-04T16:00+08:00")
    assert (m.year_gz, m.month_gz, m.solar_term) == ("癸卯", "乙丑", "大寒")
    m = moment_at("2024-02-04T17:00+08:00")
    assert (m.year_gz, m.month_gz, m.solar_term) == ("甲辰", "丙寅", "立春")


def test_the_zone_clock_gives_day_and_hour() -> None:
    """Year/month/term from the instant; day and hour from the zone's standard-time clock."""
    london = moment_at("2024-02-04T08:00", "Europe/London")  # 16:00 in Beijing: before 立春
    assert (london.year_gz, london.month_gz) == ("癸卯", "乙丑")
    assert london.hour_gz is not None and london.hour_gz[1] == "辰"  # 08:00 on the London clock
    later = moment_at("2024-02-04T09:00", "Europe/London")  # 17:00 in Beijing: after 立春
    assert (later.year_gz, later.month_gz) == ("甲辰", "丙寅")
    summer = moment_at("2024-07-01T12:30", "Europe/London")  # BST: standard clock 11:30 → 午
    assert summer.hour_gz is not None and summer.hour_gz[1] == "午"
    assert summer.cast_at == "2024-07-01T12:30:00+01:00"


# --- pillars given directly ------------------------------------------------------------


def test_make_moment_forms() -> None:
    m = make_moment(month="寅", day="甲子")
    assert (m.year_gz, m.month_gz, m.month_branch, m.day_gz, m.hour_gz) == (
        None,
        None,
        "寅",
        "甲子",
        None,
    )
    m = make_moment(year="甲辰", month="丙寅", day="戊戌", hour="庚申")
    assert (m.year_gz, m.month_gz, m.month_branch, m.day_gz, m.hour_gz) == (
        "甲辰",
        "丙寅",
        "寅",
        "戊戌",
        "庚申",
    )
    assert make_moment(pillars="甲辰,丙寅,戊戌,庚申") == m
    assert m.cast_at is None and m.half_year is None and m.void_branches == "辰巳"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"month": "寅"}, "need at least the day"),
        ({"month": "甲子丑", "day": "甲子"}, "bad month pillar '甲子丑'"),
        ({"month": "甲", "day": "甲子"}, "bad month branch '甲'"),
        ({"month": "寅", "day": "甲子", "hour": "甲寅"}, "the 寅 hour of a 甲 day is 丙寅"),
        ({"pillars": "甲辰,戊寅,戊戌"}, "the 寅 month of a 甲 year is 丙寅"),
        ({"pillars": "甲辰,丙寅,戊戌,甲申"}, "the 申 hour of a 戊 day is 庚申"),
        ({"pillars": "甲辰,丙寅", "day": "甲子"}, "give either --pillars"),
        ({"month": "寅", "day": "甲子", "tz": "Asia/Tokyo"}, "--tz and --early-rat"),
        ({"pillars": "甲辰,丙寅,戊戌", "early_rat": True}, "--tz and --early-rat"),
        ({"at": "2026-02-30"}, "bad date"),
        ({"at": "2026-11-30", "tz": "Nowhere/City"}, "unknown time zone"),
    ],
)
def test_make_moment_refuses(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        make_moment(**kwargs)  # type: ignore[arg-type]
