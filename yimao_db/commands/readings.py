"""``yimao cast``, ``yimao reading``, ``yimao readings`` and ``yimao import``."""

from __future__ import annotations

import argparse
import json
import sys

from sqlalchemy import Engine

from yimao_db import db as dbmod
from yimao_db.commands import SubParsers, db_option, format_options, out
from yimao_db.errors import DatabaseError, UsageError
from yimao_db.schema.readings import MAX_ID


def built_writer(db: str | None) -> Engine:
    """A writer engine on a database that exists: casting never creates an empty file."""
    url = dbmod.resolve_url(db)
    path = dbmod.sqlite_path(url)
    if path is not None and not path.is_file():
        raise DatabaseError(f"no database at {path}; run `yimao build` first")
    return dbmod.writer_engine(url)


def print_chart(reading_id: int, args: argparse.Namespace, engine: Engine) -> None:
    from yimao_db.layout import render_chart
    from yimao_db.readings import chart

    result = chart(reading_id, engine)
    if args.json:
        out(json.dumps(result.as_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        out(render_chart(result))


def cmd_cast(args: argparse.Namespace) -> int:
    from yimao_db.readings import cast

    engine = built_writer(args.db)
    try:
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
            matter=args.matter,
            db=engine,
        )
        note_assumed_time(args.at, args.tz)
        print_chart(reading_id, args, engine)
    finally:
        engine.dispose()
    return 0


def note_assumed_time(at: str | None, tz: str | None) -> None:
    """After a successful cast: one ``note:`` line on stderr if ``--at`` was only a date."""
    from yimao_db.civiltime import DEFAULT_TZ, parse_at

    if at is not None:
        note = parse_at(at, tz or DEFAULT_TZ).note
        if note is not None:
            sys.stderr.write(f"note: {note}\n")


def import_notes(notes: list[str]) -> str:
    """The notes of an import as one line (the only note is a date without a time)."""
    if len(notes) == 1:
        return f"note: {notes[0]}\n"
    rows = [note.split(": ", 1)[0] for note in notes]
    shown = ", ".join(rows[:5]) + (", …" if len(rows) > 5 else "")
    return (
        f"note: no time given in {len(rows)} rows ({shown});"
        " each is taken at the start of its day in its zone\n"
    )


def reading_id(text: str) -> int:
    """A reading id typed by a user: a positive whole number."""
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_ID:
        raise UsageError(f"bad reading id {text!r}: expected a positive whole number")
    return int(text)


def limit(text: str) -> int:
    """A ``--limit`` typed by a user: 1 .. MAX_ID."""
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_ID:
        raise UsageError(f"bad --limit {text!r}: expected a whole number from 1 to {MAX_ID}")
    return int(text)


def cmd_reading(args: argparse.Namespace) -> int:
    wanted = reading_id(args.id)
    engine = dbmod.reader_engine(args.db)
    try:
        print_chart(wanted, args, engine)
    finally:
        engine.dispose()
    return 0


def cmd_readings(args: argparse.Namespace) -> int:
    from yimao_db.output import render
    from yimao_db.readings import recent

    columns, rows = recent(args.limit, args.db)
    out(render(columns, rows, args.format))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from yimao_db.readings import import_file

    engine = built_writer(args.db)
    notes: list[str] = []
    try:
        ids = import_file(args.file, engine, notes=notes)
    finally:
        engine.dispose()
    if notes:
        sys.stderr.write(import_notes(notes))
    out("".join(f"{i}\n" for i in ids))
    return 0


def register(sub: SubParsers) -> None:
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
    p.add_argument(
        "--matter",
        help="what the question is about (§9.5): office, wealth, lawsuit or worry "
        "(功名 財利 獄訟 憂患); its signs join the chart",
    )
    p.add_argument("--json", action="store_true", help="print the chart as JSON")
    db_option(p)
    p.set_defaults(handler=cmd_cast)

    p = sub.add_parser("reading", help="print a stored reading's chart")
    p.add_argument("id", help="reading id")
    p.add_argument("--json", action="store_true", help="print the chart as JSON")
    db_option(p)
    p.set_defaults(handler=cmd_reading)

    p = sub.add_parser("readings", help="list stored readings, newest first")
    p.add_argument("--limit", type=limit, default=20, help="how many (default 20)")
    format_options(p)
    db_option(p)
    p.set_defaults(handler=cmd_readings)

    p = sub.add_parser("import", help="store readings from CSV or JSON Lines in one transaction")
    p.add_argument("file", help="CSV or JSON Lines with columns lines, at, tz, question, matter")
    db_option(p)
    p.set_defaults(handler=cmd_import)
