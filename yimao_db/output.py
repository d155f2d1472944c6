"""Printing rows: aligned table (for people), CSV, JSON and JSON Lines (for programs).

:func:`render` formats rows held in memory; :func:`write` streams rows as they come (CSV,
JSON, JSON Lines) — the table, whose column widths depend on every row, is cut at
:data:`TABLE_ROW_LIMIT` rows or :data:`TABLE_TEXT_LIMIT` characters.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from yimao_db.errors import UsageError

FORMATS = ("table", "csv", "json", "jsonl")
TABLE_ROW_LIMIT = 10_000
TABLE_TEXT_LIMIT = 16 * 2**20  # characters of cells the table holds


def width(text: str) -> int:
    """Display width: East Asian wide characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, cells: int) -> str:
    return text + " " * (cells - width(text))


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def render(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str = "table") -> str:
    """Rows in ``fmt`` (one of FORMATS), ending with a newline unless empty."""
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([_cell(v) for v in row] for row in rows)
        return buf.getvalue()
    if fmt == "json":
        data = [dict(zip(columns, row, strict=True)) for row in rows]
        return json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n"
    if fmt == "jsonl":
        return "".join(
            json.dumps(dict(zip(columns, row, strict=True)), ensure_ascii=False, default=str) + "\n"
            for row in rows
        )
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([width(c)] + [width(r[i]) for r in cells]) for i, c in enumerate(columns)]
    lines = ["  ".join(pad(c, w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(pad(c, w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    return "\n".join(lines) + "\n"


def check_keys(columns: Sequence[str], fmt: str) -> None:
    """JSON objects need distinct keys: UsageError naming a repeated column (json, jsonl)."""
    if fmt not in ("json", "jsonl"):
        return
    seen: set[str] = set()
    for name in columns:
        if name in seen:
            raise UsageError(
                f"column name {name!r} appears twice, and a JSON object holds each name once; "
                "give the columns distinct names with AS (or use --csv)"
            )
        seen.add(name)


_JSON = json.JSONEncoder(ensure_ascii=False, default=str)
_JSON_INDENTED = json.JSONEncoder(ensure_ascii=False, indent=2, default=str)
_FLUSH_ROWS = 100  # rows, or
_FLUSH_CHARS = 64 * 2**10  # characters, handed to the output at a time


class _Buffer:
    """Text gathered a row at a time and handed on in pieces of bounded size."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> None:  # also csv.writer's
        self.parts.append(text)
        self.size += len(text)

    def row_done(self) -> None:
        if len(self.parts) >= _FLUSH_ROWS or self.size >= _FLUSH_CHARS:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            self.out.write("".join(self.parts))
            self.parts, self.size = [], 0


def _object(columns: Sequence[str], row: Sequence[Any]) -> dict[str, Any]:
    return dict(zip(columns, row, strict=True))


def write(
    out: TextIO, columns: Sequence[str], rows: Iterable[Sequence[Any]], fmt: str
) -> int | None:
    """Write ``rows`` to ``out`` in ``fmt`` as they come, the same text :func:`render` gives.
    The table holds at most TABLE_ROW_LIMIT rows and TABLE_TEXT_LIMIT characters of cells:
    returns how many rows it shows when it leaves some out, else None."""
    if fmt == "table":
        shown: list[list[str]] = []
        size = 0
        for row in rows:
            if len(shown) == TABLE_ROW_LIMIT or size > TABLE_TEXT_LIMIT:
                out.write(render(columns, shown, "table"))
                return len(shown)
            cells = [_cell(v) for v in row]
            size += sum(map(len, cells))
            shown.append(cells)
        out.write(render(columns, shown, "table"))
        return None
    buf = _Buffer(out)
    if fmt == "csv":
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_cell(v) for v in row])
            buf.row_done()
    elif fmt == "jsonl":
        for row in rows:
            buf.write(_JSON.encode(_object(columns, row)) + "\n")
            buf.row_done()
    else:  # json: one array, written an object at a time
        separator = "[\n  "
        for row in rows:
            text = _JSON_INDENTED.encode(_object(columns, row))
            buf.write(separator + text.replace("\n", "\n  "))
            separator = ",\n  "
            buf.row_done()
        buf.write("[]\n" if separator.startswith("[") else "\n]\n")
    buf.flush()
    return None
