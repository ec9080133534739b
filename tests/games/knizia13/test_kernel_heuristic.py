"""The kernels' heuristics score every decision as the Python heuristics do (the same numbers to the bit), so the
compiled opponents and playouts play as the ``heuristic`` bot does, ties apart (broken by the key)."""

from __future__ import annotations

import numpy as np
from kernels.differential import Pair

from dreizehn.core.registry import load_game
from dreizehn.games.knizia13 import Knizia13View, heuristic
from dreizehn.games.knizia13.kernel import ACTIONS, heuristic_action, heuristic_scores


def test_knizia13_heuristic_scores_every_decision_alike() -> None:
    decisions = 0
    for seed, players in enumerate([3, 4, 5, 6] * 5):
        pair = Pair(load_game("knizia13", players), seed)
        rng = np.random.default_rng(seed)
        kernel_scores = np.empty(ACTIONS)
        while not pair.engine.is_over:
            view = pair.engine.view(pair.engine.current_player)
            assert isinstance(view, Knizia13View)
            expected = heuristic.scores(view)
            heuristic_scores(pair.row, kernel_scores)
            assert {a: float(kernel_scores[a]) for a in np.flatnonzero(kernel_scores > -np.inf)} == expected
            best = max(expected.values())
            assert heuristic_action(pair.row, pair.keys[0:1].copy()) in [a for a, v in expected.items()
                                                                        if v >= best - 1e-9]
            decisions += 1
            pair.play(int(rng.choice(pair.legal())))
    assert decisions > 3000
