"""The ``yimao`` command line. Every command is documented in README.md and tested.

User errors print ``error: …`` (what was wrong and what is expected) and exit 2 with
nothing written; no traceback reaches the user for anything they typed. A damaged database
file is named as such, with a pointer to ``yimao check``. Ctrl-C prints ``interrupted`` and
exits 130 (the open transaction rolls back); once a command's write has committed, a Ctrl-C
no longer interrupts it: it says what it wrote (:mod:`yimao_db.sigint`). Anything else that
escapes a command is a bug: it prints one ``internal error: …`` line and exits 70, with the
traceback only when ``YIMAO_DEBUG=1`` is set. Output that cannot be written (a full disk)
is one ``error: …`` line, exit 2. Run as a process's command, ``main`` ends the process
itself once the command is done (:func:`_end_process`). The commands live in
:mod:`yimao_db.commands`, one module per concern.
"""

from __future__ import annotations

import argparse
import atexit
import codecs
import errno
import gc
import importlib
import io
import logging
import os
import shlex
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from yimao_db import sigint
from yimao_db.errors import DatabaseError, UsageError, YimaoError, cut_message
from yimao_db.present.table import terminal_text

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

Handler = Callable[[argparse.Namespace], int]

# yimao_db.commands.<name>, in the order they are listed by --help
COMMAND_MODULES = ("core", "readings", "journal", "check", "schema", "data", "serve", "mcp")
# the module of each command, so that a command line imports its own module alone
# (tests/test_cli.py holds this to what the modules register; a command missing here
# still works, with every module imported)
MODULE_OF = {
    "build": "core",
    "show": "core",
    "cast": "readings",
    "reading": "readings",
    "readings": "readings",
    "import": "readings",
    "note": "journal",
    "about": "journal",
    "outcome": "journal",
    "tag": "journal",
    "untag": "journal",
    "delete": "journal",
    "stats": "journal",
    "check": "check",
    "schema": "schema",
    "export-metadata": "schema",
    "sql": "data",
    "export": "data",
    "serve": "serve",
    "mcp": "mcp",
}

INTERRUPTED = 130  # 128 + SIGINT, as a shell reports it
INTERNAL_ERROR = 70  # EX_SOFTWARE (sysexits.h)
DEBUG_ENV = "YIMAO_DEBUG"


class _Finished(Exception):
    """Raised by an option that does all there is to do (``--version``, ``--help``)."""


class _Version(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        from yimao_db import __version__

        sys.stdout.write(f"yimao {__version__}\n")
        raise _Finished


# the options whose value may be empty: text stored as given, and the search, which says so
# itself
MAY_BE_EMPTY = frozenset({"question", "search"})


class Parser(argparse.ArgumentParser):
    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        """An option given an empty value (``--at ''``, ``--db ''``) is refused: a command
        would otherwise take it for the option not given, and cast now, or open
        ``./yimao.db``."""
        if (
            action.option_strings
            and action.dest not in MAY_BE_EMPTY
            and any(not value.strip() for value in arg_strings)
        ):
            names = "/".join(action.option_strings)
            self.error(f"argument {names}: expected a value, not an empty one")
        return super()._get_values(action, arg_strings)

    def error(self, message: str) -> NoReturn:
        """One line, as every refused input is, naming where the usage is shown."""
        raise UsageError(_see_help(message, self.prog))

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        """After ``--help``: the command is done (the process ends as any command's does)."""
        if message:
            self._print_message(message, sys.stderr)
        if status:
            raise UsageError(message or "bad arguments")
        raise _Finished

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """As argparse prints help and usage, but a write that fails is not passed over in
        silence (``yimao --help > /dev/full``): it is reported as output that cannot be
        written."""
        if message:
            (file or sys.stderr).write(message)


def _see_help(message: str, prog: str) -> str:
    return f"{message}; see `{prog} --help`"


def make_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with ``argv`` that starts with a known command, of the
    commands of its module only (the others are not imported)."""
    parser = Parser(
        prog="yimao",
        description="程良玉《易冒》卷一 as a relational knowledge base (SQLite or PostgreSQL).",
        epilog="Environment: YIMAO_DB_URL, the database when --db is not given (else "
        "./yimao.db); YIMAO_TZ, the time zone of a date-time given without --tz (else "
        "Asia/Shanghai).",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    first = argv[0] if argv else None
    modules = (MODULE_OF[first],) if first in MODULE_OF else COMMAND_MODULES
    for name in modules:
        importlib.import_module(f"yimao_db.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (the process's own arguments when None) and return its
    exit status. Run as the process's command (``argv`` None: ``yimao``, ``python -m
    yimao_db``), the process ends with the command, and Ctrl-C is ignored from the end of
    the command to the end of the process: a Ctrl-C as Python exits would otherwise end the
    process by SIGINT (status 130 to a shell) after the command printed what it did; and the
    process ends right there (:func:`_end_process`)."""
    said = _Said()
    code: int | None = None
    try:
        _closed_streams()
        _quiet_library_logs()
        if argv is None:
            sigint.quiet_interrupted_finalizers()
        code = _run(argv, said)
    except KeyboardInterrupt:  # another Ctrl-C while the first one was being reported
        if argv is not None:
            raise
    finally:
        while argv is None:  # Ctrl-C left ignored to the end of the process, however many
            try:  # arrive meanwhile (one that lands before it is ignored raises once more)
                sigint.ignore_to_the_end()
                break
            except KeyboardInterrupt:
                continue
        if code is None and argv is None:  # a Ctrl-C escaped the reporting; none can come now
            code = _settle(said)
        with sigint.ignored():  # the command is done: a Ctrl-C now changes nothing
            _tidy(ending=argv is None, interrupted=code in (None, INTERRUPTED))
    status = INTERRUPTED if code is None else code  # None only until settled above
    if argv is None:
        _end_process(status)
    return status


class _Said:
    """What the command line has done and said so far (:func:`_settle`): the command's
    status once its handler returned, whether it failed and with which status, and the
    lines written (each once). Made without a call of Python's (no ``__init__``): a
    Ctrl-C cannot land in it before :func:`main` can take it."""

    code: int | None = None
    raised = False  # the command failed (an exception other than Ctrl-C)
    failed: tuple[str, int] | None = None  # the failure's line and status
    said: tuple[str, ...] = ()


def _say(said: _Said, line: str) -> None:
    """Write ``line`` on stderr once, with Ctrl-C ignored meanwhile: another Ctrl-C in a
    burst neither cuts it short nor has it written twice."""
    while line not in said.said:
        try:
            with sigint.ignored():
                _tell(line)
                said.said = (*said.said, line)
        except KeyboardInterrupt:
            continue


def _settle(said: _Said) -> int:
    """The status of a command line a Ctrl-C cut short, and the line that says so: a
    failure already told keeps its status; after a commit (or the files of an export) the
    write stands, with a note, and the command's status (its failure's if it failed, 2 if
    the failure was not yet explained, else 0); anything else is interrupted, with nothing
    written."""
    if said.failed is not None and said.failed[0] in said.said:
        return said.failed[1]
    stays = sigint.what_stays()
    if stays is None:
        _say(said, "interrupted\n")
        return INTERRUPTED
    stands = f"note: Ctrl-C came after {stays}: it stays\n"
    _say(said, COMMITTED_NOTE if sigint.committed() else stands)
    if said.code is not None:
        return said.code
    if said.failed is not None:
        return said.failed[1]
    return UsageError.exit_code if said.raised else 0  # a failure not yet explained: 2


def _quiet_library_logs() -> None:
    """SQLAlchemy logs an error it then raises or survives (a Ctrl-C while its pool closes
    a connection, a failed close) with its traceback, which Python's last-resort handler
    would print on stderr. The command reports what reaches it in one line; the logs go
    nowhere, unless ``YIMAO_DEBUG=1`` asks for tracebacks."""
    logger = logging.getLogger("sqlalchemy")
    if os.environ.get(DEBUG_ENV) != "1" and not logger.handlers:
        logger.addHandler(logging.NullHandler())


def _end_process(code: int) -> None:
    """End the process now, with ``code``, when nothing is left to do but Python's own
    finalization: the exit functions run (:mod:`atexit`: the side files of readers, the
    logs), stdout and stderr are flushed, and the process exits without tearing down the
    hundreds of modules it imported, one by one (about 45 ms of CPU time of a ``yimao cast``,
    more than its own work). Every engine the command opened has been disposed by then, by
    the command or by :func:`_tidy` (SQLite's last connection to a WAL database has
    checkpointed and removed its side files). Where another thread still runs (a
    server's), Python's exit is left to wait for it as usual."""
    if threading.active_count() > 1:
        return
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader has gone: it had what it read
        pass
    except OSError as exc:  # the output is lost: said, and not a success
        _tell(_error(_output_failure(exc)) + "\n")
        code = code or UsageError.exit_code
    except ValueError:  # closed
        pass
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


class _ClosedOutput(io.TextIOBase):
    """Stands for stdout or stderr when the process was started with it closed
    (``yimao … >&-``: Python sets it to None). Writing to a closed stdout fails as writing
    to a bad file descriptor does (one ``error: cannot write the output`` line, exit 2);
    a closed stderr takes messages nowhere, and the exit code still tells."""

    def __init__(self, fails: bool) -> None:
        self.fails = fails

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.fails:
            raise OSError(errno.EBADF, "stdout is closed")
        return len(text)


def _closed_streams() -> None:
    """Put :class:`_ClosedOutput` where stdout or stderr is None (started closed)."""
    if sys.stderr is None:
        sys.stderr = _ClosedOutput(fails=False)
    if sys.stdout is None:
        sys.stdout = _ClosedOutput(fails=True)


def _tidy(*, ending: bool, interrupted: bool) -> None:
    """Remove the ``-wal``/``-shm`` files the command's readers made beside a WAL database
    (:func:`yimao_db.db.tidy_side_files`): a command leaves no file it did not mean to write.
    When the process ends with the command (``ending``), first close what it left open
    (:func:`yimao_db.db.close_engines`): Python's teardown, which would close it, is skipped.
    A command that was ``interrupted`` may have lost a connection between its pool and its
    closing (a Ctrl-C inside SQLAlchemy): the garbage collector frees what it can, and
    every SQLite connection still open is closed.
    Nothing to do, and nothing imported, for a command that opened no database."""
    dbmod = sys.modules.get("yimao_db.db")
    if dbmod is None:
        return
    try:
        if ending:
            if interrupted:
                gc.collect()
            dbmod.close_engines(lost=interrupted)
        dbmod.tidy_side_files()
    except (Exception, KeyboardInterrupt):  # tidying is best effort; the command is done
        pass


COMMITTED_NOTE = "note: Ctrl-C came after the commit: what was written stays\n"


def _run(argv: Sequence[str] | None, said: _Said) -> int:
    args: argparse.Namespace | None = None
    try:
        if argv is None:
            argv = sys.argv[1:]
        args, extras = make_parser(argv).parse_known_args(argv)
        if extras:  # named with the help of the command they follow
            unknown = f"unrecognized arguments: {' '.join(extras)}"
            first, command = extras[0], args.command
            top = first in argv and command in argv and argv.index(first) < argv.index(command)
            raise UsageError(_see_help(unknown, "yimao" if top else f"yimao {args.command}"))
        for name, value in vars(args).items():
            if value == []:  # argparse turns an option value of exactly "--" into []
                option = name.replace("_", "-")
                raise UsageError(f"--{option} needs a value ('--' alone is not one)")
        handler: Handler = args.handler
        with sigint.armed():
            said.code = handler(args)
        if sigint.deferred():
            _say(said, COMMITTED_NOTE)
        return said.code
    except _Finished:
        return 0
    except KeyboardInterrupt:
        return _settle(said)
    except BrokenPipeError:
        said.code = 0  # the reader has gone: it had what it read
        _quiet_stdout()
        return 0
    except Exception as exc:  # every failure ends here as one line
        said.raised = True
        try:
            message, code = explain(exc, args)
        except KeyboardInterrupt:
            return _settle(said)
        said.failed = (message + "\n", code)
        _say(said, said.failed[0])
        return code


def _tell(line: str) -> None:
    """Write ``line`` on stderr. A stderr that cannot take it (its reader gone, a full
    disk) loses it, and the exit code still tells."""
    try:
        sys.stderr.write(line)
    except (OSError, ValueError, AttributeError):  # AttributeError: started closed (None)
        pass


def explain(exc: Exception, args: argparse.Namespace | None = None) -> tuple[str, int]:
    """The line to print for ``exc`` and the exit code (``args``: the parsed command line).

    An exception that is none of the documented ones is a bug, unless the database is
    damaged in a way SQLite cannot see (a flipped bit in a value): then ``yimao check``
    finds it, and the line says so (exit 2) instead of reporting an internal error.
    """
    db = getattr(args, "db", None)
    known = _documented(exc, db)
    if known is not None:
        return known
    if os.environ.get(DEBUG_ENV) == "1":
        traceback.print_exception(exc)
    failure = f"{type(exc).__name__}: {exc}"
    if args is not None and hasattr(args, "db"):
        problems = _problems(db)
        if problems:
            check = _check_command(db)
            first = str(problems[0])
            count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
            return (
                _error(
                    f"the database is damaged: `{check}` finds {count} (the first: {first}); "
                    f"this command failed on it with {failure}"
                ),
                DatabaseError.exit_code,
            )
    hint = "" if os.environ.get(DEBUG_ENV) == "1" else f" (set {DEBUG_ENV}=1 for the traceback)"
    return terminal_text(cut_message(f"internal error: {failure}") + hint), INTERNAL_ERROR


def _problems(db: str | None) -> list[Any]:
    """What ``yimao check`` finds in ``db`` (nothing if it cannot check it)."""
    try:
        from yimao_db.check import check

        return list(check(db))
    except Exception:  # it could not check: say nothing about the database
        return []


def _integrity_damage(exc: Exception, db: str | None) -> str | None:
    """When a write to a SQLite file broke a constraint, which yimao's own writes never do
    (a UNIQUE index or a foreign key no longer matching a damaged page), and SQLite's quick
    check finds the file damaged: the line that says so."""
    import sqlite3

    from yimao_db.db import quick_check, resolve_url, sqlite_path

    if not isinstance(getattr(exc, "orig", None), sqlite3.IntegrityError):
        return None
    try:
        url = resolve_url(db)
        damage = quick_check(sqlite_path(url))
    except Exception:  # it could not check: say nothing about the file
        return None
    if damage is None:
        return None
    return f"{damage}; run `{_check_command(db)}` to see where"


def _check_command(db: str | None) -> str:
    return "yimao check" + (f" --db {shlex.quote(db)}" if db else "")


def _documented(exc: Exception, db: str | None) -> tuple[str, int] | None:
    """The line and exit code for an error the project documents, else None."""
    # imported here: a Ctrl-C while SQLAlchemy loads is already inside main's handler
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    damaged = _damaged_database(exc) or _stored_not_utf8(exc, db)
    if damaged is not None:
        where, cause = damaged
        return _error(_damage_message(where, cause, db)), DatabaseError.exit_code
    if isinstance(exc, YimaoError):
        text = str(exc)
        if exc.exit_code == UsageError.exit_code:  # one line
            return _error(text), exc.exit_code
        lines = (terminal_text(cut_message(x)) for x in text.split("\n"))
        return "error: " + "\n".join(lines), exc.exit_code
    if isinstance(exc, DBAPIError):
        damage = _integrity_damage(exc, db)
        if damage is not None:
            return _error(damage), DatabaseError.exit_code
        reason = str(exc.orig) if exc.orig is not None else str(exc)
        if "no such table" in reason or "does not exist" in reason:
            reason += " (is the database built? run `yimao build`)"
        if getattr(exc.orig, "sqlite_errorname", "") == "SQLITE_FULL":
            from yimao_db.db import sqlite_temp_dir

            reason += (
                " (no room left beside the database, or in SQLite's temporary directory "
                f"{sqlite_temp_dir()}: set SQLITE_TMPDIR to a directory with room)"
            )
        return _error(f"database: {reason.strip()}"), DatabaseError.exit_code
    if isinstance(exc, ArgumentError | NoSuchModuleError):
        return _error(f"database URL: {exc}"), UsageError.exit_code
    if isinstance(exc, ModuleNotFoundError) and not (exc.name or "").startswith("yimao_db"):
        return (
            _error(
                f"the database driver {exc.name!r} is not installed "
                "(for PostgreSQL: pip install 'yimao-db[pg]' and use postgresql+psycopg://)"
            ),
            UsageError.exit_code,
        )
    if isinstance(exc, UnicodeEncodeError) and _is_output(exc):
        encoding = getattr(sys.stdout, "encoding", None) or "this"
        return (
            _error(
                f"the output encoding {encoding} cannot show the result; use a UTF-8 locale "
                f"or set PYTHONIOENCODING=utf-8{_stays()}"
            ),
            UsageError.exit_code,
        )
    if isinstance(exc, OSError) and exc.errno in OUTPUT_FAILURES:
        return _error(_output_failure(exc)), UsageError.exit_code
    return None


# A command's files and its database report their own write failures (yimao_db.export, the
# driver's errors above): one of these that reaches the command line is stdout's.
OUTPUT_FAILURES = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF})


def _output_failure(exc: OSError) -> str:
    """The line for output that could not be written (a full disk, /dev/full)."""
    return f"cannot write the output: {exc.strerror or exc}{_stays()}"


def _stays() -> str:
    """What a line about output that failed adds when the command had already written."""
    done = sigint.what_stays()
    return f"; {done} stays" if done else ""


def _error(text: str) -> str:
    return "error: " + terminal_text(cut_message(text))


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and the exceptions it was raised from or while handling (``from None`` too)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and not any(current is s for s in seen):
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _damaged_database(exc: BaseException) -> tuple[str, BaseException] | None:
    """(the database's path, the error) when ``exc`` came from reading a damaged file."""
    from yimao_db.db import DAMAGED_ATTR

    for link in _chain(exc):
        where = getattr(link, DAMAGED_ATTR, None)
        if where is not None:
            return str(where), link
    return None


def _stored_not_utf8(exc: BaseException, db: str | None) -> tuple[str, BaseException] | None:
    """(the database's path, the error) when ``exc`` is about text that is not UTF-8 which a
    query may have made (:data:`yimao_db.db.MAYBE_DAMAGED_ATTR`) and ``yimao check`` finds
    such text stored in the file: then the file is damaged."""
    from yimao_db.db import MAYBE_DAMAGED_ATTR, NOT_UTF8

    where = getattr(exc, MAYBE_DAMAGED_ATTR, None)
    if where is None:
        return None
    if not any(p.kind == "type" and "UTF-8" in p.detail for p in _problems(db)):
        return None
    return str(where), UnicodeDecodeError("utf-8", b"", 0, 0, NOT_UTF8)


def _damage_message(where: str, cause: BaseException, db: str | None) -> str:
    from yimao_db.db import NOT_UTF8

    check = _check_command(db)
    if isinstance(cause, UnicodeDecodeError) or str(cause).startswith(NOT_UTF8):
        found = "it holds text that is not valid UTF-8"
    else:
        found = f"SQLite: {cause}"
        if getattr(cause, "sqlite_errorname", "") == "SQLITE_NOTADB":
            return f"{where} is not a database, or its header is damaged ({found})"
    return f"the database file {where} is damaged ({found}); run `{check}` to see where"


def _is_output(exc: UnicodeEncodeError) -> bool:
    """True when the text could not be encoded for stdout (a non-UTF-8 terminal)."""
    try:
        return codecs.lookup(exc.encoding).name == codecs.lookup(sys.stdout.encoding).name
    except (LookupError, TypeError, AttributeError):
        return False


def _quiet_stdout() -> None:
    """After a broken pipe (``yimao … | head``): point stdout at /dev/null so that Python's
    final flush does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (tests capture it)
        pass


if __name__ == "__main__":
    raise SystemExit(main())
