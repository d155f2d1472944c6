"""用神: what a reading is asked about (its subject), the line that stands for it, and the
chain of relatives around it (原神 忌神 仇神).

§6.2–6.4 give each relative its images and §6.7's commentary refers every affair to the
six relatives, each with its use; §6.5–6.6's commentary reads the generating and
controlling images as 用神 and 忌神. §8.14 takes the world line as me (我求我得) and §8.15
the response as the other party. The subjects a practitioner asks about that the book does
not list are standard practice (``seed/data/subject.tsv``, each row marked so).

The choice among several lines of the subject's relative is not in the book: the order
here (moving, holding 世 or 應, strength in the month, sound, then the lower line) is this
project's decision, stated in :data:`RULE` and docs/use.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

from yimao_db.kb.facts import facts, read_tsv
from yimao_db.kb.rules import elements

USE, SOURCE, TABOO, ENEMY = "用神", "原神", "忌神", "仇神"
ROLES = (USE, SOURCE, TABOO, ENEMY)
ROLE_MARK = {USE: "用", SOURCE: "原", TABOO: "忌", ENEMY: "仇"}

RELATIVE, WORLD, RESPONSE = "relative", "world", "response"
SUBJECT_KINDS = (RELATIVE, WORLD, RESPONSE)
PLACE_OF_KIND = {WORLD: "世", RESPONSE: "應"}

VISIBLE, HIDDEN = "visible", "hidden"
SOURCES = (VISIBLE, HIDDEN, WORLD, RESPONSE)

BOOK, STANDARD, DECISION = "book", "standard", "decision"
FLAGS = (0, 1)


@dataclass(frozen=True)
class Role:
    role: str
    ordinal: int
    gloss: str
    passage: str | None
    basis: str
    by_place: int  # 1: a world/response subject fixes this role to its line


def roles() -> tuple[Role, ...]:
    """The four roles. 用神 and 忌神 are the commentary's own words (§6.5, §6.6); 原神 and
    仇神 are the standard names of the relatives that generate the 用神 and control the
    原神 (§6.5 and §6.6 give the cycles they follow)."""
    return (
        Role(USE, 1, "the line the question is about", "6.6", BOOK, 1),
        Role(SOURCE, 2, "the relative that generates the 用神's", "6.5", STANDARD, 0),
        Role(TABOO, 3, "the relative that controls the 用神's", "6.6", BOOK, 0),
        Role(ENEMY, 4, "the relative that controls the 原神's", "6.6", STANDARD, 0),
    )


def _relative_element(relative: str) -> tuple[str, str]:
    """An element standing as ``relative`` to a palace of some element (木 taken as 我)."""
    me = facts().elements[0]
    for other in facts().elements:
        if elements.relative(me, other) == relative:
            return me, other
    raise ValueError(relative)


def chain_relative(use_relative: str, role: str) -> str:
    """The relative that plays ``role`` when the 用神 is of ``use_relative``: itself for the
    用神, the one generating it (原神), controlling it (忌神), controlling the 原神 (仇神)."""
    me, use = _relative_element(use_relative)
    generator = next(e for e in facts().elements if elements.generates(e) == use)
    target = {
        USE: use,
        SOURCE: generator,
        TABOO: next(e for e in facts().elements if elements.controls(e) == use),
        ENEMY: next(e for e in facts().elements if elements.controls(e) == generator),
    }[role]
    return elements.relative(me, target)


# --- choosing among candidates --------------------------------------------------------

CRITERIA = ("moving", "world_response", "strength", "sound")
LOSS_WORDS = {
    "moving": "still while the chosen line moves",
    "world_response": "holds neither 世 nor 應 while the chosen line does",
    "strength": "weaker in the month than the chosen line",
    "sound": "void or month-broken while the chosen line is sound",
    "position": "a higher line of the same standing",
}


@dataclass(frozen=True)
class CandidateKey:
    is_moving: int
    is_world: int
    is_response: int
    strength: str
    is_void: int
    is_month_break: int

    def criteria(self) -> tuple[int, int, int, int]:
        """The key as ranks per criterion, 0 best: moving, holding 世/應, strength, sound."""
        order = facts_strengths()
        return (
            1 - self.is_moving,
            1 - (self.is_world or self.is_response),
            order.index(self.strength),
            int(bool(self.is_void or self.is_month_break)),
        )


@cache
def facts_strengths() -> tuple[str, ...]:
    from yimao_db.kb.rules.stages import strength_names

    return strength_names()  # 旺 相 休 囚 死


def candidate_keys() -> tuple[CandidateKey, ...]:
    """Every key a candidate line can have (total: 世 and 應 together included)."""
    return tuple(
        CandidateKey(m, w, r, s, v, b)
        for m, w, r, s, v, b in product(FLAGS, FLAGS, FLAGS, facts_strengths(), FLAGS, FLAGS)
    )


def candidate_rank(key: CandidateKey) -> int:
    """1 for the best standing: the criteria in order (moving over still; 世 or 應 over
    neither; 旺 相 休 囚 死; sound over void or broken); equal keys share a rank, and the
    lower line wins a tie (the view orders by rank, then position)."""
    m, w, s, v = key.criteria()
    return 1 + ((m * 2 + w) * 5 + s) * 2 + v


def rank_count() -> int:
    return 2 * 2 * 5 * 2


def loss_criterion(winner: int, loser: int) -> str:
    """The first criterion on which the key ranked ``winner`` beats the one ranked ``loser``
    (both from :func:`candidate_rank`); ``position`` when they stand equal."""
    w, lo = _criteria_of_rank(winner), _criteria_of_rank(loser)
    for name, a, b in zip(CRITERIA, w, lo, strict=True):
        if a != b:
            return name
    return "position"


def _criteria_of_rank(rank: int) -> tuple[int, int, int, int]:
    n = rank - 1
    v, n = n % 2, n // 2
    s, n = n % 5, n // 5
    w, m = n % 2, n // 2
    return m, w, s, v


def loss_reason(winner: int, loser: int) -> str:
    """Why a candidate of rank ``loser`` lost to the chosen one of rank ``winner``, in words."""
    return LOSS_WORDS[loss_criterion(winner, loser)]


def choose(candidates: list[tuple[int, CandidateKey]]) -> list[tuple[int, int, str | None]]:
    """(position, rank, reason) for each (position, key) candidate: rank 1 is chosen (best
    key, then the lower line), the others ranked after it with the reason each lost."""
    ordered = sorted(candidates, key=lambda c: (candidate_rank(c[1]), c[0]))
    if not ordered:
        return []
    best = candidate_rank(ordered[0][1])
    return [
        (p, i, None if i == 1 else loss_reason(best, candidate_rank(k)))
        for i, (p, k) in enumerate(ordered, 1)
    ]


# --- 飛神 and 伏神 ----------------------------------------------------------------------

FLY_RELATIONS = {
    "same": "比和",
    "i_generate": "飛生伏",  # the fly (me) generates the hidden (other)
    "generates_me": "伏生飛",
    "i_control": "飛克伏",
    "controls_me": "伏克飛",
}


def fly_relation(fly_element: str, hidden_element: str) -> str:
    """How the 飛神 above stands to the 伏神 under it: 飛生伏 伏生飛 飛克伏 伏克飛 比和
    (standard 飛伏 practice; the book names 飛伏 in §6.2's commentary)."""
    return FLY_RELATIONS[elements.relation(fly_element, hidden_element)]


# --- the rule, step by step -------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    step: str
    ordinal: int
    text: str
    passage: str | None
    basis: str
    reason: str | None = None


RULE = (
    Step(
        "subject",
        1,
        "The reading names its subject (--about), or its matter implies one (matter_subject).",
        "6.7",
        BOOK,
    ),
    Step(
        "world_response",
        2,
        "For the asker himself (世) or the other party (應) the 用神 is that line.",
        "8.15",
        BOOK,
    ),
    Step(
        "relative",
        3,
        "Otherwise the 用神 is of the subject's relative: the visible lines of that relative "
        "in the primary hexagram are its candidates.",
        "6.7",
        BOOK,
    ),
    Step(
        "moving",
        4,
        "Of several, a moving line over a still one.",
        None,
        DECISION,
        "the book is silent on 用神兩現; a moving line is the one the cast points at (§8.7 "
        "commentary reads the single mover first)",
    ),
    Step(
        "world_response_held",
        5,
        "Then a line holding 世 or 應 over one holding neither.",
        None,
        DECISION,
        "the world and response lines rule the hexagram (§8.15); a candidate on them is "
        "taken as the one the question turns on",
    ),
    Step(
        "strength",
        6,
        "Then the stronger in the month: 旺 相 休 囚 死.",
        None,
        DECISION,
        "common practice prefers the line with strength; the book is silent",
    ),
    Step(
        "sound",
        7,
        "Then a sound line over one void or month-broken.",
        None,
        DECISION,
        "a void or broken line is the weaker reading of the subject; the book is silent",
    ),
    Step(
        "position",
        8,
        "Then the lower line.",
        None,
        DECISION,
        "a total order needs a last tie-break; the lower line is taken",
    ),
    Step(
        "hidden",
        9,
        "If no line shows the relative, its 伏神 under its 飛神, with the 飛伏 relation; "
        "several are ranked as visible ones.",
        "6.2",
        STANDARD,
    ),
    Step(
        "chain",
        10,
        "原神 generates the 用神's relative, 忌神 controls it, 仇神 controls the 原神; each is "
        "located by steps 3–9.",
        "6.6",
        STANDARD,
    ),
    Step(
        "month_day",
        11,
        "Where the month or the day branch is the role's relative, it stands for it "
        "(月日代用), shown as information.",
        None,
        STANDARD,
    ),
)


# --- subjects -------------------------------------------------------------------------


@dataclass(frozen=True)
class Subject:
    name: str
    kind: str
    relative: str | None
    gloss: str
    symbol: str | None
    place: str | None
    passage: str | None
    basis: str
    reason: str | None


@cache
def subjects() -> tuple[Subject, ...]:
    """Every subject: the relatives themselves, 世 and 應 and the standard subjects
    (``subject.tsv``), and every image of §6.2–6.4 (``relative_symbol.tsv``, aspect image)."""
    out = [
        Subject(
            r["name"],
            r["kind"],
            r["relative"] or None,
            r["gloss"],
            None,
            PLACE_OF_KIND.get(r["kind"]),
            r["passage"] or None,
            r["basis"],
            r["reason"] or None,
        )
        for r in read_tsv("subject")
    ]
    out += [
        Subject(
            r["symbol"],
            RELATIVE,
            r["relative"],
            r["gloss"],
            r["symbol"],
            None,
            r["passage"],
            r["basis"],
            None,
        )
        for r in read_tsv("relative_symbol")
        if r["aspect"] == "image"
    ]
    return tuple(out)


@cache
def subject_aliases() -> tuple[tuple[str, str, str], ...]:
    """(subject, form, alias) typed in: pinyin, English and variants."""
    return tuple((r["subject"], r["form"], r["alias"]) for r in read_tsv("subject_alias"))


MATTER_REASON = (
    "§9.5 names what each matter wants on the bodies; the relative it wants is taken as the "
    "用神 (獄訟: the two parties and the officials, the asker first)"
)


def matter_subjects() -> tuple[tuple[str, str, int], ...]:
    """(matter, subject, is_default): what each matter of §9.5 asks about."""
    return (
        ("功名", "官鬼", 1),
        ("財利", "妻財", 1),
        ("獄訟", "世", 1),
        ("獄訟", "應", 0),
        ("獄訟", "官鬼", 0),
        ("憂患", "子孫", 1),
    )


def default_subject(matter: str | None) -> str | None:
    """The subject a matter implies when none is named."""
    return next((s for m, s, d in matter_subjects() if m == matter and d), None)
