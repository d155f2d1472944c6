"""``yimao build`` and ``yimao show``."""

from __future__ import annotations

import argparse
import json

from yimao_db import db as dbmod
from yimao_db.commands import SubParsers, db_option, out


def cmd_build(args: argparse.Namespace) -> int:
    from yimao_db.build import build

    url = dbmod.resolve_url(args.db)
    report = build(url)
    where = str(dbmod.sqlite_path(url) or url.render_as_string(hide_password=True))
    out(report.describe(where) + "\n")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from yimao_db.show import render_hexagram, show

    engine = dbmod.reader_engine(args.db)
    with engine.connect() as conn:
        data = show(conn, args.hexagram)
    if args.json:
        out(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        out(render_hexagram(data))
    return 0


def register(sub: SubParsers) -> None:
    p = sub.add_parser("build", help="create or upgrade the database and seed it")
    db_option(p)
    p.set_defaults(handler=cmd_build)

    p = sub.add_parser("show", help="show a hexagram's six lines as a practitioner reads them")
    p.add_argument("hexagram", help="name (乾為天, 姤, 天风姤), King Wen number or bits")
    p.add_argument("--json", action="store_true", help="print JSON instead of the layout")
    db_option(p)
    p.set_defaults(handler=cmd_show)
