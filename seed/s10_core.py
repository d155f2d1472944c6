"""Seed: the core reference tables (issue 2), derived from the source facts by the rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.facts import facts
from yimao_db.rules import bodies, ganzhi, palaces, stars
from yimao_db.rules.elements import controls, generates
from yimao_db.rules.hexagrams import bits_from_name
from yimao_db.rules.lines import hidden_spirits, lines
from yimao_db.rules.najia import AFTER_SUMMER, AFTER_WINTER, SEASONAL, line_stem_branch

Rows = dict[str, list[dict[str, Any]]]


def vocabulary_rows() -> Rows:
    f = facts()
    return {
        "element": [
            {"name": e, "ordinal": i, "generates": generates(e), "controls": controls(e)}
            for i, e in enumerate(f.elements, 1)
        ],
        "stem": [
            {"name": s, "ordinal": i, "element": f.stem_element[s], "yang": i % 2}
            for i, s in enumerate(f.stems, 1)
        ],
        "branch": [
            {"name": b, "ordinal": i, "element": f.branch_element[b], "yang": i % 2}
            for i, b in enumerate(f.branches, 1)
        ],
        "relative": [
            {"name": r, "ordinal": i, "relation": rel}
            for i, (r, rel) in enumerate(f.relatives.items(), 1)
        ],
        "star": [
            {"name": s, "ordinal": i, "element": e} for i, (s, e) in enumerate(f.stars.items(), 1)
        ],
        "mansion": [{"name": m, "ordinal": i} for i, m in enumerate(f.mansions, 1)],
        "generation": [
            {
                "ordinal": g,
                "name": name,
                "world": palaces.world_line(g),
                "response": palaces.response_line(g),
            }
            for g, name in enumerate(f.generations)
        ],
    }


def sixty_rows() -> Rows:
    nayin = [
        {"name": ganzhi.nayin_name(p), "ordinal": p, "element": ganzhi.nayin_element(p)}
        for p in range(1, 31)
    ]
    sixty = []
    for gz in ganzhi.sixty():
        first, second = ganzhi.void_branches(gz.ordinal)
        sixty.append(
            {
                "name": gz.name,
                "ordinal": gz.ordinal,
                "stem": gz.stem,
                "branch": gz.branch,
                "nayin": ganzhi.nayin_name(ganzhi.nayin_index(gz.ordinal)),
                "xun_head": ganzhi.ganzhi(ganzhi.xun_head(gz.ordinal)).name,
                "void_first": first,
                "void_second": second,
            }
        )
    return {"nayin": nayin, "ganzhi": sixty}


def trigram_rows() -> Rows:
    trigrams = facts().trigrams.values()
    najia = []
    for t in trigrams:
        for half in (AFTER_WINTER, AFTER_SUMMER):
            pure = t.bits * 2
            for position in range(1, 7):
                stem, branch = line_stem_branch(pure, position, SEASONAL, half)
                najia.append(
                    {
                        "half_year": half,
                        "trigram": t.name,
                        "position": position,
                        "stem": stem,
                        "branch": branch,
                    }
                )
    return {
        "trigram": [
            {
                "name": t.name,
                "bits": t.bits,
                "image": t.image,
                "element": t.element,
                "family": t.family,
                "xiantian": t.xiantian,
                "inner_stem": t.inner_stem,
                "outer_stem": t.outer_stem,
            }
            for t in trigrams
        ],
        "palace": [{"name": t.name, "jingfang_order": t.jingfang_order} for t in trigrams],
        "najia": najia,
    }


def hexagram_rows() -> Rows:
    f = facts()
    names = {bits_from_name(name): (kw, name, short) for kw, name, short in f.hexagram_names}
    hexagrams, all_lines, hidden = [], [], []
    for member in palaces.palace_walk():
        kw, name, short = names[member.bits]
        palace_element = f.trigrams[member.palace].element
        own = lines(member.bits, palace_element)
        pure = lines(f.trigrams[member.palace].bits * 2, palace_element)
        world = palaces.world_line(member.generation)
        response = palaces.response_line(member.generation)
        between = palaces.between_lines(world, response)
        mansions = stars.huangjin_mansions(member.palace, member.generation, world, response)
        world_line = own[world - 1]
        hexagrams.append(
            {
                "king_wen": kw,
                "bits": member.bits,
                "name": name,
                "short_name": short,
                "lower": next(t.name for t in f.trigrams.values() if t.bits == member.bits[:3]),
                "upper": next(t.name for t in f.trigrams.values() if t.bits == member.bits[3:]),
                "palace": member.palace,
                "generation": member.generation,
                "palace_sequence": member.sequence,
                "world": world,
                "response": response,
                "five_star": stars.five_star(member.sequence),
                "world_mansion_jingfang": stars.jingfang_world_mansion(member.sequence),
                "world_mansion_huangjin": mansions[world],
                "gua_shen": bodies.gua_shen(world, world_line.yang),
                "shi_shen_line": bodies.shi_shen_line(world_line.branch),
            }
        )
        for line in own:
            all_lines.append(
                {
                    "king_wen": kw,
                    "position": line.position,
                    "yang": int(line.yang),
                    "stem": line.stem,
                    "branch": line.branch,
                    "ganzhi": line.ganzhi,
                    "element": line.element,
                    "relative": line.relative,
                    "is_world": int(line.position == world),
                    "is_response": int(line.position == response),
                    "is_between": int(line.position in between),
                    "mansion": mansions[line.position],
                }
            )
        for line in hidden_spirits(own, pure):
            hidden.append(
                {
                    "king_wen": kw,
                    "position": line.position,
                    "relative": line.relative,
                    "stem": line.stem,
                    "branch": line.branch,
                    "ganzhi": line.ganzhi,
                    "element": line.element,
                }
            )
    hexagrams.sort(key=lambda r: r["king_wen"])
    return {"hexagram": hexagrams, "hexagram_line": all_lines, "hidden_spirit": hidden}


def rows(done: Mapping[str, list[dict[str, Any]]]) -> Rows:
    out: Rows = {}
    for part in (vocabulary_rows, sixty_rows, trigram_rows, hexagram_rows):
        out.update(part())
    return out
