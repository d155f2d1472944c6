"""PostgreSQL end to end: every command with ``--db postgresql+psycopg://…``, same answers as
SQLite. Runs when ``YIMAO_TEST_PG_URL`` names a server (whatever ``YIMAO_TEST_BACKEND``
says); the whole suite also runs on PostgreSQL with ``YIMAO_TEST_BACKEND=postgresql``.
"""

from __future__ import annotations

import contextlib
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from helpers import execute_unchecked, run
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

from yimao_db.db import ENV_VAR, reader_engine, writer_engine

if TYPE_CHECKING:
    import psycopg

pytestmark = pytest.mark.needs_pg


def both(capsys: pytest.CaptureFixture[str], lite: str, pg: str, *argv: str) -> tuple[str, str]:
    """Run one command on each backend; both must succeed. Returns the two outputs."""
    outputs = []
    for db in (lite, pg):
        code, out, err = run(capsys, *argv, "--db", db)
        assert (code, err) == (0, ""), (db.split(":")[0], argv, err)
        outputs.append(out)
    return outputs[0], outputs[1]


def without_clock(chart_json: str) -> dict[str, object]:
    data = json.loads(chart_json)
    data.pop("created_at")
    return dict(data)


def test_every_command_on_postgresql(
    capsys: pytest.CaptureFixture[str], sqlite_built_db: str, pg_empty_db: str, tmp_path: Path
) -> None:
    lite, pg = sqlite_built_db, pg_empty_db
    code, out, err = run(capsys, "build", "--db", pg)
    assert (code, err) == (0, "")
    assert "created schema at revision" in out and "postgresql" in out
    assert "password" not in out
    code, out, _ = run(capsys, "build", "--db", pg)
    assert code == 0 and "reference data unchanged" in out

    a, b = both(capsys, lite, pg, "show", "天風姤")
    assert a == b
    a, b = both(capsys, lite, pg, "show", "44", "--json")
    assert json.loads(a) == json.loads(b)

    casts = [
        ["789678", "--at", "2024-03-01T10:00", "--question", "事業"],
        ["乾之姤", "--pillars", "甲辰,丙寅,甲子,庚午"],
        ["--coins", "2,1,3,0,2,2", "--at", "2023-07-15T23:30", "--early-rat"],
        ["天風姤", "--moving", "1,4", "--day", "甲子", "--month", "寅"],
        ["787878", "--at", "2023-12-30T08:00", "--najia", "seasonal"],
    ]
    for argv in casts:
        a, b = both(capsys, lite, pg, "cast", *argv, "--json")
        assert without_clock(a) == without_clock(b), argv
        a, b = both(capsys, lite, pg, "cast", *argv)
        assert a == b, argv  # the printed chart has no clock in it

    imports = tmp_path / "readings.csv"
    imports.write_text(
        "lines,at,tz,question\n696969,2022-02-04T12:00,Asia/Shanghai,q1\n888888,,,\n",
        encoding="utf-8",
    )
    a, b = both(capsys, lite, pg, "import", str(imports))
    assert a.startswith("imported 2 readings (ids 11–12) in ")
    assert b.startswith("imported 2 readings (ids 11–12) in ")
    for reading_id in ("1", "3", "12"):
        a, b = both(capsys, lite, pg, "reading", reading_id, "--json")
        mine, theirs = without_clock(a), without_clock(b)
        if reading_id == "12":  # imported without a time: "now", a second apart on a busy machine
            for moment in ("cast_at", "cast_utc"):
                mine.pop(moment), theirs.pop(moment)
        assert mine == theirs
    a, b = both(capsys, lite, pg, "readings", "--limit", "3", "--csv")
    assert a.splitlines()[0] == b.splitlines()[0]
    assert [r.split(",")[0] for r in a.splitlines()] == [r.split(",")[0] for r in b.splitlines()]

    a, b = both(
        capsys,
        lite,
        pg,
        "sql",
        "SELECT reading_id, primary_name, changed_name, moving_lines FROM v_reading "
        "WHERE reading_id <= :n ORDER BY reading_id",
        "-p",
        "n:int=5",
        "--json",
    )
    assert a == b
    code, _, err = run(capsys, "sql", "DELETE FROM reading", "--db", pg)
    assert code == 2 and "read-only" in err

    a, b = both(capsys, lite, pg, "export", str(tmp_path / "x"))
    assert a.split(": ", 1)[1] == b.split(": ", 1)[1]


def test_every_view_on_postgresql(built_pg: str, sqlite_built_db: str) -> None:
    views: dict[str, list[str]] = {}
    for db in (sqlite_built_db, built_pg):
        engine = reader_engine(db)
        try:
            with engine.connect() as conn:
                names = sorted(inspect(conn).get_view_names())
                views[db] = names
                for name in names:
                    conn.execute(text(f'SELECT * FROM "{name}" LIMIT 5')).all()
        finally:
            engine.dispose()
    assert views[sqlite_built_db] == views[built_pg]
    assert {"v_hexagram", "v_line", "v_reading", "v_reading_line", "v_reading_hidden"} <= set(
        views[built_pg]
    )


def test_postgresql_readers_are_read_only_snapshots(built_pg: str) -> None:
    engine = reader_engine(built_pg)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW transaction_read_only").scalar_one() == "on"
            isolation = conn.exec_driver_sql("SHOW transaction_isolation").scalar_one()
            assert isolation == "repeatable read"
            with pytest.raises(Exception, match="read-only transaction"):
                conn.exec_driver_sql("DELETE FROM reading")
    finally:
        engine.dispose()


def test_ctrl_c_inside_a_copy_closes_the_connection_instead_of_reusing_it(
    pg_empty_db: str,
) -> None:
    """Ctrl-C may land while psycopg is in the middle of a COPY (an import's, a build's); the
    connection is then closed, not rolled back and returned to the pool (where the reset
    failed with 'another command is already in progress' and SQLAlchemy printed its
    traceback), and nothing of the COPY is stored."""
    from yimao_db import dialect

    def rows() -> Iterator[tuple[int]]:
        yield (1,)
        raise KeyboardInterrupt

    engine = writer_engine(pg_empty_db)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("CREATE TABLE copied (n integer)")
            conn.commit()
            with pytest.raises(KeyboardInterrupt), conn.begin():
                dialect.pg_copy(conn, "copied", ["n"], rows())
            assert conn.invalidated
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM copied").scalar_one() == 0
    finally:
        engine.dispose()


def test_postgresql_snapshot_spans_statements(built_pg: str) -> None:
    """A reading committed between two statements of one read is not seen by the second."""
    from yimao_db.readings import cast

    reader = reader_engine(built_pg)
    writer = writer_engine(built_pg)
    try:
        with reader.connect() as conn:
            before = conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one()
            cast("789678", pillars="甲子,丙寅,甲子,甲子", db=writer)
            lines = conn.execute(text("SELECT COUNT(*) FROM reading_line")).scalar_one()
            assert lines == 6 * before
        with reader.connect() as conn:
            assert conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one() == before + 1
    finally:
        reader.dispose()
        writer.dispose()


def test_a_chart_is_planned_with_its_joins_as_written_and_the_settings_restored(
    built_pg: str,
) -> None:
    """read_chart sets join_collapse_limit and from_collapse_limit to 1 for its statements
    only: the caller's transaction has its own values again afterwards, and the chart is the
    one the planner's own order gives."""
    from yimao_db.readings import cast, read_chart

    writer = writer_engine(built_pg)
    try:
        reading = cast("乾之姤", day="甲子", month="寅", matter="wealth", about="wealth", db=writer)
        with writer.connect() as conn:
            conn.exec_driver_sql("SET join_collapse_limit = 7")  # for the session
            conn.commit()
            with conn.begin():
                chart = read_chart(conn, reading)
                shown = conn.exec_driver_sql("SHOW join_collapse_limit").scalar_one()
                assert (shown, conn.exec_driver_sql("SHOW from_collapse_limit").scalar_one()) == (
                    "7",
                    "8",
                )
            with conn.begin():
                conn.exec_driver_sql("SET LOCAL join_collapse_limit = 8")
                signs = conn.execute(
                    text("SELECT sign FROM v_reading_sign WHERE reading_id = :id ORDER BY 1"),
                    {"id": reading},
                ).scalars()
                assert sorted(s.sign for s in chart.signs) == list(signs)
        assert any(u.role == "用神" for u in chart.use) and chart.signs
    finally:
        writer.dispose()


def _jit(db: str) -> tuple[str, list[str]]:
    """What a new session of a plain client (psycopg, no yimao engine) gets for ``jit``, and
    the database's own settings."""
    import psycopg

    url = make_url(db)
    with psycopg.connect(libpq(db), autocommit=True) as conn:
        shown = conn.execute("SHOW jit").fetchone()
        settings = conn.execute(
            "SELECT s.setconfig FROM pg_db_role_setting s JOIN pg_database d"
            " ON d.oid = s.setdatabase WHERE d.datname = %s AND s.setrole = 0",
            (url.database,),
        ).fetchone()
    assert shown is not None
    return str(shown[0]), list(settings[0]) if settings else []


def test_the_database_and_every_yimao_session_run_without_jit(
    capsys: pytest.CaptureFixture[str], built_pg: str
) -> None:
    """Revision 0022 sets jit = off for the database (any client's sessions), and its
    downgrade removes the setting; yimao's engines and yimao sql set it for their own
    sessions whatever the database says."""
    from test_lodge_signs import _migrate

    assert _jit(built_pg) == ("off", ["jit=off"])
    _migrate(built_pg, "0021", up=False)
    assert _jit(built_pg)[1] == []
    for make in (reader_engine, writer_engine):
        engine = make(built_pg)
        try:
            with engine.connect() as conn:
                assert conn.exec_driver_sql("SHOW jit").scalar_one() == "off", make.__name__
        finally:
            engine.dispose()
    code, out, _ = run(
        capsys, "sql", "--db", built_pg, "--csv", "SELECT current_setting('jit') AS jit"
    )
    assert (code, out.split()) == (0, ["jit", "off"])
    _migrate(built_pg, "head", up=True)
    assert _jit(built_pg) == ("off", ["jit=off"])


def test_every_yimao_session_sorts_with_at_least_16_mb(
    capsys: pytest.CaptureFixture[str], built_pg: str
) -> None:
    """yimao's engines and yimao sql raise work_mem to 16 MB for their own sessions, and keep
    a larger one the database (or server, or role) gives; a plain client's session keeps
    the server's."""
    import psycopg

    def shown() -> list[str]:
        values = []
        for make in (reader_engine, writer_engine):
            engine = make(built_pg)
            try:
                with engine.connect() as conn:
                    values.append(conn.exec_driver_sql("SHOW work_mem").scalar_one())
            finally:
                engine.dispose()
        code, out, _ = run(
            capsys, "sql", "--db", built_pg, "--csv", "SELECT current_setting('work_mem') AS m"
        )
        assert code == 0 and out.split()[0] == "m"
        return [*values, out.split()[1]]

    with psycopg.connect(libpq(built_pg), autocommit=True) as plain_client:
        plain = plain_client.execute(
            "SELECT current_setting('work_mem'), setting::bigint FROM pg_settings"
            " WHERE name = 'work_mem'"
        ).fetchone()
    assert plain is not None
    expected = plain[0] if plain[1] >= 16 * 1024 else "16MB"  # the server's, if larger
    assert shown() == [expected] * 3
    database = make_url(built_pg).database
    admin = create_engine(built_pg, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"ALTER DATABASE \"{database}\" SET work_mem = '64MB'")
        assert shown() == ["64MB", "64MB", "64MB"]
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'ALTER DATABASE "{database}" RESET work_mem')
        admin.dispose()


def test_a_build_gathers_the_statistics_of_the_tables_it_seeded(
    capsys: pytest.CaptureFixture[str], pg_empty_db: str
) -> None:
    """The planner's statistics of every rule table a build seeds are there when the build
    commits (autovacuum would gather them a minute or more later, after an import planned
    for empty tables); the reading tables, which the build leaves empty, have none."""
    import psycopg

    def analysed() -> set[str]:
        with psycopg.connect(libpq(pg_empty_db), autocommit=True) as client:
            rows = client.execute(
                "SELECT DISTINCT tablename FROM pg_stats WHERE schemaname = 'public'"
            ).fetchall()
        return {str(r[0]) for r in rows}

    assert analysed() == set()
    code, out, _ = run(capsys, "build", "--db", pg_empty_db)
    assert code == 0 and "created schema at revision" in out
    seeded = {"line_state_sign", "bearing_sign", "hexagram_line", "branch_on_day", "sign"}
    found = analysed()
    assert seeded <= found
    assert not {"reading", "reading_line", "reading_sign"} & found


def test_a_role_that_does_not_own_the_database_builds_it_leaving_jit_alone(
    capsys: pytest.CaptureFixture[str], pg_empty_db: str
) -> None:
    """Only the owner may change a database's settings: another role that may create the
    tables builds it all the same, the database keeps the server's jit, and every build by
    such a role says so in a note until the sessions start without it (the role's own
    setting here); a build by the owner sets it, though the database is at head."""
    url = make_url(pg_empty_db)
    role = f"yimao_builder_{uuid.uuid4().hex[:8]}"
    builder = url.set(username=role, password="change-me").render_as_string(hide_password=False)
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE ROLE \"{role}\" LOGIN PASSWORD 'change-me'")
        conn.exec_driver_sql(f'GRANT ALL ON SCHEMA public TO "{role}"')
    try:
        code, out, err = run(capsys, "build", "--db", builder)
        assert code == 0 and "created schema at revision" in out
        assert err.startswith("note: jit stays on for other clients of this database")
        assert err.count("\n") == 1 and "ALTER DATABASE" in err
        assert _jit(pg_empty_db)[1] == []
        with admin.connect() as conn:
            conn.exec_driver_sql(f'ALTER ROLE "{role}" SET jit = off')
        assert run(capsys, "build", "--db", builder)[2] == ""
        with admin.connect() as conn:
            conn.exec_driver_sql(f'ALTER ROLE "{role}" RESET jit')
        # the owner's build sets it, though at head, as after a copy that lost the setting
        assert run(capsys, "build", "--db", pg_empty_db)[2] == ""
        assert _jit(pg_empty_db) == ("off", ["jit=off"])
        with admin.connect() as conn:
            conn.exec_driver_sql(f'ALTER DATABASE "{url.database}" RESET jit')
        assert run(capsys, "build", "--db", builder)[2] == err
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP OWNED BY "{role}"')
            conn.exec_driver_sql(f'DROP ROLE "{role}"')
        admin.dispose()


def test_a_noinherit_member_of_the_owner_role_builds_and_downgrades_it(
    pg_empty_db: str,
) -> None:
    """A login role that is a member of the role owning the database, but NOINHERIT, is a
    member (pg_has_role … 'MEMBER') without the owner's privileges: ALTER DATABASE refuses
    it. Revision 0022 leaves jit alone for it, up and down, and the build succeeds."""
    from test_lodge_signs import _migrate

    from yimao_db.building import build

    url = make_url(pg_empty_db)
    tag = uuid.uuid4().hex[:8]
    owner, member = f"yimao_owner_{tag}", f"yimao_member_{tag}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE ROLE "{owner}" NOLOGIN')
        conn.exec_driver_sql(
            f'CREATE ROLE "{member}" LOGIN NOINHERIT PASSWORD \'change-me\' IN ROLE "{owner}"'
        )
        conn.exec_driver_sql(f'ALTER DATABASE "{url.database}" OWNER TO "{owner}"')
        conn.exec_driver_sql(f'GRANT ALL ON SCHEMA public TO "{member}"')
    as_member = url.set(username=member, password="change-me")
    try:
        build(as_member)
        assert _jit(pg_empty_db)[1] == []
        member_url = as_member.render_as_string(hide_password=False)
        _migrate(member_url, "0021", up=False)
        _migrate(member_url, "head", up=True)
        assert _jit(pg_empty_db)[1] == []
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'ALTER DATABASE "{url.database}" OWNER TO CURRENT_USER')
            conn.exec_driver_sql(f'DROP OWNED BY "{member}"')
            conn.exec_driver_sql(f'DROP ROLE "{member}"')
            conn.exec_driver_sql(f'DROP ROLE "{owner}"')
        admin.dispose()


def test_env_var_names_a_postgresql_database(
    capsys: pytest.CaptureFixture[str], built_pg: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, built_pg)
    code, out, _ = run(capsys, "sql", "SELECT COUNT(*) AS n FROM hexagram", "--csv")
    assert (code, out) == (0, "n\n64\n")


def test_a_server_that_is_not_there(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "sql", "SELECT 1", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none"
    )
    assert (code, out) == (2, "")
    assert err.startswith("error: database: ") and "Traceback" not in err


# --- yimao sql as the read-only role of docs/interop.md, and as a superuser ----------------


def interop_role_sql(role: str, database: str) -> list[str]:
    """The statements docs/interop.md gives for a reporting role, for ``role`` on ``database``."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "interop.md").read_text("utf-8")
    section = doc.split("### PostgreSQL readers", 1)[1]
    block = section.split("```sql\n", 1)[1].split("```", 1)[0]
    block = re.sub(r"--[^\n]*", "", block)
    block = re.sub(r"\breport\b", role, block).replace("DATABASE yimao", f'DATABASE "{database}"')
    return [s.strip() for s in block.split(";") if s.strip()]


@pytest.fixture
def report_db(built_pg: str) -> Iterator[str]:
    """The built database's URL for a new role made exactly as docs/interop.md says."""
    url = make_url(built_pg)
    role = f"yimao_report_{uuid.uuid4().hex[:8]}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for statement in interop_role_sql(role, str(url.database)):
            conn.exec_driver_sql(statement)
    try:
        yield url.set(username=role, password="change-me").render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP OWNED BY "{role}"')
            conn.exec_driver_sql(f'DROP ROLE "{role}"')
        admin.dispose()


def server_state(db: str) -> tuple[object, ...]:
    """What a call with effects would leave behind, seen by a superuser."""
    engine = create_engine(make_url(db).set(username="postgres", password=None))
    try:
        with engine.connect() as conn:
            return (
                conn.exec_driver_sql("SELECT COUNT(*) FROM pg_largeobject_metadata").scalar(),
                conn.exec_driver_sql("SELECT last_value, is_called FROM reading_id_seq").one(),
                conn.exec_driver_sql("SELECT COUNT(*) FROM reading").scalar(),
                conn.exec_driver_sql(  # this database's: other tests' writers take some
                    "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND database = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database())"
                ).scalar(),
            )
    finally:
        engine.dispose()


@pytest.mark.parametrize("who", ["report", "superuser"])
def test_sql_refuses_effects_on_postgresql(
    capsys: pytest.CaptureFixture[str], built_pg: str, report_db: str, who: str
) -> None:
    from test_sql import POSTGRESQL_FORBIDDEN_CALLS

    db = report_db if who == "report" else built_pg
    code, out, err = run(capsys, "sql", "SELECT COUNT(*) AS n FROM v_hexagram", "--csv", "--db", db)
    assert (code, out, err) == (0, "n\n64\n", "")  # the role reads the views
    before = server_state(built_pg)
    for query, name in POSTGRESQL_FORBIDDEN_CALLS:
        code, out, err = run(capsys, "sql", query, "--db", db)
        assert (code, out) == (2, ""), (who, query, err)
        assert err.startswith(f"error: yimao sql does not run {name}()"), (who, query, err)
    assert server_state(built_pg) == before


def test_sql_always_rolls_back_on_postgresql(built_pg: str, report_db: str) -> None:
    """The layers under the function checks: a large object made inside yimao sql's
    transaction (READ ONLY does not stop lo_from_bytea) is gone when the transaction ends;
    the role of docs/interop.md may not make one at all."""
    import psycopg

    from yimao_db.sql.session import PostgresSession, open_session

    before = server_state(built_pg)
    for db in (report_db, built_pg):
        with open_session(make_url(db), deadline=None) as session:
            assert isinstance(session, PostgresSession)
            if db == report_db:
                with pytest.raises(psycopg.errors.InsufficientPrivilege, match="lo_from_bytea"):
                    execute_unchecked(session, "SELECT lo_from_bytea(0, 'x')")
            else:
                execute_unchecked(session, "SELECT lo_from_bytea(0, 'x')")
    assert server_state(built_pg) == before


# --- functions called without "name(" (attribute notation) ----------------------------------


def stats_reset(db: str) -> object:
    """When the shared bgwriter statistics were last reset (pg_stat_reset_shared moves it)."""
    engine = create_engine(make_url(db).set(username="postgres", password=None))
    try:
        with engine.connect() as conn:
            return conn.exec_driver_sql("SELECT stats_reset FROM pg_stat_bgwriter").scalar()
    finally:
        engine.dispose()


def libpq(db: str) -> str:
    """``db`` as a libpq URI (psycopg's own), password kept."""
    return make_url(db).set(drivername="postgresql").render_as_string(hide_password=False)


@contextlib.contextmanager
def other_session(db: str) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    """Another session of the role of ``db``: what (pid).pg_terminate_backend would end."""
    import psycopg

    with psycopg.connect(libpq(db), autocommit=True) as conn:
        yield conn


def attribute_calls(pid: int) -> list[tuple[str, str]]:
    """Every call of PG_ATTRIBUTE_CALLS, as attribute notation; ``pid`` is another session."""
    from test_sql import PG_ATTRIBUTE_CALLS

    return [
        *PG_ATTRIBUTE_CALLS,
        (f"SELECT ({pid}).pg_terminate_backend", "pg_terminate_backend"),
        (f"SELECT ({pid}).pg_cancel_backend", "pg_cancel_backend"),
    ]


@pytest.mark.parametrize("who", ["report", "superuser"])
def test_sql_refuses_attribute_notation_calls(
    capsys: pytest.CaptureFixture[str], built_pg: str, report_db: str, who: str
) -> None:
    """``(x).f`` is ``f(x)``: each call of PG_ATTRIBUTE_CALLS is refused by yimao sql, as the
    read-only role of docs/interop.md and as a superuser, and nothing happens: no large
    object, lock, statistics reset; the other session of the same role lives on."""
    db = report_db if who == "report" else built_pg
    before = server_state(built_pg), stats_reset(built_pg)
    with other_session(db) as victim:
        for query, name in attribute_calls(victim.info.backend_pid):
            code, out, err = run(capsys, "sql", query, "--db", db)
            assert (code, out) == (2, ""), (who, query, err)
            assert err.startswith(f"error: yimao sql does not run {name}()"), (who, query, err)
        code, out, err = run(
            capsys, "sql", "SELECT :p.pg_read_file", "-p", "p=/etc/hostname", "--db", db
        )
        assert (code, out) == (2, "") and "pg_read_file()" in err, err
        assert victim.execute("SELECT 1").fetchone() == (1,)
    assert (server_state(built_pg), stats_reset(built_pg)) == before


def test_the_read_only_role_cannot_act_through_any_client(built_pg: str, report_db: str) -> None:
    """The recipe of docs/interop.md, run as written, takes the calls away from the role
    itself: each call of PG_ATTRIBUTE_CALLS, as attribute notation and as a plain call, sent
    straight through psycopg (no yimao sql, read-only switched off) fails with permission
    denied."""
    import psycopg

    before = server_state(built_pg), stats_reset(built_pg)
    with other_session(report_db) as victim:
        calls = attribute_calls(victim.info.backend_pid)
        plain = [
            (re.sub(r"SELECT \((.*)\)\.(\w+)$", r"SELECT \2(\1)", query), name)
            for query, name in calls
        ]
        assert all("(" in query.split(name)[1] for query, name in plain)
        with psycopg.connect(libpq(report_db), autocommit=True) as conn:
            conn.execute("SET default_transaction_read_only = off")  # only a default
            for query, name in [*calls, *plain]:
                with pytest.raises(psycopg.errors.InsufficientPrivilege, match=name):
                    conn.execute(query)
            for query in [
                "SELECT query_to_xml('SELECT 1', true, true, '')",
                "SELECT lo_from_bytea(0, 'x')",
                "SELECT lo_create(0)",
                "SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, ''b''::tsquery')",
                "SELECT pg_try_advisory_xact_lock(1, 2)",
            ]:
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(query)
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("INSERT INTO reading_tag (reading_id, tag) VALUES (1, 'x')")
        assert victim.execute("SELECT 1").fetchone() == (1,)
    assert (server_state(built_pg), stats_reset(built_pg)) == before


def test_no_operator_cast_or_type_calls_a_volatile_function(built_pg: str) -> None:
    """What the guard of yimao sql relies on: PostgreSQL's other implicit calls (operators,
    casts, type input and subscripts, selectivity estimators, aggregates' support functions)
    reach no volatile function, so no name in the text hides one."""
    engine = create_engine(built_pg)
    try:
        with engine.connect() as conn:
            found = conn.exec_driver_sql(
                "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.provolatile = 'v' AND ("
                " p.oid IN (SELECT oprcode FROM pg_operator UNION SELECT oprrest FROM pg_operator"
                " UNION SELECT oprjoin FROM pg_operator)"
                " OR p.oid IN (SELECT castfunc FROM pg_cast)"
                " OR p.oid IN (SELECT typinput FROM pg_type UNION SELECT typreceive FROM pg_type"
                " UNION SELECT typmodin FROM pg_type UNION SELECT typsubscript FROM pg_type)"
                " OR p.oid IN (SELECT aggtransfn FROM pg_aggregate"
                " UNION SELECT aggfinalfn FROM pg_aggregate))"
            ).all()
    finally:
        engine.dispose()
    assert found == []
