"""The ``yimao`` command line. Every command is documented in README.md and tested.

User errors print ``error: …`` (what was wrong and what is expected) and exit 2 with
nothing written; no traceback reaches the user for anything they typed. The commands
live in :mod:`yimao_db.commands`, one module per concern.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from yimao_db.errors import DatabaseError, UsageError, YimaoError

Handler = Callable[[argparse.Namespace], int]

# yimao_db.commands.<name>, in the order they are listed by --help
COMMAND_MODULES = ("core", "readings", "check", "docs", "data")


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UsageError(message)


def make_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="yimao",
        description="程良玉《易冒》卷一 as a relational knowledge base (SQLite or PostgreSQL).",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(f"yimao_db.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = make_parser().parse_args(argv)
        for name, value in vars(args).items():
            if value == []:  # argparse turns an option value of exactly "--" into []
                option = name.replace("_", "-")
                raise UsageError(f"--{option} needs a value ('--' alone is not one)")
        handler: Handler = args.handler
        return handler(args)
    except YimaoError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return exc.exit_code
    except DBAPIError as exc:
        reason = str(exc.orig) if exc.orig is not None else str(exc)
        if "no such table" in reason or "does not exist" in reason:
            reason += " (is the database built? run `yimao build`)"
        sys.stderr.write(f"error: database: {reason.strip()}\n")
        return DatabaseError.exit_code
    except (ArgumentError, NoSuchModuleError) as exc:
        sys.stderr.write(f"error: database URL: {exc}\n")
        return UsageError.exit_code
    except ModuleNotFoundError as exc:
        sys.stderr.write(
            f"error: the database driver {exc.name!r} is not installed "
            "(for PostgreSQL: pip install 'yimao-db[pg]' and use postgresql+psycopg://)\n"
        )
        return UsageError.exit_code
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
