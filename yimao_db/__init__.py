"""yimao-db: 程良玉《易冒》卷一 as a relational knowledge base with a query layer.

The public Python API; the command line is :mod:`yimao_db.cli`.
"""

from yimao_db.build import build

__version__ = "0.1.0"

__all__ = ["__version__", "build"]
