"""The families and the catalogue of signs in ``docs/signs.md``, generated from
:mod:`yimao_db.kb.rules.signs`.

The block between ``<!-- families:begin -->`` and ``<!-- families:end -->`` is the table of
the families (``FAMILIES``): each rule table, what its key reads and the signs it holds. The
block between ``<!-- signs:begin -->`` and ``<!-- signs:end -->`` is one table per chart
group: every sign with its subject, polarity, weight, condition in words, meaning, passage,
basis and the rule table holding its condition. ``python -m yimao_db.present.generate``
rewrites both; a test fails when the committed file is stale.
"""

from __future__ import annotations

import re
from pathlib import Path

from yimao_db.kb.rules.signs import FAMILIES, GROUPS, SIGNS

BEGIN, END = "<!-- signs:begin -->", "<!-- signs:end -->"
_BLOCK = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
FAMILIES_BEGIN, FAMILIES_END = "<!-- families:begin -->", "<!-- families:end -->"
_FAMILIES = re.compile(re.escape(FAMILIES_BEGIN) + r".*?" + re.escape(FAMILIES_END), re.S)
TITLES = {
    "use": "The 用神 and its chain (§6, docs/use.md)",
    "world": "World and response (世應章, §8)",
    "bodies": "The two bodies (身法章, §9)",
    "between": "The lines between (間爻章, §10)",
    "lines": "Lines, spirits, stars and mansions (§6, §7, §8, §10)",
}


def _cell(text: str | None) -> str:
    return "" if text is None else text.replace("|", "\\|")


def catalogue_markdown() -> str:
    """The generated block: one table per group, signs in catalogue order."""
    out = [BEGIN, ""]
    for group in GROUPS:
        out += [
            f"### {TITLES[group]}",
            "",
            "| sign | subject | polarity | weight | fires when | meaning | passage | basis "
            "| table |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for s in SIGNS:
            if s.group != group:
                continue
            passage = f"§{s.passage}" if s.passage else ""
            polarity = f"{s.polarity}, cancels {s.cancels}" if s.cancels else s.polarity
            out.append(
                f"| {s.name} | {s.subject} | {polarity} | {s.weight} | {_cell(s.condition)} "
                f"| {_cell(s.meaning)} ({s.meaning_zh}) | {passage} | {s.basis} | `{s.table}` |"
            )
        out.append("")
    out.append(END)
    return "\n".join(out)


def families_markdown() -> str:
    """The generated block: one row per family, in the registry's order."""
    out = [
        FAMILIES_BEGIN,
        "",
        "| rule table | key | signs |",
        "|---|---|---|",
    ]
    for f in FAMILIES:
        names = " ".join(s.name for s in SIGNS if s.table == f.table)
        out.append(f"| `{f.table}` | {_cell(f.reads)} | {names} |")
    out += ["", FAMILIES_END]
    return "\n".join(out)


def with_catalogue(text: str) -> str:
    """``text`` with its generated families table and catalogue brought up to date."""
    text = _FAMILIES.sub(lambda _: families_markdown(), text)
    return _BLOCK.sub(lambda _: catalogue_markdown(), text)


def signs_md_path(schema_md: Path) -> Path:
    """``docs/signs.md`` beside ``docs/schema.md``."""
    return schema_md.with_name("signs.md")
