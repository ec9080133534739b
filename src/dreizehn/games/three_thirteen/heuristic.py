"""The heuristic for Three Thirteen (``three-thirteen``): the usual rummy advice, with the exact meld solver.

* Go out as soon as possible (T8): when an ``out X`` action is legal, take it, discarding the highest such card.
* Take the top discard when it is a wild card, or when it builds a meld: the hand's fewest penalty points after the
  best discard are lower than now (what a blind draw guarantees) and the card lies in a meld of the best
  arrangement. Otherwise draw from the stock.
* Discard to leave the fewest penalty points (T11), so high deadwood goes first; among those, keep the cards that
  build melds (pairs, near-runs) and never discard a wild card unless every card is wild.
* Once a round has lasted :data:`STALEMATE_TURNS` turns, discard any card at random: two players following the
  advice can hold the cards each other needs and draw and discard for ever (in a round of five cards, each with two
  wild cards and a pair of the same rank, each needing the other's pair), which the rules, with no ``turn_limit``,
  let go on. Rounds between such players last at most about 40 turns with 2 players and 88 with 8 otherwise.

Each decision calls the meld solver once per distinct card in hand (at most 14 times).

>>> import random, dreizehn
>>> state = dreizehn.new_game("three-thirteen", players=2, seed=3)
>>> view = state.view(state.current_player)
>>> view.legal_actions, act(view, random.Random(0))   # the 3S on the pile is wild in round 1
((ThreeThirteenAction.parse('draw'), ThreeThirteenAction.parse('take')), 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from dreizehn.bots.advice import pick_best
from dreizehn.core.game import State, View
from dreizehn.games.three_thirteen import DISCARD, DRAW, OUT, TAKE, ThreeThirteenState, ThreeThirteenView
from dreizehn.games.three_thirteen.melds import arrange, card_value, min_penalty

W_POTENTIAL = 1.5
"""Penalty points a discard may cost more, per unit of meld potential it keeps (pairs, near-runs)."""
W_FEED = 2.0
"""Points against discarding a card that builds a meld with cards the next player is known to hold."""
STALEMATE_TURNS = 120
"""The turns of a round (every seat's counted) after which the heuristic discards at random (the module docstring
says why)."""


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


def act(view: View, rng: random.Random) -> int:
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
    if view.turns_played >= STALEMATE_TURNS:
        return rng.choice([a for a in legal if DISCARD <= a < OUT])
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


def rank(view: View) -> list[int] | None:
    """The discards in the heuristic's order of preference, best first (ties by action number), or ``None`` where
    the seat is not to discard (a draw, or a way out: those are not ranked).

    >>> import dreizehn
    >>> state = dreizehn.new_game("three-thirteen", players=2, seed=3)
    >>> state.apply("draw")
    >>> view = state.view(state.current_player)
    >>> [str(card) for card in view.hand], view.wild_rank
    (['7C', 'JC', '4H', '2S'], 3)
    >>> [str(action) for action in rank(view)]   # no melds: the highest card goes first
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


# -- the search's playouts (ismcts:playout=greedy) and stages cut off early (ismcts:cutoff) ----------------------

TAKE_SKIP = 0.25
"""How often the greedy Three Thirteen player draws a blind card where it would take a natural one from the pile:
greedy players otherwise pass a few cards round in a cycle for ever."""
_VALUE = [card_value(k) for k in range(52)]
"""Three Thirteen's penalty points per kind, aces low (T11), looked up on the playouts' hot path."""


def _partners(kind: int, hand: list[int], wild: int) -> float:
    """How much ``kind`` builds melds with the natural cards of ``hand`` (itself excluded once): 1 per card of the
    same rank, 1 per card of the same suit one rank away, 0.5 two ranks away."""
    rank = kind % 13
    suit = kind - rank
    total = -1.0  # the card itself matches its own rank
    for other in hand:
        r = other % 13
        if r + 1 == wild:
            continue
        if r == rank:
            total += 1.0
        elif other - r == suit:
            gap = r - rank
            if gap == 1 or gap == -1:
                total += 1.0
            elif gap == 2 or gap == -2:
                total += 0.5
    return total


def playout_action(state: State, random_: Callable[[], float]) -> int:
    """A greedy Three Thirteen player: go out when possible (discarding the highest such card); take the top
    discard when it is wild or completes a meld with the hand (three times in four), else draw; discard the natural
    card that builds the fewest melds, the highest of those (ties at random), but not the card just taken."""
    assert isinstance(state, ThreeThirteenState)
    seat = state.turn
    hand = state.hands[seat]
    wild = state.wild
    if not state.drawn:
        pile = state.pile
        if pile:
            top = pile[-1]
            if top % 13 + 1 == wild or (_takes(top, hand, wild) and random_() >= TAKE_SKIP):
                return TAKE
        if state.stock or state._end_round or len(pile) > 1:
            return DRAW
        return TAKE
    outs = state.go_out_discards()
    if outs:
        best = outs[0]
        for k in outs:
            if _VALUE[k] >= _VALUE[best]:
                best = k
        return OUT + best
    best = -1
    best_score = 0.0
    last = -1
    taken = _taken(state)  # kept (else two greedy players could pass one card back and forth forever)
    for k in hand:
        if k in (last, taken) or k % 13 + 1 == wild:
            continue
        last = k
        score = _partners(k, hand, wild) * 10.0 - _VALUE[k] + random_() * 0.5
        if best < 0 or score < best_score:
            best, best_score = k, score
    if best < 0:  # every card is wild (or wild and the one taken)
        best = hand[-1]
    return DISCARD + best


def _taken(state: ThreeThirteenState) -> int:
    """The kind taken from the discard pile this turn, or -1 (drawn from the stock; or, at the start of a round,
    the turned-up card taken)."""
    log = state.log
    if len(log) < 2 or log[-1][1] != TAKE:
        return -1
    before = log[-2][1]  # the discard (or going out) that put the taken card on top, if this round's
    kind = before - OUT if before >= OUT else before - DISCARD if before >= DISCARD else -1
    return kind if kind in state.known[state.turn] else -1  # this round's cards taken (the turned-up one aside)


def _takes(top: int, hand: list[int], wild: int) -> bool:
    """Whether ``top`` completes a meld of three with ``hand``: two more cards of its rank, or two of its suit that
    make a run of three with it, one of the two may be a wild card (with two wild cards any card would do)."""
    rank = top % 13
    suit = top - rank
    wilds = 0
    same = 0
    near = 0  # bit d + 2 set: the hand holds the card of top's suit d ranks away, d in -2..2
    for other in hand:
        r = other % 13
        if r + 1 == wild:
            wilds += 1
        elif r == rank:
            same += 1
        elif other - r == suit and -2 <= r - rank <= 2:
            near |= 1 << (r - rank + 2)
    if same >= 2 or (same and wilds):
        return True
    for low in (-2, -1, 0):  # runs top-2..top, top-1..top+1, top..top+2
        if rank + low < 0 or rank + low + 2 > 12:
            continue
        missing = 0
        for d in (low, low + 1, low + 2):
            if d and not near >> (d + 2) & 1:
                missing += 1
        if missing == 0 or (missing == 1 and wilds):
            return True
    return False


def estimate(state: State) -> list[int] | None:
    """The round's penalty points if it ended now (T11), or ``None`` in the middle of a turn (a drawn hand holds one
    card too many)."""
    assert isinstance(state, ThreeThirteenState)
    if state.drawn:
        return None
    wild, aces_high, all_wild = state.wild, state._aces_high, state._all_wild
    return [
        0 if state.laid[seat] else min_penalty(hand, wild, aces_high, all_wild) for seat, hand in enumerate(state.hands)
    ]
