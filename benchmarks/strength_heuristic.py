"""Strength of the ``heuristic`` bot: one heuristic against ``players - 1`` random bots, seat rotated.

Game ``i`` (seed ``i``) puts the heuristic in seat ``i % players``; a win shared by ``k`` players counts ``1/k``.
The win rate comes with a 95% Wilson interval. A fair share is ``1 / players``; the project's target is 40% with 4
players. Three Thirteen runs with ``stock_out=end-round`` unless told otherwise.

Run ``python benchmarks/strength_heuristic.py [GAMES] [--game ID] [--players N] [--jobs J]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dreizehn
from dreizehn.bots.base import Bot
from dreizehn.bots.heuristic import HeuristicBot
from dreizehn.bots.random_bot import RandomBot

GAME_OPTIONS: dict[str, dict[str, object]] = {
    "knizia13": {},
    "three-thirteen": {"stock_out": "end-round"},
    "holzwurm": {},
}
"""The options each game is measured with (Three Thirteen: the round ends when the stock runs out, T10)."""


@dataclass(frozen=True)
class Strength:
    """The outcome of a strength run."""

    game_id: str
    players: int
    games: int
    wins: float
    seconds: float
    heuristic_moves: int
    heuristic_seconds: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    def wilson(self, z: float = 1.96) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate."""
        n, p = self.games, self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    def line(self) -> str:
        low, high = self.wilson()
        per_move = 1e6 * self.heuristic_seconds / max(1, self.heuristic_moves)
        return (
            f"{self.game_id:<15} {self.players}p  games {self.games:>5}  heuristic wins {self.rate:6.1%}  "
            f"95% CI [{low:6.1%}, {high:6.1%}]  fair {1 / self.players:5.1%}  "
            f"{per_move:7.1f} us/move  ({self.seconds:.0f} s)"
        )


def _play(args: tuple[str, int, dict[str, object], int, int]) -> tuple[float, int, float]:
    """Play seeds ``start .. stop - 1``; return the heuristic's wins, its moves and its thinking time."""
    game_id, players, options, start, stop = args
    game = dreizehn.load_game(game_id, players, options)
    heuristic: Bot = HeuristicBot(game)
    rand: Bot = RandomBot(game)
    wins = 0.0
    moves = 0
    thinking = 0.0
    for seed in range(start, stop):
        seat = seed % players
        rng = random.Random(f"strength:{seed}")
        state = game.new_state(seed)
        while not state.is_over:
            player = state.current_player
            view = state.view(player)
            if player == seat:
                t0 = time.perf_counter()
                action = heuristic.act(view, rng)
                thinking += time.perf_counter() - t0
                moves += 1
            else:
                action = rand.act(view, rng)
            state.apply(action)
        wins += state.returns()[seat]
    return wins, moves, thinking


def strength(
    game_id: str, games: int = 1000, players: int = 4, jobs: int = 1, options: dict[str, object] | None = None
) -> Strength:
    """One heuristic against random bots over ``games`` games (seeds ``0 .. games - 1``, seat ``i % players``)."""
    opts = dict(GAME_OPTIONS.get(game_id, {}) if options is None else options)
    start = time.perf_counter()
    chunks = max(1, min(games, jobs * 8))
    bounds = [games * i // chunks for i in range(chunks + 1)]
    tasks = [(game_id, players, opts, bounds[i], bounds[i + 1]) for i in range(chunks)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_play, tasks))
    else:
        results = [_play(task) for task in tasks]
    return Strength(
        game_id,
        players,
        games,
        sum(r[0] for r in results),
        time.perf_counter() - start,
        sum(r[1] for r in results),
        sum(r[2] for r in results),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="?", type=int, default=1000, help="games per game id (default 1000)")
    parser.add_argument("--game", action="append", choices=sorted(GAME_OPTIONS), help="game id (default: all)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--reshuffle", action="store_true", help="Three Thirteen with the default stock_out=reshuffle"
    )
    args = parser.parse_args()
    for game_id in args.game or list(GAME_OPTIONS):
        options = dict(GAME_OPTIONS[game_id])
        if game_id == "three-thirteen" and args.reshuffle:
            options = {}
        result = strength(game_id, args.games, args.players, args.jobs, options)
        shown = ",".join(f"{k}={v}" for k, v in options.items()) or "default options"
        print(f"{result.line()}  [{shown}]", flush=True)


if __name__ == "__main__":
    main()
