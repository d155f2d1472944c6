"""Every snippet of README.md and docs/*.md runs as written.

- ```` ```sh ```` blocks run in ``sh -e`` with the ``yimao`` of this environment first on the
  PATH; every command must succeed.
- ```` ```python ```` blocks run in-process; an expression statement whose comment is a
  Python literal (``c.hidden[0].relative  # '妻財'``) must give that value.
- ```` ```console ```` blocks, and ```` ```text ```` blocks that start with ``$ ``, are
  transcripts: each ``$ yimao …`` command is run in-process and must print what follows it
  (stdout and stderr together). The times a note was written (now, when the page was made)
  are the only text compared loosely. After a change to what a command prints,
  ``python tests/test_doc_snippets.py docs/journal.md`` rewrites a page's transcripts.

Each document runs in a directory of its own holding a copy of the session's built SQLite
database (``yimao.db``; journal.md's ``wk.db``), its snippets in the order of the page, so a
transcript sees the readings the page cast before it. Files a snippet reads without making
them are written first (:data:`FILES`). Snippets that cannot run here are listed in
:data:`NOT_RUN` with the reason, and the conditional ones skip with theirs.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from yimao_db.cli import main
from yimao_db.readings import cast

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
RUN_LANGUAGES = ("sh", "python", "console")
HOME = "/home/me/journal"  # where docs/journal.md's week was run, as yimao check prints it


@dataclass(frozen=True)
class Snippet:
    doc: str  # the document, relative to the repository
    line: int  # the line of its opening fence
    lang: str
    code: str

    @property
    def first(self) -> str:
        return self.code.splitlines()[0]

    @property
    def name(self) -> str:
        return f"{self.doc}:{self.line}"


def snippets() -> list[Snippet]:
    found = []
    for doc in DOCUMENTS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            lang, code = m.group(1), m.group(2)
            if lang == "text" and code.startswith("$ "):
                lang = "console"
            if lang in RUN_LANGUAGES:
                found.append(Snippet(doc, text.count("\n", 0, m.start()) + 1, lang, code))
    return found


# Snippets that are not run, by document and first line, with the reason.
NOT_RUN = {
    (
        "README.md",
        "# install and run the main job: build the database, show a hexagram, cast a reading",
    ): "installs the package and runs the whole test suite (build, show and cast run in the "
    "other snippets)",
    ("README.md", 'pip install ".[pg]"'): "installs a package and needs the reader's own "
    "PostgreSQL server (USER:PASSWORD@HOST); the suite runs every command on PostgreSQL with "
    "YIMAO_TEST_BACKEND=postgresql",
    (
        "docs/browse.md",
        "pip install 'yimao-db[web]'          # datasette, only needed for this command",
    ): "installs a package and serves until Ctrl-C; tests/test_serve.py runs the server",
    (
        "docs/interop.md",
        'pip install "yimao-db[pg]"              # from a checkout: pip install -e ".[pg]"',
    ): "installs a package and needs the reader's own PostgreSQL server (createdb, "
    "user:password@localhost)",
    ("docs/interop.md", "apt-get update && apt-get install -y postgresql"): "installs "
    "PostgreSQL as root and runs the whole suite against a new cluster (what .ci/run does)",
    (
        "docs/performance.md",
        "python benchmarks/import.py --rows 100000 --runs 3 --rss-rows 0   # add --rss-rows "
        "1000000 for peak RSS",
    ): "benchmarks: minutes each on a quiet machine",
    (
        "docs/performance.md",
        "python benchmarks/reports.py --readings 100000            # SQLite; default 1,000,000",
    ): "benchmarks: minutes each, and a PostgreSQL server (USER@HOST)",
}


def _needs(module: str) -> Callable[[Snippet], str | None]:
    def check(_: Snippet) -> str | None:
        found = importlib.util.find_spec(module) is not None
        return None if found else f"needs {module}, which yimao-db does not depend on"

    return check


def _needs_sqlite3_shell(_: Snippet) -> str | None:
    return None if shutil.which("sqlite3") else "needs the sqlite3 command-line shell"


# Snippets run only where what they need is installed, by document and a text they hold.
CONDITIONS: list[tuple[str, str, Callable[[Snippet], str | None]]] = [
    ("README.md", "sqlite3 ", _needs_sqlite3_shell),
    ("docs/interop.md", "sqlite3 -readonly", _needs_sqlite3_shell),
    ("docs/interop.md", "import pandas", _needs("pandas")),
    ("docs/interop.md", "--format parquet", _needs("pyarrow")),
]

# Files snippets read without making them: (document, name) → content
REPORT_SQL = "SELECT king_wen, name FROM v_hexagram WHERE palace = '乾' ORDER BY king_wen\n"


def _csv_example() -> str:
    """The example file of docs/readings.md ("Importing readings"), its ```csv block."""
    text = (ROOT / "docs" / "readings.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"^```csv\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    return str(block)


FILES: dict[tuple[str, str], Callable[[], str]] = {
    ("docs/interop.md", "report.sql"): lambda: REPORT_SQL,
    ("docs/readings.md", "readings.csv"): _csv_example,
}
# Readings a page reads without casting them: docs/interop.md reads the database "while
# readings are being cast"
READINGS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "docs/interop.md": [
        ("乾之姤", {"at": "2026-11-30T09:15"}),
        ("789678", {"pillars": "甲子,丙寅,甲子,甲子"}),
    ],
}
DATABASE = {"docs/journal.md": "wk.db"}  # the file the page's commands use (else yimao.db)
ENV = {"docs/journal.md": {"YIMAO_DB_URL": "wk.db"}}  # as the page says it was run


@pytest.fixture(scope="module")
def rooms(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The directory of a document (made on first use): a copy of the built database and
    the files its snippets read."""
    made: dict[str, Path] = {}
    base = tmp_path_factory.mktemp("snippets")

    def room(doc: str) -> Path:
        if doc not in made:
            where = base / re.sub(r"\W", "_", doc)
            where.mkdir()
            shutil.copyfile(sqlite_template, where / DATABASE.get(doc, "yimao.db"))
            (where / DATABASE.get(doc, "yimao.db")).chmod(0o644)
            for lines, moment in READINGS.get(doc, []):
                cast(lines, db=str(where / DATABASE.get(doc, "yimao.db")), **moment)
            for (owner, name), content in FILES.items():
                if owner == doc:
                    (where / name).write_text(content(), encoding="utf-8")
            made[doc] = where
        return made[doc]

    return room


def test_every_snippet_is_found_and_every_exception_is_used() -> None:
    found = snippets()
    assert {s.doc for s in found} >= {"README.md", "docs/interop.md", "docs/journal.md"}
    assert len(found) >= 45
    firsts = {(s.doc, s.first) for s in found}
    assert set(NOT_RUN) <= firsts, set(NOT_RUN) - firsts
    for doc, needle, _ in CONDITIONS:
        assert any(s.doc == doc and needle in s.code for s in found), (doc, needle)
    for doc, _name in FILES:
        assert any(s.doc == doc for s in found)


# --- sh --------------------------------------------------------------------------------------


def shell_env(doc: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("YIMAO_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return {**env, **ENV.get(doc, {})}


def run_sh(snippet: Snippet, where: Path) -> None:
    done = subprocess.run(
        ["sh", "-e", "-c", snippet.code],
        cwd=where,
        env=shell_env(snippet.doc),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"{snippet.name} failed:\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr
    assert not re.search(r"^(internal )?error:", done.stderr, re.MULTILINE), done.stderr


# --- python ----------------------------------------------------------------------------------


def _claim(source: str, node: ast.stmt) -> tuple[bool, Any]:
    """The value an expression statement's trailing comment says it has, if it says one."""
    if not isinstance(node, ast.Expr):
        return False, None
    line = source.splitlines()[node.end_lineno - 1 if node.end_lineno else node.lineno - 1]
    comment = line.partition("  # ")[2].strip()
    if not comment:
        return False, None
    try:
        return True, ast.literal_eval(comment)
    except (ValueError, SyntaxError):
        return False, None


def run_python(snippet: Snippet, where: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the block statement by statement in ``where``; what it printed."""
    monkeypatch.chdir(where)
    for name, value in ENV.get(snippet.doc, {}).items():
        monkeypatch.setenv(name, value)
    tree = ast.parse(snippet.code)
    namespace: dict[str, Any] = {"__name__": "__doc_snippet__"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for node in tree.body:
            claimed, value = _claim(snippet.code, node)
            if claimed:
                assert isinstance(node, ast.Expr)
                code = compile(ast.Expression(node.value), snippet.name, "eval")
                got = eval(code, namespace)
                assert got == value, f"{snippet.name}: {ast.unparse(node)} is {got!r}"
            else:
                module = ast.Module(body=[node], type_ignores=[])
                exec(compile(module, snippet.name, "exec"), namespace)
    return printed.getvalue()


# --- transcripts ----------------------------------------------------------------------------

NOTE_TIME = re.compile(r"^  \d{4}-\d\d-\d\d \d\d:\d\d  ", re.MULTILINE)


def transcript(code: str) -> Iterator[tuple[str, str]]:
    """(command, what it printed) for every ``$ `` line of a console block."""
    parts = re.split(r"^\$ (.*)\n", code, flags=re.MULTILINE)
    assert parts[0] == "", f"a transcript starts with a command: {parts[0]!r}"
    for i in range(1, len(parts), 2):
        yield parts[i], parts[i + 1]


def loosely(text: str) -> str:
    return NOTE_TIME.sub("  YYYY-MM-DD hh:mm  ", text)


def run_transcript(
    snippet: Snippet,
    where: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(where)
    monkeypatch.delenv("YIMAO_TZ", raising=False)
    for name, value in ENV.get(snippet.doc, {}).items():
        monkeypatch.setenv(name, value)
    for command, expected in transcript(snippet.code):
        argv = shlex.split(command)
        assert argv[0] == "yimao", command
        capsys.readouterr()
        main(argv[1:])
        out, err = capsys.readouterr()
        printed = (out + err).replace(f"{where}{os.sep}", f"{HOME}/")
        assert loosely(printed) == loosely(expected), f"{snippet.name}: $ {command}"


# --- the test ---------------------------------------------------------------------------------


@pytest.mark.parametrize("snippet", snippets(), ids=lambda s: s.name)
def test_snippet_runs_as_written(
    snippet: Snippet,
    rooms: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reason = NOT_RUN.get((snippet.doc, snippet.first))
    if reason is not None:
        pytest.skip(f"not run: {reason}")
    for doc, needle, condition in CONDITIONS:
        if doc == snippet.doc and needle in snippet.code:
            missing = condition(snippet)
            if missing is not None:
                pytest.skip(missing)
    where = rooms(snippet.doc)
    database = where / DATABASE.get(snippet.doc, "yimao.db")
    if snippet.lang == "sh":
        run_sh(snippet, where)
    elif snippet.lang == "console":
        run_transcript(snippet, where, monkeypatch, capsys)
    else:
        size = database.stat().st_size
        printed = run_python(snippet, where, monkeypatch)
        if snippet.doc == "docs/interop.md":  # reading from another program changes nothing
            assert printed.strip(), "a snippet shows something"
            assert "refused" in printed or "DELETE" not in snippet.code
            assert database.stat().st_size == size


# --- what the prose around the snippets says ----------------------------------------------------


def test_the_forms_of_a_cast_all_cast_what_readings_md_says(
    capsys: pytest.CaptureFixture[str], fresh_db: str
) -> None:
    """docs/readings.md, "Casting": the example of every form but --random casts 水火既濟
    with lines 3 and 4 moving (the coins example cast 升之解)."""
    text = (ROOT / "docs" / "readings.md").read_text(encoding="utf-8")
    section = text.split("## Casting", 1)[1]
    rows = re.findall(r"^\|.*\|$", section.split("\n\n- ", 1)[0], re.MULTILINE)[2:]
    examples = [
        e
        for row in rows
        if "--random" not in row
        for e in re.findall(r"`([^`]+)`", row.split("|")[2])
    ]
    assert len(examples) >= 8, examples
    for example in examples:
        code, out, err = run_cli(capsys, "cast", *shlex.split(example), "--json", fresh_db)
        assert code == 0, (example, err)
        assert (out["primary_name"], out["moving_lines"], out["changed_name"]) == (
            "水火既濟",
            [3, 4],
            "澤雷隨",
        ), example


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    """``yimao ARGV[:-1] --db ARGV[-1]`` in-process, its JSON output parsed."""
    import json

    code = main([*argv[:-1], "--db", argv[-1]])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else {}, err


def rewrite_transcripts(doc: str) -> None:
    """Run the transcripts of ``doc`` as the test does, on a new build in a temporary
    directory, and write what they print into the page (a note's time is kept as it is).
    For a change that changes what a command prints: ``python tests/test_doc_snippets.py
    docs/journal.md``, then read the diff."""
    import tempfile

    from yimao_db.building import build

    path = ROOT / doc
    text = path.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        where = Path(folder).resolve()
        build(str(where / DATABASE.get(doc, "yimao.db")))
        os.environ.pop("YIMAO_TZ", None)
        os.environ.update(ENV.get(doc, {"YIMAO_DB_URL": "yimao.db"}))
        for snippet in snippets():
            if snippet.doc != doc or snippet.lang != "console":
                continue
            block = ""
            for command, expected in transcript(snippet.code):
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    main(shlex.split(command)[1:])
                printed = (out.getvalue() + err.getvalue()).replace(f"{where}{os.sep}", f"{HOME}/")
                block += (
                    f"$ {command}\n{expected if loosely(printed) == loosely(expected) else printed}"
                )
            text = text.replace(snippet.code, block, 1)
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    for name in sys.argv[1:]:
        rewrite_transcripts(name)
