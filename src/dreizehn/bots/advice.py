"""The ``heuristic`` bot's decision rules, one module per game, written from each rulebook's own advice.

A game names its module in its class (:attr:`~dreizehn.core.game.Game.heuristic`). The module defines ``act(view,
rng)``: it takes a view (never a state) and a ``random.Random`` for breaking ties, and returns one of
``view.legal_actions``. Where the game has them, it also defines what the search bot uses: ``rank(view)`` (a
decision's actions best first, for ``ismcts:prune``), ``playout_action(state, random)`` (a greedy playout policy, for
``ismcts:playout=greedy``: it reads only what the seat to move would know in that sampled state, so it plays as a
cheap, honest player would) and ``estimate(state)`` (the points of a stage cut off now, for ``ismcts:cutoff``).

>>> import random, dreizehn
>>> state = dreizehn.new_game("knizia13", players=4, seed=1)
>>> view = state.view(state.current_player)
>>> heuristic("knizia13")(view, random.Random(0)) in view.legal_actions
True
>>> ranking("knizia13") is None, playout_policy("three-thirteen") is not None
(True, True)
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from dreizehn.core.game import State, View

Heuristic = Callable[[View, random.Random], int]
Ranking = Callable[[View], "list[int] | None"]
"""The legal actions of a view in a heuristic's order of preference, best first, or ``None`` where it does not rank
that decision."""
Policy = Callable[[State, Callable[[], float]], int]
"""A playout policy: the state to move in and a source of random numbers in [0, 1); returns a legal action."""
Estimate = Callable[[State], "list[int] | None"]
"""Points per seat if the stage ended now, or ``None`` where it cannot be cut here (the middle of a turn)."""


def pick_best(actions: Sequence[int], scores: Sequence[float], rng: random.Random, eps: float = 1e-9) -> int:
    """The action with the highest score, ties (within ``eps``) broken by ``rng``."""
    best = max(scores)
    tied = [a for a, s in zip(actions, scores, strict=True) if s >= best - eps]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def module(game_id: str) -> ModuleType | None:
    """The heuristic module of a game (``None`` for a game without one)."""
    from dreizehn.core.registry import game_class

    name = game_class(game_id).heuristic
    return importlib.import_module(name) if name else None


@functools.cache
def _part(game_id: str, name: str) -> Any:
    found = module(game_id)
    return getattr(found, name, None) if found is not None else None


def heuristic(game_id: str) -> Heuristic | None:
    """The game's heuristic (``act``), or ``None`` for a game without one."""
    found: Heuristic | None = _part(game_id, "act")
    return found


def ranking(game_id: str) -> Ranking | None:
    """How the game's heuristic ranks a decision's actions (``rank``), or ``None``."""
    found: Ranking | None = _part(game_id, "rank")
    return found


def playout_policy(game_id: str) -> Policy | None:
    """The game's greedy playout policy (``playout_action``), or ``None``: the search plays random playouts."""
    found: Policy | None = _part(game_id, "playout_action")
    return found


def estimator(game_id: str) -> Estimate | None:
    """How to score a stage of the game cut off in the middle (``estimate``), or ``None``."""
    found: Estimate | None = _part(game_id, "estimate")
    return found


__all__ = ["Estimate", "Heuristic", "Policy", "Ranking", "estimator", "heuristic", "module", "pick_best",
           "playout_policy", "ranking"]
