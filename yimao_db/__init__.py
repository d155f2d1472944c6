"""yimao-db: 程良玉《易冒》卷一 as a relational knowledge base with a query layer.

The public Python API:

- :func:`build` — create or upgrade a database and seed it;
- :func:`cast` — cast and store a reading, returning its id;
- :func:`chart` — a stored reading's chart, read from the views, as a typed object;
- :func:`find_readings` — stored readings matching filters (hexagram, dates, tag, text,
  moving lines, outcome), newest first;
- the journal: :func:`add_note`, :func:`record_outcome`, :func:`tag`, :func:`untag`,
  :func:`journal` (a reading's notes, outcome and tags) and :func:`delete_readings`.

The command line is :mod:`yimao_db.cli`.
"""

TYPE_CHECKING = False  # not typing's: loading typing (some 7 ms) would delay the command's guard
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "add_note",
    "build",
    "cast",
    "chart",
    "delete_readings",
    "find_readings",
    "journal",
    "record_outcome",
    "tag",
    "untag",
]
JOURNAL = ("add_note", "record_outcome", "tag", "untag", "journal", "delete_readings")

if TYPE_CHECKING:
    from yimao_db.building import build
    from yimao_db.finding import find_readings
    from yimao_db.journaling import add_note, delete_readings, journal, record_outcome, tag, untag
    from yimao_db.readings import cast, chart


def __getattr__(name: str) -> "Any":
    # Imported on first use, so that `yimao build` does not load the calendar library.
    if name == "build":
        from yimao_db.building import build

        return build
    if name in ("cast", "chart"):
        from yimao_db import readings

        return getattr(readings, name)
    if name in JOURNAL:  # (in yimao_db.journaling: a module named journal would shadow journal())
        from yimao_db import journaling

        return getattr(journaling, name)
    if name == "find_readings":
        from yimao_db.finding import find_readings

        return find_readings
    raise AttributeError(f"module 'yimao_db' has no attribute {name!r}")
