"""The schema, declared in one place: one module per concern, all on one MetaData.

Each model's docstring becomes its table comment, and every column carries a ``comment``;
PostgreSQL stores both, and for SQLite (which drops comments) the ``meta_*`` tables and
``docs/schema.md`` carry them.
"""

from yimao_db.schema import core, docs, readings, rules, sources, symbols
from yimao_db.schema.base import Base

metadata = Base.metadata

for _table in metadata.sorted_tables:
    _mapper = next(m for m in Base.registry.mappers if m.local_table is _table)
    _table.comment = " ".join((_mapper.class_.__doc__ or "").split()) or None

__all__ = ["Base", "core", "docs", "metadata", "readings", "rules", "sources", "symbols"]
