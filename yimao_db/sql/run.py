"""``yimao sql``: run one read-only statement and stream its rows, within limits.

Guards, each enough on its own for the common cases and together for the rest:

1. the text is lexed (:mod:`yimao_db.sql.lex`): exactly one statement, and its first keyword
   must be a reading one (SELECT, WITH, VALUES, EXPLAIN; SQLite: PRAGMA that only reports;
   PostgreSQL: TABLE, SHOW) — anything else is refused before the database is touched;
2. the connection cannot write (:mod:`yimao_db.sql.session`): SQLite opens the file
   ``mode=ro`` with ``PRAGMA query_only`` and an authorizer that denies every write at
   prepare time; PostgreSQL runs a ``READ ONLY`` transaction that is always rolled back,
   and the statement goes through the extended protocol, so a second statement hidden from
   the lexer is refused by the server;
3. functions with effects beyond the query are refused (:mod:`yimao_db.sql.guard`);
4. a write the database refuses anyway is reported as refused, not as an internal error.

Limits (``--timeout``, memory, Ctrl-C) and the streaming of rows: :mod:`yimao_db.sql.stream`.

Parameters are ``:name`` placeholders bound by the driver (``-p name=value``), never
formatted into the text; the lexer finds them, so ``':x'`` in a string is not one. Values
come back normalised as in exports (:func:`yimao_db.export.normalise`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from sqlalchemy.engine import URL

from yimao_db.db import resolve_url
from yimao_db.dialect import SQLITE, is_utf8
from yimao_db.errors import UsageError, shown
from yimao_db.sql.guard import READ_KEYWORDS, WRITE_KEYWORDS, QueryRefused, sqlite_pragma_is_read
from yimao_db.sql.lex import IDENT, Statement, first_keyword, lex, main_keyword, statements
from yimao_db.sql.stream import QueryResult, QueryTimedOut, QueryTooBig, stream

__all__ = [
    "QueryRefused",
    "QueryResult",
    "QueryTimedOut",
    "QueryTooBig",
    "check",
    "parse_params",
    "parse_timeout",
    "query",
]

DEFAULT_TIMEOUT = 30.0  # seconds
MAX_TIMEOUT = 1_000_000.0
_PRAGMA = re.compile(
    r"PRAGMA\s+(?:(?:\w+|\"[^\"]*\")\s*\.\s*)?(\w+)\s*(\(|=)?", re.IGNORECASE | re.UNICODE
)
# SQLite's other placeholders (?, ?1, @name, $name): yimao binds :name ones only
_OTHER_PARAM = re.compile(r"\?\d*|(?<![\w$])[@$][^\W\d][\w$]*", re.UNICODE)
INT_RANGE = (-(2**63), 2**63 - 1)  # what SQLite and PostgreSQL hold in an integer


def check(sql: str, backend: str) -> Statement:
    """Lex and check ``sql``; QueryRefused unless it is exactly one reading statement."""
    if not is_utf8(sql):
        raise UsageError("the query is not text: it holds bytes that are not UTF-8")
    found = statements(lex(sql, backend))
    if not found:
        raise UsageError("no SQL statement given")
    if len(found) > 1:
        raise QueryRefused(
            f"yimao sql runs one statement at a time; got {len(found)}. Nothing was run."
        )
    pieces = found[0]
    # Trailing comments and whitespace do not matter (an unterminated one does: the
    # database reports it); keep the statement's own text.
    while (
        pieces
        and pieces[-1][0] != "open"
        and (pieces[-1][0] == "comment" or not pieces[-1][1].strip())
    ):
        pieces = pieces[:-1]
    keyword = first_keyword(pieces)
    if keyword == "WITH" and main_keyword(pieces) in WRITE_KEYWORDS:
        keyword = main_keyword(pieces)  # WITH … DELETE is a DELETE
    allowed = READ_KEYWORDS.get(backend, frozenset({"SELECT"}))
    if keyword not in allowed:
        listed = ", ".join(sorted(allowed))
        if keyword in WRITE_KEYWORDS:
            raise QueryRefused(
                f"yimao sql is read-only: {keyword} statements are refused (they would change "
                f"the database; only {listed} run). The database was not changed."
            )
        raise QueryRefused(
            f"yimao sql runs read-only queries only ({listed}); "
            f"{shown(keyword or 'this')} does not start one. Nothing was run."
        )
    if keyword == "PRAGMA":
        code = "".join(t for k, t in pieces if k != "comment")
        match = _PRAGMA.search(code)
        argument = match is not None and match.group(2) is not None
        if match is None or not sqlite_pragma_is_read(match.group(1), "x" if argument else None):
            raise QueryRefused(
                "yimao sql is read-only: only pragmas that report are allowed "
                "(e.g. PRAGMA table_info(hexagram)); this one would change a setting or "
                "the file. The database was not changed."
            )
    if backend == SQLITE:
        other = _OTHER_PARAM.search("".join(t for k, t in pieces if k == "code"))
        if other:
            raise UsageError(
                f"the query uses the placeholder {shown(other.group())}: expected named "
                "placeholders, written :name"
            )
    names = tuple(dict.fromkeys(t[1:] for k, t in pieces if k == "param"))
    text = "".join(t for _k, t in pieces)
    return Statement(text, names, tuple(pieces))


def parse_params(items: Iterable[str]) -> dict[str, Any]:
    """``name=value`` (text), ``name:int=value`` or ``name:float=value`` → a dict."""
    params: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"bad parameter {shown(item)}: expected name=value (e.g. -p kw=44)")
        name, _, kind = key.strip().partition(":")
        if not IDENT.fullmatch(name):
            raise UsageError(f"bad parameter name {shown(name)}: letters, digits and _ only")
        if name in params:
            raise UsageError(f"parameter {name} given twice")
        try:
            if kind in ("", "str", "text"):
                if not is_utf8(value):
                    raise UsageError(
                        f"parameter {name}: not text, it holds bytes that are not UTF-8"
                    )
                params[name] = value
            elif kind == "int":
                params[name] = int(value)  # past 4,300 digits a ValueError: not a valid int
                if not INT_RANGE[0] <= params[name] <= INT_RANGE[1]:
                    raise UsageError(
                        f"parameter {name}: {shown(value)} is out of range: expected an int "
                        f"from {INT_RANGE[0]} to {INT_RANGE[1]}"
                    )
            elif kind == "float":
                params[name] = float(value)
                if not math.isfinite(params[name]):
                    raise ValueError(value)
            else:
                raise UsageError(
                    f"bad parameter type {shown(kind)} in {shown(item)}: "
                    "expected int, float or text"
                )
        except ValueError:
            raise UsageError(f"parameter {name}: {shown(value)} is not a valid {kind}") from None
    return params


def parse_timeout(text: str | None) -> float | None:
    """``--timeout``: seconds (a decimal number), or ``none`` / ``0`` for no limit."""
    if text is None:
        return DEFAULT_TIMEOUT
    value = text.strip().lower()
    if value == "none":
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not (0 <= seconds <= MAX_TIMEOUT):  # also NaN
        raise UsageError(
            f"--timeout: expected a number of seconds from 0 to {int(MAX_TIMEOUT)}, or none "
            f"(0 and none: no limit); got {shown(text)}"
        )
    return seconds or None


@contextmanager
def query(
    sql: str,
    params: Mapping[str, Any] | None = None,
    db: str | URL | None = None,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> Iterator[QueryResult]:
    """Run one read-only statement; its rows stream while the ``with`` block reads them.

    QueryRefused if it would write or call a function with effects; UsageError for a
    parameter the query does not use or a placeholder without a value; QueryTimedOut past
    ``timeout`` seconds (None: no limit); DatabaseError with the database's message for
    anything the database rejects. Leaving the block stops the statement and rolls back.
    """
    params = dict(params or {})
    url = db if isinstance(db, URL) else resolve_url(db)
    statement = check(sql, url.get_backend_name())
    missing = [p for p in statement.params if p not in params]
    if missing:
        raise UsageError(
            "the query uses "
            + ", ".join(f":{p}" for p in missing)
            + "; give "
            + " ".join(f"-p {p}=VALUE" for p in missing)
        )
    unused = [p for p in params if p not in statement.params]
    if unused:
        raise UsageError(
            "parameter "
            + ", ".join(unused)
            + " is not used by the query (write :name in the SQL to use it)"
        )
    with stream(url, statement, params, timeout) as result:
        yield result
