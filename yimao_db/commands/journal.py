"""``yimao note``, ``outcome``, ``tag``, ``untag``, ``delete`` and ``stats``: the journal."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from yimao_db.commands import SubParsers, db_option, format_options, out
from yimao_db.commands.readings import built_writer
from yimao_db.errors import UsageError
from yimao_db.inputs import reading_id
from yimao_db.kb.vocab import VERDICTS


def cmd_note(args: argparse.Namespace) -> int:
    from yimao_db.journaling import add_note

    rid = reading_id(args.id)
    engine = built_writer(args.db)
    try:
        note_id = add_note(rid, args.text, engine)
    finally:
        engine.dispose()
    out(f"note {note_id} added to reading {rid}\n")
    return 0


def cmd_about(args: argparse.Namespace) -> int:
    from yimao_db.journaling import NO_SUBJECT, set_about

    rid = reading_id(args.id)
    wanted = None if args.subject.strip().lower() in NO_SUBJECT else args.subject
    engine = built_writer(args.db)
    try:
        change = set_about(rid, wanted, engine)
    finally:
        engine.dispose()
    if change.old == change.new:
        out(f"reading {rid} is already about {change.new or 'nothing said'}\n")
    else:
        was = f" (was {change.old})" if change.old else ""
        out(f"reading {rid} is about {change.new or 'nothing said'}{was}\n")
    return 0


def cmd_outcome(args: argparse.Namespace) -> int:
    from yimao_db.journaling import record_outcome

    rid = reading_id(args.id)
    engine = built_writer(args.db)
    try:
        before = record_outcome(rid, args.verdict, args.on, args.text, engine)
    finally:
        engine.dispose()
    line = f"reading {rid}: {args.verdict}"
    if before is not None:
        line += f" (replaces {before.verdict} on {before.happened_on})"
    out(line + "\n")
    return 0


def cmd_tag(args: argparse.Namespace) -> int:
    from yimao_db.journaling import shown_tag, tag, untag

    rid = reading_id(args.id)
    engine = built_writer(args.db)
    try:
        if args.command == "tag":
            changed = tag(rid, args.tags, engine)
            line = f"reading {rid} " + (
                f"tagged {', '.join(changed)}" if changed else "already has every tag given"
            )
        else:
            changed = untag(rid, args.tags, engine)
            line = f"reading {rid} untagged {', '.join(map(shown_tag, changed))}"
    finally:
        engine.dispose()
    out(line + "\n")
    return 0


def _confirm(summary: str) -> bool:
    """Ask on the terminal; True for y or yes."""
    sys.stderr.write(f"delete {summary}? [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline()
    return answer.strip().lower() in ("y", "yes")


def cmd_delete(args: argparse.Namespace) -> int:
    from yimao_db.journaling import delete_readings, describe_readings

    ids = sorted({reading_id(i) for i in args.ids})
    if not args.yes and not sys.stdin.isatty():
        raise UsageError("delete asks before it deletes: give --yes when not on a terminal")
    engine = built_writer(args.db)
    try:
        summary = describe_readings(ids, engine)  # UsageError for an unknown id
        if not args.yes and not _confirm(summary):
            sys.stderr.write("nothing deleted\n")
            return 1
        count = delete_readings(ids, engine)
    finally:
        engine.dispose()
    out(f"deleted {count} reading{'s' if count != 1 else ''} ({', '.join(map(str, ids))})\n")
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from yimao_db import db as dbmod
    from yimao_db.present.table import render
    from yimao_db.stats import stats

    engine = dbmod.reader_engine(args.db)
    try:
        with engine.connect() as conn:
            columns, rows = stats(conn, args.by)
    finally:
        engine.dispose()
    out(render(columns, rows, args.format))
    return 0


class _Intermixed:
    """Mixin: options may come between positional arguments (``outcome 3 hit --on DATE
    TEXT``); argparse's intermixed parsing, which calls back into parse_known_args."""

    _inner = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self._inner:
            return super().parse_known_args(args, namespace)  # type: ignore[misc]
        self._inner = True
        try:
            return self.parse_known_intermixed_args(args, namespace)  # type: ignore[attr-defined]
        finally:
            self._inner = False


def _intermixed(sub: SubParsers, name: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A subcommand parser that takes options between its positional arguments."""
    base = sub._parser_class
    sub._parser_class = type("IntermixedParser", (_Intermixed, base), {})
    try:
        parser: argparse.ArgumentParser = sub.add_parser(name, **kwargs)
    finally:
        sub._parser_class = base
    return parser


def register(sub: SubParsers) -> None:
    from yimao_db.stats import GROUPINGS

    p = sub.add_parser("note", help="add a dated note to a reading")
    p.add_argument("id", help="reading id")
    p.add_argument("text", help="the note, stored verbatim")
    db_option(p)
    p.set_defaults(handler=cmd_note)

    p = sub.add_parser(
        "about",
        help="set or change the subject a reading asks about (its 用神), recorded with the date",
    )
    p.add_argument("id", help="reading id")
    p.add_argument(
        "subject", help="wealth, self, other, office, 官鬼 … (docs/use.md); none clears it"
    )
    db_option(p)
    p.set_defaults(handler=cmd_about)

    p = _intermixed(
        sub,
        "outcome",
        help="record what happened after a reading (應驗): hit, miss or partial",
        description="Record the outcome of a reading; recording another replaces it (the "
        "line says what it replaced).",
    )
    p.add_argument("id", help="reading id")
    p.add_argument("verdict", choices=VERDICTS, metavar="hit|miss|partial", help="the outcome")
    p.add_argument("text", nargs="?", help="what happened, stored verbatim")
    p.add_argument("--on", metavar="DATE", help="the day it happened, YYYY-MM-DD (default today)")
    db_option(p)
    p.set_defaults(handler=cmd_outcome)

    for name, what in (("tag", "put tags on a reading"), ("untag", "take tags off a reading")):
        p = sub.add_parser(name, help=what)
        p.add_argument("id", help="reading id")
        p.add_argument("tags", nargs="+", metavar="TAG", help="one word each, no commas")
        db_option(p)
        p.set_defaults(handler=cmd_tag)

    p = sub.add_parser(
        "delete",
        help="delete readings with their lines, notes, outcome and tags",
        description="Delete readings in one transaction: all of them or, if any id is "
        "unknown, none. Asks first on a terminal unless --yes is given; off a terminal, "
        "--yes is required.",
    )
    p.add_argument("ids", nargs="+", metavar="ID", help="reading ids")
    p.add_argument("--yes", action="store_true", help="do not ask")
    db_option(p)
    p.set_defaults(handler=cmd_delete)

    p = sub.add_parser(
        "stats",
        help="count readings and outcomes: in all, per hexagram, per outcome, per sign",
        description="How many readings, and their outcomes with the hit rate (hits among "
        "the readings with an outcome), in all or grouped.",
    )
    p.add_argument(
        "--by",
        choices=GROUPINGS,
        default=GROUPINGS[0],
        help=f"grouping: {', '.join(GROUPINGS)} (default {GROUPINGS[0]})",
    )
    format_options(p)
    db_option(p)
    p.set_defaults(handler=cmd_stats)
