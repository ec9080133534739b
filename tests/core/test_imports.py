"""The shape of the package, from its imports: its rooms on floors, no import running up a floor and no circle, even
through imports made only for type checking (``if TYPE_CHECKING:``); the words a leaf (issue 22, item 2; issue 44,
item 2). Imports inside functions count."""

from __future__ import annotations

import ast
from pathlib import Path

import dreizehn

SRC = Path(dreizehn.__file__).parent
FLOORS: tuple[tuple[str, ...], ...] = (
    ("dreizehn.words",),
    ("dreizehn", "dreizehn.core"),
    ("dreizehn.bots",),
    ("dreizehn.games",),
    ("dreizehn.play",),
    ("dreizehn.study",),
    ("dreizehn.envs",),
    ("dreizehn.tui", "dreizehn.server"),
    ("dreizehn.cli",),
)
"""The house's floors, lowest first (docs/architecture.md): the words; the core (values, the game protocol, records,
the wire, the kernels' and encoders' protocols, the terminal drawing's helpers); the bots; the games; one table being
played; many games at once; the research adapters; the interfaces; the command line. A module imports only from its
own floor or below. What is found by name at run time (a game's module, its kernel, heuristic, encoder and drawing)
is no import."""


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


def _graph(type_only: bool = False) -> dict[str, set[str]]:
    """Each module of the package -> the modules of the package it imports at run time (and for type checking only,
    with ``type_only``)."""
    modules = {_name(path): path for path in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = set() if type_only else _type_only(tree)
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


def _floor(module: str) -> int:
    """The floor of a module: that of the longest room name it starts with."""
    rooms = [(len(room), number) for number, rooms in enumerate(FLOORS) for room in rooms
             if module == room or module.startswith(room + ".")]
    assert rooms, f"{module} is on no floor: name its room in FLOORS"
    return max(rooms)[1]


def test_every_room_is_on_a_floor() -> None:
    assert sorted({_floor(name) for name in GRAPH}) == list(range(len(FLOORS)))


def test_no_import_runs_up_a_floor() -> None:
    """Type-only imports count here too: a type that names a room above is an arrow up."""
    wrong = sorted(f"{name} -> {target}" for name, targets in _graph(type_only=True).items() for target in targets
                   if _floor(target) > _floor(name))
    assert wrong == []


def test_no_circle_even_type_only() -> None:
    assert _cycles(_graph(type_only=True)) == []


def test_an_arrow_up_is_found() -> None:
    assert _floor("dreizehn.core.game") < _floor("dreizehn.games.knizia13.rules") < _floor("dreizehn.play.table")
    assert _floor("dreizehn.server.app") > _floor("dreizehn.study.sim")
