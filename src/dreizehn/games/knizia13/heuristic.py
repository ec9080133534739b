"""The heuristic for 13 (``knizia13``), from the rulebook's advice.

* Never go over 13 when a safe play exists (K11). Among safe plays, get rid of high cards while they still fit, keep
  the cards that will still fit next turn, and leave targets tight (close to 13) so that the players after us are
  forced over; nasty fours go where they hurt others: onto a target close to 13 that the next player may have to
  take.
* When every play goes over 13, take the cheapest target, counting minus points with the majority rule in mind
  (K14, K15): cards of a colour we lead strongly in cost (almost) nothing, nasty fours 2 each; the card played to
  take should be a high one or a nasty four (it stays alone on the target, for someone else).

The taken piles are rebuilt from the public history (K18): every play is public.

>>> import random, dreizehn
>>> state = dreizehn.new_game("knizia13", players=4, seed=1)
>>> view = state.view(state.current_player)
>>> act(view, random.Random(0)) in view.legal_actions
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dreizehn.bots.advice import pick_best
from dreizehn.core.game import View
from dreizehn.games.knizia13 import CARD_VALUE, NASTY, Knizia13View, replay_plays, stage_plays

LIMIT = 13

# Weights of the safe-play score, tuned in games against cautious bots (a random safe play, else the cheapest take):
# against random players every setting wins nearly every game (benchmarks/strength.py).
W_VALUE = 2.0
"""Per point of the card played: high cards are the ones that go over later, so play them while they fit."""
W_KEEP = 2.0
"""Per card left in hand that still fits somewhere after the play."""
W_TIGHT = 0.3
"""Per point of the target's sum above 8 after the play: a tight target forces the next players over."""
W_NASTY_TIGHT = 1.0
"""Extra, per point above 8, for a nasty four put onto a target that becomes tight."""
NASTY_TRAP = 12
"""A nasty four is dumped with the bonus above only where it leaves at most this much room: 13 - NASTY_TRAP."""
W_BLEND = 0.5
"""How much the majority rule counts in the cost of taking (0: every card costs its face, 1: the exact marginal
points if the stage ended now)."""


def taken_piles(view: Knizia13View) -> list[list[int]]:
    """Each seat's taken pile in this stage, from the view (``open_piles``) or rebuilt from the public plays."""
    if view.taken is not None:
        return [[int(c) for c in pile] for pile in view.taken]
    if view.is_over:
        return [[] for _ in range(view.players)]
    return replay_plays(stage_plays(view), view.players)[2]


def colour_counts(taken: Sequence[Sequence[int]]) -> list[list[int]]:
    """Per seat: the number of blue, yellow, green cards and nasty fours taken."""
    counts = [[0, 0, 0, 0] for _ in taken]
    for seat, pile in enumerate(taken):
        row = counts[seat]
        for kind in pile:
            row[3 if kind == NASTY else kind // 5] += 1
    return counts


def _seat_points(counts: Sequence[Sequence[int]], seat: int) -> int:
    """The minus points of ``seat`` by K14 and K15, were the stage scored now."""
    mine = counts[seat]
    points = 2 * mine[3]
    for colour in range(3):
        n = mine[colour]
        if n and any(row[colour] >= n for s, row in enumerate(counts) if s != seat):
            points += n
    return points


def take_cost(counts: Sequence[Sequence[int]], seat: int, cards: Sequence[int]) -> float:
    """What taking ``cards`` costs ``seat``: face points blended with the exact marginal points under the majority
    rule (a colour we lead in strongly is cheap, and may even pay)."""
    face = sum(2 if k == NASTY else 1 for k in cards)
    if not cards:
        return 0.0
    after = [list(row) for row in counts]
    for k in cards:
        after[seat][3 if k == NASTY else k // 5] += 1
    marginal = _seat_points(after, seat) - _seat_points(counts, seat)
    return W_BLEND * marginal + (1.0 - W_BLEND) * face


def act(view: View, rng: random.Random) -> int:
    """The heuristic's play for the seat to move in 13."""
    assert isinstance(view, Knizia13View)
    scored = scores(view)
    return pick_best(list(scored), list(scored.values()), rng)


def scores(view: Knizia13View) -> dict[int, float]:
    """The score of each action the heuristic weighs: the safe plays if there is one (K11 avoided), else every
    play, each scored by what taking costs. The compiled kernel's heuristic gives the same scores."""
    legal = view.legal_actions
    sums = [sum(CARD_VALUE[c] for c in target) for target in view.targets]
    hand = [int(c) for c in view.hand]
    safe: list[int] = []
    takes: list[int] = []
    for action in legal:
        kind, target = (action, action // 5) if action < NASTY else (NASTY, action - NASTY)
        (takes if sums[target] + CARD_VALUE[kind] > LIMIT else safe).append(action)
    if safe:
        return {a: _safe_score(a, sums, hand) for a in safe}
    counts = colour_counts(taken_piles(view))
    scored = {}
    for action in takes:
        kind, target = (action, action // 5) if action < NASTY else (NASTY, action - NASTY)
        cost = take_cost(counts, view.seat, [int(c) for c in view.targets[target]])
        # The card played stays alone on the target: better a high card or a nasty four (for someone else to take)
        # than a low card, which we would rather keep for a safe play later.
        scored[action] = -10.0 * cost + 0.1 * CARD_VALUE[kind] + (0.3 if kind == NASTY else 0.0)
    return scored


def _safe_score(action: int, sums: Sequence[int], hand: Sequence[int]) -> float:
    kind, target = (action, action // 5) if action < NASTY else (NASTY, action - NASTY)
    value = CARD_VALUE[kind]
    after = list(sums)
    after[target] += value
    rest = list(hand)
    rest.remove(kind)
    keep = 0
    for k in rest:
        if k == NASTY:
            keep += min(after) + 4 <= LIMIT
        else:
            keep += after[k // 5] + CARD_VALUE[k] <= LIMIT
    tight = max(0, after[target] - 8)
    score = W_VALUE * value + W_KEEP * keep + W_TIGHT * tight
    if kind == NASTY and after[target] >= NASTY_TRAP:
        score += W_NASTY_TIGHT * tight
    return score
