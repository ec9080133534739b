"""Three Thirteen's heuristic (:func:`.heuristic.act`, the ``heuristic`` bot) compiled on the kernel's rows
(:mod:`.kernel`): the same decisions, for the search's rollouts (``ismcts:playout=heuristic``).

* Go out where it can, discarding the highest card that allows it.
* Take the top discard when it is wild, or when it lowers the hand's fewest penalty points after the best discard
  and lies in a meld of the best arrangement (the meld solver's recorded arrangement, as :func:`.melds.arrange`
  replays it); else draw.
* Discard the natural card whose discard leaves the best score: fewest penalty points, plus ``W_POTENTIAL`` per unit
  of meld potential kept, less ``W_FEED`` for a card that builds a meld with the next seat's known cards (not once
  someone has gone out), plus a thousandth of the card's value.

:func:`choices` writes the actions the Python heuristic ties between (it draws one of them with its ``rng``);
:func:`action` draws one of them from the kernel's key. ``tests/games/three_thirteen/test_kernel_heuristic.py``
checks the choices against the Python functions over many decisions of many games.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.core.kernel import Keys, below
from dreizehn.games.three_thirteen.heuristic import STALEMATE_TURNS, W_FEED, W_POTENTIAL
from dreizehn.games.three_thirteen.kernel import (
    ACES_HIGH,
    ACTIONS,
    ALL_WILD,
    DECKS,
    DRAWN,
    END_ROUND,
    HANDS,
    KNOWN,
    PILE_N,
    PLAYED,
    PLAYERS,
    ROUND,
    STOCK,
    STOCK_N,
    TURN,
    TURNS_LEFT,
    _get2,
    outs,
)
from dreizehn.games.three_thirteen.melds import _DEAD, _solve_min
from dreizehn.games.three_thirteen.rules import DISCARD, DRAW, KINDS, OUT, TAKE

_RANK_VALUE = np.array((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), np.int64)
_EPS = 1e-9
"""The tolerance of ``pick_best``: scores this close to the best tie."""


@nb.njit(cache=True)
def card_value(kind: int, aces_high: bool) -> int:  # pragma: no cover - compiled
    """Penalty of one unmatched card (T11), as :func:`.melds.card_value` gives it."""
    rank = kind % 13 + 1
    if rank == 1 and aces_high:
        return 15
    return int(_RANK_VALUE[rank])


@nb.njit(cache=True)
def _cards(counts: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """The kinds of ``counts`` in order into ``out``; how many."""
    n = 0
    for k in range(KINDS):
        for _ in range(counts[k]):
            out[n] = k
            n += 1
    return n


@nb.njit(cache=True)
def min_penalty(counts: npt.NDArray[np.int64], wild: int, aces_high: bool, all_wild: bool,
                cards: npt.NDArray[np.int64], bpath: npt.NDArray[np.int64], record: bool,
                out: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """The fewest penalty points of the hand counted in ``counts`` (T11), as :func:`.melds.min_penalty` gives
    them; with ``record``, the decisions of a best arrangement in ``bpath[:out[0]]`` (as :func:`.melds.arrange`
    gets them)."""
    n = _cards(counts, cards)
    best = int(_solve_min(cards[:n], wild, aces_high, record, bpath, out))
    if best == 0 and not all_wild and n:
        for i in range(n):
            if cards[i] % 13 + 1 != wild:
                return best
        return n * int(_RANK_VALUE[wild])  # T7 forbidden: wild cards alone make no meld
    return best


@nb.njit(cache=True)
def potential(counts: npt.NDArray[np.int64], wild: int, aces_high: bool) -> float:  # pragma: no cover - compiled
    """How close the cards counted in ``counts`` are to melds (:func:`.heuristic.potential`): per pair of natural
    cards 1 for the same rank, 1 for the same suit one rank apart, 0.5 two apart (a high ace beside the king)."""
    total = 0.0
    for a in range(KINDS):
        ca = counts[a]
        ra = a % 13 + 1
        if ca == 0 or ra == wild:
            continue
        total += 1.0 * (ca * (ca - 1) // 2)
        for b in range(a + 1, KINDS):
            cb = counts[b]
            rb = b % 13 + 1
            if cb == 0 or rb == wild:
                continue
            if ra == rb:
                total += 1.0 * ca * cb
            elif a // 13 == b // 13:
                gap = abs(ra - rb)
                high = max(ra, rb)
                if aces_high and (ra == 1 or rb == 1) and high >= 12:
                    gap = min(gap, 14 - high)
                if gap == 1:
                    total += 1.0 * ca * cb
                elif gap == 2:
                    total += 0.5 * ca * cb
    return total


@nb.njit(cache=True)
def _feeds(s: npt.NDArray[np.int16], kind: int, nxt: int, wild: int) -> bool:  # pragma: no cover - compiled
    """Whether the next seat is known to hold a card that ``kind`` builds a meld with (``_meld_partner``); false
    where it is known to hold none."""
    at = KNOWN + nxt * KINDS
    known = False
    for k in range(KINDS):
        if s[at + k]:
            known = True
            break
    if not known:
        return False
    if kind % 13 + 1 == wild:
        return True
    r = kind % 13 + 1
    for k in range(KINDS):
        if s[at + k] == 0:
            continue
        rk = k % 13 + 1
        if rk == wild:
            continue
        if rk == r or (k // 13 == kind // 13 and abs(rk - r) <= 2):
            return True
    return False


@nb.njit(cache=True)
def _hand_counts(s: npt.NDArray[np.int16], seat: int) -> npt.NDArray[np.int64]:  # pragma: no cover - compiled
    counts = np.zeros(KINDS, np.int64)
    at = HANDS + seat * KINDS
    for k in range(KINDS):
        counts[k] = s[at + k]
    return counts


@nb.njit(cache=True)
def discard_scores(s: npt.NDArray[np.int16], scores: npt.NDArray[np.float64]) -> None:  # pragma: no cover
    """The score of each discard the heuristic weighs into ``scores`` (by kind; ``-inf`` for those it does not:
    the kinds not held, and the wild ones unless every card is wild), as :func:`.heuristic.discard_scores`."""
    turn = s[TURN]
    wild = int(s[ROUND]) + 3
    aces_high = s[ACES_HIGH] != 0
    all_wild = s[ALL_WILD] != 0
    counts = _hand_counts(s, turn)
    naturals = False
    for k in range(KINDS):
        if counts[k] and k % 13 + 1 != wild:
            naturals = True
    nxt = (turn + 1) % s[PLAYERS]
    last_turn = s[TURNS_LEFT] >= 0
    cards = np.empty(KINDS * 8, np.int64)
    bpath = np.zeros((1, 4), np.int64)
    out = np.zeros(1, np.int64)
    for kind in range(KINDS):
        scores[kind] = -np.inf
        if counts[kind] == 0 or (naturals and kind % 13 + 1 == wild):
            continue
        counts[kind] -= 1
        score = -float(min_penalty(counts, wild, aces_high, all_wild, cards, bpath, False, out))
        if not last_turn:
            score += W_POTENTIAL * potential(counts, wild, aces_high)
            if _feeds(s, kind, nxt, wild):
                score -= W_FEED
        counts[kind] += 1
        score += 0.001 * card_value(kind, aces_high)
        scores[kind] = score


@nb.njit(cache=True)
def takes(s: npt.NDArray[np.int16]) -> bool:  # pragma: no cover - compiled
    """Whether the heuristic takes the top discard (``_take``): a wild card, or one that lowers the fewest penalty
    points after the best discard and lies in a meld of that hand's best arrangement."""
    if s[PILE_N] == 0:
        return False
    top = int(s[STOCK + KINDS * s[DECKS] + s[PILE_N] - 1])
    wild = int(s[ROUND]) + 3
    if top % 13 + 1 == wild:
        return True
    aces_high = s[ACES_HIGH] != 0
    all_wild = s[ALL_WILD] != 0
    counts = _hand_counts(s, s[TURN])
    cards = np.empty(KINDS * 8, np.int64)
    out = np.zeros(1, np.int64)
    bpath = np.zeros((KINDS * 8 + 1, 4), np.int64)
    now = min_penalty(counts, wild, aces_high, all_wild, cards, bpath, False, out)
    best = -1
    best_kind = -1
    counts[top] += 1
    for k in range(KINDS):
        if counts[k] == 0 or (k == top and counts[k] == 1):  # the kinds held before the take
            continue
        counts[k] -= 1
        p = min_penalty(counts, wild, aces_high, all_wild, cards, bpath, False, out)
        counts[k] += 1
        if best < 0 or p < best:
            best = p
            best_kind = k
    if best < 0 or best >= now:
        return False
    counts[best_kind] -= 1
    min_penalty(counts, wild, aces_high, all_wild, cards, bpath, True, out)
    dead = 0
    for i in range(out[0]):
        if bpath[i, 0] == _DEAD:
            position = bpath[i, 2]
            if bpath[i, 1] * 13 + (0 if position == 14 else position - 1) == top:
                dead += 1
    return dead == 0 or counts[top] > dead


@nb.njit(cache=True)
def choices(s: npt.NDArray[np.int16], mask: npt.NDArray[np.bool_]) -> int:  # pragma: no cover - compiled
    """The actions the heuristic ties between for the seat to move into ``mask`` (one, but for discards of equal
    score); how many."""
    mask[:] = False
    if not s[DRAWN]:
        can_draw = s[STOCK_N] > 0 or s[END_ROUND] != 0 or s[PILE_N] > 1
        mask[TAKE if not can_draw or takes(s) else DRAW] = True
        return 1
    aces_high = s[ACES_HIGH] != 0
    ways = outs(s)
    if ways:
        best = -1
        best_score = 0.0
        for k in range(KINDS):
            if (ways >> k) & 1:
                score = card_value(k, aces_high) + 0.01 * k
                if best < 0 or score > best_score:
                    best = k
                    best_score = score
        mask[OUT + best] = True
        return 1
    if _get2(s, PLAYED) >= STALEMATE_TURNS:  # a round that went on too long: any card (heuristic.STALEMATE_TURNS)
        count = 0
        for k in range(KINDS):
            if s[HANDS + s[TURN] * KINDS + k] > 0:
                mask[DISCARD + k] = True
                count += 1
        return count
    scores = np.empty(KINDS, np.float64)
    discard_scores(s, scores)
    top = scores.max()
    count = 0
    for k in range(KINDS):
        if scores[k] >= top - _EPS:
            mask[DISCARD + k] = True
            count += 1
    return count


@nb.njit(cache=True)
def action(s: npt.NDArray[np.int16], key: Keys) -> int:  # pragma: no cover - compiled
    """The heuristic's action for the seat to move, a tie drawn from ``key``."""
    mask = np.zeros(ACTIONS, np.bool_)
    count = choices(s, mask)
    pick = 0 if count == 1 else int(np.int64(below(key, count)))
    for a in range(ACTIONS):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1
