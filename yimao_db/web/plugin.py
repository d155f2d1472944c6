"""The datasette plugin of ``yimao serve`` (registered by :mod:`yimao_db.web.site`, not by
an entry point, so a plain ``datasette`` elsewhere is left alone).

* ``/reading/ID``: a stored reading's chart; ``/hexagram/NAME``: a hexagram by any name
  ``yimao show`` accepts; ``/passages``: the book's passages with the rows citing each. An
  id or name that finds nothing is a 404 page saying what was expected.
* every ``reading_id`` of the reading views links to its chart, every ``king_wen`` of the
  hexagram views to its hexagram page;
* the column descriptions of a table page fold into one ``<details>`` element (and each
  column heading shows its description on hover);
* every connection to the database runs ``PRAGMA query_only``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pluggy
from datasette.utils import tilde_decode
from datasette.utils.asgi import NotFound as DatasetteNotFound
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from yimao_db.web import pages
from yimao_db.web.site import DATABASE, STATIC, Site

hookimpl = pluggy.HookimplMarker("datasette")  # datasette's own marker, typed
SITE_ATTR = "yimao_site"
READING_VIEWS = ("v_reading", "v_reading_line", "v_reading_hidden", "v_reading_cast")
HEXAGRAM_VIEWS = ("v_hexagram", "v_line", "v_hidden", "v_hexagram_pattern")


def attach(datasette: Any, site: Site) -> None:
    setattr(datasette, SITE_ATTR, site)


def _site(datasette: Any) -> Site:
    site: Site = getattr(datasette, SITE_ATTR)
    return site


async def _read(datasette: Any, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(conn, *args)`` on a read-only connection, in a worker thread; a
    :class:`pages.NotFound` becomes datasette's 404 page with its message."""

    def run() -> Any:
        with _site(datasette).engine.connect() as conn:
            return fn(conn, *args)

    try:
        return await asyncio.to_thread(run)
    except pages.NotFound as exc:
        raise DatasetteNotFound(str(exc)) from None


def _typed(request: Any, part: str) -> str:
    """A part of the path as typed: datasette redirects a percent-encoded path (姤 as
    %E5%A7%A4) to its tilde encoding (~E5~A7~A4), decoded here."""
    return str(tilde_decode(request.url_vars[part]))


async def _page(datasette: Any, request: Any, template: str, context: dict[str, Any]) -> Any:
    body = await datasette.render_template(
        template, {**context, "yimao_database": DATABASE}, request=request
    )
    return Response.html(body)


async def reading_page(datasette: Any, request: Any) -> Any:
    data = await _read(datasette, pages.reading, _typed(request, "id"))
    return await _page(datasette, request, "yimao_reading.html", data)


async def hexagram_page(datasette: Any, request: Any) -> Any:
    data = await _read(datasette, pages.hexagram, _typed(request, "name"))
    return await _page(datasette, request, "yimao_hexagram.html", {"hexagram": data})


async def passages_page(datasette: Any, request: Any) -> Any:
    data = await _read(datasette, pages.passages)
    return await _page(datasette, request, "yimao_passages.html", {"passages": data})


@hookimpl
def register_routes() -> list[tuple[str, Any]]:
    return [
        (r"^/reading/(?P<id>[^/]+)$", reading_page),
        (r"^/hexagram/(?P<name>[^/]+)$", hexagram_page),
        (r"^/passages$", passages_page),
    ]


@hookimpl
def render_cell(value: Any, column: str, table: str | None, database: str, datasette: Any) -> Any:
    if database != DATABASE or value is None:
        return None
    if column == "reading_id" and table in READING_VIEWS:
        href = datasette.urls.path(f"/reading/{int(value)}")
    elif column in ("king_wen", "primary_king_wen", "changed_king_wen") and table in (
        *HEXAGRAM_VIEWS,
        *READING_VIEWS,
    ):
        href = datasette.urls.path(f"/hexagram/{int(value)}")
    else:
        return None
    return Markup(f'<a href="{escape(href)}">{escape(str(value))}</a>')


@hookimpl
def prepare_connection(conn: Any, database: str) -> None:
    if database == DATABASE:
        conn.execute("PRAGMA query_only = ON")


@hookimpl
def extra_css_urls(datasette: Any) -> list[str]:
    return [datasette.urls.path(f"/{STATIC}/yimao.css")]


@hookimpl
def extra_js_urls(datasette: Any) -> list[str]:
    return [datasette.urls.path(f"/{STATIC}/yimao.js")]


@hookimpl
def menu_links(datasette: Any) -> list[dict[str, str]]:
    return [{"href": datasette.urls.path("/passages"), "label": "The book's passages"}]
