"""Compare bots on the same deals: each seed is played once with the bot in every seat against the opponent.

Run with ``python benchmarks/paired.py --game three-thirteen --players 2 --bot SPEC [--bot SPEC ...] --seeds 0:60
--results FILE``. Seed ``s`` is the game's seed ``1_000_000 + s``, played ``players`` times, the bot in seat 0, then
1, …; every other seat is the opponent (``--against``, default ``heuristic``). The engine deals each round from the
game's seed, so the bot meets the same cards from every seat, and two bots meet the same cards on the same seeds:
the luck of the deal cancels in their difference far more than in two runs of ``benchmarks/strength.py``, which
deals each game anew. Each game is saved to ``--results`` as it finishes (one JSON line), the bot and its opponent
under their specifications (a level's name is read as the level's specification today, so that games against a
level stay apart from games against what the level plays after it changes); a later run plays only what is
missing. The table prints, per bot, over the seeds every bot has finished: the mean margin (the bot's total minus
the mean of the others'; lower is better in a game whose fewest points win), its 95% interval, the share of wins,
the mean and worst move; then each bot's margin minus the first bot's, seed by seed, with its 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
from dreizehn.bots.levels import level_spec
from dreizehn.study.jobs import play

BASE = 1_000_000
"""Seed ``s`` plays the game's seed ``BASE + s`` (apart from the seeds of ``strength.py``)."""

Key = tuple[str, str, int, str, int, int]
"""A saved game: game, opponent, players, bot, seed and the bot's seat."""


def saved(path: Path) -> dict[Key, dict[str, Any]]:
    """The games saved in ``path``; a last line without its newline is a game another run is writing, left out."""
    found: dict[Key, dict[str, Any]] = {}
    if path.exists():
        *lines, unfinished = path.read_text().split("\n")
        for line in lines:
            if line.strip():
                row = json.loads(line)
                found[(row["game"], row["against"], row["players"], row["bot"], row["seed"], row["seat"])] = row
        if unfinished.strip():
            print(f"left out the unfinished last line of {path}", file=sys.stderr)
    return found


def play_missing(args: argparse.Namespace, bot: str, seeds: range, done: dict[Key, dict[str, Any]]) -> None:
    """Play the games of ``bot`` on ``seeds`` that ``done`` lacks, saving each as it finishes."""
    game = dreizehn.load_game(args.game, args.players)
    for seed in seeds:
        for seat in range(args.players):
            if (args.game, args.against, args.players, bot, seed, seat) in done:
                continue
            seats = [args.against] * args.players
            seats[seat] = bot
            result, _ = play(game, seats, BASE + seed, seed)
            others = [t for i, t in enumerate(result.totals) if i != seat]
            think, moves, worst = result.move_times[seat]
            row = {"game": args.game, "against": args.against, "players": args.players, "bot": bot, "seed": seed,
                   "seat": seat, "margin": result.totals[seat] - sum(others) / len(others),
                   "share": result.shares[seat], "think": think, "moves": moves, "worst": worst}
            done[(args.game, args.against, args.players, bot, seed, seat)] = row
            if args.results is not None:
                with args.results.open("a") as out:
                    out.write(json.dumps(row) + "\n")


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="three-thirteen", choices=dreizehn.game_ids())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", action="append", required=True, help="a bot or level (repeatable)")
    parser.add_argument("--against", default="heuristic", help="the bot in every other seat")
    parser.add_argument("--seeds", default="0:60", help="FIRST:END, the seeds played (default 0:60)")
    parser.add_argument("--results", type=Path, help="JSON-lines file to save every game to and resume from")
    parser.add_argument("--print-only", action="store_true", help="play nothing: print what is saved")
    args = parser.parse_args()
    args.against = level_spec(args.against, args.game, args.players)
    args.bot = [level_spec(bot, args.game, args.players) for bot in args.bot]
    first, _, end = args.seeds.partition(":")
    seeds = range(int(first), int(end))
    done = saved(args.results) if args.results is not None else {}
    if not args.print_only:
        for bot in args.bot:
            play_missing(args, bot, seeds, done)
    whole = [s for s in seeds if all((args.game, args.against, args.players, b, s, seat) in done
                                     for b in args.bot for seat in range(args.players))]
    if not whole:
        raise SystemExit("no seed is finished by every bot")
    per_seed: dict[str, list[float]] = {}
    print(f"{len(whole)} seeds, each with the bot in all {args.players} seats against {args.against}")
    print(f"{'bot':<72}{'margin':>16}{'won':>8}{'mean move':>11}{'worst':>8}")
    for bot in args.bot:
        rows = [done[(args.game, args.against, args.players, bot, s, seat)] for s in whole
                for seat in range(args.players)]
        per_seed[bot] = [statistics.fmean(r["margin"] for r in rows[i : i + args.players])
                         for i in range(0, len(rows), args.players)]
        mean, half = interval(per_seed[bot])
        won = statistics.fmean(r["share"] for r in rows)
        move = sum(r["think"] for r in rows) / max(1, sum(r["moves"] for r in rows))
        worst = max(r["worst"] for r in rows)
        print(f"{bot:<72}{f'{mean:+.1f} ± {half:.1f}':>16}{won:>8.1%}{move * 1000:>9.1f}ms{worst:>7.2f}s")
    for bot in args.bot[1:]:
        mean, half = interval([a - b for a, b in zip(per_seed[bot], per_seed[args.bot[0]], strict=True)])
        print(f"{bot} minus {args.bot[0]}: {mean:+.1f} ± {half:.1f} points a game")


if __name__ == "__main__":
    main()
