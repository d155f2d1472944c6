"""Derived tables: the rows of a defining view stored for every reading, kept in step with it.

A chart view that reports aggregate over all readings is stored as a table, because SQLite
looks up every join of a view under GROUP BY, used or not (PostgreSQL drops the unused
ones): ``SELECT palace, count(*) FROM v_reading GROUP BY 1`` would look up some twenty rule
tables per reading. Each :class:`Derived` pairs

- ``table``: the stored rows, one or more per reading, keyed by ``reading_id``, with the
  columns of its definition in the definition's order (declared from the view's columns in
  :mod:`yimao_db.kb.schema.derived`);
- ``definition``: the private view whose SQL defines those rows. Like every view it only
  joins and filters rule tables; the table must equal it, reading by reading.

The public view reads the table. The definition stays the definition:

- every write that adds a reading writes its derived rows from the definition in the same
  transaction (:func:`insert_range`: ``yimao cast``, ``yimao import``, the web and MCP
  casts, which all store through :func:`yimao_db.readings.store` or the import);
- a build whose seed changed a table a definition reads (or ``yimao build --mend``, which
  repairs damage ``yimao check`` reports) rewrites the rows of every reading that differ
  from the definition's: :func:`mend`, which touches only those; the revision that creates
  or changes a definition fills its table (:func:`refresh_table`, called by
  :func:`yimao_db.kb.migrating.create_views`), or, when the new definition gives the same
  rows written another way, rewrites only the readings whose rows differ
  (:func:`mend_table`: none, unless they were damaged);
- changing a reading's subject (``yimao about``, the one input that changes after the cast)
  writes its rows again in that transaction (:func:`rewrite`): its 用神 follow the subject;
- deleting a reading deletes its rows (``ON DELETE CASCADE``);
- the signs' rows are counted by sign in ``sign_count`` (:mod:`yimao_db.kb.sign_count`),
  changed wherever they are written or deleted here, and by
  :func:`yimao_db.journaling.delete_readings` before it deletes readings;
- ``yimao check`` compares every stored row with its definition (:func:`differences`).

No other write changes what a definition reads: the rest of the journal (notes, tags,
outcomes) is not stored, the public views read it as before (v_reading by subqueries,
which SQLite runs only for a query that reads their columns). A definition reads the other
definitions, or the derived tables listed before it in :data:`DERIVED` (the signs take a
reading's 用神 from ``reading_use``, its sun's and moon's lodges from ``reading_header``,
where computing them again would cost more than the signs themselves, and what each line
is at the cast from ``reading_line_chart``; the 用神 its ranked candidates from
``reading_use_candidate``): the tables are
written, mended and compared in that order, so a table is always written from rows
already written, and ``yimao check`` proves each equal to its definition in turn.

Adding a derived table is one entry in :data:`DERIVED`, its table in
:mod:`yimao_db.kb.schema.derived`, and the definition and the public view in the views
(docs/architecture.md, "A derived table"). This module imports nothing of the package
beyond SQLAlchemy and :mod:`yimao_db.dialect`: a cast loads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from sqlalchemy import Connection, text

from yimao_db import dialect
from yimao_db.kb import sign_count


class Derived(NamedTuple):
    table: str  # the stored rows
    definition: str  # the private view they are the rows of
    view: str  # the public view that reads them
    # a column of `reading` without which the definition gives a reading no rows (every arm
    # of its SQL joins on it): a write of readings that all lack it skips the definition,
    # whose statement costs a cast more to plan than to run. `yimao check` still compares
    # every reading's rows with the definition, so a definition that stopped needing it
    # would be reported, not hidden.
    needs: str | None = None
    # on PostgreSQL, join the definition's tables in the order its SQL writes them
    # (join_collapse_limit 1, for its statements only): the signs' two dozen arms, each
    # written from the reading to its family's table, took 0.5 s to plan (a cast, and each
    # span a check compares), 30 ms so; the lines' twenty joins, written from the reading
    # to each line's tables, 66 ms, 10 ms so
    in_written_order: bool = False
    # its rows are counted in sign_count (yimao_db.kb.sign_count), changed with them
    counted: bool = False


DERIVED: tuple[Derived, ...] = (
    Derived("reading_header", "v_reading_header_computed", "v_reading"),
    Derived("reading_hidden", "v_reading_hidden_computed", "v_reading_hidden"),
    Derived(
        "reading_line_chart", "v_reading_line_computed", "v_reading_line", in_written_order=True
    ),
    Derived(
        "reading_use_candidate",
        "v_reading_use_candidate_computed",
        "v_reading_use_candidate",
        needs="about",
    ),
    Derived("reading_use", "v_reading_use_computed", "v_reading_use", needs="about"),
    Derived(
        "reading_sign",
        "v_reading_sign_computed",
        "v_reading_sign",
        in_written_order=True,
        counted=True,
    ),
)

# How many readings a comparison reads at once (a range of ids).
COMPARE_SPAN = 20_000


def write(
    conn: Connection,
    d: Derived,
    span: tuple[int, int] | None,
    *,
    replace: bool,
    count: bool = True,
) -> None:
    """Write ``d``'s rows from its definition: those of the readings ``span`` (first, last
    id), or of every reading; ``replace`` deletes the rows stored for them first. ``count``
    False leaves new readings' rows out of ``sign_count``, for :func:`count` to add."""
    where, bounds = "", {}
    if span is not None:
        where, bounds = "WHERE reading_id BETWEEN :a AND :b", {"a": span[0], "b": span[1]}
    if replace:
        if d.counted and span is not None:
            sign_count.add(conn, span, -1)
        conn.execute(text(f"DELETE FROM {d.table} {where}"), bounds)
    if span is None or d.needs is None or _any_with(conn, d.needs, span):
        with planned(conn, d):
            conn.execute(
                text(f"INSERT INTO {d.table} SELECT * FROM {d.definition} {where}"), bounds
            )
    # else none of these readings has what every row of the definition needs
    if not d.counted:
        return
    if span is None:
        sign_count.refresh(conn)
    elif count:
        sign_count.add(conn, span)


@contextmanager
def planned(conn: Connection, d: Derived) -> Iterator[None]:
    """Run statements over ``d``'s definition as it asks to be planned: with its joins as
    written on PostgreSQL when it is ``in_written_order``
    (:func:`yimao_db.dialect.joins_as_written`, for the transaction, restored after)."""
    if not d.in_written_order or dialect.backend(conn) != dialect.POSTGRESQL:
        yield
        return
    # no try/finally: after an interrupt SQLAlchemy may have closed the connection, and
    # closing the cursor then would replace the interrupt with an error of its own
    cursor = conn.connection.cursor()
    with dialect.joins_as_written(conn, cursor):
        yield
    cursor.close()


def _any_with(conn: Connection, column: str, span: tuple[int, int]) -> bool:
    """Whether a reading of ``span`` (first, last id) has a value in ``column``."""
    found = conn.execute(
        text(f"SELECT 1 FROM reading WHERE id BETWEEN :a AND :b AND {column} IS NOT NULL LIMIT 1"),
        {"a": span[0], "b": span[1]},
    )
    return found.first() is not None


def insert_range(conn: Connection, first: int, last: int, *, count: bool = True) -> None:
    """Write the derived rows of the new readings ``first..last`` (ids of readings just
    inserted, in the caller's transaction); ``count``: see :func:`write`."""
    for d in DERIVED:
        write(conn, d, (first, last), replace=False, count=count)


def rewrite(conn: Connection, reading_id: int) -> None:
    """Write the derived rows of a reading whose inputs changed (its subject) again."""
    for d in DERIVED:
        write(conn, d, (reading_id, reading_id), replace=True)


def insert(conn: Connection, ids: Iterable[int], *, count: bool = True) -> None:
    """Write the derived rows of the new readings ``ids``, run by run of consecutive ids
    (on PostgreSQL another writer's ids may fall between them); ``count``: see
    :func:`write`."""
    for first, last in runs(ids):
        insert_range(conn, first, last, count=count)


def count(conn: Connection, ids: Iterable[int]) -> None:
    """Add the signs of the new readings ``ids``, written with ``count`` False, to
    ``sign_count``: an import does it once, just before it commits, so that on PostgreSQL
    it holds the counts' lock (:mod:`yimao_db.kb.sign_count`) for the commit alone, not
    while it inserts, and casts meanwhile do not wait for it."""
    for span in runs(ids):
        sign_count.add(conn, span)


def runs(ids: Iterable[int]) -> Iterator[tuple[int, int]]:
    """The ids as runs of consecutive ids, ``(first, last)`` each."""
    first = last = None
    for i in sorted(set(ids)):
        if last is not None and i == last + 1:
            last = i
            continue
        if first is not None and last is not None:
            yield first, last
        first = last = i
    if first is not None and last is not None:
        yield first, last


def reads(d: Derived) -> set[str]:
    """The names its definition's SQL mentions, and those of every view it reads, and so on:
    the tables (and views) it selects from, directly or through the views it reads
    (v_reading_use_computed reads the table reading_use_candidate through the view
    v_reading_use_candidate)."""
    from yimao_db.kb.views import views

    known = views()
    found: set[str] = set()
    todo = [d.definition]
    while todo:
        name = todo.pop()
        words = set(re.findall(r"\w+", known[name].sql))
        todo += [w for w in words - found if w in known and w != name]
        found |= words
    return found


def stale(changed: Iterable[str]) -> bool:
    """Whether a change to the tables ``changed`` may change a derived row."""
    names = set(changed)
    return any(reads(d) & names for d in DERIVED)


def mend(conn: Connection) -> int:
    """Rewrite the derived rows of every reading whose rows differ from its definition's
    (a rule table the definition reads changed, or the rows were damaged); the readings
    rewritten. Only those readings' rows are touched."""
    mended: set[int] = set()
    for d in DERIVED:  # in order: a definition may read the tables mended before it
        mended |= mend_table(conn, d)
    return len(mended)


def mend_table(conn: Connection, d: Derived) -> set[int]:
    """Rewrite ``d``'s rows of every reading whose rows differ from its definition's; the
    readings rewritten. Its rows' counts, when it has them (``sign_count``), are counted
    again if they differ from the rows: damaged rows were counted as they were before the
    damage, and rewriting them kept that difference."""
    first, last = conn.execute(text("SELECT MIN(id), MAX(id) FROM reading")).one()
    ids = {rid for _, rid, _ in differences(conn, spans(first, last), (d,))}
    for span in runs(ids):
        write(conn, d, span, replace=True)
    if d.counted and sign_count.differences(conn):
        sign_count.refresh(conn)
    return ids


def refresh_table(conn: Connection, d: Derived) -> None:
    """Rewrite every row of ``d`` from its definition."""
    write(conn, d, None, replace=True)


def spans(first: int | None, last: int | None, size: int = COMPARE_SPAN) -> list[tuple[int, int]]:
    """``first..last`` cut into spans of ``size`` ids."""
    if first is None or last is None:
        return []
    return [(a, min(a + size - 1, last)) for a in range(first, last + 1, size)]


def columns(d: Derived) -> tuple[str, ...]:
    """Its columns: its definition's, in order."""
    from yimao_db.kb.views import views

    return views()[d.definition].column_names


def differences(
    conn: Connection,
    spans_: Iterable[tuple[int, int]],
    tables: Iterable[Derived] = DERIVED,
) -> Iterator[tuple[Derived, int, str]]:
    """Every reading whose rows in a derived table (of ``tables``) differ from its
    definition's, within the spans of reading ids ``spans_``: the derived table, the
    reading, what differs. Rows are compared as multisets in one pass that computes the
    definition once: each distinct row counted +1 per stored copy and -1 per copy the
    definition gives; a reading with a row whose count is not 0 differs."""
    spans_ = list(spans_)
    for d in tables:
        select = ", ".join(columns(d))
        where = "WHERE reading_id BETWEEN :a AND :b"
        sql = (
            f"SELECT reading_id, MAX(n), MIN(n) FROM ("
            f"SELECT {select}, SUM(side) AS n FROM ("
            f"SELECT {select}, 1 AS side FROM {d.table} {where} UNION ALL "
            f"SELECT {select}, -1 AS side FROM {d.definition} {where}"
            f") u GROUP BY {select} HAVING SUM(side) <> 0) x GROUP BY reading_id "
            "ORDER BY reading_id"
        )
        for first, last in spans_:
            with planned(conn, d):
                found = conn.execute(text(sql), {"a": first, "b": last}).all()
            for rid, most, least in found:
                what = []
                if most > 0:
                    what.append("rows stored that the definition does not give")
                if least < 0:
                    what.append("rows of the definition not stored")
                yield d, int(rid), " and ".join(what)
