"""The ``heuristic`` bot's decision rules, one function per game, written from each rulebook's own advice.

Every function takes a view (never a state) and a ``random.Random`` for breaking ties, and returns one of
``view.legal_actions``. :data:`HEURISTICS` maps each game id to its function.

>>> import random, dreizehn
>>> state = dreizehn.new_game("knizia13", players=4, seed=1)
>>> view = state.view(state.current_player)
>>> HEURISTICS["knizia13"](view, random.Random(0)) in view.legal_actions
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from dreizehn.core.game import View

Heuristic = Callable[[View, random.Random], int]
Ranking = Callable[[View], "list[int] | None"]
"""The legal actions of a view in a heuristic's order of preference, best first, or ``None`` where it does not rank
that decision."""


def pick_best(actions: Sequence[int], scores: Sequence[float], rng: random.Random, eps: float = 1e-9) -> int:
    """The action with the highest score, ties (within ``eps``) broken by ``rng``."""
    best = max(scores)
    tied = [a for a, s in zip(actions, scores, strict=True) if s >= best - eps]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def _registry() -> dict[str, Heuristic]:
    from dreizehn.bots.heuristics.holzwurm import holzwurm_action
    from dreizehn.bots.heuristics.knizia13 import knizia13_action
    from dreizehn.bots.heuristics.three_thirteen import three_thirteen_action

    return {
        "knizia13": knizia13_action,
        "three-thirteen": three_thirteen_action,
        "holzwurm": holzwurm_action,
    }


HEURISTICS: dict[str, Heuristic] = _registry()
"""The heuristic of each game, by game id."""


def _rankings() -> dict[str, Ranking]:
    from dreizehn.bots.heuristics.three_thirteen import three_thirteen_ranking

    return {"three-thirteen": three_thirteen_ranking}


RANKINGS: dict[str, Ranking] = _rankings()
"""The games whose heuristic ranks a decision's actions (Three Thirteen's discards), for ``ismcts:prune``."""

__all__ = ["HEURISTICS", "RANKINGS", "Heuristic", "Ranking", "pick_best"]
