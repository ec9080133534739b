"""Three Thirteen's compiled kernel (docs/kernels.md): rules T1–T13 on one flat ``int16`` row per game,
numba-compiled, with every option of the game (``decks``, ``aces``, ``all_wild_melds``, ``stock_out``, ``dealer``,
``turn_limit``).

The row holds everything the reference engine's state does except the log and the previous round's arrangements
(no observation shows them): hands, the cards known in each hand (T13), the cards laid by the seats that went out
and the stock candidates after a reshuffle as counts per card kind (a hand is a multiset: its order never matters);
the stock (top last) and the discard pile (bottom first) as :mod:`.rules` keeps them; the running totals; and the
order of the latest shuffle (so that a kernel's game becomes a record). Every shuffle, each round's deal and each
reshuffle of the discard pile (T10), draws from the game's own ``uint64`` key. The stock, the pile and the latest
shuffle take ``52 * decks`` entries each at the row's end, so a row's size depends on the option ``decks``.

Going out (T8) and the penalty of unmatched cards (T11) call the exact meld solver of :mod:`.melds` (its compiled
searches), with the same corrections for ``all_wild_melds=forbidden`` as its Python functions make. The ways out of
the hand to move are cached in the row until that hand changes, as the engine caches them.

The random policy takes a way out whenever one is legal (``Game.eager_actions``, as the ``random`` bot does), so
random games end. The heuristic policy is the greedy player of :func:`.heuristic.playout_action` (the one the search's
playouts use), its random draws taken from the key instead of a ``random.Random``;
``tests/games/three_thirteen/test_kernel.py`` checks it against the Python function, fed the same numbers.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import DreizehnError
from dreizehn.core.kernel import (
    FINISHED,
    GAME_OVER,
    HEURISTIC,
    ILLEGAL,
    OK,
    OUT_OF_RANGE,
    STAGE_OVER,
    CompiledKernel,
    Keys,
    Masks,
    Observations,
    States,
    below,
    next_u64,
    shuffle,
)
from dreizehn.core.scaffold import batch_functions
from dreizehn.games.three_thirteen import heuristic as python_heuristic
from dreizehn.games.three_thirteen.melds import _out_marks, _solve_min
from dreizehn.games.three_thirteen.rules import (
    DISCARD,
    DRAW,
    KINDS,
    OUT,
    ROUNDS,
    TAKE,
    ThreeThirteenRules,
    refusal,
)

MAX_SEATS = 8
ACTIONS = OUT + KINDS
WORD = 1 << 15
"""Numbers that may pass an ``int16`` (``turn_limit`` up to 100,000 and the turns played) take two entries: high
and low word."""

# The row's header, one field after the other.
(PLAYERS, DECKS, ACES_HIGH, ALL_WILD, END_ROUND, LIMIT, _LIMIT_LOW, FIRST_DEALER, TURN, DEALER, ROUND, DRAWN,
 TURNS_LEFT, PLAYED, _PLAYED_LOW, STOCK_N, PILE_N, OUTS_SEEN, RESHUFFLED, OUTS_OK, OUTS, _O1, _O2, _O3,
 LAST_ACTION, TAKEN, SHUFFLES, DEAL_N) = range(28)
# Per seat, ``MAX_SEATS`` blocks of 52 counts (or one number per seat).
HANDS = 28
HAND_SIZES = HANDS + MAX_SEATS * KINDS
KNOWN = HAND_SIZES + MAX_SEATS
LAID = KNOWN + MAX_SEATS * KINDS
OUT_ORDER = LAID + MAX_SEATS * KINDS
CANDIDATES = OUT_ORDER + MAX_SEATS
TOTALS = CANDIDATES + MAX_SEATS * KINDS
LAST = TOTALS + MAX_SEATS
STOCK = LAST + MAX_SEATS
"""The stock (top last), then the discard pile (bottom first), then the latest shuffle (top first): ``52 * decks``
entries each."""

_VALUE_LOW = np.array(python_heuristic._VALUE, np.int64)
"""Penalty points per kind, aces low (T11): what the greedy player weighs under either ace rule."""
_RANK_VALUE = np.array((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), np.int64)
_TAKE_SKIP = python_heuristic.TAKE_SKIP
_UNIT = 1.0 / 9007199254740992.0


def size_of(decks: int) -> int:
    """The entries of a row of a game with ``decks`` decks."""
    return STOCK + 3 * KINDS * decks


@nb.njit(cache=True)
def _get2(s: npt.NDArray[np.int16], at: int) -> int:  # pragma: no cover - compiled
    return int(s[at]) * WORD + int(s[at + 1])


@nb.njit(cache=True)
def _set2(s: npt.NDArray[np.int16], at: int, value: int) -> None:  # pragma: no cover - compiled
    s[at] = value // WORD
    s[at + 1] = value % WORD


@nb.njit(cache=True)
def _uniform(key: Keys) -> float:  # pragma: no cover - compiled
    """A float in [0, 1) with 53 random bits."""
    return float((next_u64(key) >> np.uint64(11)) * _UNIT)


# -- the meld solver ------------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def _hand(s: npt.NDArray[np.int16], seat: int) -> npt.NDArray[np.int64]:  # pragma: no cover - compiled
    """The hand of ``seat`` as sorted kinds, what the meld solver takes."""
    cards = np.empty(s[HAND_SIZES + seat], np.int64)
    at = HANDS + seat * KINDS
    i = 0
    for k in range(KINDS):
        for _ in range(s[at + k]):
            cards[i] = k
            i += 1
    return cards


@nb.njit(cache=True)
def _naturals(s: npt.NDArray[np.int16], seat: int, wild: int) -> int:  # pragma: no cover - compiled
    """How many cards of the hand are not of the wild rank, and the kind of the first (as ``kind * 64 + count``),
    counted up to two."""
    at = HANDS + seat * KINDS
    found = 0
    first = 0
    for k in range(KINDS):
        if s[at + k] and k % 13 + 1 != wild:
            if found == 0:
                first = k
            found += s[at + k]
            if found >= 2:
                return first * 64 + 2
    return first * 64 + found


@nb.njit(cache=True)
def penalty(s: npt.NDArray[np.int16], seat: int) -> int:  # pragma: no cover - compiled
    """The fewest penalty points of the hand of ``seat`` (T11), as :func:`.melds.min_penalty` gives them."""
    wild = int(s[ROUND]) + 3
    cards = _hand(s, seat)
    best = int(_solve_min(cards, wild, s[ACES_HIGH] != 0, False, np.zeros((1, 4), np.int64),
                          np.zeros(1, np.int64)))
    if best == 0 and s[ALL_WILD] == 0 and cards.shape[0] and _naturals(s, seat, wild) % 64 == 0:
        return int(cards.shape[0] * _RANK_VALUE[wild])  # T7 forbidden: wild cards alone make no meld
    return best


@nb.njit(cache=True)
def _scan(s: npt.NDArray[np.int16], seat: int, wild: int) -> int:  # pragma: no cover - compiled
    """The number of wild cards of ``seat``, or -1 on a quick proof that the hand cannot go out.

    The proof: a natural card with no *partner* (another natural card of its rank, or of its suit at most
    ``wilds + 1`` ranks away, a high ace beside the king under ``aces=low-or-high``) shares no meld with another
    natural card, so it is unmatched or the only natural card of a meld, which then holds two wild cards. Going out
    leaves one card unmatched (T8): with ``lone`` such cards it needs ``2 * (lone - 1)`` wild cards. Bit masks per
    suit (bit ``rank``, and bit 14 for a high ace); a card's partners in its suit are the bits of its suit's mask
    shifted by 1 to ``wilds + 1``."""
    at = HANDS + seat * KINDS
    wilds = 0
    suits = 0  # bit suit * 16 + rank: a natural card held
    seen = 0  # bit rank: one natural card of the rank held
    many = 0  # bit rank: two or more
    for suit in range(4):
        for rank in range(1, 14):
            c = s[at + suit * 13 + rank - 1]
            if c == 0:
                continue
            if rank == wild:
                wilds += c
                continue
            suits |= 1 << (suit * 16 + rank)
            if c >= 2 or (seen >> rank) & 1:
                many |= 1 << rank
            seen |= 1 << rank
    high = s[ACES_HIGH] != 0
    lone = 0
    for suit in range(4):
        mask = (suits >> (suit * 16)) & 0x3FFE
        if mask == 0:
            continue
        if high and mask & 2:
            mask |= 1 << 14
        near = 0
        for d in range(1, min(wilds + 1, 13) + 1):
            near |= (mask >> d) | (mask << d)
        single = mask & ~near & ~many & 0x3FFE
        if high and single & 2 and (near >> 14) & 1:
            single &= ~2
        lone += _bits(single)
    return -1 if 2 * (lone - 1) > wilds else wilds


@nb.njit(cache=True)
def _outs_of(s: npt.NDArray[np.int16], seat: int) -> int:  # pragma: no cover - compiled
    """The kinds ``seat`` may discard to go out (T8) as bits, as :func:`.melds.go_out_discards` gives them."""
    wild = int(s[ROUND]) + 3
    wilds = _scan(s, seat, wild)
    if wilds < 0:
        return 0
    work = np.zeros(192, np.int64)  # the solver's natural cards (index suit * 16 + rank), isolated cards and marks
    at = HANDS + seat * KINDS
    for suit in range(4):
        for rank in range(1, 14):
            if rank != wild:
                work[suit * 16 + rank] = s[at + suit * 13 + rank - 1]
    _out_marks(work[:64], wilds, 14 if s[ACES_HIGH] != 0 else 13, work[64:128], work[128:])
    mask = 0
    for suit in range(4):
        for rank in range(1, 14):
            k = suit * 13 + rank - 1
            if s[at + k] and (work[128] != 0 or work[128 + suit * 16 + rank] != 0):  # [128]: any card may go
                mask |= 1 << k
    if mask and s[ALL_WILD] == 0 and s[HAND_SIZES + seat] > 1:
        naturals = _naturals(s, seat, wild)
        if naturals % 64 == 0:  # T7 forbidden: no way out that leaves wild cards only
            return 0
        if naturals % 64 == 1:
            mask &= ~(1 << (naturals // 64))
    return mask


@nb.njit(cache=True)
def _cached_outs(s: npt.NDArray[np.int16]) -> int:  # pragma: no cover - compiled
    """The ways out of the seat to move as bits, from the row's cache when it holds them (the row unchanged)."""
    if s[OUTS_OK]:
        return int(s[OUTS]) | int(s[OUTS + 1]) << 13 | int(s[OUTS + 2]) << 26 | int(s[OUTS + 3]) << 39
    return _outs_of(s, s[TURN])


@nb.njit(cache=True)
def outs(s: npt.NDArray[np.int16]) -> int:  # pragma: no cover - compiled
    """The ways out of the seat to move, once it has drawn (bit ``k``: ``out k`` is legal), cached in the row."""
    if s[OUTS_OK]:
        return _cached_outs(s)
    mask = _outs_of(s, s[TURN])
    for i in range(4):
        s[OUTS + i] = (mask >> (13 * i)) & 0x1FFF
    s[OUTS_OK] = 1
    return mask


# -- the rules ------------------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def _clear_round(s: npt.NDArray[np.int16]) -> None:  # pragma: no cover - compiled
    """Empty hands, stock and pile, and forget what this round made known."""
    for i in range(HANDS, TOTALS):
        s[i] = 0
    s[STOCK_N] = 0
    s[PILE_N] = 0
    s[DRAWN] = 0
    s[TURNS_LEFT] = -1
    _set2(s, PLAYED, 0)
    s[OUTS_SEEN] = 0
    s[RESHUFFLED] = 0
    s[OUTS_OK] = 0


@nb.njit(cache=True)
def deal(s: npt.NDArray[np.int16]) -> None:  # pragma: no cover - compiled
    """Deal the order in the row's shuffle block (top first) as T3–T5 say: r + 2 cards each, one at a time from the
    dealer's left; the next card starts the discard pile, the rest is the stock (its top the first card left)."""
    n = s[PLAYERS]
    cards = KINDS * s[DECKS]
    deal_at = STOCK + 2 * cards
    size = s[ROUND] + 3
    _clear_round(s)
    first = (s[DEALER] + 1) % n
    for i in range(size * n):
        seat = (first + i) % n
        s[HANDS + seat * KINDS + s[deal_at + i]] += 1
        s[HAND_SIZES + seat] += 1
    s[STOCK + cards] = s[deal_at + size * n]
    s[PILE_N] = 1
    rest = cards - size * n - 1
    for j in range(rest):
        s[STOCK + j] = s[deal_at + cards - 1 - j]
    s[STOCK_N] = rest
    s[TURN] = first


@nb.njit(cache=True)
def deal_random(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """Shuffle the whole deck (each kind ``decks`` times, in kind order) from ``key``, and deal it."""
    decks = s[DECKS]
    cards = KINDS * decks
    deal_at = STOCK + 2 * cards
    for i in range(cards):
        s[deal_at + i] = i // decks
    shuffle(key, s[deal_at : deal_at + cards], cards)
    s[DEAL_N] = cards
    s[SHUFFLES] = (s[SHUFFLES] + 1) % WORD
    deal(s)


@nb.njit(cache=True)
def new_game(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """Start a game in a row whose header is set: the first dealer (T4, drawn from ``key`` when random), round 1."""
    n = s[PLAYERS]
    s[DEALER] = s[FIRST_DEALER] if s[FIRST_DEALER] >= 0 else below(key, n)
    s[ROUND] = 0
    s[LAST_ACTION] = -1
    s[TAKEN] = -1
    for seat in range(MAX_SEATS):
        s[TOTALS + seat] = 0
        s[LAST + seat] = 0
    deal_random(s, key)


@nb.njit(cache=True)
def reshuffle(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """T10: the discard pile less its top card, sorted by kind, is shuffled from ``key`` into a new stock; every
    seat's stock candidates are those cards."""
    n = s[PLAYERS]
    cards = KINDS * s[DECKS]
    pile = STOCK + cards
    deal_at = pile + cards
    m = s[PILE_N] - 1
    counts = np.zeros(KINDS, np.int64)
    for j in range(m):
        counts[s[pile + j]] += 1
    i = 0
    for k in range(KINDS):
        for seat in range(n):
            s[CANDIDATES + seat * KINDS + k] = counts[k]
        for _ in range(counts[k]):
            s[deal_at + i] = k
            i += 1
    shuffle(key, s[deal_at : deal_at + m], m)
    s[DEAL_N] = m
    s[SHUFFLES] = (s[SHUFFLES] + 1) % WORD
    for j in range(m):
        s[STOCK + j] = s[deal_at + m - 1 - j]
    s[STOCK_N] = m
    s[pile] = s[pile + m]
    s[PILE_N] = 1
    s[RESHUFFLED] = 1


@nb.njit(cache=True)
def round_end(s: npt.NDArray[np.int16], key: Keys) -> int:  # pragma: no cover - compiled
    """T11, T12: score every hand at its fewest penalty points (0 for a seat that went out); deal the next round
    from ``key``, or end the game after the eleventh."""
    n = s[PLAYERS]
    for seat in range(n):
        s[LAST + seat] = 0 if s[OUT_ORDER + seat] else penalty(s, seat)
        s[TOTALS + seat] += s[LAST + seat]
    s[ROUND] += 1
    if s[ROUND] == ROUNDS:
        _clear_round(s)
        s[TURN] = -1
        return GAME_OVER
    s[DEALER] = (s[DEALER] + 1) % n  # T4
    deal_random(s, key)
    return STAGE_OVER


@nb.njit(cache=True)
def legal(s: npt.NDArray[np.int16], mask: Masks) -> None:  # pragma: no cover - compiled
    """The legal actions of the seat to move (T6, T8, T10), as the engine lists them."""
    mask[:] = False
    turn = s[TURN]
    if turn < 0:
        return
    if not s[DRAWN]:
        mask[DRAW] = s[STOCK_N] > 0 or s[END_ROUND] != 0 or s[PILE_N] > 1
        mask[TAKE] = True
        return
    at = HANDS + turn * KINDS
    for k in range(KINDS):
        mask[DISCARD + k] = s[at + k] > 0
    ways = outs(s)
    for k in range(KINDS):
        mask[OUT + k] = (ways >> k) & 1 == 1


@nb.njit(cache=True)
def _draw(s: npt.NDArray[np.int16], action: int, key: Keys) -> int:  # pragma: no cover - compiled
    """``draw`` or ``take`` (T6, T10) for the seat to move, which has not drawn yet."""
    turn = s[TURN]
    if action == DRAW:
        if s[STOCK_N] == 0:
            if s[END_ROUND]:  # T10 end-round: the round ends before the draw
                s[LAST_ACTION] = DRAW
                return round_end(s, key)
            if s[PILE_N] < 2:
                return ILLEGAL
            reshuffle(s, key)
        s[STOCK_N] -= 1
        card = s[STOCK + s[STOCK_N]]
        if s[RESHUFFLED]:
            s[CANDIDATES + turn * KINDS + card] -= 1
        s[TAKEN] = -1
    else:
        if s[PILE_N] == 0:
            return ILLEGAL
        s[PILE_N] -= 1
        card = s[STOCK + KINDS * s[DECKS] + s[PILE_N]]
        s[KNOWN + turn * KINDS + card] += 1
        before = s[LAST_ACTION]
        s[TAKEN] = card if before >= DISCARD and (before - DISCARD) % KINDS == card else -1
    s[HANDS + turn * KINDS + card] += 1
    s[HAND_SIZES + turn] += 1
    s[DRAWN] = 1
    s[OUTS_OK] = 0
    s[LAST_ACTION] = action
    return OK


@nb.njit(cache=True)
def apply(s: npt.NDArray[np.int16], action: int, key: Keys) -> int:  # pragma: no cover - compiled
    """Play ``action`` for the seat to move (T6–T10), scoring the round and dealing the next from ``key`` when it
    ends. Returns a status of :mod:`dreizehn.core.kernel`; a refusal changes nothing."""
    if action < 0 or action >= ACTIONS:
        return OUT_OF_RANGE
    turn = s[TURN]
    if turn < 0:
        return FINISHED
    if action < DISCARD:
        if s[DRAWN]:
            return ILLEGAL
        return _draw(s, action, key)
    if not s[DRAWN]:
        return ILLEGAL
    going_out = action >= OUT
    kind = action - OUT if going_out else action - DISCARD
    hand = HANDS + turn * KINDS
    if s[hand + kind] == 0:
        return ILLEGAL
    if going_out and not (_cached_outs(s) >> kind) & 1:
        return ILLEGAL
    s[hand + kind] -= 1
    s[HAND_SIZES + turn] -= 1
    pile = STOCK + KINDS * s[DECKS]
    s[pile + s[PILE_N]] = kind
    s[PILE_N] += 1
    if s[KNOWN + turn * KINDS + kind] > 0:
        s[KNOWN + turn * KINDS + kind] -= 1
    s[DRAWN] = 0
    s[OUTS_OK] = 0
    s[LAST_ACTION] = action
    n = s[PLAYERS]
    if going_out:  # T8: lay every other card in melds
        for k in range(KINDS):
            s[LAID + turn * KINDS + k] = s[hand + k]
            s[hand + k] = 0
            s[KNOWN + turn * KINDS + k] = 0
        s[HAND_SIZES + turn] = 0
        s[OUTS_SEEN] += 1
        s[OUT_ORDER + turn] = s[OUTS_SEEN]
        if s[TURNS_LEFT] < 0:  # T9: every other player has one more turn
            s[TURNS_LEFT] = n
    played = _get2(s, PLAYED) + 1
    _set2(s, PLAYED, played)
    if s[TURNS_LEFT] > 0:
        s[TURNS_LEFT] -= 1
        if s[TURNS_LEFT] == 0:
            return round_end(s, key)
    if played == _get2(s, LIMIT):  # T10 turn_limit: the round ends before the next turn
        return round_end(s, key)
    s[TURN] = (turn + 1) % n
    return OK


@nb.njit(cache=True)
def observe(s: npt.NDArray[np.int16], seat: int, out: Observations) -> None:  # pragma: no cover - compiled
    """The observation of ``seat`` (docs/envs.md, :mod:`.encoder`): relative seats, counts per card kind."""
    out[:] = 0.0
    n = s[PLAYERS]
    turn = s[TURN]
    if turn >= 0:
        out[(turn - seat) % n] = 1.0
    out[n + min(s[ROUND], ROUNDS - 1)] = 1.0
    totals = n + ROUNDS
    dealer = totals + n
    wild_rank = dealer + n
    hand = wild_rank + 13
    sizes = hand + KINDS
    stock = sizes + n
    top = stock + 1
    pile = top + KINDS
    drawn = pile + KINDS
    known = drawn + 1
    went_out = known + n * KINDS
    laid = went_out + n
    turns_left = laid + n * KINDS
    candidates = turns_left + 2
    out[dealer + (s[DEALER] - seat) % n] = 1.0
    out[wild_rank + min(s[ROUND], ROUNDS - 1) + 2] = 1.0
    for i in range(n):
        other = (seat + i) % n
        out[totals + i] = s[TOTALS + other]
        out[sizes + i] = s[HAND_SIZES + other]
        out[went_out + i] = s[OUT_ORDER + other]
        for k in range(KINDS):
            out[known + i * KINDS + k] = s[KNOWN + other * KINDS + k]
            out[laid + i * KINDS + k] = s[LAID + other * KINDS + k]
    for k in range(KINDS):
        out[hand + k] = s[HANDS + seat * KINDS + k]
        if s[RESHUFFLED]:
            out[candidates + k] = s[CANDIDATES + seat * KINDS + k]
    out[stock] = s[STOCK_N]
    pile_at = STOCK + KINDS * s[DECKS]
    if s[PILE_N]:
        out[top + s[pile_at + s[PILE_N] - 1]] = 1.0
    for j in range(s[PILE_N]):
        out[pile + s[pile_at + j]] += 1.0
    out[drawn] = s[DRAWN]
    out[turns_left] = s[TURNS_LEFT]
    limit = _get2(s, LIMIT)
    if limit:
        out[turns_left + 1] = limit - _get2(s, PLAYED)


# -- the policies ---------------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def random_action(s: npt.NDArray[np.int16], key: Keys) -> int:  # pragma: no cover - compiled
    """The ``random`` bot's action: a way out drawn uniformly whenever there is one (the game's eager actions), else
    any legal action drawn uniformly. The same draw as ``pick_legal`` over the legal actions (or the ways out), with
    no mask written."""
    if not s[DRAWN]:
        if s[STOCK_N] > 0 or s[END_ROUND] != 0 or s[PILE_N] > 1:
            return int(np.int64(below(key, 2)))  # below gives a uint64
        below(key, 1)
        return TAKE
    ways = outs(s)
    if ways:
        r = np.int64(below(key, _bits(ways)))
        for k in range(KINDS):
            if (ways >> k) & 1:
                if r == 0:
                    return int(OUT + k)
                r -= 1
    at = HANDS + s[TURN] * KINDS
    held = 0
    for k in range(KINDS):
        held += s[at + k] > 0
    r = np.int64(below(key, held))
    for k in range(KINDS):
        if s[at + k] > 0:
            if r == 0:
                return int(DISCARD + k)
            r -= 1
    return -1


@nb.njit(cache=True)
def _bits(mask: int) -> int:  # pragma: no cover - compiled
    """How many bits of ``mask`` are set."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@nb.njit(cache=True)
def _partners(s: npt.NDArray[np.int16], at: int, kind: int, wild: int) -> float:  # pragma: no cover - compiled
    """How much ``kind`` builds melds with the natural cards of the hand at ``at`` (the greedy player's
    ``_partners``)."""
    rank = kind % 13
    suit = kind - rank
    total = -1.0
    for other in range(KINDS):
        c = s[at + other]
        if c == 0:
            continue
        r = other % 13
        if r + 1 == wild:
            continue
        if r == rank:
            total += 1.0 * c
        elif other - r == suit:
            gap = r - rank
            if gap == 1 or gap == -1:
                total += 1.0 * c
            elif gap == 2 or gap == -2:
                total += 0.5 * c
    return total


@nb.njit(cache=True)
def _takes(s: npt.NDArray[np.int16], at: int, top: int, wild: int) -> bool:  # pragma: no cover - compiled
    """Whether ``top`` completes a meld of three with the hand at ``at`` (the greedy player's ``_takes``)."""
    rank = top % 13
    suit = top - rank
    wilds = 0
    same = 0
    near = 0
    for other in range(KINDS):
        c = s[at + other]
        if c == 0:
            continue
        r = other % 13
        if r + 1 == wild:
            wilds += c
        elif r == rank:
            same += c
        elif other - r == suit and -2 <= r - rank <= 2:
            near |= 1 << (r - rank + 2)
    if same >= 2 or (same and wilds):
        return True
    for low in range(-2, 1):
        if rank + low < 0 or rank + low + 2 > 12:
            continue
        missing = 0
        for d in range(low, low + 3):
            if d != 0 and not (near >> (d + 2)) & 1:
                missing += 1
        if missing == 0 or (missing == 1 and wilds):
            return True
    return False


@nb.njit(cache=True)
def heuristic_action(s: npt.NDArray[np.int16], key: Keys) -> int:  # pragma: no cover - compiled
    """The greedy player's action (:func:`.heuristic.playout_action`), its random numbers drawn from ``key``."""
    turn = s[TURN]
    wild = s[ROUND] + 3
    at = HANDS + turn * KINDS
    if not s[DRAWN]:
        if s[PILE_N]:
            top = s[STOCK + KINDS * s[DECKS] + s[PILE_N] - 1]
            if top % 13 + 1 == wild or (_takes(s, at, top, wild) and _uniform(key) >= _TAKE_SKIP):
                return TAKE
        if s[STOCK_N] > 0 or s[END_ROUND] != 0 or s[PILE_N] > 1:
            return DRAW
        return TAKE
    ways = outs(s)
    if ways:
        best = -1
        for k in range(KINDS):
            if (ways >> k) & 1 and (best < 0 or _VALUE_LOW[k] >= _VALUE_LOW[best]):
                best = k
        return int(OUT + best)
    best = -1
    best_score = 0.0
    highest = 0
    for k in range(KINDS):
        if s[at + k] == 0:
            continue
        highest = k
        if k == s[TAKEN] or k % 13 + 1 == wild:
            continue
        score = _partners(s, at, k, wild) * 10.0 - _VALUE_LOW[k] + _uniform(key) * 0.5
        if best < 0 or score < best_score:
            best = k
            best_score = score
    return int(DISCARD + (highest if best < 0 else best))


@nb.njit(cache=True)
def playout(s: npt.NDArray[np.int16], key: Keys, policy: int) -> None:  # pragma: no cover - compiled
    """Play the game to its end, every seat at random or by the greedy player."""
    while s[TURN] >= 0:
        action = heuristic_action(s, key) if policy == HEURISTIC else random_action(s, key)
        apply(s, action, key)


# -- batches --------------------------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")  # no call of its own in the loops: see the docstring
def legal_into(s: npt.NDArray[np.int16], mask: Masks, buffer: npt.NDArray[np.int64]) -> None:  # pragma: no cover
    """:func:`legal`, in the form the shared loops call (``buffer`` unused); inlined by numba where it is called, as
    a compiled call of its own around :func:`legal` made 13's batched legal masks 1.18 times slower (4,096 rows: 70
    ns a row against 59, CPU time, best of 1,000 calls)."""
    legal(s, mask)


BATCHES = batch_functions("three-thirteen", new_game=new_game, apply=apply, legal_into=legal_into, observe=observe,
                          heuristic_action=heuristic_action, random_action=random_action, playout=playout, TURN=TURN,
                          ACTIONS=ACTIONS)
"""The batch functions of :class:`~dreizehn.core.kernel.CompiledKernel`, compiled from the shared templates
(:func:`dreizehn.core.scaffold.batch_functions`)."""


class ThreeThirteenKernel(CompiledKernel):
    """Three Thirteen's kernel for one game's player count and options (the :class:`~dreizehn.core.kernel.Kernel`
    protocol)."""

    num_actions = ACTIONS
    turn, totals_at, last_at = TURN, TOTALS, LAST
    batches = BATCHES

    def __init__(self, game: ThreeThirteenRules) -> None:
        options = game.options
        self.game = game
        self.players = game.players
        self.state_size = size_of(game.decks)
        self.obs_size = encoder_of(game).observation_layout.size
        header = np.zeros(self.state_size, np.int16)
        header[PLAYERS] = game.players
        header[DECKS] = game.decks
        header[ACES_HIGH] = options["aces"] == "low-or-high"
        header[ALL_WILD] = options["all_wild_melds"] == "allowed"
        header[END_ROUND] = options["stock_out"] == "end-round"
        _set2(header, LIMIT, int(options["turn_limit"]))
        dealer = options["dealer"]
        header[FIRST_DEALER] = -1 if dealer == "random" else int(dealer)
        header[TURN] = -1
        self._header = header









    def shuffle_count(self, states: States) -> npt.NDArray[np.int64]:
        """How many shuffles each game has made (modulo 2**15): a step that changes it made one, a deal or a
        reshuffle of the discard pile (T10), whose order :meth:`last_deal` gives."""
        return states[:, SHUFFLES].astype(np.int64)

    def refusal(self, state: npt.NDArray[np.int16], action: int) -> DreizehnError:
        """The rules' refusal (:func:`~dreizehn.games.three_thirteen.rules.refusal`), asked with what the row
        holds."""
        seat = int(state[TURN])
        held = action >= DISCARD and bool(state[HANDS + seat * KINDS + (action - DISCARD) % KINDS])
        return refusal(seat, action, bool(state[DRAWN]), held)

    def resolved_options(self, state: npt.NDArray[np.int16]) -> dict[str, object]:
        """The game's options with the first dealer as drawn (T4): the deal passes one seat a round."""
        first = int((state[DEALER] - state[ROUND] + (state[TURN] < 0)) % self.players)
        return {**self.game.options, "dealer": first}

    def last_deal(self, state: npt.NDArray[np.int16]) -> list[int]:
        at = STOCK + 2 * KINDS * int(state[DECKS])
        return [int(c) for c in state[at : at + int(state[DEAL_N])]]


def make(game: ThreeThirteenRules) -> ThreeThirteenKernel:
    """The kernel of ``game`` (its player count and options)."""
    return ThreeThirteenKernel(game)
