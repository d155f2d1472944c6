"""The sun's and the moon's ingresses into the 28 lodges, computed with ephem.

This module generates and verifies :mod:`yimao_db.kb.rules.lodge_table`, which
:mod:`yimao_db.kb.rules.lodges` reads (the rule and its decision are described there and in
docs/rules.md §8). It needs the astronomy library `ephem <https://pypi.org/project/ephem/>`_
(``pip install 'yimao-db[lodges]'``), which carries its theories of the sun and the moon
built in and works offline; nothing that casts or shows a reading imports it.

Positions are ephem's apparent geocentric right ascensions of date (``g_ra``: precession,
nutation and aberration applied; for the stars their proper motion too, from
``seed/data/lodge_stars.tsv``). Instants are UTC clock seconds as in the rule module; ephem
takes them as UT and applies its own ΔT.

The search: from a start, the body's lodge is found among all 28 stars; then the body is
followed in steps (the sun a day, the moon six hours). After each step the stars ahead of
it are tested in order; for each one it has passed, the instant it passed is found by
root-finding on (body's RA − star's RA), wrapped to ±180°, bracketed by the step, to 0.01 s,
and rounded to the second. Each step must carry the body eastward by less than 45°: a body
that stood still or went back in right ascension (which the sun and the moon never do at
their declinations) is an error, not a guess, so the lodges of the table follow one another
in the order of the mansions by construction, and :func:`verify_table` checks them against
ephem again.

``python -m yimao_db.calendar.lodges --write-table`` rewrites the table (about two minutes).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from yimao_db.kb.facts import facts, lodge_stars
from yimao_db.kb.rules import lodge_table
from yimao_db.kb.rules.lodges import (
    BODIES,
    DAY,
    FIRST_YEAR,
    LAST_YEAR,
    MOON,
    SUN,
    WIDTH,
    format_utc,
    ingresses,
    year_start,
)
from yimao_db.whole_file import write_whole

__all__ = [
    "EphemMissing",
    "Sky",
    "available",
    "compute_ingresses",
    "lodge_by_ephem",
    "table_text",
    "verify_table",
    "write_table",
]

TAU = 2 * math.pi
STEP = {SUN: DAY, MOON: DAY // 4}  # seconds per search step
MAX_STEP = math.radians(45)  # the most a body may move in right ascension in one step
TOLERANCE = 0.01  # seconds: the root's bracket at the end
MARGIN = 40 * DAY  # searched before and after the table's years, for BEFORE and AFTER
VERIFY_STRIDE = 97  # verify_table recomputes every 97th ingress of each body
VERIFY_WINDOW = 600  # seconds around a shipped instant searched for the ingress
# ephem counts days from 1899-12-31 12:00 UT (the Dublin Julian Day)
EPHEM_EPOCH = date(1899, 12, 31).toordinal() * DAY + DAY // 2


class EphemMissing(Exception):
    """The astronomy library ephem is not installed."""


def _ephem() -> Any:
    try:
        import ephem
    except ImportError:
        raise EphemMissing(
            "the lodge table needs the astronomy library ephem: pip install 'yimao-db[lodges]'"
        ) from None
    return ephem


def available() -> bool:
    """Whether ephem can be imported."""
    try:
        _ephem()
    except EphemMissing:
        return False
    return True


def _wrap(angle: float) -> float:
    """An angle in radians reduced to [-π, π)."""
    return (angle + math.pi) % TAU - math.pi


@dataclass
class Sky:
    """ephem's sun, moon and the 28 determinative stars (in the order of the mansions)."""

    bodies: dict[str, Any]
    stars: list[Any]

    @classmethod
    def make(cls) -> Sky:
        ephem = _ephem()
        stars = []
        found = tuple(s.mansion for s in lodge_stars())
        if found != facts().mansions:
            raise ValueError(f"lodge_stars.tsv lists {''.join(found)}, not the 28 mansions")
        for s in lodge_stars():
            star = ephem.FixedBody()
            star._epoch = ephem.J2000
            star._ra = math.radians(s.ra_j2000)
            star._dec = math.radians(s.dec_j2000)  # before _pmra, which divides by cos δ
            star._pmra = s.pm_ra
            star._pmdec = s.pm_dec
            stars.append(star)
        return cls({SUN: ephem.Sun(), MOON: ephem.Moon()}, stars)

    @staticmethod
    def _ra(thing: Any, seconds: float) -> float:
        thing.compute((seconds - EPHEM_EPOCH) / DAY)
        return float(thing.g_ra)

    def body_ra(self, body: str, seconds: float) -> float:
        """The body's apparent geocentric right ascension of date, radians."""
        return self._ra(self.bodies[body], seconds)

    def star_ra(self, k: int, seconds: float) -> float:
        """The apparent right ascension of date of the k-th lodge's star (角 = 0)."""
        return self._ra(self.stars[k % 28], seconds)

    def lead(self, body: str, k: int, seconds: float) -> float:
        """How far the body is east of the k-th star in right ascension, in [-π, π)."""
        return _wrap(self.body_ra(body, seconds) - self.star_ra(k, seconds))

    def lodge_index(self, body: str, seconds: float) -> int:
        """The lodge the body is in: the one whose star it passed last (least lead ≥ 0)."""
        alpha = self.body_ra(body, seconds)
        return min(range(28), key=lambda k: (alpha - self.star_ra(k, seconds)) % TAU)

    def ingress(self, body: str, k: int, low: float, high: float) -> float:
        """The instant in [low, high] at which the body reaches the k-th star (its lead
        negative at ``low``, not at ``high``): regula falsi with bisection, to 0.01 s."""

        def f(s: float) -> float:
            return self.lead(body, k, s)

        f_low, f_high = f(low), f(high)
        if not f_low < 0 <= f_high:
            raise ValueError(
                f"{body} does not pass the star of {facts().mansions[k % 28]} between "
                f"{format_utc(int(low))} and {format_utc(int(high))}"
            )
        for n in range(200):
            if high - low <= TOLERANCE:
                return (low + high) / 2
            mid = high - f_high * (high - low) / (f_high - f_low)
            if n % 3 == 2 or not low < mid < high:
                mid = (low + high) / 2
            f_mid = f(mid)
            if f_mid < 0:
                low, f_low = mid, f_mid
            else:
                high, f_high = mid, f_mid
        raise ArithmeticError("the ingress search did not converge")  # pragma: no cover

    def crossings(self, body: str, start: int, end: int) -> tuple[int, list[tuple[float, int]]]:
        """The lodge the body is in at ``start`` (index from 角) and every ingress in
        [start, end) as (instant, index of the lodge entered), in time order."""
        step = STEP[body]
        at = start
        k = first = self.lodge_index(body, start)
        alpha = self.body_ra(body, start)
        found: list[tuple[float, int]] = []
        while at < end:
            following = at + step
            moved = (self.body_ra(body, following) - alpha) % TAU
            if not 0 < moved < MAX_STEP:
                raise ValueError(
                    f"{body} moved {math.degrees(moved):.3f}° in right ascension from "
                    f"{format_utc(at)} in one step: not steadily eastward"
                )
            alpha += moved
            for _ in range(28):
                if self.lead(body, k + 1, following) < 0:
                    break
                k += 1
                found.append((self.ingress(body, k, at, following), k % 28))
            else:  # pragma: no cover - a body passing every star in one step
                raise ValueError(f"{body} passed all 28 stars in one step from {format_utc(at)}")
            at = following
        return first, [(s, i) for s, i in found if s < end]


@cache
def _sky() -> Sky:
    return Sky.make()


def compute_ingresses(body: str, start: int, end: int) -> tuple[str, list[tuple[int, str]]]:
    """The lodge ``body`` is in at ``start`` and its ingresses in [start, end) (UTC clock
    seconds), computed now with ephem: (instant to the second, lodge entered)."""
    mansions = facts().mansions
    first, found = _sky().crossings(body, start, end)
    return mansions[first], [(round(s), mansions[k]) for s, k in found]


def lodge_by_ephem(body: str, seconds: float) -> str:
    """The lodge ``body`` is in at UTC clock ``seconds``, computed now with ephem (any year
    ephem covers, not only the table's)."""
    return facts().mansions[_sky().lodge_index(body, seconds)]


def _line(body: str, lodge: str, year: int, instants: list[int]) -> str:
    width = WIDTH[body]
    digits = []
    previous = year_start(year)
    for s in instants:
        step = s - previous
        if not 0 < step < 36**width:
            raise ValueError(f"{body} {year}: an interval of {step} s does not fit {width} digits")
        digits.append(_base36(step).rjust(width, "0"))
        previous = s
    return lodge + "".join(digits)


def _base36(n: int) -> str:
    out = ""
    while n:
        n, d = divmod(n, 36)
        out = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + out
    return out or "0"


def _body_lines(body: str, first: int, last: int) -> tuple[list[str], str, str]:
    """The table's lines for ``body``, and the instants BEFORE and AFTER."""
    mansions = facts().mansions
    start, end = year_start(first), year_start(last + 1)
    lodge, found = compute_ingresses(body, start - MARGIN, end + MARGIN)
    before = [s for s, _ in found if s < start]
    after = [s for s, _ in found if s >= end]
    if not before or not after:
        raise ValueError(f"{body}: no ingress within {MARGIN // DAY} days of the table")
    lines = []
    for year in range(first, last + 1):
        y0, y1 = year_start(year), year_start(year + 1)
        passed = [m for s, m in found if s < y0]
        lodge_then = passed[-1] if passed else lodge
        instants = [s for s, _ in found if y0 <= s < y1]
        lines.append(_line(body, lodge_then, year, instants))
    order = [m for _, m in found]
    for a, b in pairwise(order):
        if mansions.index(b) != (mansions.index(a) + 1) % 28:
            raise ValueError(f"{body}: {b} entered after {a}, not in the order of the mansions")
    return lines, format_utc(before[-1]), format_utc(after[0])


def table_text(first: int = FIRST_YEAR, last: int = LAST_YEAR) -> str:
    """The source of :mod:`yimao_db.kb.rules.lodge_table` for the UTC years
    ``first``-``last``, every instant computed now with the installed ephem."""
    ephem = _ephem()
    parts: dict[str, tuple[list[str], str, str]] = {b: _body_lines(b, first, last) for b in BODIES}

    def lines(body: str) -> str:
        return "".join(f'    "{line}",\n' for line in parts[body][0])

    return TABLE_TEMPLATE.format(
        first=first,
        last=last,
        ephem=ephem.__version__,
        mansions="".join(facts().mansions),
        before=", ".join(f'"{b}": "{parts[b][1]}"' for b in BODIES),
        after=", ".join(f'"{b}": "{parts[b][2]}"' for b in BODIES),
        sun=lines(SUN),
        moon=lines(MOON),
    )


TABLE_TEMPLATE = (
    '"""The sun\'s and the moon\'s ingresses into the 28 lodges, {first}-{last} (UTC), as '
    "ephem {ephem} computes them."
    '''

Generated by ``python -m yimao_db.calendar.lodges --write-table``; do not edit. Read by
:mod:`yimao_db.kb.rules.lodges`, which describes the format: one line per UTC year, the
lodge in force at its start, then the intervals to each ingress in base 36 (the sun five
digits each, the moon four). ``yimao check`` recomputes a sample with the ephem installed
(:func:`yimao_db.calendar.lodges.verify_table`).
"""

FIRST_YEAR = {first}
LAST_YEAR = {last}
MANSIONS = "{mansions}"
BEFORE = {{{before}}}
AFTER = {{{after}}}

SUN = (
{sun})

MOON = (
{moon})
'''
)


def write_table(path: Path | None = None) -> Path:
    """Write :func:`table_text` to ``path`` (default: the module's own file), whole or not
    at all: the text is computed first, written beside the target and renamed over it."""
    target = path or Path(lodge_table.__file__)
    write_whole(target, table_text())
    return target


@cache
def _ephem_ingress(body: str, k: int, seconds: int) -> int | None:
    """ephem's instant, to the second, at which ``body`` reaches the k-th star within
    ``VERIFY_WINDOW`` of ``seconds`` (None when it finds none there). Computed once a
    process: ephem gives the same answer every time, so a second check in one process
    searches only the ingresses it has not searched before."""
    try:
        return round(_sky().ingress(body, k, seconds - VERIFY_WINDOW, seconds + VERIFY_WINDOW))
    except ValueError:
        return None


def verify_table(
    stride: int = VERIFY_STRIDE,
    progress: Callable[[int, int], None] | None = None,
    years: range = range(FIRST_YEAR, LAST_YEAR + 1),
) -> list[str]:
    """Differences between a sample of the shipped ingresses and ephem's (empty when all
    agree to the second): every ``stride``-th ingress of each body in ``years`` is searched
    for again within ten minutes of its shipped instant. Raises :class:`EphemMissing`
    without ephem."""
    mansions = facts().mansions
    sample = [
        ingress
        for body in BODIES
        for i, ingress in enumerate(x for year in years for x in ingresses(body, year))
        if i % stride == 0
    ]
    problems = []
    for done, ingress in enumerate(sample):
        if progress is not None and done % 100 == 0:
            progress(done, len(sample))
        where = f"lodge table: {ingress.body} enters {ingress.mansion} at"
        found = _ephem_ingress(ingress.body, mansions.index(ingress.mansion), ingress.seconds)
        if found is None:
            problems.append(
                f"{where} {format_utc(ingress.seconds)}, ephem finds no such ingress within "
                f"{VERIFY_WINDOW // 60} minutes"
            )
            continue
        if abs(found - ingress.seconds) > 1:
            problems.append(f"{where} {format_utc(ingress.seconds)}, ephem {format_utc(found)}")
    return problems


def main(argv: list[str]) -> int:
    if argv != ["--write-table"]:
        print("usage: python -m yimao_db.calendar.lodges --write-table", file=sys.stderr)
        return 2
    began = time.perf_counter()
    try:
        target = write_table()
    except (EphemMissing, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {target} in {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
