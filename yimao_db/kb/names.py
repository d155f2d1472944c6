"""Name aliases: every accepted spelling of every vocabulary name (§0).

Built from the canonical names in the seeded tables plus three typed-in files:
``simplified.tsv`` (traditional → simplified characters), ``variants.tsv`` (the seed text's
variant and taboo forms) and ``labels.tsv`` (pinyin and English labels). Pinyin is accepted
with or without tone marks and with or without the spaces between syllables, and a
hexagram's short name has the pinyin of its characters (姤 ``gòu``, 既濟 ``jì jì``, ``jiji``).
Lookups normalise the input the same way (trimmed, lower-case, full-width ASCII folded).

An alias is unique within its kind: one that would name two entities of a kind is dropped
(the mansions' toneless ``wei`` is 尾, 危 and 胃, and ``bì`` is both 壁 and 畢; their other
forms still resolve, and :func:`yimao_db.lookup.candidates` lists them for such a name).
The same spelling may name entities of different kinds (乾 is a hexagram, a trigram and a
palace; 玄武 a spirit and a general): ``yimao show`` shows each.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from yimao_db.kb.facts import read_tsv

# kind -> (table, key column) for every vocabulary that takes aliases
VOCABULARIES = {
    "element": ("element", "name"),
    "stem": ("stem", "name"),
    "branch": ("branch", "name"),
    "trigram": ("trigram", "name"),
    "palace": ("palace", "name"),
    "relative": ("relative", "name"),
    "star": ("star", "name"),
    "mansion": ("mansion", "name"),
    "nayin": ("nayin", "name"),
    "generation": ("generation", "name"),
    "spirit": ("spirit", "name"),
    "general": ("general", "name"),
    "stage": ("stage", "name"),
    "strength": ("strength", "name"),
    "matter": ("matter", "name"),
    "sign": ("sign", "name"),
    "subject": ("subject", "name"),
}


# when one alias reaches one entity in several ways, the row records the first of these
FORM_PRECEDENCE = (
    "canonical",
    "short",
    "number",
    "bits",
    "variant",
    "simplified",
    "pinyin",
    "english",
)


# full-width ASCII (U+FF01..U+FF5E, typed by a CJK input method) → ASCII
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}


def normalise(text: str) -> str:
    """The lookup form of a name: NFC, full-width letters and digits as ASCII, trimmed,
    inner whitespace (the ideographic space too) collapsed, lower-case."""
    folded = " ".join(unicodedata.normalize("NFC", text).translate(_FULL_WIDTH).split()).lower()
    return folded.encode(errors="replace").decode()  # lone surrogates (bad argv bytes) → ?


def loose(text: str) -> str:
    """How a name sounds: normalised, without tone marks or spaces (``Jì jì`` → ``jiji``);
    names that differ only in tones share it, so it finds the candidates of such a name."""
    return toneless(normalise(text)).replace(" ", "")


def toneless(text: str) -> str:
    """Pinyin without tone marks (ü kept as u)."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


@cache
def simplified_map() -> dict[str, str]:
    return {r["traditional"]: r["simplified"] for r in read_tsv("simplified")}


def pinyin_forms(pinyin: str) -> list[tuple[str, str]]:
    """The pinyin aliases of a label: as written and toneless, each spaced and joined."""
    forms = {pinyin, toneless(pinyin)}
    forms |= {f.replace(" ", "") for f in forms}
    return [("pinyin", f) for f in sorted(forms)]


def short_pinyin(name: str, short_name: str, pinyin: str) -> str:
    """The pinyin of a hexagram's short name, cut from its full name's pinyin (one syllable
    per character: 天風姤 tiān fēng gòu → 姤 gòu); empty if they do not line up."""
    syllables = pinyin.split()
    start = name.find(short_name)
    if len(syllables) != len(name) or start < 0:
        return ""
    return " ".join(syllables[start : start + len(short_name)])


def simplify(text: str) -> str:
    table = simplified_map()
    return "".join(table.get(c, c) for c in text)


def alias_rows(tables: Mapping[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows for ``name_alias``; aliases that would name two entities of one kind are dropped."""
    candidates: list[tuple[str, str, str, str]] = []  # kind, alias, canonical, form

    def add(kind: str, canonical: str, names: Iterable[tuple[str, str]]) -> None:
        for form, alias in names:
            if alias:
                candidates.append((kind, normalise(alias), canonical, form))

    for kind, (table, column) in VOCABULARIES.items():
        for row in tables.get(table, []):
            name = str(row[column])
            add(kind, name, [("canonical", name), ("simplified", simplify(name))])
    for h in tables.get("hexagram", []):
        kw = str(h["king_wen"])
        add(
            "hexagram",
            kw,
            [
                ("canonical", h["name"]),
                ("short", h["short_name"]),
                ("simplified", simplify(h["name"])),
                ("simplified", simplify(h["short_name"])),
                ("number", kw),
                ("bits", h["bits"]),
            ],
        )
    short_to_kw = {h["short_name"]: str(h["king_wen"]) for h in tables.get("hexagram", [])}
    full_to_kw = {h["name"]: str(h["king_wen"]) for h in tables.get("hexagram", [])}
    for r in read_tsv("variants"):
        canonical = r["canonical"]
        if r["kind"] == "hexagram":
            canonical = short_to_kw.get(canonical) or full_to_kw.get(canonical, "")
        if canonical:
            add(
                r["kind"],
                canonical,
                [("variant", r["variant"]), ("simplified", simplify(r["variant"]))],
            )
    short_of = {h["name"]: h["short_name"] for h in tables.get("hexagram", [])}
    for r in read_tsv("labels"):
        canonical = r["name"]
        pinyin = pinyin_forms(r["pinyin"])
        if r["kind"] == "hexagram":
            short = short_pinyin(canonical, short_of.get(canonical, ""), r["pinyin"])
            pinyin += pinyin_forms(short) if short else []
            canonical = full_to_kw.get(canonical) or short_to_kw.get(canonical, "")
        if canonical:
            add(r["kind"], canonical, [*pinyin, ("english", r["english"])])
    if tables.get("subject"):
        from yimao_db.kb.rules.use import subject_aliases

        for subject, form, alias in subject_aliases():
            forms = pinyin_forms(alias) if form == "pinyin" else [(form, alias)]
            if form == "variant":
                forms.append(("simplified", simplify(alias)))
            add("subject", subject, forms)
    targets: dict[tuple[str, str], set[str]] = defaultdict(set)
    for kind, alias, canonical, _ in candidates:
        targets[(kind, alias)].add(canonical)
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    ranked = sorted(candidates, key=lambda c: FORM_PRECEDENCE.index(c[3]))  # stable
    for kind, alias, canonical, form in ranked:
        if len(targets[(kind, alias)]) == 1 and (kind, alias) not in rows:
            rows[(kind, alias)] = {
                "kind": kind,
                "alias": alias,
                "canonical": canonical,
                "form": form,
            }
    return sorted(rows.values(), key=lambda r: (r["kind"], r["canonical"], r["alias"]))
