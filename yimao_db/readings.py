"""Readings: cast six lines at a moment, store only the inputs, read the chart from the views.

:func:`cast` validates everything first and then writes one reading in one transaction, so
bad input writes nothing. :func:`chart` reads ``v_reading``, ``v_reading_line``,
``v_reading_hidden`` and ``v_reading_sign``; no derived value is computed in Python.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, insert, text
from sqlalchemy.engine import URL

from yimao_db import casting, lookup
from yimao_db.civiltime import DEFAULT_TZ, parse_at
from yimao_db.db import reader_engine, writer_engine
from yimao_db.errors import UsageError
from yimao_db.moment import Moment, moment_from_pillars, moment_of, parse_pillars
from yimao_db.rules.chart import reading_keys
from yimao_db.rules.signs import SIGNS
from yimao_db.schema.readings import MAX_ID, reading, reading_line
from yimao_db.vocab import NAJIA_VARIANTS

# The chart as typed objects: one field per column of the view it is read from, in the
# view's order (tests/test_docs.py holds these to the contracts in yimao_db.views).


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
    lines: tuple[ChartLine, ...]
    hidden: tuple[HiddenLine, ...]
    signs: tuple[ChartSign, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The chart as JSON-ready data: lines, hidden spirits and signs as lists of dicts."""
        data = asdict(self)
        for part in PARTS:
            data[part] = list(data[part])
        return data


PARTS = ("lines", "hidden", "signs")  # the fields of Chart read from other views


def sign_order(row: Any) -> tuple[int, int, int]:
    """Weightier signs first, then by line (the whole reading before line 1), then in the
    order of the catalogue (the same on every backend, whatever its collation)."""
    return (-row["weight"], row["position"] or 0, CATALOGUE[row["sign"]])


CATALOGUE = {s.name: i for i, s in enumerate(SIGNS)}


def _pick(cls: type[Any], row: Any) -> dict[str, Any]:
    return {f.name: row[f.name] for f in fields(cls) if f.name not in PARTS}


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
    signs = sorted(
        conn.execute(
            text("SELECT * FROM v_reading_sign WHERE reading_id = :id"), {"id": reading_id}
        ).mappings(),
        key=sign_order,
    )
    return Chart(
        **_pick(Chart, head),
        lines=tuple(ChartLine(**_pick(ChartLine, r)) for r in lines),
        hidden=tuple(HiddenLine(**_pick(HiddenLine, r)) for r in hidden),
        signs=tuple(ChartSign(**_pick(ChartSign, r)) for r in signs),
    )


@dataclass(frozen=True)
class CastRequest:
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
    civil = parse_at(at, tz or DEFAULT_TZ)
    if civil.note is not None and notes is not None:
        notes.append(civil.note)
    return moment_of(civil, early_rat)


def check_question(question: str | None) -> str | None:
    """The question as given; refused only if a database cannot store it verbatim."""
    if question is None:
        return None
    if not isinstance(question, str):
        raise UsageError(f"the question must be text, got {type(question).__name__}")
    if "\x00" in question:
        raise UsageError("the question contains a NUL character, which cannot be stored")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(
            "the question is not valid Unicode text (it contains a lone surrogate)"
        ) from None
    return question


def check_matter(matter: Any) -> str:
    """The matter as typed, refused if it is not text (an import row may hold a number)."""
    if not isinstance(matter, str):
        raise UsageError(
            f"the matter must be text, got {type(matter).__name__}: expected {lookup.MATTER_FORMS}"
        )
    return matter


def prepare(
    conn: Connection,
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
    """Validate a cast (names resolve through ``conn``); raises UsageError, writes nothing."""
    forms = sum(1 for x in (lines, coins, random) if x)
    if forms != 1:
        raise UsageError("give exactly one of: line values/notation/hexagram, --coins, --random")
    if najia not in NAJIA_VARIANTS:
        raise UsageError(f"unknown najia variant {najia!r}: expected fixed or seasonal")
    if najia == "seasonal" and moment.half_year is None:
        raise UsageError(
            "the seasonal najia needs the half-year, which only a date-time gives (--at)"
        )
    question = check_question(question)
    matter_name = None if matter is None else lookup.matter(conn, check_matter(matter))
    if random:
        if moving:
            raise UsageError("moving lines go with a hexagram name, not with --random")
        cast_ = casting.random_cast()
    elif coins:
        if moving:
            raise UsageError("moving lines go with a hexagram name, not with coins")
        cast_ = casting.from_coins(coins)
    else:
        cast_ = casting.parse(conn, str(lines), moving)
    return CastRequest(cast_, moment, question, najia, matter_name)


def reading_row(request: CastRequest) -> dict[str, Any]:
    """The ``reading`` row of a prepared cast (without its id): its inputs, and the keys
    derived from its lines (:func:`yimao_db.rules.chart.reading_keys`)."""
    m, c = request.moment, request.cast
    keys = reading_keys(c.values, request.najia_variant, m.half_year)
    return {
        "created_at": datetime.now(UTC).isoformat(timespec="microseconds"),
        "question": request.question,
        "method": c.method,
        "cast_input": c.cast_input,
        "cast_at": m.cast_at,
        "tz": m.tz,
        "year_gz": m.year_gz,
        "month_gz": m.month_gz,
        "month_branch": m.month_branch,
        "day_gz": m.day_gz,
        "hour_gz": m.hour_gz,
        "solar_term": m.solar_term,
        "half_year": m.half_year,
        "early_rat": int(m.early_rat),
        "najia_variant": request.najia_variant,
        "primary_kw": keys.primary_kw,
        "changed_kw": keys.changed_kw,
        "moving_mask": keys.moving_mask,
        "najia_half": keys.najia_half,
        "matter": request.matter,
    }


def line_rows(request: CastRequest, reading_id: int) -> list[dict[str, Any]]:
    """The six ``reading_line`` rows of a prepared cast."""
    c = request.cast
    return [
        {
            "reading_id": reading_id,
            "position": i,
            "value": int(v),
            "coins": None if c.coins is None else c.coins[i - 1],
        }
        for i, v in enumerate(c.values, 1)
    ]


def store(conn: Connection, request: CastRequest) -> int:
    """Insert one prepared reading and its six lines; returns the new id."""
    reading_id = conn.execute(
        insert(reading).values(reading_row(request)).returning(reading.c.id)
    ).scalar_one()
    conn.execute(insert(reading_line), line_rows(request, int(reading_id)))
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
    matter: str | None = None,
    db: str | URL | Engine | None = None,
) -> int:
    """Cast and store a reading; returns its id. Bad input raises UsageError, writes nothing.

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
            matter=matter,
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


IMPORT_COLUMNS = ("lines", "at", "tz", "question", "matter")
JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")


@dataclass(frozen=True)
class ImportRow:
    label: str  # how errors name it: "row 3", or "row 3 (line 5)" when the lines differ
    values: dict[str, Any]


def _label(number: int, line: int) -> str:
    return f"row {number}" if number == line else f"row {number} (line {line})"


def _json_rows(content: str) -> list[ImportRow]:
    rows: list[ImportRow] = []
    for line_no, line in enumerate(content.splitlines(), 1):
        if not line.strip():
            continue
        label = _label(len(rows) + 1, line_no)
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{label}: not valid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise UsageError(
                f"{label}: expected a JSON object with keys {', '.join(IMPORT_COLUMNS)}"
            )
        rows.append(ImportRow(label, obj))
    return rows


def _csv_rows(path: Path, content: str) -> list[ImportRow]:
    reader = csv.DictReader(io.StringIO(content, newline=""))
    if reader.fieldnames is None or "lines" not in reader.fieldnames:
        raise UsageError(
            f"{path}: expected a CSV header row with the columns {', '.join(IMPORT_COLUMNS)}"
            " (lines required)"
        )
    rows: list[ImportRow] = []
    start = reader.line_num + 1  # the file line a record starts on
    for record in reader:
        label = _label(len(rows) + 1, start)
        start = reader.line_num + 1
        if None in record:
            raise UsageError(f"{label}: more fields than the header has columns")
        rows.append(ImportRow(label, record))
    return rows


def _import_rows(path: Path) -> list[ImportRow]:
    """The readings of a CSV or JSON Lines file, numbered from 1 (the CSV header is not a
    row; blank JSON lines are skipped)."""
    try:
        content = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    if not content.strip():
        return []
    if path.suffix.lower() in JSON_SUFFIXES or content.lstrip().startswith("{"):
        return _json_rows(content)
    return _csv_rows(path, content)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return str(value).strip() or None


def _cast_text(value: Any) -> str:
    """The ``lines`` of an import row as text: a cast form, or a JSON list of six values."""
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return "".join(str(v) for v in value)
    text_ = _text(value)
    if text_ is None:
        raise UsageError("the 'lines' column is empty")
    return text_


def _prepare_row(conn: Connection, row: dict[str, Any], notes: list[str]) -> CastRequest:
    lines = _cast_text(row.get("lines"))
    moment = make_moment(at=_text(row.get("at")), tz=_text(row.get("tz")), notes=notes)
    question = row.get("question")
    matter = row.get("matter")
    return prepare(
        conn,
        lines,
        moment=moment,
        question=None if question in (None, "") else question,
        matter=None if matter in (None, "") else matter,
    )


def import_file(
    path: str | Path, db: str | URL | Engine | None = None, notes: list[str] | None = None
) -> list[int]:
    """Store every reading of a CSV or JSON Lines file in one transaction; returns the ids.

    Columns ``lines`` (any cast form; coins as ``2,1,3,0,2,2``), ``at`` (ISO date-time,
    default now), ``tz`` (default Asia/Shanghai), ``question`` and ``matter`` (office,
    wealth, lawsuit or worry, any spelling); other columns are ignored. Every row is
    validated before anything is stored: a bad row is reported by its number (``row 3``;
    the CSV header is not counted) and nothing is written. What was assumed about a row's
    date-time is appended to ``notes`` (``row 1: no time given; …``).
    """
    rows = _import_rows(Path(path))
    if not rows:
        raise UsageError(f"{path}: no readings to import")
    with _connect(db, write=True) as conn:
        requests = []
        for row in rows:
            found: list[str] = []
            try:
                requests.append(_prepare_row(conn, row.values, found))
            except UsageError as exc:
                raise UsageError(f"{row.label}: {exc}") from None
            if notes is not None:
                notes.extend(f"{row.label}: {note}" for note in found)
        return [store(conn, request) for request in requests]
