"""Readings: cast six lines at a moment, store only the inputs, read the chart from the views.

:func:`cast` validates everything first and then writes one reading in one transaction, so
bad input writes nothing. :func:`chart` reads ``v_reading``, ``v_reading_line``,
``v_reading_hidden``, ``v_reading_sign`` and ``v_reading_changed_line`` into the classes of
:mod:`yimao_db.chart_rows`; no derived value is computed in Python.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import URL

from yimao_db import casting, dialect, lookup
from yimao_db.calendar.civiltime import default_tz, parse_at
from yimao_db.calendar.moment import Moment, moment_from_pillars, moment_of, parse_pillars
from yimao_db.chart_rows import COLUMNS
from yimao_db.chart_rows import ChangedLine as ChangedLine
from yimao_db.chart_rows import Chart as Chart
from yimao_db.chart_rows import ChartLine as ChartLine
from yimao_db.chart_rows import ChartSign as ChartSign
from yimao_db.chart_rows import ChartUse as ChartUse
from yimao_db.chart_rows import HiddenLine as HiddenLine
from yimao_db.db import driver_error, reader_engine, writer_engine
from yimao_db.errors import UsageError, shown
from yimao_db.kb import derived
from yimao_db.kb.rules.keys import KEY_COLUMNS, reading_keys
from yimao_db.kb.vocab import NAJIA_VARIANTS

# SQLite stores no value, and no row, over 10⁹ bytes (SQLITE_MAX_LENGTH); PostgreSQL no text
# over 1 GB. The rest of a reading's row takes well under the margin left here.
QUESTION_MAX_BYTES = 999_000_000


def _chart_query(view: str, order: str = "") -> str:
    """SELECT the columns of a chart view for one reading; ``:id`` is the reading id."""
    return f"SELECT {', '.join(COLUMNS[view])} FROM {view} WHERE reading_id = :id{order}"


# The chart's views, read in the order of their classes' fields (yimao_db/chart_rows.py,
# generated from the declarations: no declaration is loaded to read a chart).
CHART_QUERIES = (
    _chart_query("v_reading"),
    _chart_query("v_reading_line", " ORDER BY position"),
    _chart_query("v_reading_hidden", " ORDER BY position"),
    # weightier signs first, then by line (the whole reading before line 1), then in the
    # order of the catalogue (an integer: the same on every backend, whatever its collation)
    "SELECT " + ", ".join(f"s.{c}" for c in COLUMNS["v_reading_sign"]) + " FROM v_reading_sign s"
    " JOIN sign g ON g.name = s.sign WHERE s.reading_id = :id"
    " ORDER BY s.weight DESC, COALESCE(s.position, 0), g.ordinal",
    _chart_query("v_reading_changed_line", " ORDER BY position"),
    _chart_query("v_reading_use", " ORDER BY role_ordinal"),
)


def read_chart(conn: Connection, reading_id: int) -> Chart:
    """The chart of one reading: six queries in one snapshot, on the driver's own cursor
    (a chart is read often; the columns arrive in the order of the classes' fields)."""
    head_sql, lines_sql, hidden_sql, signs_sql, changed_sql, use_sql = (
        dialect.named_params(conn, q) for q in CHART_QUERIES
    )
    params = {"id": reading_id}
    try:
        with dialect.snapshot(conn) as cursor, dialect.joins_as_written(conn, cursor):
            head = cursor.execute(head_sql, params).fetchone()
            lines = cursor.execute(lines_sql, params).fetchall()
            hidden = cursor.execute(hidden_sql, params).fetchall()
            signs = cursor.execute(signs_sql, params).fetchall()
            changed = cursor.execute(changed_sql, params).fetchall()
            use = cursor.execute(use_sql, params).fetchall()
    except Exception as exc:  # the driver's own, raised outside SQLAlchemy
        raise driver_error(conn, exc) from exc
    if head is None:
        raise UsageError(f"no reading with id {reading_id}")
    return Chart(
        **dict(zip(COLUMNS["v_reading"], head, strict=True)),
        lines=tuple(ChartLine(*row[1:]) for row in lines),
        hidden=tuple(HiddenLine(*row[1:]) for row in hidden),
        signs=tuple(ChartSign(*row[1:]) for row in signs),
        changed_lines=tuple(ChangedLine(*row[1:]) for row in changed),
        use=tuple(ChartUse(*row[1:]) for row in use),
    )


class CastRequest(NamedTuple):
    """Everything a cast needs, validated; storing it cannot fail on user input."""

    cast: casting.Cast
    moment: Moment
    question: str | None
    najia_variant: str
    matter: str | None = None  # canonical: 功名 財利 獄訟 憂患
    about: str | None = None  # canonical subject (docs/use.md); the matter's default if not given


def make_moment(
    *,
    at: datetime | str | None = None,
    tz: str | None = None,
    pillars: str | None = None,
    year: str | None = None,
    month: str | None = None,
    day: str | None = None,
    hour: str | None = None,
    early_rat: bool = False,
    notes: list[str] | None = None,
) -> Moment:
    """The moment from a date-time (default now), a pillar string, or separate pillars.

    What was assumed about a date-time (a date without a time) is appended to ``notes``. A
    value given empty is refused, not taken for one left out (``at=""`` beside pillars).
    """
    typed = dict(at=at, tz=tz, pillars=pillars, year=year, month=month, day=day, hour=hour)
    for name, value in typed.items():
        if isinstance(value, str) and not value.strip():
            raise UsageError(f"{name} is empty: expected a value, or leave it out")
    given = [x for x in (year, month, day, hour) if x]
    if pillars and (given or at):
        raise UsageError("give either --pillars, or --year/--month/--day/--hour, or --at")
    if given and at:
        raise UsageError("give either pillars (--month/--day …) or a date-time (--at), not both")
    if pillars or given:
        if tz or early_rat:
            raise UsageError(
                "--tz and --early-rat go with a date-time (--at); pillars are taken as given"
            )
    if pillars:
        return parse_pillars(pillars)
    if given:
        if not day:
            raise UsageError("pillars need at least the day (--day 甲子) and month (--month 寅)")
        # one character is the month branch 月建, anything else a month pillar
        is_branch = month is not None and len(month.strip()) == 1
        return moment_from_pillars(
            day=day,
            month=None if is_branch else month,
            year=year,
            hour=hour,
            month_branch=month if is_branch else None,
        )
    civil = parse_at(at, tz or default_tz())
    if civil.note is not None and notes is not None:
        notes.append(civil.note)
    return moment_of(civil, early_rat)


def check_text(value: str | None, what: str = "the question") -> str | None:
    """Text a user gives to be stored verbatim (``what`` names it in errors), as given;
    refused only if a database cannot store it verbatim."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise UsageError(f"{what} must be text, got {type(value).__name__}")
    if "\x00" in value:
        raise UsageError(f"{what} contains a NUL character, which cannot be stored")
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise UsageError(
            f"{what} is not valid Unicode text (it contains a lone surrogate)"
        ) from None
    if size > QUESTION_MAX_BYTES:
        raise UsageError(f"{what} is {size} bytes long: at most {QUESTION_MAX_BYTES} can be stored")
    return value


def check_question(question: str | None) -> str | None:
    """The question as given; refused only if a database cannot store it verbatim."""
    return check_text(question, "the question")


def check_matter(matter: Any) -> str:
    """The matter as typed, refused if it is not text (an import row may hold a number)."""
    if not isinstance(matter, str):
        raise UsageError(
            f"the matter must be text, got {type(matter).__name__}: expected {lookup.MATTER_FORMS}"
        )
    return matter


def prepare(
    names: casting.Names,
    lines: str | None = None,
    *,
    coins: str | None = None,
    random: bool = False,
    moving: str | Sequence[int] = (),
    moment: Moment,
    question: str | None = None,
    najia: str = "fixed",
    matter: str | None = None,
    about: str | None = None,
) -> CastRequest:
    """Validate a cast (names resolve through ``names``, a connection or a loaded
    :class:`~yimao_db.lookup.HexagramNames`); raises UsageError, writes nothing."""
    forms = bool(lines) + bool(coins) + bool(random)
    if forms != 1:
        raise UsageError("give exactly one of: line values/notation/hexagram, --coins, --random")
    if najia not in NAJIA_VARIANTS:
        raise UsageError(f"unknown najia variant {shown(najia)}: expected fixed or seasonal")
    if najia == "seasonal" and moment.half_year is None:
        raise UsageError(
            "the seasonal najia needs the half-year, which only a date-time gives (--at)"
        )
    question = check_question(question)
    matter_name = None if matter is None else lookup.matter(names, check_matter(matter))
    subject = (
        lookup.default_subject(names, matter_name)
        if about is None
        else lookup.subject(names, about)
    )
    if random:
        if moving:
            raise UsageError("moving lines go with a hexagram name, not with --random")
        cast_ = casting.random_cast()
    elif coins:
        if moving:
            raise UsageError("moving lines go with a hexagram name, not with coins")
        cast_ = casting.from_coins(coins)
    else:
        cast_ = casting.parse(names, str(lines), moving)
    return CastRequest(cast_, moment, question, najia, matter_name, subject)


# The columns :func:`reading_rows` fills, in its order; ``id`` and ``created_at`` are added
# when the rows are inserted. The last four are the keys derived from the lines
# (:func:`yimao_db.kb.rules.keys.reading_keys`).
# The moment's pillars as stored, in the order of the reading table.
PILLAR_COLUMNS = (
    "year_gz",
    "month_gz",
    "month_branch",
    "day_gz",
    "hour_gz",
    "solar_term",
    "half_year",
)
READING_COLUMNS = (
    "question",
    "method",
    "cast_input",
    "cast_at",
    "tz",
    *PILLAR_COLUMNS,
    "early_rat",
    "najia_variant",
    "matter",
    "about",
    "cast_utc",  # the instant of cast_at on the UTC clock (the lodges, §8.12); NULL for pillars
    *KEY_COLUMNS,
)
LINE_COLUMNS = ("position", "value", "coins")  # reading_line, without reading_id

POSITIONS = (1, 2, 3, 4, 5, 6)
NO_COINS = (None,) * 6
ReadingRow = tuple[Any, ...]  # READING_COLUMNS
LineRow = tuple[int, int, int | None]  # LINE_COLUMNS
Rows = tuple[ReadingRow, tuple[LineRow, ...]]


def reading_rows(request: CastRequest) -> Rows:
    """The ``reading`` row and the six ``reading_line`` rows (line 1 first) that store a
    validated cast: the one place where a cast becomes rows, for ``cast`` and ``import``.
    The reading row ends with the keys derived from the lines."""
    m, c = request.moment, request.cast
    keys = reading_keys(c.values, request.najia_variant, m.half_year)
    reading = (
        request.question,
        c.method,
        c.cast_input,
        m.cast_at,
        m.tz,
        m.year_gz,
        m.month_gz,
        m.month_branch,
        m.day_gz,
        m.hour_gz,
        m.solar_term,
        m.half_year,
        int(m.early_rat),
        request.najia_variant,
        request.matter,
        request.about,
        m.cast_utc,
        keys.primary_kw,
        keys.changed_kw,
        keys.moving_mask,
        keys.najia_half,
    )
    lines = tuple(zip(POSITIONS, map(int, c.values), c.coins or NO_COINS, strict=True))
    return reading, lines


def stored_at() -> str:
    """``created_at`` of readings stored now: UTC, ISO 8601 with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _insert_sql(table: str, columns: tuple[str, ...], returning: str = "") -> str:
    """``INSERT INTO table (columns) VALUES (:column, …)``: a statement as text (compiled in
    no time, unlike a Core insert, for a process that casts one reading)."""
    values = ", ".join(f":{c}" for c in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values}){returning}"


INSERT_READING = _insert_sql("reading", ("created_at", *READING_COLUMNS), " RETURNING id")
INSERT_READING_AS = _insert_sql("reading", ("id", "created_at", *READING_COLUMNS), " RETURNING id")
INSERT_LINE = _insert_sql("reading_line", ("reading_id", *LINE_COLUMNS))


def store(conn: Connection, request: CastRequest, *, as_id: int | None = None) -> int:
    """Insert one prepared reading, its six lines and its derived rows
    (:mod:`yimao_db.kb.derived`); returns the new id (``as_id``: that id, taken from no
    sequence)."""
    row, lines = reading_rows(request)
    values = dict(zip(READING_COLUMNS, row, strict=True))
    if as_id is None:
        insert, params = INSERT_READING, {"created_at": stored_at(), **values}
    else:
        insert, params = INSERT_READING_AS, {"id": as_id, "created_at": stored_at(), **values}
    reading_id = conn.execute(text(insert), params).scalar_one()
    conn.execute(
        text(INSERT_LINE),
        [
            {"reading_id": reading_id, **dict(zip(LINE_COLUMNS, line, strict=True))}
            for line in lines
        ],
    )
    derived.insert_range(conn, reading_id, reading_id)
    return int(reading_id)


@contextmanager
def connect(db: str | URL | Engine | Connection | None, *, write: bool) -> Iterator[Connection]:
    """A connection (inside a transaction when writing) on ``db`` (for every function of the
    API that takes ``db``): a Connection is used as
    given, in the caller's transaction; an Engine is used as given; for a path or URL an
    engine is made and disposed of afterwards."""
    if isinstance(db, Connection):
        yield db
        return
    if isinstance(db, Engine):
        engine = db
    else:
        engine = writer_engine(db, require_built=True) if write else reader_engine(db)
    try:
        with engine.begin() if write else engine.connect() as conn:
            yield conn
    finally:
        if engine is not db:
            engine.dispose()


def cast(
    lines: str | None = None,
    *,
    coins: str | None = None,
    random: bool = False,
    moving: str | Sequence[int] = (),
    at: datetime | str | None = None,
    tz: str | None = None,
    pillars: str | None = None,
    year: str | None = None,
    month: str | None = None,
    day: str | None = None,
    hour: str | None = None,
    early_rat: bool = False,
    najia: str = "fixed",
    question: str | None = None,
    matter: str | None = None,
    about: str | None = None,
    db: str | URL | Engine | Connection | None = None,
) -> int:
    """Cast and store a reading; returns its id. Bad input raises UsageError, writes nothing.
    On a Connection the reading is stored in the caller's transaction.

    ``matter`` is the kind of matter asked about (§9.5: office, wealth, lawsuit or worry, in
    any spelling ``name_alias`` accepts); its signs join the chart. ``about`` is the subject
    asked about (docs/use.md: wealth, self, 官鬼, …); without it the matter's default subject
    is taken. Its 用神 is ``v_reading_use``."""
    moment = make_moment(
        at=at,
        tz=tz,
        pillars=pillars,
        year=year,
        month=month,
        day=day,
        hour=hour,
        early_rat=early_rat,
    )
    with connect(db, write=True) as conn:
        request = prepare(
            conn,
            lines,
            coins=coins,
            random=random,
            moving=moving,
            moment=moment,
            question=question,
            najia=najia,
            matter=matter,
            about=about,
        )
        return store(conn, request)


# The id a preview's chart shows: ids are given from 1 on, so no stored reading has it.
PREVIEW_ID = 0


def preview(request: CastRequest, db: str | URL | Engine | None = None) -> Chart:
    """The chart a prepared cast would have, read from the views, with nothing stored: the
    reading is inserted as :data:`PREVIEW_ID` (no id sequence is used) and its chart read in
    a transaction that is always rolled back. It needs a database it could write to, and
    holds SQLite's write lock for as long as it takes."""
    engine = db if isinstance(db, Engine) else writer_engine(db, require_built=True)
    try:
        with engine.connect() as conn:
            transaction = conn.begin()
            try:
                store(conn, request, as_id=PREVIEW_ID)
                return read_chart(conn, PREVIEW_ID)
            finally:
                transaction.rollback()
    finally:
        if engine is not db:
            engine.dispose()


def chart(reading_id: int, db: str | URL | Engine | Connection | None = None) -> Chart:
    """The chart of a stored reading, read from the views."""
    with connect(db, write=False) as conn:
        return read_chart(conn, reading_id)


def recent(limit: int = 20, db: str | URL | Engine | None = None) -> tuple[list[str], list[Any]]:
    """Stored readings, newest first."""
    if not 1 <= limit <= dialect.MAX_ID:
        raise UsageError(f"--limit must be a whole number from 1 to {dialect.MAX_ID}, got {limit}")
    with connect(db, write=False) as conn:
        result = conn.execute(
            text(
                "SELECT reading_id, created_at, cast_at, day_gz, primary_name, changed_name, "
                "moving_lines, question FROM v_reading ORDER BY reading_id DESC LIMIT :n"
            ),
            {"n": limit},
        )
        return list(result.keys()), [tuple(r) for r in result]
