"""Stored text printed for people cannot take over the terminal.

A question (or any stored text) holding ANSI escapes, newlines, tabs, C1 controls or bidi
overrides is stored verbatim and comes back exact in JSON and CSV; the text chart and every
table-format output show those characters as escapes, one row per row.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from helpers import copy_db, run

from yimao_db.present.table import render, terminal_text

PILLARS = "甲辰,丙寅,戊戌,庚申"
HOSTILE = (
    "red \x1b[31mALERT\x1b[0m\nline two\ttab\r\x85\x9b2J\x7f \u202eevil\u202c \u2067iso\u2069 ok"
)
ESCAPED = (
    "red \\x1b[31mALERT\\x1b[0m\\nline two\\ttab\\r\\x85\\x9b2J\\x7f \\u202eevil\\u202c "
    "\\u2067iso\\u2069 ok"
)


def unsafe(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on (newlines between rows aside)."""
    return [
        c
        for c in text
        if c != "\n"
        and (
            unicodedata.category(c) in ("Cc", "Zl", "Zp")
            or 0x202A <= ord(c) <= 0x202E
            or 0x2066 <= ord(c) <= 0x2069
        )
    ]


def test_terminal_text_escapes_controls_and_bidi_overrides() -> None:
    assert terminal_text(HOSTILE) == ESCAPED
    for code in [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]:
        shown = terminal_text(chr(code))
        assert shown.startswith("\\") and not unsafe(shown), hex(code)
    for kept in ("乾為天", "a\\nb", "é", "🀄", " ", "'\""):
        assert terminal_text(kept) == kept


def test_table_rows_stay_one_line_each() -> None:
    table = render(["q", "n"], [[HOSTILE, 1], [None, 2]])
    lines = table.splitlines()
    assert len(lines) == 4 and ESCAPED in lines[2] and not unsafe(table)
    assert render(["q"], [[HOSTILE]], "csv") == f'q\n"{HOSTILE}"\n'


@pytest.fixture
def db_with_question(capsys: pytest.CaptureFixture[str], fresh_db: str) -> str:
    code, out, err = run(
        capsys,
        "cast",
        "789678",
        "--pillars",
        PILLARS,
        "--question",
        HOSTILE,
        "--json",
        "--db",
        fresh_db,
    )
    assert (code, err) == (0, "")
    assert json.loads(out)["question"] == HOSTILE
    return fresh_db


def test_reading_chart_escapes_the_question(
    capsys: pytest.CaptureFixture[str], db_with_question: str
) -> None:
    code, out, err = run(capsys, "reading", "1", "--db", db_with_question)
    assert (code, err) == (0, "")
    assert f"Question: {ESCAPED}\n" in out
    assert not unsafe(out)
    code, out, _ = run(capsys, "reading", "1", "--json", "--db", db_with_question)
    assert json.loads(out)["question"] == HOSTILE


def test_cast_chart_escapes_the_question(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    code, out, err = run(
        capsys, "cast", "789678", "--pillars", PILLARS, "--question", HOSTILE, "--db", fresh_db
    )
    assert (code, err) == (0, "")
    assert f"Question: {ESCAPED}\n" in out and not unsafe(out)


def test_readings_table_escapes_csv_and_json_are_exact(
    capsys: pytest.CaptureFixture[str], db_with_question: str
) -> None:
    from yimao_db.present.readings_list import QUESTION_CELLS
    from yimao_db.present.table import cut

    code, out, _ = run(capsys, "readings", "--db", db_with_question)
    shown = cut(ESCAPED, QUESTION_CELLS)  # the table shows the question cut short
    assert code == 0 and shown.endswith("…") and shown in out and not unsafe(out)
    assert len(out.splitlines()) == 3  # header, rule, one reading
    code, out, _ = run(capsys, "readings", "--csv", "--db", db_with_question)
    [row] = csv.DictReader(io.StringIO(out, newline=""))
    assert row["question"] == HOSTILE
    code, out, _ = run(capsys, "readings", "--json", "--db", db_with_question)
    assert json.loads(out)[0]["question"] == HOSTILE
    code, out, _ = run(capsys, "readings", "--jsonl", "--db", db_with_question)
    assert json.loads(out)["question"] == HOSTILE


def test_sql_table_escapes_csv_is_exact(
    capsys: pytest.CaptureFixture[str], db_with_question: str
) -> None:
    query = "SELECT question FROM v_reading"
    code, out, _ = run(capsys, "sql", query, "--db", db_with_question)
    assert code == 0 and ESCAPED in out and not unsafe(out)
    code, out, _ = run(capsys, "sql", query, "--csv", "--db", db_with_question)
    assert list(csv.reader(io.StringIO(out, newline="")))[1] == [HOSTILE]


@pytest.mark.sqlite_only
def test_schema_and_show_escape_stored_descriptions_and_names(
    capsys: pytest.CaptureFixture[str], built_db: str, tmp_path: Path
) -> None:
    db = copy_db(Path(built_db), tmp_path / "tampered.db")
    con = sqlite3.connect(db)
    con.execute("UPDATE meta_table SET description = ? WHERE name = 'hexagram'", (HOSTILE,))
    con.execute("UPDATE hexagram SET name = ? WHERE king_wen = 44", ("天風姤\x1b[2J",))
    con.commit()
    con.close()
    for argv in (
        ["schema"],
        ["schema", "hexagram"],
        ["show", "44"],
        ["show", "乾", "--kind", "trigram"],
    ):
        code, out, err = run(capsys, *argv, "--db", str(db))
        assert (code, err) == (0, ""), argv
        assert not unsafe(out), argv
    code, out, _ = run(capsys, "schema", "hexagram", "--db", str(db))
    assert out.startswith("hexagram (table, ") and ESCAPED in out.splitlines()[0]
    code, out, _ = run(capsys, "show", "44", "--db", str(db))
    assert out.startswith("天風姤\\x1b[2J (姤)")
    code, out, _ = run(capsys, "schema", "--json", "--db", str(db))
    assert {t["name"]: t["description"] for t in json.loads(out)}["hexagram"] == HOSTILE
