"""A request its caller has withdrawn: an MCP tool call the assistant cancelled.

``yimao mcp`` runs each tool call in a worker thread under :func:`withdrawn_when`, with a
check that turns true once the assistant has cancelled the call. Then

- a ``yimao sql`` query of the call stops, as at its time limit
  (:mod:`yimao_db.sql.stream` takes the call's :func:`check` into the query's thread and
  calls it as often as it reads the clock);
- a write of the call does not commit: the writer engine asks :func:`refuse_commit` just
  before COMMIT (:func:`yimao_db.db.writer_engine`), so a write that waited for another
  session's lock past the cancel is rolled back, not stored after the assistant gave up.

Outside such a call (every command), nothing is ever withdrawn. The check is called from
other threads (the query's runner) and must only read a flag.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from yimao_db.errors import DatabaseError


def _never() -> bool:
    return False


# set for the context that runs the call; a worker thread of anyio's runs in a copy of it
_WITHDRAWN: ContextVar[Callable[[], bool]] = ContextVar("yimao_withdrawn", default=_never)


@contextmanager
def withdrawn_when(check: Callable[[], bool]) -> Iterator[None]:
    """Inside, in this context and those copied from it, the request counts as withdrawn
    once ``check()`` is true."""
    token = _WITHDRAWN.set(check)
    try:
        yield
    finally:
        _WITHDRAWN.reset(token)


def check() -> Callable[[], bool]:
    """The check of the request this context runs for, to take into a thread of one's own
    (a thread started by hand begins with a context of its own)."""
    return _WITHDRAWN.get()


def withdrawn() -> bool:
    """Whether the request this context runs for has been withdrawn."""
    return _WITHDRAWN.get()()


def refuse_commit() -> None:
    """Raise instead of committing when the request has been withdrawn."""
    if withdrawn():
        raise DatabaseError(
            "the request was withdrawn before its write committed: nothing was written"
        )
