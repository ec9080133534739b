"""The speed core side by side with its anchors, in one run on one core (``make bench``, or
``python benchmarks/bench_kernels.py [--seconds S]``): OpenSpiel's C++ hearts and gin rummy driven from Python, our
public API, our compiled kernels (random play), the batched environment with observations and masks, and Gymnasium's
vector API over it; the ratios against OpenSpiel. Timings belong here, never in a test.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dreizehn
from benchmarks.bench_envs import alternate, anchor_tensor, play_decisions
from dreizehn.core.kernel import load_kernel, make_keys
from dreizehn.core.registry import game_class
from dreizehn.study.vector import VectorGame

ROWS: tuple[tuple[str, int, dict[str, object], str], ...] = (
    # game, players, options, the OpenSpiel game it is compared with
    ("knizia13", 4, {}, "hearts"),
    ("holzwurm", 4, {}, "hearts"),
    ("three-thirteen", 2, {"stock_out": "end-round"}, "gin_rummy"),
)


def _rate(run: Callable[[], int], seconds: float) -> float:
    """Units per second of ``run`` (which does some work and returns how many units), repeated for ``seconds``."""
    run()  # compiled and warm
    units = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        units += run()
    return units / elapsed


def openspiel_rates(name: str, seconds: float) -> tuple[float, float, float]:
    """OpenSpiel's ``name`` in random play from Python: decisions/s, decisions/s reading the tensor of the player to
    move at each (its observation, or hearts' information state), and whole games/s. The deal is played but not
    counted, as :func:`benchmarks.bench_envs.play_decisions` plays it for our adapter too."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    tensor = anchor_tensor(game)
    plain = _rate(lambda: play_decisions(game, rng, None), seconds)
    with_tensors = _rate(lambda: play_decisions(game, rng, tensor), seconds)
    games = _rate(lambda: (play_decisions(game, rng, None), 1)[1], seconds)
    return plain, with_tensors, games


def api_pair(game_id: str, players: int, options: dict[str, object], anchor: str,
             seconds: float) -> tuple[float, float]:
    """Actions/s of random games through our public API (as :func:`benchmarks.bench_api.bench_games` plays them)
    and decisions/s of OpenSpiel's ``anchor`` in random play without tensors, in turns in this process (the anchor's
    figure NaN without OpenSpiel)."""
    game = dreizehn.load_game(game_id, players, options)
    rng = random.Random(1)
    seeds = itertools.count()

    def ours() -> int:
        state = game.new_state(next(seeds))
        actions = 0
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        return actions

    try:
        import pyspiel
    except ImportError:
        return alternate({"ours": ours}, seconds)["ours"], float("nan")
    theirs = pyspiel.load_game(anchor)
    rng_theirs = random.Random(1)
    rates = alternate({"ours": ours, "anchor": lambda: play_decisions(theirs, rng_theirs, None)}, seconds)
    return rates["ours"], rates["anchor"]


def kernel_rates(game_id: str, players: int, options: dict[str, object], anchor: str,
                 seconds: float) -> dict[str, float]:
    """Our figures for one game: the public API (and the OpenSpiel ``anchor``'s random play, in turns with it), the
    kernel's random play (actions/s and games/s), the batched
    environment with observations and masks (steps/s), and Gymnasium's vector API against random opponents
    (learner steps/s)."""
    out: dict[str, float] = {}
    out["api"], out["api_anchor"] = api_pair(game_id, players, options, anchor, seconds)
    game = dreizehn.load_game(game_id, players, options)
    if not game_class(game_id).kernel:
        return out
    kernel = load_kernel(game)
    states, keys = kernel.new(1000), make_keys(1, 1000)
    counts = [0, 0]  # games and actions played

    def random_games() -> int:
        actions = kernel.random_games(states, keys, 1)
        counts[0] += 1000
        counts[1] += actions
        return actions

    out["kernel"] = _rate(random_games, seconds)
    out["kernel_games"] = out["kernel"] * counts[0] / counts[1]  # actions/s over actions a game
    env = VectorGame(game_id, 4096, players, options=options)
    batch = env.reset(seed=1)
    rng = np.random.default_rng(0)
    noise = rng.random((64, 4096, env.num_actions)).astype(np.float32)
    turn = [0]

    def steps() -> int:
        nonlocal batch
        turn[0] += 1
        batch = env.step((noise[turn[0] % 64] * batch.action_mask).argmax(axis=1))
        return 4096

    out["vector"] = _rate(steps, seconds)
    out["gym"] = gym_rate(game_id, players, options, seconds)
    return out


def gym_rate(game_id: str, players: int, options: dict[str, object], seconds: float) -> float:
    """Learner steps per second of Gymnasium's vector API over the kernel, 4,096 games, random opponents."""
    try:
        from dreizehn.envs.gymnasium_vector import DreizehnVectorEnv
    except ImportError:
        return float("nan")
    env = DreizehnVectorEnv(game_id, 4096, players, options=options)
    _, info = env.reset(seed=1)
    noise = np.random.default_rng(0).random((64, 4096, env.vector.num_actions)).astype(np.float32)
    turn = [0]

    def steps() -> int:
        nonlocal info
        turn[0] += 1
        info = env.step((noise[turn[0] % 64] * info["action_mask"]).argmax(axis=1))[4]
        return 4096

    return _rate(steps, seconds)


def main(seconds: float = 3.0) -> None:
    print(f"The speed core against OpenSpiel 2.0's C++ games from Python ({seconds:g} s a figure, one core; "
          "an OpenSpiel action is a player's decision, the deal played but not counted)")
    try:
        anchors = {name: openspiel_rates(name, seconds) for name in ("hearts", "gin_rummy")}
    except ImportError:
        anchors = {}
        print("  OpenSpiel: left out (pip install 'dreizehn[research]')")
    for name, (plain, tensors, games) in anchors.items():
        print(f"  OpenSpiel {name:<10} {plain:>12,.0f} actions/s {tensors:>10,.0f} with tensors {games:>8,.0f} games/s")
    print(f"{'game':<16}{'players':>8}{'API act/s':>12}{'×':>6}{'kernel act/s':>14}{'games/s':>10}"
          f"{'vector st/s':>13}{'×':>7}{'gym st/s':>11}")
    for game_id, players, options, anchor in ROWS:
        r = kernel_rates(game_id, players, options, anchor, seconds)
        _, tensors, _ = anchors.get(anchor, (float("nan"),) * 3)
        print(f"{game_id:<16}{players:>8}{r['api']:>12,.0f}{r['api'] / r['api_anchor']:>6.2f}"
              f"{r.get('kernel', float('nan')):>14,.0f}{r.get('kernel_games', float('nan')):>10,.0f}"
              f"{r.get('vector', float('nan')):>13,.0f}{r.get('vector', float('nan')) / tensors:>7.1f}"
              f"{r.get('gym', float('nan')):>11,.0f}", flush=True)
    print("× API: our public API's actions/s over the OpenSpiel game's decisions/s (hearts for 13 and Holzwurm, gin "
          "rummy for Three Thirteen), the two taken in turns in this run; × vector: the batched environment's "
          "steps/s (observation and mask every step) over OpenSpiel's decisions/s with tensors.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure (default 3)")
    main(parser.parse_args().seconds)
