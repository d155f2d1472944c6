"""``yimao build`` and ``yimao show``."""

from __future__ import annotations

import argparse
import sys

from yimao_db import db as dbmod
from yimao_db.commands import SubParsers, chart_format_options, db_option, out, terminal
from yimao_db.lookup import KIND_NAMES


def cmd_build(args: argparse.Namespace) -> int:
    from yimao_db.building import build

    url = dbmod.resolve_url(args.db)
    report = build(url, mend=args.mend)
    where = str(dbmod.sqlite_path(url) or url.render_as_string(hide_password=True))
    out(report.describe(where) + "\n")
    for note in report.notes:
        sys.stderr.write(f"note: {note}\n")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from yimao_db.present.formats import show_renderer
    from yimao_db.present.show import show

    engine = dbmod.reader_engine(args.db)
    with engine.connect() as conn:
        data = show(conn, args.name, args.kind)
    out(show_renderer(args.format)(data, args.name, terminal()))
    return 0


def register(sub: SubParsers) -> None:
    p = sub.add_parser("build", help="create or upgrade the database and seed it")
    db_option(p)
    p.add_argument(
        "--mend",
        action="store_true",
        help="also compare every derived row with its definition and rewrite the readings "
        "whose rows differ (what yimao check reports as 'derived'; reads every reading)",
    )
    p.set_defaults(handler=cmd_build)

    p = sub.add_parser(
        "show",
        help="show a hexagram's six lines, or any other name with the rule and symbol rows "
        "about it",
        description="Show what a name means. A hexagram (乾為天, 姤, 天风姤, 44, 011111) is laid "
        "out line by line; any other name (青龍, 青龙, 元武, 天空, 木, 子, 角, 官鬼) shows each "
        "kind it names: its row, its aliases and the rule and symbol rows about it, with their "
        "passages. Names resolve through name_alias: traditional or simplified characters, "
        "seed variants, pinyin with or without tones, English.",
    )
    p.add_argument(
        "name",
        metavar="hexagram_or_name",
        help="a hexagram (name, King Wen number or bits) or any vocabulary name",
    )
    p.add_argument(
        "--kind",
        choices=list(KIND_NAMES),
        metavar="KIND",
        help="show only this kind, for a name of several (乾 --kind trigram): "
        + ", ".join(KIND_NAMES),
    )
    chart_format_options(p, "show")
    db_option(p)
    p.set_defaults(handler=cmd_show)
