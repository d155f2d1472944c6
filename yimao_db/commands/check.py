"""``yimao check``: the read-only doctor (see :mod:`yimao_db.check`).

Progress goes to stderr, on one line rewritten in place, when stderr is a terminal and the
check is long: once it has run for :data:`QUIET_SECONDS`, or as soon as it meets
:data:`MANY_READINGS` readings. Problems and the verdict go to stdout.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from yimao_db import db as dbmod
from yimao_db.commands import SubParsers, db_option, out

MANY_READINGS = 10_000
QUIET_SECONDS = 1.0
EVERY_SECONDS = 0.2  # at most this often


class TerminalProgress:
    """``checking readings: 45% (450,000 of 1,000,000)`` on one line of ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.monotonic()
        self.shown = 0.0  # when the line was last written
        self.width = 0  # of what is on the line now

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if total < MANY_READINGS and now - self.started < QUIET_SECONDS:
            return
        if done and done < total and now - self.shown < EVERY_SECONDS:
            return
        if total:
            line = f"checking {stage}: {done * 100 // total}% ({done:,} of {total:,})"
        else:
            line = f"checking {stage}…"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.shown, self.width = now, len(line)

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def cmd_check(args: argparse.Namespace) -> int:
    from yimao_db.check import run

    url = dbmod.resolve_url(args.db)
    where = str(dbmod.sqlite_path(url) or url.render_as_string(hide_password=True))
    progress = TerminalProgress(sys.stderr) if sys.stderr.isatty() else None
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
