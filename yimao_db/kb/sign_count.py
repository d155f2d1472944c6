"""``sign_count``: how many times each sign fired and in how many readings, kept in step.

A count of every stored sign reads all of ``reading_sign`` (some 18 rows a reading): 1.3 s
for ``COUNT(*)`` at a million readings and 2 s more for the readings, past what a page of
``yimao serve`` may take. The table holds, per sign, exactly what

    SELECT sign, COUNT(*), COUNT(DISTINCT reading_id) FROM reading_sign GROUP BY sign

gives (:data:`COUNTED`; no row for a sign that fired nowhere), and ``v_sign_count`` reads
it with the sign's attributes. It changes only with ``reading_sign``'s rows, in the same
transaction (:mod:`yimao_db.kb.derived` calls :func:`add` around every write of them, and
deleting readings calls :func:`forget` first); a build's mend and a revision that creates
the table count it again whole (:func:`refresh`), and ``yimao check`` compares it with the
count (:func:`differences`).

On PostgreSQL concurrent writers would update the same rows in different orders; a
transaction takes an advisory lock (held to its end) before its first change to the
counts, so they take turns there. SQLite has one writer at a time anyway.

This module imports nothing of the package beyond SQLAlchemy and :mod:`yimao_db.dialect`.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, bindparam, inspect, text

from yimao_db import dialect

TABLE = "sign_count"
# the counts as reading_sign gives them: what the table must equal
COUNTED = (
    "SELECT sign, COUNT(*) AS fired, COUNT(DISTINCT reading_id) AS readings "
    "FROM reading_sign {where} GROUP BY sign"
)
# a lock of this transaction on PostgreSQL: the writers of the counts take turns
LOCK_KEY = 0x5167_C0DE


def add(conn: Connection, span: tuple[int, int], factor: int = 1) -> None:
    """Add the signs stored for the readings ``span`` (first, last id) to the counts, or
    subtract them (``factor`` -1, before they are deleted)."""
    _add(conn, "reading_id BETWEEN :a AND :b", {"a": span[0], "b": span[1]}, factor)


def forget(conn: Connection, ids: Sequence[int]) -> None:
    """Subtract the signs of the readings ``ids`` from the counts: call it before deleting
    the readings (their signs go with them, ON DELETE CASCADE)."""
    _add(conn, "reading_id IN :ids", {"ids": list(ids)}, -1, expanding=True)


def _add(
    conn: Connection, where: str, params: dict[str, object], factor: int, expanding: bool = False
) -> None:
    _lock(conn)
    counted = COUNTED.format(where=f"WHERE {where}")
    statement = text(
        f"INSERT INTO {TABLE} (sign, fired, readings) "
        f"SELECT sign, :f * fired, :f * readings FROM ({counted}) c ORDER BY sign "
        "ON CONFLICT (sign) DO UPDATE SET "
        f"fired = {TABLE}.fired + excluded.fired, readings = {TABLE}.readings + excluded.readings"
    )
    if expanding:
        statement = statement.bindparams(bindparam("ids", expanding=True))
    conn.execute(statement, {**params, "f": factor})
    if factor < 0:
        conn.execute(text(f"DELETE FROM {TABLE} WHERE fired = 0"))


def _lock(conn: Connection) -> None:
    """On PostgreSQL, wait for the counts' lock (held to the transaction's end)."""
    dialect.take_turns(conn, LOCK_KEY)


def refresh(conn: Connection) -> None:
    """Count every stored sign again (nothing to do before the revision that makes the
    table, 0027: an older revision rewriting ``reading_sign`` has no counts to keep)."""
    if not inspect(conn).has_table(TABLE):
        return
    _lock(conn)
    conn.execute(text(f"DELETE FROM {TABLE}"))
    counted = COUNTED.format(where="")
    conn.execute(text(f"INSERT INTO {TABLE} (sign, fired, readings) {counted}"))


def differences(conn: Connection) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    """Every sign whose stored counts differ from the count of ``reading_sign``: the sign,
    (fired, readings) stored, and counted ((0, 0) for a row missing on that side)."""
    counted = COUNTED.format(where="")
    rows = conn.execute(
        text(
            "SELECT sign, SUM(side * fired), SUM(side * readings), "
            "SUM(CASE WHEN side = 1 THEN fired ELSE 0 END), "
            "SUM(CASE WHEN side = 1 THEN readings ELSE 0 END) FROM ("
            f"SELECT sign, fired, readings, 1 AS side FROM {TABLE} UNION ALL "
            f"SELECT sign, fired, readings, -1 AS side FROM ({counted}) c"
            ") u GROUP BY sign "
            "HAVING SUM(side * fired) <> 0 OR SUM(side * readings) <> 0 ORDER BY sign"
        )
    ).all()
    out = []
    for sign, d_fired, d_readings, fired, readings in rows:
        stored = (int(fired), int(readings))
        out.append((str(sign), stored, (stored[0] - int(d_fired), stored[1] - int(d_readings))))
    return out
