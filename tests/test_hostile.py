"""Hostile input: every parser and entry point gives a valid result or the documented error.

"Documented error" means a :class:`yimao_db.errors.YimaoError` from the Python API, and from
the command line (``yimao_db.cli.main``, run in-process) exit code 2 with ``error: …`` on
stderr. Never a traceback, never another exception, never a write on error: the number of
readings is counted before and after every command. Questions round-trip byte-identical.
A static check reads the package's source and refuses SQL text built from values.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import sqlite3
import traceback
import zoneinfo
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from helpers import built_copy
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection

from yimao_db import casting, lookup
from yimao_db.calendar import moment
from yimao_db.cli import main, make_parser
from yimao_db.db import reader_engine
from yimao_db.errors import UsageError, YimaoError
from yimao_db.kb import names
from yimao_db.readings import cast, chart, make_moment

pytestmark = pytest.mark.sqlite_only  # counts rows in a file

FAST = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,  # no_env_database: one env var, unchanged
    ],
)
SOME = settings(FAST, max_examples=50)

PILLARS = "甲辰,丙寅,戊戌,庚申"

# --- strategies -------------------------------------------------------------------------------

SQL_BITS = [
    "'",
    '"',
    "`",
    ";",
    "--",
    "/*",
    "*/",
    "' OR '1'='1",
    "'; DROP TABLE reading; --",
    '"); DELETE FROM reading_line; --',
    "%s",
    "%(x)s",
    "{}",
    "{0}",
    ":id",
    "?",
    "\\",
    "NULL",
    "UNION SELECT * FROM reading",
]
NAMES = ["乾", "坤", "姤", "天風姤", "天风姤", "乾為天", "44", "011111", "qian", "Gou", "醜", "子"]
CAST_CHARS = "乾坤姤之:：/,，、 6789012345-+甲子丑寅辰戌亥T.\t\n\u3000\x85\u2028"

fragment = st.one_of(
    st.text(max_size=12),
    st.text(alphabet=CAST_CHARS, max_size=12),
    st.sampled_from(SQL_BITS),
    st.sampled_from(NAMES),
    st.integers(-(10**30), 10**30).map(str),
)
hostile = st.lists(fragment, max_size=4).map("".join)
argv_text = hostile.map(lambda s: s.replace("\x00", ""))  # argv cannot carry NUL
zones = st.one_of(
    st.sampled_from(sorted(zoneinfo.available_timezones())),
    st.sampled_from(["", "UTC", "../etc/passwd", "/etc/localtime", "Asia", "Etc/GMT+14", "."]),
    argv_text,
)
iso_like = st.one_of(
    st.text(alphabet="0123456789-:T+ Z.W", max_size=30),
    st.datetimes().map(lambda d: d.isoformat()),
    argv_text,
)


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> str:
    return str(built_copy(sqlite_template, tmp_path_factory.mktemp("hostile") / "yimao.db"))


@pytest.fixture(scope="module")
def conn(db: str) -> Iterator[Connection]:
    engine = reader_engine(db)
    with engine.connect() as connection:
        yield connection
    engine.dispose()


@pytest.fixture(scope="module", autouse=True)
def held_open(db: str) -> Iterator[None]:
    """One connection held open for the module, so that each command closing its own is not
    the last one to close (which would checkpoint and fsync the WAL every time)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.execute("SELECT COUNT(*) FROM reading").fetchone()
    yield
    con.close()


def count(db: str) -> tuple[int, int]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (r,) = con.execute("SELECT COUNT(*) FROM reading").fetchone()
        (lines,) = con.execute("SELECT COUNT(*) FROM reading_line").fetchone()
        return r, lines
    finally:
        con.close()


def cli(*argv: str) -> tuple[int, str, str]:
    """Run ``yimao`` in-process; any exception escaping ``main`` fails the test with its trace."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    except BaseException:  # the point: nothing may escape
        pytest.fail(f"yimao {argv!r} raised:\n{traceback.format_exc()}")
    return code, out.getvalue(), err.getvalue()


def documented(code: int, out: str, err: str) -> bool:
    """Exit 0, or exit 2 with an ``error:`` line and nothing on stdout."""
    if code == 0:
        return "Traceback" not in err
    return code == 2 and "\nerror: " in "\n" + err and "Traceback" not in err and out == ""


def writes_only_on_success(db: str, argv: list[str], *, adds: int) -> tuple[int, str, str]:
    before = count(db)
    code, out, err = cli(argv[0], "--db", db, *argv[1:])  # --db before any "--"
    assert documented(code, out, err), (argv, code, out, err)
    assert "unrecognized arguments" not in err, err
    after = count(db)
    if code == 0:
        assert after == (before[0] + adds, before[1] + 6 * adds), argv
    else:
        assert after == before, argv
    return code, out, err


def api(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a parser: its result, or None when it raised the documented UsageError."""
    try:
        return fn(*args, **kwargs)
    except UsageError as exc:
        assert str(exc)
        return None


# --- parsers ----------------------------------------------------------------------------------


@FAST
@given(hostile)
def test_values_and_coins(text: str) -> None:
    for fn in (casting.from_values, casting.from_coins):
        got = api(fn, text)
        if got is not None:
            assert len(got.values) == 6 and set(got.values) <= set("6789")
            if got.coins is not None:
                assert "".join(str(6 + c) for c in got.coins) == got.values


@FAST
@given(hostile)
def test_moving_lines(text: str) -> None:
    got = api(casting.parse_moving, text)
    if got is not None:
        assert got == sorted(set(got)) and all(1 <= p <= 6 for p in got)


@FAST
@given(hostile, st.one_of(st.just(""), hostile))
def test_cast_forms(conn: Connection, text: str, moving: str) -> None:
    got = api(casting.parse, conn, text, moving)
    if got is not None:
        assert len(got.values) == 6 and set(got.values) <= set("6789")


@FAST
@given(st.one_of(st.sampled_from(NAMES), hostile), st.one_of(st.sampled_from(NAMES), hostile))
def test_zhi_notation(conn: Connection, primary: str, changed: str) -> None:
    got = api(casting.parse, conn, f"{primary}之{changed}")
    if got is not None:
        assert got.method in ("notation", "values", "hexagram")


@FAST
@given(hostile)
def test_name_lookups(conn: Connection, text: str) -> None:
    assert isinstance(names.normalise(text), str)
    kw = api(lookup.hexagram, conn, text)
    assert kw is None or 1 <= kw <= 64
    for kind in ("hexagram", *names.VOCABULARIES):
        found = lookup.resolve(conn, kind, text)
        assert found is None or isinstance(found, str)
    assert isinstance(lookup.resolve_any(conn, text), list)
    entities = getattr(lookup, "entities", None)
    if entities is not None:
        api(entities, conn, text)


@FAST
@given(hostile)
def test_pillar_text(text: str) -> None:
    got = api(moment.parse_pillars, text)
    if got is not None:
        assert len(got.day_gz) == 2 and got.month_branch == (got.month_gz or "  ")[1]


@FAST
@given(
    st.one_of(st.sampled_from(["甲子", "丙寅", "醜", "寅", ""]), hostile),
    st.one_of(st.none(), st.sampled_from(["丙寅", "寅", "丑", "醜"]), hostile),
    st.one_of(st.none(), hostile),
    st.one_of(st.none(), hostile),
)
def test_separate_pillars(day: str, month: str | None, year: str | None, hour: str | None) -> None:
    api(make_moment, day=day, month=month, year=year, hour=hour)
    api(moment.moment_from_pillars, day=day, month_branch=month, year=year, hour=hour)


@FAST
@given(iso_like, zones, st.booleans())
def test_dates_and_zones_as_text(when: str, tz: str, early_rat: bool) -> None:
    got = api(moment.moment_at, when, tz, early_rat=early_rat)
    if got is not None:
        assert len(got.day_gz) == 2 and got.tz == tz


@FAST
@given(st.datetimes(timezones=st.none() | st.timezones()), zones)
def test_dates_and_zones_as_datetimes(when: datetime, tz: str) -> None:
    api(moment.moment_at, when, tz)


# --- the command line -------------------------------------------------------------------------


@FAST
@given(argv_text)
def test_show(db: str, text: str) -> None:
    writes_only_on_success(db, ["show", "--", text], adds=0)


@SOME
@given(argv_text, st.sampled_from(["", "--json"]))
def test_cast_text(db: str, text: str, fmt: str) -> None:
    argv = ["cast", "--pillars", PILLARS, *([fmt] if fmt else []), "--", text]
    writes_only_on_success(db, argv, adds=1)


@SOME
@given(
    st.sampled_from(["乾", "姤", "789678", None]),
    st.one_of(st.none(), argv_text),
    st.one_of(st.none(), iso_like),
    st.one_of(st.none(), zones),
    st.one_of(st.none(), argv_text),
    st.one_of(st.none(), argv_text),
    st.one_of(st.none(), argv_text),
)
def test_cast_options(
    db: str,
    lines: str | None,
    moving: str | None,
    at: str | None,
    tz: str | None,
    pillars: str | None,
    coins: str | None,
    month: str | None,
) -> None:
    argv = ["cast"]
    for option, value in (
        ("--moving", moving),
        ("--at", at),
        ("--tz", tz),
        ("--pillars", pillars),
        ("--coins", coins),
        ("--month", month),
    ):
        if value is not None:
            argv.append(f"{option}={value}")
    if month is not None:
        argv.append("--day=甲子")
    if lines is not None:
        argv += ["--", lines]
    writes_only_on_success(db, argv, adds=1)


@FAST
@given(st.one_of(argv_text, st.integers(1, 10**6).map(str)))
def test_reading_ids_that_look_like_ids(db: str, text: str) -> None:
    assume(not text.isdigit() or (text.isascii() and len(text) < 18))
    writes_only_on_success(db, ["reading", "--", text], adds=0)


@SOME
@given(st.one_of(st.integers(2**63, 10**40).map(str), st.sampled_from(["²", "①", "³4"])))
@example("99999999999999999999")
@example("²")
def test_reading_ids_beyond_sqlite_or_not_decimal(db: str, text: str) -> None:
    writes_only_on_success(db, ["reading", "--", text], adds=0)


@pytest.mark.parametrize("limit", [str(10**30), "--"])
def test_readings_limit_beyond_sqlite_or_dashes(db: str, limit: str) -> None:
    writes_only_on_success(db, ["readings", f"--limit={limit}"], adds=0)


def fits_sqlite(text: str) -> bool:
    """Not one of the reported cases: an int beyond SQLite's 64 bits, or a bare ``--``."""
    try:
        return text.strip() != "--" and abs(int(text)) < 2**63
    except ValueError:
        return True


@FAST
@given(st.one_of(argv_text, st.integers(-(10**6), 10**6).map(str)))
def test_readings_limit(db: str, text: str) -> None:
    assume(fits_sqlite(text))
    writes_only_on_success(db, ["readings", f"--limit={text}"], adds=0)


def has_command(name: str) -> bool:
    for action in make_parser()._actions:
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict) and name in choices:
            return True
    return False


@SOME
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "SELECT * FROM reading",
                    "DELETE FROM reading",
                    "INSERT INTO reading_line VALUES (1, 1, 7, NULL)",
                    "UPDATE hexagram SET name = 'x'",
                    "DROP TABLE reading",
                    "PRAGMA query_only=OFF",
                    "PRAGMA writable_schema=ON",
                    "ATTACH DATABASE 'x.db' AS x",
                    "VACUUM",
                    "WITH x AS (DELETE FROM reading RETURNING *) SELECT * FROM x",
                    "SELECT :p",
                    "SELECT load_extension('x')",
                    "SELECT 1; DELETE FROM reading",
                    "EXPLAIN DELETE FROM reading",
                ]
            ),
            st.sampled_from(SQL_BITS),
            argv_text,
        ),
        min_size=1,
        max_size=3,
    ).map(" ".join)
)
def test_sql_text(db: str, query: str) -> None:
    if not has_command("sql"):
        pytest.skip("no `yimao sql` command yet")
    before = Path(db).read_bytes()
    code, _, _ = writes_only_on_success(db, ["sql", "--", query], adds=0)
    assert code in (0, 2)
    assert Path(db).read_bytes() == before


@SOME
@given(st.text(max_size=300), st.sampled_from(["x.csv", "x.jsonl", "x.txt"]))
def test_import_files(
    db: str, tmp_path_factory: pytest.TempPathFactory, body: str, name: str
) -> None:
    path = tmp_path_factory.mktemp("import") / name
    path.write_text(body, encoding="utf-8")
    before = count(db)
    code, out, err = cli("import", str(path), "--db", db)
    assert documented(code, out, err), (body, code, out, err)
    if code != 0:
        assert count(db) == before


# --- every command and option -----------------------------------------------------------------

# Values that get past the first check, so that hostile values of the other options reach
# the code behind it; every option also gets arbitrary text.
GOOD_VALUES: dict[str, list[str]] = {
    "name": [*NAMES, "青龍", "木", "官鬼", "角", "乾"],
    "kind": ["hexagram", "trigram", "palace", "spirit", "branch"],
    "lines": ["789678", "乾之姤", "姤:1,4", "乾", "2,1,3,0,2,2"],
    "coins": ["2,1,3,0,2,2", "213022"],
    "moving": ["1,4", "6"],
    "at": ["2026-11-30T09:15", "2024-02-04T16:27:00+08:00", "1900-01-31T23:30"],
    "tz": ["Asia/Shanghai", "Europe/London", "UTC", "America/St_Johns"],
    "pillars": [PILLARS, "甲辰,丙寅,戊戌"],
    "year": ["甲辰"],
    "month": ["丙寅", "寅"],
    "day": ["戊戌", "甲子"],
    "hour": ["庚申"],
    "najia": ["fixed", "seasonal"],
    "question": ["q", "問", "\x1b[31m\n"],
    "id": ["1", "2"],
    "limit": ["1", "5"],
    "table": ["hexagram", "v_reading", "reading", "HEXAGRAM"],
    "database_name": ["yimao", "x y"],
    "query": [
        "SELECT * FROM v_hexagram",
        "SELECT :p AS p",
        "SELECT * FROM v_reading WHERE reading_id = :id",
    ],
    "param": ["p=1", "id:int=1", "p:float=1.5", "id=x"],
    "format": ["csv", "jsonl", "parquet"],
}
PATH_DESTS = ("output", "dir")  # written to: always inside the sandbox
# cheap commands more often than build (a re-seed) and check (a full recomputation)
COMMAND_WEIGHTS = {"build": 1, "check": 1, "export": 2}


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = make_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def option_value(data: st.DataObject, action: argparse.Action, sandbox: Path) -> str:
    dest = action.dest
    if dest in PATH_DESTS:
        name = data.draw(argv_text, label=dest).replace("/", "_")
        return str(sandbox / f"out-{name}"[:200])
    if action.choices is not None and data.draw(st.booleans(), label=f"{dest} is a choice"):
        return str(data.draw(st.sampled_from(list(action.choices)), label=dest))
    good = GOOD_VALUES.get(dest, [])
    return str(
        data.draw(st.one_of(st.sampled_from(good), argv_text) if good else argv_text, label=dest)
    )


def command_line(data: st.DataObject, sandbox: Path, db: str) -> list[str]:
    """A command with any of its options, each given a good or a hostile value."""
    parsers = subcommands()
    names = [n for n in parsers for _ in range(COMMAND_WEIGHTS.get(n, 4))]
    name = data.draw(st.sampled_from(names), label="command")
    argv, positionals = [name], []
    for action in parsers[name]._actions:
        if isinstance(action, argparse._HelpAction) or action.dest == "db":
            continue
        if not action.option_strings:  # a positional: required unless nargs="?"
            if action.nargs == "?" and not data.draw(st.booleans(), label=f"{action.dest}?"):
                continue
            if action.dest == "file":
                body = data.draw(
                    st.one_of(
                        st.text(max_size=200),
                        st.sampled_from(
                            [
                                "lines,at\n789678,2024-01-01T09:00\n",
                                '{"lines": "乾之姤", "question": "\\u001b[2J"}\n',
                            ]
                        ),
                    ),
                    label="import file",
                )
                path = sandbox / data.draw(st.sampled_from(["in.csv", "in.jsonl", "in.txt"]))
                path.write_text(body, encoding="utf-8")
                positionals.append(str(path))
            else:
                positionals.append(option_value(data, action, sandbox))
            continue
        if not data.draw(st.booleans(), label=f"use {action.option_strings[-1]}"):
            continue
        flag = data.draw(st.sampled_from(action.option_strings), label="spelling")
        if action.nargs == 0:
            argv.append(flag)
            continue
        repeat = data.draw(st.integers(1, 3)) if isinstance(action, argparse._AppendAction) else 1
        argv += [f"{flag}={option_value(data, action, sandbox)}" for _ in range(repeat)]
    return [*argv, "--db", db, "--", *positionals]


@SOME
@given(st.data())
def test_every_command_and_option(
    db: str, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    """Any command with any of its options: exit 0, or 2 with one ``error:`` line (1 from
    ``yimao check`` with its report), never 70 (an internal error), never a traceback;
    readings are added only by a successful cast or import, and no file is written outside
    the sandbox the options point into."""
    sandbox = tmp_path_factory.mktemp("sandbox")
    argv = command_line(data, sandbox, db)
    around = sorted(p.name for p in Path(db).parent.iterdir())
    before = count(db)
    code, out, err = cli(*argv)
    assert code != 70, (argv, err)
    if argv[0] == "check" and code == 1:
        assert err == "" and out.endswith("found\n"), (argv, out)
    else:
        assert documented(code, out, err), (argv, code, out, err)
    if code == 2:
        assert err.count("\n") == 1, (argv, err)
    after = count(db)
    if code == 0 and argv[0] == "cast":
        assert after == (before[0] + 1, before[1] + 6), argv
    elif code == 0 and argv[0] == "import":
        assert after[0] > before[0] and after[1] - before[1] == 6 * (after[0] - before[0])
    else:
        assert after == before, argv
    assert sorted(p.name for p in Path(db).parent.iterdir()) == around, argv


DB_SCHEMES = ["sqlite", "sqlite+pysqlite", "nosuch", "postgresql+nosuchdriver", "mysql", ""]
db_values = st.one_of(
    argv_text,
    st.builds(lambda scheme, rest: f"{scheme}://{rest}", st.sampled_from(DB_SCHEMES), argv_text),
    st.sampled_from(["sqlite://", "sqlite:///:memory:", ":memory:", ".", "..", "/", "~", "-"]),
)


@FAST
@given(
    db_values,
    st.sampled_from(
        [
            ["show", "乾"],
            ["readings"],
            ["schema"],
            ["sql", "SELECT 1 FROM hexagram"],
            ["cast", "789678", "--pillars", PILLARS],
        ]
    ),
)
@example("sqlite://:", ["show", "乾"])  # a port that is not a number: make_url raised ValueError
@example("sqlite:///x.db?timeout=abc", ["cast", "789678", "--pillars", PILLARS])
@example("~0", ["show", "乾"])  # no such user: Path.expanduser raised RuntimeError
def test_database_option_values(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    value: str,
    argv: list[str],
) -> None:
    """Any --db value, a path (relative to an empty directory) or a URL: a documented
    error (there is no database there), never another exception; nothing is created."""
    sandbox = tmp_path_factory.mktemp("dbvalue")
    monkeypatch.chdir(sandbox)
    code, out, err = cli(*argv, f"--db={value}")
    assert code == 2 and documented(code, out, err), (value, argv, code, out, err)
    assert err.count("\n") == 1, err
    assert list(sandbox.iterdir()) == [], value


# --- questions are stored byte for byte -------------------------------------------------------

# "--" alone cannot be given as an option value: argparse drops it (reported; see below)
question_text = st.one_of(
    st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), max_size=200),
    st.lists(
        st.sampled_from([*SQL_BITS, "\t", "\r\n", "\x1b[31m", "\x7f", "\u202e"]), max_size=6
    ).map("".join),
).filter(lambda q: q not in ("", "--"))


def stored_question(db: str, reading_id: int) -> bytes:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (raw,) = con.execute(
            "SELECT CAST(question AS BLOB) FROM reading WHERE id = ?", (reading_id,)
        ).fetchone()
        return bytes(raw)
    finally:
        con.close()


def cast_question(db: str, question: str) -> int:
    code, out, err = cli(
        "cast", "789678", "--pillars", PILLARS, "--json", f"--question={question}", "--db", db
    )
    assert (code, err) == (0, ""), err
    return int(json.loads(out)["reading_id"])


@SOME
@given(question_text)
def test_questions_round_trip(db: str, question: str) -> None:
    reading_id = cast_question(db, question)
    assert chart(reading_id, db).question == question
    assert stored_question(db, reading_id) == question.encode("utf-8")


def test_long_question_round_trips(db: str) -> None:
    question = ('問：\'; DROP TABLE reading; -- "引"\t\x01\x1f\u2028 ' * 4000)[: 100 * 1024]
    assert len(question) == 100 * 1024
    reading_id = cast_question(db, question)
    assert chart(reading_id, db).question == question
    assert stored_question(db, reading_id) == question.encode("utf-8")


def test_questions_round_trip_through_the_api(db: str) -> None:
    from yimao_db.readings import cast

    for question in ("--", "-", " leading and trailing ", "\r\n", "\x00 NUL inside"):
        try:
            reading_id = cast("789678", pillars=PILLARS, question=question, db=db)
        except UsageError:  # documented: a NUL is refused (nothing is written)
            assert "\x00" in question
            continue
        assert chart(reading_id, db).question == question
        assert stored_question(db, reading_id) == question.encode("utf-8")


def test_question_that_is_two_dashes(db: str) -> None:
    """argparse turns an option value of exactly '--' into []: the CLI refuses it clearly
    (exit 2, nothing written); the Python API stores it verbatim."""
    argv = ["cast", "789678", "--pillars", PILLARS, "--question=--"]
    code, _, err = writes_only_on_success(db, argv, adds=1)
    assert code == 2 and "--question needs a value" in err
    reading_id = cast("789678", pillars=PILLARS, question="--", db=db)
    assert chart(reading_id, db).question == "--"


def test_command_line_bytes_that_are_not_utf8_are_refused_for_names(db: str) -> None:
    """Undecodable argv bytes arrive as lone surrogates (PEP 383) and must not crash a lookup."""
    bad = os.fsdecode(b"\xff\xfe")
    for argv in (["show", bad], ["cast", "--pillars", PILLARS, bad], ["cast", f"乾之{bad}"]):
        writes_only_on_success(db, argv, adds=1)


def test_command_line_question_that_is_not_utf8_is_refused(db: str) -> None:
    bad = os.fsdecode(b"why \xff?")
    argv = ["cast", "789678", "--pillars", PILLARS, "--question", bad]
    code, _, err = writes_only_on_success(db, argv, adds=1)
    assert code == 2 and err.startswith("error: ")


# --- static check: SQL text is never built from values ----------------------------------------

PACKAGE = Path(__file__).resolve().parents[1] / "yimao_db"
SQL_CALLS = {"text", "exec_driver_sql", "execute", "executemany", "executescript", "literal_column"}
SQL_WORDS = ("SELECT ", "INSERT ", "UPDATE ", "DELETE ", "FROM ", "WHERE ", "PRAGMA ", "VALUES ")

# (file, part of the dynamic SQL expression's source) → why no user value can reach it.
# Reviewed by eye; a new entry needs the same review.
REVIEWED = {
    **dict.fromkeys(
        (
            ("kb/migrating.py", 'CREATE TABLE "{temp}" ('),
            ("kb/migrating.py", 'INSERT INTO "{temp}" SELECT * FROM "{table}"'),
            ("kb/migrating.py", 'DROP TABLE "{table}"'),
            ("kb/migrating.py", 'ALTER TABLE "{temp}" RENAME TO "{table}"'),
        ),
        "a table name a revision freezes, and the table's own CREATE TABLE text from"
        " sqlite_master (rebuild_sqlite_tables)",
    ),
    ("kb/migrating.py", "PRAGMA legacy_alter_table = {"): "ON or OFF, chosen by the code",
    ("kb/head_schema.py", 'DROP {kind.upper()} "{name}"'): (
        "the kind and name of a view or index of the head schema file the package ships (restore)"
    ),
    ("kb/migrating.py", "ALTER TABLE {table} DROP CONSTRAINT {name}"): (
        "a table and a constraint name a revision freezes (replace_check)"
    ),
    ("kb/migrating.py", "ALTER TABLE {table} ADD CONSTRAINT {name} CHECK ({new})"): (
        "a table, a constraint name and its expression, all frozen in a revision"
    ),
    ("kb/views/use.py", "SELECT {_COLUMNS.format("): (
        "a view's SQL assembled from module constants (its three arms share their joins)"
    ),
    ("kb/views/use.py", "FROM ({_ARMS}"): "a view's SQL from a module constant",
    ("kb/views/use.py", "SELECT {', '.join(V_READING_USE_COMPUTED.column_names)}"): (
        "a view's SQL: the column names its definition declares"
    ),
    ("kb/views/use.py", "SELECT {', '.join(V_READING_USE_CANDIDATE_COMPUTED.column_names)}"): (
        "a view's SQL: the column names its definition declares"
    ),
    ("kb/seeding.py", "dialect.insert_sql(conn, table.name, names)"): (
        "a seeded table's name and its rows' column names (each looked up in the declared"
        " table first); every value is bound"
    ),
    ("kb/seeding.py", "SELECT {columns} FROM {quote(table.name)}"): (
        "a seeded table's name and the column names of its computed rows (checked against"
        " the declared tables), quoted"
    ),
    ("finding.py", "SELECT {', '.join(('v.' + c for c in listed))} FROM v_reading v"): (
        "column names from a module constant; the filters' conditions are constants with "
        "every value bound"
    ),
    ("stats.py", "QUERIES[by]"): "one of the module's constant queries, chosen by a choice",
    ("stats.py", "{OUTCOME_COUNTS}"): "a module constant",
    ("dialect.py", "PRAGMA busy_timeout={int(busy_timeout_ms)}"): "an int from a module constant",
    ("db.py", "PRAGMA busy_timeout={BUSY_TIMEOUT_MS}"): "a module constant",
    (
        "check/__init__.py",
        "_quoted(conn, view)",
    ): "a view name from the database's catalogue, quoted",
    ("dialect.py", "PRAGMA foreign_keys={"): "ON or OFF, chosen by the code",
    ("web/limits.py", "SELECT {name}({marks})"): (
        "the name of a built-in from the module's own list (COSTLY, printf, format) and one ?"
        " per argument; every value is bound"
    ),
    ("kb/invariants.py", "inv.sql_for(conn)"): (
        "an invariant's query, a module constant, in its form for the connection's backend"
    ),
    ("kb/invariants.py", "SELECT '{f.table}' AS t, sign, passage, basis FROM {f.table}"): (
        "the names of the family tables, from the registry of sign families (FAMILIES)"
    ),
    ("kb/rules/sign_family.py", "SELECT r.id AS reading_id, {self.alias}.sign, {position}"): (
        "a family's arm of v_reading_sign as the registry declares it (its alias, the SQL of"
        " its position)"
    ),
    ("kb/rules/sign_family.py", "SELECT r.id, {self.alias}.sign, {position}"): (
        "a family's arm of v_reading_sign as the registry declares it"
    ),
    ("kb/rules/sign_family.py", "-- {self.reads}"): (
        "a family's arm of v_reading_sign as the registry declares it (its words and SQL)"
    ),
    ("kb/views/signs.py", "{UNION}"): "the families' arms, as the registry declares them",
    ("kb/rules/sign_family.py", "WHERE li.body = {body} AND li.starts_at <= r.cast_utc"): (
        "the lodge lookup of v_reading and the lodge families: the body is SQL the code"
        " writes ('日', '月' or a family's column lg.body)"
    ),
    ("kb/rules/signs.py", "AND {at_stored_lodge("): (
        "a family's arm of v_reading_sign as the registry declares it, with the stored lodge"
        " of sign_family.at_stored_lodge"
    ),
    ("kb/rules/sign_family.py", "({row}.body = '日' AND {row}.lodge = hd.sun_mansion"): (
        "the stored lodge of a lodge family: the row is the family's alias the code writes (lg)"
    ),
    ("kb/rules/sign_family.py", " OR {row}.body = '月' AND {row}.lodge = hd.moon_mansion)"): (
        "the stored lodge of a lodge family: the row is the family's alias the code writes (lg)"
    ),
    ("kb/derived.py", "DELETE FROM {d.table} {where}"): (
        "a derived table's name from the registry DERIVED and a fixed WHERE; the ids are bound"
    ),
    ("kb/derived.py", "INSERT INTO {d.table} SELECT * FROM {d.definition} {where}"): (
        "a derived table and its definition's name from the registry DERIVED and a fixed "
        "WHERE; the reading ids are bound"
    ),
    ("kb/derived.py", "SELECT 1 FROM reading WHERE id BETWEEN :a AND :b AND {column}"): (
        "the column a derived table's definition needs, from the registry DERIVED; the ids "
        "are bound"
    ),
    ("kb/derived.py", "SELECT reading_id, MAX(n), MIN(n) FROM (SELECT {select}"): (
        "a derived table, its definition's name and its columns (the view's declaration) from "
        "the registry DERIVED; the reading ids are bound"
    ),
    ("kb/sign_count.py", "INSERT INTO {TABLE} (sign, fired, readings) SELECT sign, :f"): (
        "the module's table name and its count (module constants) with a fixed condition; "
        "the ids and the factor are bound"
    ),
    ("kb/sign_count.py", "WHERE {where}"): (
        "one of the module's two fixed conditions on reading_id (a span, a list of ids); "
        "the ids are bound"
    ),
    ("kb/sign_count.py", "UNION ALL SELECT sign, fired, readings, -1 AS side FROM ({counted})"): (
        "the module's table name and its count, constants without a condition"
    ),
    ("kb/sign_count.py", "DELETE FROM {TABLE} WHERE fired = 0"): "the module's table name",
    ("kb/sign_count.py", "DELETE FROM {TABLE}"): "the module's table name",
    ("kb/sign_count.py", "INSERT INTO {TABLE} (sign, fired, readings) {counted}"): (
        "the module's table name and its count, constants without a condition"
    ),
    ("kb/migrating.py", "CREATE VIEW {view.name} AS {view.sql}"): "a view frozen in a revision",
    ("kb/migrating.py", "DROP VIEW {view.name}"): "a view name frozen in a revision",
    ("readings.py", "FROM {view} WHERE reading_id = :id{order}"): (
        "a view's columns (the fields of the chart classes) and name, from the package; the"
        " id is bound"
    ),
    ("readings.py", "INSERT INTO {table} ("): (
        "the reading tables' names and columns (READING_COLUMNS, LINE_COLUMNS): module"
        " constants; every value is bound (:name)"
    ),
    ("dialect.py", "INSERT INTO {table} ("): (
        "table and column names the importer passes: its own constants (readings.READING_COLUMNS)"
    ),
    (
        "importing/__init__.py",
        "self._statement(",
    ): "dialect.insert_sql over the models' column names",
    ("importing/__init__.py", "COPY {self.table}"): (
        "the importer's own table names and column lists (readings.READING_COLUMNS)"
    ),
    ("dialect.py", "'ANALYZE ' + ', '.join((quote(n) for n in names))"): (
        "the names of the seeded tables a build changed (kb/seeding.py: the declared tables),"
        " quoted"
    ),
    ("dialect.py", "COPY {quote(table)} ("): (
        "a seeded table's name and its rows' column names (kb/seeding.py: each looked up in"
        " the declared table first), quoted; every value goes through COPY's own encoding"
    ),
    ("importing/spool.py", "{NAME}"): (
        "the spool's schema name, its columns (readings.READING_COLUMNS, LINE_COLUMNS) and"
        " row counts: module constants and ints"
    ),
    ("export.py", "SELECT * FROM {dialect.quote(self.name)} ORDER BY {self.order_by}"): (
        "catalogue names, quoted; ORDER BY terms are quoted column names (dialect.sort_term)"
    ),
    ("check/cells.py", "SELECT {', '.join(shown + flags)} FROM {quoted} WHERE {where}"): (
        "yimao check's query over a table: the models' table and column names, quoted, their"
        " CHECK constraints' own SQL, VARCHAR lengths (ints) and literals of the code"
    ),
}


def dynamic_sql(root: Path = PACKAGE) -> list[tuple[str, int, str]]:
    """SQL text built at run time: calls whose statement is not a literal or a named constant,
    and f-strings / % / .format whose text looks like SQL."""
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            expr: ast.expr | None = None
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in SQL_CALLS and node.args:
                    arg = node.args[0]
                    literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                    if not literal and not isinstance(arg, ast.Name | ast.Attribute):
                        if name != "execute" or isinstance(arg, ast.JoinedStr | ast.BinOp):
                            expr = arg
                elif name == "format" and isinstance(func, ast.Attribute):
                    expr = node
            elif isinstance(node, ast.JoinedStr):
                literal_parts = "".join(
                    str(v.value) for v in node.values if isinstance(v, ast.Constant)
                )
                if any(w in literal_parts for w in SQL_WORDS):
                    expr = node
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
                if isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
                    if any(w in node.left.value for w in SQL_WORDS):
                        expr = node
            if expr is not None:
                source = ast.unparse(expr)
                if isinstance(expr, ast.Call) and getattr(expr.func, "attr", "") == "format":
                    receiver = expr.func.value  # type: ignore[attr-defined]
                    text = receiver.value if isinstance(receiver, ast.Constant) else ""
                    if not any(w in str(text) for w in SQL_WORDS):
                        continue
                found.append((rel, expr.lineno, source))
    return found


def test_sql_is_never_formatted_from_values() -> None:
    unreviewed = [
        f"yimao_db/{rel}:{line}: {source}"
        for rel, line, source in dynamic_sql()
        if not any(rel == f and (s in source or source in s) for f, s in REVIEWED)
    ]
    assert not unreviewed, (
        "SQL text built at run time; bind values as parameters (:name) instead, or review "
        "and list it in REVIEWED with the reason no user value reaches it:\n  "
        + "\n  ".join(unreviewed)
    )


def test_the_static_check_catches_formatting(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(
        "def f(conn, name):\n"
        "    conn.execute(text(f\"SELECT * FROM hexagram WHERE name = '{name}'\"))\n"
        "    conn.exec_driver_sql('SELECT %s' % name)\n"
        "    q = 'DELETE FROM reading WHERE id = {}'.format(name)\n"
        "    conn.execute(text('SELECT 1 WHERE x = ' + name))\n"
        "    conn.execute(text('SELECT 1 WHERE x = :x'), {'x': name})\n",
        encoding="utf-8",
    )
    assert sorted({line for _, line, _ in dynamic_sql(tmp_path)}) == [2, 3, 4, 5]


def test_documented_errors_are_yimao_errors() -> None:
    assert issubclass(UsageError, YimaoError) and UsageError.exit_code == 2
