"""Printing rows: aligned table (for people), CSV, JSON and JSON Lines (for programs).

Text printed for people goes through :func:`terminal_text`: control characters and bidi
overrides are shown as escapes, so stored text (a question, a description, a cell of
``yimao sql``) cannot move the cursor, recolour the terminal, break a row or reorder a line.
CSV and JSON stay exact.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

FORMATS = ("table", "csv", "json", "jsonl")


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
