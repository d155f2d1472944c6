"""五行: the generating and controlling cycles (§5.5, §5.6) and the six relatives (§6)."""

from __future__ import annotations

from yimao_db.kb.facts import facts


def generates(element: str) -> str:
    """The element this one generates: 木→火→土→金→水→木."""
    order = facts().elements
    return order[(order.index(element) + 1) % 5]


def controls(element: str) -> str:
    """The element this one controls: 木→土→水→火→金→木."""
    order = facts().elements
    return order[(order.index(element) + 2) % 5]


def relation(me: str, other: str) -> str:
    """How ``other`` stands to ``me``: same, generates_me, i_generate, i_control, controls_me."""
    if other == me:
        return "same"
    if generates(other) == me:
        return "generates_me"
    if generates(me) == other:
        return "i_generate"
    if controls(me) == other:
        return "i_control"
    return "controls_me"


def relative(palace_element: str, line_element: str) -> str:
    """The six-relative name of a line of ``line_element`` in a palace of ``palace_element``."""
    wanted = relation(palace_element, line_element)
    return next(name for name, rel in facts().relatives.items() if rel == wanted)
