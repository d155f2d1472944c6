"""`yimao mcp` without --allow-writes, spoken to with the MCP SDK's own client: the tools it
lists, each tool's answer against what the command line prints for the same reading, the
resources and the prompt, bad input as one line, and nothing written by any tool, on the
backend under test. One server serves the module (stdio); one test speaks HTTP."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import ENDLESS, rows, run
from jsonschema import Draft202012Validator
from mcp.shared.exceptions import MCPError
from mcp_client import Session, command, environment, http, stdio, texts
from mcp_types import INVALID_PARAMS
from sqlalchemy import create_engine, inspect, text

from yimao_db.db import reader_engine, resolve_url
from yimao_db.readings import cast

CASTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("乾之姤", {"at": "2026-11-30T09:15", "question": "Will the parcel come?"}),
    ("姤:1,4", {"at": "2026-12-01T10:00", "matter": "wealth"}),
)
READ_TOOLS = ["show", "chart", "preview", "readings", "stats", "passages", "sql", "schema"]
WRITE_TOOLS = ["cast", "note", "outcome", "tag"]


def fingerprint(db: str) -> dict[str, Any]:
    """Everything stored: every table's rows, and what a write would move besides (SQLite's
    header counters and schema; PostgreSQL's sequences)."""
    engine = reader_engine(db)
    found: dict[str, Any] = {}
    try:
        with engine.connect() as conn:
            for table in sorted(inspect(conn).get_table_names()):
                rows = conn.execute(text(f'SELECT * FROM "{table}"'))
                found[table] = sorted(repr(tuple(r)) for r in rows)
            if conn.dialect.name == "sqlite":
                for pragma in ("user_version", "application_id", "schema_version"):
                    found[pragma] = conn.execute(text(f"PRAGMA {pragma}")).scalar()
                found["schema"] = sorted(
                    conn.execute(text("SELECT type, name, sql FROM sqlite_master")).all()
                )
            else:
                found["sequences"] = sorted(
                    conn.execute(text("SELECT sequencename, last_value FROM pg_sequences")).all()
                )
    finally:
        engine.dispose()
    return found


@pytest.fixture(scope="module")
def database(module_db: str) -> str:
    for lines, kwargs in CASTS:
        cast(lines, db=module_db, **kwargs)
    from yimao_db.journaling import add_note, record_outcome, tag

    add_note(1, "the parcel left the depot", db=module_db)
    record_outcome(1, "hit", on="2026-12-02", note="it came", db=module_db)
    tag(1, ["post", "work"], db=module_db)
    return module_db


@pytest.fixture(scope="module")
def before(database: str) -> dict[str, Any]:
    return fingerprint(database)


@pytest.fixture(scope="module")
def server(
    database: str, before: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:
    errlog = tmp_path_factory.mktemp("mcp") / "stderr.txt"
    with stdio(database, errlog=errlog) as session:
        yield session


def where(db: str) -> str:
    url = resolve_url(db)
    return db if url.get_backend_name() == "sqlite" else url.render_as_string(hide_password=True)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, ""), err
    return out


def cli_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), out
    return err.strip()


# --- what it offers ------------------------------------------------------------------------------


def test_lists_the_read_tools_with_their_schemas_and_no_tool_that_writes(
    server: Session, database: str
) -> None:
    assert server.server_stderr().startswith(
        f"serving MCP on standard input and output (read-only, {where(database)})\n"
    )
    tools = server.tools()
    assert [t.name for t in tools] == READ_TOOLS
    for tool in tools:
        assert tool.description and tool.input_schema["type"] == "object"
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        Draft202012Validator.check_schema(tool.input_schema)
        Draft202012Validator.check_schema(tool.output_schema)
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
    chart = next(t for t in tools if t.name == "chart")
    contract = json.loads((Path(__file__).parents[1] / "docs" / "chart.schema.json").read_text())
    assert chart.output_schema == contract


def test_resources_and_the_prompt_are_listed(server: Session) -> None:
    assert [r.uri for r in server.resources()] == [
        "yimao://schema",
        "yimao://docs/signs.md",
        "yimao://docs/chart.schema.json",
    ]
    assert [t.uri_template for t in server.templates()] == ["yimao://schema/{table}"]
    [prompt] = server.prompts()
    assert prompt.name == "read_chart"
    assert [(a.name, a.required) for a in prompt.arguments or []] == [("reading_id", True)]


# --- each tool against the command line ----------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "argv"),
    [
        ({"name": "姤"}, ["show", "姤"]),
        ({"name": "青龙"}, ["show", "青龙"]),
        ({"name": "qian", "kind": "trigram"}, ["show", "qian", "--kind", "trigram"]),
        ({"name": "44", "format": "markdown"}, ["show", "44"]),
    ],
)
def test_show_answers_as_the_command_line(
    server: Session,
    database: str,
    capsys: pytest.CaptureFixture[str],
    arguments: dict[str, Any],
    argv: list[str],
) -> None:
    fmt = arguments.get("format", "json")
    [shown] = server.texts("show", arguments)
    assert shown == cli(capsys, *argv, "--format", fmt, "--db", database)
    printed = cli(capsys, *argv, "--json", "--db", database)
    assert server.data("show", arguments) == json.loads(printed)


@pytest.mark.parametrize("reading", [1, 2])
def test_the_chart_is_the_stored_chart_as_yimao_reading_prints_it(
    server: Session, database: str, capsys: pytest.CaptureFixture[str], reading: int
) -> None:
    printed = cli(capsys, "reading", str(reading), "--json", "--db", database)
    [as_json] = server.texts("chart", {"reading_id": reading})
    assert as_json == printed
    assert server.data("chart", {"reading_id": reading}) == json.loads(printed)
    [markdown] = server.texts("chart", {"reading_id": reading, "format": "markdown"})
    assert markdown == cli(
        capsys, "reading", str(reading), "--format", "markdown", "--db", database
    )
    data = json.loads(printed)
    assert data["signs"] and all(s["passage"] or s["basis"] for s in data["signs"])
    if reading == 1:
        assert data["journal"]["outcome"]["verdict"] == "hit"
        assert data["journal"]["tags"] == ["post", "work"]


def test_preview_is_the_chart_a_cast_gives_without_storing_it(
    server: Session, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same inputs as reading 1: the same chart but for the id (0), the time it was
    made and the journal; nothing stored."""
    lines, kwargs = CASTS[0]
    result = server.call("preview", {"lines": lines, **kwargs})
    assert not result.is_error
    preview = result.structured_content
    stored = json.loads(cli(capsys, "reading", "1", "--json", "--db", database))
    assert preview["reading_id"] == 0
    assert preview["journal"] == {"notes": [], "outcome": None, "tags": []}
    differ = {k for k in stored if stored[k] != preview[k]}
    assert differ == {
        "reading_id",
        "created_at",
        "journal",
        "outcome",
        "outcome_on",
        "note_count",
        "tag_count",
    }
    assert texts(result)[1].startswith("note: a preview, stored nowhere (reading id 0)")


def test_preview_with_a_date_alone_notes_the_time_taken(server: Session) -> None:
    texts = server.texts("preview", {"lines": "789678", "at": "2026-11-30"})
    assert texts[1].startswith("note: no time given")
    assert json.loads(texts[0])["cast_at"] == "2026-11-30T00:00:00+08:00"


@pytest.mark.parametrize(
    ("arguments", "argv"),
    [
        ({}, []),
        ({"hexagram": "乾", "tag": "post"}, ["--hexagram", "乾", "--tag", "post"]),
        ({"outcome": "none", "moving": 2}, ["--outcome", "none", "--moving", "2"]),
        ({"search": "PARCEL", "limit": 1}, ["--search", "PARCEL", "--limit", "1"]),
        ({"all": True, "matter": "財利"}, ["--all", "--matter", "財利"]),
        (
            {"since": "2026-12-01", "until": "2026-12-01"},
            ["--since=2026-12-01", "--until=2026-12-01"],
        ),
    ],
)
def test_readings_answers_as_yimao_readings_json(
    server: Session,
    database: str,
    capsys: pytest.CaptureFixture[str],
    arguments: dict[str, Any],
    argv: list[str],
) -> None:
    printed = cli(capsys, "readings", *argv, "--json", "--db", database)
    [shown] = server.texts("readings", arguments)
    assert shown == printed
    assert server.data("readings", arguments) == {"readings": json.loads(printed)}


@pytest.mark.parametrize("by", ["all", "hexagram", "changed", "sign", "outcome"])
def test_stats_answers_as_yimao_stats_json(
    server: Session, database: str, capsys: pytest.CaptureFixture[str], by: str
) -> None:
    printed = cli(capsys, "stats", "--by", by, "--json", "--db", database)
    assert server.texts("stats", {"by": by}) == [printed]
    assert server.data("stats", {"by": by}) == {"by": by, "rows": json.loads(printed)}


def test_sql_answers_as_yimao_sql_json(
    server: Session, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    query = "SELECT king_wen, name, palace FROM v_hexagram WHERE palace = :p ORDER BY king_wen"
    printed = cli(capsys, "sql", query, "-p", "p=乾", "--json", "--db", database)
    assert server.texts("sql", {"query": query, "params": {"p": "乾"}}) == [printed]
    data = server.data("sql", {"query": query, "params": {"p": "乾"}})
    assert data == {
        "columns": ["king_wen", "name", "palace"],
        "rows": json.loads(printed),
        "truncated": False,
    }
    numbers = server.data(
        "sql", {"query": "SELECT :n + 1 AS m, :x * 2 AS y", "params": {"n": 41, "x": 1.5}}
    )
    assert numbers["rows"] == [{"m": 42, "y": 3.0}]


def test_sql_keeps_the_row_limit_of_yimao_sql(server: Session) -> None:
    """As yimao sql's table: at most 10000 rows, and a note says so."""
    query = (
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10005) "
        "SELECT i FROM n"
    )
    result = server.call("sql", {"query": query})
    assert not result.is_error
    assert result.structured_content["truncated"] is True
    assert len(result.structured_content["rows"]) == 10000
    assert texts(result)[1].startswith("note: showing the first 10000 rows")


@pytest.mark.parametrize("table", [None, "reading", "V_READING_SIGN"])
def test_schema_answers_as_yimao_schema_json(
    server: Session, database: str, capsys: pytest.CaptureFixture[str], table: str | None
) -> None:
    argv = ["schema", *([table] if table else []), "--json", "--db", database]
    printed = cli(capsys, *argv)
    arguments = {} if table is None else {"table": table}
    assert server.texts("schema", arguments) == [printed]
    data = server.data("schema", arguments)
    if table is None:
        assert data == {"tables": json.loads(printed)}
    else:
        assert data["columns"] == json.loads(printed)
        assert data["table"]["name"] == table.lower()


def test_passages_by_number_chapter_and_name(server: Session, database: str) -> None:
    engine = reader_engine(database)
    with engine.connect() as conn:
        cited = conn.execute(
            text("SELECT COUNT(*) FROM v_passage_citation WHERE passage = '8.14'")
        ).scalar_one()
        theory = conn.execute(
            text("SELECT id, note FROM source_passage WHERE coverage = 'theory' ORDER BY id")
        ).first()
        chapter_8 = conn.execute(
            text("SELECT COUNT(*) FROM source_passage WHERE chapter_no = 8")
        ).scalar_one()
        every = conn.execute(text("SELECT COUNT(*) FROM source_passage")).scalar_one()
    engine.dispose()
    [one] = server.data("passages", {"query": "§8.14"})["passages"]
    assert (one["passage"], one["chapter"], one["coverage"]) == ("8.14", "世應章第八", "encoded")
    assert one["citations"] == cited == sum(t["rows"] for t in one["cited_by"])
    assert server.data("passages", {"query": "8.14"})["passages"] == [one]
    assert len(server.data("passages", {"query": "§8"})["passages"]) == chapter_8
    assert len(server.data("passages", {})["passages"]) == every
    assert theory is not None
    [note] = server.data("passages", {"query": theory[0]})["passages"]
    assert (note["coverage"], note["note"], note["citations"]) == ("theory", theory[1], 0)
    # a name: the sign 世空 is cited at §8.14; 青龙 is 青龍 (§7.5 among others)
    by_sign = server.data("passages", {"query": "世空"})["passages"]
    assert "8.14" in [p["passage"] for p in by_sign]
    assert {"table": "sign", "row_key": "世空", "basis": "book"} in next(
        p["matched"] for p in by_sign if p["passage"] == "8.14"
    )
    spirit = server.data("passages", {"query": "青龙"})["passages"]
    assert "7.5" in [p["passage"] for p in spirit]
    assert all("青龍" in m["row_key"].split("|") for p in spirit for m in p["matched"])


# --- resources and the prompt --------------------------------------------------------------------


def test_resources_are_the_schema_docs_and_the_signs(
    server: Session, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = Path(__file__).parents[1] / "docs"
    schema = server.read("yimao://schema")
    assert (schema.mime_type, schema.text) == (
        "text/markdown",
        cli(capsys, "schema", "--markdown", "--db", database),
    )
    one = server.read("yimao://schema/v_reading_sign")
    assert one.text == cli(capsys, "schema", "v_reading_sign", "--markdown", "--db", database)
    signs = server.read("yimao://docs/signs.md")
    assert signs.text == (root / "signs.md").read_text(encoding="utf-8")
    contract = server.read("yimao://docs/chart.schema.json")
    assert json.loads(contract.text) == json.loads((root / "chart.schema.json").read_text())


def test_the_prompt_lays_out_the_chart_its_signs_and_meanings(
    server: Session, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result = server.prompt("read_chart", {"reading_id": "1"})
    [message] = result.messages
    assert message.role == "user" and message.content.type == "text"
    body = message.content.text
    assert cli(capsys, "reading", "1", "--format", "markdown", "--db", database).rstrip() in body
    chart = json.loads(cli(capsys, "reading", "1", "--json", "--db", database))
    engine = reader_engine(database)
    with engine.connect() as conn:
        meanings = dict(conn.execute(text("SELECT name, meaning FROM sign")).tuples().all())
    engine.dispose()
    for sign in chart["signs"]:
        row = next(line for line in body.splitlines() if line.startswith(f"| {sign['sign']} |"))
        cite = f"§{sign['passage']}" if sign["passage"] else f"{sign['basis']}, no passage"
        assert meanings[sign["sign"]] in row and cite in row
    assert "## 用神" not in body  # reading 1 is about no subject (test_mcp_writes has one)
    assert "§chapter.passage" in body.split("## What to do", 1)[1]


@pytest.mark.parametrize(
    ("ask", "message"),
    [
        (
            ("read", "yimao://nothing"),
            "error: unknown resource 'yimao://nothing': expected "
            "yimao://schema, yimao://docs/signs.md, yimao://docs/chart.schema.json, "
            "yimao://schema/{table}",
        ),
        (("read", "yimao://schema/nowhere"), "error: unknown table or view 'nowhere': expected"),
        (("prompt", {"reading_id": "99"}), "error: no reading with id 99"),
        (("prompt", {"reading_id": "x"}), "error: bad reading id 'x': expected a whole number"),
        (("prompt", {}), "error: read_chart needs the argument reading_id"),
        (("prompt", {"reading_id": "1", "n": "2"}), "error: read_chart takes no argument 'n'"),
    ],
)
def test_a_bad_resource_or_prompt_is_a_protocol_error_in_the_command_lines_words(
    server: Session, ask: tuple[str, Any], message: str
) -> None:
    """The protocol gives resources and prompts no error result: the JSON-RPC error carries
    the line the command line would print."""
    kind, what = ask
    with pytest.raises(MCPError) as caught:
        if kind == "read":
            server.read(what)
        else:
            server.prompt("read_chart", what)
    assert caught.value.code == INVALID_PARAMS
    assert caught.value.message.startswith(message)
    assert "\n" not in caught.value.message


# --- refusals and bad input ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("cast", {"lines": "乾之姤"}),
        ("note", {"reading_id": 1, "text": "x"}),
        ("outcome", {"reading_id": 1, "verdict": "miss"}),
        ("tag", {"reading_id": 1, "tags": ["x"]}),
    ],
)
def test_a_tool_that_writes_is_refused_by_name(
    server: Session, tool: str, arguments: dict[str, Any]
) -> None:
    message = server.error(tool, arguments)
    assert message.startswith(
        f"error: the {tool} tool writes to the database, and this server "
        "is read-only: nothing was written"
    )
    assert "yimao mcp --allow-writes" in message


@pytest.mark.parametrize(
    ("tool", "arguments", "argv"),
    [
        ("chart", {"reading_id": 99}, ["reading", "99"]),
        ("chart", {"reading_id": "abc"}, ["reading", "abc"]),
        ("chart", {"reading_id": 0}, ["reading", "0"]),
        ("show", {"name": "nonsense"}, ["show", "nonsense"]),
        ("show", {"name": "qian"}, ["show", "qian"]),
        ("show", {"name": "乾", "kind": "spirit"}, ["show", "乾", "--kind", "spirit"]),
        ("preview", {"lines": "777"}, ["cast", "777"]),
        ("preview", {"lines": "乾", "at": "yesterday"}, ["cast", "乾", "--at", "yesterday"]),
        ("preview", {"lines": "乾", "tz": "Mars/Olympus"}, ["cast", "乾", "--tz", "Mars/Olympus"]),
        ("preview", {"lines": "乾", "matter": "love"}, ["cast", "乾", "--matter", "love"]),
        ("preview", {"lines": "乾", "question": "a\x00b"}, ["cast", "乾", "--question", "a\x00b"]),
        ("readings", {"since": "2026-13-01"}, ["readings", "--since", "2026-13-01"]),
        ("readings", {"tag": "nope"}, ["readings", "--tag", "nope"]),
        ("readings", {"hexagram": "xyz"}, ["readings", "--hexagram", "xyz"]),
        ("readings", {"moving": "7"}, ["readings", "--moving", "7"]),
        ("sql", {"query": "DELETE FROM reading"}, ["sql", "DELETE FROM reading"]),
        ("sql", {"query": "SELECT 1; SELECT 2"}, ["sql", "SELECT 1; SELECT 2"]),
        ("sql", {"query": "SELECT :x"}, ["sql", "SELECT :x"]),
        ("sql", {"query": "SELECT * FROM nowhere"}, ["sql", "SELECT * FROM nowhere"]),
        ("schema", {"table": "nowhere"}, ["schema", "nowhere"]),
    ],
)
def test_bad_input_is_the_command_lines_error_line(
    server: Session,
    database: str,
    capsys: pytest.CaptureFixture[str],
    tool: str,
    arguments: dict[str, Any],
    argv: list[str],
) -> None:
    """The same words as the command line (which, given bad input, writes nothing)."""
    assert server.error(tool, arguments) == cli_error(capsys, *argv, "--db", database)


def test_a_number_is_shown_as_given(server: Session) -> None:
    assert server.error("readings", {"moving": 7}) == (
        "error: bad --moving 7: expected a number of lines from 0 to 6"
    )


HOSTILE: list[Any] = [
    None,
    True,
    3,
    -1,
    1.5,
    "",
    " ",
    "x" * 100_000,
    [],
    ["a"],
    {},
    {"a": 1},
    "\x00",
    "١٢",
    2**70,
]


@pytest.mark.parametrize("tool", READ_TOOLS + WRITE_TOOLS)
def test_hostile_arguments_get_one_line_never_a_traceback(server: Session, tool: str) -> None:
    """Every argument of every tool given every kind of JSON value, and arguments it does not
    take: an answer, or a tool error of one line ``error: …``, never a protocol failure."""
    schema = next((t.input_schema for t in server.tools() if t.name == tool), None)
    names = list(schema["properties"]) if schema else ["lines", "reading_id"]
    for name in [*names, "bogus"]:
        for value in HOSTILE:
            result = server.call(tool, {name: value})
            text_ = "\n".join(texts(result))
            if result.is_error:
                assert text_.startswith("error: ") and "\n" not in text_, (name, value, text_)
                assert "Traceback" not in text_ and "internal error" not in text_
    assert "Traceback" not in server.server_stderr()


# --- nothing written -----------------------------------------------------------------------------


def test_sql_cannot_write_on_this_backend(server: Session, database: str) -> None:
    backend = resolve_url(database).get_backend_name()
    attempts = [
        "INSERT INTO reading_tag (reading_id, tag) VALUES (1, 'x')",
        "WITH d AS (DELETE FROM reading_tag RETURNING *) SELECT * FROM d",
        "UPDATE reading SET question = 'changed'",
        "DROP TABLE reading_tag",
    ]
    if backend == "sqlite":
        attempts += ["PRAGMA user_version = 7", "SELECT * FROM pragma_user_version(7)"]
    else:
        attempts += [
            "SELECT nextval('reading_id_seq')",
            "SELECT set_config('default_transaction_read_only', 'off', false)",
            "SELECT pg_advisory_lock(1)",
        ]
    for attempt in attempts:
        message = server.error("sql", {"query": attempt})
        assert message.startswith("error: ") and "\n" not in message, (attempt, message)


def test_nothing_was_written_by_any_tool(
    server: Session, database: str, before: dict[str, Any]
) -> None:
    """After every test above (the fixtures run them first in this module's order) and one
    more call of each tool: every table, counter and sequence as it was."""
    for name in READ_TOOLS + WRITE_TOOLS:
        server.call(
            name,
            {
                "reading_id": 1,
                "lines": "乾之姤",
                "text": "x",
                "verdict": "miss",
                "tags": ["x"],
                "query": "SELECT 1",
                "name": "乾",
            },
        )
    server.call("preview", {"lines": "姤:1,4", "question": "q", "matter": "worry"})
    server.call("cast", {"lines": "姤:1,4"})
    assert fingerprint(database) == before


# --- the transports, the command, the imports ----------------------------------------------------


def test_an_assistant_of_the_2025_protocol_is_served_too(database: str, tmp_path: Path) -> None:
    with stdio(database, errlog=tmp_path / "stderr.txt", mode="legacy") as session:
        assert session.client.protocol_version == "2025-11-25"
        assert [t.name for t in session.tools()] == READ_TOOLS
        assert session.data("chart", {"reading_id": 2})["primary_name"] == "天風姤"


def test_streamable_http_on_loopback(database: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The same answers over HTTP; a request naming another host than loopback is refused
    (DNS rebinding: a page elsewhere cannot reach the server by a name of its own); SIGTERM
    stops the server."""
    import httpx

    with http(database) as (session, proc, printed):
        assert printed[0].startswith("serving MCP at http://127.0.0.1:")
        assert printed[0].rstrip().endswith(f"/mcp (read-only, {where(database)}; Ctrl-C stops)")
        assert [t.name for t in session.tools()] == READ_TOOLS
        [shown] = session.texts("chart", {"reading_id": 1})
        assert shown == cli(capsys, "reading", "1", "--json", "--db", database)
        assert session.error("chart", {"reading_id": 99}) == "error: no reading with id 99"
        url = printed[0].split(" at ", 1)[1].split()[0]
        answer = httpx.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            headers={"Host": "evil.example", "Accept": "application/json, text/event-stream"},
            timeout=30,
        )
        assert answer.status_code == 421
    # uvicorn shuts down, then lets SIGTERM end the process as it would have
    assert proc.returncode == -signal.SIGTERM
    assert not [line for line in printed if "Traceback" in line or "error" in line.lower()]
    with pytest.raises(httpx.HTTPError):
        httpx.post(url, json={}, timeout=5)


@pytest.mark.parametrize("gap", [None, 0.002, 0.02])
def test_ctrl_c_stops_the_http_server_in_one_line(database: str, gap: float | None) -> None:
    """Ctrl-C, or two at once (a key held down), with an assistant's session open:
    `interrupted`, exit 130, nothing else. With the session manager run as the app's
    lifespan task, uvicorn cancelled it at the second Ctrl-C and logged its traceback."""
    with http(database) as (session, proc, printed):
        assert session.data("chart", {"reading_id": 2})["primary_name"] == "天風姤"
        proc.send_signal(signal.SIGINT)
        if gap is not None:
            time.sleep(gap)
            proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    assert printed[1:] == ["interrupted\n"]


@pytest.mark.parametrize("gap", [0.002, 0.1])
def test_ctrl_c_twice_with_an_event_stream_open(database: str, gap: float) -> None:
    """Two Ctrl-Cs while an assistant holds the session's event stream (GET) open: one
    line, exit 130. The sessions' task group wrapped the second Ctrl-C in an exception
    group (exit 1, a traceback) and uvicorn logged the stream it cut short."""
    import httpx

    with http(database) as (_session, proc, printed):
        url = printed[0].split(" at ", 1)[1].split()[0]
        accept = {"Accept": "application/json, text/event-stream"}
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}}
        hello["clientInfo"] = {"name": "test", "version": "1"}
        answer = httpx.post(
            url,
            headers=accept,
            timeout=30,
            json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        )
        headers = {
            "Mcp-Session-Id": answer.headers["mcp-session-id"],
            "Accept": "text/event-stream",
        }
        headers["MCP-Protocol-Version"] = "2025-06-18"
        opened = threading.Event()

        def listen() -> None:
            try:
                with httpx.stream("GET", url, headers=headers, timeout=60) as stream:
                    opened.set()
                    for _ in stream.iter_lines():
                        pass
            except httpx.HTTPError:
                pass

        threading.Thread(target=listen, daemon=True).start()
        assert opened.wait(timeout=30)
        proc.send_signal(signal.SIGINT)
        time.sleep(gap)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    assert printed[1:] == ["interrupted\n"]


# counts without end: only an interruption (or its time limit) stops it
COUNTING = ENDLESS.format("count(*) FROM r")


def test_ctrl_c_stops_a_sql_call_in_flight_over_http(database: str) -> None:
    """The query is interrupted, as `yimao sql`'s is: the server ended with the query, or
    at its time limit (here 120 s)."""
    with http(database) as (session, proc, printed):
        answers: list[bool] = []
        call = threading.Thread(
            target=lambda: answers.append(
                session.call("sql", {"query": COUNTING, "timeout": 120}).is_error
            ),
            daemon=True,
        )
        call.start()
        call.join(timeout=1)  # the query is running
        assert call.is_alive()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    assert printed[1:] == ["interrupted\n"]


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far (its threads' user and system time)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def counting(database: str, pid: int) -> bool:
    """Whether the server ``pid`` runs COUNTING in the next two seconds: SQLite's query
    keeps the server's process busy (a core, about, while it runs: more than 15 % of the two
    seconds); PostgreSQL's is an active fetch from the cursor of `yimao sql`'s query in the
    database at some look."""
    if resolve_url(database).get_backend_name() == "sqlite":
        before = cpu_seconds(pid)
        time.sleep(2)
        return cpu_seconds(pid) - before > 0.3
    active = text(  # not autovacuum's, which is active in the database now and then
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND state = 'active' AND backend_type = 'client backend'"
        " AND query LIKE 'FETCH %yimao_sql%'"
    )
    engine = reader_engine(database)
    try:
        with engine.connect() as conn:
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                if conn.execute(active).scalar():
                    return True
                conn.rollback()  # a new snapshot of the activity at the next look
                time.sleep(0.05)
    finally:
        engine.dispose()
    return False


def test_an_assistant_cancelling_a_sql_call_stops_its_query(database: str) -> None:
    """The SDK's client gives up on a call (the caller cancels it) and tells the server
    (`notifications/cancelled`): the query stops there, where it ran on, a core busy, to
    its time limit (here 120 s); the server serves on."""
    with http(database) as (session, proc, _printed):

        async def give_up() -> None:
            with anyio.move_on_after(4):
                await session.client.call_tool("sql", {"query": COUNTING, "timeout": 120})

        call = threading.Thread(target=lambda: session.portal.call(give_up), daemon=True)
        call.start()
        time.sleep(0.5)
        assert counting(database, proc.pid)  # within the four seconds
        call.join(timeout=60)
        time.sleep(0.5)  # the cancellation's message on its way, the query polled
        assert not counting(database, proc.pid)
        assert session.data("sql", {"query": "SELECT 1 AS one"})["rows"] == [{"one": 1}]


def test_a_sql_call_cancelled_on_stdio_stops(database: str) -> None:
    """`notifications/cancelled` as an assistant sends it on stdio: the query stops, no
    answer is sent for the call, and the next request is answered."""
    proc = stdio_process(database)
    try:
        call = {"name": "sql", "arguments": {"query": COUNTING, "timeout": 120}}
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "ping"})
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["id"] == 3  # serving, the call running
        assert counting(database, proc.pid)
        cancel = {"requestId": 2, "reason": "the user pressed stop"}
        send(proc, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        time.sleep(0.5)
        assert not counting(database, proc.pid)
        send(proc, {"jsonrpc": "2.0", "id": 4, "method": "ping"})
        assert json.loads(proc.stdout.readline()) == {"jsonrpc": "2.0", "id": 4, "result": {}}
    finally:
        proc.kill()
        proc.wait()


def stdio_process(
    database: str, *args: str, ignoring_ctrl_c: bool = False
) -> subprocess.Popen[str]:
    """``yimao mcp`` on stdio spoken to by hand (the SDK's client does not show its
    process), past the initialization; started with SIGINT ignored, as a shell starts a
    command in the background."""
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignoring_ctrl_c else None
    proc = subprocess.Popen(
        command(database, *args),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
        preexec_fn=ignore,
    )
    assert proc.stdin is not None and proc.stdout is not None
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}}
    hello["clientInfo"] = {"name": "test", "version": "1"}
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
    assert json.loads(proc.stdout.readline())["id"] == 1
    send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    return proc


def send(proc: subprocess.Popen[str], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


@contextmanager
def write_lock(database: str) -> Iterator[None]:
    """Another session holds the lock a cast needs while inside: SQLite's write lock on the
    file, or PostgreSQL's lock on the table of readings."""
    if resolve_url(database).get_backend_name() == "sqlite":
        holder = sqlite3.connect(database, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            yield
            holder.execute("ROLLBACK")
        finally:
            holder.close()
        return
    engine = create_engine(resolve_url(database))
    try:
        with engine.begin() as conn:
            conn.execute(text("LOCK TABLE reading IN ACCESS EXCLUSIVE MODE"))
            yield
    finally:
        engine.dispose()


def readings_stored(database: str) -> int:
    [(stored,)] = rows(database, "SELECT count(*) FROM reading")
    return int(stored)


def test_a_cast_cancelled_while_it_waits_for_a_lock_is_not_stored(fresh_db: str) -> None:
    """The assistant gives up on a `cast` that waits for another session's lock: once the
    lock is released the cast goes on, but does not commit. It was stored then, after the
    assistant had been told nothing (the SDK cancels the handler, not its worker thread)."""
    proc = stdio_process(fresh_db, "--allow-writes")
    try:
        arguments = {"lines": "乾之姤", "at": "2026-11-30T09:15"}
        call = {"name": "cast", "arguments": arguments}
        cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}
        with write_lock(fresh_db):
            send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
            time.sleep(1)  # the cast waits for the lock
            send(proc, cancel)
            time.sleep(0.5)
        deadline = time.monotonic() + 5  # the cast has the lock at once, then it is over
        while time.monotonic() < deadline:
            assert readings_stored(fresh_db) == 0
            time.sleep(0.1)
        arguments["question"] = "not cancelled"
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call})
        assert proc.stdout is not None
        answer = json.loads(proc.stdout.readline())  # nothing for the cancelled call before it
        assert answer["id"] == 3 and not answer["result"]["isError"]
        assert readings_stored(fresh_db) == 1
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("busy", [False, True])
def test_ctrl_c_stops_the_stdio_server_with_the_assistant_still_there(
    database: str, busy: bool
) -> None:
    """Ctrl-C while the assistant keeps standard input open, idle or with a `sql` call in
    flight: `interrupted`, exit 130. The SDK's reader of standard input, a worker thread
    the process waited for, kept the server until the assistant sent a line or left."""
    proc = stdio_process(database)
    try:
        if busy:
            call = {"name": "sql", "arguments": {"query": COUNTING, "timeout": 120}}
            send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "ping"})
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["id"] == 3  # serving, the call running
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        assert proc.stderr is not None
        assert proc.stderr.read().splitlines()[1:] == ["interrupted"]
    finally:
        proc.kill()
        proc.wait()


def test_a_stdio_server_started_ignoring_ctrl_c_keeps_ignoring_it(database: str) -> None:
    """A SIGINT the server was started ignoring stays ignored, as for every command: it
    serves on, and ends when the assistant leaves."""
    proc = stdio_process(database, ignoring_ctrl_c=True)
    try:
        proc.send_signal(signal.SIGINT)
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "ping"})
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        assert json.loads(proc.stdout.readline())["id"] == 2
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stderr.read().splitlines()[1:] == []
    finally:
        proc.kill()
        proc.wait()


def test_the_stdio_server_ends_with_the_assistant_a_query_in_flight(database: str) -> None:
    """The assistant closes standard input while a `sql` call runs: the server ends at
    once (exit 0, nothing said), where it waited for the query's time limit."""
    proc = stdio_process(database)
    try:
        call = {"name": "sql", "arguments": {"query": COUNTING, "timeout": 120}}
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "ping"})
        assert proc.stdin is not None and proc.stdout is not None
        assert json.loads(proc.stdout.readline())["id"] == 3  # serving, the call running
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
        assert proc.stderr is not None
        assert proc.stderr.read().splitlines()[1:] == []
    finally:
        proc.kill()
        proc.wait()


def test_the_stdio_server_ends_when_the_assistant_stops_reading(database: str) -> None:
    """The assistant closes its end of standard output and asks something: the server ends
    quietly (exit 0), as a command whose reader has gone does, not with an internal error
    (exit 70) once standard input closed."""
    proc = stdio_process(database)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert proc.wait(timeout=60) == 0
        assert proc.stderr.read().splitlines()[1:] == []
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize(("closed", "name"), [(0, "input"), (1, "output")])
def test_stdio_with_a_standard_stream_closed(database: str, closed: int, name: str) -> None:
    done = subprocess.run(
        command(database),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=environment(),
        preexec_fn=lambda: os.close(closed),
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"error: standard {name} is closed: yimao mcp talks to its assistant on standard "
        "input and output (or over HTTP, with --http)\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--http", "nonsense"], "error: bad --http 'nonsense': expected HOST:PORT"),
        (["--http", "127.0.0.1:99999"], "error: bad --http '127.0.0.1:99999'"),
        (["--http", "192.0.2.1:8000"], "error: --http 192.0.2.1 is not a loopback address"),
        (["--allow-remote"], "error: --allow-remote goes with --http HOST:PORT"),
    ],
)
def test_bad_options(
    capsys: pytest.CaptureFixture[str], database: str, argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "mcp", *argv, "--db", database)
    assert (code, out) == (2, "")
    assert err.startswith(message) and len(err.splitlines()) == 1


def test_a_missing_database_is_refused_before_serving(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "missing.db"
    code, out, err = run(capsys, "mcp", "--db", str(missing))
    assert (code, out) == (2, "")
    assert err == f"error: no database at {missing}; run `yimao build` first\n"
    assert not missing.exists()


def test_without_the_sdk_it_says_what_to_install(
    capsys: pytest.CaptureFixture[str], database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)
    code, out, err = run(capsys, "mcp", "--db", database)
    assert (code, out) == (2, "")
    assert err == (
        "error: yimao mcp needs the MCP SDK, which is not installed (pip install 'yimao-db[mcp]')\n"
    )


def test_the_other_commands_do_not_import_the_sdk(database: str) -> None:
    script = (
        "import sys\n"
        "from yimao_db.cli import main, make_parser\n"
        f"main(['show', '乾', '--db', {database!r}])\n"
        f"main(['reading', '1', '--json', '--db', {database!r}])\n"
        "make_parser()\n"  # every command registered, yimao mcp's parser included
        "loaded = [m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types'))]\n"
        "assert loaded == [], loaded\n"
        "assert 'yimao_db.mcp' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
