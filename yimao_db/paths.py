"""Where the migrations and seed directories (and the documents the package serves) live.

In a source checkout they sit beside the package (``migrations/``, ``seed/``,
``docs/queries.md``, ``docs/signs.md``, ``docs/chart.schema.json``); in an installed wheel
they are shipped inside it as ``yimao_db/_migrations``, ``yimao_db/_seed`` and
``yimao_db/_docs/`` (pyproject.toml's ``force-include``).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _locate(installed: str, source: str) -> Path:
    inside = _PACKAGE / installed
    if inside.is_dir():
        return inside
    return _PACKAGE.parent / source


def migrations_dir() -> Path:
    """The alembic script directory."""
    return _locate("_migrations", "migrations")


def seed_dir() -> Path:
    """The seed scripts and their source data."""
    return _locate("_seed", "seed")


def seed_data_dir() -> Path:
    """The typed-in source facts (TSV files)."""
    return seed_dir() / "data"


def doc_path(name: str) -> Path:
    """A document of ``docs/`` that the package serves (shipped in the wheel)."""
    inside = _PACKAGE / "_docs" / name
    return inside if inside.is_file() else _PACKAGE.parent / "docs" / name


def queries_md_path() -> Path:
    """The example queries (``yimao serve`` offers them as canned queries)."""
    return doc_path("queries.md")
