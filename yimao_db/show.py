"""``yimao show``: a hexagram laid out as a practitioner reads it, from the public views."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, text

from yimao_db import lookup
from yimao_db.output import pad

YANG = "━━━━━━━"
YIN = "━━━ ━━━"


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


def render_hexagram(data: dict[str, Any]) -> str:
    hidden = {h["position"]: h for h in data["hidden"]}
    out = [
        f"{data['name']} ({data['short_name']}) · King Wen {data['king_wen']} · "
        f"bits {data['bits']} (bottom first)",
        f"{data['palace']}宮 {data['generation_name']} · palace element {data['palace_element']}"
        f" · world {data['world']} response {data['response']} · {data['five_star']}"
        f" · 卦身 {data['gua_shen']} · 世身 line {data['shi_shen_line']}",
        "",
    ]
    for line in reversed(data["lines"]):
        row = (
            f"  {line['position']} {YANG if line['yang'] else YIN}  "
            f"{line['relative']} {line['ganzhi']} {line['element']} {pad(marks(line), 2)}"
            f" {line['mansion']}"
        )
        h = hidden.get(line["position"])
        if h:
            row += f"   伏 {h['relative']} {h['ganzhi']} {h['element']}"
        out.append(row.rstrip())
    return "\n".join(out) + "\n"


def show(conn: Connection, typed: str) -> dict[str, Any]:
    return hexagram_data(conn, lookup.hexagram(conn, typed))
