"""The package's import graph: layers that only import downward, and no cycle.

Every ``import`` of a ``yimao_db`` module anywhere in a module counts, the ones inside a
function included (a lazy import is still an arrow). The layers are those of
docs/architecture.md ("The rooms"): base, the knowledge base, readings and journal,
presentation, interfaces.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "yimao_db"

BASE, KNOWLEDGE, READINGS, PRESENTATION, INTERFACES = range(5)
LAYER_NAMES = ("base", "knowledge base", "readings and journal", "presentation", "interfaces")
TOP_LEVEL = {  # the first name under yimao_db → its layer; the rest is READINGS
    "errors": BASE,
    "paths": BASE,
    "sigint": BASE,
    "withdrawal": BASE,
    "dialect": BASE,
    "db": BASE,
    "inputs": BASE,
    "kb": KNOWLEDGE,
    "present": PRESENTATION,
    "cli": INTERFACES,
    "commands": INTERFACES,
    "web": INTERFACES,
    "mcp": INTERFACES,
    "__main__": INTERFACES,
    "": INTERFACES,  # the package itself: the Python API
}


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _module(name: str) -> str:
    """The module ``name`` is or lives in (an imported name may be a function)."""
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports(module: str) -> set[str]:
    """The package's modules ``module`` imports, anywhere in its text."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {_module(a.name) for a in node.names if a.name.startswith("yimao_db")}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("yimao_db"):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    found.add(full if full in MODULES else _module(node.module))
    found.discard(module)
    return found


GRAPH = {m: imports(m) for m in MODULES}


def layer(module: str) -> int:
    first = module.split(".")[1] if "." in module else ""
    return TOP_LEVEL.get(first, READINGS)


def test_the_graph_is_read() -> None:
    """The reader finds the arrows it must (so that the tests below cannot pass empty)."""
    assert "yimao_db.kb.rules.elements" in GRAPH["yimao_db.kb.expected.chart"]
    assert "yimao_db.readings" in GRAPH["yimao_db.commands.readings"]
    assert len(MODULES) > 80


def test_every_arrow_points_down() -> None:
    """No module imports from a layer above its own: the knowledge base knows nothing of
    readings, nothing below the interfaces imports ``commands`` or ``web``."""
    upward = [
        f"{a} ({LAYER_NAMES[layer(a)]}) -> {b} ({LAYER_NAMES[layer(b)]})"
        for a, targets in GRAPH.items()
        for b in sorted(targets)
        if layer(b) > layer(a)
    ]
    assert upward == []


@pytest.mark.parametrize("target", ["yimao_db.commands", "yimao_db.cli", "yimao_db.web"])
def test_only_the_interfaces_import_the_interfaces(target: str) -> None:
    importers = [
        a
        for a, targets in GRAPH.items()
        if not a.startswith(target)
        and layer(a) < INTERFACES
        and any(b == target or b.startswith(target + ".") for b in targets)
    ]
    assert importers == []


def test_no_cycle() -> None:
    """No module reaches itself by following imports (Tarjan's strongly connected parts)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                cycles.append(sorted(part))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert cycles == []


# what the presentation and the web may take from the rules instead of the views, and why
RULES_READ_BY_PEOPLE = {
    ("yimao_db.present.sign_doc", "yimao_db.kb.rules.signs"): "docs/signs.md is the catalogue",
}


def test_people_read_rule_facts_from_the_views() -> None:
    """present/ and web/ do not recompute what the rules decide (a line's yin or yang, its
    moving, the relations of the day): they read the views' columns. The exceptions are
    listed, each with its reason."""
    found = {
        (a, b)
        for a, targets in GRAPH.items()
        if a.startswith(("yimao_db.present", "yimao_db.web"))
        for b in targets
        if b.startswith("yimao_db.kb.rules") or b.startswith("yimao_db.kb.expected")
    }
    assert found == set(RULES_READ_BY_PEOPLE)
    for module in (m for m in MODULES if m.startswith(("yimao_db.present", "yimao_db.web"))):
        source = MODULES[module].read_text(encoding="utf-8")
        assert "in (7, 9)" not in source and "in (6, 9)" not in source, module
