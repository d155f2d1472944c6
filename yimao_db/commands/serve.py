"""``yimao serve``: browse the database with datasette (the optional extra ``web``)."""

from __future__ import annotations

import argparse
import sys

from yimao_db import db as dbmod
from yimao_db import sigint
from yimao_db.commands import SubParsers, db_option
from yimao_db.errors import UsageError

INSTALL = "pip install 'yimao-db[web]'"


def _port(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) > 65535:
        raise UsageError(f"bad --port {text[:20]!r}: expected a port number 0..65535")
    return int(text)


def cmd_serve(args: argparse.Namespace) -> int:
    url = dbmod.resolve_url(args.db)
    if not dbmod.is_sqlite(url):
        raise UsageError(
            "yimao serve serves a SQLite file; on PostgreSQL point a reporting tool "
            "(Metabase, Superset) at the views with a read-only role (docs/browse.md)"
        )
    path = dbmod.sqlite_path(url)
    if path is None:
        raise UsageError("yimao serve needs a database file, not an in-memory database")
    dbmod.preflight(url, require_built=True)  # missing, not a database, not built: refused
    if any(c in str(path) for c in "?#%"):  # datasette puts the path into a URI unescaped
        raise UsageError(
            f"yimao serve cannot serve {path}: datasette misreads a path with ?, # or %; "
            "rename the file or its directory"
        )
    try:
        import datasette  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError:
        raise UsageError(
            f"yimao serve needs datasette, which is not installed ({INSTALL})"
        ) from None
    from yimao_db.kb.meta import read_meta
    from yimao_db.web import server, site

    port = _port(args.port)
    warning = site.check_host(args.host, args.allow_remote)
    with site.opened(path) as served:
        # held: a Ctrl-C raised inside SQLite's authorizer would read as a refusal of the
        # query (`error: database: access to … is prohibited`, exit 2)
        with sigint.held(), served.engine.connect() as conn:
            tables, columns = read_meta(conn)
        meta = site.metadata(tables, columns)
        sock = site.listen(args.host, port)
        if warning is not None:
            sys.stderr.write(warning + "\n")
            sys.stderr.flush()
        try:
            server.serve(served, meta, site.guide(tables), sock)
        finally:
            sock.close()
    return 0


def register(sub: SubParsers) -> None:
    p = sub.add_parser(
        "serve",
        help="browse the database in a web browser (datasette, read-only)",
        description="Serve the database with datasette, read-only: every table and view "
        "with its documentation, sort order and facets, the example queries of "
        "docs/queries.md, a reading's chart at /reading/ID, a hexagram at /hexagram/NAME and "
        f"the book's passages at /passages. Needs the extra web ({INSTALL}).",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1); an address other than loopback "
        "needs --allow-remote",
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="listen on a --host that other machines can reach (the site has no login: "
        "whoever reaches it reads every stored reading); prints a warning",
    )
    p.add_argument(
        "--port", default="8001", help="port to listen on (default 8001; 0: any free port)"
    )
    db_option(p)
    p.set_defaults(handler=cmd_serve)
