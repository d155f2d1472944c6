"""A downgrade that would delete what people stored refuses, names it and changes nothing,
unless run with ``-x force=1``: revision 0007 drops notes, outcomes and tags,
0006 ``reading.matter``, 0003 the readings. On SQLite and PostgreSQL alike, through alembic's
API (as ``yimao build`` runs it: the caller's connection and transaction) and its command line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.util import CommandError
from sqlalchemy import inspect, text

from yimao_db import check as doctor
from yimao_db import readings
from yimao_db.building import build, current_revision, head_revision
from yimao_db.db import writer_engine
from yimao_db.journaling import add_note, record_outcome, tag
from yimao_db.kb.migrating import move, script_directory

ROOT = Path(__file__).resolve().parents[1]
USER_TABLES = (
    "reading",
    "reading_line",
    "reading_note",
    "reading_outcome",
    "reading_tag",
    "reading_about_change",
)
# the matter (wealth) of the first reading implies its subject (財, docs/use.md)
ABOUT_LOSS = "the subject (reading.about) of 1 reading (revision 0014)"
JOURNAL_LOSS = "1 note, 1 outcome, 2 tags on readings (revision 0007)"
MATTER_LOSS = "the matter (reading.matter) of 1 reading (revision 0006)"
READINGS_LOSS = "3 readings, lines included (revision 0003)"
# a relative downgrade to 0006 from the head, whatever its number (-3 from 0009, -4 from 0010)


def steps_down_to(revision: str) -> str:
    """The relative target (``-N``, as people type it) that goes from head down to
    ``revision``: it stays right when revisions are added above."""
    head_first = [r.revision for r in script_directory().walk_revisions()]
    return f"-{head_first.index(revision)}"


@pytest.fixture
def journal_db(fresh_db: str) -> str:
    """A built database with three readings (one about wealth) and a journal on the first."""
    engine = writer_engine(fresh_db)
    try:
        first = readings.cast("789678", pillars="甲辰,丙寅,戊戌,庚申", matter="wealth", db=engine)
        readings.cast("乾之姤", day="甲子", month="寅", db=engine)
        readings.cast("姤", moving="1,4", at="1988-07-01T12:00", db=engine)
        add_note(first, "the parcel left the depot", db=engine)
        tag(first, ["post", "work"], db=engine)
        record_outcome(first, "hit", on="2026-12-02", db=engine)
    finally:
        engine.dispose()
    return fresh_db


def state(db: str) -> dict[str, Any]:
    """The revision, the tables and views, and every row of the user tables."""
    engine = writer_engine(db)
    try:
        with engine.connect() as conn:
            names = set(inspect(conn).get_table_names()) | set(inspect(conn).get_view_names())
            rows = {
                t: sorted(map(tuple, conn.execute(text(f"SELECT * FROM {t}"))))
                for t in USER_TABLES
                if t in names
            }
            return {"revision": current_revision(conn), "names": names, "rows": rows}
    finally:
        engine.dispose()


def downgrade(db: str, revision: str, *, force: bool = False) -> None:
    """``alembic downgrade REVISION`` as ``yimao build`` runs migrations: on its connection,
    in its transaction (committed if the downgrade returns)."""
    engine = writer_engine(db, building=True)
    try:
        with engine.begin() as conn:
            move(conn, revision, down=True, x=["force=1"] if force else [])
    finally:
        engine.dispose()


# relative to the head: the steps down to 0006 (the revisions are numbered one by one)
DOWN_TO_0006 = f"-{int(head_revision()) - 6}"


@pytest.mark.parametrize(
    ("revision", "says"),
    [
        ("0012", ABOUT_LOSS),
        ("0006", f"{ABOUT_LOSS} and {JOURNAL_LOSS}"),
        (steps_down_to("0006"), f"{ABOUT_LOSS} and {JOURNAL_LOSS}"),
        ("0005", f"{ABOUT_LOSS}, {JOURNAL_LOSS} and {MATTER_LOSS}"),
        ("0002", f"{ABOUT_LOSS}, {JOURNAL_LOSS}, {MATTER_LOSS} and {READINGS_LOSS}"),
        ("base", f"{ABOUT_LOSS}, {JOURNAL_LOSS}, {MATTER_LOSS} and {READINGS_LOSS}"),
    ],
)
def test_a_downgrade_that_deletes_user_data_refuses(
    journal_db: str, revision: str, says: str
) -> None:
    before = state(journal_db)
    with pytest.raises(CommandError) as refused:
        downgrade(journal_db, revision)
    assert str(refused.value) == (
        f"this downgrade would delete user data: {says}; nothing was changed. Back the "
        "database up first (copy the file, or pg_dump) and run the downgrade again with "
        "-x force=1 to delete it."
    )
    assert state(journal_db) == before
    assert doctor.check(journal_db) == []


def alembic_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "YIMAO_DB_URL"}
    return subprocess.run(
        [sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini"), *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_command_line_refuses_then_forced_deletes(journal_db: str) -> None:
    """``alembic -x db=… downgrade 0005`` fails with one line naming the loss and changes
    nothing; with ``-x force=1`` it deletes what it named, keeps the readings, and
    ``yimao build`` brings the database back to head."""
    before = state(journal_db)
    done = alembic_cli("-x", f"db={journal_db}", "downgrade", "0005")
    assert done.returncode != 0
    assert (done.stdout + done.stderr).splitlines() == [  # alembic prints it on stdout
        f"FAILED: this downgrade would delete user data: {ABOUT_LOSS}, {JOURNAL_LOSS} and "
        f"{MATTER_LOSS}; "
        "nothing was changed. Back the database up first (copy the file, or pg_dump) and run "
        "the downgrade again with -x force=1 to delete it."
    ]
    assert state(journal_db) == before

    done = alembic_cli("-x", f"db={journal_db}", "-x", "force=1", "downgrade", "0005")
    assert done.returncode == 0, done.stderr
    said = (
        "the downgrade deleted user data (-x force=1): "
        f"{ABOUT_LOSS}, {JOURNAL_LOSS} and {MATTER_LOSS}"
    )
    assert said in done.stdout.splitlines()
    after = state(journal_db)
    assert after["revision"] == "0005"
    assert set(after["rows"]) == {"reading", "reading_line"}
    assert len(after["rows"]["reading"]) == 3
    assert after["rows"]["reading_line"] == before["rows"]["reading_line"]

    build(journal_db)
    again = state(journal_db)
    assert again["revision"] == head_revision()
    assert [r[0] for r in again["rows"]["reading"]] == [r[0] for r in before["rows"]["reading"]]
    assert again["rows"]["reading_note"] == again["rows"]["reading_tag"] == []
    assert doctor.check(journal_db) == []


def test_a_change_log_of_subjects_alone_refuses(fresh_db: str) -> None:
    """A subject set and cleared again (yimao about) leaves no reading.about, but its dated
    changes are user data too: 0014's downgrade refuses to drop them unless forced."""
    from yimao_db.journaling import set_about

    rid = readings.cast("789678", pillars="甲辰,丙寅,戊戌,庚申", db=fresh_db)
    set_about(rid, "self", fresh_db)
    set_about(rid, None, fresh_db)
    before = state(fresh_db)
    with pytest.raises(CommandError, match=r"2 changes of a reading's subject \(revision 0014\)"):
        downgrade(fresh_db, "0012")
    assert state(fresh_db) == before
    downgrade(fresh_db, "0012", force=True)
    assert state(fresh_db)["revision"] == "0012"


def test_a_downgrade_that_deletes_nothing_stored_runs(fresh_db: str) -> None:
    """Readings without a matter or a journal lose nothing above 0003: no force needed."""
    readings.cast("789678", pillars="甲辰,丙寅,戊戌,庚申", db=fresh_db)
    before = state(fresh_db)
    downgrade(fresh_db, "0005")
    after = state(fresh_db)
    assert after["revision"] == "0005"
    assert len(after["rows"]["reading"]) == len(before["rows"]["reading"]) == 1
    assert after["rows"]["reading_line"] == before["rows"]["reading_line"]
    with pytest.raises(CommandError, match=r"1 reading, lines included \(revision 0003\)"):
        downgrade(fresh_db, "base")
    assert state(fresh_db) == after
    downgrade(fresh_db, "base", force=True)
    assert state(fresh_db)["names"] <= {"alembic_version"}
