"""The example queries of ``docs/queries.md`` as datasette canned queries.

Each ``sql`` block of that file opens with ``-- query: NAME`` and ``-- title: TITLE``: the
question the query answers, its title in the browser, one of its own (several queries may
share a ``## heading``). A block may name its parameters in lines ``-- param: NAME =
LITERAL`` right after the title: the query in the file keeps the literal (so it runs as
printed, in ``sqlite3`` or ``psql``), and the canned query has ``:NAME`` in its place, with
the literal as the example value that the query's description links to. The title of such
a query asks about "a given" thing, never about the literal: the form can ask for another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from yimao_db.paths import queries_md_path

_BLOCK = re.compile(r"^## (?P<title>.+?)\n|```sql\n(?P<sql>.*?)```", re.S | re.M)
_NAME = re.compile(r"-- query: (\w+)")
_TITLE = re.compile(r"-- title: (\S.*)")
_PARAM = re.compile(r"-- param: (\w+) = ('(?:[^']|'')*'|\d+)")


@dataclass(frozen=True)
class Query:
    name: str
    title: str  # the question it answers (-- title:)
    heading: str  # the ## heading above it in docs/queries.md
    sql: str  # as printed in docs/queries.md, with its literals
    params: tuple[tuple[str, str], ...]  # (name, the literal it stands for)

    @property
    def canned_sql(self) -> str:
        """The SQL with ``:NAME`` in place of each parameter's literal, without its head
        (the ``-- query:``, ``-- title:`` and ``-- param:`` lines: the served query asks for
        its parameters instead); other comment lines are kept as they are."""
        lines = self.sql.splitlines()[2 + len(self.params) :]
        for name, literal in self.params:
            lines = [
                line if line.lstrip().startswith("--") else line.replace(literal, f":{name}")
                for line in lines
            ]
        return "\n".join(lines)

    @staticmethod
    def unquoted(literal: str) -> str:
        return literal[1:-1].replace("''", "'") if literal.startswith("'") else literal

    @property
    def example(self) -> dict[str, str]:
        """The parameters' values as printed in the file (a quoted literal unquoted)."""
        return {name: self.unquoted(literal) for name, literal in self.params}


def parse(markdown: str) -> dict[str, Query]:
    """Every query of a ``queries.md`` text by name; ValueError for a malformed block."""
    found: dict[str, Query] = {}
    heading = ""
    for m in _BLOCK.finditer(markdown):
        if m["title"] is not None:
            heading = m["title"].strip()
            continue
        block = m["sql"]
        lines = block.splitlines()
        head = _NAME.fullmatch(lines[0]) if lines else None
        if head is None:
            raise ValueError(f"query block without a '-- query: NAME' first line: {block[:40]!r}")
        title = _TITLE.fullmatch(lines[1].rstrip()) if len(lines) > 1 else None
        if title is None:
            raise ValueError(f"{head[1]}: expected '-- title: QUESTION' as the second line")
        params = []
        for line in lines[2:]:
            if not line.startswith("-- param:"):
                break
            p = _PARAM.fullmatch(line)
            if p is None:
                raise ValueError(f"{head[1]}: expected '-- param: NAME = LITERAL', got {line!r}")
            params.append((p[1], p[2]))
        query = Query(head[1], title[1], heading, block.strip().rstrip(";"), tuple(params))
        for name, literal in query.params:
            body = [x for x in query.sql.splitlines() if not x.lstrip().startswith("--")]
            if not any(literal in x for x in body):
                raise ValueError(f"{query.name}: parameter {name}'s literal {literal} is unused")
        if query.name in found:
            raise ValueError(f"two queries named {query.name}")
        if any(q.title == query.title for q in found.values()):
            raise ValueError(f"{query.name}: another query has the title {query.title!r}")
        for _name, literal in query.params:
            value = Query.unquoted(literal)
            if value in query.title:
                raise ValueError(
                    f"{query.name}: the title names the parameter's value {value}; "
                    "a served query asks for any value"
                )
        found[query.name] = query
    return found


def queries(path: Path | None = None) -> dict[str, Query]:
    """The queries of ``docs/queries.md`` (shipped inside the package when installed)."""
    return parse((path or queries_md_path()).read_text(encoding="utf-8"))
