"""Values a user types on a command line or in a URL: reading ids, limits, counts.

Each parser returns the value or raises :class:`~yimao_db.errors.UsageError` with one line
saying what was expected; the command line and the web pages share them.
"""

from __future__ import annotations

from yimao_db.dialect import MAX_ID
from yimao_db.errors import UsageError, shown


def _whole_number(text: str) -> int | None:
    """``text`` as a number from 1 to MAX_ID, or None. The length is checked before ``int()``,
    which refuses more than 4,300 digits with a ValueError of its own."""
    if not text.isascii() or not text.isdigit() or len(text) > len(str(MAX_ID)):
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None


def reading_id(text: str) -> int:
    """A reading id typed by a user: a positive whole number."""
    number = _whole_number(text)
    if number is None:
        raise UsageError(
            f"bad reading id {shown(text)}: expected a whole number from 1 to {MAX_ID}"
        )
    return number


def limit(text: str) -> int:
    """A ``--limit`` typed by a user: 1 .. MAX_ID."""
    number = _whole_number(text)
    if number is None:
        raise UsageError(f"bad --limit {shown(text)}: expected a whole number from 1 to {MAX_ID}")
    return number


def moving_count(text: str) -> int:
    """A ``--moving`` count typed by a user: 0 .. 6."""
    if text.strip() not in tuple("0123456"):
        raise UsageError(f"bad --moving {shown(text)}: expected a number of lines from 0 to 6")
    return int(text.strip())
