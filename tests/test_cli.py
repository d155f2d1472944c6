"""The ``yimao`` command line, run in-process (plus one real subprocess for the entry point)."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import as_a_command, ctrl_c, run

from yimao_db.cli import main
from yimao_db.db import ENV_VAR
from yimao_db.finding import find_readings

YANG = "━━━━━━━"
YIN = "━━━ ━━━"


def line_rows(layout: str) -> dict[int, str]:
    """The six line rows of a ``show`` layout, keyed by position, in printed order."""
    rows = {}
    for row in layout.splitlines():
        parts = row.split()
        if len(parts) >= 2 and parts[0] in "123456" and len(parts[0]) == 1:
            rows[int(parts[0])] = row
    return rows


# --- build --------------------------------------------------------------------------------


def test_build_creates_then_reports_unchanged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "y.db"
    code, out, err = run(capsys, "build", "--db", str(db))
    assert (code, err) == (0, "")
    assert out.startswith(f"{db}: created schema at revision ")
    assert "inserted" in out and "unchanged" not in out
    assert db.is_file()
    code, out, err = run(capsys, "build", "--db", str(db))
    assert (code, err) == (0, "")
    assert "schema already at head" in out
    assert "reference data unchanged" in out
    assert "created" not in out and "inserted" not in out


def test_build_into_a_missing_directory(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "build", "--db", "/nonexistent-dir/x.db")
    assert code == 2
    assert out == ""
    assert err.startswith("error: ")
    assert "/nonexistent-dir" in err and "does not exist" in err
    assert "Traceback" not in err
    assert not Path("/nonexistent-dir").exists()


def test_build_onto_a_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "adir"
    target.mkdir()
    code, out, err = run(capsys, "build", "--db", str(target))
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and "is a directory" in err
    assert "Traceback" not in err
    assert list(target.iterdir()) == []


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores file permissions"
)
def test_build_into_a_read_only_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = run(capsys, "build", "--db", str(locked / "x.db"))
    finally:
        locked.chmod(0o700)
    assert code == 2
    assert err.startswith("error: ") and "not writable" in err
    assert not (locked / "x.db").exists()


def test_default_database_is_yimao_db_in_the_working_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "build")
    assert code == 0
    assert (tmp_path / "yimao.db").is_file()
    assert out.startswith(f"{tmp_path / 'yimao.db'}: created schema")
    code, out, _ = run(capsys, "show", "姤")
    assert code == 0 and out.startswith("天風姤 (姤)")


def test_env_var_chooses_the_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "from-env.db"
    monkeypatch.setenv(ENV_VAR, str(target))
    code, out, _ = run(capsys, "build")
    assert code == 0
    assert target.is_file()
    assert not (tmp_path / "yimao.db").exists()
    assert out.startswith(f"{target}: created schema")
    code, out, _ = run(capsys, "show", "44")
    assert code == 0 and out.startswith("天風姤 (姤)")
    # --db wins over the environment
    other = tmp_path / "other.db"
    code, _, _ = run(capsys, "build", "--db", str(other))
    assert code == 0 and other.is_file()


# --- show ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gou_layout(built_db: str) -> str:
    return _show(built_db, "姤")


def _show(db: str, typed: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["show", typed, "--db", db])
    assert (code, err.getvalue()) == (0, "")
    return out.getvalue()


@pytest.mark.parametrize("typed", ["天风姤", "天風姤", "44", "011111", " 姤 "])
def test_show_accepts_every_form(built_db: str, gou_layout: str, typed: str) -> None:
    assert _show(built_db, typed) == gou_layout


def test_show_layout(gou_layout: str) -> None:
    head = gou_layout.splitlines()[:2]
    assert head[0] == "天風姤 (姤) · King Wen 44 · bits 011111 (bottom first)"
    assert "乾宮 一世" in head[1] and "palace element 金" in head[1]
    assert "world 1 response 4" in head[1] and "太白" in head[1]
    assert "卦身 午" in head[1] and "世身 line 2" in head[1]
    rows = line_rows(gou_layout)
    assert list(rows) == [6, 5, 4, 3, 2, 1]
    assert [n for n, row in rows.items() if "世" in row] == [1]
    assert [n for n, row in rows.items() if "應" in row] == [4]
    assert [n for n, row in rows.items() if "伏" in row] == [2]
    assert "伏 妻財 甲寅" in rows[2]
    assert YIN in rows[1] and all(YANG in rows[n] for n in range(2, 7))
    expected = {
        6: "父母 壬戌 土",
        5: "兄弟 壬申 金",
        4: "官鬼 壬午 火",
        3: "兄弟 辛酉 金",
        2: "子孫 辛亥 水",
        1: "父母 辛丑 土",
    }
    for n, text in expected.items():
        assert text in rows[n]
    assert rows[1].split()[-1] == "亢" and rows[5].split()[-1] == "箕"


def test_show_qian_layout(built_db: str) -> None:
    rows = line_rows(_show(built_db, "乾為天"))
    assert list(rows) == [6, 5, 4, 3, 2, 1]
    assert [n for n, row in rows.items() if "世" in row] == [6]
    assert [n for n, row in rows.items() if "應" in row] == [3]
    assert not any("伏" in row for row in rows.values())


def test_show_json(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = run(capsys, "show", "乾", "--json", "--db", built_db)
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["king_wen"], data["name"], data["bits"]) == (1, "乾為天", "111111")
    assert (data["world"], data["response"], data["gua_shen"]) == (6, 3, "巳")
    assert len(data["lines"]) == 6
    assert [ln["position"] for ln in data["lines"]] == [1, 2, 3, 4, 5, 6]
    assert " ".join(ln["ganzhi"] for ln in data["lines"]) == "甲子 甲寅 甲辰 壬午 壬申 壬戌"
    assert data["hidden"] == []


def test_show_json_hidden(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, _ = run(capsys, "show", "姤", "--json", "--db", built_db)
    assert code == 0
    hidden = json.loads(out)["hidden"]
    assert [(h["position"], h["relative"], h["ganzhi"]) for h in hidden] == [(2, "妻財", "甲寅")]


def test_show_unknown_name(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = run(capsys, "show", "不存在", "--db", built_db)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ")
    assert "不存在" in err
    for accepted in ("King Wen", "1..64", "bits", "simplified"):
        assert accepted in err
    assert "Traceback" not in err


@pytest.mark.parametrize("typed", ["0", "65", "0111111", "1111112"])
def test_show_out_of_range(capsys: pytest.CaptureFixture[str], built_db: str, typed: str) -> None:
    code, out, err = run(capsys, "show", typed, "--db", built_db)
    assert (code, out) == (2, "")
    assert err.startswith("error: unknown hexagram")


def test_show_without_a_database(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    code, out, err = run(capsys, "show", "乾", "--db", str(missing))
    assert code == 2
    assert out == ""
    assert err.startswith("error: ")
    assert str(missing) in err and "yimao build" in err
    assert "Traceback" not in err
    assert not missing.exists()
    assert list(tmp_path.iterdir()) == []


def test_show_on_an_empty_file_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    code, _, err = run(capsys, "show", "乾", "--db", str(empty))
    assert code == 2
    assert err.startswith("error: ") and "yimao build" in err
    assert "Traceback" not in err
    assert empty.stat().st_size == 0


@pytest.mark.parametrize("command", ["show", "build"])
def test_a_file_that_is_not_a_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    junk = tmp_path / "notes.db"
    junk.write_text("not a database, just some notes that happen to end in .db\n")
    before = junk.read_bytes()
    argv = ["show", "乾"] if command == "show" else ["build"]
    try:
        code, _, err = run(capsys, *argv, "--db", str(junk))
    finally:
        assert junk.read_bytes() == before  # never overwritten, whatever happens
    assert code == 2
    assert err.startswith("error: ") and "not a database" in err
    assert "Traceback" not in err


# --- usage errors -------------------------------------------------------------------------


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "frobnicate")
    assert code == 2
    assert out == ""
    assert "error: " in err and "frobnicate" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["cast", "789678", "--bogus"], "unrecognized arguments: --bogus; see `yimao cast --help`"),
        (["-x", "cast", "789678"], "unrecognized arguments: -x; see `yimao --help`"),
        (["stats", "--by", "nonsense"], "(choose from 'all', "),
        (["show"], "the following arguments are required: hexagram_or_name; see `yimao show"),
    ],
)
def test_a_usage_error_is_one_line_naming_the_help(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    """What argparse refuses is one line like any refused input (no usage lines before it),
    naming the help of the command the error belongs to."""
    code, out, err = run(capsys, *argv)
    assert (code, out, err.count("\n")) == (2, "", 1), err
    assert err.startswith("error: ") and said in err, err


def test_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2
    assert "error: " in err


def test_show_needs_a_hexagram(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, _, err = run(capsys, "show", "--db", built_db)
    assert code == 2
    assert "error: " in err and "hexagram" in err


@pytest.mark.parametrize("command", ["show", "build"])
def test_unloadable_database_url(capsys: pytest.CaptureFixture[str], command: str) -> None:
    argv = ["show", "乾"] if command == "show" else ["build"]
    code, _, err = run(capsys, *argv, "--db", "nosuchdriver+x://")
    assert code == 2
    assert err.startswith("error: ") and "nosuchdriver" in err
    assert "Traceback" not in err


def test_postgresql_url_without_its_driver(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", "乾", "--db", "postgresql+pg8000://localhost/x")
    assert code == 2
    assert err.startswith("error: ") and "driver" in err


def test_help_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    """--help is a command that is done once it has printed: status 0, as --version."""
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "build" in out and "show" in out


def test_python_dash_m_entry_point(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "yimao_db", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: yimao")
    assert "build" in proc.stdout and "show" in proc.stdout
    assert list(tmp_path.iterdir()) == []


# --- Ctrl-C, unexpected errors, huge numbers ------------------------------------------------

PILLARS = "甲辰,丙寅,戊戌,庚申"


def _readings(db: str) -> int:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT COUNT(*) FROM reading_line").fetchone()[0])
    finally:
        con.close()


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``run``, but Ctrl-C escaping ``main`` fails the test instead of stopping pytest."""
    try:
        return run(capsys, *argv)
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt escaped yimao_db.cli.main")


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> None:
    """Make ``module.name`` do its work and then raise KeyboardInterrupt (Ctrl-C)."""
    real = getattr(module, name)

    def interrupted(*args: object, **kwargs: object) -> object:
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(module, name, interrupted)


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("module", "function"),
    [
        ("yimao_db.readings", "store"),  # the reading is inserted, not yet committed
        ("yimao_db.present.chart", "render_chart"),  # stored, and its chart is being laid out
    ],
)
def test_ctrl_c_during_cast_keeps_no_reading(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fresh_db: str,
    module: str,
    function: str,
) -> None:
    _interrupt_after(monkeypatch, importlib.import_module(module), function)
    code, out, err = _run(capsys, "cast", "789678", "--pillars", PILLARS, "--db", fresh_db)
    assert (code, out, err) == (130, "", "interrupted\n")
    assert _readings(fresh_db) == 0


@pytest.mark.sqlite_only
def test_ctrl_c_during_build_rolls_it_back(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fresh_db: str
) -> None:
    from yimao_db.kb import seeding

    con = sqlite3.connect(fresh_db)
    con.execute("UPDATE stem SET element = '水' WHERE name = '甲'")  # the build would repair it
    con.commit()
    con.close()
    before = list(sqlite3.connect(fresh_db).iterdump())
    _interrupt_after(monkeypatch, seeding, "sync")
    code, out, err = _run(capsys, "build", "--db", fresh_db)
    assert (code, out, err) == (130, "", "interrupted\n")
    assert list(sqlite3.connect(fresh_db).iterdump()) == before


def test_ctrl_c_during_show(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, built_db: str
) -> None:
    from yimao_db.present import show

    _interrupt_after(monkeypatch, show, "render_show")
    assert _run(capsys, "show", "姤", "--db", built_db) == (130, "", "interrupted\n")


def _sigint_after_commit(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every writer's COMMIT is followed at once by a real Ctrl-C (SIGINT to this process),
    the moment the write has happened and the command has not yet said so. The list
    returned records each signal sent."""
    from sqlalchemy.engine.default import DefaultDialect

    real: Callable[[DefaultDialect, object], None] = DefaultDialect.do_commit
    sent: list[bool] = []

    def do_commit(self: DefaultDialect, dbapi_connection: object) -> None:
        real(self, dbapi_connection)
        if not getattr(dbapi_connection, "read_only", False):  # a PostgreSQL reader's end
            sent.append(True)
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(DefaultDialect, "do_commit", do_commit)
    return sent


COMMITTED_NOTE = "note: Ctrl-C came after the commit: what was written stays\n"


def _one_reading_and_a_file(db: str, folder: Path, argv: list[str]) -> list[str]:
    """Cast reading 1 into ``db``; ``argv`` with ``IMPORT`` replaced by a file of one
    reading to import."""
    from yimao_db.readings import cast

    cast("789678", pillars=PILLARS, db=db)
    csv = folder / "one.csv"
    csv.write_text("lines,at\n789678,2024-01-01T09:00\n", encoding="utf-8")
    return [str(csv) if a == "IMPORT" else a for a in argv]


@pytest.mark.parametrize(
    ("argv", "said", "written"),
    [
        (["build"], "reference data unchanged", "SELECT COUNT(*) FROM reading"),
        (["cast", "789678", "--pillars", PILLARS], "Reading 2", "SELECT COUNT(*) FROM reading"),
        (["note", "1", "kept"], "note 1 added to reading 1\n", "SELECT note FROM reading_note"),
        (["outcome", "1", "hit"], "reading 1: hit\n", "SELECT verdict FROM reading_outcome"),
        (["tag", "1", "new"], "reading 1 tagged new\n", "SELECT tag FROM reading_tag"),
        (["untag", "1", "old"], "reading 1 untagged old\n", "SELECT tag FROM reading_tag"),
        (["delete", "1", "--yes"], "deleted 1 reading (1)\n", "SELECT COUNT(*) FROM reading"),
        (["import", "IMPORT"], "imported 1 reading (id 2)", "SELECT COUNT(*) FROM reading"),
    ],
    ids=lambda value: value[0] if isinstance(value, list) else "",
)
def test_ctrl_c_right_after_the_commit_reports_what_was_written(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fresh_db: str,
    tmp_path: Path,
    argv: list[str],
    said: str,
    written: str,
) -> None:
    """Ctrl-C just after the commit printed `interrupted` and exited 130 though the write
    had happened. Now every writing command says what it wrote and exits 0."""
    from sqlalchemy import text

    from yimao_db.db import reader_engine
    from yimao_db.journaling import tag

    argv = _one_reading_and_a_file(fresh_db, tmp_path, argv)
    tag(1, ["old"], db=fresh_db)
    engine = reader_engine(fresh_db)
    with engine.connect() as conn:
        before = [tuple(r) for r in conn.execute(text(written))]
    sent = _sigint_after_commit(monkeypatch)
    code, out, err = _run(capsys, *argv, "--db", fresh_db)
    assert sent  # the Ctrl-C came
    assert code == 0, err
    assert said in out or said in err, (out, err)
    assert "interrupted" not in err and "Traceback" not in err
    assert err in ("", COMMITTED_NOTE) or argv[0] == "import", err
    with engine.connect() as conn:
        after = [tuple(r) for r in conn.execute(text(written))]
    engine.dispose()
    assert after != before or argv[0] == "build"  # the write is there (build: unchanged)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["cast", "789678", "--pillars", PILLARS], "Reading 2"),
        (["note", "1", "kept"], "note 1 added to reading 1\n"),
        (["import", "IMPORT"], "imported 1 reading (id 2)"),
        (["show", "姤"], None),
    ],
    ids=lambda value: value[0] if isinstance(value, list) else "",
)
def test_ctrl_c_as_the_command_returns(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fresh_db: str,
    tmp_path: Path,
    argv: list[str],
    said: str | None,
) -> None:
    """A real Ctrl-C as the command returns, once Python's handler is back (the end of
    ``sigint.armed``): a command that committed said what it wrote, and says that it stays
    (it said ``interrupted``, exit 130, for the write that had happened); a command that
    wrote nothing is interrupted as before."""
    from sqlalchemy import text

    from yimao_db import sigint
    from yimao_db.db import reader_engine

    argv = _one_reading_and_a_file(fresh_db, tmp_path, argv)
    real = sigint.armed

    @contextlib.contextmanager
    def armed() -> Iterator[None]:
        with real():
            yield
        signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(sigint, "armed", armed)
    code, out, err = _run(capsys, *argv, "--db", fresh_db)
    if said is None:
        assert (code, err) == (130, "interrupted\n")
        return
    assert code == 0, err
    assert said in out or said in err, (out, err)
    assert err.endswith(COMMITTED_NOTE) and "interrupted" not in err, err
    engine = reader_engine(fresh_db)
    with engine.connect() as conn:
        readings = conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one()
    engine.dispose()
    assert readings == (1 if argv[0] == "note" else 2)


def test_ctrl_c_after_a_commit_made_while_it_was_ignored_is_remembered() -> None:
    """The import commits with Ctrl-C ignored (``sigint.ignored``): from the end of that
    block a Ctrl-C is remembered, as after any other commit, not raised."""
    from yimao_db import sigint

    with sigint.armed():
        with sigint.ignored():
            sigint.committing()
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt
        assert sigint.deferred()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with sigint.armed():  # nothing committed: Python's own Ctrl-C after the block
        with sigint.ignored():
            pass
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


CLOSE_SIGINT_RUNNER = """
import signal, sys
from sqlalchemy.engine.default import DefaultDialect
from yimao_db.cli import main
real = DefaultDialect.do_close
def do_close(self, dbapi_connection):
    signal.raise_signal(signal.SIGINT)  # a real Ctrl-C, as the connection closes
    real(self, dbapi_connection)
DefaultDialect.do_close = do_close
sys.exit(main(sys.argv[1:]))
"""


def run_runner(runner: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``runner`` (Python source that runs the command line) in a process of its own with
    ``argv``, without the test's database URL or ``YIMAO_DEBUG``."""
    env = {k: v for k, v in os.environ.items() if k not in (ENV_VAR, "YIMAO_DEBUG")}
    return subprocess.run(
        [sys.executable, "-c", runner, *argv], capture_output=True, text=True, env=env, timeout=120
    )


@pytest.mark.sqlite_only
@pytest.mark.parametrize("argv", [["show", "姤"], ["cast", "789678", "--pillars", PILLARS]])
def test_a_sigint_while_a_connection_closes_prints_no_traceback(
    fresh_db: str, argv: list[str]
) -> None:
    """A real Ctrl-C lands as each connection closes: inside the command (a reader's
    connection: interrupted), after its commit (remembered) or in the tidying after it
    (ignored). SQLAlchemy's pool logs the KeyboardInterrupt it re-raises, traceback and
    all, through Python's last-resort handler; none of it reaches stderr (as it did when
    CI's random Ctrl-C test hit the tidying's close). In a process of its own: pytest
    catches the logs of the process it runs in."""
    proc = run_runner(CLOSE_SIGINT_RUNNER, [*argv, "--db", fresh_db])
    assert "Traceback" not in proc.stderr and "Exception closing" not in proc.stderr
    assert (proc.returncode, proc.stderr) in ((130, "interrupted\n"), (0, ""), (0, COMMITTED_NOTE))


EXIT_SIGINT_RUNNER = """
import atexit, os, signal, sys, time
from yimao_db.cli import main
def ctrl_c():  # a real Ctrl-C as Python exits, after the command printed what it did
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)
atexit.register(ctrl_c)
sys.exit(main())  # the process's own arguments, as `yimao` and `python -m yimao_db` run it
"""


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    "argv", [["show", "乾"], ["cast", "乾之姤", "--at", "2026-11-30T09:15"]], ids=["show", "cast"]
)
def test_a_sigint_as_the_process_exits_changes_nothing(fresh_db: str, argv: list[str]) -> None:
    """A Ctrl-C after the command, while Python exits: ignored (it raised KeyboardInterrupt
    there, a traceback on stderr, or ended the process by SIGINT, status 130 to a shell,
    after an import had printed what it stored: 14 of 20 Ctrl-Cs sent within 150 ms of the
    summary line). In a process of its own, as the command line runs."""
    proc = run_runner(EXIT_SIGINT_RUNNER, [*argv, "--db", fresh_db])
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    assert "乾為天" in proc.stdout


TWICE_SIGINT_RUNNER = """
import os, signal, sys
from yimao_db.commands import core
WHEN = sys.argv.pop(1)  # before or after the line is written
class Stderr:  # a second real Ctrl-C as the first one is reported
    def __init__(self, real):
        self.real = real
    def write(self, text):
        if text == "interrupted\\n" and WHEN == "before":
            os.kill(os.getpid(), signal.SIGINT)
            (lambda: None)()  # a call: where Python raises KeyboardInterrupt for it
        written = self.real.write(text)
        if text == "interrupted\\n" and WHEN == "after":
            self.real.flush()
            os.kill(os.getpid(), signal.SIGINT)
        return written
    def __getattr__(self, name):
        return getattr(self.real, name)
sys.stderr = Stderr(sys.stderr)
def show(args):
    os.kill(os.getpid(), signal.SIGINT)  # the first, while the command runs
    return 0
core.cmd_show = show
from yimao_db.cli import main
sys.exit(main())
"""


@pytest.mark.sqlite_only
@pytest.mark.parametrize("when", ["before", "after"])
def test_a_second_ctrl_c_while_the_first_is_reported(fresh_db: str, when: str) -> None:
    """One line, exit 130: a Ctrl-C that lands while `interrupted` is being written is not
    a traceback (it was, with the process ended by SIGINT), and one that lands just before
    it is written does not leave it unsaid (it did, exit 130 with nothing on stderr)."""
    proc = run_runner(TWICE_SIGINT_RUNNER, [when, "show", "乾", "--db", fresh_db])
    assert (proc.returncode, proc.stderr) == (130, "interrupted\n"), proc.stderr


SIGINT_RUNNER = """
import os, signal, sys
from yimao_db.kb import seeding
from yimao_db.cli import main
real = seeding.sync
def sync(*args, **kwargs):
    report = real(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, delivered part-way through the build
    return report
seeding.sync = sync
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.sqlite_only
def test_a_real_sigint_during_build(tmp_path: Path) -> None:
    db = tmp_path / "y.db"
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    proc = subprocess.run(
        [sys.executable, "-c", SIGINT_RUNNER, "build", "--db", str(db)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted\n")
    # the new file was built beside its place, and removed with the build: nothing is left
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_an_unexpected_exception_is_one_line_exit_70(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, built_db: str
) -> None:
    from yimao_db.present import show

    def broken(*_args: object) -> str:
        raise RuntimeError("a bug\nover two lines")

    monkeypatch.setattr(show, "render_show", broken)
    monkeypatch.delenv("YIMAO_DEBUG", raising=False)
    code, out, err = run(capsys, "show", "姤", "--db", built_db)
    assert (code, out) == (70, "")
    assert err == (
        "internal error: RuntimeError: a bug\\nover two lines "
        "(set YIMAO_DEBUG=1 for the traceback)\n"
    )
    monkeypatch.setenv("YIMAO_DEBUG", "1")
    code, out, err = run(capsys, "show", "姤", "--db", built_db)
    assert (code, out) == (70, "")
    assert err.startswith("Traceback (most recent call last):")
    assert 'raise RuntimeError("a bug\\nover two lines")' in err
    assert err.endswith("\ninternal error: RuntimeError: a bug\\nover two lines\n")


@pytest.mark.parametrize("argv", [["reading", "9" * 5000], ["readings", "--limit", "9" * 5000]])
def test_numbers_beyond_python_int_conversion_limit(
    capsys: pytest.CaptureFixture[str], built_db: str, argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv, "--db", built_db)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "(5000 characters)" in err
    assert err.startswith("error: bad reading id" if argv[0] == "reading" else "error: bad --limit")


def _yimao(*argv: str, **env: str) -> subprocess.Popen[bytes]:
    environ = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    return subprocess.Popen(
        [sys.executable, "-m", "yimao_db", *argv],
        env={**environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_a_terminal_that_cannot_show_the_characters(built_db: str) -> None:
    out, err = _yimao("show", "乾", "--db", built_db, PYTHONIOENCODING="ascii").communicate(
        timeout=60
    )
    assert out == b""
    assert err.decode() == (
        "error: the output encoding ascii cannot show the result; use a UTF-8 locale or set "
        "PYTHONIOENCODING=utf-8\n"
    )


def test_a_terminal_that_cannot_show_a_cast_it_stored_says_so(fresh_db: str) -> None:
    """The cast is stored before its chart is printed: the error line says it stays (it
    said nothing of it, as if nothing had been written)."""
    proc = _yimao(
        "cast", "乾之姤", "--at", "2026-11-30T09:15", "--db", fresh_db, PYTHONIOENCODING="ascii"
    )
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out) == (2, b"")
    assert err.decode() == (
        "error: the output encoding ascii cannot show the result; use a UTF-8 locale or set "
        "PYTHONIOENCODING=utf-8; what the command committed stays\n"
    )
    assert len(find_readings(db=fresh_db)[1]) == 1


def test_a_reader_that_stops_early(built_db: str) -> None:
    """``yimao … | head -1``: the closed pipe is not an error and says nothing."""
    many = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) "
    proc = _yimao("sql", many + "SELECT i FROM n", "--csv", "--db", built_db)  # > a pipe
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # the reader goes away before the command has written everything
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""


def test_the_entry_point_loads_little_before_main_handles_ctrl_c() -> None:
    """A Ctrl-C while the program starts is a traceback unless main is already running: the
    module holding main loads no database library (SQLAlchemy is loaded inside main)."""
    probe = "import sys, yimao_db.cli; print(sorted(m for m in sys.modules if 'sqlalchemy' in m))"
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert proc.stdout == "[]\n"


def test_the_command_starts_with_its_guard_loading_nothing_before() -> None:
    """`yimao` and `python -m yimao_db` run ``yimao_db.__main__.main``; loading it loads the
    package and itself, not even typing (some 7 ms): a Ctrl-C before its guard is one of
    Python's own start."""
    import tomllib

    with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as toml:
        assert tomllib.load(toml)["project"]["scripts"] == {"yimao": "yimao_db.__main__:main"}
    probe = (
        "import sys; before = set(sys.modules); import yimao_db.__main__; "
        "print(sorted(set(sys.modules) - before))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert proc.stdout == "['yimao_db', 'yimao_db.__main__']\n"


INTERRUPTED_WHILE_LOADING = """
import sys
class Interrupt:  # a Ctrl-C as the command line loads (while one of its modules is found)
    def find_spec(self, name, path=None, target=None):
        if name == sys.argv[1]:
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
from yimao_db.__main__ import main
sys.exit(main())
"""


@pytest.mark.parametrize("module", ["yimao_db.cli", "sqlalchemy", "yimao_db.sigint"])
def test_a_ctrl_c_while_the_command_line_loads_is_interrupted(module: str, tmp_path: Path) -> None:
    """Python's traceback from the import before (about 20 ms of every start): now
    ``interrupted``, 130, nothing done."""
    db = tmp_path / "none.db"
    proc = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_WHILE_LOADING, module, "build", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted\n")
    assert list(tmp_path.iterdir()) == []


INTERRUPTED_AS_MAIN_BEGINS = """
import sys
from yimao_db import __main__, cli
def begins():  # a Ctrl-C before the command line's main has begun to take them
    raise KeyboardInterrupt
cli.main = begins
if sys.argv[1] == "twice":  # and another as the first is being taken
    real = __main__._interrupted_while_loading
    calls = []
    def taken():
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        real()
    __main__._interrupted_while_loading = taken
sys.exit(__main__.main())
"""


@pytest.mark.parametrize("times", ["once", "twice"])
def test_a_ctrl_c_as_the_command_lines_main_begins(times: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_AS_MAIN_BEGINS, times],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted\n")


def test_each_command_is_found_in_its_own_module() -> None:
    """cli.MODULE_OF names, for every command, the module that registers it."""
    import argparse

    from yimao_db import cli

    found = {}
    for name in cli.COMMAND_MODULES:
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"yimao_db.commands.{name}").register(sub)
        found.update(dict.fromkeys(sub.choices, name))
    assert found == cli.MODULE_OF


LEAN = """
import sys
from yimao_db.cli import main
code = main(sys.argv[1:])
top = ("alembic", "tyme4py", "ephem", "yimao_db", "html")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in top)
print(" ".join(loaded), file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["cast", "789678", "--at", "2026-11-30T09:15", "--question", "lean"],
        ["show", "乾"],
        ["reading", "1"],
    ],
)
def test_cast_and_show_import_only_what_they_use(sqlite_built_db: str, argv: list[str]) -> None:
    """No alembic, no tyme4py (1901-2099), no ephem (the lodges are a shipped table), no
    view declarations, no other command's module, no table declarations (statements as
    text), and for text no other format's layout (no HTML, Markdown or JSON: the registry's
    renderers import theirs when called)."""
    if argv[0] == "reading":
        assert main(["cast", "789678", "--db", sqlite_built_db]) == 0
    done = subprocess.run(
        [sys.executable, "-c", LEAN, *argv, "--db", sqlite_built_db],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    loaded = set(done.stderr.split())
    assert not {m for m in loaded if m.split(".")[0] in ("alembic", "tyme4py", "ephem")}
    commands = {m for m in loaded if m.startswith("yimao_db.commands.")}
    module = "core" if argv[0] == "show" else "readings"
    assert commands == {f"yimao_db.commands.{module}"}
    assert not {m for m in loaded if m.startswith(("yimao_db.kb.views", "yimao_db.building"))}
    tables = {
        m for m in loaded if m.startswith("yimao_db.kb.schema.") and m != "yimao_db.kb.schema.base"
    }
    assert tables == set()
    assert not {"yimao_db.kb.expected.chart", "yimao_db.kb.rules.hexagrams"} & loaded
    assert "yimao_db.present.formats" in loaded
    other_layouts = {"html", "yimao_db.present.show_forms", "yimao_db.present.chart_json"}
    if argv[0] == "show":
        other_layouts.add("yimao_db.present.chart")  # the chart's layout: cast and reading
    assert not other_layouts & loaded


def test_a_build_loads_alembic_only_to_migrate(tmp_path: Path) -> None:
    """A fresh file gets the head schema and a file at the head is left as it is, without
    alembic (about 0.1 s of CPU time to import). (Older files are migrated by alembic:
    tests/test_migrations.py.)"""
    from yimao_db.building import head_revision
    from yimao_db.kb.migrating import script_directory

    assert head_revision() == script_directory().get_current_head()
    db = str(tmp_path / "lean.db")

    def build_loads() -> set[str]:
        done = subprocess.run(
            [sys.executable, "-c", LEAN, "build", "--db", db],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return {m.split(".")[0] for m in done.stderr.split()}

    assert "alembic" not in build_loads()  # created
    assert "alembic" not in build_loads()  # at the head


def test_the_command_leaves_unsaid_only_a_ctrl_c_python_could_not_raise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What Python prints as ``Exception ignored …`` (here from a finalizer): a Ctrl-C
    (KeyboardInterrupt), or the OSError Python makes of one that arrived as SIGINT was being
    set aside (``Signal 2 ignored due to race condition``, seen once in 200 imports under
    bursts of Ctrl-C), is left unsaid by the process's command; anything else is printed."""
    from yimao_db import sigint

    printed: list[BaseException | None] = []  # what Python's own hook would have printed
    monkeypatch.setattr(sys, "unraisablehook", lambda u: printed.append(u.exc_value))
    monkeypatch.setattr(sigint._STATE, "quiet", False)
    sigint.quiet_interrupted_finalizers()

    class Finalized:
        def __init__(self, exc: BaseException) -> None:
            self.exc = exc

        def __del__(self) -> None:
            raise self.exc

    for exc in (
        KeyboardInterrupt(),
        OSError(f"Signal {int(signal.SIGINT)} ignored due to race condition"),
        OSError("something else"),
    ):
        Finalized(exc)
    assert [str(e) for e in printed] == ["something else"]


def test_a_ctrl_c_held_through_a_library_that_would_break_is_raised_after_it() -> None:
    """``sigint.held()``: a library that turns a KeyboardInterrupt into an error of its own
    (pydantic, as it builds the MCP SDK's validators: `yimao mcp` said ``internal error:
    SchemaError … KeyboardInterrupt`` once in 240 Ctrl-Cs at random moments of its start)
    runs to its end; the Ctrl-C is raised after it, and Python's handler is back."""
    from yimao_db import sigint

    def building() -> str:  # converts a Ctrl-C, as pydantic-core does
        try:
            ctrl_c()
        except KeyboardInterrupt as exc:
            raise RuntimeError(f"error building a validator: {exc!r}") from None
        return "built"

    built = []
    with as_a_command():
        with pytest.raises(KeyboardInterrupt):
            with sigint.held():
                built.append(building())
        assert built == ["built"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with sigint.held():  # nothing came: nothing raised
            built.append("again")
        assert built == ["built", "again"]
        with pytest.raises(RuntimeError, match="KeyboardInterrupt"):
            building()  # what happened before


ESCAPE_RUNNER = """
import os, signal, sys
from yimao_db import cli, sigint
from yimao_db.commands import readings
WHEN = sys.argv.pop(1)
real_settle = cli._settle
def settle(said):  # a second real Ctrl-C lands as the first one is being settled
    os.kill(os.getpid(), signal.SIGINT)
    (lambda: None)()  # a call: where Python raises KeyboardInterrupt for it
    return real_settle(said)
cli._settle = settle
if WHEN == "before-commit":  # the first Ctrl-C while the cast runs
    def cmd_cast(args):
        raise KeyboardInterrupt
    readings.cmd_cast = cmd_cast
else:  # the first once the cast has committed and returned (Python's handler back)
    real_deferred = sigint.deferred
    def deferred():
        os.kill(os.getpid(), signal.SIGINT)
        (lambda: None)()
        return real_deferred()
    sigint.deferred = deferred
sys.exit(cli.main())
"""


@pytest.mark.parametrize("when", ["before-commit", "after-commit"])
def test_a_second_ctrl_c_that_escapes_the_report_is_settled(fresh_db: str, when: str) -> None:
    """A second Ctrl-C that lands as the first is being reported escapes the command's own
    report; the process then settles it with Ctrl-C ignored: ``interrupted`` and 130 with
    nothing written, or, for a command that returned after its commit, the note and its
    status (it ended with exit 130 and nothing on stderr, the reading stored)."""
    from sqlalchemy import text

    from yimao_db.db import reader_engine

    argv = [when, "cast", "789678", "--pillars", PILLARS, "--db", fresh_db]
    proc = run_runner(ESCAPE_RUNNER, argv)
    engine = reader_engine(fresh_db)
    with engine.connect() as conn:
        readings = conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one()
    engine.dispose()
    if when == "before-commit":
        assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted\n")
        assert readings == 0
    else:
        assert (proc.returncode, proc.stderr) == (0, COMMITTED_NOTE)
        assert "Reading 1" in proc.stdout and readings == 1


INJECT_RUNNER = """
import importlib, os, signal, sys
from yimao_db import cli
module, name = sys.argv.pop(1).split(":")
where = importlib.import_module(module)
real = getattr(where, name)
def injected(*args, **kwargs):  # a real Ctrl-C lands as this is called
    os.kill(os.getpid(), signal.SIGINT)
    (lambda: None)()  # a call: where Python raises KeyboardInterrupt for it
    return real(*args, **kwargs)
setattr(where, name, injected)
sys.exit(cli.main())
"""


def _injected(where: str, argv: list[str], stdout: Any) -> subprocess.CompletedProcess[str]:
    """``yimao ARGV`` in a process of its own, a Ctrl-C landing as ``where``
    (``module:function``) is called; stdout to ``stdout``, unbuffered."""
    env = {k: v for k, v in os.environ.items() if k not in (ENV_VAR, "YIMAO_DEBUG")}
    env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run(
        [sys.executable, "-c", INJECT_RUNNER, where, *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_ctrl_c_after_the_write_while_its_failure_or_output_is_handled(
    fresh_db: str, tmp_path: Path
) -> None:
    """A Ctrl-C that lands after the write, while what came after it is handled, never says
    `interrupted` (exit 130 promises that nothing was written; it was said after a stored
    cast whose chart could not be shown, or whose reader had gone, and after an export):
    the note, and the command's status."""
    from sqlalchemy import text

    from yimao_db.db import reader_engine

    cast = ["cast", "789678", "--pillars", PILLARS, "--db", fresh_db]
    with open("/dev/full", "w", encoding="utf-8") as full:  # the chart cannot be shown
        proc = _injected("yimao_db.cli:explain", cast, full)
    assert (proc.returncode, proc.stderr) == (2, COMMITTED_NOTE)
    read, write = os.pipe()
    os.close(read)  # the chart's reader has gone
    try:
        proc = _injected("yimao_db.cli:_quiet_stdout", cast, write)
    finally:
        os.close(write)
    assert (proc.returncode, proc.stderr) == (0, COMMITTED_NOTE)
    engine = reader_engine(fresh_db)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one() == 2
    engine.dispose()
    folder = tmp_path / "export"
    export = ["export", str(folder), "--db", fresh_db]
    proc = _injected("yimao_db.commands.data:out", export, subprocess.PIPE)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr == f"note: Ctrl-C came after the export to {folder}: it stays\n"
    assert (folder / "README.md").is_file()
