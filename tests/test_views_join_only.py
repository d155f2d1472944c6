"""The views decide no rule: their SQL joins and filters the rule tables, and holds no CASE
expression and no arithmetic (string concatenation with ``||`` builds keys and labels only).
A rule found in a view belongs in ``yimao_db/kb/rules/`` and a rule table instead."""

from __future__ import annotations

import re

import pytest

from yimao_db.kb.views import views

STRINGS = re.compile(r"'(?:[^']|'')*'")
COMMENTS = re.compile(r"--[^\n]*")
STARS = re.compile(r"\bSELECT\s+(?:DISTINCT\s+)?\*|\.\*|\(\*\)|,\s*\*", re.IGNORECASE)
CASE = re.compile(r"\bCASE\b", re.IGNORECASE)
# an operand, an arithmetic operator, an operand (the stars of SELECT *, t.* and COUNT(*)
# are taken out first)
ARITHMETIC = re.compile(r"[\w.)]\s*[-+*/%]\s*[\w.(]")


def bare(sql: str) -> str:
    return STARS.sub(" ", STRINGS.sub("''", COMMENTS.sub("", sql)))


@pytest.mark.parametrize("name", sorted(views()))
def test_a_view_only_joins(name: str) -> None:
    sql = bare(views()[name].sql)
    assert not CASE.search(sql), f"{name} decides something in a CASE expression"
    assert not ARITHMETIC.findall(sql), f"{name} computes: {ARITHMETIC.findall(sql)}"


def test_the_checks_find_a_rule_written_in_sql() -> None:
    assert CASE.search(bare("SELECT CASE WHEN a = b THEN 1 END FROM t"))
    assert ARITHMETIC.search(bare("SELECT (l.position + 2) % 6 FROM t l"))
    assert ARITHMETIC.search(bare("SELECT a*b FROM t"))
    assert not ARITHMETIC.search(bare("SELECT * FROM t WHERE x = '1+1' -- a + b"))
    assert not ARITHMETIC.search(bare("SELECT COUNT(*), a || '-' || b FROM t"))
