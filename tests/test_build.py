"""The built database: counts, views, invariants, idempotence, refusal and rollback."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from helpers import rows
from sqlalchemy import Connection, create_engine, create_mock_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from yimao_db import building as buildmod
from yimao_db import dialect
from yimao_db.building import build, head_revision
from yimao_db.check import migrated_schema
from yimao_db.db import reader_engine, resolve_url, sqlite_path, writer_engine
from yimao_db.dialect import sqlite_schema_key
from yimao_db.errors import DatabaseError, SeedCheckFailed
from yimao_db.kb import head_schema, invariants, seeding
from yimao_db.kb.migrating import alembic_config, script_directory
from yimao_db.kb.views import contract


def is_sqlite(db: str) -> bool:
    return resolve_url(db).get_backend_name() == "sqlite"


def sqlite_only(db: str) -> Path:
    if not is_sqlite(db):
        pytest.skip("SQLite-specific check")
    path = sqlite_path(resolve_url(db))
    assert path is not None
    return path


def scalar(conn: Connection, sql: str, **params: Any) -> Any:
    return conn.execute(text(sql), params).scalar_one()


def one(conn: Connection, sql: str, **params: Any) -> dict[str, Any]:
    return dict(conn.execute(text(sql), params).mappings().one())


def contents(db: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, sorted, keyed by table name (backend-neutral dump)."""
    engine = reader_engine(db)
    try:
        with engine.connect() as c:
            names = sorted(inspect(c).get_table_names())
            return {
                name: sorted(
                    (tuple(r) for r in c.execute(text(f'SELECT * FROM "{name}"'))), key=repr
                )
                for name in names
            }
    finally:
        engine.dispose()


def sqlite_dump(path: Path) -> list[str]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


def schema_sql(path: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    """Every object's stored SQL, in a form where the order of table constraints (which
    alembic's batch mode varies) does not matter."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        return [(t, n, sqlite_schema_key(sql)) for t, n, sql in rows]
    finally:
        con.close()


def table_names(db: str) -> set[str]:
    if is_sqlite(db):
        path = sqlite_path(resolve_url(db))
        assert path is not None
        if not path.exists():
            return set()
    engine = reader_engine(db)
    try:
        with engine.connect() as c:
            return set(inspect(c).get_table_names())
    finally:
        engine.dispose()


# --- counts -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "count"),
    [
        ("ganzhi", 60),
        ("nayin", 30),
        ("hexagram", 64),
        ("hexagram_line", 384),
        ("v_ganzhi", 60),
        ("v_hexagram", 64),
        ("v_line", 384),
        ("trigram", 8),
        ("palace", 8),
        ("element", 5),
        ("stem", 10),
        ("branch", 12),
        ("mansion", 28),
        ("generation", 8),
        ("najia", 96),
    ],
)
def test_counts(conn: Connection, table: str, count: int) -> None:
    assert scalar(conn, f"SELECT COUNT(*) FROM {table}") == count


def test_six_lines_one_world_one_response(conn: Connection) -> None:
    bad = conn.execute(
        text(
            """SELECT king_wen FROM hexagram_line GROUP BY king_wen
               HAVING COUNT(*) <> 6 OR COUNT(DISTINCT position) <> 6
                   OR SUM(is_world) <> 1 OR SUM(is_response) <> 1 OR SUM(is_between) <> 2"""
        )
    ).all()
    assert bad == []
    assert scalar(conn, "SELECT COUNT(DISTINCT king_wen) FROM hexagram_line") == 64


def test_hidden_relatives_are_absent_from_their_hexagram(conn: Connection) -> None:
    clash = conn.execute(
        text(
            """SELECT s.king_wen, s.relative FROM hidden_spirit s
               WHERE EXISTS (SELECT 1 FROM hexagram_line l
                             WHERE l.king_wen = s.king_wen AND l.relative = s.relative)"""
        )
    ).all()
    assert clash == []
    # the pure hexagrams hold all five relatives and hide nothing
    pure = (
        "SELECT COUNT(*) FROM hidden_spirit s JOIN hexagram h ON h.king_wen = s.king_wen "
        "WHERE h.generation = 0"
    )
    assert scalar(conn, pure) == 0
    assert scalar(conn, "SELECT COUNT(DISTINCT king_wen) FROM hidden_spirit") > 0


@pytest.mark.parametrize("inv", invariants.INVARIANTS, ids=lambda inv: inv.name)
def test_invariant_holds(conn: Connection, inv: invariants.Invariant) -> None:
    assert conn.execute(text(inv.sql_for(conn))).fetchmany(10) == []


def test_invariants_detect_a_broken_row(fresh_db: str) -> None:
    engine = writer_engine(fresh_db)
    try:
        with engine.connect() as c:
            trans = c.begin()
            c.execute(text("UPDATE hexagram_line SET is_world = 1 WHERE king_wen = 44"))
            names = [name for name, _ in invariants.violations(c)]
            trans.rollback()
    finally:
        engine.dispose()
    assert "every hexagram has six lines, one world, one response and two between lines" in names


# damage to the stays of the lodges, each at its own date: a lodge skipped, a gap, an overlap,
# a stay removed, a stay inside another
LODGE_DAMAGE = (
    "UPDATE lodge_ingress SET mansion = '角' "
    "WHERE body = '月' AND starts_at = '2026-01-01T05:16:08Z'",
    "UPDATE lodge_ingress SET ends_at = '2026-12-23T13:32:27Z' "
    "WHERE body = '日' AND starts_at = '2026-12-06T20:17:48Z'",
    "UPDATE lodge_ingress SET ends_at = '1950-01-01T00:00:00Z' "
    "WHERE body = '日' AND starts_at < '1950-01-01T00:00:00Z' AND ends_at > '1949-12-01T00:00:00Z'",
    "DELETE FROM lodge_ingress WHERE body = '月' AND starts_at = "
    "(SELECT MIN(starts_at) FROM lodge_ingress WHERE body = '月' AND starts_at > '2000-01-01')",
    "INSERT INTO lodge_ingress VALUES ('日', '2080-06-01T00:00:00Z', '2080-06-02T00:00:00Z', '角')",
)


def test_an_invariant_written_for_sqlite_finds_what_its_query_finds(fresh_db: str) -> None:
    """The lodges' invariant has a second form for SQLite's planner: on every damage tried,
    both find the same stays (each form runs on either backend)."""
    twice = [inv for inv in invariants.INVARIANTS if inv.sqlite_sql is not None]
    assert [inv.needs for inv in twice] == [("lodge_ingress",)]
    engine = writer_engine(fresh_db)
    try:
        with engine.connect() as c:
            trans = c.begin()
            for damage in LODGE_DAMAGE:
                c.execute(text(damage))
            found = [
                (
                    sorted(map(tuple, c.execute(text(inv.sql)))),
                    sorted(map(tuple, c.execute(text(q)))),
                )
                for inv in twice
                for q in [inv.sqlite_sql or ""]
            ]
            trans.rollback()
    finally:
        engine.dispose()
    stays = [
        ("日", "1949-11-28T22:50:19Z"),  # the overlaps: four stays made to end at 1950
        ("日", "1949-12-05T23:09:51Z"),
        ("日", "1949-12-22T18:13:35Z"),
        ("日", "1949-12-31T18:22:57Z"),
        ("日", "2026-12-06T20:17:48Z"),  # the gap
        ("日", "2080-05-30T10:47:18Z"),  # the stay inserted inside this one, and itself
        ("日", "2080-06-01T00:00:00Z"),
        ("月", "1999-12-31T16:48:55Z"),  # before the stay removed
        ("月", "2025-12-31T13:07:14Z"),  # before and at the lodge skipped
        ("月", "2026-01-01T05:16:08Z"),
    ]
    assert found == [(stays, stays)]


def test_every_invariant_is_structural_and_says_why() -> None:
    """Counts, totality over keys, one fact kept in two places: what a rule decides is held
    by the rule tests, the oracle and yimao check's recomputation, not restated in SQL."""
    assert len(invariants.INVARIANTS) == len({inv.name for inv in invariants.INVARIANTS})
    for inv in invariants.INVARIANTS:
        kind, _, reason = inv.why.partition(": ")
        assert kind in invariants.KINDS and reason and "\n" not in inv.why, inv.name


@pytest.mark.sqlite_only
def test_sqlite_integrity_and_foreign_keys(built_db: str) -> None:
    path = sqlite_only(built_db)
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        con.close()


# --- views --------------------------------------------------------------------------------


@pytest.mark.parametrize("view", list(contract.current()))
def test_view_columns_start_with_every_contract_version(conn: Connection, view: str) -> None:
    """A public view's columns only ever grow at the end: each recorded version of the
    contract (yimao_db/kb/views/contract.json) is a prefix of the live view's columns."""
    columns = tuple(conn.execute(text(f"SELECT * FROM {view} LIMIT 0")).keys())
    assert columns == contract.current()[view]
    for version in contract.history():
        recorded = version.views.get(view, ())
        assert columns[: len(recorded)] == recorded, version.version


def test_v_ganzhi_values(conn: Connection) -> None:
    row = one(conn, "SELECT * FROM v_ganzhi WHERE name = '甲子'")
    assert row["ordinal"] == 1
    assert (row["stem"], row["branch"]) == ("甲", "子")
    assert row["void_branches"] == "戌亥"
    assert (row["nayin_name"], row["nayin_element"]) == ("海中金", "金")
    assert row["xun_head"] == "甲子"
    row = one(conn, "SELECT * FROM v_ganzhi WHERE ordinal = 60")
    assert (row["name"], row["xun_head"], row["void_branches"]) == ("癸亥", "甲寅", "子丑")
    assert (row["nayin_name"], row["nayin_element"]) == ("大海水", "水")
    voids = dict(
        conn.execute(text("SELECT DISTINCT xun_head, void_branches FROM v_ganzhi")).tuples().all()
    )
    assert voids == {
        "甲子": "戌亥",
        "甲戌": "申酉",
        "甲申": "午未",
        "甲午": "辰巳",
        "甲辰": "寅卯",
        "甲寅": "子丑",
    }


def test_v_hexagram_gou(conn: Connection) -> None:
    row = one(conn, "SELECT * FROM v_hexagram WHERE short_name = '姤'")
    expected = {
        "king_wen": 44,
        "name": "天風姤",
        "short_name": "姤",
        "bits": "011111",
        "upper": "乾",
        "lower": "巽",
        "palace": "乾",
        "palace_element": "金",
        "palace_order": 1,
        "generation": 1,
        "generation_name": "一世",
        "world": 1,
        "response": 4,
        "five_star": "太白",
        "world_ganzhi": "辛丑",
        "world_mansion_jingfang": "井",
        "world_mansion_huangjin": "亢",
        "gua_shen": "午",  # yin world on line 1: count from 午
        "shi_shen_line": 2,  # world branch 丑
    }
    assert {k: row[k] for k in expected} == expected


@pytest.mark.parametrize(
    ("short", "world_ganzhi", "star", "gua_shen", "jingfang"),
    [
        ("乾", "壬戌", "鎮星", "巳", "參"),
        ("坤", "癸酉", None, "亥", None),
        ("遯", "丙午", "太陰", None, "鬼"),
        ("大有", "甲辰", "太陰", None, None),
        ("歸妹", "丁丑", "歲星", None, None),
    ],
)
def test_v_hexagram_worked_examples(
    conn: Connection,
    short: str,
    world_ganzhi: str,
    star: str | None,
    gua_shen: str | None,
    jingfang: str | None,
) -> None:
    row = one(conn, "SELECT * FROM v_hexagram WHERE short_name = :s", s=short)
    assert row["world_ganzhi"] == world_ganzhi
    if star:
        assert row["five_star"] == star
    if gua_shen:
        assert row["gua_shen"] == gua_shen
    if jingfang:
        assert row["world_mansion_jingfang"] == jingfang


def test_v_hexagram_returning_soul_mansions(conn: Connection) -> None:
    rows = dict(
        conn.execute(
            text(
                "SELECT short_name, world_mansion_huangjin FROM v_hexagram "
                "WHERE short_name IN ('大有', '坎', '歸妹', '乾')"
            )
        )
        .tuples()
        .all()
    )
    assert rows == {"大有": "斗", "坎": "斗", "歸妹": "角", "乾": "角"}


@pytest.mark.parametrize(
    ("short", "mansions"),
    [("乾", "房尾亢心氐角"), ("姤", "亢房尾氐箕心"), ("歸妹", "氐心角尾房亢")],
)
def test_v_line_mansions(conn: Connection, short: str, mansions: str) -> None:
    got = conn.execute(
        text(
            "SELECT l.mansion FROM v_line l JOIN hexagram h USING (king_wen) "
            "WHERE h.short_name = :s ORDER BY l.position"
        ),
        {"s": short},
    ).scalars()
    assert "".join(got) == mansions


def test_v_line_gou(conn: Connection) -> None:
    rows = conn.execute(
        text("SELECT * FROM v_line WHERE king_wen = 44 ORDER BY position")
    ).mappings()
    got = [
        (
            r["position"],
            r["yang"],
            r["relative"],
            r["ganzhi"],
            r["element"],
            r["is_world"],
            r["is_response"],
            r["is_between"],
        )
        for r in rows
    ]
    assert got == [
        (1, 0, "父母", "辛丑", "土", 1, 0, 0),
        (2, 1, "子孫", "辛亥", "水", 0, 0, 1),
        (3, 1, "兄弟", "辛酉", "金", 0, 0, 1),
        (4, 1, "官鬼", "壬午", "火", 0, 1, 0),
        (5, 1, "兄弟", "壬申", "金", 0, 0, 0),
        (6, 1, "父母", "壬戌", "土", 0, 0, 0),
    ]


def test_v_hidden_gou(conn: Connection) -> None:
    rows = conn.execute(text("SELECT * FROM v_hidden WHERE king_wen = 44")).mappings().all()
    assert [
        (r["position"], r["relative"], r["ganzhi"], r["element"], r["over_ganzhi"]) for r in rows
    ] == [(2, "妻財", "甲寅", "木", "辛亥")]


def test_najia_table_seasonal_rows(conn: Connection) -> None:
    def row(half: str, trigram: str) -> str:
        got = conn.execute(
            text(
                "SELECT stem || branch FROM najia WHERE half_year = :h AND trigram = :t "
                "ORDER BY position"
            ),
            {"h": half, "t": trigram},
        ).scalars()
        return " ".join(got)

    assert row("冬至後", "乾") == "甲子 甲寅 甲辰 壬午 壬申 壬戌"
    assert row("夏至後", "乾") == "壬子 壬寅 壬辰 甲午 甲申 甲戌"
    assert row("冬至後", "坤") == "乙未 乙巳 乙卯 癸丑 癸亥 癸酉"
    assert row("夏至後", "震") == row("冬至後", "震") == "庚子 庚寅 庚辰 庚午 庚申 庚戌"


# --- idempotence --------------------------------------------------------------------------


def test_second_build_changes_nothing(fresh_db: str) -> None:
    first = contents(fresh_db)
    dump = sqlite_dump(sqlite_only(fresh_db)) if is_sqlite(fresh_db) else None
    report = build(fresh_db)
    assert report.before == report.after == head_revision()
    assert report.report.changed == 0
    assert sum(report.report.rows.values()) == sum(
        len(rows) for name, rows in first.items() if name != "alembic_version"
    )
    assert "unchanged" in report.describe("x")
    assert contents(fresh_db) == first
    if dump is not None:
        assert sqlite_dump(sqlite_only(fresh_db)) == dump


@pytest.mark.parametrize("url", ["sqlite://", "postgresql+psycopg://"])
def test_seeded_columns_convert_nothing(url: str) -> None:
    """The loader reads and inserts seeded rows through the driver, as plain values: that
    is the same as SQLAlchemy's way only while no seeded column's type converts values."""
    dialect = create_mock_engine(url, lambda *a, **k: None).dialect  # no driver needed
    tables = seeding.compute_tables()
    converting = [
        f"{t.name}.{c.name}"
        for t in seeding.seeded_tables(tables)
        for c in t.columns
        if c.type.bind_processor(dialect) or c.type.result_processor(dialect, None)
    ]
    assert converting == []
    assert {len({tuple(r) for r in rows}) for rows in tables.values()} == {1}  # same keys


def test_seeded_values_are_plain() -> None:
    """Seeded values are the driver's own types: a subclass of str (SQLAlchemy's names of
    tables and columns) made sqlite3 look for an adapter on each of them."""
    plain = (str, int, float, type(None))
    odd = {
        (name, key, type(value).__name__)
        for name, rows in seeding.compute_tables().items()
        for row in rows
        for key, value in row.items()
        if type(value) not in plain
    }
    assert odd == set()


def test_first_build_reports_creation(empty_db: str) -> None:
    report = build(empty_db)
    assert report.before is None
    assert report.after == head_revision()
    assert report.report.changed == sum(report.report.rows.values()) > 0
    assert report.report.rows["hexagram_line"] == 384
    assert "created schema" in report.describe("x")


def test_new_file_gets_the_same_content(built_db: str, empty_db: str) -> None:
    build(empty_db)
    # only the schema and the reference data: other tests may add readings to built_db
    reference = {*seeding.compute_tables(), "alembic_version"}
    first, second = contents(built_db), contents(empty_db)
    assert set(first) == set(second)
    assert reference <= set(first)
    assert {t: first[t] for t in reference} == {t: second[t] for t in reference}
    assert len(second["hexagram_line"]) == 384
    if is_sqlite(built_db) and is_sqlite(empty_db):
        assert schema_sql(sqlite_only(empty_db)) == schema_sql(sqlite_only(built_db))


def test_build_repairs_a_tampered_row(fresh_db: str) -> None:
    first = contents(fresh_db)
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as c:
            c.execute(text("UPDATE hexagram SET five_star = '鎮星' WHERE king_wen = 44"))
            c.execute(text("DELETE FROM hidden_spirit WHERE king_wen = 44"))
    finally:
        engine.dispose()
    report = build(fresh_db)
    assert report.report.updated["hexagram"] == 1
    assert report.report.inserted["hidden_spirit"] == 1
    assert report.report.changed == 2
    assert contents(fresh_db) == first


def test_build_moves_rows_along_their_unique_columns(fresh_db: str) -> None:
    """A database seeded by an older yimao-db can hold a unique value that today's rules give
    to another row: a column added in the middle of a table moves the ordinals of the
    columns after it (meta_column), a sign added in the middle moves the signs after it
    (sign, which the sign families point to). The build moves those rows in an order in
    which no two rows ever hold the same value, and ends at the fresh build."""
    first = contents(fresh_db)
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as c:
            # an older seed of meta_column: hexagram's column 2 not there yet, the ones
            # after it one place up
            c.execute(text("DELETE FROM meta_column WHERE table_name = 'hexagram' AND ordinal = 2"))
            last = c.execute(
                text("SELECT max(ordinal) FROM meta_column WHERE table_name = 'hexagram'")
            ).scalar_one()
            for n in range(3, last + 1):
                c.execute(
                    text(
                        "UPDATE meta_column SET ordinal = :m "
                        "WHERE table_name = 'hexagram' AND ordinal = :n"
                    ),
                    {"m": n - 1, "n": n},
                )
            # an older seed of sign: the sign now at 50 came last, the ones after it one
            # place up
            top = c.execute(text("SELECT max(ordinal) FROM sign")).scalar_one()
            c.execute(text("UPDATE sign SET ordinal = :top WHERE ordinal = 50"), {"top": top + 1})
            for n in range(51, top + 1):
                c.execute(
                    text("UPDATE sign SET ordinal = :m WHERE ordinal = :n"), {"m": n - 1, "n": n}
                )
    finally:
        engine.dispose()
    report = build(fresh_db)
    assert report.report.inserted["meta_column"] == 1
    assert report.report.updated["sign"] == top - 49
    assert contents(fresh_db) == first


# --- refusal and rollback -----------------------------------------------------------------


def file_state(db: str) -> bytes | None:
    if not is_sqlite(db):
        return None
    path = sqlite_path(resolve_url(db))
    assert path is not None
    return path.read_bytes() if path.exists() else None


def version(db: str) -> list[str]:
    return [v for (v,) in rows(db, "SELECT version_num FROM alembic_version")]


def test_newer_schema_revision_is_refused_untouched(fresh_db: str) -> None:
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as c:
            c.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    before_bytes, before_rows = file_state(fresh_db), contents(fresh_db)
    with pytest.raises(DatabaseError) as info:
        build(fresh_db)
    message = str(info.value)
    assert "'9999'" in message and "newer" in message and head_revision() in message
    assert info.value.exit_code == 2
    assert version(fresh_db) == ["9999"]
    assert contents(fresh_db) == before_rows
    assert file_state(fresh_db) == before_bytes


def s10() -> Any:
    return next(m for m in seeding.seed_scripts() if m.__name__.endswith("s10_core"))


def test_failing_self_check_writes_nothing(empty_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(s10(), "checks", lambda tables: ["§8.6: forced failure"])
    with pytest.raises(SeedCheckFailed, match="forced failure"):
        build(empty_db)
    assert table_names(empty_db) == set()


def test_failing_self_check_leaves_a_built_database_as_it_was(
    fresh_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before_bytes, before_rows = file_state(fresh_db), contents(fresh_db)
    monkeypatch.setattr(s10(), "checks", lambda tables: ["§1.5: forced failure"])
    with pytest.raises(SeedCheckFailed, match="forced failure"):
        build(fresh_db)
    assert contents(fresh_db) == before_rows
    assert file_state(fresh_db) == before_bytes


def test_real_self_checks_catch_a_wrong_row() -> None:
    tables = seeding.compute_tables()
    gou = next(h for h in tables["hexagram"] if h["short_name"] == "姤")
    gou["five_star"] = "鎮星"
    failures = s10().checks(tables)
    assert any("§8.6" in f and "姤" in f for f in failures)


def test_failure_after_writing_rolls_back_schema_and_rows(
    empty_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fail at the very end of the build, after migrations and seed rows were written
    monkeypatch.setattr(invariants, "violations", lambda conn: [("forced", [(44,)])])
    with pytest.raises(SeedCheckFailed, match="forced"):
        build(empty_db)
    assert table_names(empty_db) == set()


def test_failure_after_writing_keeps_previous_rows(
    fresh_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = contents(fresh_db)
    real = seeding.compute_tables

    def tampered() -> dict[str, list[dict[str, Any]]]:
        tables = real()
        tables["hidden_spirit"] = []
        return tables

    monkeypatch.setattr(seeding, "compute_tables", tampered)
    monkeypatch.setattr(invariants, "violations", lambda conn: [("forced", [(44,)])])
    with pytest.raises(SeedCheckFailed):
        build(fresh_db)
    assert contents(fresh_db) == before


# --- a fresh file gets the head schema at once --------------------------------------------


def _schema(path: Path) -> dict[tuple[str, str], tuple[str, tuple[str, ...]]]:
    engine = reader_engine(str(path))
    try:
        with engine.connect() as c:
            stored = dialect.sqlite_schema_sql(c)
    finally:
        engine.dispose()
    return {k: (table, sqlite_schema_key(sql)) for k, (table, sql) in stored.items()}


def _migrated() -> dict[tuple[str, str], tuple[str, tuple[str, ...]]]:
    """What the migrations create, run on an in-memory database (as yimao check has it)."""
    return {k: (table, sqlite_schema_key(sql)) for k, (table, sql) in migrated_schema().items()}


def _migrations_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The targets of the migrations a build runs, recorded as they run."""
    ran: list[str] = []
    real = buildmod.migrate

    def migrate(conn: Connection, target: str = "head") -> None:
        ran.append(target)
        real(conn, target)

    monkeypatch.setattr(buildmod, "migrate", migrate)
    return ran


def test_an_empty_file_gets_the_schema_the_migrations_give_without_running_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """head_schema.sql is what the migrations leave (tests/test_generated.py holds it to
    them); a build of an empty file runs it instead of the migrations, and the
    database it makes has the migrations' schema, object for object, stamped at head."""
    ran = _migrations_run(monkeypatch)
    build(str(tmp_path / "fresh.db"))
    assert ran == []
    assert _schema(tmp_path / "fresh.db") == _migrated()
    with sqlite3.connect(tmp_path / "fresh.db") as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (head_revision(),)
        ]
    # the file holds the head's revision and one statement per object but the autoindexes
    revision, statements = head_schema.statements()
    assert revision == head_revision()
    assert len(statements) == sum(1 for _, sql in migrated_schema().values() if sql is not None)


def test_regenerating_the_head_schema_rewrites_only_the_statements_that_changed() -> None:
    """Regenerated, head_schema.sql keeps each of its statements that differs from the
    migrations' only where their text varies from run to run (the order of a table's
    constraints, which alembic's batch mode shuffles), and writes again one that differs
    otherwise: a new revision's diff of the file is its own statements."""
    from yimao_db.building import migrate

    text = head_schema.SQL_FILE.read_text(encoding="utf-8")
    marker = head_schema.MARK
    chunks = text.split(f"\n{marker}")
    shuffled = stale = -1
    for i, chunk in enumerate(chunks):
        name, _, sql = chunk.partition("\n")
        lines = sql.split("\n")
        constraints = [k for k, line in enumerate(lines) if line.lstrip().startswith("CONSTRAINT")]
        if shuffled < 0 and name.startswith("table ") and len(constraints) >= 3:
            # the first two constraints swapped (each line ends with a comma but the last)
            a, b = constraints[0], constraints[1]
            lines[a], lines[b] = lines[b], lines[a]
            chunks[i] = name + "\n" + "\n".join(lines)
            shuffled = i
        elif stale < 0 and name == "view v_sign_count":
            chunks[i] = name + "\nCREATE VIEW v_sign_count AS SELECT 1 AS sign;\n"
            stale = i
    assert shuffled > 0 and stale > 0
    now = f"\n{marker}".join(chunks)
    assert now != text
    written = head_schema.source(now, migrate, head_revision())
    made = written.split(f"\n{marker}")
    assert made[shuffled] == chunks[shuffled]  # kept as the file had it
    assert made[stale] == text.split(f"\n{marker}")[stale]  # written from the migrations
    # the revision line's digest is of the statements as written (index 1)
    assert [c for i, c in enumerate(made) if i not in (1, shuffled)] == [
        c for i, c in enumerate(text.split(f"\n{marker}")) if i not in (1, shuffled)
    ]
    kept = chunks[shuffled].split("\n", 1)[1].rstrip().removesuffix(";")
    assert head_schema.verified(written)[1][shuffled - 2] == kept


def test_a_file_holding_anything_is_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a file with nothing in it is made from head_schema.sql: one holding anything (a
    table of another program here) runs the migrations, as before, and keeps what it held."""
    ran = _migrations_run(monkeypatch)
    with sqlite3.connect(tmp_path / "theirs.db") as con:
        con.execute("CREATE TABLE their_notes (x)")
    build(str(tmp_path / "theirs.db"))
    assert ran == ["head"]
    with sqlite3.connect(tmp_path / "theirs.db") as con:
        assert con.execute("SELECT count(*) FROM their_notes").fetchone() == (0,)


def test_the_schema_file_applies_only_when_it_is_the_heads_and_can_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A schema file of another revision, or none that can be read, and the empty file is
    migrated instead (slower, never different)."""
    engine = create_engine("sqlite://")
    try:
        with engine.connect() as conn:
            assert head_schema.applies(conn, head_revision())
            assert not head_schema.applies(conn, "0001")
            monkeypatch.setattr(head_schema, "SQL_FILE", tmp_path / "missing.sql")
            head_schema.statements.cache_clear()
            try:
                assert not head_schema.applies(conn, head_revision())
            finally:
                head_schema.statements.cache_clear()
    finally:
        engine.dispose()


def test_a_damaged_schema_file_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """head_schema.sql cut short, a statement dropped or edited, or its digest gone: the file
    is not believed (a build migrates, and stamps the head the migrations name)."""
    text = head_schema.SQL_FILE.read_text(encoding="utf-8")
    revision, statements = head_schema.verified(text)
    assert revision == head_revision() and statements == head_schema.statements()[1]
    last = text.rindex(f"\n{head_schema.MARK}")
    damaged = {
        "cut": text[: len(text) // 2],
        "last statement dropped": text[:last] + "\n",
        "edited": text.replace("CREATE VIEW ", "CREATE TEMP VIEW ", 1),
        "no digest": text.replace(f"revision {revision} sha256 ", f"revision {revision} x", 1),
    }
    for why, bad in damaged.items():
        with pytest.raises(ValueError, match="damaged"):
            head_schema.verified(bad)
        assert bad != text, why
    ran = _migrations_run(monkeypatch)
    path = tmp_path / "head_schema.sql"
    path.write_text(damaged["last statement dropped"], encoding="utf-8")
    monkeypatch.setattr(head_schema, "SQL_FILE", path)
    head_schema.statements.cache_clear()
    try:
        build(str(tmp_path / "fresh.db"))
        assert head_revision() == script_directory().get_current_head()
    finally:
        head_schema.statements.cache_clear()
    assert ran == ["head"]
    assert _schema(tmp_path / "fresh.db") == _migrated()


# --- schema drift and constraints ---------------------------------------------------------


def test_alembic_check_reports_no_drift(fresh_db: str) -> None:
    cfg = alembic_config()
    engine = writer_engine(fresh_db)
    try:
        with engine.connect() as c:
            cfg.attributes["connection"] = c
            command.check(cfg)  # raises AutogenerateDiffsDetected on drift
    finally:
        engine.dispose()


def test_foreign_keys_are_enforced(fresh_db: str) -> None:
    row = {
        "king_wen": 1,
        "position": 1,
        "yang": 1,
        "stem": "甲",
        "branch": "子",
        "ganzhi": "甲子",
        "element": "水",
        "relative": "子孫",
        "is_world": 0,
        "is_response": 0,
        "is_between": 0,
        "mansion": "房",
    }
    insert = text(
        "INSERT INTO hexagram_line (king_wen, position, yang, stem, branch, ganzhi, element, "
        "relative, is_world, is_response, is_between, mansion) VALUES (:king_wen, :position, "
        ":yang, :stem, :branch, :ganzhi, :element, :relative, :is_world, :is_response, "
        ":is_between, :mansion)"
    )
    delete = text("DELETE FROM hexagram_line WHERE king_wen = 1 AND position = 1")
    engine = writer_engine(fresh_db)
    try:
        with engine.connect() as c:
            trans = c.begin()
            c.execute(delete)
            c.execute(insert, row)  # the real row goes back in: the statement itself is fine
            c.execute(delete)
            with pytest.raises(IntegrityError):
                c.execute(insert, {**row, "branch": "戊"})  # 戊 is a stem, not a branch
            trans.rollback()
    finally:
        engine.dispose()
    assert version(fresh_db) == [head_revision()]
    engine = reader_engine(fresh_db)
    try:
        with engine.connect() as c:
            got = c.execute(
                text("SELECT branch FROM hexagram_line WHERE king_wen = 1 AND position = 1")
            )
            assert got.scalar_one() == "子"
    finally:
        engine.dispose()


def test_build_moves_unique_values_round_a_ring(fresh_db: str) -> None:
    """Signs 50..last whose ordinals an older seed held one place round (50 at the end, the
    others one place down): no order of single updates frees a value first, so the build
    parks the moving rows past the values in use, then writes them, and ends at the fresh
    build."""
    first = contents(fresh_db)
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as c:
            top = c.execute(text("SELECT max(ordinal) FROM sign")).scalar_one()
            c.execute(text("UPDATE sign SET ordinal = :top WHERE ordinal = 50"), {"top": top + 1})
            for n in range(51, top + 2):
                c.execute(
                    text("UPDATE sign SET ordinal = :m WHERE ordinal = :n"), {"m": n - 1, "n": n}
                )
            assert c.execute(text("SELECT max(ordinal) FROM sign")).scalar_one() == top
    finally:
        engine.dispose()
    report = build(fresh_db)
    assert report.report.updated["sign"] == top - 49
    assert report.report.changed == top - 49
    assert contents(fresh_db) == first


# (table, the rows an older seed may have numbered otherwise, their key among them)
REORDERED = (
    ("sign", "1 = 1", "name"),
    ("use_role", "1 = 1", "role"),
    ("meta_column", "table_name = 'reading'", "column_name"),
)


def test_build_restores_ordinals_an_older_seed_held_in_any_order(fresh_db: str) -> None:
    """Whatever order an older seed gave the ordinals of a table (a random permutation: rings
    of every length and rows left where they were), and a row it did not have yet, the
    build writes today's rows and ends at the fresh build."""
    first = contents(fresh_db)
    rng = random.Random(2026)
    engine = writer_engine(fresh_db)
    try:
        with engine.begin() as c:
            for table, where, key in REORDERED:
                rows = c.execute(text(f"SELECT {key}, ordinal FROM {table} WHERE {where}")).all()
                shuffled = [ordinal for _, ordinal in rows]
                rng.shuffle(shuffled)
                assert shuffled != [ordinal for _, ordinal in rows]
                c.execute(text(f"UPDATE {table} SET ordinal = ordinal + 100000 WHERE {where}"))
                for (name, _), ordinal in zip(rows, shuffled, strict=True):
                    c.execute(
                        text(f"UPDATE {table} SET ordinal = :o WHERE {key} = :k AND {where}"),
                        {"o": ordinal, "k": name},
                    )
            c.execute(text("DELETE FROM meta_column WHERE table_name = 'reading' AND ordinal = 3"))
    finally:
        engine.dispose()
    report = build(fresh_db)
    assert report.report.inserted["meta_column"] == 1
    assert report.report.updated["sign"] > 0 and report.report.updated["use_role"] > 0
    assert contents(fresh_db) == first
