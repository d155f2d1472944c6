"""What the pages of ``yimao serve`` show, read with the package's own queries: a reading's
chart (``/reading/ID``), a hexagram (``/hexagram/NAME``) and the book's passages with the
rows citing each (``/passages``). Each function takes a read-only connection and returns
plain data for a template; a name or id that finds nothing raises :class:`NotFound`."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, text

from yimao_db import lookup
from yimao_db.errors import UsageError
from yimao_db.journaling import Journal, read_journal
from yimao_db.kb.meta import row_key
from yimao_db.kb.schema import metadata
from yimao_db.kb.vocab import YANG_BAR, YIN_BAR
from yimao_db.present import formats
from yimao_db.present.show import hexagram_data, related_rows
from yimao_db.readings import Chart, read_chart


class NotFound(Exception):
    """Nothing has this id or name; the message says what was expected."""


def reading(conn: Connection, typed: str) -> dict[str, Any]:
    """A stored reading's chart and journal, drawn by the html format as ``yimao reading
    --format html`` draws them (:mod:`yimao_db.present.formats`), with a link to the chart
    in every format: ``{"chart", "html", "chart_formats": [(name, suffix), …]}``."""
    chart, journal = _reading(conn, typed)
    return {
        "chart": chart,
        "html": formats.part_renderer("html")(chart, journal),
        "chart_formats": [(f.name, f.suffix) for f in formats.rendering("chart")],
    }


def reading_as(conn: Connection, typed: str, suffix: str) -> tuple[str, str] | None:
    """``/reading/ID.SUFFIX``: the chart and journal as ``yimao reading ID --format NAME``
    prints them, for the format of that file suffix, with its media type; None if no format
    has the suffix."""
    fmt = formats.by_suffix(suffix, "chart")
    if fmt is None:
        return None
    chart, journal = _reading(conn, typed)
    return formats.chart_renderer(fmt.name)(chart, journal, formats.PLAIN), fmt.media_type


def chart_suffixes() -> list[str]:
    """The file suffixes of the formats that render a chart."""
    return [f.suffix for f in formats.rendering("chart")]


def _reading(conn: Connection, typed: str) -> tuple[Chart, Journal]:
    from yimao_db.inputs import reading_id

    try:
        chart = read_chart(conn, reading_id(typed))
    except UsageError as exc:
        raise NotFound(str(exc)) from None
    return chart, read_journal(conn, chart.reading_id)


def hexagram(conn: Connection, typed: str) -> dict[str, Any]:
    """A hexagram (any spelling ``yimao show`` accepts): its row of v_hexagram, six lines,
    hidden spirits, the rows of the rule and symbol tables that refer to it, and the
    citations of its own rows."""
    try:
        king_wen = lookup.hexagram(conn, typed)
    except UsageError as exc:
        raise NotFound(str(exc)) from None
    data = hexagram_data(conn, king_wen)
    hidden = {h["position"]: h for h in data["hidden"]}
    for line in data["lines"]:
        line["bar"] = YANG_BAR if line["yang"] else YIN_BAR
        line["hidden"] = hidden.get(line["position"])
    table = metadata.tables["hexagram"]
    row = dict(conn.execute(table.select().where(table.c.king_wen == king_wen)).mappings().one())
    data["related"] = related_rows(conn, "hexagram", table, row)
    data["citations"] = citations(conn, king_wen, data["related"])
    return data


def citations(conn: Connection, king_wen: int, related: list[dict[str, Any]]) -> list[Any]:
    """The passages cited by a hexagram's rows: its own, its lines' and hidden spirits'
    (44, 44|1 …) and the rule and symbol rows about it (``related``, as the page lists
    them), in the book's order."""
    wanted = {
        (group["table"], row_key(metadata.tables[group["table"]], r))
        for group in related
        for r in group["rows"]
    }
    tables = sorted({t for t, _ in wanted} | {"hexagram", "hexagram_line", "hidden_spirit"})
    query = text(
        "SELECT passage, chapter, table_name, row_key, basis FROM v_passage_citation "
        "WHERE table_name IN :tables ORDER BY chapter_no, passage_no, table_name, row_key"
    ).bindparams(bindparam("tables", expanding=True))
    own = (str(king_wen), f"{king_wen}|")
    return [
        dict(c)
        for c in conn.execute(query, {"tables": tables}).mappings()
        if (c["table_name"], c["row_key"]) in wanted
        or (
            c["table_name"] in ("hexagram", "hexagram_line", "hidden_spirit")
            and (c["row_key"] == own[0] or c["row_key"].startswith(own[1]))
        )
    ]


def passages(conn: Connection) -> list[dict[str, Any]]:
    """The book's passages in order, each with its citing rows grouped by table:
    ``[{"id", "chapter", "tables": [{"table", "rows": [row_key, …]}]}]``."""
    rows = conn.execute(
        text(
            "SELECT s.id, s.chapter_no, s.passage_no, s.chapter, c.table_name, c.row_key "
            "FROM source_passage s LEFT JOIN v_passage_citation c ON c.passage = s.id "
            "ORDER BY s.chapter_no, s.passage_no, c.table_name, c.row_key"
        )
    ).mappings()
    found: dict[str, dict[str, Any]] = {}
    for r in rows:
        passage = found.setdefault(
            r["id"], {"id": r["id"], "chapter": r["chapter"], "tables": {}, "count": 0}
        )
        if r["table_name"] is not None:
            passage["tables"].setdefault(r["table_name"], []).append(r["row_key"])
            passage["count"] += 1
    return [
        {**p, "tables": [{"table": t, "rows": keys} for t, keys in p["tables"].items()]}
        for p in found.values()
    ]
