"""The lodges of the sun and the moon in a reading (§8.12): ``reading.cast_utc``,
``v_reading``'s ``sun_mansion`` and ``moon_mansion``, the signs 日纏 and 月麗 (lodge_sign) and
盡善 (use_lodge_sign), ``yimao check`` on them, and revision 0015 up and down with readings.

The worked instant: 2026-01-25 12:00 in Shanghai (04:00 UTC), a 丑 month whose dusk mansion
昏中 is 奎; the sun is in 牛 and the moon in 奎 (the shipped table, and ephem independently
when it is installed).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

import pytest
from helpers import reading_view
from sqlalchemy import Engine, text

from yimao_db import check as doctor
from yimao_db.building import build, current_revision, head_revision
from yimao_db.calendar.moment import moment_at
from yimao_db.db import writer_engine
from yimao_db.kb.migrating import move
from yimao_db.kb.rules import lodge_table, lodges
from yimao_db.kb.rules.dusk import dusk_mansion
from yimao_db.readings import cast

AT = "2026-01-25T12:00"  # Asia/Shanghai: 乙巳年 己丑月 己亥日 庚午時
AT_UTC = "2026-01-25T04:00:00Z"
PILLARS = "乙巳,己丑,己亥,庚午"  # the same moment given as pillars: no instant, no lodge
LODGE_SIGNS = ("日纏", "月麗", "盡善")


@pytest.fixture(scope="module")
def engine(module_db: str) -> Iterator[Engine]:
    eng = writer_engine(module_db)
    yield eng
    eng.dispose()


SIGNS = "SELECT sign, position FROM v_reading_sign WHERE reading_id = :id"


def head(engine: Engine, rid: int) -> dict[str, Any]:
    with engine.connect() as conn:
        row = conn.execute(
            text(
                "SELECT cast_utc, sun_mansion, moon_mansion, month_branch FROM v_reading "
                "WHERE reading_id = :id"
            ),
            {"id": rid},
        )
        return dict(row.mappings().one())


def lodge_signs(engine: Engine, rid: int) -> list[tuple[str, int | None]]:
    rows = reading_view(
        engine, "SELECT sign, position FROM v_reading_sign WHERE reading_id = :id", rid
    )
    return sorted((r["sign"], r["position"]) for r in rows if r["sign"] in LODGE_SIGNS)


def test_the_worked_instant_by_ephem() -> None:
    """The lodges of the worked instant, computed by ephem itself (not the shipped table)."""
    from yimao_db.calendar import lodges as ephem_lodges

    if not ephem_lodges.available():
        pytest.skip("ephem is not installed")
    seconds = lodges.parse_utc(AT_UTC)
    assert ephem_lodges.lodge_by_ephem(lodges.SUN, seconds) == "牛"
    assert ephem_lodges.lodge_by_ephem(lodges.MOON, seconds) == "奎"
    assert dusk_mansion("丑") == "奎"


def test_cast_stores_the_utc_instant_and_the_view_gives_the_lodges(engine: Engine) -> None:
    assert moment_at(AT, "Asia/Shanghai").cast_utc == AT_UTC
    rid = cast("888888", at=AT, tz="Asia/Shanghai", db=engine)
    assert head(engine, rid) == {
        "cast_utc": AT_UTC,
        "sun_mansion": lodges.lodge_at(lodges.SUN, datetime(2026, 1, 25, 4, tzinfo=UTC)),
        "moon_mansion": lodges.lodge_at(lodges.MOON, datetime(2026, 1, 25, 4, tzinfo=UTC)),
        "month_branch": "丑",
    }
    assert head(engine, rid)["sun_mansion"] == "牛" and head(engine, rid)["moon_mansion"] == "奎"


@pytest.mark.parametrize(
    ("lines", "about", "fired"),
    [
        # 坤: line 6 (酉 子孫) is in 奎, where the moon is: 月麗; about 子孫 its 用神 is line
        # 6, on the month's dusk mansion with the moon on it: 盡善
        ("888888", "子孫", [("月麗", 6), ("盡善", 6)]),
        ("888888", None, [("月麗", 6)]),  # no subject, no 用神
        ("888888", "妻財", [("月麗", 6)]),  # the 用神 (line 1 子) is not in 奎
        # 大有: line 6 is in 牛, where the sun is: 日纏 (and no line of it in 奎)
        ("777787", None, [("日纏", 6)]),
        ("777777", "子孫", []),  # 乾's mansions hold neither body
    ],
)
def test_the_signs_of_the_lodges(
    engine: Engine, lines: str, about: str | None, fired: list[tuple[str, int]]
) -> None:
    rid = cast(lines, at=AT, tz="Asia/Shanghai", about=about, db=engine)
    assert lodge_signs(engine, rid) == sorted(fired)


def test_pillars_and_instants_outside_the_table_have_no_lodge(engine: Engine) -> None:
    given = cast("888888", pillars=PILLARS, about="子孫", db=engine)
    assert head(engine, given) == {
        "cast_utc": None,
        "sun_mansion": None,
        "moon_mansion": None,
        "month_branch": "丑",
    }
    assert lodge_signs(engine, given) == []
    for at, utc in (  # before 1901 Shanghai's clock is read as +08:00 (docs/rules.md)
        ("1800-01-25T12:00", "1800-01-25T04:00:00Z"),
        ("2150-01-25T12:00", "2150-01-25T04:00:00Z"),
    ):
        rid = cast("888888", at=at, tz="Asia/Shanghai", about="子孫", db=engine)
        assert head(engine, rid)["cast_utc"] == utc
        assert head(engine, rid)["sun_mansion"] is head(engine, rid)["moon_mansion"] is None
        assert lodge_signs(engine, rid) == []


def test_the_text_chart_prints_the_lodges_beside_the_pillars(engine: Engine) -> None:
    """The header's pillar line ends with 日纏 and 月麗 when the view gives them, and says
    nothing of them for a reading given as pillars."""
    from yimao_db.present.chart import header
    from yimao_db.readings import chart

    dated = header(chart(cast("888888", at=AT, tz="Asia/Shanghai", db=engine), engine))
    assert dated[1] == "乙巳年 己丑月 己亥日 庚午時 · 旬空 辰巳 · 月建 丑 · 日纏 牛 · 月麗 奎"
    pillars = header(chart(cast("888888", pillars="乙巳,己丑,己亥,庚午", db=engine), engine))
    assert pillars[1] == "乙巳年 己丑月 己亥日 庚午時 · 旬空 辰巳 · 月建 丑"


def test_the_last_stay_of_the_table_ends_it(engine: Engine) -> None:
    """An instant after the table's last ingress has no lodge, though a row starts before it:
    the stay must still last (ends_at)."""
    after = lodges.parse_utc(lodge_table.AFTER[lodges.MOON])
    late = datetime.fromordinal(after // lodges.DAY).replace(tzinfo=UTC) + timedelta(days=3)
    rid = cast("888888", at=late.isoformat(), db=engine)
    assert head(engine, rid)["moon_mansion"] is None


def test_the_sun_is_never_in_the_months_dusk_mansion() -> None:
    """docs/rules.md: with the month table of dusk mansions the sun is never in the month's
    昏中 lodge (it sets at dusk, a quarter of the sky west of the culminating lodge), so 盡善
    comes from the moon. Every stay of the sun in 1901-2100: the months at its start, middle
    and end (a stay is shorter than two months, so these hold every month it overlaps)."""
    checked = 0
    for year in range(lodges.FIRST_YEAR, lodges.LAST_YEAR + 1):
        for ingress, following in _stays(year):
            for seconds in (ingress.seconds, (ingress.seconds + following) // 2, following - 1):
                at = datetime.fromordinal(seconds // lodges.DAY).replace(tzinfo=UTC) + timedelta(
                    seconds=seconds % lodges.DAY
                )
                assert dusk_mansion(moment_at(at).month_branch) != ingress.mansion, at
                checked += 1
    assert checked == 3 * (5599 - 1)


def _stays(year: int) -> Iterator[tuple[lodges.Ingress, int]]:
    """The sun's ingresses of ``year`` with the instant each stay ends (the last one of 2100
    is left out: it ends after the table)."""
    found = lodges.ingresses(lodges.SUN, year)
    nxt = lodges.ingresses(lodges.SUN, year + 1)[:1] if year < lodges.LAST_YEAR else []
    chained = [*found, *nxt]
    yield from ((a, b.seconds) for a, b in pairwise(chained))


def test_check_finds_a_wrong_cast_utc(fresh_db: str) -> None:
    engine = writer_engine(fresh_db)
    try:
        rid = cast("888888", at=AT, tz="Asia/Shanghai", about="子孫", db=engine)
        given = cast("888888", pillars=PILLARS, db=engine)
        assert doctor.check(engine) == []
        with engine.begin() as conn:
            conn.execute(
                text("UPDATE reading SET cast_utc = '2026-01-25T05:00:00Z' WHERE id = :id"),
                {"id": rid},
            )
            conn.execute(
                text("UPDATE reading SET cast_utc = :utc WHERE id = :id"),
                {"utc": AT_UTC, "id": given},
            )
        found = [str(p) for p in doctor.check(engine)]
    finally:
        engine.dispose()
    assert any(
        f"id={rid}" in p
        and "cast_utc is '2026-01-25T05:00:00Z', the calendar gives '2026-01-25T04:00:00Z'" in p
        for p in found
    ), found
    assert any(
        f"id={given}" in p and f"cast_utc is '{AT_UTC}', but a reading given as pillars" in p
        for p in found
    ), found


def test_check_recomputes_the_lodge_signs(fresh_db: str) -> None:
    """A row of lodge_sign taken away: the seeded-table check names it, and the comparison
    of the stored signs with their definition names the reading whose 月麗 and 盡善 the
    definition no longer gives; with those stored signs gone too, the signs'
    recomputation names them."""
    engine = writer_engine(fresh_db)
    try:
        rid = cast("888888", at=AT, tz="Asia/Shanghai", about="子孫", db=engine)
        assert doctor.check(engine) == []
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM lodge_sign WHERE body = '月' AND mansion = '奎'"))
        found = [str(p) for p in doctor.check(engine)]
        assert any("lodge_sign" in p and "row missing" in p for p in found), found
        assert any(
            f"reading_sign reading_id={rid}: rows stored that the definition does not give" in p
            for p in found
        ), found
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM reading_sign WHERE sign IN ('月麗', '盡善')"))
        found = [str(p) for p in doctor.check(engine)]
    finally:
        engine.dispose()
    for sign in ("月麗", "盡善"):
        assert any(
            f"reading_id={rid}" in p
            and f"sign {sign} on line 6: the rules give it, the view does not" in p
            for p in found
        ), found


def _migrate(db: str, target: str, up: bool) -> None:
    engine = writer_engine(db, building=True)
    try:
        with engine.begin() as conn:
            move(conn, target, down=not up)
    finally:
        engine.dispose()


def test_0015_down_and_up_keeps_readings_and_computes_cast_utc(fresh_db: str) -> None:
    """Downgrading 0015 drops cast_utc, the signs' tables and the view columns (nothing a
    person stored); upgrading computes cast_utc again from cast_at for the readings stored
    meanwhile, and the charts come back whole."""
    engine = writer_engine(fresh_db)
    try:
        ids = [
            cast("888888", at=AT, tz="Asia/Shanghai", about="子孫", db=engine),
            cast("777787", at="1988-07-01T12:00", tz="Asia/Shanghai", db=engine),
            cast("888888", pillars=PILLARS, db=engine),
        ]
        with engine.connect() as conn:
            before = conn.execute(text("SELECT id, cast_utc FROM reading ORDER BY id")).all()
        signs_before = {i: lodge_signs(engine, i) for i in ids}
    finally:
        engine.dispose()
    assert [utc for _, utc in before] == [AT_UTC, "1988-07-01T03:00:00Z", None]
    assert signs_before[ids[0]] == [("月麗", 6), ("盡善", 6)]

    _migrate(fresh_db, "0014", up=False)
    engine = writer_engine(fresh_db)
    try:
        with engine.connect() as conn:
            assert current_revision(conn) == "0014"
            columns = conn.execute(text("SELECT * FROM reading WHERE 1 = 0")).keys()
            assert "cast_utc" not in columns
            assert conn.execute(text("SELECT COUNT(*) FROM reading")).scalar() == 3
        # a reading stored at 0014, without cast_utc
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO reading (id, created_at, method, cast_input, cast_at, tz, "
                    "year_gz, month_gz, month_branch, day_gz, hour_gz, solar_term, half_year, "
                    "early_rat, najia_variant, primary_kw, changed_kw, moving_mask, najia_half) "
                    "SELECT 99, created_at, method, cast_input, cast_at, tz, year_gz, month_gz, "
                    "month_branch, day_gz, hour_gz, solar_term, half_year, early_rat, "
                    "najia_variant, primary_kw, changed_kw, moving_mask, najia_half "
                    "FROM reading WHERE id = :id"
                ),
                {"id": ids[0]},
            )
            conn.execute(
                text(
                    "INSERT INTO reading_line (reading_id, position, value, coins) "
                    "SELECT 99, position, value, coins FROM reading_line WHERE reading_id = :id"
                ),
                {"id": ids[0]},
            )
    finally:
        engine.dispose()

    build(fresh_db)  # upgrades to the head and seeds the new tables
    engine = writer_engine(fresh_db)
    try:
        with engine.connect() as conn:
            assert current_revision(conn) == head_revision()
            after = conn.execute(text("SELECT id, cast_utc FROM reading ORDER BY id")).all()
        assert after == [*before, (99, AT_UTC)]
        assert {i: lodge_signs(engine, i) for i in ids} == signs_before
        assert head(engine, 99)["moon_mansion"] == "奎"
        assert doctor.check(engine) == []
    finally:
        engine.dispose()


def test_every_still_hexagram_at_the_worked_instant_agrees_with_the_oracle(engine: Engine) -> None:
    """The view against the oracle for the 64 still hexagrams at the worked instant, asking
    about a relative (子孫), the asker (世: the 用神 is the world line) and the other party
    (應): 盡善 fires where the 用神's line is in 奎 (the moon's lodge and the 丑 month's 昏中),
    whatever place it holds."""
    from itertools import product

    from yimao_db.kb.expected.chart import expected_chart

    m = moment_at(AT, "Asia/Shanghai")
    fired: dict[str, int] = {}
    for bits, about in product(map("".join, product("78", repeat=6)), ("子孫", "世", "應")):
        rid = cast(bits, at=AT, tz="Asia/Shanghai", about=about, db=engine)
        want = expected_chart(
            bits,
            day_gz=m.day_gz,
            month_branch=m.month_branch,
            hour_gz=m.hour_gz,
            year_gz=m.year_gz,
            about=about,
            cast_utc=m.cast_utc,
        )
        expected = sorted(
            (s["sign"], s["position"]) for s in want.signs if s["sign"] in LODGE_SIGNS
        )
        assert lodge_signs(engine, rid) == expected, (bits, about)
        for sign, _ in expected:
            fired[f"{sign} {about}"] = fired.get(f"{sign} {about}", 0) + 1
    assert {"盡善 子孫", "盡善 世", "盡善 應", "日纏 子孫", "月麗 子孫"} <= set(fired), fired
