"""用神 (#19): subjects, the choice rule, v_reading_use_candidate and v_reading_use against
the oracle (:mod:`yimao_db.kb.expected.use`), the worked examples of docs/use.md, `--about`,
`yimao about` and the import column."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from helpers import reading_view
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, text
from test_readings_props import BRANCHES, SIXTY, typed_as_declared

from yimao_db.db import writer_engine
from yimao_db.errors import UsageError
from yimao_db.kb import derived
from yimao_db.kb.expected.chart import expected_chart
from yimao_db.kb.rules import spirits, use
from yimao_db.readings import cast, chart

SUBJECTS = tuple(s.name for s in use.subjects())


@pytest.fixture(scope="module")
def engine(module_db: str) -> Iterator[Engine]:
    eng = writer_engine(module_db)
    yield eng
    eng.dispose()


def rows(engine: Engine, view: str, rid: int, order: str) -> list[dict[str, Any]]:
    return reading_view(
        engine, f"SELECT * FROM {view} WHERE reading_id = :id ORDER BY {order}", rid
    )


def use_rows(engine: Engine, rid: int) -> list[dict[str, Any]]:
    return rows(engine, "v_reading_use", rid, "role_ordinal")


def check_use(engine: Engine, rid: int, values: str) -> None:
    """The two views equal the oracle for stored reading ``rid``."""
    c = chart(rid, db=engine)
    with engine.connect() as conn:
        about = conn.execute(text("SELECT about FROM reading WHERE id = :id"), {"id": rid}).scalar()
    want = expected_chart(
        values,
        day_gz=c.day_gz,
        month_branch=c.month_branch,
        hour_gz=c.hour_gz,
        najia_variant=c.najia_variant,
        half_year=c.half_year,
        year_gz=c.year_gz,
        matter=c.matter,
        about=about,
        cast_utc=c.cast_utc,
    )
    candidates = rows(engine, "v_reading_use_candidate", rid, "role_ordinal, rank")
    got = [{k: v for k, v in r.items() if k != "reading_id"} for r in candidates]
    assert got == list(want.use_candidates), values
    chosen = use_rows(engine, rid)
    assert [{k: v for k, v in r.items() if k != "reading_id"} for r in chosen] == list(want.use), (
        values
    )
    signs = rows(engine, "v_reading_sign", rid, "sign, position")
    assert sorted(({k: v for k, v in r.items() if k != "reading_id"} for r in signs), key=repr) == (
        sorted(want.signs, key=repr)
    ), values
    typed_as_declared("v_reading_use_candidate", candidates)
    typed_as_declared("v_reading_use", chosen)
    assert len(chosen) == (4 if about else 0)


# instants of casts at a date-time: the moon in the month's dusk mansion (2026-01-25 12:00,
# 丑 month, 奎: 盡善 fires where the 用神 shows on a 奎 line), and an ordinary one
LODGED = ("2026-01-25T12:00", "2026-07-01T10:00")


def test_views_agree_with_the_oracle(engine: Engine) -> None:
    @settings(max_examples=60, deadline=None, database=None)
    @given(
        values=st.text(alphabet="6789", min_size=6, max_size=6),
        day=st.sampled_from(SIXTY),
        month=st.sampled_from(BRANCHES),
        hour=st.sampled_from(BRANCHES),
        about=st.sampled_from(SUBJECTS),
        variant=st.sampled_from(("fixed", "seasonal")),
        at=st.sampled_from(LODGED),
    )
    def run(
        values: str, day: str, month: str, hour: str, about: str, variant: str, at: str
    ) -> None:
        hour_gz = spirits.hour_stem(day[0], hour) + hour
        if variant == "seasonal":
            rid = cast(values, at=at, najia=variant, about=about, db=engine)
        else:
            rid = cast(values, day=day, month=month, hour=hour_gz, about=about, db=engine)
        check_use(engine, rid, values)

    run()


# --- worked examples (docs/use.md) ---------------------------------------------------------

GOU: dict[str, Any] = {"at": "2026-11-30T09:15"}  # 丙午年 己亥月 戊申日 丁巳時, 旬空 寅卯


def brief(r: dict[str, Any]) -> tuple[Any, ...]:
    return (r["role"], r["relative"], r["source"], r["position"], r["ganzhi"])


def test_wealth_is_the_hidden_wife_wealth_under_line_2(engine: Engine) -> None:
    rid = cast("姤之乾", about="wealth", db=engine, **GOU)
    found = use_rows(engine, rid)
    assert [brief(r) for r in found] == [
        ("用神", "妻財", "hidden", 2, "甲寅"),
        ("原神", "子孫", "visible", 2, "辛亥"),
        ("忌神", "兄弟", "visible", 3, "辛酉"),
        ("仇神", "父母", "visible", 1, "辛丑"),
    ]
    u = found[0]
    assert (u["fly_relation"], u["fly_ganzhi"], u["strength"], u["is_void"]) == (
        "飛生伏",
        "辛亥",
        "相",
        1,
    )
    assert u["subject"] == "財" and u["mark"] == "用"
    check_use(engine, rid, "677777")
    with engine.connect() as conn:
        fired = conn.execute(
            text(
                "SELECT sign, position FROM v_reading_sign s JOIN sign g ON g.name = s.sign "
                "WHERE reading_id = :id AND g.subject = '用神' ORDER BY g.ordinal"
            ),
            {"id": rid},
        ).all()
    # the day 申 controls the hidden 甲寅, void; 相 in the 亥 month; the 忌神 辛酉 is not
    # controlled (the day 申 and month 亥 do not control metal)
    assert [tuple(r) for r in fired] == [
        ("用神被克", 2),
        ("用神空", 2),
        ("用神伏藏", 2),
        ("用神旺", 2),
    ]


def test_self_is_the_world_line_and_officer_is_line_4(engine: Engine) -> None:
    rid = cast("姤之乾", about="self", db=engine, **GOU)
    assert [brief(r) for r in use_rows(engine, rid)] == [
        ("用神", "父母", "world", 1, "辛丑"),
        ("原神", "官鬼", "visible", 4, "壬午"),
        ("忌神", "妻財", "hidden", 2, "甲寅"),
        ("仇神", "子孫", "visible", 2, "辛亥"),
    ]
    rid = cast("姤之乾", about="官鬼", db=engine, **GOU)
    assert brief(use_rows(engine, rid)[0]) == ("用神", "官鬼", "visible", 4, "壬午")


def test_two_candidates_the_moving_one_wins(engine: Engine) -> None:
    # 父母 shows twice in 姤 (丑 line 1, moving; 戌 line 6): the moving line is taken
    rid = cast("姤之乾", about="父母", db=engine, **GOU)
    found = rows(engine, "v_reading_use_candidate", rid, "role_ordinal, rank")
    parents = [(r["position"], r["rank"], r["reason"]) for r in found if r["role"] == "用神"]
    assert parents == [(1, 1, None), (6, 2, "still while the chosen line moves")]
    # 兄弟 twice, equal standing (休, still, sound): the lower line, the other "higher"
    rid = cast("姤之乾", about="siblings", db=engine, **GOU)
    found = rows(engine, "v_reading_use_candidate", rid, "role_ordinal, rank")
    brothers = [(r["position"], r["rank"], r["reason"]) for r in found if r["role"] == "用神"]
    assert brothers == [(3, 1, None), (5, 2, "a higher line of the same standing")]


def test_matter_implies_its_subject(engine: Engine) -> None:
    rid = cast("姤之乾", matter="lawsuit", db=engine, **GOU)
    assert use_rows(engine, rid)[0]["source"] == "world"
    rid = cast("姤之乾", matter="wealth", db=engine, **GOU)
    assert use_rows(engine, rid)[0]["relative"] == "妻財"
    rid = cast("姤之乾", matter="wealth", about="other", db=engine, **GOU)
    assert use_rows(engine, rid)[0]["source"] == "response"
    rid = cast("姤之乾", db=engine, **GOU)
    assert use_rows(engine, rid) == []


def test_a_bad_subject_lists_close_names(engine: Engine) -> None:
    with engine.connect() as conn:
        before = conn.execute(text("SELECT COUNT(*) FROM reading")).scalar()
    with pytest.raises(UsageError, match=r"unknown subject 'welth': close names: wealth \(財\)"):
        cast("姤之乾", about="welth", db=engine, **GOU)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM reading")).scalar() == before


def test_set_about_later_is_recorded(engine: Engine) -> None:
    from yimao_db.journaling import set_about

    rid = cast("姤之乾", db=engine, **GOU)
    first = set_about(rid, "wealth", engine)
    assert (first.old, first.new) == (None, "財")
    again = set_about(rid, "財", engine)
    assert again.old == again.new == "財"
    set_about(rid, None, engine)
    with engine.connect() as conn:
        log = conn.execute(
            text("SELECT old, new FROM reading_about_change WHERE reading_id = :id ORDER BY id"),
            {"id": rid},
        ).all()
    assert [tuple(r) for r in log] == [(None, "財"), ("財", None)]


def test_rule_functions() -> None:
    assert [use.chain_relative("官鬼", r) for r in use.ROLES] == ["官鬼", "妻財", "子孫", "兄弟"]
    keys = use.candidate_keys()
    assert len(keys) == 160 and len({use.candidate_rank(k) for k in keys}) == 40
    best = use.CandidateKey(1, 1, 0, "旺", 0, 0)
    assert use.candidate_rank(best) == 1
    assert use.loss_reason(1, use.candidate_rank(use.CandidateKey(1, 0, 1, "旺", 0, 1))) == (
        "void or month-broken while the chosen line is sound"
    )
    assert use.fly_relation("水", "木") == "飛生伏"
    assert use.fly_relation("木", "水") == "伏生飛"
    assert use.fly_relation("金", "木") == "飛克伏"
    assert use.default_subject("獄訟") == "世"


def test_check_recomputes_the_use_and_the_change_log(fresh_db: str) -> None:
    """yimao check holds v_reading_use to the oracle and the change log to reading.about."""
    from yimao_db import check as doctor
    from yimao_db.check.readings import CHART_INPUTS, chart_differences
    from yimao_db.journaling import set_about

    eng = writer_engine(fresh_db)
    try:
        rid = cast("姤之乾", about="siblings", db=eng, **GOU)  # 兄弟 on lines 3 and 5
        set_about(rid, "self", eng)
        set_about(rid, "兄弟", eng)
        assert doctor.check(fresh_db) == []
        with eng.begin() as conn:  # a view that takes the higher of two equal lines
            candidates = (
                conn.execute(
                    text(
                        "SELECT sql FROM sqlite_master "
                        "WHERE name = 'v_reading_use_candidate_computed'"
                    )
                ).scalar()
                if conn.dialect.name == "sqlite"
                else None  # the view's SQL tampered with on SQLite only
            )
            if candidates is not None:
                conn.execute(text("DROP VIEW v_reading_use_candidate_computed"))
                ordered = "ORDER BY a.key_rank, a.position"
                assert candidates.count(ordered) == 1
                conn.execute(text(candidates.replace(ordered, ordered + " DESC")))
                derived.rewrite(conn, rid)  # its derived rows written from it, as a write would
                from sqlalchemy import bindparam

                query = text(CHART_INPUTS).bindparams(bindparam("ids", expanding=True))
                row = conn.execute(query, {"ids": [rid]}).one()
                assert "role 用神: position is 5, the rules give 3" in chart_differences(conn, *row)
            conn.execute(text("UPDATE reading SET about = '妻' WHERE id = :id"), {"id": rid})
        details = [p.detail for p in doctor.check(fresh_db)]
        assert "the last change made the subject '兄弟', the reading has '妻'" in details
    finally:
        eng.dispose()
