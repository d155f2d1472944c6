"""The ``yimao`` command line. Every command is documented in README.md and tested.

User errors print ``error: …`` (what was wrong and what is expected) and exit 2 with
nothing written; no traceback reaches the user for anything they typed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from sqlalchemy.exc import OperationalError, ProgrammingError

from yimao_db import db as dbmod
from yimao_db.errors import DatabaseError, UsageError, YimaoError

Handler = Callable[[argparse.Namespace], int]


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise UsageError(message)


def _out(text: str) -> None:
    sys.stdout.write(text)


def cmd_build(args: argparse.Namespace) -> int:
    from yimao_db.build import build

    url = dbmod.resolve_url(args.db)
    report = build(url)
    where = str(dbmod.sqlite_path(url) or url.render_as_string(hide_password=True))
    _out(report.describe(where) + "\n")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from yimao_db.show import render_hexagram, show

    engine = dbmod.reader_engine(args.db)
    with engine.connect() as conn:
        data = show(conn, args.hexagram)
    if args.json:
        _out(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        _out(render_hexagram(data))
    return 0


def _db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="database file or SQLAlchemy URL (default: $YIMAO_DB_URL or ./yimao.db)",
    )


def make_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="yimao",
        description="程良玉《易冒》卷一 as a relational knowledge base (SQLite or PostgreSQL).",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    p = sub.add_parser("build", help="create or upgrade the database and seed it")
    _db_option(p)
    p.set_defaults(handler=cmd_build)

    p = sub.add_parser("show", help="show a hexagram's six lines as a practitioner reads them")
    p.add_argument("hexagram", help="name (乾為天, 姤, 天风姤), King Wen number or bits")
    p.add_argument("--json", action="store_true", help="print JSON instead of the layout")
    _db_option(p)
    p.set_defaults(handler=cmd_show)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = make_parser().parse_args(argv)
        handler: Handler = args.handler
        return handler(args)
    except YimaoError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return exc.exit_code
    except (OperationalError, ProgrammingError) as exc:
        reason = str(exc.orig) if exc.orig is not None else str(exc)
        if "no such table" in reason or "does not exist" in reason:
            reason += " (is the database built? run `yimao build`)"
        sys.stderr.write(f"error: database: {reason}\n")
        return DatabaseError.exit_code
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
