"""Seed: the lodges of the sun and the moon (§8.12: 日纏, 月麗).

``lodge_star``: the 28 determinative stars of ``seed/data/lodge_stars.tsv`` (standard).
``lodge_ingress``: every stay of the sun and the moon in a lodge in 1901-2100, read from the
table shipped with the package (:mod:`yimao_db.kb.rules.lodge_table`, computed with ephem;
:func:`yimao_db.kb.rules.lodges.ingress_rows`). Its rows cite no passage each (eighty
thousand rows would bury the citations of §8.12); the stars they refer to do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.kb.facts import facts, lodge_stars
from yimao_db.kb.rules import lodges

Rows = dict[str, list[dict[str, Any]]]


def rows(done: Mapping[str, list[dict[str, Any]]]) -> Rows:
    return {
        "lodge_star": [
            {
                "mansion": s.mansion,
                "star": s.star,
                "hip": s.hip,
                "variant": s.variant,
                "passage": "8.12",
                "basis": "standard",
            }
            for s in lodge_stars()
        ],
        "lodge_ingress": _ingress_rows(),
    }


def _ingress_rows() -> list[dict[str, Any]]:
    """The table's rows; none when the shipped table is damaged (:func:`checks` says why)."""
    try:
        return list(lodges.ingress_rows())
    except lodges.LodgeTableError:
        return []


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    failed = list(lodges.table_problems())
    stars = [r["mansion"] for r in tables["lodge_star"]]
    if tuple(stars) != facts().mansions:
        failed.append("lodge_stars.tsv: its lodges are not the 28 mansions in order")
    return failed
