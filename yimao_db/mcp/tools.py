"""The tools of ``yimao mcp``: each a thin call into the package's API.

A tool takes the :class:`~yimao_db.mcp.base.Database` it serves (its engines) and its
checked :class:`~yimao_db.mcp.arguments.Arguments`, and returns an :class:`Answer`: the
data (the tool's structured content, valid against its output schema) and the text the
command line prints for the same question (``yimao show NAME --format json``, ``yimao
reading ID --json`` …), so that an assistant reads what a person would. Bad input raises
the error the command line raises; the server turns it into a tool error.

The tools that write (:data:`WRITES`) are offered only by a server started with
``--allow-writes``; ``preview`` casts without storing, so every server offers it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TypedDict

from sqlalchemy import Connection, RowMapping, bindparam, text

from yimao_db.errors import UsageError, shown
from yimao_db.lookup import KIND_NAMES
from yimao_db.mcp import schemas
from yimao_db.mcp.arguments import Arguments
from yimao_db.mcp.base import Database
from yimao_db.present import formats
from yimao_db.stats import GROUPINGS

if TYPE_CHECKING:
    from yimao_db.journaling import Journal
    from yimao_db.readings import Chart


@dataclass(frozen=True)
class Answer:
    """What a tool returns: ``data`` (structured), ``text`` (as the command line prints it)
    and ``notes`` (lines the command line prints on stderr, such as ``note: …``)."""

    data: dict[str, Any]
    text: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    output_schema: Callable[[], dict[str, Any]]  # loaded when the tools are listed
    run: Callable[[Database, Arguments], Answer]
    writes: bool = False
    destructive: bool = False  # replaces what was stored (an outcome)
    idempotent: bool = True


def _json_text(data: Any) -> str:
    """JSON as the command line prints it (``--json``)."""
    return json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n"


CHART_FORMATS = ("json", "markdown")  # the formats of the registry an assistant reads


# --- show ------------------------------------------------------------------------------------


def show(service: Database, args: Arguments) -> Answer:
    from yimao_db.present.show import show as show_data

    name = args.required_text("name")
    kind = args.optional_choice("kind", list(KIND_NAMES))
    fmt = args.choice("format", CHART_FORMATS, "json")
    with service.reader.connect() as conn:
        data = show_data(conn, name, kind)
    as_json = _json_text(data)
    return Answer(json.loads(as_json), formats.show_renderer(fmt)(data, name, formats.PLAIN))


# --- charts ------------------------------------------------------------------------------------


def chart_answer(chart: Chart, journal: Journal, fmt: str, notes: tuple[str, ...] = ()) -> Answer:
    """The chart in the ``yimao.chart`` contract, and as ``yimao reading --format FMT``
    prints it."""
    from yimao_db.present.chart_json import chart_json

    data = json.loads(_json_text(chart_json(chart, journal)))
    return Answer(data, formats.chart_renderer(fmt)(chart, journal, formats.PLAIN), notes)


def chart(service: Database, args: Arguments) -> Answer:
    from yimao_db.journaling import read_journal
    from yimao_db.readings import read_chart

    wanted = args.reading_id()
    fmt = args.choice("format", CHART_FORMATS, "json")
    with service.reader.connect() as conn:
        found = read_chart(conn, wanted)
        journal = read_journal(conn, wanted)
    return chart_answer(found, journal, fmt)


class CastInputs(TypedDict):
    """What a cast takes beside its lines and moment, by the names of the keywords of
    :func:`yimao_db.readings.cast` and :func:`~yimao_db.readings.prepare`. A new input of a
    cast (the subject asked about, say) is one more key here, one more line in
    :func:`_cast_inputs` and one more property in ``CAST_PROPERTIES``."""

    question: str | None
    matter: str | None
    about: str | None


def _cast_inputs(args: Arguments) -> CastInputs:
    return CastInputs(
        question=args.text("question"), matter=args.text("matter"), about=args.text("about")
    )


def _time_note(at: str | None, tz: str | None) -> tuple[str, ...]:
    """``note: …`` when ``at`` was a date without a time (the command line's stderr line)."""
    from yimao_db.calendar.civiltime import default_tz, parse_at

    if at is None:
        return ()
    note = parse_at(at, tz or default_tz()).note
    return () if note is None else (f"note: {note}",)


def cast(service: Database, args: Arguments) -> Answer:
    from yimao_db.journaling import read_journal
    from yimao_db.readings import cast as cast_reading
    from yimao_db.readings import read_chart

    lines = args.required_text("lines")
    at, tz, inputs = args.text("at"), args.text("tz"), _cast_inputs(args)
    fmt = args.choice("format", CHART_FORMATS, "json")
    with service.writer().begin() as conn:  # stored and read back in one transaction
        stored = cast_reading(lines, at=at, tz=tz, **inputs, db=conn)
        found, journal = read_chart(conn, stored), read_journal(conn, stored)
    return chart_answer(found, journal, fmt, _time_note(at, tz))


def preview(service: Database, args: Arguments) -> Answer:
    from yimao_db.journaling import Journal
    from yimao_db.readings import PREVIEW_ID, make_moment, prepare
    from yimao_db.readings import preview as preview_chart

    lines = args.required_text("lines")
    at, tz, inputs = args.text("at"), args.text("tz"), _cast_inputs(args)
    fmt = args.choice("format", CHART_FORMATS, "json")
    moment = make_moment(at=at, tz=tz)
    with service.reader.connect() as conn:
        request = prepare(conn, lines, moment=moment, **inputs)
    found = preview_chart(request, service.writer())
    notes = (
        *_time_note(at, tz),
        f"note: a preview, stored nowhere (reading id {PREVIEW_ID}); the cast tool of a "
        "server started with --allow-writes stores a reading",
    )
    return chart_answer(found, Journal(notes=(), outcome=None, tags=()), fmt, notes)


# --- the journal ---------------------------------------------------------------------------------

DEFAULT_LIMIT = 20  # as yimao readings


def readings(service: Database, args: Arguments) -> Answer:
    from yimao_db.finding import OUTCOMES, Filters, find
    from yimao_db.present.readings_list import json_rows
    from yimao_db.present.table import render

    every = args.flag("all")
    limit = args.raw("limit")
    if every and limit is not None:
        raise UsageError("give all or limit, not both")
    filters = Filters(
        hexagram=args.text("hexagram"),
        changed=args.text("changed"),
        since=args.text("since"),
        until=args.text("until"),
        tag=args.text("tag"),
        search=args.text("search"),
        matter=args.text("matter"),
        moving=args.raw("moving"),
        outcome=args.optional_choice("outcome", OUTCOMES),
    )
    with service.reader.connect() as conn:
        columns, found = find(conn, filters, None if every else limit or DEFAULT_LIMIT)
    shown_text = render(columns, json_rows(columns, found), "json")
    return Answer({"readings": json.loads(shown_text)}, shown_text)


def stats(service: Database, args: Arguments) -> Answer:
    from yimao_db.present.table import render
    from yimao_db.stats import stats as count

    by = args.choice("by", GROUPINGS, GROUPINGS[0])
    with service.reader.connect() as conn:
        columns, rows = count(conn, by)
    shown_text = render(columns, rows, "json")
    return Answer({"by": by, "rows": json.loads(shown_text)}, shown_text)


def note(service: Database, args: Arguments) -> Answer:
    from yimao_db.journaling import add_note

    rid = args.reading_id()
    written = args.required_text("text")
    note_id = add_note(rid, written, service.writer())
    return Answer(
        {"reading_id": rid, "note_id": note_id}, f"note {note_id} added to reading {rid}\n"
    )


def outcome(service: Database, args: Arguments) -> Answer:
    from yimao_db.journaling import record_outcome, verdict

    rid = args.reading_id()
    chosen = verdict(args.required("verdict"))
    before = record_outcome(rid, chosen, args.text("on"), args.text("text"), service.writer())
    line = f"reading {rid}: {chosen}"
    if before is not None:
        line += f" (replaces {before.verdict} on {before.happened_on})"
    replaced = None if before is None else {"verdict": before.verdict, "on": before.happened_on}
    return Answer({"reading_id": rid, "verdict": chosen, "replaced": replaced}, line + "\n")


def tag(service: Database, args: Arguments) -> Answer:
    from yimao_db.journaling import tag as add_tags

    rid = args.reading_id()
    tags = args.texts("tags")
    added = add_tags(rid, tags, service.writer())
    line = f"reading {rid} " + (
        f"tagged {', '.join(added)}" if added else "already has every tag given"
    )
    return Answer({"reading_id": rid, "added": added}, line + "\n")


# --- the book's passages -------------------------------------------------------------------------

KEYS_SHOWN = 20  # a citing table's row keys are listed when there are at most this many
MATCHES_SHOWN = 200  # rows listed that a name matched
_PASSAGE = re.compile(r"§?\s*([0-9]{1,3})\.([0-9]{1,3})")
_CHAPTER = re.compile(r"§?\s*([0-9]{1,3})")
PASSAGES = (
    "SELECT id, chapter_no, passage_no, chapter, coverage, note FROM source_passage "
    "ORDER BY chapter_no, passage_no"
)
CITATIONS = text(
    "SELECT passage, table_name, row_key, basis FROM v_passage_citation "
    "WHERE passage IN :ids ORDER BY table_name, row_key"
).bindparams(bindparam("ids", expanding=True))
PASSAGE_FORMS = (
    "expected a passage (§8.14 or 8.14), a chapter (§8), words of a chapter's title (世應章), "
    "a table (sign) or a name a citing row is keyed by (世空, 青龍, 青龙)"
)


def _chosen(
    conn: Connection, query: str | None, every: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], set[str] | None]:
    """The passages ``query`` asks for, and the names a citing row must hold to match
    (None: every citing row)."""
    if query is None or not query.strip():
        return every, None
    typed = query.strip()
    exact = _PASSAGE.fullmatch(typed)
    if exact:
        wanted = f"{int(exact.group(1))}.{int(exact.group(2))}"
        found = [p for p in every if p["passage"] == wanted]
        if not found:
            raise UsageError(f"no passage §{wanted} in the book: {PASSAGE_FORMS}")
        return found, None
    chapter = _CHAPTER.fullmatch(typed)
    if chapter:
        found = [p for p in every if p["chapter_no"] == int(chapter.group(1))]
        if not found:
            last = max(p["chapter_no"] for p in every)
            raise UsageError(f"no chapter §{int(chapter.group(1))}: the book has 1 to {last}")
        return found, None
    from yimao_db.lookup import resolve_any

    names = {typed} | {canonical for _kind, canonical in resolve_any(conn, typed)}
    return [p for p in every if typed in p["chapter"]], names


def passages(service: Database, args: Arguments) -> Answer:
    query = args.text("query")
    with service.reader.connect() as conn:
        every = [
            {
                "passage": r["id"],
                "chapter_no": r["chapter_no"],
                "passage_no": r["passage_no"],
                "chapter": r["chapter"],
                "coverage": r["coverage"],
                "note": r["note"],
            }
            for r in conn.execute(text(PASSAGES)).mappings()
        ]
        chosen, names = _chosen(conn, query, every)
        ids = [p["passage"] for p in every] if names is not None else [p["passage"] for p in chosen]
        rows = list(conn.execute(CITATIONS, {"ids": ids}).mappings())
    by_passage: dict[str, list[RowMapping]] = {}
    for r in rows:
        by_passage.setdefault(r["passage"], []).append(r)
    matched: dict[str, list[dict[str, Any]]] = {}
    if names is not None:
        for r in rows:
            if r["table_name"] in names or names & set(str(r["row_key"]).split("|")):
                matched.setdefault(r["passage"], []).append(
                    {"table": r["table_name"], "row_key": r["row_key"], "basis": r["basis"]}
                )
        chosen = [p for p in every if p in chosen or p["passage"] in matched]
        if not chosen:
            raise UsageError(f"no passage is cited by or titled {shown(query)}: {PASSAGE_FORMS}")
    out = []
    for p in chosen:
        citing = by_passage.get(p["passage"], [])
        tables: dict[str, list[str]] = {}
        for r in citing:
            tables.setdefault(r["table_name"], []).append(str(r["row_key"]))
        entry = {
            **p,
            "citations": len(citing),
            "cited_by": [
                {"table": t, "rows": len(keys), "keys": keys if len(keys) <= KEYS_SHOWN else None}
                for t, keys in tables.items()
            ],
        }
        if names is not None:
            entry["matched"] = matched.get(p["passage"], [])[:MATCHES_SHOWN]
        out.append(entry)
    data = {"query": query, "passages": out}
    return Answer(data, _json_text(data))


# --- SQL and the documentation -------------------------------------------------------------------


def sql(service: Database, args: Arguments) -> Answer:
    from yimao_db.present.table import TABLE_ROW_LIMIT, TABLE_TEXT_LIMIT, check_keys, render
    from yimao_db.sql.lex import IDENT
    from yimao_db.sql.run import parse_timeout, query

    statement = args.required_text("query")
    params = args.mapping("params")
    for name, value in params.items():
        if not IDENT.fullmatch(name):
            raise UsageError(f"bad parameter name {shown(name)}: letters, digits and _ only")
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise UsageError(f"parameter {name}: expected text or a number, got {shown(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise UsageError(f"parameter {name}: {shown(value)} is not a valid float")
    timeout = args.raw("timeout")
    seconds = parse_timeout(None if timeout is None else str(timeout))
    kept: list[tuple[Any, ...]] = []
    cut = False
    with query(statement, params, service.url, timeout=seconds) as result:
        columns = result.columns
        if columns is not None:
            check_keys(columns, "json")
            size = 0
            for row in result.rows:
                if len(kept) == TABLE_ROW_LIMIT or size > TABLE_TEXT_LIMIT:
                    cut = True
                    break
                size += sum(len(str(v)) for v in row if v is not None)
                kept.append(row)
    if columns is None:
        return Answer({"columns": [], "rows": [], "truncated": False}, "")
    shown_text = render(columns, kept, "json")
    notes = (
        (
            f"note: showing the first {len(kept)} rows, the limit of the sql tool (as of "
            "yimao sql's table); ask for fewer rows to see the rest",
        )
        if cut
        else ()
    )
    data = {"columns": list(columns), "rows": json.loads(shown_text), "truncated": cut}
    return Answer(data, shown_text, notes)


def schema(service: Database, args: Arguments) -> Answer:
    from yimao_db.commands.schema import COLUMN_COLUMNS, TABLE_COLUMNS, _find
    from yimao_db.kb.meta import read_meta
    from yimao_db.present.table import render

    wanted = args.text("table")
    with service.reader.connect() as conn:
        tables, columns = read_meta(conn)
    if wanted is None:
        rows = [[t[c] for c in TABLE_COLUMNS] for t in tables]
        shown_text = render(TABLE_COLUMNS, rows, "json")
        return Answer({"tables": json.loads(shown_text)}, shown_text)
    table = _find(tables, wanted)
    rows = [[c[k] for k in COLUMN_COLUMNS] for c in columns if c["table_name"] == table["name"]]
    shown_text = render(COLUMN_COLUMNS, rows, "json")
    about = {c: table[c] for c in TABLE_COLUMNS}
    return Answer({"table": about, "columns": json.loads(shown_text)}, shown_text)


# --- the list ------------------------------------------------------------------------------------

READING_ID = {"type": "integer", "minimum": 1, "description": "The reading's id"}
FORMAT = {
    "enum": list(CHART_FORMATS),
    "default": "json",
    "description": "The text part of the answer: json (as `--json` prints it) or markdown "
    "(as `--format markdown` prints it); the structured part is JSON either way",
}
CAST_PROPERTIES: dict[str, Any] = {
    "lines": {
        "type": "string",
        "description": "The cast, in any form `yimao cast` takes: six values 6-9 from line 1 "
        "up (789678), 乾之姤, or a hexagram with moving lines (姤:1,4)",
    },
    "at": {
        "type": "string",
        "description": "The moment, local date-time ISO 8601 (2026-11-30T09:15); default now",
    },
    "tz": {
        "type": "string",
        "description": "IANA time zone of `at` (default $YIMAO_TZ, else Asia/Shanghai)",
    },
    "question": {"type": "string", "description": "The question, stored verbatim"},
    "matter": {
        "type": "string",
        "description": "What the question is about (§9.5): office, wealth, lawsuit or worry "
        "(功名 財利 獄訟 憂患); its signs join the chart",
    },
    "about": {
        "type": "string",
        "description": "The subject asked about (docs/use.md): wealth, self, other, office, "
        "illness, 官鬼 …; the chart's `use` gives its 用神 and 原神 忌神 仇神. Default: the "
        "matter's subject",
    },
    "format": FORMAT,
}


def _object(properties: dict[str, Any], *required: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


TOOLS = (
    Tool(
        "show",
        "Show a name",
        "What a name of the book means, in any spelling (traditional or simplified "
        "characters, pinyin with or without tones, English, a King Wen number or six bits): "
        "a hexagram laid out line by line (relative, stem-branch, element, 世/應, mansion, "
        "伏神), or any other name (a spirit, element, branch, relative, matter …) with its "
        "aliases and every rule and symbol row about it, each with its passage. As `yimao "
        "show NAME --format json`.",
        _object(
            {
                "name": {
                    "type": "string",
                    "description": "乾為天, 姤, 44, 011111, 青龍, 青龙, 官鬼 …",
                },
                "kind": {
                    "enum": list(KIND_NAMES),
                    "description": "Only this kind, for a name of several (乾: hexagram, "
                    "trigram, palace)",
                },
                "format": FORMAT,
            },
            "name",
        ),
        schemas.show,
        show,
    ),
    Tool(
        "chart",
        "A stored reading's chart",
        "The chart of a stored reading as the views assemble it, in the `yimao.chart/2` "
        "contract: the moment, both hexagrams, the six lines (relative, spirit, 世/應, void, "
        "month break, strength, stage, transforms), the hidden spirits, every sign the book's "
        "judgments give for it with its passage, and the journal (notes, outcome, tags). As "
        "`yimao reading ID --json`.",
        _object({"reading_id": READING_ID, "format": FORMAT}, "reading_id"),
        schemas.chart,
        chart,
    ),
    Tool(
        "preview",
        "Preview a cast",
        "The chart a cast would have, stored nowhere (its reading id is 0): the same chart "
        "`yimao cast` prints, in the `yimao.chart/2` contract.",
        _object(CAST_PROPERTIES, "lines"),
        schemas.chart,
        preview,
    ),
    Tool(
        "readings",
        "Find readings",
        "Stored readings, newest first (20 unless `limit` or `all`), with their outcome and "
        "tags; the filters combine. As `yimao readings --json`.",
        _object(
            {
                "hexagram": {"type": "string", "description": "The primary hexagram, any name"},
                "changed": {"type": "string", "description": "The changed hexagram"},
                "since": {"type": "string", "description": "Cast on or after, YYYY-MM-DD"},
                "until": {"type": "string", "description": "Cast on or before, YYYY-MM-DD"},
                "tag": {"type": "string", "description": "Tagged so"},
                "search": {"type": "string", "description": "Text in the question or a note"},
                "matter": {"type": "string", "description": "Asked about this matter"},
                "moving": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 6,
                    "description": "How many lines move",
                },
                "outcome": {"enum": ["hit", "miss", "partial", "none"]},
                "limit": {"type": "integer", "minimum": 1, "description": "How many (20)"},
                "all": {"type": "boolean", "description": "Every matching reading"},
            }
        ),
        schemas.readings,
        readings,
    ),
    Tool(
        "stats",
        "Count readings and outcomes",
        "How many readings, and their outcomes with the hit rate (hits among the readings "
        "with an outcome), in all or per primary hexagram, changed hexagram, sign, the 用神's "
        "state or outcome. As `yimao stats --by BY --json`.",
        _object({"by": {"enum": list(GROUPINGS), "default": GROUPINGS[0]}}),
        schemas.stats,
        stats,
    ),
    Tool(
        "passages",
        "The book's passages",
        "The book's numbered passages (§chapter.passage) with their chapter, whether the "
        "database encodes them (coverage; a note says why a theory passage encodes nothing) "
        "and the rows that cite them, per table. The book's text is not stored: cite "
        "passages by number. `query`: a passage (§8.14), a chapter (§8), words of a chapter "
        "title (世應章), a table (sign) or a name a citing row is keyed by (世空, 青龍); none: "
        "every passage.",
        _object({"query": {"type": "string", "description": "§8.14, §8, 世應章, sign, 世空 …"}}),
        schemas.passages,
        passages,
    ),
    Tool(
        "sql",
        "Run one read-only SQL query",
        "One read-only statement (SELECT, WITH, VALUES, EXPLAIN; reporting PRAGMAs on "
        "SQLite; TABLE and SHOW on PostgreSQL) with `:name` parameters bound from `params`, "
        "under the guard, time limit (30 s unless `timeout`) and row limit (10000) of `yimao "
        "sql`; anything that would write is refused. The public views (v_hexagram, v_line, "
        "v_reading, v_reading_line, v_reading_sign, v_passage_citation …) are the stable "
        "contract; the schema tool describes every table.",
        _object(
            {
                "query": {"type": "string", "description": "One statement"},
                "params": {
                    "type": "object",
                    "additionalProperties": {"type": ["string", "number"]},
                    "description": "Values of the query's :name parameters",
                },
                "timeout": {
                    "type": ["number", "string"],
                    "description": "Seconds (default 30; 0 or none: no limit)",
                },
            },
            "query",
        ),
        schemas.sql,
        sql,
    ),
    Tool(
        "schema",
        "Describe the tables",
        "The documentation stored in the database: every table and view (name, kind, "
        "section, description, passage), or one table's columns with description, domain "
        "and passage. As `yimao schema [TABLE] --json`.",
        _object({"table": {"type": "string", "description": "A table or view (default: all)"}}),
        schemas.schema,
        schema,
    ),
    # --- with --allow-writes ---
    Tool(
        "cast",
        "Cast and store a reading",
        "Cast a reading, store it and return its chart in the `yimao.chart/2` contract (its "
        "new id is `reading_id`). As `yimao cast LINES --json`.",
        _object(CAST_PROPERTIES, "lines"),
        schemas.chart,
        cast,
        writes=True,
        idempotent=False,
    ),
    Tool(
        "note",
        "Add a note to a reading",
        "Add a dated note to a stored reading. As `yimao note ID TEXT`.",
        _object(
            {"reading_id": READING_ID, "text": {"type": "string", "description": "The note"}},
            "reading_id",
            "text",
        ),
        schemas.note,
        note,
        writes=True,
        idempotent=False,
    ),
    Tool(
        "outcome",
        "Record what happened",
        "Record the outcome of a reading (應驗): hit, miss or partial, on a day (default "
        "today; not before the reading was cast); recording again replaces it. As `yimao "
        "outcome ID VERDICT [--on DATE] [TEXT]`.",
        _object(
            {
                "reading_id": READING_ID,
                "verdict": {"enum": ["hit", "miss", "partial"]},
                "on": {"type": "string", "description": "The day it happened, YYYY-MM-DD"},
                "text": {"type": "string", "description": "What happened"},
            },
            "reading_id",
            "verdict",
        ),
        schemas.outcome,
        outcome,
        writes=True,
        destructive=True,
    ),
    Tool(
        "tag",
        "Tag a reading",
        "Put tags on a stored reading (one word each, no commas). As `yimao tag ID TAG…`.",
        _object(
            {
                "reading_id": READING_ID,
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            },
            "reading_id",
            "tags",
        ),
        schemas.tag,
        tag,
        writes=True,
    ),
)
BY_NAME = {t.name: t for t in TOOLS}
WRITES = tuple(t.name for t in TOOLS if t.writes)


@cache
def output_schema(name: str) -> dict[str, Any]:
    return BY_NAME[name].output_schema()
