"""The symbol tables' data and the name files (simplified, variants, labels).

No database: the TSVs are read through the seed script and checked against the rules
(docs/rules.md chapters 5-10) and the book's passage numbering.
"""

from __future__ import annotations

import copy
import re
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import seed_script
from sqlalchemy import Table

from yimao_db.kb.facts import facts, read_tsv
from yimao_db.kb.rules.signs import SIGNS
from yimao_db.kb.schema import metadata
from yimao_db.paths import seed_dir

Tables = dict[str, list[dict[str, Any]]]

CJK_RUN = re.compile(r"[\u3400-\u9fff\U00020000-\U0002ffff]{14,}")
SYMBOL_TSVS: tuple[str, ...] = seed_script("s30_symbols").TABLES
NAME_TSVS = ("simplified", "variants", "labels")
SPIRITS = ("青龍", "朱雀", "勾陳", "騰蛇", "白虎", "玄武")
GENERALS = (
    "貴人",
    "騰蛇",
    "朱雀",
    "六合",
    "勾陳",
    "青龍",
    "天空",
    "白虎",
    "太常",
    "玄武",
    "太陰",
    "天后",
)
STAGES = ("長生", "沐浴", "冠帶", "臨官", "帝旺", "衰", "病", "死", "墓", "絕", "胎", "養")
SPIRIT_ELEMENTS = {
    "青龍": "木",
    "朱雀": "火",
    "勾陳": "土",
    "騰蛇": "火",
    "白虎": "金",
    "玄武": "水",
}


@cache
def _script() -> ModuleType:
    return seed_script("s30_symbols")


def _tables() -> Tables:
    """The symbol rows plus the vocabulary rows their checks look at."""
    core = seed_script("s10_core")
    tables: Tables = {}
    tables.update(seed_script("s00_sources").rows(tables))
    tables.update(core.vocabulary_rows())
    tables.update(core.trigram_rows())
    tables["spirit"] = [{"name": s, "element": e} for s, e in SPIRIT_ELEMENTS.items()]
    tables["general"] = [{"name": g} for g in GENERALS]
    tables.update(_script().rows(tables))
    return tables


@pytest.fixture(scope="module")
def tables() -> Tables:
    return _tables()


def by_key(rows: list[dict[str, Any]], *columns: str) -> dict[tuple[Any, ...], dict[str, Any]]:
    return {tuple(r[c] for c in columns): r for r in rows}


# --- the seed script and its self-checks -------------------------------------------------


def test_checks_pass(tables: Tables) -> None:
    assert _script().checks(tables) == []


def test_row_counts(tables: Tables) -> None:
    counts = {name: len(tables[name]) for name in SYMBOL_TSVS}
    assert counts == {
        "element_correspondence": 5,
        "element_trigram": 6,
        "five_omen": 5,
        "seven_luminary": 7,
        "relative_symbol": 34,
        "moving_relative": 10,
        "spirit_attribute": 6,
        "spirit_affinity": 4,
        "spirit_preference": 8,
        "star_meaning": 17,
        "world_omen": 15,
        "body_condition": 13,
        "body_weight": 3,
        "matter_preference": 19,
        "between_use": 18,
        "line_role": 10,
        "line_aspect": 2,
        "coin_face": 2,
        "cast_method": 5,
        "matter": 4,
        "spirit_nature": 6,
        "spirit_layer": 4,
    }


@pytest.mark.parametrize("name", SYMBOL_TSVS)
def test_columns_match_the_table(name: str, tables: Tables) -> None:
    table = metadata.tables[name]
    assert all(set(r) == set(table.columns.keys()) for r in tables[name])
    keys = [tuple(r[c.name] for c in table.primary_key.columns) for r in tables[name]]
    assert len(keys) == len(set(keys)), "duplicate primary key"
    for column in table.columns:
        if not column.nullable:
            assert all(r[column.name] is not None for r in tables[name]), column.name


def test_every_column_and_table_documented() -> None:
    from yimao_db.kb.schema import symbols

    documented = {
        table.name for table in vars(symbols).values() if isinstance(table, Table) and table.comment
    }
    assert documented >= set(SYMBOL_TSVS)
    for name in SYMBOL_TSVS:
        assert all(c.comment for c in metadata.tables[name].columns), name


@pytest.mark.parametrize("name", SYMBOL_TSVS)
def test_every_citation_is_a_passage(name: str) -> None:
    passages = {f"{r['chapter_no']}.{r['passage_no']}" for r in read_tsv("passages")}
    for row in read_tsv(name):
        assert row["basis"] in {"book", "standard", "decision"}
        assert row["passage"] in passages or (row["passage"] == "" and row["basis"] != "book")


@pytest.mark.parametrize(
    ("table", "mutate", "message"),
    [
        ("moving_relative", lambda rows: rows.pop(), "five 生象 and five 克象"),
        ("moving_relative", lambda rows: rows[0].update(target="父母"), "is not that step"),
        ("spirit_attribute", lambda rows: rows.pop(), "one attribute row per spirit"),
        ("spirit_affinity", lambda rows: rows[0].update(condition="水爻"), "does not control"),
        ("matter_preference", lambda rows: rows[0].update(item="天財"), "is not a relative"),
        ("line_role", lambda rows: rows.pop(), "positions with roles"),
        ("world_omen", lambda rows: rows[0].update(passage="8.99"), "no passage"),
    ],
)
def test_checks_catch_mistakes(table: str, mutate: Any, message: str, tables: Tables) -> None:
    broken = copy.deepcopy(tables)
    mutate(broken[table])
    assert any(message in failure for failure in _script().checks(broken))


# --- real values -------------------------------------------------------------------------


def test_element_correspondences(tables: Tables) -> None:
    rows = by_key(tables["element_correspondence"], "element")
    assert (rows[("水",)]["season"], rows[("水",)]["branch"], rows[("水",)]["direction"]) == (
        "冬至",
        "子",
        "北",
    )
    assert [rows[(e,)]["colour"] for e in "水木火金土"] == list("黑蒼赤白黃")
    assert [rows[(e,)]["nature"] for e in "水木火金土"] == list("寒溫熱涼平")
    assert rows[("土",)]["branch"] is None and rows[("土",)]["lodging"] == "四維"
    assert rows[("土",)]["passage"] == "5.5"
    trigrams = {r["trigram"]: r["element"] for r in tables["element_trigram"]}
    assert trigrams == {"坎": "水", "震": "木", "離": "火", "兌": "金", "艮": "土", "坤": "土"}


def test_omens_and_luminaries(tables: Tables) -> None:
    assert {r["omen"]: r["element"] for r in tables["five_omen"]} == dict(
        zip("雨霽蒙馹克", "水火木金土", strict=True)
    )
    assert {r["name"]: r["luminary"] for r in tables["seven_luminary"]} == dict(
        zip("喜善威文弱燥怒", "日月金木水火土", strict=True)
    )


def test_relative_symbols(tables: Tables) -> None:
    symbols = {(r["relative"], r["symbol"]) for r in tables["relative_symbol"]}
    assert {("父母", "城池"), ("官鬼", "雷電"), ("兄弟", "阻滯"), ("子孫", "醫藥")} <= symbols
    assert ("妻財", "倉庫") in symbols
    assert {r["passage"] for r in tables["relative_symbol"] if r["relative"] == "兄弟"} == {"6.3"}


def test_moving_relatives(tables: Tables) -> None:
    rows = by_key(tables["moving_relative"], "mover", "kind")
    assert rows[("妻財", "生象")]["target"] == "官鬼"
    assert rows[("兄弟", "生象")]["target"] == "子孫"
    assert rows[("父母", "克象")]["target"] == "子孫"
    assert rows[("兄弟", "克象")]["target"] == "妻財"
    assert {r["passage"] for r in tables["moving_relative"] if r["kind"] == "生象"} == {"6.5"}
    assert {r["passage"] for r in tables["moving_relative"] if r["kind"] == "克象"} == {"6.6"}


def test_spirit_attributes(tables: Tables) -> None:
    rows = by_key(tables["spirit_attribute"], "spirit")
    assert set(rows) == {(s,) for s in SPIRITS}
    governs = {s: rows[(s,)]["governs"] for s in SPIRITS}
    assert governs == dict(zip(SPIRITS, "生言實虛殺計", strict=True))
    assert rows[("青龍",)]["trait"] == "仁" and rows[("青龍",)]["charge"] == "文事"
    natures = {r["spirit"]: (r["nature"], r["basis"]) for r in tables["spirit_nature"]}
    assert natures["勾陳"] == ("吉", "book") and natures["白虎"] == ("凶", "book")
    # the book never calls 朱雀, 騰蛇 or 玄武 凶: a decision, not the book's word
    assert {s: natures[s] for s in ("朱雀", "騰蛇", "玄武")} == dict.fromkeys(
        ("朱雀", "騰蛇", "玄武"), ("凶", "decision")
    )
    assert "nature" not in rows[("青龍",)]
    assert rows[("朱雀",)]["passage"] == "7.6" and rows[("勾陳",)]["passage"] == "7.3"
    assert "element" not in rows[("青龍",)] and "direction" not in rows[("青龍",)]


def test_spirit_affinities(tables: Tables) -> None:
    rows = by_key(tables["spirit_affinity"], "spirit", "condition")
    assert rows[("青龍", "金爻")]["effect"] == "避"
    assert rows[("白虎", "火爻")]["effect"] == "伏"
    assert rows[("朱雀", "水")]["subduer"] == "玄武"
    assert rows[("玄武", "土")]["subduer"] == "勾陳"
    assert {r["passage"] for r in tables["spirit_affinity"]} == {"7.8"}
    liked = {r["condition"] for r in tables["spirit_preference"] if r["nature"] == "吉"}
    assert liked == {"生", "助", "動", "持世"}


def test_star_meanings(tables: Tables) -> None:
    meanings = {(r["star"], r["meaning"]): r["verdict"] for r in tables["star_meaning"]}
    assert meanings[("鎮星", "安")] == "吉"
    assert meanings[("太白", "兵")] == "凶"
    assert meanings[("熒惑", "文章")] == "吉"
    assert meanings[("太陰", "赦宥")] == "吉"
    assert meanings[("歲星", "萬物")] == "隨"


def test_world_omens(tables: Tables) -> None:
    omens = {r["omen"]: (r["verdict"], r["passage"]) for r in tables["world_omen"]}
    assert omens["隨官入墓"] == ("凶", "8.13")
    assert omens["化進神"] == ("吉", "8.14")
    assert omens["動衝"] == ("變", "8.14")
    assert omens["世克應"] == ("吉", "8.15") and omens["應克世"] == ("凶", "8.15")
    assert omens["應生世"][0] == "吉" and omens["世生應"][0] == "凶"


def test_bodies(tables: Tables) -> None:
    conditions = {
        r["condition"]: r["meaning"] for r in tables["body_condition"] if r["body"] == "世身"
    }
    assert conditions == {"空": "疑", "動": "亂", "破": "敗", "衝": "變", "散": "失"}
    weights = {r["body"]: r["rank"] for r in tables["body_weight"]}
    assert weights == {"世爻": 1, "卦身": 2, "世身": 3}


def test_matters(tables: Tables) -> None:
    prefs = {(r["matter"], r["attitude"], r["item"]) for r in tables["matter_preference"]}
    assert {("功名", "want", i) for i in ("父母", "官鬼", "青龍", "朱雀", "貴人")} <= prefs
    assert {("功名", "fear", "子孫"), ("功名", "fear", "勾陳")} <= prefs
    assert {("財利", "fear", i) for i in ("官鬼", "兄弟", "白虎")} <= prefs
    assert ("獄訟", "want", "子孫") in prefs and ("憂患", "relief", "空") in prefs
    kinds = {r["item"]: r["item_kind"] for r in tables["matter_preference"]}
    assert kinds["貴人"] == "general" and kinds["白虎"] == "spirit" and kinds["空"] == "condition"
    assert {("財利", "want", "天財"), ("財利", "want", "地財")} <= prefs  # §9.5 天地財
    assert kinds["天財"] == kinds["地財"] == "shensha"


def test_between_lines(tables: Tables) -> None:
    rows = by_key(tables["between_use"], "use", "domain")
    assert rows[("obstacle", "舉動")]["role"] == "阻滯"
    assert rows[("helper", "婚姻")]["role"] == "媒妁"
    assert rows[("helper", "胎產")]["role"] == "收保"
    worries = [r for r in tables["between_use"] if r["use"] == "worry"]
    assert worries and {r["passage"] for r in worries} == {"10.4"}


def test_line_roles(tables: Tables) -> None:
    roles = {(r["position"], r["role"]) for r in tables["line_role"]}
    assert (5, "君") in roles and (2, "臣") in roles
    assert (1, "地") in roles and (6, "天") in roles
    assert {(3, "門戶"), (4, "門戶"), (4, "左鄰"), (1, "右鄰")} <= roles
    assert all(isinstance(r["position"], int) for r in tables["line_role"])
    # §10.5 with §2.3: 重 (the moving 9) shows 現, 交 (the moving 6) hides 隱; still lines
    # have no aspect
    assert {r["value"]: r["aspect"] for r in tables["line_aspect"]} == {9: "現", 6: "隱"}


# --- no text of the book ---------------------------------------------------------------


@pytest.mark.parametrize("name", SYMBOL_TSVS + NAME_TSVS)
def test_no_long_runs_of_chinese(name: str) -> None:
    text = (seed_dir() / "data" / f"{name}.tsv").read_text(encoding="utf-8")
    assert CJK_RUN.findall(text) == []


# --- simplified.tsv ----------------------------------------------------------------------


def _vocabulary_characters() -> set[str]:
    f = facts()
    words: list[str] = [
        *(name for _, name, _ in f.hexagram_names),
        *(short for _, _, short in f.hexagram_names),
        *f.trigrams,
        *(t.image for t in f.trigrams.values()),
        *f.elements,
        *f.stems,
        *f.branches,
        *f.nayin_names,
        *f.generations,
        *f.relatives,
        *f.stars,
        *f.mansions,
        *SPIRITS,
        *GENERALS,
        *STAGES,
        *"旺相休囚死",
        *"東南西北",
        "中央",
        *"立春 雨水 驚蟄 春分 清明 穀雨 立夏 小滿 芒種 夏至 小暑 大暑".split(),
        *"立秋 處暑 白露 秋分 寒露 霜降 立冬 小雪 大雪 冬至 小寒 大寒".split(),
    ]
    return {c for word in words for c in word}


def test_simplified_rows_differ_and_are_unambiguous() -> None:
    rows = read_tsv("simplified")
    assert all(len(r["traditional"]) == 1 and len(r["simplified"]) == 1 for r in rows)
    assert all(r["traditional"] != r["simplified"] for r in rows)
    assert len({r["traditional"] for r in rows}) == len(rows)
    assert len({r["simplified"] for r in rows}) == len(rows)
    table = {r["traditional"]: r["simplified"] for r in rows}
    assert "乾" not in table  # 乾為天 stays 乾 (乾为天), never 干
    assert table["遯"] == "遁" and table["為"] == "为" and table["龍"] == "龙"
    # a simplified form never collides with a traditional vocabulary character
    assert not set(table.values()) & _vocabulary_characters()


def test_simplified_covers_the_vocabularies() -> None:
    opencc = pytest.importorskip("opencc")
    convert = opencc.OpenCC("t2s").convert
    table = {r["traditional"]: r["simplified"] for r in read_tsv("simplified")}
    overrides = {"乾": "乾", "遯": "遁"}
    for char in _vocabulary_characters():
        expected = overrides.get(char, convert(char))
        assert table.get(char, char) == expected, char


def test_simplified_hexagram_names() -> None:
    table = {r["traditional"]: r["simplified"] for r in read_tsv("simplified")}

    def simplify(text: str) -> str:
        return "".join(table.get(c, c) for c in text)

    names = {name: simplify(name) for _, name, _ in facts().hexagram_names}
    assert names["乾為天"] == "乾为天"
    assert names["天山遯"] == "天山遁"
    assert names["雷風恆"] == "雷风恒"
    assert names["天雷無妄"] == "天雷无妄"
    assert names["水火既濟"] == "水火既济"
    assert names["雷火豐"] == "雷火丰"


# --- variants.tsv ------------------------------------------------------------------------


def test_variants_name_real_canonicals() -> None:
    f = facts()
    vocab: dict[str, set[str]] = {
        "hexagram": {n for _, n, _ in f.hexagram_names} | {s for _, _, s in f.hexagram_names},
        "branch": set(f.branches),
        "mansion": set(f.mansions),
        "spirit": set(SPIRITS),
        "general": set(GENERALS),
        "star": set(f.stars),
        "sign": {s.name for s in SIGNS},
    }
    rows = read_tsv("variants")
    for r in rows:
        assert r["variant"] != r["canonical"]
        assert r["canonical"] in vocab[r["kind"]], r
        assert r["variant"] not in vocab[r["kind"]], r
        assert r["note"]
    pairs = {(r["kind"], r["variant"], r["canonical"]) for r in rows}
    assert {
        ("branch", "醜", "丑"),
        ("mansion", "鬥", "斗"),
        ("mansion", "翌", "翼"),
        ("spirit", "元武", "玄武"),
        ("general", "元武", "玄武"),
        ("general", "空亡", "天空"),
        ("spirit", "螣蛇", "騰蛇"),
        ("hexagram", "遁", "遯"),
        ("hexagram", "天山遁", "天山遯"),
        ("hexagram", "雷風恒", "雷風恆"),
        ("hexagram", "无妄", "無妄"),
    } <= pairs


def test_seed_variants_occur_in_the_seed() -> None:
    seed_texts = (Path(__file__).resolve().parents[2] / "shared" / "seed").glob("*.txt")
    book = "".join(p.read_text(encoding="utf-8") for p in seed_texts)
    if not book:
        pytest.skip("the seed text is not beside this checkout")
    for variant in ("醜", "鬥", "翌", "元武", "空亡", "遁"):
        assert variant in book


# --- labels.tsv --------------------------------------------------------------------------


def read_tsv_names(name: str) -> list[str]:
    return [r["name"] for r in read_tsv(name)]


def test_labels_cover_the_vocabularies() -> None:
    f = facts()
    rows = read_tsv("labels")
    names: dict[str, list[str]] = {}
    for r in rows:
        names.setdefault(r["kind"], []).append(r["name"])
        assert r["pinyin"] and r["english"], r
        assert len(r["pinyin"].split()) == len(r["name"]), r
    assert names["hexagram"] == [name for _, name, _ in f.hexagram_names]
    assert names["element"] == list(f.elements)
    assert names["stem"] == list(f.stems)
    assert names["branch"] == list(f.branches)
    assert sorted(names["trigram"]) == sorted(f.trigrams)
    assert sorted(names["relative"]) == sorted(f.relatives)
    assert names["spirit"] == list(SPIRITS)
    assert names["general"] == list(GENERALS)
    assert sorted(names["star"]) == sorted(f.stars)
    assert names["mansion"] == list(f.mansions)
    assert sorted(set(names["matter"])) == sorted(read_tsv_names("matter"))
    assert len(rows) == 64 + 5 + 10 + 12 + 8 + 5 + 6 + 12 + 5 + 28 + 6  # two matters twice


def test_label_values() -> None:
    labels = {(r["kind"], r["name"]): (r["pinyin"], r["english"]) for r in read_tsv("labels")}
    assert labels[("hexagram", "乾為天")] == ("qián wéi tiān", "The Creative")
    assert labels[("hexagram", "天風姤")] == ("tiān fēng gòu", "Coming to Meet")
    assert labels[("hexagram", "天地否")][0] == "tiān dì pǐ"
    assert labels[("hexagram", "水雷屯")][0] == "shuǐ léi zhūn"
    assert labels[("hexagram", "山火賁")][0] == "shān huǒ bì"
    assert labels[("hexagram", "雷天大壯")][0] == "léi tiān dà zhuàng"
    assert labels[("hexagram", "風天小畜")][0] == "fēng tiān xiǎo xù"
    assert labels[("mansion", "參")] == ("shēn", "Three Stars")
    assert labels[("trigram", "艮")] == ("gèn", "Mountain")
    assert labels[("star", "太陰")] == ("tài yīn", "Mercury (water star)")
    assert labels[("stem", "甲")][1] == "Stem 1 (yang wood)"
    assert labels[("branch", "子")] == ("zǐ", "Rat")
    assert labels[("relative", "官鬼")][1] == "Officer/Ghost"
    assert labels[("spirit", "勾陳")][1] == "Hook Array"
    englishes = [e for (kind, _), (_, e) in labels.items() if kind == "hexagram"]
    assert len(set(englishes)) == 64
