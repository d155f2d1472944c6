"""``yimao build`` and ``yimao show``."""

from __future__ import annotations

import argparse
import json

from yimao_db import db as dbmod
from yimao_db.commands import SubParsers, chart_format_options, db_option, out
from yimao_db.lookup import KIND_NAMES


def cmd_build(args: argparse.Namespace) -> int:
    from yimao_db.building import build

    url = dbmod.resolve_url(args.db)
    report = build(url)
    where = str(dbmod.sqlite_path(url) or url.render_as_string(hide_password=True))
    out(report.describe(where) + "\n")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from yimao_db.present.show import render_show, show

    engine = dbmod.reader_engine(args.db)
    with engine.connect() as conn:
        data = show(conn, args.name, args.kind)
    if args.format == "json":
        out(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")
    elif args.format == "markdown":
        from yimao_db.present.show_forms import show_markdown

        out(show_markdown(data))
    elif args.format == "html":
        from yimao_db.present.show_forms import show_html

        out(show_html(data, args.name))
    else:
        out(render_show(data))
    return 0


def register(sub: SubParsers) -> None:
    p = sub.add_parser("build", help="create or upgrade the database and seed it")
    db_option(p)
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
    chart_format_options(p)
    db_option(p)
    p.set_defaults(handler=cmd_show)
