"""Printing rows: aligned table (for people), CSV, JSON and JSON Lines (for programs).

Text printed for people goes through :func:`terminal_text`: control characters and bidi
overrides are shown as escapes, so stored text (a question, a description, a cell of
``yimao sql``) cannot move the cursor, recolour the terminal, break a row or reorder a line.
CSV and JSON stay exact.

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

from yimao_db.errors import UsageError, shown

FORMATS = ("table", "csv", "json", "jsonl")
TABLE_ROW_LIMIT = 10_000
TABLE_TEXT_LIMIT = 16 * 2**20  # characters of cells the table holds


# Shown as escapes on a terminal: C0 controls, DEL and C1 controls (\x1b starts a terminal
# command, \r and \n break a row), line and paragraph separators, and the bidi controls that
# reorder a line: marks (U+061C, U+200E-F), embeddings and overrides (U+202A-E), isolates
# (U+2066-9).
_CONTROLS = [*range(0x20), *range(0x7F, 0xA0)]
_FORMATS = [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ESCAPES = {
    **{c: f"\\x{c:02x}" for c in _CONTROLS},
    **{c: f"\\u{c:04x}" for c in _FORMATS},
    **{ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"},
}


def terminal_text(text: str) -> str:
    """``text`` safe to print on a terminal: control characters, line and paragraph
    separators and bidi controls become escapes (``\\n``, ``\\t``, ``\\x1b``, ``\\u202e``);
    everything else, backslashes included, is shown as it is."""
    return text.translate(_ESCAPES)


def terminal_layout(lines: Iterable[str]) -> str:
    """Lines of a layout for people, each made terminal-safe, joined and ended by newlines
    (a newline inside a line shows as ``\\n``)."""
    return "".join(terminal_text(line) + "\n" for line in lines)


def table_cell(value: Any) -> str:
    """A value as a table cell for people: NULL empty, text through :func:`terminal_text`."""
    return "" if value is None else terminal_text(str(value))


def width(text: str) -> int:
    """Display width: East Asian wide characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, cells: int) -> str:
    return text + " " * (cells - width(text))


def cut(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` terminal columns: cut short with "…" if longer."""
    if width(text) <= cells:
        return text
    kept, used = [], 1  # the "…" takes a column
    for char in text:
        used += width(char)
        if used > cells:
            break
        kept.append(char)
    return "".join(kept) + "…"


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
    header = [table_cell(c) for c in columns]
    cells = [[table_cell(v) for v in row] for row in rows]
    widths = [max([width(c)] + [width(r[i]) for r in cells]) for i, c in enumerate(header)]
    lines = ["  ".join(pad(c, w) for c, w in zip(header, widths, strict=True)).rstrip()]
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
                f"column name {shown(name)} appears twice, and a JSON object holds each name once; "
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
