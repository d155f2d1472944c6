"""``yimao cast``, ``yimao reading`` and ``yimao readings`` run in-process
with :func:`yimao_db.cli.main` (``yimao import``: tests/test_import.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import coins_of, counts, run
from sqlalchemy import Engine

from yimao_db.db import writer_engine
from yimao_db.present.chart_json import chart_json
from yimao_db.readings import chart

AT = "2026-11-30T09:15"


@pytest.fixture
def engine(fresh_db: str) -> Iterator[Engine]:
    eng = writer_engine(fresh_db)
    yield eng
    eng.dispose()


def cast_json(capsys: pytest.CaptureFixture[str], db: str, *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, "cast", *argv, "--json", "--db", db)
    assert (code, err) == (0, ""), err
    data: dict[str, Any] = json.loads(out)
    return data


# --- cast -----------------------------------------------------------------------------------


def test_cast_prints_the_chart(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    code, out, err = run(capsys, "cast", "789678", "--at", AT, "--db", fresh_db)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Reading 1 · 2026-11-30T09:15:00+08:00 Asia/Shanghai · 小雪"
    assert lines[1] == "丙午年 己亥月 戊申日 丁巳時 · 旬空 寅卯 · 月建 亥 · 日纏 心 · 月麗 星"
    assert lines[2] == "水火既濟 之 澤雷隨 · 坎宮 三世 · moving 3,4 · 卦身 寅 · 世身 6"
    assert lines[3] == "卦身 寅 缺 · 互卦 火水未濟"
    assert lines[5].split() == [
        "六神",
        "伏神",
        "本卦",
        "水火既濟",
        "坎宮",
        "三世",
        "變卦",
        "澤雷隨",
        "震宮",
        "歸魂",
    ]
    rows = lines[6:12]
    assert len(rows) == 6 and lines[12] == ""  # line 6 first, then the signs
    assert rows[0].split() == [
        "朱雀",
        "━━━",
        "━━━",
        "兄弟",
        "戊子水",
        "應",
        "旺·長生",  # 水 旺 in the 亥 month, 長生 at the 申 day
        "━━━",
        "━━━",
        "官鬼",
        "丁未土",
    ]
    assert rows[2].split() == [
        "玄武",
        "━━━",
        "━━━",
        "父母",
        "戊申金",
        "✕",
        "休·臨官",
        "━━━━━━━",
        "兄弟",
        "丁亥水",
    ]
    assert rows[3].split() == [
        *("白虎", "妻財", "戊午火", "━━━━━━━", "兄弟", "己亥水", "世", "○", "旺·長生"),
        *("━━━", "━━━", "官鬼", "庚辰土", "回頭克,化墓"),
    ]
    assert rows[5].split() == [
        "勾陳",
        "━━━━━━━",
        "子孫",
        "己卯木",
        "空",
        "相·絕",
        "━━━━━━━",
        "兄弟",
        "庚子水",
    ]
    signs = lines[13:]
    assert signs[0] == "Signs (line in brackets):"
    assert signs[1:4] == [
        "  world    世動 中 §8.14 — the start of a change on my side (3)",
        "           三刑自敝 凶 §8.14 — strength wears itself out (3)",
        "  bodies   卦身缺 凶 §9.2 — the matter has no master, like a mind with nothing to hold to",
    ]
    assert signs[4] == "  between  間動 凶 §10.2 — an obstacle between me and the other (4)"
    assert signs[5] == "           間鬼 凶 §10.4 — worry arises close to home (5)"
    assert signs[6] == "  lines    吉神生 吉 §7.9 — the auspicious spirit is fed (1)"
    assert "           水制朱雀 吉 §7.8 — quarrelling is overcome by wisdom (6)" in signs
    # line 4's between line is helped, but only a lawsuit's between line helps (間生助, §10.3):
    # here it moves as an obstacle, and no two signs of one line pull opposite ways
    assert signs[-1] == "           水制朱雀 吉 §7.8 — quarrelling is overcome by wisdom (6)"
    assert not {"將來", "已往"} & {s.split()[0] for s in signs[1:] if s.split()}


def test_cast_json_is_the_chart(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    data = cast_json(capsys, fresh_db, "789678", "--at", AT)
    assert data.pop("journal") == {"notes": [], "outcome": None, "tags": []}
    assert data == chart_json(chart(data["reading_id"], db=fresh_db))
    assert (data["primary_name"], data["changed_name"], data["moving_lines"]) == (
        "水火既濟",
        "澤雷隨",
        [3, 4],
    )
    assert [line["position"] for line in data["lines"]] == [1, 2, 3, 4, 5, 6]
    assert data["hidden"] == [
        {
            "position": 3,
            "relative": "妻財",
            "ganzhi": "戊午",
            "element": "火",
            "over_ganzhi": "己亥",
            "is_void": 0,
            "is_month_break": 0,
            "strength": "死",  # 亥 month: 水 旺 controls 火
            "stage": "病",  # 火 at the day's 申
            "stem": "戊",
            "branch": "午",
            "over_relative": "兄弟",  # the 飛神 己亥 水 in a 坎 (水) palace
            "is_day_clash": 0,
            **dict.fromkeys(
                ("day_on", "day_generates", "day_helps", "day_controls", "day_combines"), 0
            ),  # 火 controls the day's 申
            "month_on": 0,
            "month_generates": 0,
            "month_helps": 0,
            "month_controls": 1,  # the 亥 month's 水 controls 火
            "month_combines": 0,
        }
    ]
    assert [(s["sign"], s["position"]) for s in data["signs"][:4]] == [
        ("世動", 3),
        ("三刑自敝", 3),
        ("卦身缺", None),
        ("吉神生", 1),  # weightier first, then by line
    ]
    assert data["signs"][0] == {
        "sign": "世動",
        "position": 3,
        "subject": "世",
        "polarity": "中",
        "weight": 5,
        "passage": "8.14",
        "basis": "book",
        "meaning": "the start of a change on my side",
        "meaning_zh": "世爻發動，變更之端",
        "cancels": None,
    }


def test_cast_forms(capsys: pytest.CaptureFixture[str], fresh_db: str, engine: Engine) -> None:
    code, out, _ = run(capsys, "cast", "乾之姤", "--at", AT, "--db", fresh_db)
    assert code == 0 and "乾為天 之 天風姤 · 乾宮 本宮 · moving 1" in out
    notation = cast_json(capsys, fresh_db, "乾之姤", "--at", AT)
    hexagram = cast_json(capsys, fresh_db, "乾", "--moving", "1", "--at", AT)
    assert notation["lines"] == hexagram["lines"]
    assert (notation["method"], hexagram["method"], hexagram["cast_input"]) == (
        "notation",
        "hexagram",
        "乾:1",
    )
    coins = cast_json(capsys, fresh_db, "--coins", "2,1,3,0,2,2", "--at", AT)
    assert (coins["method"], coins["cast_input"]) == ("coins", "2,1,3,0,2,2")
    assert [line["value"] for line in coins["lines"]] == [8, 7, 9, 6, 8, 8]
    assert coins_of(engine, coins["reading_id"]) == [2, 1, 3, 0, 2, 2]
    values = cast_json(capsys, fresh_db, "879688", "--at", AT)
    assert (
        values["lines"] == coins["lines"] and coins_of(engine, values["reading_id"]) == [None] * 6
    )


def test_cast_random(capsys: pytest.CaptureFixture[str], fresh_db: str, engine: Engine) -> None:
    code, out, err = run(capsys, "cast", "--random", "--db", fresh_db)
    assert (code, err) == (0, "") and out.startswith("Reading 1 · ")
    data = cast_json(capsys, fresh_db, "--random")
    assert (data["method"], data["cast_input"]) == ("random", None)
    coins = coins_of(engine, data["reading_id"])
    assert [line["value"] for line in data["lines"]] == [6 + c for c in coins]  # type: ignore[operator]
    assert data["cast_at"] is not None  # --at defaults to now


def test_cast_with_pillars(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    data = cast_json(capsys, fresh_db, "乾", "--pillars", "甲辰,丙寅,戊戌,庚申")
    assert (data["year_gz"], data["month_gz"], data["day_gz"], data["hour_gz"]) == (
        "甲辰",
        "丙寅",
        "戊戌",
        "庚申",
    )
    assert (data["cast_at"], data["tz"], data["solar_term"]) == (None, None, None)
    code, out, _ = run(capsys, "cast", "乾", "--month", "寅", "--day", "甲子", "--db", fresh_db)
    assert code == 0
    assert "(pillars given directly)" in out and "甲子日 · 旬空 戌亥 · 月建 寅" in out
    data = cast_json(capsys, fresh_db, "乾", "--month", "寅", "--day", "甲子")
    assert (data["month_branch"], data["month_gz"], data["day_gz"]) == ("寅", None, "甲子")
    data = cast_json(capsys, fresh_db, "乾", "--year", "甲辰", "--month", "丙寅", "--day", "戊戌")
    assert (data["year_gz"], data["month_gz"], data["hour_gz"]) == ("甲辰", "丙寅", None)


def test_cast_early_rat(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    civil = cast_json(capsys, fresh_db, "乾", "--at", "2026-11-30T23:30")
    early = cast_json(capsys, fresh_db, "乾", "--at", "2026-11-30T23:30", "--early-rat")
    assert (civil["day_gz"], civil["hour_gz"], civil["early_rat"]) == ("戊申", "壬子", 0)
    assert (early["day_gz"], early["hour_gz"], early["early_rat"]) == ("己酉", "甲子", 1)


def test_cast_zone(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    data = cast_json(capsys, fresh_db, "乾", "--at", "2026-11-30T02:15", "--tz", "Europe/Paris")
    assert (data["cast_at"], data["tz"]) == ("2026-11-30T02:15:00+01:00", "Europe/Paris")
    assert (data["day_gz"], data["hour_gz"]) == ("戊申", "癸丑")  # the Paris clock: 丑 hour


def test_cast_seasonal_najia(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    summer = cast_json(capsys, fresh_db, "乾", "--at", "2026-08-01T10:00", "--najia", "seasonal")
    assert [line["ganzhi"] for line in summer["lines"]] == [
        "壬子",
        "壬寅",
        "壬辰",
        "甲午",
        "甲申",
        "甲戌",
    ]
    fixed = cast_json(capsys, fresh_db, "乾", "--at", "2026-08-01T10:00")
    assert [line["stem"] for line in fixed["lines"]] == list("甲甲甲壬壬壬")


def test_cast_question(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    question = "\"求財\" it's '; DROP TABLE reading; -- 🀄️"
    data = cast_json(capsys, fresh_db, "乾", "--at", AT, "--question", question)
    assert data["question"] == question
    code, out, _ = run(capsys, "reading", str(data["reading_id"]), "--db", fresh_db)
    assert code == 0 and f"Question: {question}" in out


def test_reading_and_readings(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    first = cast_json(capsys, fresh_db, "乾", "--at", AT, "--question", "one")
    second = cast_json(capsys, fresh_db, "坤", "--at", AT, "--question", "two")
    code, out, _ = run(capsys, "reading", str(first["reading_id"]), "--json", "--db", fresh_db)
    assert code == 0 and json.loads(out) == first
    code, shown, _ = run(capsys, "reading", str(first["reading_id"]), "--db", fresh_db)
    assert code == 0 and shown.startswith(f"Reading {first['reading_id']} · ")
    assert "乾為天 · 乾宮 本宮 · 卦身 巳 · 世身 5" in shown
    code, out, _ = run(capsys, "readings", "--limit", "1", "--json", "--db", fresh_db)
    assert code == 0
    (row,) = json.loads(out)
    assert (row["reading_id"], row["primary_name"], row["question"]) == (
        second["reading_id"],
        "坤為地",
        "two",
    )
    code, out, _ = run(capsys, "readings", "--db", fresh_db)
    assert code == 0
    table = out.splitlines()
    assert table[0].split()[0] == "id" and len(table) == 4  # header, rule, 2 rows
    assert table[2].split()[0] == str(second["reading_id"])  # newest first


def test_readings_table_is_for_people_csv_and_json_for_programs(
    capsys: pytest.CaptureFixture[str], fresh_db: str
) -> None:
    """The table shows when each reading was cast in its own local time to the minute, the
    question cut short, no storage clock; CSV and JSON keep every column whole, and JSON
    gives the moving lines as numbers and the tags as text in arrays, as the chart JSON
    does."""
    asked = "Will the parcel that left the depot on Monday arrive before the weekend?"
    moving = cast_json(capsys, fresh_db, "姤:1,4", "--at", AT, "--question", asked)
    cast_json(capsys, fresh_db, "乾", "--pillars", "甲辰,丙寅,戊戌,庚申", "--question", "問")
    cast_json(capsys, fresh_db, "既濟", "--at", "2026-08-01T10:00", "--tz", "Europe/London")
    assert run(capsys, "tag", "1", "post", "urgent", "--db", fresh_db)[0] == 0
    assert run(capsys, "outcome", "1", "hit", "--on", "2026-12-02", "--db", fresh_db)[0] == 0
    code, out, err = run(capsys, "readings", "--db", fresh_db)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "id  cast              day   hexagram            moving  question                              outcome  tags",  # noqa: E501
        "--  ----------------  ----  ------------------  ------  ------------------------------------  -------  -----------",  # noqa: E501
        "3   2026-08-01 10:00  丁未  水火既濟",
        "2                     戊戌  乾為天                      問",
        "1   2026-11-30 09:15  戊申  天風姤 之 風天小畜  1,4     Will the parcel that left the depot…  hit      post,urgent",  # noqa: E501
    ]  # fmt: skip
    code, out, _ = run(capsys, "readings", "--json", "--db", fresh_db)
    rows = {r["reading_id"]: r for r in json.loads(out)}
    assert rows[1]["moving_lines"] == moving["moving_lines"] == [1, 4]
    assert rows[1]["tags"] == ["post", "urgent"] and rows[1]["question"] == asked
    assert (rows[2]["moving_lines"], rows[2]["tags"], rows[2]["cast_at"]) == ([], [], None)
    assert rows[1]["cast_at"] == "2026-11-30T09:15:00+08:00"
    assert rows[1]["created_at"] == moving["created_at"]  # to the microsecond
    code, out, _ = run(capsys, "readings", "--jsonl", "--db", fresh_db)
    assert [json.loads(line) for line in out.splitlines()] == json.loads(
        run(capsys, "readings", "--json", "--db", fresh_db)[1]
    )
    code, out, _ = run(capsys, "readings", "--csv", "--db", fresh_db)
    header, *_, first = out.splitlines()
    assert header.split(",") == [
        "reading_id",
        "created_at",
        "cast_at",
        "day_gz",
        "primary_name",
        "changed_name",
        "moving_lines",
        "question",
        "outcome",
        "tags",
    ]
    assert first.startswith(f"1,{moving['created_at']},2026-11-30T09:15:00+08:00,戊申,天風姤")
    assert first.endswith(f',"1,4",{asked},hit,"post,urgent"')


# --- bad input: exit 2, a message, nothing written ----------------------------------------

BAD = [
    ("cast", "78967", "--at", AT),  # wrong length
    ("cast", "7896789", "--at", AT),
    ("cast", "789675", "--at", AT),  # a value outside 6-9
    ("cast", "--coins", "2,1,4,0,2,2", "--at", AT),  # a coin count outside 0-3
    ("cast", "--coins", "2,1,3,0,2", "--at", AT),
    ("cast", "不存在", "--at", AT),  # an unknown hexagram
    ("cast", "乾之不存在", "--at", AT),
    ("cast", "乾", "--at", "2026-13-01"),  # an invalid date
    ("cast", "乾", "--at", "tomorrow"),
    ("cast", "乾", "--at", AT, "--tz", "Mars/Olympus"),  # an invalid zone
    ("cast", "乾", "--pillars", "甲辰,丙寅,甲丑"),  # a pillar that is not one of the sixty
    ("cast", "乾", "--month", "寅", "--day", "甲丑"),
    ("cast", "乾", "--month", "寅", "--day", "甲子", "--hour", "甲寅"),  # not by 五子遁
    ("cast", "乾", "--day", "甲子"),  # no month
    ("cast", "--at", AT),  # nothing cast
    ("cast", "789678", "--coins", "2,1,3,0,2,2"),
    ("cast", "乾", "--najia", "summer"),
    ("cast", "乾", "--month", "寅", "--day", "甲子", "--najia", "seasonal"),
    ("cast", "乾", "--question", "a\x00b"),
    ("reading", "999"),  # an unknown reading id
    ("reading", "abc"),  # a non-numeric id
    ("reading", "-1"),
    ("readings", "--limit", "0"),
]


def test_bad_input(capsys: pytest.CaptureFixture[str], fresh_db: str, engine: Engine) -> None:
    code, _, _ = run(capsys, "cast", "乾", "--at", AT, "--db", fresh_db)
    assert code == 0 and counts(engine) == (1, 6)
    for argv in BAD:
        code, out, err = run(capsys, *argv, "--db", fresh_db)
        assert code == 2, argv
        assert out == "", argv
        message = err.splitlines()[-1]
        assert message.startswith("error: ") and len(message) > len("error: ") + 10, argv
        assert "Traceback" not in err
        assert counts(engine) == (1, 6), argv


def test_messages_say_what_is_expected(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    expected = {
        ("cast", "78967"): "error: bad line values '78967': expected six digits 6-9",
        ("cast", "--coins", "2,1,4,0,2,2"): "error: bad coins '2,1,4,0,2,2': expected six counts",
        ("cast", "不存在"): "error: unknown hexagram '不存在'",
        ("cast", "乾", "--at", "2026-13-01"): "error: bad date '2026-13-01'",
        ("cast", "乾", "--tz", "Mars/Olympus"): "error: unknown time zone 'Mars/Olympus'",
        ("cast", "乾", "--pillars", "甲辰,丙寅,甲丑"): "error: bad day pillar '甲丑'",
        ("reading", "999"): "error: no reading with id 999",
        ("reading", "abc"): "error: bad reading id 'abc'",
    }
    for argv, start in expected.items():
        code, _, err = run(capsys, *argv, "--db", fresh_db)
        assert code == 2 and err.startswith(start), (argv, err)


def test_cast_needs_a_built_database(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    for argv in (("cast", "乾"), ("reading", "1"), ("readings",)):
        code, _, err = run(capsys, *argv, "--db", str(missing))
        assert code == 2 and err.startswith("error: no database at"), err
    assert not missing.exists()
