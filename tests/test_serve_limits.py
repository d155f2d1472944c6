"""`yimao serve` against hostile visitors: what one request may take, which SQL it may run,
where the site listens and what it shows.

The server runs as a subprocess (tests/serving.py) whose address space is capped, so a
limit that fails makes the test fail instead of exhausting the machine; its peak memory is
read from ``/proc/PID/status`` (VmHWM).
"""

from __future__ import annotations

import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("datasette")
import httpx
from serving import STARTUP_SECONDS, Server, built_with_readings, server, yimao_command

from yimao_db.sql.guard import SQLITE_FUNCTIONS, SqliteAuthorizer
from yimao_db.sql.session import SQLITE_HEAP_LIMIT
from yimao_db.web import limits
from yimao_db.web.site import check_host, loopback

ADDRESS_SPACE = 4 * 2**30  # the server's cap: far above its bound, far below the machine
GROWTH_BOUND = 400 * 2**20  # what the hostile queries below may add to its peak memory


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_with_readings(tmp_path_factory.mktemp("serve-limits") / "yimao.db")


@pytest.fixture(scope="module")
def site(database: Path) -> Iterator[Server]:
    with server(database, address_space=ADDRESS_SPACE) as running:
        yield running


def peak(running: Server) -> int:
    """The server's peak resident memory so far, in bytes."""
    status = Path(f"/proc/{running.process.pid}/status").read_text()
    line = next(x for x in status.splitlines() if x.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024


def ask(running: Server, sql: str, path: str = "/yimao.json") -> httpx.Response:
    with httpx.Client(base_url=running.url, timeout=300) as client:
        return client.get(path, params={"sql": sql})


def refused(running: Server, sql: str) -> str:
    """The error of a query the site refuses (400, ok false): its message."""
    response = ask(running, sql)
    assert response.status_code == 400, (sql, response.status_code, response.text[:300])
    body: dict[str, Any] = response.json()
    assert body["ok"] is False and body.get("rows", []) == []
    return str(body["error"])


def still_answers(running: Server) -> None:
    with httpx.Client(base_url=running.url, timeout=300) as client:
        for _ in range(6):  # more than the server's threads: every connection is asked
            hexagrams = client.get("/yimao/hexagram.json", params={"_shape": "array"})
            assert hexagrams.status_code == 200 and len(hexagrams.json()) == 64


HUGE = 10**9
BIG = 60_000  # under the value limit
COUNTER = "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT {n}) "
TOO_BIG = "string or blob too big (yimao serve allows up to 64 KiB in one value"


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        (f"SELECT zeroblob({HUGE})", TOO_BIG),
        (f"SELECT randomblob({HUGE})", TOO_BIG),
        (f"SELECT length(printf('%.*c', {HUGE}, 'x'))", "printf() with a width or precision"),
        (f"SELECT format('%{HUGE}d', 1)", "format() with a width or precision"),
        (
            f"WITH s(a) AS (SELECT printf('%.*c', {BIG}, 'a')) SELECT printf('%s%s', a, a) FROM s",
            "printf() would make a value of more than 65,536 bytes",
        ),
        (
            "WITH RECURSIVE r(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM r) "
            "SELECT length(s) FROM r",
            TOO_BIG,
        ),
        (COUNTER.format(n=10**6) + "SELECT length(group_concat('abcdefgh')) FROM c", TOO_BIG),
        (
            COUNTER.format(n=10**6) + "SELECT length(json_group_array('abcdefgh')) FROM c",
            TOO_BIG,
        ),
        (COUNTER.format(n=10**5) + f"SELECT zeroblob({BIG}) FROM c", "rows hold more than 8 MiB"),
        (
            "SELECT " + ", ".join(f"zeroblob({BIG})" for _ in range(101)),
            "too many columns in result set",
        ),
        (
            f"WITH s(a, b) AS (SELECT printf('%.*c', {BIG}, 'a'), printf('%.*c', {BIG // 2}, 'a')"
            " || 'b') SELECT instr(a, b) FROM s",
            "instr() of values of 60,000 and 30,001 characters",
        ),
        (
            f"WITH s(a) AS (SELECT printf('%.*c', {BIG}, 'a')) "
            f"SELECT length(trim(a, printf('%.*c', 1000, 'b'))) FROM s",
            "trim() of values of 60,000 and 1,000 characters",
        ),
        (
            "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) "
            "SELECT count(*) FROM c",
            "SQL query took too long",
        ),
        (
            "SELECT x FROM (SELECT y+y+y+y AS x FROM (SELECT y+y+y+y AS y FROM "
            "(SELECT y+y+y+y AS y FROM (SELECT y+y+y+y AS y FROM (SELECT y+y+y+y AS y FROM "
            "(SELECT y+y+y+y AS y FROM (SELECT y+y+y+y AS y FROM "
            "(SELECT instr('abc', 'c') AS y))))))))",
            "or its program more than 32,768 steps",
        ),
    ],
    ids=[
        "zeroblob",
        "randomblob",
        "printf",
        "format",
        "printf's value",
        "doubling CTE",
        "group_concat",
        "json_group_array",
        "many rows",
        "many columns",
        "instr",
        "trim",
        "endless",
        "long program",
    ],
)
def test_a_hostile_query_is_refused_and_memory_stays_bounded(
    site: Server, sql: str, message: str
) -> None:
    before = peak(site)
    assert message in refused(site, sql)
    assert peak(site) - before < GROWTH_BOUND
    still_answers(site)


def test_the_refusal_is_said_on_every_page_that_runs_sql(site: Server) -> None:
    """The SQL box's page, a table page's ``_where`` and a canned query's parameters."""
    page = ask(site, f"SELECT zeroblob({HUGE})", path="/yimao")
    assert page.status_code == 400 and "string or blob too big" in page.text
    with httpx.Client(base_url=site.url, timeout=300) as client:
        where = client.get(
            "/yimao/hexagram.json", params={"_where": f"length(zeroblob({HUGE})) > 0"}
        )
        assert where.status_code == 400 and "string or blob too big" in where.text
        where = client.get("/yimao/hexagram.json", params={"_where": "fts3_tokenizer('simple')"})
        assert where.status_code == 400 and "does not run fts3_tokenizer()" in where.text
        long = client.get("/yimao/names.json", params={"alias": "x" * 10_000})
        assert long.status_code == 200 and long.json()["rows"] == []
    still_answers(site)


def test_ordinary_queries_keep_their_answers(site: Server) -> None:
    """The checked built-ins give SQLite's own answers within the limits."""
    with httpx.Client(base_url=site.url, timeout=300) as client:
        response = client.get(
            "/yimao.json",
            params={
                "sql": "SELECT printf('%5.2f|%-4s|%.*c|%%|%03d', 3.14159, 'ab', 3, 'x', 7), "
                "format('%d-%s', 3, 'a'), instr('天風姤', '姤'), replace('abcb', 'b', 'z'), "
                "trim('xxaxx', 'x'), ltrim('xxa', 'x'), rtrim('axx', 'x'), "
                "'ABC' LIKE 'a%', 'a_c' LIKE 'a!_c' ESCAPE '!', 'abc' GLOB 'a*', "
                "length(printf('%.*c', 65535, 'x'))",
                "_shape": "array",
            },
        )
    assert response.status_code == 200, response.text[:300]
    assert list(response.json()[0].values()) == [
        " 3.14|ab  |xxx|%|007",
        "3-a",
        3,
        "azcz",
        "a",
        "a",
        "a",
        1,
        1,
        1,
        65535,
    ]


def test_the_site_keeps_the_path_and_the_threads_to_itself(site: Server, database: Path) -> None:
    with httpx.Client(base_url=site.url, timeout=300) as client:
        for hidden in ("databases", "threads", "versions", "plugins"):
            for suffix in ("", ".json"):
                response = client.get(f"/-/{hidden}{suffix}")
                assert response.status_code == 403, (hidden, response.text[:200])
                assert str(database.parent) not in response.text
        shown = [
            client.get(path)
            for path in (
                "/",
                "/yimao",
                "/yimao.json",
                "/-/metadata.json",
                "/-/settings.json",
                "/yimao/hexagram",
                "/yimao/hexagram.json",
                "/yimao/nothing",
                "/reading/1",
                "/reading/99",
            )
        ]
    assert [r.status_code for r in shown] == [200] * 7 + [404, 200, 404]
    for response in shown:
        assert str(database.parent) not in response.text, response.url
        assert "MainThread" not in response.text and "ThreadPoolExecutor" not in response.text


def test_writing_methods_are_refused_before_the_body_is_read(site: Server) -> None:
    with httpx.Client(base_url=site.url, timeout=300) as client:
        for path in ("/yimao", "/-/messages", "/-/allow-debug", "/reading/1"):
            response = client.post(path, content=b"x" * 2**20)
            assert response.status_code == 405, (path, response.text[:200])
            assert "read-only" in response.text
        assert client.request("PUT", "/yimao").status_code == 405
    still_answers(site)


# --- the guard, connection by connection ------------------------------------------------


def test_one_guard_for_yimao_sql_and_the_site(database: Path) -> None:
    conn = limits.connect(str(database), immutable=False)
    try:
        assert isinstance(conn.guard, SqliteAuthorizer)
        for sql in (
            "SELECT fts3_tokenizer('simple')",
            "SELECT fts3_tokenizer('simple', x'0000000000000000')",
            "SELECT load_extension('x')",
            "SELECT changes()",
            "DELETE FROM reading",
            "PRAGMA query_only = OFF",
            "ATTACH DATABASE ':memory:' AS other",
        ):
            with pytest.raises(sqlite3.DatabaseError, match=r"not authorized|readonly"):
                conn.execute(sql).fetchall()
        assert conn.execute("PRAGMA schema_version").fetchone()[0] > 0
        assert conn.execute("SELECT count(*) FROM v_reading").fetchone() == (2,)
    finally:
        conn.close()
    guard = limits.ServeAuthorizer()
    allowed = {
        name
        for name in (*SQLITE_FUNCTIONS, "fts3_tokenizer", "load_extension", "escape_fts", "x")
        if guard(sqlite3.SQLITE_FUNCTION, None, name) == sqlite3.SQLITE_OK
    }
    assert allowed == {*SQLITE_FUNCTIONS, "escape_fts"}  # and datasette's own escape_fts()


def test_the_heap_limit_is_yimao_sql_s() -> None:
    assert limits.HEAP_LIMIT_PRAGMA == f"PRAGMA hard_heap_limit = {SQLITE_HEAP_LIMIT}"


@pytest.mark.parametrize(
    ("args", "sizes"),
    [
        (("%d", 1), []),
        (("%5.2f", 1.0), [5, 2]),
        (("%.*c", 10**9, "x"), [10**9]),
        (("%*.*c", -7, "  12abc", "x"), [7, 12]),
        (("%%%.*c", 3.9, "x"), [3]),
        (("%-+ #0!,10lld", 1), [10]),
        ((None, 1), []),
        (("%.*c",), [0]),
    ],
)
def test_printf_sizes(args: tuple[Any, ...], sizes: list[int]) -> None:
    """The widths and precisions read as SQLite reads them (an integer prefix of text,
    a real truncated, a negative width left-justifies)."""
    assert limits.printf_sizes(args) == sizes


# --- where it listens -------------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1"])
def test_loopback_hosts(host: str) -> None:
    assert loopback(host) and check_host(host, allow_remote=False) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1"])
def test_other_hosts(host: str) -> None:
    assert not loopback(host)
    warning = check_host(host, allow_remote=True)
    assert warning is not None and warning.startswith(f"warning: --host {host} is not")


def test_another_host_needs_allow_remote(database: Path) -> None:
    done = subprocess.run(
        yimao_command("serve", "--db", str(database), "--host", "0.0.0.0", "--port", "0"),
        capture_output=True,
        text=True,
        timeout=STARTUP_SECONDS,  # a server that starts instead fails the test, not hangs it
    )
    code, out, err = done.returncode, done.stdout, done.stderr
    assert (code, out) == (2, "")
    assert err == (
        "error: --host 0.0.0.0 is not a loopback address: whoever reaches it reads "
        "everything in the database, stored questions and notes included (the site has no "
        "login); add --allow-remote to serve it anyway\n"
    )


def test_allow_remote_serves_with_a_warning(database: Path) -> None:
    with server(database, "--host", "0.0.0.0", "--allow-remote") as running:
        port = running.url.rsplit(":", 1)[1]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=300) as client:
            assert client.get("/reading/1").status_code == 200
        for _ in range(600):  # printed before the server started; read by another thread
            if running.stderr:
                break
            time.sleep(0.1)
        assert running.stderr[:1] == [
            "warning: --host 0.0.0.0 is not a loopback address: whoever reaches it reads "
            "everything in the database, stored questions and notes included (the site has "
            "no login)\n"
        ]
