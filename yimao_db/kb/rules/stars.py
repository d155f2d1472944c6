"""The five stars 五星 (§8.6–8.7) and the 28 mansions on the lines (§8.10–8.12)."""

from __future__ import annotations

from yimao_db.kb.facts import facts
from yimao_db.kb.rules.elements import generates


def five_star(sequence: int) -> str:
    """The star of the hexagram at 1-based ``sequence`` in the palace walk.

    鎮星 (土) opens at 乾; each next hexagram takes the star of the element its
    predecessor's star generates (鎮星 → 太白 → 太陰 → 歲星 → 熒惑 → 鎮星 …).
    """
    by_element = {element: star for star, element in facts().stars.items()}
    element = "土"
    for _ in range(sequence - 1):
        element = generates(element)
    return by_element[element]


def mansion(index: int) -> str:
    """The mansion at 0-based ``index`` counted cyclically from 角."""
    mansions = facts().mansions
    return mansions[index % len(mansions)]


def jingfang_world_mansion(sequence: int) -> str:
    """京房: 參 on 乾's world line, then the next mansion for each next hexagram (§8.10)."""
    return mansion(facts().mansions.index("參") + sequence - 1)


# §8.11: the first mansion of each palace (乾 巽 角, 坎 離 斗, 艮 坤 奎, 震 兌 井).
PALACE_FIRST_MANSION = {
    "乾": "角",
    "巽": "角",
    "坎": "斗",
    "離": "斗",
    "艮": "奎",
    "坤": "奎",
    "震": "井",
    "兌": "井",
}


def line_order(world: int, response: int) -> list[int]:
    """The order in which 黃金策 mansions run over the six lines (a decision, docs/rules.md).

    World, response, then alternate between the two trigrams starting with the world's
    own, inner lines bottom-up and outer lines top-down.
    """
    rest = [p for p in range(1, 7) if p not in (world, response)]
    inner = [p for p in rest if p <= 3]
    outer = [p for p in rest if p >= 4][::-1]
    queues = [inner, outer] if world <= 3 else [outer, inner]
    order = [world, response]
    while queues[0] or queues[1]:
        for queue in queues:
            if queue:
                order.append(queue.pop(0))
    return order


def huangjin_mansions(palace: str, generation: int, world: int, response: int) -> dict[int, str]:
    """Position → mansion for every line of a hexagram (黃金策, §8.11)."""
    start = facts().mansions.index(PALACE_FIRST_MANSION[palace]) + generation
    return {p: mansion(start + i) for i, p in enumerate(line_order(world, response))}
