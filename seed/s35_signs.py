"""Seed: the signs (the judgments of 卷一 applied to a reading) and the rule tables they read.

Every family table's rows come from its declaration in ``FAMILIES``
(:func:`yimao_db.kb.rules.signs.family_rows`: the enumeration of its keys against the signs'
conditions, or its requirements); the rule tables the view joins to build the keys
(``line_place``, ``mask_line``, ``branch_bearing``, ``shensha_on``) come from the same rules.
The self-checks hold the signs to the book's own tables: 重 and 交 as ``line_aspect`` keys
them, the moving relatives as ``moving_relative``, the affinities as ``spirit_affinity``;
every sign can fire; the najia rules rebuild the najia table.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import bodies, day_month, hidden_stems, lines, najia, shensha, signs
from yimao_db.kb.rules.ganzhi import sixty
from yimao_db.kb.rules.hexagrams import gua_shen_positions, hexagrams
from yimao_db.kb.vocab import AFTER_WINTER

Rows = dict[str, list[dict[str, Any]]]

BOOK, STANDARD, DECISION = "book", "standard", "decision"
SHENSHA = {
    shensha.XIANCHI: (
        "the 沐浴 branch of the element of the day branch's 三合: 申子辰 酉, 寅午戌 卯, "
        "巳酉丑 午, 亥卯未 子",
        "8.9",
        STANDARD,
    ),
    shensha.TIANCAI: (
        "a line whose najia stem is of the element the day stem controls (天 read as the "
        "stems, 財 as what the day controls)",
        "9.5",
        DECISION,
    ),
    shensha.DICAI: (
        "a line whose branch is of the element the day stem controls (地 read as the branches)",
        "9.5",
        DECISION,
    ),
}


def cite(passage: str | None, basis: str) -> dict[str, Any]:
    return {"passage": passage, "basis": basis}


def sign_rows() -> Rows:
    def attributes(name: str) -> dict[str, Any]:
        s = signs.by_name()[name]
        return cite(s.passage, s.basis)

    rows: Rows = {
        "sign_weight": [
            {"weight": w.weight, "name": w.name, "gloss": w.gloss, **cite(w.passage, w.basis)}
            for w in signs.WEIGHTS
        ],
        "sign": [
            {
                "name": s.name,
                "ordinal": i,
                "subject": s.subject,
                "chart_group": s.group,
                "polarity": s.polarity,
                "weight": s.weight,
                "rule_table": s.table,
                "condition": s.condition,
                "meaning": s.meaning,
                "meaning_zh": s.meaning_zh,
                "cancels": s.cancels,
                **cite(s.passage, s.basis),
            }
            for i, s in enumerate(signs.SIGNS, 1)
        ],
    }
    for family in signs.FAMILIES:
        rows[family.table] = [
            {**r, **attributes(r["sign"])} for r in signs.family_rows(family.table)
        ]
    return rows


def place_rows() -> Rows:
    out = []
    for h in sorted(hexagrams().values(), key=lambda h: h.king_wen):
        branches = [line.branch for line in h.lines]
        for p in signs.line_places(
            h.world,
            h.response,
            h.generation,
            gua_shen_positions(branches, h.gua_shen),
            h.shi_shen_line,
        ):
            out.append(
                {
                    "king_wen": h.king_wen,
                    "position": p.position,
                    "place": p.place,
                    **cite(p.passage, p.basis),
                }
            )
    return {
        "line_place": out,
        "line_places": [
            {
                "king_wen": h.king_wen,
                "position": p,
                "places": ",".join(found),
                **cite("10.5", DECISION if {bodies.COMING, bodies.PAST} & set(found) else BOOK),
            }
            for h in sorted(hexagrams().values(), key=lambda h: h.king_wen)
            for p in range(1, 7)
            for found in [bodies.places(p, h.shi_shen_line, h.world, h.response)]
        ],
        "mask_line": [
            {
                "mask": mask,
                "position": p,
                "is_moving": int(p in lines.mask_lines(mask)),
                "is_sole": int(lines.is_sole(mask, p)),
                **cite("8.7", BOOK),
            }
            for mask in range(64)
            for p in range(1, 7)
        ],
    }


def moment_rows() -> Rows:
    f = facts()
    bearing = [
        (actor, branch, day_month.bearing(actor, branch))
        for actor, branch in product(f.branches, f.branches)
    ]
    return {
        "branch_bearing": [
            {
                "actor": actor,
                "branch": branch,
                "is_on": int(b.is_on),
                "relation": b.relation,
                "generates": int(b.generates),
                "helps": int(b.helps),
                "controls": int(b.controls),
                "combines": int(b.combines),
                "clashes": int(b.clashes),
                "punishes": int(b.punishes),
                **cite("1.7", STANDARD),
            }
            for actor, branch, b in bearing
        ],
        "shensha": [
            {"name": name, "derivation": text, **cite(passage, basis)}
            for name, (text, passage, basis) in SHENSHA.items()
        ],
        "shensha_on": [
            {
                "day_gz": day.name,
                "ganzhi": gz.name,
                "shensha": name,
                **cite(SHENSHA[name][1], SHENSHA[name][2]),
            }
            for day in sixty()
            for gz in sixty()
            for name in shensha.on_line(day.name, gz.name)
        ],
    }


def stem_rows() -> Rows:
    f = facts()
    children = {t for t in f.trigrams if t not in ("乾", "坤")}
    branch_passage = {"坤": "4.5", "巽": "4.6", "離": "4.6", "兌": "4.6"}
    return {
        "hidden_stem": [
            {
                "branch": b,
                "stem": stem,
                "role": role,
                "ordinal": i,
                **cite(
                    "5.6",
                    BOOK if hidden_stems.BOOK_EXAMPLES.get(b) == stem else STANDARD,
                ),
            }
            for b in f.branches
            for i, (stem, role) in enumerate(hidden_stems.hidden_stems(b), 1)
        ],
        "najia_stem_rule": [
            {
                "trigram": t.name,
                "inner_stem": t.inner_stem,
                "outer_stem": t.outer_stem,
                **cite("4.2" if t.name in children else "4.1", BOOK),
            }
            for t in f.trigrams.values()
        ],
        "najia_branch_rule": [
            {
                "trigram": t,
                "first_branch": first,
                "direction": direction,
                **cite(branch_passage.get(t, "4.4"), BOOK),
            }
            for t in f.trigrams
            for first, direction in [najia.branch_course(t)]
        ],
    }


def rows(done: Mapping[str, list[dict[str, Any]]]) -> Rows:
    out: Rows = {}
    for part in (sign_rows, place_rows, moment_rows, stem_rows):
        out.update(part())
    return out


# --- self-checks ---------------------------------------------------------------------------

MOVING_NAMES = {"妻財": "財", "父母": "父", "官鬼": "官", "子孫": "子", "兄弟": "兄"}
MOVING_TARGETS = {**MOVING_NAMES, "官鬼": "鬼"}


def _sign_checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failed = []
    fired = {r["sign"] for f in signs.FAMILIES for r in tables[f.table]}
    never = [s.name for s in signs.SIGNS if s.name not in fired]
    if never:
        failed.append(f"signs that can never fire: {never}")
    aspects = {r["value"]: r["aspect"] for r in tables.get("line_aspect", [])}
    for value, name in ((9, "重現"), (6, "交隱")):
        keyed = {r["value"] for r in tables["line_state_sign"] if r["sign"] == name}
        if keyed != {value} or name[1] != aspects.get(value):
            failed.append(f"§10.5: {name} fires on values {keyed}, line_aspect gives {aspects}")
    for r in tables.get("moving_relative", []):
        verb = "生" if r["kind"] == "生象" else "克"
        target = MOVING_TARGETS[r["target"]] if verb == "生" else MOVING_NAMES[r["target"]]
        name = f"{MOVING_NAMES[r['mover']]}動{verb}{target}"
        if name not in signs.by_name():
            failed.append(f"§6.5–6.6: no sign {name} for {r['mover']} {r['kind']}")
    affinities = {
        (r["spirit"], r["element"]) for r in tables["spirit_line_sign"] if r["sign"] != "吉神持世"
    }
    wanted = {(r["spirit"], r["condition"][0]) for r in tables.get("spirit_affinity", [])}
    if affinities != wanted:
        failed.append(f"§7.8: affinity signs on {affinities}, spirit_affinity says {wanted}")
    return failed


def _table_checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failed = []
    f = facts()
    for b in f.branches:
        main = [r["stem"] for r in tables["hidden_stem"] if r["branch"] == b and r["ordinal"] == 1]
        if [f.stem_element[s] for s in main] != [f.branch_element[b]]:
            failed.append(f"§5.6: the main stem of {b} is {main}, not of its element")
    rules = {r["trigram"]: r for r in tables["najia_branch_rule"]}
    stems = {r["trigram"]: r for r in tables["najia_stem_rule"]}
    for r in tables.get("najia", []):
        if r["half_year"] != AFTER_WINTER:
            continue
        rule, stem_rule = rules[r["trigram"]], stems[r["trigram"]]
        step = 2 if rule["direction"] == "forward" else -2
        branch = f.branches[
            (f.branches.index(rule["first_branch"]) + step * (r["position"] - 1)) % 12
        ]
        stem = stem_rule["inner_stem"] if r["position"] <= 3 else stem_rule["outer_stem"]
        if (r["stem"], r["branch"]) != (stem, branch):
            failed.append(
                f"§4: the najia rules give {r['trigram']} line {r['position']} {stem}{branch}"
            )
    if len(tables["mask_line"]) != 64 * 6 or len(tables["branch_bearing"]) != 144:
        failed.append("mask_line and branch_bearing must hold every key")
    return failed


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    return _sign_checks(tables) + _table_checks(tables)
