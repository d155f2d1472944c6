"""The registry of sign families (``FAMILIES`` in yimao_db/kb/rules/signs.py) and what is
made from it: each family table's columns, keys, foreign keys and CHECKs from its key's
columns and their domains; one arm of v_reading_sign per family; the invariants' list of
family tables; the families table of docs/signs.md; and the 三合/三刑 arm, whose condition is
written once for both partners."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import CheckConstraint, Connection, Engine, text

from yimao_db.db import writer_engine
from yimao_db.kb import invariants
from yimao_db.kb.rules import signs
from yimao_db.kb.rules.sign_family import FLAG, INT, TEXT, Column, Domain, Family, per_line
from yimao_db.kb.schema import metadata
from yimao_db.kb.views import views
from yimao_db.present.sign_doc import FAMILIES_BEGIN, FAMILIES_END

ROOT = Path(__file__).resolve().parents[1]
TABLES = [f.table for f in signs.FAMILIES]


def test_the_registry() -> None:
    assert len(TABLES) == len(set(TABLES))
    assert set(signs.families()) == set(TABLES)
    # every sign's table is a family, and every family holds a sign
    assert {s.table for s in signs.SIGNS} == set(TABLES)
    for f in signs.FAMILIES:
        assert f.doc and f.reads and f.columns, f.table
        assert (f.keys is None) != (f.fires is None), f.table


@pytest.mark.parametrize("name", TABLES)
def test_a_family_table_is_made_from_its_declaration(name: str) -> None:
    f, t = signs.families()[name], metadata.tables[name]
    assert [c.name for c in t.columns] == [c.name for c in f.columns] + ["sign", "passage", "basis"]
    assert [c.name for c in t.primary_key] == [c.name for c in f.columns if c.primary_key] + [
        "sign"
    ]
    assert t.comment == " ".join(f.doc.split())
    checks = {c.name: c for c in t.constraints if isinstance(c, CheckConstraint)}
    for c in f.columns:
        column = t.c[c.name]
        assert column.comment == c.doc and not column.nullable
        assert column.type.python_type is (int if c.domain.type == INT else str)
        assert {k.target_fullname for k in column.foreign_keys} == (
            {c.domain.references} if c.domain.references else set()
        )
        if c.domain.is_flag:
            assert str(checks[f"ck_{name}_{c.name}_bool"].sqltext) == f"{c.name} IN (0, 1)"
        elif c.domain.listed is not None:
            listed = ", ".join(f"'{v}'" for v in c.domain.listed)
            assert str(checks[f"ck_{name}_{c.name}_domain"].sqltext) == f"{c.name} IN ({listed})"


def test_no_table_of_signs_outside_the_registry() -> None:
    """Every table keyed by the signs that fire is a family's (sign_weight is the weights')."""
    keyed = {
        t.name
        for t in metadata.tables.values()
        if any(k.target_fullname == "sign.name" for k in t.foreign_keys)
    }
    assert keyed == set(TABLES)


def test_the_domains_hold_every_value_their_tables_do(conn: Connection) -> None:
    """A domain looked up from the rules holds exactly the rows of the table its column
    refers to: the seeded family tables then hold every key where a sign fires."""
    seen = set()
    for f in signs.FAMILIES:
        for c in f.columns:
            target = c.domain.references
            if target is None or target in seen:
                continue
            seen.add(target)
            table, column = target.split(".")
            stored = set(conn.execute(text(f"SELECT {column} FROM {table}")).scalars())
            assert set(c.domain.values()) == stored, target
    assert len(seen) >= 10


def test_the_view_has_one_arm_per_family() -> None:
    sql = views()["v_reading_sign_computed"].sql  # the definition of v_reading_sign
    assert sql.count("UNION ALL") == len(TABLES) - 1
    for i, f in enumerate(signs.FAMILIES):
        assert f.select(first=i == 0) in sql, f.table
    assert [t for t in re.findall(r"JOIN (\w+_sign) ", sql)] == TABLES


def test_the_invariants_read_every_family_table(fresh_db: str) -> None:
    """Rows of a sign taken from its family's table: the invariants name it, for every family."""
    assert [t for t in re.findall(r"FROM (\w+_sign)\b", invariants.SIGN_ROWS)] == TABLES
    engine: Engine = writer_engine(fresh_db)
    try:
        with engine.connect() as conn:
            for f in signs.FAMILIES:
                name = next(s.name for s in signs.SIGNS if s.table == f.table)
                trans = conn.begin()
                conn.execute(text(f"DELETE FROM {f.table} WHERE sign = :s"), {"s": name})
                failed = dict(invariants.violations(conn))
                trans.rollback()
                assert (name,) in failed["every sign can fire: the rule table it names holds it"]
    finally:
        engine.dispose()


def test_docs_signs_md_lists_every_family() -> None:
    text_ = (ROOT / "docs" / "signs.md").read_text(encoding="utf-8")
    block = text_[text_.index(FAMILIES_BEGIN) : text_.index(FAMILIES_END)]
    assert [m for m in re.findall(r"^\| `(\w+)` \|", block, re.M)] == TABLES
    for s in signs.SIGNS:
        assert re.search(rf"^\| `{s.table}` \|.* {s.name}( |$)", block, re.M), s.name


def test_the_group_arm_writes_the_partners_condition_once() -> None:
    """三合 and 三刑: the condition a partner must meet is written once, for the branch rows
    partner_a and partner_b name (it was written twice, once per partner)."""
    arm = re.sub(r"--[^\n]*", "", signs.families()["world_group_sign"].arm)
    assert arm.count("partner_a") == arm.count("partner_b") == 1
    assert arm.count("by_day") == arm.count("by_moving") == arm.count("by_changed") == 1


# --- the declarations refuse what cannot be made -------------------------------------------------

ARM = "JOIN hexagram_line l ON l.king_wen = r.primary_kw\nJOIN new_sign n ON n.element = l.element"


def family(**changes: object) -> Family:
    fields: dict[str, object] = {
        "table": "new_sign",
        "doc": "d",
        "reads": "r",
        "columns": (Column("element", signs.ELEMENT, "e"),),
        "position": "l.position",
        "arm": ARM,
        "keys": per_line(lambda r, f: (f.element,)),
    }
    return Family(**{**fields, **changes})  # type: ignore[arg-type]


def test_a_declaration_that_cannot_be_made_is_refused() -> None:
    made = family()
    assert made.alias == "n" and made.key.__name__ == "NewSignKey"
    assert "SELECT r.id, n.sign, l.position\n  FROM reading r\n  JOIN hexagram_line" in (
        made.select(first=False)
    )
    with pytest.raises(ValueError, match="must join its table once"):
        family(arm="JOIN hexagram_line l ON l.king_wen = r.primary_kw")
    with pytest.raises(ValueError, match="builds keys or fires"):
        family(fires=lambda r: [])
    with pytest.raises(ValueError, match="gives its rows"):
        family(keys=None, fires=lambda r: [])
    with pytest.raises(ValueError, match="has a length"):
        Domain(TEXT, listed=("a",))
    with pytest.raises(ValueError, match="not both"):
        Domain(INT, listed=(1,), lookup=lambda: (1,))
    assert FLAG.is_flag and FLAG.values() == (0, 1)
