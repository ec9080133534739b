"""Speed of the research adapters: random play through OpenSpiel, PettingZoo and Gymnasium, steps per second,
next to OpenSpiel's own C++ games counted the same way.

Part of ``make bench`` (or ``python benchmarks/bench_envs.py [--seconds S]``); the rows need the research extra
(``pip install 'dreizehn[research]'``) and are left out without it. A step is one decision of a player; through
OpenSpiel the deal's chance outcomes are played (each drawn by :func:`draw_chance`, the same on both sides) but not
counted. Every decision reads the tensor of the player to move, as a learner would: the observation of ours and of
gin rummy, the information state of hearts (which offers no observation tensor). Each figure is warmed up first, and
an adapter and its anchor run in one process on one core, in turns (:func:`alternate`), so that what else the machine
does weighs on both alike: the ratio is the figure to read.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GAMES: tuple[tuple[str, int, dict[str, Any], str], ...] = (
    # our game, players, options, the OpenSpiel game it is compared with
    ("knizia13", 4, {}, "hearts"), ("holzwurm", 4, {}, "hearts"),
    ("three-thirteen", 2, {"stock_out": "end-round"}, "gin_rummy"),
)


def draw_chance(state: Any, rng: random.Random) -> int:
    """A chance outcome of ``state`` drawn by its probability: one uniform number, walked down the outcomes."""
    r = rng.random()
    outcomes = state.chance_outcomes()
    for action, probability in outcomes:
        r -= probability
        if r < 0.0:
            return int(action)
    return int(outcomes[-1][0])


def play_decisions(game: Any, rng: random.Random, tensor: str | None) -> int:
    """One whole game of random play through OpenSpiel's Python API: the chance outcomes drawn by
    :func:`draw_chance` and not counted; at each decision the ``tensor`` (``"observation"``,
    ``"information_state"`` or ``None``) of the player to move read, then a random legal action. The decisions."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(draw_chance(state, rng))
            continue
        player = state.current_player()
        if tensor == "observation":
            state.observation_tensor(player)
        elif tensor == "information_state":
            state.information_state_tensor(player)
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    return decisions


def anchor_tensor(game: Any) -> str:
    """The tensor a learner reads of an OpenSpiel game: its observation, else its information state."""
    return "observation" if game.get_type().provides_observation_tensor else "information_state"


def alternate(runs: dict[str, Callable[[], int]], seconds: float, turns: int = 6) -> dict[str, float]:
    """Units per second of each of ``runs`` (each does some work and returns how many units), every one warmed up
    first, then run in ``turns`` turns of ``seconds / turns`` each, one after the other."""
    for run in runs.values():
        run()
    units = dict.fromkeys(runs, 0)
    spent = dict.fromkeys(runs, 0.0)
    for _ in range(turns):
        for name, run in runs.items():
            start = time.perf_counter()
            while (elapsed := time.perf_counter() - start) < seconds / turns:
                units[name] += run()
            spent[name] += elapsed
    return {name: units[name] / spent[name] for name in runs}


def openspiel_run(game_id: str, players: int, options: dict[str, Any]) -> Callable[[], int]:
    """One whole game through our OpenSpiel adapter per call (:func:`play_decisions`, the observation read at each
    decision): its decisions."""
    import pyspiel

    from dreizehn.envs.openspiel import short_name

    game = pyspiel.load_game(short_name(game_id), {"players": players, **options})
    rng = random.Random(1)
    return lambda: play_decisions(game, rng, "observation")


def anchor_run(name: str) -> Callable[[], int]:
    """One whole game of OpenSpiel's ``name`` per call (:func:`play_decisions`, its tensor read at each decision):
    its decisions."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    tensor = anchor_tensor(game)
    return lambda: play_decisions(game, rng, tensor)


def openspiel_pair(game_id: str, players: int, options: dict[str, Any], anchor: str,
                   seconds: float) -> tuple[float, float]:
    """Decisions per second of our OpenSpiel adapter (the observation read at each) and of the OpenSpiel game
    ``anchor`` (its tensor read at each), in turns in this process."""
    rates = alternate({"ours": openspiel_run(game_id, players, options), "anchor": anchor_run(anchor)}, seconds)
    return rates["ours"], rates["anchor"]


def pettingzoo_run(game_id: str, players: int, options: dict[str, Any]) -> Callable[[], int]:
    """One whole game through the PettingZoo adapter per call, every agent at random (the observation is in what
    ``last()`` returns): its steps, one an agent's decision."""
    from dreizehn.envs.pettingzoo import raw_env

    env = raw_env(game=game_id, players=players, **options)
    rng = random.Random(1)
    env.reset(seed=1)

    def run() -> int:
        steps = 0
        while True:
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset(seed=rng.randrange(1 << 30))
                return steps
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1

    return run


def gymnasium_run(game_id: str, players: int, options: dict[str, Any]) -> Callable[[], int]:
    """One episode through the Gymnasium adapter per call, the learner and its random opponents at random: the
    learner's steps (each with the bots' moves that follow it)."""
    from dreizehn.envs.gymnasium import DreizehnEnv

    env = DreizehnEnv(game_id, players=players, opponents="random", **options)
    rng = random.Random(1)

    def run() -> int:
        _, info = env.reset(seed=rng.randrange(1 << 30))
        steps = 0
        while True:
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
            if terminated or truncated:
                return steps

    return run


def envs_table(seconds: float) -> list[tuple[str, str, int, float, str, float]] | None:
    """Rows of (adapter, game, players, steps/s, the OpenSpiel anchor, its decisions/s with its tensor), the three
    adapters and the anchor of a game taken in turns (:func:`alternate`); ``None`` without the research extra."""
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    from dreizehn.games.three_thirteen.melds import warm_up

    warm_up()  # compile the meld solver before the clock runs
    rows = []
    for game_id, players, options, anchor in GAMES:
        rates = alternate({"OpenSpiel": openspiel_run(game_id, players, dict(options)),
                           "PettingZoo": pettingzoo_run(game_id, players, dict(options)),
                           "Gymnasium": gymnasium_run(game_id, players, dict(options)),
                           "anchor": anchor_run(anchor)}, seconds)
        for name in ("OpenSpiel", "PettingZoo", "Gymnasium"):
            rows.append((name, game_id, players, rates[name], anchor, rates["anchor"]))
    return rows


def print_envs_table(seconds: float) -> None:
    """The adapters' table as ``make bench`` prints it."""
    table = envs_table(seconds)
    if table is None:
        print("Research adapters: left out (pip install 'dreizehn[research]')")
        return
    print(f"Research adapters: random play, a step a player's decision (the deal played, not counted), the tensor of "
          f"the player to move read every step ({seconds:g} s a figure, one core); a game's adapters and its "
          "OpenSpiel anchor taken in turns (hearts reads its information state)")
    print(f"{'adapter':<12}{'game':<16}{'players':>8}{'steps/s':>10}{'anchor':>11}{'anchor st/s':>13}{'×':>7}")
    for adapter, game_id, players, rate, anchor, theirs in table:
        ratio = "-" if adapter == "Gymnasium" else f"{rate / theirs:.2f}"
        print(f"{adapter:<12}{game_id:<16}{players:>8}{rate:>10,.0f}{anchor:>11}{theirs:>13,.0f}{ratio:>7}",
              flush=True)
    print("× the adapter's steps/s over the anchor's. A Gymnasium step is the learner's, the random bots' moves "
          "that follow it included: no anchor's step is like it.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure (default 3)")
    print_envs_table(parser.parse_args().seconds)
