"""The registry of output formats (yimao_db/present/formats.py): each format registered
once, the commands' ``--format`` choices taken from it, and a format added by its entry
alone reaching ``yimao cast``, ``yimao reading`` and ``yimao show``."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import run

from yimao_db.cli import make_parser
from yimao_db.journaling import Journal
from yimao_db.present import formats
from yimao_db.present.formats import Format, Terminal
from yimao_db.readings import Chart

PILLARS = "甲辰,丙寅,戊戌,庚申"
ROOT = Path(__file__).resolve().parents[1]


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
    for suffix in ("txt", ".a/b", ".", ".TXT"):
        with pytest.raises(ValueError, match=r"a suffix such as \.txt"):
            formats.register(Format("x", "text/plain", suffix, "x", chart=_plain_chart))
    assert "x" not in formats.FORMATS
    with pytest.raises(ValueError, match="unknown kind"):
        formats.names("chart_page")


@pytest.mark.parametrize(
    ("command", "kind"), [("cast", "chart"), ("reading", "chart"), ("show", "show")]
)
def test_the_format_choices_come_from_the_registry(command: str, kind: str) -> None:
    assert format_choices(command) == formats.names(kind)
    assert formats.names(kind)[0] == "text"  # the default


def test_the_documents_name_every_format() -> None:
    """README's rows of cast, reading and show name every format they take; docs/browse.md
    every file suffix of /reading/ID."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command, kind in (("show", "show"), ("cast", "chart"), ("reading", "chart")):
        row = next(r for r in readme.splitlines() if r.startswith(f"| `yimao {command} "))
        named = re.search(r"--format ((?:[a-z]+\\\|)*[a-z]+)", row)
        assert named is not None and named[1].split("\\|") == list(formats.names(kind)), command
    browse = (ROOT / "docs" / "browse.md").read_text(encoding="utf-8")
    said = re.search(r"file suffix \(([^)]*)\)", browse)
    assert said is not None
    assert said[1] == ", ".join(f"`{f.suffix}`" for f in formats.rendering("chart"))


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
