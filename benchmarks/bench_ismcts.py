"""Speed of the ``ismcts`` bot (:mod:`dreizehn.bots.ismcts`); its strength is measured by benchmarks/strength.py.

Run with ``python benchmarks/bench_ismcts.py [--positions N]``. One core. With ``--levels``, the mean and worst time a
move of each search level (``hard`` and up, :mod:`dreizehn.bots.levels`) of 13 at 3 players, Holzwurm at 2 and Three
Thirteen at 2 and 4, as docs/bots.md's levels are measured, instead; ``--last-stage`` takes the positions from the
games' last stage only (Three Thirteen's 11th round, the largest hands: its slowest moves). The positions are
decision points (two or more legal actions) drawn from random games, each game's positions spread over the whole game
(or its last stage); the iteration rate is over searches of a fixed number of iterations, the move times at the
default budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.bots.levels import game_levels, level_spec
from dreizehn.bots.random_bot import random_action
from dreizehn.core.game import Game, View
from dreizehn.games.three_thirteen.melds import warm_up

ROWS: tuple[tuple[str, int], ...] = (("knizia13", 4), ("holzwurm", 4), ("three-thirteen", 4), ("three-thirteen", 2))


def positions(game: Game, count: int, seed: int = 13, *, last_stage: bool = False) -> list[View]:
    """``count`` views of the seat to move, with two or more legal actions, from random games (random players); with
    ``last_stage``, only from each game's last stage."""
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
        if last_stage:
            views = [v for v in views if v.stage == views[-1].stage]
        out.extend(rng.sample(views, min(len(views), 5, count - len(out))))
    return out


def iterations_per_second(game: Game, views: list[View], iterations: int = 300) -> float:
    """ISMCTS iterations per second over searches of ``iterations`` iterations from ``views`` (every root action
    searched: ``prune=0``, so Three Thirteen's discards are searched too)."""
    bot = IsmctsBot(game, iterations=iterations, prune=0)
    bot.search(views[0], random.Random(0))  # a game's compiled search is loaded (or compiled) on its first use
    done = 0
    start = time.perf_counter()
    for number, view in enumerate(views):
        bot.search(view, random.Random(number))
        done += bot.last_iterations
    return done / (time.perf_counter() - start)


def move_times(game: Game, views: list[View], spec: str = "ismcts",
               clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """Mean and worst seconds per move of the bot ``spec`` (default budget) over ``views``, by ``clock``."""
    bot = make_bot(spec, game)
    bot.act(views[0], random.Random(0))  # loaded (or compiled) on first use
    times: list[float] = []
    for number, view in enumerate(views):
        start = clock()
        bot.act(view, random.Random(number))
        times.append(clock() - start)
    return statistics.mean(times), max(times)


def speed_table(count: int = 20) -> list[tuple[str, int, int, float, float, float]]:
    """Per row of :data:`ROWS`: game, players, default iterations, iterations/s, mean and worst s/move."""
    rows = []
    for game_id, players in ROWS:
        game = dreizehn.load_game(game_id, players)
        views = positions(game, count)
        rate = iterations_per_second(game, views)
        mean, worst = move_times(game, views)
        default = IsmctsBot(game).settings.iterations
        rows.append((game_id, players, default, rate, mean, worst))
    return rows


LEVEL_ROWS: tuple[tuple[str, int], ...] = (
    ("knizia13", 3), ("holzwurm", 2), ("three-thirteen", 2), ("three-thirteen", 4))


def level_times(count: int, last_stage: bool = False, games: list[str] | None = None,
                players: list[int] | None = None) -> None:
    """Print the mean and worst seconds a move of each level that searches, on ``count`` positions a game (from
    its last stage only with ``last_stage``): CPU time, which a busy machine inflates less than the clock on the
    wall; only the rows of ``games`` where given, at the counts ``players`` instead of the rows' where given."""
    where = ", the last stage" if last_stage else ""
    print(f"Level move times ({count} positions a row{where}, CPU seconds of one core)")
    print(f"{'game':<16}{'players':>8}{'level':>8}{'mean s/move':>13}{'worst s/move':>14}  specification")
    rows = [(g, n) for g in dict.fromkeys(g for g, _ in LEVEL_ROWS) for n in players] if players else LEVEL_ROWS
    for game_id, count_players in rows:
        if games and game_id not in games:
            continue
        game = dreizehn.load_game(game_id, count_players)
        views = positions(game, count, last_stage=last_stage)
        for level in game_levels(game_id):
            spec = level_spec(level, game_id, count_players)
            if spec.startswith("ismcts"):
                mean, worst = move_times(game, views, spec, time.process_time)
                print(f"{game_id:<16}{count_players:>8}{level:>8}{mean:>13.3f}{worst:>14.3f}  {spec}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=20, help="positions per row (default 20)")
    parser.add_argument("--levels", action="store_true", help="time each search level instead")
    parser.add_argument("--last-stage", action="store_true", help="with --levels: positions of the last stage only")
    parser.add_argument("--game", action="append", choices=dreizehn.game_ids(), help="with --levels: only this game")
    parser.add_argument("--players", action="append", type=int, help="with --levels: at this player count instead "
                        "(repeatable)")
    args = parser.parse_args()
    if args.levels:
        warm_up()
        level_times(args.positions, args.last_stage, args.game, args.players)
        return
    warm_up()
    print(f"ISMCTS speed ({args.positions} positions a row, one core)")
    print(f"{'game':<16}{'players':>8}{'iterations':>12}{'iter/s':>10}{'mean s/move':>13}{'worst s/move':>14}")
    for game_id, players, default, rate, mean, worst in speed_table(args.positions):
        print(f"{game_id:<16}{players:>8}{default:>12}{rate:>10,.0f}{mean:>13.3f}{worst:>14.3f}", flush=True)


if __name__ == "__main__":
    main()
