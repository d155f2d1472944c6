"""Seed: the book's numbered passages (no text), cited by every rule and symbol row.

Each passage is ``encoded`` unless ``seed/data/theory.tsv`` lists it as ``theory`` with a
note, or ``seed/data/partial.tsv`` as ``partial`` with a note naming what of it is not
applied; ``seed/s97_citations.py`` checks that the encoded ones are cited and the theory ones
are not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.kb.facts import read_tsv


def rows(done: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    theory = {r["passage"]: r["note"] for r in read_tsv("theory")}
    partial = {r["passage"]: r["note"] for r in read_tsv("partial")}
    return {
        "source_passage": [
            {
                "id": passage,
                "chapter_no": int(r["chapter_no"]),
                "chapter": r["chapter"],
                "passage_no": int(r["passage_no"]),
                "line_no": int(r["line_no"]),
                "commentary_line_no": int(r["commentary_line_no"]),
                "coverage": "theory"
                if passage in theory
                else "partial"
                if passage in partial
                else "encoded",
                "note": theory.get(passage) or partial.get(passage),
            }
            for r in read_tsv("passages")
            for passage in [f"{r['chapter_no']}.{r['passage_no']}"]
        ]
    }


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    count = len(tables["source_passage"])
    return [] if count == 77 else [f"expected 77 source passages, found {count}"]
