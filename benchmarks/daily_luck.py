"""How much luck the daily deal takes out (issue 47, docs/daily.md): two equal bots, A and B (the same level, each
with its own random numbers), play seat 0 of many deals against the daily deal's fixed bots (the same level and
random numbers at every other seat, as the server seats them). On the **same** deal (duplicate: what two players of
one day's deal compare) the difference of their final totals is A's score on deal i minus B's on deal i; on
**different** deals (what two players of random deals compare) it is A's on deal i minus B's on deal i+1. Printed per
game: the standard deviation of each and their ratio (duplicate / random; below 1, luck taken out), with a bootstrap
95 % interval of the ratio.

    PYTHONPATH=src python benchmarks/daily_luck.py --deals 300
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dreizehn.play.table import Seat, Table

GAMES = (("knizia13", 3), ("holzwurm", 2), ("three-thirteen", 2))


def total(game_id: str, players: int, seed: int, person: str, stream: str, others: str) -> int:
    """Seat 0's final total on deal ``seed``: played by bot ``person`` with random numbers ``stream``, the other
    seats by ``others`` with the deal's own."""
    seats = [Seat("A", bot=person)] + [Seat(f"bot{i}", bot=others) for i in range(1, players)]
    table = Table.create(game_id, seats, seed, events=False)
    table._rngs[0] = random.Random(f"{stream}:{seed}")  # A and B: one level, their own random numbers
    table.play_bots()
    return int(table.state.totals[0])


def ratio_interval(dup: list[int], rand: list[int], rng: random.Random, rounds: int = 400) -> tuple[float, float]:
    """A bootstrap 95 % interval of stdev(dup) / stdev(rand) (pairs resampled together)."""
    n, found = len(dup), []
    for _ in range(rounds):
        picks = [rng.randrange(n) for _ in range(n)]
        a, b = [dup[i] for i in picks], [rand[i] for i in picks]
        if statistics.pstdev(b) > 0:
            found.append(statistics.pstdev(a) / statistics.pstdev(b))
    found.sort()
    return found[int(0.025 * len(found))], found[int(0.975 * len(found)) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=300, help="deals per game (default 300)")
    parser.add_argument("--person", default="heuristic:blunder=0.3", help="the level of A and B")
    parser.add_argument("--others", default="heuristic", help="the fixed bots' level (the server's: hard)")
    args = parser.parse_args()
    print(f"A and B: {args.person}; the fixed bots: {args.others}; {args.deals} deals per game\n")
    print(f"{'game':<15} {'players':>7} {'sd same deal':>13} {'sd other deals':>15} {'ratio':>6} {'95 % interval':>15}"
          f" {'s':>5}")
    for game_id, players in GAMES:
        started = time.perf_counter()
        seeds = [1_000_003 * i + 17 for i in range(args.deals + 1)]
        a = [total(game_id, players, s, args.person, "A", args.others) for s in seeds]
        b = [total(game_id, players, s, args.person, "B", args.others) for s in seeds]
        dup = [a[i] - b[i] for i in range(args.deals)]
        rand = [a[i] - b[i + 1] for i in range(args.deals)]
        low, high = ratio_interval(dup, rand, random.Random(13))
        sd_dup, sd_rand = statistics.pstdev(dup), statistics.pstdev(rand)
        print(f"{game_id:<15} {players:>7} {sd_dup:>13.2f} {sd_rand:>15.2f} {sd_dup / sd_rand:>6.2f} "
              f"{f'{low:.2f}-{high:.2f}':>15} {time.perf_counter() - started:>5.0f}", flush=True)


if __name__ == "__main__":
    main()
