"""The sign tables in the database: their SQL invariants catch damage, every passage is
accounted for, the data fixes hold, the oracle check of stored readings, the matter asked
about on the command line and in imports, and the generated catalogue of docs/signs.md."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import run
from sqlalchemy import Connection, Engine, text

from yimao_db import check as doctor
from yimao_db.check.signs import sign_problems
from yimao_db.db import writer_engine
from yimao_db.importing import import_file
from yimao_db.kb import derived, invariants
from yimao_db.kb.rules.signs import SIGNS
from yimao_db.kb.schema.sources import MAX_THEORY
from yimao_db.present.sign_doc import with_catalogue
from yimao_db.readings import cast, chart

ROOT = Path(__file__).resolve().parents[1]
PILLARS = "甲辰,丙寅,戊戌,庚申"


@pytest.fixture
def engine(fresh_db: str) -> Iterator[Engine]:
    eng = writer_engine(fresh_db)
    yield eng
    eng.dispose()


def count_readings(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT COUNT(*) FROM reading")).scalar_one())


# --- the invariants catch damage ---------------------------------------------------------------

DAMAGE = [
    ("DELETE FROM line_sign WHERE sign = '世空'", "every sign can fire"),
    ("UPDATE line_sign SET passage = '8.13' WHERE sign = '世空'", "cite its passage"),
    ("UPDATE line_place SET position = 2 WHERE place = '世' AND king_wen = 1", "line places"),
    ("DELETE FROM line_place WHERE place = '間' AND king_wen = 2 AND position = 4", "two between"),
    ("UPDATE source_passage SET coverage = 'theory', note = 'x' WHERE id = '8.14'", "encoded"),
]


@pytest.mark.parametrize(("damage", "name"), DAMAGE, ids=[n for _, n in DAMAGE])
def test_an_invariant_catches_damage(engine: Engine, damage: str, name: str) -> None:
    with engine.connect() as conn:
        trans = conn.begin()
        try:
            assert invariants.violations(conn) == []
            conn.execute(text(damage))
            failed = [inv for inv, _ in invariants.violations(conn)]
            assert any(name in inv for inv in failed), failed
        finally:
            trans.rollback()


# what a rule decides is no SQL invariant: yimao check recomputes the table from the rule
# (the property tests hold the views to the same rules: tests/test_readings_props.py)
RULE_DAMAGE = [
    (  # §10.5: the line behind the 世身 (once "line places agree with the hexagram")
        "UPDATE line_place SET position = 2 WHERE place = '身後' AND king_wen = 1",
        ["data: line_place king_wen=1 position=2 place=身後: extra row (the rules give none)"],
    ),
    (  # §8.7: 獨發 (once "a line moves alone exactly when its mask has one moving line")
        "UPDATE mask_line SET is_sole = 1 WHERE mask = 3 AND position = 1",
        ["data: mask_line mask=3 position=1: column is_sole is 1, the rules give 0"],
    ),
    (  # the day's bearing (once "the bearing of a branch agrees with the branch relations")
        "UPDATE branch_bearing SET clashes = 0 WHERE actor = '子' AND branch = '午'",
        ["data: branch_bearing actor=子 branch=午: column clashes is 0, the rules give 1"],
    ),
]


def test_yimao_check_catches_what_the_rules_decide(engine: Engine, fresh_db: str) -> None:
    with engine.begin() as conn:
        for damage, _ in RULE_DAMAGE:
            conn.execute(text(damage))
        assert invariants.violations(conn) == []  # no SQL restates these rules
    found = {str(p) for p in doctor.check(fresh_db)}
    for _, said in RULE_DAMAGE:
        assert set(said) <= found, (said, sorted(found)[:10])


# --- every passage accounted for ---------------------------------------------------------------


def test_every_passage_is_encoded_or_theory_with_a_note(conn: Connection) -> None:
    rows = conn.execute(
        text(
            "SELECT p.id, p.coverage, p.note, "
            "(SELECT COUNT(*) FROM passage_citation c WHERE c.passage = p.id) AS cited "
            "FROM source_passage p"
        )
    ).all()
    assert len(rows) == 77
    theory = [r for r in rows if r.coverage == "theory"]
    assert 0 < len(theory) <= MAX_THEORY == 10
    assert all(r.note and len(r.note) > 20 and r.cited == 0 for r in theory)
    assert all(r.cited > 0 for r in rows if r.coverage == "encoded")
    # the passages once cited by no row are encoded now
    encoded = {r.id for r in rows if r.coverage == "encoded"}
    assert {
        "2.2",
        "2.4",
        "4.2",
        "4.4",
        "4.6",
        "5.4",
        "7.11",
        "7.12",
        "8.7",
        "8.2",
        "8.4",
    } <= encoded


def test_the_seed_refuses_a_passage_left_unaccounted() -> None:
    from yimao_db.kb.seeding import seed_scripts

    citations = next(s for s in seed_scripts() if s.__name__.endswith("s97_citations"))
    passages = [
        {"id": "1.1", "coverage": "encoded", "note": None},
        {"id": "1.3", "coverage": "theory", "note": None},
        {"id": "8.14", "coverage": "theory", "note": "a note"},
    ]
    found = citations.coverage_problems(passages, [{"passage": "8.14"}])
    assert found == [
        "§1.1 is marked encoded but no row cites it",
        "§1.3 is theory without a note",
        "§8.14 is marked theory but rows cite it",
    ]
    many = [{"id": f"3.{i}", "coverage": "theory", "note": "n"} for i in range(11)]
    assert citations.coverage_problems(many, [])[-1].startswith("11 theory passages, at most 10")


# --- the data fixes ------------------------------------------------------------------------------


def test_the_data_fixes(conn: Connection) -> None:
    def rows(sql: str) -> list[tuple[object, ...]]:
        return [tuple(r) for r in conn.execute(text(sql))]

    # 現/隱 keyed on the moving values 9 and 6 (§10.5 with §2.3), not on yang and yin
    assert rows("SELECT value, aspect FROM line_aspect ORDER BY value") == [(6, "隱"), (9, "現")]
    # 朱雀 (and 騰蛇, 玄武) 凶 is a decision, not the book's word
    assert rows("SELECT nature, basis FROM spirit_nature WHERE spirit = '朱雀'") == [
        ("凶", "decision")
    ]
    assert "nature" not in {
        r[0]
        for r in rows("SELECT column_name FROM meta_column WHERE table_name = 'spirit_attribute'")
    }
    # 合 is cited where the book uses it (§8.13), not §1.7
    assert rows("SELECT DISTINCT passage FROM branch_relation WHERE relation = '六合'") == [
        ("8.13",)
    ]
    # stems follow the branches (§5.6); the branches' elements are §5.5
    assert rows(
        "SELECT table_name, passage FROM meta_column WHERE column_name = 'element' "
        "AND table_name IN ('stem', 'branch') ORDER BY table_name"
    ) == [("branch", "5.5"), ("stem", "5.6")]


# --- the oracle on stored readings -------------------------------------------------------------


def test_sign_problems_agrees_on_sound_readings_and_names_a_damaged_table(
    engine: Engine, fresh_db: str
) -> None:
    ids = [
        cast("777777", day="甲子", month="寅", db=engine),
        cast("789678", pillars=PILLARS, matter="worry", db=engine),
    ]
    with engine.connect() as conn:
        assert sign_problems(conn) == [] and sign_problems(conn, ids[:1]) == []
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM line_sign WHERE sign = '世空'"))
    with engine.connect() as conn:
        # the view reads the stored signs: the definition no longer gives what they hold
        assert [(d.table, rid) for d, rid, _ in derived.differences(conn, [(1, 10)])] == [
            ("reading_sign", ids[0])
        ]
        conn.execute(text("DELETE FROM reading_sign WHERE sign = '世空'"))
        found = [str(p) for p in sign_problems(conn)]
    assert found == [
        f"reading: v_reading_sign reading_id={ids[0]}: sign 世空 on line 6: the rules give it, "
        "the view does not"
    ]
    assert any("line_sign" in str(p) and "row missing" in str(p) for p in doctor.check(fresh_db))


# --- the matter asked about ----------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["wealth", "財利", "财利", "cái lì", "cai li", " Wealth "])
def test_a_matter_in_any_spelling(engine: Engine, typed: str) -> None:
    assert (
        chart(cast("789678", pillars=PILLARS, matter=typed, db=engine), db=engine).matter == "財利"
    )


def test_cast_with_a_matter(capsys: pytest.CaptureFixture[str], fresh_db: str) -> None:
    code, out, err = run(capsys, "cast", "789678", "--pillars", PILLARS, "--matter", "wealth",
                         "--json", "--db", fresh_db)  # fmt: skip
    data = json.loads(out)
    assert (code, err, data["matter"]) == (0, "", "財利")
    assert {(s["sign"], s["position"]) for s in data["signs"]} >= {("世身得喜", 6), ("世身逢忌", 6)}


@pytest.mark.parametrize("bad", ["bogus", "", "功", "office,wealth"])
def test_a_bad_matter_writes_nothing(
    capsys: pytest.CaptureFixture[str], fresh_db: str, engine: Engine, bad: str
) -> None:
    code, out, err = run(capsys, "cast", "789678", "--pillars", PILLARS, "--matter", bad,
                         "--db", fresh_db)  # fmt: skip
    assert (code, out) == (2, "") and err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err and count_readings(engine) == 0


def test_import_with_a_matter_column(tmp_path: Path, engine: Engine) -> None:
    csv = tmp_path / "r.csv"
    csv.write_text(
        "lines,at,matter\n789678,2026-01-01T10:00,office\n777777,2026-01-01T11:00,\n",
        encoding="utf-8",
    )
    ids = import_file(csv, engine)
    assert [chart(i, db=engine).matter for i in ids] == ["功名", None]


@pytest.mark.parametrize(
    ("row", "error"),
    [
        ('{"lines": "789678", "matter": 3}', "row 2: the matter must be text"),
        ('{"lines": "789678", "matter": "love"}', "row 2: unknown matter 'love'"),
    ],
)
def test_import_refuses_a_bad_matter_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fresh_db: str, engine: Engine, row: str,
    error: str,
) -> None:  # fmt: skip
    path = tmp_path / "r.jsonl"
    path.write_text('{"lines": "777777", "matter": "worry"}\n' + row + "\n", encoding="utf-8")
    code, out, err = run(capsys, "import", str(path), "--db", fresh_db)
    assert (code, out) == (2, "") and err.startswith(f"error: {error}")
    assert count_readings(engine) == 0


# --- docs/signs.md --------------------------------------------------------------------------------


def test_docs_signs_md_lists_every_sign_as_the_rules_give_it() -> None:
    text_ = (ROOT / "docs" / "signs.md").read_text(encoding="utf-8")
    assert text_ == with_catalogue(text_), "run `python -m yimao_db.present.generate`"
    for s in SIGNS:
        polarity = f"{s.polarity}, cancels {s.cancels}" if s.cancels else s.polarity
        assert f"\n| {s.name} | {s.subject} | {polarity} | {s.weight} |" in text_, s.name
