"""The signs of a chart as text: one block under the lines, grouped world / bodies / between /
lines, each sign with its passage (``世空 §8.14``) and the line it fires on."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from yimao_db.kb.vocab import SIGN_GROUPS as GROUPS
from yimao_db.kb.vocab import SIGN_SUBJECT_GROUP as SUBJECT_GROUP
from yimao_db.present.table import width

WIDTH = 100  # wrap a group's line past this many terminal cells
TITLES = {"world": "world", "bodies": "bodies", "between": "between", "lines": "lines"}


class SignRow(Protocol):
    """What the block reads of a row of v_reading_sign."""

    @property
    def sign(self) -> str: ...
    @property
    def position(self) -> int | None: ...
    @property
    def subject(self) -> str: ...
    @property
    def passage(self) -> str | None: ...
    @property
    def basis(self) -> str: ...


def label(row: SignRow) -> str:
    """``世空 §8.14 (3)``: the sign, its passage (or its basis when it cites none), its line."""
    cite = f"§{row.passage}" if row.passage else f"({row.basis})"
    where = f" ({row.position})" if row.position is not None else ""
    return f"{row.sign} {cite}{where}"


def grouped(signs: Sequence[SignRow]) -> list[tuple[str, list[str]]]:
    """(group title, labels) of each group that has signs, in the order given within it."""
    found = []
    for group in GROUPS:
        labels = [label(s) for s in signs if SUBJECT_GROUP[s.subject] == group]
        if labels:
            found.append((TITLES[group], labels))
    return found


def render_signs(signs: Sequence[SignRow]) -> list[str]:
    """The lines of the signs block, in the order given within each group; none if no sign."""
    if not signs:
        return []
    out = ["", "Signs (line in brackets):"]
    for title, labels in grouped(signs):
        lead = f"  {title:<8} "
        line = lead
        for i, text in enumerate(labels):
            piece = text if i == 0 else f" · {text}"
            if width(line) + width(piece) > WIDTH and line.strip():
                out.append(line.rstrip())
                line = " " * len(lead) + text
            else:
                line += piece
        out.append(line.rstrip())
    return out
