"""The output formats for people and programs, each registered once: text, markdown, html,
json.

A :class:`Format` has its name (``--format NAME``), its media type and file suffix (what it
is to a browser or a file manager) and one renderer for each thing it can render:

- ``chart``: a stored reading's chart with its journal (``yimao cast``, ``yimao reading``;
  ``yimao serve`` at ``/reading/ID`` + the suffix);
- ``show``: what ``yimao show`` found for a name (:func:`yimao_db.present.show.show`);
- ``chart_part``: the chart and its journal as a part of a larger document of the format
  (the reading page of ``yimao serve``, an HTML page of its own).

The commands take their ``--format`` choices from :func:`names` and their renderer from
:func:`chart_renderer` and :func:`show_renderer`; ``yimao serve`` its downloads from
:func:`by_suffix`. Nothing here names a format but its own entry.

A renderer imports its layout when it is called: printing a chart as text loads no HTML,
Markdown or JSON layout (``tests/test_cli.py`` holds ``yimao cast`` to this).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from yimao_db.journaling import Journal
    from yimao_db.readings import Chart


class Terminal(NamedTuple):
    """Where the output goes: a terminal's width in cells and whether it wants colour. The
    default (no width, no colour) is a file, a pipe or a web page; only text reads it."""

    cells_wide: int | None = None
    coloured: bool = False


PLAIN = Terminal()

ChartRenderer = Callable[["Chart", "Journal | None", Terminal], str]
"""(chart, journal or None, terminal) → the whole document."""
ShowRenderer = Callable[[dict[str, Any], str, Terminal], str]
"""(what :func:`yimao_db.present.show.show` returned, the name as typed, terminal) → the
whole document."""
PartRenderer = Callable[["Chart", "Journal | None"], str]
"""(chart, journal or None) → a part of a document of the format."""

KINDS = ("chart", "show", "chart_part")
"""What a format can render: the fields of :class:`Format` after its description."""


class Format(NamedTuple):
    """One output format: its name, what it is to a browser and a file manager, a few words
    for ``--help``, and a renderer for each thing it renders (None: it does not)."""

    name: str
    media_type: str
    suffix: str
    about: str
    chart: ChartRenderer | None = None
    show: ShowRenderer | None = None
    chart_part: PartRenderer | None = None

    def renders(self, kind: str) -> bool:
        """Whether the format renders ``kind`` (one of :data:`KINDS`)."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")
        return getattr(self, kind) is not None


FORMATS: dict[str, Format] = {}
"""Every format by name, in the order registered (the first is the default)."""


def register(fmt: Format) -> Format:
    """Add ``fmt``; a name or a suffix taken already is a mistake in the code."""
    for other in FORMATS.values():
        if fmt.name == other.name or fmt.suffix == other.suffix:
            raise ValueError(f"format {fmt.name} ({fmt.suffix}) clashes with {other.name}")
    if not re.fullmatch(r"(\.[a-z0-9]+)+", fmt.suffix) or not any(fmt.renders(k) for k in KINDS):
        raise ValueError(f"format {fmt.name}: a suffix such as .txt and a renderer, please")
    FORMATS[fmt.name] = fmt
    return fmt


def rendering(kind: str) -> tuple[Format, ...]:
    """The formats that render ``kind``, in the order registered."""
    return tuple(f for f in FORMATS.values() if f.renders(kind))


def names(kind: str) -> tuple[str, ...]:
    """The names of the formats that render ``kind``, in the order registered."""
    return tuple(f.name for f in rendering(kind))


def by_suffix(suffix: str, kind: str) -> Format | None:
    """The format with this file suffix (``.md``) that renders ``kind``, or None."""
    return next((f for f in rendering(kind) if f.suffix == suffix), None)


def chart_renderer(name: str) -> ChartRenderer:
    """The chart renderer of the format ``name`` (one of ``names("chart")``)."""
    render = FORMATS[name].chart
    if render is None:
        raise ValueError(f"format {name} renders no chart")
    return render


def show_renderer(name: str) -> ShowRenderer:
    """The ``yimao show`` renderer of the format ``name`` (one of ``names("show")``)."""
    render = FORMATS[name].show
    if render is None:
        raise ValueError(f"format {name} renders no show result")
    return render


def part_renderer(name: str) -> PartRenderer:
    """The renderer of a chart as part of a document of the format ``name``."""
    render = FORMATS[name].chart_part
    if render is None:
        raise ValueError(f"format {name} renders no part of a document")
    return render


# --- text: for a terminal, a file or a pipe ----------------------------------------------------


def _text_chart(chart: Chart, journal: Journal | None, terminal: Terminal) -> str:
    from yimao_db.present.chart import render_chart

    return render_chart(chart, journal, cells_wide=terminal.cells_wide, coloured=terminal.coloured)


def _text_show(data: dict[str, Any], typed: str, terminal: Terminal) -> str:
    from yimao_db.present.show import render_show

    return render_show(data)


register(
    Format(
        "text",
        "text/plain; charset=utf-8",
        ".txt",
        "text",
        chart=_text_chart,
        show=_text_show,
    )
)


# --- markdown ------------------------------------------------------------------------------------


def _markdown_chart(chart: Chart, journal: Journal | None, terminal: Terminal) -> str:
    from yimao_db.present.chart import chart_markdown

    return chart_markdown(chart, journal)


def _markdown_show(data: dict[str, Any], typed: str, terminal: Terminal) -> str:
    from yimao_db.present.show_forms import show_markdown

    return show_markdown(data)


register(
    Format(
        "markdown",
        "text/markdown; charset=utf-8",
        ".md",
        "markdown",
        chart=_markdown_chart,
        show=_markdown_show,
    )
)


# --- html: a self-contained page -------------------------------------------------------------


def _html_chart(chart: Chart, journal: Journal | None, terminal: Terminal) -> str:
    from yimao_db.present.chart import chart_document

    return chart_document(chart, journal)


def _html_show(data: dict[str, Any], typed: str, terminal: Terminal) -> str:
    from yimao_db.present.show_forms import show_html

    return show_html(data, typed)


def _html_chart_part(chart: Chart, journal: Journal | None) -> str:
    from yimao_db.present.chart import chart_html, journal_html

    return chart_html(chart) + "\n" + journal_html(journal)


register(
    Format(
        "html",
        "text/html; charset=utf-8",
        ".html",
        "html (a self-contained page)",
        chart=_html_chart,
        show=_html_show,
        chart_part=_html_chart_part,
    )
)


# --- json: for programs ----------------------------------------------------------------------


def _json_chart(chart: Chart, journal: Journal | None, terminal: Terminal) -> str:
    import json

    from yimao_db.present.chart_json import chart_json

    return json.dumps(chart_json(chart, journal), ensure_ascii=False, indent=2) + "\n"


def _json_show(data: dict[str, Any], typed: str, terminal: Terminal) -> str:
    import json

    return json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n"


register(
    Format(
        "json",
        "application/json",
        ".json",
        "json (a chart: yimao.chart/2)",
        chart=_json_chart,
        show=_json_show,
    )
)
