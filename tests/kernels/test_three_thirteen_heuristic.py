"""Three Thirteen's compiled heuristic (games/three_thirteen/kernel_heuristic.py) against the Python ``heuristic``
bot: at every decision of many games, under several options, the compiled choices are exactly the actions the
Python heuristic ties between (its draw or take, its way out, its best-scored discards)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from dreizehn.core.kernel import make_keys
from dreizehn.core.registry import load_game
from dreizehn.games.three_thirteen import ThreeThirteenView, heuristic
from dreizehn.games.three_thirteen import kernel_heuristic as kh
from dreizehn.games.three_thirteen.kernel import ACTIONS
from dreizehn.games.three_thirteen.rules import DISCARD, OUT, RESEARCH_TURN_LIMIT

from .differential import Pair


def python_choices(view: ThreeThirteenView) -> list[int]:
    """The actions the Python heuristic ties between (it plays one of them, drawn by its ``rng``)."""
    legal = view.legal_actions
    if not view.drawn or any(a >= OUT for a in legal):
        return [heuristic.act(view, random.Random(0))]  # no tie: a draw, or the highest way out
    aces_high = view.options.get("aces") == "low-or-high"
    discards, scores = heuristic.discard_scores([int(c) for c in view.hand], view, legal, view.wild_rank, aces_high)
    best = max(scores)
    return [a for a, score in zip(discards, scores, strict=True) if score >= best - 1e-9]


@pytest.mark.parametrize(("players", "options"), [
    (2, {"turn_limit": RESEARCH_TURN_LIMIT}),
    (4, {"stock_out": "end-round", "aces": "low-or-high"}),
    (3, {"all_wild_melds": "forbidden", "decks": 2, "turn_limit": 80}),
    (5, {"aces": "low-or-high", "all_wild_melds": "forbidden", "turn_limit": 60}),
])
def test_compiled_heuristic_chooses_as_the_python_heuristic(players: int, options: dict[str, object],
                                                           scale: Callable[[int, int], int]) -> None:
    game = load_game("three-thirteen", players, options)
    mask = np.zeros(ACTIONS, np.bool_)
    scores = np.empty(52, np.float64)
    kinds = {"draw": 0, "out": 0, "discard": 0, "ties": 0}
    for seed in range(scale(3, 40)):
        pair = Pair(game, seed)
        rng = random.Random(seed)
        key = make_keys(seed, 1)
        while legal := pair.legal():
            view = pair.engine.view(pair.engine.current_player)
            assert isinstance(view, ThreeThirteenView)
            expected = python_choices(view)
            count = kh.choices(pair.row, mask)
            assert [int(a) for a in np.flatnonzero(mask)] == expected, (seed, len(pair.engine.log))
            assert count == len(expected)
            assert kh.action(pair.row, key) in expected
            if view.drawn and expected[0] < OUT:  # the scores themselves, not only the best
                discards, wanted = heuristic.discard_scores([int(c) for c in view.hand], view, view.legal_actions,
                                                            view.wild_rank, view.options.get("aces") == "low-or-high")
                kh.discard_scores(pair.row, scores)
                assert [float(scores[a - DISCARD]) for a in discards] == wanted
            kinds["draw" if not view.drawn else "out" if expected[0] >= OUT else "discard"] += 1
            kinds["ties"] += len(expected) > 1
            # Mostly the heuristic's own games, with a few other moves so that hands vary more.
            stays = [a for a in legal if a < OUT]
            pair.play(rng.choice(stays) if rng.random() < 0.15 and stays else rng.choice(expected))
    assert all(kinds.values()), kinds  # every kind of decision was compared

