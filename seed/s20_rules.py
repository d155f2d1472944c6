"""Seed: the rule tables, derived by the pure rules and checked against the book's examples.

Citations follow ``seed/data/passages.tsv``. ``basis`` is 'standard' for a table of standard
practice the book presupposes, 'decision' for a choice made where the book is silent (the
noble of an hour), else 'book'; docs/rules.md gives each rule with its basis.
The 六合 rows cite §8.13, where the book first uses 合; the 帝旺 of 木 火 金 水 cites §5.4.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import (
    day_month,
    directions,
    dusk,
    elements,
    lines,
    relations,
    spirits,
    stages,
    transforms,
)
from yimao_db.kb.rules.ganzhi import ordinal_of, sixty
from yimao_db.kb.rules.hexagrams import hexagrams

Rows = dict[str, list[dict[str, Any]]]

BOOK, STANDARD, DECISION = "book", "standard", "decision"
PEAK = "帝旺"
# 合 is named where the book uses it (§8.13 合處逢衝, §9.2 合則適意), not in §1.7
RELATION_PASSAGE = {relations.SIX_HARMONY: "8.13"}


def cite(passage: str | None, basis: str) -> dict[str, Any]:
    return {"passage": passage, "basis": basis}


def vocabulary_rows() -> Rows:
    return {
        "spirit": [
            {
                "name": s.name,
                "ordinal": s.ordinal,
                "element": s.element,
                "direction": s.direction,
                **cite(s.passage, BOOK),
            }
            for s in spirits.spirits()
        ],
        "general": [
            {"name": g, "ordinal": i, **cite("7.2", BOOK)}
            for i, g in enumerate(spirits.general_names(), 1)
        ],
        "stage": [
            {"name": s, "ordinal": i, **cite("1.7", STANDARD)}
            for i, s in enumerate(stages.stage_names(), 1)
        ],
        "strength": [
            {"name": s, "ordinal": i, **cite("1.7", STANDARD)}
            for i, s in enumerate(stages.strength_names(), 1)
        ],
    }


def relation_rows() -> Rows:
    def both(relation: str, pairs: list[tuple[str, str]]) -> list[dict[str, Any]]:
        return [
            {
                "relation": relation,
                "first": a,
                "second": b,
                "kind": None,
                **cite(RELATION_PASSAGE.get(relation, "1.7"), STANDARD),
            }
            for x, y in pairs
            for a, b in ((x, y), (y, x))
        ]

    def directed(relation: str, pairs: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        return [
            {"relation": relation, "first": a, "second": b, "kind": None, **cite("8.14", STANDARD)}
            for a, b in pairs
        ]

    branch_relation = [
        *both(relations.SIX_HARMONY, relations.six_harmonies()),
        *both(relations.SIX_CLASH, relations.six_clashes()),
        *both(relations.SIX_HARM, relations.six_harms()),
        *(
            {
                "relation": relations.PUNISHMENT,
                "first": p.first,
                "second": p.second,
                "kind": p.kind,
                **cite("1.7", STANDARD),
            }
            for p in relations.punishments()
        ),
        *directed(relations.ADVANCE, relations.advancing()),
        *directed(relations.RETREAT, relations.retreating()),
    ]
    return {
        "branch_relation": branch_relation,
        "branch_triad": [
            {"element": t.element, "branch": b, "role": role, **cite("8.14", STANDARD)}
            for t in relations.triads()
            for b, role in t.roles.items()
        ],
        "stem_combination": [
            {"first": a, "second": b, "element": element, **cite("1.7", STANDARD)}
            for x, y, element in relations.stem_combinations()
            for a, b in ((x, y), (y, x))
        ],
    }


def stage_cite(element: str, stage: str) -> dict[str, Any]:
    """§5.4 says the elements are 旺 at the cardinal branches 子 卯 午 酉: the 帝旺 of 木 火
    金 水 is the book's; every other stage (and 土's, lodged with 水) is standard."""
    if stage == PEAK and element != stages.EARTH:
        return cite("5.4", BOOK)
    return cite("1.7", STANDARD)


def stage_rows() -> Rows:
    f = facts()
    return {
        "twelve_stage": [
            {"element": e, "branch": b, "stage": stage, **stage_cite(e, stage)}
            for e in f.elements
            for b in f.branches
            for stage in [stages.stage(e, b)]
        ],
        "seasonal_strength": [
            {
                "month_branch": m,
                "element": e,
                "strength": stages.strength(m, e),
                **cite("1.7", STANDARD),
            }
            for m in f.branches
            for e in f.elements
        ],
    }


def place_rows() -> Rows:
    return {
        "direction_24": [
            {"name": m.name, "ordinal": m.ordinal, "direction": m.direction, **cite("1.8", BOOK)}
            for m in directions.directions_24()
        ],
        "dusk_mansion": [
            {"month_branch": b, "mansion": dusk.dusk_mansion(b), **cite("8.12", BOOK)}
            for b in facts().branches
        ],
    }


def spirit_rows() -> Rows:
    f = facts()
    return {
        "day_spirit": [
            {"day_stem": s, "position": p, "spirit": spirit, **cite("7.2", BOOK)}
            for s in f.stems
            for p, spirit in enumerate(spirits.day_spirits(s), 1)
        ],
        "month_spirit": [
            {"month_branch": m, "spirit": spirit, "branch": b, **cite("7.10", BOOK)}
            for m in f.branches
            for spirit, b in spirits.month_spirits(m).items()
        ],
        "noble_hour": [
            {"hour_branch": b, "half": spirits.noble_half(b), **cite("7.2", DECISION)}
            for b in f.branches
        ],
        "noble_general": [
            {"day_stem": s, "half": h, "branch": b, "general": g, **cite("7.2", STANDARD)}
            for s in f.stems
            for h in spirits.HALVES
            for b, g in spirits.generals(s, h).items()
        ],
    }


def pillar_rows() -> Rows:
    f = facts()

    def name(stem: str, branch: str) -> str:
        ordinal_of(stem, branch)  # raises if the pair is not one of the sixty
        return stem + branch

    return {
        "hour_stem": [
            {
                "day_stem": d,
                "hour_branch": h,
                "hour_ganzhi": name(spirits.hour_stem(d, h), h),
                **cite("7.2", BOOK),
            }
            for d in f.stems
            for h in f.branches
        ],
        "month_stem": [
            {
                "year_stem": y,
                "month_branch": m,
                "month_ganzhi": name(spirits.month_stem(y, m), m),
                **cite(None, STANDARD),
            }
            for y in f.stems
            for m in f.branches
        ],
    }


def chart_rows() -> Rows:
    """The rule tables a reading's chart joins, each total over its keys."""
    f = facts()
    transform_flags = {
        "is_advance": transforms.ADVANCE,
        "is_retreat": transforms.RETREAT,
        "returns_generating": transforms.RETURN_GENERATE,
        "returns_controlling": transforms.RETURN_CONTROL,
        "to_void": transforms.TO_VOID,
        "to_break": transforms.TO_BREAK,
        "to_tomb": transforms.TO_TOMB,
        "to_extinction": transforms.TO_EXTINCTION,
    }

    def transform_row(b: str, c: str, void: int, brk: int) -> dict[str, Any]:
        found = transforms.transforms(b, c, bool(void), bool(brk))
        return {
            "branch": b,
            "changed_branch": c,
            "changed_void": void,
            "changed_break": brk,
            "transforms": ",".join(found) or None,  # NULL when none applies
            **{column: int(name in found) for column, name in transform_flags.items()},
            **cite("8.14", STANDARD),
        }

    return {
        "element_relation": [
            {
                "me": me,
                "other": other,
                "relation": elements.relation(me, other),
                "relative": elements.relative(me, other),
                **cite("6.2", BOOK),
            }
            for me in f.elements
            for other in f.elements
        ],
        "line_value": [
            {
                "value": v,
                "name": lines.VALUE_NAMES[v],
                "yang": int(lines.is_yang(v)),
                "is_moving": int(lines.is_moving(v)),
                "changed_yang": int(lines.changed_yang(v)),
                **cite("2.3", BOOK),
            }
            for v in lines.VALUES
        ],
        "line_transform": [
            transform_row(b, c, void, brk)
            for b in f.branches
            for c in f.branches
            for void in (0, 1)
            for brk in (0, 1)
        ],
        "hour_spirit": [
            {"day_stem": d, "hour_branch": h, "position": p, "spirit": s, **cite("7.2", BOOK)}
            for d in f.stems
            for h in f.branches
            for p, s in enumerate(spirits.hour_spirits(d, h), 1)
        ],
        "month_spirit_branch": [
            {
                "month_branch": m,
                "branch": b,
                "spirit_count": len(on),
                "spirits": ",".join(on),
                **cite("7.10", BOOK),
            }
            for m in f.branches
            for b in f.branches
            if (on := day_month.spirits_on(m, b))
        ],
        "branch_on_day": [
            {
                "day_gz": gz.name,
                "branch": b,
                "is_void": int(day_month.is_void(gz.name, b)),
                "is_day_clash": int(day_month.is_day_clash(gz.branch, b)),
                "stage": day_month.day_stage(gz.branch, b),
                **cite("1.7", STANDARD),
            }
            for gz in sixty()
            for b in f.branches
        ],
        "branch_in_month": [
            {
                "month_branch": m,
                "branch": b,
                "is_month_break": int(day_month.is_month_break(m, b)),
                "strength": day_month.month_strength(m, b),
                **cite("1.7", STANDARD),
            }
            for m in f.branches
            for b in f.branches
        ],
        "month_mansion": [
            {
                "month_branch": m,
                "mansion": mansion,
                "is_dusk": int(dusk.dusk_mansion(m) == mansion),
                **cite("8.12", BOOK),
            }
            for m in f.branches
            for mansion in f.mansions
        ],
    }


def rows(done: Mapping[str, list[dict[str, Any]]]) -> Rows:
    """Rows for every rule table, parents (vocabularies) first."""
    out: Rows = {}
    for part in (
        vocabulary_rows,
        relation_rows,
        stage_rows,
        place_rows,
        spirit_rows,
        pillar_rows,
        chart_rows,
    ):
        out.update(part())
    out.update(all_moving_rows())
    return out


ALL_SIX = 0b111111  # the moving mask of a cast whose every line moves


def all_moving_rows() -> Rows:
    """Per hexagram, what a cast of it with every line moving is called: its lines all old,
    9 for a yang line and 6 for a yin one."""
    return {
        "all_moving": [
            {
                "king_wen": h.king_wen,
                "mask": ALL_SIX,
                "name": lines.all_moving_name([9 if b == "1" else 6 for b in bits]),
                **cite(None, STANDARD),
            }
            for bits, h in sorted(hexagrams().items(), key=lambda item: item[1].king_wen)
        ]
    }


# --- self-checks: the book's worked examples and docs/rules.md ---------------------------

YIN_MONTH_SPIRITS = {
    "青龍": "寅",
    "白虎": "申",
    "勾陳": "丑",
    "朱雀": "巳",
    "玄武": "亥",
    "騰蛇": "辰",
}
XINWEI_CHEN_GENERALS = {"寅": "貴人", "未": "青龍", "酉": "白虎"}
TOMBS = {"木": "未", "火": "戌", "金": "丑", "水": "辰", "土": "辰"}
SYMMETRIC = ("六合", "六衝", "六害")


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    """Messages for each self-check the rows fail (empty when all hold)."""
    failed: list[str] = []

    in_yin = {r["spirit"]: r["branch"] for r in tables["month_spirit"] if r["month_branch"] == "寅"}
    if in_yin != YIN_MONTH_SPIRITS:
        failed.append(f"month_spirit: 寅 month gives {in_yin}, §7.2 says {YIN_MONTH_SPIRITS}")

    half = {r["hour_branch"]: r["half"] for r in tables["noble_hour"]}["辰"]
    placed = {
        r["branch"]: r["general"]
        for r in tables["noble_general"]
        if r["day_stem"] == "辛" and r["half"] == half
    }
    wanted = {b: placed.get(b) for b in XINWEI_CHEN_GENERALS}
    if wanted != XINWEI_CHEN_GENERALS:
        failed.append(
            f"noble_general: 辛未 day 辰 hour gives {wanted}, §7.2 says {XINWEI_CHEN_GENERALS}"
        )

    tombs = {r["element"]: r["branch"] for r in tables["twelve_stage"] if r["stage"] == "墓"}
    if tombs != TOMBS:
        failed.append(f"twelve_stage: 墓 places are {tombs}, docs/rules.md chapter 1 says {TOMBS}")

    pairs = {(r["relation"], r["first"], r["second"]) for r in tables["branch_relation"]}
    for relation, first, second in sorted(pairs):
        if relation in SYMMETRIC and (relation, second, first) not in pairs:
            failed.append(f"branch_relation: {relation} {first}{second} lacks {second}{first}")
    combos = {(r["first"], r["second"]) for r in tables["stem_combination"]}
    for first, second in sorted(combos):
        if (second, first) not in combos:
            failed.append(f"stem_combination: {first}{second} lacks {second}{first}")

    return failed
