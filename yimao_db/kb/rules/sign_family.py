"""What a sign family is declared with. The families themselves are ``FAMILIES`` in
:mod:`yimao_db.kb.rules.signs`, beside the signs they hold.

A *family* is one rule table of signs. Its declaration (:class:`Family`) says, once:

- its **key**: the columns a row is keyed by (:class:`Column`), each with its
  :class:`Domain` — the values it ranges over, and what the table's column needs (type,
  length, a foreign key or a CHECK of the listed values);
- its **arm** of ``v_reading_sign_computed``: the joins that build the key for a stored reading and
  look it up in the table, and the line a sign fires on;
- its **key builder**: how the oracle builds the same key from the rules
  (:class:`ReadingFacts`, the reading as the families see it), or, for a table of
  requirements, which signs fire.

From the declarations come the tables (:mod:`yimao_db.kb.schema.signs`), the view
(:mod:`yimao_db.kb.views.signs`), the rows (``seed/s35_signs.py``), the oracle's loop
(:mod:`yimao_db.kb.expected.signs`), the invariants' list of family tables and the families
table of ``docs/signs.md``.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, make_dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from yimao_db.kb.rules import lines

if TYPE_CHECKING:
    from yimao_db.kb.rules.day_month import Bearing
    from yimao_db.kb.rules.hexagrams import Hexagram

INT, TEXT = "int", "text"
FLAG_VALUES = (0, 1)


@dataclass(frozen=True)
class Domain:
    """The values a key column takes, and how the column stores them.

    ``listed``: the values themselves, which the column CHECKs (0/1 for a flag); otherwise
    ``lookup`` gives them from the rules and the column is a foreign key to ``references``,
    the table that holds them all."""

    type: str  # INT or TEXT
    length: int = 0  # of a TEXT column
    references: str | None = None  # "branch.name": a foreign key
    listed: tuple[Any, ...] | None = None
    lookup: Callable[[], Iterable[Any]] | None = None

    def __post_init__(self) -> None:
        if (self.listed is None) == (self.lookup is None):
            raise ValueError("a domain lists its values or looks them up, not both")
        if (self.type == TEXT) != (self.length > 0):
            raise ValueError("a text domain has a length, an int one none")

    def values(self) -> tuple[Any, ...]:
        """Every value, in a stable order."""
        if self.listed is not None:
            return self.listed
        assert self.lookup is not None
        return tuple(self.lookup())

    @property
    def is_flag(self) -> bool:
        return self.type == INT and self.listed == FLAG_VALUES


FLAG = Domain(INT, listed=FLAG_VALUES)


@dataclass(frozen=True)
class Column:
    """A column of a family's table: its name, its domain and its description."""

    name: str
    domain: Domain
    doc: str
    primary_key: bool = True  # a key column (the few others hold what a requirement needs)


def flag(name: str, doc: str) -> Column:
    return Column(name, FLAG, doc)


# --- the reading as the families see it ------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """A place a line holds in its hexagram (table ``line_place``)."""

    position: int
    place: str
    passage: str
    basis: str


@dataclass(frozen=True)
class LineFacts:
    """One line of a reading as the sign families see it."""

    position: int
    value: int
    branch: str
    element: str
    relative: str
    is_world: int
    is_between: int
    ganzhi: str  # najia stem and branch under the reading's half of the table
    spirit: str  # the day spirit
    general: str | None  # the noble's general, with an hour
    is_void: int
    is_month_break: int
    is_day_clash: int
    strength: str
    stage: str
    day: Bearing
    month: Bearing
    changed_branch: str | None  # moving lines only
    mansion: str


@dataclass(frozen=True)
class UseFacts:
    """One role (用神 原神 忌神 仇神) of a reading with a subject, as v_reading_use gives it
    (computed from the rules by :mod:`yimao_db.kb.expected.use`)."""

    role: str
    source: str  # visible, hidden, world or response
    position: int
    is_moving: int
    is_void: int
    is_month_break: int
    day_controls: int
    month_controls: int
    strength: str
    day_generates: int
    day_helps: int
    branch: str
    changed_branch: str | None  # a moving line's
    fly_is_moving: int | None  # a hidden one's 飛神
    fly_is_day_clash: int | None


@dataclass(frozen=True)
class ReadingFacts:
    """A reading as the sign families see it: what was cast, when, about what, and its
    lines' facts (computed from the rules by :mod:`yimao_db.kb.expected.signs`)."""

    primary: Hexagram
    lines: tuple[LineFacts, ...]  # line 1 first
    places: tuple[Place, ...]  # the places the primary's lines hold
    mask: int  # the moving lines
    day_gz: str
    month_branch: str
    hour_gz: str | None
    najia_half: str
    matter: str | None
    gua_shen_lines: int  # how many lines hold the 卦身
    about: str | None = None  # the subject asked about
    use: tuple[UseFacts, ...] = ()  # the roles of the reading's subject; none without one
    # (body, lodge): the lodges of the sun 日 and the moon 月 at the cast (§8.12); none for a
    # reading given as pillars or cast outside the lodge table
    lodges: tuple[tuple[str, str], ...] = ()

    def line(self, position: int) -> LineFacts:
        return self.lines[position - 1]

    @property
    def world(self) -> LineFacts:
        return self.line(self.primary.world)

    @property
    def world_alone(self) -> int:
        """1 if the world line is the only moving line (獨發)."""
        return int(lines.is_sole(self.mask, self.primary.world))


def lodge_at_cast(body: str) -> str:
    """SQL: the lodge the body ``body`` (an SQL expression: ``'日'``, ``lg.body``) is in at
    the instant ``r.cast_utc``: the body's last ingress at or before it in lodge_ingress (one
    search of its primary key, body and starts_at, not a scan of a range of rows), kept only
    while that stay lasts (ends_at after the instant), so that an instant after the table
    has none; NULL for a NULL cast_utc. ``v_reading`` and the lodge families share it."""
    return (
        "(SELECT x.mansion FROM (SELECT li.mansion, li.ends_at FROM lodge_ingress li"
        f" WHERE li.body = {body} AND li.starts_at <= r.cast_utc"
        " ORDER BY li.starts_at DESC LIMIT 1) x WHERE x.ends_at > r.cast_utc)"
    )


def at_stored_lodge(row: str) -> str:
    """SQL: the family row ``row`` (an alias with the columns ``body``, 日 or 月, and
    ``lodge``) names the lodge its body is in at the cast, as the reading's header ``hd``
    (``reading_header``, written with the reading from :func:`lodge_at_cast`) stores it:
    ``sun_mansion`` or ``moon_mansion``. One lookup of the header for the reading, where
    :func:`lodge_at_cast` would search lodge_ingress again for every row the lodge is
    compared with (on PostgreSQL, for every line and family row: half the time of a report
    over every reading's signs)."""
    return (
        f"({row}.body = '日' AND {row}.lodge = hd.sun_mansion"
        f" OR {row}.body = '月' AND {row}.lodge = hd.moon_mansion)"
    )


Key = tuple[Any, ...]  # a key's values, in the order of its columns
Keys = Callable[[ReadingFacts], Iterable[tuple[int | None, Key]]]  # (position, key)
Fires = Callable[[ReadingFacts], Iterable[tuple[int | None, str]]]  # (position, sign)


def whole(key: Callable[[ReadingFacts], Key]) -> Keys:
    """The key of the whole reading (a sign on no line)."""
    return lambda r: [(None, key(r))]


def per_line(key: Callable[[ReadingFacts, LineFacts], Key | None]) -> Keys:
    """A key for every line (``None``: this line has none)."""
    return lambda r: [(f.position, k) for f in r.lines if (k := key(r, f)) is not None]


def per_place(key: Callable[[ReadingFacts, Place, LineFacts], Key]) -> Keys:
    """A key for every place a line holds (a line may hold several)."""
    return lambda r: [(p.position, key(r, p, r.line(p.position))) for p in r.places]


def on_world(key: Callable[[ReadingFacts, LineFacts], Key]) -> Keys:
    """A key on the world line."""
    return lambda r: [(r.world.position, key(r, r.world))]


# --- a family ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Family:
    """One rule table of signs, declared once (see the module's docstring).

    ``arm`` is the SQL that follows ``FROM reading r`` in the family's arm of
    ``v_reading_sign_computed``: it joins what builds the key and then the family's own table, under
    any alias; ``position`` is the SQL of the line a sign fires on (``None``: the whole
    reading). The oracle either builds keys (``keys``) whose signs the conditions give, or,
    for a table of requirements, says which signs fire (``fires``). The table holds a row
    for every key of the product of the columns' domains where a sign fires, unless
    ``rows`` gives them (a table keyed otherwise than the key its conditions read, or of
    requirements); ``condition_key`` is then the class the conditions read, when not the
    table's key."""

    table: str
    doc: str  # the table's description
    reads: str  # what the key reads, in words (the arm's comment, docs/signs.md)
    columns: tuple[Column, ...]
    position: str | None
    arm: str
    keys: Keys | None = None
    fires: Fires | None = None
    rows: Callable[[], Iterable[dict[str, Any]]] | None = None
    condition_key: type | None = None

    def __post_init__(self) -> None:
        if (self.keys is None) == (self.fires is None):
            raise ValueError(f"{self.table}: the oracle builds keys or fires, not both")
        if self.fires is not None and self.rows is None:
            raise ValueError(f"{self.table}: a table of requirements gives its rows")
        self.alias  # noqa: B018 (the arm joins the table)

    @cached_property
    def key(self) -> type:
        """The class of the key the conditions read: ``condition_key``, or one made of the
        table's key columns (``LineSignKey`` for ``line_sign``)."""
        if self.condition_key is not None:
            return self.condition_key
        name = "".join(w.title() for w in self.table.split("_")) + "Key"
        return make_dataclass(
            name,
            [(c.name, int if c.domain.type == INT else str) for c in self.columns],
            frozen=True,
        )

    @cached_property
    def alias(self) -> str:
        """The alias the arm gives the family's table."""
        found = re.findall(rf"\bJOIN {self.table} (\w+)", self.arm)
        if len(found) != 1:
            raise ValueError(f"{self.table}: the arm must join its table once, with an alias")
        return str(found[0])

    def select(self, first: bool) -> str:
        """The arm of ``v_reading_sign_computed``: the first arm names the union's columns."""
        position = self.position or "CAST(NULL AS INTEGER)"
        head = (
            f"SELECT r.id AS reading_id, {self.alias}.sign, {position} AS position"
            if first
            else f"SELECT r.id, {self.alias}.sign, {position}"
        )
        body = textwrap.indent(textwrap.dedent(self.arm).strip("\n"), "  ")
        return f"  -- {self.reads}\n  {head}\n  FROM reading r\n{body}"

    def key_rows(self) -> Iterator[Any]:
        """Every key of the product of the columns' domains, in a stable order."""
        for values in itertools.product(*(c.domain.values() for c in self.columns)):
            yield self.key(*values)
