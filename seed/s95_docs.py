"""Seed: the documentation tables meta_table and meta_column, and contract_version.

Tables are described from the schema (comments), views from their contracts in
:mod:`yimao_db.kb.views`; no database is needed. ``tests/test_docs.py`` checks the rows
against the columns of the built database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.kb.meta import meta_rows, problems
from yimao_db.kb.views import contract


def rows(done: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {
        **meta_rows(r["id"] for r in done["source_passage"]),
        "contract_version": contract.rows(),
    }


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    found = [f"docs: {p}" for p in problems(tables["meta_table"], tables["meta_column"])]
    return found + [f"contract: {p}" for p in contract.problems()]
