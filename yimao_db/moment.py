"""A moment of casting and its pillars (spec §12, §1 旬空, §4.3 half-year, §7 五子遁).

A moment comes either from a civil date-time (:func:`moment_at`, computed with tyme4py)
or from pillars given directly (:func:`moment_from_pillars`, :func:`parse_pillars`).

Conventions of :func:`moment_at`:

- The input is an instant: an aware datetime, or a naive datetime / ISO string read as
  local civil time in ``tz`` (default Asia/Shanghai). ``cast_at`` records it as local
  civil time of ``tz``, with that zone's offset at the instant.
- Year, month, solar term and half-year are properties of the instant. tyme4py reads
  every clock as Beijing time, so the instant is handed to it as a fixed UTC+08:00 wall
  clock (never as Shanghai civil time, which had summer time in 1986-1991). The year
  pillar changes at the exact 立春, the month at the exact 節, the half-year at the exact
  冬至 / 夏至.
- Day and hour pillars are read off the clock of ``tz`` in *standard* time, i.e. its
  civil time with any daylight saving taken off. For Asia/Shanghai that is always the
  +08:00 clock (a 12:00 in the summer of 1988, +09:00, is 11:00 → a 午 hour).
- The day changes at midnight. With ``early_rat=True`` the 早子時 convention applies:
  23:00-24:00 belongs to the next day and gets the next day's pillar.
- The hour branch goes by two-hour blocks (子 = 23:00-01:00). The hour stem comes by
  五子遁 from the stem of the day pillar in effect for that hour. By default that is the
  civil day, so 23:30 on a 甲 day is a 甲子 hour. With ``early_rat=True`` it is the next
  day, so the same moment is a 丙子 hour on the 乙 day. (tyme4py itself always moves
  23:00 to the next day, for both the day and the hour; the default here does not.)
- Dates from 1583 to 9998 are accepted (tyme4py switches to the Julian calendar
  before October 1582).

All characters are traditional and canonical (丑, not 醜); solar terms are converted
from tyme4py's simplified names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from tyme4py.sixtycycle import SixtyCycle, SixtyCycleMonth, SixtyCycleYear
from tyme4py.solar import SolarDay, SolarTime

from yimao_db.errors import UsageError
from yimao_db.facts import facts
from yimao_db.rules.ganzhi import ganzhi, ordinal_of, void_branches
from yimao_db.rules.spirits import hour_stem, month_stem

__all__ = ["Moment", "moment_at", "moment_from_pillars", "parse_pillars"]

BEIJING = timezone(timedelta(hours=8))
MIN_YEAR, MAX_YEAR = 1583, 9998

# tyme4py's simplified term names → the traditional names stored here.
SOLAR_TERMS: dict[str, str] = {
    "冬至": "冬至",
    "小寒": "小寒",
    "大寒": "大寒",
    "立春": "立春",
    "雨水": "雨水",
    "惊蛰": "驚蟄",
    "春分": "春分",
    "清明": "清明",
    "谷雨": "穀雨",
    "立夏": "立夏",
    "小满": "小滿",
    "芒种": "芒種",
    "夏至": "夏至",
    "小暑": "小暑",
    "大暑": "大暑",
    "立秋": "立秋",
    "处暑": "處暑",
    "白露": "白露",
    "秋分": "秋分",
    "寒露": "寒露",
    "霜降": "霜降",
    "立冬": "立冬",
    "小雪": "小雪",
    "大雪": "大雪",
}

AFTER_WINTER_SOLSTICE = "冬至後"
AFTER_SUMMER_SOLSTICE = "夏至後"
LICHUN = 3  # tyme4py's index of 立春 among a year's terms (冬至 = 0)

_VARIANTS = str.maketrans({"醜": "丑"})
_ZONE_KEY = re.compile(r"[A-Za-z0-9_+\-]+(?:/[A-Za-z0-9_+\-]+)*")


@dataclass(frozen=True)
class Moment:
    cast_at: str | None  # ISO 8601 local civil time with offset; None if given as pillars
    tz: str | None  # IANA zone name; None if given as pillars
    year_gz: str | None
    month_gz: str | None
    month_branch: str  # 月建, always known
    day_gz: str
    hour_gz: str | None
    solar_term: str | None  # current 節氣, traditional characters
    half_year: str | None  # 冬至後 or 夏至後
    early_rat: bool  # True when 23:00-24:00 counted as the next day
    void_branches: str  # the day's two void branches in decade order, e.g. 戌亥


def _zone(tz: str) -> ZoneInfo:
    bad = UsageError(f"unknown time zone {tz!r}: expected an IANA name like Asia/Shanghai")
    if not isinstance(tz, str) or len(tz) > 64 or not _ZONE_KEY.fullmatch(tz):
        raise bad
    try:
        return ZoneInfo(tz)
    except (KeyError, ValueError, OSError):  # unknown key, not a TZif file, a directory
        raise bad from None


def _instant(when: datetime | str | None, zone: ZoneInfo) -> tuple[datetime, datetime, datetime]:
    """The moment, to the second, as (civil time in ``zone``, aware; the same instant as a
    naive UTC+08:00 clock; the naive standard-time clock of ``zone``)."""
    given = when
    if when is None:
        when = datetime.now(zone)
    elif isinstance(when, str):
        try:
            when = datetime.fromisoformat(when.strip())
        except ValueError:
            raise UsageError(
                f"bad date {given!r}: expected an ISO date-time like 2026-11-30T09:15"
                " (optionally with an offset like +08:00)"
            ) from None
    elif not isinstance(when, datetime):
        raise UsageError(f"bad date {given!r}: expected a datetime or an ISO date-time string")
    if when.utcoffset() is None:
        when = when.replace(tzinfo=zone)
    out_of_range = UsageError(
        f"date {given!s} out of range: years {MIN_YEAR}-{MAX_YEAR} are supported"
    )
    try:
        local = when.astimezone(zone).replace(microsecond=0)
        beijing = local.astimezone(BEIJING).replace(tzinfo=None)
        clock = local.replace(tzinfo=None) - (local.dst() or timedelta(0))
    except OverflowError:
        raise out_of_range from None
    if not all(MIN_YEAR <= t.year <= MAX_YEAR for t in (local, beijing, clock)):
        raise out_of_range
    return local, beijing, clock


def _gz(cycle: SixtyCycle) -> str:
    """A tyme4py ganzhi in this package's canonical characters."""
    return ganzhi(cycle.get_index() + 1).name


def _hour_gz(day_stem: str, hour: int) -> str:
    """五子遁 (§7.2): the hour's stem counted from the 子 hour of the day stem."""
    f = facts()
    branch = (hour + 1) // 2 % 12
    stem = (f.stems.index(day_stem) % 5 * 2 + branch) % 10
    return f.stems[stem] + f.branches[branch]


def _void(day_gz: str) -> str:
    return "".join(void_branches(ordinal_of(day_gz[0], day_gz[1])))


_JIAZI_DAY = SolarDay.from_ymd(2000, 1, 7)  # a 甲子 day: day pillars count from it


def _year_month(term_year: int, term_index: int) -> tuple[str, str]:
    """Year and month pillars from the solar term in force (tyme4py's numbering).

    tyme4py numbers a year's terms from the 冬至 that opens it (index 0, in the December
    before) to 大雪 (23); 立春 is index 3. The year pillar changes at 立春, the month at
    every 節 (odd index): before 立春 the year is the previous one, and the month is the
    (index - 3) // 2-th after the year's 寅 month (五虎遁 by tyme4py). This is what
    ``SolarTime.get_sixty_cycle_hour()`` computes, without its lunar calendar (three
    times slower); the tests compare the two.
    """
    year = term_year if term_index >= LICHUN else term_year - 1
    year_gz = _gz(SixtyCycleYear.from_year(year).get_sixty_cycle())
    month = SixtyCycleMonth.from_index(term_year, (term_index - LICHUN) // 2)
    return year_gz, _gz(month.get_sixty_cycle())


def moment_at(
    when: datetime | str | None = None, tz: str = "Asia/Shanghai", early_rat: bool = False
) -> Moment:
    """The pillars of a civil moment; see the module docstring for the conventions.

    ``when`` is an aware datetime, a naive datetime or an ISO string (naive = local civil
    time in ``tz``), or None for now. UsageError for an unknown zone or a bad date.
    """
    local, bj, clock = _instant(when, _zone(tz))
    # tyme4py reads its clock as UTC+08:00: give it the instant on that clock
    solar_time = SolarTime.from_ymd_hms(bj.year, bj.month, bj.day, bj.hour, bj.minute, bj.second)
    term = solar_time.get_term()  # the term in force at the exact instant
    year_gz, month_gz = _year_month(term.get_year(), term.get_index())

    day = SolarDay.from_ymd(clock.year, clock.month, clock.day)
    if early_rat and clock.hour == 23:
        day = day.next(1)
    day_gz = _gz(SixtyCycle.from_index(day.subtract(_JIAZI_DAY)))
    return Moment(
        cast_at=local.isoformat(timespec="seconds"),
        tz=tz,
        year_gz=year_gz,
        month_gz=month_gz,
        month_branch=month_gz[1],
        day_gz=day_gz,
        hour_gz=_hour_gz(day_gz[0], clock.hour),
        solar_term=SOLAR_TERMS[term.get_name()],
        # terms 0..11 run from 冬至 to just before 夏至 (index 12)
        half_year=AFTER_WINTER_SOLSTICE if term.get_index() < 12 else AFTER_SUMMER_SOLSTICE,
        early_rat=early_rat,
        void_branches=_void(day_gz),
    )


def _pillar(value: str, what: str) -> str:
    text = value.strip().translate(_VARIANTS) if isinstance(value, str) else ""
    try:
        if len(text) != 2:
            raise ValueError
        ordinal_of(text[0], text[1])
    except ValueError:
        raise UsageError(
            f"bad {what} pillar {value!r}: expected one of the sixty 甲子, like 甲子 or 丙寅"
            " (a stem and a branch, both yang or both yin)"
        ) from None
    return text


def _branch(value: str) -> str:
    text = value.strip().translate(_VARIANTS) if isinstance(value, str) else ""
    if len(text) != 1 or text not in facts().branches:
        raise UsageError(f"bad month branch {value!r}: expected one of {''.join(facts().branches)}")
    return text


def _check_stems(year: str | None, month: str | None, day: str, hour: str | None) -> None:
    """Pillars given together must fit: the month stem by 五虎遁 from the year stem, the
    hour stem by 五子遁 from the day stem (§7.2, §12), as the calendar would give them."""
    if year is not None and month is not None:
        want = month_stem(year[0], month[1]) + month[1]
        if want != month:
            raise UsageError(
                f"month pillar {month} does not fit the year {year}: by 五虎遁 the"
                f" {month[1]} month of a {year[0]} year is {want}"
            )
    if hour is not None:
        want = hour_stem(day[0], hour[1]) + hour[1]
        if want != hour:
            raise UsageError(
                f"hour pillar {hour} does not fit the day {day}: by 五子遁 the"
                f" {hour[1]} hour of a {day[0]} day is {want}"
            )


def moment_from_pillars(
    *,
    day: str,
    month: str | None = None,
    year: str | None = None,
    hour: str | None = None,
    month_branch: str | None = None,
) -> Moment:
    """A moment given as pillars. ``day`` is required, and a month (pillar or branch).

    If both ``month`` and ``month_branch`` are given they must agree; a month pillar given
    with the year, and an hour pillar, must have the stems 五虎遁 and 五子遁 give them.
    Solar term and half-year are unknown (None). Only canonical characters (plus 醜 for 丑)
    are accepted.
    """
    day_gz = _pillar(day, "day")
    year_gz = None if year is None else _pillar(year, "year")
    month_gz = None if month is None else _pillar(month, "month")
    hour_gz = None if hour is None else _pillar(hour, "hour")
    branch = None if month_branch is None else _branch(month_branch)
    if month_gz is not None:
        if branch is not None and branch != month_gz[1]:
            raise UsageError(
                f"month pillar {month_gz} and month branch {branch} disagree:"
                f" the month branch of {month_gz} is {month_gz[1]}"
            )
        branch = month_gz[1]
    if branch is None:
        raise UsageError("the month is needed: give a month pillar or a month branch (月建)")
    _check_stems(year_gz, month_gz, day_gz, hour_gz)
    return Moment(
        cast_at=None,
        tz=None,
        year_gz=year_gz,
        month_gz=month_gz,
        month_branch=branch,
        day_gz=day_gz,
        hour_gz=hour_gz,
        solar_term=None,
        half_year=None,
        early_rat=False,
        void_branches=_void(day_gz),
    )


def parse_pillars(text: str) -> Moment:
    """Pillars written as text: year, month, day[, hour], e.g. ``甲辰,丙寅,戊戌,庚申``.

    Items may be separated by ``,``, ``，`` or spaces.
    """
    items = [item for item in re.split(r"[,，\s]+", text) if item]
    if len(items) not in (3, 4):
        raise UsageError(
            f"bad pillars {text!r}: expected year, month, day and optionally hour,"
            " like 甲辰,丙寅,戊戌,庚申"
        )
    year, month, day = items[:3]
    hour = items[3] if len(items) == 4 else None
    return moment_from_pillars(year=year, month=month, day=day, hour=hour)
