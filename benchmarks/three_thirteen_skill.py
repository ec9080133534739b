"""How far apart good and weak play lie in 2-player Three Thirteen, against the luck of the cards.

Run with ``python benchmarks/three_thirteen_skill.py [--games 1000] [--jobs J] [--results FILE]``. Each row plays
one player against ``heuristic`` over ``--games`` games, seats rotated, game ``i`` with seed ``--seed + i``, and
prints its win rate (95% Wilson interval), its mean point margin over the heuristic (its total minus the
heuristic's, with a 95% interval; lower is better, the fewest points win), the spread of that margin, and the mean
margin that would win 60% of the games at that spread (a normal approximation: ``z(0.40) * spread``).

The players:

* ``heuristic``: the heuristic against itself. Its spread is the luck of the cards (and of the tie-breaks).
* ``heuristic, no meld potential``: the heuristic with ``W_POTENTIAL = 0``: it discards to the fewest penalty points
  without keeping pairs and near-runs.
* ``heuristic, feeds``: the heuristic with ``W_FEED = 0``: it no longer holds back cards the next player is known to
  collect.
* ``greedy playout policy``: the policy of ``ismcts``'s Three Thirteen playouts (``playout`` in
  :mod:`dreizehn.games.three_thirteen.heuristic`), played as a bot on a state sampled from its view. It reads
  only its own hand and the table.
* ``ismcts`` (default options): read from ``--results`` (``benchmarks/results/strength.jsonl``: the games saved by
  ``benchmarks/strength.py --players 2 --game three-thirteen --matchup ismcts,heuristic``), not played here, one
  row per source fingerprint (the bots' defaults differ from one to the next); its games use seeds 0-999. With
  ``--saved BOT`` (repeatable), the saved games of ``BOT`` against ``heuristic`` instead (``--games 0``: those
  rows alone).

The ablated heuristics change the heuristic's module weights only for the duration of their own moves.

``--search N`` adds the search's variants, over seeds 0 to N-1 (those of the strength runs; an ISMCTS game takes
seconds): every discard searched (``ismcts:prune=0``), the heuristic's best 3 discards searched (``prune=3``), and
two hybrids that ask ``ismcts`` for one kind of decision and ``heuristic`` for the other (searched discards with the
heuristic's draws; the heuristic's discards with searched draws).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn.games.three_thirteen.heuristic as rules
from dreizehn.bots.base import Bot, make_bot, register_bot
from dreizehn.bots.heuristic import HeuristicBot
from dreizehn.core.game import Game, View
from dreizehn.games.three_thirteen import ThreeThirteenView
from dreizehn.games.three_thirteen.heuristic import playout
from dreizehn.study.saved import run_key, saved_games
from dreizehn.study.sim import GameResult, RunSpec, run_games, seating
from dreizehn.study.stats import wilson_interval

GAME = "three-thirteen"
Z40 = statistics.NormalDist().inv_cdf(0.40)


@contextmanager
def _weights(potential: float, feed: float) -> Iterator[None]:
    saved = rules.W_POTENTIAL, rules.W_FEED
    rules.W_POTENTIAL, rules.W_FEED = potential, feed
    try:
        yield
    finally:
        rules.W_POTENTIAL, rules.W_FEED = saved


@register_bot
class NoPotential(HeuristicBot):
    """The heuristic without the meld-potential term of its discards."""

    name: ClassVar[str] = "heuristic-nopotential"

    def act(self, view: View, rng: random.Random) -> int:
        with _weights(0.0, rules.W_FEED):
            return super().act(view, rng)


@register_bot
class Feeds(HeuristicBot):
    """The heuristic without the term that holds back cards the next player collects."""

    name: ClassVar[str] = "heuristic-feeds"

    def act(self, view: View, rng: random.Random) -> int:
        with _weights(rules.W_POTENTIAL, 0.0):
            return super().act(view, rng)


@register_bot
class GreedyPolicy(Bot):
    """The Three Thirteen playout policy of ``ismcts``, on a state sampled from the view."""

    name: ClassVar[str] = "greedy-policy"

    def act(self, view: View, rng: random.Random) -> int:
        return playout(self.game.sample_state(view, rng), rng.random)


class _Hybrid(Bot):
    """``ismcts`` for one kind of Three Thirteen decision (with a card drawn, or not), ``heuristic`` for the other."""

    search_drawn: ClassVar[bool]

    def __init__(self, game: Game, **options: object) -> None:
        super().__init__(game, **options)
        self.search, self.heuristic = make_bot("ismcts:prune=0", game), make_bot("heuristic", game)

    def act(self, view: View, rng: random.Random) -> int:
        assert isinstance(view, ThreeThirteenView)
        return (self.search if view.drawn == self.search_drawn else self.heuristic).act(view, rng)


@register_bot
class SearchedDiscards(_Hybrid):
    name: ClassVar[str] = "ismcts-discards"
    search_drawn = True


@register_bot
class SearchedDraws(_Hybrid):
    name: ClassVar[str] = "ismcts-draws"
    search_drawn = False


SEARCHES = (
    ("ismcts, every discard searched", "ismcts:prune=0"),
    ("ismcts, best 3 discards searched", "ismcts:prune=3"),
    ("searched discards, heur. draws", "ismcts-discards"),
    ("heur. discards, searched draws", "ismcts-draws"),
)

PLAYERS = (
    ("heuristic", "heuristic"),
    ("heuristic, no meld potential", "heuristic-nopotential"),
    ("heuristic, feeds", "heuristic-feeds"),
    ("greedy playout policy", "greedy-policy"),
)


def _shares_and_margins(results: list[GameResult], seats: list[int]) -> tuple[list[float], list[float]]:
    """The shares won by the player in seat ``seats[i]`` of the 2-player game ``results[i]``, and its point margins
    over the other seat."""
    shares: list[float] = []
    diffs: list[float] = []
    for r, mine in zip(results, seats, strict=True):
        shares.append(r.shares[mine])
        diffs.append(r.totals[mine] - r.totals[1 - mine])
    return shares, diffs


def margins(bot: str, games: int, seed: int, jobs: int | None) -> tuple[list[float], list[float]]:
    """The shares won and point margins of ``bot`` against ``heuristic``."""
    plan = [seating([bot, "heuristic"], 2, i) for i in range(games)]
    results = run_games(RunSpec(GAME, 2, [bot, "heuristic"], games, seed=seed, jobs=jobs), plan)
    return _shares_and_margins(results, [r.index % 2 for r in results])  # seating() rotates the seats by the index


def saved(path: Path, bot: str = "ismcts") -> dict[str, tuple[list[float], list[float]]]:
    """The shares and margins of ``bot`` against ``heuristic`` saved by ``benchmarks/strength.py``, by source
    fingerprint, in the order the fingerprints first appear."""
    out = {}
    for code, results in saved_games(path, run_key(GAME, 2, {}, (bot, "heuristic"), 0)).items():
        by_index = {r.index: r for r in results}
        ordered = [by_index[i] for i in sorted(by_index)]
        out[code] = _shares_and_margins(ordered, [r.seats.index(bot) for r in ordered])
    return out


def line(name: str, shares: list[float], diffs: list[float]) -> str:
    n = len(shares)
    low, high = wilson_interval(sum(shares), n)
    mean = statistics.fmean(diffs)
    spread = statistics.stdev(diffs)
    half = 1.96 * spread / math.sqrt(n)
    return (f"{name:<32}{n:>6}{sum(shares) / n:>9.1%}{f'{low:.1%} to {high:.1%}':>17}"
            f"{f'{mean:+.1f} ± {half:.1f}':>15}{spread:>8.1f}{Z40 * spread:>+10.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per row (default 1000)")
    parser.add_argument("--seed", type=int, default=20_000, help="seed of game 0 (default 20000)")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--results", type=Path, help="strength.py's saved games, for the ismcts rows")
    parser.add_argument("--search", type=int, default=0, metavar="N", help="also the search's variants, N games each")
    parser.add_argument("--saved", action="append", metavar="BOT",
                        help="the saved games of BOT against heuristic in --results (repeatable; default ismcts)")
    args = parser.parse_args()
    print(f"{'2-player Three Thirteen, against heuristic':<32}{'games':>6}{'won':>9}{'95% interval':>17}"
          f"{'margin':>15}{'spread':>8}{'60% needs':>10}")
    for name, bot in PLAYERS if args.games else ():
        print(line(name, *margins(bot, args.games, args.seed, args.jobs)), flush=True)
    for name, bot in SEARCHES if args.search else ():
        print(line(name, *margins(bot, args.search, 0, args.jobs)), flush=True)
    if args.results is not None:
        for bot in args.saved or ["ismcts"]:
            if bot != "ismcts":
                print(bot)
            for code, (shares, diffs) in saved(args.results, bot).items():
                if len(shares) > 1:
                    print(line(f"ismcts, code {code[:8]}", shares, diffs))


if __name__ == "__main__":
    main()
