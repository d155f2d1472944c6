"""Seed: passage_citation, every seeded row that cites a passage (after every other seed).

Its self-check holds ``source_passage.coverage`` to the citations: a passage is ``encoded``
when at least one row cites it, and ``theory`` (with a note) when none does; at most
``MAX_THEORY`` passages may be theory.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.kb.meta import cited_rows
from yimao_db.kb.schema.sources import MAX_THEORY


def rows(done: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {"passage_citation": cited_rows(done)}


def coverage_problems(passages: list[dict[str, Any]], citations: list[dict[str, Any]]) -> list[str]:
    """Why the passages' coverage does not match the rows citing them (empty when it does)."""
    cited = {c["passage"] for c in citations}
    failed = []
    for p in passages:
        if p["coverage"] in ("encoded", "partial") and p["id"] not in cited:
            failed.append(f"§{p['id']} is marked {p['coverage']} but no row cites it")
        if p["coverage"] == "partial" and not p["note"]:
            failed.append(f"§{p['id']} is partial without a note of what is not applied")
        if p["coverage"] == "theory" and p["id"] in cited:
            failed.append(f"§{p['id']} is marked theory but rows cite it")
        if p["coverage"] == "theory" and not p["note"]:
            failed.append(f"§{p['id']} is theory without a note")
    theory = [p["id"] for p in passages if p["coverage"] == "theory"]
    if len(theory) > MAX_THEORY:
        failed.append(f"{len(theory)} theory passages, at most {MAX_THEORY}: {theory}")
    return failed


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    return coverage_problems(tables["source_passage"], tables["passage_citation"])
