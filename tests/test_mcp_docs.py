"""docs/mcp.md: its transcript of a session is what `yimao mcp --allow-writes` answers, and it
names every tool the server offers.

The transcript is made by running the session it shows (a client of the MCP SDK on a
freshly built SQLite database); ``python tests/test_mcp_docs.py`` rewrites it after a
change to what the server answers.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from mcp_client import Session, stdio, texts

from yimao_db.building import build

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "mcp.md"
BEGIN, END = "<!-- transcript:begin -->", "<!-- transcript:end -->"
BLOCK = re.compile(re.escape(BEGIN) + r"\n```text\n(.*?)```\n" + re.escape(END), re.S)

CAST = {
    "lines": "水火既濟之澤雷隨",
    "at": "2026-11-30T09:15",
    "question": "Will the shipment arrive?",
    "matter": "wealth",
    "format": "markdown",
}
SIGNS = (
    "SELECT sign, position, polarity, passage FROM v_reading_sign "
    "WHERE reading_id = :id AND weight >= 4 ORDER BY weight DESC, position"
)
# the session: (kind, name, arguments)
STEPS: list[tuple[str, str, dict[str, Any]]] = [
    ("tools", "", {}),
    ("call", "show", {"name": "姤", "format": "markdown"}),
    ("call", "cast", CAST),
    ("call", "sql", {"query": SIGNS, "params": {"id": 1}}),
    ("call", "passages", {"query": "§9.2"}),
    (
        "call",
        "outcome",
        {"reading_id": 1, "verdict": "hit", "on": "2026-12-02", "text": "it came on the 2nd"},
    ),
    ("call", "tag", {"reading_id": 1, "tags": ["shipment"]}),
    ("call", "stats", {}),
    ("call", "chart", {"reading_id": 2}),
    ("prompt", "read_chart", {"reading_id": "1"}),
]


def _arguments(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, ensure_ascii=False)


def render(session: Session) -> str:
    """The transcript of :data:`STEPS` against ``session``."""
    out: list[str] = []
    for kind, name, arguments in STEPS:
        if kind == "tools":
            out.append("> list_tools()")
            out.append(" ".join(t.name for t in session.tools()))
        elif kind == "call":
            out.append(f"> call_tool({name!r}, {_arguments(arguments)})")
            result = session.call(name, arguments)
            shown = "\n".join(t.rstrip("\n") for t in texts(result))
            out.append(("isError: " if result.is_error else "") + shown)
        else:
            out.append(f"> get_prompt({name!r}, {_arguments(arguments)})")
            [message] = session.prompt(name, arguments).messages
            assert message.content.type == "text"
            out.append(f"[{message.role}]")
            out.append(message.content.text.rstrip("\n"))
        out.append("")
    return "\n".join(out)


def session_transcript(db: str, errlog: Path) -> str:
    with stdio(db, "--allow-writes", errlog=errlog) as session:
        return render(session)


def test_the_transcript_is_what_the_server_answers(sqlite_built_db: str, tmp_path: Path) -> None:
    found = BLOCK.search(DOC.read_text(encoding="utf-8"))
    assert found is not None, "docs/mcp.md has no transcript block"
    made = session_transcript(sqlite_built_db, tmp_path / "stderr.txt")
    assert found.group(1) == made, "docs/mcp.md is stale: run `python tests/test_mcp_docs.py`"


def test_every_tool_and_option_is_documented() -> None:
    from yimao_db.mcp.knowledge import READ_CHART, RESOURCES, TEMPLATES
    from yimao_db.mcp.tools import TOOLS

    text = DOC.read_text(encoding="utf-8")
    for tool in TOOLS:
        assert f"| `{tool.name}(" in text, tool.name
        for argument in tool.input_schema["properties"]:
            assert argument in text.split(f"| `{tool.name}(", 1)[1].split("\n", 1)[0], argument
    for uri in [*(r.uri for r in RESOURCES), *(t.uri_template for t in TEMPLATES)]:
        assert f"`{uri}`" in text
    assert f"`{READ_CHART.name}(reading_id)`" in text
    for option in ("--http", "--allow-remote", "--allow-writes", "--db"):
        assert option in text


def main() -> None:
    """Rewrite the transcript in docs/mcp.md."""
    with tempfile.TemporaryDirectory() as where:
        db = Path(where) / "yimao.db"
        build(str(db))
        made = session_transcript(str(db), Path(where) / "stderr.txt")
    text = DOC.read_text(encoding="utf-8")
    fresh = f"{BEGIN}\n```text\n{made}```\n{END}"
    DOC.write_text(BLOCK.sub(lambda _: fresh, text), encoding="utf-8")
    sys.stdout.write(f"rewrote the transcript in {DOC}\n")


if __name__ == "__main__":
    main()
