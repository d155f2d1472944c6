"""The signs a reading has, from the rules alone: the oracle of ``v_reading_sign``.

This computes the reading as the sign families see it (:class:`ReadingFacts`: its lines'
facts, the places they hold) and, for each family of ``FAMILIES``
(:mod:`yimao_db.kb.rules.signs`), builds the keys its declaration builds — the same keys
the view builds by joins — and asks each sign's condition (a family of requirements says
which signs fire). The rows returned are the view's rows without ``reading_id`` and without
the sign's attributes.
"""

from __future__ import annotations

from dataclasses import dataclass

from yimao_db.kb.rules import day_month, lines, lodges, signs, spirits
from yimao_db.kb.rules.hexagrams import Hexagram, gua_shen_positions, hexagrams
from yimao_db.kb.rules.keys import changed_bits, primary_bits
from yimao_db.kb.rules.najia import line_stem_branch
from yimao_db.kb.rules.sign_family import Family, LineFacts, ReadingFacts, UseFacts
from yimao_db.kb.vocab import SEASONAL


@dataclass(frozen=True)
class FiredSign:
    sign: str
    position: int | None  # the line it fires on; None for the whole reading


def _line_facts(
    primary: Hexagram,
    changed: Hexagram | None,
    values: str,
    day_gz: str,
    month_branch: str,
    hour_gz: str | None,
    najia_half: str,
) -> tuple[LineFacts, ...]:
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
    return tuple(out)


def reading_facts(
    values: str,
    *,
    day_gz: str,
    month_branch: str,
    hour_gz: str | None,
    najia_half: str,
    matter: str | None,
    about: str | None = None,
    use: tuple[UseFacts, ...] = (),
    cast_utc: str | None = None,
) -> ReadingFacts:
    """``values`` cast at the given moment (``cast_utc``: its instant, for the lodges of the
    sun and the moon), about ``matter``, as the sign families see it."""
    table = hexagrams()
    primary = table[primary_bits(values)]
    mask = lines.moving_mask(values)
    changed = table[changed_bits(values)] if mask else None
    gua_shen = gua_shen_positions([line.branch for line in primary.lines], primary.gua_shen)
    places = signs.line_places(
        primary.world, primary.response, primary.generation, gua_shen, primary.shi_shen_line
    )
    return ReadingFacts(
        primary=primary,
        lines=_line_facts(primary, changed, values, day_gz, month_branch, hour_gz, najia_half),
        places=tuple(places),
        mask=mask,
        day_gz=day_gz,
        month_branch=month_branch,
        hour_gz=hour_gz,
        najia_half=najia_half,
        matter=matter,
        gua_shen_lines=len(gua_shen),
        about=about,
        use=use,
        lodges=cast_lodges(cast_utc),
    )


def cast_lodges(cast_utc: str | None) -> tuple[tuple[str, str], ...]:
    """(body, lodge) of the sun and the moon at ``cast_utc``; none without one or outside
    the lodge table."""
    found = ((body, lodges.lodge_at_utc(body, cast_utc)) for body in lodges.BODIES)
    return tuple((body, lodge) for body, lodge in found if lodge is not None)


def family_signs(family: Family, reading: ReadingFacts) -> list[FiredSign]:
    """The signs of one family that fire for ``reading``."""
    if family.fires is not None:
        return [FiredSign(name, p) for p, name in family.fires(reading)]
    assert family.keys is not None
    return [
        FiredSign(name, p)
        for p, values in family.keys(reading)
        for name in signs.firing(family.table, family.key(*values))
    ]


def expected_signs(
    values: str,
    *,
    day_gz: str,
    month_branch: str,
    hour_gz: str | None,
    najia_half: str,
    matter: str | None,
    about: str | None = None,
    use: tuple[UseFacts, ...] = (),
    cast_utc: str | None = None,
) -> list[FiredSign]:
    """Every sign that fires for ``values`` cast at the given moment, about ``matter`` and
    the subject ``about``, with the roles ``use`` of that subject
    (:func:`yimao_db.kb.expected.use.use_facts`), at the instant ``cast_utc`` (NULL for a
    reading given as pillars)."""
    reading = reading_facts(
        values,
        day_gz=day_gz,
        month_branch=month_branch,
        hour_gz=hour_gz,
        najia_half=najia_half,
        matter=matter,
        about=about,
        use=use,
        cast_utc=cast_utc,
    )
    return [found for family in signs.FAMILIES for found in family_signs(family, reading)]
