"""Readings: cast six lines at a moment, store only the inputs, read the chart from the views.

:func:`cast` validates everything first and then writes one reading in one transaction, so
bad input writes nothing. :func:`chart` reads ``v_reading``, ``v_reading_line``,
``v_reading_hidden`` and ``v_reading_sign``; no derived value is computed in Python.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import URL

from yimao_db import casting, dialect, lookup
from yimao_db.calendar.civiltime import default_tz, parse_at
from yimao_db.calendar.moment import Moment, moment_from_pillars, moment_of, parse_pillars
from yimao_db.db import driver_error, reader_engine, writer_engine
from yimao_db.errors import UsageError, shown
from yimao_db.kb.rules.keys import KEY_COLUMNS, reading_keys
from yimao_db.kb.vocab import NAJIA_VARIANTS

# The chart as typed objects: one field per column of the view it is read from, in the
# view's order (tests/test_docs.py holds these to the contracts in yimao_db.kb.views).

# SQLite stores no value, and no row, over 10⁹ bytes (SQLITE_MAX_LENGTH); PostgreSQL no text
# over 1 GB. The rest of a reading's row takes well under the margin left here.
QUESTION_MAX_BYTES = 999_000_000


@dataclass(frozen=True)
class ChartLine:
    """A row of v_reading_line (without reading_id)."""

    position: int
    value: int
    is_moving: int
    stem: str
    branch: str
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
    changed_element: str | None
    changed_relative: str | None
    transform: str | None
    ganzhi: str
    changed_ganzhi: str | None
    day_on: int
    day_generates: int
    day_helps: int
    day_controls: int
    day_combines: int
    month_on: int
    month_generates: int
    month_helps: int
    month_controls: int
    month_combines: int
    changed_is_void: int | None
    changed_is_month_break: int | None
    changed_is_day_clash: int | None


@dataclass(frozen=True)
class HiddenLine:
    """A row of v_reading_hidden (without reading_id)."""

    position: int
    relative: str
    ganzhi: str
    element: str
    over_ganzhi: str
    is_void: int
    is_month_break: int
    strength: str
    stage: str
    stem: str
    branch: str
    over_relative: str
    is_day_clash: int
    day_on: int
    day_generates: int
    day_helps: int
    day_controls: int
    day_combines: int
    month_on: int
    month_generates: int
    month_helps: int
    month_controls: int
    month_combines: int


@dataclass(frozen=True)
class ChartSign:
    """A row of v_reading_sign (without reading_id): a judgment that fires for the reading."""

    sign: str
    position: int | None
    subject: str
    polarity: str
    weight: int
    passage: str | None
    basis: str


@dataclass(frozen=True)
class ChangedLine:
    """A line of the changed hexagram (all six, moving or not): its najia and its relative
    against the primary hexagram's palace."""

    position: int
    yang: int
    stem: str
    branch: str
    element: str
    relative: str
    ganzhi: str


@dataclass(frozen=True)
class Chart:
    """The row of v_reading, with the reading's lines and hidden spirits."""

    reading_id: int
    question: str | None
    cast_at: str | None
    tz: str | None
    year_gz: str | None
    month_gz: str | None
    day_gz: str
    hour_gz: str | None
    void_branches: str
    primary_king_wen: int
    primary_name: str
    changed_king_wen: int | None
    changed_name: str | None
    palace: str
    moving_lines: str
    nuclear_king_wen: int
    is_liuchong: int
    is_liuhe: int
    generation_name: str
    gua_shen: str
    gua_shen_positions: str
    shi_shen_line: int
    created_at: str
    method: str
    cast_input: str | None
    month_branch: str
    solar_term: str | None
    half_year: str | None
    early_rat: int
    najia_variant: str
    primary_bits: str
    changed_bits: str | None
    primary_short_name: str
    changed_short_name: str | None
    year_relative: str | None
    month_relative: str
    day_relative: str
    hour_relative: str | None
    matter: str | None
    outcome: str | None
    outcome_on: str | None
    note_count: int
    tag_count: int
    lines: tuple[ChartLine, ...]
    hidden: tuple[HiddenLine, ...]
    signs: tuple[ChartSign, ...] = ()
    # beside v_reading: the changed hexagram's six lines, its palace and generation, the
    # 互卦's name (read by EXTRA_QUERIES, joins of rule tables like the views')
    changed_lines: tuple[ChangedLine, ...] = ()
    changed_palace: str | None = None
    changed_generation_name: str | None = None
    nuclear_name: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The chart as JSON-ready data: lines, hidden spirits and signs as lists of dicts."""
        data = asdict(self)
        for part in PARTS:
            data[part] = list(data[part])
        return data


PARTS = ("lines", "hidden", "signs", "changed_lines")  # fields of Chart read as rows
EXTRAS = ("changed_palace", "changed_generation_name", "nuclear_name")  # beside v_reading


def _columns(cls: type[Any], *, without: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.name not in without)


# The columns read, in the order of the classes' fields, which is the order of the views'
# contracts (tests/test_docs.py holds the two equal): no view declaration is loaded to read
# a chart.
HEAD_COLUMNS = _columns(Chart, without=PARTS + EXTRAS)
LINE_COLUMNS_READ = ("reading_id", *_columns(ChartLine))
HIDDEN_COLUMNS_READ = ("reading_id", *_columns(HiddenLine))
SIGN_COLUMNS_READ = ("reading_id", *_columns(ChartSign))


def _chart_query(view: str, columns: tuple[str, ...], order: str = "") -> str:
    """SELECT ``columns`` of a view for one reading; ``:id`` is the reading id."""
    return f"SELECT {', '.join(columns)} FROM {view} WHERE reading_id = :id{order}"


CHART_QUERIES = (
    _chart_query("v_reading", HEAD_COLUMNS),
    _chart_query("v_reading_line", LINE_COLUMNS_READ, " ORDER BY position"),
    _chart_query("v_reading_hidden", HIDDEN_COLUMNS_READ, " ORDER BY position"),
    # weightier signs first, then by line (the whole reading before line 1), then in the
    # order of the catalogue (an integer: the same on every backend, whatever its collation)
    "SELECT " + ", ".join(f"s.{c}" for c in SIGN_COLUMNS_READ) + " FROM v_reading_sign s"
    " JOIN sign g ON g.name = s.sign WHERE s.reading_id = :id"
    " ORDER BY s.weight DESC, COALESCE(s.position, 0), g.ordinal",
)


CHANGED_LINES_QUERY = """
SELECT cl.position, cl.yang, ln.stem, cl.branch, cl.element, er.relative, ln.ganzhi
FROM reading r
JOIN hexagram p ON p.king_wen = r.primary_kw
JOIN trigram pt ON pt.name = p.palace
JOIN hexagram_line cl ON cl.king_wen = r.changed_kw
JOIN line_najia ln
  ON ln.king_wen = cl.king_wen AND ln.position = cl.position AND ln.half_year = r.najia_half
JOIN element_relation er ON er.me = pt.element AND er.other = cl.element
WHERE r.id = :id ORDER BY cl.position"""
NAMES_QUERY = """
SELECT c.palace, g.name, n.name
FROM reading r
JOIN hexagram_pattern hp ON hp.king_wen = r.primary_kw
JOIN hexagram n ON n.king_wen = hp.nuclear_king_wen
LEFT JOIN hexagram c ON c.king_wen = r.changed_kw
LEFT JOIN generation g ON g.ordinal = c.generation
WHERE r.id = :id"""


def read_chart(conn: Connection, reading_id: int) -> Chart:
    """The chart of one reading: six queries in one snapshot, on the driver's own cursor
    (a chart is read often; the columns arrive in the order of the classes' fields)."""
    head_sql, lines_sql, hidden_sql, signs_sql, changed_sql, names_sql = (
        dialect.named_params(conn, q) for q in (*CHART_QUERIES, CHANGED_LINES_QUERY, NAMES_QUERY)
    )
    params = {"id": reading_id}
    try:
        with dialect.snapshot(conn) as cursor:
            head = cursor.execute(head_sql, params).fetchone()
            lines = cursor.execute(lines_sql, params).fetchall()
            hidden = cursor.execute(hidden_sql, params).fetchall()
            signs = cursor.execute(signs_sql, params).fetchall()
            changed = cursor.execute(changed_sql, params).fetchall()
            names = cursor.execute(names_sql, params).fetchone()
    except Exception as exc:  # the driver's own, raised outside SQLAlchemy
        raise driver_error(conn, exc) from exc
    if head is None:
        raise UsageError(f"no reading with id {reading_id}")
    return Chart(
        **dict(zip(HEAD_COLUMNS, head, strict=True)),
        lines=tuple(ChartLine(*row[1:]) for row in lines),
        hidden=tuple(HiddenLine(*row[1:]) for row in hidden),
        signs=tuple(ChartSign(*row[1:]) for row in signs),
        changed_lines=tuple(ChangedLine(*row) for row in changed),
        changed_palace=names[0] if names else None,
        changed_generation_name=names[1] if names else None,
        nuclear_name=names[2] if names else None,
    )


class CastRequest(NamedTuple):
    """Everything a cast needs, validated; storing it cannot fail on user input."""

    cast: casting.Cast
    moment: Moment
    question: str | None
    najia_variant: str
    matter: str | None = None  # canonical: 功名 財利 獄訟 憂患


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

    What was assumed about a date-time (a date without a time) is appended to ``notes``.
    """
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
    return CastRequest(cast_, moment, question, najia, matter_name)


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
    """Insert one prepared reading and its six lines; returns the new id (``as_id``: that
    id, taken from no sequence)."""
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
    db: str | URL | Engine | Connection | None = None,
) -> int:
    """Cast and store a reading; returns its id. Bad input raises UsageError, writes nothing.
    On a Connection the reading is stored in the caller's transaction.

    ``matter`` is the kind of matter asked about (§9.5: office, wealth, lawsuit or worry, in
    any spelling ``name_alias`` accepts); its signs join the chart."""
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
