"""``yimao export``: every public view and reference table, stable, identical across backends."""

from __future__ import annotations

import csv
import errno
import hashlib
import io
import itertools
import json
import os
import random
import sys
import tracemalloc
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from helpers import as_a_command, ctrl_c, run
from sqlalchemy import Connection, inspect, text

from yimao_db import export as yimao_export
from yimao_db import readings
from yimao_db.building import build
from yimao_db.cli import main
from yimao_db.db import reader_engine, writer_engine
from yimao_db.export import (
    DEFINITIONS,
    READING_TABLES,
    export,
    normalise,
    parquet_available,
)
from yimao_db.importing import import_file
from yimao_db.kb.schema import metadata


def digest(directory: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.iterdir())
        if p.is_file()
    }


FIXED_CLOCK = "2024-01-01T00:00:00.000000+00:00"


def add_readings(db: str, tmp: Path) -> None:
    """The same readings, in the same order, with the same stored clock, on any backend."""
    readings.cast("789678", at="2024-03-01T10:00", question="事業?", db=db)
    readings.cast("乾之姤", pillars="甲辰,丙寅,甲子,庚午", db=db)
    readings.cast(coins="2,1,3,0,2,2", at="2023-07-15T23:30", tz="Asia/Shanghai", db=db)
    readings.cast("天風姤", moving="1,4", day="甲子", month="寅", najia="fixed", db=db)
    readings.cast("787878", at="2023-12-30T08:00", najia="seasonal", question='a, "b"', db=db)
    rows = tmp / "import.csv"
    rows.write_text(
        'lines,at,tz,question\n696969,2022-02-04T12:00,Asia/Shanghai,"x\ny"\n'
        "888888,2021-06-21T06:00,Europe/London,\n",
        encoding="utf-8",
    )
    import_file(rows, db=db)
    engine = writer_engine(db)
    try:
        with engine.begin() as conn:
            for table in ("reading", "reading_header"):  # and v_reading's copy (0023)
                conn.execute(text(f"UPDATE {table} SET created_at = :t"), {"t": FIXED_CLOCK})
    finally:
        engine.dispose()


def expected_files(db: str, ext: str) -> set[str]:
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            insp = inspect(conn)
            views = {v for v in insp.get_view_names() if v.startswith("v_")} - DEFINITIONS
            tables = {
                t
                for t in insp.get_table_names()
                if t in metadata.tables and t not in READING_TABLES
            }
    finally:
        engine.dispose()
    return {f"{name}.{ext}" for name in views | tables} | {"README.md"}


def count(db: str, name: str) -> int:
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(f'SELECT COUNT(*) FROM "{name}"')).scalar_one())
    finally:
        engine.dispose()


def test_csv_export_has_every_view_and_reference_table(
    capsys: pytest.CaptureFixture[str], fresh_db: str, tmp_path: Path
) -> None:
    add_readings(fresh_db, tmp_path)
    out_dir = tmp_path / "export"
    code, out, err = run(capsys, "export", str(out_dir), "--db", fresh_db)
    assert (code, err) == (0, "")
    names = {p.name for p in out_dir.iterdir()}
    assert names == expected_files(fresh_db, "csv")
    for required in (
        "source_passage.csv",
        "name_alias.csv",
        "hexagram.csv",
        "v_hexagram.csv",
        "v_reading.csv",
        "v_reading_line.csv",
        "v_reading_hidden.csv",
    ):
        assert required in names
    assert "reading.csv" not in names and "reading_line.csv" not in names
    # nor the rows stored from them (the derived tables), nor those tables' definitions
    assert not {"reading_header.csv", "reading_hidden.csv", "reading_use.csv"} & names
    assert not {"v_reading_header_computed.csv", "v_reading_use_computed.csv"} & names
    assert out.startswith(f"{out_dir}: wrote {len(names) - 1} csv files (")
    for path in out_dir.glob("*.csv"):
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        assert rows, path.name  # a header row, always
        assert len(rows) - 1 == count(fresh_db, path.stem), path.name
    assert count(fresh_db, "v_reading") == 7
    readme = (out_dir / "README.md").read_text(encoding="utf-8")
    for name in names - {"README.md"}:
        assert f"| {name} |" in readme
        assert f"## {name.removesuffix('.csv')} (" in readme


def test_rows_are_ordered_by_the_key_numbers_as_numbers(built_db: str, tmp_path: Path) -> None:
    assert main(["export", str(tmp_path), "--db", built_db]) == 0
    with (tmp_path / "hexagram.csv").open(encoding="utf-8", newline="") as f:
        keys = [int(r["king_wen"]) for r in csv.DictReader(f)]
    assert keys == list(range(1, 65))
    with (tmp_path / "v_line.csv").open(encoding="utf-8", newline="") as f:
        rows = [(int(r["king_wen"]), r["bits"], int(r["position"])) for r in csv.DictReader(f)]
    assert rows == sorted(rows) and len(rows) == 384


def test_rerun_is_byte_identical(fresh_db: str, tmp_path: Path) -> None:
    add_readings(fresh_db, tmp_path)
    for fmt in ("csv", "jsonl"):
        first, second = tmp_path / f"{fmt}1", tmp_path / f"{fmt}2"
        assert main(["export", str(first), "--format", fmt, "--db", fresh_db]) == 0
        assert main(["export", str(second), "--format", fmt, "--db", fresh_db]) == 0
        assert digest(first) == digest(second)
        again = digest(first)
        assert main(["export", str(first), "--format", fmt, "--db", fresh_db]) == 0
        assert digest(first) == again
        assert not [p for p in first.iterdir() if p.name.startswith(".")]  # no temp files left


def test_a_new_reading_changes_only_the_reading_views(fresh_db: str, tmp_path: Path) -> None:
    assert main(["export", str(tmp_path / "a"), "--db", fresh_db]) == 0
    readings.cast("789678", pillars="甲子,丙寅,甲子,甲子", db=fresh_db)
    assert main(["export", str(tmp_path / "b"), "--db", fresh_db]) == 0
    a, b = digest(tmp_path / "a"), digest(tmp_path / "b")
    changed = {name for name in a if a[name] != b[name]}
    assert changed == {
        "v_reading.csv",
        "v_reading_cast.csv",
        "v_reading_line.csv",
        "v_reading_hidden.csv",
        "v_reading_nuclear.csv",
        "v_reading_sign.csv",
        "v_reading_changed_line.csv",
        "v_sign_count.csv",
        "README.md",  # the row counts
    }


def test_jsonl_types(fresh_db: str, tmp_path: Path) -> None:
    add_readings(fresh_db, tmp_path)
    assert main(["export", str(tmp_path / "j"), "--format", "jsonl", "--db", fresh_db]) == 0
    lines = (tmp_path / "j" / "v_reading.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    assert first["reading_id"] == 1 and isinstance(first["primary_king_wen"], int)
    assert first["early_rat"] == 0 and first["question"] == "事業?"
    assert json.loads(lines[1])["cast_at"] is None  # pillars only: no civil time
    line = json.loads(
        (tmp_path / "j" / "v_reading_line.jsonl").read_text(encoding="utf-8").splitlines()[0]
    )
    assert isinstance(line["is_moving"], int) and line["changed_stem"] is None
    assert (
        (tmp_path / "j" / "generation.jsonl")
        .read_text(encoding="utf-8")
        .startswith('{"ordinal": 0, "name": "本宮", "world": 6, "response": 3}\n')
    )


def test_csv_nulls_are_empty_cells(fresh_db: str, tmp_path: Path) -> None:
    add_readings(fresh_db, tmp_path)
    assert main(["export", str(tmp_path / "c"), "--db", fresh_db]) == 0
    with (tmp_path / "c" / "v_reading.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[1]["cast_at"] == "" and rows[0]["question"] == "事業?"
    assert rows[4]["question"] == 'a, "b"' and rows[5]["question"] == "x\ny"


def test_normalise() -> None:
    assert normalise(None) is None
    assert normalise(True) == 1 and type(normalise(True)) is int
    assert normalise(Decimal("2080")) == 2080 and type(normalise(Decimal("2080"))) is int
    assert normalise(Decimal("2.5")) == 2.5
    assert normalise(3.0) == 3 and type(normalise(3.0)) is int
    assert normalise(0.1) == 0.1
    assert [normalise(float(x)) for x in ("nan", "inf", "-inf")] == ["NaN", "Infinity", "-Infinity"]
    assert normalise(Decimal("NaN")) == "NaN"
    assert normalise(b"\x01\xff") == "01ff"
    assert normalise("甲") == "甲"


def test_a_csv_cell_of_each_kind_of_value(tmp_path: Path) -> None:
    values = (None, 1, 0.1, "x", Decimal("2.50"), True, 2.5e-7, float("inf"), 'a,"b')
    path = tmp_path / "cells.csv"
    row = [normalise(v) for v in values]
    assert yimao_export.WRITERS["csv"](path, lambda: (["c"], iter([row]))) == (["c"], 1)
    cells = ',1,0.1,x,2.5,1,2.5e-07,Infinity,"a,""b"'
    assert path.read_text(encoding="utf-8") == f"c\n{cells}\n"


def test_parquet(capsys: pytest.CaptureFixture[str], built_db: str, tmp_path: Path) -> None:
    target = tmp_path / "p"
    code, out, err = run(capsys, "export", str(target), "--format", "parquet", "--db", built_db)
    if not parquet_available():
        assert (code, out) == (2, "")
        assert "needs pyarrow" in err and "Nothing was written" in err
        assert not target.exists()
        return
    import pyarrow.parquet as pq

    assert code == 0, err
    assert {p.name for p in target.iterdir()} == expected_files(built_db, "parquet")
    table = pq.read_table(target / "hexagram.parquet")
    assert table.num_rows == 64
    assert table.column("king_wen").to_pylist() == list(range(1, 65))
    first = digest(target)
    assert main(["export", str(target), "--format", "parquet", "--db", built_db]) == 0
    assert digest(target) == first


def test_export_errors(capsys: pytest.CaptureFixture[str], built_db: str, tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    code, _, err = run(capsys, "export", str(a_file), "--db", built_db)
    assert code == 2 and "is not a directory" in err
    code, _, err = run(capsys, "export", str(a_file / "below"), "--db", built_db)
    assert (code, err) == (2, f"error: {a_file} exists and is not a directory\n")
    assert [p.name for p in tmp_path.iterdir()] == ["file.txt"]
    code, _, err = run(capsys, "export", str(tmp_path / "x"), "--format", "xml", "--db", built_db)
    assert code == 2 and "invalid choice" in err
    code, _, err = run(capsys, "export", str(tmp_path / "y"), "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no database at" in err
    assert not (tmp_path / "y").exists()


@pytest.mark.needs_pg
def test_sqlite_and_postgresql_exports_are_identical(
    sqlite_built_db: str, pg_empty_db: str, tmp_path: Path
) -> None:
    build(pg_empty_db)
    for db in (sqlite_built_db, pg_empty_db):
        add_readings(db, tmp_path)
    for fmt in ("csv", "jsonl", "parquet") if parquet_available() else ("csv", "jsonl"):
        lite, pg = tmp_path / f"sqlite-{fmt}", tmp_path / f"pg-{fmt}"
        assert main(["export", str(lite), "--format", fmt, "--db", sqlite_built_db]) == 0
        assert main(["export", str(pg), "--format", fmt, "--db", pg_empty_db]) == 0
        a, b = digest(lite), digest(pg)
        assert sorted(a) == sorted(b)
        different = sorted(name for name in a if a[name] != b[name])
        assert different == [], first_difference(lite, pg, different)
    assert count(pg_empty_db, "v_reading") == 7


def first_difference(a: Path, b: Path, names: list[str]) -> str:
    if not names or names[0].endswith(".parquet"):
        return str(names)
    left = (a / names[0]).read_text(encoding="utf-8").splitlines()
    right = (b / names[0]).read_text(encoding="utf-8").splitlines()
    for i, (x, y) in enumerate(zip(left, right, strict=False)):
        if x != y:
            return f"{names}: {names[0]} line {i + 1}:\n  sqlite:     {x}\n  postgresql: {y}"
    return f"{names}: {names[0]} has {len(left)} vs {len(right)} lines"


def test_csv_text_is_plain_utf8(built_db: str, tmp_path: Path) -> None:
    assert main(["export", str(tmp_path), "--db", built_db]) == 0
    raw = (tmp_path / "branch.csv").read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and b"\r\n" not in raw
    header = next(csv.reader(io.StringIO(raw.decode("utf-8"))))
    assert header[0] == "name"


def test_export_shows_progress_on_a_terminal_only(
    tmp_path: Path,
    built_db: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On a terminal, ``yimao export`` says which table it reads, on one line of stderr that
    it clears at the end; elsewhere stderr stays empty. stdout is the one summary line."""
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert main(["export", str(tmp_path / "plain"), "--db", built_db]) == 0
    plain = capsys.readouterr()
    assert plain.err == "" and plain.out.count("\n") == 1
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["export", str(tmp_path / "shown"), "--db", built_db]) == 0
    shown = terminal.getvalue()
    assert shown.startswith("\rexporting ") and "% (" in shown
    assert shown.endswith("\r\x1b[K") and "\n" not in shown
    assert capsys.readouterr().out.count("\n") == 1


def test_types_check_with_pyarrow_installed(tmp_path: Path) -> None:
    """docs/interop.md tells users to install pyarrow, which has no type information: the
    code's pyarrow imports, as written, pass the project's mypy configuration whether pyarrow
    is installed or not (a stand-in on PYTHONPATH, which mypy takes for an installed package
    without ``py.typed``, as pyarrow is)."""
    import os
    import re
    import subprocess

    root = Path(__file__).resolve().parents[1]
    imports = [
        line.strip()
        for name in ("yimao_db/export.py", "tests/test_export.py")
        for line in (root / name).read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*(import|from) pyarrow\b", line)
    ]
    assert len(imports) == 3, imports
    probe = tmp_path / "probe.py"
    probe.write_text("\n".join(imports) + "\n", encoding="utf-8")
    stand_in = tmp_path / "site" / "pyarrow"
    stand_in.mkdir(parents=True)
    (stand_in / "__init__.py").write_text("", encoding="utf-8")
    (stand_in / "parquet.py").write_text("", encoding="utf-8")
    config = ["--config-file", str(root / "pyproject.toml"), "--cache-dir", os.devnull]
    for path in ("", str(tmp_path / "site")):
        env = {**os.environ, "PYTHONPATH": path}
        done = subprocess.run(
            [sys.executable, "-m", "mypy", *config, str(probe)],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def _casts(path: Path, n: int, seed: int) -> Path:
    """``n`` random casts at random minutes, as a file for ``yimao import``."""
    rng = random.Random(seed)
    lines = ["lines,at,tz"]
    for _ in range(n):
        cast = "".join(rng.choice("6789") for _ in range(6))
        at = f"{rng.randint(1902, 2098)}-{rng.randint(1, 12):02}-{rng.randint(1, 28):02}"
        lines.append(f"{cast},{at}T{rng.randint(0, 23):02}:{rng.randint(0, 59):02},Asia/Shanghai")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _peak(target: Path, fmt: str, db: str) -> int:
    """The most memory Python held at once during an export (tracemalloc)."""
    tracemalloc.start()
    try:
        export(target, fmt, db)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_export_streams_its_files_in_constant_memory(
    sqlite_built_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """Each file is written as its rows are read (Parquet's a row group at a time, here of
    500 rows, fewer than a file holds): twice the readings, the same memory, and less than
    the export's size as CSV (an export that held its files in memory until the end peaked
    at about twice that size). Only the reading views are exported, the files that grow with
    the readings (the reference tables' are the same at any size). SQLite only: tracemalloc
    sees Python's memory, not a driver's (on PostgreSQL the next test checks the cursor)."""
    if fmt == "parquet" and not parquet_available():
        pytest.skip("needs pyarrow")
    monkeypatch.setattr(yimao_export, "PARQUET_ROWS", 500)
    every = yimao_export.sources  # the files that grow with the readings: the reading views'
    monkeypatch.setattr(
        yimao_export, "sources", lambda c: [s for s in every(c) if s.name.startswith("v_reading")]
    )
    import_file(_casts(tmp_path / "a.csv", 600, 1), db=sqlite_built_db)
    _peak(tmp_path / "warm", fmt, sqlite_built_db)  # the modules and caches of a first export
    small, signs = (
        _peak(tmp_path / "small", fmt, sqlite_built_db),
        count(sqlite_built_db, "v_reading_sign"),
    )
    import_file(_casts(tmp_path / "b.csv", 600, 2), db=sqlite_built_db)
    large = _peak(tmp_path / "large", fmt, sqlite_built_db)
    assert count(sqlite_built_db, "v_reading_sign") > 1.9 * signs > 20_000
    assert large < small + 2 * 2**20, (small, large)
    if fmt != "csv":
        export(tmp_path / "large", "csv", sqlite_built_db)
    size = sum(p.stat().st_size for p in (tmp_path / "large").glob("*.csv"))
    assert large < size, (large, size)


@pytest.mark.needs_pg
def test_postgresql_export_reads_through_a_server_side_cursor(
    pg_empty_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL each source is read through a server-side cursor (psycopg would
    otherwise hold the whole result in libpq's memory, which tracemalloc does not see): while
    a file's rows are being written, the session has an open cursor."""
    build(pg_empty_db)
    add_readings(pg_empty_db, tmp_path)
    real, seen = yimao_export._reader, []

    def spy(conn: Connection, source: yimao_export.Source) -> yimao_export.Read:
        def read() -> tuple[list[str], Iterator[list[Any]]]:
            columns, rows = real(conn, source)()
            first = next(rows, None)  # the cursor is open once the first rows arrive
            cursors = conn.exec_driver_sql(
                "SELECT count(*) FROM pg_cursors WHERE name <> ''"
            ).scalar_one()
            seen.append((source.name, cursors))
            return columns, itertools.chain([] if first is None else [first], rows)

        return read

    monkeypatch.setattr(yimao_export, "_reader", spy)
    assert main(["export", str(tmp_path / "out"), "--db", pg_empty_db]) == 0
    assert seen and all(n >= 1 for _, n in seen), [x for x in seen if x[1] < 1]


@pytest.mark.parametrize("existing", [False, True])
def test_an_export_that_fails_part_way_leaves_the_directory_as_it_was(
    fresh_db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    existing: bool,
) -> None:
    """A full disk while writing a file: one line, exit 2, and nothing of the new export
    anywhere: not in the directory (a new one is not created, an existing one keeps its
    files byte for byte), not beside it (the staging directory is removed)."""
    add_readings(fresh_db, tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    target = home / "out" / "export"
    if existing:
        target.mkdir(parents=True)
        (target / "v_reading.csv").write_text("an older export\n", encoding="utf-8")
    before = digest(target) if existing else None
    real = yimao_export.WRITERS["csv"]

    def fills_the_disk(path: Path, read: Any) -> tuple[list[str], int]:
        if path.name == "v_reading_line.csv":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, read)

    monkeypatch.setitem(yimao_export.WRITERS, "csv", fills_the_disk)
    code, out, err = run(capsys, "export", str(target), "--db", fresh_db)
    assert (code, out) == (2, "")
    assert err == "error: cannot write v_reading_line.csv: No space left on device\n"
    if existing:
        assert digest(target) == before
        assert [p.name for p in target.iterdir()] == ["v_reading.csv"]
    else:
        assert not target.exists()
    assert [p.name for p in home.iterdir()] == (["out"] if existing else [])
    monkeypatch.setitem(yimao_export.WRITERS, "csv", real)
    assert main(["export", str(target), "--db", fresh_db]) == 0
    assert {p.name for p in target.iterdir()} == expected_files(fresh_db, "csv")


def test_a_ctrl_c_while_the_files_take_their_places_changes_nothing(
    fresh_db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A real SIGINT between the files replacing an older export's: the export is placed
    whole and reported (it left some old files and some new, and said `interrupted`)."""
    target = tmp_path / "export"
    assert main(["export", str(target), "--db", fresh_db]) == 0
    add_readings(fresh_db, tmp_path)
    assert main(["export", str(tmp_path / "fresh"), "--db", fresh_db]) == 0
    expected = digest(tmp_path / "fresh")
    real = os.replace
    calls = itertools.count(1)

    def replace(source: Any, destination: Any) -> None:
        if next(calls) == 20:
            ctrl_c()
        real(source, destination)

    capsys.readouterr()
    monkeypatch.setattr(os, "replace", replace)
    with as_a_command():
        code, out, err = run(capsys, "export", str(target), "--db", fresh_db)
    assert next(calls) > 21  # every file replaced
    assert (code, err) == (0, "")
    assert out.startswith(f"{target}: wrote ")
    assert digest(target) == expected


def test_a_second_ctrl_c_while_an_interrupted_export_tidies_up(
    fresh_db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Ctrl-C part-way, and another as the export closes its database: `interrupted`, and
    the staging directory removed all the same (it was left with the files written so far)."""
    home = tmp_path / "home"
    home.mkdir()
    real_reader = yimao_export._reader
    readers = itertools.count(1)

    def reader(conn: Connection, source: Any) -> Any:
        if next(readers) == 5:
            ctrl_c()
        return real_reader(conn, source)

    def engine(db: Any) -> Any:
        made = reader_engine(db)
        dispose = made.dispose

        def disposing(*args: Any, **kwargs: Any) -> None:
            ctrl_c()  # the second
            dispose(*args, **kwargs)

        monkeypatch.setattr(made, "dispose", disposing)
        return made

    monkeypatch.setattr(yimao_export, "_reader", reader)
    monkeypatch.setattr("yimao_db.export.reader_engine", engine)
    with as_a_command():
        code, out, err = run(capsys, "export", str(home / "export"), "--db", fresh_db)
    assert (code, out, err) == (130, "", "interrupted\n")
    assert list(home.iterdir()) == []
