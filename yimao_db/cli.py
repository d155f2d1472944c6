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


def _print_chart(reading_id: int, args: argparse.Namespace, db: object) -> None:
    from yimao_db.layout import render_chart
    from yimao_db.readings import chart

    result = chart(reading_id, db)  # type: ignore[arg-type]
    if args.json:
        _out(json.dumps(result.as_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        _out(render_chart(result))


def cmd_cast(args: argparse.Namespace) -> int:
    from yimao_db.readings import cast

    engine = dbmod.writer_engine(args.db)
    reading_id = cast(
        args.lines,
        coins=args.coins,
        random=args.random,
        moving=args.moving or (),
        at=args.at,
        tz=args.tz,
        pillars=args.pillars,
        year=args.year,
        month=args.month,
        day=args.day,
        hour=args.hour,
        early_rat=args.early_rat,
        najia=args.najia,
        question=args.question,
        db=engine,
    )
    _print_chart(reading_id, args, engine)
    return 0


def _reading_id(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise UsageError(f"bad reading id {text!r}: expected a positive whole number")
    return int(text)


def cmd_reading(args: argparse.Namespace) -> int:
    _print_chart(_reading_id(args.id), args, dbmod.reader_engine(args.db))
    return 0


def cmd_readings(args: argparse.Namespace) -> int:
    from yimao_db.output import render
    from yimao_db.readings import recent

    columns, rows = recent(args.limit, dbmod.reader_engine(args.db))
    _out(render(columns, rows, args.format))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from yimao_db.readings import import_file

    ids = import_file(args.file, dbmod.writer_engine(args.db))
    _out("".join(f"{i}\n" for i in ids))
    return 0


def _format_options(p: argparse.ArgumentParser, default: str = "table") -> None:
    g = p.add_mutually_exclusive_group()
    for fmt in ("csv", "json", "jsonl"):
        g.add_argument(
            f"--{fmt}", dest="format", action="store_const", const=fmt, help=f"print {fmt}"
        )
    g.add_argument(
        "--table",
        dest="format",
        action="store_const",
        const="table",
        help="print an aligned table (default)",
    )
    p.set_defaults(format=default)


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

    p = sub.add_parser("cast", help="cast a reading, store it and print its chart")
    p.add_argument(
        "lines", nargs="?", help="six values 6-9 from line 1 (789678), 乾之姤, or HEX[:1,4]"
    )
    p.add_argument("--coins", help="backs per line from line 1, e.g. 2,1,3,0,2,2")
    p.add_argument("--random", action="store_true", help="throw the coins (secrets module)")
    p.add_argument("--moving", help="moving line numbers with a hexagram, e.g. 1,4")
    p.add_argument("--at", help="local date-time, ISO 8601 (default: now)")
    p.add_argument("--tz", help="IANA time zone of --at (default Asia/Shanghai)")
    p.add_argument("--pillars", help="year,month,day[,hour] ganzhi instead of --at")
    p.add_argument("--year", help="year pillar (ganzhi)")
    p.add_argument("--month", help="month pillar (ganzhi) or month branch 月建")
    p.add_argument("--day", help="day pillar (ganzhi)")
    p.add_argument("--hour", help="hour pillar (ganzhi)")
    p.add_argument(
        "--early-rat", action="store_true", help="23:00-24:00 counts as the next day (早子時)"
    )
    p.add_argument(
        "--najia",
        choices=("fixed", "seasonal"),
        default="fixed",
        help="najia table: fixed (default) or seasonal 二老時遷 (§4.3)",
    )
    p.add_argument("--question", help="the question, stored verbatim")
    p.add_argument("--json", action="store_true", help="print the chart as JSON")
    _db_option(p)
    p.set_defaults(handler=cmd_cast)

    p = sub.add_parser("reading", help="print a stored reading's chart")
    p.add_argument("id", help="reading id")
    p.add_argument("--json", action="store_true", help="print the chart as JSON")
    _db_option(p)
    p.set_defaults(handler=cmd_reading)

    p = sub.add_parser("readings", help="list stored readings, newest first")
    p.add_argument("--limit", type=int, default=20, help="how many (default 20)")
    _format_options(p)
    _db_option(p)
    p.set_defaults(handler=cmd_readings)

    p = sub.add_parser("import", help="store readings from CSV or JSON Lines in one transaction")
    p.add_argument("file", help="CSV or JSON Lines with columns lines, at, tz, question")
    _db_option(p)
    p.set_defaults(handler=cmd_import)
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
