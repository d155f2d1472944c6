"""``yimao check``: the read-only doctor (see :mod:`yimao_db.check`)."""

from __future__ import annotations

import argparse

from yimao_db import db as dbmod
from yimao_db.commands import SubParsers, db_option, out


def cmd_check(args: argparse.Namespace) -> int:
    from yimao_db.check import run

    url = dbmod.resolve_url(args.db)
    where = str(dbmod.sqlite_path(url) or url.render_as_string(hide_password=True))
    report = run(url)
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
        help="verify the database: integrity, revision, seeded rows against the rules, "
        "invariants, readings (read-only; exit 1 on any problem)",
    )
    db_option(p)
    p.set_defaults(handler=cmd_check)
