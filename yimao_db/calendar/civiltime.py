"""What a given date-time means in a time zone: the instant, and the clocks the calendar reads.

:func:`parse_at` turns the ``--at``/``at`` value (an ISO string, a datetime, or None for
now) and an IANA zone into a :class:`CivilTime`: the instant to the second, the offset of
the zone's clock at that instant and the summer time in it. The rules:

- **An offset fixes the instant.** ``2026-11-30T09:15+09:00``, ``…Z`` or an aware datetime
  is that instant whatever the zone; it is then read on the zone's clock.
- **A naive time is the zone's wall clock.** If the clocks skipped it (a summer-time gap,
  e.g. 2026-03-08T02:30 in America/New_York) it is refused; if it happened twice (the hour
  repeated when summer time ends, e.g. 2026-11-01T01:30 there) it is refused unless an
  offset says which.
- **A date without a time** is the start of that day in the zone (midnight, or the first
  time the clocks showed that day if midnight was skipped); :attr:`CivilTime.note` says so.
- **Local mean time.** Before a zone adopted a standard time the tz database gives it
  local mean time (``LMT``: Asia/Shanghai +08:05:43 until 1901, America/New_York -04:56:02
  until 1883). An LMT period is read as the zone's *first standard offset*, the first
  offset the tz database gives it after LMT, summer time removed (Asia/Shanghai +08:00,
  America/New_York -05:00, Asia/Kolkata +05:53:20, Europe/Paris +00:09:21). A naive time
  on such a date means that clock, and it is recorded with that offset. This holds for
  every LMT period, also a later one (Africa/Lagos 1908-1914 is read as +00:00).
- **Range.** The time on the zone's clock must fall from 1583-01-01T00:00 to
  9998-12-31T23:59:59, whatever clock or offset it was given in.

The calendar then reads three clocks off a :class:`CivilTime`: the zone's clock (recorded as
``cast_at``), its *standard* clock (``offset`` minus summer time; day and hour pillars) and
the fixed +08:00 clock (:attr:`CivilTime.beijing`: year, month, solar term, half-year).
"""

from __future__ import annotations

import os
import re
from datetime import UTC, date, datetime, timedelta, timezone
from functools import lru_cache
from typing import NamedTuple
from zoneinfo import ZoneInfo, available_timezones

from yimao_db.errors import UsageError, shown

__all__ = [
    "DEFAULT_TZ",
    "FIRST",
    "LAST",
    "TZ_ENV",
    "CivilTime",
    "ZoneClock",
    "default_tz",
    "is_iana_name",
    "out_of_range",
    "parse_at",
    "zone_clock",
    "zone_names",
]

DEFAULT_TZ = "Asia/Shanghai"
TZ_ENV = "YIMAO_TZ"  # the user's own default zone, if set and not empty
FIRST, LAST = datetime(1583, 1, 1), datetime(9998, 12, 31, 23, 59, 59)
LMT = "LMT"  # the tz database's abbreviation for local mean time
BEIJING_OFFSET = timedelta(hours=8)
ZERO = timedelta(0)
DAY = timedelta(days=1)
_ZONE_KEY = re.compile(r"[A-Za-z0-9_+\-]+(?:/[A-Za-z0-9_+\-]+)*")
# Files of the zoneinfo directory that ZoneInfo opens but that name no IANA zone: the
# machine's own zone (localtime), the POSIX default rules, the tz database's placeholder
# zone for machines not yet set up (Factory), and the variant trees with and without leap
# seconds (right/…, posix/…)
_NOT_IANA = frozenset({"localtime", "posixrules", "Factory"})
_NOT_IANA_TREES = ("right/", "posix/")
# LMT periods are found by sampling every zone once a year over this span (the shortest
# stretch between two LMT periods in the tz database is three years: Africa/Lagos)
_SCAN = (datetime(1500, 1, 1), datetime(2101, 1, 1))


class ZoneClock(NamedTuple):
    """A zone and how its local-mean-time periods are read."""

    name: str
    zone: ZoneInfo
    first_standard: timedelta | None  # the offset that stands for LMT; None: no LMT period
    lmt_until: datetime | None  # naive UTC: no LMT period at or after this instant


class CivilTime(NamedTuple):
    """A moment in a zone: the instant and the zone's clock at it."""

    tz: str
    utc: datetime  # the instant, naive UTC, whole seconds
    offset: timedelta  # of the zone's clock at the instant (LMT read as the first standard)
    dst: timedelta  # the summer time included in ``offset``
    note: str | None = None  # what was assumed, e.g. "no time given; taking …"

    @property
    def local(self) -> datetime:
        """The zone's clock, aware, with its offset."""
        return (self.utc + self.offset).replace(tzinfo=_fixed(self.offset))

    @property
    def standard(self) -> datetime:
        """The zone's standard clock (summer time taken off), naive."""
        return self.utc + self.offset - self.dst

    @property
    def beijing(self) -> datetime:
        """The fixed UTC+08:00 clock, naive."""
        return self.utc + BEIJING_OFFSET

    @property
    def cast_at(self) -> str:
        """The zone's clock in ISO 8601 with its offset, to the second."""
        return (self.utc + self.offset).isoformat() + _offset_text(self.offset)


@lru_cache(maxsize=64)
def _fixed(offset: timedelta) -> timezone:
    return timezone(offset)


@lru_cache(maxsize=64)
def _offset_text(offset: timedelta) -> str:
    """``+08:00``, ``-04:56:02``."""
    return datetime(2000, 1, 1, tzinfo=_fixed(offset)).isoformat()[19:]


def _wall_text(wall: datetime) -> str:
    return wall.isoformat(timespec="minutes" if wall.second == 0 else "seconds")


def _is_lmt(zone: ZoneInfo, utc: datetime) -> bool:
    return utc.replace(tzinfo=UTC).astimezone(zone).tzname() == LMT


def _change(zone: ZoneInfo, before: datetime, after: datetime) -> datetime:
    """The first instant in (before, after] whose LMT-ness differs from ``before``'s."""
    was = _is_lmt(zone, before)
    lo, hi = 0, int((after - before).total_seconds())
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _is_lmt(zone, before + timedelta(seconds=mid)) == was:
            lo = mid
        else:
            hi = mid
    return before + timedelta(seconds=hi)


def _lmt_periods(zone: ZoneInfo) -> tuple[timedelta | None, datetime | None]:
    """(the first standard offset, the end of the last LMT period), or (None, None)."""
    start, end = _SCAN
    samples = [datetime(year, 1, 1) for year in range(start.year, end.year + 1)]
    lmt = [_is_lmt(zone, t) for t in samples]
    if not any(lmt) or lmt[-1]:
        return None, None
    first = lmt.index(False)
    if first == 0:  # LMT comes only later: its first standard offset is the one before it
        first_change = samples[0]
    else:
        first_change = _change(zone, samples[first - 1], samples[first])
    last = len(lmt) - 1 - lmt[::-1].index(True)
    lmt_until = _change(zone, samples[last], samples[last + 1])
    local = first_change.replace(tzinfo=UTC).astimezone(zone)
    standard = (local.utcoffset() or ZERO) - (local.dst() or ZERO)
    return standard, lmt_until


_KNOWN: dict[str, ZoneClock] = {}  # zones already read, by the exact name given
_KNOWN_MAX = 1024


def zone_clock(tz: str) -> ZoneClock:
    """The zone named ``tz`` (cached); UsageError for anything but a known IANA name."""
    known = _KNOWN.get(tz) if isinstance(tz, str) else None
    if known is not None:  # an import names the same zone row after row
        return known
    if (
        not isinstance(tz, str)
        or len(tz) > 64
        or not _ZONE_KEY.fullmatch(tz)
        or not is_iana_name(tz)
    ):
        raise _unknown_zone(tz)
    clock = _zone_clock(tz)
    if len(_KNOWN) < _KNOWN_MAX:
        _KNOWN[tz] = clock
    return clock


def is_iana_name(tz: str) -> bool:
    """Whether ``tz`` may name an IANA zone: not a file of the zoneinfo directory that names
    none (``localtime``, ``posixrules``, ``Factory``, ``right/…``, ``posix/…``)."""
    return tz not in _NOT_IANA and not tz.startswith(_NOT_IANA_TREES)


def zone_names() -> set[str]:
    """The IANA zones this machine knows: every name :func:`zone_clock` accepts."""
    return {tz for tz in available_timezones() if is_iana_name(tz)}


def default_tz() -> str:
    """The zone of a date-time given without one: ``$YIMAO_TZ`` if set and not empty, else
    Asia/Shanghai. UsageError, naming the variable, if it is set to no known zone."""
    tz = os.environ.get(TZ_ENV, "").strip()
    if not tz:
        return DEFAULT_TZ
    try:
        zone_clock(tz)
    except UsageError:
        raise UsageError(
            f"${TZ_ENV} is {shown(tz)}, which is no time zone: expected an IANA name like "
            f"Asia/Shanghai (or unset it for {DEFAULT_TZ})"
        ) from None
    return tz


def _unknown_zone(tz: object) -> UsageError:
    return UsageError(f"unknown time zone {shown(tz)}: expected an IANA name like Asia/Shanghai")


@lru_cache(maxsize=1024)
def _zone_clock(tz: str) -> ZoneClock:
    try:
        zone = ZoneInfo(tz)
    except (KeyError, ValueError, OSError):  # unknown key, not a TZif file, a directory
        raise _unknown_zone(tz) from None
    first_standard, lmt_until = _lmt_periods(zone)
    return ZoneClock(tz, zone, first_standard, lmt_until)


def _offsets(clock: ZoneClock, utc: datetime) -> tuple[timedelta, timedelta]:
    """(offset, summer time) of the zone's clock at the instant, LMT read as standard."""
    local = clock.zone.fromutc(utc.replace(tzinfo=clock.zone))
    if clock.lmt_until is not None and utc < clock.lmt_until and local.tzname() == LMT:
        assert clock.first_standard is not None
        return clock.first_standard, ZERO
    return local.utcoffset() or ZERO, local.dst() or ZERO


def _usual(clock: ZoneClock, wall: datetime) -> tuple[datetime, timedelta, timedelta] | None:
    """(instant, offset, summer time) of a wall time in the usual case (no gap, no fold, no
    LMT within a day); None otherwise."""
    aware = wall.replace(tzinfo=clock.zone)
    offset = aware.utcoffset() or ZERO
    if offset != aware.replace(fold=1).utcoffset():
        return None
    utc = wall - offset
    if clock.lmt_until is not None and utc < clock.lmt_until + DAY:
        return None
    return utc, offset, aware.dst() or ZERO


def _instants(clock: ZoneClock, wall: datetime) -> list[datetime]:
    """Every instant (naive UTC) at which the zone's clock read ``wall``, earliest first."""
    aware = wall.replace(tzinfo=clock.zone)
    offsets = {aware.utcoffset() or ZERO, aware.replace(fold=1).utcoffset() or ZERO}
    if clock.first_standard is not None:
        offsets.add(clock.first_standard)
    found = {wall - o for o in offsets}
    return sorted(u for u in found if u + _offsets(clock, u)[0] == wall)


def _jump(clock: ZoneClock, wall: datetime) -> tuple[datetime, timedelta, timedelta]:
    """For a wall time the clocks skipped: (the instant they jumped, offset before, after)."""
    start = wall - timedelta(hours=30)  # zone offsets stay within ±16 h
    lo, hi = 0, 60 * 3600
    while hi - lo > 1:  # the clock reads before ``wall`` at lo, after it at hi
        mid = (lo + hi) // 2
        u = start + timedelta(seconds=mid)
        if u + _offsets(clock, u)[0] < wall:
            lo = mid
        else:
            hi = mid
    instant = start + timedelta(seconds=hi)
    before = _offsets(clock, instant - timedelta(seconds=1))[0]
    return instant, before, _offsets(clock, instant)[0]


def _clock_text(wall: datetime, on: date) -> str:
    """A wall time as HH:MM(:SS), with its date only when it is not ``on``."""
    text = wall.strftime("%H:%M" if wall.second == 0 else "%H:%M:%S")
    return text if wall.date() == on else f"{wall:%Y-%m-%d}T{text}"


def _resolve(clock: ZoneClock, wall: datetime, *, day_start: bool) -> datetime:
    """The instant of a naive wall time; refused if skipped or repeated, except that the
    start of a day (``day_start``) is its first instant."""
    found = _instants(clock, wall)
    if len(found) == 1 or (found and day_start):
        return found[0]
    if found:
        offsets = [_offset_text(_offsets(clock, u)[0]) for u in found]
        raise UsageError(
            f"{_wall_text(wall)} is ambiguous in {clock.name}: it happened twice, at"
            f" {' and at '.join(offsets)}; give the offset, e.g. {_wall_text(wall)}{offsets[0]}"
        )
    instant, before, after = _jump(clock, wall)
    if day_start:
        return instant
    raise UsageError(
        f"{_wall_text(wall)} does not exist in {clock.name}: clocks jumped from"
        f" {_clock_text(instant + before, wall.date())} to"
        f" {_clock_text(instant + after, wall.date())}"
        f" ({_offset_text(before)} to {_offset_text(after)})"
    )


def out_of_range(given: object, tz: str, local: datetime | None) -> UsageError:
    """The one-line refusal of a time outside the range (``local``: it on the zone's clock)."""
    text = given.isoformat() if isinstance(given, datetime) else str(given).strip()
    where = "" if local is None else f"in {tz} that is {local.isoformat()}; "
    return UsageError(
        f"date {text} out of range: {where}expected a time from"
        f" {FIRST:%Y-%m-%dT%H:%M} to {LAST.isoformat()} in {tz}"
    )


def _read(when: datetime | str) -> tuple[datetime, bool]:
    """The datetime given, and whether it was a date without a time."""
    if isinstance(when, datetime):
        return when, False
    if not isinstance(when, str):
        raise UsageError(f"bad date {shown(when)}: expected a datetime or an ISO date-time string")
    text = when.strip()
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(
            f"bad date {shown(when)}: expected an ISO date-time like 2026-11-30T09:15"
            " (optionally with an offset like +08:00)"
        ) from None
    if len(text) > 10:  # every form with a time is longer
        return parsed, False
    try:
        date.fromisoformat(text)
    except ValueError:
        return parsed, False
    return parsed, True


def parse_at(when: datetime | str | None = None, tz: str = DEFAULT_TZ) -> CivilTime:
    """The moment ``when`` in zone ``tz``; see the module docstring for the rules.

    ``when`` is an ISO 8601 string, a datetime (naive = wall time in ``tz``) or None for
    now. UsageError (one line) for an unknown zone, a bad date, a time the zone's clocks
    skipped or showed twice, or a time outside the supported range.
    """
    clock = zone_clock(tz)
    given = when
    note = None
    date_only = False
    usual = None
    try:
        if when is None:
            utc = datetime.now(UTC).replace(tzinfo=None, microsecond=0)
        else:
            when, date_only = _read(when)
            given_offset = when.utcoffset()
            if given_offset is not None:  # an instant
                utc = when.replace(tzinfo=None) - given_offset
                utc = utc.replace(microsecond=0) if utc.microsecond else utc
            else:
                wall = when.replace(microsecond=0) if when.microsecond else when
                usual = _usual(clock, wall)
                if usual is not None:
                    utc, offset, dst = usual
                else:
                    utc = _resolve(clock, wall, day_start=date_only)
        if usual is None:
            offset, dst = _offsets(clock, utc)
        local = utc + offset
        if date_only:
            note = f"no time given; taking {_wall_text(local)} {tz}"
    except OverflowError:
        raise out_of_range(given, tz, None) from None
    if not FIRST <= local <= LAST:
        raise out_of_range(given, tz, local.replace(tzinfo=_fixed(offset)))
    return CivilTime(tz, utc, offset, dst, note)
