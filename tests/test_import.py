"""``yimao import``: files read as written, bad files refused whole, the write lock held only
to insert, Ctrl-C rolls back, the temporary spool never outlives the command.

Runs on both backends (``fresh_db``). The in-process cases use :func:`yimao_db.cli.main`;
the signal and concurrency cases run ``python -m yimao_db import`` as a real process and
use the test hook ``YIMAO_TEST_IMPORT_PAUSE=STAGE:DIR`` (:mod:`yimao_db.importing`): the
import stops at STAGE (``prepare``: after the first row is prepared, before the write
transaction; ``insert``: after the first batch is inserted, inside it), creates
``DIR/paused`` and waits until ``DIR/go`` exists.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import coins_of, counts, rows, run
from sqlalchemy import Engine, text

from yimao_db.db import reader_engine, writer_engine
from yimao_db.errors import UsageError
from yimao_db.importing import import_file
from yimao_db.readings import chart

AT = "2026-11-30T09:15"
PAUSE_ENV = "YIMAO_TEST_IMPORT_PAUSE"
HEADER = ["lines", "at", "tz", "question"]


@pytest.fixture
def engine(fresh_db: str) -> Iterator[Engine]:
    eng = writer_engine(fresh_db)
    yield eng
    eng.dispose()


def csv_text(rows: list[list[str]], lineterminator: str = "\n") -> str:
    """A CSV file; every field quoted (the csv module would leave a lone CR unquoted)."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator=lineterminator, quoting=csv.QUOTE_ALL)
    writer.writerow(HEADER)
    writer.writerows(rows)
    return buf.getvalue()


def write(path: Path, content: str | bytes) -> Path:
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def snapshot(db: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every reading and every line, as stored."""
    eng = reader_engine(db)
    try:
        with eng.connect() as conn:
            readings = [tuple(r) for r in conn.execute(text("SELECT * FROM reading ORDER BY id"))]
            lines = [
                tuple(r)
                for r in conn.execute(
                    text("SELECT * FROM reading_line ORDER BY reading_id, position")
                )
            ]
    finally:
        eng.dispose()
    return readings, lines


def questions(db: str) -> list[str | None]:
    return [q for (q,) in rows(db, "SELECT question FROM reading ORDER BY id")]


def imported(capsys: pytest.CaptureFixture[str], db: str, path: Path) -> list[int]:
    """``yimao import PATH --ids``: the new ids (fails the test on an error)."""
    code, out, err = run(capsys, "import", str(path), "--ids", "--db", db)
    assert code == 0, err
    return [int(i) for i in out.split()]


def refused(capsys: pytest.CaptureFixture[str], db: str, path: Path) -> str:
    """``yimao import PATH``, which must fail with one ``error:`` line and write nothing."""
    before = snapshot(db)
    code, out, err = run(capsys, "import", str(path), "--db", db)
    assert (code, out) == (2, ""), (code, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert snapshot(db) == before
    return err


# --- the columns, the forms, the API -------------------------------------------------------


def write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["lines", "at", "tz", "question"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return path


CSV_ROWS = [
    {"lines": "789678", "at": AT, "tz": "", "question": "plain"},
    {"lines": "乾之姤", "at": "2026-08-01T10:00", "tz": "Europe/London", "question": 'a, "b"\nc'},
    {"lines": "2,1,3,0,2,2", "at": AT, "tz": "Asia/Shanghai", "question": ""},
    {"lines": "既濟:3,4", "at": AT, "tz": "", "question": "last"},
]


def test_import_csv(tmp_path: Path, engine: Engine) -> None:
    ids = import_file(write_csv(tmp_path / "r.csv", CSV_ROWS), db=engine)
    assert len(ids) == 4 and counts(engine) == (4, 24)
    charts = [chart(i, db=engine) for i in ids]
    assert [c.method for c in charts] == ["values", "notation", "coins", "hexagram"]
    assert [c.question for c in charts] == ["plain", 'a, "b"\nc', None, "last"]
    assert (charts[1].primary_name, charts[1].changed_name, charts[1].tz) == (
        "乾為天",
        "天風姤",
        "Europe/London",
    )
    assert charts[1].cast_at == "2026-08-01T10:00:00+01:00"
    assert charts[0].tz == "Asia/Shanghai"  # an empty tz is the default
    assert [line.value for line in charts[3].lines] == [line.value for line in charts[0].lines]
    assert coins_of(engine, ids[2]) == [2, 1, 3, 0, 2, 2]


def test_import_json_lines(tmp_path: Path, engine: Engine) -> None:
    path = tmp_path / "r.jsonl"
    rows = [
        {"lines": "789678", "at": AT, "tz": "Asia/Shanghai", "question": "q1"},
        {"lines": [9, 6, 7, 8, 7, 8], "at": AT},
        {"lines": 789678, "at": None, "question": None},
        {"lines": "坤", "at": AT, "question": '🀄️ "quoted"', "matter": None},
    ]
    path.write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in rows[:2])
        + "\n\n"
        + "\n".join(json.dumps(r, ensure_ascii=False) for r in rows[2:])
        + "\n",
        encoding="utf-8",
    )
    ids = import_file(path, db=engine)
    assert len(ids) == 4 and counts(engine) == (4, 24)
    charts = [chart(i, db=engine) for i in ids]
    assert [c.question for c in charts] == ["q1", None, None, '🀄️ "quoted"']
    assert [line.value for line in charts[1].lines] == [9, 6, 7, 8, 7, 8]
    assert charts[2].primary_name == "水火既濟" and charts[2].cast_at is not None
    assert charts[3].primary_name == "坤為地"


BAD_ROWS: list[tuple[str, dict[str, Any], str]] = [  # file type, row 3, message
    (".csv", {"lines": "12345", "at": AT, "tz": "", "question": ""}, "bad line values"),
    (".csv", {"lines": "乾", "at": "2026-02-30", "tz": "", "question": ""}, "bad date"),
    (".csv", {"lines": "乾", "at": AT, "tz": "Nowhere/X", "question": ""}, "unknown time"),
    (".csv", {"lines": "2,1,3,0,4,2", "at": AT, "tz": "", "question": ""}, "bad coins"),
    (".csv", {"lines": "", "at": AT, "tz": "", "question": ""}, "the 'lines' column"),
    (".jsonl", {"lines": "12345", "at": AT}, "bad line values"),
    (".jsonl", {"lines": "不存在", "at": AT}, "unknown hexagram"),
    (".jsonl", {"lines": "789678", "at": AT, "question": 42}, "the question must be text"),
]


def test_import_bad_row_writes_nothing(tmp_path: Path, engine: Engine) -> None:
    good = [{"lines": "789678", "at": AT, "tz": "", "question": ""}] * 4
    for n, (suffix, row_3, message) in enumerate(BAD_ROWS):
        rows = [*good[:2], row_3, *good[2:]]
        path = tmp_path / f"bad{n}{suffix}"
        if suffix == ".csv":
            write_csv(path, rows)
        else:
            path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        # CSV: the header is line 1, so row 3 is on line 4; blank-free JSON Lines: line 3
        where = r"row 3 \(line 4\): " if suffix == ".csv" else "row 3: "
        with pytest.raises(UsageError, match=where + message):
            import_file(path, db=engine)
        assert counts(engine) == (0, 0)


BAD_FILES = [  # content, message
    ("", "no readings to import"),
    ("lines,at\n", "no readings to import"),
    ("when,question\n2026-01-01,x\n", r"line 1 \(the header\): unknown column 'when'"),
    ("lines\n789678,extra\n", r"row 1 \(line 2\): 2 fields where the header has 1 \(lines\)"),
    ('{"lines": "789678"}\nnot json\n', "row 2: not valid JSON"),
    ('{"lines": "789678"}\n\n[1, 2]\n', r"row 2 \(line 3\): expected a JSON object"),
]


def test_import_bad_file(tmp_path: Path, engine: Engine) -> None:
    for n, (content, message) in enumerate(BAD_FILES):
        path = tmp_path / f"bad{n}.txt"
        path.write_text(content, encoding="utf-8")
        with pytest.raises(UsageError, match=message):
            import_file(path, db=engine)
        assert counts(engine) == (0, 0)


def test_import_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str, engine: Engine
) -> None:
    path = write_csv(tmp_path / "r.csv", CSV_ROWS)
    code, out, err = run(capsys, "import", str(path), "--ids", "--db", fresh_db)
    assert code == 0 and err.startswith("imported 4 readings (ids 1–4) in ")
    assert out.split() == ["1", "2", "3", "4"]
    bad = write_csv(tmp_path / "bad.csv", [*CSV_ROWS[:2], {"lines": "12345", "at": AT}])
    code, out, err = run(capsys, "import", str(bad), "--db", fresh_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: row 3 (line 5): bad line values '12345'")
    assert counts(engine) == (4, 24)
    code, _, err = run(capsys, "import", str(tmp_path / "none.csv"), "--db", fresh_db)
    assert code == 2 and err.startswith("error: cannot read")


# --- the file is read as written -----------------------------------------------------------


def test_line_breaks_in_quoted_fields_are_kept(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    """CR, CRLF and LF inside a quoted CSV field are stored as they are, exactly what
    ``yimao cast --question`` stores; the file's own line ends may be CRLF."""
    asked = ["a\r\nb", "c\rd", "e\nf", "\r\n", "g\r\n\r\nh\r"]
    cast_ids = []
    for q in asked:
        code, out, err = run(
            capsys, "cast", "789678", "--at", AT, "--json", f"--question={q}", "--db", fresh_db
        )
        assert code == 0, err
        cast_ids.append(json.loads(out)["reading_id"])
    for n, ending in enumerate(("\n", "\r\n")):
        path = write(
            tmp_path / f"q{n}.csv", csv_text([["789678", AT, "", q] for q in asked], ending)
        )
        imported(capsys, fresh_db, path)
    stored = questions(fresh_db)
    assert stored == asked * 3
    assert [s.encode("utf-8") for s in stored if s] == [q.encode("utf-8") for q in asked * 3]


def test_a_field_longer_than_the_csv_default_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    long_question = ("問" + "x" * 99 + "\r\n") * 3000  # 306,000 characters, ~312,000 bytes
    path = write(tmp_path / "long.csv", csv_text([["789678", AT, "", long_question]]))
    imported(capsys, fresh_db, path)
    assert questions(fresh_db) == [long_question]


LINE_ENDS_OF_SPLITLINES = ["\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"]


def test_json_lines_split_on_newline_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    """Characters that ``str.splitlines`` takes for line ends stay inside their string; the
    file's own line ends may be LF or CRLF."""
    asked = [f"before{c}after" for c in LINE_ENDS_OF_SPLITLINES]
    for n, ending in enumerate(("\n", "\r\n")):
        body = "".join(
            json.dumps({"lines": "789678", "at": AT, "question": q}, ensure_ascii=False) + ending
            for q in asked
        )
        assert len(body.splitlines()) > len(asked)  # what used to cut the records
        imported(capsys, fresh_db, write(tmp_path / f"s{n}.jsonl", body))
    assert questions(fresh_db) == asked * 2


def test_byte_order_mark_and_blank_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    body = '\ufeff{"lines": "789678", "at": "2026-11-30T09:15"}\r\n\r\n  \n{"lines": "乾"}'
    assert len(imported(capsys, fresh_db, write(tmp_path / "b.jsonl", body))) == 2
    body = "\ufefflines,at\r\n789678,2026-11-30T09:15\r\n\r\n乾之姤,\r\n"
    assert len(imported(capsys, fresh_db, write(tmp_path / "b.csv", body))) == 2
    assert len(snapshot(fresh_db)[0]) == 4


# --- bad files are refused whole, by row number ---------------------------------------------


def test_an_unclosed_quote_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    good = ["789678", AT, "", "fine"]
    head = csv_text([good, good])
    # row 3 opens a quote that runs to the end of the file, swallowing rows 4-6
    body = (
        head + f'789678,{AT},,"never closed\n' + "".join(f"789678,{AT},,q{i}\n" for i in range(3))
    )
    err = refused(capsys, fresh_db, write(tmp_path / "eof.csv", body))
    assert err.startswith("error: row 3 (line 4): unclosed quote"), err
    # ... or up to a later quote that is followed by more text
    body = head + f'789678,{AT},,"open\n789678,{AT},,"closed" too\n'
    err = refused(capsys, fresh_db, write(tmp_path / "later.csv", body))
    assert err.startswith("error: row 3 (line 4): "), err


def test_deeply_nested_json_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    body = '{"lines": "789678"}\n' + '{"lines": "789678", "question": ' + deep + "}\n"
    err = refused(capsys, fresh_db, write(tmp_path / "deep.jsonl", body))
    assert err.startswith("error: row 2: nested too deeply"), err
    body = '{"lines": "789678", "question": "' + "x" + '", "n": ' + "9" * 5000 + "}\n"
    err = refused(capsys, fresh_db, write(tmp_path / "bigint.jsonl", body))
    assert err.startswith("error: row 1: not valid JSON"), err


def test_bytes_that_are_not_utf8_are_refused_by_row(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    rows = csv_text([["789678", AT, "", "ok"]] * 4).encode("utf-8")
    lines = rows.split(b"\n")
    lines[3] = lines[3].replace(b"ok", b"o\xff")  # row 3, line 4
    err = refused(capsys, fresh_db, write(tmp_path / "bad.csv", b"\n".join(lines)))
    assert err.startswith("error: row 3 (line 4): not UTF-8 text"), err
    body = b'{"lines": "789678"}\n\n{"lines": "789678", "question": "\xc3("}\n'
    err = refused(capsys, fresh_db, write(tmp_path / "bad.jsonl", body))
    assert err.startswith("error: row 2 (line 3): not UTF-8 text"), err


@pytest.mark.parametrize("where", [1, 1500, 3000])
def test_a_bad_row_anywhere_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str, where: int
) -> None:
    """Batches of good rows before the bad one are not stored either."""
    rows = [["789678", "", "", f"q{i}"] for i in range(1, 3001)]
    rows[where - 1][0] = "12345"
    err = refused(capsys, fresh_db, write(tmp_path / "r.csv", csv_text(rows)))
    assert err.startswith(f"error: row {where} (line {where + 1}): bad line values"), err


def test_a_question_too_long_to_store_is_refused_by_row(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fresh_db: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past what the database can hold (10⁹ bytes; lowered here) a question is refused with
    its row, as ``cast`` refuses it, instead of failing the insert."""
    from yimao_db import readings

    monkeypatch.setattr(readings, "QUESTION_MAX_BYTES", 10)
    rows = [["789678", AT, "", "ten bytes!"], ["789678", AT, "", "十一 bytes"]]
    err = refused(capsys, fresh_db, write(tmp_path / "long.csv", csv_text(rows)))
    assert err == "error: row 2 (line 3): the question is 12 bytes long: at most 10 can be stored\n"
    code, _, err = run(capsys, "cast", "789678", "--question", "十一 bytes", "--db", fresh_db)
    assert code == 2 and err.startswith("error: the question is 12 bytes long")


def test_a_missing_file_and_a_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    assert refused(capsys, fresh_db, tmp_path / "none.csv").startswith("error: cannot read")
    assert refused(capsys, fresh_db, tmp_path) == (
        f"error: cannot read {tmp_path}: it is a directory; expected a regular file, or - for"
        " standard input\n"
    )


# --- the columns are exactly lines, at, tz, question, matter -----------------------------------

EXPECTED = "expected the columns lines, at, tz, question, matter, about (lines required)"
EXPECTED_KEYS = "expected the keys lines, at, tz, question, matter, about (lines required)"
TWICE = "twice in an object: expected each key once"
HEADERS = [  # a header that is nearly right, or wrong, and what the error says of it
    ("lines, at, tz", "unknown column ' at' (did you mean 'at'?)"),
    ("lines,At", "unknown column 'At' (did you mean 'at'?)"),
    ("Lines,at", "unknown column 'Lines' (did you mean 'lines'?)"),
    ("lines,at,time", "unknown column 'time'"),
    ("lines,questoin", "unknown column 'questoin' (did you mean 'question'?)"),
    ("lines,at,", "column 3 has no name"),
    ("lines,at,at", "the column 'at' appears twice"),
    ("lines,lines", "the column 'lines' appears twice"),
    ("at,tz", "no 'lines' column"),
    ("lines," + "x" * 100, f"unknown column {'x' * 40!r}… (100 characters)"),
]


def test_headers_nearly_right_or_wrong_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    """A column that is not exactly one of the five, or appears twice, is an error: the
    reading would otherwise be cast at the moment of the import, silently."""
    for n, (header, message) in enumerate(HEADERS):
        fields = header.strip().split(",")
        row = ",".join(["789678", AT, "Asia/Shanghai", "", ""][: len(fields)])
        path = write(tmp_path / f"h{n}.csv", f"\n{header}\n{row}\n")
        err = refused(capsys, fresh_db, path)
        assert err == f"error: line 2 (the header): {message}: {EXPECTED}\n", header


JSON_KEYS = [  # the keys after "lines" in a row of JSON Lines, and the error they get
    ('"At": "2026-11-30"', f"unknown key 'At' (did you mean 'at'?): {EXPECTED_KEYS}"),
    ('" at": "2026-11-30"', f"unknown key ' at' (did you mean 'at'?): {EXPECTED_KEYS}"),
    ('"note": "x"', f"unknown key 'note': {EXPECTED_KEYS}"),
    ('"at": "2026-11-30", "tz": "UTC", "at": "2026-12-01"', f"the key 'at' appears {TWICE}"),
    ('"lines": "乾"', f"the key 'lines' appears {TWICE}"),
]


def test_json_keys_nearly_right_or_twice_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    good = '{"lines": "789678", "at": "2026-11-30T09:15", "tz": "Asia/Shanghai"}\n'
    for n, (keys, message) in enumerate(JSON_KEYS):
        row = '{"lines": "789678", ' + keys + "}"
        path = write(tmp_path / f"k{n}.jsonl", good + "\n" + row + "\n")
        assert refused(capsys, fresh_db, path) == f"error: row 2 (line 3): {message}\n", row


def test_short_rows_and_a_file_cut_off_mid_row_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    head = f"lines,at,tz\n789678,{AT},Asia/Shanghai\n"
    expected = "where the header has 3 (lines, at, tz)"
    err = refused(capsys, fresh_db, write(tmp_path / "short.csv", head + f"789678,{AT}\n"))
    assert err == f"error: row 2 (line 3): 2 fields {expected}\n"
    err = refused(capsys, fresh_db, write(tmp_path / "one.csv", head + "789678\n"))
    assert err == f"error: row 2 (line 3): 1 field {expected}\n"
    err = refused(capsys, fresh_db, write(tmp_path / "cut.csv", head + f"789678,{AT[:7]}"))
    assert err == (
        f"error: row 2 (line 3): the file ends in the middle of the row: 2 fields {expected}\n"
    )
    body = f'{{"lines": "789678", "at": "{AT}"}}\n{{"lines": "789678", "at": "2026-'
    err = refused(capsys, fresh_db, write(tmp_path / "cut.jsonl", body))
    assert err.startswith("error: row 2: not valid JSON (Unterminated string"), err
    assert err.endswith("; the file ends in the middle of the row)\n"), err
    # a complete last row without a line end is a row like any other
    assert len(imported(capsys, fresh_db, write(tmp_path / "ok.csv", head.rstrip("\n")))) == 1


# --- only a regular file or standard input; rows and fields of bounded size ----------------------


def run_import(
    argv: list[str], db: str, stdin: Any = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """``python -m yimao_db import ARGV --db DB`` as a process with at most 1 GiB of address
    space (an import that reads without bound ends there); a hang fails after 5 minutes."""
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    return subprocess.run(
        [sys.executable, "-m", "yimao_db", "import", *argv, "--db", db],
        env=child_env(),
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=cap,
    )


def test_what_is_not_a_regular_file_is_refused_unread(tmp_path: Path, fresh_db: str) -> None:
    """A device grows an import without bound and a FIFO without a writer hangs it: both are
    refused before anything is read."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, kind in (("/dev/zero", "a character device"), (fifo, "a FIFO (named pipe)")):
        done = run_import([str(path)], fresh_db)
        assert (done.returncode, done.stdout) == (2, ""), done
        assert done.stderr == (
            f"error: cannot read {path}: it is {kind}; expected a regular file, or - for"
            " standard input\n"
        )
    assert snapshot(fresh_db) == ([], [])


def test_standard_input(tmp_path: Path, fresh_db: str) -> None:
    """``-`` (or /dev/stdin) reads standard input, a pipe or a file; JSON Lines is told by
    its first '{' there too."""
    body = f"lines,at\n789678,{AT}\n"
    done = subprocess.run(
        [sys.executable, "-m", "yimao_db", "import", "-", "--ids", "--db", fresh_db],
        env=child_env(),
        input=body,
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stdout) == (0, "1\n"), done
    lines = "\n\n  " + json.dumps({"lines": "乾", "at": AT}) + "\n"
    for name in ("-", "/dev/stdin"):
        done = subprocess.run(
            [sys.executable, "-m", "yimao_db", "import", name, "--ids", "--db", fresh_db],
            env=child_env(),
            input=lines,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done
    with write(tmp_path / "r.csv", body).open("rb") as stdin:
        done = run_import(["/dev/stdin"], fresh_db, stdin=stdin)
    assert done.returncode == 0, done
    closed = subprocess.run(  # standard input closed: one error line, not a crash
        f'exec 0<&-; exec "{sys.executable}" -m yimao_db import - --db "{fresh_db}"',
        shell=True,
        env=child_env(),
        capture_output=True,
        text=True,
    )
    assert (closed.returncode, closed.stderr) == (
        2,
        "error: cannot read standard input: it is closed\n",
    )
    names = [chart(i, db=fresh_db).primary_name for i in range(1, 5)]
    assert names == ["水火既濟", "乾為天", "乾為天", "水火既濟"]


def test_endless_input_is_refused_by_its_size(fresh_db: str) -> None:
    """Standard input from /dev/zero: no line end, ever. Refused at 8,000,000 characters."""
    with open("/dev/zero", "rb") as zero:
        done = run_import(["-"], fresh_db, stdin=zero)
    assert (done.returncode, done.stdout) == (2, ""), done
    assert done.stderr == (
        "error: line 1 (the header): longer than 8,000,000 characters, the most a row may hold"
        " (is it a CSV or JSON Lines file?)\n"
    )
    assert snapshot(fresh_db) == ([], [])


def test_rows_and_fields_over_the_limits(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fresh_db: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A field holds at most FIELD_LIMIT characters, a row (a CSV record, which may span
    lines, or a JSON line) ROW_LIMIT; both lowered here. At the limit is fine."""
    from yimao_db.importing import files

    monkeypatch.setattr(files, "FIELD_LIMIT", 100)
    monkeypatch.setattr(files, "ROW_LIMIT", 300)
    monkeypatch.setattr(files, "FIELD_TOO_LONG", "is too long")
    monkeypatch.setattr(files, "ROW_TOO_LONG", "too long")
    good = ["789678", AT, "", "q" * 100]
    assert len(imported(capsys, fresh_db, write(tmp_path / "ok.csv", csv_text([good])))) == 1
    body = csv_text([good, ["789678", AT, "", "q" * 101]])
    assert refused(capsys, fresh_db, write(tmp_path / "f.csv", body)).startswith(
        "error: row 2 (line 3): a field is too long (or a quote left open"
    )
    spread = ",".join(['"' + "x" * 50 + '\n"'] * 6)  # fields within the limit, on 7 lines
    body = csv_text([good]) + spread + "\n"
    assert refused(capsys, fresh_db, write(tmp_path / "r.csv", body)) == (
        "error: row 2 (line 3): too long\n"
    )
    row = json.dumps({"lines": "789678", "question": "q" * 100})
    assert len(imported(capsys, fresh_db, write(tmp_path / "ok.jsonl", row + "\n"))) == 1
    row = json.dumps({"lines": "789678", "question": "q" * 101})
    err = refused(capsys, fresh_db, write(tmp_path / "f.jsonl", row + "\n"))
    assert err == "error: row 1: the value of 'question' is too long\n"
    row = json.dumps({"lines": "789678", "question": "\u554f" * 100})  # 600 characters escaped
    err = refused(capsys, fresh_db, write(tmp_path / "r.jsonl", row + "\n"))
    assert err == "error: row 1: too long\n"
    err = refused(capsys, fresh_db, write(tmp_path / "b.jsonl", " " * 400 + "\n"))
    assert err == "error: line 1: too long\n"
    err = refused(capsys, fresh_db, write(tmp_path / "l.csv", "lines\n" + "7" * 400 + "\n"))
    assert err == "error: row 1 (line 2): too long\n"
    assert len(snapshot(fresh_db)[0]) == 2


# --- the same rows as a cast ------------------------------------------------------------------

FORMS = ["789678", "乾之姤", "天风姤:1,4", "2,1,3,0,2,2", "44", "011111", "The Creative", "既濟"]


def test_import_stores_what_cast_stores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str
) -> None:
    moments = [
        ("2026-11-30T09:15", ""),
        ("1988-07-01T12:00", ""),
        ("2026-08-01T10:00", "Europe/London"),
    ]
    rows = [[f, at, tz, f"{f}?"] for f in FORMS for at, tz in moments]
    for lines, at, tz, q in rows:
        extra = ["--tz", tz] if tz else []
        argv = ["cast", "--at", at, *extra, f"--question={q}", "--db", fresh_db]
        if lines.count(",") == 5:
            argv[1:1] = ["--coins", lines]
        else:
            argv[1:1] = [lines]
        code, _, err = run(capsys, *argv)
        assert code == 0, err
    ids = imported(capsys, fresh_db, write(tmp_path / "same.csv", csv_text(rows)))
    assert len(ids) == len(rows)
    readings, lines_ = snapshot(fresh_db)
    cast_part, import_part = readings[: len(rows)], readings[len(rows) :]
    strip = [tuple(r[2:]) for r in cast_part]  # without id and created_at
    assert strip == [tuple(r[2:]) for r in import_part]
    by_reading: dict[int, list[tuple[Any, ...]]] = {}
    for line in lines_:
        by_reading.setdefault(line[0], []).append(tuple(line[1:]))
    first = [r[0] for r in cast_part]
    assert [by_reading[i] for i in first] == [by_reading[i] for i in ids]


def test_reading_rows_fill_every_column() -> None:
    """The rows both cast and import store cover the tables (all but the keys and clock)."""
    from yimao_db.kb.schema.readings import reading as reading_table
    from yimao_db.kb.schema.readings import reading_line
    from yimao_db.readings import LINE_COLUMNS, READING_COLUMNS

    reading = {c.name for c in reading_table.columns} - {"id", "created_at"}
    assert sorted(READING_COLUMNS) == sorted(reading)
    line = {c.name for c in reading_line.columns} - {"reading_id"}
    assert sorted(LINE_COLUMNS) == sorted(line)


def test_hexagram_names_need_no_query_per_row(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fresh_db: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Names resolve through name_alias read once per import, not one lookup per row."""
    from yimao_db import lookup

    def no_lookup(*_: Any) -> None:
        raise AssertionError("a name_alias query per row")

    monkeypatch.setattr(lookup, "resolve", no_lookup)
    rows = [[f, AT, "", ""] for f in FORMS] * 3
    assert len(imported(capsys, fresh_db, write(tmp_path / "n.csv", csv_text(rows)))) == 24
    err = refused(capsys, fresh_db, write(tmp_path / "bad.csv", csv_text([["不存在", AT, "", ""]])))
    assert err.startswith("error: row 1 (line 2): unknown hexagram '不存在'"), err


# --- output -------------------------------------------------------------------------------------


def test_summary_and_ids(capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str) -> None:
    path = write(tmp_path / "r.csv", csv_text([["789678", AT, "", ""]] * 3))
    code, out, err = run(capsys, "import", str(path), "--db", fresh_db)
    assert (code, err) == (0, "")
    assert out.startswith("imported 3 readings (ids 1–3) in ") and out.endswith(" s\n"), out
    assert out.count("\n") == 1
    code, out, err = run(capsys, "import", str(path), "--ids", "--db", fresh_db)
    assert code == 0
    assert out == "4\n5\n6\n"
    assert err.startswith("imported 3 readings (ids 4–6) in "), err
    one = write(tmp_path / "one.jsonl", '{"lines": "乾"}\n')
    code, out, err = run(capsys, "import", str(one), "--db", fresh_db)
    assert code == 0 and out.startswith("imported 1 reading (id 7) in "), out


def test_ctrl_c_after_the_report_changes_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fresh_db: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Ctrl-C that lands after the commit and the summary (here: while the engine is
    closed) is not reported as an interruption: the import is complete."""
    from yimao_db.commands import readings as commands

    made = commands.built_writer

    def interrupted_on_dispose(db: str | None) -> Engine:
        engine = made(db)
        real = engine.dispose

        def dispose(close: bool = True) -> None:
            real(close)
            raise KeyboardInterrupt

        monkeypatch.setattr(engine, "dispose", dispose)
        return engine

    monkeypatch.setattr(commands, "built_writer", interrupted_on_dispose)
    path = write(tmp_path / "r.csv", csv_text([["789678", AT, "", ""]] * 2))
    code, out, err = run(capsys, "import", str(path), "--db", fresh_db)
    assert (code, err) == (0, ""), err
    assert out.startswith("imported 2 readings (ids 1–2) in ")
    assert len(snapshot(fresh_db)[0]) == 2


# --- the write lock, Ctrl-C and the spool: real processes --------------------------------------


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("YIMAO_")}
    return {**env, **extra}


def start_import(
    path: Path, db: str, spool_dir: Path, pause: str | None = None
) -> subprocess.Popen[str]:
    spool_dir.mkdir(exist_ok=True)
    env = child_env(TMPDIR=str(spool_dir))
    if pause is not None:
        env[PAUSE_ENV] = pause
    return subprocess.Popen(
        [sys.executable, "-m", "yimao_db", "import", str(path), "--ids", "--db", db],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


PAUSED_ROWS = 2500  # two batches: the insert pause comes with a batch still to go


def paused_import(tmp_path: Path, db: str, stage: str) -> tuple[subprocess.Popen[str], Path]:
    """An import of PAUSED_ROWS readings started and paused at STAGE: (the process, the
    hook directory); its spool directory is ``tmp_path / "spool"``."""
    hook = tmp_path / "hook"
    hook.mkdir()
    path = write(tmp_path / "r.csv", csv_text(many_rows(PAUSED_ROWS)))
    proc = start_import(path, db, tmp_path / "spool", pause=f"{stage}:{hook}")
    try:
        wait_paused(proc, hook)
    except BaseException:
        proc.kill()
        raise
    return proc, hook


def wait_paused(proc: subprocess.Popen[str], hook_dir: Path) -> None:
    """Until the import reaches its pause; fails if it ends first."""
    deadline = time.monotonic() + 300
    while not (hook_dir / "paused").exists():
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the import ended without pausing ({proc.returncode}): {out} {err}")
        assert time.monotonic() < deadline, "the import never paused"
        time.sleep(0.02)


def wait_reading(proc: subprocess.Popen[str], path: Path) -> None:
    """Until process PROC has the file PATH open (or has ended)."""
    fds = Path(f"/proc/{proc.pid}/fd")
    while proc.poll() is None:
        try:
            if any(os.readlink(fd) == str(path) for fd in fds.iterdir()):
                return
        except OSError:  # a descriptor closed while we looked
            pass
        time.sleep(0.01)


def spool_files(pid: int, spool_dir: Path) -> list[str]:
    """The files in SPOOL_DIR that process PID has open."""
    found = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith(str(spool_dir) + "/"):
            found.append(target)
    return found


def open_deleted_files() -> set[str]:
    return {
        target
        for fd in Path("/proc/self/fd").iterdir()
        if (target := os.readlink(fd) if fd.exists() else "").endswith(" (deleted)")
    }


def test_the_spool_spills_to_a_file_without_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its page cache the spool is a temporary file that SQLite unlinked on opening;
    closing the spool closes it."""
    import sqlite3

    from yimao_db.importing import spool as spool_module

    monkeypatch.setattr(spool_module, "CACHE_KIB", 64)
    before = open_deleted_files()
    dbapi = sqlite3.connect(":memory:", isolation_level=None)
    spool = spool_module.Spool(dbapi)
    lines = tuple((p, 7, None) for p in range(1, 7))
    row = (
        (
            "q" * 100,
            "values",
            "789678",
            *["x"] * 10,
            "fixed",
            None,
            None,
            None,
            1,
            None,
            0,
            "冬至後",
        ),
        lines,
    )
    for _ in range(3000):
        spool.add(row)
    spool.finish()
    spilled = open_deleted_files() - before
    assert spilled, "the spool never left memory"
    assert spool.rows(3000, 3000) == ([(3000, row[0])], [(3000, *line) for line in lines])
    spool.close()
    assert not open_deleted_files() & spilled
    dbapi.close()


def many_rows(n: int, seed: int = 7) -> list[list[str]]:
    rng = random.Random(seed)
    return [
        [
            "".join(rng.choice("6789") for _ in range(6)),
            f"{rng.randint(1901, 2099)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f"T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
            "",
            f"question {i}",
        ]
        for i in range(n)
    ]


def test_progress_only_on_a_terminal(tmp_path: Path, fresh_db: str) -> None:
    """With stderr on a terminal the import shows its progress there, then clears the line;
    stdout has the summary only (stderr off a terminal is tested above: empty)."""
    import pty

    path = write(tmp_path / "r.csv", csv_text(many_rows(2500)))
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "yimao_db", "import", str(path), "--db", fresh_db],
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    out, _ = proc.communicate(timeout=600)
    os.close(leader)
    assert proc.returncode == 0
    assert out.startswith("imported 2500 readings (ids 1–2500) in ")
    screen = shown.decode("utf-8")
    assert "\rpreparing 2,000 readings…" in screen, screen
    assert screen.endswith("\r\x1b[K"), screen  # the progress line is cleared at the end


def test_a_cast_during_preparation_is_not_blocked(tmp_path: Path, fresh_db: str) -> None:
    """The import prepares every row before it takes the write lock: a cast made while it
    prepares commits first, so its id is below every imported id."""
    proc, hook = paused_import(tmp_path, fresh_db, "prepare")
    try:
        eng = writer_engine(fresh_db)
        try:
            from yimao_db.readings import cast

            cast_id = cast("789678", at=AT, question="during the import", db=eng)
        finally:
            eng.dispose()
        (hook / "go").touch()
        out, err = proc.communicate(timeout=600)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    ids = [int(i) for i in out.split()]
    assert len(ids) == PAUSED_ROWS and cast_id < min(ids)
    assert questions(fresh_db)[0] == "during the import"


def test_readers_see_nothing_until_the_commit(tmp_path: Path, fresh_db: str) -> None:
    proc, hook = paused_import(tmp_path, fresh_db, "insert")
    try:  # the first batch is inserted, not committed
        assert snapshot(fresh_db) == ([], [])
        (hook / "go").touch()
        out, err = proc.communicate(timeout=600)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert len(snapshot(fresh_db)[0]) == PAUSED_ROWS == len(out.split())


@pytest.mark.parametrize("stage", ["prepare", "insert"])
def test_ctrl_c_writes_nothing_and_removes_the_spool(
    tmp_path: Path, fresh_db: str, stage: str
) -> None:
    from yimao_db.readings import cast

    cast("乾", at=AT, db=fresh_db)
    before = snapshot(fresh_db)
    spool = tmp_path / "spool"
    proc, _ = paused_import(tmp_path, fresh_db, stage)
    try:
        open_spools = spool_files(proc.pid, spool)  # none while the spool fits in its cache
        assert all(s.endswith(" (deleted)") for s in open_spools), open_spools
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (130, "", "interrupted\n")
    assert snapshot(fresh_db) == before
    assert list(spool.iterdir()) == []


def test_kill_9_while_inserting_writes_nothing(tmp_path: Path, fresh_db: str) -> None:
    """SIGKILL inside the write transaction: the next reader sees the database as before,
    the next import works, and the spool's file is gone with the process."""
    before = snapshot(fresh_db)
    spool = tmp_path / "spool"
    proc, _ = paused_import(tmp_path, fresh_db, "insert")
    proc.kill()
    proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert snapshot(fresh_db) == before
    assert list(spool.iterdir()) == []
    proc = start_import(tmp_path / "r.csv", fresh_db, spool)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    ids = [int(i) for i in out.split()]
    assert len(ids) == PAUSED_ROWS and ids == sorted(set(ids))
    if os.environ.get("YIMAO_TEST_BACKEND", "sqlite") == "sqlite":
        assert ids == list(range(1, PAUSED_ROWS + 1))  # PostgreSQL: the killed import used up ids


def test_ctrl_c_at_random_moments(tmp_path: Path, fresh_db: str) -> None:
    """Interrupted anywhere: exit 130 with nothing written; or, when the signal comes after
    the commit began (too late), the whole file stored and reported."""
    before = snapshot(fresh_db)
    path = write(tmp_path / "r.csv", csv_text(many_rows(3000)))
    rng = random.Random(3)
    spool = tmp_path / "spool"
    for run_no in range(4):
        proc = start_import(path, fresh_db, spool)
        wait_reading(proc, path)  # past Python's start-up: the command is running
        time.sleep(rng.uniform(0.0, 3.0))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=600)
        assert "Traceback" not in err
        now = snapshot(fresh_db)
        if proc.returncode == 130:
            assert (out, err) == ("", "interrupted\n")
            assert now == before
        else:  # done before the signal; or it came as the process exited (killed by SIGINT)
            assert proc.returncode in (0, -signal.SIGINT), err
            assert err.startswith("imported 3000 readings"), err
            assert len(out.split()) == 3000 and len(now[0]) == len(before[0]) + 3000
            before = now
        assert list(spool.iterdir()) == [], run_no


def test_a_spool_whose_connection_was_closed_closes_quietly() -> None:
    """A Ctrl-C in the middle of a statement makes SQLAlchemy close the connection the spool
    is attached to; closing the spool afterwards must not replace the interrupt with an
    error of its own (it did: 'Cannot operate on a closed database', exit 70)."""
    import sqlite3

    from yimao_db.importing.spool import Spool

    dbapi = sqlite3.connect(":memory:", isolation_level=None)
    spool = Spool(dbapi)
    dbapi.close()
    spool.close()
