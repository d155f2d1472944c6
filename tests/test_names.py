"""Names: every spelling resolves through ``name_alias`` in the database, and ``yimao show``
shows what any name names.

Everything here goes through a built database (the ``name_alias`` rows and the CLI), not
through the Python that generates the rows.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import Connection, text

from yimao_db import lookup
from yimao_db.cli import main
from yimao_db.errors import UsageError
from yimao_db.kb.facts import read_tsv
from yimao_db.kb.names import VOCABULARIES, normalise, simplify, toneless

# pinyin shared by two mansions is not an alias of either (their other forms resolve)
AMBIGUOUS = {("mansion", "wei"), ("mansion", "bì"), ("mansion", "bi")}
LABELLED = ("element", "stem", "branch", "trigram", "relative", "spirit", "star", "mansion")


def kinds_of(conn: Connection, typed: str) -> dict[str, str]:
    return dict(lookup.resolve_any(conn, typed))


def canonical_names(conn: Connection, kind: str) -> list[str]:
    table, column = VOCABULARIES[kind]
    return [str(v) for v in conn.execute(text(f"SELECT {column} FROM {table}")).scalars()]


# --- canonical, simplified and traditional ------------------------------------------------


@pytest.mark.parametrize("kind", sorted(VOCABULARIES))
def test_every_canonical_name_and_its_simplified_form_resolve(conn: Connection, kind: str) -> None:
    names = canonical_names(conn, kind)
    assert names
    for name in names:
        assert lookup.resolve(conn, kind, name) == name
        assert lookup.resolve(conn, kind, simplify(name)) == name


@pytest.mark.parametrize(
    ("typed", "kind", "canonical"),
    [
        ("青龙", "spirit", "青龍"),
        ("勾陈", "spirit", "勾陳"),
        ("腾蛇", "spirit", "騰蛇"),
        ("妻财", "relative", "妻財"),
        ("子孙", "relative", "子孫"),
        ("兑", "trigram", "兌"),
        ("岁星", "star", "歲星"),
        ("荧惑", "star", "熒惑"),
        ("太阴", "general", "太陰"),
        ("长生", "stage", "長生"),
        ("游魂", "generation", "遊魂"),
        ("乾为天", "hexagram", "1"),
        ("天风姤", "hexagram", "44"),
        ("风", "hexagram", None),
        ("风泽中孚", "hexagram", "61"),
    ],
)
def test_simplified_forms(conn: Connection, typed: str, kind: str, canonical: str | None) -> None:
    assert lookup.resolve(conn, kind, typed) == canonical


def test_simplified_rows_are_marked(conn: Connection) -> None:
    rows = conn.execute(
        text("SELECT kind, canonical, form FROM name_alias WHERE alias = '青龙' ORDER BY kind")
    ).all()
    assert [tuple(r) for r in rows] == [
        ("general", "青龍", "simplified"),
        ("spirit", "青龍", "simplified"),
    ]


# --- the seed's variants ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("醜", {"branch": "丑"}),
        ("鬥", {"mansion": "斗"}),
        ("翌", {"mansion": "翼"}),
        ("元武", {"spirit": "玄武", "general": "玄武"}),
        ("螣蛇", {"spirit": "騰蛇", "general": "騰蛇"}),
        ("空亡", {"general": "天空"}),
        ("遁", {"hexagram": "33"}),
        ("遯", {"hexagram": "33"}),
        ("天山遁", {"hexagram": "33"}),
        ("恒", {"hexagram": "32"}),
        ("恆", {"hexagram": "32"}),
        ("雷風恒", {"hexagram": "32"}),
        ("无妄", {"hexagram": "25"}),
        ("無妄", {"hexagram": "25"}),
        ("天雷无妄", {"hexagram": "25"}),
        ("土星", {"star": "鎮星"}),
    ],
)
def test_variants(conn: Connection, typed: str, expected: dict[str, str]) -> None:
    assert kinds_of(conn, typed) == expected


def test_variant_rows_say_so(conn: Connection) -> None:
    rows = conn.execute(
        text(
            "SELECT alias, form FROM name_alias WHERE kind = 'hexagram' "
            "AND alias IN ('遁', '恒', '无妄', '遯', '恆', '無妄')"
        )
    )
    forms = {alias: form for alias, form in rows}
    assert forms == {
        "遁": "variant",
        "恒": "variant",
        "无妄": "variant",
        "遯": "short",
        "恆": "short",
        "無妄": "short",
    }


def test_kong_wang_is_the_general_not_a_spirit(conn: Connection) -> None:
    assert lookup.resolve(conn, "general", "空亡") == "天空"
    assert lookup.resolve(conn, "spirit", "空亡") is None


# --- hexagrams: full and short names, number, bits ----------------------------------------


def test_every_hexagram_by_every_form(conn: Connection) -> None:
    rows = conn.execute(text("SELECT king_wen, name, short_name, bits FROM hexagram")).all()
    assert len(rows) == 64
    for kw, name, short, bits in rows:
        for typed in (name, short, str(kw), bits, simplify(name), simplify(short), f" {short} "):
            assert lookup.resolve(conn, "hexagram", typed) == str(kw), typed


def test_lookup_hexagram_and_its_error(conn: Connection) -> None:
    assert lookup.hexagram(conn, "天風姤") == 44
    with pytest.raises(UsageError, match=r"King Wen number 1\.\.64"):
        lookup.hexagram(conn, "65")


# --- pinyin and English -------------------------------------------------------------------


LABELS = read_tsv("labels")


@pytest.mark.parametrize("kind", [*LABELLED, "hexagram", "general"])
def test_pinyin_with_and_without_tones_and_english(conn: Connection, kind: str) -> None:
    rows = [r for r in LABELS if r["kind"] == kind]
    assert rows, kind
    hexagrams = {n: kw for n, kw in conn.execute(text("SELECT name, king_wen FROM hexagram"))}
    for r in rows:
        canonical = str(hexagrams[r["name"]]) if kind == "hexagram" else r["name"]
        for typed in (r["pinyin"], toneless(r["pinyin"]), r["english"], r["english"].upper()):
            if (kind, normalise(typed)) in AMBIGUOUS:
                assert lookup.resolve(conn, kind, typed) is None, typed
            else:
                assert lookup.resolve(conn, kind, typed) == canonical, (kind, typed)


@pytest.mark.parametrize("kind", [*LABELLED, "hexagram"])
def test_every_entity_has_an_english_label(conn: Connection, kind: str) -> None:
    labelled = set(
        conn.execute(
            text("SELECT canonical FROM name_alias WHERE kind = :k AND form = 'english'"),
            {"k": kind},
        ).scalars()
    )
    table, column = ("hexagram", "king_wen") if kind == "hexagram" else VOCABULARIES[kind]
    every = {str(v) for v in conn.execute(text(f"SELECT {column} FROM {table}")).scalars()}
    assert labelled == every


@pytest.mark.parametrize("kind", [*LABELLED, "hexagram"])
def test_every_entity_has_pinyin(conn: Connection, kind: str) -> None:
    with_pinyin = set(
        conn.execute(
            text("SELECT canonical FROM name_alias WHERE kind = :k AND form = 'pinyin'"),
            {"k": kind},
        ).scalars()
    )
    table, column = ("hexagram", "king_wen") if kind == "hexagram" else VOCABULARIES[kind]
    every = {str(v) for v in conn.execute(text(f"SELECT {column} FROM {table}")).scalars()}
    # 壁 and 畢 are both bì: that pinyin names neither (see yimao_db.kb.names)
    missing = {"壁", "畢"} if kind == "mansion" else set()
    assert with_pinyin == every - missing


@pytest.mark.parametrize(
    ("typed", "kind", "canonical"),
    [
        ("qīng lóng", "spirit", "青龍"),
        ("qing long", "spirit", "青龍"),
        ("Green Dragon", "spirit", "青龍"),
        ("  green   dragon ", "spirit", "青龍"),
        ("xuan wu", "general", "玄武"),
        ("Wood", "element", "木"),
        ("mu", "element", "木"),
        ("Rat", "branch", "子"),
        ("jia", "stem", "甲"),
        ("Heaven", "trigram", "乾"),
        ("Officer/Ghost", "relative", "官鬼"),
        ("guan gui", "relative", "官鬼"),
        ("Jupiter", "star", "歲星"),
        ("jiao", "mansion", "角"),
        ("The Creative", "hexagram", "1"),
        ("qian wei tian", "hexagram", "1"),
    ],
)
def test_labels(conn: Connection, typed: str, kind: str, canonical: str) -> None:
    assert lookup.resolve(conn, kind, typed) == canonical


def test_an_alias_names_one_entity_per_kind(conn: Connection) -> None:
    rows = conn.execute(
        text(
            "SELECT kind, alias, COUNT(*) FROM name_alias GROUP BY kind, alias HAVING COUNT(*) > 1"
        )
    ).all()
    assert rows == []


# --- yimao show ---------------------------------------------------------------------------


def show(capsys: pytest.CaptureFixture[str], db: str, *argv: str) -> tuple[int, str, str]:
    code = main(["show", *argv, "--db", db])
    out, err = capsys.readouterr()
    return code, out, err


def show_json(capsys: pytest.CaptureFixture[str], db: str, *argv: str) -> dict[str, Any]:
    code, out, err = show(capsys, db, *argv, "--json")
    assert (code, err) == (0, "")
    data: dict[str, Any] = json.loads(out)
    return data


def entities(capsys: pytest.CaptureFixture[str], db: str, *argv: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = show_json(capsys, db, *argv)["entities"]
    return found


@pytest.mark.parametrize(
    ("typed", "kinds", "canonical"),
    [
        ("青龍", ["spirit", "general"], "青龍"),
        ("青龙", ["spirit", "general"], "青龍"),
        ("玄武", ["spirit", "general"], "玄武"),
        ("元武", ["spirit", "general"], "玄武"),
        ("騰蛇", ["spirit", "general"], "騰蛇"),
        ("天空", ["general"], "天空"),
        ("空亡", ["general"], "天空"),
        ("木", ["element"], "木"),
        ("子", ["branch"], "子"),
        ("醜", ["branch"], "丑"),
        ("角", ["mansion"], "角"),
        ("官鬼", ["relative", "subject"], "官鬼"),  # a relative is a subject too (docs/use.md)
        ("长生", ["stage"], "長生"),
        ("Saturn", ["star"], "鎮星"),
    ],
)
def test_show_resolves_every_vocabulary(
    capsys: pytest.CaptureFixture[str], built_db: str, typed: str, kinds: list[str], canonical: str
) -> None:
    found = entities(capsys, built_db, typed)
    assert [e["kind"] for e in found] == kinds
    assert {e["name"] for e in found} == {canonical}
    code, out, err = show(capsys, built_db, typed)
    assert (code, err) == (0, "")
    for kind in kinds:
        assert f"{canonical} · {lookup.KIND_NAMES[kind]}" in out


def related(entity: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {g["table"]: g["rows"] for g in entity["related"]}


def test_show_spirit_rows_with_passages(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    (spirit,) = entities(capsys, built_db, "青龍", "--kind", "spirit")
    assert spirit["row"]["direction"] == "東" and spirit["row"]["passage"] == "7.5"
    aliases = {(a["alias"], a["form"]) for a in spirit["aliases"]}
    assert {("青龙", "simplified"), ("green dragon", "english"), ("qing long", "pinyin")} <= aliases
    groups = related(spirit)
    assert [r["governs"] for r in groups["spirit_attribute"]] == ["生"]
    assert groups["spirit_attribute"][0]["passage"] == "7.5"
    assert [(r["condition"], r["effect"]) for r in groups["spirit_affinity"]] == [("金爻", "避")]
    first_line = sorted(r["day_stem"] for r in groups["day_spirit"] if r["position"] == 1)
    assert first_line == sorted(["甲", "乙"])
    assert len(groups["month_spirit"]) == 12
    assert {r["matter"] for r in groups["matter_preference"]} == {"功名", "財利"}
    assert all(r["passage"] for rows in groups.values() for r in rows)
    assert "司日: on line 1 on 甲 乙 days" in " ".join(spirit["notes"])


def test_show_subduer_affinity(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    (spirit,) = entities(capsys, built_db, "玄武", "--kind", "spirit")
    affinities = related(spirit)["spirit_affinity"]
    # 玄武 subdues 朱雀 (its virtue, water) and is subdued by 勾陳's earth
    assert {(r["spirit"], r["subduer"]) for r in affinities} == {("朱雀", "玄武"), ("玄武", "勾陳")}


def test_show_general(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    (general,) = entities(capsys, built_db, "天空")
    assert general["row"]["ordinal"] == 7
    rows = related(general)["noble_general"]
    assert len(rows) == 20 and {r["general"] for r in rows} == {"天空"}
    assert ("空亡", "variant") in {(a["alias"], a["form"]) for a in general["aliases"]}


def test_show_branch_and_element(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    (branch,) = entities(capsys, built_db, "子")
    clashes = [r for r in related(branch)["branch_relation"] if r["relation"] == "六衝"]
    assert {(r["first"], r["second"]) for r in clashes} == {("子", "午"), ("午", "子")}
    (element,) = entities(capsys, built_db, "木")
    groups = related(element)
    assert groups["element_correspondence"][0]["direction"] == "東"
    assert {r["branch"] for r in groups["branch_triad"]} == {"亥", "卯", "未"}
    assert len(groups["seasonal_strength"]) == 12


def test_show_relative(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    relative, subject = entities(capsys, built_db, "官鬼")  # the relative, then the subject
    assert (relative["kind"], subject["kind"]) == ("relative", "subject")
    groups = related(relative)
    assert "疾病" in {r["symbol"] for r in groups["relative_symbol"]}
    assert {r["passage"] for r in groups["moving_relative"]} == {"6.5", "6.6"}


def test_show_text_layout(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, _ = show(capsys, built_db, "玄武")
    assert code == 0
    assert out.startswith("玄武 · spirit 六神\n  spirit: name 玄武 · ordinal 6")
    assert "玄武 · general 十二將" in out
    assert "元武 (variant)" in out
    assert "  spirit_attribute (1 row):" in out and "passage" in out


def test_hexagram_names_keep_priority(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    data = show_json(capsys, built_db, "乾")
    assert data["kind"] == "hexagram" and data["king_wen"] == 1
    assert data["also"] == [{"kind": "trigram", "name": "乾"}, {"kind": "palace", "name": "乾"}]
    code, out, _ = show(capsys, built_db, "乾")
    assert code == 0 and out.startswith("乾為天 (乾) · King Wen 1")
    assert "乾 is also a trigram 八卦 and a palace 八宮" in out


def test_show_kind_picks_another_kind(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    (trigram,) = entities(capsys, built_db, "乾", "--kind", "trigram")
    assert trigram["row"]["bits"] == "111"
    (palace,) = entities(capsys, built_db, "乾", "--kind", "palace")
    assert "姤 遯 否 觀 剝 晉 大有" in " ".join(palace["notes"])


def test_show_kind_that_does_not_fit(capsys: pytest.CaptureFixture[str], built_db: str) -> None:
    code, out, err = show(capsys, built_db, "木", "--kind", "spirit")
    assert (code, out) == (2, "")
    assert err.startswith("error: '木' is not a spirit name; it names: element 木")


def test_show_unknown_lists_what_is_accepted(
    capsys: pytest.CaptureFixture[str], built_db: str
) -> None:
    code, out, err = show(capsys, built_db, "不存在")
    assert (code, out) == (2, "")
    assert err.startswith("error: unknown hexagram or name '不存在'")
    for accepted in ("King Wen", "spirit", "mansion", "pinyin", "English", "simplified"):
        assert accepted in err


def test_show_a_sign(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    """A sign by any spelling: its condition, meaning, polarity, weight, passage, basis and
    how often it fires in the stored readings (乾 on a 甲子 day: 戌 void, 世空 on line 6)."""
    from helpers import cast_into

    cast_into(fresh_db, "777777", day="甲子", month="寅")
    cast_into(fresh_db, "777777", day="甲戌", month="寅")
    code, out, err = show(capsys, fresh_db, "世空")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        f"世空 · {lookup.KIND_NAMES['sign']}",
        "  condition: the world line is void 旬空",
        "  meaning: what I seek I cannot get (世爻旬空，所求難得)",
        "  polarity: 凶 · weight 5 (世應) · subject 世",
        "  rests on: §8.14 · basis book · rule table line_sign",
        "  fires: 1 time in 1 of the 2 stored readings",
    ]
    for typed in ("卦身暗衝", "卦身冲"):  # the commentary's word, simplified
        (found,) = entities(capsys, fresh_db, typed)
        assert (found["kind"], found["name"]) == ("sign", "卦身衝")
    (cancels,) = entities(capsys, fresh_db, "太白無咎")
    assert "polarity: 中, cancels 太白特現 · weight 1 (星宿) · subject star" in cancels["notes"]
    assert cancels["related"] == []
    code, out, err = show(capsys, fresh_db, "化合")
    assert code == 0 and "  rests on: no passage · basis standard · rule table change_sign" in out
