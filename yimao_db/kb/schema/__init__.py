"""The schema, declared in one place: one module per concern, all on one MetaData.

Every table is a Core ``Table`` whose ``comment`` is its description and whose columns each
carry a ``comment``; PostgreSQL stores both, and for SQLite (which drops comments) the
``meta_*`` tables and ``docs/schema.md`` carry them.

``from yimao_db.kb.schema import metadata`` declares every table first. A module that needs
only its own tables imports that module alone (casting a reading imports
:mod:`yimao_db.kb.schema.readings`, whose two tables cost a fraction of the fifty-odd).
"""

from __future__ import annotations

import importlib
from typing import Any

MODULES = (
    "sources",
    "core",
    "rules",
    "symbols",
    "signs",
    "use",
    "readings",
    "journal",
    "derived",
    "meta",
)


def __getattr__(name: str) -> Any:
    if name == "metadata":
        for module in MODULES:
            importlib.import_module(f"yimao_db.kb.schema.{module}")
        from yimao_db.kb.schema.base import metadata

        return metadata
    if name in MODULES:
        return importlib.import_module(f"yimao_db.kb.schema.{name}")
    raise AttributeError(f"module 'yimao_db.kb.schema' has no attribute {name!r}")
