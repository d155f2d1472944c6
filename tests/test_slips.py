"""Slips a new user makes, each refused with one line saying what was expected, exit 2 and
the database unchanged (or accepted, where a keyboard makes the slip): an option given an
empty value, moving lines listed empty or twice, full-width digits, an export into the
current directory by an empty name, a metadata file named as a folder, SQLite's other
placeholders, a reading id past what a database holds, a database URL of another kind,
and JSON Lines values of the wrong type. Found by a new user's trial of the command line."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run

from yimao_db import check as doctor
from yimao_db.db import ENV_VAR
from yimao_db.dialect import MAX_ID

PILLARS = "甲辰,丙寅,戊戌,庚申"


def digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def readings(capsys: pytest.CaptureFixture[str], db: str) -> str:
    code, out, _ = run(capsys, "readings", "--all", "--csv", "--db", db)
    assert code == 0
    return out


# (the command line after `yimao`, what the one error line holds)
EMPTY_VALUES = [
    # the pillars would have been cast, then the empty date refused: the reading was kept
    (["cast", "789678", "--month", "寅", "--day", "甲子", "--at", ""], "argument --at: expected"),
    (["cast", "789678", "--pillars", PILLARS, "--at", ""], "argument --at: expected"),
    (["cast", "789678", "--pillars", ""], "argument --pillars: expected a value"),  # was: now
    (["cast", "姤", "--moving", "", "--pillars", PILLARS], "argument --moving: expected"),
    (["cast", "789678", "--pillars", PILLARS, "--tz", " "], "argument --tz: expected"),
    (["cast", "--coins", "", "--pillars", PILLARS], "argument --coins: expected"),
    (["cast", "姤:", "--pillars", PILLARS], "bad moving lines '': expected line numbers 1-6"),
    (["cast", "姤:1,1", "--pillars", PILLARS], "bad moving lines '1,1': expected line numbers"),
    (["cast", "乾", "--moving", "4,1,4", "--pillars", PILLARS], "each once"),
    (["readings", "--hexagram", ""], "argument --hexagram: expected a value, not an empty one"),
    (["stats", "--by", ""], "argument --by: expected a value"),
    (["sql", "SELECT 1", "-p", ""], "argument -p/--param: expected a value"),
]


@pytest.mark.sqlite_only
@pytest.mark.parametrize(("argv", "said"), EMPTY_VALUES)
def test_an_empty_value_is_refused_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], sqlite_built_db: str, argv: list[str], said: str
) -> None:
    before, listed = digest(sqlite_built_db), readings(capsys, sqlite_built_db)
    code, out, err = run(capsys, *argv, "--db", sqlite_built_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and said in err and err.count("\n") == 1, err
    assert digest(sqlite_built_db) == before
    assert readings(capsys, sqlite_built_db) == listed


def test_an_empty_database_path_is_refused_not_taken_for_the_default(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "build", "--db", "")
    assert code == 2 and "argument --db: expected a value, not an empty one" in err
    assert list(tmp_path.iterdir()) == []  # no ./yimao.db


@pytest.mark.sqlite_only
def test_the_question_may_be_empty(
    capsys: pytest.CaptureFixture[str], sqlite_built_db: str
) -> None:
    """Text stored as given: an empty question is no question (stored as NULL)."""
    code, out, _ = run(
        capsys, "cast", "789678", "--pillars", PILLARS, "--question", "", "--db", sqlite_built_db
    )
    assert code == 0 and out.startswith("Reading 1 ")


@pytest.mark.sqlite_only
def test_full_width_digits_cast_as_digits(
    capsys: pytest.CaptureFixture[str], sqlite_built_db: str
) -> None:
    wide = run(capsys, "cast", "７８９６７８", "--pillars", PILLARS, "--db", sqlite_built_db)
    coins = run(
        capsys,
        "cast",
        "--coins",
        "２,１,３,０,２,２",
        "--pillars",
        PILLARS,
        "--db",
        sqlite_built_db,
    )
    assert wide[0] == coins[0] == 0
    code, out, _ = run(
        capsys,
        "sql",
        "SELECT cast_input FROM reading ORDER BY id",
        "--csv",
        "--db",
        sqlite_built_db,
    )
    assert (code, out.split()) == (0, ["cast_input", "789678", '"2,1,3,0,2,2"'])


def test_an_export_needs_a_folder_name(
    capsys: pytest.CaptureFixture[str],
    built_db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("", " "):
        code, out, err = run(capsys, "export", name, "--db", built_db)
        assert (code, out, err) == (
            2,
            "",
            "error: no folder given: expected the folder to export into\n",
        )
    assert list(tmp_path.iterdir()) == []  # nothing written into the current folder


def test_metadata_is_written_to_a_file_never_as_a_folder_name(
    capsys: pytest.CaptureFixture[str], built_db: str, tmp_path: Path
) -> None:
    folder = tmp_path / "md"
    folder.mkdir()
    for target in (f"{tmp_path / 'new'}/", str(folder)):
        code, out, err = run(capsys, "export-metadata", "-o", target, "--db", built_db)
        assert (code, out) == (2, "")
        assert err == f"error: cannot write {target}: it is a folder; expected a file name\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["md"] and not any(folder.iterdir())
    code, _, _ = run(capsys, "export-metadata", "-o", str(tmp_path / "m.json"), "--db", built_db)
    assert code == 0
    # written beside and put in place: no partial file is left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "md"]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        (
            "SELECT ?",
            "the query uses the placeholder '?': expected named placeholders, written :name",
        ),
        ("SELECT ?2", "the placeholder '?2'"),
        ("SELECT @x", "the placeholder '@x'"),
        ("SELECT $x", "the placeholder '$x'"),
        ("SELECT '\udcff'", "the query is not text: it holds bytes that are not UTF-8"),
    ],
)
@pytest.mark.sqlite_only
def test_sql_names_what_it_cannot_bind(
    capsys: pytest.CaptureFixture[str], built_db: str, query: str, said: str
) -> None:
    code, out, err = run(capsys, "sql", query, "--db", built_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: ") and said in err and err.count("\n") == 1, err


@pytest.mark.sqlite_only
def test_sql_reads_its_placeholders_only_in_code(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    """A ? or an @ in a string, a quoted name or a comment is no placeholder; nor is a $
    inside a name."""
    query = "SELECT 'a?b@c' AS \"q?\", 1 AS a$b -- ?"
    code, out, _ = run(capsys, "sql", query, "--csv", "--db", built_db)
    assert (code, out) == (0, "q?,a$b\na?b@c,1\n")


def test_sql_int_parameters_are_those_a_database_holds(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    code, out, _ = run(
        capsys, "sql", "SELECT :x AS x", "-p", f"x:int={-(2**63)}", "--csv", "--db", built_db
    )
    assert (code, out) == (0, f"x\n{-(2**63)}\n")
    code, out, err = run(capsys, "sql", "SELECT :x", "-p", f"x:int={2**63}", "--db", built_db)
    assert (code, out) == (2, "")
    assert err == (
        f"error: parameter x: '{2**63}' is out of range: expected an int from "
        f"{-(2**63)} to {2**63 - 1}\n"
    )
    code, _, err = run(capsys, "sql", "SELECT :x", "-p", "x=\udcff", "--db", built_db)
    assert (code, err) == (2, "error: parameter x: not text, it holds bytes that are not UTF-8\n")


def test_a_reading_id_past_what_a_database_holds_says_the_range(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    code, _, err = run(capsys, "reading", str(MAX_ID + 1), "--db", built_db)
    assert (code, err) == (
        2,
        f"error: bad reading id '{MAX_ID + 1}': expected a whole number from 1 to {MAX_ID}\n",
    )


@pytest.mark.parametrize("url", ["foo://bar", "mysql://user@host/db"])
def test_a_database_url_of_another_kind_says_what_is_expected(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    kind = url.split(":")[0]
    for argv in (["readings"], ["sql", "SELECT 1"], ["build"]):
        code, out, err = run(capsys, *argv, "--db", url)
        assert (code, out) == (2, "")
        assert err == (
            f"error: unknown kind of database '{kind}' in the URL: expected a path, "
            "sqlite:///PATH or postgresql+psycopg://USER@HOST/DATABASE\n"
        )


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("row", "said"),
    [
        ('{"lines": "789678", "at": 20261130}', "the value of 'at' is not text: expected a string"),
        ('{"lines": "789678", "tz": 8}', "the value of 'tz' is not text"),
        ('{"lines": ' + "9" * 5000 + "}", "not valid JSON (a number of more than 4,300 digits)"),
    ],
)
def test_json_lines_values_of_the_wrong_type_are_refused(
    capsys: pytest.CaptureFixture[str], sqlite_built_db: str, tmp_path: Path, row: str, said: str
) -> None:
    source = tmp_path / "rows.jsonl"
    source.write_text(row + "\n", encoding="utf-8")
    before = digest(sqlite_built_db)
    code, out, err = run(capsys, "import", str(source), "--db", sqlite_built_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: row 1: ") and said in err, err
    assert digest(sqlite_built_db) == before


def test_concurrent_first_builds_of_one_path_give_one_database(tmp_path: Path) -> None:
    """Three processes build the same new file at once: each builds its own beside it, the
    first to finish gives it the name, the others build on that one (at the head: nothing
    to do). No hidden file is left, and the database is sound."""
    db = tmp_path / "new.db"
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "yimao_db", "build", "--db", str(db)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    said = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], said
    outs = sorted(out.split(": ", 1)[1].split(";")[0] for out, _ in said)
    assert outs[0].startswith("created schema at revision")
    assert all(o.startswith("schema already at head") for o in outs[1:]), outs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.db"]
    assert doctor.check(str(db)) == []


def test_the_html_chart_shows_control_characters_as_escapes(
    capsys: pytest.CaptureFixture[str], fresh_db: str
) -> None:
    """As the text and Markdown charts do: stored text cannot colour a terminal or break a
    line of the page."""
    question = "a\x1b[31mred\nx<b>"
    code, _, _ = run(
        capsys, "cast", "789678", "--pillars", PILLARS, "--question", question, "--db", fresh_db
    )
    assert code == 0
    assert run(capsys, "note", "1", "n\x07ote\u202e", "--db", fresh_db)[0] == 0
    code, out, _ = run(capsys, "reading", "1", "--format", "html", "--db", fresh_db)
    assert code == 0
    assert "<p>Question: a\\x1b[31mred\\nx&lt;b&gt;</p>" in out
    assert "n\\x07ote\\u202e</p>" in out
    assert not any(c in out for c in "\x1b\x07\u202e")
    assert out.count("\n") == 2  # after the doctype, and at the end


@pytest.mark.sqlite_only
def test_the_python_api_refuses_an_empty_moment_too(
    capsys: pytest.CaptureFixture[str], sqlite_built_db: str
) -> None:
    import yimao_db
    from yimao_db.errors import UsageError

    empties: list[dict[str, Any]] = [
        {"pillars": PILLARS, "at": ""},
        {"at": " "},
        {"month": "寅", "day": ""},
    ]
    for empty in empties:
        with pytest.raises(UsageError, match=r"^\w+ is empty: expected a value, or leave it out$"):
            yimao_db.cast("789678", db=sqlite_built_db, **empty)
    assert readings(capsys, sqlite_built_db).count("\n") == 1  # the header alone
