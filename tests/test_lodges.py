"""The lodges of the sun and the moon (§8.12: 日纏, 月麗): the determinative stars, the
shipped table and its reader, the generator (with ephem), the seed, and ``yimao check``."""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from itertools import pairwise
from typing import Any

import pytest
from helpers import seed_script, seeded
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from yimao_db import check as doctor
from yimao_db.calendar.solarterms import term_instants
from yimao_db.kb.facts import facts, lodge_stars
from yimao_db.kb.rules import lodge_table, lodges
from yimao_db.kb.schema import metadata

BEIJING = timezone(timedelta(hours=8))
H8 = 8 * 3600

STANDARD = {  # mansion: (determinative star, Hipparcos number)
    "角": ("α Vir", 65474),
    "亢": ("κ Vir", 69427),
    "氐": ("α2 Lib", 72622),
    "房": ("π Sco", 78265),
    "心": ("σ Sco", 80112),
    "尾": ("μ1 Sco", 82514),
    "箕": ("γ2 Sgr", 88635),
    "斗": ("φ Sgr", 92041),
    "牛": ("β Cap", 100345),
    "女": ("ε Aqr", 102618),
    "虛": ("β Aqr", 106278),
    "危": ("α Aqr", 109074),
    "室": ("α Peg", 113963),
    "壁": ("γ Peg", 1067),
    "奎": ("ζ And", 3693),
    "婁": ("β Ari", 8903),
    "胃": ("35 Ari", 12719),
    "昴": ("17 Tau", 17489),
    "畢": ("ε Tau", 20889),
    "觜": ("λ Ori", 26207),
    "參": ("ζ Ori", 26727),
    "井": ("μ Gem", 30343),
    "鬼": ("θ Cnc", 41822),
    "柳": ("δ Hya", 42313),
    "星": ("α Hya", 46390),
    "張": ("υ1 Hya", 48356),
    "翼": ("α Crt", 53740),
    "軫": ("γ Crv", 59803),
}
SUN_INGRESSES, MOON_INGRESSES = 5599, 74863  # in 1901-2100


def solstice(year: int) -> int:
    """The instant of the winter solstice 冬至 in December of ``year`` (tyme4py), as UTC
    clock seconds."""
    return term_instants(year + 1)[0] - H8


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.fixture
def table_lines(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[str]]]:
    """The shipped lines, as lists a test may damage (the reader's cache emptied before and
    after)."""
    lines = {body: list(lodges._LINES[body]) for body in lodges.BODIES}
    for body in lodges.BODIES:
        monkeypatch.setitem(lodges._LINES, body, lines[body])
    lodges._year.cache_clear()
    yield lines
    lodges._year.cache_clear()


# --- the determinative stars ---------------------------------------------------------------


def test_the_stars_are_the_standard_list_in_the_order_of_the_mansions() -> None:
    stars = lodge_stars()
    assert tuple(s.mansion for s in stars) == facts().mansions
    assert {s.mansion: (s.star, s.hip) for s in stars} == STANDARD
    assert {s.mansion: s.variant for s in stars if s.variant} == {
        "奎": "η And (HIP 4463)",
        "觜": "φ1 Ori (HIP 26176)",
        "參": "δ Ori (HIP 25930)",
    }


def test_star_positions_are_the_catalogue_s_at_j2000() -> None:
    """Spica at J2000.0: 13h 25m 11.5794s −11° 09′ 40.750″, proper motion −42.35, −30.67."""
    spica = lodge_stars()[0]
    assert spica.ra_j2000 == pytest.approx((13 + 25 / 60 + 11.57937 / 3600) * 15, abs=1e-7)
    assert spica.dec_j2000 == pytest.approx(-(11 + 9 / 60 + 40.7501 / 3600), abs=1e-7)
    assert (spica.pm_ra, spica.pm_dec) == (-42.35, -30.67)
    for s in lodge_stars():
        assert 0 <= s.ra_j2000 < 360 and -90 < s.dec_j2000 < 90
    # each star east of the one before, once round the sky (觜 λ Ori just west of 參 ζ Ori)
    gaps = [(b.ra_j2000 - a.ra_j2000) % 360 for a, b in pairwise(lodge_stars())]
    assert all(0 < g < 35 for g in gaps) and sum(gaps) < 360


# --- the table and its reader ----------------------------------------------------------------


def test_the_book_s_example_today_from_the_table() -> None:
    """At the winter solstice of 2026 the sun stands in 尾, and enters 箕 less than two days
    later: the last degrees of 尾 (the commentary of §8.12: 太陽出箕 in the 1700s)."""
    at = solstice(2026)
    assert lodges.format_utc(at) == "2026-12-21T20:50:14Z"
    assert lodges.lodge_at_seconds("日", at) == "尾"
    following = next(i for i in lodges.ingresses("日", 2026) if i.seconds > at)
    assert following.mansion == "箕"
    assert 0 < following.seconds - at < 2 * 86400
    # the winter-solstice sun left 箕 for 尾 in 1910
    lodge = {year: lodges.lodge_at_seconds("日", solstice(year)) for year in range(1901, 2100)}
    assert {y for y, m in lodge.items() if m == "箕"} == set(range(1901, 1910))
    assert {y for y, m in lodge.items() if m == "尾"} == set(range(1910, 2100))


def test_lodge_at_takes_an_instant_in_any_zone() -> None:
    cast = datetime(2026, 11, 30, 9, 15, tzinfo=BEIJING)
    assert lodges.lodge_at("日", cast) == lodges.lodge_at("日", cast.astimezone(UTC)) == "心"
    assert lodges.lodge_at("月", cast) == "星"


def test_an_ingress_takes_effect_at_its_second() -> None:
    for body in lodges.BODIES:
        for ingress in lodges.ingresses(body, 2026)[:3]:
            at = datetime.fromtimestamp(0, UTC) + timedelta(
                seconds=ingress.seconds - lodges.year_start(1970)
            )
            previous = facts().mansions[facts().mansions.index(ingress.mansion) - 1]
            assert lodges.lodge_at(body, at) == ingress.mansion
            assert lodges.lodge_at(body, at + timedelta(microseconds=999_999)) == ingress.mansion
            assert lodges.lodge_at(body, at - timedelta(microseconds=1)) == previous


@pytest.mark.parametrize(
    ("body", "at", "message"),
    [
        ("星", utc("2026-01-01T00:00:00Z"), "'星' is not a body: expected 日 (the sun) or 月"),
        ("日", datetime(2026, 1, 1), "2026-01-01T00:00:00 has no UTC offset"),
        ("日", utc("1900-12-31T04:07:47Z"), "1900-12-31T04:07:47Z is outside the lodge table"),
        ("月", utc("2101-01-01T16:29:01Z"), "2101-01-01T16:29:01Z is outside the lodge table"),
    ],
)
def test_lodge_at_refuses(body: str, at: datetime, message: str) -> None:
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        lodges.lodge_at(body, at)


@pytest.mark.parametrize("seconds", [-1, 0, 86399, 10**15])
def test_lodge_at_seconds_refuses_any_count_outside(seconds: int) -> None:
    with pytest.raises(ValueError, match="is outside the lodge table"):
        lodges.lodge_at_seconds("月", seconds)


def test_an_instant_beyond_the_datetimes_is_outside() -> None:
    late = datetime(9999, 12, 31, 23, 0, tzinfo=timezone(timedelta(hours=-5)))
    with pytest.raises(ValueError, match="is outside the lodge table"):
        lodges.lodge_at("日", late)


def test_the_first_and_the_last_second_of_the_table() -> None:
    """The lodge is known over the stays that overlap 1901-2100, as lodge_ingress has them:
    from the sun's ingress into 斗 on 31 December 1900 to its ingress into 斗 in 2101."""
    assert lodges.lodge_at("日", utc("1901-01-01T00:00:00Z")) == "斗"
    assert lodges.lodge_at("月", utc("1901-01-01T00:00:00Z")) == "胃"
    assert lodges.lodge_at("日", utc("2100-12-31T23:59:59Z")) == "箕"
    assert lodges.lodge_at("月", utc("2100-12-31T23:59:59Z")) == "斗"
    assert lodges.lodge_at("日", utc("1900-12-31T04:07:48Z")) == "斗"
    assert lodges.lodge_at("日", utc("2101-01-02T13:14:00Z")) == "箕"
    assert lodges.lodge_at("月", utc("2101-01-01T16:29:00Z")) == "斗"
    for row in (r for r in lodges.ingress_rows() if r["starts_at"][:4] in ("1900", "2100")):
        for at in (row["starts_at"], row["ends_at"]):
            seconds = lodges.parse_utc(at) - (at == row["ends_at"])
            assert lodges.lodge_at_seconds(row["body"], seconds) == row["mansion"]


def test_the_shipped_table_reads_whole() -> None:
    assert lodges.table_problems() == []
    assert lodge_table.MANSIONS == "".join(facts().mansions)
    count = {b: sum(len(lodges.ingresses(b, y)) for y in range(1901, 2101)) for b in "日月"}
    assert count == {"日": SUN_INGRESSES, "月": MOON_INGRESSES}


@pytest.mark.parametrize("body", lodges.BODIES)
def test_the_ingresses_are_in_the_order_of_the_mansions(body: str) -> None:
    """Each stay ends where the next begins, in the next lodge; stays last as long as the
    body's motion allows (the moon one to three days or less, the sun one to five weeks)."""
    rows = [r for r in lodges.ingress_rows() if r["body"] == body]
    mansions = facts().mansions
    assert len(rows) == {"日": SUN_INGRESSES, "月": MOON_INGRESSES}[body] + 1
    for a, b in pairwise(rows):
        assert a["ends_at"] == b["starts_at"]
        assert mansions.index(b["mansion"]) == (mansions.index(a["mansion"]) + 1) % 28
    stays = [lodges.parse_utc(r["ends_at"]) - lodges.parse_utc(r["starts_at"]) for r in rows]
    shortest, longest = {"日": (86400, 35 * 86400), "月": (3600, 3 * 86400)}[body]
    assert shortest < min(stays) and max(stays) < longest
    assert rows[0]["starts_at"] < "1901-01-01T00:00:00Z" < rows[1]["starts_at"]
    assert rows[-1]["starts_at"] < "2101-01-01T00:00:00Z" < rows[-1]["ends_at"]


@given(st.integers(min_value=lodges.year_start(1), max_value=lodges.year_start(9999) + 86399))
def test_utc_text_is_the_iso_text_of_the_instant(seconds: int) -> None:
    day, rest = divmod(seconds, 86400)
    at = datetime.fromordinal(day) + timedelta(seconds=rest)
    assert lodges.format_utc(seconds) == at.isoformat() + "Z"
    assert lodges.parse_utc(lodges.format_utc(seconds)) == seconds


@given(st.lists(st.integers(min_value=lodges.year_start(1900), max_value=lodges.year_start(2102))))
def test_utc_texts_of_many_instants_are_each_ones_text(seconds: list[int]) -> None:
    # in time order, as a build formats them (a day's instants share its date), and not
    for instants in (sorted(seconds), seconds):
        assert lodges.format_utcs(instants) == [
            (datetime.fromordinal(s // 86400) + timedelta(seconds=s % 86400)).isoformat() + "Z"
            for s in instants
        ]


def test_utc_text_round_trips() -> None:
    for text_ in ("1901-01-01T00:00:00Z", "2026-12-21T20:50:14Z", "2100-12-31T23:59:59Z"):
        assert lodges.format_utc(lodges.parse_utc(text_)) == text_
    for bad in ("2026-12-21 20:50:14Z", "2026-12-21T20:50:14", "2026-12-21T24:00:00Z"):
        with pytest.raises(ValueError):
            lodges.parse_utc(bad)


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda line: line[:-1], "lodge table 月 2026: …"),
        (lambda line: line[0] + "!" + line[2:], "'!"),
        (lambda line: "X" + line[1:], "not a lodge"),
        (lambda line: line[0] + "0000" + line[5:], "an interval that is not positive"),
        (lambda line: line[0] + "zzzz" + line[5:], "an ingress after the end of the year"),
    ],
)
def test_a_damaged_line_is_reported_not_guessed(
    table_lines: dict[str, list[str]], damage: Any, problem: str
) -> None:
    table_lines["月"][2026 - 1901] = damage(table_lines["月"][2026 - 1901])
    found = lodges.table_problems()
    assert found and all("月 2026" in p for p in found), found
    if problem != "lodge table 月 2026: …":
        assert problem in found[0]
    with pytest.raises(lodges.LodgeTableError, match="damaged at 月 2026"):
        lodges.lodge_at("月", utc("2026-06-01T00:00:00Z"))
    assert lodges.lodge_at("月", utc("2025-06-01T00:00:00Z"))  # the other years still read


def test_a_year_that_does_not_begin_where_the_last_ended_is_reported(
    table_lines: dict[str, list[str]],
) -> None:
    line = table_lines["日"][2000 - 1901]
    mansions = facts().mansions
    table_lines["日"][2000 - 1901] = mansions[mansions.index(line[0]) + 1] + line[1:]
    assert lodges.table_problems() == [
        "lodge table 日 2000: begins in 斗, the year before ended in 箕",
        "lodge table 日 2001: begins in 斗, the year before ended in 牛",
    ]


# --- the seed ----------------------------------------------------------------------------------


def test_the_seed_rows() -> None:
    script = seed_script("s25_lodges")
    rows = script.rows({})
    assert len(rows["lodge_star"]) == 28 and len(rows["lodge_ingress"]) == 80464
    assert {(r["passage"], r["basis"]) for r in rows["lodge_star"]} == {("8.12", "standard")}
    assert rows["lodge_star"][0] == {
        "mansion": "角",
        "star": "α Vir",
        "hip": 65474,
        "variant": None,
        "passage": "8.12",
        "basis": "standard",
    }
    for name, table_rows in rows.items():
        assert set(table_rows[0]) <= set(metadata.tables[name].c.keys())
        assert all(c.comment for c in metadata.tables[name].columns)
    assert script.checks(rows) == []


def test_the_seed_refuses_a_damaged_table(table_lines: dict[str, list[str]]) -> None:
    table_lines["日"][1950 - 1901] = "damaged"
    script = seed_script("s25_lodges")
    rows = script.rows({})
    assert rows["lodge_ingress"] == []
    assert script.checks(rows) == [
        "the shipped lodge table is damaged at 日 1950: not a lodge followed by whole intervals"
    ]


# --- the generator, with ephem ----------------------------------------------------------------


@pytest.fixture(scope="module")
def generator() -> Any:
    pytest.importorskip("ephem")
    from yimao_db.calendar import lodges as generator

    return generator


def test_the_book_s_example_in_the_1700s(generator: Any) -> None:
    """At the winter solstice of 1750 the sun stood in 箕 (太陽出箕, §8.12 commentary), some
    2.5° past its star; by that of 2026 precession has moved it back into 尾, 1.9° short of
    箕's star."""
    sky = generator._sky()
    at = solstice(1750)
    assert lodges.format_utc(at) == "1750-12-21T20:50:11Z"
    assert generator.lodge_by_ephem("日", at) == "箕"
    assert math.degrees(sky.lead("日", 6, at)) == pytest.approx(2.55, abs=0.01)
    now = solstice(2026)
    assert generator.lodge_by_ephem("日", now) == lodges.lodge_at_seconds("日", now) == "尾"
    assert math.degrees(sky.lead("日", 6, now)) == pytest.approx(-1.88, abs=0.01)


def test_the_generator_gives_the_shipped_lines(generator: Any) -> None:
    """The table text for 2026 alone holds the shipped lines of 2026: the generator with the
    installed ephem reproduces the table, to the second."""
    made = generator.table_text(2026, 2026)
    for body in lodges.BODIES:
        assert f'    "{lodges._LINES[body][2026 - 1901]}",\n' in made
    assert "FIRST_YEAR = 2026\nLAST_YEAR = 2026\n" in made


def test_verify_finds_a_moved_ingress(generator: Any, table_lines: dict[str, list[str]]) -> None:
    assert generator.verify_table(stride=1, years=range(2026, 2027)) == []
    line = table_lines["月"][2026 - 1901]
    first, second = int(line[1:5], 36), int(line[5:9], 36)  # the first ingress 5 s late
    digits = [generator._base36(n).rjust(4, "0") for n in (first + 5, second - 5)]
    table_lines["月"][2026 - 1901] = line[0] + "".join(digits) + line[9:]
    lodges._year.cache_clear()
    moved = lodges.ingresses("月", 2026)[0]
    assert generator.verify_table(stride=1, years=range(2026, 2027)) == [
        f"lodge table: 月 enters {moved.mansion} at {lodges.format_utc(moved.seconds)}, ephem "
        f"{lodges.format_utc(moved.seconds - 5)}"
    ]


def test_the_table_is_written_whole_or_not_at_all(
    generator: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    target = tmp_path / "lodge_table.py"
    target.write_text("before", encoding="utf-8")
    monkeypatch.setattr(generator, "table_text", lambda: "after")
    assert generator.write_table(target) == target
    assert target.read_text(encoding="utf-8") == "after"

    def fails() -> str:
        raise generator.EphemMissing("no ephem")

    monkeypatch.setattr(generator, "table_text", fails)
    monkeypatch.setattr(generator.lodge_table, "__file__", str(target))  # never the real one
    assert generator.main(["--write-table"]) == 1
    assert target.read_text(encoding="utf-8") == "after"
    assert [p.name for p in tmp_path.iterdir()] == ["lodge_table.py"]
    assert generator.main([]) == 2


def test_a_body_that_goes_back_stops_the_generator(
    generator: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sky = generator.Sky.make()
    real = sky.body_ra
    monkeypatch.setattr(sky, "body_ra", lambda body, s: -real(body, s))
    start = lodges.year_start(2026)
    with pytest.raises(ValueError, match="not steadily eastward"):
        sky.crossings("月", start, start + 86400)


def test_the_generator_needs_ephem(generator: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_ephem(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ephem":
            raise ImportError("no ephem")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ephem)
    assert generator.available() is False
    with pytest.raises(generator.EphemMissing, match=r"pip install 'yimao-db\[lodges\]'"):
        generator.table_text(2026, 2026)


# --- the database and yimao check --------------------------------------------------------------


@pytest.fixture(scope="module")
def expected() -> dict[str, list[dict[str, Any]]]:
    return seeded()


def test_check_samples_the_table_and_compares_the_rows(
    fresh_db: str, expected: dict[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = doctor.run(fresh_db, expected)
    assert report.problems == []
    wanted = "lodge table 1901-2100: a sample of ingresses equals ephem"
    if not pytest.importorskip("yimao_db.calendar.lodges").available():
        wanted = "lodge table 1901-2100 reads whole (ephem not installed: nothing recomputed)"
    assert wanted in report.checked
    from yimao_db.calendar import lodges as generator

    monkeypatch.setattr(generator, "available", lambda: False)
    assert (
        "lodge table 1901-2100 reads whole (ephem not installed: nothing recomputed)"
        in doctor.run(fresh_db, expected).checked
    )


def test_check_catches_a_changed_stay(
    fresh_db: str, expected: dict[str, list[dict[str, Any]]]
) -> None:
    url = fresh_db if "://" in fresh_db else f"sqlite:///{fresh_db}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE lodge_ingress SET mansion = '角' "
                "WHERE body = '月' AND starts_at = '2026-01-01T05:16:08Z'"
            )
        )
        conn.execute(
            text(
                "UPDATE lodge_ingress SET ends_at = '2026-12-23T13:32:29Z' "
                "WHERE body = '日' AND starts_at = '2026-12-06T20:17:48Z'"
            )
        )
    engine.dispose()
    found = [str(p) for p in doctor.check(fresh_db, expected)]
    assert found == [
        "data: lodge_ingress body=日 starts_at=2026-12-06T20:17:48Z: column ends_at is "
        "'2026-12-23T13:32:29Z', the rules give '2026-12-23T13:32:28Z'",
        "data: lodge_ingress body=月 starts_at=2026-01-01T05:16:08Z: column mansion is '角', "
        "the rules give '畢'",
        "invariant: 日, 2026-12-06T20:17:48Z: each stay of the sun or the moon in a lodge ends "
        "where the next begins, in the next lodge",
        "invariant: 月, 2025-12-31T13:07:14Z: each stay of the sun or the moon in a lodge ends "
        "where the next begins, in the next lodge",
        "invariant: 月, 2026-01-01T05:16:08Z: each stay of the sun or the moon in a lodge ends "
        "where the next begins, in the next lodge",
    ]
