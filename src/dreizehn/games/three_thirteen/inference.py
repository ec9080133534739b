"""What a seat may infer about the other hands from what it saw (``ismcts:infer``): a weight per other seat and
card kind, by which the search's determinizations deal the hidden cards in proportion to how likely each deal is.

A player keeps the cards that meld and lets go of those that do not, so the round's public actions speak of the
hidden part of each hand:

* **passed over** (``pass``): the seat drew from the stock rather than take the discard pile's top card X: X was of
  little use to it, so it is less likely to hold X's rank or X's neighbours in X's suit;
* **discarded** (``discard``): the seat let X go, with the same meaning;
* **took** (``take``): the seat took X from the pile, most often to meld it: it is more likely to hold cards that
  meld with X.

The evidence about a hidden card kind ``c`` of seat ``o`` is the count of each *feature*: an event of seat ``o``
this round (its kind, :data:`EVENTS`), how card ``c`` relates to the event's card X (:data:`RELATIONS`: the same rank,
the same suit one or two ranks away) and the event's age (how many cards ``o`` drew since, :data:`AGES` buckets).
Cards of the round's wild rank have features of their own: how many turns ``o`` played this round (a player never
lets a wild card go, so the longer the round, the likelier it holds one). The model (:func:`log_weights`) is
logistic regression with the uniform chance of ``c`` being in the hand as its offset::

    logit P(c in o's hidden cards) = logit(uniform) + coefficients · card_features(o, c)

and a card's weight is ``exp(coefficients · features)``. The coefficients (:data:`COEFFICIENTS`, the data file
``inference_model.json`` beside this module) were fitted to games of the ``heuristic`` bot against itself (the
players a seat meets: the heuristic is the game's strongest opponent) by ``python benchmarks/fit_inference.py
--games N --seed S``, which writes the file anew from the seed alone (the fitting is no part of the runtime
package).

The search deals the hidden cards with probability proportional to the product of the weights of the cards each
hand is dealt (a stock card weighs 1): :func:`dreizehn.games.three_thirteen.search.determinize` deals them
uniformly, then moves them by Metropolis swaps toward that distribution; :func:`reweigh` is the same deal in Python,
for the Python side of the hints (:meth:`ThreeThirteen.infer_state <dreizehn.core.game.Game.infer_state>`).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dreizehn.games.three_thirteen.rules import (
    DISCARD,
    DRAW,
    KINDS,
    OUT,
    TAKE,
    ThreeThirteenRules,
    ThreeThirteenState,
    ThreeThirteenView,
)

EVENTS = ("pass", "discard", "take")
RELATIONS = ("rank", "suit1", "suit2")
"""How a card relates to an event's card: the same rank (a set), the same suit one rank away or two (a run)."""
AGES = 4
"""Age buckets: 0, 1, 2, 3 or more cards drawn by the seat since the event."""
WILD_TURNS = 6
"""Wild-card buckets: 0 … 5 or more turns played by the seat this round."""
FEATURES = len(EVENTS) * len(RELATIONS) * AGES + WILD_TURNS


def _relations() -> npt.NDArray[np.int8]:
    """``REL[x, c]``: the relation (an index of :data:`RELATIONS`) of kind ``c`` to kind ``x``, -1 for none."""
    rel = np.full((KINDS, KINDS), -1, np.int8)
    for x in range(KINDS):
        for c in range(KINDS):
            if x % 13 == c % 13:
                rel[x, c] = 0
            elif x // 13 == c // 13 and abs(x % 13 - c % 13) in (1, 2):
                rel[x, c] = abs(x % 13 - c % 13)
    return rel


REL = _relations()


def round_history(view: ThreeThirteenView) -> Sequence[tuple[int, int]]:
    """The actions of the round being played, every seat's: two a finished turn (a draw or a take, then a discard or
    a way out) and the draw of the turn in play."""
    count = 2 * view.turns_played + (1 if view.drawn else 0)
    return view.history[len(view.history) - count :] if count else ()


def events(history: Sequence[tuple[int, int]], seat: int) -> Iterator[tuple[int, int, int]]:
    """``seat``'s events in a round's history: (event index of :data:`EVENTS`, the card, its age bucket). A draw on
    the round's first action passed over the card turned up, which the history does not show: it is left out."""
    draws_after = 0
    found: list[tuple[int, int, int]] = []
    for i in range(len(history) - 1, -1, -1):
        who, action = history[i]
        if who != seat:
            continue
        age = min(draws_after, AGES - 1)
        if action == DRAW and i > 0:
            before = history[i - 1][1]
            found.append((0, (before - DISCARD) % KINDS, age))
        elif action == TAKE and i > 0:
            found.append((2, (history[i - 1][1] - DISCARD) % KINDS, age))
        elif DISCARD <= action < OUT:
            found.append((1, action - DISCARD, min(draws_after, AGES - 1)))
        if action in (DRAW, TAKE):
            draws_after += 1
    return reversed(found)


def card_features(view: ThreeThirteenView, other: int) -> npt.NDArray[np.float64]:
    """The feature counts of every card kind (rows) for seat ``other``'s hidden cards, as ``view``'s seat sees
    them (:data:`FEATURES` columns)."""
    history = round_history(view)
    f = np.zeros((KINDS, FEATURES), np.float64)
    for event, card, age in events(history, other):
        rel = REL[card]
        for c in np.flatnonzero(rel >= 0):
            f[c, (event * len(RELATIONS) + int(rel[c])) * AGES + age] += 1.0
    wild = [c for c in range(KINDS) if c % 13 + 1 == view.wild_rank]
    turns = sum(1 for who, action in history if who == other and action in (DRAW, TAKE))
    f[wild, :] = 0.0
    f[wild, len(EVENTS) * len(RELATIONS) * AGES + min(turns, WILD_TURNS - 1)] = 1.0
    return f


def log_weights(view: ThreeThirteenView, coefficients: Sequence[float] | None = None) -> npt.NDArray[np.float64]:
    """Per seat and card kind (``players`` × 52), the log of its weight in a determinization of ``view``: 0 for the
    view's own seat and for seats that went out (their hands are laid open)."""
    beta = COEFFICIENTS if coefficients is None else np.asarray(coefficients, np.float64)
    out = np.zeros((view.players, KINDS), np.float64)
    for other in range(view.players):
        if other != view.seat and other not in view.out_seats:
            out[other] = card_features(view, other) @ beta
    return out


def _load_coefficients() -> npt.NDArray[np.float64]:
    with (Path(__file__).parent / "inference_model.json").open(encoding="utf-8") as f:
        data = json.load(f)
    names = [f"{e}/{r}/age{a}" for e in EVENTS for r in RELATIONS for a in range(AGES)]
    names += [f"wild/turns{t}" for t in range(WILD_TURNS)]
    assert data["names"] == names, "inference_model.json holds no coefficients of these features"
    return np.array(data["coefficients"], np.float64)


COEFFICIENTS = _load_coefficients()
"""The fitted coefficients, by feature (``inference_model.json`` beside this module, package data, loaded at
import; fitted by ``benchmarks/fit_inference.py``)."""

SWEEPS = 8
"""Metropolis swaps per hidden hand card in a weighted determinization (:func:`reweigh`, and the compiled
:func:`dreizehn.games.three_thirteen.search.reweigh`)."""


def reweigh(state: ThreeThirteenState, seat: int, weights: npt.NDArray[np.float64], sweeps: int,
            rng: random.Random) -> None:
    """Move ``state``, a uniform deal of what ``seat`` cannot see (``game.sample_state``), toward the deals weighted
    by ``weights`` (per seat and kind, ``exp`` of :func:`log_weights`): Metropolis swaps, as the compiled
    :func:`~dreizehn.games.three_thirteen.search.reweigh` makes them (``sweeps`` times the hidden hand cards, a hidden
    hand card and any other hidden card, of another hand or the stock, swapped with probability ``min(1, ratio of
    the deals' weights)``). After a reshuffle this round the stock is bound to the seat's candidates, and the deal
    stays uniform."""
    if state.reshuffled is not None:
        return
    kinds: list[int] = []
    owners: list[int] = []
    shown: dict[int, list[int]] = {}  # per other seat, the cards of its hand that the seat knows
    for other in range(len(state.hands)):
        if other != seat:
            hand, known = Counter(state.hands[other]), Counter(state.known[other])
            shown[other] = sorted((hand & known).elements())
            kinds.extend(sorted((hand - known).elements()))
            owners.extend([other] * (len(kinds) - len(owners)))
    hand_cards, total = len(kinds), len(kinds) + len(state.stock)
    if hand_cards == 0 or total < 2:
        return
    kinds.extend(state.stock)
    owners.extend([-1] * len(state.stock))
    for _ in range(sweeps * hand_cards):
        i = rng.randrange(hand_cards)
        j = rng.randrange(total - 1)
        j += j >= i
        oi, oj, ki, kj = owners[i], owners[j], kinds[i], kinds[j]
        if oi == oj or ki == kj:
            continue
        ratio = weights[oi, kj] / weights[oi, ki] * (weights[oj, ki] / weights[oj, kj] if oj >= 0 else 1.0)
        if ratio >= 1.0 or rng.random() < ratio:
            kinds[i], kinds[j] = kj, ki
    for other, cards in shown.items():
        dealt = [k for k, o in zip(kinds[:hand_cards], owners[:hand_cards], strict=True) if o == other]
        state.hands[other] = sorted([*cards, *dealt])
    state.stock = kinds[hand_cards:]
    state._outs = None


def inferred_state(game: ThreeThirteenRules, view: ThreeThirteenView, rng: random.Random) -> ThreeThirteenState:
    """A complete state of ``view``, its hidden cards dealt in proportion to how likely each deal is given what the
    seat saw: ``game.sample_state`` moved by :func:`reweigh` with :func:`log_weights`."""
    state = game.sample_state(view, rng)
    if not view.is_over:
        reweigh(state, view.seat, np.exp(log_weights(view)), SWEEPS, rng)
    return state
