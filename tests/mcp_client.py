"""`yimao mcp` for the tests: started as a subprocess and spoken to with the MCP SDK's own
client (over stdio, or streamable HTTP on a free port of 127.0.0.1), behind a blocking
facade so that plain test functions can call it. One server can serve a whole test module.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TextIO

import mcp_types as types
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client

STARTUP_SECONDS = 120  # a loaded machine starts Python slowly; not a timed assertion


def command(db: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "yimao_db", "mcp", "--db", db, *args]


def environment() -> dict[str, str]:
    """What the server runs with: the SDK's safe defaults (no $YIMAO_DB_URL)."""
    env = get_default_environment()
    for name in ("YIMAO_TZ", "PYTHONPATH", "YIMAO_DEBUG"):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


class Session:
    """A connected client: each method waits for the server's answer."""

    def __init__(self, portal: BlockingPortal, client: Client, errlog: Path | None) -> None:
        self.portal = portal
        self.client = client
        self.errlog = errlog

    def tools(self) -> list[types.Tool]:
        return self.portal.call(self.client.list_tools).tools

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> types.CallToolResult:
        result = self.portal.call(self.client.call_tool, name, arguments or {})
        assert isinstance(result, types.CallToolResult)
        return result

    def texts(self, name: str, arguments: dict[str, Any] | None = None) -> list[str]:
        """The text blocks of a tool's answer that is not an error."""
        result = self.call(name, arguments)
        found = texts(result)
        assert not result.is_error, found
        return found

    def data(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        """The structured part of an answer that is not an error; it equals its text when
        the text is JSON."""
        result = self.call(name, arguments)
        assert not result.is_error, result.content
        return result.structured_content

    def error(self, name: str, arguments: dict[str, Any] | None = None) -> str:
        """The one text block of a tool error."""
        result = self.call(name, arguments)
        assert result.is_error, result.structured_content
        assert result.structured_content is None
        [block] = result.content
        assert isinstance(block, types.TextContent)
        return block.text

    def resources(self) -> list[types.Resource]:
        return self.portal.call(self.client.list_resources).resources

    def templates(self) -> list[types.ResourceTemplate]:
        return self.portal.call(self.client.list_resource_templates).resource_templates

    def read(self, uri: str) -> types.TextResourceContents:
        [contents] = self.portal.call(self.client.read_resource, uri).contents
        assert isinstance(contents, types.TextResourceContents)
        return contents

    def prompts(self) -> list[types.Prompt]:
        return self.portal.call(self.client.list_prompts).prompts

    def prompt(self, name: str, arguments: dict[str, str]) -> types.GetPromptResult:
        return self.portal.call(self.client.get_prompt, name, arguments)

    def server_stderr(self) -> str:
        return "" if self.errlog is None else self.errlog.read_text(encoding="utf-8")


@contextmanager
def stdio(db: str, *args: str, errlog: Path, mode: str = "auto") -> Iterator[Session]:
    """``yimao mcp --db DB ARGS`` over stdio; its stderr goes to ``errlog``."""
    params = StdioServerParameters(
        command=sys.executable, args=command(db, *args)[1:], env=environment()
    )
    with ExitStack() as stack:
        log: TextIO = stack.enter_context(errlog.open("w", encoding="utf-8"))
        portal = stack.enter_context(start_blocking_portal())
        client = Client(stdio_client(params, errlog=log), mode=mode)
        stack.enter_context(portal.wrap_async_context_manager(client))
        yield Session(portal, client, errlog)


@contextmanager
def http(db: str, *args: str) -> Iterator[tuple[Session, subprocess.Popen[str], list[str]]]:
    """``yimao mcp --db DB --http 127.0.0.1:0 ARGS``: the session, the process and the lines
    it wrote to stdout (the first says where it serves), then to stderr once it has ended;
    stopped with SIGTERM."""
    env = {**environment(), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        command(db, "--http", "127.0.0.1:0", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    stdout, stderr = proc.stdout, proc.stderr
    lines: queue.Queue[str] = queue.Queue()
    printed: list[str] = []
    errors: list[str] = []

    def pump() -> None:
        for line in stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    reader = threading.Thread(target=lambda: errors.extend(stderr), daemon=True)
    reader.start()
    try:
        try:
            first = lines.get(timeout=STARTUP_SECONDS)
        except queue.Empty:
            raise AssertionError(f"yimao mcp --http did not start: {errors}") from None
        printed.append(first)
        url = first.split(" at ", 1)[1].split()[0]
        with start_blocking_portal() as portal:
            client = Client(url)
            with portal.wrap_async_context_manager(client):
                yield Session(portal, client, None), proc, printed
    finally:
        proc.terminate()
        proc.wait(timeout=STARTUP_SECONDS)
        reader.join(timeout=STARTUP_SECONDS)  # all it wrote to stderr
        printed.extend(errors)


def texts(result: types.CallToolResult) -> list[str]:
    """The text blocks of a tool's answer."""
    return [c.text for c in result.content if isinstance(c, types.TextContent)]
