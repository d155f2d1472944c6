"""`yimao mcp --allow-writes`, spoken to with the MCP SDK's own client over stdio: it casts,
notes, records outcomes and tags, and each answer is what the command line prints for the
same data; sql still cannot write."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import run
from mcp_client import Session, stdio, texts
from test_mcp import READ_TOOLS, WRITE_TOOLS, fingerprint


@pytest.fixture(scope="module")
def server(module_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    errlog = tmp_path_factory.mktemp("mcp-writes") / "stderr.txt"
    with stdio(module_db, "--allow-writes", errlog=errlog) as session:
        yield session
        assert "Traceback" not in session.server_stderr()


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, ""), err
    return out


def test_lists_every_tool_and_says_which_write(server: Session) -> None:
    tools = {t.name: t for t in server.tools()}
    assert list(tools) == READ_TOOLS + WRITE_TOOLS
    for name, tool in tools.items():
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (name not in WRITE_TOOLS)
    assert tools["outcome"].annotations is not None
    assert tools["outcome"].annotations.destructive_hint is True
    assert tools["cast"].output_schema == tools["chart"].output_schema


def test_cast_read_the_chart_and_signs_record_an_outcome_get_stats(
    server: Session, module_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's whole round: every answer equals what the command line prints."""
    assert "cast" in [t.name for t in server.tools()]
    arguments = {
        "lines": "水火既濟之澤雷隨",
        "at": "2026-11-30T09:15",
        "question": "Will the shipment arrive?",
        "matter": "wealth",
    }
    [cast_text] = server.texts("cast", arguments)
    cast = json.loads(cast_text)
    rid = cast["reading_id"]
    assert (cast["primary_name"], cast["changed_name"], cast["matter"]) == (
        "水火既濟",
        "澤雷隨",
        "財利",
    )
    stored = cli(capsys, "reading", str(rid), "--json", "--db", module_db)
    assert cast_text == stored
    # its chart and its signs, as `yimao reading` prints them
    assert server.texts("chart", {"reading_id": rid}) == [stored]
    signs = [s["sign"] for s in server.data("chart", {"reading_id": rid})["signs"]]
    assert {"卦身缺", "間動"} <= set(signs)  # docs/signs.md's example reading
    markdown = cli(capsys, "reading", str(rid), "--format", "markdown", "--db", module_db)
    assert server.texts("chart", {"reading_id": rid, "format": "markdown"}) == [markdown]
    # the preview of the same cast is the same chart, stored nowhere
    preview = server.data("preview", arguments)
    assert {k for k in cast if cast[k] != preview[k]} == {"reading_id", "created_at"}
    # an outcome, then the stats
    answer = server.texts(
        "outcome", {"reading_id": rid, "verdict": "hit", "on": "2026-12-02", "text": "it came"}
    )
    assert answer == [f"reading {rid}: hit\n"]
    journal = json.loads(cli(capsys, "reading", str(rid), "--json", "--db", module_db))["journal"]
    assert journal["outcome"]["verdict"] == "hit" and journal["outcome"]["note"] == "it came"
    for by in ("all", "hexagram", "sign", "outcome"):
        printed = cli(capsys, "stats", "--by", by, "--json", "--db", module_db)
        assert server.texts("stats", {"by": by}) == [printed]
    overall = server.data("stats", {})["rows"][0]
    assert (overall["hit"], overall["judged"]) == (1, 1)
    assert server.texts("readings", {"outcome": "hit"}) == [
        cli(capsys, "readings", "--outcome", "hit", "--json", "--db", module_db)
    ]


def test_note_outcome_and_tag_say_what_the_commands_say(
    server: Session, module_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rid = server.data("cast", {"lines": "姤:1,4", "at": "2026-12-01T10:00"})["reading_id"]
    # the command line and the server take turns on the same reading
    printed = cli(capsys, "note", str(rid), "first", "--db", module_db)
    first = int(printed.split()[1])
    assert printed == f"note {first} added to reading {rid}\n"
    assert server.texts("note", {"reading_id": rid, "text": "second"}) == [
        f"note {first + 1} added to reading {rid}\n"
    ]
    assert server.data("note", {"reading_id": rid, "text": "third"}) == {
        "reading_id": rid,
        "note_id": first + 2,
    }
    assert cli(capsys, "outcome", str(rid), "miss", "--on", "2026-12-03", "--db", module_db) == (
        f"reading {rid}: miss\n"
    )
    result = server.call("outcome", {"reading_id": rid, "verdict": "partial", "on": "2026-12-04"})
    assert texts(result) == [f"reading {rid}: partial (replaces miss on 2026-12-03)\n"]
    assert result.structured_content == {
        "reading_id": rid,
        "verdict": "partial",
        "replaced": {"verdict": "miss", "on": "2026-12-03"},
    }
    assert cli(capsys, "tag", str(rid), "post", "--db", module_db) == f"reading {rid} tagged post\n"
    assert server.texts("tag", {"reading_id": rid, "tags": ["post", "work", "work"]}) == [
        f"reading {rid} tagged work\n"
    ]
    assert server.texts("tag", {"reading_id": rid, "tags": ["work"]}) == [
        f"reading {rid} already has every tag given\n"
    ]
    journal = server.data("chart", {"reading_id": rid})["journal"]
    assert [n["note"] for n in journal["notes"]] == ["first", "second", "third"]
    assert journal["outcome"]["verdict"] == "partial" and journal["tags"] == ["post", "work"]
    assert (
        journal
        == json.loads(cli(capsys, "reading", str(rid), "--json", "--db", module_db))["journal"]
    )


@pytest.mark.parametrize(
    ("tool", "arguments", "argv"),
    [
        ("note", {"reading_id": 999, "text": "x"}, ["note", "999", "x"]),
        ("note", {"reading_id": 1, "text": "  "}, ["note", "1", "  "]),
        (
            "outcome",
            {"reading_id": 1, "verdict": "hit", "on": "2001-01-01"},
            ["outcome", "1", "hit", "--on=2001-01-01"],
        ),
        (
            "outcome",
            {"reading_id": 1, "verdict": "hit", "on": "tomorrow"},
            ["outcome", "1", "hit", "--on=tomorrow"],
        ),
        ("tag", {"reading_id": 1, "tags": ["a,b"]}, ["tag", "1", "a,b"]),
        ("tag", {"reading_id": 1, "tags": ["two words"]}, ["tag", "1", "two words"]),
        ("cast", {"lines": "77777"}, ["cast", "77777"]),
        ("cast", {"lines": "乾", "matter": "love"}, ["cast", "乾", "--matter", "love"]),
    ],
)
def test_bad_input_writes_nothing_and_says_what_the_command_says(
    server: Session,
    module_db: str,
    capsys: pytest.CaptureFixture[str],
    tool: str,
    arguments: dict[str, Any],
    argv: list[str],
) -> None:
    server.data("cast", {"lines": "乾之姤", "at": "2026-11-30T09:15"})  # reading 1 exists
    before = fingerprint(module_db)
    message = server.call(tool, arguments)
    assert message.is_error
    code, out, err = run(capsys, *argv, "--db", module_db)
    assert (code, out) == (2, "")
    assert texts(message) == [err.strip()]
    assert fingerprint(module_db) == before


def test_a_bad_verdict_is_one_line(server: Session) -> None:
    assert server.error("outcome", {"reading_id": 1, "verdict": "maybe"}) == (
        "error: bad outcome 'maybe': expected hit, miss, partial"
    )


def test_sql_cannot_write_even_when_the_server_may(server: Session, module_db: str) -> None:
    before = fingerprint(module_db)
    for attempt in (
        "INSERT INTO reading_tag (reading_id, tag) VALUES (1, 'x')",
        "DELETE FROM reading",
        "WITH d AS (DELETE FROM reading_note RETURNING *) SELECT * FROM d",
    ):
        message = server.error("sql", {"query": attempt})  # SQLite: a DELETE in WITH is no SQL
        assert message.startswith(("error: yimao sql is read-only", "error: database: near"))
    assert fingerprint(module_db) == before


def test_yimao_cast_does_not_import_the_sdk(module_db: str) -> None:
    script = (
        "import sys\n"
        "from yimao_db.cli import main\n"
        f"assert main(['cast', '乾之姤', '--at', '2026-11-30T09:15', '--db', {module_db!r}]) == 0\n"
        f"assert main(['outcome', '1', 'hit', '--db', {module_db!r}]) == 0\n"
        f"assert main(['stats', '--db', {module_db!r}]) == 0\n"
        "loaded = [m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types'))]\n"
        "assert loaded == [], loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_read_only_server_sees_what_others_write_after_a_preview(
    module_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server's own connections keep their locks while it makes the engine preview
    writes with: a cast by another process, which then closes the database, is seen at once
    (were the locks dropped, that process would delete the -wal and -shm files the server
    reads through, and the server would go on reading what was there before)."""
    with stdio(module_db, errlog=tmp_path / "stderr.txt") as session:
        session.data("preview", {"lines": "乾之姤"})
        for lines in ("789678", "姤:1,4"):
            printed = cli(capsys, "cast", lines, "--json", "--db", module_db)
            rid = json.loads(printed)["reading_id"]
            assert session.texts("chart", {"reading_id": rid}) == [printed]
            session.data("preview", {"lines": lines})


def test_a_cast_about_a_subject_names_its_use_in_the_chart_the_prompt_and_the_stats(
    server: Session, module_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`about` (#19): the chart's 用神 and its chain, the prompt's 用神 section and `stats
    --by use` are what the command line gives for the same reading."""
    data = server.data("cast", {"lines": "789678", "at": "2026-11-30T09:15", "about": "wealth"})
    rid = data["reading_id"]
    stored = cli(capsys, "reading", str(rid), "--json", "--db", module_db)
    assert server.texts("chart", {"reading_id": rid}) == [stored]
    use = json.loads(stored)["use"]
    # 妻財 is on no line of 既濟: the 用神 is 戊午 火 hidden under line 3 (its 飛神 己亥 moves)
    assert [(u["role"], u["relative"]) for u in use] == [
        ("用神", "妻財"),
        ("原神", "子孫"),
        ("忌神", "兄弟"),
        ("仇神", "父母"),
    ]
    assert (use[0]["source"], use[0]["position"], use[0]["ganzhi"]) == ("hidden", 3, "戊午")
    [message] = server.prompt("read_chart", {"reading_id": str(rid)}).messages
    assert message.content.type == "text"
    section = message.content.text.split("## 用神\n\n", 1)[1]
    assert section.startswith("- 用神") and "戊午" in section.split("\n", 1)[0]
    printed = cli(capsys, "stats", "--by", "use", "--json", "--db", module_db)
    assert server.texts("stats", {"by": "use"}) == [printed]
    assert any(r["source"] == "hidden" for r in json.loads(printed))
