"""Whole random games a second through a game's compiled kernel (:mod:`dreizehn.core.kernel`), beside the public API.

Run with ``python benchmarks/bench_kernels.py [--seconds S] [--rows N]``. One core: the kernel plays ``N`` rows one
after the other (``kernel.random_games``), compiled (or loaded from the disk cache) before timing; the public API
plays ``apply(choice(legal_actions()))`` as :func:`benchmarks.run.bench_games` does. The kernel's random players go
out whenever they can in Three Thirteen (the ``random`` bot's eager actions); the public API's row plays uniformly
among the legal actions, as ``run.py`` always has.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import dreizehn
from benchmarks.run import bench_games
from dreizehn.core.kernel import load, make_keys

ROWS: list[tuple[str, int, dict[str, object]]] = [
    ("three-thirteen", 2, {"stock_out": "end-round"}),
    ("three-thirteen", 2, {}),
    ("three-thirteen", 2, {"turn_limit": 200}),
    ("three-thirteen", 4, {"stock_out": "end-round"}),
]


def kernel_games(game_id: str, players: int, rows: int, seconds: float,
                 **options: object) -> tuple[float, float]:
    """Whole random games and actions a second through the kernel: batches of ``rows`` games until ``seconds``."""
    kernel = load(dreizehn.load_game(game_id, players, options))
    runner: Any = kernel  # every kernel has random_games; the protocol does not ask for it
    random_games = runner.random_games
    states = kernel.new(rows)
    keys = make_keys(1, rows)
    random_games(states[:1], keys[:1], 1)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += int(random_games(states, keys, 1))
        games += rows
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row (default 3)")
    parser.add_argument("--rows", type=int, default=1000, help="games in a batch (default 1000)")
    args = parser.parse_args()
    print(f"Whole random games a second, one core ({args.seconds:g} s a row, batches of {args.rows})")
    print(f"{'game':<16}{'players':>8}  {'options':<22}{'kernel':>10}{'API':>10}{'ratio':>8}{'kernel act/s':>14}")
    for game_id, players, options in ROWS:
        games, actions = kernel_games(game_id, players, args.rows, args.seconds, **options)
        api, _ = bench_games(game_id, players, args.seconds, **options) if options else (float("nan"), 0.0)
        shown = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
        print(f"{game_id:<16}{players:>8}  {shown:<22}{games:>10,.0f}{api:>10,.1f}{games / api:>8,.0f}"
              f"{actions:>14,.0f}", flush=True)


if __name__ == "__main__":
    main()
