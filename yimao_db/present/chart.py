"""The chart laid out as practitioners write it: header, then six rows from line 6 down.

The question is stored verbatim; here it (like every other stored text) is printed through
:func:`yimao_db.present.table.terminal_layout`, so control characters show as escapes."""

from __future__ import annotations

from yimao_db.present.signs import render_signs
from yimao_db.present.table import pad, terminal_layout
from yimao_db.readings import Chart, ChartLine
from yimao_db.vocab import MOVING_MARKS, YANG_BAR, YIN_BAR

LINE = {True: YANG_BAR, False: YIN_BAR}


def _flags(line: ChartLine) -> str:
    flags = []
    if line.is_void:
        flags.append("空")
    if line.is_month_break:
        flags.append("破")
    if line.is_day_clash:
        flags.append("衝")
    return "".join(flags)


def render_chart(chart: Chart) -> str:
    when = chart.cast_at or "(pillars given directly)"
    if chart.tz:
        when += f" {chart.tz}"
    if chart.solar_term:
        when += f" · {chart.solar_term}"
    pillars = " ".join(
        f"{gz}{unit}"
        for gz, unit in (
            (chart.year_gz, "年"),
            (chart.month_gz, "月"),
            (chart.day_gz, "日"),
            (chart.hour_gz, "時"),
        )
        if gz
    )
    title = chart.primary_name
    if chart.changed_name:
        title += f" 之 {chart.changed_name}"
    out = [f"Reading {chart.reading_id} · {when}"]
    if chart.question:
        out.append(f"Question: {chart.question}")
    if chart.matter:
        out.append(f"Matter: {chart.matter}")
    out += [
        f"{pillars} · 旬空 {chart.void_branches} · 月建 {chart.month_branch}",
        f"{title} · {chart.palace}宮 {chart.generation_name}"
        + (f" · moving {chart.moving_lines}" if chart.moving_lines else "")
        + f" · 卦身 {chart.gua_shen} · 世身 {chart.shi_shen_line}",
        "",
    ]
    hidden = {h.position: h for h in chart.hidden}
    for line in reversed(chart.lines):
        mark = "世" if line.is_world else "應" if line.is_response else ""
        row = (
            f"  {line.spirit} {LINE[line.value in (7, 9)]} {line.relative} {line.ganzhi}"
            f"{line.element} {pad(mark, 2)} {pad(MOVING_MARKS.get(line.value, ''), 1)}"
            f" {pad(_flags(line), 6)}"
        )
        if line.is_moving:
            row += f" → {line.changed_relative} {line.changed_ganzhi}{line.changed_element}"
            if line.transform:
                row += f" {line.transform}"
        h = hidden.get(line.position)
        if h:
            row += f"   伏 {h.relative} {h.ganzhi}{h.element}"
        out.append(row.rstrip())
    out += render_signs(chart.signs)
    return terminal_layout(out)
