"""The journal: note, outcome, tag, untag, delete, the readings filters and stats; every bad
input is one error line, exit 2, and nothing written."""

from __future__ import annotations

import json

import pytest
from helpers import cast_into, run
from sqlalchemy import Connection, text

import yimao_db
from yimao_db.db import reader_engine
from yimao_db.errors import UsageError
from yimao_db.finding import Filters, find
from yimao_db.journaling import add_note, record_outcome, tag

TABLES = ("reading", "reading_line", "reading_note", "reading_outcome", "reading_tag")


def snapshot(db: str) -> dict[str, list[tuple[object, ...]]]:
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            return {
                t: [tuple(r) for r in conn.execute(text(f"SELECT * FROM {t} ORDER BY 1, 2"))]
                for t in TABLES
            }
    finally:
        engine.dispose()


@pytest.fixture
def week(fresh_db: str) -> str:
    """Four readings over a week: 姤 (2 moving), 乾 (still), 姤 still, 既濟 from pillars."""
    cast_into(fresh_db, "姤:1,4", at="2026-11-30T09:15", question="Will the parcel arrive?")
    cast_into(fresh_db, "乾", at="2026-12-02T20:00", question="Job offer", matter="office")
    cast_into(fresh_db, "姤", at="2026-12-05T08:00", question="Rain on Sunday?")
    cast_into(fresh_db, "既濟:3", pillars="甲辰,丙子,戊戌", question="100% sure_ok")
    return fresh_db


def ids(db: str, **filters: object) -> list[int]:
    engine = reader_engine(db)
    try:
        with engine.connect() as conn:
            _, rows = find(conn, Filters(**filters), None)  # type: ignore[arg-type]
    finally:
        engine.dispose()
    return [r[0] for r in rows]


def test_note_outcome_tag_show_under_the_chart_and_in_v_reading(
    week: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "note", "1", "left the depot", "--db", week)[:2] == (
        0,
        "note 1 added to reading 1\n",
    )
    code, out, _ = run(capsys, "outcome", "1", "hit", "--on", "2026-12-02", "came", "--db", week)
    assert (code, out) == (0, "reading 1: hit\n")
    code, out, _ = run(
        capsys, "outcome", "1", "partial", "late", "--on", "2026-12-03", "--db", week
    )
    assert (code, out) == (0, "reading 1: partial (replaces hit on 2026-12-02)\n")
    assert run(capsys, "tag", "1", "work", "post", "work", "--db", week)[:2] == (
        0,
        "reading 1 tagged work, post\n",
    )
    assert (
        run(capsys, "tag", "1", "work", "--db", week)[1]
        == "reading 1 already has every tag given\n"
    )
    code, out, _ = run(capsys, "reading", "1", "--db", week)
    assert code == 0
    assert "Tags: post, work" in out
    assert "partial on 2026-12-03: late" in out
    assert "left the depot" in out
    code, out, _ = run(capsys, "reading", "1", "--json", "--db", week)
    data = json.loads(out)
    assert data["journal"]["tags"] == ["post", "work"]
    assert data["journal"]["outcome"]["verdict"] == "partial"
    assert [n["note"] for n in data["journal"]["notes"]] == ["left the depot"]
    assert (data["outcome"], data["outcome_on"], data["note_count"], data["tag_count"]) == (
        "partial",
        "2026-12-03",
        1,
        2,
    )
    assert run(capsys, "untag", "1", "post", "--db", week)[:2] == (0, "reading 1 untagged post\n")
    assert yimao_db.chart(1, db=week).tag_count == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("note", "99", "x"), "no reading with id 99"),
        (("note", "1", ""), "the note is empty"),
        (("note", "1", "a\x00b"), "NUL"),
        (("note", "abc", "x"), "bad reading id"),
        (("outcome", "99", "hit"), "no reading with id 99"),
        (("outcome", "1", "win"), "invalid choice"),
        (("outcome", "1", "hit", "--on", "2026-02-30"), "bad --on date"),
        (("outcome", "1", "hit", "--on", "yesterday"), "bad --on date"),
        (("outcome", "1", "hit", "--on", "2026-W49-1"), "bad --on date '2026-W49-1'"),
        (
            ("outcome", "1", "hit", "--on", "2026-11-29"),
            "the outcome's date 2026-11-29 is before the reading was cast, on 2026-11-30",
        ),
        (("tag", "99", "x"), "no reading with id 99"),
        (("tag", "1", "two words"), "bad tag"),
        (("tag", "1", "a,b"), "bad tag"),
        (("tag", "1", "ok", "x" * 65), "bad tag"),
        (("tag", "1", "esc\x1b[2J"), "bad tag"),
        (("untag", "1", "never"), "reading 1 has no tag never"),
        (("untag", "99", "x"), "no reading with id 99"),
        (("delete", "1", "99", "--yes"), "no reading with id 99"),
        (("delete", "0", "--yes"), "bad reading id"),
        (("delete", "1"), "give --yes"),
        (("readings", "--tag", "never"), "unknown tag 'never'"),
        (("readings", "--since", "2026-12-32"), "bad --since date"),
        (("readings", "--until", "12/05/2026"), "bad --until date"),
        (("readings", "--since", "2026-W49-1"), "bad --since date '2026-W49-1'"),
        (("readings", "--until", "2026-W49-7"), "bad --until date '2026-W49-7'"),
        (("readings", "--since", "2026-12-05", "--until", "2026-12-01"), "is after --until"),
        (("readings", "--hexagram", "nosuch"), "unknown hexagram"),
        (("readings", "--changed", "qian"), "ambiguous hexagram"),
        (("readings", "--moving", "7"), "bad --moving"),
        (("readings", "--outcome", "won"), "invalid choice"),
        (("readings", "--search", ""), "the search text is empty"),
        (("readings", "--all", "--limit", "3"), "not both"),
        (("readings", "--matter", "gold"), "unknown matter 'gold'"),
    ],
)
def test_bad_input_is_one_line_exit_2_nothing_written(
    week: str, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    tag(1, ["keep"], db=week)
    before = snapshot(week)
    code, out, err = run(capsys, *argv, "--db", week)
    assert (code, out) == (2, "")
    last = err.splitlines()[-1]
    assert last.startswith("error: ") and message in last, err
    assert "Traceback" not in err
    assert snapshot(week) == before


def test_tag_of_many_is_all_or_nothing(week: str) -> None:
    before = snapshot(week)
    with pytest.raises(UsageError):
        tag(1, ["fine", "not fine"], db=week)
    assert snapshot(week) == before


def test_delete_removes_lines_notes_outcome_tags_and_check_stays_clean(
    week: str, capsys: pytest.CaptureFixture[str]
) -> None:
    add_note(2, "n", db=week)
    record_outcome(2, "miss", "2026-12-09", db=week)
    tag(2, ["job"], db=week)
    tag(3, ["job"], db=week)
    code, out, _ = run(capsys, "delete", "2", "4", "--yes", "--db", week)
    assert (code, out) == (0, "deleted 2 readings (2, 4)\n")
    after = snapshot(week)
    assert [r[0] for r in after["reading"]] == [1, 3]
    assert {r[0] for r in after["reading_line"]} == {1, 3}
    assert after["reading_note"] == [] and after["reading_outcome"] == []
    assert after["reading_tag"] == [(3, "job")]
    code, out, err = run(capsys, "check", "--db", week)
    assert code == 0 and out.startswith("ok"), out + err


def test_delete_asks_on_a_terminal(
    week: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Tty("n\n"))
    code, out, err = run(capsys, "delete", "1", "--db", week)
    assert (code, out) == (1, "")
    assert "delete 1 reading: 1 天風姤 之 風天小畜? [y/N]" in err and "nothing deleted" in err
    assert len(snapshot(week)["reading"]) == 4
    monkeypatch.setattr("sys.stdin", Tty("y\n"))
    code, out, _ = run(capsys, "delete", "1", "--db", week)
    assert (code, out) == (0, "deleted 1 reading (1)\n")
    assert len(snapshot(week)["reading"]) == 3


def test_filters(week: str) -> None:
    add_note(3, "Umbrella after all", db=week)
    record_outcome(1, "hit", "2026-12-02", db=week)
    record_outcome(2, "miss", "2026-12-09", db=week)
    tag(1, ["post"], db=week)
    tag(3, ["weather", "post"], db=week)
    assert ids(week) == [4, 3, 2, 1]
    assert ids(week, hexagram="姤") == [3, 1]
    assert ids(week, hexagram="gou") == [3, 1]
    assert ids(week, changed="小畜") == [1]
    # 4 was cast from pillars: no moment, dated by the day it was stored (UTC)
    stored = yimao_db.chart(4, db=week).created_at[:10]
    cast_on = {3: "2026-12-05", 2: "2026-12-02", 1: "2026-11-30"}  # the local days of 3, 2, 1
    same_day = [rid for rid, day in cast_on.items() if day == stored]
    assert ids(week, since=stored, until=stored) == [4, *same_day]
    later = [4] if stored >= "2026-12-02" else []
    assert ids(week, since="2026-12-02") == [*later, 3, 2]
    inside = [4] if "2026-12-01" <= stored <= "2026-12-04" else []
    assert ids(week, since="2026-12-01", until="2026-12-04") == [*inside, 2]
    assert ids(week, since="2026-11-30", until="2026-11-30")[-1] == 1
    assert ids(week, tag="post") == [3, 1]
    assert ids(week, tag="weather") == [3]
    assert ids(week, search="parcel") == [1]
    assert ids(week, search="UMBRELLA") == [3]  # in a note, any case
    assert ids(week, search="100%") == [4]
    assert ids(week, search="_") == [4]  # LIKE wildcards are matched literally
    assert ids(week, search="%") == [4]
    assert ids(week, moving=2) == [1]
    assert ids(week, moving=0) == [3, 2]
    assert ids(week, moving=1) == [4]
    assert ids(week, outcome="hit") == [1]
    assert ids(week, outcome="miss") == [2]
    assert ids(week, outcome="none") == [4, 3]
    assert ids(week, outcome="partial") == []
    assert ids(week, hexagram="姤", tag="post", outcome="none") == [3]
    assert ids(week, matter="office") == [2]
    assert ids(week, matter="功名") == ids(week, matter="gongming") == [2]
    assert ids(week, matter="wealth") == []


def test_api_find_readings_and_limit(week: str) -> None:
    columns, rows = yimao_db.find_readings(hexagram="姤", db=week)
    assert columns[0] == "reading_id" and [r[0] for r in rows] == [3, 1]
    _, rows = yimao_db.find_readings(limit=1, db=week)
    assert [r[0] for r in rows] == [4]
    with pytest.raises(UsageError):
        yimao_db.find_readings(since="soon", db=week)


def test_readings_cli_limit_all_and_formats(week: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "readings", "--limit", "2", "--json", "--db", week)
    assert code == 0 and [r["reading_id"] for r in json.loads(out)] == [4, 3]
    code, out, _ = run(capsys, "readings", "--all", "--moving", "0", "--csv", "--db", week)
    assert code == 0 and out.splitlines()[0].startswith("reading_id,created_at")
    assert len(out.splitlines()) == 3


def test_stats(week: str, capsys: pytest.CaptureFixture[str]) -> None:
    record_outcome(1, "hit", "2026-12-02", db=week)
    record_outcome(3, "miss", "2026-12-06", db=week)
    record_outcome(2, "partial", "2026-12-06", db=week)
    code, out, _ = run(capsys, "stats", "--json", "--db", week)
    assert code == 0
    assert json.loads(out) == [
        {"readings": 4, "judged": 3, "hit": 1, "partial": 1, "miss": 1, "hit_rate": 0.333}
    ]
    code, out, _ = run(capsys, "stats", "--by", "hexagram", "--json", "--db", week)
    by_hexagram = {r["hexagram"]: r for r in json.loads(out)}
    assert by_hexagram["天風姤"]["readings"] == 2 and by_hexagram["天風姤"]["hit_rate"] == 0.5
    assert by_hexagram["水火既濟"]["hit_rate"] is None
    code, out, _ = run(capsys, "stats", "--by", "outcome", "--csv", "--db", week)
    assert out.splitlines() == ["outcome,readings", "hit,1", "miss,1", "none,1", "partial,1"]


def test_stats_by_sign_counts_each_reading_once(
    week: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record_outcome(1, "hit", "2026-12-02", db=week)
    record_outcome(3, "miss", "2026-12-06", db=week)
    record_outcome(2, "partial", "2026-12-06", db=week)
    code, out, _ = run(capsys, "stats", "--by", "sign", "--json", "--db", week)
    assert code == 0
    rows = json.loads(out)
    by_sign = {r["sign"]: r for r in rows}
    # 凶神化 fires on two lines of reading 1 (and of 3), and in every reading: four readings,
    # not six
    assert by_sign["凶神化"] == {
        "sign": "凶神化",
        "polarity": "吉",
        "readings": 4,
        "judged": 3,
        "hit": 1,
        "partial": 1,
        "miss": 1,
        "hit_rate": 0.333,
    }
    assert (by_sign["世動"]["readings"], by_sign["世動"]["hit_rate"]) == (2, 1.0)  # 1 and 4
    assert "應生世" not in by_sign  # 姤 has it, but no question is between two parties (§8.15)
    assert (by_sign["卦身缺"]["judged"], by_sign["卦身缺"]["hit_rate"]) == (1, 0.0)  # 2 and 4
    assert by_sign["獨發"]["hit_rate"] is None  # only 4, which has no outcome
    assert rows[0]["readings"] == 4  # the most readings first
    counts = [r["readings"] for r in rows]
    assert counts == sorted(counts, reverse=True)


def test_stats_on_an_empty_journal(fresh_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "--json", "--db", fresh_db)
    assert code == 0
    assert json.loads(out) == [
        {"readings": 0, "judged": 0, "hit": 0, "partial": 0, "miss": 0, "hit_rate": None}
    ]


def test_outcome_default_day_is_today_in_yimao_tz(
    week: str, monkeypatch: pytest.MonkeyPatch, conn: Connection
) -> None:
    from yimao_db.journaling import today

    monkeypatch.setenv("YIMAO_TZ", "Pacific/Kiritimati")
    record_outcome(1, "hit", db=week)
    assert yimao_db.chart(1, db=week).outcome_on == today()


def test_an_outcome_on_the_day_of_its_reading_or_later(week: str) -> None:
    """Refused only before the local day the reading was cast; a reading given as pillars
    has no day, and any date goes."""
    assert record_outcome(1, "hit", on="2026-11-30", db=week) is None
    assert record_outcome(2, "miss", on="2026-12-02", db=week) is None
    assert record_outcome(4, "hit", on="1990-01-01", db=week) is None
    with pytest.raises(UsageError, match="before the reading was cast, on 2026-12-02"):
        record_outcome(2, "miss", on="2026-12-01", db=week)


@pytest.mark.parametrize(
    "zone", ["localtime", "posixrules", "Factory", "right/Asia/Shanghai", "posix/Asia/Shanghai"]
)
def test_only_iana_zone_names(
    week: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, zone: str
) -> None:
    """Files of the zoneinfo directory that name no IANA zone are refused as $YIMAO_TZ and
    as --tz (ZoneInfo opens them all)."""
    before = snapshot(week)
    monkeypatch.setenv("YIMAO_TZ", zone)
    code, out, err = run(capsys, "outcome", "1", "hit", "--db", week)
    assert (code, out) == (2, "")
    assert err == (
        f"error: $YIMAO_TZ is {zone!r}, which is no time zone: expected an IANA name like "
        "Asia/Shanghai (or unset it for Asia/Shanghai)\n"
    )
    monkeypatch.delenv("YIMAO_TZ")
    code, out, err = run(
        capsys, "cast", "789678", "--at", "2026-12-01T08:00", "--tz", zone, "--db", week
    )
    assert (code, out) == (2, "")
    assert err == (f"error: unknown time zone {zone!r}: expected an IANA name like Asia/Shanghai\n")
    assert snapshot(week) == before


@pytest.mark.parametrize(
    "first",
    [
        "",  # the package alone
        "import yimao_db.present.chart",  # a module that imports the journal functions first
        "from yimao_db import cast",
        "import yimao_db.building",  # the module that builds, loaded before the API asks
    ],
)
def test_the_package_api_names_are_functions(first: str) -> None:
    """``yimao_db.add_note``, ``yimao_db.journal`` and the rest of the API are the functions,
    whatever was imported before and however often they are asked for (``journal`` was the
    module, ``add_note`` a RecursionError; ``build`` the module once that was loaded: no
    module is named after a function of the API)."""
    import subprocess
    import sys

    names = ("add_note", "record_outcome", "tag", "untag", "journal", "delete_readings", "build")
    code = f"""{first}
import sys
import yimao_db

print(*[getattr(yimao_db, n).__name__ for n in {names!r}])
print(*[callable(getattr(yimao_db, n)) for n in yimao_db.__all__[1:] * 2])
built = []
sys.modules["yimao_db.building"].build = lambda db=None: built.append(db)
yimao_db.build("a.db")
yimao_db.build("b.db")
print(*built)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr[-2000:]
    assert done.stdout.splitlines() == [" ".join(names), " ".join(["True"] * 20), "a.db b.db"]
