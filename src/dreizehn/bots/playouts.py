"""Game knowledge for the search bots' playouts: cheap greedy policies and the scoring of a stage cut off early.

A playout plays a sampled state (a determinization) to the search's horizon. Random play is the generic policy; a
game whose random play is far from real play registers a greedy one here. A policy reads only what the seat to move
would know in that sampled state (its own hand and the table), so it plays as a cheap, honest player would.

>>> import random, dreizehn
>>> state = dreizehn.new_game("three-thirteen", players=2, seed=3)
>>> state.legal_texts(), state.pile   # the 3S on the pile is wild in round 1: worth taking
(['draw', 'take'], [41])
>>> three_thirteen_playout(state, random.Random(0).random)
1
"""

from __future__ import annotations

from collections.abc import Callable

from dreizehn.core.game import State
from dreizehn.games.melds import card_value, min_penalty
from dreizehn.games.three_thirteen import DISCARD, DRAW, OUT, TAKE, ThreeThirteenState

Policy = Callable[[State, Callable[[], float]], int]
"""A playout policy: the state to move in and a source of random numbers in [0, 1); returns a legal action."""
Estimate = Callable[[State], "list[int] | None"]
"""Points per seat if the stage ended now, or ``None`` where it cannot be cut here (the middle of a turn)."""

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


def three_thirteen_playout(state: State, random_: Callable[[], float]) -> int:
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


def three_thirteen_estimate(state: State) -> list[int] | None:
    """The round's penalty points if it ended now (T11), or ``None`` in the middle of a turn (a drawn hand holds one
    card too many)."""
    assert isinstance(state, ThreeThirteenState)
    if state.drawn:
        return None
    wild, aces_high, all_wild = state.wild, state._aces_high, state._all_wild
    return [
        0 if state.laid[seat] else min_penalty(hand, wild, aces_high, all_wild) for seat, hand in enumerate(state.hands)
    ]


POLICIES: dict[str, Policy] = {"three-thirteen": three_thirteen_playout}
"""Per game, the greedy playout policy (``ismcts:playout=greedy``)."""
ESTIMATES: dict[str, Estimate] = {"three-thirteen": three_thirteen_estimate}
"""Per game, how to score a stage cut off in the middle (``ismcts:cutoff``)."""
