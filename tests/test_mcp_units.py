"""The pieces of `yimao mcp` that need no subprocess: the preview of a cast (stored nowhere),
the checks of a tool's arguments, the prompt's 用神 section, the --http address, and an
unexpected failure as one line (the SDK's client in the same process)."""

from __future__ import annotations

import dataclasses
import io
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from mcp import Client
from sqlalchemy import text

from yimao_db.commands.mcp import check_host, http_address
from yimao_db.db import reader_engine, writer_engine
from yimao_db.errors import UsageError
from yimao_db.journaling import Journal
from yimao_db.mcp import tools
from yimao_db.mcp.arguments import Arguments
from yimao_db.mcp.knowledge import chart_prompt
from yimao_db.mcp.server import _lines, make_server
from yimao_db.mcp.service import Service
from yimao_db.readings import PREVIEW_ID, cast, chart, make_moment, prepare, preview

EMPTY = Journal(notes=(), outcome=None, tags=())


def _request(db: str, lines: str, **kwargs: Any) -> Any:
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            return prepare(conn, lines, moment=make_moment(at="2026-11-30T09:15"), **kwargs)
    finally:
        engine.dispose()


def _stored(db: str) -> tuple[Any, ...]:
    """How many readings and lines there are, and the next id a cast gets (PostgreSQL: the
    sequence, which a rolled-back insert would still have moved)."""
    engine = writer_engine(db)
    try:
        with engine.connect() as conn:
            counts = conn.execute(
                text("SELECT (SELECT COUNT(*) FROM reading), (SELECT COUNT(*) FROM reading_line)")
            ).one()
            sequence = None
            if conn.dialect.name == "postgresql":
                sequence = conn.execute(
                    text("SELECT last_value, is_called FROM reading_id_seq")
                ).one()
        return (*counts, sequence)
    finally:
        engine.dispose()


def test_preview_is_the_stored_chart_but_for_id_and_time_and_stores_nothing(fresh_db: str) -> None:
    casts: list[tuple[str, dict[str, Any]]] = [
        ("乾之姤", {}),
        ("姤:1,4", {"matter": "wealth", "question": "q?"}),
    ]
    for lines, kwargs in casts:
        before = _stored(fresh_db)
        shown = preview(_request(fresh_db, lines, **kwargs), fresh_db)
        assert _stored(fresh_db) == before
        assert shown.reading_id == PREVIEW_ID == 0
        rid = cast(lines, at="2026-11-30T09:15", db=fresh_db, **kwargs)
        stored = chart(rid, fresh_db)
        assert shown._replace(reading_id=rid, created_at=stored.created_at) == stored
        assert shown.signs and shown.lines == stored.lines


def test_a_preview_uses_no_id_of_the_sequence(fresh_db: str) -> None:
    """The next cast gets the id it would have got without the preview (PostgreSQL's
    sequence does not roll back)."""
    first = cast("乾", at="2026-11-30T09:15", db=fresh_db)
    engine = writer_engine(fresh_db)
    try:
        for _ in range(3):
            preview(_request(fresh_db, "789678"), engine)
    finally:
        engine.dispose()
    assert cast("坤", at="2026-11-30T09:15", db=fresh_db) == first + 1


def test_a_preview_bad_input_is_refused_before_anything(fresh_db: str) -> None:
    with pytest.raises(UsageError, match="matter"):
        _request(fresh_db, "乾", matter="love")


# --- arguments ----------------------------------------------------------------------------------

SCHEMA = tools.BY_NAME["readings"].input_schema


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"bogus": 1}, "readings takes no argument 'bogus': expected hexagram, changed, since"),
        ({"hexagram": 44}, "hexagram must be text, got the number 44"),
        ({"hexagram": ["乾"]}, "hexagram must be text, got a list"),
        ({"all": "yes"}, "bad all 'yes': expected true or false"),
        ({"outcome": "maybe"}, "bad outcome 'maybe': expected hit or miss or partial or none"),
    ],
)
def test_arguments_say_what_is_wrong_in_one_sentence(given: dict[str, Any], message: str) -> None:
    def read() -> None:
        args = Arguments("readings", SCHEMA, given)
        args.text("hexagram")
        args.flag("all")
        args.optional_choice("outcome", ("hit", "miss", "partial", "none"))

    with pytest.raises(UsageError) as caught:
        read()
    assert str(caught.value).startswith(message)


def test_reading_ids_as_numbers_or_digits() -> None:
    schema = tools.BY_NAME["chart"].input_schema
    assert Arguments("chart", schema, {"reading_id": 7}).reading_id() == 7
    assert Arguments("chart", schema, {"reading_id": "7"}).reading_id() == 7
    for bad in (True, 0, -1, 1.0, "7a", [7], 2**64):
        with pytest.raises(UsageError, match=r"bad reading id .*: expected a whole number from 1"):
            Arguments("chart", schema, {"reading_id": bad}).reading_id()
    with pytest.raises(UsageError, match="chart needs the argument reading_id"):
        Arguments("chart", schema, {}).reading_id()


# --- the prompt ---------------------------------------------------------------------------------


def test_the_prompt_has_a_use_section_only_when_the_chart_names_one(built_db: str) -> None:
    shown = preview(_request(built_db, "乾之姤"), built_db)
    without = chart_prompt(shown, EMPTY, {})
    assert "## 用神" not in without
    use = {"relative": "妻財", "position": 2, "passage": "6.1"}
    with_use = chart_prompt(shown, EMPTY, {}, use=use)
    section = with_use.split("## 用神\n\n", 1)[1].split("\n\n", 1)[0]
    assert section == '- relative: "妻財"\n- position: 2\n- passage: "6.1"'
    assert with_use.replace(f"\n## 用神\n\n{section}\n", "") == without


# --- the command's options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "address"),
    [
        ("8765", ("127.0.0.1", 8765)),
        ("0", ("127.0.0.1", 0)),
        ("localhost:80", ("localhost", 80)),
        ("[::1]:8765", ("::1", 8765)),
        ("0.0.0.0:8765", ("0.0.0.0", 8765)),
    ],
)
def test_http_addresses(typed: str, address: tuple[str, int]) -> None:
    assert http_address(typed) == address


@pytest.mark.parametrize("typed", ["", ":80", "host:", "host:http", "1:65536", "８７６５"])
def test_bad_http_addresses(typed: str) -> None:
    with pytest.raises(UsageError, match="bad --http"):
        http_address(typed)


def test_only_loopback_without_allow_remote() -> None:
    assert check_host("127.0.0.1", False, False) is None
    assert check_host("::1", False, True) is None
    with pytest.raises(UsageError, match="add --allow-remote"):
        check_host("192.0.2.1", False, False)
    warning = check_host("192.0.2.1", True, True)
    assert warning is not None and "reads and writes everything" in warning


# --- an unexpected failure -----------------------------------------------------------------------


@pytest.fixture
def service(built_db: str) -> Iterator[Service]:
    found = Service(built_db, allow_writes=False)
    yield found
    found.close()


def test_a_bug_is_one_line_internal_error(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What escapes a tool unexpectedly is the command line's ``internal error`` line (with
    the database found healthy, as ``yimao check`` would say), not a protocol failure."""

    def broken(_db: Any, _args: Arguments) -> tools.Answer:
        raise RuntimeError("boom")

    monkeypatch.setitem(
        tools.BY_NAME, "stats", dataclasses.replace(tools.BY_NAME["stats"], run=broken)
    )
    monkeypatch.setattr("yimao_db.cli._problems", lambda _db: [])
    monkeypatch.delenv("YIMAO_DEBUG", raising=False)

    async def ask() -> Any:
        async with Client(make_server(service)) as client:
            return await client.call_tool("stats", {})

    result = anyio.run(ask)
    assert result.is_error
    assert [c.text for c in result.content] == [
        "internal error: RuntimeError: boom (set YIMAO_DEBUG=1 for the traceback)"
    ]


def test_standard_input_is_read_line_by_line_to_its_last_unfinished_line() -> None:
    """The server's reader of standard input (a daemon thread, so that Ctrl-C can stop the
    server while an assistant keeps it open) gives every line as the SDK's reader (a text
    file) would: lines split across reads, a character split across reads, a last line
    without its newline, long lines, CRLF split across reads, a lone CR, a bad byte."""
    long = "x" * 200_000
    pieces = [
        *(b'{"a": 1}\n{"b"', b': "\xe6', b'\x98\x93"}\n', long.encode() + b"\n"),
        *(b"crlf\r", b"\ncr\rbad \xff\n", b"last"),
    ]
    read, write = os.pipe()

    def feed() -> None:
        for piece in pieces:
            os.write(write, piece)
            time.sleep(0.01)
        os.close(write)

    async def collect() -> list[str]:
        return [line async for line in _lines(read)]

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        got = anyio.run(collect)
    finally:
        feeder.join()
        os.close(read)
    assert got[:3] == ['{"a": 1}\n', '{"b": "易"}\n', long + "\n"]
    assert got[3:] == ["crlf\n", "cr\n", "bad \ufffd\n", "last"]
    sdk = io.TextIOWrapper(io.BytesIO(b"".join(pieces)), encoding="utf-8", errors="replace")
    assert got == list(sdk)
