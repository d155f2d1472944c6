"""Seed: the subjects a reading may be asked about and the rule choosing its 用神 (§6, §8.14–8.15,
§9.5; :mod:`yimao_db.kb.rules.use`, docs/use.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from yimao_db.kb.facts import facts
from yimao_db.kb.rules import questions, use

Rows = dict[str, list[dict[str, Any]]]


def cite(passage: str | None, basis: str) -> dict[str, Any]:
    return {"passage": passage, "basis": basis}


def rows(done: Mapping[str, list[dict[str, Any]]]) -> Rows:
    ranks = use.rank_count()
    return {
        "subject": [
            {
                "name": s.name,
                "kind": s.kind,
                "relative": s.relative,
                "place": s.place,
                "gloss": s.gloss,
                "symbol": s.symbol,
                "reason": s.reason,
                **cite(s.passage, s.basis),
            }
            for s in use.subjects()
        ],
        "matter_subject": [
            {
                "matter": m,
                "subject": s,
                "is_default": d,
                "reason": use.MATTER_REASON,
                **cite("9.5", use.DECISION),
            }
            for m, s, d in use.matter_subjects()
        ],
        "use_role": [
            {
                "role": r.role,
                "ordinal": r.ordinal,
                "mark": use.ROLE_MARK[r.role],
                "gloss": r.gloss,
                "by_place": r.by_place,
                **cite(r.passage, r.basis),
            }
            for r in use.roles()
        ],
        "relative_role": [
            {
                "use_relative": rel,
                "role": role,
                "relative": use.chain_relative(rel, role),
                **cite("5.5", use.STANDARD),
            }
            for rel in facts().relatives
            for role in use.ROLES
        ],
        "use_candidate_rank": [
            {
                **asdict(k),
                "rank": use.candidate_rank(k),
                **cite(None, use.DECISION),
            }
            for k in use.candidate_keys()
        ],
        "use_loss_reason": [
            {
                "winner_rank": w,
                "loser_rank": lo,
                "criterion": use.loss_criterion(w, lo),
                "reason": use.loss_reason(w, lo),
                **cite(None, use.DECISION),
            }
            for w in range(1, ranks + 1)
            for lo in range(w, ranks + 1)
        ],
        "fly_hidden_relation": [
            {
                "fly_element": a,
                "hidden_element": b,
                "relation": use.fly_relation(a, b),
                **cite("6.2", use.STANDARD),
            }
            for a in facts().elements
            for b in facts().elements
        ],
        "use_rule": [
            {
                "step": s.step,
                "ordinal": s.ordinal,
                "text": s.text,
                "reason": s.reason,
                **cite(s.passage, s.basis),
            }
            for s in use.RULE
        ],
        "question_parties": [
            {**asdict(q), **cite("8.15", use.DECISION)} for q in questions.parties()
        ],
        "question_between": [
            {
                **asdict(b),
                **cite("10.3" if b.between_use == questions.HELPER else "10.2", use.DECISION),
            }
            for b in questions.betweens()
        ],
    }


def checks(tables: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    out = []
    # the book's own chain: wealth's 原神 is 子孫, its 忌神 兄弟, its 仇神 父母 (§6.5–6.6)
    chain = {
        r["role"]: r["relative"] for r in tables["relative_role"] if r["use_relative"] == "妻財"
    }
    if chain != {"用神": "妻財", "原神": "子孫", "忌神": "兄弟", "仇神": "父母"}:
        out.append(f"relative_role of 妻財 is {chain}")
    names = {r["name"] for r in tables["subject"]}
    if len(names) != len(tables["subject"]):
        out.append("subject names are not unique")
    images = [r for r in tables.get("relative_symbol", []) if r["aspect"] == "image"]
    missing = [r["symbol"] for r in images if r["symbol"] not in names]
    if missing:
        out.append(f"book images without a subject: {missing}")
    # §8.15: a lawsuit is between two parties, a question with neither matter nor subject is
    # not; §10.3: a lawsuit's between line is its witness (between_use 詞訟)
    parties = {(r["matter"], r["about"]): r["two_parties"] for r in tables["question_parties"]}
    if parties.get(("獄訟", "")) != 1 or parties.get(("", "")) != 0 or parties.get(("", "應")) != 1:
        out.append("question_parties: 獄訟 and 應 are between two parties, no question is not")
    between = {r["matter"]: r["domain"] for r in tables["question_between"]}
    if between.get("獄訟") != "詞訟" or between.get("") is not None:
        out.append(f"question_between: 獄訟's between line is 詞訟's helper, found {between}")
    return out
