"""The example queries of ``docs/queries.md`` as datasette canned queries.

Each ``sql`` block of that file opens with ``-- query: NAME``; the ``## heading`` above it
is its title. A block may name its parameters in lines ``-- param: NAME = LITERAL`` right
after the first line: the query in the file keeps the literal (so it runs as printed, in
``sqlite3`` or ``psql``), and the canned query has ``:NAME`` in its place, with the literal
as the example value that the query's description links to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from yimao_db.paths import queries_md_path

_BLOCK = re.compile(r"^## (?P<title>.+?)\n|```sql\n(?P<sql>.*?)```", re.S | re.M)
_NAME = re.compile(r"-- query: (\w+)")
_PARAM = re.compile(r"-- param: (\w+) = ('(?:[^']|'')*'|\d+)")


@dataclass(frozen=True)
class Query:
    name: str
    title: str
    sql: str  # as printed in docs/queries.md, with its literals
    params: tuple[tuple[str, str], ...]  # (name, the literal it stands for)

    @property
    def canned_sql(self) -> str:
        """The SQL with ``:NAME`` in place of each parameter's literal (comment lines kept
        as they are)."""
        lines = self.sql.splitlines()
        for name, literal in self.params:
            lines = [
                line if line.lstrip().startswith("--") else line.replace(literal, f":{name}")
                for line in lines
            ]
        return "\n".join(lines)

    @property
    def example(self) -> dict[str, str]:
        """The parameters' values as printed in the file (a quoted literal unquoted)."""
        return {
            name: literal[1:-1].replace("''", "'") if literal.startswith("'") else literal
            for name, literal in self.params
        }


def parse(markdown: str) -> dict[str, Query]:
    """Every query of a ``queries.md`` text by name; ValueError for a malformed block."""
    found: dict[str, Query] = {}
    title = ""
    for m in _BLOCK.finditer(markdown):
        if m["title"] is not None:
            title = m["title"].strip()
            continue
        block = m["sql"]
        lines = block.splitlines()
        head = _NAME.fullmatch(lines[0]) if lines else None
        if head is None:
            raise ValueError(f"query block without a '-- query: NAME' first line: {block[:40]!r}")
        params = []
        for line in lines[1:]:
            if not line.startswith("-- param:"):
                break
            p = _PARAM.fullmatch(line)
            if p is None:
                raise ValueError(f"{head[1]}: expected '-- param: NAME = LITERAL', got {line!r}")
            params.append((p[1], p[2]))
        query = Query(head[1], title, block.strip().rstrip(";"), tuple(params))
        for name, literal in query.params:
            body = [x for x in query.sql.splitlines() if not x.lstrip().startswith("--")]
            if not any(literal in x for x in body):
                raise ValueError(f"{query.name}: parameter {name}'s literal {literal} is unused")
        if query.name in found:
            raise ValueError(f"two queries named {query.name}")
        found[query.name] = query
    return found


def queries(path: Path | None = None) -> dict[str, Query]:
    """The queries of ``docs/queries.md`` (shipped inside the package when installed)."""
    return parse((path or queries_md_path()).read_text(encoding="utf-8"))
