"""The registry of output formats (yimao_db/present/formats.py): each format registered
once, the commands' ``--format`` choices taken from it, and a format added by its entry
alone reaching ``yimao cast``, ``yimao reading`` and ``yimao show``."""

from __future__ import annotations

import argparse
from typing import Any

import pytest
from helpers import run

from yimao_db.cli import make_parser
from yimao_db.journaling import Journal
from yimao_db.present import formats
from yimao_db.present.formats import Format, Terminal
from yimao_db.readings import Chart

PILLARS = "甲辰,丙寅,戊戌,庚申"


def format_choices(command: str) -> tuple[str, ...]:
    parser = make_parser([command])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    option = next(a for a in sub.choices[command]._actions if "--format" in a.option_strings)
    assert option.default == "text" and option.choices is not None
    return tuple(option.choices)


def test_each_format_is_registered_once_with_what_it_renders() -> None:
    table = {
        f.name: (f.media_type, f.suffix, f.renders("chart"), f.renders("show"))
        for f in formats.FORMATS.values()
    }
    assert table == {
        "text": ("text/plain; charset=utf-8", ".txt", True, True),
        "markdown": ("text/markdown; charset=utf-8", ".md", True, True),
        "html": ("text/html; charset=utf-8", ".html", True, True),
        "json": ("application/json", ".json", True, True),
    }
    assert formats.names("chart_part") == ("html",)
    with pytest.raises(ValueError, match="clashes with markdown"):
        formats.register(
            Format("md", "text/markdown", ".md", "md", chart=formats.FORMATS["text"].chart)
        )
    with pytest.raises(ValueError, match="unknown kind"):
        formats.names("chart_page")


@pytest.mark.parametrize(
    ("command", "kind"), [("cast", "chart"), ("reading", "chart"), ("show", "show")]
)
def test_the_format_choices_come_from_the_registry(command: str, kind: str) -> None:
    assert format_choices(command) == formats.names(kind) == ("text", "markdown", "html", "json")


def _plain_chart(chart: Chart, journal: Journal | None, terminal: Terminal) -> str:
    return f"{chart.reading_id} {chart.primary_name} {len(journal.notes) if journal else '-'}\n"


def _plain_show(data: dict[str, Any], typed: str, terminal: Terminal) -> str:
    return f"{typed}: {data.get('name', '')}\n"


def test_a_format_registered_once_reaches_every_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fresh_db: str
) -> None:
    """The recipe of docs/architecture.md ("An output format"): the entry is all there is
    to wire."""
    plain = Format(
        "plain", "text/plain; charset=utf-8", ".plain", "plain", _plain_chart, _plain_show
    )
    monkeypatch.setitem(formats.FORMATS, "plain", plain)
    assert "plain" in format_choices("cast") and "plain" in format_choices("show")
    cast = run(
        capsys, "cast", "789678", "--pillars", PILLARS, "--format", "plain", "--db", fresh_db
    )
    assert cast == (0, "1 水火既濟 0\n", "")
    assert run(capsys, "note", "1", "n", "--db", fresh_db)[0] == 0
    assert run(capsys, "reading", "1", "--format", "plain", "--db", fresh_db) == (
        0,
        "1 水火既濟 1\n",
        "",
    )
    assert run(capsys, "show", "姤", "--format", "plain", "--db", fresh_db) == (
        0,
        "姤: 天風姤\n",
        "",
    )
    assert formats.by_suffix(".plain", "chart") is plain
