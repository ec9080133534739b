"""Random games through the public API (``state.apply(choice(state.legal_actions()))``): the speed a Python user
of the engine sees. Part of ``make bench``."""

from __future__ import annotations

import random
import time

import dreizehn


def bench_games(game_id: str, players: int, seconds: float, **options: object) -> tuple[float, float]:
    """Full random games per second and actions per second: ``apply(choice(legal_actions()))`` until over."""
    game = dreizehn.load_game(game_id, players, options)
    rng = random.Random(1)
    games = actions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        state = game.new_state(games)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
        elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed
