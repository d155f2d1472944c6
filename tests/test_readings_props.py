"""Property tests: random casts at random moments, the views against the rules (§4, §6–§11).

The expected chart is computed here from :mod:`yimao_db.rules` (the functions the rule
tables are seeded from) and compared with what ``v_reading``/``v_reading_line``/
``v_reading_hidden`` assemble by joins, so a wrong join shows up as a difference.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, text

from yimao_db.db import writer_engine
from yimao_db.facts import facts
from yimao_db.readings import Chart, cast, chart
from yimao_db.rules import elements, najia, palaces, relations, spirits, stages
from yimao_db.rules.ganzhi import ordinal_of, sixty, void_branches
from yimao_db.rules.hexagrams import changed_bits, primary_bits

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
SIXTY = [g.name for g in sixty()]
TRANSFORMS = ("化進神", "化退神", "回頭生", "回頭克", "化空", "化破", "化墓", "化絕")


@pytest.fixture
def engine(fresh_db: str) -> Iterator[Engine]:
    eng = writer_engine(fresh_db)
    yield eng
    eng.dispose()


def palace_of(bits: str) -> palaces.PalaceMember:
    return next(m for m in palaces.palace_walk() if m.bits == bits)


def flip(bits: str, values: str) -> str:
    return "".join(
        ("0" if b == "1" else "1") if v in "69" else b for b, v in zip(bits, values, strict=True)
    )


def transforms(branch: str, changed: str, void: str, month: str) -> str:
    element = facts().branch_element[branch]
    ce = facts().branch_element[changed]
    found = {
        "化進神": (branch, changed) in relations.advancing(),
        "化退神": (branch, changed) in relations.retreating(),
        "回頭生": elements.generates(ce) == element,
        "回頭克": elements.controls(ce) == element,
        "化空": changed in void,
        "化破": relations.clash(changed) == month,
        "化墓": stages.stage(element, changed) == "墓",
        "化絕": stages.stage(element, changed) == "絕",
    }
    return ",".join(name for name in TRANSFORMS if found[name])


def expected_chart(values: str, c: Chart) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The six lines and the hidden spirits, by the rules, for the moment stored in ``c``."""
    f = facts()
    primary = primary_bits(values)
    changed = changed_bits(values)
    member = palace_of(primary)
    me = f.trigrams[member.palace].element
    variant = c.najia_variant
    half = c.half_year or "冬至後"
    day_stem, day_branch = c.day_gz[0], c.day_gz[1]
    void = "".join(void_branches(ordinal_of(day_stem, day_branch)))
    month = c.month_branch
    standing = spirits.month_spirits(month)
    world = palaces.world_line(member.generation)
    response = palaces.response_line(member.generation)
    lines = []
    for p in range(1, 7):
        stem, branch = najia.line_stem_branch(primary, p, variant, half)
        element = f.branch_element[branch]
        row: dict[str, Any] = {
            "value": int(values[p - 1]),
            "stem": stem,
            "branch": branch,
            "relative": elements.relative(me, element),
            "spirit": spirits.day_spirits(day_stem)[p - 1],
            "month_spirit": ",".join(s for s in spirits.spirit_names() if standing[s] == branch)
            or None,
            "is_world": int(p == world),
            "is_response": int(p == response),
            "is_between": int(p in palaces.between_lines(world, response)),
            "is_void": int(branch in void),
            "is_month_break": int(relations.clash(branch) == month),
            "is_day_clash": int(relations.clash(branch) == day_branch),
            "strength": stages.strength(month, element),
            "stage": stages.stage(element, day_branch),
            "hour_spirit": None,
            "noble_general": None,
            "changed_stem": None,
            "changed_branch": None,
            "changed_relative": None,
            "transform": None,
        }
        if c.hour_gz:
            hour_branch = c.hour_gz[1]
            row["hour_spirit"] = spirits.hour_spirits(day_stem, hour_branch)[p - 1]
            half_noble = spirits.noble_half(hour_branch)
            row["noble_general"] = spirits.generals(day_stem, half_noble).get(branch)
        if values[p - 1] in "69":
            cstem, cbranch = najia.line_stem_branch(changed, p, variant, half)
            row["changed_stem"] = cstem
            row["changed_branch"] = cbranch
            # §6: against the PRIMARY hexagram's palace, not the changed hexagram's
            row["changed_relative"] = elements.relative(me, f.branch_element[cbranch])
            row["transform"] = transforms(branch, cbranch, void, month)
        lines.append(row)
    pure = f.trigrams[member.palace].bits * 2
    present = {row["relative"] for row in lines}
    hidden = []
    for p in range(1, 7):
        stem, branch = najia.line_stem_branch(pure, p, variant, half)
        element = f.branch_element[branch]
        if elements.relative(me, element) not in present:
            hidden.append(
                {
                    "position": p,
                    "relative": elements.relative(me, element),
                    "ganzhi": stem + branch,
                    "over_ganzhi": lines[p - 1]["stem"] + lines[p - 1]["branch"],
                    "is_void": int(branch in void),
                    "is_month_break": int(relations.clash(branch) == month),
                    "strength": stages.strength(month, element),
                    "stage": stages.stage(element, day_branch),
                }
            )
    return lines, hidden


def bits_of(engine: Engine, king_wen: int | None) -> str | None:
    if king_wen is None:
        return None
    with engine.connect() as conn:
        return str(
            conn.execute(
                text("SELECT bits FROM hexagram WHERE king_wen = :kw"), {"kw": king_wen}
            ).scalar_one()
        )


def check(engine: Engine, values: str, c: Chart) -> None:
    primary = primary_bits(values)
    moving = [p for p, v in enumerate(values, 1) if v in "69"]
    assert changed_bits(values) == flip(primary, values)
    # the changed hexagram is the primary with its moving lines flipped
    assert bits_of(engine, c.primary_king_wen) == primary
    assert bits_of(engine, c.changed_king_wen) == (flip(primary, values) if moving else None)
    assert (c.changed_name is None) == (not moving)
    assert c.moving_lines == ",".join(map(str, moving))
    # six lines, one world, one response
    assert [line.position for line in c.lines] == [1, 2, 3, 4, 5, 6]
    assert sum(line.is_world for line in c.lines) == 1
    assert sum(line.is_response for line in c.lines) == 1
    assert c.palace == palace_of(primary).palace
    want_lines, want_hidden = expected_chart(values, c)
    for line, want in zip(c.lines, want_lines, strict=True):
        got = {key: getattr(line, key) for key in want}
        assert got == want, (values, line.position)
        assert line.is_moving == int(line.position in moving)
        assert line.ganzhi == line.stem + line.branch
        if line.is_moving:
            assert line.changed_element == facts().branch_element[str(line.changed_branch)]
    got_hidden = [{key: getattr(h, key) for key in want_hidden[0]} for h in c.hidden]
    assert got_hidden == want_hidden


def test_random_casts_at_random_pillars(engine: Engine) -> None:
    @settings(max_examples=40, deadline=None, database=None)
    @given(
        values=st.text(alphabet="6789", min_size=6, max_size=6),
        day=st.sampled_from(SIXTY),
        month=st.sampled_from(BRANCHES),
        hour=st.none() | st.sampled_from(BRANCHES),
    )
    def run(values: str, day: str, month: str, hour: str | None) -> None:
        hour_gz = None if hour is None else spirits.hour_stem(day[0], hour) + hour
        c = chart(cast(values, day=day, month=month, hour=hour_gz, db=engine), db=engine)
        assert (c.day_gz, c.month_branch, c.hour_gz) == (day, month, hour_gz)
        check(engine, values, c)

    run()


def test_random_casts_at_random_dates(engine: Engine) -> None:
    @settings(max_examples=40, deadline=None, database=None)
    @given(
        values=st.text(alphabet="6789", min_size=6, max_size=6),
        when=st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2100, 12, 31)),
        variant=st.sampled_from(["fixed", "seasonal"]),
        early_rat=st.booleans(),
    )
    def run(values: str, when: datetime, variant: str, early_rat: bool) -> None:
        at = when.replace(microsecond=0).isoformat()
        rid = cast(values, at=at, najia=variant, early_rat=early_rat, db=engine)
        c = chart(rid, db=engine)
        assert c.najia_variant == variant and c.early_rat == int(early_rat)
        check(engine, values, c)

    run()


def test_random_coins(engine: Engine) -> None:
    @settings(max_examples=25, deadline=None, database=None)
    @given(st.lists(st.integers(0, 3), min_size=6, max_size=6))
    def run(backs: list[int]) -> None:
        rid = cast(coins=",".join(map(str, backs)), day="甲子", month="寅", db=engine)
        c = chart(rid, db=engine)
        values = "".join(str(6 + b) for b in backs)
        assert [line.value for line in c.lines] == [int(v) for v in values]
        check(engine, values, c)

    run()
