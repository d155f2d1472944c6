"""Error messages: a value echoed is cut short (a 1 MB field makes no 1 MB error line); text
that is not UTF-8 in a query's result is not called a damaged file; a message about
temporary space names the directory SQLite uses."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers import raw, run
from sqlalchemy.exc import DBAPIError

from yimao_db import check as doctor
from yimao_db.cli import explain
from yimao_db.db import sqlite_temp_dir
from yimao_db.errors import MESSAGE_MAX, shown
from yimao_db.journaling import record_outcome, tag
from yimao_db.readings import cast

PILLARS = "甲辰,丙寅,戊戌,庚申"
BIG = "x" * 1_000_000
CUT = f"'{'x' * 40}'… (1000000 characters)"  # how BIG is shown


def test_shown() -> None:
    assert shown("abc") == "'abc'"
    assert shown(BIG) == CUT
    assert shown(b"\xff" * 50) == repr(b"\xff" * 40) + "… (50 bytes)"
    assert shown(7) == "7"
    assert shown(10**5000) == "a int too long to show"


# (the command line, what the error says before the value)
USER_VALUES = [
    (["cast", BIG, "--pillars", PILLARS], "unknown hexagram "),
    (["cast", "--coins", BIG, "--pillars", PILLARS], "bad coins "),
    (["cast", "乾", "--moving", BIG], "bad moving lines "),
    (["cast", "789678", "--at", BIG], "bad date "),
    (["cast", "789678", "--at", "2026-12-01T08:00", "--tz", BIG], "unknown time zone "),
    (["cast", "789678", "--pillars", BIG], "bad pillars "),
    (["cast", "789678", "--pillars", PILLARS, "--matter", BIG], "unknown matter "),
    (["show", BIG], "unknown hexagram or name "),
    (["reading", BIG], "bad reading id "),
    (["outcome", "1", "hit", "--on", BIG], "bad --on date "),
    (["tag", "1", BIG], "bad tag "),
    (["untag", "1", BIG], "bad tag "),
    (["readings", "--since", BIG], "bad --since date "),
    (["readings", "--tag", BIG], "bad tag "),
    (["readings", "--hexagram", BIG], "unknown hexagram "),
    (["readings", "--matter", BIG], "unknown matter "),
    (["sql", "SELECT :x", "-p", BIG], "bad parameter "),
    (["sql", "SELECT 1", "--timeout", BIG], "got "),
    (["schema", BIG], "unknown table or view "),
]


def test_an_echoed_value_is_cut_short(
    capsys: pytest.CaptureFixture[str], fresh_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cast("789678", pillars=PILLARS, db=fresh_db)
    tag(1, ["kept"], db=fresh_db)
    for argv, before in USER_VALUES:
        code, out, err = run(capsys, *argv, "--db", fresh_db)
        assert (code, out) == (2, ""), argv[:2]
        (line,) = err.splitlines()[-1:]
        assert f"{before}{CUT}" in line, (argv[:2], line[:300])
        assert len(err) < 2500, (argv[:2], err[:300])  # the names of 133 tables and views
    monkeypatch.setenv("YIMAO_TZ", BIG)
    code, out, err = run(capsys, "note", "1", "text", "--db", fresh_db)
    assert (code, out) == (2, "") and err.startswith(f"error: $YIMAO_TZ is {CUT}, which is")


@pytest.mark.sqlite_only
def test_a_long_message_of_the_database_is_cut(
    capsys: pytest.CaptureFixture[str], fresh_db: str
) -> None:
    """SQLite's own message echoes the name it did not find, whole: the line is cut."""
    code, out, err = run(capsys, "sql", f'SELECT * FROM "{BIG}"', "--db", fresh_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: database: no such table: xxxx")
    assert err.endswith(" characters in all)\n") and len(err) < MESSAGE_MAX + 100


@pytest.mark.sqlite_only
def test_yimao_check_cuts_the_values_it_shows(fresh_db: str) -> None:
    cast("789678", pillars=PILLARS, db=fresh_db)
    record_outcome(1, "hit", on="2026-01-01", db=fresh_db)
    tag(1, ["kept"], db=fresh_db)
    with raw(Path(fresh_db), ignore_checks=True) as con:
        con.execute("UPDATE reading_outcome SET verdict = ?, happened_on = ?", [BIG, BIG])
        con.execute("UPDATE reading_tag SET tag = ?", [BIG])
    lines = [str(p) for p in doctor.check(fresh_db)]
    assert len(lines) >= 4
    for line in lines:
        assert len(line) < 400, line[:300]
    assert any(f"verdict={CUT}" in line for line in lines)
    assert f"journal: reading_tag reading_id=1 tag={CUT}: bad tag {CUT}:" in "\n".join(lines)


@pytest.mark.sqlite_only
def test_text_that_is_not_utf8_made_by_a_query_is_no_damage(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    """`CAST(x'ff' AS TEXT)` was reported as a damaged file. The database holds no such
    text (`yimao check` finds none), so the line says what the query made."""
    code, out, err = run(capsys, "sql", "SELECT CAST(x'41ff' AS TEXT) AS t", "--db", built_db)
    assert (code, out) == (2, "")
    assert err == (
        "error: the query's result holds text that is not valid UTF-8 (column 't'), which "
        "yimao sql cannot print: select hex(…) or CAST(… AS BLOB) of it to see its bytes\n"
    )


def test_the_temporary_directory_is_sqlites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite puts its temporary files in $SQLITE_TMPDIR, else $TMPDIR, else /var/tmp …;
    a message about temporary space names that directory, not Python's /tmp."""
    first, second = tmp_path / "sqlite-tmp", tmp_path / "tmp"
    second.mkdir()
    monkeypatch.setenv("SQLITE_TMPDIR", str(first))  # not there yet: skipped
    monkeypatch.setenv("TMPDIR", str(second))
    assert sqlite_temp_dir() == str(second)
    first.mkdir()
    assert sqlite_temp_dir() == str(first)
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorname = "SQLITE_FULL"
    line, code = explain(DBAPIError.instance("INSERT …", None, full, sqlite3.Error))
    assert code == 2
    assert line == (
        "error: database: database or disk is full (no room left beside the database, or in "
        f"SQLite's temporary directory {first}: set SQLITE_TMPDIR to a directory with room)"
    )
