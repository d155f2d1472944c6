"""``yimao check``: each derived table (:mod:`yimao_db.kb.derived`) holds, for every reading,
exactly the rows its definition gives.

The stored rows and the definition's are compared as multisets, a span of reading ids at a
time (one pass computing the definition once); a reading whose rows differ is named, at
most :data:`~yimao_db.check.problems.MAX_PER_TABLE` per table and the rest counted. Rows
stored for a reading that no longer exists cannot be: the foreign key deletes them with the
reading, and the integrity stage reports a broken key. The counts of the signs
(``sign_count``) are compared with a count of ``reading_sign``, sign by sign.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

from yimao_db.check.problems import Capped, CheckReport, Progress
from yimao_db.kb import derived, sign_count


def check_derived(conn: Connection, report: CheckReport, progress: Progress | None = None) -> None:
    first, last = conn.execute(text("SELECT MIN(id), MAX(id) FROM reading")).one()
    found = Capped("derived")
    todo = derived.spans(first, last)
    for n, span in enumerate(todo, 1):
        for d, rid, detail in derived.differences(conn, [span]):
            found.add(d.table, f"reading_id={rid}", "readings whose rows differ", detail, rid)
        if progress is not None:
            progress("derived tables", n, len(todo))
    for sign, stored, counted in sign_count.differences(conn):
        found.add(
            sign_count.TABLE,
            f"sign={sign}",
            "signs whose counts differ",
            f"stored {stored[0]} fired in {stored[1]} readings, reading_sign has "
            f"{counted[0]} in {counted[1]}",
        )
    report.problems.extend(found.problems())
    names = ", ".join(d.table for d in derived.DERIVED)
    report.checked.append(
        f"the derived tables ({names}) against their definitions, {sign_count.TABLE} "
        "against a count of reading_sign"
    )
