"""The first release's data at head: ``yimao export`` of a database at revision 0004 (the first
release's head) holding readings, and of the same database upgraded to head, are the same
files but for the differences listed in EXPECTED_CHANGES and GROWS. Columns a later revision
adds to a view are left out of the comparison (the view's contract records them); the
columns the first release had must hold the same values in the same order.

``tests/data/first_release_export.sha256`` pins the files the upgrade must keep: it holds the
digests of the export that the first release's own code (commit ffec088) made of a database
it built and cast READINGS into, every ``created_at`` set to CREATED_AT. So the test fails if
today's code, at 0004 or at head, gives any of those files differently: the reference
tables, the views and the readings' charts.

The database at 0004 is built as ``yimao build`` built it then (revisions 0001-0004, seeded
with the rows of the tables that revision has, by today's rules), so a difference found
here is one of today's rules or views against the first release's.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from helpers import built_copy, cast_into
from test_migrations import db_at

from yimao_db.building import build
from yimao_db.cli import main

FIRST_RELEASE = "0004"
DIGESTS = Path(__file__).parent / "data" / "first_release_export.sha256"
CREATED_AT = "2026-01-01T00:00:00.000000+00:00"

# Files of the first release's export that head changes on purpose, and why.
EXPECTED_CHANGES = {
    "README.md": "describes every exported file and column, and head exports more",
    "meta_table.csv": "the database describing itself: head adds tables and views, and its "
    "descriptions point at docs/rules.md instead of a document outside the project",
    "meta_column.csv": "the columns of the tables and views head adds, and their descriptions",
}
# Reference tables a close reading of the book corrected after the first release (see
# docs/rules.md and docs/signs.md), and what changed: the first release's rows are not kept.
CORRECTED = {
    "branch_relation.csv": "the 六合 rows cite §8.13, where the book uses 合, not §1.7",
    "twelve_stage.csv": "the 帝旺 of 木 and 水 cites §5.4 (book), not §1.7 (standard)",
    "line_aspect.csv": "現 and 隱 are keyed on the moving values 9 and 6 (§10.5), not yang/yin",
    "spirit_attribute.csv": "the nature (吉/凶) of a spirit moved to spirit_nature as a decision:"
    " the book does not call 朱雀, 騰蛇 or 玄武 凶",
    "matter_preference.csv": "wealth also wants 天財 and 地財 on the bodies (§9.5)",
    "name_alias.csv": "gains the spellings of the matters (pinyin and English)",
}
# Files that only gain rows at head, and the column naming where each new row comes from: it
# must be a table the first release did not have.
GROWS = {"v_passage_citation.csv": "table_name"}
ZONES = ("Asia/Shanghai", "America/New_York", "Europe/London", "Australia/Sydney")


def readings() -> list[tuple[str | None, dict[str, Any]]]:
    """The readings cast into both databases: every cast form, both najia variants, the early
    rat, moving lines of every kind, dates 1901-2099 in four zones."""
    rng = random.Random(20260101)
    found: list[tuple[str | None, dict[str, Any]]] = [
        ("789678", {"pillars": "甲辰,丙寅,戊戌,庚申", "question": 'it\'s "quoted"'}),
        (None, {"coins": "2,1,3,0,2,2", "at": "2024-06-30T23:30", "early_rat": True}),
        ("乾之姤", {"day": "甲子", "month": "寅", "hour": "丙寅"}),
        ("姤", {"moving": "1,4", "at": "1988-07-01T12:00", "tz": "Asia/Shanghai"}),
        ("既濟之隨", {"at": "2026-11-30T09:15", "najia": "seasonal"}),
    ]
    for i in range(120):
        lines = "".join(rng.choice("6789") for _ in range(6))
        at = (
            f"{rng.randint(1901, 2099)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f"T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
        )
        kwargs: dict[str, Any] = {"at": at, "tz": rng.choice(ZONES), "question": f"q{i}"}
        kwargs["najia"] = rng.choice(("fixed", "seasonal"))
        kwargs["early_rat"] = rng.random() < 0.3
        found.append((lines, kwargs))
    return found


def export(db: str, folder: Path) -> dict[str, bytes]:
    assert main(["export", str(folder), "--db", db]) == 0
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def kept(old: bytes, new: bytes) -> bytes:
    """``new`` (a CSV file) cut down to the columns of ``old``: a later revision may add
    columns to a view (a new contract version) but must keep the ones it had."""
    old_header, _ = rows(old)
    new_header, new_rows = rows(new)
    if new_header == old_header or not set(old_header) <= set(new_header):
        return new
    where = [new_header.index(c) for c in old_header]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(old_header)
    writer.writerows([r[i] for i in where] for r in new_rows)
    return buf.getvalue().encode("utf-8")


def pinned() -> dict[str, str]:
    lines = DIGESTS.read_text(encoding="utf-8").splitlines()
    return {name: digest for digest, name in (line.split() for line in lines if line)}


def rows(content: bytes) -> tuple[list[str], list[list[str]]]:
    header, *body = csv.reader(io.StringIO(content.decode("utf-8")))
    return header, body


# builds SQLite files at an older revision (test_migrations walks the rest)
pytestmark = pytest.mark.sqlite_only


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """(the export at 0004, the export of the same database upgraded to head)."""
    tmp = tmp_path_factory.mktemp("first-release")
    db = db_at(tmp / "first.db", FIRST_RELEASE)
    for lines, kwargs in readings():
        cast_into(db, lines, **kwargs)
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE reading SET created_at = ?", (CREATED_AT,))
    con.close()
    before = export(db, tmp / "at-0004")
    build(db)
    return before, export(db, tmp / "at-head")


def test_the_pinned_files_are_the_first_releases(
    exports: tuple[dict[str, bytes], dict[str, bytes]],
) -> None:
    before, after = exports
    digests = pinned()
    assert "v_reading_line.csv" in digests and "hexagram_line.csv" in digests
    assert set(digests) == set(before) - set(EXPECTED_CHANGES)
    after = {n: kept(before[n], after[n]) for n in digests}
    for files in (before, after):
        changed = [n for n, d in digests.items() if hashlib.sha256(files[n]).hexdigest() != d]
        assert set(changed) <= set(GROWS) | set(CORRECTED), " ".join(changed)


def test_head_keeps_every_file_of_the_first_release(
    exports: tuple[dict[str, bytes], dict[str, bytes]],
) -> None:
    before, after = exports
    assert set(before) <= set(after)
    after = {n: kept(before[n], after[n]) if n.endswith(".csv") else after[n] for n in before}
    differ = {name for name in before if before[name] != after[name]}
    assert differ <= set(EXPECTED_CHANGES) | set(GROWS) | set(CORRECTED)
    for name, column in GROWS.items():
        old_header, old_rows = rows(before[name])
        new_header, new_rows = rows(after[name])
        assert new_header == old_header
        where = new_header.index(column)
        old_rows = [r for r in old_rows if f"{r[where]}.csv" not in CORRECTED]
        new_rows = [r for r in new_rows if f"{r[where]}.csv" not in CORRECTED]
        old = {tuple(r) for r in old_rows}
        assert [r for r in new_rows if tuple(r) in old] == old_rows  # kept, in the same order
        added = {f"{r[where]}.csv" for r in new_rows if tuple(r) not in old}
        assert added and not added & set(before), f"{name} gained rows of {sorted(added)}"


def test_a_fresh_build_exports_the_same_reference_data(
    exports: tuple[dict[str, bytes], dict[str, bytes]], tmp_path: Path, sqlite_template: Path
) -> None:
    _, upgraded = exports
    db = str(built_copy(sqlite_template, tmp_path / "fresh.db"))
    fresh = export(db, tmp_path / "fresh")
    assert set(fresh) == set(upgraded)
    differ = sorted(name for name in fresh if fresh[name] != upgraded[name])
    # the views of readings (none in the fresh database), and the README that counts rows
    # (v_reading_use*: the readings cast here ask about no subject, empty in both)
    of_readings = sorted(
        name
        for name in fresh
        if (name.startswith("v_reading") and not name.startswith("v_reading_use"))
        or name == "v_sign_count.csv"
    )
    assert "v_reading_line.csv" in of_readings and "v_reading_sign.csv" in of_readings
    assert differ == sorted(["README.md", *of_readings])
