"""The moment of a reading: year and month pillars from the exact solar term (docs/rules.md
chapter 12), and pillars given directly (:func:`yimao_db.readings.make_moment`).

:func:`yimao_db.calendar.moment.moment_at` takes the year and month from the solar term in force at
the instant instead of tyme4py's ``get_sixty_cycle_hour()`` (which also builds the lunar
calendar, three times slower); these tests hold the two equal.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from helpers import run
from hypothesis import example, given
from hypothesis import strategies as st
from sqlalchemy import text
from tyme4py.solar import SolarTerm, SolarTime

from yimao_db.calendar import tymeoracle
from yimao_db.calendar.civiltime import parse_at
from yimao_db.calendar.moment import moment_at
from yimao_db.db import reader_engine
from yimao_db.errors import UsageError
from yimao_db.importing import import_file
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


@given(st.datetimes(min_value=datetime(1901, 1, 1), max_value=datetime(2099, 12, 31)))
@example(datetime(1901, 2, 4, 12, 0))
@example(datetime(2099, 12, 31, 23, 59, 59))
def test_year_and_month_agree_with_tyme4py(when: datetime) -> None:
    when = when.replace(microsecond=0)
    m = moment_at(when.replace(tzinfo=BEIJING))
    assert (m.year_gz, m.month_gz) == tyme_pillars(when)
    assert m.month_branch == m.month_gz[1]  # type: ignore[index]


ZONES = ["Asia/Shanghai", "America/New_York", "Europe/London", "Pacific/Kiritimati", "UTC"]


@given(
    st.datetimes(min_value=datetime(1583, 1, 2), max_value=datetime(9998, 12, 30)),
    st.sampled_from(ZONES),
    st.booleans(),
)
@example(datetime(1583, 1, 1), "UTC", False)  # the first supported second in UTC
@example(datetime(1583, 1, 2), "Pacific/Kiritimati", False)  # 1583-01-01T13:20-10:40
@example(datetime(1700, 6, 1, 12), "America/New_York", True)  # local mean time
@example(datetime(1883, 11, 18, 16, 59, 59), "America/New_York", False)  # the last LMT second
@example(datetime(1883, 11, 18, 17), "America/New_York", False)  # the first EST second
@example(datetime(1900, 12, 31, 15, 54, 16), "Asia/Shanghai", True)  # the last LMT second
@example(datetime(9998, 12, 30, 23, 59), "Asia/Shanghai", True)
def test_any_moment_agrees_with_the_tyme4py_reference(
    when: datetime, tz: str, early_rat: bool
) -> None:
    """The fast path and tyme4py's objects agree on every supported year, in any zone."""
    civil = parse_at(when.replace(tzinfo=UTC), tz)
    assert moment_at(civil.cast_at, tz, early_rat) == tymeoracle.reference_moment(civil, early_rat)


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
    """2024-02-04 16:00 +08:00 is still 癸卯 year 乙丑 month; 17:00 is 甲辰 丙寅."""
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


# --- notes and refusals on the command line ---------------------------------------------------


def test_cast_a_date_without_a_time_notes_it(
    capsys: pytest.CaptureFixture[str], fresh_db: str
) -> None:
    code, out, err = run(capsys, "cast", "789678", "--at", "2026-11-30", "--db", fresh_db)
    assert code == 0 and "2026-11-30T00:00:00+08:00" in out
    assert err == "note: no time given; taking 2026-11-30T00:00 Asia/Shanghai\n"
    code, out, err = run(capsys, "cast", "789678", "--at", "2026-11-30T00:00", "--db", fresh_db)
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    ("at", "message"),
    [
        (
            "2026-03-08T02:30",
            "error: 2026-03-08T02:30 does not exist in America/New_York: "
            "clocks jumped from 02:00 to 03:00 (-05:00 to -04:00)\n",
        ),
        (
            "2026-11-01T01:30",
            "error: 2026-11-01T01:30 is ambiguous in America/New_York: it happened twice,"
            " at -04:00 and at -05:00; give the offset, e.g. 2026-11-01T01:30-04:00\n",
        ),
    ],
)
def test_cast_refuses_a_time_that_does_not_exist_or_is_ambiguous(
    capsys: pytest.CaptureFixture[str], fresh_db: str, at: str, message: str
) -> None:
    argv = ["cast", "789678", "--at", at, "--tz", "America/New_York", "--db", fresh_db]
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", message)
    assert reading_count(fresh_db) == 0


def test_import_notes_dates_without_a_time_and_refuses_a_gap(
    capsys: pytest.CaptureFixture[str], fresh_db: str, tmp_path: Path
) -> None:
    rows = [
        {"lines": "789678", "at": "2026-11-30"},
        {"lines": "789678", "at": "2026-11-30T09:15"},
        {"lines": "789678", "at": "2026-11-01", "tz": "America/New_York"},
    ]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, err = run(capsys, "import", str(path), "--db", fresh_db)
    assert code == 0 and out.startswith("imported 3 readings (ids 1–3)")
    assert err == (
        "note: no time given in 2 rows (row 1, row 3); each is taken at the start of its day"
        " in its zone\n"
    )
    notes: list[str] = []
    assert len(import_file(path, db=fresh_db, notes=notes)) == 3
    assert notes == [
        "row 1: no time given; taking 2026-11-30T00:00 Asia/Shanghai",
        "row 3: no time given; taking 2026-11-01T00:00 America/New_York",
    ]
    rows[1]["at"] = "2026-11-01T01:30"
    rows[1]["tz"] = "America/New_York"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, err = run(capsys, "import", str(path), "--db", fresh_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: row 2: 2026-11-01T01:30 is ambiguous in America/New_York")
    assert reading_count(fresh_db) == 6
    rows[1]["at"] = "2026-11-01T01:30-05:00"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows[1:2]), encoding="utf-8")
    code, out, err = run(capsys, "import", str(path), "--db", fresh_db, "--ids")
    assert (code, out) == (0, "7\n") and err.startswith("imported 1 reading (id 7)")


def reading_count(db: str) -> int:
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one())
    finally:
        engine.dispose()
