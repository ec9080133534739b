"""13's compiled kernel (docs/vector.md): rules K4–K17 on one flat ``int16`` row per game, numba-compiled.

The row holds everything the reference engine's state does except the log: hands and taken piles as counts per card
kind (a hand's order never matters: K9 lets a player play any of its cards), each target's cards in the order they
were played, the stock with its top last (as :mod:`.rules` keeps it), the running totals, and the order of the
latest deal (so that a kernel's game becomes a record). Every shuffle draws from the game's own ``uint64`` key.

The heuristic here is :mod:`.heuristic`'s, the same scores to the bit, its ties broken by the key instead of a
``random.Random``; ``tests/kernels`` checks both against the reference engine, and
``tests/games/knizia13/test_kernel_heuristic.py`` against the Python heuristic.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.core.kernel import (
    FINISHED,
    GAME_OVER,
    HEURISTIC,
    ILLEGAL,
    OK,
    OUT_OF_RANGE,
    STAGE_OVER,
    Keys,
    Masks,
    Observations,
    below,
    pick_legal,
    shuffle,
)
from dreizehn.core.scaffold import batch_functions
from dreizehn.games.knizia13 import heuristic as python_heuristic
from dreizehn.games.knizia13.rules import CARD_VALUE, DECK, HAND_SIZE, NASTY

MAX_SEATS = 6
KINDS = 16
ACTIONS = 18
CARDS = 50
TARGET_ROOM = 14
"""Cards a target can hold: its sum stays at most 13 and a card is worth at least 1, plus the card that takes."""

# The row's fields, one after the other.
PLAYERS, TURN, DEALER, STAGE, STAGES, PLAYS, STOCK_N, OPEN, FIRST_DEALER = range(9)
SUMS = 9
TARGET_LEN = SUMS + 3
HANDS = TARGET_LEN + 3
HAND_SIZES = HANDS + MAX_SEATS * KINDS
TAKEN = HAND_SIZES + MAX_SEATS
TAKEN_SIZES = TAKEN + MAX_SEATS * KINDS
TARGETS = TAKEN_SIZES + MAX_SEATS
STOCK = TARGETS + 3 * TARGET_ROOM
TOTALS = STOCK + CARDS
LAST = TOTALS + MAX_SEATS
DEAL = LAST + MAX_SEATS
SIZE = DEAL + CARDS

_VALUE = np.array(CARD_VALUE, np.int64)
_DECK = np.array(DECK, np.int16)
_W_VALUE = python_heuristic.W_VALUE
_W_KEEP = python_heuristic.W_KEEP
_W_TIGHT = python_heuristic.W_TIGHT
_W_NASTY_TIGHT = python_heuristic.W_NASTY_TIGHT
_NASTY_TRAP = python_heuristic.NASTY_TRAP
_W_BLEND = python_heuristic.W_BLEND
_LIMIT = python_heuristic.LIMIT


# -- the rules ------------------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def deal(s: npt.NDArray[np.int16]) -> None:  # pragma: no cover - compiled
    """Deal the order in the row's deal block (top first) as K7 says: 5 cards each, one at a time from the dealer's
    left; the rest is the stock, its top the first card left (K8: the dealer's left plays first)."""
    n = s[PLAYERS]
    for i in range(SUMS, STOCK):
        s[i] = 0
    first = (s[DEALER] + 1) % n
    for i in range(HAND_SIZE * n):
        seat = (first + i) % n
        s[HANDS + seat * KINDS + s[DEAL + i]] += 1
        s[HAND_SIZES + seat] += 1
    rest = CARDS - HAND_SIZE * n
    for j in range(rest):
        s[STOCK + j] = s[DEAL + CARDS - 1 - j]
    s[STOCK_N] = rest
    s[PLAYS] = 0
    s[TURN] = first


@nb.njit(cache=True)
def deal_random(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """Shuffle all 50 cards from ``key`` into the deal block, and deal them."""
    for i in range(CARDS):
        s[DEAL + i] = _DECK[i]
    shuffle(key, s[DEAL : DEAL + CARDS], CARDS)
    deal(s)


@nb.njit(cache=True)
def new_game(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """Start a game in a row whose header is set: the first dealer (K6, drawn from ``key`` when random), stage 0."""
    n = s[PLAYERS]
    s[DEALER] = s[FIRST_DEALER] if s[FIRST_DEALER] >= 0 else below(key, n)
    s[STAGE] = 0
    for seat in range(MAX_SEATS):
        s[TOTALS + seat] = 0
        s[LAST + seat] = 0
    deal_random(s, key)


@nb.njit(cache=True)
def score_stage(s: npt.NDArray[np.int16]) -> None:  # pragma: no cover - compiled
    """Score the taken piles (K14, K15) into the last stage's points, and add them to the totals (K17)."""
    n = s[PLAYERS]
    colours = np.zeros((MAX_SEATS, 3), np.int64)
    for seat in range(n):
        s[LAST + seat] = 2 * s[TAKEN + seat * KINDS + NASTY]
        for kind in range(NASTY):
            colours[seat, kind // 5] += s[TAKEN + seat * KINDS + kind]
    for colour in range(3):
        most = 0
        holders = 0
        for seat in range(n):
            if colours[seat, colour] > most:
                most = colours[seat, colour]
                holders = 1
            elif colours[seat, colour] == most:
                holders += 1
        for seat in range(n):
            if not (holders == 1 and colours[seat, colour] == most):
                s[LAST + seat] += colours[seat, colour]
    for seat in range(n):
        s[TOTALS + seat] += s[LAST + seat]


@nb.njit(cache=True)
def legal(s: npt.NDArray[np.int16], mask: Masks) -> None:  # pragma: no cover - compiled
    """The legal plays of the seat to move (K9, K10): each colour card held on its target, a nasty four on any."""
    mask[:] = False
    turn = s[TURN]
    if turn < 0:
        return
    hand = HANDS + turn * KINDS
    for kind in range(NASTY):
        if s[hand + kind] > 0:
            mask[kind] = True
    if s[hand + NASTY] > 0:
        mask[NASTY] = mask[NASTY + 1] = mask[NASTY + 2] = True


@nb.njit(cache=True)
def apply(s: npt.NDArray[np.int16], action: int, key: Keys) -> int:  # pragma: no cover - compiled
    """Play ``action`` for the seat to move (K9–K13), dealing the next stage from ``key`` when this one ends.
    Returns a status of :mod:`dreizehn.core.kernel`; a refusal changes nothing."""
    turn = s[TURN]
    if turn < 0:
        return FINISHED
    if action < 0 or action >= ACTIONS:
        return OUT_OF_RANGE
    kind, target = (action, action // 5) if action < NASTY else (NASTY, action - NASTY)
    hand = HANDS + turn * KINDS
    if s[hand + kind] == 0:
        return ILLEGAL
    s[hand + kind] -= 1
    total = s[SUMS + target] + _VALUE[kind]
    row = TARGETS + target * TARGET_ROOM
    if total > 13:  # K11: take what lay there; the card played stays alone
        length = s[TARGET_LEN + target]
        for j in range(length):
            s[TAKEN + turn * KINDS + s[row + j]] += 1
        s[TAKEN_SIZES + turn] += length
        s[row] = kind
        s[TARGET_LEN + target] = 1
        s[SUMS + target] = _VALUE[kind]
    else:
        s[row + s[TARGET_LEN + target]] = kind
        s[TARGET_LEN + target] += 1
        s[SUMS + target] = total
    if s[STOCK_N] > 0:  # K9: draw the top card
        s[STOCK_N] -= 1
        s[hand + s[STOCK + s[STOCK_N]]] += 1
    else:
        s[HAND_SIZES + turn] -= 1
    s[PLAYS] += 1
    n = s[PLAYERS]
    if s[PLAYS] < CARDS:
        s[TURN] = (turn + 1) % n
        return OK
    score_stage(s)  # K13
    s[STAGE] += 1
    if s[STAGE] == s[STAGES]:  # K17
        s[TURN] = -1
        return GAME_OVER
    s[DEALER] = (s[DEALER] + 1) % n  # K4
    deal_random(s, key)
    return STAGE_OVER


@nb.njit(cache=True)
def observe(s: npt.NDArray[np.int16], seat: int, out: Observations) -> None:  # pragma: no cover - compiled
    """The observation of ``seat`` (docs/envs.md, :mod:`.encoder`): relative seats, counts per card kind."""
    out[:] = 0.0
    n = s[PLAYERS]
    stages = s[STAGES]
    turn = s[TURN]
    if turn >= 0:
        out[(turn - seat) % n] = 1.0
    stage = s[STAGE] if s[STAGE] < stages else stages - 1
    out[n + stage] = 1.0
    at = n + stages
    dealer = at + n
    out[dealer + (s[DEALER] - seat) % n] = 1.0
    hand = dealer + n
    sizes = hand + KINDS
    stock = sizes + n
    targets = stock + 1
    taken_sizes = targets + 3 * KINDS
    taken = taken_sizes + n
    for i in range(n):
        other = (seat + i) % n
        out[at + i] = s[TOTALS + other]
        out[sizes + i] = s[HAND_SIZES + other]
        out[taken_sizes + i] = s[TAKEN_SIZES + other]
        if s[OPEN]:
            for kind in range(KINDS):
                out[taken + i * KINDS + kind] = s[TAKEN + other * KINDS + kind]
    for kind in range(KINDS):
        out[hand + kind] = s[HANDS + seat * KINDS + kind]
    for t in range(3):
        for j in range(s[TARGET_LEN + t]):
            out[targets + t * KINDS + s[TARGETS + t * TARGET_ROOM + j]] += 1.0
    out[stock] = s[STOCK_N]


# -- the heuristic --------------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def _seat_points(colours: npt.NDArray[np.int64], n: int, seat: int) -> int:  # pragma: no cover - compiled
    """The minus points of ``seat`` were the stage scored now (the heuristic's ``_seat_points``)."""
    points = 2 * colours[seat, 3]
    for colour in range(3):
        mine = colours[seat, colour]
        if mine:
            for other in range(n):
                if other != seat and colours[other, colour] >= mine:
                    points += mine
                    break
    return int(points)


@nb.njit(cache=True)
def _take_score(s: npt.NDArray[np.int16], turn: int, kind: int, target: int) -> float:  # pragma: no cover
    """The heuristic's score of a play that takes ``target``: minus ten times the blended cost, and a little for a
    high card or a nasty four left alone on the target."""
    n = s[PLAYERS]
    length = s[TARGET_LEN + target]
    cost = 0.0
    if length:
        colours = np.zeros((MAX_SEATS, 4), np.int64)
        for seat in range(n):
            for k in range(KINDS):
                colours[seat, 3 if k == NASTY else k // 5] += s[TAKEN + seat * KINDS + k]
        before = _seat_points(colours, n, turn)
        face = 0
        for j in range(length):
            k = s[TARGETS + target * TARGET_ROOM + j]
            face += 2 if k == NASTY else 1
            colours[turn, 3 if k == NASTY else k // 5] += 1
        marginal = _seat_points(colours, n, turn) - before
        cost = _W_BLEND * marginal + (1.0 - _W_BLEND) * face
    return float(-10.0 * cost + 0.1 * _VALUE[kind] + (0.3 if kind == NASTY else 0.0))


@nb.njit(cache=True)
def _safe_score(s: npt.NDArray[np.int16], turn: int, kind: int, target: int) -> float:  # pragma: no cover
    """The heuristic's score of a play that stays at most 13 (its ``_safe_score``)."""
    value = _VALUE[kind]
    after = np.empty(3, np.int64)
    for t in range(3):
        after[t] = s[SUMS + t]
    after[target] += value
    least = min(after[0], after[1], after[2])
    keep = 0
    for k in range(KINDS):
        held = s[HANDS + turn * KINDS + k] - (1 if k == kind else 0)
        if held > 0:
            fits = least + 4 <= _LIMIT if k == NASTY else after[k // 5] + _VALUE[k] <= _LIMIT
            if fits:
                keep += held
    tight = max(0, after[target] - 8)
    score = _W_VALUE * value + _W_KEEP * keep + _W_TIGHT * tight
    if kind == NASTY and after[target] >= _NASTY_TRAP:
        score += _W_NASTY_TIGHT * tight
    return float(score)


@nb.njit(cache=True)
def heuristic_scores(s: npt.NDArray[np.int16], scores: npt.NDArray[np.float64]) -> None:  # pragma: no cover
    """The heuristic's score of every action (``-inf`` where not legal, and for every take while a safe play
    exists: K11 is avoided whenever it can be)."""
    scores[:] = -np.inf
    turn = s[TURN]
    if turn < 0:
        return
    mask = np.zeros(ACTIONS, np.bool_)
    legal(s, mask)
    any_safe = False
    for a in range(ACTIONS):
        if mask[a]:
            kind, target = (a, a // 5) if a < NASTY else (NASTY, a - NASTY)
            if s[SUMS + target] + _VALUE[kind] <= _LIMIT:
                any_safe = True
                scores[a] = _safe_score(s, turn, kind, target)
    if any_safe:
        return
    for a in range(ACTIONS):
        if mask[a]:
            kind, target = (a, a // 5) if a < NASTY else (NASTY, a - NASTY)
            scores[a] = _take_score(s, turn, kind, target)


@nb.njit(cache=True)
def heuristic_action(s: npt.NDArray[np.int16], key: Keys) -> int:  # pragma: no cover - compiled
    """The heuristic's play: the best score, ties (within 1e-9, as ``pick_best``) broken by ``key``."""
    scores = np.empty(ACTIONS, np.float64)
    heuristic_scores(s, scores)
    best = scores.max()
    if best == -np.inf:
        return -1
    tied = np.zeros(ACTIONS, np.bool_)
    for a in range(ACTIONS):
        tied[a] = scores[a] >= best - 1e-9
    return int(pick_legal(key, tied))


@nb.njit(cache=True)
def playout(s: npt.NDArray[np.int16], key: Keys, policy: int) -> None:  # pragma: no cover - compiled
    """Play the game to its end, every seat at random or by the heuristic."""
    mask = np.zeros(ACTIONS, np.bool_)
    while s[TURN] >= 0:
        if policy == HEURISTIC:
            action = heuristic_action(s, key)
        else:
            legal(s, mask)
            action = pick_legal(key, mask)
        apply(s, action, key)


# -- the shared loops' row functions -------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")  # no call of its own in the loops: see the docstring
def legal_into(s: npt.NDArray[np.int16], mask: Masks, buffer: npt.NDArray[np.int64]) -> None:  # pragma: no cover
    """:func:`legal`, in the form the shared loops call (``buffer`` unused); inlined by numba where it is called, as
    a compiled call of its own around :func:`legal` made 13's batched legal masks 1.18 times slower (4,096 rows: 70
    ns a row against 59, CPU time, best of 1,000 calls)."""
    legal(s, mask)


@nb.njit(cache=True)
def random_action(s: npt.NDArray[np.int16], key: Keys) -> int:  # pragma: no cover - compiled
    """A legal action drawn uniformly, read straight from the hand (what :func:`legal` and ``pick_legal`` give for
    the same key, without the mask)."""
    hand = HANDS + s[TURN] * KINDS
    count = 0
    for kind in range(NASTY):
        if s[hand + kind] > 0:
            count += 1
    if s[hand + NASTY] > 0:
        count += 3
    r = below(key, count)
    for kind in range(NASTY):
        if s[hand + kind] > 0:
            if r == 0:
                return kind
            r -= 1
    return NASTY + r


# -- batches --------------------------------------------------------------------------------------------------------

BATCHES = batch_functions("knizia13", new_game=new_game, apply=apply, legal_into=legal_into, observe=observe,
                          heuristic_action=heuristic_action, random_action=random_action, playout=playout, TURN=TURN,
                          ACTIONS=ACTIONS)
"""The batch functions of :class:`~dreizehn.core.kernel.CompiledKernel`, compiled from the shared templates
(:func:`dreizehn.core.scaffold.batch_functions`)."""
