"""The output schemas of the tools (JSON Schema 2020-12): what the structured part of each
answer holds. A chart is the ``yimao.chart/2`` contract, docs/chart.schema.json itself; the
others describe the rows the command line prints with ``--json``."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from yimao_db.paths import doc_path
from yimao_db.stats import GROUPINGS

TEXT = {"type": "string"}
INTEGER = {"type": "integer"}
MAYBE_TEXT = {"type": ["string", "null"]}
MAYBE_INTEGER = {"type": ["integer", "null"]}
ROW = {"type": "object", "description": "A row: its columns by name"}


def _object(properties: dict[str, Any], description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
    }
    if description:
        schema["description"] = description
    return schema


def _rows(properties: dict[str, Any], description: str) -> dict[str, Any]:
    return {"type": "array", "items": _object(properties), "description": description}


@cache
def chart() -> dict[str, Any]:
    """docs/chart.schema.json (shipped in the wheel)."""
    loaded: dict[str, Any] = json.loads(doc_path("chart.schema.json").read_text("utf-8"))
    return loaded


def show() -> dict[str, Any]:
    entity = _object(
        {
            "kind": TEXT,
            "name": TEXT,
            "table": TEXT,
            "row": ROW,
            "aliases": _rows({"alias": TEXT, "form": TEXT}, "Other spellings, by form"),
            "notes": {"type": "array", "items": TEXT},
            "related": _rows(
                {"table": TEXT, "description": MAYBE_TEXT, "rows": {"type": "array"}},
                "The rule and symbol rows about it, per table, each with its passage",
            ),
        }
    )
    return {
        "type": "object",
        "description": "A hexagram (kind hexagram: its row of v_hexagram, its lines bottom "
        "first from v_line, its hidden spirits from v_hidden, and the other kinds its name "
        "has), or every other kind of thing the name names (entities)",
        "properties": {
            "kind": {"const": "hexagram"},
            "king_wen": INTEGER,
            "name": TEXT,
            "lines": {"type": "array", "items": ROW},
            "hidden": {"type": "array", "items": ROW},
            "also": _rows({"kind": TEXT, "name": TEXT}, "Other kinds the name has"),
            "query": TEXT,
            "entities": {"type": "array", "items": entity},
        },
        "anyOf": [
            {"required": ["kind", "king_wen", "name", "lines", "hidden", "also"]},
            {"required": ["query", "entities"]},
        ],
    }


def readings() -> dict[str, Any]:
    return _object(
        {
            "readings": _rows(
                {
                    "reading_id": INTEGER,
                    "created_at": TEXT,
                    "cast_at": MAYBE_TEXT,
                    "day_gz": TEXT,
                    "primary_name": TEXT,
                    "changed_name": MAYBE_TEXT,
                    "moving_lines": {"type": "array", "items": INTEGER},
                    "question": MAYBE_TEXT,
                    "outcome": MAYBE_TEXT,
                    "tags": {"type": "array", "items": TEXT},
                },
                "The readings found, newest first",
            )
        }
    )


def stats() -> dict[str, Any]:
    return _object(
        {
            "by": {"enum": list(GROUPINGS)},
            "rows": {
                "type": "array",
                "items": ROW,
                "description": "One row per group: readings, judged, hit, partial, miss and "
                "hit_rate (null where no reading of the group has an outcome); outcome: "
                "readings per outcome",
            },
        }
    )


def passages() -> dict[str, Any]:
    return _object(
        {
            "query": MAYBE_TEXT,
            "passages": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "passage": {"type": "string", "description": "§chapter.passage"},
                        "chapter_no": INTEGER,
                        "passage_no": INTEGER,
                        "chapter": TEXT,
                        "coverage": {"enum": ["encoded", "partial", "theory"]},
                        "note": MAYBE_TEXT,
                        "citations": {"type": "integer", "description": "Rows citing it"},
                        "cited_by": _rows(
                            {
                                "table": TEXT,
                                "rows": INTEGER,
                                "keys": {
                                    "type": ["array", "null"],
                                    "items": TEXT,
                                    "description": "The citing rows' keys, when there are "
                                    "at most 20 (else null: v_passage_citation has them)",
                                },
                            },
                            "Per table: how many rows cite it, and their keys",
                        ),
                        "matched": _rows(
                            {"table": TEXT, "row_key": TEXT, "basis": MAYBE_TEXT},
                            "The citing rows the query named (a text query only)",
                        ),
                    },
                    "required": [
                        "passage",
                        "chapter_no",
                        "passage_no",
                        "chapter",
                        "coverage",
                        "note",
                        "citations",
                        "cited_by",
                    ],
                },
            },
        }
    )


def sql() -> dict[str, Any]:
    return _object(
        {
            "columns": {"type": "array", "items": TEXT},
            "rows": {"type": "array", "items": ROW},
            "truncated": {
                "type": "boolean",
                "description": "True when rows were left out (the row limit)",
            },
        }
    )


def schema() -> dict[str, Any]:
    table = _object(
        {"name": TEXT, "kind": TEXT, "section": TEXT, "description": TEXT, "passage": MAYBE_TEXT}
    )
    column = _object(
        {
            "table_name": TEXT,
            "ordinal": INTEGER,
            "column_name": TEXT,
            "description": TEXT,
            "domain": MAYBE_TEXT,
            "passage": MAYBE_TEXT,
        }
    )
    return {
        "type": "object",
        "properties": {
            "tables": {"type": "array", "items": table},
            "table": table,
            "columns": {"type": "array", "items": column},
        },
        "anyOf": [{"required": ["tables"]}, {"required": ["table", "columns"]}],
    }


def note() -> dict[str, Any]:
    return _object({"reading_id": INTEGER, "note_id": INTEGER})


def outcome() -> dict[str, Any]:
    return _object(
        {
            "reading_id": INTEGER,
            "verdict": {"enum": ["hit", "miss", "partial"]},
            "replaced": {
                "oneOf": [
                    {"type": "null"},
                    _object({"verdict": TEXT, "on": TEXT}),
                ],
                "description": "The outcome recorded before, which this one replaces",
            },
        }
    )


def tag() -> dict[str, Any]:
    return _object(
        {
            "reading_id": INTEGER,
            "added": {
                "type": "array",
                "items": TEXT,
                "description": "The tags it did not have yet",
            },
        }
    )
