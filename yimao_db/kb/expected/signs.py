"""The signs a reading has, from the rules alone: the oracle of ``v_reading_sign``.

For each family of :mod:`yimao_db.kb.rules.signs` this builds the keys a reading gives — the
same keys the view builds by joins — and asks each sign's condition. The rows returned are
the view's rows without ``reading_id`` and without the sign's attributes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import day_month, lines, matters, shensha, signs, spirits
from yimao_db.kb.rules.elements import relation
from yimao_db.kb.rules.hexagrams import Hexagram, gua_shen_positions, hexagrams
from yimao_db.kb.rules.keys import changed_bits, primary_bits
from yimao_db.kb.rules.najia import line_stem_branch
from yimao_db.kb.vocab import SEASONAL


@dataclass(frozen=True)
class FiredSign:
    sign: str
    position: int | None  # the line it fires on; None for the whole reading


@dataclass(frozen=True)
class LineFacts:
    """One line of a reading as the sign families see it."""

    position: int
    value: int
    branch: str
    element: str
    relative: str
    is_world: int
    is_between: int
    ganzhi: str  # najia stem and branch under the reading's half of the table
    spirit: str  # the day spirit
    general: str | None  # the noble's general, with an hour
    is_void: int
    is_month_break: int
    is_day_clash: int
    strength: str
    stage: str
    day: day_month.Bearing
    month: day_month.Bearing
    changed_branch: str | None  # moving lines only
    mansion: str


def _line_facts(
    primary: Hexagram,
    changed: Hexagram | None,
    values: str,
    day_gz: str,
    month_branch: str,
    hour_gz: str | None,
    najia_half: str,
) -> list[LineFacts]:
    day_stem, day_branch = day_gz[0], day_gz[1]
    placed = (
        spirits.generals(day_stem, spirits.noble_half(hour_gz[1])) if hour_gz is not None else {}
    )
    out = []
    for line in primary.lines:
        p, value = line.position, int(values[line.position - 1])
        stem, _ = line_stem_branch(primary.bits, p, SEASONAL, najia_half)
        moving = lines.is_moving(value)
        day = day_month.bearing(day_branch, line.branch)
        out.append(
            LineFacts(
                position=p,
                value=value,
                branch=line.branch,
                element=line.element,
                relative=line.relative,
                is_world=int(p == primary.world),
                is_between=int(p in primary.between),
                ganzhi=stem + line.branch,
                spirit=spirits.day_spirits(day_stem)[p - 1],
                general=placed.get(line.branch),
                is_void=int(day_month.is_void(day_gz, line.branch)),
                is_month_break=int(day_month.is_month_break(month_branch, line.branch)),
                is_day_clash=int(day.clashes),
                strength=day_month.month_strength(month_branch, line.branch),
                stage=day_month.day_stage(day_branch, line.branch),
                day=day,
                month=day_month.bearing(month_branch, line.branch),
                changed_branch=changed.lines[p - 1].branch if changed and moving else None,
                mansion=primary.mansions[p],
            )
        )
    return out


def _fire(table: str, key: Any, position: int | None) -> list[FiredSign]:
    return [FiredSign(name, position) for name in signs.firing(table, key)]


def _line_keys(f: LineFacts) -> list[tuple[str, Any]]:
    """The keys of the families that look at every line."""
    keys: list[tuple[str, Any]] = [
        (
            "line_state_sign",
            signs.LineKey(
                spirits.natures()[f.spirit],
                f.value,
                f.is_void,
                f.is_day_clash,
                f.day.relation,
                f.strength,
            ),
        ),
        ("spirit_line_sign", signs.SpiritKey(f.spirit, f.element, f.is_world)),
        (
            "relative_sign",
            signs.RelativeKey(f.is_world, f.is_between, f.relative, f.value, f.stage),
        ),
        ("moving_relative_sign", signs.MovingRelativeKey(f.relative, f.value)),
    ]
    if f.changed_branch is not None:
        keys.append(
            ("change_sign", signs.ChangeKey(f.is_world, f.relative, f.branch, f.changed_branch))
        )
    return keys


def _place_keys(place: str, f: LineFacts) -> list[tuple[str, Any]]:
    """The keys of the families that look at a line in one of its places."""
    return [
        (
            "line_sign",
            signs.BodyKey(place, f.value, f.is_void, f.is_month_break, f.is_day_clash),
        ),
        (
            "bearing_sign",
            signs.BearingKey(
                place,
                f.is_void,
                f.is_month_break,
                f.is_day_clash,
                f.day.relation,
                f.strength,
                int(f.day.combines),
                int(f.month.combines),
            ),
        ),
    ]


def _world_signs(
    primary: Hexagram,
    world: LineFacts,
    facts_: list[LineFacts],
    mask: int,
    day_gz: str,
    month_branch: str,
) -> list[FiredSign]:
    """The signs about the world line moving alone, its star, and its 三合 and 三刑."""
    p = world.position
    is_sole = int(lines.is_sole(mask, p))
    star = primary.five_star
    day_element = facts().branch_element[day_gz[1]]
    found = _fire("sole_sign", signs.SoleKey(is_sole, star), p)
    found += _fire(
        "star_sign",
        signs.StarKey(
            is_sole,
            star,
            world.relative,
            world.spirit,
            relation(facts().stars[star], day_element),
        ),
        p,
    )
    for name in shensha.on_line(day_gz, world.ganzhi):
        found += _fire("star_shensha_sign", signs.StarShenshaKey(is_sole, star, name), p)
    present = {
        "day": {day_gz[1]},
        "month": {month_branch},
        "moving": {f.branch for f in facts_ if f.changed_branch is not None},
        "changed": {f.changed_branch for f in facts_ if f.changed_branch is not None},
    }
    moving = int(world.changed_branch is not None)
    for rule in signs.group_rules():
        if (rule.branch, rule.is_void, rule.is_moving) == (world.branch, world.is_void, moving):
            if rule.fires({k: {b for b in v if b} for k, v in present.items()}):
                found.append(FiredSign(rule.sign, p))
    return found


def _items(f: LineFacts, day_gz: str) -> set[tuple[str, str]]:
    """What a body line holds, as matter_preference names it: (item_kind, item)."""
    items = {("relative", f.relative), ("spirit", f.spirit)}
    if f.general is not None:
        items.add(("general", f.general))
    items |= {("shensha", name) for name in shensha.on_line(day_gz, f.ganzhi)}
    return items


def _matter_signs(
    matter: str, places: list[signs.Place], by_position: dict[int, LineFacts], day_gz: str
) -> list[FiredSign]:
    found = []
    prefs = matters.preferences()
    for place in places:
        f = by_position[place.position]
        items = _items(f, day_gz)
        for rule in signs.matter_rules():
            if (rule.matter, rule.place) != (matter, place.place):
                continue
            if any(
                (p.item_kind, p.item) in items
                for p in prefs
                if (p.matter, p.attitude) == (matter, rule.attitude)
            ):
                found.append(FiredSign(rule.sign, place.position))
        for relief in signs.relief_rules():
            if (relief.matter, relief.place, relief.is_void) == (matter, place.place, f.is_void):
                found.append(FiredSign(relief.sign, place.position))
    return found


def expected_signs(
    values: str,
    *,
    day_gz: str,
    month_branch: str,
    hour_gz: str | None,
    najia_half: str,
    matter: str | None,
) -> list[FiredSign]:
    """Every sign that fires for ``values`` cast at the given moment, about ``matter``."""
    table = hexagrams()
    primary = table[primary_bits(values)]
    mask = lines.moving_mask(values)
    changed = table[changed_bits(values)] if mask else None
    facts_ = _line_facts(primary, changed, values, day_gz, month_branch, hour_gz, najia_half)
    by_position = {f.position: f for f in facts_}
    branches = [line.branch for line in primary.lines]
    gua_shen = gua_shen_positions(branches, primary.gua_shen)

    found = _fire(
        "hexagram_sign",
        signs.hexagram_key(
            primary.lines[primary.world - 1].element,
            primary.lines[primary.response - 1].element,
            len(gua_shen),
            primary.generation,
        ),
        None,
    )
    places = signs.line_places(
        primary.world, primary.response, primary.generation, gua_shen, primary.shi_shen_line
    )
    for place in places:
        for table_name, key in _place_keys(place.place, by_position[place.position]):
            found += _fire(table_name, key, place.position)
    for f in facts_:
        for table_name, key in _line_keys(f):
            found += _fire(table_name, key, f.position)
        found += _fire("mansion_sign", signs.MansionKey(month_branch, f.mansion), f.position)
    found += _world_signs(primary, by_position[primary.world], facts_, mask, day_gz, month_branch)
    if matter is not None:
        bodies = [p for p in places if p.place in (signs.GUA_SHEN, signs.SHI_SHEN)]
        found += _matter_signs(matter, bodies, by_position, day_gz)
    return found
