"""The server of ``yimao serve``: datasette with the yimao plugin, run by uvicorn on a socket
:func:`yimao_db.web.site.listen` opened (:mod:`yimao_db.web.site` describes the site)."""

from __future__ import annotations

import asyncio
import socket
import sys
from typing import Any

from yimao_db.web import limits
from yimao_db.web.site import DATABASE, HERE, MAX_CONNECTIONS, SETTINGS, STATIC, Group, Site


def datasette_app(site: Site, meta: dict[str, Any], groups: list[Group]) -> Any:
    """The datasette instance serving ``site`` with the yimao plugin, its tables listed in
    the order of ``groups``."""
    from datasette.app import Datasette
    from datasette.plugins import pm

    from yimao_db.web import plugin  # after datasette's own plugins are registered

    if not pm.is_registered(plugin):
        pm.register(plugin, name="yimao-db")
    ds = Datasette(
        metadata=meta,
        template_dir=str(HERE / "templates"),
        static_mounts=[(STATIC, str(HERE / "static"))],
        settings=SETTINGS,
    )
    ds.add_database(limits.LimitedDatabase(ds, str(site.path), site.immutable), name=DATABASE)
    ds.remove_database("_memory")  # datasette adds it when given no file
    plugin.attach(ds, site, groups)
    return ds


def serve(site: Site, meta: dict[str, Any], groups: list[Group], sock: socket.socket) -> None:
    """Run datasette on ``sock`` until interrupted (Ctrl-C, SIGTERM)."""
    import uvicorn

    ds = datasette_app(site, meta, groups)
    asyncio.run(ds.invoke_startup())
    host, port = sock.getsockname()[:2]
    mode = "immutable" if site.immutable else "read-only"
    shown = f"[{host}]" if ":" in host else host
    sys.stdout.write(f"serving {site.path} ({mode}) at http://{shown}:{port}/ (Ctrl-C stops)\n")
    sys.stdout.flush()
    config = uvicorn.Config(
        ds.app(),
        log_level="warning",
        lifespan="off",  # datasette started above (invoke_startup); no lifespan task to cancel
        workers=1,
        limit_concurrency=MAX_CONNECTIONS,
    )
    uvicorn.Server(config).run(sockets=[sock])
