"""Seed: the symbol tables of chapters 2 and 5–10, typed in as ``seed/data/*.tsv``.

Each table's rows are read from the TSV of the same name; empty cells become NULL and
integer columns are converted by the column's type. The self-checks hold the tables to the
book's structure: ten moving-relative images, five of each kind, each the generating or
controlling step of the element cycle; every spirit described; every citation a real passage.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from yimao_db.kb.facts import read_tsv
from yimao_db.kb.schema import metadata
from yimao_db.kb.schema.base import BASIS

Rows = dict[str, list[dict[str, Any]]]

TABLES = (
    "coin_face",
    "cast_method",
    "matter",
    "spirit_nature",
    "spirit_layer",
    "element_correspondence",
    "element_trigram",
    "five_omen",
    "seven_luminary",
    "relative_symbol",
    "moving_relative",
    "spirit_attribute",
    "spirit_affinity",
    "spirit_preference",
    "star_meaning",
    "world_omen",
    "body_condition",
    "body_weight",
    "matter_preference",
    "between_use",
    "line_role",
    "line_aspect",
)

COUNTS = {
    "element_correspondence": 5,
    "element_trigram": 6,
    "five_omen": 5,
    "seven_luminary": 7,
    "moving_relative": 10,
    "spirit_attribute": 6,
    "spirit_affinity": 4,
    "spirit_preference": 8,
    "world_omen": 15,
    "body_weight": 3,
    "spirit_nature": 6,
    "spirit_layer": 4,
    "coin_face": 2,
    "line_aspect": 2,
}

# Offsets of each relative's element from the palace element, in generating steps.
RELATION_STEP = {"same": 0, "i_generate": 1, "i_control": 2, "controls_me": 3, "generates_me": 4}
KIND_STEP = {"生象": 1, "克象": 2}  # generating moves one step, controlling two
BODY_CONDITIONS = ("空", "動", "破", "衝", "散")  # §9.4, the 世身's five


def table_rows(name: str) -> list[dict[str, Any]]:
    """Rows of ``seed/data/NAME.tsv`` typed for table NAME: '' is NULL, int columns int."""
    columns = metadata.tables[name].columns
    out = []
    for raw in read_tsv(name):
        row: dict[str, Any] = {}
        for key, value in raw.items():
            if value == "":
                row[key] = None
            elif key in columns and columns[key].type.python_type is int:
                row[key] = int(value)
            else:
                row[key] = value
        out.append(row)
    return out


def rows(done: Mapping[str, list[dict[str, Any]]]) -> Rows:
    return {name: table_rows(name) for name in TABLES}


def _column_checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failures = []
    passages = {r["id"] for r in tables.get("source_passage", [])}
    for name in TABLES:
        wanted = set(metadata.tables[name].columns.keys())
        for i, row in enumerate(tables.get(name, []), 1):
            if set(row) != wanted:
                failures.append(f"{name} row {i}: columns {sorted(set(row) ^ wanted)} differ")
            if row.get("basis") not in BASIS:
                failures.append(f"{name} row {i}: basis {row.get('basis')!r}")
            if passages and row.get("passage") is not None and row["passage"] not in passages:
                failures.append(f"{name} row {i}: no passage §{row['passage']}")
    for name, count in COUNTS.items():
        if len(tables.get(name, [])) != count:
            failures.append(f"{name}: expected {count} rows, found {len(tables.get(name, []))}")
    return failures


def _moving_checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failures = []
    moving = tables.get("moving_relative", [])
    kinds = Counter(r["kind"] for r in moving)
    if kinds != Counter({"生象": 5, "克象": 5}):
        failures.append(f"§6.5–6.6: expected five 生象 and five 克象, found {dict(kinds)}")
    relation = {r["name"]: r["relation"] for r in tables.get("relative", [])}
    for r in moving:
        if r["mover"] in relation and r["target"] in relation:
            step = RELATION_STEP[relation[r["target"]]] - RELATION_STEP[relation[r["mover"]]]
            if step % 5 != KIND_STEP[r["kind"]]:
                failures.append(
                    f"§6.5–6.6: {r['mover']} {r['kind']} {r['target']} is not that step"
                )
    for kind in KIND_STEP:
        for column in ("mover", "target"):
            got = Counter(r[column] for r in moving if r["kind"] == kind)
            if relation and set(got) != set(relation):
                failures.append(f"§6.5–6.6: {kind} {column}s are {sorted(got)}")
    themes = Counter(
        r["relative"] for r in tables.get("relative_symbol", []) if r["aspect"] == "theme"
    )
    if relation and themes != Counter(dict.fromkeys(relation, 1)):
        failures.append(f"§6.2–6.4: one theme per relative expected, found {dict(themes)}")
    return failures


def _element_checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failures = []
    branch_element = {r["name"]: r["element"] for r in tables.get("branch", [])}
    for r in tables.get("element_correspondence", []):
        if (
            r["branch"] is not None
            and branch_element.get(r["branch"], r["element"]) != r["element"]
        ):
            failures.append(f"§5: {r['element']}'s branch {r['branch']} is of another element")
    trigram_element = {r["name"]: r["element"] for r in tables.get("trigram", [])}
    for r in tables.get("element_trigram", []):
        if trigram_element.get(r["trigram"], r["element"]) != r["element"]:
            failures.append(f"§5.7: trigram {r['trigram']} is not {r['element']}")
    elements = {r["name"] for r in tables.get("element", [])}
    for name in ("element_correspondence", "element_trigram", "five_omen"):
        got = {r["element"] for r in tables.get(name, [])}
        if elements and got != elements:
            failures.append(f"{name}: elements {sorted(got)} do not cover the five")
    return failures


def _spirit_checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failures = []
    spirits = {r["name"]: r for r in tables.get("spirit", [])}
    described = Counter(r["spirit"] for r in tables.get("spirit_attribute", []))
    if spirits and described != Counter(dict.fromkeys(spirits, 1)):
        failures.append(f"§7.3–7.7: one attribute row per spirit expected, found {dict(described)}")
    controls = {r["name"]: r["controls"] for r in tables.get("element", [])}
    for r in tables.get("spirit_affinity", []):
        spirit = spirits.get(r["spirit"])
        if spirit is None or not controls:
            continue
        if controls.get(r["condition"][0]) != spirit["element"]:
            failures.append(f"§7.8: {r['condition']} does not control {r['spirit']}")
        subduer = spirits.get(r["subduer"] or "")
        if subduer is not None and subduer["element"] != r["condition"][0]:
            failures.append(f"§7.8: {r['subduer']} is not of {r['condition']}")
    natures = {r["nature"] for r in tables.get("spirit_nature", [])}
    named = Counter(r["spirit"] for r in tables.get("spirit_nature", []))
    if spirits and named != Counter(dict.fromkeys(spirits, 1)):
        failures.append(f"§7.9: one nature per spirit expected, found {dict(named)}")
    preferred = Counter(r["nature"] for r in tables.get("spirit_preference", []))
    if natures != set(preferred) or set(preferred.values()) != {4}:
        failures.append(f"§7.9: four conditions for each of 吉 and 凶, found {dict(preferred)}")
    return failures


def _reading_checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failures = []
    stars = {r["name"] for r in tables.get("star", [])}
    described = {r["star"] for r in tables.get("star_meaning", [])}
    if stars and described != stars:
        failures.append(f"§8.8–8.9: stars without meanings: {sorted(stars - described)}")
    shi_shen = tuple(
        r["condition"] for r in tables.get("body_condition", []) if r["body"] == "世身"
    )
    if sorted(shi_shen) != sorted(BODY_CONDITIONS):
        failures.append(f"§9.4: the 世身 conditions are {shi_shen}")
    vocab = {
        "relative": {r["name"] for r in tables.get("relative", [])},
        "spirit": {r["name"] for r in tables.get("spirit", [])},
        "general": {r["name"] for r in tables.get("general", [])},
        "shensha": {r["name"] for r in tables.get("shensha", [])},
        "condition": set(BODY_CONDITIONS),
    }
    for r in tables.get("matter_preference", []):
        known = vocab[r["item_kind"]]
        if known and r["item"] not in known:
            failures.append(f"§9.5: {r['item']} is not a {r['item_kind']}")
    uses = Counter(r["use"] for r in tables.get("between_use", []))
    if uses["obstacle"] != 7 or uses["helper"] != 7:
        failures.append(
            f"§10.2–10.3: seven obstacles and seven helpers expected, found {dict(uses)}"
        )
    positions = {r["position"] for r in tables.get("line_role", [])}
    if positions != set(range(1, 7)):
        failures.append(f"§10.5: positions with roles: {sorted(positions)}")
    return failures


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    return (
        _column_checks(tables)
        + _moving_checks(tables)
        + _element_checks(tables)
        + _spirit_checks(tables)
        + _reading_checks(tables)
    )
