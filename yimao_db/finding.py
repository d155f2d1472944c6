"""Finding readings: the filters of ``yimao readings`` and :func:`yimao_db.find_readings`.

Every filter is checked before the query runs (an unknown hexagram or tag, a bad date, a
count out of range: UsageError). The query reads ``v_reading`` and the journal tables;
filters combine with AND; readings come newest first.

A reading's *date* is the local date of its moment (``cast_at``); a reading cast from
pillars has no moment and is dated by the day it was stored (``created_at``, UTC).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, text
from sqlalchemy.engine import URL

from yimao_db import lookup
from yimao_db.dialect import MAX_ID
from yimao_db.errors import UsageError, shown
from yimao_db.journaling import clean_tag, parse_date, shown_tag
from yimao_db.kb.vocab import VERDICTS
from yimao_db.readings import check_text, connect

NO_OUTCOME = "none"
OUTCOMES = (*VERDICTS, NO_OUTCOME)
COLUMNS = (
    "reading_id",
    "created_at",
    "cast_at",
    "day_gz",
    "primary_name",
    "changed_name",
    "moving_lines",
    "question",
    "outcome",
    "tags",
)
DAY = "COALESCE(substr(v.cast_at, 1, 10), substr(v.created_at, 1, 10))"


@dataclass(frozen=True)
class Filters:
    """What to look for; None (or empty) means any."""

    hexagram: str | None = None  # the primary hexagram, any accepted name
    changed: str | None = None  # the changed hexagram
    since: str | None = None  # first date, YYYY-MM-DD, inclusive
    until: str | None = None  # last date, inclusive
    tag: str | None = None
    search: str | None = None  # text in the question or a note (case-insensitive for ASCII)
    matter: str | None = None  # the matter asked about, any spelling (office, 功名 …)
    moving: int | None = None  # how many lines move, 0..6
    outcome: str | None = None  # hit, miss, partial or none

    def given(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}


def _like(value: str) -> str:
    """``value`` as a LIKE pattern matching it anywhere (``\\`` escapes % and _)."""
    escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped.lower()}%"


def _where(conn: Connection, f: Filters) -> tuple[list[str], dict[str, Any]]:
    """The conditions on ``v_reading v`` and their parameters; UsageError for a bad filter."""
    where: list[str] = []
    params: dict[str, Any] = {}
    if f.hexagram is not None:
        where.append("v.primary_king_wen = :primary")
        params["primary"] = lookup.hexagram(conn, f.hexagram)
    if f.changed is not None:
        where.append("v.changed_king_wen = :changed")
        params["changed"] = lookup.hexagram(conn, f.changed)
    since = parse_date(f.since, "--since date") if f.since is not None else None
    until = parse_date(f.until, "--until date") if f.until is not None else None
    if since is not None and until is not None and since > until:
        raise UsageError(f"--since {since} is after --until {until}: nothing can match")
    if since is not None:
        where.append(f"{DAY} >= :since")
        params["since"] = since
    if until is not None:
        where.append(f"{DAY} <= :until")
        params["until"] = until
    if f.tag is not None:
        tag = clean_tag(f.tag)
        known = conn.execute(text("SELECT 1 FROM reading_tag WHERE tag = :t"), {"t": tag}).first()
        if known is None:
            raise UsageError(f"unknown tag {shown(tag)}: {_known_tags(conn)}")
        where.append(
            "EXISTS (SELECT 1 FROM reading_tag t WHERE t.reading_id = v.reading_id "
            "AND t.tag = :tag)"
        )
        params["tag"] = tag
    if f.search is not None:
        wanted = check_text(f.search, "the search text")
        if not wanted or not wanted.strip():
            raise UsageError("the search text is empty: expected some text")
        where.append(
            "(lower(v.question) LIKE :search ESCAPE '\\' OR EXISTS (SELECT 1 FROM reading_note n "
            "WHERE n.reading_id = v.reading_id AND lower(n.note) LIKE :search ESCAPE '\\'))"
        )
        params["search"] = _like(wanted)
    if f.matter is not None:
        where.append("v.matter = :matter")
        params["matter"] = lookup.matter(conn, f.matter)
    if f.moving is not None:
        if isinstance(f.moving, bool) or not isinstance(f.moving, int) or not 0 <= f.moving <= 6:
            raise UsageError(
                f"bad --moving {shown(f.moving)}: expected a number of lines from 0 to 6"
            )
        where.append(
            "EXISTS (SELECT 1 FROM reading r JOIN moving_lines ml ON ml.mask = r.moving_mask "
            "WHERE r.id = v.reading_id AND ml.line_count = :moving)"
        )
        params["moving"] = f.moving
    if f.outcome is not None:
        if f.outcome not in OUTCOMES:
            raise UsageError(f"bad --outcome {shown(f.outcome)}: expected {', '.join(OUTCOMES)}")
        if f.outcome == NO_OUTCOME:
            where.append("v.outcome IS NULL")
        else:
            where.append("v.outcome = :outcome")
            params["outcome"] = f.outcome
    return where, params


def _known_tags(conn: Connection) -> str:
    tags = list(
        conn.execute(text("SELECT DISTINCT tag FROM reading_tag ORDER BY tag LIMIT 21")).scalars()
    )
    if not tags:
        return "no reading has a tag yet (yimao tag ID TAG)"
    listed = ", ".join(map(shown_tag, tags[:20])) + (", …" if len(tags) > 20 else "")
    return f"no reading has it; the tags in use are {listed}"


def find(
    conn: Connection, filters: Filters = Filters(), limit: int | None = 20
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The readings ``filters`` match, newest first, at most ``limit`` (None: all), as
    (column names, rows); ``tags`` is the reading's tags joined by ','."""
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_ID
    ):
        raise UsageError(f"--limit must be a whole number from 1 to {MAX_ID}, got {shown(limit)}")
    where, params = _where(conn, filters)
    listed = [c for c in COLUMNS if c != "tags"]
    sql = f"SELECT {', '.join('v.' + c for c in listed)} FROM v_reading v"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY v.reading_id DESC"
    if limit is not None:
        sql += " LIMIT :limit"
        params["limit"] = limit
    rows = [tuple(r) for r in conn.execute(text(sql), params)]
    tags = _tags_of(conn, [r[0] for r in rows])
    return list(COLUMNS), [(*r, ",".join(tags.get(r[0], ()))) for r in rows]


def find_readings(
    db: str | URL | Engine | Connection | None = None, *, limit: int | None = 20, **filters: Any
) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The API form of :func:`find`: ``yimao_db.find_readings(hexagram="姤",
    since="2026-12-01", tag="work", limit=None, db="yimao.db")``; the filters are the fields
    of :class:`Filters`."""
    unknown = set(filters) - {f.name for f in fields(Filters)}
    if unknown:
        raise UsageError(f"unknown filter {', '.join(sorted(unknown))}")
    with connect(db, write=False) as conn:
        return find(conn, Filters(**filters), limit)


def _tags_of(conn: Connection, ids: list[int]) -> dict[int, list[str]]:
    """The tags of each of ``ids``, sorted."""
    query = text(
        "SELECT reading_id, tag FROM reading_tag WHERE reading_id IN :ids ORDER BY reading_id, tag"
    ).bindparams(bindparam("ids", expanding=True))
    found: dict[int, list[str]] = {}
    for start in range(0, len(ids), 500):
        for reading_id, tag in conn.execute(query, {"ids": ids[start : start + 500]}):
            found.setdefault(int(reading_id), []).append(str(tag))
    return found
