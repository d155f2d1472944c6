"""Readings: cast six lines at a moment, store only the inputs, read the chart from the views.

:func:`cast` validates everything first and then writes one reading in one transaction, so
bad input writes nothing. :func:`chart` reads ``v_reading``, ``v_reading_line`` and
``v_reading_hidden``; no derived value is computed in Python.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, insert, text
from sqlalchemy.engine import URL

from yimao_db import casting
from yimao_db.db import reader_engine, writer_engine
from yimao_db.errors import UsageError
from yimao_db.moment import Moment, moment_at, moment_from_pillars, parse_pillars
from yimao_db.schema.readings import NAJIA_VARIANTS, Reading, ReadingLine

DEFAULT_TZ = "Asia/Shanghai"


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
        return asdict(self)


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


@dataclass(frozen=True)
class CastRequest:
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
    if pillars:
        return parse_pillars(pillars)
    if given:
        if not day:
            raise UsageError("pillars need at least the day (--day 甲子) and month (--month 寅)")
        month_gz = month if month and len(month.strip()) == 2 else None
        month_branch = month if month and len(month.strip()) == 1 else None
        return moment_from_pillars(
            day=day, month=month_gz, year=year, hour=hour, month_branch=month_branch
        )
    return moment_at(at, tz or DEFAULT_TZ, early_rat=early_rat)


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
    if random:
        cast_ = casting.random_cast()
    elif coins:
        if moving:
            raise UsageError("moving lines go with a hexagram name, not with coins")
        cast_ = casting.from_coins(coins)
    else:
        cast_ = casting.parse(conn, str(lines), moving)
    return CastRequest(cast_, moment, question, najia)


def store(conn: Connection, request: CastRequest) -> int:
    """Insert one prepared reading and its six lines; returns the new id."""
    m, c = request.moment, request.cast
    reading_id = conn.execute(
        insert(Reading)
        .values(
            created_at=datetime.now(UTC).isoformat(timespec="microseconds"),
            question=request.question,
            method=c.method,
            cast_input=c.cast_input,
            cast_at=m.cast_at,
            tz=m.tz,
            year_gz=m.year_gz,
            month_gz=m.month_gz,
            month_branch=m.month_branch,
            day_gz=m.day_gz,
            hour_gz=m.hour_gz,
            solar_term=m.solar_term,
            half_year=m.half_year,
            early_rat=int(m.early_rat),
            najia_variant=request.najia_variant,
        )
        .returning(Reading.id)
    ).scalar_one()
    conn.execute(
        insert(ReadingLine),
        [
            {
                "reading_id": reading_id,
                "position": i,
                "value": int(v),
                "coins": None if c.coins is None else c.coins[i - 1],
            }
            for i, v in enumerate(c.values, 1)
        ],
    )
    return int(reading_id)


def _engine(db: str | URL | Engine | None, *, write: bool) -> Engine:
    if isinstance(db, Engine):
        return db
    return writer_engine(db) if write else reader_engine(db)


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
    engine = _engine(db, write=True)
    with engine.begin() as conn:
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
    with _engine(db, write=False).connect() as conn:
        return read_chart(conn, reading_id)


def recent(limit: int = 20, db: str | URL | Engine | None = None) -> tuple[list[str], list[Any]]:
    """Stored readings, newest first."""
    if limit < 1:
        raise UsageError(f"--limit must be a positive number, got {limit}")
    with _engine(db, write=False).connect() as conn:
        result = conn.execute(
            text(
                "SELECT reading_id, created_at, cast_at, day_gz, primary_name, changed_name, "
                "moving_lines, question FROM v_reading ORDER BY reading_id DESC LIMIT :n"
            ),
            {"n": limit},
        )
        return list(result.keys()), [tuple(r) for r in result]


IMPORT_COLUMNS = ("lines", "at", "tz", "question")


def _import_rows(path: Path) -> list[dict[str, Any]]:
    try:
        content = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    stripped = content.lstrip()
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json") or stripped.startswith("{"):
        rows = []
        for n, line in enumerate(content.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"row {n}: not valid JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise UsageError(f"row {n}: expected a JSON object with {IMPORT_COLUMNS}")
            rows.append({"_row": n, **obj})
        return rows
    reader = csv.DictReader(io.StringIO(content))
    if reader.fieldnames is None or "lines" not in reader.fieldnames:
        raise UsageError(f"{path}: expected a CSV header with columns {', '.join(IMPORT_COLUMNS)}")
    return [{"_row": n, **r} for n, r in enumerate(reader, 2)]


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return str(value).strip() or None


def import_file(path: str | Path, db: str | URL | Engine | None = None) -> list[int]:
    """Store every reading of a CSV or JSON Lines file in one transaction; returns the ids.

    A bad row is reported by its row number (CSV: the file's line, header = 1) and nothing
    is written.
    """
    rows = _import_rows(Path(path))
    if not rows:
        raise UsageError(f"{path}: no readings to import")
    engine = _engine(db, write=True)
    ids = []
    with engine.begin() as conn:
        requests = []
        for row in rows:
            try:
                lines = _text(row.get("lines"))
                if lines is None:
                    raise UsageError("the 'lines' column is empty")
                moment = make_moment(at=_text(row.get("at")), tz=_text(row.get("tz")))
                coins = lines if casting.looks_like_coins(lines) else None
                requests.append(
                    prepare(
                        conn,
                        None if coins else lines,
                        coins=coins,
                        moment=moment,
                        question=None
                        if row.get("question") in (None, "")
                        else str(row["question"]),
                    )
                )
            except UsageError as exc:
                raise UsageError(f"row {row['_row']}: {exc}") from None
        for request in requests:
            ids.append(store(conn, request))
    return ids
