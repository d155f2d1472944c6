"""The chart as JSON, contract ``yimao.chart/2`` (described by docs/chart.schema.json).

The columns of ``v_reading`` at the top level, with ``lines`` (v_reading_line), ``hidden``
(v_reading_hidden), ``signs`` (v_reading_sign), ``changed_lines`` (v_reading_changed_line:
all six lines of the changed hexagram; empty when no line moves) and ``journal``. Lists are
arrays (``moving_lines``, ``gua_shen_positions``, a line's ``transform`` and
``month_spirit``), flags are ``true``/``false``: the columns of those kinds in the
declarations (:data:`~yimao_db.chart_rows.FLAGS` and the lists beside it, generated). A
change that is not backward compatible (a field removed, renamed or retyped) means a new
schema version; new fields may be added within one.
"""

from __future__ import annotations

from typing import Any

from yimao_db.chart_rows import FLAGS as FLAGS
from yimao_db.chart_rows import NUMBER_LISTS as NUMBER_LISTS
from yimao_db.chart_rows import PARTS, Chart
from yimao_db.chart_rows import TEXT_LISTS as TEXT_LISTS
from yimao_db.journaling import Journal

SCHEMA = "yimao.chart/2"


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
    """The chart (and its journal, when given) as ``yimao.chart/2`` data."""
    data = chart.as_dict()
    parts = {part: [_typed(row) for row in data.pop(part)] for part in PARTS}
    out: dict[str, Any] = {"schema": SCHEMA, **_typed(data), **parts}
    if journal is not None:
        out["journal"] = journal.as_dict()
    return out
