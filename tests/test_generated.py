"""The files generated from the declarations (``python -m yimao_db.present.generate``): none
is stale, a stale one is named, and what they are made of follows the declarations (the
chart's classes typed by the columns' kinds, a JSON Schema that is closed everywhere)."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import typing
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from yimao_db import chart_rows
from yimao_db.kb.views import Col, col, views
from yimao_db.kb.views.base import FLAG, FLAG_OR_NULL, KING_WEN, POSITIONS, kind_of
from yimao_db.kb.views.chart import CHART_VIEWS, chart_rows_source, kinds
from yimao_db.present import generate
from yimao_db.present.chart_json import FLAGS, NUMBER_LISTS, TEXT_LISTS
from yimao_db.present.chart_schema import chart_schema, column_schema


def test_no_generated_file_is_stale() -> None:
    found = generate.stale()
    assert not found, f"stale: {', '.join(found)}: run `{generate.COMMAND}`"


def _copy(tmp_path: Path) -> Path:
    for name in generate.GENERATED:
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(generate.ROOT / name, target)
    return tmp_path


def test_check_names_each_stale_file_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _copy(tmp_path)
    rows = root / "yimao_db" / "chart_rows.py"
    rows.write_text(rows.read_text(encoding="utf-8").replace("    yang: int\n", ""), "utf-8")
    readings = root / "docs" / "readings.md"
    readings.write_text(
        readings.read_text(encoding="utf-8").replace("| `yang` |", "| `yin` |"), "utf-8"
    )
    before = {name: (root / name).read_text(encoding="utf-8") for name in generate.GENERATED}
    monkeypatch.setattr(generate, "ROOT", root)
    assert generate.main(["--check"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        "stale: yimao_db/chart_rows.py, docs/readings.md "
        "(run `python -m yimao_db.present.generate`)\n"
    )
    assert {n: (root / n).read_text(encoding="utf-8") for n in generate.GENERATED} == before
    assert generate.main([]) == 0
    assert capsys.readouterr().out == "wrote yimao_db/chart_rows.py\nwrote docs/readings.md\n"
    assert generate.main(["--check"]) == 0
    assert generate.main(["--bogus"]) == 2


def test_a_new_column_makes_the_classes_and_the_schema_stale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A column declared on a chart view is a field of its class and a property of the
    JSON: generating is all it takes."""
    changed = dict(views())
    view = changed["v_reading_line"]
    extra = col("is_extra", "1 if extra", FLAG)
    changed["v_reading_line"] = dataclasses.replace(view, columns=(*view.columns, extra))
    source = chart_rows_source(changed)
    assert source != chart_rows_source(views())
    assert "    is_extra: int\n\n\nclass HiddenLine(NamedTuple):" in source
    assert '        "is_extra",\n' in source  # read with the line, and a flag
    monkeypatch.setattr("yimao_db.present.chart_schema.views", lambda: changed)
    line = chart_schema()["$defs"]["line"]
    assert line["properties"]["is_extra"] == {"description": "1 if extra", "type": "boolean"}
    assert line["required"][-1] == "is_extra"


def test_kinds_from_domains_and_declarations() -> None:
    assert [kind_of(d) for d in (FLAG, FLAG_OR_NULL, KING_WEN, "0..", "6", "FK reading.id")] == [
        "flag",
        "flag",
        "integer",
        "integer",
        "integer",
        "integer",
    ]
    assert kind_of("FK source_passage.id or NULL") == kind_of(None) == "text"
    assert col("x", "x", KING_WEN + " or NULL") == Col("x", "x", "1..64 or NULL", "integer", True)
    assert col("x", "x", POSITIONS, kind="integers").null is False
    with pytest.raises(ValueError, match="kind 'list'"):
        col("x", "x", kind="list")  # type: ignore[arg-type]


def test_one_name_one_kind_across_the_chart() -> None:
    changed = dict(views())
    view = changed["v_reading_changed_line"]
    changed["v_reading_changed_line"] = dataclasses.replace(
        view,
        columns=tuple(Col(c.name, c.description) if c.name == "yang" else c for c in view.columns),
    )
    changed["v_reading"] = dataclasses.replace(
        changed["v_reading"],
        columns=(*changed["v_reading"].columns, Col("yang", "x", FLAG, "flag")),
    )
    with pytest.raises(ValueError, match="column yang is flag in v_reading but text in"):
        kinds(changed)


def test_the_chart_classes_are_typed_by_kind() -> None:
    types = typing.get_type_hints(chart_rows.ChartLine)
    assert types["is_moving"] is int and types["changed_is_void"] == int | None
    assert types["transform"] == str | None and types["spirit"] is str
    assert typing.get_type_hints(chart_rows.Chart)["nuclear_name"] is str
    assert tuple(chart_rows.COLUMNS) == CHART_VIEWS


def test_the_json_sets_are_the_declared_kinds() -> None:
    every = {c.name: c.kind for v in CHART_VIEWS for c in views()[v].columns}
    assert FLAGS == {n for n, k in every.items() if k == "flag"}
    assert {"is_moving", "yang", "changed_is_void", "day_on", "is_liuhe"} <= FLAGS
    assert NUMBER_LISTS == {"moving_lines", "gua_shen_positions"}
    assert TEXT_LISTS == {"transform", "month_spirit", "places"}


def _objects(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append(node)
        for value in node.values():
            found += _objects(value)
    elif isinstance(node, list):
        for value in node:
            found += _objects(value)
    return found


def test_the_schema_is_closed_and_typed_by_the_declarations() -> None:
    schema = chart_schema()
    Draft202012Validator.check_schema(schema)
    objects = _objects(schema)
    assert len(objects) >= 8 and all(o["additionalProperties"] is False for o in objects)
    committed = json.loads((generate.ROOT / "docs" / "chart.schema.json").read_text("utf-8"))
    assert committed == schema
    line = schema["$defs"]["line"]["properties"]
    assert line["is_void"]["type"] == "boolean"
    assert line["changed_is_void"]["type"] == ["boolean", "null"]
    assert line["transform"] == {
        "description": next(
            c.description for c in views()["v_reading_line"].columns if c.name == "transform"
        ),
        "type": "array",
        "items": {"type": "string"},
    }
    head = schema["properties"]
    assert head["moving_lines"]["items"] == {"type": "integer", "minimum": 1, "maximum": 6}
    assert head["primary_king_wen"] | {"description": ""} == {
        "description": "",
        "type": "integer",
        "minimum": 1,
        "maximum": 64,
    }
    assert head["outcome"]["enum"] == ["hit", "miss", "partial", None]
    assert head["najia_variant"]["enum"] == ["fixed", "seasonal"]
    assert schema["$defs"]["sign"]["properties"]["polarity"]["enum"] == ["吉", "凶", "中"]
    assert column_schema(Col("q", "Question", None, "text", True)) == {
        "description": "Question",
        "type": ["string", "null"],
    }


def test_the_schema_refuses_what_the_chart_never_has() -> None:
    """A field the contract does not name, a flag as 0/1, a NULL list: each is an error."""
    validator = Draft202012Validator(chart_schema())
    line: dict[str, Any] = {
        c.name: None if c.null else {"flag": False, "integer": 1}.get(c.kind, "x")
        for c in views()["v_reading_line"].columns
        if c.name != "reading_id"
    }
    line |= {"value": 7, "month_spirit": [], "transform": [], "places": ["地", "右鄰"]}
    sub = {"$ref": "#/$defs/line", "$defs": chart_schema()["$defs"]}
    lines = Draft202012Validator(sub)
    assert list(lines.iter_errors(line)) == []
    assert [e.message for e in lines.iter_errors({**line, "extra": 1})] == [
        "Additional properties are not allowed ('extra' was unexpected)"
    ]
    assert len(list(lines.iter_errors({**line, "is_void": 0}))) == 1
    assert len(list(lines.iter_errors({**line, "transform": None}))) == 1
    assert not validator.is_valid({"schema": "yimao.chart/2"})


GENERATED_BLOCK = re.compile(r"<!-- columns of \w+: generated.*?<!-- end of columns -->", re.S)
TABLE_ROW = re.compile(r"^\| `(\w+)` \|", re.M)


def test_every_column_table_in_the_docs_is_generated() -> None:
    """A table in the docs whose rows name three or more columns of one view, and nothing
    else, is a generated block (docs/schema.md is generated whole)."""
    columns = {name: set(view.column_names) for name, view in views().items()}
    hand = []
    for path in sorted((generate.ROOT / "docs").glob("*.md")):
        if path.name == "schema.md":
            continue
        text = GENERATED_BLOCK.sub("", path.read_text(encoding="utf-8"))
        for table in re.split(r"\n(?!\|)", text):
            names = set(TABLE_ROW.findall(table))
            hand += [
                f"{path.name}: {v} ({', '.join(sorted(names))})"
                for v, cols in columns.items()
                if len(names) >= 3 and names <= cols
            ]
    assert hand == []
