"""A tool's arguments, checked against its input schema: one sentence for what is wrong.

An assistant may send anything: an argument the tool does not take, a number where text
goes, nothing where a value is needed. Each is refused here with one sentence naming the
argument and what it expects; the values themselves are then checked by the API, which
words its errors as the command line does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from yimao_db.dialect import MAX_ID
from yimao_db.errors import UsageError, shown
from yimao_db.inputs import reading_id


def _listed(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "no arguments"


class Arguments:
    """The arguments of one call of the tool ``tool``, whose input schema is ``schema``.

    Unknown arguments are refused at once; a value is read by the method for its type."""

    def __init__(self, tool: str, schema: Mapping[str, Any], given: Mapping[str, Any]) -> None:
        self.tool = tool
        properties: Mapping[str, Any] = schema.get("properties", {})
        unknown = [name for name in given if name not in properties]
        if unknown:
            raise UsageError(
                f"{tool} takes no argument {shown(unknown[0])}: expected "
                f"{_listed(list(properties))}"
            )
        self.given = {name: value for name, value in given.items() if value is not None}

    def required(self, name: str) -> Any:
        """The value as given; UsageError when it is not."""
        if name not in self.given:
            raise UsageError(f"{self.tool} needs the argument {name}")
        return self.given[name]

    def text(self, name: str, *, required: bool = False) -> str | None:
        """A text argument (None when it is not given)."""
        if required:
            value = self.required(name)
        elif name not in self.given:
            return None
        else:
            value = self.given[name]
        if not isinstance(value, str):
            raise UsageError(f"{name} must be text, got {_type(value)}")
        return value

    def required_text(self, name: str) -> str:
        value = self.text(name, required=True)
        assert value is not None
        return value

    def reading_id(self, name: str = "reading_id") -> int:
        """A reading id: a whole number from 1 (as a number, or as text of digits)."""
        value = self.required(name)
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise UsageError(
                f"bad reading id {shown(value)}: expected a whole number from 1 to {MAX_ID}"
            )
        return reading_id(str(value))

    def choice(self, name: str, choices: Sequence[str], default: str | None = None) -> str:
        """One of ``choices`` (``default`` when it is not given; without one it is needed)."""
        if default is not None and name not in self.given:
            return default
        value = self.required(name)
        if value not in choices:
            raise UsageError(f"bad {name} {shown(value)}: expected {' or '.join(choices)}")
        return str(value)

    def optional_choice(self, name: str, choices: Sequence[str]) -> str | None:
        return self.choice(name, choices) if name in self.given else None

    def whole(self, name: str, low: int, high: int) -> int | None:
        """A whole number from ``low`` to ``high`` (None when it is not given)."""
        if name not in self.given:
            return None
        value = self.given[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise UsageError(
                f"bad {name} {shown(value)}: expected a whole number from {low} to {high}"
            )
        return value

    def flag(self, name: str) -> bool:
        value = self.given.get(name, False)
        if not isinstance(value, bool):
            raise UsageError(f"bad {name} {shown(value)}: expected true or false")
        return value

    def texts(self, name: str) -> list[str]:
        """A list of text (needed, one item at least)."""
        value = self.required(name)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise UsageError(f"{name} must be a list of text, got {_type(value)}")
        return value

    def mapping(self, name: str) -> dict[str, Any]:
        """An object (empty when it is not given)."""
        value = self.given.get(name, {})
        if not isinstance(value, dict):
            raise UsageError(f"{name} must be an object of names and values, got {_type(value)}")
        return value

    def raw(self, name: str) -> Any:
        """The value as given, None when it is not."""
        return self.given.get(name)


def _type(value: object) -> str:
    """What a JSON value is, in a message."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return f"the number {shown(value)}"
    if isinstance(value, str):
        return f"the text {shown(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
