"""What kind of question a reading asks (yimao_db.kb.rules.questions): between two parties
(§8.15) and what its between lines stand for (§10.2–10.3), as rules and as their tables."""

from __future__ import annotations

from sqlalchemy import text

from yimao_db.db import reader_engine
from yimao_db.kb.rules import matters, questions, use


def test_two_parties_is_a_lawsuit_or_a_subject_of_the_world_or_the_response() -> None:
    assert questions.two_parties("獄訟", None)
    assert questions.two_parties("獄訟", "官鬼")  # a lawsuit whoever is asked about
    assert questions.two_parties(None, "應") and questions.two_parties("財利", "世")
    assert not questions.two_parties(None, None)
    assert not questions.two_parties("財利", "妻財")
    assert not questions.two_parties("憂患", None)


def test_only_a_lawsuits_between_lines_are_helpers() -> None:
    assert questions.between_use("獄訟") == questions.HELPER
    for matter in (None, "功名", "財利", "憂患"):
        assert questions.between_use(matter) == questions.OBSTACLE


def test_the_tables_are_total_over_what_a_reading_can_store(built_db: str) -> None:
    with reader_engine(built_db).connect() as conn:
        parties = {
            (m, a): two
            for m, a, two in conn.execute(
                text("SELECT matter, about, two_parties FROM question_parties")
            )
        }
        between = {
            m: d for m, d in conn.execute(text("SELECT matter, domain FROM question_between"))
        }
    all_matters = ("", *matters.matters())
    subjects = ("", *(s.name for s in use.subjects()))
    assert set(parties) == {(m, a) for m in all_matters for a in subjects}
    assert {k for k, v in parties.items() if v} == {
        *(("獄訟", a) for a in subjects),
        *((m, a) for m in all_matters for a in ("世", "應")),
    }
    assert between == {"": None, "功名": None, "財利": None, "獄訟": "詞訟", "憂患": None}
