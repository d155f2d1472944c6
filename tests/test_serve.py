"""`yimao serve`: datasette on the database, read-only, with the project's pages.

The server runs as a subprocess on a free port of 127.0.0.1 and is fetched with httpx:
every page the documentation names answers 200 with the expected values, unknown ids are
404 pages that say what was expected, and nothing written through datasette reaches the
file. The errors before the server starts are one line and exit 2. (SQLite only: the
command serves a file; PostgreSQL users are pointed at their reporting tools.)
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("datasette")
import httpx
from helpers import as_a_command, copy_db, ctrl_c, run
from serving import built_with_readings, served, server, yimao_command

from yimao_db import db as dbmod
from yimao_db.journaling import add_note, record_outcome, tag
from yimao_db.kb.meta import read_meta
from yimao_db.kb.views import views
from yimao_db.kb.vocab import MOVING_MARKS, YANG_BAR, YIN_BAR
from yimao_db.present import formats
from yimao_db.present.schema_doc import unaggregated_views
from yimao_db.web import site as web_site
from yimao_db.web.plugin import counting, uncounted
from yimao_db.web.queries import parse, queries

NOTE = "<b>覆</b> & the second look"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two readings; the first with a note, an outcome and two tags."""
    path = built_with_readings(tmp_path_factory.mktemp("serve") / "yimao.db")
    add_note(1, NOTE, db=str(path))
    record_outcome(1, "hit", on="2026-12-05", note="as read", db=str(path))
    tag(1, ["work", "家"], db=str(path))
    return path


@pytest.fixture(scope="module")
def site(database: Path) -> Iterator[httpx.Client]:
    with served(database) as url, httpx.Client(base_url=url, follow_redirects=True) as client:
        yield client


def get(client: httpx.Client, path: str, **params: Any) -> httpx.Response:
    response = client.get(path, params=params or None)
    assert response.status_code == 200, (path, response.status_code, response.text[:300])
    return response


def rows(client: httpx.Client, path: str, **params: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = get(client, path, _shape="array", **params).json()
    return found


def test_index_lists_the_database_with_its_title(site: httpx.Client) -> None:
    page = get(site, "/").text
    assert "yimao-db: 程良玉《易冒》卷一 as data" in page
    assert 'href="/yimao"' in page
    assert "_memory" not in page
    meta = get(site, "/-/metadata.json").json()
    assert meta["license"].startswith("MIT")
    assert "source_passage" in meta["source"]


def test_a_table_with_its_descriptions(site: httpx.Client) -> None:
    hexagrams = rows(site, "/yimao/hexagram.json", _size="100")
    assert len(hexagrams) == 64
    assert {(h["king_wen"], h["name"]) for h in hexagrams} >= {(1, "乾為天"), (44, "天風姤")}
    page = get(site, "/yimao/hexagram").text
    assert 'class="column-descriptions"' in page  # folded by yimao.js (test_serve_browser)
    assert "/yimao-static/yimao.js" in page
    assert get(site, "/yimao-static/yimao.js").text.count("yimao-columns") == 1


def test_views_come_in_their_sort_order(site: httpx.Client) -> None:
    lines = rows(site, "/yimao/v_line.json", _size="12")
    assert [(r["king_wen"], r["position"]) for r in lines] == [
        (kw, p) for kw in (1, 2) for p in range(1, 7)
    ]
    assert [r["name"] for r in rows(site, "/yimao/v_ganzhi.json", _size="3")] == [
        "甲子",
        "乙丑",
        "丙寅",
    ]
    assert [r["reading_id"] for r in rows(site, "/yimao/v_reading.json")] == [2, 1]


def test_facets(site: httpx.Client) -> None:
    data = get(site, "/yimao/v_hexagram.json").json()
    palace = data["facet_results"]["palace"]["results"]
    assert {f["value"]: f["count"] for f in palace} == {p: 8 for p in "乾震坎艮坤巽離兌"}


def test_a_view_computed_when_read_is_counted_only_when_filtered(site: httpx.Client) -> None:
    whole = get(site, "/yimao/v_reading_line.json").json()
    assert whole["filtered_table_rows_count"] is None  # not counted: every reading's lines
    assert len(whole["rows"]) == 12
    one = get(site, "/yimao/v_reading_line.json", reading_id=1).json()
    assert one["filtered_table_rows_count"] == 6
    assert get(site, "/yimao/v_reading.json").json()["filtered_table_rows_count"] == 2
    signs = get(site, "/yimao/v_reading_sign.json").json()
    assert signs["filtered_table_rows_count"] is None and signs["rows"]
    tables = get(site, "/-/metadata.json").json()["databases"]["yimao"]["tables"]
    for name in unaggregated_views():  # no facet or sort over every reading by default
        assert not {"facets", "sort", "sort_desc"} & set(tables[name]), name
    assert tables["v_reading"]["sort_desc"] == "reading_id"
    assert tables["v_reading_hidden"]["facets"] == ["relative"]


def test_a_filter_applied_on_an_uncounted_page_is_counted(site: httpx.Client) -> None:
    """The unfiltered page's links and filter form carry the ``_nocount`` the site added;
    the filtered page they lead to is counted all the same (a visitor's own is kept)."""
    page = get(site, "/yimao/v_reading_line").text
    carried = re.findall(r'<input type="hidden" name="(_nocount)" value="([^"]*)">', page)
    assert carried and "?&amp;" not in page
    name, value = carried[0]
    one = get(site, "/yimao/v_reading_line.json", reading_id=1, **{name: value}).json()
    assert one["filtered_table_rows_count"] == 6 and len(one["rows"]) == 6
    asked = get(site, "/yimao/v_reading_line.json", reading_id=1, _nocount=1).json()
    assert asked["filtered_table_rows_count"] is None and len(asked["rows"]) == 6


@pytest.mark.parametrize(
    ("path", "query", "expected"),
    [
        ("/yimao/v_reading_line", b"", b"_nocount=unfiltered"),
        ("/yimao/v_reading_line.json", b"_size=5", b"_size=5&_nocount=unfiltered"),
        ("/yimao/v_reading_line", b"_nocount=unfiltered", b"_nocount=unfiltered"),
        (
            "/yimao/v_reading_line",
            b"_nocount=unfiltered&_sort=value",
            b"_sort=value&_nocount=unfiltered",
        ),
        ("/yimao/v_reading_line", b"reading_id=1&_nocount=unfiltered", b"reading_id=1"),
        ("/yimao/v_reading_line", b"reading_id=1&_nocount=1", b"reading_id=1&_nocount=1"),
        ("/yimao/v_reading_line", b"_nocount=1", b"_nocount=1"),
        ("/yimao/v_reading", b"_nocount=unfiltered", b"_nocount=unfiltered"),
        ("/yimao/v_reading", b"a=%26", b"a=%26"),
        ("/yimao/v~5Freading~5Fline.json", b"", b"_nocount=unfiltered"),  # datasette's own name
        ("/yimao/v~5Freading~5Fline", b"reading_id=1&_nocount=unfiltered", b"reading_id=1"),
        ("/yimao/v~5Freading", b"", b""),
    ],
)
def test_the_query_datasette_is_given(path: str, query: bytes, expected: bytes) -> None:
    assert counting(path, query) == expected


@pytest.mark.parametrize(
    ("path", "query", "expected"),
    [
        ("/yimao/v_reading_line", b"", True),
        ("/yimao/v_reading_sign.json", b"_size=10&_sort=sign", True),
        ("/yimao/v_reading_use_candidate.csv", b"_facet=role", True),
        ("/yimao/v_reading_use", b"", False),
        ("/yimao/v_reading_line", b"reading_id=5", False),
        ("/yimao/v_reading_line.json", b"reading_id__gt=5", False),
        ("/yimao/v_reading_line", b"_where=reading_id%3D5", False),
        ("/yimao/v_reading_line", b"_search_relative=x", False),
        ("/yimao/v_reading_line", b"_nocount=0", False),
        ("/yimao/v_reading", b"", False),
        ("/yimao/v_reading_hidden", b"", False),
        ("/other/v_reading_line", b"", False),
        ("/yimao/v_reading_line/1", b"", False),
    ],
)
def test_which_pages_go_uncounted(path: str, query: bytes, expected: bool) -> None:
    assert uncounted(path, query) is expected


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/yimao/v_hexagram?_next=abc", "_next is the offset of a view&#39;s next page"),
        ("/yimao/v_reading_line?_next=1.5", "a whole number; not &#39;1.5&#39;"),
        ("/yimao/hexagram?_sort=nosuch", "Cannot sort table by nosuch: sort by one of"),
        ("/yimao/v_line?_sort_desc=nosuch", "Cannot sort table by nosuch: sort by one of"),
    ],
)
def test_a_bad_page_argument_is_a_400_saying_what_was_expected(
    site: httpx.Client, path: str, said: str
) -> None:
    response = site.get(path)
    assert response.status_code == 400 and said in response.text, response.text[:300]
    assert site.get("/yimao/v_hexagram?_next=5").status_code == 200  # a whole number is fine


def test_every_documented_query_is_a_canned_query(site: httpx.Client) -> None:
    meta = get(site, "/-/metadata.json").json()["databases"]["yimao"]["queries"]
    assert set(meta) == set(queries())
    for name, query in queries().items():
        assert rows(site, f"/yimao/{name}.json", **query.example) is not None, name
        for param, _ in query.params:
            assert f":{param}" in meta[name]["sql"]


def test_a_canned_query_with_a_parameter(site: httpx.Client, database: Path) -> None:
    wealth = rows(site, "/yimao/hidden_wealth.json", relative="妻財")
    assert {
        "king_wen": 44,
        "name": "天風姤",
        "position": 2,
        "ganzhi": "甲寅",
        "over_ganzhi": "辛亥",
    } in wealth
    officer = rows(site, "/yimao/hidden_wealth.json", relative="官鬼")
    printed = queries()["hidden_wealth"].sql.replace("'妻財'", "'官鬼'")
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as con:
        expected = con.execute(printed).fetchall()
    assert [tuple(r.values()) for r in officer] == expected != []
    assert rows(site, "/yimao/names.json", alias="元武") == [
        {"kind": "general", "canonical": "玄武", "form": "variant"},
        {"kind": "spirit", "canonical": "玄武", "form": "variant"},
    ]
    page = get(site, "/yimao/hidden_wealth").text
    assert "hidden_wealth?relative=%E5%A6%BB%E8%B2%A1" in page  # the example, linked


def test_the_reading_page_shows_the_chart(site: httpx.Client) -> None:
    page = get(site, "/reading/1").text
    assert "Reading 1" in page and "天風姤" in page and "乾為天" in page
    # the terminal chart's layout: rows from line 6 down, the primary's parts in c2 cells, the
    # changed hexagram's in c3, the hidden spirit's in c1
    rows = re.findall(r'<tr class="position-(\d)( moving)?">', page)
    assert rows == [(str(p), " moving" if p == 1 else "") for p in range(6, 0, -1)]
    bars = re.findall(r'<td class="c([23]) bar">([^<]*)</td>', page)
    assert [bar for column, bar in bars if column == "2"] == [YANG_BAR] * 5 + [YIN_BAR]  # 姤
    assert [bar for column, bar in bars if column == "3"] == [YANG_BAR] * 6  # 乾
    assert '<td class="c2 mark">世</td>' in page and '<td class="c2 mark">應</td>' in page
    assert '<td class="c1 relative">妻財</td><td class="c1 ganzhi">甲寅木</td>' in page
    assert f'<td class="c2 moving">{MOVING_MARKS[6]}</td>' in page  # 姤 → 乾: yin line 1 moves


def test_the_reading_page_shows_the_journal(
    site: httpx.Client, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tags, outcome and notes under the chart, as ``yimao reading --format html`` shows
    them (the same fragment), stored text escaped."""
    code, printed, _ = run(capsys, "reading", "1", "--format", "html", "--db", str(database))
    assert code == 0
    fragment = re.search(r'<div class="journal">.*?</div>', printed, re.S)
    assert fragment is not None
    page = get(site, "/reading/1").text
    assert fragment[0] in page
    assert "<p>Tags: work, 家</p>" in fragment[0]
    assert "<p>Outcome: hit on 2026-12-05: as read</p>" in fragment[0]
    assert "&lt;b&gt;覆&lt;/b&gt; &amp; the second look</p>" in fragment[0]
    assert '<div class="journal"></div>' in get(site, "/reading/2").text  # nothing to show


def test_the_reading_in_every_format_is_what_yimao_reading_prints(
    site: httpx.Client, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """/reading/ID.SUFFIX for every format of the registry that renders a chart: byte for
    byte what ``yimao reading ID --format NAME`` prints to a file, with the format's media
    type; the reading page links to each; an unknown suffix or id is a 404 saying why."""
    page = get(site, "/reading/1").text
    for fmt in formats.rendering("chart"):
        code, printed, _ = run(capsys, "reading", "1", "--format", fmt.name, "--db", str(database))
        assert code == 0
        got = get(site, f"/reading/1{fmt.suffix}")
        assert got.content == printed.encode("utf-8"), fmt.name
        assert got.headers["content-type"] == fmt.media_type, fmt.name
        assert got.headers["x-content-type-options"] == "nosniff"
        assert f'<a href="/reading/1{fmt.suffix}">{fmt.name}</a>' in page
    for path, said in [
        ("/reading/1.docx", "no format has the suffix .docx: expected one of .txt, .md, "),
        ("/reading/99.json", "no reading with id 99"),
    ]:
        response = site.get(path)
        assert response.status_code == 404 and said in response.text, path


def test_a_suffix_of_two_parts_reaches_the_reading_in_that_format() -> None:
    """A format may have a suffix such as ``.plain.txt``: the route takes all of it (the
    recipe "An output format", followed once, found it cut at the first dot)."""
    from yimao_db.web import plugin

    routes = [(re.compile(pattern), view) for pattern, view in plugin.register_routes()]
    for path, id_, suffix in [
        ("/reading/7.md", "7", ".md"),
        ("/reading/7.plain.txt", "7", ".plain.txt"),
    ]:
        pattern, view = next((p, v) for p, v in routes if p.match(path))
        found = pattern.match(path)
        assert view is plugin.reading_file and found is not None
        assert (found["id"], found["suffix"]) == (id_, suffix)


def test_every_hexagram_page_names_the_passages_citing_its_rows(site: httpx.Client) -> None:
    for king_wen in range(1, 65):
        page = get(site, f"/hexagram/{king_wen}").text
        cited = page.split("<h2>Passages citing its rows</h2>", 1)[1].split("<h2>", 1)[0]
        assert "<p>None.</p>" not in cited, king_wen
        assert f"<td>line_place</td><td>{king_wen}|" in cited, king_wen
    page = get(site, "/hexagram/44").text
    cited = page.split("<h2>Passages citing its rows</h2>", 1)[1].split("<h2>", 1)[0]
    assert re.findall(
        r"<tr><td>([\d.]+)</td><td>[^<]*</td><td>(\w+)</td><td>([^<]*)</td>", cited
    ) == [
        ("8.4", "line_place", "44|1|世"),
        ("8.4", "line_place", "44|4|應"),
        ("9.1", "line_place", "44|2|世身"),
        ("9.1", "line_place", "44|4|卦身"),
        ("10.1", "line_place", "44|2|間"),
        ("10.1", "line_place", "44|3|間"),
        ("10.5", "line_place", "44|1|身後"),
        ("10.5", "line_place", "44|3|身前"),
        *(("10.5", "line_places", f"44|{p}") for p in range(1, 7)),
    ]


def test_every_canned_query_has_its_own_title(site: httpx.Client) -> None:
    meta = get(site, "/-/metadata.json").json()["databases"]["yimao"]["queries"]
    titles = {name: entry["title"] for name, entry in meta.items()}
    assert len(set(titles.values())) == len(titles) == len(queries()) == 22
    assert titles["marriage_between"] == "What is the between line in a given matter (domain)?"
    assert titles["moving_guangui_between"] == (
        "What does a between line mean when it moves, or holds 官鬼?"
    )
    for name, query in queries().items():
        assert titles[name] == query.title
        for value in query.example.values():
            assert value not in query.title, name  # the form asks for any value
    page = get(site, "/yimao/hidden_wealth", relative="官鬼").text
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    assert heading is not None
    assert (
        heading[1].strip() == "Which hexagrams hide a given relative (伏神), and under which line?"
    )
    assert "妻財" not in page  # asked about 官鬼, the page names no other relative
    liuchong = get(site, "/yimao/liuchong").text
    assert "From docs/queries.md, under “Which hexagrams are 六衝卦?”." in liuchong


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("-- query: a\nSELECT 1\n", "a: expected '-- title: QUESTION' as the second line"),
        (
            "-- query: a\n-- title: Which x?\nSELECT 1\n```\n```sql\n"
            "-- query: b\n-- title: Which x?\nSELECT 2\n",
            "b: another query has the title 'Which x?'",
        ),
        (
            "-- query: a\n-- title: Which hexagrams hide 妻財?\n-- param: r = '妻財'\n"
            "SELECT '妻財'\n",
            "a: the title names the parameter's value 妻財",
        ),
    ],
)
def test_a_canned_query_needs_a_unique_title_without_fixed_values(block: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse(f"## Heading\n\n```sql\n{block}```\n")


def test_the_home_page_leads_with_the_public_views_readings_and_passages(
    site: httpx.Client,
) -> None:
    page = get(site, "/").text
    listed = re.findall(r'<li><a href="/yimao/(\w+)">', page)
    public = [v.name for v in views().values() if v.public]
    assert listed == [*public, *web_site.READING_TABLES, *web_site.PASSAGE_TABLES]
    assert 'href="/passages"' in page and 'href="/yimao#queries"' in page


def test_the_database_page_lists_in_the_documentation_order(
    site: httpx.Client, database: Path
) -> None:
    page = get(site, "/yimao").text
    listed = re.findall(r'<li><a href="/yimao/(\w+)">', page)
    with dbmod.reader_engine(str(database)).connect() as conn:
        tables, _ = read_meta(conn)
    expected = [e.name for group in web_site.guide(tables) for e in group.entries]
    public = [v.name for v in views().values() if v.public]
    assert listed[: len(public)] == public
    assert listed == expected and len(listed) == 156  # 0013: 2 tables; 0014: 13 tables, two
    # views; 0015: 2 tables; 0016: 4 tables; 0017: 1 table; 0018: 2 tables, two views;
    # 0020: 1 table, one view; 0026: 1 table, one view; 0027: 1 table, one view; 0028: 1
    # table, one view; 0030: 1 table, one view
    assert listed.index("reading") < listed.index("source_passage") < listed.index("hexagram")
    assert listed[-1] == "alembic_version"
    assert page.index('id="passages"') < page.index('id="queries"') < page.index('id="tables"')
    assert "select * from v_ganzhi</textarea>" in page


def test_every_reading_row_links_to_its_chart(site: httpx.Client) -> None:
    page = get(site, "/yimao/v_reading").text
    assert '<a href="/reading/1">1</a>' in page and '<a href="/reading/2">2</a>' in page
    assert '<a href="/hexagram/44">44</a>' in page


@pytest.mark.parametrize("name", ["姤", "44", "天风姤", "天風姤", "011111", "tian feng gou"])
def test_the_hexagram_page_takes_every_alias(site: httpx.Client, name: str) -> None:
    page = get(site, f"/hexagram/{name}").text
    assert "天風姤 姤 · King Wen 44" in page
    for position in range(1, 7):
        assert f'<tr class="position-{position}">' in page
    assert "伏 妻財 甲寅木" in page
    assert "乾宮 一世" in page and "five star" in page


def test_the_passages_page(site: httpx.Client) -> None:
    page = get(site, "/passages").text
    assert "The book's 77 passages" in page
    assert page.count('<li id="p') == 77
    item = page.split('<li id="p7.2">', 1)[1].split("</li>", 1)[0]
    assert "六神章第七" in item and 'href="/yimao/general?passage=7.2"' in item


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/reading/99", "no reading with id 99"),
        (
            "/reading/abc",
            "bad reading id &#39;abc&#39;: expected a whole number from 1 to 9223372036854775807",
        ),
        ("/hexagram/nothing", "unknown hexagram &#39;nothing&#39;: expected a hexagram"),
        ("/hexagram/65", "unknown hexagram &#39;65&#39;"),
    ],
)
def test_unknown_ids_are_404_with_a_message(site: httpx.Client, path: str, message: str) -> None:
    response = site.get(path)
    assert response.status_code == 404
    assert message in response.text


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "sql",
    [
        "DELETE FROM reading",
        "UPDATE hexagram SET name = 'x'",
        "PRAGMA query_only = OFF",
        "CREATE TABLE x (a)",
        "ATTACH DATABASE 'other.db' AS other",
        "SELECT 1; DELETE FROM reading",
    ],
)
def test_writes_through_datasette_are_refused(site: httpx.Client, database: Path, sql: str) -> None:
    before = _digest(database)
    response = site.get("/yimao.json", params={"sql": sql})
    assert response.status_code == 400
    assert response.json()["ok"] is False
    posted = site.post("/yimao", data={"sql": sql})
    assert posted.status_code in (400, 403, 405)
    assert _digest(database) == before
    assert [r["reading_id"] for r in rows(site, "/yimao/v_reading.json")] == [2, 1]


def test_a_reading_cast_while_serving_appears(tmp_path: Path) -> None:
    """A writable file is served read-only, not immutable: a new reading shows at once."""
    database = built_with_readings(tmp_path / "live.db")
    with served(database) as url, httpx.Client(base_url=url) as client:
        assert client.get("/reading/3").status_code == 404
        done = subprocess.run(
            yimao_command("cast", "789678", "--at", "2026-12-01T08:00", "--db", str(database)),
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        assert "Reading 3" in get(client, "/reading/3").text


def test_immutable_only_where_nothing_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "yimao.db"
    path.write_bytes(b"")
    assert not dbmod.nothing_writes(path)  # a writable directory: mode=ro
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    assert dbmod.nothing_writes(path)  # nothing can write: immutable
    (tmp_path / "yimao.db-wal").write_bytes(b"")
    assert not dbmod.nothing_writes(path)  # a writer's log is there: mode=ro


# --- errors before the server starts: one line, exit 2 -----------------------------------


def test_missing_database(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "serve", "--db", str(tmp_path / "none.db"))
    assert (code, out) == (2, "")
    assert err == f"error: no database at {tmp_path / 'none.db'}; run `yimao build` first\n"
    assert not (tmp_path / "none.db").exists()


def test_unbuilt_database(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "empty.db").write_bytes(b"")
    code, _, err = run(capsys, "serve", "--db", str(tmp_path / "empty.db"))
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "not a built database; run `yimao build` first" in err
    assert (tmp_path / "empty.db").read_bytes() == b""


def test_busy_port(capsys: pytest.CaptureFixture[str], database: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, out, err = run(capsys, "serve", "--db", str(database), "--port", str(port))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: cannot listen on 127.0.0.1:{port}: ")
    assert "give another --port" in err and err.count("\n") == 1


@pytest.mark.parametrize("port", ["x", "65536", "-1", "８０"])
def test_bad_port(capsys: pytest.CaptureFixture[str], database: Path, port: str) -> None:
    code, _, err = run(capsys, "serve", "--db", str(database), "--port", port)
    assert code == 2 and "expected a port number 0..65535" in err


def test_datasette_not_installed(
    capsys: pytest.CaptureFixture[str], database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "datasette", None)  # import datasette fails
    code, out, err = run(capsys, "serve", "--db", str(database))
    assert (code, out) == (2, "")
    assert err == (
        "error: yimao serve needs datasette, which is not installed (pip install 'yimao-db[web]')\n"
    )


def test_a_path_datasette_would_misread(
    capsys: pytest.CaptureFixture[str], database: Path, tmp_path: Path
) -> None:
    odd = tmp_path / "100%" / "yimao.db"
    odd.parent.mkdir()
    copy_db(database, odd)
    code, out, err = run(capsys, "serve", "--db", str(odd))
    assert (code, out) == (2, "")
    assert "datasette misreads a path with ?, # or %" in err and err.count("\n") == 1


def test_a_postgresql_url_is_pointed_at_the_docs(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "serve", "--db", "postgresql+psycopg://u@127.0.0.1:1/x")
    assert code == 2 and "docs/browse.md" in err and err.count("\n") == 1


def test_nothing_of_datasette_is_imported_by_other_commands() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from yimao_db.cli import make_parser; make_parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('datasette', 'uvicorn', 'httpx', 'jinja2', 'yimao_db.web')))",
        ],
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip() == "[]", done.stderr


@pytest.mark.parametrize("gap", [0.0005, 0.002])
def test_two_ctrl_c_at_once_stop_the_server_in_one_line(database: Path, gap: float) -> None:
    """Ctrl-C twice in quick succession (a key held down): `interrupted`, exit 130, nothing
    else on stderr. uvicorn printed the traceback of a cancelled lifespan task (49 lines)
    in 4 of 6 such stops; datasette is started before uvicorn runs, with no lifespan task."""
    with server(database) as running:
        assert httpx.get(running.url + "/yimao/v_reading").status_code == 200
        running.process.send_signal(signal.SIGINT)
        time.sleep(gap)
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=30) == 130
    deadline = time.monotonic() + 30  # stderr is read by a thread as it comes
    while "interrupted" not in "".join(running.stderr) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "".join(running.stderr) == "interrupted\n"


def test_a_ctrl_c_inside_sqlites_authorizer_as_the_server_starts(
    database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real SIGINT while SQLite asks the authorizer about the start's own query (reading
    the documentation tables): `interrupted`, 130. SQLite took the KeyboardInterrupt raised
    in the callback for a refusal: `error: database: access to … is prohibited`, exit 2
    (2 of 400 Ctrl-Cs at random moments of a start)."""
    from yimao_db.web import limits

    real = limits.ServeAuthorizer.__call__
    calls = iter(range(1, 1_000_000))

    def authorize(self: limits.ServeAuthorizer, *args: Any) -> int:
        if next(calls) == 3:
            ctrl_c()
        return real(self, *args)

    monkeypatch.setattr(limits.ServeAuthorizer, "__call__", authorize)
    with as_a_command():
        code, out, err = run(capsys, "serve", "--db", str(database), "--port", "0")
    assert next(calls) > 4  # the start's query went on
    assert (code, out, err) == (130, "", "interrupted\n")
