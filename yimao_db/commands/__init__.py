"""The ``yimao`` subcommands, one module per concern; each defines ``register(sub)``.

Shared helpers for the modules: the ``--db`` option, output-format options and printing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yimao_db.present.formats import Terminal

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


def terminal() -> Terminal:
    """Standard output as the text format sees it: on a terminal, its width and colour
    unless ``NO_COLOR`` is set; else no width and no colour."""
    from yimao_db.present.formats import PLAIN, Terminal

    if not sys.stdout.isatty():
        return PLAIN
    return Terminal(shutil.get_terminal_size().columns, not os.environ.get("NO_COLOR"))


def chart_format_options(p: argparse.ArgumentParser, kind: str = "chart") -> None:
    """``--format NAME`` over the formats that render ``kind`` (:mod:`yimao_db.present.formats`;
    the first registered is the default) and ``--json``, its alias for json."""
    from yimao_db.present.formats import FORMATS, names

    choices = names(kind)
    about = [FORMATS[n].about + (" (default)" if i == 0 else "") for i, n in enumerate(choices)]
    p.add_argument(
        "--format",
        choices=choices,
        default=choices[0],
        help=", ".join(about[:-1]) + " or " + about[-1],
    )
    if "json" in choices:
        p.add_argument(
            "--json",
            dest="format",
            action="store_const",
            const="json",
            help="same as --format json",
        )
