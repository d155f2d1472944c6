"""The schema, declared in one place: one module per concern, all on one MetaData.

Each model's docstring becomes its table comment, and every column carries a ``comment``;
PostgreSQL stores both, and for SQLite (which drops comments) the ``meta_*`` tables and
``docs/schema.md`` carry them.
"""

from yimao_db.schema import core, rules, sources, symbols
from yimao_db.schema.base import Base

metadata = Base.metadata

for _mapper in Base.registry.mappers:
    _mapper.local_table.comment = " ".join((_mapper.class_.__doc__ or "").split()) or None

__all__ = ["Base", "core", "metadata", "rules", "sources", "symbols"]
