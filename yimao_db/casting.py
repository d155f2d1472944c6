"""Casting inputs (§2, §11): every form a practitioner writes, turned into six line values.

Forms: six values 6..9 from line 1 up (``789678``); coin throws as the number of backs per
line (``2,1,3,0,2,2``: value = 6 + backs); ``乾之姤`` (primary 之 changed); a hexagram with
moving lines (``姤:1,4`` or a hexagram and ``moving=[1, 4]``); random throws from
:mod:`secrets`. Names resolve through ``name_alias``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import Connection, text

from yimao_db import lookup
from yimao_db.errors import UsageError, shown

_SPLIT = re.compile(r"[\s,，、]+")
_COINS = re.compile(r"\s*-?\d+(\s*[,，、]\s*-?\d+)+\s*")
_WITH_LINES = re.compile(r"(.+?)\s*[:：/]\s*(.*)")
# full-width digits, as a Chinese keyboard types them, read as digits (７８９６７８)
_WIDE_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


class Cast(NamedTuple):
    method: str  # values, coins, notation, hexagram, random
    values: str  # six characters 6..9, line 1 first
    coins: tuple[int, ...] | None  # backs per line, when thrown
    cast_input: str | None

    @property
    def moving(self) -> list[int]:
        return [i for i, v in enumerate(self.values, 1) if v in "69"]


def from_values(text: str) -> Cast:
    digits = text.strip().translate(_WIDE_DIGITS)
    if len(digits) != 6 or digits.strip("6789"):  # anything left is not a value 6-9
        raise UsageError(
            f"bad line values {shown(text)}: expected six digits 6-9 from line 1 up, e.g. 789678"
        )
    return Cast("values", digits, None, digits)


def from_coins(text: str) -> Cast:
    text = text.translate(_WIDE_DIGITS)
    parts = [p for p in _SPLIT.split(text.strip()) if p]
    if len(parts) == 1 and len(parts[0]) == 6:
        parts = list(parts[0])
    if len(parts) != 6 or any(p not in {"0", "1", "2", "3"} for p in parts):
        raise UsageError(
            f"bad coins {shown(text)}: expected six counts of backs 0-3 from line 1 up, "
            "e.g. 2,1,3,0,2,2"
        )
    backs = tuple(int(p) for p in parts)
    return Cast("coins", "".join(str(6 + b) for b in backs), backs, text.strip())


def random_cast() -> Cast:
    """Three coins per line from a cryptographically strong source."""
    backs = tuple(sum(secrets.randbelow(2) for _ in range(3)) for _ in range(6))
    return Cast("random", "".join(str(6 + b) for b in backs), backs, None)


def values_from_change(primary_bits: str, changed_bits: str) -> str:
    """Line values for a primary hexagram that changes into ``changed_bits``."""
    table = {("1", "1"): "7", ("1", "0"): "9", ("0", "0"): "8", ("0", "1"): "6"}
    return "".join(table[(p, c)] for p, c in zip(primary_bits, changed_bits, strict=True))


Names = Connection | lookup.HexagramNames  # where hexagram names are resolved


def _bits(names: Names, typed: str) -> str:
    if isinstance(names, lookup.HexagramNames):
        return names.bits(typed)
    conn = names
    kw = lookup.hexagram(conn, typed)
    query = text("SELECT bits FROM hexagram WHERE king_wen = :kw")
    return str(conn.execute(query, {"kw": kw}).scalar_one())


def parse_moving(text: str | Sequence[int]) -> list[int]:
    """Moving lines as typed (``1,4``; ``姤:1,4`` after the colon) or as numbers: each line
    1-6 once. Typed text names at least one line: an empty list is a slip, not "none"."""
    typed = isinstance(text, str)
    items = [p for p in _SPLIT.split(text.strip()) if p] if isinstance(text, str) else list(text)
    try:
        numbers = [int(p) for p in items]
    except ValueError:
        numbers = [0]
    lines = sorted(set(numbers))
    if any(not 1 <= p <= 6 for p in lines) or len(lines) < len(numbers) or (typed and not numbers):
        raise UsageError(
            f"bad moving lines {shown(text)}: expected line numbers 1-6, each once, e.g. 1,4"
        )
    return lines


def from_hexagram(names: Names, typed: str, moving: str | Sequence[int] = ()) -> Cast:
    bits = _bits(names, typed)
    lines = parse_moving(moving)
    values = "".join(
        ("9" if b == "1" else "6") if i in lines else ("7" if b == "1" else "8")
        for i, b in enumerate(bits, 1)
    )
    shown = typed if not lines else f"{typed}:{','.join(map(str, lines))}"
    return Cast("hexagram", values, None, shown)


def parse(names: Names, text: str, moving: str | Sequence[int] = ()) -> Cast:
    """Any textual cast form: values, coins (``2,1,3,0,2,2``), ``乾之姤``, ``HEX`` or
    ``HEX:1,4``; names resolve through ``names`` (a connection or a loaded table)."""
    typed = text.strip().translate(_WIDE_DIGITS)
    if not typed:
        raise UsageError("empty cast: expected six values like 789678, 乾之姤 or a hexagram")
    if typed.isascii() and typed.isdigit() and not _names_a_hexagram(typed):
        if moving:
            raise UsageError("moving lines go with a hexagram name, not with line values")
        return from_values(typed)  # line values, or digits that are no hexagram: say why
    if looks_like_coins(typed):
        if moving:
            raise UsageError("moving lines go with a hexagram name, not with coins")
        return from_coins(typed)
    if "之" in typed:
        primary, _, changed = typed.partition("之")
        if moving:
            raise UsageError("moving lines are implied by 之 notation; do not give both")
        values = values_from_change(_bits(names, primary), _bits(names, changed))
        return Cast("notation", values, None, typed)
    with_lines = _WITH_LINES.fullmatch(typed)
    if with_lines:
        if moving:
            raise UsageError("give moving lines either after ':' or with --moving, not both")
        return from_hexagram(names, with_lines.group(1), with_lines.group(2))
    return from_hexagram(names, typed, moving)


def _names_a_hexagram(digits: str) -> bool:
    """Digits that name a hexagram rather than give line values: a King Wen number (one or
    two digits) or six bits (``011111``)."""
    return len(digits) <= 2 or (len(digits) == 6 and set(digits) <= set("01"))


def looks_like_coins(text: str) -> bool:
    """True for a list of numbers separated by commas (``2,1,3,0,2,2``): coin throws, which
    :func:`from_coins` checks (no other cast form has numbers separated by commas)."""
    return _COINS.fullmatch(text) is not None
