"""Speed and strength of the ``ismcts`` bot (:mod:`dreizehn.bots.ismcts`).

Run with ``python benchmarks/bench_ismcts.py [--positions N] [--games G] [--opponent random]``. One core. The
positions are decision points (two or more legal actions) drawn from random games, each game's positions spread over
the whole game; the iteration rate is over searches of a fixed number of iterations, the move times at the default
budget. ``--games G`` also plays G games of each game at 4 players, one ``ismcts`` (default budget) against three
opponents, the ``ismcts`` seat rotated, and prints its win rate (a win shared by k seats counts 1/k) with a 95%
confidence interval (Wilson score).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dreizehn
from dreizehn.bots.base import Bot, make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.bots.random_bot import random_action
from dreizehn.core.game import Game, View
from dreizehn.games.melds import warm_up

ROWS: tuple[tuple[str, int], ...] = (("knizia13", 4), ("holzwurm", 4), ("three-thirteen", 4), ("three-thirteen", 2))


def positions(game: Game, count: int, seed: int = 13) -> list[View]:
    """``count`` views of the seat to move, with two or more legal actions, from random games (random players)."""
    rng = random.Random(seed)
    out: list[View] = []
    number = 0
    while len(out) < count:
        state = game.new_state(seed * 1000 + number)
        number += 1
        views: list[View] = []
        while not state.is_over:
            view = state.view(state.current_player)
            if len(view.legal_actions) > 1:
                views.append(view)
            state.apply(random_action(view, rng))
        out.extend(rng.sample(views, min(len(views), 5, count - len(out))))
    return out


def iterations_per_second(game: Game, views: list[View], iterations: int = 300) -> float:
    """ISMCTS iterations per second over searches of ``iterations`` iterations from ``views``."""
    bot = IsmctsBot(game, iterations=iterations)
    done = 0
    start = time.perf_counter()
    for number, view in enumerate(views):
        bot.search(view, random.Random(number))
        done += bot.last_iterations
    return done / (time.perf_counter() - start)


def move_times(game: Game, views: list[View], spec: str = "ismcts") -> tuple[float, float]:
    """Mean and worst seconds per move of the bot ``spec`` (default budget) over ``views``."""
    bot = make_bot(spec, game)
    times: list[float] = []
    for number, view in enumerate(views):
        start = time.perf_counter()
        bot.act(view, random.Random(number))
        times.append(time.perf_counter() - start)
    return statistics.mean(times), max(times)


def speed_table(count: int = 20) -> list[tuple[str, int, int, float, float, float]]:
    """Per row of :data:`ROWS`: game, players, default iterations, iterations/s, mean and worst s/move."""
    rows = []
    for game_id, players in ROWS:
        game = dreizehn.load_game(game_id, players)
        views = positions(game, count)
        rate = iterations_per_second(game, views)
        mean, worst = move_times(game, views)
        default = IsmctsBot(game).iterations
        rows.append((game_id, players, default, rate, mean, worst))
    return rows


def play_game(task: tuple[str, int, str, str, int, int]) -> float:
    """One game of ``(game_id, players, spec, opponent, number, seed)``: the bot ``spec`` in seat ``number mod
    players``, bots ``opponent`` elsewhere; the share of the win that ``spec`` gets (1/k of a win shared by k)."""
    game_id, players, spec, opponent, number, seed = task
    game = dreizehn.load_game(game_id, players)
    seat = number % players
    bots: list[Bot] = [make_bot(spec if s == seat else opponent, game) for s in range(players)]
    rng = random.Random(seed * 100_000 + number)
    state = game.new_state(seed * 100_000 + number)
    while not state.is_over:
        player = state.current_player
        state.apply(bots[player].act(state.view(player), rng))
    return state.returns()[seat]


def win_rate(
    game_id: str,
    games: int,
    opponent: str = "random",
    players: int = 4,
    spec: str = "ismcts",
    seed: int = 1,
    jobs: int = 1,
) -> tuple[float, tuple[float, float]]:
    """The share of wins of one ``spec`` against ``players - 1`` bots ``opponent`` over ``games`` games (the seat of
    ``spec`` rotated), and its 95% confidence interval (Wilson); ``jobs`` processes."""
    tasks = [(game_id, players, spec, opponent, number, seed) for number in range(games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(play_game, tasks, chunksize=1)
    else:
        results = [play_game(task) for task in tasks]
    mean = statistics.mean(results)
    return mean, wilson(mean, len(results))


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate ``share`` over ``n`` games (a shared win counted fractionally)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20, help="positions per row (default 20)")
    parser.add_argument("--games", type=int, default=0, help="games per strength row (default 0: no strength)")
    parser.add_argument("--opponent", default="random", help="the three opponents' bot (default random)")
    parser.add_argument("--spec", default="ismcts", help="the bot measured (default ismcts, its default budget)")
    parser.add_argument("--only", action="append", help="strength of this game only (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the strength games (default 1)")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed table")
    args = parser.parse_args()
    warm_up()
    if not args.no_speed:
        print(f"ISMCTS speed ({args.positions} positions a row, one core)")
        print(f"{'game':<16}{'players':>8}{'iterations':>12}{'iter/s':>10}{'mean s/move':>13}{'worst s/move':>14}")
        for game_id, players, default, rate, mean, worst in speed_table(args.positions):
            print(f"{game_id:<16}{players:>8}{default:>12}{rate:>10,.0f}{mean:>13.3f}{worst:>14.3f}", flush=True)
    if args.games:
        print()
        print(f"one {args.spec} against three {args.opponent}, {args.games} games, seats rotated", flush=True)
        print(f"{'game':<16}{'win rate':>10}{'95% CI':>18}{'fair share':>12}", flush=True)
        for game_id in args.only or ("knizia13", "holzwurm", "three-thirteen"):
            mean, (low, high) = win_rate(game_id, args.games, args.opponent, spec=args.spec, jobs=args.jobs)
            print(f"{game_id:<16}{mean:>10.2f}{f'{low:.2f}..{high:.2f}':>18}{0.25:>12.2f}", flush=True)


if __name__ == "__main__":
    main()
