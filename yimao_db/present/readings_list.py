"""``yimao readings``: the list of readings as a table for people, and typed for JSON.

The table is narrow enough to read: the id, when the reading was cast (its own local time,
to the minute), the day, the hexagrams, the moving lines, the question cut short, the
outcome and the tags. ``--csv`` and ``--json`` keep every column of
:data:`yimao_db.finding.COLUMNS` at full precision (``created_at`` and ``cast_at`` whole);
JSON gives ``moving_lines`` and ``tags`` as arrays, as the chart JSON does
(:mod:`yimao_db.present.chart_json`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from yimao_db.present.table import cut, terminal_text

TABLE_COLUMNS = ("id", "cast", "day", "hexagram", "moving", "question", "outcome", "tags")
QUESTION_CELLS = 36  # terminal columns of the question shown, "…" included
TAGS_CELLS = 24


def _at(columns: Sequence[str]) -> dict[str, int]:
    return {name: i for i, name in enumerate(columns)}


def when_cast(cast_at: str | None) -> str:
    """``2026-11-30T09:15:00+08:00`` as ``2026-11-30 09:15``: the reading's local time to the
    minute (a reading cast from pillars has none: empty)."""
    return "" if not cast_at else f"{cast_at[:10]} {cast_at[11:16]}"


def _short(text: str | None, cells: int) -> str:
    return "" if text is None else cut(terminal_text(text), cells)


def table_rows(
    columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> tuple[list[str], list[list[Any]]]:
    """The rows of :func:`yimao_db.finding.find` as the table shows them."""
    at = _at(columns)
    shown = []
    for row in rows:
        primary, changed = row[at["primary_name"]], row[at["changed_name"]]
        shown.append(
            [
                row[at["reading_id"]],
                when_cast(row[at["cast_at"]]),
                row[at["day_gz"]],
                f"{primary} 之 {changed}" if changed else primary,
                row[at["moving_lines"]],
                _short(row[at["question"]], QUESTION_CELLS),
                row[at["outcome"]],
                _short(row[at["tags"]], TAGS_CELLS),
            ]
        )
    return list(TABLE_COLUMNS), shown


def json_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The rows with ``moving_lines`` as an array of numbers and ``tags`` as an array of
    text (``"1,4"`` → ``[1, 4]``; none → ``[]``)."""
    at = _at(columns)
    moving, tags = at["moving_lines"], at["tags"]
    typed = []
    for row in rows:
        values = list(row)
        values[moving] = [int(p) for p in row[moving].split(",")] if row[moving] else []
        values[tags] = row[tags].split(",") if row[tags] else []
        typed.append(values)
    return typed
