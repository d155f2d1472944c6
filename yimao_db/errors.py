"""The project's documented errors. The CLI turns them into a message and an exit code."""

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
