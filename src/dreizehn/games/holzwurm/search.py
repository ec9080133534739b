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

from dreizehn.bots.tree import backup, margin_rewards, run, seat_share, select, with_playout
from dreizehn.bots.tree import rate as tree_rate
from dreizehn.core.kernel import HEURISTIC, Keys, next_u64, shuffle
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
def ismcts(root: npt.NDArray[np.int16], seat: int, iterations: int, c: float, scale: float, key: Keys,
           child: npt.NDArray[np.int32], visits: npt.NDArray[np.int32], avail: npt.NDArray[np.int32],
           total: npt.NDArray[np.float64], size: npt.NDArray[np.int64],
           policy: int, tree: bool) -> None:  # pragma: no cover - compiled
    """``iterations`` more iterations of the search from ``root`` (a row made by :func:`row_of_view` for ``seat``,
    who is to move), into the tree's arrays (``size[0]`` nodes in use, room for one more an iteration), each
    playout by ``policy`` (:data:`~dreizehn.core.kernel.RANDOM` or :data:`~dreizehn.core.kernel.HEURISTIC`, every
    seat) from the node expanded, or from the root's child chosen where not ``tree`` (a search flat at the root);
    the root's children hold the statistics of its actions. Both ``policy`` and ``tree`` are chosen at run time: 13's
    search compiles each choice apart, which here made the random playouts about 10% slower, not faster."""
    n = root[PLAYERS]
    stage = root[STAGE]
    mask = np.zeros(ACTIONS, np.bool_)
    buffer = np.empty(ACTIONS, np.int64)
    path = np.empty(PLAYS_ROOM, np.int64)
    movers = np.empty(PLAYS_ROOM, np.int64)
    points = np.zeros(MAX_SEATS, np.int64)
    rewards = np.zeros(MAX_SEATS, np.float64)
    s = root.copy()
    for _ in range(iterations):
        s[:] = root
        determinize(s, seat, key)
        node = 0
        depth = 0
        while s[TURN] >= 0 and s[STAGE] == stage:  # selection and expansion
            legal_into(s, mask, buffer)
            before = size[0]
            action = select(child, visits, avail, total, node, mask, c, key, size)
            movers[depth] = s[TURN]
            apply(s, action, key)
            node = child[node, action]
            path[depth] = node
            depth += 1
            if size[0] != before or not tree:
                break
        while s[TURN] >= 0 and s[STAGE] == stage:  # the playout, to the end of the game of the match
            apply(s, heuristic_action(s, key) if policy == HEURISTIC else random_action(s, key), key)
        for other in range(n):
            points[other] = s[LAST + other]
        margin_rewards(points, n, scale, True, rewards)
        backup(visits, total, path, movers, depth, rewards)


@nb.njit(cache=True)
def rate_worlds(root: npt.NDArray[np.int16], seat: int, actions: npt.NDArray[np.int64], worlds: int, key: Keys,
                wins: npt.NDArray[np.float64], points: npt.NDArray[np.float64]) -> None:  # pragma: no cover
    """Hints (:mod:`dreizehn.play.hints`): on each of ``worlds`` determinizations of ``root`` (the view of ``seat``, who
    is to move), every one of ``actions`` followed by the rest of the match with every seat playing the heuristic,
    all actions of a world on the same stream of random numbers; ``seat``'s share of the win and final total into
    ``wins[i, w]`` and ``points[i, w]``."""
    n = root[PLAYERS]
    world = root.copy()
    s = root.copy()
    stream = np.empty(1, np.uint64)
    for w in range(worlds):
        world[:] = root
        determinize(world, seat, key)
        first = next_u64(key)
        for i in range(actions.shape[0]):
            s[:] = world
            stream[0] = first
            apply(s, actions[i], stream)
            playout(s, stream, HEURISTIC)
            wins[i, w] = seat_share(s[TOTALS : TOTALS + n], n, seat, True)
            points[i, w] = s[TOTALS + seat]


def rate(empty: npt.NDArray[np.int16], view: HolzwurmView, actions: list[int], worlds: int,
         seed: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each action's outcomes on ``worlds`` worlds drawn from ``view`` (:func:`dreizehn.bots.tree.rate`)."""
    return tree_rate(rate_worlds, row_of_view(empty, view), view.seat, actions, worlds, seed)


def search(empty: npt.NDArray[np.int16], view: HolzwurmView, iterations: int, c: float, scale: float, seed: int,
           seconds: float | None = None, playout: str = "random",
           tree: bool = True) -> tuple[list[tuple[int, int, int, float]], int]:
    """The root statistics of a search from ``view`` (per action searched: visits, availability, mean reward) and
    the iterations run: ``iterations`` of them, or as many as ``seconds`` allow (:func:`dreizehn.bots.tree.run`);
    its playouts ``random`` or by the ``heuristic``, below a tree grown where ``tree`` (else flat at the root)."""
    return run(with_playout(ismcts, playout, tree), row_of_view(empty, view), view.seat, ACTIONS, iterations, c, scale,
               seed, seconds)
