"""Speed of the research adapters: random play through OpenSpiel, PettingZoo and Gymnasium, steps per second.

Part of ``make bench``; the rows need the research extra (``pip install 'dreizehn[research]'``) and are left out
without it. A step is one action (a chance outcome counts as one in OpenSpiel); every step reads the observation
tensor of the player to move, as a learner would.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("knizia13", 4, {}), ("holzwurm", 4, {}), ("three-thirteen", 2, {"stock_out": "end-round"}),
)


def _timed(step: Callable[[], bool], seconds: float) -> float:
    """Steps per second of ``step`` (which returns True at the end of an episode and starts the next itself)."""
    steps = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(50):
            step()
        steps += 50
        elapsed = time.perf_counter() - start
    return steps / elapsed


def openspiel_rate(game_id: str, players: int, options: dict[str, Any], seconds: float) -> float:
    import pyspiel

    from dreizehn.envs.openspiel import short_name

    game = pyspiel.load_game(short_name(game_id), {"players": players, **options})
    rng = random.Random(1)
    box = [game.new_initial_state()]

    def step() -> bool:
        state = box[0]
        if state.is_terminal():
            box[0] = game.new_initial_state()
            return True
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(cards, probs)[0])
        else:
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
        return False

    return _timed(step, seconds)


def pettingzoo_rate(game_id: str, players: int, options: dict[str, Any], seconds: float) -> float:
    from dreizehn.envs.pettingzoo import raw_env

    env = raw_env(game=game_id, players=players, **options)
    env.reset(seed=1)
    rng = np.random.default_rng(1)

    def step() -> bool:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset(seed=int(rng.integers(1 << 30)))
            return True
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        return False

    return _timed(step, seconds)


def gymnasium_rate(game_id: str, players: int, options: dict[str, Any], seconds: float) -> float:
    from dreizehn.envs.gymnasium import DreizehnEnv

    env = DreizehnEnv(game_id, players=players, opponents="random", **options)
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    box = [info]

    def step() -> bool:
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(box[0]["action_mask"]))))
        box[0] = info
        if terminated or truncated:
            box[0] = env.reset(seed=int(rng.integers(1 << 30)))[1]
            return True
        return False

    return _timed(step, seconds)


def envs_table(seconds: float) -> list[tuple[str, str, int, float]] | None:
    """Rows of (adapter, game, players, steps/s); ``None`` without the research extra."""
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    from dreizehn.games.three_thirteen.melds import warm_up

    warm_up()  # compile the meld solver before the clock runs
    rows = []
    for name, rate in (("OpenSpiel", openspiel_rate), ("PettingZoo", pettingzoo_rate), ("Gymnasium", gymnasium_rate)):
        for game_id, players, options in GAMES:
            rows.append((name, game_id, players, rate(game_id, players, dict(options), seconds)))
    return rows
