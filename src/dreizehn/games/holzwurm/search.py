"""The ``ismcts`` bot's search for Der dreizehnte Holzwurm in compiled code (:mod:`dreizehn.bots.tree`,
docs/bots.md): determinizations drawn from a seat's view, selection and expansion in the tree, playouts to the end
of the game of the match in progress (the stage), the margin reward; the same algorithm as :mod:`dreizehn.bots.ismcts`
with ``root=ucb``, ``horizon=stage``, ``reward=margin`` and random playouts (Holzwurm's defaults: its heuristic has no
greedy playout) or the heuristic's (``playout=heuristic``, below a tree with ``tree=on``: the ``master`` level), at
tens of times its speed.

A view becomes a kernel row (:func:`row_of_view`): what the seat sees is copied, the cards known to be in a hand
(H17) stay there, and the cards it cannot place (the rest of the other hands, and the cards removed unseen with 2 or
3 players, H6) fill the other hands in an arbitrary order, the removed ones being those found nowhere in the row.
Each iteration deals those anew at random (:func:`determinize`), uniformly over what the seat cannot tell apart, as
``HolzwurmRules.sample_state`` does.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.bots.tree import UcbSearch
from dreizehn.core.kernel import HEURISTIC, Keys, shuffle
from dreizehn.games.holzwurm.heuristic import current_game
from dreizehn.games.holzwurm.kernel import (
    _BASE,
    _COLOUR,
    ACTIONS,
    COLOUR_ROW,
    FATE,
    FATE_N,
    FATE_ROOM,
    HAND_BITS,
    HAND_SIZES,
    HANDS,
    KINDS,
    KNOWN,
    LAST,
    MAX_SEATS,
    OCCUPIED,
    OPEN_ROWS,
    PLAYERS,
    PLAYS,
    ROW_COLOUR,
    ROW_LEN,
    ROW_ROOM,
    ROWS,
    STAGE,
    STARTER,
    TAKES,
    TOTALS,
    TURN,
    WOODS,
    WORDS,
    apply,
    heuristic_action,
    legal_into,
    observe,
    playout,
    random_action,
)
from dreizehn.games.holzwurm.rules import COLOURS, THIRTEEN, HolzwurmView

PLAYS_ROOM = WOODS + FATE_ROOM * (ROW_ROOM + 2)
"""More than the plays of one game: at most 60 cards are dealt, each play takes one from a hand, and each of the at
most six takes (H12, H14b) gives back at most a whole row, the card played and a fate card."""


def row_of_view(empty: npt.NDArray[np.int16], view: HolzwurmView) -> npt.NDArray[np.int16]:
    """A kernel row (made from ``empty``, a new row of the game) that agrees with everything ``view`` shows; the
    cards the seat cannot place are in the unknown part of the other hands in an arbitrary order, or left out (the
    removed cards); :func:`determinize` deals them."""
    s = empty.copy()
    n = view.players
    s[TURN], s[STARTER], s[STAGE] = view.current_player, view.starter, view.stage
    game = current_game(view)
    s[PLAYS], s[TAKES] = game.plays, game.takes
    for seat, points in enumerate(view.totals):
        s[TOTALS + seat] = points
    if view.stage_scores:
        for seat, points in enumerate(view.stage_scores[-1]):
            s[LAST + seat] = points
    seen = np.zeros(KINDS, np.bool_)
    for i, card in enumerate(view.fate):
        s[FATE + i] = card
        seen[card] = True
    s[FATE_N] = len(view.fate)
    s[ROW_COLOUR : ROW_COLOUR + 5] = -1
    s[COLOUR_ROW : COLOUR_ROW + 5] = -1
    for slot, row in enumerate(view.rows):
        if row is None:
            continue
        s[ROW_LEN + slot] = len(row.cards)
        s[ROWS + slot * ROW_ROOM : ROWS + slot * ROW_ROOM + len(row.cards)] = row.cards
        seen[list(row.cards)] = True
        s[OCCUPIED] |= 1 << slot
        if row.colour is None:
            s[OPEN_ROWS] |= 1 << slot
        else:
            colour = COLOURS.index(row.colour)
            s[ROW_COLOUR + slot], s[COLOUR_ROW + colour] = colour, slot
    for seat, cards in enumerate(view.known):
        for card in cards:
            s[KNOWN + seat * KINDS + card] = 1
            s[HANDS + seat * KINDS + card] = 1
            seen[card] = True
    for card in view.hand:
        s[HANDS + view.seat * KINDS + card] = 1
        seen[card] = True
    pool = [k for k in range(KINDS) if not seen[k]]
    for seat in range(n):
        s[HAND_SIZES + seat] = view.hand_sizes[seat]
        if seat != view.seat:
            unknown = view.hand_sizes[seat] - len(view.known[seat])
            for kind in pool[:unknown]:
                s[HANDS + seat * KINDS + kind] = 1
            del pool[:unknown]
        hand_bits(s, seat)
    assert len(pool) == view.removed, "the view's card counts do not add up"
    return s


@nb.njit(cache=True)
def hand_bits(s: npt.NDArray[np.int16], seat: int) -> None:  # pragma: no cover - compiled
    """Rebuild the bit words of the hand of ``seat`` (one a colour, grey last) from its card flags."""
    for colour in range(WORDS):
        s[HAND_BITS + seat * WORDS + colour] = 0
    for card in range(KINDS):
        if card != THIRTEEN and s[HANDS + seat * KINDS + card]:
            s[HAND_BITS + seat * WORDS + _COLOUR[card]] |= 1 << (card - _BASE[_COLOUR[card]])


@nb.njit(cache=True)
def determinize(s: npt.NDArray[np.int16], seat: int, key: Keys) -> None:  # pragma: no cover - compiled
    """Deal the cards ``seat`` cannot place anew, uniformly at random: the unknown part of each other hand (its
    cards not known, H17) and the removed cards (those in no hand, row or fate row of the row, H6)."""
    n = s[PLAYERS]
    placed = np.zeros(KINDS, np.bool_)
    for other in range(n):
        for card in range(KINDS):
            if s[HANDS + other * KINDS + card]:
                if other == seat or s[KNOWN + other * KINDS + card]:
                    placed[card] = True
                else:
                    s[HANDS + other * KINDS + card] = 0
    for i in range(s[FATE_N]):
        placed[s[FATE + i]] = True
    for slot in range(5):
        for j in range(s[ROW_LEN + slot]):
            placed[s[ROWS + slot * ROW_ROOM + j]] = True
    pool = np.empty(KINDS, np.int16)
    count = 0
    for card in range(KINDS):
        if not placed[card]:
            pool[count] = card
            count += 1
    shuffle(key, pool, count)
    at = 0
    for other in range(n):
        if other == seat:
            continue
        known = 0
        for card in range(KINDS):
            known += s[KNOWN + other * KINDS + card]
        for _ in range(s[HAND_SIZES + other] - known):
            s[HANDS + other * KINDS + pool[at]] = 1
            at += 1
        hand_bits(s, other)


@nb.njit(cache=True)
def prepare(s: npt.NDArray[np.int16], seat: int, key: Keys, weights: npt.NDArray[np.float64],
            sweeps: int) -> None:  # pragma: no cover - compiled
    """A world for the hints (:func:`dreizehn.bots.tree.rating_loop`): the cards the seat cannot place dealt
    uniformly (Holzwurm weighs no deal: ``weights`` and ``sweeps`` unused)."""
    determinize(s, seat, key)


@nb.njit(cache=True)
def finish(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """The rest of the match, every seat by the heuristic (the hints' player)."""
    playout(s, key, HEURISTIC)


SEARCH = UcbSearch(
    "holzwurm", row_of_view, determinize=determinize, apply=apply, legal_into=legal_into,
    heuristic_action=heuristic_action, random_action=random_action, observe=observe, prepare=prepare, finish=finish,
    PLAYERS=PLAYERS, STAGE=STAGE, TURN=TURN, LAST=LAST, TOTALS=TOTALS, ACTIONS=ACTIONS, MAX_SEATS=MAX_SEATS,
    PATH_ROOM=PLAYS_ROOM, HIGH_WINS=True,
)
"""Holzwurm's search (:class:`~dreizehn.bots.tree.UcbSearch`): random playouts (Holzwurm's default: its heuristic
has no greedy playout) or the heuristic's, flat at the root or below a tree, each compiled and cached apart."""

search = SEARCH.search
rate = SEARCH.rate
