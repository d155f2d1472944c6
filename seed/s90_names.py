"""Seed: name aliases for every vocabulary seeded before this script (§0)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.kb.names import alias_rows


def rows(done: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {"name_alias": alias_rows(done)}
