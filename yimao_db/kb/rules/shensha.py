"""The 神煞 the book names beside the spirits: 咸池 (§8.9) and 天財, 地財 (§9.5).

The 貴人 of §9.5 is the noble's general 貴人 (:func:`yimao_db.kb.rules.spirits.generals`).

- 咸池 (standard): counted from the day branch, it stands where the element of the day
  branch's 三合 is at 沐浴 — 申子辰 → 酉, 寅午戌 → 卯, 巳酉丑 → 午, 亥卯未 → 子.
- 天財 and 地財 (**decision**): the book names them as wanted for wealth and gives no table;
  天 and 地 are read as the stems 天干 and the branches 地支 (§1.1), and 財 as what the day
  stem controls (我克者為財, §6.4). A line holds 天財 when its najia stem is of the element
  the day stem controls, 地財 when its branch is.
"""

from __future__ import annotations

from functools import cache

from yimao_db.kb.facts import facts
from yimao_db.kb.rules.elements import controls
from yimao_db.kb.rules.relations import triads
from yimao_db.kb.rules.stages import stage_branch

XIANCHI = "咸池"
TIANCAI = "天財"
DICAI = "地財"
SHENSHA = (XIANCHI, TIANCAI, DICAI)
XIANCHI_STAGE = "沐浴"  # 咸池 stands at the 沐浴 of the day branch's triad


@cache
def xianchi(day_branch: str) -> str:
    """The branch 咸池 stands on for a day of ``day_branch``."""
    element = next(t.element for t in triads() if day_branch in t.roles)
    return stage_branch(element, XIANCHI_STAGE)


def day_wealth(day_stem: str) -> str:
    """The element the day stem controls: the wealth 財 of the day."""
    return controls(facts().stem_element[day_stem])


def on_line(day_gz: str, ganzhi: str) -> list[str]:
    """The 神煞 standing on a line of ``ganzhi`` on the day ``day_gz``, in SHENSHA order."""
    f = facts()
    stem, branch = ganzhi[0], ganzhi[1]
    wealth = day_wealth(day_gz[0])
    holds = {
        XIANCHI: xianchi(day_gz[1]) == branch,
        TIANCAI: f.stem_element[stem] == wealth,
        DICAI: f.branch_element[branch] == wealth,
    }
    return [name for name in SHENSHA if holds[name]]
