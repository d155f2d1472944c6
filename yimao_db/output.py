"""Printing rows: aligned table (for people), CSV, JSON and JSON Lines (for programs)."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Sequence
from typing import Any

FORMATS = ("table", "csv", "json", "jsonl")


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
