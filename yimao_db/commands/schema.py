"""``yimao schema`` and ``yimao export-metadata``: the documentation stored in the database."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shlex
from pathlib import Path
from typing import Any

from yimao_db import db as dbmod
from yimao_db.commands import SubParsers, db_option, format_options, out
from yimao_db.errors import UsageError, shown
from yimao_db.whole_file import write_whole

TABLE_COLUMNS = ("name", "kind", "section", "description", "passage")
COLUMN_COLUMNS = ("table_name", "ordinal", "column_name", "description", "domain", "passage")


def _read(db: str | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from yimao_db.kb.meta import read_meta

    engine = dbmod.reader_engine(db)
    try:
        with engine.connect() as conn:
            return read_meta(conn)
    finally:
        engine.dispose()


def _find(tables: list[dict[str, Any]], typed: str) -> dict[str, Any]:
    wanted = typed.strip().lower()
    for t in tables:
        if t["name"].lower() == wanted:
            return t
    names = [t["name"] for t in tables]
    near = difflib.get_close_matches(wanted, [n.lower() for n in names], n=3, cutoff=0.6)
    views = ", ".join(t["name"] for t in tables if t["kind"] == "view")
    count = sum(1 for t in tables if t["kind"] == "table")
    guess = f" (did you mean {', '.join(near)}?)" if near else ""
    raise UsageError(
        f"unknown table or view {shown(typed)}{guess}: expected a view ({views}) or one of "
        f"the {count} tables `yimao schema` lists"
    )


def cmd_schema(args: argparse.Namespace) -> int:
    from yimao_db.present.schema_doc import schema_markdown
    from yimao_db.present.table import render, terminal_text

    tables, columns = _read(args.db)
    if args.table is not None:
        table = _find(tables, args.table)
        tables = [table]
        columns = [c for c in columns if c["table_name"] == table["name"]]
    if args.markdown:
        out(schema_markdown(tables, columns))
        return 0
    if args.table is None:
        out(render(TABLE_COLUMNS, [[t[c] for c in TABLE_COLUMNS] for t in tables], args.format))
        return 0
    rows = [[c[k] for k in COLUMN_COLUMNS] for c in columns]
    if args.format == "table":
        t = tables[0]
        out(terminal_text(f"{t['name']} ({t['kind']}, {t['section']}): {t['description']}"))
        out("\n\n")
        out(render(COLUMN_COLUMNS[1:], [r[1:] for r in rows], "table"))
    else:
        out(render(COLUMN_COLUMNS, rows, args.format))
    return 0


def _database_name(db: str | None) -> str:
    """The name datasette shows: a SQLite file's stem, else the URL's database name."""
    url = dbmod.resolve_url(db)
    path = dbmod.sqlite_path(url)
    if path is not None:
        return path.stem
    return url.database or "yimao"


def cmd_export_metadata(args: argparse.Namespace) -> int:
    from yimao_db.present.schema_doc import datasette_metadata

    tables, columns = _read(args.db)
    name = args.database_name or _database_name(args.db)
    document = json.dumps(datasette_metadata(tables, columns, name), ensure_ascii=False, indent=2)
    if args.output in (None, "-"):
        out(document + "\n")
        return 0
    target = Path(args.output)
    if args.output.endswith(("/", os.sep)) or target.is_dir():
        raise UsageError(f"cannot write {args.output}: it is a folder; expected a file name")
    try:
        write_whole(target, document + "\n")
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    use = _use(args.db, target)
    out(f"wrote {target}: {len(tables)} tables and views of database {shown(name)} ({use})\n")
    return 0


def _use(db: str | None, target: Path) -> str:
    """How to use the file: datasette on the SQLite file itself; datasette cannot open
    PostgreSQL, whose reporting tools read the same descriptions as comments."""
    url = dbmod.resolve_url(db)
    path = dbmod.sqlite_path(url)
    if path is None:
        return (
            "datasette opens SQLite files only: on PostgreSQL the same descriptions are the "
            "tables' and columns' comments, which reporting tools such as Metabase and "
            "Superset read (docs/browse.md)"
        )
    command = f"datasette {shlex.quote(str(path))} -m {shlex.quote(str(target))}"
    return f"{command}; yimao serve needs no such file"


def register(sub: SubParsers) -> None:
    p = sub.add_parser(
        "schema",
        help="describe the tables and views (or one table's columns) from the database",
        description="Print the documentation stored in meta_table and meta_column: every "
        "table and view, or one table's columns with description, domain and passage.",
    )
    p.add_argument("table", nargs="?", help="a table or view name (default: list them all)")
    format_options(p)
    p.add_argument("--markdown", action="store_true", help="print Markdown, as in docs/schema.md")
    db_option(p)
    p.set_defaults(handler=cmd_schema)

    p = sub.add_parser(
        "export-metadata",
        help="write a datasette metadata.json with the documentation",
        description="Write a datasette metadata.json (title, description, source, license, "
        "every table's and view's description and column descriptions), for "
        "`datasette yimao.db -m metadata.json` (yimao serve needs no such file; datasette "
        "opens SQLite files only).",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    p.add_argument(
        "--database-name",
        metavar="NAME",
        help="the database's name in datasette (default: from --db, the file's stem such as "
        "yimao, or the database of a URL)",
    )
    db_option(p)
    p.set_defaults(handler=cmd_export_metadata)
