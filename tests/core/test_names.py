"""No two modules of the package define a public function of the same name unless the name means one thing in both:
``bot_names`` once named the kinds of bot and names for nameless bot seats, ``rate`` both the ratings' update and the
hints' rating of moves, ``searched`` both the actions a search looks at and a game's searched levels. A shared name
is accepted only where it is of a kind listed here, with why."""

from __future__ import annotations

import ast
from collections import defaultdict
from fnmatch import fnmatch
from pathlib import Path
from typing import get_args

import dreizehn

SRC = Path(dreizehn.__file__).parent

KINDS: dict[str, tuple[str, ...]] = {
    # Modules of one role, each game's implementing one protocol: a name says the same in each.
    "a game's compiled kernels: the game's, its search's, its bot's (docs/vector.md: make, apply, legal, playout)": (
        "games/*/kernel.py", "games/*/compiled.py", "games/*/bot_kernel.py"),
    "a game's compiled search, and the tree search it plugs into (determinize, prepare, finish, rate)": (
        "games/*/search.py", "bots/tree.py"),
    "a game's heuristic (bots/advice.py: act, rank, playout_action, estimate)": ("games/*/heuristic.py",),
    "a game's rules (refusal, explain_points)": ("games/*/rules.py",),
    "a game's encoder (core/encoding.py)": ("games/*/encoder.py",),
    "the terminal drawing, which asks a game's own first (card_label, card_style, table, read_move)": (
        "core/terminal.py", "games/*/terminal.py"),
    "a research adapter, each registering the games with its library": ("envs/*.py",),
    "a database migration (Alembic's upgrade and downgrade)": ("server/migrations/versions/*.py",),
}
"""Kinds of module whose functions share names by design -> the modules of that kind (patterns under the package)."""

SAME: dict[str, tuple[tuple[str, ...], str]] = {
    # A Python function and its compiled twin, which tests check to give the same answers.
    "card_value": (("games/three_thirteen/melds.py", "games/three_thirteen/kernel_heuristic.py"), "compiled twin"),
    "min_penalty": (("games/three_thirteen/melds.py", "games/three_thirteen/kernel_heuristic.py"), "compiled twin"),
    "potential": (("games/three_thirteen/heuristic.py", "games/three_thirteen/kernel_heuristic.py"), "compiled twin"),
    "discard_scores": (("games/three_thirteen/heuristic.py", "games/three_thirteen/kernel_heuristic.py"),
                       "compiled twin"),
    "reweigh": (("games/three_thirteen/inference.py", "games/three_thirteen/search.py"), "compiled twin"),
    "hand_size": (("games/holzwurm/rules.py", "games/holzwurm/kernel.py"), "compiled twin"),
    "new_game": (("core/registry.py", "games/*/kernel.py"), "a game begun: the engine's state, a kernel's row"),
    "random_action": (("bots/random_bot.py", "games/*/kernel.py"), "the random bot's action, on a view or a row"),
    # One thing done at two levels.
    "warm_up": (("core/kernel.py", "games/three_thirteen/melds.py"),
                "compile ahead, so that the first call is fast: every game's kernels, or the meld solver's"),
    "list_tables": (("server/routes/tables.py", "server/storage/listing.py"),
                    "the list of tables: the HTTP route, and the storage's query it answers with"),
}
"""Names shared by the modules named (patterns), each with why it means one thing there."""


def message_types() -> set[str]:
    """The ``type`` of every message the server sends: :mod:`dreizehn.server.messages` writes each with a function
    of that name, always called through the module (``messages.hint``), so such a name may also name elsewhere what
    the message carries (:func:`dreizehn.play.hints.hint`) or answers (the HTTP route ``rematch``)."""
    from dreizehn.server.protocol import ServerMessage

    return {kind for model in get_args(get_args(ServerMessage)[0])
            for kind in get_args(model.model_fields["type"].annotation)}


def shared_names() -> dict[str, list[str]]:
    """Each public top-level function name defined in more than one module -> those modules (paths under the
    package)."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_"):
                where[node.name].append(path.relative_to(SRC).as_posix())
    return {name: modules for name, modules in where.items() if len(modules) > 1}


def accepted(name: str, modules: list[str]) -> bool:
    """Whether ``name``, defined in ``modules``, is of a kind that may be shared."""
    if name == "main":  # a module's entry point as a program (the console script's, a tool's)
        return True
    if name in message_types():
        modules = [module for module in modules if module != "server/messages.py"]
    patterns = [SAME[name][0]] if name in SAME else list(KINDS.values())
    return len(modules) < 2 or any(all(any(fnmatch(module, p) for p in kind) for module in modules)
                                   for kind in patterns)


def test_no_two_modules_define_a_function_of_the_same_name_that_means_two_things() -> None:
    assert {name: modules for name, modules in shared_names().items() if not accepted(name, modules)} == {}


def test_every_name_accepted_is_still_shared() -> None:
    """An entry of :data:`SAME` whose name is no longer shared goes (so that the left ones go once renamed)."""
    assert set(SAME) <= set(shared_names())
