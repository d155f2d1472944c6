"""Seed: the lookup tables of stored readings (the sets of moving lines)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yimao_db.kb.rules.lines import mask_lines


def rows(done: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {
        "moving_lines": [
            {
                "mask": mask,
                "lines": ",".join(str(p) for p in mask_lines(mask)),
                "line_count": len(mask_lines(mask)),
            }
            for mask in range(64)
        ]
    }
