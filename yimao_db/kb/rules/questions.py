"""What kind of question a reading asks, from its matter (§9.5) and its subject (docs/use.md).

Two things depend on it:

- **Between two parties** (人己之佔, §8.15): world against response (世克應 and the rest) is
  read for a question between the asker and another — two sides contending, two matters
  meeting, two minds in doubt — and not for every question. *Decision*: a question is of
  that kind when its matter is a lawsuit 獄訟 (two sides contending, the plainest case the
  passage names) or its subject is the asker 世 or the other party 應 (whoever takes the
  world or the response line as the subject reads the question as between the two).
- **What the between lines stand for** (§10.2–10.3): for most questions a moving between
  line is an obstacle (§10.2 lists undertakings, plans, messages …); for the matters §10.3
  names they are a helper (a lawsuit's witness 中證 …). *Decision*: §10.3's 詞訟 is this
  project's matter 獄訟; the other helpers of §10.3 (marriage, building, the home …) are no
  matter a reading can name, so their questions read the between lines as obstacles.

The key of a reading without a matter or a subject is ``NONE`` (the empty text), so that
the tables are total over what a reading can store and a view joins them on
``COALESCE(r.matter, '')`` and ``COALESCE(r.about, '')``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from yimao_db.kb.rules import matters, use

NONE = ""  # no matter, no subject
OBSTACLE, HELPER = "obstacle", "helper"
TWO_PARTY_MATTERS = ("獄訟",)
TWO_PARTY_SUBJECT_KINDS = (use.WORLD, use.RESPONSE)
HELPER_DOMAIN = {"獄訟": "詞訟"}  # matter → its domain in between_use (§10.3)

PARTIES_REASON = {
    "matter": "a lawsuit is two sides contending (二勢相勝, §8.15)",
    "subject": "the subject is the world or the response line: the question is read as "
    "between the asker and the other (§8.15)",
    "neither": "neither a lawsuit nor a subject of the world or the response: world against "
    "response is not read (§8.15 reads it for 人己之佔)",
}
BETWEEN_REASON = {
    HELPER: "§10.3's 詞訟 is the matter 獄訟: its between line is the witness 中證",
    OBSTACLE: "a question with no helper of §10.3 reads its between lines as §10.2's "
    "obstacles, which that passage gives for undertakings in general",
}


@dataclass(frozen=True)
class Parties:
    matter: str  # a matter, or NONE
    about: str  # a subject, or NONE
    two_parties: int
    reason: str


@dataclass(frozen=True)
class Between:
    matter: str  # a matter, or NONE
    between_use: str  # obstacle or helper
    domain: str | None  # the helper's domain in between_use (詞訟)
    reason: str


def two_parties(matter: str | None, about: str | None) -> bool:
    """Whether the question is between two parties (人己之佔, §8.15; a decision)."""
    return matter in TWO_PARTY_MATTERS or _kinds().get(about or NONE) in TWO_PARTY_SUBJECT_KINDS


@cache
def _kinds() -> dict[str, str]:
    return {s.name: s.kind for s in use.subjects()}


def between_use(matter: str | None) -> str:
    """What a question's between lines stand for: HELPER or OBSTACLE (§10.2–10.3)."""
    return HELPER if matter in HELPER_DOMAIN else OBSTACLE


def parties() -> tuple[Parties, ...]:
    """Every (matter, subject) a reading can store, NONE included, and whether it is a
    question between two parties."""
    out = []
    for matter in (NONE, *matters.matters()):
        for about in (NONE, *(s.name for s in use.subjects())):
            if matter in TWO_PARTY_MATTERS:
                two, reason = True, "matter"
            elif two_parties(None, about):
                two, reason = True, "subject"
            else:
                two, reason = False, "neither"
            out.append(Parties(matter, about, int(two), PARTIES_REASON[reason]))
    return tuple(out)


def betweens() -> tuple[Between, ...]:
    """Every matter a reading can store, NONE included, and what its between lines are."""
    out = []
    for matter in (NONE, *matters.matters()):
        kind = between_use(matter)
        out.append(Between(matter, kind, HELPER_DOMAIN.get(matter), BETWEEN_REASON[kind]))
    return tuple(out)
