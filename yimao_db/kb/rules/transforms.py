"""What a moving line turns into (§8.14 and standard 六爻 practice).

A moving line of branch ``b`` changes into the line of the changed hexagram at its place,
of branch ``c``. Each transform below is judged from the two branches (and, for 化空 and
化破, from the day and month of the reading); the names are those a chart prints.
"""

from __future__ import annotations

from yimao_db.kb.facts import facts
from yimao_db.kb.rules.elements import controls, generates
from yimao_db.kb.rules.relations import advancing, retreating
from yimao_db.kb.rules.stages import stage

ADVANCE = "化進神"  # changes forward within its element: grows (§8.14)
RETREAT = "化退神"  # changes backward within its element: shrinks (§8.14)
RETURN_GENERATE = "回頭生"  # the changed line's element generates the moving line's
RETURN_CONTROL = "回頭克"  # the changed line's element controls the moving line's
TO_VOID = "化空"  # changes into a branch void on the day 旬空
TO_BREAK = "化破"  # changes into the branch the month clashes 月破
TO_TOMB = "化墓"  # changes into the tomb 墓 of its own element
TO_EXTINCTION = "化絕"  # changes into the place of extinction 絕 of its own element

TRANSFORMS = (
    ADVANCE,
    RETREAT,
    RETURN_GENERATE,
    RETURN_CONTROL,
    TO_VOID,
    TO_BREAK,
    TO_TOMB,
    TO_EXTINCTION,
)


def _element(branch: str) -> str:
    return facts().branch_element[branch]


def advances(branch: str, changed: str) -> bool:
    """化進神: 亥→子, 寅→卯, 巳→午, 申→酉, 丑→辰, 辰→未, 未→戌, 戌→丑."""
    return (branch, changed) in advancing()


def retreats(branch: str, changed: str) -> bool:
    """化退神: each 進神 reversed."""
    return (branch, changed) in retreating()


def returns_generating(branch: str, changed: str) -> bool:
    """回頭生: the changed line's element generates the moving line's."""
    return generates(_element(changed)) == _element(branch)


def returns_controlling(branch: str, changed: str) -> bool:
    """回頭克: the changed line's element controls the moving line's."""
    return controls(_element(changed)) == _element(branch)


def to_tomb(branch: str, changed: str) -> bool:
    """化墓: the changed branch is the 墓 of the moving line's element."""
    return stage(_element(branch), changed) == "墓"


def to_extinction(branch: str, changed: str) -> bool:
    """化絕: the changed branch is the 絕 of the moving line's element."""
    return stage(_element(branch), changed) == "絕"


def transforms(branch: str, changed: str, changed_void: bool, changed_break: bool) -> list[str]:
    """Every transform that applies, in the order of :data:`TRANSFORMS`.

    ``changed_void`` and ``changed_break`` say whether the changed branch is void on the
    day (化空) and clashed by the month (化破).
    """
    holds = {
        ADVANCE: advances(branch, changed),
        RETREAT: retreats(branch, changed),
        RETURN_GENERATE: returns_generating(branch, changed),
        RETURN_CONTROL: returns_controlling(branch, changed),
        TO_VOID: changed_void,
        TO_BREAK: changed_break,
        TO_TOMB: to_tomb(branch, changed),
        TO_EXTINCTION: to_extinction(branch, changed),
    }
    return [name for name in TRANSFORMS if holds[name]]
