"""``yimao cast``, ``yimao reading``, ``yimao readings`` and ``yimao import``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Engine

from yimao_db import db as dbmod
from yimao_db import sigint
from yimao_db.commands import (
    SubParsers,
    chart_format_options,
    db_option,
    format_options,
    out,
    terminal,
)
from yimao_db.errors import UsageError
from yimao_db.inputs import limit, moving_count, reading_id
from yimao_db.kb.vocab import VERDICTS

DEFAULT_LIMIT = 20


def built_writer(db: str | None) -> Engine:
    """A writer engine on a database that is built: casting never creates or changes a file
    that is not already a yimao database."""
    return dbmod.writer_engine(db, require_built=True)


def chart_text(reading_id: int, args: argparse.Namespace, db: Engine | Connection) -> str:
    """A stored reading's chart with its journal, in ``args.format``."""
    from yimao_db.journaling import journal
    from yimao_db.present.formats import chart_renderer
    from yimao_db.readings import chart

    return chart_renderer(args.format)(chart(reading_id, db), journal(reading_id, db), terminal())


def cmd_cast(args: argparse.Namespace) -> int:
    """Store the reading and read its chart back in one transaction: if the chart cannot be
    read (a damaged database, Ctrl-C), the reading is not kept either."""
    engine = built_writer(args.db)
    try:
        with engine.begin() as conn:
            text = chart_text(_cast(args, conn), args, conn)
        note_assumed_time(args.at, args.tz)
    finally:
        engine.dispose()
    out(text)
    return 0


def note_assumed_time(at: str | None, tz: str | None) -> None:
    """After a successful cast: one ``note:`` line on stderr if ``--at`` was only a date."""
    from yimao_db.calendar.civiltime import default_tz, parse_at

    if at is not None:
        note = parse_at(at, tz or default_tz()).note
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


def _cast(args: argparse.Namespace, conn: Connection) -> int:
    from yimao_db.readings import cast

    return cast(
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
        about=args.about,
        db=conn,
    )


def cmd_reading(args: argparse.Namespace) -> int:
    wanted = reading_id(args.id)
    engine = dbmod.reader_engine(args.db)
    try:
        text = chart_text(wanted, args, engine)
    finally:
        engine.dispose()
    out(text)
    return 0


def cmd_readings(args: argparse.Namespace) -> int:
    from yimao_db.finding import Filters, find
    from yimao_db.present.readings_list import json_rows, table_rows
    from yimao_db.present.table import render

    if args.all and args.limit is not None:
        raise UsageError("give --all or --limit, not both")
    filters = Filters(
        hexagram=args.hexagram,
        changed=args.changed,
        since=args.since,
        until=args.until,
        tag=args.tag,
        search=args.search,
        matter=args.matter,
        moving=args.moving,
        outcome=args.outcome,
    )
    engine = dbmod.reader_engine(args.db)
    try:
        with engine.connect() as conn:
            limit_ = None if args.all else args.limit or DEFAULT_LIMIT
            columns, found = find(conn, filters, limit_)
    finally:
        engine.dispose()
    rows: Sequence[Sequence[Any]] = found
    if args.format == "table":  # for people: narrow; every column in --csv and --json
        columns, rows = table_rows(columns, found)
    elif args.format in ("json", "jsonl"):
        rows = json_rows(columns, found)
    out(render(columns, rows, args.format))
    return 0


def import_summary(ids: list[int], seconds: float) -> str:
    """``imported 3 readings (ids 4–6) in 0.2 s``."""
    if len(ids) == 1:
        return f"imported 1 reading (id {ids[0]}) in {seconds:.1f} s"
    gaps = "" if ids[-1] - ids[0] == len(ids) - 1 else ", not contiguous"
    return f"imported {len(ids)} readings (ids {ids[0]}–{ids[-1]}{gaps}) in {seconds:.1f} s"


def cmd_import(args: argparse.Namespace) -> int:
    from yimao_db.importing import import_file
    from yimao_db.present.progress import on_terminal

    began = time.perf_counter()
    meter = on_terminal(unit=" readings")
    reported = []

    def done(ids: list[int]) -> None:  # called after the commit, Ctrl-C ignored meanwhile
        if meter is not None:
            meter.clear()
        summary = import_summary(ids, time.perf_counter() - began) + "\n"
        if args.ids:
            out("".join(f"{i}\n" for i in ids))
            sys.stderr.write(summary)
        else:
            out(summary)
        if notes:
            sys.stderr.write(import_notes(notes))
        reported.append(True)

    notes: list[str] = []
    engine = built_writer(args.db)
    try:
        try:
            import_file(args.file, engine, progress=meter, done=done, notes=notes)
        finally:
            with sigint.ignored():  # closing is not to be cut short: a lost connection
                engine.dispose()  # would leave SQLite's side files beside the file
            if meter is not None:
                meter.clear()
    except KeyboardInterrupt:
        if not reported:
            raise
        # too late: the import is committed and reported; the interrupt changes nothing
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
    p.add_argument(
        "--tz", help="IANA time zone of --at (default: $YIMAO_TZ if set, else Asia/Shanghai)"
    )
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
    p.add_argument(
        "--about",
        metavar="SUBJECT",
        help="the subject asked about: wealth, self, other, office, illness, 官鬼 … "
        "(docs/use.md); the chart names its 用神. Default: the matter's subject",
    )
    chart_format_options(p)
    db_option(p)
    p.set_defaults(handler=cmd_cast)

    p = sub.add_parser("reading", help="print a stored reading's chart")
    p.add_argument("id", help="reading id")
    chart_format_options(p)
    db_option(p)
    p.set_defaults(handler=cmd_reading)

    p = sub.add_parser(
        "readings",
        help="list stored readings, newest first, with filters",
        description="List stored readings, newest first. Filters combine; a reading's date "
        "is the local date it was cast for (cast from pillars: the day it was stored, UTC).",
    )
    p.add_argument("--limit", type=limit, help=f"how many (default {DEFAULT_LIMIT})")
    p.add_argument("--all", action="store_true", help="every matching reading")
    p.add_argument("--hexagram", metavar="NAME", help="the primary hexagram (any accepted name)")
    p.add_argument("--changed", metavar="NAME", help="the changed hexagram")
    p.add_argument("--since", metavar="DATE", help="cast on or after DATE (YYYY-MM-DD)")
    p.add_argument("--until", metavar="DATE", help="cast on or before DATE (YYYY-MM-DD)")
    p.add_argument("--tag", metavar="TAG", help="tagged TAG")
    p.add_argument("--search", metavar="TEXT", help="TEXT in the question or a note")
    p.add_argument("--matter", metavar="KIND", help="asked about this matter")
    p.add_argument("--moving", type=moving_count, metavar="N", help="N moving lines (0-6)")
    p.add_argument(
        "--outcome",
        choices=(*VERDICTS, "none"),
        metavar="hit|miss|partial|none",
        help="with this outcome (none: no outcome recorded)",
    )
    format_options(p)
    db_option(p)
    p.set_defaults(handler=cmd_readings)

    p = sub.add_parser("import", help="store readings from CSV or JSON Lines in one transaction")
    p.add_argument(
        "file",
        help="CSV or JSON Lines with columns lines, at, tz, question, matter, about (- reads "
        "standard input)",
    )
    p.add_argument(
        "--ids", action="store_true", help="print the new ids, one per line (summary on stderr)"
    )
    db_option(p)
    p.set_defaults(handler=cmd_import)
