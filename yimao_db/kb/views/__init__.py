"""The views: each one's SQL and its column contract, written once, side by side.

A :class:`View` holds a view's name, its description, its columns (name, description,
domain; the passage is the first ``§c.p`` a description cites) and its SQL. The SQL only
joins and filters tables: every rule it applies is a row of a rule table seeded from
:mod:`yimao_db.kb.rules`. The modules of this package declare the views by concern
(:mod:`~yimao_db.kb.views.core`, :mod:`~yimao_db.kb.views.readings`,
:mod:`~yimao_db.kb.views.signs`, :mod:`~yimao_db.kb.views.citation`); :func:`views` lists them all
in creation order.

These definitions are the source of truth for the head schema; migrations freeze a copy of
the SQL (see :mod:`yimao_db.kb.migrating` and ``python -m yimao_db.kb.views``), and the tests fail
when the two differ. ``public`` views are the stable contract apps rely on: their columns
are recorded per contract version in :mod:`yimao_db.kb.views.contract`.
"""

from __future__ import annotations

import re
from functools import cache

from yimao_db.kb.views.base import (
    BITS,
    FLAG,
    FLAG_OR_NULL,
    KING_WEN,
    POSITION,
    POSITIONS,
    READING,
    Col,
    Kind,
    View,
    col,
)

__all__ = [
    "BITS",
    "FLAG",
    "FLAG_OR_NULL",
    "KING_WEN",
    "POSITION",
    "POSITIONS",
    "READING",
    "Col",
    "Kind",
    "View",
    "closure",
    "col",
    "uses",
    "views",
]


@cache
def views() -> dict[str, View]:
    """Every view by name, in creation order (a view after those it selects from)."""
    from yimao_db.kb.views import citation, core, readings, signs, use

    found: dict[str, View] = {}
    for module in (core, readings, use, signs, citation):
        for view in module.VIEWS:
            found[view.name] = view
    return found


def uses(view: View) -> set[str]:
    """The other views ``view`` selects from."""
    words = set(re.findall(r"\w+", view.sql))
    return {name for name in views() if name != view.name and name in words}


def closure(names: set[str]) -> list[str]:
    """``names`` and every view that depends on one of them, in creation order: what a
    revision that changes ``names`` must drop and create again (PostgreSQL refuses to drop
    a view another view selects from)."""
    found = set(names)
    changed = True
    while changed:
        changed = False
        for view in views().values():
            if view.name not in found and uses(view) & found:
                found.add(view.name)
                changed = True
    return [name for name in views() if name in found]
