"""The calendar as tyme4py's own objects compute it: the slow reference for the fast path.

:func:`reference_moment` gives the :class:`~yimao_db.calendar.moment.Moment` that
:func:`yimao_db.calendar.moment.moment_of` gives, but asks tyme4py for every value, per moment,
without the term cache and without the pillar arithmetic (about a millisecond a moment):

- the term in force: ``SolarTime.get_term()`` on the +08:00 clock, moved to the next term
  when tyme4py's own exact instant of it has passed. (``get_term()`` starts a term no
  earlier than the midnight of the term's calendar day, which tyme4py rounds from a
  coarser estimate; in 1901-2099 that day falls after the exact instant twice, for
  小雪 1912 and 秋分 1913, only a 氣 and only for minutes; before 1800 it happens hundreds
  of times, 節 included. The exact instant counts, so that year and month change together
  at 立春.)
- year and month pillars: ``SixtyCycleYear`` and ``SixtyCycleMonth`` (tyme4py's 五虎遁);
- day pillar: tyme4py's count of days from a 甲子 day (``SolarDay.subtract``, as its
  ``SixtyCycleDay`` does);
- hour pillar: tyme4py's hour rule (``LunarHour.get_sixty_cycle``: the day stem's index ×
  12 + the hour's index, through ``SixtyCycle``), applied to the day pillar in effect;
- void branches: ``SixtyCycle.get_extra_earth_branches()``.

:func:`get_term_pillars` gives the solar term, year and month from ``get_term()`` exactly
as tyme4py returns it. :func:`random_minutes` and :func:`jie_minutes` are the moments
compared. All of it serves the tests and ``benchmarks/calendar.py``; nothing that stores
a reading uses it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone

from tyme4py.sixtycycle import SixtyCycle, SixtyCycleMonth, SixtyCycleYear
from tyme4py.solar import SolarDay, SolarTerm, SolarTime

from yimao_db.calendar.civiltime import CivilTime
from yimao_db.calendar.moment import Moment, utc_text
from yimao_db.calendar.solarterms import SOLAR_TERMS
from yimao_db.kb.rules.ganzhi import ganzhi
from yimao_db.kb.vocab import AFTER_SUMMER, AFTER_WINTER

__all__ = ["get_term_pillars", "jie_minutes", "random_minutes", "reference_moment"]

LICHUN = 3
JIAZI_DAY = (2000, 1, 7)  # a 甲子 day, tyme4py's own anchor
BEIJING = timezone(timedelta(hours=8))


def _solar_time(clock: datetime) -> SolarTime:
    return SolarTime.from_ymd_hms(
        clock.year, clock.month, clock.day, clock.hour, clock.minute, clock.second
    )


def _gz(cycle: SixtyCycle) -> str:
    """A tyme4py ganzhi in this package's canonical characters."""
    return ganzhi(cycle.get_index() + 1).name


def _year_month(term: SolarTerm) -> tuple[str, str]:
    """Year and month pillars by tyme4py's objects from the term in force."""
    index, year = term.get_index(), term.get_year()
    year_gz = _gz(SixtyCycleYear.from_year(year if index >= LICHUN else year - 1).get_sixty_cycle())
    month = SixtyCycleMonth.from_index(year, (index - LICHUN) // 2)
    return year_gz, _gz(month.get_sixty_cycle())


def _term_in_force(time: SolarTime) -> SolarTerm:
    """``get_term()``, moved to the term whose exact instant is the last one passed."""
    term = time.get_term()
    following = term.next(1)
    if not time.is_before(following.get_julian_day().get_solar_time()):
        return following
    if time.is_before(term.get_julian_day().get_solar_time()):
        return term.next(-1)
    return term


def get_term_pillars(civil: CivilTime) -> tuple[str, str, str]:
    """(solar term, year pillar, month pillar) from tyme4py's ``get_term()`` as it is."""
    term = _solar_time(civil.beijing).get_term()
    return (SOLAR_TERMS[term.get_name()], *_year_month(term))


def reference_moment(civil: CivilTime, early_rat: bool = False) -> Moment:
    """The moment of ``civil`` computed by tyme4py's objects (see the module docstring)."""
    term = _term_in_force(_solar_time(civil.beijing))
    year_gz, month_gz = _year_month(term)
    standard = civil.standard
    day = SolarDay.from_ymd(standard.year, standard.month, standard.day)
    if early_rat and standard.hour == 23:
        day = day.next(1)
    day_cycle = SixtyCycle.from_index(day.subtract(SolarDay.from_ymd(*JIAZI_DAY)))
    hour_index = int((standard.hour + 1) / 2) % 12
    hour_cycle = SixtyCycle.from_index(day_cycle.get_heaven_stem().get_index() * 12 + hour_index)
    void = "".join(b.get_name() for b in day_cycle.get_extra_earth_branches())
    return Moment(
        cast_at=civil.cast_at,
        tz=civil.tz,
        cast_utc=utc_text(civil),
        year_gz=year_gz,
        month_gz=month_gz,
        month_branch=month_gz[1],
        day_gz=_gz(day_cycle),
        hour_gz=_gz(hour_cycle),
        solar_term=SOLAR_TERMS[term.get_name()],
        half_year=AFTER_WINTER if term.get_index() < 12 else AFTER_SUMMER,
        early_rat=early_rat,
        void_branches=void,
    )


def random_minutes(n: int, seed: int, first: int = 1901, last: int = 2099) -> list[datetime]:
    """``n`` random whole minutes of the years ``first``-``last`` on the +08:00 clock (aware),
    the same for the same seed."""
    rng = random.Random(seed)
    start = datetime(first, 1, 1, tzinfo=BEIJING)
    minutes = int((datetime(last + 1, 1, 1, tzinfo=BEIJING) - start).total_seconds()) // 60
    return [start + timedelta(minutes=rng.randrange(minutes)) for _ in range(n)]


def jie_minutes(years: Iterable[int]) -> list[datetime]:
    """One minute before and one minute after every 節 of ``years`` (tyme4py's instants, on
    the +08:00 clock, aware), in order."""
    out = []
    for year in years:
        for index in range(1, 24, 2):
            t = SolarTerm.from_index(year, index).get_julian_day().get_solar_time()
            at = _clock(t).replace(tzinfo=BEIJING)
            out += [at - timedelta(minutes=1), at + timedelta(minutes=1)]
    return out


def _clock(t: SolarTime) -> datetime:
    return datetime(
        t.get_year(), t.get_month(), t.get_day(), t.get_hour(), t.get_minute(), t.get_second()
    )
