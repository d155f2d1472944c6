"""``yimao check``: the journal (notes, outcomes, tags) against the journal's own rules.

What ``note``, ``outcome`` and ``tag`` refuse to store is a problem when it is stored, found
by the same functions the commands validate with (:mod:`yimao_db.journaling`, one place):

* ``reading_note``: ``noted_at`` a local time with its offset
  (:func:`~yimao_db.journaling.local_time`), ``note`` text that is not empty, only spaces, NUL
  or too long (:func:`~yimao_db.journaling.note_text`);
* ``reading_outcome``: ``happened_on`` a date ``YYYY-MM-DD`` that exists
  (:func:`~yimao_db.journaling.parse_date`) and is not before the day the reading was cast
  (:func:`~yimao_db.journaling.outcome_after_reading`), ``recorded_at`` a local time, ``note``
  NULL or a note;
* ``reading_tag``: a tag that :func:`~yimao_db.journaling.clean_tag` gives back unchanged
  (:func:`~yimao_db.journaling.stored_tag`): one word, no comma, space or control character,
  NFC, trimmed, at most 64 characters.

The verdict is held by its CHECK constraint and the keys by the foreign keys (reported by
:mod:`yimao_db.check.cells` and the integrity check). Each row is read once; at most
:data:`~yimao_db.check.problems.MAX_PER_TABLE` problems are listed per table and rule.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from sqlalchemy import Connection, text

from yimao_db.check.cells import complete_tables
from yimao_db.check.problems import Capped, CheckReport
from yimao_db.errors import UsageError, shown
from yimao_db.journaling import (
    local_time,
    note_text,
    outcome_after_reading,
    parse_date,
    stored_tag,
)

NOTES = "SELECT id, reading_id, noted_at, note FROM reading_note ORDER BY id"
OUTCOMES = """
SELECT o.reading_id, o.happened_on, o.recorded_at, o.note, r.cast_at
FROM reading_outcome o LEFT JOIN reading r ON r.id = o.reading_id
ORDER BY o.reading_id
"""
TAGS = "SELECT reading_id, tag FROM reading_tag ORDER BY reading_id, tag"
# each change of a subject (yimao about) with the one before it on the same reading, and the
# reading's subject now: the changes chain (old = the previous new) and end at reading.about
ABOUT_CHANGES = """
SELECT c.id, c.reading_id, c.changed_at, c.old, c.new, r.about
FROM reading_about_change c LEFT JOIN reading r ON r.id = c.reading_id
ORDER BY c.reading_id, c.id
"""
TABLES = ("reading_note", "reading_outcome", "reading_tag")


Where = tuple[str, str, Any]  # table, key, the reading id (the order of the report)


def check_journal(conn: Connection, report: CheckReport) -> None:
    """Every note, outcome and tag against the rules the commands enforce."""
    present = {t.name for t in complete_tables(conn)}
    if not set(TABLES) <= present:
        return  # an older revision: the revision check reports it
    found = Capped("journal")

    def test(where: Where, what: str, rule: Callable[[], object]) -> bool:
        """File ``rule``'s refusal as a problem; True when it accepts."""
        try:
            rule()
        except UsageError as exc:
            table, key, order = where
            found.add(table, key, what, str(exc), order=order)
            return False
        return True

    rows = 0
    for note_id, rid, noted_at, note in conn.execute(text(NOTES)):
        at: Where = ("reading_note", f"id={note_id}", rid)
        test(
            at,
            "notes whose noted_at is not a local time",
            partial(local_time, noted_at, "noted_at"),
        )
        test(at, "notes that break the rules of a note", partial(note_text, note, "the note"))
        rows += 1
    for rid, happened_on, recorded_at, note, cast_at in conn.execute(text(OUTCOMES)):
        at = ("reading_outcome", f"reading_id={rid}", rid)
        if test(
            at,
            "outcomes whose happened_on is not a date YYYY-MM-DD",
            partial(parse_date, happened_on, "happened_on"),
        ) and isinstance(cast_at, str):
            test(
                at,
                "outcomes dated before their reading",
                partial(outcome_after_reading, happened_on, cast_at),
            )
        test(
            at,
            "outcomes whose recorded_at is not a local time",
            partial(local_time, recorded_at, "recorded_at"),
        )
        if note is not None:
            test(
                at,
                "outcomes whose note breaks the rules of a note",
                partial(note_text, note, "the outcome's note"),
            )
        rows += 1
    for rid, tag in conn.execute(text(TAGS)):
        at = ("reading_tag", f"reading_id={rid} tag={shown(tag)}", rid)
        test(at, "tags that break the rules of a tag", partial(stored_tag, tag))
        rows += 1
    if "reading_about_change" in present:
        rows += _about_changes(conn, found, test)
    report.problems.extend(found.problems())
    report.checked.append(
        f"{rows} notes, outcomes, tags and changes of subject against the journal's rules"
    )


def _about_changes(
    conn: Connection, found: Capped, test: Callable[[Where, str, Callable[[], object]], bool]
) -> int:
    """Each change of a reading's subject: changed_at a local time; the changes of a reading
    chain (each one's old is the previous one's new) and the last one's new is the reading's
    subject now (:func:`yimao_db.journaling.set_about` writes both in one transaction)."""
    rows = 0
    previous: dict[Any, Any] = {}
    last: dict[Any, tuple[int, Any, Any]] = {}
    for cid, rid, changed_at, old, new, about in conn.execute(text(ABOUT_CHANGES)):
        at: Where = ("reading_about_change", f"id={cid}", rid)
        test(
            at,
            "changes of subject whose changed_at is not a local time",
            partial(local_time, changed_at, "changed_at"),
        )
        if rid in previous and previous[rid] != old:
            found.add(
                *at[:2],
                "changes of subject that do not follow the one before",
                f"old is {shown(old)}, the change before made it {shown(previous[rid])}",
                order=rid,
            )
        previous[rid] = new
        last[rid] = (cid, new, about)
        rows += 1
    for rid, (cid, new, about) in last.items():
        if new != about:
            found.add(
                "reading_about_change",
                f"id={cid}",
                "readings whose subject is not the last change's",
                f"the last change made the subject {shown(new)}, the reading has {shown(about)}",
                order=rid,
            )
    return rows
