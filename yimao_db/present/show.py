"""``yimao show``: any name of the book's vocabularies, resolved through ``name_alias``.

A hexagram is laid out as a practitioner reads it, from the public views; hexagram names
keep priority (乾 is a hexagram, a trigram and a palace: the hexagram is shown and the other
kinds are mentioned). Any other name shows, for each kind it names (玄武 is a spirit and a
general), its row, its aliases and every rule and symbol row that refers to it, each with
the passage it cites.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Table, and_, or_, select, text

from yimao_db import lookup
from yimao_db.errors import UsageError, shown
from yimao_db.kb import names, schema
from yimao_db.kb.names import VOCABULARIES
from yimao_db.kb.vocab import YANG_BAR, YIN_BAR
from yimao_db.present.table import pad, render, terminal_layout

# (``schema.metadata``, every table declared, is loaded only when a name that is no hexagram
# is shown: laying out a hexagram reads the views alone)

# tables whose (item, item_kind) columns name an entity of another vocabulary by kind
SOFT_REFERENCES = ("matter_preference",)


def hexagram_data(conn: Connection, king_wen: int) -> dict[str, Any]:
    """The hexagram, its lines (bottom first) and hidden spirits, as plain data."""
    head = conn.execute(text("SELECT * FROM v_hexagram WHERE king_wen = :kw"), {"kw": king_wen})
    data: dict[str, Any] = dict(head.mappings().one())
    lines = conn.execute(
        text("SELECT * FROM v_line WHERE king_wen = :kw ORDER BY position"), {"kw": king_wen}
    )
    data["lines"] = [dict(r) for r in lines.mappings()]
    hidden = conn.execute(
        text("SELECT * FROM v_hidden WHERE king_wen = :kw ORDER BY position"), {"kw": king_wen}
    )
    data["hidden"] = [dict(r) for r in hidden.mappings()]
    return data


def marks(line: dict[str, Any]) -> str:
    return "世" if line["is_world"] else "應" if line["is_response"] else ""


def hexagram_head(data: dict[str, Any]) -> tuple[str, str]:
    """A hexagram's two header lines: its names and bits; palace, generation and bodies."""
    return (
        f"{data['name']} ({data['short_name']}) · King Wen {data['king_wen']} · "
        f"bits {data['bits']} (bottom first)",
        f"{data['palace']}宮 {data['generation_name']} · palace element {data['palace_element']}"
        f" · world {data['world']} response {data['response']} · {data['five_star']}"
        f" · 卦身 {data['gua_shen']} · 世身 line {data['shi_shen_line']}",
    )


def also_text(data: dict[str, Any]) -> str | None:
    """The line naming the other kinds a hexagram's name has (乾: a trigram, a palace)."""
    also = data.get("also") or []
    if not also:
        return None
    kinds = " and ".join(f"a {lookup.KIND_NAMES.get(a['kind'], a['kind'])}" for a in also)
    options = ", ".join(f"--kind {a['kind']}" for a in also)
    return f"{data['short_name']} is also {kinds} (yimao show {data['short_name']} {options})"


def render_hexagram(data: dict[str, Any]) -> str:
    hidden = {h["position"]: h for h in data["hidden"]}
    out = [*hexagram_head(data), ""]
    for line in reversed(data["lines"]):
        row = (
            f"  {line['position']} {YANG_BAR if line['yang'] else YIN_BAR}  "
            f"{line['relative']} {line['ganzhi']} {line['element']} {pad(marks(line), 2)}"
            f" {line['mansion']}"
        )
        h = hidden.get(line["position"])
        if h:
            row += f"   伏 {h['relative']} {h['ganzhi']} {h['element']}"
        out.append(row.rstrip())
    also = also_text(data)
    if also:
        out += ["", also]
    return terminal_layout(out)  # stored text, shown terminal-safe


# --- other vocabularies -------------------------------------------------------------------


def cited_tables() -> list[Table]:
    """The rule and symbol tables: every table with a passage column, but the docs ones."""
    return sorted(
        (t for t in schema.metadata.tables.values() if "passage" in t.c and "basis" in t.c),
        key=lambda t: t.name,
    )


def _ranks(conn: Connection, table: Table) -> dict[Any, int]:
    """A vocabulary's names in their own order (by ``ordinal``), for sorting rows."""
    cache: dict[str, dict[Any, int]] = conn.info.setdefault("yimao_show_ranks", {})
    if table.name not in cache:
        ranks: dict[Any, int] = {}
        if "ordinal" in table.c:
            for key, ordinal in conn.execute(
                select(*table.primary_key.columns, table.c.ordinal)
            ).tuples():
                ranks[key] = ordinal
        cache[table.name] = ranks
    return cache[table.name]


def _order(conn: Connection, table: Table, row: dict[str, Any]) -> tuple[Any, ...]:
    """Sort key for a row: each key column by its vocabulary's order (甲 乙 丙 …, 子 丑 …)."""
    key: list[tuple[int, str]] = []
    for column in table.primary_key.columns:
        rank = None
        for fk in column.foreign_keys:
            rank = _ranks(conn, fk.column.table).get(row[column.name])
        key.append((rank if rank is not None else 0, str(row[column.name])))
    return tuple(key)


def _sorted_rows(
    conn: Connection, table: Table, rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: _order(conn, table, r))


def related_rows(conn: Connection, kind: str, table: Table, row: dict[str, Any]) -> list[Any]:
    """Every rule and symbol table's rows that refer to ``row`` of ``table``."""
    found = []
    for other in cited_tables():
        if other is table:
            continue
        conditions = [
            other.c[fk.parent.name] == row[fk.column.name]
            for fk in sorted(other.foreign_keys, key=lambda fk: fk.parent.name)
            if fk.column.table is table
        ]
        if other.name in SOFT_REFERENCES:
            conditions.append(and_(other.c.item == row["name"], other.c.item_kind == kind))
        if not conditions:
            continue
        query = select(other).where(or_(*conditions))
        rows = _sorted_rows(conn, other, [dict(r) for r in conn.execute(query).mappings()])
        if rows:
            found.append({"table": other.name, "description": other.comment, "rows": rows})
    return found


def _notes(conn: Connection, kind: str, name: str) -> list[str]:
    """A few derived facts worth a line of their own."""
    notes: list[str] = []
    if kind == "spirit":
        stems = conn.execute(
            text(
                "SELECT d.day_stem FROM day_spirit d JOIN stem s ON s.name = d.day_stem "
                "WHERE d.spirit = :name AND d.position = 1 ORDER BY s.ordinal"
            ),
            {"name": name},
        ).scalars()
        notes.append(f"司日: on line 1 on {' '.join(stems)} days, then up the cycle (§7.2)")
    if kind == "sign":
        notes += _sign_notes(conn, name)
    if kind == "palace":
        rows = conn.execute(
            text(
                "SELECT h.short_name FROM hexagram h WHERE h.palace = :name ORDER BY h.generation"
            ),
            {"name": name},
        ).scalars()
        notes.append(f"hexagrams 本宮 → 歸魂: {' '.join(rows)} (§3.3)")
    return notes


def _sign_notes(conn: Connection, name: str) -> list[str]:
    """A sign as a reader asks about it: when it fires, what it means, which way it pulls,
    how much it weighs, what it rests on, and how often it fires in the stored readings."""
    s = (
        conn.execute(
            text(
                "SELECT s.*, w.name AS weighs_as FROM sign s "
                "JOIN sign_weight w ON w.weight = s.weight WHERE s.name = :name"
            ),
            {"name": name},
        )
        .mappings()
        .one()
    )
    counted = conn.execute(  # no row: it fired nowhere
        text("SELECT fired, readings FROM v_sign_count WHERE sign = :name"), {"name": name}
    ).one_or_none()
    fired, readings = counted if counted is not None else (0, 0)
    (stored,) = conn.execute(text("SELECT COUNT(*) FROM reading")).one()
    polarity = f"中, cancels {s['cancels']}" if s["cancels"] else s["polarity"]
    passage = f"§{s['passage']}" if s["passage"] else "no passage"
    return [
        f"condition: {s['condition']}",
        f"meaning: {s['meaning']} ({s['meaning_zh']})",
        f"polarity: {polarity} · weight {s['weight']} ({s['weighs_as']}) · subject {s['subject']}",
        f"rests on: {passage} · basis {s['basis']} · rule table {s['rule_table']}",
        f"fires: {fired} time{'s' if fired != 1 else ''} in {readings} of the {stored} stored "
        f"reading{'s' if stored != 1 else ''}",
    ]


def entity_data(conn: Connection, kind: str, name: str) -> dict[str, Any]:
    """One entity: its row, its aliases and the rule and symbol rows that refer to it."""
    table_name, key = VOCABULARIES[kind]
    table = schema.metadata.tables[table_name]
    row = dict(conn.execute(select(table).where(table.c[key] == name)).mappings().one())
    aliases = conn.execute(
        text(
            "SELECT alias, form FROM name_alias WHERE kind = :kind AND canonical = :name "
            "AND alias <> :name ORDER BY form, alias"
        ),
        {"kind": kind, "name": name},
    )
    return {
        "kind": kind,
        "name": name,
        "table": table_name,
        "row": row,
        "aliases": [dict(a) for a in aliases.mappings()],
        "notes": _notes(conn, kind, name),
        # a sign's rule rows are its condition, enumerated: its notes say it in words
        "related": [] if kind == "sign" else related_rows(conn, kind, table, row),
    }


def show(conn: Connection, typed: str, kind: str | None = None) -> dict[str, Any]:
    """What ``typed`` names: a hexagram's layout data (``kind`` = hexagram, plus ``also``),
    or ``{"query", "entities": [...]}`` for every other kind it names."""
    found = lookup.entities(conn, typed)
    if kind is None:
        found = _hexagrams_first(conn, typed, found)
    if kind is not None:
        chosen = [f for f in found if f[0] == kind]
        if not chosen:
            meant = lookup.candidates(conn, typed, kind)
            if len(meant) > 1:
                raise lookup.ambiguous(typed, meant, conn, kind)
            chosen = [m[:2] for m in meant]
        if not chosen:
            names = ", ".join(f"{k} {c}" for k, c in found)
            raise UsageError(f"{shown(typed)} is not a {kind} name; it names: {names}")
        found = chosen
    first_kind, first_name = found[0]
    if first_kind == "hexagram":
        data = hexagram_data(conn, int(first_name))
        data["kind"] = "hexagram"
        data["also"] = [{"kind": k, "name": c} for k, c in found[1:]]
        return data
    return {"query": typed, "entities": [entity_data(conn, k, c) for k, c in found]}


def _hexagrams_first(
    conn: Connection, typed: str, found: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """Hexagrams keep priority for pinyin typed without tones too: ``kun`` names the trigram
    坤 exactly, and reads as the hexagrams 坤 kūn and 困 kùn, so it is an error listing all
    three (as ``qian``: 乾 qián, 謙 qiān and the trigram 乾), where 坤 or 困 alone would
    have been shown; a name that reads as one hexagram shows it, the other kinds mentioned
    below it. A name with tones (``jīn``, the element 金, not 晉 jìn) is what it says."""
    if any(k == "hexagram" for k, _ in found) or names.toneless(typed) != typed:
        return found
    meant = lookup.candidates(conn, typed, "hexagram")
    if len(meant) == 1:
        return [meant[0][:2], *found]
    if meant:
        also = [(k, c, typed) for k, c in found]
        raise lookup.ambiguous(typed, [*meant, *also], conn, hint=f"or give --kind {found[0][0]}")
    return found


def value_text(value: Any) -> str:
    """A stored value as shown: NULL for None."""
    return "NULL" if value is None else str(value)


def entity_title(entity: dict[str, Any]) -> str:
    """An entity's first line: its name and the kind it is (玄武 · spirit 六神)."""
    return f"{entity['name']} · {lookup.KIND_NAMES.get(entity['kind'], entity['kind'])}"


def aliases_text(entity: dict[str, Any]) -> str | None:
    """An entity's aliases grouped by form, or None when it has none."""
    forms: dict[str, list[str]] = {}
    for a in entity["aliases"]:
        forms.setdefault(a["form"], []).append(a["alias"])
    if not forms:
        return None
    return "aliases: " + " · ".join(f"{', '.join(v)} ({form})" for form, v in forms.items())


def group_caption(group: dict[str, Any]) -> str:
    """A related table's caption: its name and how many rows refer to the entity."""
    count = len(group["rows"])
    return f"{group['table']} ({count} row{'s' if count != 1 else ''})"


def render_entity(entity: dict[str, Any]) -> str:
    out = [entity_title(entity)]
    if entity["kind"] != "sign":  # a sign's notes say its row in words
        row = " · ".join(f"{k} {value_text(v)}" for k, v in entity["row"].items())
        out.append(f"  {entity['table']}: {row}")
    aliases = aliases_text(entity)
    if aliases:
        out.append(f"  {aliases}")
    out += [f"  {note}" for note in entity["notes"]]
    for group in entity["related"]:
        rows = group["rows"]
        columns = list(rows[0])
        out += ["", f"  {group_caption(group)}:"]
        table = render(columns, [[r[c] for c in columns] for r in rows])
        out += [f"    {line}".rstrip() for line in table.splitlines()]
    return terminal_layout(out)  # stored text, shown terminal-safe


def render_show(data: dict[str, Any]) -> str:
    """The text layout of what :func:`show` returned."""
    if data.get("kind") == "hexagram":
        return render_hexagram(data)
    return "\n".join(render_entity(e) for e in data["entities"])
