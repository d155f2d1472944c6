"""Calendar benchmark: the fast moment computation against tyme4py's objects.

1. The full comparison, which must find 0 differences: ``moment_at`` against
   ``yimao_db.calendar.tymeoracle.reference_moment`` (tyme4py's objects, per moment) on
   100,000 random minutes of 1901-2099 in Asia/Shanghai (each with a random day convention),
   and on every 節 of 1901-2099 one minute before and one minute after its instant (there
   also against tyme4py's ``SolarTime.get_term()`` as it is).
2. Moments per second of both paths on the same inputs (ISO strings with an offset, zone
   Asia/Shanghai; both paths parse the string the same way), after a warm-up of both: the
   median of several runs, wall clock and CPU. Also the fast path on naive strings (the
   form ``yimao import`` mostly gets) and from cold (term instants not yet read).

Run: ``python benchmarks/calendar.py`` (a few minutes: the tyme4py side is slow).
``--moments N`` compares N random moments instead of 100,000.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from yimao_db.calendar import solarterms
from yimao_db.calendar.civiltime import parse_at
from yimao_db.calendar.moment import moment_at
from yimao_db.calendar.tymeoracle import (
    get_term_pillars,
    jie_minutes,
    random_minutes,
    reference_moment,
)

TZ = "Asia/Shanghai"
YEARS = range(1901, 2100)


def compare(texts: Sequence[str], conventions: Sequence[bool]) -> int:
    """Differences between the fast path and tyme4py's objects."""
    differences = 0
    for text, early_rat in zip(texts, conventions, strict=True):
        fast = moment_at(text, TZ, early_rat)
        slow = reference_moment(parse_at(text, TZ), early_rat)
        if fast != slow:
            differences += 1
            if differences <= 10:
                print(f"  difference at {text} (early_rat={early_rat}):\n    {fast}\n    {slow}")
    return differences


def compare_get_term(texts: Sequence[str]) -> int:
    differences = 0
    for text in texts:
        m = moment_at(text, TZ)
        if (m.solar_term, m.year_gz, m.month_gz) != get_term_pillars(parse_at(text, TZ)):
            differences += 1
            if differences <= 10:
                print(f"  get_term() differs at {text}")
    return differences


def rate(fn: Callable[[str], object], texts: Sequence[str], runs: int) -> tuple[float, float]:
    """Median moments/s over ``runs`` runs: (wall clock, CPU)."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        for text in texts:
            fn(text)
        walls.append(len(texts) / (time.perf_counter() - wall))
        cpus.append(len(texts) / max(time.process_time() - cpu, 1e-9))
    return statistics.median(walls), statistics.median(cpus)


def fast(text: str) -> object:
    return moment_at(text, TZ)


def slow(text: str) -> object:
    return reference_moment(parse_at(text, TZ))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moments", type=int, default=100_000, help="random moments (100000)")
    parser.add_argument("--timed", type=int, default=5000, help="moments per tyme4py run (5000)")
    parser.add_argument("--seed", type=int, default=12, help="random seed (12)")
    args = parser.parse_args(argv)

    minutes = random_minutes(args.moments, args.seed, YEARS[0], YEARS[-1])
    texts = [m.isoformat(timespec="minutes") for m in minutes]
    rng = random.Random(args.seed)
    conventions = [rng.random() < 0.5 for _ in texts]

    solarterms.clear_cache()
    start = time.perf_counter()
    for text in texts[:2000]:
        moment_at(text, TZ)
    cold = time.perf_counter() - start
    years = len(solarterms.cached_years())
    print(
        f"cold: the first 2000 moments took {cold:.2f} s, reading the terms of {years} years"
        " (from the shipped table; tyme4py only outside 1901-2100)"
    )

    print(f"comparing {len(texts)} random minutes of 1901-2099 in {TZ} …")
    random_diffs = compare(texts, conventions)
    jie = [m.isoformat(timespec="minutes") for m in jie_minutes(YEARS)]
    print(f"comparing {len(jie)} moments: every 節 of 1901-2099 ± 1 minute …")
    jie_diffs = compare(jie, [False] * len(jie)) + compare(jie, [True] * len(jie))
    get_term_diffs = compare_get_term(jie)
    print(
        f"differences: {random_diffs} in {len(texts)} random moments, {jie_diffs} around the"
        f" 節 (both day conventions), {get_term_diffs} against get_term() around the 節"
    )

    timed = texts[: args.timed]
    rate(fast, timed, 1)  # warm-up both
    rate(slow, timed[:500], 1)
    fast_wall, fast_cpu = rate(fast, texts, 5)
    slow_wall, slow_cpu = rate(slow, timed, 3)
    naive = [m.strftime("%Y-%m-%dT%H:%M") for m in minutes if m.year >= 1992]
    naive_wall, naive_cpu = rate(fast, naive, 5)
    print(f"fast path:   {fast_wall:,.0f} moments/s (CPU {fast_cpu:,.0f}/s), {len(texts)} moments")
    print(f"tyme4py:     {slow_wall:,.0f} moments/s (CPU {slow_cpu:,.0f}/s), {len(timed)} moments")
    print(f"speed-up:    {fast_wall / slow_wall:.0f}x (CPU {fast_cpu / slow_cpu:.0f}x)")
    print(
        f"fast path, naive strings (1992-2099, no summer time in Shanghai):"
        f" {naive_wall:,.0f} moments/s (CPU {naive_cpu:,.0f}/s)"
    )
    return 1 if random_diffs or jie_diffs or get_term_diffs else 0


if __name__ == "__main__":
    sys.exit(main())
