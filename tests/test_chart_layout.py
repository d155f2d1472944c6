"""The practitioner's chart: the text layout (columns 六神 伏神 本卦 變卦 aligned by display
width), --format markdown/html/json, and the JSON contract yimao.chart/2 checked against
docs/chart.schema.json."""

from __future__ import annotations

import csv
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import cast_into, run
from jsonschema import Draft202012Validator

from yimao_db.db import reader_engine
from yimao_db.journaling import journal
from yimao_db.present.chart import chart_document, chart_html, render_chart
from yimao_db.present.formats import PLAIN, chart_renderer
from yimao_db.present.table import width
from yimao_db.readings import chart

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "chart.schema.json").read_text())
BARS = (YANG, YIN) = ("━━━━━━━", "━━━ ━━━")


def bars_in(row: str) -> list[tuple[int, str]]:
    """(display column, bar) of every bar on a row."""
    found = []
    for bar in BARS:
        start = row.find(bar)
        while start != -1:
            found.append((width(row[:start]), bar))
            start = row.find(bar, start + 1)
    return sorted(found)


def test_gou_1_4_shows_both_hexagrams_and_two_bars_per_row_hidden_column_aligned(
    fresh_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rid = cast_into(fresh_db, "姤:1,4", at="2026-11-30T09:15")
    code, out, err = run(capsys, "reading", str(rid), "--db", fresh_db)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.startswith("六神"))
    head, rows = lines[heading], lines[heading + 1 : heading + 7]
    assert "天風姤" in head and "風天小畜" in head
    assert "伏神" in head
    # six rows, line 6 first, each with the primary and the changed bar, at the same columns
    assert len(rows) == 6
    columns = [[col for col, _ in bars_in(row)] for row in rows]
    assert all(len(c) == 2 for c in columns), rows
    assert len({tuple(c) for c in columns}) == 1
    # primary bars (011111 read from the top: yang ×5 then yin) and changed (110111: 小畜)
    assert [bars_in(r)[0][1] for r in rows] == [BARS[0]] * 5 + [BARS[1]]
    assert [bars_in(r)[1][1] for r in rows] == [
        BARS[0],
        BARS[0],
        BARS[1],
        BARS[0],
        BARS[0],
        BARS[0],
    ]
    # the 伏神 column starts at the same display column on every row, the heading's too
    hidden_at = width(head[: head.index("伏神")])
    assert rows[4][len("騰蛇") :].lstrip().startswith("妻財 甲寅木")
    assert width(rows[4][: rows[4].index("妻財 甲寅木")]) == hidden_at
    primary_at = width(head[: head.index("本卦")])
    assert all(bars_in(r)[0][0] == primary_at for r in rows)
    assert "世" in rows[5] and "✕" in rows[5] and "應" in rows[2] and "○" in rows[2]


def test_a_narrow_terminal_puts_the_changed_hexagram_under(fresh_db: str) -> None:
    rid = cast_into(fresh_db, "姤:1,4", at="2026-11-30T09:15")
    c = chart(rid, db=fresh_db)
    wide = render_chart(c)
    assert max(width(line) for line in wide.splitlines()[6:13]) > 60
    narrow = render_chart(c, cells_wide=60)
    assert max(width(line) for line in narrow.splitlines()[6:20]) <= 60
    assert narrow.count("━") == wide.count("━")
    assert "\x1b[" not in wide and "\x1b[31m" in render_chart(c, coloured=True)


def test_no_color_and_a_pipe_print_no_escape(
    fresh_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rid = cast_into(fresh_db, "乾:1", at="2026-11-30T09:15")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    code, out, _ = run(capsys, "reading", str(rid), "--db", fresh_db)
    assert code == 0 and "\x1b" not in out


def test_markdown_and_html_are_the_same_chart(
    fresh_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rid = cast_into(fresh_db, "姤:1,4", at="2026-11-30T09:15", question="<b>a|b</b>")
    code, md, _ = run(capsys, "reading", str(rid), "--format", "markdown", "--db", fresh_db)
    assert code == 0
    table = [line for line in md.splitlines() if line.startswith("| ")]
    assert len(table) == 7 and "風天小畜" in table[0]
    assert all(line.count("━") >= 12 for line in table[1:])
    assert "\\<b\\>a\\|b\\</b\\>" in md
    code, page, _ = run(capsys, "reading", str(rid), "--format", "html", "--db", fresh_db)
    assert page.startswith("<!DOCTYPE html>") and "Noto Sans CJK" in page
    assert "&lt;b&gt;a|b&lt;/b&gt;" in page and "<b>a|b</b>" not in page
    fragment = chart_html(chart(rid, db=fresh_db))
    assert fragment in page and fragment.count("<tr class=") == 6
    assert chart_document(chart(rid, db=fresh_db)).count("━") == page.count("━")


def test_html_of_a_reading_about_a_subject_marks_the_roles(
    fresh_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A chart with a 用神 has a cell ``role`` more in the 伏神 and 本卦 columns (and every
    other part still in its own cell): 既濟 about wealth hides 妻財 戊午 under line 3, whose
    己亥 兄弟 is the 忌神; 子孫 己卯 (line 1) the 原神, 父母 戊申 (line 4) the 仇神."""
    rid = cast_into(fresh_db, "789678", at="2026-11-30T09:15", about="wealth")
    code, page, err = run(capsys, "reading", str(rid), "--format", "html", "--db", fresh_db)
    assert (code, err) == (0, "")
    cells = re.findall(r'<td class="c(\d) (\w+)">([^<]*)</td>', page)
    roles = [(c, text) for c, part, text in cells if part == "role" and text]
    assert roles == [("2", "仇"), ("1", "用"), ("2", "忌"), ("2", "原")]  # line 6 first
    strengths = [text for _, part, text in cells if part == "strength"]
    assert strengths[-1] == "相·絕" and len(strengths) == 6  # line 1: 卯 木 相 in 亥, 絕 at 申


def test_show_takes_the_formats(fresh_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "gou", "--format", "json", "--db", fresh_db)
    assert code == 0 and json.loads(out)["king_wen"] == 44
    assert run(capsys, "show", "gou", "--json", "--db", fresh_db)[1] == out
    code, out, _ = run(capsys, "show", "gou", "--format", "markdown", "--db", fresh_db)
    assert code == 0 and out.startswith("### 天風姤 (姤) · King Wen 44")
    table = [line for line in out.splitlines() if line.startswith("|")]
    assert table[0] == "| line |  | 六親 | 干支 | 世應 | 宿 | 伏神 |" and len(table) == 8
    assert table[2] == f"| 6 | {YANG} | 父母 | 壬戌土 |  | 心 |  |"
    assert table[6] == f"| 2 | {YANG} | 子孫 | 辛亥水 |  | 房 | 伏 妻財 甲寅木 |"
    assert table[7] == f"| 1 | {YIN} | 父母 | 辛丑土 | 世 | 亢 |  |"
    code, page, _ = run(capsys, "show", "gou", "--format", "html", "--db", fresh_db)
    assert code == 0 and page.startswith("<!DOCTYPE html>") and "Noto Sans CJK" in page
    body = re.findall(r"<tr>(.*?)</tr>", page.split("<tbody>", 1)[1])
    cells = [re.findall(r"<td>(.*?)</td>", row) for row in body]
    assert [c[0] for c in cells] == ["6", "5", "4", "3", "2", "1"]
    assert cells[5] == ["1", YIN, "父母", "辛丑土", "世", "亢", ""]
    assert cells[4][6] == "伏 妻財 甲寅木"


def test_show_markdown_and_html_of_a_name_escape_and_tabulate_its_rows(
    fresh_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """玄武 names a spirit and a general: a title for each, its row and related rows as tables."""
    code, out, _ = run(capsys, "show", "玄武", "--format", "markdown", "--db", fresh_db)
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("###")] == [
        "### 玄武 · spirit 六神",
        "### 玄武 · general 十二將",
    ]
    assert "| name | ordinal | element | direction | passage | basis |" in out
    assert "| 玄武 | 6 | 水 | 北 | 7.6 | book |" in out
    assert "day\\_spirit (10 rows)" in out  # markup escaped
    code, page, _ = run(capsys, "show", "玄武", "--format", "html", "--db", fresh_db)
    assert page.count("<h2>") == 2 and "<td>玄武</td><td>6</td><td>水</td><td>北</td>" in page
    text = run(capsys, "show", "玄武", "--db", fresh_db)[1]
    assert "day_spirit (10 rows)" in text and "day_spirit (10 rows)" in page


def test_a_moving_lines_change_carries_its_own_void_break_and_clash(
    fresh_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """戊午日 (旬空 子丑) in the 子 month: 姤's line 1 changes into 甲子水, void and clashed by
    the day 午 (not broken: the month is 子 itself); line 4's change 辛未土 is none of them."""
    rid = cast_into(fresh_db, "姤:1,4", at="2026-12-10T09:15")
    code, out, _ = run(capsys, "reading", str(rid), "--db", fresh_db)
    assert code == 0 and "戊午日" in out and "旬空 子丑 · 月建 子" in out
    line1 = next(row for row in out.splitlines() if "辛丑土" in row)
    assert line1.endswith(f"{YANG} 子孫 甲子水 空衝 化空,化合")  # 丑 into 子: 六合
    line4 = next(row for row in out.splitlines() if "壬午火" in row)
    assert f"{YIN} 父母 辛未土 " in line4 and line4.endswith(" 化合")  # 午 into 未: 六合
    code, out, _ = run(capsys, "reading", str(rid), "--json", "--db", fresh_db)
    lines = {line["position"]: line for line in json.loads(out)["lines"]}
    marks = ("changed_is_void", "changed_is_month_break", "changed_is_day_clash")
    assert [lines[1][m] for m in marks] == [True, False, True]
    assert [lines[4][m] for m in marks] == [False, False, False]
    assert [lines[2][m] for m in marks] == [None, None, None]  # a still line
    page = chart_html(chart(rid, db=fresh_db))
    assert '<td class="c3 marks">空衝</td><td class="c3 transform">化空,化合</td>' in page


def test_json_contract_fields(fresh_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    rid = cast_into(fresh_db, "姤:1,4", at="2026-11-30T09:15")
    _, out, _ = run(capsys, "reading", str(rid), "--format", "json", "--db", fresh_db)
    data = json.loads(out)
    assert run(capsys, "reading", str(rid), "--json", "--db", fresh_db)[1] == out
    assert data["schema"] == "yimao.chart/2"
    assert data["moving_lines"] == [1, 4] and data["gua_shen_positions"] == [4]
    assert data["is_liuchong"] is False and data["lines"][0]["is_moving"] is True
    assert (data["primary_bits"], data["changed_bits"]) == ("011111", "111011")
    assert [c["ganzhi"] for c in data["changed_lines"]] == [
        "甲子",
        "甲寅",
        "甲辰",
        "辛未",
        "辛巳",
        "辛卯",
    ]
    assert [c["relative"] for c in data["changed_lines"]][3] == "父母"
    hidden = data["hidden"]
    assert len(hidden) == 1
    assert (hidden[0]["position"], hidden[0]["stem"], hidden[0]["branch"]) == (2, "甲", "寅")
    assert (hidden[0]["relative"], hidden[0]["over_relative"]) == ("妻財", "子孫")
    assert data["journal"] == {"notes": [], "outcome": None, "tags": []}


def random_rows(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    matters = ["", "office", "wealth", "lawsuit", "worry"]
    return [
        {
            "lines": "".join(rng.choice("6789") for _ in range(6)),
            "at": f"{rng.randint(1901, 2099)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f"T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
            "question": rng.choice(["", "q?", "問"]),
            "matter": rng.choice(matters),
        }
        for _ in range(count)
    ]


def test_500_random_readings_validate_against_the_schema(
    fresh_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Draft202012Validator.check_schema(SCHEMA)
    validator = Draft202012Validator(SCHEMA)
    path = tmp_path / "random.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, ["lines", "at", "question", "matter"])
        writer.writeheader()
        writer.writerows(random_rows(500, seed=13))
    code, out, err = run(capsys, "import", str(path), "--ids", "--db", fresh_db)
    assert code == 0, err
    ids = [int(i) for i in out.split()]
    assert ids == list(range(1, 501))
    pillars = cast_into(fresh_db, "666666", pillars="甲辰,丙寅,戊戌")  # no moment, 用六
    seasonal = cast_into(fresh_db, "999999", at="2026-06-01T10:00", najia="seasonal")
    seen = set()
    render_json = chart_renderer("json")
    engine = reader_engine(fresh_db)
    try:
        with engine.connect() as conn:  # one connection for the 502 charts (on PostgreSQL a
            # command each took 0.7 s); the command itself for every 50th and the two casts
            documents = {
                rid: render_json(chart(rid, conn), journal(rid, conn), PLAIN) for rid in ids
            }
    finally:
        engine.dispose()
    for rid in [*ids[::50], pillars, seasonal]:
        code, out, err = run(capsys, "reading", str(rid), "--format", "json", "--db", fresh_db)
        assert (code, err) == (0, "")
        if rid in documents:
            assert out == documents[rid]
        documents[rid] = out
    for rid, document in documents.items():
        data = json.loads(document)
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], (rid, errors[:3])
        assert isinstance(data["moving_lines"], list)
        seen.add(len(data["moving_lines"]))
    assert seen >= {0, 1, 2, 3, 6}


def test_the_changed_column_shows_every_transform_and_the_lines_their_strength(
    fresh_db: str,
) -> None:
    """乾 with lines 2 and 3 moving into 震 below on a 甲子 day in the 午 month: 甲寅 into 庚寅
    and 甲辰 into 庚辰, each 伏吟 (a sign of the change, shown beside §8.14's 化墓 of 辰);
    every primary line ends with its strength in the month and stage at the day."""
    rid = cast_into(fresh_db, "乾:2,3", day="甲子", month="午")
    out = render_chart(chart(rid, db=fresh_db))
    line2 = next(row for row in out.splitlines() if "甲寅木" in row)
    line3 = next(row for row in out.splitlines() if "甲辰土" in row)
    assert line2.endswith("庚寅木  伏吟") and " 休·沐浴 " in line2  # 木 休 in 午, 沐浴 at 子
    assert line3.endswith("庚辰土  化墓,伏吟") and " 相·帝旺 " in line3  # 土 (with 水): 帝旺 at 子


def test_opposite_signs_on_one_line_are_explained(fresh_db: str) -> None:
    """既濟之隨 asking about wealth on a 戊戌 day: the 世身 (line 6, 子 兄弟) holds 地財, which
    wealth wants, and 兄弟, which it fears (line 5's between line is helped and holds 官鬼, but
    only a lawsuit's between line helps, §10.3); the 用神 (妻財 hidden under line 3) is
    strong and its 忌神 is held down, while the 忌神 on line 3 moves against it."""
    from yimao_db.present.signs import opposed

    rid = cast_into(fresh_db, "789678", pillars="甲辰,丙寅,戊戌,庚申", matter="wealth")
    c = chart(rid, db=fresh_db)
    assert opposed(c.signs) == [
        "line 3: 忌神被克 用神旺 伏神得出 (吉) and 忌神動克用 (凶) both hold, each on its own "
        "condition; neither cancels the other",
        "line 6: 世身得喜 (吉) and 世身逢忌 (凶) both hold, each on its own condition; neither "
        "cancels the other",
    ]
    text = render_chart(c, cells_wide=200)
    assert "  opposed  line 3: 忌神被克 用神旺 伏神得出 (吉) and 忌神動克用 (凶) both hold" in text
    assert "\n           line 6: 世身得喜 (吉) and 世身逢忌 (凶) both hold" in text
