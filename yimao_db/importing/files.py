"""The rows of an import file — CSV with a header row, or JSON Lines — streamed, as written.

The file is a regular file, or standard input (``-``, or a path naming the same file, such
as ``/dev/stdin``); anything else (a FIFO, a device, a directory) is refused before it is
read, so ``/dev/zero`` or a FIFO without a writer cannot make an import run for ever.

A file is JSON Lines when its name ends in ``.jsonl``, ``.ndjson`` or ``.json`` or its first
non-blank character is ``{``; anything else is CSV. Both are read as UTF-8 (a byte order
mark is skipped) a line at a time, never whole, and every value arrives as it is in the file:

- CSV is read with ``newline=''``: a CR, LF or CRLF inside a quoted field is kept as it is;
  the file's own line ends may be any of them. The parser is strict: a quote left open, or
  text after a closing quote, is refused instead of swallowing what follows.
- JSON Lines records end at ``\\n`` only (a ``\\r`` before it is part of the line end); the
  other characters ``str.splitlines`` would break at (U+2028, U+0085, …) stay in their string.

The columns are exactly :data:`COLUMNS` (``lines`` required): a CSV header or a JSON key that
is anything else (`` at``, ``At``, ``note``), or that appears twice, is refused, and so is a
CSV row with fewer or more fields than the header. A row holds at most :data:`ROW_LIMIT`
characters (a CSV record, which may span lines, or a JSON line) and a field at most
:data:`FIELD_LIMIT`, so memory stays bounded whatever the input.

Rows count from 1: the CSV header is not a row, blank lines are skipped. Every problem is a
:class:`UsageError` naming the row, and the file line when that differs.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from yimao_db.errors import UsageError, shown

COLUMNS = ("lines", "at", "tz", "question", "matter", "about")
_KEYS = frozenset(COLUMNS)
JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")
BOM = b"\xef\xbb\xbf"
STDIN = "-"
# The longest field (a question) and the longest row an import reads, in characters: far
# beyond any reading, and small enough that a runaway input (no line ends, a quote never
# closed) is refused before it takes much memory.
FIELD_LIMIT = 1_000_000
ROW_LIMIT = 8_000_000
SNIFF_LIMIT = 1 << 20  # bytes of leading blank space looked through for a first '{'
SHOWN = 40  # characters of a bad name quoted in an error

Values = tuple[Any, ...]  # the COLUMNS as found, in their order (None when absent)
Row = tuple[int, int, Values]  # row number, file line, values

EXPECTED = f"expected the columns {', '.join(COLUMNS)} (lines required)"
ROW_TOO_LONG = (
    f"longer than {ROW_LIMIT:,} characters, the most a row may hold"
    " (is it a CSV or JSON Lines file?)"
)
FIELD_TOO_LONG = f"is longer than {FIELD_LIMIT:,} characters, the most a field may hold"


def label(number: int, line: int) -> str:
    """How an error names a row: ``row 3``, or ``row 3 (line 5)`` when the lines differ."""
    return f"row {number}" if number == line else f"row {number} (line {line})"


def _unknown(name: str, what: str) -> str:
    """``unknown column ' at' (did you mean 'at'?)``."""
    near = [c for c in COLUMNS if c == name.strip().lower()] or difflib.get_close_matches(
        name.strip().lower()[:SHOWN], COLUMNS, n=1, cutoff=0.6
    )
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return f"unknown {what} {shown(name)}{hint}"


def rows(path: Path) -> Iterator[Row]:
    """The rows of the file at ``path`` (``-``: standard input), one at a time; UsageError
    for anything unreadable."""
    try:
        with _opened(path) as raw:
            head = _head(raw)
            stream = io.BufferedReader(_Replay(head, raw), buffer_size=65536)
            is_json = path.suffix.lower() in JSON_SUFFIXES or _first_char(head) == b"{"
            yield from _json_rows(stream) if is_json else _csv_rows(stream)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


_KINDS = {
    stat.S_IFDIR: "a directory",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def _is_stdin(st: os.stat_result) -> bool:
    try:
        return os.path.samestat(st, os.fstat(sys.stdin.fileno()))
    except (OSError, ValueError, AttributeError):  # no standard input, or not a real one
        return False


def _stdin() -> IO[bytes]:
    if sys.stdin is None:  # started with standard input closed
        raise UsageError("cannot read standard input: it is closed")
    return sys.stdin.buffer


def _refuse(path: Path, st: os.stat_result) -> UsageError:
    kind = _KINDS.get(stat.S_IFMT(st.st_mode), "not a regular file")
    return UsageError(
        f"cannot read {path}: it is {kind}; expected a regular file, or - for standard input"
    )


@contextmanager
def _opened(path: Path) -> Iterator[IO[bytes]]:
    """The file at ``path`` opened for reading in binary, or standard input; UsageError for
    anything but a regular file, found before anything is read (a FIFO is opened without
    waiting for a writer, and closed)."""
    if str(path) == STDIN:
        yield _stdin()
        return
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        if _is_stdin(st):
            yield _stdin()
            return
        raise _refuse(path, st)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)  # what was opened: the path may have changed since
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(path, st)
        os.set_blocking(fd, True)
        raw = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with raw:
        yield raw


def _first_char(head: bytes) -> bytes:
    """The first non-blank byte (after a byte order mark), or b''."""
    return (head[len(BOM) :] if head.startswith(BOM) else head).lstrip()[:1]


def _head(raw: IO[bytes]) -> bytes:
    """The start of the input: through its first non-blank byte, or SNIFF_LIMIT bytes."""
    head = b""
    while len(head) < SNIFF_LIMIT:
        chunk = raw.read(65536)
        if not chunk:
            break
        head += chunk
        if _first_char(head):
            break
    return head


class _Replay(io.RawIOBase):
    """The bytes already read (``head``), then the rest of ``raw``."""

    def __init__(self, head: bytes, raw: IO[bytes]) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._raw = raw

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._raw.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _Repeated(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (``json`` would keep the last)."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Repeated(key)
            seen.add(key)
    return obj


_DECODER = json.JSONDecoder(object_pairs_hook=_no_repeats)


def _text(stream: IO[bytes], newline: str) -> io.TextIOWrapper:
    """The stream as text: UTF-8 after an optional byte order mark; bytes that are not
    UTF-8 become lone surrogates, refused by row (:func:`_is_utf8`)."""
    return io.TextIOWrapper(stream, encoding="utf-8-sig", errors="surrogateescape", newline=newline)


def _json_rows(stream: IO[bytes]) -> Iterator[Row]:
    text = _text(stream, "\n")  # lines end at "\n" only
    number = line_no = 0
    while True:
        data = text.readline(ROW_LIMIT + 1)
        if not data:
            return
        line_no += 1
        blank = not data.strip()
        where = f"line {line_no}" if blank else label(number + 1, line_no)
        if len(data) > ROW_LIMIT:
            raise UsageError(f"{where}: {ROW_TOO_LONG}")
        if blank:
            continue
        number += 1
        if not _is_utf8([data]):
            raise UsageError(f"{where}: not UTF-8 text")
        try:
            obj = _DECODER.decode(data)
        except _Repeated as exc:
            raise UsageError(
                f"{where}: the key {shown(exc.key)} appears twice in an object: expected each"
                " key once"
            ) from None
        except RecursionError:
            raise UsageError(
                f"{where}: nested too deeply (JSON arrays or objects about"
                " a thousand deep); a reading's values are text, numbers or a list of six"
            ) from None
        except ValueError as exc:  # JSONDecodeError, or an integer too long to convert
            reason = (
                exc.msg
                if isinstance(exc, json.JSONDecodeError)
                else "a number of more than 4,300 digits"
            )
            if not data.endswith("\n"):
                reason += "; the file ends in the middle of the row"
            raise UsageError(f"{where}: not valid JSON ({reason})") from None
        if not isinstance(obj, dict):
            raise UsageError(f"{where}: expected a JSON object with the keys {', '.join(COLUMNS)}")
        if not obj.keys() <= _KEYS:
            key = next(k for k in obj if k not in _KEYS)
            raise UsageError(
                f"{where}: {_unknown(key, 'key')}: expected the keys {', '.join(COLUMNS)}"
                " (lines required)"
            )
        for key in TEXT_KEYS:
            value = obj.get(key)
            if value is not None and not isinstance(value, str):
                raise UsageError(
                    f"{where}: the value of {shown(key)} is not text: expected a string"
                    f" ({TEXT_KEYS[key]}), got {json.dumps(value)[:40]}"
                )
        if len(data) > FIELD_LIMIT:  # else no value can be longer
            for key, value in obj.items():
                if isinstance(value, str) and len(value) > FIELD_LIMIT:
                    raise UsageError(f"{where}: the value of {shown(key)} {FIELD_TOO_LONG}")
        yield number, line_no, tuple(obj.get(name) for name in COLUMNS)


# the keys whose values are text in a JSON Lines row, and what each holds
TEXT_KEYS = {"at": "a date-time, e.g. 2026-11-30T09:15", "tz": "a time zone, e.g. Asia/Shanghai"}


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


class _TooLong(Exception):
    pass


class _Lines:
    """The lines of a text stream for the CSV reader (:attr:`lines`), each read with a
    bound; :attr:`size` counts the characters of the record being read (the caller resets it
    at each record) and :attr:`last` is the last line read."""

    def __init__(self, text: IO[str]) -> None:
        self.size = 0
        self.last = ""
        self.lines = self._read(text)

    def _read(self, text: IO[str]) -> Iterator[str]:
        readline = text.readline
        while line := readline(ROW_LIMIT + 1):
            self.size += len(line)
            if self.size > ROW_LIMIT:
                raise _TooLong
            self.last = line
            yield line

    @property
    def ended(self) -> bool:
        """Whether the last line read ends with a line end (else the file ends in it)."""
        return self.last.endswith(("\n", "\r"))


class _CsvError(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.reason = line, reason


def _records(lines: _Lines) -> Iterator[tuple[int, list[str]]]:
    """The non-blank records of the CSV lines with the file line each starts on; a parser
    error names that line."""
    reader = csv.reader(lines.lines, strict=True)
    start = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except _TooLong:
            raise _CsvError(start, ROW_TOO_LONG) from None
        except csv.Error as exc:
            if "unexpected end of data" in str(exc):
                raise _CsvError(
                    start, "unclosed quote: a quoted field runs to the end of the file"
                ) from None
            if "field larger than field limit" in str(exc):
                raise _CsvError(
                    start,
                    f"a field {FIELD_TOO_LONG} (or a quote left open swallows the rows after it)",
                ) from None
            raise _CsvError(
                start,
                f"malformed CSV on line {reader.line_num} ({exc}): a quoted field must end"
                " with a quote followed by a comma or the end of the line",
            ) from None
        lines.size = 0
        line_no, start = start, reader.line_num + 1
        if record:  # not a blank line
            yield line_no, record


def _header(header: list[str]) -> list[int]:
    """Where each of COLUMNS is in the header (its width when absent); UsageError for a
    column that is not one of them, appears twice, or a header without ``lines``."""
    if not _is_utf8(header):
        raise UsageError("not UTF-8 text")
    columns: dict[str, int] = {}
    for i, name in enumerate(header):
        if name in columns:
            raise UsageError(f"the column {shown(name)} appears twice: {EXPECTED}")
        if name not in COLUMNS:
            problem = f"column {i + 1} has no name" if not name.strip() else None
            raise UsageError(f"{problem or _unknown(name, 'column')}: {EXPECTED}")
        columns[name] = i
    if "lines" not in columns:
        raise UsageError(f"no 'lines' column: {EXPECTED}")
    return [columns.get(name, len(header)) for name in COLUMNS]


def _csv_rows(stream: IO[bytes]) -> Iterator[Row]:
    lines = _Lines(_text(stream, ""))
    records = _records(lines)
    number = 0
    header: list[str] | None = None
    with _field_limit(FIELD_LIMIT):
        try:
            first = next(records, None)
            if first is None:
                return
            line_no, header = first
            try:
                picks = _header(header)
            except UsageError as exc:
                raise UsageError(f"line {line_no} (the header): {exc}") from None
            width = len(header)
            for line_no, record in records:
                number += 1
                if len(record) != width:
                    cut = "" if lines.ended else "the file ends in the middle of the row: "
                    raise UsageError(
                        f"{label(number, line_no)}: {cut}{len(record)} field"
                        f"{'' if len(record) == 1 else 's'} where the header has {width}"
                        f" ({', '.join(header)})"
                    )
                if not _is_utf8(record):
                    raise UsageError(f"{label(number, line_no)}: not UTF-8 text")
                values = (*record, None)  # None: what an absent column reads
                yield number, line_no, tuple(values[i] for i in picks)
        except _CsvError as exc:
            where = (
                f"line {exc.line} (the header)" if header is None else label(number + 1, exc.line)
            )
            raise UsageError(f"{where}: {exc.reason}") from None
