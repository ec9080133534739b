"""The heuristic for Der dreizehnte Holzwurm (``holzwurm``), from the rulebook's strategy advice (H17's appendix).

* Choose a strategy by the plus cards in hand: **go out** (aim for the +30 bonus, H15) when they are worth less than
  30 and there is time left to play the hand out; else **collect points**.
* Go out: play low cards first (−1, +2, −3, +4 …), high ones later (a card fits only a row shorter than its value,
  H12, so low cards must go while rows are short); if a row must be taken, take it early while it is short.
* Collect points: play minus cards first and keep plus cards; taking a row once or twice early is fine when the row
  and the top fate card are worth it.
* Watch the end: when an opponent is down to about four cards, or only the poisonous thirteen is left in the fate
  row (any take then ends the game, H14b), play the highest minus cards; take the thirteen on purpose only when
  ending the game then wins it (our hand against what the opponents are likely to hold). Playing the last card
  (+30) is always taken.

Every play is scored by what it does to the hand: the points of a row and the top fate card taken (H12), or the
points of the card that leaves.

>>> import random, dreizehn
>>> state = dreizehn.new_game("holzwurm", players=4, seed=1)
>>> view = state.view(state.current_player)
>>> act(view, random.Random(0)) in view.legal_actions
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dreizehn.bots.advice import pick_best
from dreizehn.core.game import View
from dreizehn.games.holzwurm import BONUS, CARD_POINTS, CARD_VALUE, FATE_SIZE, NEW, HolzwurmView, hand_size

GO_OUT_PLUS = 30
"""The rulebook's line: go out when the plus cards in hand are worth less than this."""
END_HAND = 4
"""An opponent with this many cards or fewer may go out soon: play the highest minus cards."""
TAKE_PLAY = 1.0
"""Points a taken card costs in "collect points": each must be played or kept later."""
OUT_TAKE = 20.0
"""How much "go out" dislikes taking a row (each card taken delays going out), plus 3 a card."""
OUT_TAKE_CARD = 3.0
THIRTEEN_MARGIN = 5.0
"""Take the thirteen on purpose only when ending the game leads the (estimated) match by this much."""


@dataclass
class _Game:
    """What the public history says about the game in progress: its plays, takes, and each hand's size."""

    plays: int
    takes: int


def current_game(view: HolzwurmView) -> _Game:
    """Replay the public plays of the match to find how far the current game has come (H12, H14)."""
    n = view.players
    start = hand_size(n)
    sizes = [start] * n
    lengths = [0] * 5
    plays = takes = 0
    for seat, action in view.history:
        kind, dest = divmod(action, 6)
        plays += 1
        if dest == NEW:
            slot = lengths.index(0)
            lengths[slot] = 1
            sizes[seat] -= 1
        elif CARD_VALUE[kind] > lengths[dest]:
            lengths[dest] += 1
            sizes[seat] -= 1
        else:
            sizes[seat] += lengths[dest] + 1
            lengths[dest] = 0
            takes += 1
        if sizes[seat] == 0 or takes == FATE_SIZE + 1:  # the game ended (H14): the next one starts afresh
            sizes = [start] * n
            lengths = [0] * 5
            plays = takes = 0
    return _Game(plays, takes)


def _opponent_estimates(view: HolzwurmView) -> list[float]:
    """Each seat's likely hand points: its known cards, and the mean of the unseen cards for the rest."""
    seen = {int(c) for c in view.hand} | {int(c) for c in view.fate}
    for row in view.rows:
        if row is not None:
            seen.update(int(c) for c in row.cards)
    for cards in view.known:
        seen.update(int(c) for c in cards)
    unseen = [k for k in range(65) if k not in seen]
    mean = sum(CARD_POINTS[k] for k in unseen) / len(unseen) if unseen else 0.0
    estimates = []
    for seat in range(view.players):
        known = [int(c) for c in view.known[seat]]
        estimates.append(sum(CARD_POINTS[k] for k in known) + mean * (view.hand_sizes[seat] - len(known)))
    return estimates


def act(view: View, rng: random.Random) -> int:
    """The heuristic's play for the seat to move in Holzwurm."""
    assert isinstance(view, HolzwurmView)
    legal = view.legal_actions
    me = view.seat
    hand = [int(c) for c in view.hand]
    points_now = sum(CARD_POINTS[k] for k in hand)
    plus = sum(CARD_POINTS[k] for k in hand if CARD_POINTS[k] > 0)
    fate_top = CARD_POINTS[view.fate[-1]]
    last_fate = len(view.fate) == 1
    opponents = [s for s in range(view.players) if s != me]
    near_end = last_fate or min(view.hand_sizes[s] for s in opponents) <= END_HAND

    # The time left: at the rate rows were taken so far (two in 15 plays as a prior), the plays until the fate row
    # runs out, and so our own turns.
    game = current_game(view)
    rate = (game.takes + 2.0) / (game.plays + 15.0)
    turns_left = (len(view.fate) / rate) / view.players
    go_out = plus < GO_OUT_PLUS and len(hand) <= turns_left + 1 and not near_end

    scores: list[float] = []
    for action in legal:
        kind, dest = divmod(action, 6)
        row = view.rows[dest] if dest != NEW else None
        takes = row is not None and CARD_VALUE[kind] <= len(row.cards)
        if takes:
            assert row is not None
            gain = sum(CARD_POINTS[c] for c in row.cards) + fate_top
            size = len(row.cards) + 1
            if last_fate:  # the thirteen ends the game (H14b)
                scores.append(_end_score(view, points_now + gain) - 1000.0 + 0.01 * gain)
            elif go_out:
                scores.append(-OUT_TAKE - OUT_TAKE_CARD * size + 0.5 * gain)
            else:
                scores.append(gain - TAKE_PLAY * size - (0.0 if not near_end else 3.0))
        elif len(hand) == 1:  # the last card: +30 and the game ends (H14a, H15)
            scores.append(1000.0 + BONUS)
        else:
            loss = CARD_POINTS[kind]
            if go_out:
                # Low cards first, where they still fit: the smaller the margin over the row, the sooner.
                length = 0 if row is None else len(row.cards)
                scores.append(-1.0 * (CARD_VALUE[kind] - length) - 0.3 * CARD_VALUE[kind])
            else:
                scores.append(-float(loss))
    return pick_best(legal, scores, rng)


def _end_score(view: HolzwurmView, final: float) -> float:
    """How far ahead of the best opponent we would be, over the match, were the game to end now with ``final``
    points for us. Positive and clear: worth ending the game (taking the thirteen on purpose, +1000 to win)."""
    totals = view.totals
    estimates = _opponent_estimates(view)
    best_other = max(totals[s] + estimates[s] for s in range(view.players) if s != view.seat)
    lead = totals[view.seat] + final - best_other
    return 1000.0 + lead if lead > THIRTEEN_MARGIN else lead


