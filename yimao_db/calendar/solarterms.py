"""The instants of the 24 solar terms, as tyme4py computes them, cached per year.

The calendar these serve is described in docs/rules.md, chapter 12.

tyme4py gives each term's exact instant to the second, on the UTC+08:00 clock
(``SolarTerm.get_julian_day().get_solar_time()``). Asking it costs about a tenth of a
millisecond per term, so the 24 instants of a year are asked for once, on first use, and
kept in memory as whole seconds; the term in force at an instant is then a bisection.
Nothing is stored on disk: every instant comes from the tyme4py installed, and
:func:`verify_terms` recomputes a set of years afresh and lists any difference.

Term years follow tyme4py: the terms of year Y run from the 冬至 in December of Y-1
(index 0) through 小寒 (1), 大寒 (2), 立春 (3) … to 大雪 (23) in December of Y. Odd
indexes are the twelve 節 that open the months.

Instants are counted in *seconds on the +08:00 clock*: ``date.toordinal() * 86400`` plus
the seconds of the day (:func:`clock_seconds`). Term years 1583-9999 are supported (tyme4py
uses the Julian calendar before October 1582); the instant of a term is compared with a
moment truncated to the second, as tyme4py does, so a term is in force from its own second
on.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache

from tyme4py.solar import SolarTerm

__all__ = [
    "FIRST_TERM_YEAR",
    "LAST_TERM_YEAR",
    "SOLAR_TERMS",
    "TERM_NAMES",
    "cached_years",
    "clear_cache",
    "clock_seconds",
    "format_instant",
    "term_at",
    "term_instants",
    "verify_terms",
]

FIRST_TERM_YEAR, LAST_TERM_YEAR = 1583, 9999
DAY = 86400
BEIJING = timezone(timedelta(hours=8))

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
TERM_NAMES: tuple[str, ...] = tuple(SOLAR_TERMS[name] for name in SolarTerm.NAMES)

_CACHE: dict[int, tuple[int, ...]] = {}


def clock_seconds(clock: datetime) -> int:
    """A naive wall-clock time as whole seconds: day ordinal × 86400 + seconds of the day."""
    return clock.toordinal() * DAY + clock.hour * 3600 + clock.minute * 60 + clock.second


def format_instant(seconds: int) -> str:
    """Seconds on the +08:00 clock as ISO 8601, e.g. ``2024-02-04T16:27:07+08:00``."""
    day, rest = divmod(seconds, DAY)
    start = datetime.combine(date.fromordinal(day), datetime.min.time(), BEIJING)
    return (start + timedelta(seconds=rest)).isoformat()


def _check_year(year: int) -> None:
    if not FIRST_TERM_YEAR <= year <= LAST_TERM_YEAR:
        raise ValueError(f"term year {year} outside {FIRST_TERM_YEAR}-{LAST_TERM_YEAR}")


def _tyme_instant(year: int, index: int) -> int:
    t = SolarTerm.from_index(year, index).get_julian_day().get_solar_time()
    clock = datetime(
        t.get_year(), t.get_month(), t.get_day(), t.get_hour(), t.get_minute(), t.get_second()
    )
    return clock_seconds(clock)


def tyme_term_instants(year: int) -> tuple[int, ...]:
    """The 24 instants of term year ``year``, asked of tyme4py now (no cache)."""
    _check_year(year)
    return tuple(_tyme_instant(year, index) for index in range(24))


def term_instants(year: int) -> tuple[int, ...]:
    """The 24 instants of term year ``year`` (cached after the first call)."""
    instants = _CACHE.get(year)
    if instants is None:
        instants = _CACHE[year] = tyme_term_instants(year)
    return instants


def cached_years() -> list[int]:
    """The term years whose instants are in memory."""
    return sorted(_CACHE)


def clear_cache() -> None:
    """Forget every cached instant (they are asked of tyme4py again on next use)."""
    _CACHE.clear()


@lru_cache(maxsize=1)
def _end() -> int:
    """The instant the supported terms end: the 冬至 after the last term year, which falls in
    December of that year (tyme4py cannot give the rest of the year after)."""
    return _tyme_instant(LAST_TERM_YEAR + 1, 0)


def term_at(seconds: int) -> tuple[int, int]:
    """The term in force at ``seconds`` on the +08:00 clock: (term year, index 0-23).

    ValueError outside the supported instants (from the 冬至 of December 1582 to the 冬至
    of December 9999).
    """
    today = date.fromordinal(seconds // DAY)
    year = today.year
    if today.month == 12:  # the next term year begins in December, at its 冬至
        if year == LAST_TERM_YEAR and seconds >= _end():
            raise ValueError(f"{format_instant(seconds)} is after the supported solar terms")
        if year < LAST_TERM_YEAR and seconds >= term_instants(year + 1)[0]:
            year += 1
    if year < FIRST_TERM_YEAR:
        raise ValueError(f"{format_instant(seconds)} is before the supported solar terms")
    return year, bisect_right(term_instants(year), seconds) - 1


def verify_terms(years: Iterable[int]) -> list[str]:
    """Differences between the cached instants of ``years`` and tyme4py asked afresh.

    An empty list when all agree. Each difference is one line, e.g. ``2024 立春: cached
    2024-02-04T16:28:07+08:00, tyme4py 2024-02-04T16:27:07+08:00``; a year outside the
    supported range is reported as such.
    """
    problems: list[str] = []
    for year in sorted(set(years)):
        if not FIRST_TERM_YEAR <= year <= LAST_TERM_YEAR:
            problems.append(
                f"{year}: outside the supported term years {FIRST_TERM_YEAR}-{LAST_TERM_YEAR}"
            )
            continue
        cached, fresh = term_instants(year), tyme_term_instants(year)
        if len(cached) != len(fresh):
            problems.append(f"{year}: {len(cached)} cached instants, expected {len(fresh)}")
            continue
        for index, (have, want) in enumerate(zip(cached, fresh, strict=True)):
            if have != want:
                problems.append(
                    f"{year} {TERM_NAMES[index]}: cached {format_instant(have)},"
                    f" tyme4py {format_instant(want)}"
                )
        if list(cached) != sorted(set(cached)):
            problems.append(f"{year}: the cached instants are not in strictly increasing order")
    return problems
