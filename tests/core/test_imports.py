"""The shape of the package, from its imports: no import circle, the words a leaf, and nothing below the games that
imports a research adapter or an interface (issue 22, item 2). Imports made only for type checking
(``if TYPE_CHECKING:``) are not imports at run time and are left out; imports inside functions count."""

from __future__ import annotations

import ast
from pathlib import Path

import dreizehn

SRC = Path(dreizehn.__file__).parent
LOWER = ("dreizehn.cards", "dreizehn.core", "dreizehn.words", "dreizehn.games")
"""The engine: the value types, the game protocol, the words and the games."""
ABOVE = ("dreizehn.envs", "dreizehn.server", "dreizehn.cli", "dreizehn.tui", "dreizehn.sim", "dreizehn.distributed")
"""What builds on the engine: the research adapters and the interfaces, which the engine never imports (a game's
terminal drawing, ``games/<id>/terminal.py``, imports the terminal's helpers: it is loaded by the terminal, by name)."""


def _name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found |= {id(inner) for statement in node.body for inner in ast.walk(statement)}
    return found


def _graph() -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports at run time."""
    modules = {_name(path): path for path in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_only(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return found


GRAPH = _graph()


def test_the_graph_is_read() -> None:
    assert "dreizehn.core.errors" in GRAPH["dreizehn.core.game"]
    assert "dreizehn.games.knizia13.rules" in GRAPH["dreizehn.games.knizia13.words"]


def test_no_import_circle() -> None:
    assert _cycles(GRAPH) == []


def test_a_circle_is_found() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_words_are_a_leaf() -> None:
    words = {name: targets for name, targets in GRAPH.items() if name.startswith("dreizehn.words")}
    assert words and all(target.startswith("dreizehn.words") for targets in words.values() for target in targets)


def test_the_engine_imports_no_adapter_and_no_interface() -> None:
    wrong = sorted(f"{name} -> {target}" for name, targets in GRAPH.items() for target in targets
                   if name.startswith(LOWER) and not name.endswith(".terminal") and target.startswith(ABOVE))
    assert wrong == []
