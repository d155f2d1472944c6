"""The 用神 of a reading and its chain, computed from the rules alone: the oracle of
``v_reading_use_candidate`` and ``v_reading_use`` (docs/use.md).

It takes the expected chart's lines and hidden spirits (themselves computed from the rules)
and applies :mod:`yimao_db.kb.rules.use`: the subject's kind and relative, the chain, the
candidates of each role with their keys, the choice and the reasons.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import use
from yimao_db.kb.rules.elements import relative
from yimao_db.kb.rules.sign_family import UseFacts

Row = dict[str, Any]

BEARINGS = tuple(
    f"{side}_{b}"
    for side in ("day", "month")
    for b in ("on", "generates", "helps", "controls", "combines")
)


def _subject(name: str) -> use.Subject:
    return next(s for s in use.subjects() if s.name == name)


def expected_use(
    about: str | None,
    lines: Sequence[Row],
    hidden: Sequence[Row],
    *,
    palace_element: str,
    month_branch: str,
    day_branch: str,
) -> tuple[tuple[Row, ...], tuple[Row, ...]]:
    """(candidates, chosen) rows of the two views, without reading_id, for a reading asked
    about ``about`` whose chart has ``lines`` and ``hidden`` (as the expected chart gives
    them); both empty when the reading has no subject."""
    if about is None:
        return (), ()
    subject = _subject(about)
    by_place = {r.role: r.by_place for r in use.roles()}
    ordinal = {r.role: r.ordinal for r in use.roles()}
    place_line = None
    if subject.kind == use.WORLD:
        place_line = next(x for x in lines if x["is_world"])
    elif subject.kind == use.RESPONSE:
        place_line = next(x for x in lines if x["is_response"])
    use_relative = subject.relative if place_line is None else place_line["relative"]
    assert use_relative is not None
    month_relative = relative(palace_element, facts().branch_element[month_branch])
    day_relative = relative(palace_element, facts().branch_element[day_branch])

    def key(row: Row, moving: int, world: int, response: int) -> use.CandidateKey:
        return use.CandidateKey(
            moving, world, response, row["strength"], row["is_void"], row["is_month_break"]
        )

    candidates: list[Row] = []
    chosen: list[Row] = []
    for role in use.ROLES:
        rel = use.chain_relative(use_relative, role)
        found: list[tuple[str, Row, use.CandidateKey]] = []
        if place_line is not None and by_place[role]:
            found.append(
                (
                    subject.kind,
                    place_line,
                    key(
                        place_line,
                        place_line["is_moving"],
                        place_line["is_world"],
                        place_line["is_response"],
                    ),
                )
            )
        else:
            found += [
                (use.VISIBLE, x, key(x, x["is_moving"], x["is_world"], x["is_response"]))
                for x in lines
                if x["relative"] == rel
            ]
            if not found:
                found += [(use.HIDDEN, h, key(h, 0, 0, 0)) for h in hidden if h["relative"] == rel]
        if not found:
            continue
        by_position = {row["position"]: (source, row, k) for source, row, k in found}
        ranked = use.choose([(row["position"], k) for _, row, k in found])
        for position, rank, reason in ranked:
            source, row, k = by_position[position]
            candidates.append(
                {
                    "subject": about,
                    "role": role,
                    "role_ordinal": ordinal[role],
                    "relative": rel,
                    "source": source,
                    "position": position,
                    **asdict(k),
                    "key_rank": use.candidate_rank(k),
                    "rank": rank,
                    "candidate_count": len(found),
                    "reason": reason,
                }
            )
            if rank != 1:
                continue
            is_hidden = source == use.HIDDEN
            fly = lines[position - 1] if is_hidden else None
            chosen.append(
                {
                    "subject": about,
                    "role": role,
                    "role_ordinal": ordinal[role],
                    "mark": use.ROLE_MARK[role],
                    "relative": rel,
                    "source": source,
                    "position": position,
                    "stem": row["ganzhi"][0],
                    "branch": row["branch"],
                    "element": row["element"],
                    "ganzhi": row["ganzhi"],
                    "strength": row["strength"],
                    "stage": row["stage"],
                    **{b: row[b] for b in BEARINGS},
                    "is_void": row["is_void"],
                    "is_month_break": row["is_month_break"],
                    "is_day_clash": row["is_day_clash"],
                    "is_moving": k.is_moving,
                    "transform": None if is_hidden else row["transform"],
                    "changed_ganzhi": None if is_hidden else row["changed_ganzhi"],
                    "fly_relation": use.fly_relation(fly["element"], row["element"])
                    if fly
                    else None,
                    "fly_ganzhi": fly["ganzhi"] if fly else None,
                    "fly_is_moving": fly["is_moving"] if fly else None,
                    "fly_is_day_clash": fly["is_day_clash"] if fly else None,
                    "month_stands_for": int(month_relative == rel),
                    "day_stands_for": int(day_relative == rel),
                    "candidate_count": len(found),
                }
            )
    return tuple(candidates), tuple(chosen)


def use_facts(rows: Sequence[Row]) -> tuple[UseFacts, ...]:
    """The rows of v_reading_use (as :func:`expected_use` gives them) as the sign families
    see them."""
    return tuple(
        UseFacts(
            role=u["role"],
            source=u["source"],
            position=u["position"],
            is_moving=u["is_moving"],
            is_void=u["is_void"],
            is_month_break=u["is_month_break"],
            day_controls=u["day_controls"],
            month_controls=u["month_controls"],
            strength=u["strength"],
            day_generates=u["day_generates"],
            day_helps=u["day_helps"],
            branch=u["branch"],
            changed_branch=u["changed_ganzhi"][1] if u["changed_ganzhi"] else None,
            fly_is_moving=u["fly_is_moving"],
            fly_is_day_clash=u["fly_is_day_clash"],
        )
        for u in rows
    )
