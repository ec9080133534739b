"""``benchmarks/fit_learned.py``'s pure parts: the learner's loop on the kernel plays the same games as the kernel's
own playout when the learner plays the heuristic's advice, so that a paired difference compares like with like; and
every kept decision gets its stage's margin."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from benchmark_scripts import load

fit = load("fit_learned")


def advice(obs: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_],
           hint: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return hint


@pytest.mark.parametrize("game_id", ["knizia13", "holzwurm", "three-thirteen"])
def test_the_learners_loop_playing_the_advice_is_the_heuristics_game(game_id: str) -> None:
    game = fit._load(game_id, None, {})
    seeds = range(12)
    for seat in range(game.players):
        mine = fit.play_out(game, seat, len(seeds), 99, advice)
        theirs = fit.play_out(game, seat, len(seeds), 99, None)
        assert np.array_equal(mine, theirs)
    assert np.allclose(fit.margins(game, None, seeds, 99), 0.0)  # the seats' margins sum to 0 at every table


def test_every_kept_decision_gets_its_stages_margin() -> None:
    game = fit._load("knizia13", None, {})
    collector = fit.Collector(game, 8, 3)
    kept = 0
    for round_ in range(12):
        obs, hint, action, target = collector.round(round_ % game.players, 16, advice)
        assert np.array_equal(hint, action)
        assert np.isfinite(target).all() and (np.abs(target) <= 200).all()
        kept += len(obs)
    assert kept > 0 and collector.games_played > 0
    assert kept + sum(len(p[0]) for p in collector.pending) == 12 * 16 * 8


def test_three_thirteens_heuristic_is_the_bots_compiled() -> None:
    """The heuristic the learner is fitted beside and measured against is the ``heuristic`` bot's (compiled,
    checked against the Python bot in tests/games/three_thirteen/test_kernel_heuristic.py), not the search's greedy
    playout player that Three Thirteen's own kernel plays under ``HEURISTIC``."""
    from dreizehn.core.kernel import HEURISTIC, RANDOM, make_keys
    from dreizehn.games.three_thirteen.kernel_heuristic import choices

    game = fit._load("three-thirteen", None, fit.FIT_OPTIONS["three-thirteen"])
    kernel = fit.kernel_of(game)
    states, keys = kernel.new(64), make_keys(5, 64)
    kernel.reset(states, keys)
    status = np.zeros(64, np.int8)
    mask = np.zeros(kernel.num_actions, np.bool_)
    checked = 0
    for _ in range(300):
        chosen = kernel.choose(states, keys, HEURISTIC)
        for row in np.flatnonzero(chosen >= 0):
            choices(states[row], mask)
            assert mask[chosen[row]]
            checked += 1
        kernel.step(states, keys, np.maximum(kernel.choose(states, keys, RANDOM), 0), status)
    assert checked > 10_000
