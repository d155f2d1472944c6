"""``yimao show --format markdown|html``: what :func:`yimao_db.present.show.show` found, as
the same content as the text form, laid out in real tables.

Both forms are built from one list of blocks (:func:`blocks`): a block is a title, a line
of text or a table (headings and rows). A hexagram gives its header lines and a table of its
six lines from line 6 down (bar, relative, ganzhi and element, 世/應, mansion, hidden spirit);
any other name gives, per kind it names, its row, aliases and notes, and a table for each
rule or symbol table that refers to it. Markdown escapes markup in every cell; the HTML page
is self-contained (the chart's style and CJK fonts) and escapes every text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yimao_db.kb.vocab import YANG_BAR, YIN_BAR
from yimao_db.present.chart import STYLE, md_text
from yimao_db.present.show import (
    aliases_text,
    also_text,
    entity_title,
    group_caption,
    hexagram_head,
    marks,
    value_text,
)

HEXAGRAM_COLUMNS = ("line", "", "六親", "干支", "世應", "宿", "伏神")


@dataclass(frozen=True)
class Grid:
    """A table block: its headings and rows of text."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Title:
    """A heading block: the hexagram's or the entity's first line."""

    text: str


Block = str | Title | Grid


def _hexagram_blocks(data: dict[str, Any]) -> list[Block]:
    hidden = {h["position"]: h for h in data["hidden"]}
    rows = []
    for line in reversed(data["lines"]):
        h = hidden.get(line["position"])
        rows.append(
            (
                str(line["position"]),
                YANG_BAR if line["yang"] else YIN_BAR,
                line["relative"],
                f"{line['ganzhi']}{line['element']}",
                marks(line),
                line["mansion"],
                f"伏 {h['relative']} {h['ganzhi']}{h['element']}" if h else "",
            )
        )
    title, about = hexagram_head(data)
    also = also_text(data)
    return [Title(title), about, Grid(HEXAGRAM_COLUMNS, tuple(rows)), *([also] if also else [])]


def _entity_blocks(entity: dict[str, Any]) -> list[Block]:
    row = entity["row"]
    out: list[Block] = [
        Title(entity_title(entity)),
        Grid(tuple(row), (tuple(value_text(v) for v in row.values()),)),
    ]
    aliases = aliases_text(entity)
    if aliases:
        out.append(aliases)
    out += entity["notes"]
    for group in entity["related"]:
        columns = tuple(group["rows"][0])
        cells = tuple(tuple(value_text(r[c]) for c in columns) for r in group["rows"])
        out += [group_caption(group), Grid(columns, cells)]
    return out


def blocks(data: dict[str, Any]) -> list[Block]:
    """The blocks of what :func:`yimao_db.present.show.show` returned."""
    if data.get("kind") == "hexagram":
        return _hexagram_blocks(data)
    return [block for entity in data["entities"] for block in _entity_blocks(entity)]


def show_markdown(data: dict[str, Any]) -> str:
    """Markdown: titles as headings, text blocks as paragraphs, tables as pipe tables."""
    out: list[str] = []
    for block in blocks(data):
        if isinstance(block, Title):
            out.append(f"### {md_text(block.text)}")
        elif isinstance(block, Grid):
            out += [
                "| " + " | ".join(md_text(c) for c in block.columns) + " |",
                "|" + "---|" * len(block.columns),
                *("| " + " | ".join(md_text(c) for c in row) + " |" for row in block.rows),
            ]
        else:
            out.append(md_text(block))
        out.append("")
    return "\n".join(out)


def show_html(data: dict[str, Any], title: str) -> str:
    """A whole self-contained HTML page of the same blocks."""
    from html import escape  # here: the text form need not load html's entity tables

    parts = []
    for block in blocks(data):
        if isinstance(block, Title):
            parts.append(f"<h2>{escape(block.text)}</h2>")
        elif isinstance(block, Grid):
            head = "".join(f"<th>{escape(c)}</th>" for c in block.columns)
            body = "".join(
                "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
                for row in block.rows
            )
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        else:
            parts.append(f"<p>{escape(block)}</p>")
    return (
        '<!DOCTYPE html>\n<html lang="zh-Hant"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
        f'<body><div class="yimao-chart">{"".join(parts)}</div></body></html>\n'
    )
