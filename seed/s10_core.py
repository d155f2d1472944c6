"""Seed: the core reference tables, derived from the source facts by the rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import ganzhi, palaces
from yimao_db.kb.rules.elements import controls, generates
from yimao_db.kb.rules.hexagrams import (
    gua_shen_positions,
    is_liuchong,
    is_liuhe,
    nuclear_bits,
)
from yimao_db.kb.rules.hexagrams import hexagrams as hexagram_table
from yimao_db.kb.rules.najia import line_stem_branch
from yimao_db.kb.vocab import AFTER_SUMMER, AFTER_WINTER, SEASONAL

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
    hexagrams: list[dict[str, Any]] = []
    all_lines, hidden, najia, patterns = [], [], [], []
    table = hexagram_table()
    for h in table.values():
        world_line = h.lines[h.world - 1]
        hexagrams.append(
            {
                "king_wen": h.king_wen,
                "bits": h.bits,
                "name": h.name,
                "short_name": h.short_name,
                "lower": h.lower,
                "upper": h.upper,
                "palace": h.palace,
                "generation": h.generation,
                "palace_sequence": h.sequence,
                "world": h.world,
                "response": h.response,
                "five_star": h.five_star,
                "world_mansion_jingfang": h.world_mansion_jingfang,
                "world_mansion_huangjin": h.mansions[h.world],
                "gua_shen": h.gua_shen,
                "shi_shen_line": h.shi_shen_line,
            }
        )
        assert world_line.position == h.world
        for line in h.lines:
            all_lines.append(
                {
                    "king_wen": h.king_wen,
                    "position": line.position,
                    "yang": int(line.yang),
                    "stem": line.stem,
                    "branch": line.branch,
                    "ganzhi": line.ganzhi,
                    "element": line.element,
                    "relative": line.relative,
                    "is_world": int(line.position == h.world),
                    "is_response": int(line.position == h.response),
                    "is_between": int(line.position in h.between),
                    "mansion": h.mansions[line.position],
                }
            )
            for half in (AFTER_WINTER, AFTER_SUMMER):
                stem, branch = line_stem_branch(h.bits, line.position, SEASONAL, half)
                najia.append(
                    {
                        "king_wen": h.king_wen,
                        "position": line.position,
                        "half_year": half,
                        "stem": stem,
                        "ganzhi": stem + branch,
                    }
                )
        for line in h.hidden:
            hidden.append(
                {
                    "king_wen": h.king_wen,
                    "position": line.position,
                    "relative": line.relative,
                    "stem": line.stem,
                    "branch": line.branch,
                    "ganzhi": line.ganzhi,
                    "element": line.element,
                }
            )
        branches = [line.branch for line in h.lines]
        patterns.append(
            {
                "king_wen": h.king_wen,
                "nuclear_king_wen": table[nuclear_bits(h.bits)].king_wen,
                "pure_king_wen": table[h.pure_bits].king_wen,
                "is_liuchong": int(is_liuchong(branches)),
                "is_liuhe": int(is_liuhe(branches)),
                "gua_shen_positions": ",".join(
                    str(p) for p in gua_shen_positions(branches, h.gua_shen)
                ),
            }
        )
    hexagrams.sort(key=lambda r: r["king_wen"])
    return {
        "hexagram": hexagrams,
        "hexagram_line": all_lines,
        "hidden_spirit": hidden,
        "line_najia": najia,
        "hexagram_pattern": patterns,
    }


def rows(done: Mapping[str, list[dict[str, Any]]]) -> Rows:
    out: Rows = {}
    for part in (vocabulary_rows, sixty_rows, trigram_rows, hexagram_rows):
        out.update(part())
    return out


# Self-checks (docs/rules.md chapters 1, 3 and 8: §1.5, §1.8, §8.6, §8.11). The seed refuses
# to build when one fails.
PALACES = {
    "乾": "乾 姤 遯 否 觀 剝 晉 大有",
    "震": "震 豫 解 恆 升 井 大過 隨",
    "坎": "坎 節 屯 既濟 革 豐 明夷 師",
    "艮": "艮 賁 大畜 損 睽 履 中孚 漸",
    "坤": "坤 復 臨 泰 大壯 夬 需 比",
    "巽": "巽 小畜 家人 益 無妄 噬嗑 頤 蠱",
    "離": "離 旅 鼎 未濟 蒙 渙 訟 同人",
    "兌": "兌 困 萃 咸 蹇 謙 小過 歸妹",
}
WORLD_GANZHI_AND_STAR = {  # §8.6
    "乾": ("壬戌", "鎮星"),
    "姤": ("辛丑", "太白"),
    "遯": ("丙午", "太陰"),
    "否": ("乙卯", "歲星"),
    "觀": ("辛未", "熒惑"),
    "剝": ("丙子", "鎮星"),
    "晉": ("己酉", "太白"),
    "大有": ("甲辰", "太陰"),
    "震": ("庚戌", "歲星"),
    "歸妹": ("丁丑", "歲星"),
    "坤": ("癸酉", None),
}
LINE_MANSIONS = {"乾": "房尾亢心氐角", "姤": "亢房尾氐箕心", "歸妹": "氐心角尾房亢"}  # §8.11
NO_NAYIN = {"甲子": "水", "甲午": "水", "甲申": "金", "甲寅": "金"}  # §1.8


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failures = []
    nayin = {r["name"]: r["element"] for r in tables["nayin"]}
    failures += [f"納音 {n}: computed {e}" for n, e in nayin.items() if n[-1] != e]
    for head, element in NO_NAYIN.items():
        found = [
            g["name"]
            for g in tables["ganzhi"]
            if g["xun_head"] == head and nayin[g["nayin"]] == element
        ]
        if found:
            failures.append(f"§1.8: {head}旬 should hold no {element} 納音, has {found}")
    hexagrams = {h["short_name"]: h for h in tables["hexagram"]}
    by_kw = {h["king_wen"]: h for h in tables["hexagram"]}
    for palace, names in PALACES.items():
        got = " ".join(
            h["short_name"]
            for h in sorted(
                (h for h in tables["hexagram"] if h["palace"] == palace),
                key=lambda h: h["generation"],
            )
        )
        if got != names:
            failures.append(f"§3: palace {palace} lists {got}, expected {names}")
    lines = {(r["king_wen"], r["position"]): r for r in tables["hexagram_line"]}
    for short, (gz, star) in WORLD_GANZHI_AND_STAR.items():
        h = hexagrams[short]
        world = lines[(h["king_wen"], h["world"])]["ganzhi"]
        if world != gz or (star and h["five_star"] != star):
            failures.append(
                f"§8.6: {short} world {world} star {h['five_star']}, expected {gz} {star}"
            )
    for short, expected in LINE_MANSIONS.items():
        kw = hexagrams[short]["king_wen"]
        got = "".join(lines[(kw, p)]["mansion"] for p in range(1, 7))
        if got != expected:
            failures.append(f"§8.11: {short} mansions {got}, expected {expected}")
    if len(by_kw) != 64 or len(lines) != 384:
        failures.append("expected 64 hexagrams and 384 lines")
    return failures
