"""The rows of an import file — CSV with a header row, or JSON Lines — streamed, as written.

A file is JSON Lines when its name ends in ``.jsonl``, ``.ndjson`` or ``.json`` or its first
non-blank character is ``{``; anything else is CSV. Both are read as UTF-8 (a byte order
mark is skipped) a line at a time, never whole, and every value arrives as it is in the file:

- CSV is read with ``newline=''``: a CR, LF or CRLF inside a quoted field is kept as it is;
  the file's own line ends may be any of them. A field has no length limit of its own (the
  ``csv`` module's default of 131,072 characters is lifted). The parser is strict: a quote
  left open, or text after a closing quote, is refused instead of swallowing what follows.
- JSON Lines records end at ``\\n`` only (a ``\\r`` before it is part of the line end); the
  other characters ``str.splitlines`` would break at (U+2028, U+0085, …) stay in their string.

Rows count from 1: the CSV header is not a row, blank lines are skipped. Every problem is a
:class:`UsageError` naming the row, and the file line when that differs.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from yimao_db.errors import UsageError

COLUMNS = ("lines", "at", "tz", "question", "matter")
JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")
BOM = b"\xef\xbb\xbf"
# The longest CSV field read: SQLite's default limit on a value (SQLITE_MAX_LENGTH, in bytes;
# PostgreSQL's is about the same). A value near it is refused by the database, not the parser.
FIELD_LIMIT = 1_000_000_000

Values = tuple[Any, ...]  # the COLUMNS as found, in their order (None when absent)
Row = tuple[int, int, Values]  # row number, file line, values


def label(number: int, line: int) -> str:
    """How an error names a row: ``row 3``, or ``row 3 (line 5)`` when the lines differ."""
    return f"row {number}" if number == line else f"row {number} (line {line})"


def rows(path: Path) -> Iterator[Row]:
    """The rows of the file at ``path``, one at a time; UsageError for anything unreadable."""
    try:
        with path.open("rb") as raw:
            is_json = path.suffix.lower() in JSON_SUFFIXES or _first_char(raw) == b"{"
            raw.seek(0)
            yield from _json_rows(raw) if is_json else _csv_rows(raw, path)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


def _first_char(raw: IO[bytes]) -> bytes:
    """The first non-blank byte of the file (after a byte order mark), or b''."""
    head = raw.read(65536)
    if head.startswith(BOM):
        head = head[len(BOM) :]
    while head:
        stripped = head.lstrip()
        if stripped:
            return stripped[:1]
        head = raw.read(65536)
    return b""


def _json_rows(raw: IO[bytes]) -> Iterator[Row]:
    number = 0
    for line_no, data in enumerate(raw, 1):  # a binary file's lines end at b"\n" only
        if line_no == 1 and data.startswith(BOM):
            data = data[len(BOM) :]
        if not data.strip():
            continue
        number += 1
        try:
            obj = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise UsageError(f"{label(number, line_no)}: not UTF-8 text") from None
        except RecursionError:
            raise UsageError(
                f"{label(number, line_no)}: nested too deeply (JSON arrays or objects about"
                " a thousand deep); a reading's values are text, numbers or a list of six"
            ) from None
        except ValueError as exc:  # JSONDecodeError, or an integer too long to convert
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise UsageError(f"{label(number, line_no)}: not valid JSON ({reason})") from None
        if not isinstance(obj, dict):
            raise UsageError(
                f"{label(number, line_no)}: expected a JSON object with keys {', '.join(COLUMNS)}"
            )
        yield number, line_no, tuple(obj.get(name) for name in COLUMNS)


@contextmanager
def _field_limit(limit: int) -> Iterator[None]:
    old = csv.field_size_limit(limit)
    try:
        yield
    finally:
        csv.field_size_limit(old)


def _is_utf8(fields: list[str]) -> bool:
    """False if bytes that are not UTF-8 were read (``surrogateescape`` made them lone
    surrogates, which no UTF-8 text decodes to)."""
    try:
        "".join(fields).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _records(reader: Any) -> Iterator[tuple[int, list[str]]]:
    """The non-blank records of a CSV reader with the file line each starts on; a parser
    error names that line."""
    start = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if "unexpected end of data" in str(exc):
                raise _CsvError(
                    start, "unclosed quote: a quoted field runs to the end of the file"
                ) from None
            raise _CsvError(
                start,
                f"malformed CSV on line {reader.line_num} ({exc}): a quoted field must end"
                " with a quote followed by a comma or the end of the line",
            ) from None
        line_no, start = start, reader.line_num + 1
        if record:  # not a blank line
            yield line_no, record


class _CsvError(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.reason = line, reason


def _csv_rows(raw: IO[bytes], path: Path) -> Iterator[Row]:
    text = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="surrogateescape", newline="")
    records = _records(csv.reader(text, strict=True))
    number = 0
    header: list[str] | None = None
    with _field_limit(FIELD_LIMIT):
        try:
            first = next(records, None)
            if first is None:
                return
            line_no, header = first
            if not _is_utf8(header):
                raise UsageError(f"line {line_no} (the header): not UTF-8 text")
            columns = {name: i for i, name in enumerate(header)}  # a repeated name: the last
            if "lines" not in columns:
                raise UsageError(
                    f"{path}: expected a CSV header row with the columns {', '.join(COLUMNS)}"
                    " (lines required)"
                )
            width = len(header)
            picks = [columns.get(name, width) for name in COLUMNS]  # width: absent → None
            for line_no, record in records:
                number += 1
                if len(record) > width:
                    raise UsageError(
                        f"{label(number, line_no)}: more fields than the header has columns"
                    )
                if not _is_utf8(record):
                    raise UsageError(f"{label(number, line_no)}: not UTF-8 text")
                if len(record) < width + 1:
                    record += [None] * (width + 1 - len(record))  # type: ignore[list-item]
                yield number, line_no, tuple(record[i] for i in picks)
        except _CsvError as exc:
            where = (
                f"line {exc.line} (the header)" if header is None else label(number + 1, exc.line)
            )
            raise UsageError(f"{where}: {exc.reason}") from None
