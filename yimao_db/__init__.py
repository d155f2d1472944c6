"""yimao-db: 程良玉《易冒》卷一 as a relational knowledge base with a query layer.

The public Python API:

- :func:`build` — create or upgrade a database and seed it;
- :func:`cast` — cast and store a reading, returning its id;
- :func:`chart` — a stored reading's chart, read from the views, as a typed object.

The command line is :mod:`yimao_db.cli`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["__version__", "build", "cast", "chart"]

if TYPE_CHECKING:
    from yimao_db.build import build
    from yimao_db.readings import cast, chart


def __getattr__(name: str) -> Any:
    # Imported on first use, so that `yimao build` does not load the calendar library.
    if name == "build":
        from yimao_db.build import build

        return build
    if name in ("cast", "chart"):
        from yimao_db import readings

        return getattr(readings, name)
    raise AttributeError(f"module 'yimao_db' has no attribute {name!r}")
