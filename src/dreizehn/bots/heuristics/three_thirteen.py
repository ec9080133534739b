"""The heuristic for Three Thirteen (``three-thirteen``): the usual rummy advice, with the exact meld solver.

* Go out as soon as possible (T8): when an ``out X`` action is legal, take it, discarding the highest such card.
* Take the top discard when it is a wild card, or when it builds a meld: the hand's fewest penalty points after the
  best discard are lower than now (what a blind draw guarantees) and the card lies in a meld of the best
  arrangement. Otherwise draw from the stock.
* Discard to leave the fewest penalty points (T11), so high deadwood goes first; among those, keep the cards that
  build melds (pairs, near-runs) and never discard a wild card unless every card is wild.

Each decision calls the meld solver once per distinct card in hand (at most 14 times).

>>> import random, dreizehn
>>> state = dreizehn.new_game("three-thirteen", players=2, seed=3)
>>> view = state.view(state.current_player)
>>> view.legal_actions, three_thirteen_action(view, random.Random(0))   # the 3S on the pile is wild in round 1
((ThreeThirteenAction.parse('draw'), ThreeThirteenAction.parse('take')), 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dreizehn.bots.heuristics import pick_best
from dreizehn.core.game import View
from dreizehn.games.melds import arrange, card_value, min_penalty
from dreizehn.games.three_thirteen import DISCARD, DRAW, OUT, TAKE, ThreeThirteenView

W_POTENTIAL = 1.5
"""Penalty points a discard may cost more, per unit of meld potential it keeps (pairs, near-runs)."""
W_FEED = 2.0
"""Points against discarding a card that builds a meld with cards the next player is known to hold."""


def _wild(kind: int, wild_rank: int) -> bool:
    return kind % 13 + 1 == wild_rank


def _all_wild(view: ThreeThirteenView) -> bool:
    """Whether melds of wild cards only count (T7 option ``all_wild_melds``), as the meld solver takes it."""
    return view.options.get("all_wild_melds") != "forbidden"


def potential(hand: Sequence[int], wild_rank: int, aces_high: bool = False) -> float:
    """How close the unmatched-looking cards of ``hand`` are to melds: for each pair of natural cards, 1 for the same
    rank, 1 for the same suit one rank apart, 0.5 two ranks apart (a high ace counts beside the king)."""
    naturals = [k for k in hand if not _wild(k, wild_rank)]
    total = 0.0
    for i, a in enumerate(naturals):
        ra, sa = a % 13 + 1, a // 13
        for b in naturals[i + 1 :]:
            rb, sb = b % 13 + 1, b // 13
            if ra == rb:
                total += 1.0
            elif sa == sb:
                gap = abs(ra - rb)
                if aces_high and {ra, rb} & {1} and max(ra, rb) >= 12:
                    gap = min(gap, 14 - max(ra, rb))
                if gap == 1:
                    total += 1.0
                elif gap == 2:
                    total += 0.5
    return total


def _meld_partner(card: int, others: Sequence[int], wild_rank: int) -> bool:
    """Whether ``card`` is a near-meld with one of ``others`` (same rank, or same suit within two ranks)."""
    if _wild(card, wild_rank):
        return True
    r, s = card % 13 + 1, card // 13
    for k in others:
        if _wild(k, wild_rank):
            continue
        rk, sk = k % 13 + 1, k // 13
        if rk == r or (sk == s and abs(rk - r) <= 2):
            return True
    return False


def three_thirteen_action(view: View, rng: random.Random) -> int:
    """The heuristic's action for the seat to move in Three Thirteen."""
    assert isinstance(view, ThreeThirteenView)
    legal = view.legal_actions
    wild = view.wild_rank
    aces_high = view.options.get("aces") == "low-or-high"
    hand = [int(c) for c in view.hand]
    outs = [a for a in legal if a >= OUT]
    if outs:  # go out at once, discarding the highest card that allows it
        return pick_best(outs, [card_value(a - OUT, aces_high) + 0.01 * (a - OUT) for a in outs], rng)
    if not view.drawn:
        if TAKE in legal and (DRAW not in legal or _take(hand, view, wild, aces_high)):
            return TAKE
        return DRAW if DRAW in legal else rng.choice(legal)
    return _discard(hand, view, legal, wild, aces_high, rng)


def _take(hand: list[int], view: ThreeThirteenView, wild: int, aces_high: bool) -> bool:
    """Whether to take the top discard: a wild card, or a card that lowers the best penalty and sits in a meld."""
    if not view.discard_pile:
        return False
    top = int(view.discard_pile[-1])
    if _wild(top, wild):
        return True
    all_wild = _all_wild(view)
    now = min_penalty(hand, wild, aces_high, all_wild)
    with_top = sorted([*hand, top])
    best = None
    best_hand: list[int] = []
    for k in sorted(set(hand)):
        rest = list(with_top)
        rest.remove(k)
        p = min_penalty(rest, wild, aces_high, all_wild)
        if best is None or p < best:
            best, best_hand = p, rest
    if best is None or best >= now:
        return False
    arrangement = arrange(best_hand, wild, aces_high, all_wild)
    return top not in arrangement.deadwood or best_hand.count(top) > arrangement.deadwood.count(top)


def _discard(
    hand: list[int], view: ThreeThirteenView, legal: Sequence[int], wild: int, aces_high: bool, rng: random.Random
) -> int:
    discards, scores = discard_scores(hand, view, legal, wild, aces_high)
    return pick_best(discards, scores, rng)


def discard_scores(
    hand: list[int], view: ThreeThirteenView, legal: Sequence[int], wild: int, aces_high: bool
) -> tuple[list[int], list[float]]:
    """The discards the heuristic weighs (the natural ones, unless every card is wild) and their scores, higher
    better: the fewest penalty points left (under the game's ``all_wild_melds``, T7), plus the meld potential kept,
    minus feeding the next player."""
    discards = [a for a in legal if DISCARD <= a < OUT]
    naturals = [a for a in discards if not _wild(a - DISCARD, wild)]
    if naturals:
        discards = naturals
    nxt = (view.seat + 1) % view.players
    next_known = [int(c) for c in view.known[nxt]] if view.known else []
    last_turn = view.turns_left >= 0
    all_wild = _all_wild(view)
    scores = []
    for action in discards:
        kind = action - DISCARD
        rest = list(hand)
        rest.remove(kind)
        penalty = min_penalty(rest, wild, aces_high, all_wild)
        score = -float(penalty)
        if not last_turn:
            score += W_POTENTIAL * potential(rest, wild, aces_high)
            if next_known and _meld_partner(kind, next_known, wild):
                score -= W_FEED
        score += 0.001 * card_value(kind, aces_high)
        scores.append(score)
    return discards, scores


def three_thirteen_ranking(view: View) -> list[int] | None:
    """The discards in the heuristic's order of preference, best first (ties by action number), or ``None`` where
    the seat is not to discard (a draw, or a way out: those are not ranked).

    >>> import dreizehn
    >>> state = dreizehn.new_game("three-thirteen", players=2, seed=3)
    >>> state.apply("draw")
    >>> view = state.view(state.current_player)
    >>> [str(card) for card in view.hand], view.wild_rank
    (['7C', 'JC', '4H', '2S'], 3)
    >>> [str(action) for action in three_thirteen_ranking(view)]   # no melds: the highest card goes first
    ['discard JC', 'discard 7C', 'discard 4H', 'discard 2S']
    """
    assert isinstance(view, ThreeThirteenView)
    legal = view.legal_actions
    if not view.drawn or any(a >= OUT for a in legal):
        return None
    hand = [int(c) for c in view.hand]
    discards, scores = discard_scores(hand, view, legal, view.wild_rank, view.options.get("aces") == "low-or-high")
    order = sorted(range(len(discards)), key=lambda i: (-scores[i], discards[i]))
    return [discards[i] for i in order]
