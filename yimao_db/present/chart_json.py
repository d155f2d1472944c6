"""The chart as JSON, contract ``yimao.chart/1`` (described by docs/chart.schema.json).

The columns of ``v_reading`` at the top level, with ``lines`` (v_reading_line), ``hidden``
(v_reading_hidden), ``signs`` (v_reading_sign), ``changed_lines`` (all six lines of the
changed hexagram; empty when no line moves) and ``journal``. Lists are arrays
(``moving_lines``, ``gua_shen_positions``, a line's ``transform`` and ``month_spirit``),
flags are ``true``/``false``. A change that is not backward compatible (a field removed,
renamed or retyped) means a new schema version; new fields may be added within one.
"""

from __future__ import annotations

from typing import Any

from yimao_db.journaling import Journal
from yimao_db.readings import Chart

SCHEMA = "yimao.chart/1"
BEARINGS = ("on", "generates", "helps", "controls", "combines")
FLAGS = frozenset(
    {
        "is_liuchong",
        "is_liuhe",
        "early_rat",
        "is_moving",
        "is_world",
        "is_response",
        "is_between",
        "is_dusk_mansion",
        "is_void",
        "is_month_break",
        "is_day_clash",
        "yang",
        "changed_is_void",
        "changed_is_month_break",
        "changed_is_day_clash",
        *(f"{who}_{how}" for who in ("day", "month") for how in BEARINGS),
    }
)
NUMBER_LISTS = frozenset({"moving_lines", "gua_shen_positions"})
TEXT_LISTS = frozenset({"transform", "month_spirit"})


def _typed(row: dict[str, Any]) -> dict[str, Any]:
    """A row with its flags as booleans and its comma lists as arrays."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key in FLAGS and value is not None:
            value = bool(value)
        elif key in NUMBER_LISTS:
            value = [int(p) for p in value.split(",")] if value else []
        elif key in TEXT_LISTS:
            value = value.split(",") if value else []
        out[key] = value
    return out


def chart_json(chart: Chart, journal: Journal | None = None) -> dict[str, Any]:
    """The chart (and its journal, when given) as ``yimao.chart/1`` data."""
    data = chart.as_dict()
    parts = {part: [_typed(row) for row in data.pop(part)] for part in
             ("lines", "hidden", "signs", "changed_lines")}  # fmt: skip
    out: dict[str, Any] = {"schema": SCHEMA, **_typed(data), **parts}
    if journal is not None:
        out["journal"] = journal.as_dict()
    return out
