"""A reading's chart as HTML: the practitioner's layout of :mod:`yimao_db.present.chart`
(header, then the six lines from line 6 down, with 世/應, the moving marks, the changed
hexagram beside the primary one and the hidden spirits 伏神).

:func:`chart_html` is the one function the web pages call to draw a chart, so another
renderer can take its place without touching the pages.
"""

from __future__ import annotations

from html import escape

from yimao_db.present.chart import _flags as flags
from yimao_db.present.chart import render_chart
from yimao_db.readings import Chart
from yimao_db.vocab import MOVING_MARKS, YANG_BAR, YIN_BAR


def _bar(bit: str) -> str:
    yang = bit == "1"
    return f'<span class="bar {"yang" if yang else "yin"}">{YANG_BAR if yang else YIN_BAR}</span>'


def _cell(text: str | None, cls: str) -> str:
    return f'<td class="{cls}">{escape(text or "")}</td>'


def chart_html(chart: Chart) -> str:
    """The chart of ``chart`` as an HTML fragment (escaped: stored text is shown as text)."""
    # the terminal chart's header lines (moment, pillars, hexagrams), as the terminal shows them
    top = render_chart(chart).split("\n\n", 1)[0].splitlines()
    heading = "".join(f"<p>{escape(line)}</p>" for line in top)
    hidden = {h.position: h for h in chart.hidden}
    changed_head = (
        f'<th colspan="3">{escape(chart.changed_name)}</th>' if chart.changed_name else ""
    )
    rows = []
    for line in reversed(chart.lines):
        i = line.position - 1
        mark = "世" if line.is_world else "應" if line.is_response else ""
        h = hidden.get(line.position)
        cells = [
            _cell(f"伏 {h.relative} {h.ganzhi}{h.element}" if h else "", "hidden"),
            _cell(line.spirit, "spirit"),
            _cell(line.relative, "relative"),
            _cell(f"{line.ganzhi}{line.element}", "ganzhi"),
            f'<td class="line">{_bar(chart.primary_bits[i])}</td>',
            _cell(mark, "mark"),
            _cell(MOVING_MARKS.get(line.value, ""), "moving"),
            _cell(flags(line), "flags"),
        ]
        if chart.changed_bits is not None:
            changed = (
                f"{line.changed_relative} {line.changed_ganzhi}{line.changed_element}"
                if line.is_moving
                else ""
            )
            cells += [
                f'<td class="line changed">{_bar(chart.changed_bits[i])}</td>',
                _cell(changed, "changed-line"),
                _cell(line.transform if line.is_moving else "", "transform"),
            ]
        rows.append(f'<tr class="position-{line.position}">{"".join(cells)}</tr>')
    head = (
        "<tr><th>伏神</th><th>六神</th><th>六親</th><th>干支</th>"
        f'<th>{escape(chart.primary_name)}</th><th>世應</th><th colspan="2"></th>'
        f"{changed_head}</tr>"
    )
    return (
        f'<div class="yimao-chart" data-reading="{chart.reading_id}">{heading}'
        f'<table class="chart">{head}{"".join(rows)}</table></div>'
    )
