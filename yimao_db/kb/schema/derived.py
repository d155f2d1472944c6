"""The derived tables (:mod:`yimao_db.kb.derived`): rows of a defining view stored for every
reading, so that a report over all readings reads one table.

Each table's columns are its definition's, in the same order, declared from the view's
column declarations (name, description; an integer or a flag is an INTEGER, anything else
TEXT); ``INSERT INTO table SELECT * FROM definition`` relies on that order, and a test
requires it. Every column but the key may be NULL, as the definition's LEFT JOINs allow.
A reading's rows go when it goes (``ON DELETE CASCADE``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, ForeignKey, Integer, Table, Text

from yimao_db.kb.schema.base import col, table
from yimao_db.kb.views.base import View
from yimao_db.kb.views.readings import V_READING_HEADER_COMPUTED, V_READING_HIDDEN_COMPUTED
from yimao_db.kb.views.use import V_READING_USE_COMPUTED

SECTION = "readings"


def _columns(view: View, key: tuple[str, ...]) -> list[Column[Any]]:
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
                nullable=c.name not in key,
                comment=c.description,
            )
        )
    return out


def derived_table(name: str, view: View, key: tuple[str, ...], **kw: Any) -> Table:
    return table(
        name,
        f"Derived: the rows of {view.name} stored for every reading, written with the "
        "reading (yimao check compares the two).",
        *_columns(view, key),
        section=SECTION,
        **kw,
    )


reading_header = derived_table("reading_header", V_READING_HEADER_COMPUTED, ("reading_id",))
reading_hidden = derived_table(
    "reading_hidden",
    V_READING_HIDDEN_COMPUTED,
    ("reading_id", "position"),
    sqlite_with_rowid=False,  # read by the reading's id: one b-tree
)
reading_use = derived_table(
    "reading_use",
    V_READING_USE_COMPUTED,
    ("reading_id", "role"),
    sqlite_with_rowid=False,
)
