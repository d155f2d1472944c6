"""The column contract of the public views, and its versions.

Apps read a database through its public views (``View.public``). Their columns, in order,
are the contract: each version of it is recorded in ``contract.json`` beside this module
(version, summary, the columns of every public view), seeded into the table
``contract_version`` so that an app can read the version from the database, and listed with
its changes in ``docs/schema.md``. The tests fail when the views' columns differ from the
newest recorded version: a change to a public view's columns needs a new version, made with
``python -m yimao_db.kb.views contract "what changed"``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from yimao_db.kb.views import views

HISTORY = Path(__file__).with_name("contract.json")


@dataclass(frozen=True)
class Version:
    version: int
    summary: str
    views: dict[str, tuple[str, ...]]  # public view -> its columns in order


@cache
def history() -> tuple[Version, ...]:
    """Every recorded version, oldest first."""
    data = json.loads(HISTORY.read_text(encoding="utf-8"))
    return tuple(
        Version(v["version"], v["summary"], {k: tuple(c) for k, c in v["views"].items()})
        for v in data
    )


def current() -> dict[str, tuple[str, ...]]:
    """The public views' columns as the package defines them now."""
    return {v.name: v.column_names for v in views().values() if v.public}


def changes(old: dict[str, tuple[str, ...]], new: dict[str, tuple[str, ...]]) -> str:
    """What changed between two contracts, e.g. ``v_reading: +signs; v_x: new view``."""
    parts = []
    for name in sorted(old.keys() | new.keys()):
        if name not in old:
            parts.append(f"{name}: new view ({', '.join(new[name])})")
        elif name not in new:
            parts.append(f"{name}: removed")
        elif old[name] != new[name]:
            added = [f"+{c}" for c in new[name] if c not in old[name]]
            removed = [f"-{c}" for c in old[name] if c not in new[name]]
            moved = [] if added or removed else ["columns reordered"]
            parts.append(f"{name}: {', '.join(added + removed + moved)}")
    return "; ".join(parts)


def rows() -> list[dict[str, Any]]:
    """The rows of the table ``contract_version``."""
    out = []
    before: dict[str, tuple[str, ...]] = {}
    for v in history():
        out.append(
            {"version": v.version, "summary": v.summary, "changes": changes(before, v.views)}
        )
        before = v.views
    return out


def problems() -> list[str]:
    """Why the recorded contract does not match the views (empty when it does)."""
    found = []
    versions = [v.version for v in history()]
    if versions != list(range(1, len(versions) + 1)):
        found.append(f"contract versions are {versions}, expected 1..{len(versions)}")
    newest = history()[-1]
    if newest.views != current():
        found.append(
            f"the public views' columns differ from contract version {newest.version} "
            f"({changes(newest.views, current())}): record a new version with "
            '`python -m yimao_db.kb.views contract "what changed"`'
        )
    return found


def record(summary: str) -> Version:
    """Append a new version with the current columns to ``contract.json``."""
    if history() and history()[-1].views == current():
        raise ValueError("the public views' columns have not changed since the last version")
    version = Version(len(history()) + 1, summary, current())
    data = [
        {
            "version": v.version,
            "summary": v.summary,
            "views": {k: list(c) for k, c in v.views.items()},
        }
        for v in (*history(), version)
    ]
    HISTORY.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    history.cache_clear()
    return version
