"""The MCP server: the :class:`~yimao_db.mcp.service.Service` spoken over the protocol with
the official SDK (``mcp``, its low-level ``Server``), on stdio or streamable HTTP.

Each request runs its database work in a worker thread. A tool's answer has the text the
command line prints and the structured data its output schema describes; any error, the
ones of bad input and the unexpected ones alike, becomes a tool error whose text is the
one line the command line prints (``error: …``), never a traceback or a protocol failure.
Resources and the prompt, which the protocol gives no error result, answer a bad request
with a JSON-RPC error carrying the same line.
"""

from __future__ import annotations

import asyncio
import codecs
import io
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack
from dataclasses import asdict
from types import FrameType
from typing import Any, TypeVar, cast

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError

from yimao_db import __version__
from yimao_db.errors import UsageError
from yimao_db.mcp import knowledge
from yimao_db.mcp.service import Service
from yimao_db.mcp.tools import Tool, output_schema
from yimao_db.sql.stream import halt_all
from yimao_db.withdrawal import withdrawn_when

T = TypeVar("T")
PATH = "/mcp"  # where the streamable HTTP transport answers
INSTRUCTIONS = (
    "yimao-db: 程良玉《易冒》卷一, the manual of 納甲 coin divination (六爻), as a relational "
    "knowledge base. A reading's chart is assembled by SQL from the book's rules; every "
    "judgment (a sign) cites its passage as §chapter.passage. Use show for any name, chart "
    "for a stored reading (preview or cast for a new one), readings and stats for the "
    "journal, passages for what cites a passage, sql and schema for anything else; the "
    "read_chart prompt lays a reading out for reading. Cite passages by number: the book's "
    "text is not stored."
)


class _Explained(Exception):
    """An error already put in the command line's words."""


async def _in_thread(service: Service, work: Callable[[], T]) -> T:
    """``work()`` in a worker thread; an error becomes a JSON-RPC error with the command
    line's words (for resources and the prompt, which have no error result), found in the
    thread too (a bug's line may take ``yimao check``'s time)."""

    def guarded() -> T:
        try:
            return work()
        except Exception as exc:
            raise _Explained(service.explain(exc)) from None

    try:
        return await anyio.to_thread.run_sync(guarded)
    except _Explained as exc:
        raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None


class _Call:
    """A tool call in flight, as its query's threads see it."""

    def __init__(self) -> None:
        self.over = False  # cancelled by the assistant, or done


async def _withdrawable(work: Callable[[], T]) -> T:
    """``work()`` in a worker thread, withdrawn if the request is cancelled meanwhile: its
    queries interrupted, its write not committed (:mod:`yimao_db.withdrawal`). The SDK
    applies an assistant's cancellation by cancelling the request's handler, but a worker
    thread cannot be cancelled and is waited for: a `sql` call ran on to its time limit, a
    write waiting for a lock was stored once it got it. A task beside the thread sees the
    cancellation and marks the call, which the call's threads look at."""
    call = _Call()

    async def watch() -> None:
        try:
            await anyio.sleep_forever()
        finally:  # cancelled: with the request, or because the work is done
            call.over = True

    failed: Exception | None = None
    async with anyio.create_task_group() as beside:
        beside.start_soon(watch)
        try:
            with withdrawn_when(lambda: call.over):
                done = await anyio.to_thread.run_sync(work)
        except Exception as exc:  # raised outside the group, which would wrap it
            failed = exc
        finally:
            beside.cancel_scope.cancel()
    if failed is not None:
        raise failed
    return done


def _text(text: str) -> types.ContentBlock:
    return types.TextContent(type="text", text=text)


def _tool(tool: Tool) -> types.Tool:
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.description,
        input_schema=tool.input_schema,
        output_schema=output_schema(tool.name),
        annotations=types.ToolAnnotations(
            title=tool.title,
            read_only_hint=not tool.writes,
            destructive_hint=tool.destructive if tool.writes else None,
            idempotent_hint=tool.idempotent,
            open_world_hint=False,
        ),
    )


def make_server(service: Service) -> Server[Any]:
    """The low-level server answering for ``service``."""

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(t) for t in service.tools()])

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            answer = await _withdrawable(lambda: service.call(params.name, params.arguments))
        except Exception as exc:
            failed = exc
            message = await anyio.to_thread.run_sync(lambda: service.explain(failed))
            return types.CallToolResult(content=[_text(message)], is_error=True)
        content = [_text(answer.text), *(_text(n) for n in answer.notes)]
        return types.CallToolResult(content=content, structured_content=answer.data)

    async def list_resources(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[types.Resource(**asdict(r)) for r in service.resources()]
        )

    async def list_templates(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[types.ResourceTemplate(**asdict(t)) for t in service.templates()]
        )

    async def read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        body, mime = await _in_thread(service, lambda: service.read(uri))
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=body)]
        )

    async def list_prompts(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        p = knowledge.READ_CHART
        argument = types.PromptArgument(
            name=p.argument, description=p.argument_description, required=True
        )
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=p.name, title=p.title, description=p.description, arguments=[argument]
                )
            ]
        )

    async def get_prompt(
        ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        body = await _in_thread(service, lambda: service.prompt(params.name, params.arguments))
        return types.GetPromptResult(
            description=knowledge.READ_CHART.description,
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=body))
            ],
        )

    return Server(
        "yimao",
        version=__version__,
        title="yimao-db: 程良玉《易冒》卷一",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def run_stdio(service: Service) -> None:
    """Serve one client on standard input and output until it closes them, or Ctrl-C
    (``KeyboardInterrupt``, once any tool call in flight has stopped)."""
    for name in ("stdin", "stdout"):
        try:
            os.fstat(getattr(sys, name).fileno())
        except (AttributeError, OSError, ValueError):  # started with it closed
            raise UsageError(
                f"standard {name[3:]}put is closed: yimao mcp talks to its assistant on "
                "standard input and output (or over HTTP, with --http)"
            ) from None
    wire = sys.stdin.fileno()

    ctrl_c: list[int] = []  # the Ctrl-Cs that came while serving or ending
    # Ctrl-C is taken only over Python's own handling: a SIGINT the process was started
    # ignoring (or that someone else handles) is left as it is
    ours = signal.getsignal(signal.SIGINT) is signal.default_int_handler

    async def main() -> None:
        server = make_server(service)
        sys.stderr.write(
            f"serving MCP on standard input and output ({service.mode}, {service.where})\n"
        )
        sys.stderr.flush()
        with ExitStack() as taken:
            async with anyio.create_task_group() as serving:
                if ours:
                    signals = taken.enter_context(anyio.open_signal_receiver(signal.SIGINT))

                    async def stop_at_ctrl_c() -> None:
                        async for signum in signals:
                            ctrl_c.append(signum)
                            halt_all()  # a `sql` call in flight would hold the stop
                            serving.cancel_scope.cancel()

                    serving.start_soon(stop_at_ctrl_c)
                stdin = _until_the_end(_lines(wire))
                async with stdio_server(stdin=cast(Any, stdin)) as (read_stream, write_stream):
                    options = server.create_initialization_options()
                    await server.run(read_stream, write_stream, options)
                serving.cancel_scope.cancel()
        # the event loop's own ending follows, which a KeyboardInterrupt would cut short
        # (and the process then wait for a worker thread never told to stop)
        if ours:
            signal.signal(signal.SIGINT, lambda signum, _frame: ctrl_c.append(signum))

    previous = signal.getsignal(signal.SIGINT)
    try:
        anyio.run(main)
    except BaseExceptionGroup as group:  # the transport's task groups wrap what they meet
        if group.split(BrokenPipeError)[1] is not None:
            raise
        raise BrokenPipeError from None  # the assistant stopped reading: it has gone
    finally:
        signal.signal(signal.SIGINT, previous)
    if ctrl_c:
        raise KeyboardInterrupt


async def _until_the_end(lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """``lines``; at their end the assistant has gone, and a `sql` call in flight would
    hold the server until its query ended or reached its time limit: it is interrupted."""
    async for line in lines:
        yield line
    halt_all()


async def _lines(fd: int) -> AsyncIterator[str]:
    """The lines of the file descriptor ``fd`` (standard input) as the SDK's stdio
    transport reads them (UTF-8, a bad byte replaced; ``\\r\\n``, ``\\r`` and ``\\n`` each
    end a line, given as ``\\n``), read by a daemon thread with ``os.read``. The SDK reads
    them in a worker thread that the event loop, and then the interpreter, wait for: a Ctrl-C
    could not stop the server while the assistant kept its end open and sent nothing. (A
    buffered file read by a daemon thread would stop the interpreter's exit with a fatal
    error.) One line at a time is handed over, when the last has been taken."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    taken = threading.Semaphore(0)

    def hand_over(line: str | None) -> bool:
        try:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        except RuntimeError:  # the event loop is closed: the server has ended
            return False
        if line is not None:
            taken.acquire()
        return True

    def pump() -> None:
        utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        decoder = io.IncrementalNewlineDecoder(utf8, translate=True)
        started: list[str] = []  # the pieces of a line not yet ended
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            *ended, rest = decoder.decode(chunk, final=not chunk).split("\n")
            for piece in ended:
                if not hand_over("".join((*started, piece, "\n"))):
                    return
                started.clear()
            if rest:
                started.append(rest)
            if not chunk:  # the end: what is left, then the end itself
                if started:
                    hand_over("".join(started))
                hand_over(None)
                return

    threading.Thread(target=pump, name="yimao-mcp-stdin", daemon=True).start()
    while (line := await lines.get()) is not None:
        taken.release()
        yield line


def _security(host: str, loopback: bool) -> TransportSecuritySettings | None:
    """On loopback, requests must name a loopback host and come from a loopback page (DNS
    rebinding); elsewhere (``--allow-remote``) any host is taken."""
    if not loopback:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    shown = f"[{host}]" if ":" in host else host
    hosts = sorted({f"{shown}:*", "127.0.0.1:*", "localhost:*", "[::1]:*"})
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[f"http://{h}" for h in hosts],
    )


def run_http(service: Service, sock: socket.socket, *, loopback: bool) -> None:
    """Serve the streamable HTTP transport at ``http://HOST:PORT/mcp`` on ``sock`` until
    interrupted (Ctrl-C, SIGTERM)."""
    import uvicorn

    host, port = sock.getsockname()[:2]
    server = make_server(service)
    app = server.streamable_http_app(
        streamable_http_path=PATH,
        host=host,
        transport_security=_security(host, loopback),
    )
    shown = f"[{host}]" if ":" in host else host
    sys.stdout.write(
        f"serving MCP at http://{shown}:{port}{PATH} ({service.mode}, {service.where}; "
        "Ctrl-C stops)\n"
    )
    sys.stdout.flush()
    # The session manager runs around the server, not as the app's lifespan task: uvicorn
    # cancels that task at a second Ctrl-C and logs its traceback.
    config = uvicorn.Config(app, log_level="warning", lifespan="off", workers=1)

    class Stopping(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            # a `sql` call in flight would hold the stop until its query ends (or its time
            # limit, 30 s by default): it is interrupted, as `yimao sql`'s is by Ctrl-C
            halt_all()
            super().handle_exit(sig, frame)

    http = Stopping(config)

    # Once the server is stopping (Ctrl-C, SIGTERM), a request it cuts short (an
    # assistant's open event stream, a tool call, the answer to one that came just then)
    # is the stop itself, not an error to log.
    def stopping(record: logging.LogRecord) -> bool:
        return not http.should_exit

    logged = [logging.getLogger(n) for n in ("uvicorn.error", "mcp.shared.jsonrpc_dispatcher")]
    for logger in logged:
        logger.addFilter(stopping)

    async def main() -> None:
        async with server.session_manager.run():
            await http.serve(sockets=[sock])

    try:
        asyncio.run(main())
    except BaseExceptionGroup as group:  # the sessions' task group wraps a Ctrl-C
        if group.subgroup(KeyboardInterrupt) is None:
            raise
        raise KeyboardInterrupt from None
    finally:
        for logger in logged:
            logger.removeFilter(stopping)
