"""The datasette plugin of ``yimao serve`` (registered by :mod:`yimao_db.web.site`, not by
an entry point, so a plain ``datasette`` elsewhere is left alone).

* ``/reading/ID``: a stored reading's chart, and ``/reading/ID.SUFFIX`` the same chart in
  each output format (``.txt``, ``.md``, ``.html``, ``.json``: the suffixes of
  :mod:`yimao_db.present.formats`); ``/hexagram/NAME``: a hexagram by any name
  ``yimao show`` accepts; ``/passages``: the book's passages with the rows citing each. An
  id or name that finds nothing is a 404 page saying what was expected.
* every ``reading_id`` of the reading views links to its chart, every ``king_wen`` of the
  hexagram views to its hexagram page;
* the column descriptions of a table page fold into one ``<details>`` element (and each
  column heading shows its description on hover);
* what an anonymous visitor (every visitor: the site has no login) may not see or do:
  datasette's pages listing the file's path (``/-/databases``), the server's threads and
  tasks (``/-/threads``), its software versions and plugins are 403 pages; a request other
  than GET, HEAD or OPTIONS is refused (405) before its body is read; an unexpected error
  shows a plain message, its details going to the server's console only;
* the pages of the reading views computed when read, and of v_reading_sign,
  v_reading_line and v_reading_use_candidate with their some 18, 6 and 5 stored rows a
  reading (:func:`yimao_db.present.schema_doc.unaggregated_views`), are
  counted only when filtered: counting every reading's rows would outlast the time limit
  on a large journal;
* the project's pages run under the limits of :mod:`yimao_db.web.limits`.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import traceback
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

import pluggy
from datasette.handle_exception import handle_exception as datasette_error_page
from datasette.utils import tilde_decode
from datasette.utils.asgi import Base400, Forbidden, Response
from datasette.utils.asgi import NotFound as DatasetteNotFound
from datasette.views.base import DatasetteError
from markupsafe import Markup, escape
from sqlalchemy.exc import DBAPIError

from yimao_db.present.schema_doc import unaggregated_views
from yimao_db.web import limits, pages
from yimao_db.web.site import DATABASE, STATIC, Group, Site

hookimpl = pluggy.HookimplMarker("datasette")  # datasette's own marker, typed
SITE_ATTR = "yimao_site"
READING_VIEWS = (
    "v_reading",
    "v_reading_line",
    "v_reading_hidden",
    "v_reading_changed_line",
    "v_reading_cast",
)
HEXAGRAM_VIEWS = ("v_hexagram", "v_line", "v_hidden", "v_hexagram_pattern")
# datasette's pages that show the file's path, the server's threads or its software
HIDDEN_PAGES = ("databases", "threads", "versions", "plugins")
METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# datasette's arguments that filter a table page besides column=value (column__op=value)
FILTERS = ("_where", "_search", "_through")  # _search_COLUMN too
SORT_REFUSED = "Cannot sort table by "  # datasette's message, raised as a server error
# what asks datasette not to count a page of a view computed when read, unfiltered
# (:func:`counting`); its own value, so that a visitor's ``_nocount=1`` is told from it
NOCOUNT = b"_nocount=unfiltered"


def attach(datasette: Any, site: Site, groups: list[Group]) -> None:
    setattr(datasette, SITE_ATTR, (site, groups))


def _site(datasette: Any) -> Site:
    site: Site = getattr(datasette, SITE_ATTR)[0]
    return site


def _groups(datasette: Any) -> list[Group]:
    groups: list[Group] = getattr(datasette, SITE_ATTR)[1]
    return groups


async def _read(datasette: Any, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(conn, *args)`` on a read-only connection, in a worker thread, interrupted after
    :data:`limits.PAGE_TIME_LIMIT_MS`; a :class:`pages.NotFound` becomes datasette's 404
    page with its message, a database error a page saying what stopped it."""

    def run() -> Any:
        with _site(datasette).engine.connect() as conn:
            raw = conn.connection.driver_connection
            assert isinstance(raw, sqlite3.Connection)
            with limits.deadline(raw, limits.PAGE_TIME_LIMIT_MS):
                return fn(conn, *args)

    try:
        return await asyncio.to_thread(run)
    except pages.NotFound as exc:
        raise DatasetteNotFound(str(exc)) from None
    except (DBAPIError, sqlite3.Error, MemoryError) as exc:
        cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
        if isinstance(cause, sqlite3.OperationalError) and cause.args == ("interrupted",):
            raise DatasetteError(
                f"yimao serve stopped this page after {limits.PAGE_TIME_LIMIT_MS // 1000} s",
                title="Page interrupted",
                status=503,
            ) from None
        sys.stderr.write(f"yimao serve: {cause}\n")
        message = str(limits.explained(cause))
        raise DatasetteError(message, title="Database error", status=500) from None


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


async def reading_file(datasette: Any, request: Any) -> Any:
    """``/reading/ID.SUFFIX``: the chart in the format of that suffix, as ``yimao reading ID
    --format NAME`` prints it, with the format's media type."""
    suffix = _typed(request, "suffix")
    found = await _read(datasette, pages.reading_as, _typed(request, "id"), suffix)
    if found is None:
        known = ", ".join(pages.chart_suffixes())
        raise DatasetteNotFound(f"no format has the suffix {suffix}: expected one of {known}")
    body, media_type = found  # stored text as the format gives it: not to be sniffed as HTML
    return Response(body, content_type=media_type, headers={"X-Content-Type-Options": "nosniff"})


async def hexagram_page(datasette: Any, request: Any) -> Any:
    data = await _read(datasette, pages.hexagram, _typed(request, "name"))
    return await _page(datasette, request, "yimao_hexagram.html", {"hexagram": data})


async def passages_page(datasette: Any, request: Any) -> Any:
    data = await _read(datasette, pages.passages)
    return await _page(datasette, request, "yimao_passages.html", {"passages": data})


async def hidden_page(request: Any) -> Any:
    raise Forbidden(
        "yimao serve does not show this page: it would tell a visitor where the database "
        "file is, what the server runs or which software it uses"
    )


@hookimpl
def register_routes() -> list[tuple[str, Any]]:
    return [
        (r"^/reading/(?P<id>[^/.]+)(?P<suffix>\.[^/]+)$", reading_file),  # .md, .plain.txt
        (r"^/reading/(?P<id>[^/]+)$", reading_page),
        (r"^/hexagram/(?P<name>[^/]+)$", hexagram_page),
        (r"^/passages$", passages_page),
        (rf"^/-/({'|'.join(HIDDEN_PAGES)})(\.json)?$", hidden_page),
    ]


@hookimpl
def asgi_wrapper(datasette: Any) -> Callable[[Any], Any]:
    """Refuse a request other than GET, HEAD or OPTIONS before reading its body (the site
    writes nothing; datasette reads a whole POST body into memory), and ask datasette not
    to count an unfiltered page of a view computed when read (:func:`counting`)."""

    def wrap(app: Any) -> Any:
        async def guarded(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                query = counting(scope["path"], scope["query_string"])
                if query != scope["query_string"]:
                    scope = {**scope, "query_string": query}
            if scope["type"] == "http" and scope["method"] not in METHODS:
                refusal = f"yimao serve is read-only: {scope['method']} is not allowed\n"
                response = Response.text(
                    refusal,
                    status=405,
                    headers={"Allow": ", ".join(sorted(METHODS))},
                )
                await response.asgi_send(send)
                return
            await app(scope, receive, send)

        return guarded

    return wrap


def counting(path: str, query: bytes) -> bytes:
    """The query string datasette is given: :data:`NOCOUNT` added to an unfiltered page of a
    view computed when read (:func:`uncounted`), and dropped again from a filtered one.
    datasette carries the arguments of a page into its links and its filter form, so a
    filter applied on an unfiltered page arrives with the ``_nocount`` added there; a
    ``_nocount`` the visitor asked for (any other value) is left alone."""
    if not computed(path):
        return query
    kept = [p for p in query.split(b"&") if p and p != NOCOUNT]
    if unfiltered(b"&".join(kept)):
        kept.append(NOCOUNT)
    return b"&".join(kept)


def computed(path: str) -> bool:
    """Whether a path is a page of a view too large to count unfiltered
    (:func:`yimao_db.present.schema_doc.unaggregated_views`), in any format."""
    head, _, name = path.rpartition("/")  # the name tilde-encoded or not (v~5Freading~5Fline)
    return head == f"/{DATABASE}" and tilde_decode(name.split(".")[0]) in unaggregated_views()


def uncounted(path: str, query: bytes) -> bool:
    """Whether a request is for a page of a view computed when read
    (:func:`yimao_db.present.schema_doc.unaggregated_views`) with no filter, which
    datasette would count by computing every reading's rows (minutes at a million readings);
    filtered, it counts the rows it shows."""
    return computed(path) and unfiltered(query)


def unfiltered(query: bytes) -> bool:
    """Whether a table page's query string neither filters its rows nor says whether to
    count them (``_nocount``)."""
    keys = {k for k, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True)}
    return "_nocount" not in keys and not any(k.startswith(FILTERS) or k[:1] != "_" for k in keys)


@hookimpl
def handle_exception(datasette: Any, request: Any, exception: Exception) -> Any:
    """An unexpected error: its message and traceback to the console, a plain page to the
    visitor (a message may hold a path). A bad argument datasette lets through as a server
    error (:func:`bad_argument`) is a 400 page saying what was expected."""
    said = bad_argument(request.args, exception)
    if said is not None:
        refusal = DatasetteError(said, status=400)
        return datasette_error_page(datasette=datasette, request=request, exception=refusal)
    if isinstance(exception, Base400 | DatasetteError):
        return None  # datasette's own page, with the message written for the visitor
    traceback.print_exception(exception, file=sys.stderr)
    plain = DatasetteError(
        "yimao serve failed on this page; the server's console says why", status=500
    )
    return datasette_error_page(datasette=datasette, request=request, exception=plain)


def bad_argument(args: Any, exception: Exception) -> str | None:
    """What a visitor's argument got wrong, when datasette fails on it as on a bug (500): a
    view's ``_next`` that is not a whole number (the offset of the next page; datasette's
    ``int()`` raises), a sort by a column the table does not have."""
    given = args.get("_next")
    if isinstance(exception, ValueError) and given is not None:
        if not given.lstrip("-").isdigit():
            return f"_next is the offset of a view's next page, a whole number; not {given!r}"
    if isinstance(exception, DatasetteError) and str(exception).startswith(SORT_REFUSED):
        return f"{exception}: sort by one of the columns the page shows"
    return None


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
def extra_template_vars(template: str, datasette: Any) -> dict[str, Any]:
    """The home page and the database page list the tables and views in the order of
    :func:`yimao_db.web.site.guide` (templates index.html and database-yimao.html)."""
    if template not in ("index.html", f"database-{DATABASE}.html"):
        return {}
    return {"yimao_groups": _groups(datasette), "yimao_database": DATABASE}


@hookimpl
def extra_css_urls(datasette: Any) -> list[str]:
    return [datasette.urls.path(f"/{STATIC}/yimao.css")]


@hookimpl
def extra_js_urls(datasette: Any) -> list[str]:
    return [datasette.urls.path(f"/{STATIC}/yimao.js")]


@hookimpl
def menu_links(datasette: Any) -> list[dict[str, str]]:
    return [{"href": datasette.urls.path("/passages"), "label": "The book's passages"}]
