"""Casting inputs (§2, §11): every form a practitioner writes, turned into six line values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from sqlalchemy import Connection

from yimao_db import casting
from yimao_db.db import reader_engine
from yimao_db.errors import UsageError


@pytest.fixture
def conn(built_db: str) -> Iterator[Connection]:
    engine = reader_engine(built_db)
    with engine.connect() as connection:
        yield connection
    engine.dispose()


# --- values and coins (no database) --------------------------------------------------------


def test_values() -> None:
    c = casting.from_values(" 789678 ")
    assert (c.method, c.values, c.coins, c.cast_input) == ("values", "789678", None, "789678")
    assert c.moving == [3, 4]


def test_full_width_digits_are_digits() -> None:
    """As a Chinese keyboard types them: the values, and coins."""
    assert casting.from_values("７８９６７８").values == "789678"
    assert casting.from_coins("２,１,３,０,２,２").coins == (2, 1, 3, 0, 2, 2)


@pytest.mark.parametrize("text", ["78967", "7896789", "789675", "78967a", "", "٧٨٩٦٧٨"])
def test_bad_values(text: str) -> None:
    with pytest.raises(UsageError, match="expected six digits 6-9 from line 1 up"):
        casting.from_values(text)


@pytest.mark.parametrize(
    "text",
    [
        "2,1,3,0,2,2",
        "2 1 3 0 2 2",
        "213022",
        "2，1，3，0，2，2",
        " 2, 1,3 ,0,2,2 ",
        "2、1、3、0、2、2",
    ],
)
def test_coins(text: str) -> None:
    """§2: a throw with k backs has value 6 + k (0 交 老陰, 1 單, 2 拆, 3 重 老陽)."""
    c = casting.from_coins(text)
    assert (c.method, c.values, c.coins) == ("coins", "879688", (2, 1, 3, 0, 2, 2))
    assert c.cast_input == text.strip()
    assert c.moving == [3, 4]


@pytest.mark.parametrize("text", ["2,1,3,0,2", "2,1,3,0,2,2,1", "2,1,4,0,2,2", "2,1,-1,0,2,2", "a"])
def test_bad_coins(text: str) -> None:
    with pytest.raises(UsageError, match="expected six counts of backs 0-3"):
        casting.from_coins(text)


def test_random_cast_uses_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three coins per line from :mod:`secrets`; the coins are recorded."""
    throws = iter([1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1])
    calls = []

    def randbelow(n: int) -> int:
        calls.append(n)
        return next(throws)

    monkeypatch.setattr("yimao_db.casting.secrets.randbelow", randbelow)
    c = casting.random_cast()
    assert calls == [2] * 18
    assert (c.method, c.coins, c.values, c.cast_input) == (
        "random",
        (3, 0, 1, 2, 1, 2),
        "967878",
        None,
    )


def test_random_cast_distribution() -> None:
    """Backs per line follow the binomial 1:3:3:1 (loose bounds: 6000 lines)."""
    counts: Counter[int] = Counter()
    for _ in range(1000):
        c = casting.random_cast()
        assert c.coins is not None
        assert c.values == "".join(str(6 + b) for b in c.coins)
        counts.update(c.coins)
    assert set(counts) <= {0, 1, 2, 3}
    assert 500 < counts[0] < 1000 and 500 < counts[3] < 1000
    assert 1900 < counts[1] < 2600 and 1900 < counts[2] < 2600


def test_values_from_change() -> None:
    assert casting.values_from_change("111111", "011111") == "977777"
    assert casting.values_from_change("000000", "101000") == "686888"
    assert casting.values_from_change("101010", "100110") == "789678"


def test_looks_like_coins() -> None:
    """Numbers separated by commas are coin throws; from_coins then checks them."""
    assert casting.looks_like_coins("2,1,3,0,2,2")
    assert casting.looks_like_coins(" 2, 1, 3, 0, 2, 2 ")
    assert casting.looks_like_coins("2,1,3,0,2")  # reported as bad coins, not as a name
    assert casting.looks_like_coins("2，1，4")
    assert not casting.looks_like_coins("789678")
    assert not casting.looks_like_coins("乾:1,2,3,4,5,6")
    assert not casting.looks_like_coins("1,a")


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("1,4", [1, 4]),
        ("4 1", [1, 4]),
        ("4 1 4", None),  # a line given twice: a slip
        ("", None),  # typed, and no line: a slip (姤:)
        ([6, 1], [1, 6]),
        ([], []),
        ("x", None),
        ("0", None),
    ],
)
def test_parse_moving(text: str | list[int], lines: list[int] | None) -> None:
    if lines is None:
        with pytest.raises(UsageError, match="bad moving lines"):
            casting.parse_moving(text)
    else:
        assert casting.parse_moving(text) == lines


# --- forms that name hexagrams (resolved through name_alias) ------------------------------


@pytest.mark.parametrize(
    ("text", "method", "values"),
    [
        ("789678", "values", "789678"),
        ("乾", "hexagram", "777777"),
        ("坤為地", "hexagram", "888888"),
        ("1", "hexagram", "777777"),
        ("111111", "hexagram", "777777"),
        ("姤:1", "hexagram", "677777"),
        ("姤：1,6", "hexagram", "677779"),
        ("天風姤/1", "hexagram", "677777"),
        ("乾之姤", "notation", "977777"),
        ("乾为天之天风姤", "notation", "977777"),
        ("既濟之隨", "notation", "789678"),
        ("乾之乾", "notation", "777777"),
        ("2,1,3,0,2,2", "coins", "879688"),
    ],
)
def test_parse(conn: Connection, text: str, method: str, values: str) -> None:
    c = casting.parse(conn, text)
    assert (c.method, c.values) == (method, values)
    assert c.coins == (None if method != "coins" else tuple(int(v) - 6 for v in values))


def test_parse_with_moving(conn: Connection) -> None:
    c = casting.parse(conn, "既濟", [4, 3])
    assert (c.values, c.cast_input) == ("789678", "既濟:3,4")
    assert casting.parse(conn, "既濟", "3,4").values == "789678"


@pytest.mark.parametrize(
    ("text", "moving", "message"),
    [
        ("", (), "empty cast"),
        ("12345", (), "bad line values '12345'"),
        ("100", (), "bad line values"),
        ("65", (), "unknown hexagram '65'"),
        ("不存在", (), "unknown hexagram"),
        ("乾之", (), "unknown hexagram ''"),
        ("789678", (1,), "moving lines go with a hexagram"),
        ("乾之姤", (1,), "implied by 之"),
        ("姤:1", (2,), "either after ':' or with --moving"),
        ("姤:7", (), "bad moving lines"),
        ("2,1,3,0,2", (), "bad coins"),
        ("2,1,3,0,2,2", (1,), "moving lines go with a hexagram"),
    ],
)
def test_parse_errors(conn: Connection, text: str, moving: tuple[int, ...], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        casting.parse(conn, text, moving)
