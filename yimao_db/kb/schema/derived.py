"""The derived tables (:mod:`yimao_db.kb.derived`): rows of a defining view stored for every
reading, so that a report over all readings reads one table.

Each table's columns are its definition's, in the same order, declared from the view's
column declarations (name, description; an integer or a flag is an INTEGER, anything else
TEXT); ``INSERT INTO table SELECT * FROM definition`` relies on that order, and a test
requires it. Every column but the key may be NULL, as the definition's LEFT JOINs allow.
A reading's rows go when it goes (``ON DELETE CASCADE``). A table without a key
(``reading_sign``: a sign may fire on the whole reading, its line NULL) names the columns
that may not be NULL.

A column that v_reading's or v_reading_hidden's page in ``yimao serve`` facets by default
(``FACETS``, the columns :func:`yimao_db.present.schema_doc.browsing` picks; a test holds
the two together) has an index: a facet is a ``GROUP BY`` of that column over every
reading, which SQLite otherwise answers by sorting every row (about half a second for a
million readings, past datasette's limit for a facet), and with the index by reading the
index in order.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, ForeignKey, Index, Integer, Table, Text

from yimao_db.kb.schema.base import col, table
from yimao_db.kb.views.base import View
from yimao_db.kb.views.readings import (
    V_READING_HEADER_COMPUTED,
    V_READING_HIDDEN_COMPUTED,
    V_READING_LINE_COMPUTED,
)
from yimao_db.kb.views.signs import V_READING_SIGN_COMPUTED
from yimao_db.kb.views.use import V_READING_USE_CANDIDATE_COMPUTED, V_READING_USE_COMPUTED

SECTION = "readings"


def _columns(view: View, key: tuple[str, ...], required: tuple[str, ...]) -> list[Column[Any]]:
    out = []
    for c in view.columns:
        type_ = Integer if c.kind in ("integer", "flag") else Text
        extra: tuple[Any, ...] = ()
        if c.name == "reading_id":
            extra = (ForeignKey("reading.id", ondelete="CASCADE"),)
        out.append(
            col(
                c.name,
                type_,
                *extra,
                primary_key=c.name in key,
                autoincrement=False,
                nullable=c.name not in key + required,
                comment=c.description,
            )
        )
    return out


def derived_table(
    name: str,
    view: View,
    key: tuple[str, ...],
    facets: tuple[tuple[str, ...], ...] = (),
    required: tuple[str, ...] = (),
    **kw: Any,
) -> Table:
    return table(
        name,
        f"Derived: the rows of {view.name} stored for every reading, written with the "
        "reading (yimao check compares the two).",
        *_columns(view, key, required),
        *(Index(f"ix_{name}_{columns[0]}", *columns) for columns in facets),
        section=SECTION,
        **kw,
    )


# The indexes of the default facets of v_reading and v_reading_hidden
# (tests/test_query_plans.py requires one led by each facet's column), and of the lines. A
# second column serves a grouping often asked for with it, read from the index alone: a
# palace's generations, and a hexagram's name and key (yimao stats --by hexagram).
# reading_use has none: an index of a WITHOUT ROWID table holds its key (reading_use's
# role), and SQLite reads it for a filter on the key and looks up every row it finds (a
# count of the void 用神 took 2.3 s at a million readings instead of 0.4 s; reading_hidden's
# filters on position, 0.64 s instead of 0.13 s, stay within their goal).
FACETS: dict[str, tuple[tuple[str, ...], ...]] = {
    "reading_header": (
        ("palace", "generation_name"),
        ("generation_name",),
        ("primary_name", "primary_king_wen"),
    ),
    "reading_hidden": (("relative",),),
    # the groupings and filters of a reading's lines people ask for most (revision 0028):
    # a count by relative, day spirit or transformation reads an index in order, and a
    # filter on a relative and void (the 用神 void) reads a range of the first, which names
    # reading_id so that PostgreSQL counts the readings from it alone (SQLite's index of a
    # WITHOUT ROWID table holds the key anyway). v_reading_line's page has no default facet
    # (six rows a reading: yimao_db.present.schema_doc)
    "reading_line_chart": (("relative", "is_void", "reading_id"), ("spirit",), ("transform",)),
    # a count of the signs (GROUP BY sign, or by an attribute of the sign: the indexes of
    # `sign` in kb/schema/signs.py) reads the first in order, and a count of the readings
    # each sign fires for its distinct pairs; it holds every column, so a filter on the line
    # reads no row; a reading's signs (a chart, a delete, the signs of the readings with an
    # outcome in yimao stats --by sign) are read from the second, which holds every column
    # too (revision 0027: with reading_id alone, each of a row's sign was looked up in the
    # table, 2.9 s for 100,000 readings with an outcome at a million readings, 1.9 s so)
    "reading_sign": (("sign", "reading_id", "position"), ("reading_id", "sign", "position")),
}

reading_header = derived_table(
    "reading_header", V_READING_HEADER_COMPUTED, ("reading_id",), FACETS["reading_header"]
)
reading_line_chart = derived_table(
    "reading_line_chart",
    V_READING_LINE_COMPUTED,
    ("reading_id", "position"),
    FACETS["reading_line_chart"],
    sqlite_with_rowid=False,  # read by the reading's id: one b-tree
)
reading_hidden = derived_table(
    "reading_hidden",
    V_READING_HIDDEN_COMPUTED,
    ("reading_id", "position"),
    FACETS["reading_hidden"],
    sqlite_with_rowid=False,  # read by the reading's id: one b-tree
)
# a reading's candidates for each role, keyed as its definition's window numbers them (no
# index, for reading_use's reason above)
reading_use_candidate = derived_table(
    "reading_use_candidate",
    V_READING_USE_CANDIDATE_COMPUTED,
    ("reading_id", "role", "rank"),
    sqlite_with_rowid=False,
)
reading_use = derived_table(
    "reading_use",
    V_READING_USE_COMPUTED,
    ("reading_id", "role"),
    sqlite_with_rowid=False,
)
reading_sign = derived_table(
    "reading_sign",
    V_READING_SIGN_COMPUTED,
    (),
    FACETS["reading_sign"],
    required=("reading_id", "sign"),
)

# every sign's count of reading_sign's rows, changed with them (yimao_db.kb.sign_count)
sign_count = table(
    "sign_count",
    "Derived: how many times each sign fired in reading_sign and in how many readings, "
    "changed with its rows in the same transaction (yimao check counts them again). No row "
    "for a sign that fired nowhere.",
    col("sign", Text, primary_key=True, comment="The sign, e.g. 世空"),
    col("fired", Integer, comment="How many rows of reading_sign it has (a line each)"),
    col("readings", Integer, comment="In how many readings it fired"),
    section=SECTION,
)
