"""Derived tables (yimao_db.kb.derived) hold, for every reading, exactly the rows of their
definitions: after casts, an import, deletes and journal writes, after an import killed
with SIGKILL, after the migration that creates them and after a build whose rule tables
changed; yimao check names a reading whose stored rows were changed behind yimao's back;
and the public views give what their definitions give."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import built_copy, cast_into, raw, refresh_derived
from sqlalchemy import Connection, text
from test_import import csv_text, many_rows, paused_import, write
from test_migrations import cast_readings, db_at, step, writer

from yimao_db import check as doctor
from yimao_db.building import build
from yimao_db.cli import main
from yimao_db.db import reader_engine, writer_engine
from yimao_db.importing import import_file
from yimao_db.journaling import add_note, delete_readings, record_outcome, set_about
from yimao_db.kb import derived, sign_count
from yimao_db.kb.schema import metadata
from yimao_db.kb.views import views
from yimao_db.readings import cast


@contextmanager
def reading(db: str) -> Iterator[Connection]:
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


def counts(db: str) -> dict[str, int]:
    """Each derived table's rows, and the signs counted in sign_count."""
    with reading(db) as conn:
        found = {
            d.table: conn.execute(text(f"SELECT COUNT(*) FROM {d.table}")).scalar_one()
            for d in derived.DERIVED
        }
        fired = conn.execute(text("SELECT COALESCE(SUM(fired), 0) FROM sign_count"))
        return found | {"sign_count": fired.scalar_one()}


def differences(db: str) -> list[tuple[str, int | str, str]]:
    """What differs from the definitions: (table, reading or sign, what)."""
    with reading(db) as conn:
        first, last = conn.execute(text("SELECT MIN(id), MAX(id) FROM reading")).one()
        spans = derived.spans(first, last)
        found: list[tuple[str, int | str, str]] = [
            (d.table, rid, what) for d, rid, what in derived.differences(conn, spans)
        ]
        for sign, stored, counted in sign_count.differences(conn):
            found.append(("sign_count", sign, f"{stored} != {counted}"))
        return found


def sign_counts(db: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """v_sign_count's rows, and the same counted from v_reading_sign."""
    with reading(db) as conn:
        kept = conn.execute(
            text("SELECT sign, weight, fired, readings FROM v_sign_count ORDER BY sign")
        )
        counted = conn.execute(
            text(
                "SELECT sign, weight, COUNT(*), COUNT(DISTINCT reading_id) FROM v_reading_sign "
                "GROUP BY sign, weight ORDER BY sign"
            )
        )
        return [tuple(r) for r in kept], [tuple(r) for r in counted]


def test_each_table_has_its_definitions_columns_and_is_read_by_a_public_view() -> None:
    found = views()
    for d in derived.DERIVED:
        definition = found[d.definition]
        assert not definition.public
        # INSERT … SELECT * relies on the order
        assert [c.name for c in metadata.tables[d.table].columns] == list(definition.column_names)
        readers = [v for v in found.values() if re.search(rf"\bFROM {d.table}\b", v.sql)]
        assert [v.public for v in readers] == [True], d
        public = set(readers[0].column_names)
        assert set(definition.column_names) <= public
        assert derived.columns(d) == definition.column_names


def test_runs_and_spans() -> None:
    assert list(derived.runs([5, 3, 4, 9, 4, 11, 10])) == [(3, 5), (9, 11)]
    assert list(derived.runs([])) == []
    assert derived.spans(1, 12, 5) == [(1, 5), (6, 10), (11, 12)]
    assert derived.spans(None, None) == []


def test_writes_keep_the_derived_tables_equal_to_their_definitions(
    fresh_db: str, tmp_path: Path
) -> None:
    ids = [
        cast("789678", at="2026-11-30T09:15", db=fresh_db),
        cast(coins="2,1,3,0,2,2", at="2024-06-30T23:30", najia="seasonal", db=fresh_db),
        cast("乾", pillars="甲辰,丙寅,戊戌,庚申", db=fresh_db),
    ]
    csv = write(tmp_path / "r.csv", csv_text(many_rows(40)))
    ids += import_file(csv, fresh_db)
    stored = counts(fresh_db)
    assert stored["reading_header"] == 43 and stored["reading_hidden"] > 0
    assert stored["reading_line_chart"] == 6 * 43
    add_note(ids[0], "a note", fresh_db)
    record_outcome(ids[1], "hit", db=fresh_db)
    set_about(ids[3], "妻財", fresh_db)
    delete_readings([ids[2], ids[5]], fresh_db)
    assert differences(fresh_db) == []
    kept, counted = sign_counts(fresh_db)
    assert kept == counted and len(kept) > 30
    with reading(fresh_db) as conn:
        for d in derived.DERIVED:  # a deleted reading's rows went with it
            left = conn.execute(
                text(f"SELECT COUNT(*) FROM {d.table} WHERE reading_id IN (:a, :b)"),
                {"a": ids[2], "b": ids[5]},
            ).scalar_one()
            assert left == 0
        # the public views read the tables and give what the definitions give
        for d in derived.DERIVED:
            cols = ", ".join(views()[d.definition].column_names)
            got = conn.execute(text(f"SELECT {cols} FROM {d.view} ORDER BY 1, 2, 3")).all()
            want = conn.execute(text(f"SELECT {cols} FROM {d.definition} ORDER BY 1, 2, 3"))
            assert got == want.all() and got, d
        assert conn.execute(text("SELECT COUNT(*) FROM v_reading")).scalar_one() == 41
        verdict = conn.execute(
            text("SELECT outcome FROM v_reading WHERE reading_id = :i"), {"i": ids[1]}
        )
        assert verdict.scalar_one() == "hit"  # the journal's columns are not stored
    assert doctor.check(fresh_db) == []


def test_an_import_writes_the_derived_rows_of_many_batches(
    fresh_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import writes derived rows for several batches at once (``DERIVED_BATCH``), and
    the rest at the end: every reading gets its rows, whatever the sizes."""
    import yimao_db.importing as importing

    monkeypatch.setattr(importing, "BATCH", 4)
    monkeypatch.setattr(importing, "DERIVED_BATCH", 10)  # flushed at 12 and 24, then 27
    rows = many_rows(27)
    ids = import_file(write(tmp_path / "r.csv", csv_text(rows)), fresh_db)
    assert len(ids) == 27
    assert counts(fresh_db)["reading_header"] == 27
    assert differences(fresh_db) == []


def test_a_change_of_subject_rewrites_the_readings_roles(fresh_db: str) -> None:
    rid = cast("789678", at="2026-11-30T09:15", db=fresh_db)

    def roles() -> list[tuple[str, str]]:
        with reading(fresh_db) as conn:
            sql = "SELECT role, relative FROM v_reading_use WHERE reading_id = :i ORDER BY 1"
            return [tuple(r) for r in conn.execute(text(sql), {"i": rid})]

    assert roles() == []  # no subject, no 用神
    set_about(rid, "妻財", fresh_db)
    assert roles() == [("仇神", "父母"), ("原神", "子孫"), ("忌神", "兄弟"), ("用神", "妻財")]
    set_about(rid, "官鬼", fresh_db)
    assert roles() == [("仇神", "兄弟"), ("原神", "妻財"), ("忌神", "子孫"), ("用神", "官鬼")]
    set_about(rid, None, fresh_db)
    assert roles() == []
    assert differences(fresh_db) == []


def test_a_definition_is_skipped_only_where_no_reading_has_what_it_needs(
    fresh_db: str, tmp_path: Path
) -> None:
    """``Derived.needs``: a write of readings that all lack the column skips the definition.
    Sound only if the definition gives no row to a reading without it, on readings with and
    without it, batches of either kind and of both; the rows equal the definition's."""
    subjects = ["", "妻財", "", "", "官鬼", "", "", "", "", ""]
    rows = [
        [*row[:3], row[3], "", about] for row, about in zip(many_rows(10), subjects, strict=True)
    ]
    header = "lines,at,tz,question,matter,about\n"
    body = "".join(",".join(f'"{v}"' for v in row) + "\n" for row in rows)
    mixed = import_file(write(tmp_path / "mixed.csv", header + body), fresh_db)
    none = import_file(
        write(tmp_path / "none.csv", header + body.replace("妻財", "").replace("官鬼", "")),
        fresh_db,
    )
    alone = cast("789678", at="2026-11-30T09:15", about="兄弟", db=fresh_db)
    assert [d.needs for d in derived.DERIVED] == [None, None, None, "about", "about", None]
    with reading(fresh_db) as conn:
        for d in derived.DERIVED:
            if d.needs is None:
                continue
            lacking = conn.execute(
                text(
                    f"SELECT COUNT(*) FROM {d.definition} x JOIN reading r ON r.id = x.reading_id"
                    f" WHERE r.{d.needs} IS NULL"
                )
            )
            assert lacking.scalar_one() == 0, d
            having = conn.execute(text(f"SELECT DISTINCT reading_id FROM {d.table} ORDER BY 1"))
            assert [r[0] for r in having] == [mixed[1], mixed[4], alone], d
    assert len(none) == 10
    assert differences(fresh_db) == []


@pytest.mark.sqlite_only
def test_yimao_check_names_a_reading_whose_derived_rows_were_changed(
    sqlite_template: Path, tmp_path: Path
) -> None:
    db = built_copy(sqlite_template, tmp_path / "t.db")
    ids = [cast("789678", at="2026-11-30T09:15", db=str(db)) for _ in range(4)]
    assert doctor.check(str(db)) == []
    with raw(db) as con:
        con.execute(f"UPDATE reading_header SET palace = '坤' WHERE reading_id = {ids[0]}")
        con.execute(f"DELETE FROM reading_header WHERE reading_id = {ids[1]}")
        con.execute(
            f"DELETE FROM reading_hidden WHERE reading_id = {ids[2]} AND position = "
            f"(SELECT MIN(position) FROM reading_hidden WHERE reading_id = {ids[2]})"
        )
        # a column no later definition reads: the lines' table alone differs
        con.execute(f"UPDATE reading_line_chart SET places = '天' WHERE reading_id = {ids[3]}")
    problems = [str(p) for p in doctor.check(str(db)) if p.kind == "derived"]
    assert problems == [
        f"derived: reading_header reading_id={ids[0]}: rows stored that the definition does "
        "not give and rows of the definition not stored",
        f"derived: reading_header reading_id={ids[1]}: rows of the definition not stored",
        f"derived: reading_hidden reading_id={ids[2]}: rows of the definition not stored",
        f"derived: reading_line_chart reading_id={ids[3]}: rows stored that the definition "
        "does not give and rows of the definition not stored",
    ]


@pytest.mark.sqlite_only
def test_an_import_killed_mid_transaction_leaves_them_in_step(
    sqlite_template: Path, tmp_path: Path
) -> None:
    db = str(built_copy(sqlite_template, tmp_path / "k.db"))
    kept = cast("789678", at="2026-11-30T09:15", db=db)
    before = counts(db)
    proc, _ = paused_import(tmp_path, db, "insert")  # a batch and its derived rows written
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    assert counts(db) == before
    engine = writer_engine(db)  # the next writer finds the readings as they were
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT id FROM reading")).scalars().all() == [kept]
    finally:
        engine.dispose()
    assert differences(db) == [] and doctor.check(db) == []


@pytest.mark.sqlite_only
def test_the_migration_fills_them_for_readings_already_stored(tmp_path: Path) -> None:
    db = db_at(tmp_path / "old.db", "0017")
    ids = cast_readings(db)
    build(db)
    stored = counts(db)
    assert stored["reading_header"] == len(ids) and stored["reading_hidden"] > 0
    assert stored["reading_line_chart"] == 6 * len(ids)
    assert stored["sign_count"] == stored["reading_sign"] > 0  # counted by revision 0027
    assert differences(db) == [] and doctor.check(db) == []


def stored_rows(db: str, sql: str) -> list[tuple[object, ...]]:
    with raw(Path(db)) as con:
        return [tuple(r) for r in con.execute(sql)]


@pytest.mark.sqlite_only
def test_revision_0028_stores_the_lines_the_view_computed(tmp_path: Path) -> None:
    """The lines v_reading_line computed at revision 0027 are the rows it reads from
    reading_line_chart at 0028, and the 用神, now worked out from the stored lines, are the
    rows their definition gave from the computed ones."""
    db = db_at(tmp_path / "old.db", "0027")
    ids = [*cast_readings(db), cast_into(db, "乾之姤", at="2026-11-30T09:15", about="妻財")]

    lines = stored_rows(db, "SELECT * FROM v_reading_line ORDER BY reading_id, position")
    roles = stored_rows(db, "SELECT * FROM v_reading_use_computed ORDER BY reading_id, role")
    assert len(lines) == 6 * len(ids) and len(roles) > 0
    build(db)
    assert stored_rows(db, "SELECT * FROM v_reading_line ORDER BY reading_id, position") == lines
    assert (
        stored_rows(db, "SELECT * FROM reading_line_chart ORDER BY reading_id, position") == lines
    )
    assert (
        stored_rows(db, "SELECT * FROM v_reading_use_computed ORDER BY reading_id, role") == roles
    )
    assert stored_rows(db, "SELECT * FROM reading_use ORDER BY reading_id, role") == roles


def test_revision_0030_stores_the_candidates_the_view_ranked(tmp_path: Path) -> None:
    """The candidates v_reading_use_candidate ranked at revision 0029 are the rows it reads
    from reading_use_candidate at 0030, and the 用神, now taken from the stored candidates,
    are the rows their definition gave: for every kind of subject (a relative, the world or
    response line, a matter), on hexagrams that show every relative and on one that hides
    some, at moments that make candidates void, month-broken, both and neither."""
    db = db_at(tmp_path / "old.db", "0029")
    subjects = ("妻財", "官鬼", "父母", "子孫", "兄弟", "世", "應", "考試", "疾病")
    casts = (
        {"coins": "2,1,3,0,2,2", "at": "2024-06-30T23:30"},  # hides a relative
        {"lines": "789678", "pillars": "甲辰,丙寅,戊戌,庚申"},
        {"lines": "乾之姤", "day": "甲子", "month": "寅", "hour": "丙寅"},
        {"lines": "姤", "moving": "1,4", "at": "1988-07-01T12:00"},
        {"lines": "坤之復", "at": "2026-11-30T09:15"},
    )
    for about in subjects:
        for kwargs in casts:
            cast_into(db, about=about, **kwargs)
    for day, month in zip(
        ("甲子", "甲戌", "甲申", "甲午", "甲辰", "甲寅"), "子卯午酉申未", strict=True
    ):
        for about in ("妻財", "官鬼"):  # a day of each decade (旬): hidden spirits void too
            cast_into(db, coins="2,1,3,0,2,2", day=day, month=month, about=about)
    cast_into(db, "乾")  # no subject: no candidates

    order = " ORDER BY reading_id, role, rank"
    candidates = stored_rows(db, "SELECT * FROM v_reading_use_candidate" + order)
    roles = stored_rows(db, "SELECT * FROM v_reading_use_computed ORDER BY reading_id, role")
    states = {(c[5], c[11], c[12]) for c in candidates}  # source, is_void, is_month_break
    assert {s for s, _, _ in states} == {"visible", "hidden", "world", "response"}
    for source in ("visible", "hidden"):
        assert {(v, b) for s, v, b in states if s == source} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert len(roles) == 4 * (len(subjects) * len(casts) + 12)
    build(db)
    assert stored_rows(db, "SELECT * FROM reading_use_candidate" + order) == candidates
    assert stored_rows(db, "SELECT * FROM v_reading_use_candidate" + order) == candidates
    assert stored_rows(db, "SELECT * FROM v_reading_use_candidate_computed" + order) == candidates
    assert stored_rows(db, "SELECT * FROM reading_use ORDER BY reading_id, role") == roles
    assert differences(db) == []


@pytest.mark.sqlite_only
def test_revision_0031_keeps_every_stored_sign(tmp_path: Path) -> None:
    """Revision 0031 writes the signs' definition another way (reading the stored lines):
    up and down, it compares the stored signs with the new definition and writes again
    only a reading whose rows differ, here one damaged by hand; every other row stays the
    row stored before (its rowid unchanged), and the rows equal both definitions."""
    db = db_at(tmp_path / "old.db", "0030")
    ids = cast_readings(db)
    for about, matter in (("妻財", "財利"), ("官鬼", "功名"), ("世", "獄訟"), ("應", None)):
        for kwargs in (
            {"lines": "789678", "pillars": "甲辰,丙寅,戊戌,庚申"},
            {"coins": "2,1,3,0,2,2", "at": "2024-06-30T23:30"},
            {"lines": "坤之復", "at": "2026-11-30T09:15"},
        ):
            ids.append(cast_into(db, about=about, matter=matter, **kwargs))
    damaged = ids[-1]
    with raw(Path(db)) as con:  # one of its signs deleted behind yimao's back
        con.execute(
            "DELETE FROM reading_sign WHERE rowid = "
            "(SELECT MIN(rowid) FROM reading_sign WHERE reading_id = ?)",
            (damaged,),
        )
    order = " ORDER BY reading_id, sign, position"
    computed = stored_rows(db, "SELECT * FROM v_reading_sign_computed" + order)
    before = stored_rows(db, "SELECT rowid, * FROM reading_sign" + order)
    kept = [r for r in before if r[1] != damaged]
    assert {r[1] for r in kept} == set(ids) - {damaged} and len(computed) == len(before) + 1

    build(db)  # 0030 → 0031
    after = stored_rows(db, "SELECT rowid, * FROM reading_sign" + order)
    assert [r for r in after if r[1] != damaged] == kept
    assert [r[1:] for r in after] == computed
    assert stored_rows(db, "SELECT * FROM v_reading_sign_computed" + order) == computed
    assert differences(db) == []

    with writer(db) as engine:  # and back to 0030: nothing differs, nothing written
        while (current := step(engine, "-1")) != "0030":  # down from the head, one at a time
            assert current is not None and current > "0030"
    assert stored_rows(db, "SELECT rowid, * FROM reading_sign" + order) == after
    assert stored_rows(db, "SELECT * FROM v_reading_sign_computed" + order) == computed


@pytest.mark.sqlite_only
def test_a_build_rewrites_the_rows_that_differ_and_only_those(
    sqlite_template: Path, tmp_path: Path
) -> None:
    db = str(built_copy(sqlite_template, tmp_path / "r.db"))
    rid = cast("789678", at="2026-11-30T09:15", db=db)
    other = cast(coins="2,1,3,0,2,2", at="2024-06-30T23:30", db=db)  # has hidden spirits
    kept = cast("乾", pillars="甲辰,丙寅,戊戌,庚申", db=db)
    with raw(Path(db)) as con:  # a rule table damaged, and the stored rows made from it
        con.execute("UPDATE hexagram SET name = 'x' WHERE king_wen = 63")
        con.execute("DELETE FROM reading_header")
        con.execute("INSERT INTO reading_header SELECT * FROM v_reading_header_computed")
        con.execute(f"DELETE FROM reading_hidden WHERE reading_id = {other}")  # damaged
        con.execute("CREATE TABLE touched (reading_id INTEGER)")  # what the build deletes
        for table in ("reading_header", "reading_hidden"):
            con.execute(
                f"CREATE TRIGGER t_{table} AFTER DELETE ON {table} "
                "BEGIN INSERT INTO touched VALUES (old.reading_id); END"
            )
    with reading(db) as conn:
        sql = text("SELECT primary_name FROM v_reading WHERE reading_id = :i")
        assert conn.execute(sql, {"i": rid}).scalar_one() == "x"
    assert differences(db) and doctor.check(db)
    report = build(db)  # the seed mends hexagram, then the rows that differ are rewritten
    assert report.mended == 2
    assert "; the derived rows of 2 readings rewritten" in report.describe(db)
    with reading(db) as conn:
        assert conn.execute(sql, {"i": rid}).scalar_one() == "水火既濟"
    with raw(Path(db)) as con:  # only the rows that differed were deleted and written again
        assert con.execute("SELECT reading_id FROM touched").fetchall() == [(rid,)]
        con.execute("DROP TRIGGER t_reading_header")
        con.execute("DROP TRIGGER t_reading_hidden")
        con.execute("DROP TABLE touched")
    assert differences(db) == [] and doctor.check(db) == []
    assert kept and build(db).mended == 0  # nothing left to mend


@pytest.mark.sqlite_only
def test_damaged_rows_are_mended_by_build_mend(
    sqlite_template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(built_copy(sqlite_template, tmp_path / "d.db"))
    rid = cast(coins="2,1,3,0,2,2", at="2024-06-30T23:30", db=db)  # has hidden spirits
    with raw(Path(db)) as con:
        con.execute(f"UPDATE reading_hidden SET relative = '兄弟' WHERE reading_id = {rid}")
    assert build(db).mended == 0  # no rule table changed: not compared, not touched
    assert [p.table for p in doctor.check(db) if p.kind == "derived"] == ["reading_hidden"]
    capsys.readouterr()
    assert main(["build", "--mend", "--db", db]) == 0
    assert "; the derived rows of 1 reading rewritten in " in capsys.readouterr().out
    assert differences(db) == [] and doctor.check(db) == []


@pytest.mark.sqlite_only
def test_a_build_rewrites_the_roles_when_a_rule_table_read_through_a_view_changed(
    sqlite_template: Path, tmp_path: Path
) -> None:
    """The candidates' definition reads relative_role, and v_reading_use_computed reads it
    only through the stored candidates: a seed that mends relative_role rewrites the
    readings' candidates and their 用神 too."""
    db = str(built_copy(sqlite_template, tmp_path / "u.db"))
    rid = cast("789678", at="2026-11-30T09:15", db=db)
    set_about(rid, "妻財", db)
    with raw(Path(db)) as con:  # a rule table damaged, and the stored rows made from it
        con.execute(
            "UPDATE relative_role SET relative = '官鬼' "
            "WHERE use_relative = '妻財' AND role = '忌神'"
        )
        refresh_derived(con)
    sql = text("SELECT relative FROM v_reading_use WHERE reading_id = :i AND role = '忌神'")
    with reading(db) as conn:
        assert conn.execute(sql, {"i": rid}).scalar_one() == "官鬼"
    assert build(db).mended == 1  # the seed mends relative_role, then the roles
    with reading(db) as conn:
        assert conn.execute(sql, {"i": rid}).scalar_one() == "兄弟"
    assert differences(db) == [] and doctor.check(db) == []
    assert derived.stale({"relative_role"}) and derived.stale({"use_candidate_rank"})


@pytest.mark.sqlite_only
def test_damaged_sign_counts_are_named_by_check_and_mended_by_build_mend(
    sqlite_template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(built_copy(sqlite_template, tmp_path / "c.db"))
    cast("789678", at="2026-11-30T09:15", db=db)
    cast("乾", pillars="甲辰,丙寅,戊戌,庚申", db=db)
    before = sign_counts(db)
    with raw(Path(db)) as con:
        con.execute("UPDATE sign_count SET fired = fired + 1 WHERE sign = '卦身缺'")
        con.execute("DELETE FROM sign_count WHERE sign = '吉神生'")
        con.execute("INSERT INTO sign_count VALUES ('世空', 5, 5)")  # fired nowhere
    assert [(p.table, p.key) for p in doctor.check(db)] == [
        ("sign_count", "sign=世空"),
        ("sign_count", "sign=卦身缺"),
        ("sign_count", "sign=吉神生"),
    ]
    capsys.readouterr()
    assert main(["build", "--mend", "--db", db]) == 0
    assert differences(db) == [] and doctor.check(db) == []
    assert sign_counts(db) == before and before[0] == before[1]


def test_deleting_every_reading_leaves_no_count(fresh_db: str) -> None:
    ids = [
        cast("789678", at="2026-11-30T09:15", db=fresh_db),
        cast(
            "789678", at="2026-11-30T09:15", about="官鬼", db=fresh_db
        ),  # the same signs, and more
    ]
    kept, counted = sign_counts(fresh_db)
    assert kept == counted and all(r[3] in (1, 2) for r in kept)
    assert any(r[3] == 2 for r in kept) and any(r[3] == 1 for r in kept)
    delete_readings(ids[:1], fresh_db)
    kept, counted = sign_counts(fresh_db)
    assert kept == counted and all(r[3] == 1 for r in kept)
    delete_readings(ids[1:], fresh_db)
    assert sign_counts(fresh_db) == ([], []) and differences(fresh_db) == []
