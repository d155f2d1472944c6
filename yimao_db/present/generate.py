"""Every generated file (from the declarations, and the migrations), written or checked by one
command.

``python -m yimao_db.present.generate`` rewrites them all; ``--check`` writes nothing and
exits 1 naming each stale file (``tests/test_generated.py`` runs it). The files:

- ``yimao_db/chart_rows.py``: the chart's classes and column lists
  (:mod:`yimao_db.kb.views.chart`), from the view declarations;
- ``docs/chart.schema.json``: the JSON Schema of the chart's JSON
  (:mod:`yimao_db.present.chart_schema`), from the same;
- ``docs/schema.md``: every table and view with its columns, and the contract's versions
  (:mod:`yimao_db.present.schema_doc`);
- the generated blocks of ``docs/readings.md`` and ``docs/signs.md``: the column tables of
  views (``<!-- columns of VIEW: generated … -->`` … ``<!-- end of columns -->``) and the
  catalogue of signs;
- ``yimao_db/kb/head_schema.sql``: the SQLite schema the migrations leave at the head
  revision, which a build of an empty file runs (:mod:`yimao_db.kb.head_schema`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from yimao_db.building import head_revision, migrate
from yimao_db.kb import head_schema
from yimao_db.kb.views import views
from yimao_db.kb.views.chart import chart_rows_source
from yimao_db.present.chart_schema import chart_schema_text
from yimao_db.present.schema_doc import generated_markdown, with_view_columns
from yimao_db.present.sign_doc import with_catalogue

ROOT = Path(__file__).resolve().parents[2]  # the source checkout
COMMAND = "python -m yimao_db.present.generate"

# each generated file (relative to the checkout) → its text, given the text it has now
# (a document with generated blocks keeps everything else)
GENERATED: dict[str, Callable[[str], str]] = {
    "yimao_db/chart_rows.py": lambda _: chart_rows_source(views()),
    "docs/chart.schema.json": lambda _: chart_schema_text(),
    "docs/schema.md": lambda _: generated_markdown(),
    "docs/readings.md": with_view_columns,
    "docs/signs.md": lambda text: with_catalogue(with_view_columns(text)),
    "yimao_db/kb/head_schema.sql": lambda now: head_schema.source(now, migrate, head_revision()),
}


def stale() -> dict[str, str]:
    """Each generated file that differs from what the declarations give → the text it
    should have."""
    found = {}
    for name, make in GENERATED.items():
        path = ROOT / name
        now = path.read_text(encoding="utf-8") if path.exists() else ""
        want = make(now)
        if want != now:
            found[name] = want
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args not in ([], ["--check"]):
        sys.stderr.write(f"usage: {COMMAND} [--check]\n")
        return 2
    found = stale()
    if args:
        if found:
            sys.stderr.write(f"stale: {', '.join(found)} (run `{COMMAND}`)\n")
            return 1
        return 0
    for name, text in found.items():
        (ROOT / name).write_text(text, encoding="utf-8")
        sys.stdout.write(f"wrote {name}\n")
    if not found:
        sys.stdout.write("every generated file is up to date\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
