"""The journal of readings: notes, outcomes (應驗), tags, and deleting readings.

Each function validates everything it was given before it writes, and writes in one
transaction (the caller's, when ``db`` is a Connection): bad input (an unknown reading, an
unknown tag, a bad date, text a database cannot store) raises UsageError and writes nothing.
A reading's own row is never changed; what is added lives in ``reading_note``,
``reading_outcome`` and ``reading_tag``.

The domain of every stored journal value is one function here, used by the commands before
they write and by ``yimao check`` (:mod:`yimao_db.check.journal`) on what is stored:
:func:`parse_date` (``happened_on``), :func:`local_time` (``noted_at``, ``recorded_at``),
:func:`note_text` (a note), :func:`clean_tag` (a tag) and :func:`outcome_after_reading` (an
outcome is not dated before its reading).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import NamedTuple
from zoneinfo import ZoneInfo

from sqlalchemy import Connection, Engine, Table, bindparam, delete, insert, text, update
from sqlalchemy.engine import URL

from yimao_db.calendar.civiltime import default_tz
from yimao_db.dialect import MAX_ID, POSTGRESQL, backend, lock_reading
from yimao_db.errors import UsageError, shown
from yimao_db.kb import derived, sign_count
from yimao_db.kb.vocab import VERDICTS
from yimao_db.readings import check_text, connect

Db = str | URL | Engine | Connection | None


class Note(NamedTuple):
    id: int
    noted_at: str
    note: str


class Outcome(NamedTuple):
    verdict: str
    happened_on: str
    note: str | None
    recorded_at: str


class Journal(NamedTuple):
    """What was added to one reading after it was cast."""

    notes: tuple[Note, ...]
    outcome: Outcome | None
    tags: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "notes": [n._asdict() for n in self.notes],
            "outcome": None if self.outcome is None else self.outcome._asdict(),
            "tags": list(self.tags),
        }


def now_local() -> str:
    """This moment as local time in the default zone ($YIMAO_TZ), ISO 8601 with offset."""
    return local_time(datetime.now(ZoneInfo(default_tz())).isoformat(timespec="seconds"))


def today() -> str:
    return now_local()[:10]


DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # YYYY-MM-DD, nothing else ISO 8601 allows


def parse_date(text: object, what: str) -> str:
    """A date typed by a user (``--on``, ``--since``, ``--until``) as ISO 8601 YYYY-MM-DD; the
    form ``happened_on`` is stored in. Other ISO 8601 forms (a week date ``2026-W01-1``, an
    ordinal ``2026-001``, ``20260101``) are refused: the documentation promises YYYY-MM-DD."""
    wrong = UsageError(f"bad {what} {shown(text)}: expected a date like 2026-11-30 (YYYY-MM-DD)")
    if not isinstance(text, str) or not DATE.fullmatch(text.strip()):
        raise wrong
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise wrong from None


def local_time(text: object, what: str = "the time") -> str:
    """A local time with its offset as the journal stores it (``noted_at``, ``recorded_at``):
    ISO 8601 to the second, ``2026-11-30T09:15:00+08:00``, as :func:`now_local` makes it."""
    try:
        when = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        when = None
    if (
        when is None
        or when.utcoffset() is None
        or when.microsecond
        or when.isoformat(timespec="seconds") != text
    ):
        raise UsageError(
            f"bad {what} {shown(text)}: expected a local time with its offset, to the "
            "second, like 2026-11-30T09:15:00+08:00"
        )
    return str(text)


def note_text(text: object, what: str = "the note") -> str:
    """A note as stored: text a database can store verbatim (:func:`check_text`), not
    empty or only spaces."""
    if not isinstance(text, str):
        raise UsageError(f"{what} must be text, got {type(text).__name__}")
    stored = check_text(text, what)
    if not stored or not stored.strip():
        raise UsageError(f"{what} is empty: expected some text")
    return stored


def outcome_after_reading(happened_on: str, cast_at: str | None) -> None:
    """An outcome is not dated before the local day its reading was cast (``cast_at``; a
    reading given as pillars has no day, and any date goes)."""
    if cast_at is not None and happened_on < cast_at[:10]:
        raise UsageError(
            f"the outcome's date {happened_on} is before the reading was cast, on "
            f"{cast_at[:10]}: expected that day or a later one"
        )


def verdict(text: object) -> str:
    if text not in VERDICTS:
        raise UsageError(f"bad outcome {shown(text)}: expected {', '.join(VERDICTS)}")
    return str(text)


def tag_key(text: str) -> str:
    """How a tag is compared: NFC, trimmed."""
    return unicodedata.normalize("NFC", text).strip()


def clean_tag(text: object) -> str:
    """A tag as stored: NFC, trimmed; one word of at most TAG_MAX characters, no comma."""
    from yimao_db.kb.schema.journal import TAG_MAX

    if not isinstance(text, str):
        raise UsageError(f"a tag must be text, got {type(text).__name__}")
    tag = tag_key(text)
    check_text(tag, "the tag")
    if (
        not tag
        or len(tag) > TAG_MAX
        or "," in tag
        or any(c.isspace() or unicodedata.category(c)[0] == "C" for c in tag)
    ):
        raise UsageError(
            f"bad tag {shown(text)}: expected one word of 1 to {TAG_MAX} characters, without "
            "spaces, commas or control characters"
        )
    return tag


def stored_tag(text: object) -> str:
    """A tag as it must be stored: :func:`clean_tag` of it, and it already in that form
    (NFC, trimmed)."""
    tag = clean_tag(text)
    if tag != text:
        given = ascii(text) if isinstance(text, str) and len(text) <= 80 else shown(text)
        raise UsageError(
            f"tag {given} is not stored as typed tags are (NFC, trimmed): expected {tag!a}"
        )
    return tag


def _ids(ids: Iterable[object]) -> list[int]:
    out = []
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, int) or not 1 <= i <= MAX_ID:
            raise UsageError(
                f"bad reading id {shown(i)}: expected a whole number from 1 to {MAX_ID}"
            )
        out.append(i)
    return out


# The journal is read with statements as text: a chart printed after a cast loads no table
# declarations (tests/test_cli.py); the writers import the Core tables when they run.
EXISTING = text("SELECT id FROM reading WHERE id IN :ids").bindparams(
    bindparam("ids", expanding=True)
)
EXISTING_LOCKED = text("SELECT id FROM reading WHERE id IN :ids ORDER BY id FOR UPDATE").bindparams(
    bindparam("ids", expanding=True)
)
NOTES = text("SELECT id, noted_at, note FROM reading_note WHERE reading_id = :id ORDER BY id")
OUTCOME = text(
    "SELECT verdict, happened_on, note, recorded_at FROM reading_outcome WHERE reading_id = :id"
)
TAGS = text("SELECT tag FROM reading_tag WHERE reading_id = :id ORDER BY tag")
CAST_AT = text("SELECT cast_at FROM reading WHERE id = :id")


def _tags(conn: Connection, reading_id: int) -> list[str]:
    return [str(t) for t in conn.execute(TAGS, {"id": reading_id}).scalars()]


def _cast_at(conn: Connection, reading_id: int) -> str | None:
    cast_at = conn.execute(CAST_AT, {"id": reading_id}).scalar_one()
    return None if cast_at is None else str(cast_at)


def _outcome(conn: Connection, reading_id: int) -> Outcome | None:
    row = conn.execute(OUTCOME, {"id": reading_id}).first()
    return None if row is None else Outcome(*row)


def read_journal(conn: Connection, reading_id: int) -> Journal:
    """The notes (oldest first), outcome and tags of one reading."""
    return Journal(
        notes=tuple(Note(*n) for n in conn.execute(NOTES, {"id": reading_id})),
        outcome=_outcome(conn, reading_id),
        tags=tuple(_tags(conn, reading_id)),
    )


def require_readings(conn: Connection, ids: Sequence[int], lock: bool = False) -> None:
    """UsageError naming the ids of ``ids`` that no reading has. ``lock``: on PostgreSQL,
    lock the readings found until the transaction ends (a delete: another writer changing
    one of them, its subject, finishes first, before this one counts their signs)."""
    wanted = set(_ids(ids))
    found: set[int] = set()
    listed = sorted(wanted)
    existing = EXISTING_LOCKED if lock and backend(conn) == POSTGRESQL else EXISTING
    for start in range(0, len(listed), 500):
        chunk = listed[start : start + 500]
        found |= set(conn.execute(existing, {"ids": chunk}).scalars())
    missing = sorted(wanted - found)
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (", …" if len(missing) > 10 else "")
        raise UsageError(f"no reading with id {shown}")


def add_note(reading_id: int, note: str, db: Db = None) -> int:
    """Add a dated note to a reading; returns the note's id."""
    text_ = note_text(note)
    from yimao_db.kb.schema.journal import reading_note

    noted_at = now_local()
    with connect(db, write=True) as conn:
        require_readings(conn, [reading_id])
        new = conn.execute(
            insert(reading_note)
            .values(reading_id=reading_id, noted_at=noted_at, note=text_)
            .returning(reading_note.c.id)
        ).scalar_one()
        return int(new)


class AboutChange(NamedTuple):
    old: str | None
    new: str | None
    changed_at: str


NO_SUBJECT = ("none", "-")  # what `yimao about ID none` clears the subject with


def set_about(reading_id: int, subject: str | None, db: Db = None) -> AboutChange:
    """Set or change the subject a reading asks about (``None`` clears it), recorded with its
    date in ``reading_about_change``; the one function that changes a reading's inputs after
    the cast. Returns the change (old equal to new: nothing was written)."""
    from yimao_db import lookup

    changed_at = now_local()
    with connect(db, write=True) as conn:
        lock_reading(conn, reading_id)  # concurrent writers take turns (PostgreSQL)
        require_readings(conn, [reading_id])
        new = None if subject is None else lookup.subject(conn, subject)
        old = conn.execute(
            text("SELECT about FROM reading WHERE id = :id"), {"id": reading_id}
        ).scalar_one()
        if old != new:
            conn.execute(
                text("UPDATE reading SET about = :new WHERE id = :id"),
                {"new": new, "id": reading_id},
            )
            derived.rewrite(conn, reading_id)  # its 用神 follow the subject
            conn.execute(
                text(
                    "INSERT INTO reading_about_change (reading_id, changed_at, old, new) "
                    "VALUES (:id, :at, :old, :new)"
                ),
                {"id": reading_id, "at": changed_at, "old": old, "new": new},
            )
        return AboutChange(old, new, changed_at)


def record_outcome(
    reading_id: int, outcome: str, on: str | None = None, note: str | None = None, db: Db = None
) -> Outcome | None:
    """Record what happened (hit, miss or partial) on day ``on`` (default today); replaces
    an outcome recorded before, which is returned (None if there was none)."""
    from yimao_db.kb.schema.journal import reading_outcome

    chosen = verdict(outcome)
    happened = parse_date(on, "--on date") if on is not None else today()
    blank = note is None or (isinstance(note, str) and not note.strip())
    row = {
        "verdict": chosen,
        "happened_on": happened,
        "note": None if blank else note_text(note, "the outcome's note"),
        "recorded_at": now_local(),
    }
    with connect(db, write=True) as conn:
        lock_reading(conn, reading_id)  # concurrent writers take turns (PostgreSQL)
        require_readings(conn, [reading_id])
        outcome_after_reading(happened, _cast_at(conn, reading_id))
        before = _outcome(conn, reading_id)
        if before is None:
            conn.execute(insert(reading_outcome).values(reading_id=reading_id, **row))
        else:
            conn.execute(
                update(reading_outcome)
                .where(reading_outcome.c.reading_id == reading_id)
                .values(**row)
            )
        return before


def tag(reading_id: int, tags: Sequence[str], db: Db = None) -> list[str]:
    """Put ``tags`` on a reading; returns those it did not have yet."""
    from yimao_db.kb.schema.journal import reading_tag

    wanted = list(dict.fromkeys(clean_tag(t) for t in tags))
    if not wanted:
        raise UsageError("no tag given: expected one or more tags")
    with connect(db, write=True) as conn:
        lock_reading(conn, reading_id)  # concurrent writers take turns (PostgreSQL)
        require_readings(conn, [reading_id])
        have = set(_tags(conn, reading_id))
        new = [t for t in wanted if t not in have]
        if new:
            conn.execute(insert(reading_tag), [{"reading_id": reading_id, "tag": t} for t in new])
        return new


def untag(reading_id: int, tags: Sequence[str], db: Db = None) -> list[str]:
    """Take ``tags`` off a reading; UsageError (nothing removed) if it lacks any of them.

    A tag given is the stored tags equal to it as typed or NFC and trimmed, so that any
    stored tag can be taken off, one that :func:`clean_tag` would refuse (stored by another
    program) included; a tag the reading lacks is checked as :func:`tag` would."""
    from yimao_db.kb.schema.journal import reading_tag

    given = list(dict.fromkeys(tags))
    if not given:
        raise UsageError("no tag given: expected one or more tags")
    for t in given:
        if not isinstance(t, str):
            raise UsageError(f"a tag must be text, got {type(t).__name__}")
    with connect(db, write=True) as conn:
        lock_reading(conn, reading_id)  # concurrent writers take turns (PostgreSQL)
        require_readings(conn, [reading_id])
        have = _tags(conn, reading_id)
        found = {t: [h for h in have if h == t or tag_key(h) == tag_key(t)] for t in given}
        missing = [clean_tag(t) for t in given if not found[t]]  # a bad tag is an error
        if missing:
            listed = ", ".join(map(shown_tag, have[:20])) if have else "none"
            raise UsageError(
                f"reading {reading_id} has no tag {', '.join(map(shown_tag, missing))} "
                f"(its tags: {listed}{', …' if len(have) > 20 else ''})"
            )
        wanted = list(dict.fromkeys(h for t in given for h in found[t]))
        conn.execute(
            delete(reading_tag).where(
                reading_tag.c.reading_id == reading_id, reading_tag.c.tag.in_(wanted)
            )
        )
        return wanted


def shown_tag(tag: str) -> str:
    """A tag in a message: as it is if it is a good one, else quoted (and cut short)."""
    try:
        return tag if clean_tag(tag) == tag else shown(tag)
    except UsageError:
        return shown(tag)


def dependent_tables() -> list[Table]:
    """Every table with a foreign key to ``reading.id``: what deleting a reading deletes."""
    from yimao_db.kb.schema import metadata
    from yimao_db.kb.schema.readings import reading

    return sorted(
        (
            t
            for t in metadata.tables.values()
            if any(fk.column is reading.c.id for fk in t.foreign_keys)
        ),
        key=lambda t: t.name,
    )


def delete_readings(ids: Sequence[int], db: Db = None) -> int:
    """Delete readings with their lines, notes, outcome and tags, in one transaction;
    UsageError (nothing deleted) if any id is no reading. Returns how many were deleted."""
    from yimao_db.kb.schema.readings import reading

    wanted = sorted(set(_ids(ids)))
    if not wanted:
        raise UsageError("no reading id given")
    with connect(db, write=True) as conn:
        require_readings(conn, wanted, lock=True)
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            sign_count.forget(conn, chunk)  # the signs' rows go with the readings
            for table in dependent_tables():
                column = next(fk.parent for fk in table.foreign_keys if fk.column is reading.c.id)
                conn.execute(delete(table).where(column.in_(chunk)))
            conn.execute(delete(reading).where(reading.c.id.in_(chunk)))
        return len(wanted)


def describe_readings(ids: Sequence[int], db: Db = None) -> str:
    """``2 readings: 3 天風姤 之 風天小畜, 4 乾為天`` (up to ten named); UsageError naming
    the ids that are no reading."""
    wanted = sorted(set(_ids(ids)))
    with connect(db, write=False) as conn:
        require_readings(conn, wanted)
        named = []
        for rid in wanted[:10]:
            row = conn.execute(
                text("SELECT primary_name, changed_name FROM v_reading WHERE reading_id = :i"),
                {"i": rid},
            ).one()
            named.append(f"{rid} {row[0]}" + (f" 之 {row[1]}" if row[1] else ""))
    more = ", …" if len(wanted) > 10 else ""
    count = f"{len(wanted)} reading{'s' if len(wanted) != 1 else ''}"
    return f"{count}: {', '.join(named)}{more}"


def journal(reading_id: int, db: Db = None) -> Journal:
    """The journal of one stored reading; UsageError if there is no such reading."""
    with connect(db, write=False) as conn:
        require_readings(conn, [reading_id])
        return read_journal(conn, reading_id)
