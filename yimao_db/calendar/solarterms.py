"""The instants of the 24 solar terms, as tyme4py computes them, cached per year.

The calendar these serve is described in docs/rules.md, chapter 12.

tyme4py gives each term's exact instant to the second, on the UTC+08:00 clock
(``SolarTerm.get_julian_day().get_solar_time()``). Asking it costs about a tenth of a
millisecond per term, so the instants of the term years :data:`TABLE_YEARS` (1901-2100,
which every moment of 1901-2099 needs) are shipped with the package in
:mod:`yimao_db.calendar.term_table`, generated from tyme4py (``python -m
yimao_db.calendar.solarterms --write-table``) and loaded without importing tyme4py. Any
other year's 24 instants are asked of tyme4py (imported then) on first use. Either way a
year's instants are kept in memory as whole seconds; the term in force at an instant is
then a bisection. :func:`verify_terms` recomputes a set of years with the tyme4py installed
and lists any difference; :func:`verify_table` does so for every shipped year (the tests
and ``yimao check`` run it).

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
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta, timezone
from functools import cache, lru_cache
from pathlib import Path

from yimao_db.calendar import term_table

__all__ = [
    "FIRST_TERM_YEAR",
    "LAST_TERM_YEAR",
    "SOLAR_TERMS",
    "TABLE_YEARS",
    "TERM_NAMES",
    "TermTableError",
    "cached_years",
    "clear_cache",
    "clock_seconds",
    "format_instant",
    "table_text",
    "term_at",
    "term_instants",
    "verify_table",
    "verify_terms",
]

FIRST_TERM_YEAR, LAST_TERM_YEAR = 1583, 9999
DAY = 86400
BEIJING = timezone(timedelta(hours=8))

# tyme4py's simplified term names, in its order (SolarTerm.NAMES, 冬至 first) → the
# traditional names stored here.
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
TERM_NAMES: tuple[str, ...] = tuple(SOLAR_TERMS.values())
TABLE_YEARS = range(term_table.FIRST_YEAR, term_table.LAST_YEAR + 1)

_CACHE: dict[int, tuple[int, ...]] = {}


class TermTableError(Exception):
    """The shipped table cannot be read (it was edited or damaged): not a user's error."""


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
    from tyme4py.solar import SolarTerm  # only here: tyme4py takes a while to import

    t = SolarTerm.from_index(year, index).get_julian_day().get_solar_time()
    clock = datetime(
        t.get_year(), t.get_month(), t.get_day(), t.get_hour(), t.get_minute(), t.get_second()
    )
    return clock_seconds(clock)


def tyme_term_instants(year: int) -> tuple[int, ...]:
    """The 24 instants of term year ``year``, asked of tyme4py now (no cache)."""
    _check_year(year)
    return tuple(_tyme_instant(year, index) for index in range(24))


def _parse_instant(text: str) -> int:
    """``YYYY-MM-DDTHH:MM:SS`` as :func:`clock_seconds`."""
    if len(text) != 19 or text[4::3] != "--T::":
        raise ValueError(f"{text!r} is not YYYY-MM-DDTHH:MM:SS")
    day = date(int(text[0:4]), int(text[5:7]), int(text[8:10])).toordinal()
    return day * DAY + int(text[11:13]) * 3600 + int(text[14:16]) * 60 + int(text[17:19])


def _table_instants(year: int) -> tuple[int, ...]:
    """The 24 shipped instants of term year ``year`` (in :data:`TABLE_YEARS`)."""
    line = term_table.INSTANTS[year - term_table.FIRST_YEAR]
    try:
        instants = tuple(_parse_instant(text) for text in line.split())
    except ValueError as exc:
        raise TermTableError(f"the shipped term table is damaged at {year}: {exc}") from None
    if len(instants) != 24:
        raise TermTableError(
            f"the shipped term table is damaged at {year}: {len(instants)} instants, not 24"
        )
    return instants


def term_instants(year: int) -> tuple[int, ...]:
    """The 24 instants of term year ``year``: shipped for :data:`TABLE_YEARS`, else asked of
    tyme4py (kept in memory after the first call either way)."""
    instants = _CACHE.get(year)
    if instants is None:
        if year in TABLE_YEARS:
            instants = _table_instants(year)
        else:
            instants = tyme_term_instants(year)
        _CACHE[year] = instants
    return instants


def cached_years() -> list[int]:
    """The term years whose instants are in memory."""
    return sorted(_CACHE)


def clear_cache() -> None:
    """Forget every cached instant (read from the table or asked of tyme4py again on next
    use)."""
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


def verify_terms(
    years: Iterable[int], fresh: Callable[[int], tuple[int, ...]] = tyme_term_instants
) -> list[str]:
    """Differences between the instants the calendar uses for ``years`` (read from the
    shipped table or asked of tyme4py, and cached) and tyme4py's (``fresh``: asked now).

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
        try:
            cached = term_instants(year)
        except TermTableError as exc:
            problems.append(str(exc))
            continue
        computed = fresh(year)
        if len(cached) != len(computed):
            problems.append(f"{year}: {len(cached)} cached instants, expected {len(computed)}")
            continue
        for index, (have, want) in enumerate(zip(cached, computed, strict=True)):
            if have != want:
                problems.append(
                    f"{year} {TERM_NAMES[index]}: cached {format_instant(have)},"
                    f" tyme4py {format_instant(want)}"
                )
        if list(cached) != sorted(set(cached)):
            problems.append(f"{year}: the cached instants are not in strictly increasing order")
    return problems


@cache
def _tyme_table_year(year: int) -> tuple[int, ...]:
    """tyme4py's instants of a year of the table, computed once a process (tyme4py gives
    the same answer every time; a second check in one process costs no second second)."""
    return tyme_term_instants(year)


def verify_table() -> list[str]:
    """:func:`verify_terms` for every year of the shipped table: an empty list when every
    instant the calendar reads from it is the one the installed tyme4py computes."""
    return verify_terms(TABLE_YEARS, _tyme_table_year)


def table_text(first: int = term_table.FIRST_YEAR, last: int = term_table.LAST_YEAR) -> str:
    """The source of :mod:`yimao_db.calendar.term_table` for term years ``first``-``last``,
    every instant asked of the installed tyme4py."""
    from importlib.metadata import version

    lines = [
        " ".join(format_instant(s)[:19] for s in tyme_term_instants(year))
        for year in range(first, last + 1)
    ]
    body = "".join(f'    "{line}",\n' for line in lines)
    return TABLE_TEMPLATE.format(
        first=first, last=last, tyme=version("tyme4py"), names=" ".join(TERM_NAMES), body=body
    )


TABLE_TEMPLATE = (
    '"""The 24 solar terms of the term years {first}-{last}, as tyme4py {tyme} computes them.\n'
    '''
Generated by ``python -m yimao_db.calendar.solarterms --write-table``; do not edit. The
tests and ``yimao check`` compute every instant again with the tyme4py installed and
report any difference (:func:`yimao_db.calendar.solarterms.verify_table`).

``INSTANTS`` holds one string per term year, {first} first: the year's 24 instants on the
UTC+08:00 clock, to the second, in tyme4py's order (the 冬至 falls in December of the year
before):

    {names}
"""

FIRST_YEAR = {first}
LAST_YEAR = {last}

INSTANTS = (
{body})
'''
)


def write_table(path: Path | None = None) -> Path:
    """Write :func:`table_text` to ``path`` (default: the module's own file)."""
    target = path or Path(term_table.__file__)
    target.write_text(table_text(), encoding="utf-8")
    return target


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--write-table"]:
        sys.exit("usage: python -m yimao_db.calendar.solarterms --write-table")
    print(f"wrote {write_table()}")
