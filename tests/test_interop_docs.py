"""The Python snippets of docs/interop.md run, as written, against a freshly built yimao.db.

Each ```python block is one test, run in a directory holding ``yimao.db`` (built, with a
few readings). A block that imports pandas is skipped where pandas is not installed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

from yimao_db import readings
from yimao_db.build import build

DOC = Path(__file__).resolve().parent.parent / "docs" / "interop.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks() -> list[tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in BLOCK.finditer(text)]


def test_the_doc_has_python_snippets() -> None:
    assert len(blocks()) >= 5
    assert any("import pandas" in code for _line, code in blocks())


@pytest.fixture(scope="module")
def doc_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with a built yimao.db (SQLite: the snippets open the file) and readings."""
    where = tmp_path_factory.mktemp("interop")
    db = str(where / "yimao.db")
    build(db)
    readings.cast("乾之姤", at="2026-11-30T09:15", db=db)
    readings.cast("789678", pillars="甲子,丙寅,甲子,甲子", db=db)
    return where


@pytest.mark.parametrize(("line", "code"), blocks(), ids=[f"line{n}" for n, _ in blocks()])
def test_snippet_runs(line: int, code: str, doc_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if re.search(r"^import pandas|^from pandas", code, re.MULTILINE):
        if importlib.util.find_spec("pandas") is None:
            pytest.skip("pandas is not installed (yimao-db does not depend on it)")
    monkeypatch.chdir(doc_dir)
    before = (doc_dir / "yimao.db").stat().st_size
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"{DOC}:{line}", "exec"), {"__name__": "__interop_doc__"})
    assert printed.getvalue().strip(), "a snippet shows something"
    assert "refused" in printed.getvalue() or "DELETE" not in code
    assert (doc_dir / "yimao.db").stat().st_size == before
