"""Ctrl-C after a commit: a write that happened is reported as written, never as interrupted.

The command line runs each command under :func:`armed`. Until a writer is about to commit,
Ctrl-C (SIGINT) is Python's own: KeyboardInterrupt, the open transaction rolls back, and
``yimao`` prints ``interrupted`` and exits 130 with nothing written. A writer engine
(:func:`yimao_db.db.writer_engine`) calls :func:`committing` just before it sends COMMIT:
from then on, to the end of the command, SIGINT is only remembered. The command goes on to
print what it wrote and exits 0; :func:`deferred` tells that a Ctrl-C came meanwhile. So a
Ctrl-C that lands right after the commit, while the result line is being printed or the
connection closed, can no longer turn a completed write into ``interrupted`` (or into a
traceback from closing the connection).

Only the main thread handles signals; elsewhere, and outside :func:`armed` (the Python API),
nothing changes. A SIGINT that the process ignores (``SIG_IGN``) or that someone else
handles is left as it is: the handler is put in place only over Python's default one.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


class _State:
    armed = False
    previous: Any = None  # the handler replaced at the commit, put back at the end
    deferred = False
    committed = False
    made: str | None = None  # what a command that commits nothing has made (files)
    quiet = False  # quiet_interrupted_finalizers has put its hook in place


_STATE = _State()


def _remember(_signum: int, _frame: FrameType | None) -> None:
    _STATE.deferred = True


@contextmanager
def armed() -> Iterator[None]:
    """Run a command: after its first commit, Ctrl-C is remembered instead of raised."""
    _STATE.armed, _STATE.previous, _STATE.deferred = True, None, False
    _STATE.committed, _STATE.made = False, None
    try:
        yield
    finally:
        if _STATE.previous is not None:
            signal.signal(signal.SIGINT, _STATE.previous)
        _STATE.armed, _STATE.previous = False, None


def committing() -> None:
    """A writer is about to commit: from now on a Ctrl-C is only remembered."""
    if _STATE.armed:
        _STATE.committed = True
    if _may_remember(signal.getsignal(signal.SIGINT)):
        signal.signal(signal.SIGINT, _remember)
        _STATE.previous = signal.default_int_handler


def _may_remember(current: Any) -> bool:
    """Whether SIGINT, now handled by ``current``, is to be remembered from now on: the
    command has committed, in the main thread, and ``current`` is Python's default handler
    (not ignored, nor handled by someone else)."""
    return (
        _STATE.armed
        and _STATE.committed
        and _STATE.previous is None
        and current is signal.default_int_handler
        and threading.current_thread() is threading.main_thread()
    )


def ignore_to_the_end() -> None:
    """Ctrl-C (SIGINT) has no effect from now on: the process ends with the command that
    has just finished (Python leaves an ignored signal ignored while it exits). Only the
    main thread can set that; elsewhere this does nothing."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def ignored() -> Iterator[None]:
    """Ctrl-C (SIGINT) has no effect inside, whatever handled it before (put back after;
    when the command committed inside, as an import does, a Ctrl-C is remembered after,
    as after any commit): an import's commit and report, the tidying after a command is
    done. Only the main thread can set that; elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        if _may_remember(previous):  # committed inside (an import): remembered from now on
            signal.signal(signal.SIGINT, _remember)
            _STATE.previous = previous
        else:
            signal.signal(signal.SIGINT, previous)


@contextmanager
def held() -> Iterator[None]:
    """Ctrl-C (SIGINT) inside is held to the end of the block, then raised: for work that a
    KeyboardInterrupt would break rather than stop. Importing the MCP SDK builds pydantic's
    validators, and pydantic turns a KeyboardInterrupt raised meanwhile into a SchemaError
    of its own, which a command would report as an internal error; SQLite takes one raised
    in its authorizer (``yimao serve``'s) for a refusal of the query. Only over Python's
    default handler, in the main thread; elsewhere this does nothing."""
    if not (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ):
        yield
        return
    came: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if came:
        raise KeyboardInterrupt


def deferred() -> bool:
    """Whether a Ctrl-C came after the commit of the command that ran last."""
    return _STATE.deferred


def made(what: str) -> None:
    """The command has made ``what`` (files, not rows of a database), which stays whatever
    happens after: a failure to say so names it (:func:`yimao_db.cli.main`)."""
    if _STATE.armed:
        _STATE.made = what


def what_stays() -> str | None:
    """What the command that runs (or ran last) under :func:`armed` has done that stays:
    its commit, or what it made; None when nothing."""
    if _STATE.committed:
        return "what the command committed"
    return _STATE.made


def committed() -> bool:
    """Whether the command that runs (or ran last) under :func:`armed` got to its commit."""
    return _STATE.committed


def quiet_interrupted_finalizers() -> None:
    """For the process's command, once: a Ctrl-C that lands in a finalizer or a weak
    reference's callback (SQLAlchemy has both, and so has Python's import machinery, while
    the command line loads) cannot interrupt anything: Python passes it over and prints it,
    traceback and all, as ``Exception ignored in …``. Nor does a Ctrl-C that arrives as the
    command sets SIGINT aside (above): Python then reports it as ``OSError: Signal 2 ignored
    due to race condition``, with a traceback. Those are left unsaid; any other such
    exception is printed as before (it would be a bug)."""
    if _STATE.quiet:
        return
    _STATE.quiet = True
    previous = sys.unraisablehook
    raced = f"Signal {int(signal.SIGINT)} ignored due to race condition"

    def hook(unraisable: Any) -> None:
        exc = unraisable.exc_value
        if isinstance(exc, KeyboardInterrupt) or (isinstance(exc, OSError) and str(exc) == raced):
            return
        previous(unraisable)

    sys.unraisablehook = hook
