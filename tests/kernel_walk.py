"""Positions of whole games on a game's kernel, for the tests that compare compiled play with the engine's or the
NumPy network's (``from kernel_walk import walk``: the tests folder is on the path, as for ``schema_check``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from dreizehn.core.game import Game
from dreizehn.core.kernel import HEURISTIC, load_kernel


def walk(game: Game, games: int, steps: int, random_share: float = 1.0
         ) -> Iterator[tuple[Any, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """At each of ``steps`` moves of ``games`` games of ``game`` on its kernel (keys 1 to ``games``): the kernel,
    the states, their keys, which games are not over and the legal masks; then every game moves, at random with
    ``random_share`` (so that the positions spread; seeded), else as the kernel's heuristic policy plays."""
    kernel = load_kernel(game)
    states = kernel.new(games)
    keys = np.arange(1, games + 1, dtype=np.uint64)
    kernel.reset(states, keys)
    rng = np.random.default_rng(0)
    status = np.zeros(games, np.int8)
    legal = np.zeros((games, kernel.num_actions), np.bool_)
    for _ in range(steps):
        kernel.legal(states, legal)
        yield kernel, states, keys, kernel.current(states) >= 0, legal
        advice = kernel.choose(states, keys, HEURISTIC) if random_share < 1 else np.zeros(games, np.int64)
        moves = np.array([rng.choice(np.flatnonzero(row)) if row.any() and (random_share >= 1 or
                                                                            rng.random() < random_share)
                          else advice[i] for i, row in enumerate(legal)])
        kernel.step(states, keys, moves, status)
