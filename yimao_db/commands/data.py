"""``yimao sql`` (one read-only query) and ``yimao export`` (views and reference tables)."""

from __future__ import annotations

import argparse
import sys

from yimao_db.commands import SubParsers, db_option, format_options, out


def cmd_sql(args: argparse.Namespace) -> int:
    from yimao_db.present import table as output
    from yimao_db.sql.run import parse_params, parse_timeout, query

    params = parse_params(args.param or ())
    timeout = parse_timeout(args.timeout)
    text = sys.stdin.read() if args.query == "-" else args.query
    with query(text, params, args.db, timeout=timeout) as result:
        if result.columns is None:
            return 0
        output.check_keys(result.columns, args.format)
        shown = output.write(sys.stdout, result.columns, result.rows, args.format)
    if shown is not None:
        sys.stderr.write(f"note: showing the first {shown} rows; use --csv or --jsonl for all\n")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from yimao_db.export import README, export
    from yimao_db.present.progress import on_terminal

    progress = on_terminal(prefix="exporting ")
    try:
        written = export(args.dir, args.format, args.db, progress=progress)
    finally:
        if progress is not None:
            progress.clear()
    rows = sum(e.rows for e in written)
    out(f"{args.dir}: wrote {len(written)} {args.format} files ({rows} rows) and {README}\n")
    return 0


def register(sub: SubParsers) -> None:
    p = sub.add_parser(
        "sql",
        help="run one read-only SQL query and print its rows",
        description="Run ONE read-only statement (SELECT, WITH, VALUES, EXPLAIN; reporting "
        "PRAGMAs on SQLite; TABLE and SHOW on PostgreSQL). Anything that would write is "
        "refused (exit 2) and the database is left unchanged. Output is an aligned table "
        "(at most 10000 rows) unless --csv, --json or --jsonl is given; those stream any "
        "number of rows. The query is stopped after --timeout seconds.",
    )
    p.add_argument("query", help='the statement, e.g. "SELECT * FROM v_hexagram" (- reads stdin)')
    p.add_argument(
        "-p",
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="bind :NAME in the query (text; NAME:int=… or NAME:float=… for numbers); repeatable",
    )
    p.add_argument(
        "--timeout",
        metavar="SECONDS",
        help="stop the query after SECONDS (default 30; none or 0: no limit); exit 2",
    )
    format_options(p)
    db_option(p)
    p.set_defaults(handler=cmd_sql)

    p = sub.add_parser(
        "export",
        help="write every public view and reference table to DIR, one file each",
        description="Write every public view (v_*) and reference table to DIR, one file each "
        "with a header row and a stable row order, plus README.md documenting them. "
        "Re-running on an unchanged database gives byte-identical files.",
    )
    p.add_argument("dir", help="output directory (created if missing)")
    p.add_argument(
        "--format",
        choices=("csv", "jsonl", "parquet"),
        default="csv",
        help="csv (default), jsonl, or parquet (needs pyarrow)",
    )
    db_option(p)
    p.set_defaults(handler=cmd_export)
