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
* ``heuristic, draws by expectimax``: the heuristic's discards, but a draw decided by looking one card ahead
  (:func:`expected_take`): it takes the top discard where the hand's best discard score (the heuristic's own score:
  fewest penalty points, meld potential, feeding) with that card beats the mean of that best score over the cards
  the seat cannot see, the stock's card being one of them; a wild card it always takes. About ten times the
  heuristic's time a draw.
* ``greedy playout policy``: the policy of ``ismcts``'s Three Thirteen playouts (``playout_action`` in
  :mod:`dreizehn.games.three_thirteen.heuristic`), played as a bot on a state sampled from its view. It reads
  only its own hand and the table.
* ``ismcts`` (default options): read from ``--results`` (``benchmarks/results/strength.jsonl``: the games saved by
  ``benchmarks/strength.py --players 2 --game three-thirteen --matchup ismcts,heuristic``), not played here, one
  row per source fingerprint (the bots' defaults differ from one to the next); its games use seeds 0-999. With
  ``--saved BOT`` (repeatable), the saved games of ``BOT`` against ``heuristic`` instead (``--games 0``: those
  rows alone).

``--player BOT`` (repeatable) plays only those of the heuristic's rows (``heuristic-expectimax-draws``, say).
``--versus-expert BOT`` plays a variant of the 2-player ``expert`` (``expert-expectimax-draws``: its draws by the
expectimax; ``expert-wide-discards``: its discards searched among all, :data:`WIDE_DISCARDS`) against the heuristic
over ``--versus-games`` seeds from 0, seats rotated, and with ``--results`` pairs it seed by seed with the saved
``expert`` games (the same seeds and seats). ``--agreement N`` plays no games: over ``N`` draws of heuristic games
(from ``--seed``), it counts how often ``heuristic``, ``expert`` and the draw by expectimax each take the top
discard, to show whether the search's draws already look ahead as the expectimax does.

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
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

import numba as nb
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import dreizehn
import dreizehn.games.three_thirteen.heuristic as rules
from dreizehn.bots.base import Bot, make_bot, register_bot
from dreizehn.bots.heuristic import HeuristicBot
from dreizehn.bots.levels import level_spec
from dreizehn.core.game import Game, View
from dreizehn.games.three_thirteen import ThreeThirteenView
from dreizehn.games.three_thirteen.heuristic import playout_action
from dreizehn.games.three_thirteen.kernel import (
    DECKS,
    HANDS,
    PILE_N,
    ROUND,
    STOCK,
    TURN,
    ThreeThirteenKernel,
)
from dreizehn.games.three_thirteen.kernel_heuristic import discard_scores
from dreizehn.games.three_thirteen.rules import DRAW, KINDS, TAKE, ThreeThirteenRules
from dreizehn.games.three_thirteen.search import row_of_view, unseen_by
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
        return playout_action(self.game.sample_state(view, rng), rng.random)


@nb.njit(cache=True)
def _best_with(s: npt.NDArray[np.int16], kind: int,
               scores: npt.NDArray[np.float64]) -> float:  # pragma: no cover - compiled
    """The heuristic's best discard score for the seat to move in ``s`` with one more card of ``kind`` in hand."""
    at = HANDS + int(s[TURN]) * KINDS + kind
    s[at] += 1
    discard_scores(s, scores)
    s[at] -= 1
    return float(scores.max())


@nb.njit(cache=True)
def expected_take(s: npt.NDArray[np.int16]) -> bool:  # pragma: no cover - compiled
    """Whether the seat to move in ``s`` (before its draw) should take the top discard, looking one card ahead: a
    wild card always; else where its best discard score with that card beats the mean best score over the cards it
    cannot see (weighted by their counts)."""
    top = int(s[STOCK + KINDS * int(s[DECKS]) + s[PILE_N] - 1])
    if top % 13 + 1 == int(s[ROUND]) + 3:
        return True
    scores = np.empty(KINDS, np.float64)
    with_top = _best_with(s, top, scores)
    left = unseen_by(s, int(s[TURN]))
    total = 0.0
    count = 0
    for kind in range(KINDS):
        if left[kind] > 0:
            total += left[kind] * _best_with(s, kind, scores)
            count += left[kind]
    return count == 0 or with_top > total / count


@register_bot
class ExpectimaxDraws(HeuristicBot):
    """The heuristic, but for its draws: :func:`expected_take` on the view's kernel row."""

    name: ClassVar[str] = "heuristic-expectimax-draws"

    def __init__(self, game: Game, **options: object) -> None:
        super().__init__(game, **options)
        assert isinstance(game, ThreeThirteenRules)
        self.empty = ThreeThirteenKernel(game).new(1)[0]

    def act(self, view: View, rng: random.Random) -> int:
        assert isinstance(view, ThreeThirteenView)
        legal = view.legal_actions
        if view.drawn or TAKE not in legal or DRAW not in legal:
            return super().act(view, rng)
        return TAKE if expected_take(row_of_view(self.empty, view)) else DRAW


class _Hybrid(Bot):
    """One bot for the Three Thirteen decisions made with a card drawn (discards, ways out), another for those
    before (draws)."""

    discards: ClassVar[str]
    """The bot that discards (a specification or level)."""
    draws: ClassVar[str]
    """The bot that draws."""

    def __init__(self, game: Game, **options: object) -> None:
        super().__init__(game, **options)
        self.players = {True: make_bot(self.discards, game), False: make_bot(self.draws, game)}

    def act(self, view: View, rng: random.Random) -> int:
        assert isinstance(view, ThreeThirteenView)
        return self.players[view.drawn].act(view, rng)


@register_bot
class SearchedDiscards(_Hybrid):
    name: ClassVar[str] = "ismcts-discards"
    discards, draws = "ismcts:prune=0", "heuristic"


@register_bot
class SearchedDraws(_Hybrid):
    name: ClassVar[str] = "ismcts-draws"
    discards, draws = "heuristic", "ismcts:prune=0"


EXPERT = level_spec("expert", GAME, 2)
"""The 2-player ``expert``, whose variants follow."""


@register_bot
class ExpertExpectimaxDraws(_Hybrid):
    """The 2-player ``expert`` for its discards and ways out, the draw by expectimax (:func:`expected_take`) for its
    draws."""

    name: ClassVar[str] = "expert-expectimax-draws"
    discards, draws = EXPERT, "heuristic-expectimax-draws"


WIDE_DISCARDS = "ismcts:playout=heuristic:prune=0:cutoff=8:iterations=2000:infer=on:value=learned"
"""The search of ``expert-wide-discards``'s discards: every discard searched (not only the heuristic's best two), on
more determinizations in all (2,000 iterations shared among them, where ``expert`` shares 600 between two)."""


@register_bot
class ExpertWideDiscards(_Hybrid):
    """The 2-player ``expert`` for its draws, :data:`WIDE_DISCARDS` for its discards and ways out."""

    name: ClassVar[str] = "expert-wide-discards"
    discards, draws = WIDE_DISCARDS, EXPERT


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
    ("heuristic, draws by expectimax", "heuristic-expectimax-draws"),
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
        seats = [[level_spec(seat, GAME, 2) for seat in r.seats].index(bot) for r in ordered]  # levels saved by name
        out[code] = _shares_and_margins(ordered, seats)
    return out


def draw_agreement(positions: int, seed: int) -> Counter[tuple[str, str, str]]:
    """How often ``heuristic``, ``expert`` and the draw by expectimax take the top discard, over ``positions`` draws
    of 2-player heuristic games (each draw with a choice kept with chance 0.15; game ``i`` from ``seed + i``): a
    count per combination of their choices."""
    game = dreizehn.load_game(GAME, 2)
    bots = [make_bot(spec, game) for spec in ("heuristic", level_spec("expert", GAME, 2), "heuristic-expectimax-draws")]
    rng = random.Random(seed)
    counts: Counter[tuple[str, str, str]] = Counter()
    index = 0
    while counts.total() < positions:
        state = game.new_state(seed + index)
        index += 1
        while not state.is_over and counts.total() < positions:
            view = state.view(state.current_player)
            assert isinstance(view, ThreeThirteenView)
            if not view.drawn and {TAKE, DRAW} <= set(view.legal_actions) and rng.random() < 0.15:
                chosen = [bot.act(view, random.Random(seed + index)) for bot in bots]
                heuristic, expert, expectimax = ("take" if a == TAKE else "draw" for a in chosen)
                counts[heuristic, expert, expectimax] += 1
            state.apply(bots[0].act(view, rng))
    return counts


def paired_line(name: str, mine: tuple[list[float], list[float]], other: tuple[list[float], list[float]]) -> str:
    """``name``'s wins and margin less ``other``'s, game by game over the games both played (the same seeds and seats
    in the same order), each with its 95% interval."""
    n = min(len(mine[0]), len(other[0]))
    wins = [a - b for a, b in zip(mine[0][:n], other[0][:n], strict=True)]
    points = [a - b for a, b in zip(mine[1][:n], other[1][:n], strict=True)]
    return (f"{name}, less the saved games over the same {n} seeds: margin {statistics.fmean(points):+.2f} ± "
            f"{_half(points):.2f} points a game (below 0: better), wins {statistics.fmean(wins):+.1%} ± "
            f"{_half(wins):.1%}")


def _half(values: list[float]) -> float:
    """Half the 95% interval of the mean of ``values``."""
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


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
    parser.add_argument("--player", action="append", metavar="BOT",
                        help="only this player's row of the heuristic's rows (a bot name, repeatable)")
    parser.add_argument("--versus-expert", action="append", default=[], metavar="BOT",
                        help="a variant of expert (expert-expectimax-draws, expert-wide-discards; repeatable), "
                             "played over --versus-games seeds from 0 and paired with the saved expert games")
    parser.add_argument("--versus-games", type=int, default=200, metavar="N", help="games of each --versus-expert")
    parser.add_argument("--agreement", type=int, default=0, metavar="N",
                        help="only compare the draws of heuristic, expert and expectimax at N positions")
    args = parser.parse_args()
    if args.agreement:
        print("heuristic, expert, expectimax: positions")
        for choices, count in sorted(draw_agreement(args.agreement, args.seed).items(), key=lambda c: -c[1]):
            print(f"{', '.join(choices)}: {count}")
        return
    print(f"{'2-player Three Thirteen, against heuristic':<32}{'games':>6}{'won':>9}{'95% interval':>17}"
          f"{'margin':>15}{'spread':>8}{'60% needs':>10}")
    for name, bot in PLAYERS if args.games else ():
        if args.player and bot not in args.player:
            continue
        print(line(name, *margins(bot, args.games, args.seed, args.jobs)), flush=True)
    for name, bot in SEARCHES if args.search else ():
        print(line(name, *margins(bot, args.search, 0, args.jobs)), flush=True)
    for bot in args.versus_expert:
        variant = margins(bot, args.versus_games, 0, args.jobs)
        print(line(bot, *variant), flush=True)
        if args.results is not None:
            for code, games in saved(args.results, level_spec("expert", GAME, 2)).items():
                print(line(f"expert, code {code[:8]}", *games))
                print(paired_line(bot, variant, games), flush=True)
    if args.results is not None:
        for bot in args.saved or ["ismcts"]:
            if bot != "ismcts":
                print(bot)
            for code, (shares, diffs) in saved(args.results, bot).items():
                if len(shares) > 1:
                    print(line(f"ismcts, code {code[:8]}", shares, diffs))


if __name__ == "__main__":
    main()
