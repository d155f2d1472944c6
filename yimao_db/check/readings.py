"""``yimao check``: every reading against its own inputs.

A reading stores what was cast (``method``, ``cast_input``, the six lines) and when
(``cast_at``, ``tz``, ``early_rat``, or pillars given directly), plus the moment the calendar
computed from it. Each reading is checked for:

* **lines**: exactly six, positions 1..6, values 6..9; coins on every line of a thrown cast
  (``coins``, ``random``) and on none of the others;
* **the cast**: ``cast_input`` read again as its ``method`` says gives the stored lines
  (values; coins too for ``coins``); a ``random`` cast has no input;
* **the moment**, for a reading cast at a date-time: the calendar
  (:func:`yimao_db.calendar.moment.moment_at`) run again on ``cast_at``, ``tz`` and ``early_rat``
  gives the stored ``cast_at`` (its canonical form: civil time of ``tz`` with its offset),
  year, month and hour pillars, month branch, day pillar, solar term and half-year; each
  column that differs is one problem. A ``cast_at`` that no longer parses or an unknown
  ``tz`` is a problem too;
* **the moment**, for a reading given as pillars: what the pillars alone tell
  (:func:`yimao_db.calendar.moment.moment_from_pillars`): each is one of the sixty, the month
  pillar's branch is the month branch, its stem fits the year stem (五虎遁), the hour stem
  fits the day stem (五子遁); and no solar term, half-year or early rat (only a date-time
  has them);
* **the keys** stored with the lines (``primary_kw``, ``changed_kw``, ``moving_mask``,
  ``najia_half``) are what :func:`yimao_db.kb.rules.keys.reading_keys` gives the lines;
* **the seasonal najia** needs a half-year; ``created_at`` is a UTC ISO 8601 time;
* **the chart**: ``v_reading`` gives the reading one row and ``v_reading_line`` six, and every
  value of its chart (the head, its lines, hidden spirits and changed lines) equals the
  expected chart of its inputs
  (:func:`yimao_db.kb.expected.chart.expected_chart`).
  Given sound reference tables (checked before, row by row against the rules), a chart is a
  function of the reading's keys and moment, so the views run for one reading per distinct
  (day pillar, primary hexagram) and for every reading whose lines are broken.

Scale: nothing is checked reading by reading in Python. SQL groups the readings by what a
check depends on, and each distinct group is checked once: the moments by (``tz``,
``early_rat``, ``cast_at``, the stored moment), sorted so that the calendar runs once per
distinct (``cast_at``, ``tz``, ``early_rat``); the casts by (``method``, ``cast_input``, the
day, the lines summed up per reading). Only when a group fails are the readings read once
more, to name each failing reading by id.

Limits: a change that keeps a reading consistent cannot be told from the original: another
question, another valid ``created_at``, ``cast_at`` moved within the same hour and solar
term, ``early_rat`` flipped outside 23:00-24:00, another najia variant where both apply,
the lines and coins of a ``random`` cast changed together. A reading given as a month branch
and a day alone has nothing to compare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Connection, bindparam, inspect, text

from yimao_db import casting, dialect
from yimao_db.calendar import moment
from yimao_db.check.problems import Capped, CheckReport, Progress, format_key
from yimao_db.check.signs import sign_problems
from yimao_db.errors import UsageError, shown
from yimao_db.kb.expected.chart import ExpectedChart, expected_chart
from yimao_db.kb.rules.ganzhi import ganzhi
from yimao_db.kb.rules.keys import KEY_COLUMNS, reading_keys
from yimao_db.kb.vocab import NAJIA_VARIANTS
from yimao_db.readings import PILLAR_COLUMNS

# the stored moment, compared with the calendar column by column
MOMENT_COLUMNS = ("cast_at", "cast_utc", *PILLAR_COLUMNS)
# The reading columns compared value by value here (a value read from bytes that are not
# UTF-8 cannot equal what it is compared with), which check_cells need not decode again.
COMPARED = frozenset(
    ("reading", c) for c in (*MOMENT_COLUMNS, "tz", "early_rat", "cast_input", "created_at")
)
THROWN = ("coins", "random")  # the methods that store coins
READ_AGAIN = ("values", "coins", "notation", "hexagram")  # the methods with a cast_input
BROKEN_CHARTS = 1000  # readings with broken lines whose chart is looked at one by one
CHART_BATCH = 500
PROGRESS_EVERY = 20_000  # readings

# A reading's lines summed up in SQL: their count, and the values and the coins as the
# hexadecimal digits of one number each, position p being the digit 16^p: 789678 is
# 0x8769870 (line 1 = 7 in digit 1 … line 6 = 8 in digit 6).
LINES = """(
  SELECT reading_id, COUNT(*) AS n, SUM(value << (4 * position)) AS vals,
         SUM(coins << (4 * position)) AS coins, COUNT(coins) AS ncoins
  FROM reading_line GROUP BY reading_id)"""

# Q1: the moments, each distinct (inputs, stored moment) once, same inputs together
MOMENT_KEY = ("tz", "early_rat", "cast_at", *MOMENT_COLUMNS[1:])
MOMENTS = """
SELECT tz, early_rat, cast_at, cast_utc, year_gz, month_gz, month_branch, day_gz, hour_gz,
       solar_term, half_year, COUNT(*)
FROM reading
GROUP BY tz, early_rat, cast_at, cast_utc, year_gz, month_gz, month_branch, day_gz, hour_gz,
         solar_term, half_year
ORDER BY tz, early_rat, cast_at
"""

# Q2: the casts, each distinct (method, input, day, lines) once
CAST_KEY = ("method", "cast_input", "day_gz", "n", "vals", "coins", "ncoins")
CASTS = """
SELECT r.method, r.cast_input, r.day_gz, l.n, l.vals, l.coins, l.ncoins, COUNT(*), MIN(r.id)
FROM reading r LEFT JOIN LINES l ON l.reading_id = r.id
GROUP BY r.method, r.cast_input, r.day_gz, l.n, l.vals, l.coins, l.ncoins
""".replace("LINES", LINES)

# Q2b: the keys derived from the lines, each distinct (lines, najia inputs, keys) once
KEY_KEY = ("n", "vals", "najia_variant", "half_year", *KEY_COLUMNS)  # the columns of KEYS
KEYS = """
SELECT l.n, l.vals, r.najia_variant, r.half_year,
       r.primary_kw, r.changed_kw, r.moving_mask, r.najia_half, COUNT(*)
FROM reading r LEFT JOIN LINES l ON l.reading_id = r.id
GROUP BY l.n, l.vals, r.najia_variant, r.half_year,
         r.primary_kw, r.changed_kw, r.moving_mask, r.najia_half
""".replace("LINES", LINES)

# Q3: readings named directly by a condition on their own row
SEASONAL = "SELECT id FROM reading WHERE najia_variant = 'seasonal' AND half_year IS NULL"
COUNT = "SELECT COUNT(*) FROM reading"
ORPHAN_LINES = """
SELECT l.reading_id, l.position FROM reading_line l
WHERE NOT EXISTS (SELECT 1 FROM reading r WHERE r.id = l.reading_id)
ORDER BY l.reading_id, l.position
"""

# the readings read once more when a group failed, to name them
FAILED_MOMENTS = "SELECT id, " + ", ".join(MOMENT_KEY) + " FROM reading"
FAILED_KEYS = """
SELECT r.id, l.n, l.vals, r.najia_variant, r.half_year,
       r.primary_kw, r.changed_kw, r.moving_mask, r.najia_half
FROM reading r LEFT JOIN LINES l ON l.reading_id = r.id
""".replace("LINES", LINES)
FAILED_CASTS = """
SELECT r.id, r.method, r.cast_input, r.day_gz, l.n, l.vals, l.coins, l.ncoins
FROM reading r LEFT JOIN LINES l ON l.reading_id = r.id
""".replace("LINES", LINES)

CHART_HEADS = text(
    "SELECT reading_id, COUNT(*) FROM v_reading WHERE reading_id IN :ids GROUP BY reading_id"
).bindparams(bindparam("ids", expanding=True))
CHART_LINES = text(
    "SELECT reading_id, COUNT(*) FROM v_reading_line WHERE reading_id IN :ids GROUP BY reading_id"
).bindparams(bindparam("ids", expanding=True))

Found = list[tuple[str, str, str]]  # (table, what: how they are counted, detail)


@cache
def _sixty() -> frozenset[str]:
    return frozenset(ganzhi(n).name for n in range(1, 61))


@cache
def _branches() -> frozenset[str]:
    return frozenset(g[1] for g in _sixty())


def digits(number: Any) -> dict[int, int]:
    """The hexadecimal digits 1..7 of a lines sum: position → value (0: no line there)."""
    if not isinstance(number, int):
        return {}
    return {p: (number >> (4 * p)) & 0xF for p in range(1, 8)}


def six(number: Any) -> str | None:
    """The six values of a lines sum as text (line 1 first), if it holds exactly those."""
    if not isinstance(number, int) or number < 0 or number >> 28 or number & 0xF:
        return None
    values = digits(number)
    if not all(6 <= values[p] <= 9 for p in range(1, 7)):
        return None
    return "".join(str(values[p]) for p in range(1, 7))


def _positions(number: Any) -> str:
    held = [p for p, v in digits(number).items() if v]
    return "1..6" if held == list(range(1, 7)) else ",".join(map(str, held)) or "none"


@dataclass(frozen=True)
class Cast:
    """A ``cast_input`` read again: the six values and coins (as summed in SQL), or why not."""

    values: str | None
    coins: int | None
    error: str | None


def read_again(conn: Connection, method: str, cast_input: str) -> Cast:
    """``cast_input`` read as ``method`` says (through ``conn`` for hexagram names)."""
    try:
        if method == "values":
            cast = casting.from_values(cast_input)
        elif method == "coins":
            cast = casting.from_coins(cast_input)
        else:
            cast = casting.parse(conn, cast_input)
    except UsageError as exc:
        return Cast(None, None, f"does not parse: {exc}")
    except Exception as exc:  # damaged reference tables (the data check reports them)
        return Cast(None, None, f"cannot be read again: {type(exc).__name__}: {exc}")
    if cast.method != method:
        return Cast(None, None, f"is a {cast.method} cast")
    coins = None
    if cast.coins is not None:
        coins = sum(c << (4 * p) for p, c in enumerate(cast.coins, 1))
    return Cast(cast.values, coins, None)


def skipped(cast_at: str, tz: str) -> bool:
    """Whether the wall clock of ``cast_at`` never showed in ``tz`` (a gap where the clocks
    went forward): moment_at once stored such times with the offset before the gap."""
    try:
        wall = datetime.fromisoformat(cast_at).replace(tzinfo=None)
        zone = ZoneInfo(tz)
    except (ValueError, KeyError, OSError):
        return False
    there = wall.replace(tzinfo=zone).astimezone(UTC).astimezone(zone)
    return there.replace(tzinfo=None) != wall


def _utc_iso(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return False
    return when.utcoffset() == timedelta(0)


@dataclass
class Checker:
    """The checks of one group of readings, and what failed, by group key."""

    conn: Connection
    casts: dict[tuple[Any, Any], Cast] = field(default_factory=dict)
    last_moment: tuple[tuple[Any, ...], moment.Moment | str] | None = None
    moments: int = 0  # distinct moments computed
    failed_moments: dict[tuple[Any, ...], Found] = field(default_factory=dict)
    failed_casts: dict[tuple[Any, ...], Found] = field(default_factory=dict)
    failed_keys: dict[tuple[Any, ...], Found] = field(default_factory=dict)
    charts: dict[tuple[Any, str], int] = field(default_factory=dict)  # (day, bits) → id

    # --- moments ---------------------------------------------------------------------------

    def moment_group(self, g: dict[str, Any]) -> Found:
        found: Found = []
        self.valid_pillars(g, found)
        if g["cast_at"] is None and g["tz"] is None:
            self.given_pillars(g, found)
        elif g["cast_at"] is None or g["tz"] is None:
            given, missing = ("tz", "cast_at") if g["cast_at"] is None else ("cast_at", "tz")
            found.append(
                (
                    "reading",
                    "readings with only one of cast_at and tz",
                    f"{missing} is NULL but {given} is {shown(g[given])}: a reading cast at a "
                    "date-time has both, one given as pillars neither",
                )
            )
        elif isinstance(g["early_rat"], int) and g["early_rat"] in (0, 1):
            self.recomputed(g, found)  # another early_rat: its CHECK reports it
        return found

    def valid_pillars(self, g: dict[str, Any], found: Found) -> None:
        """Day and month branch present, every pillar one of the sixty. (How the pillars
        fit each other is checked by :meth:`given_pillars` or against the calendar.)"""
        sixty = _sixty()
        if (
            g["day_gz"] in sixty
            and g["month_branch"] in _branches()
            and all(g[p] is None or g[p] in sixty for p in ("year_gz", "month_gz", "hour_gz"))
        ):
            return
        found.append(
            (
                "reading",
                "readings with an invalid moment",
                f"invalid moment: day {shown(g['day_gz'])}, "
                f"month branch {shown(g['month_branch'])}, month {shown(g['month_gz'])}, "
                f"year {shown(g['year_gz'])}, hour {shown(g['hour_gz'])} (day and month branch "
                "are required, every pillar one of the sixty)",
            )
        )

    def given_pillars(self, g: dict[str, Any], found: Found) -> None:
        """A reading given as pillars: the pillars fit each other; nothing from a clock."""
        what = "readings given as pillars that do not fit"
        try:
            moment.moment_from_pillars(
                day=g["day_gz"],
                month=g["month_gz"],
                year=g["year_gz"],
                hour=g["hour_gz"],
                month_branch=g["month_branch"],
            )
        except UsageError as exc:
            found.append(("reading", what, str(exc)))
        for column in ("cast_utc", "solar_term", "half_year", "early_rat"):
            if g[column] not in (None, 0):
                found.append(
                    (
                        "reading",
                        what,
                        f"{column} is {shown(g[column])}, but a reading given as pillars has none "
                        "(only a date-time has one)",
                    )
                )

    def calendar(self, cast_at: Any, tz: Any, early_rat: int) -> moment.Moment | str:
        """The moment of (cast_at, tz, early_rat), or why there is none. Groups come sorted
        by these, so remembering the last one computes each distinct moment once."""
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

    def recomputed(self, g: dict[str, Any], found: Found) -> None:
        """Each stored moment column against the calendar run again."""
        cast_at, tz = g["cast_at"], g["tz"]
        got = self.calendar(cast_at, tz, g["early_rat"])
        if isinstance(got, str):
            found.append(
                (
                    "reading",
                    "readings whose cast_at and tz cannot be recomputed",
                    f"cast_at {shown(cast_at)} (tz {shown(tz)}) cannot be recomputed: {got}",
                )
            )
            return
        for column in MOMENT_COLUMNS:
            want = getattr(got, column)
            if g[column] == want:
                continue
            if column == "cast_at":
                why = (
                    f"a civil time that {tz} skipped (summer time began)"
                    if skipped(cast_at, tz)
                    else f"not the civil time of {tz} with its offset"
                )
                detail = f"cast_at is {shown(cast_at)}, {why}: the calendar gives {shown(want)}"
            else:
                detail = (
                    f"{column} is {shown(g[column])}, the calendar gives {shown(want)} for cast_at "
                    f"{shown(cast_at)} (tz {shown(tz)}, early_rat {g['early_rat']})"
                )
            found.append(
                ("reading", f"readings whose {column} disagrees with the calendar", detail)
            )

    # --- the keys derived from the lines ----------------------------------------------------

    def keys_group(self, g: dict[str, Any]) -> Found:
        """The stored keys equal :func:`yimao_db.kb.rules.keys.reading_keys` of the lines (a
        reading without six good lines is reported by :meth:`lines`)."""
        values = six(g["vals"]) if g["n"] == 6 else None
        if values is None or g["najia_variant"] not in NAJIA_VARIANTS:
            return []
        want = reading_keys(values, g["najia_variant"], g["half_year"])
        return [
            (
                "reading",
                f"readings whose {column} is not what their lines give",
                f"{column} is {shown(g[column])}; "
                f"the lines {values} give {shown(getattr(want, column))}",
            )
            for column in KEY_COLUMNS
            if g[column] != getattr(want, column)
        ]

    # --- lines and casts -------------------------------------------------------------------

    def cast_group(self, g: dict[str, Any], first: int) -> Found:
        found: Found = []
        values = self.lines(g, found)
        if values is not None:
            self.cast(g, values, found)
            bits = "".join("1" if v in "79" else "0" for v in values)
            self.charts.setdefault((g["day_gz"], bits), first)
        return found

    def lines(self, g: dict[str, Any], found: Found) -> str | None:
        """The six values as text (line 1 first), or None after reporting broken lines."""
        n, values = g["n"] or 0, six(g["vals"])
        if n != 6 or values is None:
            bad = sum(1 for p, v in digits(g["vals"]).items() if p <= 6 and v and not 6 <= v <= 9)
            shape = f"{n} lines (positions {_positions(g['vals'])}), {bad} values outside 6..9"
            found.append(
                (
                    "reading_line",
                    "readings without six lines 1..6 of values 6..9",
                    f"{shape if n else '0 lines'}; expected six lines 1..6 with values 6..9",
                )
            )
            return None
        method = g["method"]
        thrown = method in THROWN
        if method is not None and g["ncoins"] != (6 if thrown else 0):
            found.append(
                (
                    "reading",
                    "readings whose coins do not fit the method",
                    f"{g['ncoins']} of the six lines have coins; a {method} reading has "
                    + ("coins on every line" if thrown else "none"),
                )
            )
        return values

    def cast(self, g: dict[str, Any], values: str, found: Found) -> None:
        """``cast_input`` read again gives the stored lines."""
        method, given = g["method"], g["cast_input"]
        what = "readings whose lines do not match cast_input"
        if method == "random":
            if given is not None:
                found.append(
                    (
                        "reading",
                        what,
                        f"cast_input {shown(given)} (method random) is not NULL: a random cast "
                        "has no input",
                    )
                )
            return
        if method not in READ_AGAIN:
            return  # the CHECK on method reports it
        if not isinstance(given, str):
            found.append(("reading", what, f"cast_input is {shown(given)} (method {method})"))
            return
        if (method, given) not in self.casts:
            self.casts[method, given] = read_again(self.conn, method, given)
        again = self.casts[method, given]
        said = f"cast_input {shown(given)} (method {method})"
        if again.error is not None:
            found.append(("reading", what, f"{said} {again.error}"))
        elif again.values != values:
            found.append(("reading", what, f"{said} gives lines {again.values}, not {values}"))
        elif again.coins is not None and g["ncoins"] == 6 and again.coins != g["coins"]:
            found.append(("reading", what, f"{said} gives other coins than the stored ones"))


def _groups(
    conn: Connection, sql: str, key: Sequence[str], extra: int
) -> Iterator[tuple[dict[str, Any], tuple[Any, ...]]]:
    """The rows of a GROUP BY query as (key columns by name, the other columns)."""
    result = conn.execution_options(stream_results=True, yield_per=5000).execute(text(sql))
    width = len(key)
    for row in result:
        values = tuple(row)
        yield dict(zip(key, values[:width], strict=True)), values[width : width + extra]


def _name_failed(
    conn: Connection,
    sql: str,
    failed: dict[tuple[Any, ...], Found],
    found: Capped,
    on_failed: Callable[[int, Found], None] | None = None,
) -> None:
    """Read the readings once more and file the problems of each in a failed group by id."""
    result = conn.execution_options(stream_results=True, yield_per=5000).execute(text(sql))
    for row in result:
        rid, key = row[0], tuple(row[1:])
        problems = failed.get(key)
        if problems is None:
            continue
        for table, what, detail in problems:
            where = f"id={rid}" if table == "reading" else f"reading_id={rid}"
            found.add(table, where, what, detail, order=rid)
        if on_failed is not None:
            on_failed(rid, problems)


def check_readings(conn: Connection, report: CheckReport, progress: Progress | None) -> list[int]:
    """Lines, cast and moment of every reading (see the module docstring); returns the
    readings whose chart :func:`check_charts` is to look at."""
    if not {"reading", "reading_line"} <= set(inspect(conn).get_table_names()):
        return []
    found = Capped("reading")
    total = int(conn.execute(text(COUNT)).scalar_one())
    checker = Checker(conn)

    def step(part: str, done: int, of: int = total) -> None:
        if progress is not None:
            progress(f"readings ({part})", done, of)

    step("lines and casts", 0, 0)
    for g, (_count, first) in _groups(conn, CASTS, CAST_KEY, 2):
        if problems := checker.cast_group(g, first):
            checker.failed_casts[tuple(g.values())] = problems
    step("keys", 0, 0)
    for g, _count in _groups(conn, KEYS, KEY_KEY, 1):
        if problems := checker.keys_group(g):
            checker.failed_keys[tuple(g.values())] = problems
    step("moments", 0, 0)
    done = 0
    for g, (count,) in _groups(conn, MOMENTS, MOMENT_KEY, 1):
        if problems := checker.moment_group(g):
            checker.failed_moments[tuple(g.values())] = problems
        if (done + count) // PROGRESS_EVERY > done // PROGRESS_EVERY:
            step("moments", done + count)
        done += count
    step("moments", done)

    broken: list[int] = []

    def chart_too(rid: int, problems: Found) -> None:
        if len(broken) < BROKEN_CHARTS and any(t == "reading_line" for t, _, _ in problems):
            broken.append(rid)

    if checker.failed_casts:
        _name_failed(conn, FAILED_CASTS, checker.failed_casts, found, chart_too)
    if checker.failed_moments:
        _name_failed(conn, FAILED_MOMENTS, checker.failed_moments, found)
    if checker.failed_keys:
        _name_failed(conn, FAILED_KEYS, checker.failed_keys, found)
    name_rows(conn, found)
    report.problems.extend(found.problems())
    report.checked.append(f"{total} readings")
    report.checked.append(f"{checker.moments} moments recomputed")
    return sorted({*checker.charts.values(), *broken})


def name_rows(conn: Connection, found: Capped) -> None:
    """The checks of a reading's own row: lines of no reading, a seasonal najia without a
    half-year, a created_at that is not UTC ISO 8601."""
    for rid, pos in conn.execute(text(ORPHAN_LINES)):
        found.add(
            "reading_line",
            format_key(("reading_id", "position"), (rid, pos)),
            "lines of readings that do not exist",
            "line of a reading that does not exist",
            order=rid if isinstance(rid, int) else 0,
        )
    for (rid,) in conn.execute(text(SEASONAL)):
        found.add(
            "reading",
            f"id={rid}",
            "seasonal readings without a half-year",
            "najia_variant is 'seasonal', but the reading has no half-year (only a date-time "
            "gives one)",
            order=rid,
        )
    for rid, created_at in conn.execute(dialect.created_at_suspects(conn)):
        if not _utc_iso(created_at):
            found.add(
                "reading",
                f"id={rid}",
                "readings whose created_at is not a UTC time",
                f"created_at {shown(created_at)} is not a UTC ISO 8601 time "
                "(like 2026-01-01T00:00:00.000000+00:00)",
                order=rid,
            )


CHART_INPUTS = """
SELECT r.id, l.vals, r.day_gz, r.month_branch, r.hour_gz, r.najia_variant, r.half_year,
       r.year_gz, r.matter, r.about, r.cast_utc
FROM reading r JOIN LINES l ON l.reading_id = r.id
WHERE r.id IN :ids
""".replace("LINES", LINES)


def check_charts(conn: Connection, ids: list[int], report: CheckReport) -> None:
    """The chart views give each reading of ``ids`` one row and six lines, and every value
    of its chart is the expected chart (:func:`yimao_db.kb.expected.chart.expected_chart`,
    the oracle the tests hold the views to)."""
    found = Capped("reading")
    inputs_query = text(CHART_INPUTS).bindparams(bindparam("ids", expanding=True))
    for start in range(0, len(ids), CHART_BATCH):
        batch = ids[start : start + CHART_BATCH]
        heads = dict(conn.execute(CHART_HEADS, {"ids": batch}).tuples().all())
        lines = dict(conn.execute(CHART_LINES, {"ids": batch}).tuples().all())
        inputs = {row[0]: row[1:] for row in conn.execute(inputs_query, {"ids": batch})}
        for rid in batch:
            if heads.get(rid, 0) != 1 or lines.get(rid, 0) != 6:
                found.add(
                    "v_reading",
                    f"reading_id={rid}",
                    "readings whose chart does not resolve",
                    f"the chart does not resolve: {heads.get(rid, 0)} v_reading rows, "
                    f"{lines.get(rid, 0)} v_reading_line rows (expected 1 and 6)",
                    order=rid,
                )
            elif rid in inputs:
                for detail in chart_differences(conn, rid, *inputs[rid]):
                    found.add(
                        "v_reading",
                        f"reading_id={rid}",
                        "readings whose chart differs from the rules",
                        detail,
                        order=rid,
                    )
    report.problems.extend(found.problems())
    report.problems.extend(sign_problems(conn, ids))
    report.checked.append(
        f"the charts and signs of {len(ids)} readings against the rules (one per day and hexagram)"
    )


def chart_differences(
    conn: Connection,
    rid: int,
    vals: Any,
    day_gz: Any,
    month_branch: Any,
    hour_gz: Any,
    variant: Any,
    half_year: Any,
    year_gz: Any,
    matter: Any,
    about: Any = None,
    cast_utc: Any = None,
) -> list[str]:
    """Where the chart the views give reading ``rid`` differs from the rules' chart of its
    inputs (nothing is compared when the inputs themselves are broken: those problems are
    reported by the checks of lines and moments)."""
    from yimao_db.readings import read_chart

    values = six(vals)
    if values is None or day_gz not in _sixty() or variant not in NAJIA_VARIANTS:
        return []
    try:
        want = oracle(
            values,
            day_gz,
            month_branch,
            hour_gz,
            variant,
            half_year,
            year_gz,
            matter,
            about,
            cast_utc,
        )
    except (KeyError, ValueError, IndexError, StopIteration):
        return []  # a month branch, an hour or a subject that is not one: reported elsewhere
    got = read_chart(conn, rid).as_dict()
    found = [
        f"{column} is {shown(got[column])}, the rules give {shown(value)}"
        for column, value in want.head.items()
        if got[column] != value
    ]
    parts = (
        ("lines", "line", want.lines),
        ("hidden", "hidden", want.hidden),
        ("changed_lines", "changed line", want.changed_lines),
        ("use", "role", want.use),
    )
    for kind, one, rows in parts:
        stored = got[kind]
        if len(stored) != len(rows):
            found.append(f"{len(stored)} {kind} rows, the rules give {len(rows)}")
            continue
        for have, expected in zip(stored, rows, strict=True):
            found += [
                f"{one} {expected.get('role', expected['position'])}: "
                f"{column} is {shown(have[column])}, the rules give {shown(value)}"
                for column, value in expected.items()
                if have[column] != value
            ]
    return found


def oracle(
    values: str,
    day_gz: str,
    month_branch: str,
    hour_gz: str | None,
    variant: str,
    half_year: str | None,
    year_gz: str | None = None,
    matter: str | None = None,
    about: str | None = None,
    cast_utc: str | None = None,
) -> ExpectedChart:
    return expected_chart(
        values,
        day_gz=day_gz,
        month_branch=month_branch,
        hour_gz=hour_gz,
        najia_variant=variant,
        half_year=half_year,
        year_gz=year_gz,
        matter=matter,
        about=about,
        cast_utc=cast_utc,
    )
