"""The chart laid out as practitioners write it: a header block, then six rows from line 6
down in four columns 六神 | 伏神 | 本卦 | 變卦 (a primary line ends with its strength in the
month and its stage at the day, 旺·帝旺; a moving line's change with every transform, 化合
伏吟 反吟 too), the signs, and the journal.

One layout, three forms: :func:`render_chart` (text for a terminal: columns aligned by
display width, East Asian wide characters two cells and ambiguous ones one, consistently;
fitted to a known terminal width; coloured only when asked), :func:`chart_markdown` and
:func:`chart_html` (an HTML fragment; :func:`chart_document` wraps it in a self-contained
page with CJK-friendly fonts). Stored text (the question, notes) is escaped in every form:
control characters as ``\\x1b``, and markup in HTML and Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from yimao_db.journaling import Journal
from yimao_db.kb.vocab import CHANGE_SIGNS, MOVING_MARKS, SEASONAL, YANG_BAR, YIN_BAR
from yimao_db.present.journal_block import journal_lines
from yimao_db.present.signs import grouped, opposed, render_signs
from yimao_db.present.table import pad, terminal_text, width
from yimao_db.readings import Chart, ChartLine

LINE = {True: YANG_BAR, False: YIN_BAR}
HEADINGS = ("六神", "伏神", "本卦", "變卦")
GAP = "  "
RED, BOLD, RESET = "\x1b[31m", "\x1b[1m", "\x1b[0m"


def _marks(void: int | None, broken: int | None, clashed: int | None) -> str:
    """空 破 衝: void on the day, broken by the month, clashed by the day."""
    return "".join(mark for mark, on in (("空", void), ("破", broken), ("衝", clashed)) if on)


def _flags(line: ChartLine) -> str:
    """The primary line's 空 破 衝."""
    return _marks(line.is_void, line.is_month_break, line.is_day_clash)


def _changed_flags(line: ChartLine) -> str:
    """A moving line's change: its own 空 破 衝 (empty for a still line)."""
    return _marks(line.changed_is_void, line.changed_is_month_break, line.changed_is_day_clash)


def _transforms(chart: Chart, line: ChartLine) -> str:
    """A moving line's every transform: those of §8.14 (its ``transform``), then the signs of
    its change 化合 伏吟 反吟 that fire on it."""
    found = line.transform.split(",") if line.transform else []
    found += [s.sign for s in chart.signs if s.position == line.position and s.sign in CHANGE_SIGNS]
    return ",".join(found)


DAY_MONTH = (
    ("on", "臨"),
    ("generates", "生"),
    ("helps", "扶"),
    ("controls", "剋"),
    ("combines", "合"),
)


def _bearing(side: str, label: str, row: object) -> str:
    """日生扶 / 月剋: how the day or the month bears on a line (its flags, as the view says)."""
    found = "".join(mark for name, mark in DAY_MONTH if getattr(row, f"{side}_{name}"))
    return f"{label}{found}" if found else ""


def use_line(chart: Chart) -> str | None:
    """``用神 妻財 · 5 午火 · 旺 · 日生 · 動 化進神``: the subject's 用神 and its state; a hidden
    one as ``2 伏 甲寅木 (飛 辛亥 飛生伏)``. None when the reading names no subject."""
    if not chart.use:
        return None
    u = chart.use[0]
    where = f"{u.position} {u.ganzhi}{u.element}"
    if u.source == "hidden":
        where = f"{u.position} 伏 {u.ganzhi}{u.element} (飛 {u.fly_ganzhi} {u.fly_relation})"
    elif u.source in ("world", "response"):
        where += " 世" if u.source == "world" else " 應"
    parts = [f"用神 {u.relative}", where, u.strength]
    bearing = " ".join(b for b in (_bearing("day", "日", u), _bearing("month", "月", u)) if b)
    if bearing:
        parts.append(bearing)
    marks = _marks(u.is_void, u.is_month_break, u.is_day_clash)
    if marks:
        parts.append(marks)
    if u.is_moving:
        parts.append(" ".join(["動", *(u.transform or "").split(",")]).strip())
    if u.candidate_count > 1:
        parts.append(f"of {u.candidate_count}")
    return " · ".join(parts)


def chain_line(chart: Chart) -> str | None:
    """``原神 子孫 2 辛亥 · 忌神 兄弟 3 辛酉 · 仇神 父母 1 辛丑`` (伏 before a hidden one)."""
    if len(chart.use) < 2:
        return None
    return " · ".join(
        f"{u.role} {u.relative} {u.position}{' 伏' if u.source == 'hidden' else ''} {u.ganzhi}"
        for u in chart.use[1:]
    )


def header(chart: Chart) -> list[str]:
    """The header block: moment, question and matter, pillars (with the lodges of the sun and
    the moon when the moment has them), the hexagrams and bodies."""
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
    if chart.use:
        out.append(f"About: {chart.use[0].subject}")
        out += [line for line in (use_line(chart), chain_line(chart)) if line]
    lodges = "".join(
        f" · {name} {mansion}"
        for name, mansion in (("日纏", chart.sun_mansion), ("月麗", chart.moon_mansion))
        if mansion
    )
    out += [
        f"{pillars} · 旬空 {chart.void_branches} · 月建 {chart.month_branch}{lodges}",
        f"{title} · {chart.palace}宮 {chart.generation_name}"
        + (f" · moving {chart.moving_lines}" if chart.moving_lines else "")
        + f" · 卦身 {chart.gua_shen} · 世身 {chart.shi_shen_line}",
    ]
    bodies = (
        f"卦身 {chart.gua_shen} on line {chart.gua_shen_positions}"
        if chart.gua_shen_positions
        else f"卦身 {chart.gua_shen} 缺"
    )
    more = [bodies]
    if chart.nuclear_name:
        more.append(f"互卦 {chart.nuclear_name}")
    if chart.is_liuchong:
        more.append("六衝")
    if chart.is_liuhe:
        more.append("六合")
    if chart.najia_variant == SEASONAL:
        more.append(f"najia seasonal 二老時遷 ({chart.half_year})")
    if chart.all_moving_name:
        more.append(chart.all_moving_name)
    out.append(" · ".join(more))
    return out


def column_titles(chart: Chart) -> tuple[str, str, str, str]:
    """The four headings: the hexagrams' names with palace and generation head theirs."""
    primary = f"本卦 {chart.primary_name} {chart.palace}宮 {chart.generation_name}"
    changed = ""
    if chart.changed_name:
        changed = f"變卦 {chart.changed_name}"
        if chart.changed_palace:
            changed += f" {chart.changed_palace}宮 {chart.changed_generation_name}"
    return (HEADINGS[0], HEADINGS[1], primary, changed)


def cells(chart: Chart) -> list[tuple[list[str], list[str], list[str], list[str]]]:
    """Per row (line 6 first) the parts of each column, each part padded by the caller."""
    hidden = {h.position: h for h in chart.hidden}
    changed = {c.position: c for c in chart.changed_lines}
    # 用 原 忌 仇 on the line (or the hidden spirit) each role is
    roles = {(u.source == "hidden", u.position): u.mark for u in chart.use}
    rows = []
    for line in reversed(chart.lines):
        h = hidden.get(line.position)
        mark = "世" if line.is_world else "應" if line.is_response else ""
        primary = [
            LINE[chart.primary_bits[line.position - 1] == "1"],  # bit p-1: line p is yang
            line.relative,
            f"{line.ganzhi}{line.element}",
            mark,
            *([roles.get((False, line.position), "")] if roles else []),
            MOVING_MARKS[line.value] if line.is_moving else "",
            _flags(line),
            f"{line.strength}·{line.stage}",  # 旺相休囚死 in the month, stage at the day
        ]
        c = changed.get(line.position)
        after = []
        if c is not None:
            after = [LINE[bool(c.yang)], c.relative, f"{c.ganzhi}{c.element}"]
            after += [_changed_flags(line), _transforms(chart, line)]
        rows.append(
            (
                [line.spirit],
                [h.relative, f"{h.ganzhi}{h.element}"]
                + ([roles.get((True, h.position), "")] if roles else [])
                if h
                else [],
                primary,
                after,
            )
        )
    return rows


def _join_parts(parts: Sequence[str], widths: Sequence[int]) -> str:
    return " ".join(pad(p, w) for p, w in zip(parts, widths, strict=False)).rstrip()


def table_rows(chart: Chart) -> list[list[str]]:
    """The heading row and six rows, each four column texts with their parts aligned."""
    rows = cells(chart)
    texts: list[list[str]] = [[], [], [], [], [], []]
    for col in range(4):
        count = max(len(r[col]) for r in rows)
        widths = [
            max((width(r[col][i]) for r in rows if i < len(r[col])), default=0)
            for i in range(count)
        ]
        for i, r in enumerate(rows):
            texts[i].append(_join_parts(r[col], widths))
    return [list(column_titles(chart)), *texts]


def _align(rows: list[list[str]], columns: Sequence[int]) -> list[str]:
    widths = {c: max(width(r[c]) for r in rows) for c in columns}
    return [GAP.join(pad(r[c], widths[c]) for c in columns).rstrip() for r in rows]


def grid(chart: Chart, cells_wide: int | None = None) -> list[str]:
    """The heading and six rows as text; past ``cells_wide`` (the terminal's width) the
    變卦 column moves under the others, as a second block of six rows."""
    rows = [[terminal_text(t) for t in r] for r in table_rows(chart)]
    if not chart.changed_name:
        return _align(rows, (0, 1, 2))
    whole = _align(rows, (0, 1, 2, 3))
    if cells_wide is None or max(width(line) for line in whole) <= cells_wide:
        return whole
    return [*_align(rows, (0, 1, 2)), "", *_align(rows, (0, 3))]


def colour(lines: list[str]) -> list[str]:
    """Moving marks in red, 世 and 應 in bold (ANSI; only for a terminal that wants it)."""
    out = []
    for line in lines:
        for mark in MOVING_MARKS.values():
            line = line.replace(mark, f"{RED}{mark}{RESET}")
        for mark in (" 世 ", " 應 "):
            line = line.replace(mark, f" {BOLD}{mark.strip()}{RESET} ")
        out.append(line)
    return out


def render_chart(
    chart: Chart,
    journal: Journal | None = None,
    *,
    cells_wide: int | None = None,
    coloured: bool = False,
) -> str:
    """The chart as text: header, the six rows, the signs, the journal."""
    rows = grid(chart, cells_wide)
    if coloured:
        rows = colour(rows)
    after = render_signs(chart.signs, cells_wide) + (journal_lines(journal) if journal else [])
    lines = [terminal_text(t) for t in header(chart)] + [""] + rows
    lines += [terminal_text(t) for t in after]
    return "".join(line + "\n" for line in lines)


def md_text(text: str) -> str:
    """Text in a Markdown table cell: markup characters escaped, kept on one line."""
    text = terminal_text(text)
    for ch in "\\`*_[]<>|#":
        text = text.replace(ch, "\\" + ch)
    return text


def chart_markdown(chart: Chart, journal: Journal | None = None) -> str:
    """The same chart as Markdown: the header lines, a table of the six rows, the signs and
    the journal as a list."""
    out = [f"### {md_text(header(chart)[0])}", ""]
    out += [f"{md_text(line)}  " for line in header(chart)[1:]]
    rows = table_rows(chart)
    columns = 4 if chart.changed_name else 3
    out += ["", "| " + " | ".join(md_text(t) for t in rows[0][:columns]) + " |"]
    out.append("|" + "---|" * columns)
    out += ["| " + " | ".join(md_text(t) for t in r[:columns]) + " |" for r in rows[1:]]
    groups = grouped(chart.signs)
    if groups:
        out += ["", "Signs (line in brackets):", ""]
        for title, labels in groups:
            out.append(f"- **{title}**")
            out += [f"  - {md_text(text)}" for text in labels]
        out += [f"- **opposed** {md_text(note)}" for note in opposed(chart.signs)]
    notes = [line for line in _journal(journal) if line]
    if notes:
        out.append("")
        out += [f"- {md_text(line.strip())}" for line in notes]
    return "\n".join(out) + "\n"


def _journal(journal: Journal | None) -> list[str]:
    return journal_lines(journal) if journal else []


PARTS = (
    ("spirit",),
    ("relative", "ganzhi"),
    ("bar", "relative", "ganzhi", "mark", "moving", "marks", "strength"),
    ("bar", "relative", "ganzhi", "marks", "transform"),
)
"""What each column's cells hold, in the order :func:`cells` gives them: in HTML each cell's
classes are its column ``cN`` and its part (``c2 bar``, ``c3 transform``). A reading that
names its subject has a part ``role`` more (用 原 忌 仇) in the 伏神 and 本卦 columns:
:data:`USE_PARTS`."""
_AFTER_MARK = PARTS[2].index("mark") + 1
USE_PARTS = (  # derived, so that a part added to PARTS is added here too
    PARTS[0],
    (*PARTS[1], "role"),
    (*PARTS[2][:_AFTER_MARK], "role", *PARTS[2][_AFTER_MARK:]),
    PARTS[3],
)


def html_text(text: str) -> str:
    """Stored text in HTML: control characters as escapes, as on a terminal (``\\x1b``,
    ``\\n``), and markup escaped."""
    from html import escape  # here: a text chart need not load html's entity tables

    return escape(terminal_text(text))


def chart_html(chart: Chart) -> str:
    """The chart as an HTML fragment: a ``div.yimao-chart`` holding the header, a table of
    the six rows (line 6 first; columns 六神 伏神 本卦 變卦, each line's parts in cells of
    their own, classed by :data:`PARTS`; a moving line's row has class ``moving``) and the
    signs. Every stored text is escaped."""
    head = "".join(f"<p>{html_text(line)}</p>" for line in header(chart))
    parts_of = USE_PARTS if chart.use else PARTS
    titles = column_titles(chart)
    columns = 4 if chart.changed_name else 3
    th = "".join(
        f'<th colspan="{len(parts_of[i])}" class="c{i}">{html_text(titles[i])}</th>'
        for i in range(columns)
    )
    body = []
    for line, parts in zip(reversed(chart.lines), cells(chart), strict=True):
        tds = []
        for i in range(columns):
            got = list(parts[i]) + [""] * (len(parts_of[i]) - len(parts[i]))
            tds += [
                f'<td class="c{i} {name}">{html_text(part)}</td>'
                for name, part in zip(parts_of[i], got, strict=True)
            ]
        moving = " moving" if line.is_moving else ""
        body.append(f'<tr class="position-{line.position}{moving}">{"".join(tds)}</tr>')
    items = "".join(
        f"<li><b>{html_text(title)}</b><ul>"
        + "".join(f"<li>{html_text(text)}</li>" for text in labels)
        + "</ul></li>"
        for title, labels in grouped(chart.signs)
    ) + "".join(f"<li><b>opposed</b> {html_text(note)}</li>" for note in opposed(chart.signs))
    sign_list = f'<ul class="signs">{items}</ul>' if items else ""
    return (
        f'<div class="yimao-chart" data-reading="{chart.reading_id}">{head}'
        f'<table class="chart"><thead><tr>{th}</tr></thead><tbody>{"".join(body)}</tbody>'
        f"</table>{sign_list}</div>"
    )


FONTS = (
    '"Noto Sans CJK TC", "Noto Sans TC", "Source Han Sans TC", "PingFang TC", '
    '"Microsoft JhengHei", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif'
)
STYLE = (
    f"body{{font-family:{FONTS};margin:2em}}"
    ".yimao-chart table{border-collapse:collapse}"
    ".yimao-chart th,.yimao-chart td{padding:.15em .5em;text-align:left;white-space:nowrap}"
    ".yimao-chart tr.moving .c2{color:#b00}"
    ".yimao-chart p{margin:.2em 0}"
)


def journal_html(journal: Journal | None) -> str:
    """The journal (tags, outcome, notes) as the HTML fragment ``div.journal`` under a
    chart: in ``yimao reading --format html`` and on ``yimao serve``'s reading page. Every
    stored text is escaped."""
    notes = "".join(f"<p>{html_text(line)}</p>" for line in _journal(journal) if line)
    return f'<div class="journal">{notes}</div>'


def chart_document(chart: Chart, journal: Journal | None = None) -> str:
    """A whole self-contained HTML page of the chart (no file or network fetched), with the
    journal under it."""
    title = html_text(f"Reading {chart.reading_id} · {chart.primary_name}")
    return (
        '<!DOCTYPE html>\n<html lang="zh-Hant"><head><meta charset="utf-8">'
        f"<title>{title}</title><style>{STYLE}</style></head>"
        f"<body>{chart_html(chart)}{journal_html(journal)}</body></html>\n"
    )
