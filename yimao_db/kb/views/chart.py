"""The chart of a reading as the views make it, and the Python module generated from it.

A chart is the row of ``v_reading`` with the rows of four views beside it, its
:data:`PARTS`: the lines (``v_reading_line``), the hidden spirits (``v_reading_hidden``),
the signs (``v_reading_sign``) and the changed hexagram's lines
(``v_reading_changed_line``) and the 用神 with its chain
(``v_reading_use``). :func:`chart_rows_source` writes ``yimao_db/chart_rows.py``
from the declarations of those views: one NamedTuple per view with one field per
column (``reading_id`` left out of the parts), typed by the column's kind, the columns each
view is read by, and the names of the flag and list columns. ``yimao cast`` reads a chart
through that module without loading the declarations; ``python -m
yimao_db.present.generate`` writes it, and a test fails when it is stale.
"""

from __future__ import annotations

from dataclasses import dataclass

from yimao_db.kb.views.base import Col, Kind, View

HEAD = "v_reading"
HEAD_CLASS = "Chart"


@dataclass(frozen=True)
class Part:
    """Rows of a view beside the chart's head: the field of ``Chart`` holding them."""

    field: str  # the field of Chart, and the key of the chart's JSON
    cls: str  # the class of a row
    view: str
    description: str  # what the rows are (the class's docstring, the JSON Schema's text)
    schema_name: str  # the name of the row's definition in the JSON Schema


PARTS = (
    Part("lines", "ChartLine", "v_reading_line", "The six lines, line 1 first", "line"),
    Part(
        "hidden",
        "HiddenLine",
        "v_reading_hidden",
        "The hidden spirits 伏神, by position",
        "hidden",
    ),
    Part("signs", "ChartSign", "v_reading_sign", "The signs that fire, weightiest first", "sign"),
    Part(
        "changed_lines",
        "ChangedLine",
        "v_reading_changed_line",
        "The changed hexagram's six lines, line 1 first; empty when no line moves",
        "changed_line",
    ),
    Part(
        "use",
        "ChartUse",
        "v_reading_use",
        "The 用神 and its 原神 忌神 仇神, 用神 first; empty when the reading names no subject",
        "use",
    ),
)
CHART_VIEWS = (HEAD, *(p.view for p in PARTS))
# the Python type of a value of each kind (lists are text joined by ',')
PY_TYPES: dict[Kind, str] = {
    "text": "str",
    "integer": "int",
    "flag": "int",
    "integers": "str",
    "texts": "str",
}


def fields_of(view: View, *, head: bool) -> tuple[Col, ...]:
    """The columns of ``view`` that are fields of its class: all of the head's, a part's
    without ``reading_id``."""
    return view.columns if head else tuple(c for c in view.columns if c.name != "reading_id")


def kinds(views: dict[str, View]) -> dict[str, Kind]:
    """Each column name of the chart's views → its kind; a name must have one kind in all of
    them (the chart's JSON types a key by its name)."""
    found: dict[str, Kind] = {}
    where: dict[str, str] = {}
    for name in CHART_VIEWS:
        for c in views[name].columns:
            if found.setdefault(c.name, c.kind) != c.kind:
                raise ValueError(
                    f"column {c.name} is {found[c.name]} in {where[c.name]} but {c.kind} in "
                    f"{name}: the chart's columns of one name must be of one kind"
                )
            where.setdefault(c.name, name)
    return found


def _type(c: Col) -> str:
    py = PY_TYPES[c.kind]
    return f"{py} | None" if c.null else py


def _strings(name: str, values: list[str], call: str = "") -> list[str]:
    """``NAME = (…)`` or ``NAME = call({…})`` as ruff formats it, one value a line."""
    if not values:
        return [f"{name} = {call}()" if call else f"{name} = ()"]
    items = [f'    "{v}",' for v in values]
    if call:
        inner = [f"    {line}" for line in items]
        return [f"{name} = {call}(", "    {", *inner, "    }", ")"]
    return [f"{name} = (", *items, ")"]


def chart_rows_source(views: dict[str, View]) -> str:
    """The text of ``yimao_db/chart_rows.py`` for the views ``views``."""
    by_kind = kinds(views)
    out = [
        '"""The chart\'s rows as typed objects. Generated from the view declarations',
        "(yimao_db/kb/views) by `python -m yimao_db.present.generate`: do not edit;",
        "tests/test_generated.py fails when this file is stale.",
        "",
        "One NamedTuple per view of the chart (yimao_db.kb.views.chart), one field per column",
        "in the view's order (reading_id only in the head), typed by the column's kind (a row",
        "is a tuple: a cast makes six of these classes, and a NamedTuple costs a sixth of a",
        "dataclass to make); COLUMNS names the columns each view is read by,",
        "FLAGS, NUMBER_LISTS and TEXT_LISTS the columns of those kinds. A chart is read",
        'through this module without loading the declarations."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any, NamedTuple",
    ]
    for part in PARTS:
        view = views[part.view]
        out += ["", "", f"class {part.cls}(NamedTuple):"]
        out += [f'    """A row of {part.view} without reading_id."""', ""]
        out += [f"    {c.name}: {_type(c)}" for c in fields_of(view, head=False)]
    head = views[HEAD]
    out += ["", "", f"class {HEAD_CLASS}(NamedTuple):"]
    out += [f'    """The row of {HEAD}, and beside it the rows of its parts:', ""]
    out += [f"    - {p.field}: {p.view}" for p in PARTS]
    out += ['    """', ""]
    out += [f"    {c.name}: {_type(c)}" for c in fields_of(head, head=True)]
    out += [f"    {p.field}: tuple[{p.cls}, ...]" for p in PARTS]
    out += [
        "",
        "    def as_dict(self) -> dict[str, Any]:",
        '        """The chart as JSON-ready data: each part a list of dicts."""',
        "        data = self._asdict()",
        "        for part in PARTS:",
        "            data[part] = [row._asdict() for row in data[part]]",
        "        return data",
        "",
        "",
    ]
    out += _strings("PARTS", [p.field for p in PARTS])
    out += ["# the columns each view is read by, in the order of its class's fields"]
    out += ["COLUMNS: dict[str, tuple[str, ...]] = {"]
    for name in CHART_VIEWS:
        out += [f'    "{name}": (']
        out += [f'        "{c}",' for c in views[name].column_names]
        out += ["    ),"]
    out += ["}"]
    for name, kind in (("FLAGS", "flag"), ("NUMBER_LISTS", "integers"), ("TEXT_LISTS", "texts")):
        out += _strings(name, sorted(n for n, k in by_kind.items() if k == kind), "frozenset")
    return "\n".join(out) + "\n"
