"""Where each passage of the book is used: every row that cites it.

The rows come from the table passage_citation, which the seed fills from every table of
the schema with a ``passage`` column: a new cited table is listed without touching this
view.
"""

from __future__ import annotations

from yimao_db.kb.views.base import View, col

V_PASSAGE_CITATION = View(
    "v_passage_citation",
    "docs",
    "Every row that cites a passage, per passage: one row for each row of each table "
    "with a passage column (the rule and symbol tables and the documentation tables).",
    (
        col("passage", "The passage cited, §chapter.passage", "FK source_passage.id"),
        col("chapter_no", "Its chapter number", "1..10"),
        col("passage_no", "Its number within the chapter"),
        col("chapter", "The chapter's title, e.g. 六神章第七"),
        col("table_name", "The table holding the citing row", "FK meta_table.name"),
        col(
            "row_key",
            "The citing row's primary key, its columns joined by '|' in key order "
            "(e.g. 六衝|子|午 for branch_relation)",
        ),
        col(
            "basis",
            "The row's basis (book, standard, decision); NULL for documentation rows",
            "book/standard/decision or NULL",
        ),
    ),
    """
SELECT s.id AS passage, s.chapter_no, s.passage_no, s.chapter,
       c.table_name, c.row_key, c.basis
FROM passage_citation c
JOIN source_passage s ON s.id = c.passage
""",
)

VIEWS = (V_PASSAGE_CITATION,)
