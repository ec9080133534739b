"""No Python function of the project's longer than 80 lines, counted as ESLint's ``max-lines-per-function`` counts
the browser client's (eslint.config.js): from the ``def`` to its end, blank lines, comment lines and the docstring
left out, a nested function counted in the one that holds it. The package, the benchmarks, the examples and the
tests are read."""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("src", "benchmarks", "examples", "tests")
LIMIT = 80

ALLOWED: dict[tuple[str, str], str] = {
    ("src/dreizehn/games/three_thirteen/melds.py", "_rec_min"): (
        "the meld solver's branch and bound, compiled by numba: its parameters are the search's state, and its four "
        "branches (run, high ace, set, unmatched) each recurse; split into functions that call each other, its "
        "compiled code would be recursive across functions, which numba's disk cache does not load reliably "
        "(recursive functions loaded from the cache crash: numba issue 6061)"),
    ("src/dreizehn/games/three_thirteen/melds.py", "_rec_out"): "the same search for the cards one may go out with, "
    "compiled alike, for the same reason",
}
"""(file, function) -> why it may be longer."""


def counted_lines(source: str) -> Iterator[tuple[str, int, int]]:
    """Each function of ``source``: its name, first line and counted lines."""
    tree = ast.parse(source)
    lines = source.splitlines()
    comments = {token.start[0] for token in tokenize.generate_tokens(io.StringIO(source).readline)
                if token.type == tokenize.COMMENT and lines[token.start[0] - 1].lstrip().startswith("#")}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        skipped = set(comments)
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            skipped.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
        end = node.end_lineno or node.lineno
        count = sum(1 for n in range(node.lineno, end + 1) if lines[n - 1].strip() and n not in skipped)
        yield node.name, node.lineno, count


def test_no_function_is_longer_than_80_lines() -> None:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            for name, line, count in counted_lines(path.read_text(encoding="utf-8")):
                if count > LIMIT and (where, name) not in ALLOWED:
                    found.append(f"{where}:{line} {name}: {count} lines")
    assert not found, f"functions longer than {LIMIT} lines (split them, or say in ALLOWED why not):\n" + "\n".join(
        found)


def test_every_allowed_function_is_still_long() -> None:
    """An entry of :data:`ALLOWED` whose function was split or removed goes too."""
    for (where, name) in ALLOWED:
        counts = {n: c for n, _, c in counted_lines((ROOT / where).read_text(encoding="utf-8"))}
        assert counts.get(name, 0) > LIMIT, (where, name, counts.get(name))


def test_the_count_leaves_out_blank_lines_comments_and_the_docstring() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    source = f'def f():\n    """One.\n\n    Two."""\n\n    # a comment\n{body}\n    return x0  # counted\n'
    assert list(counted_lines(source)) == [("f", 1, LIMIT + 2)]  # the def, the body and the return
    nested = "def outer():\n    def inner():\n        return 1\n\n    return inner\n"
    assert sorted(counted_lines(nested)) == [("inner", 2, 2), ("outer", 1, 4)]
