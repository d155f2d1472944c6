"""The lodge table (§8.12: 日纏, 月麗): its size, its cost, and how far it can be trusted.

1. Size of ``yimao_db/kb/rules/lodge_table.py``, how many ingresses it holds, and what
   importing it and looking lodges up costs (a fresh interpreter, its bytecode cached).
2. ``--generate``: the time ``python -m yimao_db.calendar.lodges --write-table`` takes
   (the text is computed, not written).
3. The sun's right ascension in ephem against the solar terms the calendar takes from
   tyme4py, an independent computation of the sun (寿星天文历): at 春分 the sun's apparent
   longitude is 0°, at 秋分 180°, so its apparent right ascension of date is 0h or 12h. For
   each of the 400 equinoxes of 1901-2100 the instant ephem puts the sun there is found,
   and its difference from tyme4py's instant reported (seconds: ephem − tyme4py).
4. With skyfield and the JPL ephemeris DE421 (``pip install skyfield skyfield-data``,
   1900-2050; not a dependency of yimao-db): every 97th ingress of the table in 1901-2050
   (as ``yimao check`` samples them), the body's and the star's apparent right ascensions
   of date computed by skyfield at the shipped instant, taken as UT1 (ephem's UT), and the
   distance between them turned into time by the body's motion: how many seconds skyfield
   would put the ingress from the shipped instant (skyfield − table).

Run: ``python benchmarks/lodges.py`` (``--generate`` adds two minutes).
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from yimao_db.calendar import lodges as generator
from yimao_db.calendar.solarterms import term_instants
from yimao_db.kb.facts import facts, lodge_stars
from yimao_db.kb.rules import lodge_table, lodges

SPRING, AUTUMN = 6, 18  # 春分 and 秋分 in tyme4py's term order
HOURS8 = 8 * 3600
DAY = 86400


def summary(values: Sequence[float]) -> str:
    """Mean, median, the 95th percentile and the largest of the absolute values."""
    absolute = sorted(abs(v) for v in values)
    p95 = absolute[min(len(absolute) - 1, int(0.95 * len(absolute)))]
    return (
        f"n={len(values)} mean {statistics.fmean(values):+.1f} s, |median| "
        f"{statistics.median(absolute):.1f} s, |95%| {p95:.1f} s, |max| {absolute[-1]:.1f} s"
    )


def size_and_cost() -> None:
    path = Path(lodge_table.__file__)
    count = {b: sum(len(lodges.ingresses(b, y)) for y in range(1901, 2101)) for b in lodges.BODIES}
    print(f"table: {path.stat().st_size:,} bytes, {count['日']:,} sun and {count['月']:,} moon")
    probe = (
        "import time, yimao_db.kb.facts; t = time.perf_counter(); "
        "import yimao_db.kb.rules.lodge_table; "
        "a = time.perf_counter() - t; from yimao_db.kb.rules import lodges; "
        "from datetime import datetime, timezone; t = time.perf_counter(); "
        "lodges.lodge_at('月', datetime(2026, 11, 30, 1, 15, tzinfo=timezone.utc)); "
        "b = time.perf_counter() - t; t = time.perf_counter(); "
        "lodges.lodge_at('月', datetime(2026, 12, 1, 1, 15, tzinfo=timezone.utc)); "
        "c = time.perf_counter() - t; t = time.perf_counter(); rows = lodges.ingress_rows(); "
        "d = time.perf_counter() - t; "
        "print(f'{a * 1e3:.1f} {b * 1e3:.2f} {c * 1e6:.1f} {d:.2f} {len(rows)}')"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True)  # bytecode
    runs = [
        subprocess.run(
            [sys.executable, "-c", probe], check=True, capture_output=True, text=True
        ).stdout.split()
        for _ in range(5)
    ]
    med = [statistics.median(float(r[i]) for r in runs) for i in range(4)]
    print(
        f"import lodge_table {med[0]:.1f} ms; first lookup of a year {med[1]:.2f} ms, "
        f"next {med[2]:.1f} µs; all {runs[0][4]} rows of lodge_ingress {med[3]:.2f} s"
    )


def generation_time() -> None:
    began = time.perf_counter()
    cpu = time.process_time()
    generator.table_text()
    wall, used = time.perf_counter() - began, time.process_time() - cpu
    print(f"generation: {wall:.0f} s wall, {used:.0f} s CPU")


def sun_at_ra(target: float, near: int) -> float:
    """The instant within a day of ``near`` (UTC clock seconds) at which ephem's sun has the
    apparent right ascension ``target`` (radians)."""
    sky = generator.Sky.make()

    def f(s: float) -> float:
        return generator._wrap(sky.body_ra("日", s) - target)

    low, high = float(near - DAY), float(near + DAY)
    for _ in range(80):
        mid = (low + high) / 2
        if f(mid) < 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def equinoxes() -> None:
    spring: list[float] = []
    autumn: list[float] = []
    for year in range(1901, 2101):
        terms = term_instants(year)
        for index, target, found in ((SPRING, 0.0, spring), (AUTUMN, math.pi, autumn)):
            tyme = terms[index] - HOURS8  # +08:00 clock → UTC clock seconds
            found.append(sun_at_ra(target, tyme) - tyme)
    print("sun's RA 0h/12h in ephem against tyme4py's 春分/秋分 (ephem − tyme4py):")
    for name, values in (("1901-2100", spring + autumn), ("春分", spring), ("秋分", autumn)):
        print(f"  {name}: {summary(values)}")
    for first, last in ((1901, 1950), (1951, 2000), (2001, 2050), (2051, 2100)):
        part = [v for y, v in enumerate(spring, 1901) if first <= y <= last]
        part += [v for y, v in enumerate(autumn, 1901) if first <= y <= last]
        print(f"  {first}-{last}: {summary(part)}")


def skyfield_objects() -> tuple[Any, Any, dict[str, Any], list[Any]] | None:
    try:
        import skyfield_data
        from skyfield.api import Star, load, load_file
    except ImportError:
        return None
    ts = load.timescale()  # skyfield's own ΔT and leap seconds, offline
    planets = load_file(str(Path(skyfield_data.get_skyfield_data_path()) / "de421.bsp"))
    stars = [
        Star(
            ra_hours=s.ra_j2000 / 15,
            dec_degrees=s.dec_j2000,
            ra_mas_per_year=s.pm_ra,
            dec_mas_per_year=s.pm_dec,
        )
        for s in lodge_stars()
    ]
    return ts, planets["earth"], {"日": planets["sun"], "月": planets["moon"]}, stars


def against_skyfield() -> None:
    objects = skyfield_objects()
    if objects is None:
        print("skyfield: not installed (pip install skyfield skyfield-data), skipped")
        return
    ts, earth, bodies, stars = objects
    epoch = lodges.year_start(2000) + DAY // 2  # JD 2451545.0 = 2000-01-01 12:00

    def ra(thing: Any, seconds: float) -> float:
        t = ts.ut1_jd(2451545.0 + (seconds - epoch) / DAY)
        return float(earth.at(t).observe(thing).apparent().radec(epoch="date")[0].radians)

    mansions = facts().mansions
    found: dict[str, list[tuple[int, float]]] = {b: [] for b in lodges.BODIES}
    for body in lodges.BODIES:
        sample = [
            x
            for i, x in enumerate(x for y in range(1901, 2050) for x in lodges.ingresses(body, y))
            if i % generator.VERIFY_STRIDE == 0
        ]
        for ingress in sample:
            s, star = ingress.seconds, stars[mansions.index(ingress.mansion)]
            lead = generator._wrap(ra(bodies[body], s) - ra(star, s))
            rate = generator._wrap(ra(bodies[body], s + 60) - ra(bodies[body], s - 60)) / 120
            year = int(lodges.format_utc(s)[:4])
            found[body].append((year, -lead / rate))
    print("skyfield + DE421 against the table (seconds, skyfield − table):")
    for body in lodges.BODIES:
        values = [v for _, v in found[body]]
        print(f"  {body} 1901-2049: {summary(values)}")
        for first, last in ((1901, 1955), (1956, 2025), (2026, 2049)):
            part = [v for y, v in found[body] if first <= y <= last]
            print(f"    {first}-{last}: {summary(part)}")


def main(argv: list[str] | None = None) -> int:
    # skyfield-data warns that its Earth-orientation file is old: only UT1 - UTC after it
    warnings.filterwarnings("ignore", category=RuntimeWarning, module="skyfield_data")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generate", action="store_true", help="also time the generation")
    args = parser.parse_args(argv)
    size_and_cost()
    if args.generate:
        generation_time()
    equinoxes()
    against_skyfield()
    return 0


if __name__ == "__main__":
    sys.exit(main())
