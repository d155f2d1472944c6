"""The schema, declared in one place: one module per concern, all on one MetaData."""

from yimao_db.schema import core, rules, sources, symbols
from yimao_db.schema.base import Base

metadata = Base.metadata

__all__ = ["Base", "core", "metadata", "rules", "sources", "symbols"]
