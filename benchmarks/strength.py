"""Measure the bots' strength: one bot against opponents, seats rotated, win rates with 95% Wilson intervals.

Run with ``python benchmarks/strength.py --games 1000 [--jobs J] [--game G ...] [--matchup BOT,OPPONENT ...]``.
The default match-ups are the project's targets at 4 players: one ``heuristic`` against three ``random`` (a fair
share is 25%) and one ``ismcts`` (default budget) against three ``heuristic``. Game i uses seed ``seed + i``; a win
shared by k players counts 1/k. Three Thirteen is played under ``stock_out=end-round`` with ``--end-round``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dreizehn.sim import simulate

GAMES = ("knizia13", "holzwurm", "three-thirteen")
MATCHUPS = (("heuristic", "random"), ("ismcts", "heuristic"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games per row (default 1000)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--matchup", action="append", help="BOT,OPPONENT (repeatable)")
    parser.add_argument("--end-round", action="store_true", help="Three Thirteen under stock_out=end-round")
    args = parser.parse_args()
    matchups = [tuple(m.split(",", 1)) for m in args.matchup] if args.matchup else list(MATCHUPS)
    print(f"{'game':<16}{'bot':<12}{'against':<12}{'games':>7}{'win rate':>10}{'95% interval':>18}"
          f"{'mean move':>11}{'seconds':>9}")
    for game_id in args.game or GAMES:
        options = {"stock_out": "end-round"} if game_id == "three-thirteen" and args.end_round else {}
        for bot, opponent in matchups:
            start = time.perf_counter()
            run = simulate(game_id, args.players, [bot, opponent], games=args.games, seed=args.seed,
                           options=options, jobs=args.jobs)
            summary = run.summaries()[0]
            low, high = summary.interval
            print(f"{game_id:<16}{bot:<12}{opponent:<12}{summary.games:>7}{summary.win_rate:>10.1%}"
                  f"{f'{low:.1%} to {high:.1%}':>18}{summary.mean_move * 1000:>9.2f}ms"
                  f"{time.perf_counter() - start:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
