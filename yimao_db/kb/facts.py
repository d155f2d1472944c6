"""The typed-in source facts, read from ``seed/data/*.tsv``.

These small tables are the only data typed in by hand (the vocabularies' orders, the
trigram and najia table, the hexagram name list, the 納音 names). Everything else in the
database is derived from them by the pure functions in :mod:`yimao_db.kb.rules`.
"""

from __future__ import annotations

import csv
from functools import cache
from typing import NamedTuple

from yimao_db.paths import seed_data_dir


def read_tsv(name: str) -> list[dict[str, str]]:
    """Rows of ``seed/data/NAME.tsv`` as dicts keyed by the header row."""
    with (seed_data_dir() / f"{name}.tsv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def _column(name: str, column: str = "name") -> tuple[str, ...]:
    return tuple(row[column] for row in read_tsv(name))


class Trigram(NamedTuple):
    name: str
    bits: str  # bottom line first, 1 = yang
    image: str  # 天 澤 火 雷 風 水 山 地
    element: str
    family: str
    xiantian: int
    jingfang_order: int
    inner_stem: str
    outer_stem: str
    inner_branches: tuple[str, str, str]
    outer_branches: tuple[str, str, str]


class Facts(NamedTuple):
    elements: tuple[str, ...]  # in generating order 木火土金水
    stems: tuple[str, ...]
    branches: tuple[str, ...]
    stem_element: dict[str, str]
    branch_element: dict[str, str]
    trigrams: dict[str, Trigram]  # in 先天 order
    hexagram_names: tuple[tuple[int, str, str], ...]  # (king_wen, name, short_name)
    nayin_names: tuple[str, ...]
    nayin_numbers: dict[str, int]  # stem or branch -> 納音 number
    mansions: tuple[str, ...]
    stars: dict[str, str]  # star -> element
    relatives: dict[str, str]  # relative -> relation to the palace element
    generations: tuple[str, ...]  # index 0..7


def _trigram(row: dict[str, str]) -> Trigram:
    inner = tuple(row["inner_branches"])
    outer = tuple(row["outer_branches"])
    assert len(inner) == 3 and len(outer) == 3
    return Trigram(
        name=row["name"],
        bits=row["bits"],
        image=row["image"],
        element=row["element"],
        family=row["family"],
        xiantian=int(row["xiantian"]),
        jingfang_order=int(row["jingfang_order"]),
        inner_stem=row["inner_stem"],
        outer_stem=row["outer_stem"],
        inner_branches=(inner[0], inner[1], inner[2]),
        outer_branches=(outer[0], outer[1], outer[2]),
    )


@cache
def facts() -> Facts:
    """Load every source fact once."""
    stems = read_tsv("stems")
    branches = read_tsv("branches")
    numbers: dict[str, int] = {}
    for row in read_tsv("nayin_numbers"):
        for char in row["stems"] + row["branches"]:
            numbers[char] = int(row["number"])
    trigrams = sorted((_trigram(r) for r in read_tsv("trigrams")), key=lambda t: t.xiantian)
    return Facts(
        elements=_column("elements"),
        stems=tuple(r["name"] for r in stems),
        branches=tuple(r["name"] for r in branches),
        stem_element={r["name"]: r["element"] for r in stems},
        branch_element={r["name"]: r["element"] for r in branches},
        trigrams={t.name: t for t in trigrams},
        hexagram_names=tuple(
            (int(r["king_wen"]), r["name"], r["short_name"]) for r in read_tsv("hexagrams")
        ),
        nayin_names=_column("nayin"),
        nayin_numbers=numbers,
        mansions=_column("mansions"),
        stars={r["name"]: r["element"] for r in read_tsv("stars")},
        relatives={r["name"]: r["relation"] for r in read_tsv("relatives")},
        generations=_column("generations"),
    )


class LodgeStar(NamedTuple):
    """The determinative star 距星 of a lodge (``seed/data/lodge_stars.tsv``): its position
    at J2000.0 (ICRS, degrees) and proper motion (mas a year, ``pm_ra`` = dα/dt · cos δ)."""

    mansion: str
    star: str  # Bayer or Flamsteed designation, e.g. α Vir
    hip: int  # Hipparcos number
    ra_j2000: float
    dec_j2000: float
    pm_ra: float
    pm_dec: float
    variant: str | None  # the other star some lists take, e.g. η And (HIP 4463)


@cache
def lodge_stars() -> tuple[LodgeStar, ...]:
    """The 28 determinative stars, in the order of the mansions from 角."""
    return tuple(
        LodgeStar(
            mansion=r["mansion"],
            star=r["star"],
            hip=int(r["hip"]),
            ra_j2000=float(r["ra_j2000"]),
            dec_j2000=float(r["dec_j2000"]),
            pm_ra=float(r["pm_ra"]),
            pm_dec=float(r["pm_dec"]),
            variant=r["variant"] or None,
        )
        for r in read_tsv("lodge_stars")
    )
