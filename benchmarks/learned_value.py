"""The ``ismcts`` search with its leaves valued by the ``learned`` bot's network (``value=learned-bot``) against
today's ``expert``, in the same seat, at the same processor time a move.

Run with ``python benchmarks/learned_value.py knizia13 --seeds 0:100 [--iterations N] [--against heuristic]
[--results FILE]`` (13 or Holzwurm, 4 players: where the network was fitted, docs/learned.md). Two steps:

1. **The budget.** ``expert`` searches 10,000 iterations a move, each a random playout to the end of the stage; a
   leaf valued by the network costs more (every seat's next decision rated by it). On ``--positions`` positions of
   heuristic games (the seat to move, more than one move legal) both searches are timed by the processor time of
   this process, alternately, ``--rounds`` times; the network's search gets the iterations that take it as long as
   ``expert``'s 10,000: ``10,000 × (expert's time an iteration) / (its time an iteration)``, rounded to 50. The
   table prints both. ``--iterations N`` skips this step (to replay a saved run's games exactly).
2. **The games.** :mod:`paired`'s games: seed ``s`` is the game's seed ``1,000,000 + s``, played 4 times with the
   bot in seat 0, 1, 2, 3, the other seats ``--against`` (default ``heuristic``); every round is dealt from the
   game's seed, so both bots meet the same cards from the same seats and the luck of the deal cancels in their
   difference. Seed by seed, both bots' games; each game is saved to ``--results`` as it finishes (a later run
   plays only what is missing), and ``--minutes M`` starts no seed after M minutes.

The table prints, over the seeds both bots have finished, each bot's margin a game (its total minus the mean of the
others', signed so that more is better), with its 95% interval (normal, over the seeds' means of their 4 seats), its
share of wins and its wall time a move, then the network's search minus ``expert``, seed by seed, with its 95%
interval.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from benchmarks import paired
from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import level_spec
from dreizehn.core.game import Game, View

PLAYERS = 4
EXPERT_ITERATIONS = 10_000
"""``expert``'s budget in 13 and Holzwurm (``ismcts:iterations=10000``, :attr:`dreizehn.core.game.Game.levels`)."""


def candidate(iterations: int, value: str = "learned-bot") -> str:
    """The network's search at ``iterations`` a move, its leaves valued by ``value``; every other option
    ``expert``'s."""
    return f"ismcts:iterations={iterations}:value={value}"


def positions(game: Game, count: int, seed: int) -> list[View]:
    """``count`` positions of heuristic games: the seat to move where more than one move is legal, a turn kept with
    chance 0.1."""
    rng = random.Random(seed)
    bot = make_bot("heuristic", game)
    found: list[View] = []
    game_seed = seed
    while len(found) < count:
        state = game.new_state(game_seed)
        game_seed += 1
        while not state.is_over and len(found) < count:
            view = state.view(state.current_player)
            if len(view.legal_actions) > 1 and rng.random() < 0.1:
                found.append(view)
            state.apply(bot.act(view, rng))
    return found


def cpu_per_move(spec: str, game: Game, views: list[View]) -> float:
    """The processor seconds of this process a move of ``spec``, over ``views`` (its first move made before, so
    that no compiling is counted)."""
    bot = make_bot(spec, game)
    bot.act(views[0], random.Random(0))
    start = time.process_time()
    for i, view in enumerate(views):
        bot.act(view, random.Random(i))
    return (time.process_time() - start) / len(views)


def calibrate(game: Game, views: list[View], probe: int, rounds: int, value: str) -> int:
    """The iterations of the network's search that cost what ``expert``'s take (step 1), with the table of times."""
    expert = level_spec("expert", game.id, PLAYERS)
    probed = candidate(probe, value)
    times: dict[str, list[float]] = {expert: [], probed: []}
    for _ in range(rounds):
        for spec in times:
            times[spec].append(cpu_per_move(spec, game, views))
    per_iteration = {spec: statistics.fmean(t) / n for (spec, t), n in zip(times.items(), (EXPERT_ITERATIONS, probe),
                                                                         strict=True)}
    iterations = max(50, round(EXPERT_ITERATIONS * per_iteration[expert] / per_iteration[probed] / 50) * 50)
    print(f"the budget: {len(views)} positions, {rounds} rounds each, processor time of this process")
    print(f"{'search':<48}{'ms a move':>12}{'µs an iteration':>18}")
    for spec, t in times.items():
        print(f"{spec:<48}{1000 * statistics.fmean(t):>12.1f}{1e6 * per_iteration[spec]:>18.2f}")
    print(f"the network's search at the same time a move: {candidate(iterations, value)}")
    return iterations


def table(args: argparse.Namespace, bots: list[str], done: dict[paired.Key, dict[str, Any]]) -> None:
    """The table of the games both bots have finished (see the module's docstring)."""
    seeds = range(*args.seed_range)
    keys = {bot: [[(args.game, args.against, PLAYERS, bot, s, seat) for seat in range(PLAYERS)] for s in seeds]
            for bot in bots}
    whole = [i for i in range(len(seeds)) if all(k in done for bot in bots for k in keys[bot][i])]
    if not whole:
        raise SystemExit("no seed is finished by both bots")
    print(f"{args.game}, {PLAYERS} players: {len(whole)} seeds × {PLAYERS} seats = {PLAYERS * len(whole)} games a "
          f"bot, against {args.against} (game seeds {paired.BASE + seeds.start + whole[0]} on)")
    print(f"{'bot':<48}{'points a game':>22}{'won':>8}{'wall a move':>13}")
    per_seed: dict[str, list[float]] = {}
    sign = 1.0 if dreizehn.load_game(args.game, PLAYERS).high_score_wins else -1.0  # paired saves the plain margin
    for bot in bots:
        rows = [done[k] for i in whole for k in keys[bot][i]]
        per_seed[bot] = [sign * statistics.fmean(float(r["margin"]) for r in rows[j : j + PLAYERS])
                         for j in range(0, len(rows), PLAYERS)]
        mean, half = paired.interval(per_seed[bot])
        won = statistics.fmean(float(r["share"]) for r in rows)
        move = sum(float(r["think"]) for r in rows) / max(1, sum(int(r["moves"]) for r in rows))
        print(f"{bot:<48}{f'{mean:+.2f} ± {half:.2f}':>22}{won:>8.1%}{1000 * move:>11.1f}ms")
    mean, half = paired.interval([a - b for a, b in zip(per_seed[bots[1]], per_seed[bots[0]], strict=True)])
    print(f"{'the network minus expert, seed by seed':<48}{f'{mean:+.2f} ± {half:.2f}':>22}"
          f"   (95% interval {mean - half:+.2f} to {mean + half:+.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=("knizia13", "holzwurm"))
    parser.add_argument("--seeds", default="0:100", help="FIRST:END, the seeds played (default 0:100)")
    parser.add_argument("--value", default="learned-bot", choices=("learned-bot", "learned-bot-mix"),
                        help="how the network values the search's leaves (default learned-bot)")
    parser.add_argument("--iterations", type=int, help="the network's search's iterations (default: calibrated)")
    parser.add_argument("--positions", type=int, default=100, help="positions timed for the budget (default 100)")
    parser.add_argument("--rounds", type=int, default=2, help="times each search is timed on them (default 2)")
    parser.add_argument("--probe", type=int, default=2000, help="the network's iterations timed (default 2000)")
    parser.add_argument("--against", default="heuristic", help="the bot in the other seats (default heuristic)")
    parser.add_argument("--results", type=Path, help="JSON-lines file to save every game to and resume from")
    parser.add_argument("--minutes", type=float, help="start no seed after this many minutes")
    parser.add_argument("--print-only", action="store_true", help="play nothing: print what is saved")
    args = parser.parse_args()
    game = dreizehn.load_game(args.game, PLAYERS)
    first, _, end = args.seeds.partition(":")
    args.seed_range = (int(first), int(end))
    args.players = PLAYERS
    args.against = level_spec(args.against, args.game, PLAYERS)
    iterations = args.iterations or calibrate(game, positions(game, args.positions, 7), args.probe, args.rounds,
                                              args.value)
    bots = [level_spec("expert", args.game, PLAYERS), candidate(iterations, args.value)]
    done = paired.saved(args.results) if args.results is not None else {}
    if not args.print_only:
        play(args, bots, done)
    table(args, bots, done)


def play(args: argparse.Namespace, bots: list[str], done: dict[paired.Key, dict[str, Any]]) -> None:
    """Both bots' missing games, seed by seed (none started after ``--minutes``), and the processor time a move of
    each bot in the games this run played (the heuristics' moves in them included: a small part)."""
    start = time.monotonic()
    cpu = dict.fromkeys(bots, 0.0)
    moves = dict.fromkeys(bots, 0)
    for seed in range(*args.seed_range):
        if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
            break
        for bot in bots:
            before = set(done)
            clock = time.process_time()
            paired.play_missing(args, bot, range(seed, seed + 1), done)
            cpu[bot] += time.process_time() - clock
            moves[bot] += sum(int(done[k]["moves"]) for k in set(done) - before)
    for bot in bots:
        if moves[bot]:
            print(f"{bot}: {1000 * cpu[bot] / moves[bot]:.1f} ms of processor time a move in this run's "
                  f"{moves[bot]} moves")


if __name__ == "__main__":
    main()
