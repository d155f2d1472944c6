"""Lexing the SQL of ``yimao sql``: strings, quoted identifiers and comments apart from code.

The lexer splits a statement into pieces so that only real code is searched for ``;``,
``:name`` placeholders, first keywords and function calls — never the inside of a string
(``'…'``, PostgreSQL ``E'…'`` and ``$tag$…$tag$``), a quoted identifier (``"…"``; SQLite
also ``[…]`` and `````…`````) or a comment (``--``, ``/* … */``, nested on PostgreSQL). An
unterminated literal or comment runs to the end, followed by an ``("open", "")`` piece; the
database reports the syntax error.

:func:`called_names` and :func:`identifiers` read PostgreSQL names the way the server does:
folded to lower case (ASCII letters only) unless quoted, ``U&"…"`` escapes decoded (with
``UESCAPE``), cut at 63 bytes, comments allowed before a call's ``(``. The server is set to
read strings as this lexer does (``standard_conforming_strings = on``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from yimao_db.dialect import POSTGRESQL, SQLITE

Piece = tuple[str, str]  # (kind, text): code, param, quoted, comment, end

IDENT = re.compile(r"[^\W\d]\w*", re.UNICODE)
_DOLLAR_TAG = re.compile(r"\$(?:[^\W\d]\w*)?\$", re.UNICODE)
_WORD = re.compile(r"[A-Za-z_]+")
_WORD_CHARS = re.compile(r"\w+", re.UNICODE)
_PG_WORD = re.compile(r"[\w$]+", re.UNICODE)
_CODE_TOKEN = re.compile(r"(?P<name>[^\W\d][\w$]*)|\d[\w.]*|\S", re.UNICODE)
_UNICODE_PREFIX = re.compile(r"(?<![\w$])[Uu]&$")
_UESCAPE = re.compile(r"\s*UESCAPE\s*", re.IGNORECASE)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
PG_NAME_BYTES = 63  # NAMEDATALEN - 1: longer identifiers are cut


def _in_word(ch: str) -> bool:
    """Whether ``ch`` continues an identifier: for both databases that includes every
    character outside ASCII."""
    return ch != "" and (not ch.isascii() or ch.isalnum() or ch in ("_", "$"))


def _starts_token(sql: str, i: int) -> bool:
    """Whether ``sql[i]`` begins a PostgreSQL token: it follows no identifier character, or
    follows a number (``1e'…'`` is 1 then an E'' string up to PostgreSQL 14; 15 refuses it)."""
    j = i
    while j > 0 and sql[j - 1] in "0123456789.":
        j -= 1
    return j == 0 or not _in_word(sql[j - 1])


def _quoted_end(sql: str, start: int, close: str, *, backslash: bool = False) -> int:
    """Index just past the closing quote of a literal opened at ``start`` (doubled = escaped)."""
    i = start + 1
    n = len(sql)
    while i < n:
        c = sql[i]
        if backslash and c == "\\":
            i += 2
            continue
        if c == close:
            if close in "'\"`" and i + 1 < n and sql[i + 1] == close:
                i += 2
                continue
            return i + 1
        i += 1
    return -1  # unterminated: the database reports the syntax error


def _comment_end(sql: str, start: int, *, nested: bool) -> int:
    depth, i, n = 1, start + 2, len(sql)
    while i < n:
        if nested and sql.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif sql.startswith("*/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        else:
            i += 1
    return -1  # unterminated


def lex(sql: str, backend: str) -> list[Piece]:
    """Split ``sql`` into pieces, so that only real code is searched for ``;``, ``:name``
    and keywords — not the inside of strings, quoted identifiers or comments."""
    pieces: list[Piece] = []
    postgresql = backend == POSTGRESQL  # nested comments, dollar quotes, E'' strings
    code_start = 0
    i, n = 0, len(sql)

    def flush(upto: int) -> None:
        if upto > code_start:
            pieces.append(("code", sql[code_start:upto]))

    while i < n:
        c = sql[i]
        prev = sql[i - 1] if i else ""
        end = -1
        kind = ""
        unterminated = False
        if c == "'":
            e_string = postgresql and prev in ("e", "E") and _starts_token(sql, i - 1)
            end, kind = _quoted_end(sql, i, "'", backslash=e_string), "quoted"
        elif c == '"' or (c == "`" and backend == SQLITE):
            end, kind = _quoted_end(sql, i, c), "quoted"
        elif c == "[" and backend == SQLITE:
            end, kind = _quoted_end(sql, i, "]"), "quoted"
        elif sql.startswith("--", i):
            newline = sql.find("\n", i)
            end, kind = (n if newline < 0 else newline + 1), "comment"
        elif sql.startswith("/*", i):
            end, kind = _comment_end(sql, i, nested=postgresql), "comment"
        elif c == "$" and postgresql and not _in_word(prev):
            tag = _DOLLAR_TAG.match(sql, i)
            if tag:
                close = sql.find(tag.group(), tag.end())
                end = -1 if close < 0 else close + len(tag.group())
                kind = "quoted"
        elif c == ";":
            end, kind = i + 1, "end"
        elif c == ":":
            if sql.startswith("::", i):
                i += 2
                continue
            name = IDENT.match(sql, i + 1)
            if name and prev != ":":
                end, kind = name.end(), "param"
        if kind:
            if end < 0:
                end, unterminated = n, True
            flush(i)
            pieces.append((kind, sql[i:end]))
            i = code_start = end
            if unterminated:
                pieces.append(("open", ""))  # the literal or comment runs to the end
                break
            continue
        if _WORD_CHARS.match(c):
            # a word whole: its letters are not placeholders; PostgreSQL words may hold $
            word = (_PG_WORD if postgresql else _WORD_CHARS).match(sql, i)
            i = word.end() if word else i + 1
            continue
        i += 1
    flush(n)
    return pieces


def statements(pieces: Iterable[Piece]) -> list[list[Piece]]:
    """The statements of a lexed text: pieces between ``;``, dropping those with no code."""
    found: list[list[Piece]] = []
    current: list[Piece] = []
    for piece in pieces:
        if piece[0] == "end":
            found.append(current)
            current = []
        else:
            current.append(piece)
    found.append(current)
    return [s for s in found if any(k != "comment" and t.strip() for k, t in s)]


def first_keyword(pieces: Sequence[Piece]) -> str:
    for kind, text in pieces:
        if kind == "comment" or not text.strip():
            continue
        word = _WORD.match(text.lstrip().lstrip("(").lstrip())
        return word.group().upper() if word else text.strip()[:20]
    return ""


@dataclass(frozen=True)
class Statement:
    """One checked statement: its text, the parameter names it uses, and its pieces."""

    sql: str
    params: tuple[str, ...]
    pieces: tuple[Piece, ...]


_KEYWORD_OR_PAREN = re.compile(r"[^\W\d][\w$]*|[()]", re.UNICODE)
_STATEMENT_WORDS = frozenset({"SELECT", "VALUES", "TABLE", "INSERT", "UPDATE", "DELETE", "MERGE"})


def main_keyword(pieces: Sequence[Piece]) -> str:
    """The keyword of the statement a ``WITH`` leads to (SELECT, DELETE, …): the first such
    word outside the parentheses of its common table expressions; "" when there is none."""
    depth = 0
    for kind, text in pieces:
        if kind != "code":
            continue
        for token in _KEYWORD_OR_PAREN.finditer(text):
            word = token.group()
            if word == "(":
                depth += 1
            elif word == ")":
                depth -= 1
            elif depth == 0 and word.upper() in _STATEMENT_WORDS:
                return word.upper()
    return ""


def driver_sql(backend: str, pieces: Iterable[Piece], *, with_params: bool) -> str:
    """Join pieces into the driver's SQL: ``:name`` placeholders stay as they are for sqlite3
    (which takes them natively) and become ``%(name)s`` for psycopg, whose ``%`` must then be
    doubled everywhere else (only when parameters are passed)."""
    if backend != POSTGRESQL or not with_params:
        return "".join(text for _kind, text in pieces)
    return "".join(
        f"%({text[1:]})s" if kind == "param" else text.replace("%", "%%") for kind, text in pieces
    )


def pg_name(name: str) -> str:
    """An identifier as PostgreSQL stores it: at most 63 bytes of UTF-8."""
    raw = name.encode("utf-8", "replace")[:PG_NAME_BYTES]
    return raw.decode("utf-8", "ignore")


def _unicode_escapes(text: str, escape: str) -> str:
    """Decode the ``\\XXXX`` and ``\\+XXXXXX`` escapes of a ``U&"…"`` identifier."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] != escape or not escape:
            out.append(text[i])
            i += 1
        elif text.startswith(escape, i + 1):
            out.append(escape)
            i += 2
        else:
            wide = text.startswith("+", i + 1)
            digits = text[i + 2 : i + 8] if wide else text[i + 1 : i + 5]
            try:
                out.append(chr(int(digits, 16)))
            except (ValueError, OverflowError):
                return text  # the server refuses it: no call
            i += 8 if wide else 5
    return "".join(out)


def _names(pieces: Sequence[Piece]) -> list[tuple[str, str]]:
    """PostgreSQL tokens: ("name", the identifier as the server stores it), ("(", "") or
    ("", "") for anything else; comments dropped."""
    code = [p for p in pieces if p[0] != "comment"]
    tokens: list[tuple[str, str]] = []
    i = 0
    while i < len(code):
        kind, text = code[i]
        following = code[i + 1] if i + 1 < len(code) else ("", "")
        unicode_name = following[0] == "quoted" and following[1].startswith('"')
        if kind == "code":
            unicode_name = unicode_name and _UNICODE_PREFIX.search(text) is not None
            for token in _CODE_TOKEN.finditer(text[:-2] if unicode_name else text):
                name = token.group("name")
                if name:
                    tokens.append(("name", pg_name(name.translate(_ASCII_LOWER))))
                else:
                    tokens.append(("(", "") if token.group() == "(" else ("", ""))
            if unicode_name:
                escape, used = "\\", 1
                uescape = code[i + 2 : i + 4]
                if (
                    len(uescape) == 2
                    and uescape[0][0] == "code"
                    and _UESCAPE.fullmatch(uescape[0][1])
                    and uescape[1][1].startswith("'")
                ):
                    escape, used = uescape[1][1][1:-1], 3
                ident = following[1][1:-1].replace('""', '"')
                tokens.append(("name", pg_name(_unicode_escapes(ident, escape))))
                i += used
        elif kind == "quoted" and text.startswith('"'):
            tokens.append(("name", pg_name(text[1:-1].replace('""', '"'))))
        else:
            tokens.append(("", ""))
        i += 1
    return tokens


def called_names(pieces: Sequence[Piece]) -> set[str]:
    """PostgreSQL: every name written as a call — an identifier, quoted or not, then ``(``
    (``schema.name(`` gives ``name``). Type modifiers (``varchar(10)``) and keywords
    (``IN (``) are among them; the caller looks the names up as functions."""
    return {
        value
        for (kind, value), (after, _) in pairwise(_names(pieces))
        if kind == "name" and after == "("
    }


def identifiers(pieces: Sequence[Piece]) -> set[str]:
    """PostgreSQL: every identifier of the text (keywords among them), as the server
    stores it — for looking up the views a statement may read."""
    return {value for kind, value in _names(pieces) if kind == "name"}
