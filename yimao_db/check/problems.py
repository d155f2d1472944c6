"""What ``yimao check`` finds: problems, the report that holds them, and a cap per kind.

A :class:`Problem` prints as one line: ``kind: table key: detail``. Values read from a
damaged database may hold anything (text that is not UTF-8 comes back with lone surrogates,
see :func:`yimao_db.dialect.sqlite_tolerant_text`); the line escapes what cannot be printed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from yimao_db.errors import SHOWN_MAX, cut_message, shown

# At most this many problems are listed per table and kind of finding; the rest are counted.
MAX_PER_TABLE = 50

# what a long check is doing: (stage, done, total); total 0 when not known
Progress = Callable[[str, int, int], None]


def one_line(text: str) -> str:
    """``text`` on one printable line: newlines and other control characters, and lone
    surrogates, as backslash escapes."""
    escaped = "".join(
        c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )
    return escaped.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass(frozen=True)
class Problem:
    """One thing wrong: what kind of check found it, where (table and key), and what."""

    # integrity, foreign key, revision, schema, view, constraint, type, data, invariant,
    # calendar, reading, derived
    kind: str
    table: str | None
    key: str | None
    detail: str

    def __str__(self) -> str:
        where = " ".join(x for x in (self.table, self.key) if x)
        text = f"{self.kind}: {where}: {self.detail}" if where else f"{self.kind}: {self.detail}"
        return one_line(cut_message(text))


@dataclass
class CheckReport:
    problems: list[Problem] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)  # what was checked, for the 'ok' line

    @property
    def ok(self) -> bool:
        return not self.problems


def format_key(columns: Sequence[str], values: Sequence[Any]) -> str:
    """``king_wen=44 position=2``; a long text value quoted and cut short (:func:`shown`)."""
    return " ".join(
        f"{c}={shown(v) if isinstance(v, str | bytes) and len(v) > SHOWN_MAX else v}"
        for c, v in zip(columns, values, strict=True)
    )


class Capped:
    """Problems of one kind, at most ``limit`` listed per (table, what) and the rest counted.

    ``add`` files a problem under ``what`` (e.g. a constraint's name); :meth:`problems` lists
    the kept ones, each group followed by ``… and N more`` when it overflowed, sorted by
    ``order`` (e.g. the reading id) where one is given.
    """

    def __init__(self, kind: str, limit: int = MAX_PER_TABLE) -> None:
        self.kind = kind
        self.limit = limit
        self.counts: Counter[tuple[str | None, str]] = Counter()
        self.kept: list[tuple[Any, int, Problem]] = []

    def add(
        self, table: str | None, key: str | None, what: str, detail: str, order: Any = 0
    ) -> None:
        self.counts[table, what] += 1
        if self.counts[table, what] <= self.limit:
            self.kept.append((order, len(self.kept), Problem(self.kind, table, key, detail)))

    def problems(self) -> list[Problem]:
        listed = [p for _, _, p in sorted(self.kept, key=lambda x: (x[0], x[1]))]
        for (table, what), count in self.counts.items():
            if count > self.limit:
                listed.append(
                    Problem(self.kind, table, None, f"… and {count - self.limit} more {what}")
                )
        return listed

    def __len__(self) -> int:
        return sum(self.counts.values())
