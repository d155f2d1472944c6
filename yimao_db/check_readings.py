"""``yimao check``: every reading against its own inputs.

A reading stores what was cast (``method``, ``cast_input``, the six lines) and when
(``cast_at``, ``tz``, ``early_rat``, or pillars given directly), plus the moment the calendar
computed from it. Each reading is checked for:

* **lines**: exactly six, positions 1..6, values 6..9; coins on every line of a thrown cast
  (``coins``, ``random``) and on none of the others;
* **the cast**: ``cast_input`` read again as its ``method`` says gives the stored lines
  (values; coins too for ``coins``); a ``random`` cast has no input;
* **the moment**, for a reading cast at a date-time: the calendar
  (:func:`yimao_db.moment.moment_at`) run again on ``cast_at``, ``tz`` and ``early_rat``
  gives the stored ``cast_at`` (its canonical form: civil time of ``tz`` with its offset),
  year, month and hour pillars, month branch, day pillar, solar term and half-year; each
  column that differs is one problem. A ``cast_at`` that no longer parses or an unknown
  ``tz`` is a problem too;
* **the moment**, for a reading given as pillars: what can be told from the pillars alone
  (:func:`yimao_db.moment.moment_from_pillars`): each is one of the sixty, the month pillar's
  branch is the month branch, its stem fits the year stem (五虎遁), the hour stem fits the
  day stem (五子遁); no solar term, half-year or early rat (they come from a date-time);
* **the seasonal najia** needs a half-year; ``created_at`` is a UTC ISO 8601 time;
* **the chart resolves**: ``v_reading`` gives the reading one row and ``v_reading_line`` six.
  Given sound reference tables (checked before), a chart's rows depend only on the day
  pillar and the primary hexagram (every other join is a LEFT JOIN on a unique key), so the
  views are run for one reading per distinct (day pillar, primary hexagram) and for every
  reading whose lines are broken, not for every reading.

Scale: the readings are read in one streamed query (their lines summed up per reading in
SQL), sorted by (``tz``, ``early_rat``, ``cast_at``) so that readings cast at the same moment
come together and the calendar runs once per distinct moment. ``cast_input`` is parsed once
per distinct (method, input).

Limits: a change that keeps a reading consistent cannot be told from the original: another
question, another ``created_at``, ``cast_at`` moved within the same hour and solar term,
``early_rat`` flipped outside 23:00-24:00, another najia variant where both apply, and the
lines and coins of a ``random`` cast changed together. A reading given as a month branch
and a day alone has nothing to compare.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import Connection, bindparam, inspect, text

from yimao_db import casting, moment
from yimao_db.errors import UsageError
from yimao_db.problems import Capped, CheckReport, Progress, format_key
from yimao_db.rules.ganzhi import ganzhi

# the stored moment compared with the calendar, column by column
MOMENT_COLUMNS = (
    "cast_at",
    "year_gz",
    "month_gz",
    "month_branch",
    "day_gz",
    "hour_gz",
    "solar_term",
    "half_year",
)
THROWN = ("coins", "random")  # the methods that store coins
PROGRESS_EVERY = 10_000
BROKEN_CHARTS = 1000  # readings with broken lines whose chart is looked at one by one

# One row per reading with its lines summed up: count, lowest and highest position, values
# outside 6..9, and the six values (and coins) as the digits of one number, position p
# being the digit 10^(6-p): 789678 is line 1 = 7 … line 6 = 8.
READINGS = """
SELECT r.id, r.created_at, r.method, r.cast_input, r.cast_at, r.tz, r.early_rat,
       r.year_gz, r.month_gz, r.month_branch, r.day_gz, r.hour_gz, r.solar_term,
       r.half_year, r.najia_variant,
       l.n, l.lo, l.hi, l.bad, l.vals, l.coins, l.ncoins
FROM reading r
LEFT JOIN (
  SELECT reading_id, COUNT(*) AS n, MIN(position) AS lo, MAX(position) AS hi,
         SUM(CASE WHEN value IN (6, 7, 8, 9) THEN 0 ELSE 1 END) AS bad,
         SUM(CASE WHEN value IN (6, 7, 8, 9) THEN value * (
               CASE position WHEN 1 THEN 100000 WHEN 2 THEN 10000 WHEN 3 THEN 1000
                             WHEN 4 THEN 100 WHEN 5 THEN 10 WHEN 6 THEN 1 ELSE 0 END)
             ELSE 0 END) AS vals,
         SUM(CASE WHEN coins IN (0, 1, 2, 3) THEN coins * (
               CASE position WHEN 1 THEN 100000 WHEN 2 THEN 10000 WHEN 3 THEN 1000
                             WHEN 4 THEN 100 WHEN 5 THEN 10 WHEN 6 THEN 1 ELSE 0 END)
             ELSE 0 END) AS coins,
         COUNT(coins) AS ncoins
  FROM reading_line GROUP BY reading_id) l ON l.reading_id = r.id
ORDER BY r.tz, r.early_rat, r.cast_at, r.id
"""

CASTS = "SELECT DISTINCT method, cast_input FROM reading"
COUNT = "SELECT COUNT(*) FROM reading"
ORPHAN_LINES = """
SELECT l.reading_id, l.position FROM reading_line l
WHERE NOT EXISTS (SELECT 1 FROM reading r WHERE r.id = l.reading_id)
ORDER BY l.reading_id, l.position
"""
CHART_HEADS = text(
    "SELECT reading_id, COUNT(*) FROM v_reading WHERE reading_id IN :ids GROUP BY reading_id"
).bindparams(bindparam("ids", expanding=True))
CHART_LINES = text(
    "SELECT reading_id, COUNT(*) FROM v_reading_line WHERE reading_id IN :ids GROUP BY reading_id"
).bindparams(bindparam("ids", expanding=True))
CHART_BATCH = 500


@cache
def _sixty() -> frozenset[str]:
    return frozenset(ganzhi(n).name for n in range(1, 61))


@dataclass(frozen=True)
class Lines:
    """A cast read again from its input: six values (and coins, if thrown), or why not."""

    values: str | None
    coins: int | None  # the coins as the number the SQL sums them to
    error: str | None


def _reread(conn: Connection, method: str, cast_input: str) -> Lines:
    """``cast_input`` read as ``method`` says (through ``conn`` for hexagram names)."""
    try:
        if method == "values":
            cast = casting.from_values(cast_input)
        elif method == "coins":
            cast = casting.from_coins(cast_input)
        else:
            cast = casting.parse(conn, cast_input)
    except UsageError as exc:
        return Lines(None, None, f"does not parse: {exc}")
    except Exception as exc:  # damaged reference tables (reported by the data check)
        return Lines(None, None, f"cannot be read again: {type(exc).__name__}: {exc}")
    if cast.method != method:
        return Lines(None, None, f"is a {cast.method} cast")
    coins = None
    if cast.coins is not None:
        coins = sum(c * 10 ** (6 - p) for p, c in enumerate(cast.coins, 1))
    return Lines(cast.values, coins, None)


def read_casts(conn: Connection) -> dict[tuple[Any, Any], Lines]:
    """Every distinct (method, cast_input) read again, once."""
    casts = {}
    for method, cast_input in conn.execute(text(CASTS)).all():
        if method in ("values", "coins", "notation", "hexagram") and isinstance(cast_input, str):
            casts[method, cast_input] = _reread(conn, method, cast_input)
    return casts


def _utc_iso(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return False
    return when.utcoffset() == timedelta(0)


class Readings:
    """The per-reading checks; problems go to ``found``, keyed by reading id."""

    def __init__(self, conn: Connection, found: Capped) -> None:
        self.conn = conn
        self.found = found
        self.casts = read_casts(conn)
        self.last_moment: tuple[Any, moment.Moment | str] | None = None
        self.moments = 0  # distinct moments recomputed
        self.charts: dict[tuple[Any, str], int] = {}  # (day, primary bits) → a reading
        self.broken: list[int] = []  # readings with broken lines

    def problem(self, rid: int, what: str, detail: str, table: str = "reading") -> None:
        key = f"id={rid}" if table == "reading" else f"reading_id={rid}"
        self.found.add(table, key, what, detail, order=rid)

    def check(self, r: Mapping[Any, Any]) -> None:
        rid = r["id"]
        values = self.lines(r)
        if values is not None:
            self.cast(r, values)
            self.charts.setdefault((r["day_gz"], _bits(values)), rid)
        elif len(self.broken) < BROKEN_CHARTS:
            self.broken.append(rid)
        if r["created_at"] is not None and not _utc_iso(r["created_at"]):
            self.problem(
                rid,
                "readings whose created_at is not a UTC time",
                f"created_at {r['created_at']!r} is not a UTC ISO 8601 time "
                "(like 2026-01-01T00:00:00.000000+00:00)",
            )
        if r["najia_variant"] == "seasonal" and r["half_year"] is None:
            self.problem(
                rid,
                "seasonal readings without a half-year",
                "najia_variant is 'seasonal', but the reading has no half-year (only a "
                "date-time gives one)",
            )
        valid = self.valid_moment(r)
        if r["cast_at"] is None and r["tz"] is None:
            if valid:
                self.pillars(r)
        elif r["cast_at"] is None or r["tz"] is None:
            given, missing = ("tz", "cast_at") if r["cast_at"] is None else ("cast_at", "tz")
            self.problem(
                rid,
                "readings with only one of cast_at and tz",
                f"{missing} is NULL but {given} is {r[given]!r}: a reading cast at a "
                "date-time has both, one given as pillars neither",
            )
        elif r["early_rat"] in (0, 1) and isinstance(r["early_rat"], int):
            self.recomputed(r)

    def lines(self, r: Mapping[Any, Any]) -> str | None:
        """The six values as text (line 1 first), or None after reporting broken lines."""
        rid, n = r["id"], r["n"] or 0
        if n != 6 or r["lo"] != 1 or r["hi"] != 6 or r["bad"]:
            shape = f"{n} lines (positions {r['lo']}..{r['hi']}), {r['bad']} values outside 6..9"
            self.problem(
                rid,
                "readings without six lines 1..6 of values 6..9",
                f"{shape if n else '0 lines'}; expected six lines 1..6 with values 6..9",
                table="reading_line",
            )
            return None
        thrown = r["method"] in THROWN
        if r["ncoins"] != (6 if thrown else 0) and r["method"] is not None:
            self.problem(
                rid,
                "readings whose coins do not fit the method",
                f"{r['ncoins']} of the six lines have coins; a {r['method']} reading has "
                + ("coins on every line" if thrown else "none"),
            )
        return f"{int(r['vals']):06d}"

    def cast(self, r: Mapping[Any, Any], values: str) -> None:
        """``cast_input`` read again gives the stored lines."""
        rid, method, given = r["id"], r["method"], r["cast_input"]
        what = "readings whose lines do not match cast_input"
        if method == "random":
            if given is not None:
                self.problem(
                    rid,
                    what,
                    f"cast_input {given!r} (method random) is not NULL: a random cast has no input",
                )
            return
        if method not in ("values", "coins", "notation", "hexagram"):
            return  # the CHECK on method reports it
        if not isinstance(given, str):
            self.problem(rid, what, f"cast_input is {given!r} (method {method}): expected text")
            return
        lines = self.casts[method, given]
        said = f"cast_input {given!r} (method {method})"
        if lines.error is not None:
            self.problem(rid, what, f"{said} {lines.error}")
        elif lines.values != values:
            self.problem(rid, what, f"{said} gives lines {lines.values}, the stored are {values}")
        elif lines.coins is not None and r["ncoins"] == 6 and lines.coins != r["coins"]:
            self.problem(rid, what, f"{said} gives other coins than the stored ones")

    def valid_moment(self, r: Mapping[Any, Any]) -> bool:
        """Day and month branch present, every pillar one of the sixty. (How the pillars fit
        each other is checked by :meth:`pillars` or against the calendar.)"""
        sixty, branches = _sixty(), {g[1] for g in _sixty()}
        day, branch, month = r["day_gz"], r["month_branch"], r["month_gz"]
        ok = (
            day in sixty
            and branch in branches
            and all(r[p] is None or r[p] in sixty for p in ("year_gz", "month_gz", "hour_gz"))
        )
        if not ok:
            self.problem(
                r["id"],
                "readings with an invalid moment",
                f"invalid moment: day {day!r}, month branch {branch!r}, month {month!r}, "
                f"year {r['year_gz']!r}, hour {r['hour_gz']!r} (day and month branch are "
                "required, every pillar one of the sixty)",
            )
        return ok

    def pillars(self, r: Mapping[Any, Any]) -> None:
        """A reading given as pillars: the pillars fit each other; nothing from a clock."""
        rid, what = r["id"], "readings given as pillars that do not fit"
        try:
            moment.moment_from_pillars(
                day=r["day_gz"],
                month=r["month_gz"],
                year=r["year_gz"],
                hour=r["hour_gz"],
                month_branch=r["month_branch"],
            )
        except UsageError as exc:
            self.problem(rid, what, str(exc))
        for column in ("solar_term", "half_year", "early_rat"):
            if r[column] not in (None, 0):
                self.problem(
                    rid,
                    what,
                    f"{column} is {r[column]!r}, but a reading given as pillars has none "
                    "(it comes from a date-time)",
                )

    def calendar(self, cast_at: Any, tz: Any, early_rat: int) -> moment.Moment | str:
        """The moment of (cast_at, tz, early_rat), or why there is none; readings come
        sorted by these, so remembering the last one computes each distinct moment once."""
        key = (cast_at, tz, early_rat)
        if self.last_moment is not None and self.last_moment[0] == key:
            return self.last_moment[1]
        self.moments += 1
        result: moment.Moment | str
        try:
            result = moment.moment_at(cast_at, tz, bool(early_rat))
        except UsageError as exc:
            result = str(exc)
        except Exception as exc:  # a stored value the calendar cannot take: report, not crash
            result = f"{type(exc).__name__}: {exc}"
        self.last_moment = (key, result)
        return result

    def recomputed(self, r: Mapping[Any, Any]) -> None:
        """Each stored moment column against the calendar run again."""
        rid, cast_at, tz = r["id"], r["cast_at"], r["tz"]
        got = self.calendar(cast_at, tz, r["early_rat"])
        if isinstance(got, str):
            self.problem(
                rid,
                "readings whose cast_at and tz cannot be recomputed",
                f"cast_at {cast_at!r} (tz {tz!r}) cannot be recomputed: {got}",
            )
            return
        for column in MOMENT_COLUMNS:
            want = getattr(got, column)
            if r[column] == want:
                continue
            if column == "cast_at":
                detail = (
                    f"cast_at is {cast_at!r}, the calendar gives {want!r} for that instant in "
                    f"{tz}: the stored form is not the civil time of tz with its offset"
                )
            else:
                detail = (
                    f"{column} is {r[column]!r}, the calendar gives {want!r} for cast_at "
                    f"{cast_at!r} (tz {tz!r}, early_rat {r['early_rat']})"
                )
            self.problem(rid, f"readings whose {column} disagrees with the calendar", detail)

    def check_charts(self) -> None:
        """The chart views give one row and six lines for a reading of each distinct (day,
        primary hexagram) and for each reading with broken lines."""
        ids = sorted({*self.charts.values(), *self.broken})
        for start in range(0, len(ids), CHART_BATCH):
            batch = ids[start : start + CHART_BATCH]
            heads = dict(self.conn.execute(CHART_HEADS, {"ids": batch}).tuples().all())
            lines = dict(self.conn.execute(CHART_LINES, {"ids": batch}).tuples().all())
            for rid in batch:
                if heads.get(rid, 0) != 1 or lines.get(rid, 0) != 6:
                    self.found.add(
                        "v_reading",
                        f"reading_id={rid}",
                        "readings whose chart does not resolve",
                        f"the chart does not resolve: {heads.get(rid, 0)} v_reading rows, "
                        f"{lines.get(rid, 0)} v_reading_line rows (expected 1 and 6)",
                        order=rid,
                    )


def _bits(values: str) -> str:
    """The primary hexagram's bits: yang (7, 9) is 1."""
    return "".join("1" if v in "79" else "0" for v in values)


def _stream(conn: Connection) -> Iterator[Mapping[Any, Any]]:
    result = conn.execution_options(stream_results=True, yield_per=2000).execute(text(READINGS))
    yield from result.mappings()


def check_readings(conn: Connection, report: CheckReport, progress: Progress | None) -> None:
    """Lines, cast, moment and chart of every reading (see the module docstring)."""
    if not {"reading", "reading_line"} <= set(inspect(conn).get_table_names()):
        return
    found = Capped("reading")
    for rid, pos in conn.execute(text(ORPHAN_LINES)):
        found.add(
            "reading_line",
            format_key(("reading_id", "position"), (rid, pos)),
            "lines of readings that do not exist",
            "line of a reading that does not exist",
            order=rid if isinstance(rid, int) else 0,
        )
    total = int(conn.execute(text(COUNT)).scalar_one())
    checker = Readings(conn, found)
    done = 0
    for row in _stream(conn):
        checker.check(row)
        done += 1
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress("readings", done, total)
    if progress is not None:
        progress("readings", done, total)
    checker.check_charts()
    report.problems.extend(found.problems())
    report.checked.append(f"{done} readings")
    report.checked.append(f"{checker.moments} moments recomputed")
