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
