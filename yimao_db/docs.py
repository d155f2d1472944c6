"""The database documents itself: rows for ``meta_table`` and ``meta_column``, and what is
generated from them (``docs/schema.md``, the datasette ``metadata.json``).

Tables are described by their models: the docstring is the table's description, each
column's ``comment`` its description, and the domain is read from the CHECK constraints
(``one_of``, ``between``, ``boolean``, ``bits``) and foreign keys. Views have no model, so
:data:`VIEW_DOCS` describes each of them column by column; the seed needs no database, and
``tests/test_docs.py`` compares these rows with the columns of the live database, so a view
or column added without a description fails the tests.

A row's ``passage`` is the first ``§chapter.passage`` its description cites that exists in
``source_passage``. Citations follow ``shared/seed/passages.tsv``, whose chapter 7 runs one
behind the spec's from §7.3 on (the spec's §7.4–7.13 are passages 7.3–7.12).

``python -m yimao_db.docs [PATH]`` writes ``docs/schema.md``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import CheckConstraint, Column, Connection, Integer, MetaData, String, Table, text
from sqlalchemy import inspect as sa_inspect

from yimao_db.facts import read_tsv
from yimao_db.schema import metadata as schema_metadata
from yimao_db.schema.docs import SECTIONS

Row = dict[str, Any]

TITLE = "yimao-db: 程良玉《易冒》卷一 as data"
DESCRIPTION = (
    "The rules and images of 程良玉《易冒》卷一 (Qing dynasty) as a relational knowledge base: "
    "納甲 hexagrams and lines, the rule and symbol tables with the passages they come from, "
    "name aliases, and stored readings. Every table, view and column is described in "
    "meta_table and meta_column."
)
SOURCE = "程良玉《易冒》卷一 (Qing dynasty); passages numbered as in shared/seed/passages.tsv"
LICENSE = "MIT (yimao-db's code and data); the book itself is in the public domain"
PASSAGE_NOTE = (
    "Citations `§chapter.passage` follow `shared/seed/passages.tsv`. In chapter 7 that "
    "numbering runs one behind the spec's from §7.3 on: the spec's §7.4–§7.13 are passages "
    "7.3–7.12 here."
)

CITATION_VIEW = "v_passage_citation"


@dataclass(frozen=True)
class Doc:
    """A hand-written description of a view (or of a table that has no model)."""

    section: str
    description: str
    columns: tuple[tuple[str, str, str | None], ...]  # name, description, domain
    kind: str = "view"


def _c(name: str, description: str, domain: str | None = None) -> tuple[str, str, str | None]:
    return (name, description, domain)


FLAG = "0/1"
KW = "1..64"
POS = "1..6"

VIEW_DOCS: dict[str, Doc] = {
    # --- revision 0001 -------------------------------------------------------------------
    "v_ganzhi": Doc(
        "core",
        "The sixty stem-branch pairs (§1.2) with their 納音 (§1.4–1.5), the 旬 they open "
        "and its two void branches.",
        (
            _c("ordinal", "1..60 from 甲子", "1..60"),
            _c("name", "The pair, e.g. 甲子", "FK ganzhi.name"),
            _c("stem", "Its stem", "FK stem.name"),
            _c("branch", "Its branch", "FK branch.name"),
            _c("nayin_element", "Element of its 納音 by the 大衍 rule (§1.5)", "FK element.name"),
            _c("nayin_name", "Its 納音, e.g. 海中金 (§1.4)", "FK nayin.name"),
            _c("xun_head", "The 甲 that opens its decade 旬", "FK ganzhi.name"),
            _c("void_branches", "The decade's two void branches 旬空, e.g. 戌亥", "two branches"),
            _c("nayin_ordinal", "1..30: which 納音 pair it belongs to", "1..30"),
        ),
    ),
    "v_hexagram": Doc(
        "core",
        "Each of the 64 hexagrams as a practitioner reads it (§3.3): palace and its element, "
        "generation, world and response, star, mansions, 卦身 and 世身.",
        (
            _c("king_wen", "King Wen number", KW),
            _c("bits", "Lines bottom first, 1 = yang", "6 characters 0/1"),
            _c("name", "Full name, e.g. 天風姤", "FK hexagram.name"),
            _c("short_name", "Short name, e.g. 姤", "FK hexagram.short_name"),
            _c("upper", "Outer (upper) trigram 外卦", "FK trigram.name"),
            _c("lower", "Inner (lower) trigram 內卦", "FK trigram.name"),
            _c("palace", "Its palace (§3.3)", "FK palace.name"),
            _c("palace_element", "The palace trigram's element, the 我 of the relatives", None),
            _c("palace_order", "The palace's place in 京房 order 乾 震 坎 艮 坤 巽 離 兌", "1..8"),
            _c("generation", "Generation in its palace: 0 本宮 .. 5 五世, 6 遊魂, 7 歸魂", "0..7"),
            _c("generation_name", "本宮 一世 … 五世 遊魂 歸魂", "FK generation.name"),
            _c("world", "World line 世 (§8.3)", POS),
            _c("response", "Response line 應 (§8.3)", POS),
            _c("five_star", "The star descending on it (§8.6)", "FK star.name"),
            _c("world_ganzhi", "Stem and branch of the world line", "FK ganzhi.name"),
            _c("world_mansion_jingfang", "京房 mansion of the world line (§8.10)", None),
            _c("world_mansion_huangjin", "黃金策 mansion of the world line (§8.11)", None),
            _c("gua_shen", "卦身 (月卦身) branch (§9.1)", "FK branch.name"),
            _c("shi_shen_line", "世身 line position (§9.1)", POS),
            _c("palace_sequence", "1..64 in the palace-by-palace walk (乾 = 1, 歸妹 = 64)", KW),
        ),
    ),
    "v_line": Doc(
        "core",
        "The 384 lines with their hexagram: najia stem and branch (§4.1), element, relative, "
        "world/response/between flags and 黃金策 mansion.",
        (
            _c("king_wen", "The hexagram's King Wen number", KW),
            _c("bits", "The hexagram's bits, bottom first", "6 characters 0/1"),
            _c("position", "Line 1..6 from the bottom", POS),
            _c("yang", "1 yang, 0 yin", FLAG),
            _c("stem", "Najia stem (fixed table)", "FK stem.name"),
            _c("branch", "Najia branch", "FK branch.name"),
            _c("ganzhi", "Stem + branch", "FK ganzhi.name"),
            _c("element", "The branch's element", "FK element.name"),
            _c("relative", "Relative against the palace element (§6.1)", "FK relative.name"),
            _c("is_world", "1 on the world line", FLAG),
            _c("is_response", "1 on the response line", FLAG),
            _c("is_between", "1 on the two lines between world and response (§10.1)", FLAG),
            _c("mansion", "黃金策 mansion of this line (§8.11)", "FK mansion.name"),
            _c("hexagram_name", "The hexagram's full name", "FK hexagram.name"),
        ),
    ),
    "v_hidden": Doc(
        "core",
        "伏神: the relatives a hexagram lacks, taken from its palace's pure hexagram, with "
        "the 飛神 line they hide under (standard).",
        (
            _c("king_wen", "The hexagram", KW),
            _c("position", "The line it hides under, 1..6", POS),
            _c("relative", "The hidden relative", "FK relative.name"),
            _c("ganzhi", "Its stem and branch (from the pure hexagram)", "FK ganzhi.name"),
            _c("element", "Its element", "FK element.name"),
            _c("over_ganzhi", "Stem and branch of the line above it (飛神)", "FK ganzhi.name"),
            _c("stem", "Its najia stem", "FK stem.name"),
            _c("branch", "Its najia branch", "FK branch.name"),
            _c("over_relative", "Relative of the line above it (飛神)", "FK relative.name"),
        ),
    ),
    # --- revision 0003 -------------------------------------------------------------------
    "v_month_spirit_branch": Doc(
        "rules",
        "大六神 by branch (§7.2, §7.10): for each month, the spirits standing on each branch "
        "(at most two), for joining a line's branch.",
        (
            _c("month_branch", "The month's branch", "FK branch.name"),
            _c("branch", "A branch some spirit stands on that month", "FK branch.name"),
            _c("spirit_count", "How many spirits stand on it", "1..2"),
            _c("spirits", "The spirits, in cycle order, joined by ','", "e.g. 青龍 or 朱雀,騰蛇"),
        ),
    ),
    "v_hexagram_pattern": Doc(
        "readings",
        "Facts of a whole hexagram read from its lines: 互卦, 六衝卦 and 六合卦 (all three "
        "pairs 1–4, 2–5, 3–6 clash or combine) and the lines holding the 卦身 (§9.1).",
        (
            _c("king_wen", "The hexagram", KW),
            _c("nuclear_king_wen", "Its nuclear hexagram 互卦 (lines 2–4 below, 3–5 above)", KW),
            _c("is_liuchong", "1 for a 六衝卦: its three line pairs clash", FLAG),
            _c("is_liuhe", "1 for a 六合卦: its three line pairs combine", FLAG),
            _c(
                "gua_shen_positions",
                "The lines whose branch is the 卦身, joined by ',' (empty when absent, §9.1)",
                "e.g. 3 or 2,5 or empty",
            ),
        ),
    ),
    "v_reading_cast": Doc(
        "readings",
        "What each reading's cast lines give: primary and changed bits and the moving lines.",
        (
            _c("reading_id", "The reading", "FK reading.id"),
            _c("primary_bits", "本卦 bits: 7 and 9 are yang", "6 characters 0/1"),
            _c("changed_bits", "變卦 bits: 6 and 9 flipped", "6 characters 0/1"),
            _c("moving_lines", "Positions of the moving lines joined by ','", "e.g. 1,4"),
            _c("moving_count", "Number of moving lines", "0..6"),
            _c("line_count", "Number of cast lines stored (6 for a complete reading)", "6"),
        ),
    ),
    "v_reading": Doc(
        "readings",
        "A reading's chart header: the moment, its void branches, primary and changed "
        "hexagrams, palace, generation, 互卦, 六衝/六合 and the two bodies, all joined from "
        "the reference and rule tables.",
        (
            _c("reading_id", "The reading", "FK reading.id"),
            _c("question", "The question, verbatim", None),
            _c("cast_at", "The moment as local civil time with offset, ISO 8601", None),
            _c("tz", "IANA time zone of cast_at", None),
            _c("year_gz", "Year pillar", "FK ganzhi.name or NULL"),
            _c("month_gz", "Month pillar", "FK ganzhi.name or NULL"),
            _c("day_gz", "Day pillar", "FK ganzhi.name"),
            _c("hour_gz", "Hour pillar", "FK ganzhi.name or NULL"),
            _c("void_branches", "The day's two void branches 旬空", "two branches"),
            _c("primary_king_wen", "本卦, the primary hexagram", KW),
            _c("primary_name", "The primary hexagram's full name", "FK hexagram.name"),
            _c("changed_king_wen", "變卦, the changed hexagram; NULL with no moving line", KW),
            _c("changed_name", "The changed hexagram's full name", "FK hexagram.name or NULL"),
            _c("palace", "The primary hexagram's palace", "FK palace.name"),
            _c("moving_lines", "Positions of the moving lines joined by ','", "e.g. 1,4"),
            _c("nuclear_king_wen", "互卦 of the primary hexagram", KW),
            _c("is_liuchong", "1 if the primary hexagram is a 六衝卦", FLAG),
            _c("is_liuhe", "1 if the primary hexagram is a 六合卦", FLAG),
            _c(
                "generation_name", "The primary's generation; 遊魂 change, 歸魂 return (§8.5)", None
            ),
            _c("gua_shen", "卦身 branch of the primary hexagram (§9.1)", "FK branch.name"),
            _c("gua_shen_positions", "Lines holding the 卦身, joined by ',' (§9.1)", None),
            _c("shi_shen_line", "世身 line of the primary hexagram (§9.1)", POS),
            _c("created_at", "When the reading was stored, UTC ISO 8601", None),
            _c("method", "How it was cast", "values/coins/notation/hexagram/random"),
            _c("cast_input", "What was typed to cast it (NULL for random)", None),
            _c("month_branch", "月建, the month's branch", "FK branch.name"),
            _c("solar_term", "The solar term in force at cast_at", None),
            _c("half_year", "冬至後 or 夏至後 at cast_at (§4.3)", "冬至後/夏至後 or NULL"),
            _c("early_rat", "1 if 23:00–24:00 counted as the next day (早子時)", FLAG),
            _c("najia_variant", "fixed (default) or seasonal 二老時遷 (§4.3)", "fixed/seasonal"),
            _c("primary_bits", "The primary hexagram's bits", "6 characters 0/1"),
            _c("changed_bits", "The changed hexagram's bits; NULL with no moving line", None),
            _c("primary_short_name", "The primary hexagram's short name", None),
            _c("changed_short_name", "The changed hexagram's short name", None),
        ),
    ),
    "v_reading_line": Doc(
        "readings",
        "A reading's six lines against the moment: najia (seasonal variant applied), "
        "relative, the spirits by day, hour and month and the noble's general (§7.2), void, "
        "月破, 日衝, strength and stage, and for moving lines the changed line and its "
        "transformations (§8.14).",
        (
            _c("reading_id", "The reading", "FK reading.id"),
            _c("position", "Line 1..6 from the bottom", POS),
            _c("value", "6 old yin, 7 young yang, 8 young yin, 9 old yang", "6..9"),
            _c("is_moving", "1 for 6 and 9, the moving lines", FLAG),
            _c("stem", "Najia stem under the reading's variant (§4.3)", "FK stem.name"),
            _c("branch", "Najia branch", "FK branch.name"),
            _c("element", "The branch's element", "FK element.name"),
            _c("relative", "Relative against the palace element", "FK relative.name"),
            _c("spirit", "司日: the spirit by the day stem (§7.2)", "FK spirit.name"),
            _c("hour_spirit", "司時: the spirit by the hour stem (§7.2); NULL with no hour", None),
            _c(
                "month_spirit",
                "司月 / 大六神: the spirits on the line's branch this month, joined by ',' "
                "(§7.2, §7.10); NULL if none",
                None,
            ),
            _c(
                "noble_general",
                "司貴: the general on the line's branch for the day stem and the hour's noble "
                "(§7.2); NULL with no hour",
                "FK general.name or NULL",
            ),
            _c("is_world", "1 on the world line", FLAG),
            _c("is_response", "1 on the response line", FLAG),
            _c("is_between", "1 on the two lines between world and response (§10.1)", FLAG),
            _c("mansion", "黃金策 mansion of the line (§8.11)", "FK mansion.name"),
            _c("is_dusk_mansion", "1 if it is the month's 昏中 mansion (§8.12)", FLAG),
            _c("is_void", "1 if its branch is void 旬空 on the day", FLAG),
            _c("is_month_break", "1 if its branch clashes the month branch 月破", FLAG),
            _c("is_day_clash", "1 if its branch clashes the day branch 日衝", FLAG),
            _c("strength", "Seasonal strength in the month 旺相休囚死", "FK strength.name"),
            _c("stage", "Twelve stage of its element at the day branch", "FK stage.name"),
            _c("changed_stem", "Moving lines: the changed line's najia stem", None),
            _c("changed_branch", "Moving lines: the changed line's branch", None),
            _c("changed_element", "Moving lines: the changed line's element", None),
            _c(
                "changed_relative",
                "Moving lines: the changed line's relative, against the primary palace",
                None,
            ),
            _c(
                "transform",
                "Moving lines: 化進神 化退神 回頭生 回頭克 化空 化破 化墓 化絕 that apply, "
                "joined by ',' (§8.14); NULL for a still line",
                None,
            ),
            _c("ganzhi", "Stem + branch of the line", "FK ganzhi.name"),
            _c("changed_ganzhi", "Moving lines: stem + branch of the changed line", None),
        ),
    ),
    "v_reading_hidden": Doc(
        "readings",
        "A reading's hidden spirits 伏神 against the moment: void, 月破, strength and stage.",
        (
            _c("reading_id", "The reading", "FK reading.id"),
            _c("position", "The line it hides under, 1..6", POS),
            _c("relative", "The hidden relative", "FK relative.name"),
            _c("ganzhi", "Its stem and branch under the reading's najia variant", None),
            _c("element", "Its element", "FK element.name"),
            _c("over_ganzhi", "Stem and branch of the line above it (飛神)", None),
            _c("is_void", "1 if its branch is void 旬空 on the day", FLAG),
            _c("is_month_break", "1 if its branch clashes the month branch 月破", FLAG),
            _c("strength", "Seasonal strength in the month", "FK strength.name"),
            _c("stage", "Twelve stage of its element at the day branch", "FK stage.name"),
            _c("stem", "Its najia stem (fixed table)", "FK stem.name"),
            _c("branch", "Its najia branch", "FK branch.name"),
            _c("over_relative", "Relative of the line above it (飛神)", "FK relative.name"),
        ),
    ),
    # --- revision 0004 -------------------------------------------------------------------
    CITATION_VIEW: Doc(
        "docs",
        "Every row that cites a passage, per passage: one row for each row of each table "
        "with a passage column (the rule and symbol tables and the documentation tables).",
        (
            _c("passage", "The passage cited, §chapter.passage", "FK source_passage.id"),
            _c("chapter_no", "Its chapter number", "1..10"),
            _c("passage_no", "Its number within the chapter", None),
            _c("chapter", "The chapter's title, e.g. 六神章第七", None),
            _c("table_name", "The table holding the citing row", "FK meta_table.name"),
            _c(
                "row_key",
                "The citing row's primary key, its columns joined by '|' in key order "
                "(e.g. 六衝|子|午 for branch_relation)",
                None,
            ),
            _c(
                "basis",
                "The row's basis (book, standard, decision); NULL for documentation rows",
                "book/standard/decision or NULL",
            ),
        ),
    ),
}

# tables that exist in the database without a model
EXTRA_TABLE_DOCS: dict[str, Doc] = {
    "alembic_version": Doc(
        "system",
        "The schema revision the database is at, kept by alembic; `yimao build` upgrades it.",
        (_c("version_num", "The revision id, e.g. 0004", "text ≤ 32"),),
        kind="table",
    ),
}

# --- domains ------------------------------------------------------------------------------

_IN = re.compile(r"^\s*(\w+)\s+IN\s*\((.*)\)\s*$", re.S)
_BETWEEN = re.compile(r"^\s*(\w+)\s+BETWEEN\s+(-?\d+)\s+AND\s+(-?\d+)\s*$")
_BITS = re.compile(r"^\s*length\((\w+)\)\s*=\s*(\d+)\s+AND\s+replace")
_VALUE = re.compile(r"'((?:[^']|'')*)'|(-?\d+)")
_CITE = re.compile(r"§(\d+)\.(\d+)")


def _check_domains(table: Table) -> dict[str, str]:
    """Column -> domain from the table's simple CHECK constraints."""
    found: dict[str, str] = {}
    for constraint in table.constraints:
        if not isinstance(constraint, CheckConstraint):
            continue
        sql = str(constraint.sqltext)
        if m := _IN.match(sql):
            values = [a.replace("''", "'") if a or not b else b for a, b in _VALUE.findall(m[2])]
            found[m[1]] = "/".join(values)
        elif m := _BETWEEN.match(sql):
            found[m[1]] = f"{m[2]}..{m[3]}"
        elif m := _BITS.match(sql):
            found[m[1]] = f"{m[2]} characters 0/1"
    return found


def _type_domain(column: Column[Any]) -> str:
    if isinstance(column.type, String) and column.type.length:
        return f"text ≤ {column.type.length}"
    if isinstance(column.type, Integer):
        return "integer"
    return "text"


def column_domain(table: Table, column: Column[Any]) -> str:
    """The values ``column`` takes: CHECK domain and/or FK target, else its type."""
    parts = []
    check = _check_domains(table).get(column.name)
    if check:
        parts.append(check)
    parts += sorted(f"FK {fk.target_fullname}" for fk in column.foreign_keys)
    domain = "; ".join(parts) or _type_domain(column)
    return f"{domain} or NULL" if column.nullable and not column.primary_key else domain


def first_passage(description: str, passages: Iterable[str]) -> str | None:
    """The first ``§c.p`` cited in ``description`` that is a known passage id."""
    known = set(passages)
    for m in _CITE.finditer(description):
        cited = f"{m[1]}.{m[2]}"
        if cited in known:
            return cited
    return None


def _flat(text_: str | None) -> str:
    return " ".join((text_ or "").split())


# --- the rows -----------------------------------------------------------------------------


def _section(table: Table) -> str:
    return str(table.info["section"])


def sort_key(row: Mapping[str, Any]) -> tuple[int, int, str]:
    """Order of tables in the documentation: by section, tables before views, by name."""
    return (SECTIONS.index(row["section"]), row["kind"] == "view", row["name"])


def meta_rows(passages: Iterable[str], md: MetaData | None = None) -> dict[str, list[Row]]:
    """Rows of ``meta_table`` and ``meta_column`` for every table and view (no database)."""
    md = schema_metadata if md is None else md
    known = set(passages)
    tables: list[Row] = []
    columns: list[Row] = []
    for table in md.sorted_tables:
        description = _flat(table.comment)
        tables.append(
            {
                "name": table.name,
                "kind": "table",
                "section": _section(table),
                "description": description,
                "passage": first_passage(description, known),
            }
        )
        for ordinal, column in enumerate(table.columns, start=1):
            text_ = _flat(column.comment)
            columns.append(
                {
                    "table_name": table.name,
                    "column_name": column.name,
                    "ordinal": ordinal,
                    "description": text_,
                    "domain": column_domain(table, column),
                    "is_key": int(column.primary_key),
                    "passage": first_passage(text_, known),
                }
            )
    for name, doc in {**EXTRA_TABLE_DOCS, **VIEW_DOCS}.items():
        tables.append(
            {
                "name": name,
                "kind": doc.kind,
                "section": doc.section,
                "description": doc.description,
                "passage": first_passage(doc.description, known),
            }
        )
        for ordinal, (column_name, text_, domain) in enumerate(doc.columns, start=1):
            columns.append(
                {
                    "table_name": name,
                    "column_name": column_name,
                    "ordinal": ordinal,
                    "description": text_,
                    "domain": domain,
                    "is_key": 1 if doc.kind == "table" else 0,
                    "passage": first_passage(text_, known),
                }
            )
    tables.sort(key=sort_key)
    return {"meta_table": tables, "meta_column": columns}


def seed_passages() -> list[str]:
    """The passage ids of ``seed/data/passages.tsv``."""
    return [f"{r['chapter_no']}.{r['passage_no']}" for r in read_tsv("passages")]


def problems(tables: Sequence[Row], columns: Sequence[Row]) -> list[str]:
    """What is wrong with documentation rows: empty descriptions, duplicates, bad order."""
    found: list[str] = []
    names = [t["name"] for t in tables]
    found += [f"{n}: documented twice" for n in sorted({n for n in names if names.count(n) > 1})]
    for t in tables:
        if not t["description"]:
            found.append(f"{t['name']}: no description")
    by_table: dict[str, list[Row]] = {}
    for c in columns:
        by_table.setdefault(c["table_name"], []).append(c)
        if not c["description"]:
            found.append(f"{c['table_name']}.{c['column_name']}: no description")
    for name in names:
        cols = by_table.get(name, [])
        if not cols:
            found.append(f"{name}: no columns documented")
        if sorted(c["ordinal"] for c in cols) != list(range(1, len(cols) + 1)):
            found.append(f"{name}: column ordinals are not 1..{len(cols)}")
    found += [f"{n}: columns of an undocumented table" for n in sorted(set(by_table) - set(names))]
    return found


# --- the citation view --------------------------------------------------------------------


def _as_text(column: Column[Any]) -> str:
    if isinstance(column.type, String):
        return column.name
    return f"CAST({column.name} AS VARCHAR(12))"


def cited_tables(md: MetaData | None = None) -> list[Table]:
    """Every table with a ``passage`` column, by name."""
    md = schema_metadata if md is None else md
    return sorted((t for t in md.tables.values() if "passage" in t.c), key=lambda t: t.name)


def citation_view_sql(md: MetaData | None = None) -> str:
    """The SQL of ``v_passage_citation``: a UNION ALL over every table with a passage.

    Revisions freeze its output; a table added with a passage column needs a new revision
    that recreates the view (``tests/test_docs.py`` checks the live view covers them all).
    """
    parts = []
    for table in cited_tables(md):
        key = " || '|' || ".join(_as_text(c) for c in table.primary_key.columns)
        basis = "basis" if "basis" in table.c else "CAST(NULL AS VARCHAR(8)) AS basis"
        parts.append(
            f"SELECT CAST('{table.name}' AS VARCHAR(40)) AS table_name,\n"
            f"       CAST({key} AS VARCHAR(120)) AS row_key, passage, {basis}\n"
            f"FROM {table.name}"
        )
    union = "\nUNION ALL\n".join(parts)
    return (
        "\nSELECT s.id AS passage, s.chapter_no, s.passage_no, s.chapter,\n"
        "       c.table_name, c.row_key, c.basis\n"
        f"FROM (\n{union}\n) c\n"
        "JOIN source_passage s ON s.id = c.passage\n"
    )


# --- reading the documentation back from a database ---------------------------------------


def read_meta(conn: Connection) -> tuple[list[Row], list[Row]]:
    """The ``meta_table`` and ``meta_column`` rows of a database, in documentation order."""
    tables = [dict(r) for r in conn.execute(text("SELECT * FROM meta_table")).mappings()]
    tables.sort(key=sort_key)
    columns = [
        dict(r)
        for r in conn.execute(
            text("SELECT * FROM meta_column ORDER BY table_name, ordinal")
        ).mappings()
    ]
    return tables, columns


def live_columns(conn: Connection) -> dict[str, tuple[str, list[str]]]:
    """Every table and view of the live database: name -> (kind, column names in order)."""
    inspector = sa_inspect(conn)
    found: dict[str, tuple[str, list[str]]] = {}
    for kind, names in (
        ("table", inspector.get_table_names()),
        ("view", inspector.get_view_names()),
    ):
        for name in names:
            found[name] = (kind, [c["name"] for c in inspector.get_columns(name)])
    return found


def undocumented(conn: Connection) -> list[str]:
    """Every table, view or column of the live database the meta tables do not describe
    (or describe wrongly); empty when the documentation is complete."""
    tables, columns = read_meta(conn)
    found = problems(tables, columns)
    documented = {t["name"]: t for t in tables}
    cols: dict[str, dict[str, Row]] = {}
    for c in columns:
        cols.setdefault(c["table_name"], {})[c["column_name"]] = c
    live = live_columns(conn)
    for name, (kind, names) in sorted(live.items()):
        doc = documented.get(name)
        if doc is None:
            found.append(f"{kind} {name}: not in meta_table")
            continue
        if doc["kind"] != kind:
            found.append(f"{name}: documented as a {doc['kind']}, is a {kind}")
        have = cols.get(name, {})
        for ordinal, column in enumerate(names, start=1):
            entry = have.get(column)
            if entry is None or not entry["description"]:
                found.append(f"{name}.{column}: no description in meta_column")
            elif entry["ordinal"] != ordinal:
                found.append(
                    f"{name}.{column}: documented as column {entry['ordinal']}, is {ordinal}"
                )
        found += [
            f"{name}.{c}: documented but not in the database"
            for c in sorted(set(have) - set(names))
        ]
    found += [
        f"{n}: documented but not in the database" for n in sorted(set(documented) - set(live))
    ]
    return found


def citation_gaps(conn: Connection) -> list[str]:
    """Tables of the live database with a passage column that ``v_passage_citation`` misses
    (or lists a different number of rows for); empty when the view covers them all."""
    inspector = sa_inspect(conn)
    definition = inspector.get_view_definition(CITATION_VIEW) or ""
    quote = conn.dialect.identifier_preparer.quote
    found = []
    for name in sorted(inspector.get_table_names()):
        if "passage" not in {c["name"] for c in inspector.get_columns(name)}:
            continue
        if not re.search(rf'\bFROM\s+(?:\w+\.)?"?{re.escape(name)}"?(?:\s|\)|$)', definition, re.I):
            found.append(f"{name}: not in the definition of {CITATION_VIEW}")
        cited = conn.execute(
            text(f"SELECT COUNT(*) FROM {quote(name)} WHERE passage IS NOT NULL")
        ).scalar_one()
        listed = conn.execute(
            text(f"SELECT COUNT(*) FROM {CITATION_VIEW} WHERE table_name = :name"), {"name": name}
        ).scalar_one()
        if cited != listed:
            found.append(f"{name}: {cited} rows cite a passage, {CITATION_VIEW} lists {listed}")
    return found


# --- generated documents ------------------------------------------------------------------


def _cell(value: Any) -> str:
    return "" if value is None else str(value).replace("|", "\\|").replace("\n", " ")


def schema_markdown(tables: Sequence[Row], columns: Sequence[Row]) -> str:
    """``docs/schema.md``: every table and view with its columns, from the meta rows."""
    by_table: dict[str, list[Row]] = {}
    for c in sorted(columns, key=lambda c: (c["table_name"], c["ordinal"])):
        by_table.setdefault(c["table_name"], []).append(c)
    ordered = sorted(tables, key=sort_key)
    out = [
        "# Schema",
        "",
        "<!-- Generated by `python -m yimao_db.docs` (or `yimao schema --markdown`); do not "
        "edit. tests/test_docs.py fails when this file is stale. -->",
        "",
        "Every table and view of the database, with the meaning and domain of each column. "
        "The same text is stored in the database itself, in `meta_table` and `meta_column` "
        "(`yimao schema [TABLE]` prints it, `yimao export-metadata` writes it for datasette). "
        "Table descriptions come from the models' docstrings and column comments in "
        "`yimao_db/schema/`, view descriptions from `yimao_db/docs.py`. Key columns are in "
        "bold. A domain `FK t.c` names the column it refers to; `v_passage_citation` lists "
        "every row that cites each passage.",
        "",
        PASSAGE_NOTE,
        "",
        "## Contents",
        "",
    ]
    for section in SECTIONS:
        names = [t for t in ordered if t["section"] == section]
        if names:
            links = ", ".join(f"[`{t['name']}`](#{t['name']})" for t in names)
            out.append(f"- **{section}**: {links}")
    for section in SECTIONS:
        names = [t for t in ordered if t["section"] == section]
        if not names:
            continue
        out += ["", f"## {section}"]
        for t in names:
            out += ["", f'<a id="{t["name"]}"></a>', "", f"### `{t['name']}` ({t['kind']})", ""]
            out += [t["description"], ""]
            out += ["| # | column | description | domain | § |", "|---|---|---|---|---|"]
            for c in by_table.get(t["name"], []):
                name = (
                    f"**{c['column_name']}**"
                    if c["is_key"] and t["kind"] == "table"
                    else (c["column_name"])
                )
                out.append(
                    f"| {c['ordinal']} | {name} | {_cell(c['description'])} | "
                    f"{_cell(c['domain'])} | {_cell(c['passage'])} |"
                )
    return "\n".join(out) + "\n"


def datasette_metadata(
    tables: Sequence[Row], columns: Sequence[Row], database: str = "yimao"
) -> dict[str, Any]:
    """A datasette ``metadata.json``: title, description, source, license, and every
    table's and view's description and column descriptions under ``databases.DATABASE``."""
    by_table: dict[str, dict[str, str]] = {}
    for c in sorted(columns, key=lambda c: (c["table_name"], c["ordinal"])):
        by_table.setdefault(c["table_name"], {})[c["column_name"]] = c["description"]
    return {
        "title": TITLE,
        "description": DESCRIPTION,
        "source": SOURCE,
        "license": LICENSE,
        "databases": {
            database: {
                "description": DESCRIPTION,
                "source": SOURCE,
                "license": LICENSE,
                "tables": {
                    t["name"]: {
                        "description": t["description"],
                        "columns": by_table.get(t["name"], {}),
                    }
                    for t in sorted(tables, key=sort_key)
                },
            }
        },
    }


def default_markdown_path() -> Path:
    """``docs/schema.md`` of the source checkout."""
    return Path(__file__).resolve().parent.parent / "docs" / "schema.md"


def generated_markdown() -> str:
    """``docs/schema.md`` as the code generates it (no database needed)."""
    rows = meta_rows(seed_passages())
    return schema_markdown(rows["meta_table"], rows["meta_column"])


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m yimao_db.docs [PATH]``: write ``docs/schema.md`` (or PATH)."""
    args = list(sys.argv[1:] if argv is None else argv)
    target = Path(args[0]) if args else default_markdown_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(generated_markdown(), encoding="utf-8")
    sys.stdout.write(f"wrote {target}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
