"""The book's passages, cited by every rule and symbol row (§chapter.passage)."""

from __future__ import annotations

from sqlalchemy import CheckConstraint, Integer, String, Text

from yimao_db.kb.schema.base import col, one_of, table

SECTION = "sources"
COVERAGE = ("encoded", "partial", "theory")
MAX_THEORY = 10  # at most this many passages may be theory


source_passage = table(
    "source_passage",
    "The 77 numbered passages of 《易冒》卷一 (chapter and passage, as listed in "
    "seed/data/passages.tsv). "
    "No text of the book is stored; rows elsewhere cite a passage by its id. Every passage "
    "is accounted for: encoded (some row cites it), partial (some row cites it, and a note "
    "names what of it is not applied) or theory (nothing to compute; a note says why).",
    col("id", String(8), primary_key=True, comment="Citation, e.g. 8.11"),
    col("chapter_no", Integer, comment="Chapter number 1..10"),
    col("chapter", String(16), comment="Chapter title, e.g. 世應章第八"),
    col("passage_no", Integer, comment="Passage number within the chapter"),
    col("line_no", Integer, comment="Line of the main text in the seed file"),
    col(
        "commentary_line_no",
        Integer,
        comment="Line of the parenthesised commentary in the seed file",
    ),
    col(
        "coverage",
        String(8),
        comment="encoded: at least one row cites it (v_passage_citation); theory: cosmology, "
        "history or a summary with nothing to compute",
    ),
    col("note", Text, nullable=True, comment="Why a theory passage encodes nothing"),
    one_of("coverage", COVERAGE),
    CheckConstraint("coverage <> 'theory' OR note IS NOT NULL", name="theory_has_note"),
    CheckConstraint("coverage <> 'partial' OR note IS NOT NULL", name="partial_has_note"),
    section=SECTION,
)
