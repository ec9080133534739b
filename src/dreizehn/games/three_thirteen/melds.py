"""Exact meld solver for Three Thirteen (rules T2, T7, T8, T11).

A card kind is an ``int`` ``k = suit * 13 + (rank - 1)`` (suits 0..3 = clubs, diamonds, hearts, spades; ranks
1..13 = A, 2..10, J, Q, K).  A hand is a sequence of kinds; with several decks a kind may repeat, and identical
cards are interchangeable.  Every card of the round's wild rank ``wild_rank`` (3..13) is wild.

* :func:`min_penalty` -- the fewest penalty points (T11) of the unmatched cards over every way to meld the hand.
* :func:`arrange` -- one arrangement reaching that minimum.
* :func:`go_out_discards` -- the kinds whose discard leaves a hand that melds completely (T8).
* :func:`is_meld` -- whether some cards form one set or run (T2, T7).
* :func:`card_value` -- the penalty of one unmatched card (T11).

The ace option of T2 is the keyword ``aces_high``: :data:`ACES_LOW` (``False``, aces are low only) or
:data:`ACES_LOW_OR_HIGH` (``True``, an ace may also follow the king, never wrapping round, and costs 15 unmatched).
The option ``all_wild_melds`` of T7 is ``True`` (the default, "allowed") when melds made only of wild cards are
allowed; ``False`` ("forbidden"): every meld needs at least one card not of the wild rank, a card of the wild rank
used as itself not counting (in round 1 three 3s are no meld, while 4C-4D-3S and 5H-3C-7H are).  Below, a *natural*
card is a card not of the wild rank.

Forbidding them changes a hand's fewest penalty points only where every card of the hand is wild (then they are all
unmatched), and so a way out (T8) only where it would leave wild cards only.  Take a best arrangement under
"allowed" that has melds of wild cards only, and merge those into one set S (three or more wild cards).  If another
set exists, S joins it.  If a run with two or more natural cards exists, one of them, M, heads S less one wild card,
which takes M's place in the run.  A run with one natural card makes one set with S.  With no other meld at all,
every natural card is unmatched, so if there is one it would rather head S (fewer points): that arrangement was not
the best.  Each way gives an arrangement as cheap in which every meld holds a natural card.  The kernels below
therefore search with such melds allowed; :func:`min_penalty` and :func:`go_out_discards` correct for hands of wild
cards only, and :func:`arrange` lays out S as above.

>>> min_penalty([0, 1, 2, 24, 37], wild_rank=13)    # A-2-3 of clubs melded; queens of diamonds and hearts left
20
>>> go_out_discards([0, 1, 2, 16, 29, 42, 33], wild_rank=5)   # A-2-3 of clubs, three 4s: the 8 of hearts goes
(33,)

The search runs in numba kernels (compiled on the first call and cached on disk; :func:`warm_up` compiles them
ahead).  It works on counts of natural cards per suit and position (1..13, with 14 for an ace used above the king)
and on the number of wild cards: the lowest remaining natural card is unmatched, joins the set of its rank, or
starts a run of its suit (taking the natural card at each next position when one is left, wild cards for the
gaps), with branch and bound on the penalty.  Wild cards left over go into any set, or a run with room, or form a
set of the wild rank of their own.

Bad input (a card kind outside 0..51, a wild rank outside 3..13, a hand that is no flat sequence of kinds) raises
:class:`~dreizehn.core.errors.InvalidActionError` with a code ``three-thirteen.error.*`` (said in every language by
:mod:`dreizehn.words`) and the rule (T1, T3); a ``RuntimeError`` would be a bug of the solver itself.

>>> card_value(52)
Traceback (most recent call last):
  ...
dreizehn.core.errors.InvalidActionError: card kind 52 is not in 0..51 (T1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.core.errors import InvalidActionError

__all__ = [
    "ACES_LOW",
    "ACES_LOW_OR_HIGH",
    "MeldArrangement",
    "arrange",
    "card_value",
    "go_out_discards",
    "is_meld",
    "min_penalty",
    "warm_up",
]

ACES_LOW: Final = False
"""T2 default: aces are low only (A-2-3 is a run, Q-K-A is not).  Pass as ``aces_high``; equal to 0."""
ACES_LOW_OR_HIGH: Final = True
"""T2 option "low-or-high": an ace may also follow the king (Q-K-A), never wrapping round (K-A-2 is never a
run); an unmatched ace then costs 15.  Pass as ``aces_high``; equal to 1."""

_RANK_VALUE: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_INF: Final = 1 << 40

# Kernel decision codes, as recorded in an arrangement's path: (code, suit, position, run end).
_RUN: Final = 0
_HIGH: Final = 1
_SET: Final = 2
_DEAD: Final = 3


def card_value(kind: int, aces_high: bool = False) -> int:
    """Penalty of one unmatched card (T11): ace 1 (15 when ``aces_high``), 2..10 face value, J Q K 10.

    An unmatched wild card costs what its rank costs.

    >>> card_value(0, False), card_value(0, True), card_value(8, False), card_value(50, False)
    (1, 15, 9, 10)
    """
    if not 0 <= kind < 52:
        raise InvalidActionError("three-thirteen.error.kind", rule="T1", kind=kind)
    rank = kind % 13 + 1
    if rank == 1 and aces_high:
        return 15
    return _RANK_VALUE[rank]


# --------------------------------------------------------------------------------------------------------------
# numba kernels.  Natural cards are counted in ``cnt[suit * 16 + position]``; position 1..13 is the rank, and 14
# holds aces set aside (under aces high) to end a run above the king.
#
# Why the search is exact (the brute force in tests/games/three_thirteen/test_melds.py checks it):
# * Cards of the wild rank are interchangeable jokers: one used as itself is a wild card standing for itself.  An
#   arrangement is then fixed, up to where its wild cards sit, by the natural cards of each meld.  A set of k
#   naturals needs max(0, 3 - k) wild cards; a run needs one for each gap between its lowest and highest natural
#   card, and pads to three.  Further ("spare") wild cards go into any set, into a run with room (a run is at most
#   13 long), or, three or more, make a set of the wild rank; else each is unmatched, or takes the place of a
#   natural card of a run that becomes unmatched (``_leftover_cost``).
# * Two sets of one rank merge into one; an unmatched natural card beside a set of its rank would rather join it
#   (not when going out, where exactly one card is left over).  One natural card with two wild cards is a set
#   rather than a run (same cards, more room).
# * Cards are decided in order of position, then suit, so a run is built from its lowest natural card upwards,
#   ending at each later natural card in turn.  At each position it takes the natural card when one is left
#   (exchange argument: if a wild card sat there instead, swap the two; the natural card's other role, in a set
#   or another run, is as well played by the wild card, and if it was unmatched the wild card becomes spare,
#   which the spare-card rule above prices, swap back included).
# * Identical cards are decided in a fixed order (runs with non-increasing ends, then set, then unmatched), and
#   natural cards that no meld of the whole hand could hold are unmatched from the start (``_isolate``).
# * The kernels always allow melds of wild cards only (the set of spare wild cards above); the module docstring
#   shows why forbidding them needs no other search.


@nb.njit(cache=True)
def _build(hand: npt.NDArray[np.int64], wild_rank: int, cnt: npt.NDArray[np.int64]) -> int:  # pragma: no cover
    """Fill ``cnt`` with the natural cards of ``hand``; return the number of wild cards, or -1 if a kind is bad."""
    wilds = 0
    for i in range(hand.shape[0]):
        k = hand[i]
        if k < 0 or k > 51:
            return -1
        rank = k % 13 + 1
        if rank == wild_rank:
            wilds += 1
        else:
            cnt[(k // 13) * 16 + rank] += 1
    return wilds


@nb.njit(cache=True)
def _meldable(cnt: npt.NDArray[np.int64], s: int, p: int, wilds: int, maxpos: int) -> bool:  # pragma: no cover
    """Whether the natural card at suit ``s``, position ``p`` (1..13) could be in some meld of the whole hand."""
    total = 0
    for t in range(4):
        total += cnt[t * 16 + p]
    if total + wilds >= 3:
        return True
    if wilds >= 2:
        return True
    # Three-card windows of positions around p (a longer run contains such a window with no more gaps).
    for q0 in range(p - 2, p + 1):
        if q0 < 1 or q0 + 2 > 13:
            continue
        present = 0
        for q in range(q0, q0 + 3):
            if cnt[s * 16 + q] > 0:
                present += 1
        if 3 - present <= wilds:
            return True
    if maxpos == 14 and (p == 1 or p >= 12):
        present = 1
        if p != 12 and cnt[s * 16 + 12] > 0:
            present += 1
        if p != 13 and cnt[s * 16 + 13] > 0:
            present += 1
        if p != 1 and cnt[s * 16 + 1] > 0:
            present += 1
        if 3 - present <= wilds:
            return True
    return False


@nb.njit(cache=True)
def _isolate(
    cnt: npt.NDArray[np.int64], wilds: int, maxpos: int, iso: npt.NDArray[np.int64]
) -> None:  # pragma: no cover
    """Move the natural cards that can be in no meld at all from ``cnt`` to ``iso``."""
    for s in range(4):
        for p in range(1, 14):
            if cnt[s * 16 + p] > 0 and not _meldable(cnt, s, p, wilds, maxpos):
                iso[s * 16 + p] = cnt[s * 16 + p]
    for i in range(64):
        cnt[i] -= iso[i]


@nb.njit(cache=True)
def _two_smallest(a1: int, a2: int, b1: int, b2: int) -> tuple[int, int]:  # pragma: no cover
    """The two smallest of ``a1 <= a2`` and ``b1 <= b2``."""
    if a1 <= b1:
        return a1, (a2 if a2 < b1 else b1)
    return b1, (b2 if b2 < a1 else a1)


@nb.njit(cache=True)
def _leftover_cost(left: int, nsets: int, cap: int, m1: int, m2: int, wv: int) -> int:  # pragma: no cover
    """Cheapest way to place ``left`` spare wild cards.

    They join a set (``nsets`` > 0), fill the ``cap`` free places of the runs, or, three or more, make a set of the
    wild rank.  Otherwise each spare wild is unmatched (``wv`` points), or takes the place of a natural card of a
    run, which becomes unmatched (``m1 <= m2``: the cheapest natural cards in runs).
    """
    if left == 0 or nsets > 0 or left <= cap or left >= 3:
        return 0
    e = left - cap
    best = e * wv
    alt = m1 + (e - 1) * wv
    if alt < best:
        best = alt
    if e == 2 and m1 + m2 < best:
        best = m1 + m2
    return best


@nb.njit(cache=True)
def _set_possible(cnt: npt.NDArray[np.int64], p: int, s: int, setk: int, wilds: int) -> bool:  # pragma: no cover
    """Whether the set of rank ``p`` can still reach three cards if the card at suit ``s`` joins it."""
    total = setk + wilds
    for t in range(s, 4):
        total += cnt[t * 16 + p]
    return total >= 3


@nb.njit(cache=True)
def _rec_min(
    cnt: npt.NDArray[np.int64],
    p: int,
    s: int,
    lt: int,
    le: int,
    wilds: int,
    pen: int,
    setk: int,
    dwk: int,
    nsets: int,
    cap: int,
    m1: int,
    m2: int,
    maxpos: int,
    wv: int,
    vals: npt.NDArray[np.int64],
    best: npt.NDArray[np.int64],
    path: npt.NDArray[np.int64],
    depth: int,
    bpath: npt.NDArray[np.int64],
    record: bool,
) -> int:  # pragma: no cover
    """Branch and bound over the remaining natural cards, in order of position then suit.

    ``lt``/``le``: for further copies of the current kind, the least decision code allowed and the highest run end
    (identical cards are decided in a canonical order).  ``setk``/``dwk``: cards of the current rank put in its set
    or left unmatched.  ``nsets``, ``cap``: sets made so far, free places in the runs made so far; ``m1 <= m2`` the
    cheapest natural cards in those runs.
    """
    # Constants as plain int64 values: a literal argument would make numba compile (and cache) a literal-typed
    # twin of this recursive function, which crashes when loaded back from the disk cache.
    i0 = int(np.int64(0))
    i1 = int(np.int64(1))
    i2 = int(np.int64(2))
    i3 = int(np.int64(3))
    i99 = int(np.int64(99))
    if pen >= best[0]:
        return 0
    while True:
        if p > maxpos:
            total = pen + _leftover_cost(wilds, nsets, cap, m1, m2, wv)
            if total < best[0]:
                best[0] = total
                if record:
                    best[1] = depth
                    for i in range(depth):
                        for j in range(4):
                            bpath[i, j] = path[i, j]
            return 0
        if cnt[s * 16 + p] > 0:
            break
        lt = 0
        le = 99
        s += 1
        if s == 4:
            if setk > 0:
                need = 3 - setk if setk < 3 else 0
                if need > wilds:
                    return 0
                wilds -= need
                nsets += 1
                setk = 0
            dwk = 0
            s = 0
            p += 1
    if p == 14:
        return 0  # an ace set aside for a high run that no run took
    k = s * 16 + p
    v = vals[p]
    if record:
        path[depth, 1] = s
        path[depth, 2] = p
    # Run whose lowest natural card is this one.
    if lt == 0:
        cnt[k] -= 1
        hi = p + 12
        if hi > maxpos:
            hi = maxpos
        if hi > le:
            hi = le
        # (A run of this card and two wild cards is never better than a set of the same three cards.)
        r1 = v
        r2 = _INF
        gaps = 0
        used = 0
        q = p + 1
        while q <= hi:
            kq = s * 16 + q
            if cnt[kq] > 0:
                cnt[kq] -= 1
                used |= 1 << q
                vq = vals[q]
                if vq < r1:
                    r2 = r1
                    r1 = vq
                elif vq < r2:
                    r2 = vq
                span = q - p + 1
                need = gaps
                length = span
                if span < 3:
                    need += 3 - span
                    length = 3
                if need <= wilds:
                    n1, n2 = _two_smallest(m1, m2, r1, r2)
                    if record:
                        path[depth, 0] = _RUN
                        path[depth, 3] = q
                    _rec_min(cnt, p, s, i0, q, wilds - need, pen, setk, dwk, nsets, cap + 13 - length, n1, n2,
                             maxpos, wv, vals, best, path, depth + 1, bpath, record)
            else:
                gaps += 1
                if gaps > wilds:
                    break
            q += 1
        for qq in range(p + 1, 15):
            if used & (1 << qq):
                cnt[s * 16 + qq] += 1
        cnt[k] += 1
    # Ace kept for the top of a run (aces high).
    if lt <= 1 and p == 1 and maxpos == 14:
        cnt[k] -= 1
        cnt[s * 16 + 14] += 1
        if record:
            path[depth, 0] = _HIGH
        _rec_min(cnt, p, s, i1, i99, wilds, pen, setk, dwk, nsets, cap, m1, m2,
                 maxpos, wv, vals, best, path, depth + 1, bpath, record)
        cnt[s * 16 + 14] -= 1
        cnt[k] += 1
    # In the set of its rank (never beside an unmatched card of that rank: that card would rather join the set).
    if lt <= 2 and dwk == 0 and _set_possible(cnt, p, s, setk, wilds):
        cnt[k] -= 1
        if record:
            path[depth, 0] = _SET
        _rec_min(cnt, p, s, i2, i99, wilds, pen, setk + 1, dwk, nsets, cap, m1, m2,
                 maxpos, wv, vals, best, path, depth + 1, bpath, record)
        cnt[k] += 1
    # Unmatched.
    if setk == 0 and pen + v < best[0]:
        cnt[k] -= 1
        if record:
            path[depth, 0] = _DEAD
        _rec_min(cnt, p, s, i3, i99, wilds, pen + v, setk, dwk + 1, nsets, cap, m1, m2,
                 maxpos, wv, vals, best, path, depth + 1, bpath, record)
        cnt[k] += 1
    return 0


@nb.njit(cache=True)
def _solve_min(
    hand: npt.NDArray[np.int64],
    wild_rank: int,
    aces_high: bool,
    record: bool,
    bpath: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> int:  # pragma: no cover
    """Fewest penalty of ``hand`` (or -1 for a bad kind).

    With ``record``, ``bpath[:out[0]]`` receives the decisions of a best arrangement.
    """
    cnt = np.zeros(64, np.int64)
    wilds = _build(hand, wild_rank, cnt)
    if wilds < 0:
        return -1
    maxpos = 14 if aces_high else 13
    vals = np.empty(15, np.int64)
    vals[0] = 0
    for r in range(1, 14):
        vals[r] = r if r <= 10 else 10
    if aces_high:
        vals[1] = 15
    vals[14] = 15
    wv = vals[wild_rank]
    iso = np.zeros(64, np.int64)
    _isolate(cnt, wilds, maxpos, iso)
    base = 0
    depth = 0
    n = hand.shape[0]
    path = np.empty((n + 1, 4), np.int64)
    for s in range(4):
        for p in range(1, 14):
            c = iso[s * 16 + p]
            base += c * vals[p]
            if record:
                for _ in range(c):
                    path[depth, 0] = _DEAD
                    path[depth, 1] = s
                    path[depth, 2] = p
                    path[depth, 3] = p
                    depth += 1
    best = np.empty(2, np.int64)
    best[0] = _INF
    best[1] = 0
    zero = int(np.int64(0))  # plain int64 arguments, not literals (see _rec_min)
    one = int(np.int64(1))
    inf = int(np.int64(_INF))
    _rec_min(cnt, one, zero, zero, int(np.int64(99)), int(np.int64(wilds)), int(np.int64(base)), zero, zero, zero,
             zero, inf, inf, int(np.int64(maxpos)), int(np.int64(wv)), vals, best, path, int(np.int64(depth)), bpath,
             record)
    if record:
        out[0] = best[1]
    return int(best[0])


@nb.njit(cache=True)
def _rec_out(
    cnt: npt.NDArray[np.int64],
    p: int,
    s: int,
    lt: int,
    le: int,
    wilds: int,
    nd: int,
    dk: int,
    setk: int,
    nsets: int,
    cap: int,
    maxpos: int,
    marks: npt.NDArray[np.int64],
) -> int:  # pragma: no cover
    """Search for full arrangements leaving at most one natural card (``dk``) unmatched.

    Marks ``marks[dk]`` when the rest melds; sets ``marks[0]`` when a wild card can be the one left over (then
    every card can: it may take the place of any other card in its meld).
    """
    # Constants as plain int64 values: a literal argument would make numba compile (and cache) a literal-typed
    # twin of this recursive function, which crashes when loaded back from the disk cache.
    i0 = int(np.int64(0))
    i1 = int(np.int64(1))
    i2 = int(np.int64(2))
    i3 = int(np.int64(3))
    i99 = int(np.int64(99))
    if marks[0] != 0:
        return 0
    if nd == 1 and marks[dk] != 0:
        return 0
    while True:
        if p > maxpos:
            if nd == 1:
                if wilds == 0 or nsets > 0 or wilds <= cap or wilds >= 3:
                    marks[dk] = 1
            elif wilds >= 1:
                left = wilds - 1
                if left == 0 or nsets > 0 or left <= cap or left >= 3:
                    marks[0] = 1
            return 0
        if cnt[s * 16 + p] > 0:
            break
        lt = 0
        le = 99
        s += 1
        if s == 4:
            if setk > 0:
                need = 3 - setk if setk < 3 else 0
                if need > wilds:
                    return 0
                wilds -= need
                nsets += 1
                setk = 0
            s = 0
            p += 1
    if p == 14:
        return 0
    k = s * 16 + p
    if lt == 0:
        cnt[k] -= 1
        hi = p + 12
        if hi > maxpos:
            hi = maxpos
        if hi > le:
            hi = le
        gaps = 0
        used = 0
        q = p + 1
        while q <= hi:
            kq = s * 16 + q
            if cnt[kq] > 0:
                cnt[kq] -= 1
                used |= 1 << q
                span = q - p + 1
                need = gaps
                length = span
                if span < 3:
                    need += 3 - span
                    length = 3
                if need <= wilds:
                    _rec_out(cnt, p, s, i0, q, wilds - need, nd, dk, setk, nsets, cap + 13 - length, maxpos, marks)
            else:
                gaps += 1
                if gaps > wilds:
                    break
            q += 1
        for qq in range(p + 1, 15):
            if used & (1 << qq):
                cnt[s * 16 + qq] += 1
        cnt[k] += 1
    if lt <= 1 and p == 1 and maxpos == 14:
        cnt[k] -= 1
        cnt[s * 16 + 14] += 1
        _rec_out(cnt, p, s, i1, i99, wilds, nd, dk, setk, nsets, cap, maxpos, marks)
        cnt[s * 16 + 14] -= 1
        cnt[k] += 1
    if lt <= 2 and _set_possible(cnt, p, s, setk, wilds):
        cnt[k] -= 1
        _rec_out(cnt, p, s, i2, i99, wilds, nd, dk, setk + 1, nsets, cap, maxpos, marks)
        cnt[k] += 1
    if nd == 0 and marks[k] == 0:
        cnt[k] -= 1
        _rec_out(cnt, p, s, i3, i99, wilds, i1, k, setk, nsets, cap, maxpos, marks)
        cnt[k] += 1
    return 0


@nb.njit(cache=True)
def _out_marks(
    cnt: npt.NDArray[np.int64], wilds: int, maxpos: int, iso: npt.NDArray[np.int64], marks: npt.NDArray[np.int64]
) -> None:  # pragma: no cover
    """The search of :func:`_solve_out` over the natural cards ``cnt`` (index ``suit * 16 + rank``, changed) and
    ``wilds`` wild cards, with ``iso`` and ``marks`` zeroed scratch of 64: ``marks[0]`` when any card may go, else
    ``marks[suit * 16 + rank]`` for each natural card that may."""
    _isolate(cnt, wilds, maxpos, iso)
    nd = 0
    dk = 0
    for i in range(64):
        if iso[i] > 0:
            nd += iso[i]
            dk = i
    if nd > 1:
        return
    zero = int(np.int64(0))  # plain int64 arguments, not literals (see _rec_min)
    _rec_out(cnt, int(np.int64(1)), zero, zero, int(np.int64(99)), int(np.int64(wilds)), int(np.int64(nd)),
             int(np.int64(dk)), zero, zero, zero, int(np.int64(maxpos)), marks)


@nb.njit(cache=True)
def _solve_out(hand: npt.NDArray[np.int64], wild_rank: int, aces_high: bool) -> int:  # pragma: no cover
    """For :func:`go_out_discards`: the discards as a bit mask of kinds (bit k for kind k), or -1 for a bad kind."""
    cnt = np.zeros(64, np.int64)
    wilds = _build(hand, wild_rank, cnt)
    if wilds < 0:
        return -1
    iso = np.zeros(64, np.int64)
    marks = np.zeros(64, np.int64)
    _out_marks(cnt, wilds, 14 if aces_high else 13, iso, marks)
    mask = 0
    if marks[0] != 0:  # any card may go
        for i in range(hand.shape[0]):
            mask |= 1 << hand[i]
        return mask
    for s in range(4):
        for p in range(1, 14):
            if marks[s * 16 + p] != 0:
                mask |= 1 << (s * 13 + p - 1)
    return mask


# --------------------------------------------------------------------------------------------------------------
# Python API


# Placeholders for the path outputs of _solve_min when it records nothing (it never writes them then).
_NO_PATH: Final = np.zeros((1, 4), np.int64)
_OUT: Final = np.zeros(1, np.int64)


def _check_wild_rank(wild_rank: int) -> None:
    if not 3 <= wild_rank <= 13:
        raise InvalidActionError("three-thirteen.error.wild_rank", rule="T3", wild_rank=wild_rank)


def _as_array(hand: Sequence[int]) -> npt.NDArray[np.int64]:
    try:
        arr = np.array(hand, dtype=np.int64)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidActionError("three-thirteen.error.hand", rule="T1", hand=repr(hand)) from exc
    if arr.ndim != 1:
        raise InvalidActionError("three-thirteen.error.hand_flat", rule="T1", hand=repr(hand))
    return arr


def _bad_hand(hand: Sequence[int]) -> InvalidActionError:
    return InvalidActionError("three-thirteen.error.hand_kind", rule="T1", hand=repr(list(hand)))


def min_penalty(hand: Sequence[int], wild_rank: int, aces_high: bool = False, all_wild_melds: bool = True) -> int:
    """Fewest penalty points (T11) of the unmatched cards of ``hand`` over all arrangements in melds (T2, T7).

    With ``all_wild_melds`` false every meld holds a natural card; that changes the answer only for a hand of wild
    cards only (see the module docstring).

    >>> min_penalty([0, 1, 2, 10, 23, 36], wild_rank=4)   # A-2-3 of clubs, three jacks
    0
    >>> min_penalty([11, 12, 0], wild_rank=4), min_penalty([11, 12, 0], wild_rank=4, aces_high=True)
    (21, 0)
    >>> min_penalty([2, 15, 28], wild_rank=3), min_penalty([2, 15, 28], wild_rank=3, all_wild_melds=False)
    (0, 9)
    """
    _check_wild_rank(wild_rank)
    arr = _as_array(hand)
    result = int(_solve_min(arr, wild_rank, bool(aces_high), False, _NO_PATH, _OUT))
    if result < 0:
        raise _bad_hand(hand)
    if result == 0 and not all_wild_melds and arr.shape[0] and not _naturals(arr, wild_rank, 1):
        return int(arr.shape[0]) * _RANK_VALUE[wild_rank]
    return result


def _naturals(arr: npt.NDArray[np.int64], wild_rank: int, most: int) -> list[int]:
    """The natural cards of the hand, in order, as far as the first ``most`` of them."""
    found: list[int] = []
    for k in arr.tolist():
        if k % 13 + 1 != wild_rank:
            found.append(k)
            if len(found) == most:
                break
    return found


@dataclass(frozen=True, slots=True)
class MeldArrangement:
    """One way to lay out a hand: ``melds`` (each a tuple of the hand's card kinds, runs in rank order, a wild card
    in the place it stands for), the unmatched ``deadwood`` (sorted) and its ``penalty`` (T11).

    >>> arrange([11, 12, 0, 5], wild_rank=4, aces_high=True)
    MeldArrangement(melds=((11, 12, 0),), deadwood=(5,), penalty=6)
    """

    melds: tuple[tuple[int, ...], ...]
    deadwood: tuple[int, ...]
    penalty: int


def arrange(
    hand: Sequence[int], wild_rank: int, aces_high: bool = False, all_wild_melds: bool = True
) -> MeldArrangement:
    """An arrangement of ``hand`` with the fewest penalty points (the same as :func:`min_penalty`).

    Melds and deadwood together are exactly the hand.  With ``all_wild_melds`` false every meld holds a natural card
    (T7); else spare wild cards may make a set of their own.

    >>> arrange([0, 1, 2, 10, 23, 36, 7], wild_rank=13)
    MeldArrangement(melds=((0, 1, 2), (10, 23, 36)), deadwood=(7,), penalty=8)
    >>> arrange([0, 2, 12], wild_rank=13).melds    # the king of clubs stands for the two
    ((0, 12, 2),)
    """
    _check_wild_rank(wild_rank)
    aces_high = bool(aces_high)
    arr = _as_array(hand)
    bpath = np.empty((arr.shape[0] + 1, 4), np.int64)
    out = np.zeros(1, np.int64)
    penalty = int(_solve_min(arr, wild_rank, aces_high, True, bpath, out))
    if penalty < 0:
        raise _bad_hand(hand)
    if penalty == 0 and not all_wild_melds and arr.shape[0] and not _naturals(arr, wild_rank, 1):
        dead = tuple(sorted(arr.tolist()))
        return MeldArrangement(melds=(), deadwood=dead, penalty=len(dead) * _RANK_VALUE[wild_rank])
    return _replay(arr, wild_rank, aces_high, bpath[: int(out[0])].tolist(), penalty, bool(all_wild_melds))


def _replay(
    arr: npt.NDArray[np.int64], wild_rank: int, aces_high: bool, path: list[list[int]], penalty: int,
    all_wild_melds: bool = True,
) -> MeldArrangement:
    """Turn the kernel's recorded decisions into melds, placing the wild cards.  With ``all_wild_melds`` false, spare
    wild cards that would make a set of their own join a natural card of a run instead (module docstring)."""
    draft, wild_cards = _draft(arr, wild_rank, aces_high, path)
    set_melds: list[list[int | None]] = []
    for rank in sorted(draft.sets):
        members: list[int | None] = list(draft.sets[rank])
        while len(members) < 3:
            members.append(None)
        set_melds.append(members)
    used = sum(m.count(None) for m in set_melds) + sum(pl.count(None) for _, pl in draft.runs)
    left = len(wild_cards) - used
    if left < 0:  # pragma: no cover - kernel/replay mismatch
        raise RuntimeError("meld solver replay used too many wild cards")
    wild_sets = _place_spares(draft, set_melds, left, wild_rank, aces_high, all_wild_melds)
    pool = sorted(wild_cards)
    melds = [tuple(m) for m in _runs_with_wilds(draft, pool, wild_rank)]
    for members in set_melds + wild_sets:
        melds.append(tuple([c for c in members if c is not None] + [pool.pop() for c in members if c is None]))
    melds.sort(key=lambda m: (min(m), m))
    dead = tuple(sorted(draft.deadwood + pool))  # spare wild cards nobody could take are unmatched
    total = sum(card_value(k, aces_high) for k in dead)
    if total != penalty:  # pragma: no cover - kernel/replay mismatch
        raise RuntimeError(f"meld solver replay found penalty {total}, kernel {penalty}")
    return MeldArrangement(melds=tuple(melds), deadwood=dead, penalty=penalty)


@dataclass(slots=True)
class _Draft:
    """The natural cards as the kernel's decisions arrange them, the wild cards not yet placed: the unmatched kinds,
    each set's natural kinds by rank, and each run's suit with a natural position (or None for a wild card) a place,
    beside the position of its first place."""

    deadwood: list[int]
    sets: dict[int, list[int]]
    runs: list[tuple[int, list[int | None]]]
    starts: list[int]


def _kind(s: int, pos: int) -> int:
    """The card kind of suit ``s`` at run position ``pos`` (1..13, 14 an ace above the king)."""
    return s * 13 + (0 if pos == 14 else pos - 1)


def _draft(arr: npt.NDArray[np.int64], wild_rank: int, aces_high: bool,
           path: list[list[int]]) -> tuple[_Draft, list[int]]:
    """The kernel's decisions ``path`` (code, suit, position, run end) on the hand ``arr`` as a :class:`_Draft`, and
    the hand's wild cards; each run padded to three places, up where there is room, else down."""
    cnt = [[0] * 15 for _ in range(4)]
    wild_cards: list[int] = []
    for k in arr.tolist():
        rank = k % 13 + 1
        if rank == wild_rank:
            wild_cards.append(k)
        else:
            cnt[k // 13][rank] += 1
    draft = _Draft([], {}, [], [])
    for code, s, p, e in path:
        if code == _DEAD:
            cnt[s][p] -= 1
            draft.deadwood.append(_kind(s, p))
        elif code == _SET:
            cnt[s][p] -= 1
            draft.sets.setdefault(p, []).append(_kind(s, p))
        elif code == _HIGH:
            cnt[s][1] -= 1
            cnt[s][14] += 1
        else:
            places: list[int | None] = []
            for q in range(p, e + 1):
                if cnt[s][q] > 0:
                    cnt[s][q] -= 1
                    places.append(q)
                else:
                    places.append(None)
            start = p
            while len(places) < 3:  # pad up if there is room, else down
                if start + len(places) <= (14 if aces_high else 13):
                    places.append(None)
                else:
                    places.insert(0, None)
                    start -= 1
            draft.runs.append((s, places))
            draft.starts.append(start)
    if any(c for row in cnt for c in row):  # pragma: no cover - kernel/replay mismatch
        raise RuntimeError("meld solver replay left cards over")
    return draft, wild_cards


def _place_spares(draft: _Draft, set_melds: list[list[int | None]], left: int, wild_rank: int, aces_high: bool,
                  all_wild_melds: bool) -> list[list[int | None]]:
    """Place the ``left`` wild cards that no meld needs: in the first set, as a set of their own (or, where that is
    not allowed, a set headed by a natural card of a run), or lengthening the runs; a spare wild card left after
    that is unmatched, or takes the place of a cheaper natural card of a run, which is then unmatched. Changes
    ``draft`` and ``set_melds``; returns the sets of wild cards only."""
    runs, starts = draft.runs, draft.starts
    room = sum(13 - len(places) for _, places in runs)
    if left > 0 and set_melds:
        set_melds[0].extend([None] * left)
    elif left > room and left >= 3 and all_wild_melds:
        return [[None] * left]
    elif left > room and left >= 3 and runs:
        # No meld of wild cards only (T7 forbidden): a natural card of a run (the kernel's runs hold two or more)
        # heads a set of the spare wild cards, one of which takes its place in the run.
        s, places = runs[0]
        for j, pos in enumerate(places):
            if pos is not None:
                set_melds.append([_kind(s, pos), *[None] * (left - 1)])
                places[j] = None
                break
    elif left > 0:
        maxpos = 14 if aces_high else 13
        for i, (_, places) in enumerate(runs):
            while left > 0 and len(places) < 13:
                if starts[i] + len(places) <= maxpos:
                    places.append(None)
                else:
                    places.insert(0, None)
                    starts[i] -= 1
                left -= 1
        # Each spare wild left is unmatched, or takes the place of a cheaper natural card of a run.
        cands = sorted(
            (card_value(_kind(s, pos), aces_high), i, j) for i, (s, places) in enumerate(runs)
            for j, pos in enumerate(places) if pos is not None
        )
        for v, i, j in cands[:left]:
            s, places = runs[i]
            pos = places[j]
            if v < _RANK_VALUE[wild_rank] and pos is not None:
                draft.deadwood.append(_kind(s, pos))
                places[j] = None
    return []


def _runs_with_wilds(draft: _Draft, pool: list[int], wild_rank: int) -> list[list[int]]:
    """Each run's cards, its places without a natural card filled from the wild cards ``pool`` (taken from it): a
    wild card of the run's suit where it stands for itself first, the rest in order."""
    chosen: list[list[int | None]] = []
    for i, (s, places) in enumerate(draft.runs):
        row: list[int | None] = []
        for j, pos in enumerate(places):
            if pos is not None:
                row.append(_kind(s, pos))
                continue
            own = s * 13 + wild_rank - 1
            if draft.starts[i] + j == wild_rank and own in pool:
                pool.remove(own)
                row.append(own)
            else:
                row.append(None)
        chosen.append(row)
    return [[c if c is not None else pool.pop() for c in row] for row in chosen]


def go_out_discards(
    hand: Sequence[int], wild_rank: int, aces_high: bool = False, all_wild_melds: bool = True
) -> tuple[int, ...]:
    """Sorted distinct kinds ``d`` such that ``hand`` less one ``d`` melds completely, so discarding ``d`` goes out
    (T8).  One search, allowing exactly one card left over.

    The empty hand has no discard; a one-card hand may discard its card (nothing is left, trivially melded, as
    ``min_penalty([]) == 0``).

    >>> go_out_discards([0, 1, 2, 3, 20], wild_rank=13)    # A-2-3-4 of clubs: the 8 of diamonds goes
    (20,)
    >>> go_out_discards([0, 1, 2, 3, 20, 21], wild_rank=13)
    ()
    >>> go_out_discards([2, 15, 28, 40], wild_rank=3), go_out_discards([2, 15, 28, 40], wild_rank=3,
    ...                                                                 all_wild_melds=False)   # 3C 3D 3H 2S
    ((2, 15, 28, 40), (2, 15, 28))
    """
    _check_wild_rank(wild_rank)
    arr = _as_array(hand)
    mask = int(_solve_out(arr, wild_rank, bool(aces_high)))
    if mask < 0:
        raise _bad_hand(hand)
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    if out and not all_wild_melds and arr.shape[0] > 1:
        # T7 forbidden: no way out that leaves wild cards only (the module docstring: the only change).
        naturals = _naturals(arr, wild_rank, 2)
        if len(naturals) <= 1:
            return tuple(k for k in out if k not in naturals) if naturals else ()
    return tuple(out)


def is_meld(cards: Sequence[int], wild_rank: int, aces_high: bool = False, all_wild_melds: bool = True) -> bool:
    """Whether ``cards`` form one meld (T7): a set or a run (T2), wild cards standing for any card.

    With ``all_wild_melds`` false, some card must not be of the wild rank (T7): a card of the wild rank used as
    itself does not count.

    >>> is_meld([11, 12, 0], wild_rank=5), is_meld([11, 12, 0], wild_rank=5, aces_high=True)
    (False, True)
    >>> is_meld([4, 17, 30], wild_rank=5), is_meld([4, 17, 30], wild_rank=5, all_wild_melds=False)   # three fives
    (True, False)
    """
    _check_wild_rank(wild_rank)
    kinds = [int(k) for k in cards]
    if any(not 0 <= k < 52 for k in kinds):
        raise _bad_hand(cards)
    n = len(kinds)
    if n < 3:
        return False
    naturals = [k for k in kinds if k % 13 + 1 != wild_rank]
    if not naturals:
        return bool(all_wild_melds)  # wild cards only: a set (of the wild rank, say), unless forbidden (T7)
    # A set: every natural card has one rank r; the wild cards stand for cards of rank r.
    if len({k % 13 for k in naturals}) == 1:
        return True
    # A run: one suit, n consecutive positions within 1..13 (or 2..14 with a high ace); wild cards fill the rest.
    if n > 13:
        return False
    if len({k // 13 for k in naturals}) > 1:
        return False
    maxpos = 14 if aces_high else 13
    for start in range(1, maxpos - n + 2):
        window = range(start, start + n)
        taken: set[int] = set()
        ok = True
        for k in naturals:
            rank = k % 13 + 1
            pos = 14 if rank == 1 and 14 in window else rank
            if pos not in window or pos in taken:
                ok = False
                break
            taken.add(pos)
        if ok:
            return True
    return False


def warm_up() -> None:
    """Compile (or load from the disk cache) every kernel, so the first real call is fast.

    >>> warm_up()
    """
    for aces_high in (False, True):
        min_penalty([0, 1, 2, 12], 13, aces_high)
        arrange([0, 1, 2, 12], 13, aces_high)
        go_out_discards([0, 1, 2, 12], 13, aces_high)
