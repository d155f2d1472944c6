"""The signs of a chart as text: one block under the lines, grouped world / bodies / between /
lines, one sign a line with its polarity, its passage (or its basis, when it cites none),
what it means and the line it fires on (``世空 凶 §8.14 — what I seek I cannot get (6)``),
wrapped to the terminal's width."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from yimao_db.kb.vocab import SIGN_GROUPS as GROUPS
from yimao_db.kb.vocab import SIGN_SUBJECT_GROUP as SUBJECT_GROUP
from yimao_db.present.table import width

WIDTH = 100  # wrap past this many terminal cells when the terminal's width is not known
NARROWEST = 40  # never wrap narrower than this
TITLES = {
    "use": "use",
    "world": "world",
    "bodies": "bodies",
    "between": "between",
    "lines": "lines",
}
LEAD = 11  # "  bodies   ": the group's title column


class SignRow(Protocol):
    """What the block reads of a row of v_reading_sign."""

    @property
    def sign(self) -> str: ...
    @property
    def position(self) -> int | None: ...
    @property
    def subject(self) -> str: ...
    @property
    def polarity(self) -> str: ...
    @property
    def passage(self) -> str | None: ...
    @property
    def basis(self) -> str: ...
    @property
    def meaning(self) -> str: ...
    @property
    def cancels(self) -> str | None: ...


def label(row: SignRow) -> str:
    """``世空 凶 §8.14 — what I seek I cannot get (6)``: the sign, its polarity (``cancels
    太白特現`` for a sign that cancels a harm or a good), its passage or, citing none, its
    basis in plain words, what it means, and the line it fires on."""
    polarity = f"中, cancels {row.cancels}" if row.cancels else row.polarity
    cite = f"§{row.passage}" if row.passage else f"{row.basis}, no passage"
    where = f" ({row.position})" if row.position is not None else ""
    return f"{row.sign} {polarity} {cite} — {row.meaning}{where}"


def grouped(signs: Sequence[SignRow]) -> list[tuple[str, list[str]]]:
    """(group title, labels) of each group that has signs, in the order given within it."""
    found = []
    for group in GROUPS:
        labels = [label(s) for s in signs if SUBJECT_GROUP[s.subject] == group]
        if labels:
            found.append((TITLES[group], labels))
    return found


def opposed(signs: Sequence[SignRow]) -> list[str]:
    """A note for each line where signs about one subject pull opposite ways (世身得喜 and
    世身逢忌 on a body that holds both what the matter wants and what it fears): both hold,
    each on its own condition, and neither cancels the other (docs/signs.md)."""
    notes = []
    seen: dict[tuple[int, str], dict[str, list[str]]] = {}
    for s in signs:
        if s.position is not None and s.polarity in ("吉", "凶"):
            seen.setdefault((s.position, s.subject), {}).setdefault(s.polarity, []).append(s.sign)
    for (position, _), found in sorted(seen.items()):
        if len(found) == 2:
            good, bad = " ".join(found["吉"]), " ".join(found["凶"])
            notes.append(
                f"line {position}: {good} (吉) and {bad} (凶) both hold, each on its own "
                "condition; neither cancels the other"
            )
    return notes


def _wrap(text: str, cells: int) -> list[str]:
    """``text`` in lines of at most ``cells`` display cells (wide characters count two),
    broken at spaces where it can be."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if width(candidate) <= cells or not line:
            line = candidate
        else:
            out.append(line)
            line = word
        while width(line) > cells:  # a word longer than the line: cut it
            cut = next(i for i in range(1, len(line) + 1) if width(line[:i]) > cells) - 1
            out.append(line[: max(cut, 1)])
            line = line[max(cut, 1) :]
    out.append(line)
    return out


def render_signs(signs: Sequence[SignRow], cells_wide: int | None = None) -> list[str]:
    """The lines of the signs block, one sign a line in the order given within each group,
    wrapped to ``cells_wide`` (the terminal's width; :data:`WIDTH` when unknown), a
    continuation indented under its sign; none if no sign."""
    if not signs:
        return []
    room = max((cells_wide or WIDTH) - LEAD, NARROWEST - LEAD)
    out = ["", "Signs (line in brackets):"]
    for title, labels in grouped(signs):
        for i, text in enumerate(labels):
            lead = f"  {title:<{LEAD - 3}} " if i == 0 else " " * LEAD
            first, *rest = _wrap(text, room)
            out.append(lead + first)
            if rest:
                out += [" " * (LEAD + 2) + more for more in _wrap(" ".join(rest), room - 2)]
    for i, note in enumerate(opposed(signs)):
        lead = f"  {'opposed':<{LEAD - 3}} " if i == 0 else " " * LEAD
        first, *rest = _wrap(note, room)
        out.append(lead + first)
        if rest:
            out += [" " * (LEAD + 2) + more for more in _wrap(" ".join(rest), room - 2)]
    return out
