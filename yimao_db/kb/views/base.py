"""What a view declaration is made of: :class:`View`, :class:`Col` and the domains columns
share (imported by the modules that declare views, and re-exported by the package).

A column's ``kind`` and ``null`` say what its values are, for the code generated from the
declarations (the chart's classes in ``yimao_db/chart_rows.py``, the JSON Schema of the
chart, the sets of flags and lists of ``yimao_db.present.chart_json``): :func:`col` reads
them off the domain where the domain says it (``0/1`` a flag, ``1..64`` an integer, ``… or
NULL`` nullable) and takes them as arguments where it does not (a list joined by ',', a
free text that may be NULL).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

FLAG = "0/1"
FLAG_OR_NULL = "0/1 or NULL"
KING_WEN = "1..64"
POSITION = "1..6"
POSITIONS = "1..6 joined by ','"
BITS = "6 characters 0/1"
READING = "FK reading.id"
OR_NULL = " or NULL"

# What a column's values are:
# text; integer; flag (0/1, a boolean in JSON); integers and texts (lists joined by ',',
# arrays in JSON, [] for NULL or empty)
Kind = Literal["text", "integer", "flag", "integers", "texts"]
KINDS: tuple[Kind, ...] = ("text", "integer", "flag", "integers", "texts")
LISTS: tuple[Kind, ...] = ("integers", "texts")

_INTEGER = re.compile(r"^\d+(\.\.\d*)?$")  # 6, 1..64, 0..


@dataclass(frozen=True)
class Col:
    """One column of a view: its name, what it means, the values it takes (``domain``, in
    words), their kind, and whether it may be NULL."""

    name: str
    description: str
    domain: str | None = None
    kind: Kind = "text"
    null: bool = False


@dataclass(frozen=True)
class View:
    name: str
    section: str  # where the documentation lists it (as a table's info["section"])
    description: str
    columns: tuple[Col, ...]
    sql: str
    public: bool = True  # part of the stable contract (see yimao_db.kb.views.contract)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


def kind_of(domain: str | None) -> Kind:
    """The kind a domain says: a flag for ``0/1``, an integer for ``1..6``, ``0..``, ``6`` and
    ``FK reading.id`` (``… or NULL`` alike); text otherwise."""
    if domain is None:
        return "text"
    bare = domain.removesuffix(OR_NULL)
    if bare == FLAG:
        return "flag"
    if bare == READING or _INTEGER.match(bare):
        return "integer"
    return "text"


def col(
    name: str,
    description: str,
    domain: str | None = None,
    *,
    kind: Kind | None = None,
    null: bool | None = None,
) -> Col:
    """A column; ``kind`` and ``null`` default to what the domain says (:func:`kind_of`;
    nullable when the domain ends in ``or NULL``)."""
    if kind is not None and kind not in KINDS:
        raise ValueError(f"column {name}: kind {kind!r} is not one of {KINDS}")
    return Col(
        name,
        description,
        domain,
        kind_of(domain) if kind is None else kind,
        (domain or "").endswith(OR_NULL) if null is None else null,
    )
