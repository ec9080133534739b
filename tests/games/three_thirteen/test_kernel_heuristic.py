"""Three Thirteen's compiled heuristic (games/three_thirteen/kernel_heuristic.py) against the Python ``heuristic``
bot: at every decision of many games, under several options, the compiled choices are exactly the actions the
Python heuristic ties between (its draw or take, its way out, its best-scored discards)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from kernels.differential import Pair

from dreizehn.core.kernel import make_keys
from dreizehn.core.registry import load_game
from dreizehn.games.three_thirteen import ThreeThirteenView, heuristic
from dreizehn.games.three_thirteen import kernel_heuristic as kh
from dreizehn.games.three_thirteen.kernel import ACTIONS
from dreizehn.games.three_thirteen.rules import DISCARD, OUT, RESEARCH_TURN_LIMIT


def python_choices(view: ThreeThirteenView) -> list[int]:
    """The actions the Python heuristic ties between (it plays one of them, drawn by its ``rng``)."""
    legal = view.legal_actions
    if not view.drawn or any(a >= OUT for a in legal):
        return [heuristic.act(view, random.Random(0))]  # no tie: a draw, or the highest way out
    if view.turns_played >= heuristic.STALEMATE_TURNS:  # a round that went on too long: any card
        return [a for a in legal if DISCARD <= a < OUT]
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



def test_heuristic_players_never_hold_each_other_for_ever(scale: Callable[[int, int], int]) -> None:
    """Two players following the heuristic can hold the cards each other needs and draw and discard for ever (a
    round of five cards, each with two wild cards and a pair of sixes: 2 rounds in 22,000 reached 200 turns with
    these seeds). Past ``STALEMATE_TURNS`` turns the heuristic discards at random, so every round of these games
    ends well before the research adapters' limit of 200 turns, which would otherwise end them."""
    from dreizehn.core.kernel import load_kernel
    from dreizehn.games.three_thirteen import kernel as tk

    kernel = load_kernel(load_game("three-thirteen", 2, {"turn_limit": RESEARCH_TURN_LIMIT}))
    states, keys = kernel.new(1), make_keys(7, 1)
    row, key = states[0], keys[0:1]
    longest = 0
    for _ in range(scale(2000, 6000)):
        tk.new_game(row, key)
        while row[tk.TURN] >= 0:
            tk.apply(row, kh.action(row, key), key)
            longest = max(longest, tk._get2(row, tk.PLAYED))
    assert heuristic.STALEMATE_TURNS < longest < RESEARCH_TURN_LIMIT - 20


def test_the_python_heuristic_discards_at_random_in_a_round_that_went_on_too_long() -> None:
    from dreizehn.games.three_thirteen.rules import ThreeThirteenState

    state = load_game("three-thirteen", 2).new_state(3)
    state.apply(state.legal_actions()[0])  # a draw: the seat now discards
    assert isinstance(state, ThreeThirteenState)
    advised = {heuristic.act(state.view(state.turn), random.Random(seed)) for seed in range(20)}
    state.turns_played = heuristic.STALEMATE_TURNS
    chosen = {heuristic.act(state.view(state.turn), random.Random(seed)) for seed in range(20)}
    assert len(advised) == 1 and len(chosen) > 1
    assert all(DISCARD <= a < OUT for a in chosen)
