"""``yimao export DIR``: every public view and reference table as files, for reports.

One file per view (``v_*``) and per reference table (every table of the schema except the
readings themselves, ``reading`` and ``reading_line``, whose charts are in the ``v_reading*``
views): CSV with a header row, JSON Lines, or Parquet when pyarrow is installed. Rows are
sorted by the primary key (tables) or by every column (views), text by the bytes of its
UTF-8 encoding and NULLs first on both backends, so that the files of an unchanged
database are byte-identical from one run to the next, and identical between SQLite and
PostgreSQL. ``README.md`` documents the files: from the ``meta_table``/``meta_column`` rows
when the database has them, else from the schema's table and column comments.

Everything is read in one read-only transaction: one consistent snapshot even while
readings are being cast.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import URL

from yimao_db import dialect
from yimao_db.db import reader_engine
from yimao_db.errors import UsageError, shown

FORMATS = ("csv", "jsonl", "parquet")
EXTENSIONS = {"csv": "csv", "jsonl": "jsonl", "parquet": "parquet"}
README = "README.md"

# Rows users write; not reference data (their charts are exported through the v_reading* views).
READING_TABLES = frozenset({"reading", "reading_line"})


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


def csv_cell(value: Any) -> str:
    """A normalised value as CSV text: NULL is empty, floats in shortest round-trip form."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
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


def _rows(conn: Connection, source: Source) -> tuple[list[str], Iterator[tuple[Any, ...]]]:
    result = conn.execute(text(source.sql))
    columns = list(result.keys())
    return columns, (tuple(normalise(v) for v in row) for row in result)


def _csv(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> tuple[bytes, int]:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    count = 0
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
        count += 1
    return buf.getvalue().encode("utf-8"), count


def _jsonl(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> tuple[bytes, int]:
    lines = [
        json.dumps(dict(zip(columns, row, strict=True)), ensure_ascii=False) + "\n" for row in rows
    ]
    return "".join(lines).encode("utf-8"), len(lines)


def parquet_available() -> bool:
    return importlib.util.find_spec("pyarrow") is not None


def _parquet(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> tuple[bytes, int]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = list(rows)
    arrays = []
    for i, _name in enumerate(columns):
        values = [row[i] for row in data]
        kinds = {type(v) for v in values if v is not None}
        if kinds <= {int}:
            arrays.append(pa.array(values, type=pa.int64() if kinds else pa.string()))
        elif kinds <= {int, float}:
            arrays.append(pa.array([None if v is None else float(v) for v in values]))
        else:
            arrays.append(pa.array([None if v is None else str(v) for v in values], pa.string()))
    table = pa.Table.from_arrays(arrays, names=list(columns))
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd", write_statistics=True)
    return sink.getvalue(), len(data)


WRITERS = {"csv": _csv, "jsonl": _jsonl, "parquet": _parquet}


def _write(path: Path, content: bytes) -> None:
    """Write atomically: a reader of the export never sees a half-written file."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(content)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


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
    ``progress(name, done, total)`` is called before each table or view is read."""
    if fmt not in FORMATS:
        raise UsageError(
            f"unknown export format {shown(fmt)}: expected one of {', '.join(FORMATS)}"
        )
    if fmt == "parquet" and not parquet_available():
        raise UsageError(
            "--format parquet needs pyarrow, which is not installed (pip install pyarrow); "
            "use --format csv or jsonl. Nothing was written."
        )
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} exists and is not a directory")
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            found = sources(conn)
            if not found:
                raise UsageError("the database has no tables or views to export; run yimao build")
            # everything is read before the first file is written: a database that fails
            # part-way (damaged) leaves no half export behind
            contents: list[tuple[Path, bytes]] = []
            written = []
            for number, source in enumerate(found):
                if progress is not None:
                    progress(source.name, number, len(found))
                columns, rows = _rows(conn, source)
                content, count = WRITERS[fmt](columns, rows)
                name = f"{source.name}.{EXTENSIONS[fmt]}"
                contents.append((target / name, content))
                written.append(Exported(source.name, source.kind, name, tuple(columns), count))
            readme = schema_readme(conn, written, fmt).encode("utf-8")
    finally:
        engine.dispose()
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {target}: {exc.strerror}") from None
    for path, content in [*contents, (target / README, readme)]:
        _write(path, content)
    return written
