"""What a view declaration is made of: :class:`View`, :class:`Col` and the domains columns
share (imported by the modules that declare views, and re-exported by the package)."""

from __future__ import annotations

from dataclasses import dataclass

FLAG = "0/1"
KING_WEN = "1..64"
POSITION = "1..6"
BITS = "6 characters 0/1"


@dataclass(frozen=True)
class Col:
    """One column of a view: its name, what it means, and the values it takes."""

    name: str
    description: str
    domain: str | None = None


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


def col(name: str, description: str, domain: str | None = None) -> Col:
    return Col(name, description, domain)
