"""``yimao sql``: one read-only statement, parameters bound, writes refused, clear errors."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sqlite3
from pathlib import Path

import pytest
from helpers import ENDLESS, execute_unchecked, run
from sqlalchemy import inspect, text

from yimao_db import readings
from yimao_db.db import reader_engine, resolve_url, sqlite_path, writer_engine
from yimao_db.dialect import POSTGRESQL, SQLITE
from yimao_db.errors import UsageError
from yimao_db.sql.guard import SqliteAuthorizer
from yimao_db.sql.lex import lex, statements
from yimao_db.sql.run import check, parse_params
from yimao_db.sql.session import PostgresSession, open_session


@pytest.fixture
def db_with_reading(fresh_db: str) -> str:
    engine = writer_engine(fresh_db)
    readings.cast("789678", pillars="甲子,丙寅,甲子,甲子", question="q", db=engine)
    engine.dispose()  # closed now, not at some later garbage collection (a WAL checkpoint)
    return fresh_db


def backend_of(db: str) -> str:
    return resolve_url(db).get_backend_name()


def state(
    db: str,
) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...], tuple[str, ...]]:
    """What a write would change: every table's row count and the schema's objects; on
    SQLite also the bytes of the database file and of its write-ahead log."""
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            insp = inspect(conn)
            tables = sorted(insp.get_table_names())
            counts = tuple(
                (t, conn.execute(text(f'SELECT COUNT(*) FROM "{t}"')).scalar_one()) for t in tables
            )
            views = tuple(sorted(insp.get_view_names()))
    finally:
        engine.dispose()
    files: tuple[str, ...] = ()
    path = sqlite_path(resolve_url(db))
    if path is not None:
        files = tuple(
            hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else "-"
            for p in (path, Path(f"{path}-wal"))
        )
    return counts, views, files


# --- output --------------------------------------------------------------------------------


def test_table_is_the_default(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = run(
        capsys, "sql", "SELECT king_wen, name FROM hexagram ORDER BY king_wen LIMIT 2", "--db",
        built_db,
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "king_wen  name",
        "--------  ------",
        "1         乾為天",
        "2         坤為地",
    ]


def test_csv_json_jsonl(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    query = "SELECT king_wen, name, gua_shen FROM v_hexagram WHERE king_wen IN (1, 44) ORDER BY 1"
    code, out, _ = run(capsys, "sql", query, "--csv", "--db", built_db)
    assert code == 0
    assert list(csv.reader(io.StringIO(out))) == [
        ["king_wen", "name", "gua_shen"],
        ["1", "乾為天", "巳"],
        ["44", "天風姤", "午"],
    ]
    code, out, _ = run(capsys, "sql", query, "--json", "--db", built_db)
    assert json.loads(out) == [
        {"king_wen": 1, "name": "乾為天", "gua_shen": "巳"},
        {"king_wen": 44, "name": "天風姤", "gua_shen": "午"},
    ]
    code, out, _ = run(capsys, "sql", query, "--jsonl", "--db", built_db)
    assert [json.loads(line)["king_wen"] for line in out.splitlines()] == [1, 44]


def test_values_are_normalised(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    """Whole numbers are ints on both backends (PostgreSQL's SUM gives numeric), NULL is null."""
    code, out, err = run(
        capsys,
        "sql",
        "SELECT SUM(king_wen) AS total, COUNT(*) AS n, NULL AS missing, 2.5 AS half FROM hexagram",
        "--json",
        "--db",
        built_db,
    )
    assert (code, err) == (0, "")
    assert json.loads(out) == [{"total": 2080, "n": 64, "missing": None, "half": 2.5}]


def test_empty_result_prints_the_header(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, _ = run(
        capsys, "sql", "SELECT name FROM hexagram WHERE 1 = 0", "--csv", "--db", built_db
    )
    assert (code, out) == (0, "name\n")


def test_query_from_stdin(
    capsys: pytest.CaptureFixture[str], built_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "sys.stdin", io.StringIO("-- the count\nSELECT COUNT(*) AS n FROM ganzhi;\n")
    )
    code, out, _ = run(capsys, "sql", "-", "--csv", "--db", built_db)
    assert (code, out) == (0, "n\n60\n")


def test_trailing_semicolon_and_comments(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, _ = run(
        capsys, "sql", "/* a; b */ SELECT 1 AS one; -- done; really", "--csv", "--db", built_db
    )
    assert (code, out) == (0, "one\n1\n")


# --- parameters ----------------------------------------------------------------------------


def test_named_parameters_are_bound(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = run(
        capsys,
        "sql",
        "SELECT king_wen, name FROM hexagram WHERE name = :name OR king_wen = :kw ORDER BY 1",
        "-p",
        "name=天風姤",
        "-p",
        "kw:int=1",
        "--csv",
        "--db",
        built_db,
    )
    assert (code, err) == (0, "")
    assert out == "king_wen,name\n1,乾為天\n44,天風姤\n"


def test_a_parameter_is_never_sql(capsys: pytest.CaptureFixture[str], db_with_reading: str) -> None:
    before = state(db_with_reading)
    code, out, _ = run(
        capsys,
        "sql",
        "SELECT COUNT(*) AS n FROM hexagram WHERE name = :name",
        "-p",
        "name=x'; DELETE FROM reading; --",
        "--csv",
        "--db",
        db_with_reading,
    )
    assert (code, out) == (0, "n\n0\n")
    assert state(db_with_reading) == before


def test_colons_and_percents_in_literals(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    """':x' inside a string is text, not a placeholder; % survives with parameters bound."""
    code, out, err = run(
        capsys,
        "sql",
        "SELECT ':x' AS lit, '100%' AS pct, :v AS v",
        "-p",
        "v=%s",
        "--csv",
        "--db",
        built_db,
    )
    assert (code, err) == (0, "")
    assert out == "lit,pct,v\n:x,100%,%s\n"


def test_a_parameter_too_big_for_the_database(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    code, out, err = run(
        capsys, "sql", "SELECT :n AS n", "-p", f"n:int={10**30}", "--csv", "--db", built_db
    )
    # an int is one a database holds in an integer (PostgreSQL would bind it as numeric)
    assert (code, out) == (2, "")
    assert err == (
        f"error: parameter n: '{10**30}' is out of range: expected an int from "
        f"{-(2**63)} to {2**63 - 1}\n"
    )


def test_missing_parameter(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = run(capsys, "sql", "SELECT :kw AS kw", "--db", built_db)
    assert (code, out) == (2, "")
    assert "error: the query uses :kw; give -p kw=VALUE" in err


def test_unused_parameter(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, _, err = run(capsys, "sql", "SELECT 1", "-p", "kw=1", "--db", built_db)
    assert code == 2
    assert "parameter kw is not used" in err


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("kw", "expected name=value"),
        ("=1", "expected name=value"),
        ("k w=1", "bad parameter name"),
        ("kw:int=x", "is not a valid int"),
        ("kw:date=1", "bad parameter type"),
        ("x:float=nan", "is not a valid float"),
        ("x:float=inf", "is not a valid float"),
    ],
)
def test_bad_parameter_syntax(item: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_params([item])


def test_parameter_given_twice() -> None:
    with pytest.raises(UsageError, match="given twice"):
        parse_params(["a=1", "a=2"])


def test_parameter_types() -> None:
    assert parse_params(["a=1", "b:int=2", "c:float=2.5", "d=x=y", "e="]) == {
        "a": "1",
        "b": 2,
        "c": 2.5,
        "d": "x=y",
        "e": "",
    }


# --- writes are refused, the database is unchanged ----------------------------------------

COMMON_WRITES = [
    "INSERT INTO reading_line (reading_id, position, value) VALUES (1, 7, 7)",
    "UPDATE hexagram SET name = 'x'",
    "DELETE FROM reading",
    "delete from reading_line",
    "CREATE TABLE scratch (x INTEGER)",
    "CREATE VIEW v_scratch AS SELECT 1 AS x",
    "DROP VIEW v_hexagram",
    "DROP TABLE reading_line",
    "ALTER TABLE reading ADD COLUMN x INTEGER",
    "WITH x AS (SELECT 1) DELETE FROM reading",
    "SELECT 1; DELETE FROM reading",
    "SELECT 1; COMMIT; DELETE FROM reading",
    "BEGIN",
    "COMMIT",
    "VACUUM",
    "/* sneaky */ DELETE FROM reading",
    "  -- comment\n  UPDATE hexagram SET name = 'x'",
]
SQLITE_WRITES = [
    "ATTACH DATABASE '{tmp}/other.db' AS other",
    "VACUUM INTO '{tmp}/copy.db'",
    "REPLACE INTO reading_line (reading_id, position, value) VALUES (1, 1, 9)",
    "PRAGMA user_version = 5",
    "PRAGMA user_version(5)",
    "PRAGMA journal_mode = DELETE",
    "PRAGMA query_only = OFF",
    "PRAGMA writable_schema = ON",
    "PRAGMA main.foreign_keys = OFF",
    "PRAGMA wal_checkpoint(TRUNCATE)",
    "PRAGMA optimize",
    "CREATE TEMP TABLE scratch (x INTEGER)",
    "WITH x AS (SELECT 1) INSERT INTO reading_line SELECT 1, 7, 7, NULL FROM x",
    "/* a /* b */ SELECT 1; DELETE FROM reading",
]
POSTGRESQL_WRITES = [
    "WITH d AS (DELETE FROM reading RETURNING 1) SELECT COUNT(*) FROM d",
    "EXPLAIN ANALYZE DELETE FROM reading",
    "SELECT nextval('reading_id_seq')",
    "SELECT setval('reading_id_seq', 100)",
    "SET default_transaction_read_only = off",
    "COPY reading TO STDOUT",
    "TRUNCATE reading CASCADE",
    "SELECT $$;$$; DELETE FROM reading",
    "SELECT E'\\';'; DELETE FROM reading",
    "SELECT 1 /* /* */ ; */; DELETE FROM reading",
    "CREATE TEMP TABLE scratch (x integer)",
    "LOCK TABLE reading",
    "SELECT pg_advisory_lock(1); DELETE FROM reading",
]


def writes_for(db: str, tmp: Path) -> list[str]:
    extra = SQLITE_WRITES if backend_of(db) == SQLITE else POSTGRESQL_WRITES
    return [w.format(tmp=tmp) for w in COMMON_WRITES + extra]


def test_every_write_is_refused_and_nothing_changes(
    capsys: pytest.CaptureFixture[str], db_with_reading: str, tmp_path: Path
) -> None:
    before = state(db_with_reading)
    assert dict(before[0])["reading"] == 1
    for statement in writes_for(db_with_reading, tmp_path):
        code, out, err = run(capsys, "sql", statement, "--db", db_with_reading)
        assert code == 2, statement
        assert out == "", statement
        assert "Traceback" not in err
        assert err.startswith("error: yimao sql "), (statement, err)
        assert any(w in err for w in ("read-only", "one statement", "does not run")), err
        assert state(db_with_reading) == before, statement
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("other", "copy"))) == []


def test_refusal_names_the_statement(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, _, err = run(capsys, "sql", "DELETE FROM reading", "--db", built_db)
    assert code == 2
    assert err == (
        "error: yimao sql is read-only: DELETE statements are refused (they would change the "
        f"database; only {allowed(built_db)} run). The database was not changed.\n"
    )
    code, _, err = run(capsys, "sql", "SELECT 1; SELECT 2", "--db", built_db)
    assert code == 2
    assert err == "error: yimao sql runs one statement at a time; got 2. Nothing was run.\n"


def allowed(db: str) -> str:
    if backend_of(db) == SQLITE:
        return "EXPLAIN, PRAGMA, SELECT, VALUES, WITH"
    return "EXPLAIN, SELECT, SHOW, TABLE, VALUES, WITH"


def test_a_write_hidden_in_a_query_is_refused_by_the_database(
    capsys: pytest.CaptureFixture[str], db_with_reading: str
) -> None:
    before = state(db_with_reading)
    code, _, err = run(
        capsys, "sql", "WITH x AS (SELECT 1) DELETE FROM reading", "--db", db_with_reading
    )
    assert code == 2
    assert "the database refused a write" in err or "DELETE statements are refused" in err
    assert state(db_with_reading) == before


@pytest.mark.sqlite_only
def test_sqlite_reporting_pragmas_run(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, _ = run(capsys, "sql", "PRAGMA table_info(reading_line)", "--csv", "--db", built_db)
    assert code == 0
    assert [r["name"] for r in csv.DictReader(io.StringIO(out))] == [
        "reading_id",
        "position",
        "value",
        "coins",
    ]
    code, out, _ = run(capsys, "sql", "PRAGMA query_only", "--csv", "--db", built_db)
    assert (code, out) == (0, "query_only\n1\n")
    code, out, _ = run(
        capsys,
        "sql",
        "SELECT name FROM pragma_table_info('reading_line') ORDER BY cid LIMIT 1",
        "--csv",
        "--db",
        built_db,
    )
    assert (code, out) == (0, "name\nreading_id\n")


@pytest.mark.sqlite_only
def test_sqlite_opens_the_file_read_only(built_db: str) -> None:
    """Even with every guard of ours bypassed, the connection itself cannot write."""
    engine = reader_engine(built_db)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA query_only").scalar_one() == 1
            with pytest.raises(Exception, match="readonly"):
                conn.exec_driver_sql("CREATE TABLE scratch (x INTEGER)")
    finally:
        engine.dispose()


def test_postgresql_json_values_are_their_text(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    """As on SQLite, where JSON is text: not a Python rendering of the parsed value."""
    if backend_of(built_db) != POSTGRESQL:
        pytest.skip("PostgreSQL types")
    query = """SELECT '{"a": [1, "x"]}'::jsonb AS j, '[true]'::json AS k"""
    code, out, _ = run(capsys, "sql", query, "--csv", "--db", built_db)
    assert (code, out) == (0, 'j,k\n"{""a"": [1, ""x""]}",[true]\n')


def test_postgresql_show_and_table(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    if backend_of(built_db) != POSTGRESQL:
        pytest.skip("PostgreSQL statements")
    code, out, _ = run(capsys, "sql", "SHOW transaction_read_only", "--csv", "--db", built_db)
    assert (code, out) == (0, "transaction_read_only\non\n")
    code, out, _ = run(capsys, "sql", "TABLE generation", "--csv", "--db", built_db)
    assert code == 0 and out.startswith("ordinal,name,world,response\n")


def test_postgresql_names_that_call_nothing_run(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    """Every name of a statement is looked up (attribute notation calls without "("), but
    not the functions no statement can call: TABLESAMPLE's handlers take ``internal``."""
    if backend_of(built_db) != POSTGRESQL:
        pytest.skip("PostgreSQL statements")
    query = "SELECT count(*) AS system FROM hexagram TABLESAMPLE SYSTEM (100)"
    code, out, err = run(capsys, "sql", query, "--csv", "--db", built_db)
    assert (code, err, out) == (0, "", "system\n64\n")
    query = "SELECT (h.name).length AS n FROM hexagram h WHERE king_wen = 1"
    code, out, err = run(capsys, "sql", query, "--csv", "--db", built_db)
    assert (code, err, out) == (0, "", "n\n3\n")


# --- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "sqlite_says", "postgresql_says"),
    [
        ("SELECT * FROM no_such_table", "no such table: no_such_table", "does not exist"),
        ("SELECT nme FROM hexagram", "no such column: nme", 'column "nme" does not exist'),
        ("SELECT FROM WHERE", "syntax error", "syntax error"),
        ("SELECT 'unterminated", "unrecognized token", "unterminated quoted string"),
    ],
)
def test_sql_errors_are_the_databases_message(
    capsys: pytest.CaptureFixture[str],
    built_db: str,
    query: str,
    sqlite_says: str,
    postgresql_says: str,
) -> None:
    code, out, err = run(capsys, "sql", query, "--db", built_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: database: ")
    assert len(err.splitlines()) == 1
    assert (sqlite_says if backend_of(built_db) == SQLITE else postgresql_says) in err


def test_misspelt_keyword(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, _, err = run(capsys, "sql", "SELEC 1", "--db", built_db)
    assert code == 2
    assert "'SELEC' does not start one. Nothing was run." in err


@pytest.mark.parametrize("query", ["", "   ", "-- only a comment", ";;"])
def test_empty_query(capsys: pytest.CaptureFixture[str], built_db: str, query: str) -> None:
    code, _, err = run(capsys, "sql", query, "--db", built_db)
    assert (code, err) == (2, "error: no SQL statement given\n")


def test_no_database(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "sql", "SELECT 1", "--db", str(tmp_path / "missing.db"))
    assert code == 2
    assert "no database at" in err
    assert not (tmp_path / "missing.db").exists()


# --- the lexer -----------------------------------------------------------------------------


def params(sql: str, backend: str = SQLITE) -> list[str]:
    return [t for k, t in lex(sql, backend) if k == "param"]


def test_lexer_finds_placeholders_only_in_code() -> None:
    assert params("SELECT :a, ':b', \":c\", [:d], `:e` -- :f\n /* :g */ FROM t WHERE x = :h") == [
        ":a",
        ":h",
    ]
    assert params("SELECT x::int, :名字, a[1:2] FROM t", POSTGRESQL) == [":名字"]
    assert params("SELECT $q$ :a $q$, $$:b$$, :c", POSTGRESQL) == [":c"]


def test_lexer_counts_statements() -> None:
    def count(sql: str, backend: str = SQLITE) -> int:
        return len(statements(lex(sql, backend)))

    assert count("SELECT ';'") == 1
    assert count("SELECT 1; -- ; \n /* ; */") == 1
    assert count("SELECT 1;;") == 1
    assert count("SELECT 1; SELECT 2") == 2
    assert count("SELECT 'it''s;'; SELECT 2") == 2
    # SQLite comments do not nest: "/* a /* b */" ends at the first */
    assert count("/* a /* b */ SELECT 1; SELECT 2") == 2
    # PostgreSQL's do nest, and have dollar quotes and E'' strings with backslash escapes
    assert count("/* a /* b */ ; */ SELECT 1", POSTGRESQL) == 1
    assert count("SELECT $tag$ ; $tag$", POSTGRESQL) == 1
    assert count("SELECT E'\\';'; DELETE FROM t", POSTGRESQL) == 2
    assert count("SELECT 'a\\'; DELETE FROM t", POSTGRESQL) == 2
    assert count("SELECT a$b; SELECT 2", POSTGRESQL) == 2


def test_check_keeps_the_statement_text() -> None:
    statement = check("  SELECT :a AS a; -- done", SQLITE)
    assert statement.sql == "  SELECT :a AS a"
    assert statement.params == ("a",)


# --- the database-side guards, with the lexer out of the way -------------------------------


def test_database_guards_refuse_writes_the_lexer_let_through(db_with_reading: str) -> None:
    """SQLite: the authorizer denies writes and unlisted functions even on a writer
    connection; PostgreSQL: the extended protocol refuses a second statement, READ ONLY a
    write."""
    before = state(db_with_reading)
    if backend_of(db_with_reading) == SQLITE:
        engine = writer_engine(db_with_reading)
        try:
            with engine.connect() as conn:
                driver = conn.connection.driver_connection
                assert isinstance(driver, sqlite3.Connection)
                driver.set_authorizer(SqliteAuthorizer())
                for sql in [
                    "DELETE FROM reading",
                    "CREATE TABLE scratch (x INTEGER)",
                    "SELECT fts3_tokenizer('simple')",
                ]:
                    with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
                        driver.execute(sql)
        finally:
            engine.dispose()
    else:
        for sql, says in [
            ("SELECT 1; COMMIT; DELETE FROM reading", "multiple commands"),
            ("DELETE FROM reading", "read-only transaction"),
        ]:
            with open_session(resolve_url(db_with_reading), deadline=None) as session:
                assert isinstance(session, PostgresSession)
                with pytest.raises(Exception, match=says):
                    execute_unchecked(session, sql)
    assert state(db_with_reading)[:2] == before[:2]  # closing a writer may checkpoint the WAL


# --- functions with effects beyond the query are refused ------------------------------------

SQLITE_FORBIDDEN_CALLS = [
    ("SELECT hex(fts3_tokenizer('simple')) AS p", "fts3_tokenizer"),
    ("SELECT hex(\"fts3_tokenizer\"('simple'))", "fts3_tokenizer"),
    ("SELECT hex([FTS3_TOKENIZER]('simple'))", "fts3_tokenizer"),
    ("SELECT hex(fts3_tokenizer /* ( */ ('simple'))", "fts3_tokenizer"),
    ("WITH t(p) AS (SELECT fts3_tokenizer('simple')) SELECT hex(p) FROM t", "fts3_tokenizer"),
    ("SELECT * FROM (VALUES (fts3_tokenizer('simple')))", "fts3_tokenizer"),
    ("SELECT 1 LIMIT length(fts3_tokenizer('simple'))", "fts3_tokenizer"),
    ("SELECT 1 FROM hexagram WHERE fts3_tokenizer('simple') IS NULL", "fts3_tokenizer"),
    ("EXPLAIN SELECT fts3_tokenizer('simple')", "fts3_tokenizer"),
    ("SELECT load_extension('/nonexistent/lib')", "load_extension"),
    ("SELECT sqlite_log(1, 'x')", "sqlite_log"),
    ("SELECT fts5(NULL)", "fts5"),
    ("SELECT rtreenode(2, x'00')", "rtreenode"),
    ("SELECT 'a' MATCH 'b'", "match"),
    ("SELECT \"load_extension\"('/nonexistent/lib')", "load_extension"),
    ("SELECT `load_extension`('/nonexistent/lib')", "load_extension"),
    ("SELECT [load_extension]('/nonexistent/lib')", "load_extension"),
    ("SELECT hex(`fts3_tokenizer`('simple'))", "fts3_tokenizer"),
    ("SELECT 'a' REGEXP 'b'", "regexp"),
    ("SELECT changes()", "changes"),
    ("SELECT total_changes()", "total_changes"),
    ("SELECT last_insert_rowid()", "last_insert_rowid"),
]
# Calls that once ran through attribute notation (a superuser's); pg_terminate_backend
# is tried on another session in tests/test_postgres.py.
PG_ATTRIBUTE_CALLS = [
    ("SELECT ('/etc/passwd'::text).pg_read_file", "pg_read_file"),
    ("SELECT ('.'::text).pg_ls_dir", "pg_ls_dir"),
    ("SELECT ('bgwriter'::text).pg_stat_reset_shared", "pg_stat_reset_shared"),
    ("SELECT ('x'::text).pg_create_restore_point", "pg_create_restore_point"),
    ("SELECT ('/etc/hostname'::text).lo_import", "lo_import"),
    ("SELECT ('SELECT to_tsvector(''x'')'::text).ts_stat", "ts_stat"),
    ("SELECT (42::bigint).pg_advisory_lock", "pg_advisory_lock"),
]
POSTGRESQL_FORBIDDEN_CALLS = [
    ("SELECT lo_from_bytea(0, 'x')", "lo_from_bytea"),
    ("SELECT LO_FROM_BYTEA(0, 'x')", "lo_from_bytea"),
    ("SELECT pg_catalog.lo_from_bytea(0, 'x')", "lo_from_bytea"),
    ("SELECT \"lo_from_bytea\"(0, 'x')", "lo_from_bytea"),
    ("SELECT pg_catalog . \"lo_from_bytea\" /* ( */ (0, 'x')", "lo_from_bytea"),
    ("SELECT U&\"lo\\005ffrom_bytea\"(0, 'x')", "lo_from_bytea"),
    ("SELECT U&\"lo!005ffrom_bytea\" UESCAPE '!' (0, 'x')", "lo_from_bytea"),
    ("SELECT * FROM (VALUES (lo_from_bytea(0, 'x'))) v", "lo_from_bytea"),
    ("SELECT 1 LIMIT lo_from_bytea(0, 'x')", "lo_from_bytea"),
    ("WITH t AS (SELECT lo_from_bytea(0, 'x') AS o) SELECT * FROM t", "lo_from_bytea"),
    ("SELECT * FROM lo_from_bytea(0, 'x')", "lo_from_bytea"),
    ("SELECT E'\\'' || lo_from_bytea(0, 'x')::text", "lo_from_bytea"),
    ("SELECT $q$'$q$ || lo_from_bytea(0, 'x')::text", "lo_from_bytea"),
    ("EXPLAIN ANALYZE SELECT lo_from_bytea(0, 'x')", "lo_from_bytea"),
    ("EXPLAIN (ANALYZE, COSTS OFF) SELECT lo_from_bytea(0, 'x')", "lo_from_bytea"),
    ("SELECT lo_import('/etc/hostname')", "lo_import"),
    ("SELECT lo_export(0, '/tmp/yimao-lo-export')", "lo_export"),
    ("SELECT pg_read_file('/etc/hostname')", "pg_read_file"),
    ("SELECT pg_read_binary_file('/etc/hostname')", "pg_read_binary_file"),
    ("SELECT pg_ls_dir('.')", "pg_ls_dir"),
    ("SELECT pg_stat_file('.')", "pg_stat_file"),
    ("SELECT set_config('statement_timeout', '0', false)", "set_config"),
    ("SELECT pg_advisory_lock(1)", "pg_advisory_lock"),
    ("SELECT pg_try_advisory_xact_lock(1)", "pg_try_advisory_xact_lock"),
    ("SELECT nextval('reading_id_seq')", "nextval"),
    ("SELECT setval('reading_id_seq', 100)", "setval"),
    ("SELECT pg_notify('yimao', 'x')", "pg_notify"),
    ("SELECT pg_cancel_backend(pg_backend_pid())", "pg_cancel_backend"),
    ("SELECT pg_terminate_backend(pg_backend_pid())", "pg_terminate_backend"),
    ("SELECT pg_reload_conf()", "pg_reload_conf"),
    ("SELECT pg_rotate_logfile()", "pg_rotate_logfile"),
    ("SELECT txid_current()", "txid_current"),
    ("SELECT pg_current_xact_id()", "pg_current_xact_id"),
    ("SELECT query_to_xml('SELECT lo_from_bytea(0, ''x'')', true, true, '')", "query_to_xml"),
    ("SELECT ts_stat('SELECT to_tsvector(''x'')')", "ts_stat"),
    ("SELECT table_to_xml('hexagram', true, true, '')", "table_to_xml"),
    ("SELECT pg_logical_emit_message(false, 'yimao', 'x')", "pg_logical_emit_message"),
    ("SELECT pg_switch_wal()", "pg_switch_wal"),
    ("SELECT 1 WHERE 'x' = ANY (SELECT lo_from_bytea(0, 'x')::text)", "lo_from_bytea"),
    # attribute notation: PostgreSQL reads (x).f, t.f and $1.f as f(x), without "f("
    *PG_ATTRIBUTE_CALLS,
    ('SELECT (42::bigint) . /* ( */ "pg_advisory_lock"', "pg_advisory_lock"),
    ("SELECT (t.k).pg_advisory_xact_lock FROM (VALUES (7::bigint)) t (k)", "pg_advisory_xact_lock"),
    ("SELECT ('/etc/hostname'::text).U&\"pg\\005fread_file\"", "pg_read_file"),
    ("SELECT 1 FROM hexagram h WHERE (h.king_wen::int8).pg_advisory_lock", "pg_advisory_lock"),
    ("SELECT (pg_backend_pid()).pg_cancel_backend", "pg_cancel_backend"),
]


def forbidden_calls(db: str) -> list[tuple[str, str]]:
    return SQLITE_FORBIDDEN_CALLS if backend_of(db) == SQLITE else POSTGRESQL_FORBIDDEN_CALLS


def large_objects(db: str) -> int:
    """PostgreSQL large objects (none on SQLite): a write that READ ONLY does not stop."""
    if backend_of(db) == SQLITE:
        return 0
    engine = writer_engine(db)
    try:
        with engine.connect() as conn:
            return int(
                conn.exec_driver_sql("SELECT COUNT(*) FROM pg_largeobject_metadata").scalar_one()
            )
    finally:
        engine.dispose()


def test_functions_with_effects_are_refused(
    capsys: pytest.CaptureFixture[str], db_with_reading: str
) -> None:
    """Native pointers, extensions, files, locks, sequences, signals, settings and large
    objects: refused however the name is written, and nothing changes."""
    before = state(db_with_reading), large_objects(db_with_reading)
    for query, name in forbidden_calls(db_with_reading):
        code, out, err = run(capsys, "sql", query, "--db", db_with_reading)
        assert (code, out) == (2, ""), (query, err)
        assert err.startswith(f"error: yimao sql does not run {name}()"), (query, err)
        assert len(err.splitlines()) == 1, (query, err)
    assert (state(db_with_reading), large_objects(db_with_reading)) == before


def test_functions_that_only_compute_run(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    common = (
        "SELECT upper('a') || lower('B') AS s, abs(-2) AS a, round(2.5) AS r, "
        "coalesce(NULL, 'x') AS c, length('易冒') AS n, count(*) OVER () AS w, "
        "random() IS NOT NULL AS rnd, max(king_wen) OVER () AS m FROM hexagram LIMIT 1"
    )
    code, out, err = run(capsys, "sql", common, "--csv", "--db", built_db)
    assert (code, err) == (0, "")
    assert out == "s,a,r,c,n,w,rnd,m\nAb,2,3,x,2,64,1,64\n"
    if backend_of(built_db) == SQLITE:
        query = "SELECT json_extract('{\"a\": [1, 2]}', '$.a[1]') AS j, typeof(1.5) AS t"
        expected = "j,t\n2,real\n"
    else:  # naming a function is not calling it; pg_sleep is bounded by --timeout
        query = "SELECT 'lo_from_bytea'::regproc AS p, (SELECT 1 FROM pg_sleep(0)) AS s"
        expected = "p,s\nlo_from_bytea,1\n"
    code, out, err = run(capsys, "sql", query, "--csv", "--db", built_db)
    assert (code, err, out) == (0, "", expected)


def test_functions_hidden_in_views_are_refused(
    capsys: pytest.CaptureFixture[str], db_with_reading: str
) -> None:
    """Views the database holds are read for calls too, nested ones and those whose calls
    sit where EXPLAIN does not show them (a VALUES list, LIMIT)."""
    if backend_of(db_with_reading) == SQLITE:
        # (SQLite itself refuses fts3_tokenizer and load_extension in a view)
        name = "sqlite_log"
        views = [
            "CREATE VIEW v_bad AS SELECT * FROM (VALUES (sqlite_log(1, 'x')))",
            "CREATE VIEW v_limit AS SELECT 1 AS one LIMIT coalesce(sqlite_log(1, 'x'), 1)",
        ]
    else:
        name = "lo_from_bytea"
        views = [
            "CREATE VIEW v_bad AS SELECT * FROM (VALUES (lo_from_bytea(0, 'x'))) v (o)",
            "CREATE VIEW v_limit AS SELECT 1 AS one LIMIT lo_from_bytea(0, 'x')::int8",
        ]
    views += ['CREATE VIEW "V Outer" AS SELECT * FROM v_bad, v_limit']
    engine = writer_engine(db_with_reading)
    try:
        with engine.begin() as conn:
            for view in views:
                conn.exec_driver_sql(view)
    finally:
        engine.dispose()
    before = state(db_with_reading), large_objects(db_with_reading)
    for query in ["SELECT * FROM v_bad", "SELECT * FROM v_limit", 'SELECT * FROM "V Outer"']:
        code, out, err = run(capsys, "sql", query, "--db", db_with_reading)
        assert (code, out) == (2, ""), (query, err)
        assert err.startswith(f"error: yimao sql does not run {name}()"), (query, err)
    assert (state(db_with_reading), large_objects(db_with_reading)) == before


def test_every_public_view_runs(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    """The views use only functions yimao sql allows (SQLite checks the views' own calls)."""
    engine = reader_engine(built_db)
    try:
        with engine.connect() as conn:
            views = sorted(inspect(conn).get_view_names())
    finally:
        engine.dispose()
    assert "v_reading" in views
    for view in views:
        code, _, err = run(capsys, "sql", f'SELECT * FROM "{view}" LIMIT 3', "--db", built_db)
        assert (code, err) == (0, ""), view


# --- limits --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["-1", "abc", "nan", "inf", "", "1e12", "10s", "--"])
def test_bad_timeout(capsys: pytest.CaptureFixture[str], built_db: str, value: str) -> None:
    code, out, err = run(capsys, "sql", "SELECT 1", f"--timeout={value}", "--db", built_db)
    assert (code, out) == (2, "")
    assert err.startswith(("error: --timeout", "error: argument --timeout: expected")), err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("value", ["none", "NONE", "0", "2.5", "30", "86400"])
def test_good_timeout(capsys: pytest.CaptureFixture[str], built_db: str, value: str) -> None:
    code, out, err = run(
        capsys, "sql", "SELECT 1 AS one", "--timeout", value, "--csv", "--db", built_db
    )
    assert (code, out, err) == (0, "one\n1\n", "")


def test_timeout_stops_an_endless_query(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = run(
        capsys, "sql", ENDLESS.format("COUNT(*) FROM r"), "--timeout", "0.5", "--db", built_db
    )
    assert (code, out) == (2, "")
    assert err == (
        "error: yimao sql stopped the query after 0.5 s (--timeout 0.5); give it more time "
        "with --timeout SECONDS, or --timeout none for no limit\n"
    )


def test_huge_values_are_refused(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    if backend_of(built_db) == SQLITE:
        queries = ["SELECT zeroblob(1000000000)", "SELECT length(randomblob(1e9))"]
    else:
        # not constants (PostgreSQL would fold them into the plan, refused past 4 MiB)
        row = "SELECT 1 AS a, repeat('x', {} + 0 * king_wen) AS s FROM hexagram WHERE king_wen = 1"
        queries = ["SELECT 1e5000::numeric AS n", row.format(17_000_000)]
    for query in queries:
        code, out, err = run(capsys, "sql", query, "--jsonl", "--db", built_db)
        assert (code, out) == (2, ""), query
        assert err.startswith("error: ") and len(err.splitlines()) == 1, (query, err)
        assert "16 MiB" in err or "digits" in err, (query, err)
    if backend_of(built_db) == POSTGRESQL:  # a row of up to 16 MiB is fine
        code, out, err = run(capsys, "sql", row.format(16_000_000), "--csv", "--db", built_db)
        assert (code, err) == (0, "")
        assert out == "a,s\n1," + "x" * 16_000_000 + "\n"


def test_table_is_capped(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    query = (
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 10005) "
        "SELECT x FROM r"
    )
    code, out, err = run(capsys, "sql", query, "--db", built_db)
    assert code == 0
    lines = out.splitlines()
    assert (len(lines), lines[2], lines[-1]) == (10_002, "1", "10000")
    assert err == "note: showing the first 10000 rows; use --csv or --jsonl for all\n"
    code, out, err = run(capsys, "sql", query, "--csv", "--db", built_db)
    assert (code, err, out.splitlines()[-1]) == (0, "", "10005")


def test_table_is_capped_by_size(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    big = (
        "printf('%.*c', 1000000, 'x')" if backend_of(built_db) == SQLITE else "repeat('x', 1000000)"
    )
    query = f"SELECT king_wen, {big} AS s FROM hexagram ORDER BY king_wen LIMIT 20"
    code, out, err = run(capsys, "sql", query, "--db", built_db)
    assert code == 0
    assert len(out.splitlines()) == 2 + 17  # 17 million characters of cells, past 16 Mi
    assert err == "note: showing the first 17 rows; use --csv or --jsonl for all\n"


def test_json_is_one_array_however_long(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    query = (
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 25000) "
        "SELECT x, 'x' || x AS s FROM r"
    )
    code, out, err = run(capsys, "sql", query, "--json", "--db", built_db)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert len(data) == 25_000 and data[-1] == {"x": 25000, "s": "x25000"}
    code, out, _ = run(capsys, "sql", "SELECT 1 AS x WHERE 1 = 0", "--json", "--db", built_db)
    assert (code, out) == (0, "[]\n")


@pytest.mark.parametrize("fmt", ["--json", "--jsonl"])
def test_json_needs_distinct_column_names(
    capsys: pytest.CaptureFixture[str], built_db: str, fmt: str
) -> None:
    code, out, err = run(capsys, "sql", "SELECT 1 AS a, 2 AS a", fmt, "--db", built_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and "a" in err and "AS" in err
    code, out, _ = run(capsys, "sql", "SELECT 1 AS a, 2 AS a", "--csv", "--db", built_db)
    assert (code, out) == (0, "a,a\n1,2\n")


def test_limits_written_into_sql_match_their_constants() -> None:
    from yimao_db.sql import session as sqlsession

    assert f"hard_heap_limit = {sqlsession.SQLITE_HEAP_LIMIT}" in sqlsession._SQLITE_SETUP[1]
    assert f"> {sqlsession.PG_MAX_ROW} " in sqlsession._PG_ROWS_TAIL
    assert sqlsession.PG_TOO_BIG in sqlsession._PG_ROWS_TAIL
