"""``yimao sql``: run one read-only statement and return its rows.

Three guards, each enough on its own for the common cases and together for the rest:

1. the text is lexed (quotes, identifiers, comments, PostgreSQL dollar quotes): exactly one
   statement, and its first keyword must be a reading one (SELECT, WITH, VALUES, EXPLAIN;
   SQLite: PRAGMA that only reports; PostgreSQL: TABLE, SHOW) — anything else is refused
   before the database is touched;
2. the connection cannot write: SQLite opens the file ``mode=ro`` with ``PRAGMA
   query_only`` and an authorizer that denies every write at prepare time; PostgreSQL runs
   a ``READ ONLY`` transaction, and the statement is sent as one prepared statement so a
   second statement hidden from the lexer is still refused by the server;
3. a write the database refuses anyway (``WITH … INSERT``, ``EXPLAIN ANALYZE DELETE``) is
   reported as refused, not as an internal error.

Parameters are ``:name`` placeholders bound by the driver (``-p name=value``), never
formatted into the text; the lexer finds them, so ``':x'`` in a string is not one. Values
come back normalised as in exports (:func:`yimao_db.export.normalise`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from yimao_db import dialect
from yimao_db.db import reader_engine
from yimao_db.errors import DatabaseError, UsageError
from yimao_db.export import normalise


class QueryRefused(UsageError):
    """The statement would change the database (or is more than one); nothing was run."""


# First keywords of statements that write or change the connection, named as such when
# refused; any other keyword outside dialect.READ_KEYWORDS is refused as "not a query".
WRITE_KEYWORDS = frozenset(
    """ALTER ANALYZE ATTACH BEGIN CALL CLUSTER COMMENT COMMIT COPY CREATE DEALLOCATE DELETE
    DETACH DISCARD DO DROP END EXECUTE GRANT IMPORT INSERT LISTEN LOAD LOCK MERGE MOVE NOTIFY
    PREPARE REASSIGN REFRESH REINDEX RELEASE REPLACE RESET REVOKE ROLLBACK SAVEPOINT
    SECURITY SET START TRUNCATE UNLISTEN UPDATE UPSERT VACUUM""".split()
)

Piece = tuple[str, str]  # (kind, text): code, param, quoted, comment, end

_IDENT = re.compile(r"[^\W\d]\w*", re.UNICODE)
_DOLLAR_TAG = re.compile(r"\$(?:[^\W\d]\w*)?\$", re.UNICODE)
_WORD = re.compile(r"[A-Za-z_]+")
_WORD_CHARS = re.compile(r"\w+", re.UNICODE)
_PG_WORD = re.compile(r"[\w$]+", re.UNICODE)
_PRAGMA = re.compile(
    r"PRAGMA\s+(?:(?:\w+|\"[^\"]*\")\s*\.\s*)?(\w+)\s*(\(|=)?", re.IGNORECASE | re.UNICODE
)


def _in_word(ch: str) -> bool:
    return ch != "" and (ch.isalnum() or ch in ("_", "$"))


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
    return n  # unterminated: the database reports the syntax error


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
    return n


def lex(sql: str, backend: str) -> list[Piece]:
    """Split ``sql`` into pieces, so that only real code is searched for ``;``, ``:name``
    and keywords — not the inside of strings, quoted identifiers or comments."""
    pieces: list[Piece] = []
    nested = dialect.nested_comments(backend)
    dollars = dialect.dollar_quotes(backend)
    brackets = backend == dialect.SQLITE  # [identifier]
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
        if c == "'":
            e_string = (
                backend == dialect.POSTGRESQL
                and prev in ("e", "E")
                and not (i >= 2 and _in_word(sql[i - 2]))
            )
            end, kind = _quoted_end(sql, i, "'", backslash=e_string), "quoted"
        elif c == '"' or (c == "`" and backend == dialect.SQLITE):
            end, kind = _quoted_end(sql, i, c), "quoted"
        elif c == "[" and brackets:
            end, kind = _quoted_end(sql, i, "]"), "quoted"
        elif sql.startswith("--", i):
            newline = sql.find("\n", i)
            end, kind = (n if newline < 0 else newline + 1), "comment"
        elif sql.startswith("/*", i):
            end, kind = _comment_end(sql, i, nested=nested), "comment"
        elif c == "$" and dollars and not _in_word(prev):
            tag = _DOLLAR_TAG.match(sql, i)
            if tag:
                close = sql.find(tag.group(), tag.end())
                end = n if close < 0 else close + len(tag.group())
                kind = "quoted"
        elif c == ";":
            end, kind = i + 1, "end"
        elif c == ":":
            if sql.startswith("::", i):
                i += 2
                continue
            name = _IDENT.match(sql, i + 1)
            if name and prev != ":":
                end, kind = name.end(), "param"
        if kind:
            flush(i)
            pieces.append((kind, sql[i:end]))
            i = code_start = end
            continue
        if _WORD_CHARS.match(c):
            # a word whole: its letters are not placeholders; PostgreSQL words may hold $
            word = (_PG_WORD if backend == dialect.POSTGRESQL else _WORD_CHARS).match(sql, i)
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
    """One checked statement: its text for the driver and the parameter names it uses."""

    sql: str
    params: tuple[str, ...]
    pieces: tuple[Piece, ...]


def check(sql: str, backend: str) -> Statement:
    """Lex and check ``sql``; QueryRefused unless it is exactly one reading statement."""
    found = statements(lex(sql, backend))
    if not found:
        raise UsageError("no SQL statement given")
    if len(found) > 1:
        raise QueryRefused(
            f"yimao sql runs one statement at a time; got {len(found)}. Nothing was run."
        )
    pieces = found[0]
    # Leading/trailing comments and whitespace do not matter; keep the statement's own text.
    while pieces and (pieces[-1][0] == "comment" or not pieces[-1][1].strip()):
        pieces = pieces[:-1]
    keyword = first_keyword(pieces)
    allowed = dialect.READ_KEYWORDS.get(backend, frozenset({"SELECT"}))
    if keyword not in allowed:
        listed = ", ".join(sorted(allowed))
        if keyword in WRITE_KEYWORDS:
            raise QueryRefused(
                f"yimao sql is read-only: {keyword} statements are refused (they would change "
                f"the database; only {listed} run). The database was not changed."
            )
        raise QueryRefused(
            f"yimao sql runs read-only queries only ({listed}); "
            f"{keyword or 'this'!r} does not start one. Nothing was run."
        )
    if keyword == "PRAGMA":
        code = "".join(t for k, t in pieces if k != "comment")
        match = _PRAGMA.search(code)
        argument = match is not None and match.group(2) is not None
        if match is None or not dialect.sqlite_pragma_is_read(
            match.group(1), "x" if argument else None
        ):
            raise QueryRefused(
                "yimao sql is read-only: only pragmas that report are allowed "
                "(e.g. PRAGMA table_info(hexagram)); this one would change a setting or "
                "the file. The database was not changed."
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
            raise UsageError(f"bad parameter {item!r}: expected name=value (e.g. -p kw=44)")
        name, _, kind = key.strip().partition(":")
        if not _IDENT.fullmatch(name):
            raise UsageError(f"bad parameter name {name!r}: letters, digits and _ only")
        if name in params:
            raise UsageError(f"parameter {name} given twice")
        try:
            if kind in ("", "str", "text"):
                params[name] = value
            elif kind == "int":
                params[name] = int(value)
            elif kind == "float":
                params[name] = float(value)
                if not math.isfinite(params[name]):
                    raise ValueError(value)
            else:
                raise UsageError(
                    f"bad parameter type {kind!r} in {item!r}: expected int, float or text"
                )
        except ValueError:
            raise UsageError(f"parameter {name}: {value!r} is not a valid {kind}") from None
    return params


@dataclass(frozen=True)
class QueryResult:
    columns: list[str] | None  # None: the statement returns no rows (not even a header)
    rows: list[tuple[Any, ...]]


def run(
    sql: str, params: Mapping[str, Any] | None = None, db: str | URL | None = None
) -> QueryResult:
    """Run one read-only statement on a fresh read-only engine; QueryRefused if it would write.

    UsageError for a parameter the query does not use or a placeholder without a value;
    DatabaseError with the database's message for anything the database rejects.
    """
    params = dict(params or {})
    engine = reader_engine(db)
    try:
        backend = dialect.backend(engine)
        statement = check(sql, backend)
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
        bound = dialect.driver_params(backend, params)
        text = dialect.driver_sql(backend, statement.pieces, with_params=bound is not None)
        dialect.guard_engine(engine)
        try:
            with engine.connect() as conn, dialect.read_only(conn):
                result = conn.exec_driver_sql(text, bound) if bound else conn.exec_driver_sql(text)
                if not result.returns_rows:
                    return QueryResult(None, [])
                columns = list(result.keys())
                rows = [tuple(normalise(v) for v in row) for row in result]
                return QueryResult(columns, rows)
        except (OverflowError, ValueError) as exc:  # raised by the driver binding a value
            raise UsageError(f"a parameter does not fit the database: {exc}") from None
        except DBAPIError as exc:
            if dialect.is_write_refusal(exc):
                raise QueryRefused(
                    "yimao sql is read-only: the database refused a write "
                    f"({dialect.error_message(exc)}). The database was not changed."
                ) from None
            raise DatabaseError(f"database: {dialect.error_message(exc)}") from None
    finally:
        engine.dispose()
