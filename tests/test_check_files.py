"""``yimao check`` on damaged SQLite files: flipped bytes in the schema, in text, truncated
files, zeroed pages. Each is reported (exit 1) in one clear line, never a traceback, and the
file is left byte for byte as it was.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import built_copy, copy_db, run, seeded

from yimao_db import check as doctor
from yimao_db.readings import cast

pytestmark = pytest.mark.sqlite_only

PAGE = 4096
QUESTION = "問題在這裡"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Path:
    """A built database with one reading, checkpointed: everything is in the main file."""
    path = tmp_path_factory.mktemp("files") / "template.db"
    built_copy(sqlite_template, path)
    cast("789678", at="2024-06-30T10:00", question=QUESTION, db=str(path))
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA page_size").fetchone() == (PAGE,)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path


def root_page(path: Path, table: str) -> int:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (page,) = con.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", [table]
        ).fetchone()
    finally:
        con.close()
    return int(page)


def damage(template: Path, tmp_path: Path, change: Callable[[bytearray], bytes]) -> Path:
    path = copy_db(template, tmp_path / "damaged.db")
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=DELETE")  # no -wal file: the damage is all there is
    con.close()
    path.write_bytes(change(bytearray(path.read_bytes())))
    return path


def at(needle: bytes) -> Callable[[bytearray], int]:
    def find(data: bytearray) -> int:
        index = data.find(needle)
        assert index >= 0, needle
        return index

    return find


def flip(
    where: Callable[[bytearray], int], offset: int, mask: int = 0xFF
) -> Callable[[bytearray], bytes]:
    def change(data: bytearray) -> bytes:
        data[where(data) + offset] ^= mask
        return bytes(data)

    return change


def zero_page(page: Callable[[], int]) -> Callable[[bytearray], bytes]:
    def change(data: bytearray) -> bytes:
        start = (page() - 1) * PAGE
        data[start : start + PAGE] = bytes(PAGE)
        return bytes(data)

    return change


def check_cli(capsys: pytest.CaptureFixture[str], path: Path) -> list[str]:
    before = path.read_bytes()
    code, out, err = run(capsys, "check", "--db", str(path))
    assert (code, err) == (1, ""), (code, out, err)
    assert path.read_bytes() == before
    lines = out.splitlines()
    assert lines[-1].endswith("found") and "problem" in lines[-1]
    return lines[:-1]


def test_flipped_bytes_in_the_schema_sql(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damage(template, tmp_path, flip(at(b'CREATE TABLE "reading_line"'), 1, 0x01))
    (line,) = check_cli(capsys, path)
    assert line.startswith(
        "integrity: the file is damaged, nothing else was checked: malformed database schema "
        "(reading_line)"
    )


def test_a_schema_name_that_is_not_utf8(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A byte of a table's name in sqlite_master turned into one that is not UTF-8."""
    path = damage(template, tmp_path, flip(at(b"CREATE TABLE between_use"), 15, 0x80))
    lines = check_cli(capsys, path)
    assert len(lines) >= 1 and all("\n" not in line for line in lines)
    assert lines[0].startswith(("integrity: ", "schema: ")), lines


def test_the_header_is_damaged(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damage(template, tmp_path, flip(lambda _: 0, 3))
    assert check_cli(capsys, path) == [
        "integrity: the file is damaged, nothing else was checked: file is not a database"
    ]


def test_text_of_a_reading_that_is_no_longer_utf8(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The b-tree is sound (integrity_check passes); the question's bytes are not UTF-8."""
    path = damage(template, tmp_path, flip(at(QUESTION.encode()), 1, 0x80))
    # the first copy is reading's; reading_header's copy (revision 0023) now differs from it
    typed, derived = check_cli(capsys, path)
    assert typed.startswith("type: reading id=1: column question is not valid UTF-8 text: ")
    assert derived == (
        "derived: reading_header reading_id=1: rows stored that the definition does not give "
        "and rows of the definition not stored"
    )


# the second byte of the name of 姤 read from the table, not an index: A4 as stored, 24 flipped
NAME_44 = "SELECT substr(hex(name), 3, 2) FROM hexagram NOT INDEXED WHERE king_wen = 44"


def occurrences(data: bytes, needle: bytes) -> list[int]:
    found, start = [], 0
    while (index := data.find(needle, start)) >= 0:
        found.append(index)
        start = index + 1
    return found


def answer_after_flip(template: Path, tmp_path: Path, index: int, query: str) -> str:
    """What ``query`` answers on a copy of ``template`` with the byte at ``index`` changed."""
    changed = bytearray(template.read_bytes())
    changed[index + 1] ^= 0x80
    probe = tmp_path / "probe.db"
    probe.write_bytes(bytes(changed))
    con = sqlite3.connect(f"file:{probe}?mode=ro", uri=True)
    try:
        return " ".join(str(value) for (value,) in con.execute(query))
    finally:
        con.close()


def holding(template: Path, tmp_path: Path, needle: bytes, query: str, says: str) -> list[int]:
    """The offsets of ``needle`` whose change makes ``query`` answer something with
    ``says`` in it: which copy of a value is in which table or index."""
    return [
        i
        for i in occurrences(template.read_bytes(), needle)
        if says in answer_after_flip(template, tmp_path, i, query)
    ]


def test_text_of_a_reference_table_that_is_no_longer_utf8(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """天風姤 is stored twice: in the hexagram table and in its UNIQUE index on name."""
    (cell,) = holding(template, tmp_path, "天風姤".encode(), NAME_44, "24")
    path = damage(template, tmp_path, flip(lambda _: cell, 1, 0x80))
    lines = check_cli(capsys, path)
    assert "type: hexagram king_wen=44: column name is not valid UTF-8 text: " in "\n".join(lines)
    assert any(line.startswith("integrity: indexes do not match their tables: ") for line in lines)


def test_text_in_an_index_that_is_no_longer_utf8(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The index entry is damaged, the table row is sound: the indexes are reported and the
    other checks still run."""
    needle = "天風姤".encode()
    cells = holding(template, tmp_path, needle, NAME_44, "24")
    (entry,) = [
        i
        for i in holding(
            template, tmp_path, needle, "PRAGMA integrity_check", "index sqlite_autoindex_hexagram"
        )
        if i not in cells
    ]
    path = damage(template, tmp_path, flip(lambda _: entry, 1, 0x80))
    lines = check_cli(capsys, path)
    assert lines[0].startswith("integrity: indexes do not match their tables: row ")
    assert "missing from index sqlite_autoindex_hexagram" in lines[0]
    assert not any("not valid UTF-8" in line for line in lines)


@pytest.mark.parametrize("keep", [0.5, 0.9, "odd", 50])
def test_a_truncated_file(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], keep: float | str
) -> None:
    def cut(data: bytearray) -> bytes:
        if keep == "odd":
            return bytes(data[: len(data) - 1000])
        if isinstance(keep, int):
            return bytes(data[:keep])
        return bytes(data[: int(len(data) * keep) // PAGE * PAGE])

    path = damage(template, tmp_path, cut)
    (line,) = check_cli(capsys, path)
    assert line.startswith("integrity: the file is damaged, nothing else was checked: "), line


@pytest.mark.parametrize("table", ["reading", "hexagram", "name_alias", "sqlite_master"])
def test_a_zeroed_page(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str
) -> None:
    page = 1 if table == "sqlite_master" else root_page(template, table)
    path = damage(template, tmp_path, zero_page(lambda: page))
    (line,) = check_cli(capsys, path)
    assert line.startswith("integrity: the file is damaged, nothing else was checked: "), line


def test_random_damage_is_reported_never_raised(template: Path, tmp_path: Path) -> None:
    """Seeded random flips, zeroed pages and cuts: check returns problems or none (a flip in
    unused space changes nothing), never raises, and each problem is one line."""
    expected = seeded()
    rng = random.Random(20240630)
    source = template.read_bytes()
    for n in range(24):
        data = bytearray(source)
        kind = n % 3
        if kind == 0:
            for _ in range(4):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif kind == 1:
            page = rng.randrange(len(data) // PAGE)
            data[page * PAGE : (page + 1) * PAGE] = bytes(PAGE)
        else:
            data = data[: rng.randrange(len(data))]
        path = tmp_path / f"random{n}.db"
        path.write_bytes(bytes(data))
        for problem in doctor.check(path.as_posix(), expected):
            assert "\n" not in str(problem)
