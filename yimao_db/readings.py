"""Readings: cast six lines at a moment, store only the inputs, read the chart from the views.

:func:`cast` validates everything first and then writes one reading in one transaction, so
bad input writes nothing. :func:`chart` reads ``v_reading``, ``v_reading_line`` and
``v_reading_hidden``; no derived value is computed in Python.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, insert, text
from sqlalchemy.engine import URL

from yimao_db import casting
from yimao_db.db import reader_engine, writer_engine
from yimao_db.errors import UsageError
from yimao_db.moment import Moment, moment_at, moment_from_pillars, parse_pillars
from yimao_db.schema.readings import MAX_ID, NAJIA_VARIANTS, Reading, ReadingLine

DEFAULT_TZ = "Asia/Shanghai"
# SQLite stores no value, and no row, over 10⁹ bytes (SQLITE_MAX_LENGTH); PostgreSQL no text
# over 1 GB. The rest of a reading's row takes well under the margin left here.
QUESTION_MAX_BYTES = 999_000_000


@dataclass(frozen=True)
class ChartLine:
    position: int
    value: int
    is_moving: int
    stem: str
    branch: str
    ganzhi: str
    element: str
    relative: str
    spirit: str
    hour_spirit: str | None
    month_spirit: str | None
    noble_general: str | None
    is_world: int
    is_response: int
    is_between: int
    mansion: str
    is_dusk_mansion: int
    is_void: int
    is_month_break: int
    is_day_clash: int
    strength: str
    stage: str
    changed_stem: str | None
    changed_branch: str | None
    changed_ganzhi: str | None
    changed_element: str | None
    changed_relative: str | None
    transform: str | None


@dataclass(frozen=True)
class HiddenLine:
    position: int
    relative: str
    ganzhi: str
    element: str
    over_ganzhi: str
    is_void: int
    is_month_break: int
    strength: str
    stage: str


@dataclass(frozen=True)
class Chart:
    reading_id: int
    question: str | None
    method: str
    cast_input: str | None
    created_at: str
    cast_at: str | None
    tz: str | None
    year_gz: str | None
    month_gz: str | None
    month_branch: str
    day_gz: str
    hour_gz: str | None
    solar_term: str | None
    half_year: str | None
    early_rat: int
    najia_variant: str
    void_branches: str
    primary_king_wen: int
    primary_name: str
    primary_short_name: str
    changed_king_wen: int | None
    changed_name: str | None
    changed_short_name: str | None
    palace: str
    generation_name: str
    moving_lines: str
    nuclear_king_wen: int
    is_liuchong: int
    is_liuhe: int
    gua_shen: str
    gua_shen_positions: str
    shi_shen_line: int
    lines: tuple[ChartLine, ...]
    hidden: tuple[HiddenLine, ...]

    def as_dict(self) -> dict[str, Any]:
        """The chart as JSON-ready data: lines and hidden spirits as lists of dicts."""
        data = asdict(self)
        data["lines"] = list(data["lines"])
        data["hidden"] = list(data["hidden"])
        return data


def _pick(cls: type[Any], row: Any) -> dict[str, Any]:
    return {f.name: row[f.name] for f in fields(cls) if f.name not in ("lines", "hidden")}


def read_chart(conn: Connection, reading_id: int) -> Chart:
    head = (
        conn.execute(text("SELECT * FROM v_reading WHERE reading_id = :id"), {"id": reading_id})
        .mappings()
        .first()
    )
    if head is None:
        raise UsageError(f"no reading with id {reading_id}")
    lines = conn.execute(
        text("SELECT * FROM v_reading_line WHERE reading_id = :id ORDER BY position"),
        {"id": reading_id},
    ).mappings()
    hidden = conn.execute(
        text("SELECT * FROM v_reading_hidden WHERE reading_id = :id ORDER BY position"),
        {"id": reading_id},
    ).mappings()
    return Chart(
        **_pick(Chart, head),
        lines=tuple(ChartLine(**_pick(ChartLine, r)) for r in lines),
        hidden=tuple(HiddenLine(**_pick(HiddenLine, r)) for r in hidden),
    )


class CastRequest(NamedTuple):
    """Everything a cast needs, validated; storing it cannot fail on user input."""

    cast: casting.Cast
    moment: Moment
    question: str | None
    najia_variant: str


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
) -> Moment:
    """The moment from a date-time (default now), a pillar string, or separate pillars."""
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
    return moment_at(at, tz or DEFAULT_TZ, early_rat=early_rat)


def check_question(question: str | None) -> str | None:
    """The question as given; refused only if a database cannot store it verbatim."""
    if question is None:
        return None
    if not isinstance(question, str):
        raise UsageError(f"the question must be text, got {type(question).__name__}")
    if "\x00" in question:
        raise UsageError("the question contains a NUL character, which cannot be stored")
    try:
        size = len(question.encode("utf-8"))
    except UnicodeEncodeError:
        raise UsageError(
            "the question is not valid Unicode text (it contains a lone surrogate)"
        ) from None
    if size > QUESTION_MAX_BYTES:
        raise UsageError(
            f"the question is {size} bytes long: at most {QUESTION_MAX_BYTES} can be stored"
        )
    return question


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
) -> CastRequest:
    """Validate a cast (names resolve through ``names``, a connection or a loaded
    :class:`~yimao_db.lookup.HexagramNames`); raises UsageError, writes nothing."""
    forms = bool(lines) + bool(coins) + bool(random)
    if forms != 1:
        raise UsageError("give exactly one of: line values/notation/hexagram, --coins, --random")
    if najia not in NAJIA_VARIANTS:
        raise UsageError(f"unknown najia variant {najia!r}: expected fixed or seasonal")
    if najia == "seasonal" and moment.half_year is None:
        raise UsageError(
            "the seasonal najia needs the half-year, which only a date-time gives (--at)"
        )
    question = check_question(question)
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
    return CastRequest(cast_, moment, question, najia)


# The columns :func:`reading_rows` fills, in its order; ``id`` and ``created_at`` are added
# when the rows are inserted.
READING_COLUMNS = (
    "question",
    "method",
    "cast_input",
    "cast_at",
    "tz",
    "year_gz",
    "month_gz",
    "month_branch",
    "day_gz",
    "hour_gz",
    "solar_term",
    "half_year",
    "early_rat",
    "najia_variant",
)
LINE_COLUMNS = ("position", "value", "coins")  # reading_line, without reading_id

POSITIONS = (1, 2, 3, 4, 5, 6)
NO_COINS = (None,) * 6
ReadingRow = tuple[Any, ...]  # READING_COLUMNS
LineRow = tuple[int, int, int | None]  # LINE_COLUMNS
Rows = tuple[ReadingRow, tuple[LineRow, ...]]


def reading_rows(request: CastRequest) -> Rows:
    """The ``reading`` row and the six ``reading_line`` rows (line 1 first) that store a
    validated cast: the one place where a cast becomes rows, for ``cast`` and ``import``."""
    m, c = request.moment, request.cast
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
    )
    lines = tuple(zip(POSITIONS, map(int, c.values), c.coins or NO_COINS, strict=True))
    return reading, lines


def stored_at() -> str:
    """``created_at`` of readings stored now: UTC, ISO 8601 with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def store(conn: Connection, request: CastRequest) -> int:
    """Insert one prepared reading and its six lines; returns the new id."""
    reading, lines = reading_rows(request)
    values = dict(zip(READING_COLUMNS, reading, strict=True))
    reading_id = conn.execute(
        insert(Reading).values(created_at=stored_at(), **values).returning(Reading.id)
    ).scalar_one()
    conn.execute(
        insert(ReadingLine),
        [
            {"reading_id": reading_id, **dict(zip(LINE_COLUMNS, line, strict=True))}
            for line in lines
        ],
    )
    return int(reading_id)


@contextmanager
def _connect(db: str | URL | Engine | None, *, write: bool) -> Iterator[Connection]:
    """A connection (inside a transaction when writing) on ``db``: an Engine is used as
    given; for a path or URL an engine is made and disposed of afterwards."""
    engine = db if isinstance(db, Engine) else writer_engine(db) if write else reader_engine(db)
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
    db: str | URL | Engine | None = None,
) -> int:
    """Cast and store a reading; returns its id. Bad input raises UsageError, writes nothing."""
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
    with _connect(db, write=True) as conn:
        request = prepare(
            conn,
            lines,
            coins=coins,
            random=random,
            moving=moving,
            moment=moment,
            question=question,
            najia=najia,
        )
        return store(conn, request)


def chart(reading_id: int, db: str | URL | Engine | None = None) -> Chart:
    """The chart of a stored reading, read from the views."""
    with _connect(db, write=False) as conn:
        return read_chart(conn, reading_id)


def recent(limit: int = 20, db: str | URL | Engine | None = None) -> tuple[list[str], list[Any]]:
    """Stored readings, newest first."""
    if not 1 <= limit <= MAX_ID:
        raise UsageError(f"--limit must be a whole number from 1 to {MAX_ID}, got {limit}")
    with _connect(db, write=False) as conn:
        result = conn.execute(
            text(
                "SELECT reading_id, created_at, cast_at, day_gz, primary_name, changed_name, "
                "moving_lines, question FROM v_reading ORDER BY reading_id DESC LIMIT :n"
            ),
            {"n": limit},
        )
        return list(result.keys()), [tuple(r) for r in result]
