"""Seed: passage_citation, every seeded row that cites a passage (after every other seed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.meta import cited_rows


def rows(done: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {"passage_citation": cited_rows(done)}
