"""The project's documented errors, and how their messages show values. The CLI turns the
errors into a message and an exit code."""

from __future__ import annotations


class YimaoError(Exception):
    """Base class: a problem the user can act on. ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class UsageError(YimaoError):
    """Bad input from the user (a name, a value, a date, an id): exit 2, nothing written."""

    exit_code = 2


class DatabaseError(YimaoError):
    """The database cannot be used as asked (unwritable place, newer schema, not built)."""

    exit_code = 2


class SeedCheckFailed(YimaoError):
    """A seed script's self-check failed while seeding; the build was rolled back."""

    exit_code = 1


# A value echoed in a message is cut to this many characters: a 30 MB field must not make a
# 30 MB error line.
SHOWN_MAX = 40


def shown(value: object, most: int = SHOWN_MAX) -> str:
    """``value`` quoted for a message (its ``repr``), cut short if long: ``'abc'``, or
    ``'abcd…'… (30000000 characters)``. Every message that echoes a value the user gave,
    or one read from a file or a database, shows it through this."""
    if isinstance(value, str | bytes):
        unit = "characters" if isinstance(value, str) else "bytes"
        return repr(value) if len(value) <= most else f"{value[:most]!r}… ({len(value)} {unit})"
    try:
        text = repr(value)
    except ValueError:  # an int with more digits than Python turns into text
        return f"a {type(value).__name__} too long to show"
    return text if len(text) <= most else f"{text[:most]}… ({len(text)} characters)"


# No message line is longer than this (a database's own message may echo a whole value).
MESSAGE_MAX = 2000


def cut_message(text: str, most: int = MESSAGE_MAX) -> str:
    """``text`` cut to ``most`` characters, saying how long it was."""
    return text if len(text) <= most else f"{text[:most]}… ({len(text)} characters in all)"
