"""A chart reads its views filtered to one reading: SQLite must look up that reading's rows,
not build a view for every stored reading (which made a chart's 用神 and signs grow with the
journal: 18 ms and 47 ms a reading at 500 readings, before revision 0016). Checked on the
query plans, which say it whatever the machine's speed: no public view filtered by
``reading_id`` scans ``reading`` or materializes a line view."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from yimao_db.db import reader_engine
from yimao_db.kb.schema.signs import SIGN_GROUPINGS
from yimao_db.kb.views import views
from yimao_db.present.schema_doc import browsing, unaggregated_views


def query_plans(db: str, *sqls: str) -> list[list[str]]:
    """SQLite's plan of each statement: the text of its steps."""
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            return [
                [row[-1] for row in conn.execute(text(f"EXPLAIN QUERY PLAN {sql}"))] for sql in sqls
            ]
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    "view", [v.name for v in views().values() if v.public and "reading_id" in v.column_names]
)
def test_one_readings_rows_are_looked_up_not_built_for_every_reading(
    built_db: str, view: str
) -> None:
    if not built_db.endswith(".db"):
        pytest.skip("SQLite's query plans")
    [plan] = query_plans(built_db, f"SELECT * FROM {view} WHERE reading_id = 7")
    # a scan of the readings or their lines (aliased r and rl in every view), or a line view
    # built whole (a view materialized with one reading's key pushed into it is fine)
    assert not [s for s in plan if re.match(r"SCAN (r|rl|reading|reading_line)\b", s)], plan
    assert not [s for s in plan if re.match(r"MATERIALIZE v_reading_(line|hidden)\b", s)], plan


@pytest.mark.parametrize(
    "view",
    [
        v.name
        for v in views().values()
        if v.public and "reading_id" in v.column_names and v.name not in unaggregated_views()
    ],
)
def test_a_page_of_a_stored_reading_view_reads_its_rows_in_order(built_db: str, view: str) -> None:
    """datasette's first page of v_reading (newest first) reads 101 rows, not every reading
    sorted (2.1 s at a million readings before revision 0019)."""
    if not built_db.endswith(".db"):
        pytest.skip("SQLite's query plans")
    v = views()[view]
    order = browsing(view, "view", v.column_names)
    column = order.get("sort") or order["sort_desc"]
    direction = "" if "sort" in order else " DESC"
    [plan] = query_plans(built_db, f"SELECT * FROM {view} ORDER BY {column}{direction} LIMIT 101")
    assert not [s for s in plan if "TEMP B-TREE FOR ORDER BY" in s], plan


@pytest.mark.parametrize(
    ("view", "column"),
    [
        (view, column)
        for view in ("v_reading", "v_reading_hidden")
        for column in browsing(view, "view", views()[view].column_names)["facets"]
    ],
)
def test_a_default_facet_reads_an_index_in_order(built_db: str, view: str, column: str) -> None:
    """A facet datasette shows by default counts every reading's value of its column: with
    the derived table's index on it (yimao_db.kb.schema.derived.FACETS) SQLite reads the
    index in order, where it sorted every row (0.5-1.5 s each at a million readings, past
    datasette's limit, before revision 0023); and reads no other table for it (v_reading
    looked up each reading's outcome for every facet until revision 0029: 1.6 s for its page
    at a million readings, 100,000 of them with an outcome)."""
    if not built_db.endswith(".db"):
        pytest.skip("SQLite's query plans")
    # the SQL datasette writes for a facet of a table page (datasette.facets.ColumnFacet)
    sql = (
        f"SELECT {column} AS value, count(*) AS count FROM (SELECT * FROM {view}) "
        f"WHERE {column} IS NOT NULL GROUP BY {column} ORDER BY count DESC, value LIMIT 31"
    )
    [plan] = query_plans(built_db, sql)
    assert not [s for s in plan if "TEMP B-TREE FOR GROUP BY" in s], plan
    steps = [s for s in plan if s.startswith(("SCAN", "SEARCH"))]
    assert len(steps) == 1 and re.search(rf"COVERING INDEX ix_\w+_{column}\b", steps[0]), plan


@pytest.mark.parametrize("column", ["sign", *SIGN_GROUPINGS])
def test_a_count_of_the_signs_by_one_column_reads_the_indexes_in_order(
    built_db: str, column: str
) -> None:
    """``SELECT col, count(*) FROM v_reading_sign GROUP BY 1`` for the sign or one of its
    attributes: SQLite reads ``sign`` in that column's order (its own index) and counts each
    sign's range of reading_sign's index, sorting nothing and reading no stored row (every
    stored sign read, its sign looked up and the rows sorted took 20-28 × the floor at
    100,000 readings). A filter on the attribute and the line reads the two indexes alone
    (the line is in reading_sign's: 2.9 × the floor, 9.9 × when it was not)."""
    if not built_db.endswith(".db"):
        pytest.skip("SQLite's query plans")
    index = "sqlite_autoindex_sign_1" if column == "sign" else f"ix_sign_{column}"
    grouped, filtered = query_plans(
        built_db,
        f"SELECT {column}, count(*) FROM v_reading_sign GROUP BY 1",
        f"SELECT count(*) FROM v_reading_sign WHERE {column} = 1 AND position = 3",
    )
    assert grouped == [
        f"SCAN s USING COVERING INDEX {index}",
        "SEARCH x USING COVERING INDEX ix_reading_sign_sign (sign=?)",
    ], grouped
    assert filtered == [
        f"SEARCH s USING COVERING INDEX {index} ({'name' if column == 'sign' else column}=?)",
        "SEARCH x USING COVERING INDEX ix_reading_sign_sign (sign=?)",
    ], filtered


@pytest.mark.parametrize("column", ["relative", "spirit", "transform"])
def test_a_count_of_the_lines_by_an_indexed_column_reads_its_index_alone(
    built_db: str, column: str
) -> None:
    """``SELECT col, count(*) FROM v_reading_line GROUP BY 1`` for a column with an index of
    the stored lines reads that index in order and nothing else (computed when read, every
    line's twenty lookups and a sort: about 100 × the floor before revision 0028); the
    妻財-void filter reads one range of the index on (relative, is_void, reading_id)."""
    if not built_db.endswith(".db"):
        pytest.skip("SQLite's query plans")
    grouped, filtered = query_plans(
        built_db,
        f"SELECT {column}, count(*) FROM v_reading_line GROUP BY 1",
        "SELECT count(DISTINCT reading_id) FROM v_reading_line "
        "WHERE relative = '妻財' AND is_void = 1",
    )
    index = f"ix_reading_line_chart_{column}"
    assert grouped == [f"SCAN reading_line_chart USING COVERING INDEX {index}"], grouped
    assert [s for s in filtered if s.startswith(("SCAN", "SEARCH"))] == [
        "SEARCH reading_line_chart USING COVERING INDEX ix_reading_line_chart_relative "
        "(relative=? AND is_void=?)"
    ], filtered
