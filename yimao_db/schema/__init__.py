"""The schema, declared in one place: one module per concern, all on one MetaData.

Every table is a Core ``Table`` whose ``comment`` is its description and whose columns each
carry a ``comment``; PostgreSQL stores both, and for SQLite (which drops comments) the
``meta_*`` tables and ``docs/schema.md`` carry them. Importing this package declares every
table; a module that needs only its own tables (casting a reading needs ``reading`` and
``reading_line``) imports that module alone.
"""

from yimao_db.schema import core, docs, readings, rules, sources, symbols
from yimao_db.schema.base import metadata

__all__ = ["core", "docs", "metadata", "readings", "rules", "sources", "symbols"]
