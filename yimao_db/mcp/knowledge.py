"""The resources and the prompt of ``yimao mcp``.

Resources: the database's own documentation (``yimao://schema``, one table at
``yimao://schema/{table}``, as ``yimao schema --markdown`` prints it), docs/signs.md (every
sign with its condition, meaning and passage) and docs/chart.schema.json (the chart
contract). The prompt ``read_chart`` lays out a stored reading for an assistant to read:
the chart, its signs with their meanings and passages, the 用神 when the chart names one,
and how to reason from them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from sqlalchemy import bindparam, text

from yimao_db.errors import UsageError, shown
from yimao_db.mcp.base import Database
from yimao_db.paths import doc_path

if TYPE_CHECKING:
    from yimao_db.journaling import Journal
    from yimao_db.readings import Chart

MARKDOWN = "text/markdown"


@dataclass(frozen=True)
class Resource:
    uri: str
    name: str
    title: str
    description: str
    mime_type: str


@dataclass(frozen=True)
class Template:
    uri_template: str
    name: str
    title: str
    description: str
    mime_type: str


SCHEMA_URI = "yimao://schema"
DOCS = {  # uri → the document of docs/ it serves
    "yimao://docs/signs.md": "signs.md",
    "yimao://docs/chart.schema.json": "chart.schema.json",
}
RESOURCES = (
    Resource(
        SCHEMA_URI,
        "schema",
        "The database's documentation",
        "Every table and view with its columns: description, domain and passage, as the "
        "database stores them (meta_table, meta_column; `yimao schema --markdown`).",
        MARKDOWN,
    ),
    Resource(
        "yimao://docs/signs.md",
        "signs",
        "Signs: the book's judgments applied to a reading",
        "docs/signs.md: what a sign is, how it weighs, and every sign with the condition it "
        "fires on, its meaning, its passage and its basis.",
        MARKDOWN,
    ),
    Resource(
        "yimao://docs/chart.schema.json",
        "chart-schema",
        "The chart contract yimao.chart/2",
        "docs/chart.schema.json: the JSON Schema of a chart as the chart, preview and cast "
        "tools return it.",
        "application/schema+json",
    ),
)
TEMPLATES = (
    Template(
        SCHEMA_URI + "/{table}",
        "schema-table",
        "One table's documentation",
        "A table or view with its columns (`yimao schema TABLE --markdown`).",
        MARKDOWN,
    ),
)


def read(service: Database, uri: str) -> tuple[str, str]:
    """(text, MIME type) of the resource at ``uri``; UsageError for another URI."""
    if uri in DOCS:
        mime = next(r.mime_type for r in RESOURCES if r.uri == uri)
        return doc_path(DOCS[uri]).read_text(encoding="utf-8"), mime
    if uri == SCHEMA_URI or uri.startswith(SCHEMA_URI + "/"):
        from yimao_db.kb.meta import read_meta
        from yimao_db.present.schema_doc import schema_markdown

        with service.reader.connect() as conn:
            tables, columns = read_meta(conn)
        if uri != SCHEMA_URI:
            from yimao_db.commands.schema import _find

            table = _find(tables, unquote(uri[len(SCHEMA_URI) + 1 :]))
            tables = [table]
            columns = [c for c in columns if c["table_name"] == table["name"]]
        return schema_markdown(tables, columns), MARKDOWN
    known = ", ".join([*(r.uri for r in RESOURCES), *(t.uri_template for t in TEMPLATES)])
    raise UsageError(f"unknown resource {shown(uri)}: expected {known}")


# --- the prompt --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prompt:
    name: str
    title: str
    description: str
    argument: str
    argument_description: str


READ_CHART = Prompt(
    "read_chart",
    "Read a reading's chart",
    "A stored reading laid out for reading: its chart, the signs the book's judgments give "
    "for it with their meanings and passages, and the 用神 when the chart names one; the "
    "assistant is asked to reason from them and cite the passages.",
    "reading_id",
    "The id of a stored reading",
)

SIGN_MEANINGS = text(
    "SELECT name, meaning, meaning_zh, condition FROM sign WHERE name IN :names"
).bindparams(bindparam("names", expanding=True))

ASK = (
    "Read this chart as a practitioner of 程良玉《易冒》卷一 would. Reason from the chart and "
    "the signs above: weigh them as their weights say (the world line over the 卦身 over the "
    "世身, §9.6), say which passage each conclusion rests on as §chapter.passage, and say "
    "where the book leaves the matter open (polarity 中) or where the signs pull against each "
    "other. Do not invent judgments the signs do not give; to look anything up, use the "
    "tools (show for a name, passages for a passage, sql for the views)."
)


def read_chart(service: Database, reading_id: int) -> str:
    """The prompt's text for a stored reading (UsageError if there is none)."""
    from yimao_db.journaling import read_journal
    from yimao_db.readings import read_chart as chart_of

    with service.reader.connect() as conn:
        chart = chart_of(conn, reading_id)
        journal = read_journal(conn, reading_id)
        names = sorted({s.sign for s in chart.signs})
        meanings = (
            {r["name"]: dict(r) for r in conn.execute(SIGN_MEANINGS, {"names": names}).mappings()}
            if names
            else {}
        )
    return chart_prompt(chart, journal, meanings, use=chart.use or None)


def _cell(value: object) -> str:
    return "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")


def sign_table(chart: Chart, meanings: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The chart's signs as a Markdown table, in the chart's order, each with its meaning."""
    out = [
        "| sign | line | subject | polarity | weight | meaning | fires when | passage |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in chart.signs:
        m = meanings.get(s.sign, {})
        meaning = f"{m.get('meaning', '')} ({m.get('meaning_zh', '')})" if m else ""
        cite = f"§{s.passage}" if s.passage else f"{s.basis}, no passage"
        line = "" if s.position is None else str(s.position)
        out.append(
            f"| {s.sign} | {line} | {s.subject} | {s.polarity} | {s.weight} | {_cell(meaning)} "
            f"| {_cell(m.get('condition'))} | {cite} |"
        )
    return out


def _use_lines(use: object) -> list[str]:
    """The 用神 as lines: the chart's roles (用神 原神 忌神 仇神) one per line, a record's
    fields one per line, anything else as it reads."""
    if isinstance(use, (tuple, list)) and not hasattr(use, "_asdict"):  # rows, not one row
        return [
            f"- {row.role}: " + json.dumps(row._asdict(), ensure_ascii=False, default=str)
            for row in use
        ]
    if hasattr(use, "_asdict"):  # one row
        fields: Mapping[str, Any] = use._asdict()
    elif dataclasses.is_dataclass(use) and not isinstance(use, type):
        fields = dataclasses.asdict(use)
    elif isinstance(use, Mapping):
        fields = use
    else:
        return [str(use)]
    return [f"- {k}: {json.dumps(v, ensure_ascii=False, default=str)}" for k, v in fields.items()]


def chart_prompt(
    chart: Chart,
    journal: Journal,
    meanings: Mapping[str, Mapping[str, Any]],
    *,
    use: object = None,
) -> str:
    """The text of ``read_chart``: the chart as ``yimao reading --format markdown`` prints
    it, the signs with their meanings, the 用神 section when ``use`` is given, the ask."""
    from yimao_db.present.chart import chart_markdown

    out: list[str] = [
        f"Reading {chart.reading_id}, as yimao-db assembles it from the book's rules "
        "(程良玉《易冒》卷一; passages are cited §chapter.passage, the book's text is not "
        "stored).",
        "",
        "## The chart",
        "",
        chart_markdown(chart, journal).rstrip("\n"),
        "",
        "## The signs, with their meanings",
        "",
    ]
    if chart.signs:
        out += sign_table(chart, meanings)
    else:
        out.append("No sign of the book fires for this reading.")
    if use is not None:
        out += ["", "## 用神", "", *_use_lines(use)]
    out += ["", "## What to do", "", ASK]
    return "\n".join(out) + "\n"
