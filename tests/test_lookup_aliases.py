"""Hexagram short names in pinyin (with or without tones and spaces), full-width digits, and
ambiguous names that list their candidates."""

from __future__ import annotations

import pytest
from helpers import run
from sqlalchemy import Connection

from yimao_db import lookup
from yimao_db.errors import UsageError
from yimao_db.kb.names import normalise


@pytest.mark.parametrize(
    ("typed", "king_wen"),
    [
        ("gou", 44),
        ("gòu", 44),
        ("Gou", 44),
        ("jiji", 63),
        ("ji ji", 63),
        ("jì jì", 63),
        ("jìjì", 63),
        ("  ji   ji ", 63),
        ("weiji", 64),
        ("qián", 1),
        ("tianfenggou", 44),
        ("０１１１１１", 44),
        ("４４", 44),
        ("xiǎo xù", 9),
    ],
)
def test_hexagram_pinyin_short_names(conn: Connection, typed: str, king_wen: int) -> None:
    assert lookup.hexagram(conn, typed) == king_wen


def test_full_width_forms_fold_to_ascii() -> None:
    assert normalise("０１１１１１") == "011111"
    assert normalise("Ｇｏｕ\u3000") == "gou"


def test_ambiguous_hexagram_lists_candidates(conn: Connection) -> None:
    with pytest.raises(UsageError) as info:
        lookup.hexagram(conn, "qian")
    message = str(info.value)
    assert "ambiguous" in message
    assert "乾為天" in message and "地山謙" in message
    assert "\n" not in message


def test_show_qian_kind_hexagram_lists_both(
    built_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "show", "qian", "--kind", "hexagram", "--db", built_db)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "乾為天" in err and "地山謙" in err


@pytest.mark.parametrize(
    ("typed", "listed", "kind"),
    [
        ("qian", "乾為天 (qián, King Wen 1), 地山謙 (qiān, King Wen 15), trigram 乾 (qian)",
         "trigram"),
        ("kun", "坤為地 (kūn, King Wen 2), 澤水困 (kùn, King Wen 47), trigram 坤 (kun)", "trigram"),
        ("yi", "山雷頤 (yí, King Wen 27), 風雷益 (yì, King Wen 42), stem 乙 (yi), mansion 翼 (yi)",
         "stem"),
    ],
)  # fmt: skip
def test_show_a_name_of_two_hexagrams_and_a_trigram_lists_them(
    built_db: str, capsys: pytest.CaptureFixture[str], typed: str, listed: str, kind: str
) -> None:
    """``qian`` reads as the hexagrams 乾 and 謙 and names the trigram 乾: an error listing
    them, as README.md says (it used to show the trigram alone)."""
    code, out, err = run(capsys, "show", typed, "--db", built_db)
    assert (code, out) == (2, "")
    assert err == (
        f"error: ambiguous name {typed!r}: it may be {listed}; type it with tone marks or in"
        f" characters, or give --kind {kind}\n"
    )
    code, out, _ = run(capsys, "show", typed, "--kind", kind, "--db", built_db)
    assert code == 0 and out.split(" · ")[1].startswith(kind)


def test_show_a_name_with_tones_is_what_it_says(
    built_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """jīn is the element 金 (not the hexagram 晉 jìn), dīng the stem 丁 (not 鼎 dǐng)."""
    for typed, first in (("jīn", "金 · element 五行"), ("dīng", "丁 · stem 天干")):
        code, out, _ = run(capsys, "show", typed, "--db", built_db)
        assert code == 0 and out.splitlines()[0] == first


def test_show_with_tones_picks_one(built_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "qián", "--kind", "hexagram", "--db", built_db)
    assert code == 0 and out.startswith("乾為天 (乾) · King Wen 1")
    code, out, _ = run(capsys, "show", "qiān", "--kind", "hexagram", "--db", built_db)
    assert code == 0 and out.startswith("地山謙 (謙) · King Wen 15")


def test_show_gou_and_full_width_bits(built_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "gou", "--db", built_db)
    assert code == 0 and out.startswith("天風姤 (姤) · King Wen 44")
    code, out, _ = run(capsys, "show", "０１１１１１", "--db", built_db)
    assert code == 0 and out.startswith("天風姤 (姤) · King Wen 44")


def test_ambiguous_mansion_lists_candidates(
    built_db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # wei is the branch 未; as a mansion it is 尾, 危 or 胃, and the error lists them
    code, out, err = run(capsys, "show", "wei", "--kind", "mansion", "--db", built_db)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "mansion 尾 (wěi)" in err and "mansion 危 (wēi)" in err and "mansion 胃 (wèi)" in err
    code, out, _ = run(capsys, "show", "wěi", "--kind", "mansion", "--db", built_db)
    assert code == 0 and out.startswith("尾 · mansion")
