"""The chart of a reading, computed from the rules alone: the one oracle.

:func:`~yimao_db.kb.rules.keys.reading_keys` (in :mod:`yimao_db.kb.rules.keys`, which casting
imports without the rest) gives the keys a reading stores with its lines (primary and
changed hexagram, moving-line mask, najia half); :func:`expected_chart` gives every value the
chart views ``v_reading``, ``v_reading_line``, ``v_reading_hidden``, ``v_reading_nuclear``,
``v_reading_sign`` and ``v_reading_changed_line`` derive, keyed by their column names. The
views compute the same by joining the rule tables seeded from these functions; the tests
compare the two on random readings and ``yimao check`` uses them to verify stored readings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yimao_db.kb.expected.signs import expected_signs
from yimao_db.kb.expected.use import expected_use, use_facts
from yimao_db.kb.facts import facts
from yimao_db.kb.rules import bodies, day_month, lodges, signs, spirits, transforms
from yimao_db.kb.rules.dusk import dusk_mansion
from yimao_db.kb.rules.elements import relative
from yimao_db.kb.rules.ganzhi import ordinal_of, void_branches
from yimao_db.kb.rules.hexagrams import (
    gua_shen_positions,
    hexagrams,
    is_liuchong,
    is_liuhe,
    nuclear_bits,
)
from yimao_db.kb.rules.keys import changed_bits, primary_bits, reading_keys
from yimao_db.kb.rules.lines import all_moving_name, is_moving, mask_lines
from yimao_db.kb.rules.najia import line_stem_branch
from yimao_db.kb.vocab import SEASONAL

Row = dict[str, Any]


@dataclass(frozen=True)
class ExpectedChart:
    head: Row  # the derived columns of v_reading
    lines: tuple[Row, ...]  # v_reading_line without reading_id, line 1 first
    hidden: tuple[Row, ...]  # v_reading_hidden without reading_id, by position
    nuclear: tuple[Row, ...] = ()  # v_reading_nuclear without reading_id, line 1 first
    signs: tuple[Row, ...] = ()  # v_reading_sign without reading_id, in no particular order
    changed_lines: tuple[Row, ...] = ()  # v_reading_changed_line without reading_id, line 1 first
    use_candidates: tuple[Row, ...] = ()  # v_reading_use_candidate without reading_id
    use: tuple[Row, ...] = ()  # v_reading_use without reading_id, 用神 first


BEARINGS = ("on", "generates", "helps", "controls", "combines")


def bearing_columns(day_branch: str, month_branch: str, branch: str) -> Row:
    """How the day and the month bear on ``branch``: day_on … month_combines."""
    out: Row = {}
    for side, actor in (("day", day_branch), ("month", month_branch)):
        b = day_month.bearing(actor, branch)
        flags = (b.is_on, b.generates, b.helps, b.controls, b.combines)
        out.update(
            {f"{side}_{name}": int(flag) for name, flag in zip(BEARINGS, flags, strict=True)}
        )
    return out


def _relative_of(palace_element: str, branch: str | None) -> str | None:
    return None if branch is None else relative(palace_element, facts().branch_element[branch])


def _ganzhi(bits: str, position: int, half: str) -> tuple[str, str]:
    return line_stem_branch(bits, position, SEASONAL, half)


def expected_chart(
    values: str,
    *,
    day_gz: str,
    month_branch: str,
    hour_gz: str | None = None,
    najia_variant: str = "fixed",
    half_year: str | None = None,
    year_gz: str | None = None,
    matter: str | None = None,
    about: str | None = None,
    cast_utc: str | None = None,
) -> ExpectedChart:
    """Every derived value of the chart of ``values`` cast at the given moment, asking
    about ``matter`` (功名 財利 獄訟 憂患 or None) and the subject ``about`` (canonical);
    ``cast_utc`` is the instant of the cast (``reading.cast_utc``), None for pillars."""
    f = facts()
    keys = reading_keys(values, najia_variant, half_year)
    table = hexagrams()
    primary = table[primary_bits(values)]
    changed = table[changed_bits(values)] if keys.changed_kw is not None else None
    half = keys.najia_half
    day_stem, day_branch = day_gz[0], day_gz[1]
    hour_branch = hour_gz[1] if hour_gz else None
    branches = [line.branch for line in primary.lines]

    def against_day_and_month(branch: str) -> Row:
        return {
            "is_void": int(day_month.is_void(day_gz, branch)),
            "is_month_break": int(day_month.is_month_break(month_branch, branch)),
            "strength": day_month.month_strength(month_branch, branch),
            "stage": day_month.day_stage(day_branch, branch),
        }

    head: Row = {
        "void_branches": "".join(void_branches(ordinal_of(day_stem, day_branch))),
        "primary_king_wen": primary.king_wen,
        "primary_name": primary.name,
        "primary_short_name": primary.short_name,
        "primary_bits": primary.bits,
        "changed_king_wen": changed.king_wen if changed else None,
        "changed_name": changed.name if changed else None,
        "changed_short_name": changed.short_name if changed else None,
        "changed_bits": changed.bits if changed else None,
        "palace": primary.palace,
        "moving_lines": ",".join(str(p) for p in mask_lines(keys.moving_mask)),
        "nuclear_king_wen": table[nuclear_bits(primary.bits)].king_wen,
        "is_liuchong": int(is_liuchong(branches)),
        "is_liuhe": int(is_liuhe(branches)),
        "generation_name": f.generations[primary.generation],
        "gua_shen": primary.gua_shen,
        "gua_shen_positions": ",".join(
            str(p) for p in gua_shen_positions(branches, primary.gua_shen)
        ),
        "shi_shen_line": primary.shi_shen_line,
        "year_relative": _relative_of(primary.palace_element, year_gz[1] if year_gz else None),
        "month_relative": _relative_of(primary.palace_element, month_branch),
        "day_relative": _relative_of(primary.palace_element, day_branch),
        "hour_relative": _relative_of(primary.palace_element, hour_branch),
        "matter": matter,
        "changed_palace": changed.palace if changed else None,
        "changed_generation_name": f.generations[changed.generation] if changed else None,
        "nuclear_name": table[nuclear_bits(primary.bits)].name,
        "sun_mansion": lodges.lodge_at_utc(lodges.SUN, cast_utc),
        "moon_mansion": lodges.lodge_at_utc(lodges.MOON, cast_utc),
        "all_moving_name": all_moving_name([int(v) for v in values]),
    }

    lines = []
    for line in primary.lines:
        p, value = line.position, int(values[line.position - 1])
        stem, _ = _ganzhi(primary.bits, p, half)
        row: Row = {
            "position": p,
            "value": value,
            "is_moving": int(is_moving(value)),
            "stem": stem,
            "branch": line.branch,
            "element": line.element,
            "relative": line.relative,
            "ganzhi": stem + line.branch,
            "spirit": spirits.day_spirits(day_stem)[p - 1],
            "hour_spirit": spirits.hour_spirits(day_stem, hour_branch)[p - 1]
            if hour_branch
            else None,
            "month_spirit": ",".join(day_month.spirits_on(month_branch, line.branch)) or None,
            "noble_general": spirits.generals(day_stem, spirits.noble_half(hour_branch)).get(
                line.branch
            )
            if hour_branch
            else None,
            "is_world": int(p == primary.world),
            "is_response": int(p == primary.response),
            "is_between": int(p in primary.between),
            "mansion": primary.mansions[p],
            "is_dusk_mansion": int(primary.mansions[p] == dusk_mansion(month_branch)),
            "places": ",".join(
                bodies.places(p, primary.shi_shen_line, primary.world, primary.response)
            ),
            "is_day_clash": int(day_month.is_day_clash(day_branch, line.branch)),
            **against_day_and_month(line.branch),
            "changed_stem": None,
            "changed_branch": None,
            "changed_element": None,
            "changed_relative": None,
            "changed_ganzhi": None,
            "transform": None,
            **bearing_columns(day_branch, month_branch, line.branch),
            "changed_is_void": None,
            "changed_is_month_break": None,
            "changed_is_day_clash": None,
        }
        if changed is not None and is_moving(value):
            c_stem, c_branch = _ganzhi(changed.bits, p, half)
            c_element = f.branch_element[c_branch]
            c_void = day_month.is_void(day_gz, c_branch)
            c_break = day_month.is_month_break(month_branch, c_branch)
            found = transforms.transforms(line.branch, c_branch, c_void, c_break)
            row.update(
                changed_stem=c_stem,
                changed_branch=c_branch,
                changed_element=c_element,
                # against the primary hexagram's palace (§6, standard)
                changed_relative=relative(primary.palace_element, c_element),
                changed_ganzhi=c_stem + c_branch,
                transform=",".join(found) or None,  # NULL when none applies
                changed_is_void=int(c_void),
                changed_is_month_break=int(c_break),
                changed_is_day_clash=int(day_month.is_day_clash(day_branch, c_branch)),
            )
        lines.append(row)

    hidden = []
    for spirit in primary.hidden:
        p = spirit.position
        stem, branch = _ganzhi(primary.pure_bits, p, half)
        over_stem, over_branch = _ganzhi(primary.bits, p, half)
        hidden.append(
            {
                "position": p,
                "relative": spirit.relative,
                "ganzhi": stem + branch,
                "element": spirit.element,
                "over_ganzhi": over_stem + over_branch,
                "stem": spirit.stem,
                "branch": spirit.branch,
                "over_relative": primary.lines[p - 1].relative,
                **against_day_and_month(spirit.branch),
                "is_day_clash": int(day_month.is_day_clash(day_branch, spirit.branch)),
                **bearing_columns(day_branch, month_branch, spirit.branch),
            }
        )
    nuclear_hexagram = table[nuclear_bits(primary.bits)]
    nuclear = []
    for line in nuclear_hexagram.lines:
        stem, _ = _ganzhi(nuclear_hexagram.bits, line.position, half)
        nuclear.append(
            {
                "position": line.position,
                "nuclear_king_wen": nuclear_hexagram.king_wen,
                "stem": stem,
                "branch": line.branch,
                "ganzhi": stem + line.branch,
                "element": line.element,
                "relative": relative(primary.palace_element, line.element),
            }
        )
    changed_lines = []
    if changed is not None:
        for line in changed.lines:
            stem, _ = _ganzhi(changed.bits, line.position, half)
            changed_lines.append(
                {
                    "position": line.position,
                    "yang": int(line.yang),
                    "stem": stem,
                    "branch": line.branch,
                    "element": line.element,
                    # against the primary hexagram's palace (§6.2 commentary)
                    "relative": relative(primary.palace_element, line.element),
                    "ganzhi": stem + line.branch,
                }
            )
    use_candidates, use_rows = expected_use(
        about,
        lines,
        hidden,
        palace_element=primary.palace_element,
        month_branch=month_branch,
        day_branch=day_branch,
    )
    fired = expected_signs(
        values,
        day_gz=day_gz,
        month_branch=month_branch,
        hour_gz=hour_gz,
        najia_half=half,
        matter=matter,
        about=about,
        use=use_facts(use_rows),
        cast_utc=cast_utc,
    )
    by_name = signs.by_name()
    sign_rows = tuple(
        {
            "sign": f.sign,
            "position": f.position,
            "subject": by_name[f.sign].subject,
            "polarity": by_name[f.sign].polarity,
            "weight": by_name[f.sign].weight,
            "passage": by_name[f.sign].passage,
            "basis": by_name[f.sign].basis,
            "meaning": by_name[f.sign].meaning,
            "meaning_zh": by_name[f.sign].meaning_zh,
            "cancels": by_name[f.sign].cancels,
        }
        for f in fired
    )
    return ExpectedChart(
        head,
        tuple(lines),
        tuple(hidden),
        tuple(nuclear),
        sign_rows,
        tuple(changed_lines),
        use_candidates,
        use_rows,
    )
