"""The ``yimao`` subcommands, one module per concern; each defines ``register(sub)``.

Shared helpers for the modules: the ``--db`` option, output-format options and printing.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

SubParsers = Any  # argparse's _SubParsersAction is private


def out(text: str) -> None:
    sys.stdout.write(text)


def db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help="database file or SQLAlchemy URL (default: $YIMAO_DB_URL or ./yimao.db)",
    )


def format_options(p: argparse.ArgumentParser, default: str = "table") -> None:
    """``--table`` (default), ``--csv``, ``--json``, ``--jsonl`` → ``args.format``."""
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--table", dest="format", action="store_const", const="table", help="aligned table"
    )
    for fmt in ("csv", "json", "jsonl"):
        g.add_argument(f"--{fmt}", dest="format", action="store_const", const=fmt, help=fmt)
    p.set_defaults(format=default)


CHART_FORMATS = ("text", "markdown", "html", "json")


def chart_format_options(p: argparse.ArgumentParser) -> None:
    """``--format text|markdown|html|json`` (default text) and ``--json``, its alias for json."""
    p.add_argument(
        "--format",
        choices=CHART_FORMATS,
        default="text",
        help="text (default), markdown, html (a self-contained page) or json (yimao.chart/1)",
    )
    p.add_argument(
        "--json", dest="format", action="store_const", const="json", help="same as --format json"
    )
