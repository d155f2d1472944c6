"""Property tests: random casts at random moments, the views against the rules (§4, §6–§11).

The expected chart is :func:`yimao_db.kb.expected.chart.chart`, computed from the rule functions
alone (the same functions the rule tables are seeded from); ``v_reading``,
``v_reading_line``, ``v_reading_hidden``, ``v_reading_nuclear``, ``v_reading_sign`` and
``v_reading_changed_line`` assemble it by joins, so a wrong join shows up as a difference in
a named column or sign. Every value is also of the kind its column is declared with.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from helpers import reading_view
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from yimao_db.db import writer_engine
from yimao_db.kb.expected.chart import expected_chart
from yimao_db.kb.rules import spirits, use
from yimao_db.kb.rules.ganzhi import sixty
from yimao_db.kb.views import views
from yimao_db.readings import Chart, cast, chart

BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
SIXTY = [g.name for g in sixty()]


@pytest.fixture
def engine(fresh_db: str) -> Iterator[Engine]:
    eng = writer_engine(fresh_db)
    yield eng
    eng.dispose()


MATTERS = ("功名", "財利", "獄訟", "憂患")
SUBJECTS = tuple(s.name for s in use.subjects())
ORDERED = ("v_reading_line", "v_reading_hidden", "v_reading_nuclear", "v_reading_changed_line")
PY_TYPES = {"text": str, "integer": int, "flag": int, "integers": str, "texts": str}


def typed_as_declared(view: str, rows: list[dict[str, Any]]) -> None:
    """Every value is of its column's declared kind, NULL only where the column may be
    (the chart's classes and its JSON Schema are generated from these declarations)."""
    for row in rows:
        assert list(row) == list(views()[view].column_names), view
        for col in views()[view].columns:
            value = row[col.name]
            if value is None:
                assert col.null, f"{view}.{col.name} is NULL, declared not null"
            else:
                assert isinstance(value, PY_TYPES[col.kind]), f"{view}.{col.name}: {value!r}"
                if col.kind == "flag":
                    assert value in (0, 1), f"{view}.{col.name}: {value!r}"
                elif col.kind in ("integers", "texts"):
                    assert value == "" or "" not in str(value).split(","), f"{view}.{col.name}"


def view_rows(engine: Engine, view: str, reading_id: int) -> list[dict[str, Any]]:
    order = " ORDER BY position" if view in ORDERED else ""
    return reading_view(engine, f"SELECT * FROM {view} WHERE reading_id = :id{order}", reading_id)


def check(engine: Engine, values: str, c: Chart) -> None:
    """Every derived value of the stored chart, as the views give it, equals the rules'
    chart of the same inputs; and every column of the views is one the rules give."""
    want = expected_chart(
        values,
        day_gz=c.day_gz,
        month_branch=c.month_branch,
        hour_gz=c.hour_gz,
        najia_variant=c.najia_variant,
        half_year=c.half_year,
        year_gz=c.year_gz,
        matter=c.matter,
        about=c.use[0].subject if c.use else None,  # a matter implies its subject
        cast_utc=c.cast_utc,
    )
    (head,) = view_rows(engine, "v_reading", c.reading_id)
    assert {k: head[k] for k in want.head} == want.head, values
    lines = view_rows(engine, "v_reading_line", c.reading_id)
    assert [{k: r[k] for k in e} for r, e in zip(lines, want.lines, strict=True)] == list(
        want.lines
    ), values
    assert set(lines[0]) == {"reading_id", *want.lines[0]}
    hidden = view_rows(engine, "v_reading_hidden", c.reading_id)
    assert [{k: r[k] for k in e} for r, e in zip(hidden, want.hidden, strict=True)] == list(
        want.hidden
    ), values
    assert len(hidden) == len(want.hidden)
    if hidden:
        assert set(hidden[0]) == {"reading_id", *want.hidden[0]}
    nuclear = view_rows(engine, "v_reading_nuclear", c.reading_id)
    assert [{k: r[k] for k in e} for r, e in zip(nuclear, want.nuclear, strict=True)] == list(
        want.nuclear
    ), values
    assert set(nuclear[0]) == {"reading_id", *want.nuclear[0]}
    signs = view_rows(engine, "v_reading_sign", c.reading_id)
    assert sorted(({k: r[k] for k in r if k != "reading_id"} for r in signs), key=repr) == sorted(
        want.signs, key=repr
    ), values
    changed = view_rows(engine, "v_reading_changed_line", c.reading_id)
    assert [{k: r[k] for k in r if k != "reading_id"} for r in changed] == list(
        want.changed_lines
    ), values
    assert len(changed) in (0, 6) and (len(changed) == 6) == (head["changed_king_wen"] is not None)
    for view, rows in (
        ("v_reading", [head]),
        ("v_reading_line", lines),
        ("v_reading_hidden", hidden),
        ("v_reading_nuclear", nuclear),
        ("v_reading_sign", signs),
        ("v_reading_changed_line", changed),
    ):
        typed_as_declared(view, rows)


def test_random_casts_at_random_pillars(engine: Engine) -> None:
    @settings(max_examples=40, deadline=None, database=None)
    @given(
        values=st.text(alphabet="6789", min_size=6, max_size=6),
        day=st.sampled_from(SIXTY),
        month=st.sampled_from(BRANCHES),
        hour=st.none() | st.sampled_from(BRANCHES),
        matter=st.none() | st.sampled_from(MATTERS),
    )
    def run(values: str, day: str, month: str, hour: str | None, matter: str | None) -> None:
        hour_gz = None if hour is None else spirits.hour_stem(day[0], hour) + hour
        rid = cast(values, day=day, month=month, hour=hour_gz, matter=matter, db=engine)
        c = chart(rid, db=engine)
        assert c.matter == matter
        assert (c.day_gz, c.month_branch, c.hour_gz) == (day, month, hour_gz)
        check(engine, values, c)

    run()


def test_random_casts_at_random_dates(engine: Engine) -> None:
    @settings(max_examples=40, deadline=None, database=None)
    @given(
        values=st.text(alphabet="6789", min_size=6, max_size=6),
        # a little beyond the lodge table (1901-2100, UTC) at both ends: no lodge there
        when=st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2101, 12, 31)),
        variant=st.sampled_from(["fixed", "seasonal"]),
        early_rat=st.booleans(),
        about=st.none() | st.sampled_from(SUBJECTS),
    )
    def run(values: str, when: datetime, variant: str, early_rat: bool, about: str | None) -> None:
        at = when.replace(microsecond=0).isoformat()
        rid = cast(values, at=at, najia=variant, early_rat=early_rat, about=about, db=engine)
        c = chart(rid, db=engine)
        assert c.najia_variant == variant and c.early_rat == int(early_rat)
        check(engine, values, c)

    run()


def test_random_coins(engine: Engine) -> None:
    @settings(max_examples=25, deadline=None, database=None)
    @given(st.lists(st.integers(0, 3), min_size=6, max_size=6))
    def run(backs: list[int]) -> None:
        rid = cast(coins=",".join(map(str, backs)), day="甲子", month="寅", db=engine)
        c = chart(rid, db=engine)
        values = "".join(str(6 + b) for b in backs)
        assert [line.value for line in c.lines] == [int(v) for v in values]
        check(engine, values, c)

    run()
