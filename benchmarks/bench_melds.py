"""Speed of the Three Thirteen meld solver (:mod:`dreizehn.games.three_thirteen.melds`) on random hands with wild cards.

Run with ``python benchmarks/bench_melds.py [--seconds S]`` (or as part of ``make bench``). One core; the kernels
are compiled (or loaded from the disk cache) before timing.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from dreizehn.games.three_thirteen.melds import arrange, go_out_discards, min_penalty, warm_up

Hand = tuple[list[int], int]


def random_hands(size: int, count: int = 4096, seed: int = 13) -> list[Hand]:
    """``count`` random hands of ``size`` cards from one or two 52-card decks, each with a wild rank in 3..13."""
    rng = random.Random(seed * 100 + size)
    one_deck = list(range(52))
    hands: list[Hand] = []
    for _ in range(count):
        deck = one_deck * rng.choice((1, 2))
        hands.append((rng.sample(deck, size), rng.randint(3, 13)))
    return hands


def hands_per_second(solve: Callable[[Sequence[int], int], object], hands: list[Hand], seconds: float) -> float:
    """Calls of ``solve(hand, wild_rank)`` per second, cycling through ``hands`` for about ``seconds``."""
    batches = [hands[i : i + 256] for i in range(0, len(hands), 256)]
    done = 0
    turn = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        batch = batches[turn % len(batches)]
        for hand, wild_rank in batch:
            solve(hand, wild_rank)
        done += len(batch)
        turn += 1
        elapsed = time.perf_counter() - start
    return done / elapsed


def bench_melds(seconds: float = 1.0, forbidden: bool = False) -> list[tuple[str, float]]:
    """Hands per second: ``min_penalty`` on 10, 13 and 14-card hands, ``go_out_discards`` and ``arrange`` on
    14-card hands (random hands from 1 or 2 decks, wild rank 3..13, a fixed seed); with ``forbidden``, under
    ``all_wild_melds=forbidden`` (T7) and with "(forbidden)" in the row names."""
    warm_up()
    tag = " (forbidden)" if forbidden else ""
    solvers: list[tuple[str, Callable[[Sequence[int], int], object]]] = [
        ("min_penalty", min_penalty), ("go_out_discards", go_out_discards), ("arrange", arrange)
    ]
    if forbidden:  # (a lambda costs about 0.1 us a call more)
        solvers = [
            ("min_penalty", lambda hand, wild_rank: min_penalty(hand, wild_rank, all_wild_melds=False)),
            ("go_out_discards", lambda hand, wild_rank: go_out_discards(hand, wild_rank, all_wild_melds=False)),
            ("arrange", lambda hand, wild_rank: arrange(hand, wild_rank, all_wild_melds=False)),
        ]
    rows: list[tuple[str, float]] = []
    for size in (10, 13, 14):
        rate = hands_per_second(solvers[0][1], random_hands(size), seconds)
        rows.append((f"min_penalty, {size}-card hands{tag}", rate))
    fourteen = random_hands(14)
    for name, solve in solvers[1:]:
        rows.append((f"{name}, 14-card hands{tag}", hands_per_second(solve, fourteen, seconds)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per row (default 1)")
    parser.add_argument("--forbidden", action="store_true", help="also time all_wild_melds=forbidden (T7)")
    args = parser.parse_args()
    print(f"Three Thirteen meld solver ({args.seconds:g} s a row, random hands with wilds, one core)")
    print(f"{'what':<48}{'hands/s':>12}{'us/hand':>10}")
    rows = bench_melds(args.seconds)
    if args.forbidden:
        rows += bench_melds(args.seconds, forbidden=True)
    for name, rate in rows:
        print(f"{name:<48}{rate:>12,.0f}{1e6 / rate:>10.1f}")


if __name__ == "__main__":
    main()
