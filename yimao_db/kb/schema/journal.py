"""The journal of readings: notes, the outcome (應驗) and tags.

A reading's own row is never edited after the cast; what a practitioner adds later lives
in these tables, keyed by the reading. Deleting a reading deletes its rows here in the same
transaction (:func:`yimao_db.journaling.delete_readings`; the foreign keys also cascade).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, ForeignKey, Index, Integer, String, Text

from yimao_db.kb.schema.base import col, one_of, table
from yimao_db.kb.vocab import VERDICTS

SECTION = "readings"
TAG_MAX = 64  # characters


def _reading(primary_key: bool = False) -> Column[Any]:
    return col(
        "reading_id",
        Integer,
        ForeignKey("reading.id", ondelete="CASCADE"),
        primary_key=primary_key,
        comment="The reading",
    )


reading_note = table(
    "reading_note",
    "Notes added to a reading after it was cast, in the order written.",
    col("id", Integer, primary_key=True, comment="Note id, in the order the notes were added"),
    _reading(),
    col(
        "noted_at",
        String(40),
        comment="When the note was added: local time with offset, ISO 8601",
    ),
    col("note", Text, comment="The note, verbatim"),
    Index("ix_reading_note_reading_id", "reading_id"),
    section=SECTION,
)


reading_outcome = table(
    "reading_outcome",
    "What happened (應驗): at most one outcome per reading; recording another replaces it.",
    _reading(primary_key=True),
    col("verdict", String(8), comment="hit, miss or partial"),
    col("happened_on", String(10), comment="The day it happened (or was known), ISO 8601 date"),
    col("note", Text, nullable=True, comment="What happened, verbatim"),
    col(
        "recorded_at",
        String(40),
        comment="When the outcome was recorded: local time with offset, ISO 8601",
    ),
    one_of("verdict", VERDICTS),
    section=SECTION,
)


reading_tag = table(
    "reading_tag",
    "Tags a practitioner puts on readings, to find and count them by.",
    _reading(primary_key=True),
    col("tag", String(TAG_MAX), primary_key=True, comment="The tag, as typed (NFC, trimmed)"),
    Index("ix_reading_tag_tag", "tag"),
    section=SECTION,
)


reading_about_change = table(
    "reading_about_change",
    "Each change of a reading's subject after the cast (yimao about), in the order made: "
    "the subject before and after, and when.",
    col("id", Integer, primary_key=True, comment="Change id, in the order the changes were made"),
    _reading(),
    col("changed_at", String(40), comment="When: local time with offset, ISO 8601"),
    col(
        "old",
        String(8),
        ForeignKey("subject.name"),
        nullable=True,
        comment="The subject before (NULL: none was said)",
    ),
    col(
        "new",
        String(8),
        ForeignKey("subject.name"),
        nullable=True,
        comment="The subject after (NULL: cleared)",
    ),
    Index("ix_reading_about_change_reading_id", "reading_id"),
    section=SECTION,
)
