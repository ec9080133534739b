"""Three Thirteen's kernel beyond the differential test: its calls of the meld solver against the Python functions on
hands that random play seldom holds (wild cards only, several decks), its greedy policy against
:func:`dreizehn.games.three_thirteen.heuristic.playout_action` fed the same random numbers, and its random policy, which
goes out whenever it can (as the ``random`` bot does)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pytest
from kernels.differential import Pair

from dreizehn.core.kernel import HEURISTIC, RANDOM, make_keys, next_u64, pick_legal
from dreizehn.core.registry import load_game
from dreizehn.games.three_thirteen import heuristic
from dreizehn.games.three_thirteen import kernel as tk
from dreizehn.games.three_thirteen.melds import go_out_discards, min_penalty
from dreizehn.games.three_thirteen.rules import OUT, RESEARCH_TURN_LIMIT, ThreeThirteenRules, ThreeThirteenState


def _kernel(players: int, options: dict[str, object]) -> tk.ThreeThirteenKernel:
    game = load_game("three-thirteen", players, options)
    assert isinstance(game, ThreeThirteenRules)
    return tk.make(game)


def _row(hand: list[int], wild: int, aces_high: bool, all_wild: bool) -> npt.NDArray[np.int16]:
    row: npt.NDArray[np.int16] = _kernel(2, {"decks": 4}).new(1)[0]
    row[tk.ROUND] = wild - 3
    row[tk.ACES_HIGH] = aces_high
    row[tk.ALL_WILD] = all_wild
    row[tk.TURN] = 0
    for k in hand:
        row[tk.HANDS + k] += 1
    row[tk.HAND_SIZES] = len(hand)
    return row


def test_meld_solver_calls_match_the_python_functions(scale: Callable[[int, int], int]) -> None:
    rng = np.random.default_rng(13)
    for _ in range(scale(3000, 60000)):
        wild = int(rng.integers(3, 14))
        size = int(rng.integers(1, 15))
        wilds = [s * 13 + wild - 1 for s in range(4)]
        # Half the hands mostly wild cards: the only hands where all_wild_melds=forbidden changes anything (T7).
        weight = 0.8 if rng.random() < 0.5 else 0.1
        hand = sorted(int(rng.choice(wilds)) if rng.random() < weight else int(rng.integers(52)) for _ in range(size))
        for aces_high in (False, True):
            for all_wild in (False, True):
                row = _row(hand, wild, aces_high, all_wild)
                assert tk.penalty(row, 0) == min_penalty(hand, wild, aces_high, all_wild), (hand, wild)
                bits = tk.outs(row)
                found = tuple(k for k in range(52) if bits >> k & 1)
                assert found == go_out_discards(hand, wild, aces_high, all_wild), (hand, wild)


@pytest.mark.parametrize(("players", "options"), [
    (2, {"turn_limit": RESEARCH_TURN_LIMIT}),
    (4, {"stock_out": "end-round", "aces": "low-or-high"}),
    (3, {"all_wild_melds": "forbidden", "decks": 3, "turn_limit": 80}),
])
def test_greedy_policy_plays_as_the_python_playout(players: int, options: dict[str, object],
                                                    scale: Callable[[int, int], int]) -> None:
    game = load_game("three-thirteen", players, options)
    actions = 0
    for seed in range(scale(4, 100)):
        pair = Pair(game, seed)
        policy_key = make_keys(1000 + seed, 1)
        python_key = policy_key.copy()

        def uniform(key: np.ndarray = python_key) -> float:
            return (int(next_u64(key)) >> 11) * 2.0**-53

        while pair.legal():
            engine = pair.engine
            assert isinstance(engine, ThreeThirteenState)
            action = tk.heuristic_action(pair.row, policy_key)
            assert action == heuristic.playout_action(engine, uniform), (seed, len(engine.log))
            assert np.array_equal(policy_key, python_key)
            pair.play(action)
            pair.check(views=False)
            actions += 1
    assert actions > 0


def test_random_policy_goes_out_whenever_it_can() -> None:
    """The random policy draws as ``pick_legal`` does over the ways out where there is one, else over every legal
    action."""
    kernel = _kernel(2, {"turn_limit": 60})
    states = kernel.new(20)
    keys = make_keys(5, 20)
    kernel.reset(states, keys)
    mask = np.zeros(tk.ACTIONS, np.bool_)
    outs = 0
    for i in range(20):
        row, key = states[i], keys[i : i + 1]
        while row[tk.TURN] >= 0:
            tk.legal(row, mask)
            if mask[OUT:].any():
                mask[:OUT] = False
                outs += 1
            twin = key.copy()
            action = tk.random_action(row, key)
            assert action == pick_legal(twin, mask) and np.array_equal(key, twin)
            tk.apply(row, action, key)
    assert outs > 0


@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC])
def test_playouts_and_random_games_end(policy: int) -> None:
    kernel = _kernel(3, {"turn_limit": RESEARCH_TURN_LIMIT})
    states = kernel.new(8)
    keys = make_keys(2, 8)
    kernel.reset(states, keys)
    kernel.playout(states, keys, policy)
    assert (kernel.current(states) == -1).all()
    assert (kernel.totals(states) >= 0).all()
    assert kernel.random_games(states, keys, 2) > 8 * 2 * 11 * 2


def _near_out_hand(rng: np.random.Generator, wild: int) -> list[int]:
    """Melds (runs, sets, wild cards among them) and one to three loose cards: the hands whose ways out the kernel's
    quick test (a natural card with no partner within reach) must never wrongly deny."""
    hand: list[int] = []
    for _ in range(int(rng.integers(1, 4))):
        suit, low = int(rng.integers(4)), int(rng.integers(13))
        if rng.random() < 0.5:  # a run, the king beside a high ace included (kind 0 after kind 12)
            meld = [suit * 13 + (low + i) % 13 for i in range(int(rng.integers(3, 6)))]
        else:
            meld = [s * 13 + low for s in rng.choice(4, int(rng.integers(3, 5)), replace=False)]
        hand += [s // 13 * 13 + wild - 1 if rng.random() < 0.2 else s for s in meld]
    hand += [int(k) for k in rng.integers(52, size=int(rng.integers(1, 4)))]
    return sorted(hand[:14])


def test_ways_out_of_hands_near_going_out_match_the_python_function(scale: Callable[[int, int], int]) -> None:
    rng = np.random.default_rng(31)
    found_out = 0
    for _ in range(scale(3000, 60000)):
        wild = int(rng.integers(3, 14))
        hand = _near_out_hand(rng, wild)
        for aces_high in (False, True):
            bits = tk.outs(_row(hand, wild, aces_high, True))
            found = tuple(k for k in range(52) if bits >> k & 1)
            assert found == go_out_discards(hand, wild, aces_high, True), (hand, wild, aces_high)
            found_out += bool(found)
    assert found_out > scale(300, 6000)  # the hands reach the solver and often go out
