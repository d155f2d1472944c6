"""Seed: the documentation tables ``meta_table`` and ``meta_column`` (issue 4).

Tables are described from the models (docstrings and column comments), views from the
dictionary in :mod:`yimao_db.docs`; no database is needed. ``tests/test_docs.py`` checks the
rows against the columns of the built database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.docs import meta_rows, problems


def rows(done: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return meta_rows(r["id"] for r in done["source_passage"])


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    return [f"docs: {p}" for p in problems(tables["meta_table"], tables["meta_column"])]
