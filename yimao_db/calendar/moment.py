"""A moment of casting and its pillars (docs/rules.md chapters 12, 1 旬空, 4 half-year, 7 五子遁).

A moment comes either from a civil date-time (:func:`moment_at`, or :func:`moment_of` on a
time already read by :func:`yimao_db.calendar.civiltime.parse_at`) or from pillars given directly
(:func:`moment_from_pillars`, :func:`parse_pillars`).

The calendar of :func:`moment_at`:

- **What the given time means** is decided by :mod:`yimao_db.calendar.civiltime`: an offset fixes
  the instant; a naive time is the wall clock of ``tz`` (default Asia/Shanghai) and is
  refused if the clocks skipped it or showed it twice; a date alone is the start of that
  day (with a note); local mean time (LMT, e.g. Shanghai before 1901) is read as the
  zone's first standard offset (+08:00 for Shanghai); times from 1583-01-01T00:00 to
  9998-12-31T23:59:59 on the zone's clock are accepted. ``cast_at`` records the zone's
  clock with its offset.
- **Year, month, solar term and half-year belong to the instant.** The instant is read on
  the fixed UTC+08:00 clock (the clock tyme4py computes in; never Shanghai civil time,
  which had summer time in 1986-1991) against the exact instants of the 24 terms, which
  tyme4py computes to the second (:mod:`yimao_db.calendar.solarterms`). The year pillar changes at
  立春, the month pillar at each 節 (its stem by 五虎遁), the half-year at 冬至 and 夏至.
- **Day and hour pillars are read off the standard clock of ``tz``**: its clock with any
  summer time taken off (Shanghai: always +08:00; a 12:00 in the summer of 1988, +09:00,
  is 11:00, a 午 hour). The day pillar counts days from 2000-01-01, a 戊午 day.
- The day changes at midnight. With ``early_rat=True`` the 早子時 convention applies:
  23:00-24:00 belongs to the next day and gets the next day's pillar.
- The hour branch goes by two-hour blocks (子 = 23:00-01:00); the hour stem comes by
  五子遁 (:func:`yimao_db.kb.rules.spirits.hour_stem`) from the day pillar in effect for that
  hour: the civil day by default (23:30 on a 甲 day is a 甲子 hour), the next day with
  ``early_rat=True`` (the same moment is a 丙子 hour on the 乙 day). tyme4py itself always
  moves 23:00 to the next day.

Nothing here builds a tyme4py object per moment: after the first moment of a year (24
term instants asked of tyme4py, a few milliseconds) a moment is a bisection and table
look-ups. :mod:`yimao_db.calendar.tymeoracle` computes the same moments with tyme4py's objects; the
tests and ``benchmarks/calendar.py`` hold the two equal.

All characters are traditional and canonical (丑, not 醜); solar terms are converted
from tyme4py's simplified names.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import cache
from typing import NamedTuple

from yimao_db.calendar.civiltime import DEFAULT_TZ, CivilTime, out_of_range, parse_at
from yimao_db.calendar.solarterms import SOLAR_TERMS, TERM_NAMES, clock_seconds, term_at
from yimao_db.errors import UsageError, shown
from yimao_db.kb.facts import facts
from yimao_db.kb.rules.ganzhi import ordinal_of, sixty, void_branches
from yimao_db.kb.rules.spirits import hour_stem, month_stem
from yimao_db.kb.vocab import AFTER_SUMMER, AFTER_WINTER

__all__ = [
    "SOLAR_TERMS",
    "Moment",
    "moment_at",
    "moment_from_pillars",
    "moment_of",
    "parse_at",
    "parse_pillars",
    "utc_text",
]

LICHUN = 3  # tyme4py's index of 立春 among a year's terms (冬至 = 0)
SUMMER_SOLSTICE = 12  # terms 0..11 run from 冬至 to just before 夏至
FIRST_MONTH_BRANCH = 2  # 寅: the month 立春 opens
BEIJING_SECONDS = 8 * 3600
DAY_ANCHOR = (date(2000, 1, 1), "戊午")  # docs/rules.md chapter 12; 1949-10-01 甲子 is tested
JIAZI_YEAR = 1984  # a 甲子 year

_VARIANTS = str.maketrans({"醜": "丑"})


class Moment(NamedTuple):
    cast_at: str | None  # ISO 8601 local civil time with offset; None if given as pillars
    tz: str | None  # IANA zone name; None if given as pillars
    cast_utc: str | None  # the instant of cast_at, UTC YYYY-MM-DDTHH:MM:SSZ; None for pillars
    year_gz: str | None
    month_gz: str | None
    month_branch: str  # 月建, always known
    day_gz: str
    hour_gz: str | None
    solar_term: str | None  # current 節氣, traditional characters
    half_year: str | None  # 冬至後 or 夏至後
    early_rat: bool  # True when 23:00-24:00 counted as the next day
    void_branches: str  # the day's two void branches in decade order, e.g. 戌亥


@cache
def _tables() -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """The sixty 甲子 names and the twelve branches, in order, and the date ordinal of
    the 甲子 day before the anchor day."""
    anchor, name = DAY_ANCHOR
    return (
        tuple(g.name for g in sixty()),
        facts().branches,
        anchor.toordinal() - (ordinal_of(name[0], name[1]) - 1),
    )


@cache
def _month_pillar(year_stem: str, branch: str) -> str:
    return month_stem(year_stem, branch) + branch


@cache
def _hour_pillar(day_stem: str, branch: str) -> str:
    return hour_stem(day_stem, branch) + branch


@cache
def _void(day_gz: str) -> str:
    return "".join(void_branches(ordinal_of(day_gz[0], day_gz[1])))


def utc_text(civil: CivilTime) -> str:
    """The instant of ``civil`` on the UTC clock, ``YYYY-MM-DDTHH:MM:SSZ`` (whole seconds):
    ``reading.cast_utc``, which the lodges of the sun and the moon are looked up by (§8.12)."""
    return civil.utc.isoformat(timespec="seconds") + "Z"


def moment_of(civil: CivilTime, early_rat: bool = False) -> Moment:
    """The pillars of a time read by :func:`parse_at`; see the module docstring."""
    try:
        term_year, index = term_at(clock_seconds(civil.utc) + BEIJING_SECONDS)
    except ValueError:
        raise out_of_range(civil.cast_at, civil.tz, civil.local) from None
    names, branches, jiazi_day = _tables()
    year_gz = names[(term_year - (index < LICHUN) - JIAZI_YEAR) % 60]
    month_branch = branches[(FIRST_MONTH_BRANCH + (index - LICHUN) // 2) % 12]
    standard = civil.standard
    day = standard.toordinal() + (early_rat and standard.hour == 23)
    day_gz = names[(day - jiazi_day) % 60]
    return Moment(
        cast_at=civil.cast_at,
        tz=civil.tz,
        cast_utc=utc_text(civil),
        year_gz=year_gz,
        month_gz=_month_pillar(year_gz[0], month_branch),
        month_branch=month_branch,
        day_gz=day_gz,
        hour_gz=_hour_pillar(day_gz[0], branches[(standard.hour + 1) // 2 % 12]),
        solar_term=TERM_NAMES[index],
        half_year=AFTER_WINTER if index < SUMMER_SOLSTICE else AFTER_SUMMER,
        early_rat=early_rat,
        void_branches=_void(day_gz),
    )


def moment_at(
    when: datetime | str | None = None, tz: str = DEFAULT_TZ, early_rat: bool = False
) -> Moment:
    """The pillars of a civil moment; see the module docstring for the conventions.

    ``when`` is an aware datetime, a naive datetime or an ISO string (naive = wall time in
    ``tz``), or None for now. UsageError for an unknown zone, a bad date, a time that does
    not exist or is ambiguous in ``tz``, or one out of range. A note about what was assumed
    (a date without a time) is on ``parse_at(when, tz).note``.
    """
    return moment_of(parse_at(when, tz), early_rat)


def _pillar(value: str, what: str) -> str:
    text = value.strip().translate(_VARIANTS) if isinstance(value, str) else ""
    try:
        if len(text) != 2:
            raise ValueError
        ordinal_of(text[0], text[1])
    except ValueError:
        raise UsageError(
            f"bad {what} pillar {shown(value)}: expected one of the sixty 甲子, like 甲子 or 丙寅"
            " (a stem and a branch, both yang or both yin)"
        ) from None
    return text


def _branch(value: str) -> str:
    text = value.strip().translate(_VARIANTS) if isinstance(value, str) else ""
    if len(text) != 1 or text not in facts().branches:
        raise UsageError(
            f"bad month branch {shown(value)}: expected one of {''.join(facts().branches)}"
        )
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
        cast_utc=None,
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
            f"bad pillars {shown(text)}: expected year, month, day and optionally hour,"
            " like 甲辰,丙寅,戊戌,庚申"
        )
    year, month, day = items[:3]
    hour = items[3] if len(items) == 4 else None
    return moment_from_pillars(year=year, month=month, day=day, hour=hour)
