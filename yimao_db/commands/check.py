"""``yimao check``: the read-only doctor (see :mod:`yimao_db.check`).

Progress goes to stderr, on one line rewritten in place, when stderr is a terminal and the
check is long: once it has run for :data:`QUIET_SECONDS`, or as soon as it meets
:data:`MANY_READINGS` readings. Problems and the verdict go to stdout.
"""

from __future__ import annotations

import argparse

from yimao_db import db as dbmod
from yimao_db.commands import SubParsers, db_option, out
from yimao_db.present.progress import on_terminal

MANY_READINGS = 10_000
QUIET_SECONDS = 1.0


def cmd_check(args: argparse.Namespace) -> int:
    from yimao_db.check import run

    url = dbmod.resolve_url(args.db)
    where = str(dbmod.sqlite_path(url) or url.render_as_string(hide_password=True))
    progress = on_terminal(prefix="checking ", many=MANY_READINGS, quiet_seconds=QUIET_SECONDS)
    try:
        report = run(url, progress=progress)
    finally:
        if progress is not None:
            progress.clear()
    if report.ok:
        out(f"ok: {where}: " + ", ".join(report.checked) + "\n")
        return 0
    out("".join(f"{problem}\n" for problem in report.problems))
    count = len(report.problems)
    out(f"{where}: {count} problem{'s' if count != 1 else ''} found\n")
    return 1


def register(sub: SubParsers) -> None:
    p = sub.add_parser(
        "check",
        help="verify the database: integrity, revision, constraints and types, seeded rows "
        "against the rules, invariants, readings against their inputs and the calendar "
        "(read-only; exit 1 on any problem)",
    )
    db_option(p)
    p.set_defaults(handler=cmd_check)
