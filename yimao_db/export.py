"""``yimao export DIR``: every public view and reference table as files, for reports.

One file per view (``v_*``, but the definitions of the derived tables, whose rows the public
views give) and per reference table (every table of the schema but the readings themselves,
``reading`` and ``reading_line``, and the derived tables stored from them: the charts are in
the ``v_reading*`` views): CSV with a header row, JSON Lines, or Parquet when pyarrow is
installed. Rows are sorted by the primary key (tables) or by every column (views), text by
the bytes of its UTF-8 encoding and NULLs first on both backends, so that the files of an
unchanged database are byte-identical from one run to the next, and identical between
SQLite and PostgreSQL. ``README.md`` documents the files: from the ``meta_table``/
``meta_column`` rows when the database has them, else from the schema's table and column
comments.

Everything is read in one read-only transaction: one consistent snapshot even while
readings are being cast. Each file is written as its rows arrive (in constant memory,
whatever the number of readings) and put in place only when all are.
"""

from __future__ import annotations

import contextlib
import csv
import importlib.util
import itertools
import json
import math
import os
import secrets
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import URL

from yimao_db import dialect, sigint
from yimao_db.db import reader_engine
from yimao_db.errors import UsageError, shown
from yimao_db.kb import sign_count
from yimao_db.kb.derived import DERIVED

FORMATS = ("csv", "jsonl", "parquet")
EXTENSIONS = {"csv": "csv", "jsonl": "jsonl", "parquet": "parquet"}
README = "README.md"

# Rows users write and the rows stored from them (the derived tables, each the rows of a
# public view): not reference data; the readings are exported through the v_reading* views.
READING_TABLES = frozenset(
    {"reading", "reading_line", *(d.table for d in DERIVED), sign_count.TABLE}
)
# The private views that define the derived tables: the same rows as the public views.
DEFINITIONS = frozenset(d.definition for d in DERIVED)


def _non_finite(value: float) -> str:
    """NaN and the infinities as text (JSON has no literal for them)."""
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


def normalise(value: Any) -> Any:
    """One Python value per SQL value, whichever backend returned it.

    int for every whole number (SQLite int, PostgreSQL int/bigint/numeric, whole floats),
    float otherwise (NaN and infinities as the text ``NaN``, ``Infinity``, ``-Infinity``),
    str for text, None for NULL; booleans become 0/1, dates ISO 8601, bytes hex.
    """
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            return _non_finite(float(value))
        if value == value.to_integral_value():
            return int(value)
        return float(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return _non_finite(value)
        if value.is_integer():
            return int(value)
        return value
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return str(value)


@dataclass(frozen=True)
class Source:
    """One exported table or view."""

    name: str
    kind: str  # "table" or "view"
    order_by: str

    @property
    def sql(self) -> str:
        return f"SELECT * FROM {dialect.quote(self.name)} ORDER BY {self.order_by}"


def sources(conn: Connection) -> list[Source]:
    """The public views and the reference tables present in the database, by name."""
    from yimao_db.kb.schema import metadata

    backend = dialect.backend(conn)
    insp = inspect(conn)
    found: list[Source] = []
    for view in sorted(v for v in insp.get_view_names() if v.startswith("v_")):
        if view in DEFINITIONS:
            continue
        columns = insp.get_columns(view)
        order = ", ".join(dialect.sort_term(backend, c["name"], c["type"]) for c in columns)
        found.append(Source(view, "view", order))
    for table in sorted(insp.get_table_names()):
        if table not in metadata.tables or table in READING_TABLES:
            continue
        types = {c["name"]: c["type"] for c in insp.get_columns(table)}
        key = insp.get_pk_constraint(table).get("constrained_columns") or list(types)
        order = ", ".join(dialect.sort_term(backend, k, types[k]) for k in key)
        found.append(Source(table, "table", order))
    return sorted(found, key=lambda s: s.name)


@dataclass(frozen=True)
class Exported:
    name: str
    kind: str
    file: str
    columns: tuple[str, ...]
    rows: int


T = TypeVar("T")

# Rows fetched from the database at a time: a view of millions of rows streams through.
FETCH = 2_000
# Rows per row group of a Parquet file (a group is built in memory before it is written).
PARQUET_ROWS = 10_000
# The types :func:`normalise` returns unchanged (most values: checked once, fast).
_AS_IS = frozenset({str, int, type(None)})

# Reads a source's rows, from the start each time it is called: (columns, rows).
Read = Callable[[], tuple[list[str], Iterator[list[Any]]]]


def _reader(conn: Connection, source: Source) -> Read:
    def read() -> tuple[list[str], Iterator[list[Any]]]:
        options = conn.execution_options(stream_results=True, yield_per=FETCH)
        result = options.execute(text(source.sql))
        rows = ([v if type(v) in _AS_IS else normalise(v) for v in row] for row in result)
        return list(result.keys()), rows

    return read


def _csv(path: Path, read: Read) -> tuple[list[str], int]:
    columns, rows = read()
    count = 0
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(columns)
        write = writer.writerow  # of normalised values: None as an empty cell, a float by repr
        for row in rows:
            write(row)
            count += 1
    return columns, count


def _jsonl(path: Path, read: Read) -> tuple[list[str], int]:
    columns, rows = read()
    count = 0
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(dict(zip(columns, row, strict=True)), ensure_ascii=False) + "\n")
            count += 1
    return columns, count


def parquet_available() -> bool:
    return importlib.util.find_spec("pyarrow") is not None


def _parquet(path: Path, read: Read) -> tuple[list[str], int]:
    """A column's type is decided by all of its values (whole numbers only: int64; with a
    fraction: double; else, or no value at all: string), so the rows are read twice: once
    for the types, once to write them, a row group at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns, rows = read()
    kinds: list[set[type]] = [set() for _ in columns]
    for row in rows:
        for found, value in zip(kinds, row, strict=True):
            if value is not None:
                found.add(type(value))
    as_type = [_parquet_type(found) for found in kinds]
    arrow = {int: pa.int64(), float: pa.float64(), str: pa.string()}
    schema = pa.schema([(c, arrow[t]) for c, t in zip(columns, as_type, strict=True)])
    count = 0
    with pq.ParquetWriter(str(path), schema, compression="zstd", write_statistics=True) as out:
        rows = read()[1]
        for group in iter(lambda: list(itertools.islice(rows, PARQUET_ROWS)), []):
            arrays = [
                pa.array([None if row[i] is None else t(row[i]) for row in group], schema.types[i])
                for i, t in enumerate(as_type)
            ]
            out.write_table(pa.Table.from_arrays(arrays, schema=schema))
            count += len(group)
    return columns, count


def _parquet_type(found: set[type]) -> type:
    """The Python type of a Parquet column whose values are of the types ``found``."""
    if found and found <= {int}:
        return int
    if found and found <= {int, float}:
        return float
    return str


WRITERS: dict[str, Callable[[Path, Read], tuple[list[str], int]]] = {
    "csv": _csv,
    "jsonl": _jsonl,
    "parquet": _parquet,
}


def _meta(conn: Connection, names: set[str]) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """Descriptions from the meta tables (empty if the database has none)."""
    if not {"meta_table", "meta_column"} <= names:
        return {}, {}
    tables = {
        r.name: r.description
        for r in conn.execute(text("SELECT name, description FROM meta_table"))
    }
    columns: dict[str, list[Any]] = {}
    for r in conn.execute(
        text(
            "SELECT table_name, column_name, ordinal, description, domain, is_key "
            "FROM meta_column ORDER BY table_name, ordinal"
        )
    ):
        columns.setdefault(r.table_name, []).append(r)
    return tables, columns


def _cell(value: Any) -> str:
    return "" if value is None else " ".join(str(value).split()).replace("|", "\\|")


def schema_readme(conn: Connection, exported: Sequence[Exported], fmt: str) -> str:
    """README.md of an export: the files, then each table and view with its columns."""
    from yimao_db.kb.schema import metadata

    names = {e.name for e in exported} | set(inspect(conn).get_table_names())
    meta_tables, meta_columns = _meta(conn, names)
    source = (
        "the database's own documentation (meta_table, meta_column)"
        if meta_tables
        else "the schema's table and column comments"
    )
    lines = [
        "# yimao-db export",
        "",
        "程良玉《易冒》卷一 as a relational knowledge base: every public view and reference "
        f"table, one {fmt.upper()} file each.",
        "",
        "- Text is UTF-8. CSV files have a header row; an empty cell is NULL. JSON Lines files "
        "have one object per row (null for NULL). Whole numbers are written as integers.",
        "- Rows are sorted by the primary key (tables) or by every column (views); text sorts "
        "by its UTF-8 bytes, NULLs first. Exporting an unchanged database again gives "
        "byte-identical files.",
        "- Readings appear through the v_reading, v_reading_line and v_reading_hidden views.",
        f"- Descriptions below come from {source}.",
        "",
        "| file | kind | rows | description |",
        "|---|---|---|---|",
    ]
    for e in exported:
        table = metadata.tables.get(e.name)
        about = meta_tables.get(e.name) or (table.comment if table is not None else None)
        lines.append(f"| {e.file} | {e.kind} | {e.rows} | {_cell(about)} |")
    for e in exported:
        table = metadata.tables.get(e.name)
        about = meta_tables.get(e.name) or (table.comment if table is not None else None)
        lines += ["", f"## {e.name} ({e.kind})", ""]
        if about:
            lines += [_cell(about), ""]
        documented = {r.column_name: r for r in meta_columns.get(e.name, [])}
        lines += ["| column | key | description | domain |", "|---|---|---|---|"]
        for col in e.columns:
            row = documented.get(col)
            if row is not None:
                key = "yes" if row.is_key else ""
                lines.append(f"| {col} | {key} | {_cell(row.description)} | {_cell(row.domain)} |")
                continue
            column = table.columns.get(col) if table is not None else None
            key = "yes" if column is not None and column.primary_key else ""
            comment = column.comment if column is not None else None
            lines.append(f"| {col} | {key} | {_cell(comment)} | |")
    return "\n".join(lines) + "\n"


def export(
    directory: str | Path,
    fmt: str = "csv",
    db: str | URL | None = None,
    *,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[Exported]:
    """Write the export into ``directory`` (created if missing); returns what was written.
    ``progress(name, done, total)`` is called before each table or view is read.

    Each file is streamed to disk as its rows are read (in constant memory), into a hidden
    directory inside ``directory`` or its nearest existing parent; only when every file is
    complete do they take their places (``os.replace`` each, or one rename of the whole
    directory when it is new). An export that fails part-way, or is interrupted, removes
    what it wrote and leaves ``directory`` as it was. The files take their places with
    Ctrl-C ignored, a few renames: an export is placed whole and said to be (the command
    line's note of what stays, :func:`yimao_db.sigint.made`), or not at all; the tidying
    after a failure is not cut short by a second Ctrl-C either."""
    if not str(directory).strip():
        raise UsageError("no folder given: expected the folder to export into")
    if fmt not in FORMATS:
        raise UsageError(
            f"unknown export format {shown(fmt)}: expected one of {', '.join(FORMATS)}"
        )
    if fmt == "parquet" and not parquet_available():
        raise UsageError(
            "--format parquet needs pyarrow, which is not installed (pip install pyarrow); "
            "use --format csv or jsonl. Nothing was written."
        )
    target = Path(directory).absolute()
    if target.exists() and not target.is_dir():
        raise UsageError(f"{directory} exists and is not a directory")
    engine = reader_engine(db)
    staging: _Staging | None = None
    try:
        with engine.connect() as conn:
            found = sources(conn)
            if not found:
                raise UsageError("the database has no tables or views to export; run yimao build")
            staging = _Staging(target)
            written = []
            for number, source in enumerate(found):
                if progress is not None:
                    progress(source.name, number, len(found))
                name = f"{source.name}.{EXTENSIONS[fmt]}"
                columns, count = _written(WRITERS[fmt], staging.path / name, _reader(conn, source))
                written.append(Exported(source.name, source.kind, name, tuple(columns), count))
            readme = schema_readme(conn, written, fmt)
            _written(Path.write_text, staging.path / README, readme, "utf-8")
        with sigint.ignored():  # the files take their places, and it is said, whole
            _place(staging.path, target, [*(e.file for e in written), README])
            staging = None
            sigint.made(f"the export to {directory}")
    finally:
        with sigint.ignored():  # a second Ctrl-C would leave the staging directory behind
            if staging is not None:
                staging.remove()
            engine.dispose()
    return written


class _Staging:
    """A new hidden directory for the files being written: inside the target when it exists,
    else in its nearest existing parent (the same file system, so the files move by rename)."""

    def __init__(self, target: Path) -> None:
        home = target
        while not home.is_dir():
            if home.exists() or home.is_symlink():  # a file (or a broken link) in the way
                raise UsageError(f"{home} exists and is not a directory")
            home = home.parent
        self.home, self.before = home, home.stat()
        self.entries = sorted(os.listdir(home))
        self.path = home / f".yimao-export-{secrets.token_hex(6)}"
        try:
            self.path.mkdir()
        except OSError as exc:
            raise UsageError(f"cannot write in {home}: {exc.strerror or exc}") from None

    def remove(self) -> None:
        """Remove it and what it holds; the directory it was made in gets back its times when
        nothing else changed there meanwhile: a failed export leaves no trace."""
        shutil.rmtree(self.path, ignore_errors=True)
        with contextlib.suppress(OSError):
            if sorted(os.listdir(self.home)) == self.entries:
                os.utime(self.home, ns=(self.before.st_atime_ns, self.before.st_mtime_ns))


def _written(write: Callable[..., T], path: Path, *args: Any) -> T:
    """``write(path, *args)``, with its OSError (a full disk, say) as one line."""
    try:
        return write(path, *args)
    except OSError as exc:
        raise UsageError(f"cannot write {path.name}: {exc.strerror or exc}") from None


def _place(staging: Path, target: Path, names: Sequence[str]) -> None:
    """Move the finished files from ``staging`` to ``target``: a new ``target`` is the
    staging directory renamed; an existing one gets each file replaced."""
    try:
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            staging.rename(target)
            return
        for name in names:
            os.replace(staging / name, target / name)
        staging.rmdir()
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
