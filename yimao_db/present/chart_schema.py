"""The JSON Schema of the chart's JSON ``yimao.chart/2`` (``docs/chart.schema.json``),
generated from the declarations of the chart's views (:mod:`yimao_db.kb.views.chart`).

Each column is a property described by its column's description and typed by its kind:
text a string, an integer an integer (with the bounds of a domain ``a..b``), a flag a
boolean, a list joined by ',' an array; ``null`` allowed where the column may be NULL
(never for a list, which is ``[]`` then); a text column whose domain is a choice of words
(``fixed/seasonal``) an ``enum``. Every object forbids properties it does not name
(``additionalProperties: false``). The journal is not a view: its part is written here.
"""

from __future__ import annotations

import json
import re
from typing import Any

from yimao_db.kb.views import Col, View, views
from yimao_db.kb.views.base import OR_NULL
from yimao_db.kb.views.chart import HEAD, PARTS, fields_of

SCHEMA = "yimao.chart/2"  # the contract (yimao_db.present.chart_json.SCHEMA says the same)
TITLE = f"{SCHEMA}: a reading's chart"
DESCRIPTION = (
    "The chart of a reading as `yimao cast` and `yimao reading` print it with `--format json` "
    "(or `--json`): the columns of v_reading, and the rows of the views beside it. Flags are "
    "booleans (1 is true), lists arrays (NULL or empty text is []); each description is its "
    "column's (docs/schema.md). Fields may be added within version 2, never removed, renamed "
    "or retyped (that is a new version). Version 2 supersedes yimao.chart/1: each line has "
    "its places (§10.5: 將來 已往 左鄰 右鄰 君 臣 天 地 門戶, no longer signs), each sign its "
    "meaning, meaning_zh and what it cancels, and the signs are as strong as the book says "
    "(docs/signs.md). Generated from yimao_db/kb/views by `python -m "
    "yimao_db.present.generate`."
)
_RANGE = re.compile(r"^(\d+)\.\.(\d*)")
_CHOICE = re.compile(r"^[^\s/,]+(/[^\s/,]+)+$")  # fixed/seasonal, 吉/凶/中
_TYPES = {"text": "string", "integer": "integer", "flag": "boolean"}

PART_BOUNDS: dict[str, dict[str, Any]] = {  # how many rows a part has
    "lines": {"minItems": 6, "maxItems": 6},
    "changed_lines": {"oneOf": [{"maxItems": 0}, {"minItems": 6, "maxItems": 6}]},
}


def _closed(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    """An object with exactly ``properties`` (all of them required unless said)."""
    return {
        "type": "object",
        "required": list(properties) if required is None else required,
        "properties": properties,
        "additionalProperties": False,
    }


JOURNAL = {
    "description": "Notes, outcome and tags of the reading (given with the chart)",
    **_closed(
        {
            "notes": {
                "type": "array",
                "items": _closed(
                    {
                        "id": {"type": "integer"},
                        "noted_at": {"type": "string"},
                        "note": {"type": "string"},
                    }
                ),
            },
            "outcome": {
                "oneOf": [
                    {"type": "null"},
                    _closed(
                        {
                            "verdict": {"enum": ["hit", "miss", "partial"]},
                            "happened_on": {"type": "string"},
                            "note": {"type": ["string", "null"]},
                            "recorded_at": {"type": "string"},
                        }
                    ),
                ]
            },
            "tags": {"type": "array", "items": {"type": "string"}},
        }
    ),
}


def _bounds(domain: str | None) -> dict[str, int]:
    match = _RANGE.match(domain or "")
    if match is None:
        return {}
    found = {"minimum": int(match[1])}
    if match[2]:
        found["maximum"] = int(match[2])
    return found


def column_schema(c: Col) -> dict[str, Any]:
    """The property of column ``c``."""
    out: dict[str, Any] = {"description": c.description}
    if c.kind in ("integers", "texts"):
        items: dict[str, Any] = {"type": "integer" if c.kind == "integers" else "string"}
        if c.kind == "integers":
            items.update(_bounds(c.domain))
        return {**out, "type": "array", "items": items}
    kind = _TYPES[c.kind]
    out["type"] = [kind, "null"] if c.null else kind
    bare = (c.domain or "").removesuffix(OR_NULL)
    if c.kind == "integer":
        out.update(_bounds(bare))
    elif c.kind == "text" and _CHOICE.match(bare):
        out["enum"] = [*bare.split("/"), *([None] if c.null else [])]
    return out


def _object(view: View, *, head: bool) -> dict[str, dict[str, Any]]:
    return {c.name: column_schema(c) for c in fields_of(view, head=head)}


def chart_schema() -> dict[str, Any]:
    """The JSON Schema of ``yimao.chart/2``."""
    found = views()
    properties: dict[str, Any] = {
        "schema": {"const": SCHEMA, "description": "The contract this document follows"},
        **_object(found[HEAD], head=True),
    }
    definitions: dict[str, Any] = {}
    for part in PARTS:
        view = found[part.view]
        properties[part.field] = {
            "description": f"{part.description} ({part.view})",
            "type": "array",
            **PART_BOUNDS.get(part.field, {}),
            "items": {"$ref": f"#/$defs/{part.schema_name}"},
        }
        definitions[part.schema_name] = {
            "description": f"A row of {part.view} without reading_id: {view.description}",
            **_closed(_object(view, head=False)),
        }
    required = list(properties)
    properties["journal"] = {"$ref": "#/$defs/journal"}
    definitions["journal"] = JOURNAL
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://yimao-db.invalid/chart.schema.json",
        "title": TITLE,
        "description": DESCRIPTION,
        **_closed(properties, required),
        "$defs": definitions,
    }


def chart_schema_text() -> str:
    """``docs/chart.schema.json`` as it is generated."""
    return json.dumps(chart_schema(), ensure_ascii=False, indent=2) + "\n"
