"""Der dreizehnte Holzwurm's compiled kernel (docs/vector.md): rules H5–H16 on one flat ``int16`` row per game,
numba-compiled.

The row holds everything the reference engine's state does except the log: each hand and each seat's known cards
(H17) as one flag per card number (a hand also as one bit word per colour, for the legal plays), the five row slots
with their cards in play order and their colours (-1 for an open row or an empty slot, as :mod:`.rules` keeps
them), the fate row bottom first (its top last), the plays and takes of the game in progress (what the heuristic
reads of the history), the running totals, and the order of the latest shuffle (so that a kernel's game becomes a
record). Every shuffle, and a random starting seat, draws from the game's own ``uint64`` key.

The heuristic here is :mod:`.heuristic`'s, the same scores to the bit, its ties broken by the key instead of a
``random.Random``; ``tests/kernels`` checks both against the reference engine, and
``tests/games/holzwurm/test_kernel.py`` against the Python heuristic.
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
    below,
    pick_legal,
    shuffle,
)
from dreizehn.core.scaffold import batch_functions
from dreizehn.games.holzwurm import heuristic as python_heuristic
from dreizehn.games.holzwurm.rules import (
    BONUS,
    CARD_COLOUR,
    CARD_POINTS,
    CARD_VALUE,
    FATE_SIZE,
    GREY,
    NEW,
    SLOTS,
    THIRTEEN,
    WOODWORMS,
    HolzwurmRules,
    refusal,
)

MAX_SEATS = 6
KINDS = 66
"""Card numbers: the 65 woodworm cards and the thirteen (H1, H2)."""
WOODS = 65
ACTIONS = 390
ROW_ROOM = 11
"""Cards a row can hold: a card joins a row only while its value (at most 11) exceeds the row's length (H12)."""
FATE_ROOM = FATE_SIZE + 1
WORDS = 6
"""A hand is also kept as one bit word per colour (grey last): bit ``k - _BASE[colour]`` for card ``k``, so that
the legal plays are counted and drawn a colour at a time."""

# The row's fields, one after the other.
PLAYERS, TURN, STARTER, STAGE, STAGES, FIRST_STARTER, PLAYS, TAKES, FATE_N, OCCUPIED, OPEN_ROWS = range(11)
"""``OCCUPIED`` and ``OPEN_ROWS``: the slots holding a row, and those of them still open (H11), as bit masks."""
HAND_SIZES = 11
ROW_LEN = HAND_SIZES + MAX_SEATS
ROW_COLOUR = ROW_LEN + SLOTS
COLOUR_ROW = ROW_COLOUR + SLOTS
HAND_BITS = COLOUR_ROW + 5
HANDS = HAND_BITS + MAX_SEATS * WORDS
KNOWN = HANDS + MAX_SEATS * KINDS
ROWS = KNOWN + MAX_SEATS * KINDS
FATE = ROWS + SLOTS * ROW_ROOM
TOTALS = FATE + FATE_ROOM
LAST = TOTALS + MAX_SEATS
DEAL = LAST + MAX_SEATS
SIZE = DEAL + WOODS

_VALUE = np.array(CARD_VALUE, np.int64)
_COLOUR = np.array(CARD_COLOUR, np.int64)
_POINTS = np.array(CARD_POINTS, np.int64)
_WOODWORMS = np.array(WOODWORMS, np.int16)
_BASE = np.array([colour * 11 for colour in range(5)] + [55], np.int64)
_POP = np.array([bin(word).count("1") for word in range(1 << 11)], np.int64)
_FULL = (1 << SLOTS) - 1
_GO_OUT_PLUS = python_heuristic.GO_OUT_PLUS
_END_HAND = python_heuristic.END_HAND
_TAKE_PLAY = python_heuristic.TAKE_PLAY
_OUT_TAKE = python_heuristic.OUT_TAKE
_OUT_TAKE_CARD = python_heuristic.OUT_TAKE_CARD
_THIRTEEN_MARGIN = python_heuristic.THIRTEEN_MARGIN


@nb.njit(cache=True)
def hand_size(n: int) -> int:  # pragma: no cover - compiled
    """Cards dealt to each player (H6)."""
    return 15 if n <= 4 else 12 if n == 5 else 10


# -- the rules ------------------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def deal(s: npt.NDArray[np.int16]) -> None:  # pragma: no cover - compiled
    """Deal the order in the row's deal block (top first) as H5–H7 say: the top 5 on the thirteen as the fate row,
    sorted by points (the lower card number lower among equal points), then one card at a time clockwise from the
    starting seat; the rest (2 or 3 players) leaves the game unseen. The starting seat moves first."""
    n = s[PLAYERS]
    s[OCCUPIED] = 0
    s[OPEN_ROWS] = 0
    for i in range(HAND_SIZES, FATE):
        s[i] = 0
    for i in range(SLOTS):
        s[ROW_COLOUR + i] = -1
        s[COLOUR_ROW + i] = -1
    s[FATE] = THIRTEEN
    for i in range(FATE_SIZE):  # insertion sort by (points, card number)
        card = s[DEAL + i]
        j = i + 1
        while j > 1 and (_POINTS[s[FATE + j - 1]] > _POINTS[card]
                         or (_POINTS[s[FATE + j - 1]] == _POINTS[card] and s[FATE + j - 1] > card)):
            s[FATE + j] = s[FATE + j - 1]
            j -= 1
        s[FATE + j] = card
    s[FATE_N] = FATE_ROOM
    size = hand_size(n)
    first = s[STARTER]
    for i in range(size * n):
        seat = (first + i) % n
        card = s[DEAL + FATE_SIZE + i]
        s[HANDS + seat * KINDS + card] = 1
        s[HAND_BITS + seat * WORDS + _COLOUR[card]] |= 1 << (card - _BASE[_COLOUR[card]])
    for seat in range(n):
        s[HAND_SIZES + seat] = size
    s[PLAYS] = 0
    s[TAKES] = 0
    s[TURN] = first


@nb.njit(cache=True)
def deal_random(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """Shuffle the 65 woodworm cards from ``key`` into the deal block, and deal them."""
    for i in range(WOODS):
        s[DEAL + i] = _WOODWORMS[i]
    shuffle(key, s[DEAL : DEAL + WOODS], WOODS)
    deal(s)


@nb.njit(cache=True)
def new_game(s: npt.NDArray[np.int16], key: Keys) -> None:  # pragma: no cover - compiled
    """Start a match in a row whose header is set: the first starting seat (H7, drawn from ``key`` when random),
    game 0."""
    n = s[PLAYERS]
    s[STARTER] = s[FIRST_STARTER] if s[FIRST_STARTER] >= 0 else below(key, n)
    s[STAGE] = 0
    for seat in range(MAX_SEATS):
        s[TOTALS + seat] = 0
        s[LAST + seat] = 0
    deal_random(s, key)


@nb.njit(cache=True)
def _occupied(s: npt.NDArray[np.int16]) -> int:  # pragma: no cover - compiled
    """The slots holding a row, as a bit mask."""
    return int(s[OCCUPIED])


@nb.njit(cache=True)
def _colour_destinations(s: npt.NDArray[np.int16], colour: int, occupied: int) -> int:  # pragma: no cover
    """Where a card of ``colour`` (5: grey) may go (H8–H11), as a mask of destinations (bit 5: a new row)."""
    new = 0 if occupied == _FULL else 1 << NEW
    if colour == GREY:
        return int(occupied | new)
    own = s[COLOUR_ROW + colour]
    if own >= 0:
        return int(1 << own)
    return int(s[OPEN_ROWS] | new)


@nb.njit(cache=True)
def _nth_bit(word: int, nth: int) -> int:  # pragma: no cover - compiled
    """The position of the ``nth`` lowest set bit of ``word`` (counted from 0)."""
    for _ in range(nth):
        word &= word - 1
    position = 0
    while not word >> position & 1:
        position += 1
    return position


@nb.njit(cache=True)
def legal_list(s: npt.NDArray[np.int16], out: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """Write the legal plays of the seat to move into ``out`` in action order; their number."""
    turn = s[TURN]
    if turn < 0:
        return 0
    occupied = _occupied(s)
    count = 0
    for colour in range(WORDS):
        word = s[HAND_BITS + turn * WORDS + colour]
        if word == 0:
            continue
        dests = _colour_destinations(s, colour, occupied)
        for bit in range(11):
            if word >> bit & 1:
                kind = _BASE[colour] + bit
                for dest in range(6):
                    if dests >> dest & 1:
                        out[count] = kind * 6 + dest
                        count += 1
    return count


@nb.njit(cache=True)
def legal_into(s: npt.NDArray[np.int16], mask: Masks, buffer: npt.NDArray[np.int64]) -> None:  # pragma: no cover
    """The legal plays of the seat to move (H8–H11) as a mask (``buffer``: room for :func:`legal_list`)."""
    mask[:] = False
    for i in range(legal_list(s, buffer)):
        mask[buffer[i]] = True


@nb.njit(cache=True)
def legal(s: npt.NDArray[np.int16], mask: Masks) -> None:  # pragma: no cover - compiled
    """The legal plays of the seat to move (H8–H11) as a mask."""
    legal_into(s, mask, np.empty(ACTIONS, np.int64))


@nb.njit(cache=True)
def score_stage(s: npt.NDArray[np.int16]) -> None:  # pragma: no cover - compiled
    """Score the game (H15): each hand's points, +30 for the seat that played out; add them to the totals (H16)."""
    n = s[PLAYERS]
    for seat in range(n):
        if s[HAND_SIZES + seat] == 0:
            points = BONUS
        else:
            points = 0
            hand = HANDS + seat * KINDS
            for kind in range(KINDS):
                if s[hand + kind]:
                    points += _POINTS[kind]
        s[LAST + seat] = points
        s[TOTALS + seat] += points


@nb.njit(cache=True)
def _end_game(s: npt.NDArray[np.int16], key: Keys) -> int:  # pragma: no cover - compiled
    """Score the game, then deal the next game of the match from ``key`` (the next seat starts, H7) or end it."""
    score_stage(s)
    s[STAGE] += 1
    if s[STAGE] == s[STAGES]:  # H16
        s[TURN] = -1
        return GAME_OVER
    s[STARTER] = (s[STARTER] + 1) % s[PLAYERS]
    deal_random(s, key)
    return STAGE_OVER


@nb.njit(cache=True)
def _receive(s: npt.NDArray[np.int16], seat: int, card: int) -> None:  # pragma: no cover - compiled
    """``card`` goes face up into the hand of ``seat`` (H12, H17)."""
    s[HANDS + seat * KINDS + card] = 1
    s[KNOWN + seat * KINDS + card] = 1
    if card != THIRTEEN:  # the thirteen ends the game: it is never played
        s[HAND_BITS + seat * WORDS + _COLOUR[card]] |= 1 << (card - _BASE[_COLOUR[card]])


@nb.njit(cache=True)
def _take(s: npt.NDArray[np.int16], turn: int, kind: int, dest: int) -> None:  # pragma: no cover - compiled
    """H12: the seat takes the row in ``dest``, the card it played and the top fate card, all seen by everyone; the
    row leaves the table and its colour is free again."""
    length = s[ROW_LEN + dest]
    for j in range(length):
        _receive(s, turn, s[ROWS + dest * ROW_ROOM + j])
    s[FATE_N] -= 1
    _receive(s, turn, kind)
    _receive(s, turn, s[FATE + s[FATE_N]])
    s[HAND_SIZES + turn] += length + 2
    s[ROW_LEN + dest] = 0
    s[OCCUPIED] &= ~(1 << dest)
    s[OPEN_ROWS] &= ~(1 << dest)
    old = s[ROW_COLOUR + dest]
    if old >= 0:
        s[COLOUR_ROW + old] = -1
        s[ROW_COLOUR + dest] = -1
    s[TAKES] += 1


@nb.njit(cache=True)
def apply(s: npt.NDArray[np.int16], action: int, key: Keys) -> int:  # pragma: no cover - compiled
    """Play ``action`` for the seat to move (H8–H14), dealing the next game from ``key`` when this one ends.
    Returns a status of :mod:`dreizehn.core.kernel`; a refusal changes nothing."""
    turn = s[TURN]
    if turn < 0:
        return FINISHED
    if action < 0 or action >= ACTIONS:
        return OUT_OF_RANGE
    kind = action // 6
    dest = action - kind * 6
    hand = HANDS + turn * KINDS
    occupied = _occupied(s)
    colour = _COLOUR[kind]
    if s[hand + kind] == 0 or not _colour_destinations(s, colour, occupied) >> dest & 1:
        return ILLEGAL
    s[hand + kind] = 0
    s[HAND_BITS + turn * WORDS + colour] &= ~(1 << (kind - _BASE[colour]))
    s[KNOWN + turn * KINDS + kind] = 0
    s[HAND_SIZES + turn] -= 1
    s[PLAYS] += 1
    if dest == NEW:
        slot = 0
        while occupied >> slot & 1:  # the lowest free slot
            slot += 1
        s[ROWS + slot * ROW_ROOM] = kind
        s[ROW_LEN + slot] = 1
        s[OCCUPIED] |= 1 << slot
        if colour < GREY:
            s[ROW_COLOUR + slot] = colour
            s[COLOUR_ROW + colour] = slot
        else:
            s[OPEN_ROWS] |= 1 << slot  # H11
    elif _VALUE[kind] > s[ROW_LEN + dest]:  # H12: the row accepts the card
        s[ROWS + dest * ROW_ROOM + s[ROW_LEN + dest]] = kind
        s[ROW_LEN + dest] += 1
        if colour < GREY and s[ROW_COLOUR + dest] < 0:  # H11: the first coloured card gives an open row its colour
            s[ROW_COLOUR + dest] = colour
            s[COLOUR_ROW + colour] = dest
            s[OPEN_ROWS] &= ~(1 << dest)
    else:
        _take(s, turn, kind, dest)
        if s[FATE_N] == 0:  # H14b: the thirteen was taken
            return _end_game(s, key)
        s[TURN] = (turn + 1) % s[PLAYERS]
        return OK
    if s[HAND_SIZES + turn] == 0:  # H14a: the last hand card was played
        return _end_game(s, key)
    s[TURN] = (turn + 1) % s[PLAYERS]
    return OK


@nb.njit(cache=True)
def observe(s: npt.NDArray[np.int16], seat: int, out: Observations) -> None:  # pragma: no cover - compiled
    """The observation of ``seat`` (docs/envs.md, :mod:`.encoder`): relative seats, one entry per card number."""
    out[:] = 0.0
    n = s[PLAYERS]
    stages = s[STAGES]
    turn = s[TURN]
    if turn >= 0:
        out[(turn - seat) % n] = 1.0
    stage = s[STAGE] if s[STAGE] < stages else stages - 1
    out[n + stage] = 1.0
    totals = n + stages
    starter = totals + n
    out[starter + (s[STARTER] - seat) % n] = 1.0
    hand = starter + n
    sizes = hand + KINDS
    fate = sizes + n
    rows = fate + FATE_ROOM * KINDS
    known = rows + SLOTS * (7 + KINDS)
    removed = known + n * KINDS
    for i in range(n):
        other = (seat + i) % n
        out[totals + i] = s[TOTALS + other]
        out[sizes + i] = s[HAND_SIZES + other]
        for kind in range(KINDS):
            out[known + i * KINDS + kind] = s[KNOWN + other * KINDS + kind]
    for kind in range(KINDS):
        out[hand + kind] = s[HANDS + seat * KINDS + kind]
    for i in range(s[FATE_N]):
        out[fate + i * KINDS + s[FATE + i]] = 1.0
    for slot in range(SLOTS):
        length = s[ROW_LEN + slot]
        if length == 0:
            continue
        at = rows + slot * (7 + KINDS)
        out[at] = 1.0
        colour = s[ROW_COLOUR + slot]
        out[at + 1 + (colour if colour >= 0 else 5)] = 1.0
        for j in range(length):
            out[at + 7 + s[ROWS + slot * ROW_ROOM + j]] = 1.0
    out[removed] = WOODS - FATE_SIZE - hand_size(n) * n


# -- the heuristic --------------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def _best_other(s: npt.NDArray[np.int16], me: int) -> float:  # pragma: no cover - compiled
    """The best opponent's total plus its likely hand points (the heuristic's ``_opponent_estimates``): its known
    cards, and the mean of the cards ``me`` cannot place for the rest."""
    n = s[PLAYERS]
    seen = np.zeros(KINDS, np.bool_)
    for kind in range(KINDS):
        if s[HANDS + me * KINDS + kind]:
            seen[kind] = True
        for seat in range(n):
            if s[KNOWN + seat * KINDS + kind]:
                seen[kind] = True
    for i in range(s[FATE_N]):
        seen[s[FATE + i]] = True
    for slot in range(SLOTS):
        for j in range(s[ROW_LEN + slot]):
            seen[s[ROWS + slot * ROW_ROOM + j]] = True
    total = 0
    unseen = 0
    for kind in range(WOODS):
        if not seen[kind]:
            total += _POINTS[kind]
            unseen += 1
    mean = total / unseen if unseen else 0.0
    best = -np.inf
    for seat in range(n):
        if seat == me:
            continue
        known_points = 0
        known_count = 0
        for kind in range(KINDS):
            if s[KNOWN + seat * KINDS + kind]:
                known_points += _POINTS[kind]
                known_count += 1
        estimate = known_points + mean * (s[HAND_SIZES + seat] - known_count)
        value = s[TOTALS + seat] + estimate
        if value > best:
            best = value
    return float(best)


@nb.njit(cache=True)
def _end_score(s: npt.NDArray[np.int16], me: int, final: int) -> float:  # pragma: no cover - compiled
    """How far ahead of the best opponent ``me`` would be over the match were the game to end now with ``final``
    points for it (the heuristic's ``_end_score``)."""
    lead = (s[TOTALS + me] + final) - _best_other(s, me)
    return float(1000.0 + lead if lead > _THIRTEEN_MARGIN else lead)


@nb.njit(cache=True)
def heuristic_scores(s: npt.NDArray[np.int16], scores: npt.NDArray[np.float64]) -> None:  # pragma: no cover
    """The heuristic's score of every action (:mod:`.heuristic`'s ``act``; ``-inf`` where not legal): a take by what
    the row and the top fate card bring (ending the game on the thirteen only when that wins), a play by the card's
    points, or in "go out" by its value over the row's length; the last card +30."""
    scores[:] = -np.inf
    me = s[TURN]
    if me < 0:
        return
    n = s[PLAYERS]
    hand = HANDS + me * KINDS
    held = s[HAND_SIZES + me]
    points_now = 0
    plus = 0
    for kind in range(KINDS):
        if s[hand + kind]:
            points_now += _POINTS[kind]
            if _POINTS[kind] > 0:
                plus += _POINTS[kind]
    fate_n = s[FATE_N]
    fate_top = _POINTS[s[FATE + fate_n - 1]]
    last_fate = fate_n == 1
    fewest = 1 << 30
    for seat in range(n):
        if seat != me and s[HAND_SIZES + seat] < fewest:
            fewest = s[HAND_SIZES + seat]
    near_end = last_fate or fewest <= _END_HAND
    rate = (s[TAKES] + 2.0) / (s[PLAYS] + 15.0)
    turns_left = (fate_n / rate) / n
    go_out = plus < _GO_OUT_PLUS and held <= turns_left + 1 and not near_end
    actions = np.empty(ACTIONS, np.int64)
    for i in range(legal_list(s, actions)):
        action = actions[i]
        kind = action // 6
        dest = action - kind * 6
        length = 0 if dest == NEW else s[ROW_LEN + dest]
        if dest != NEW and _VALUE[kind] <= length:
            gain = fate_top
            for j in range(length):
                gain += _POINTS[s[ROWS + dest * ROW_ROOM + j]]
            size = length + 1
            if last_fate:  # the thirteen ends the game (H14b)
                scores[action] = _end_score(s, me, points_now + gain) - 1000.0 + 0.01 * gain
            elif go_out:
                scores[action] = -_OUT_TAKE - _OUT_TAKE_CARD * size + 0.5 * gain
            else:
                scores[action] = gain - _TAKE_PLAY * size - (0.0 if not near_end else 3.0)
        elif held == 1:  # the last card: +30 and the game ends (H14a, H15)
            scores[action] = 1000.0 + BONUS
        elif go_out:  # low cards first, where they still fit
            scores[action] = -1.0 * (_VALUE[kind] - length) - 0.3 * _VALUE[kind]
        else:
            scores[action] = -float(_POINTS[kind])


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
def random_action(s: npt.NDArray[np.int16], key: Keys) -> int:  # pragma: no cover - compiled
    """A legal play drawn uniformly from ``key``: the one :func:`~dreizehn.core.kernel.pick_legal` draws from the
    mask (the ``r``-th legal action in action order), found a colour at a time without listing them; -1 where there
    is none."""
    turn = s[TURN]
    if turn < 0:
        return -1
    occupied = _occupied(s)
    bits = HAND_BITS + turn * WORDS
    count = 0
    for colour in range(WORDS):
        if s[bits + colour]:
            count += _POP[s[bits + colour]] * _POP[_colour_destinations(s, colour, occupied)]
    if count == 0:
        return -1
    r = below(key, count)
    for colour in range(WORDS):
        word = s[bits + colour]
        if word == 0:
            continue
        dests = _colour_destinations(s, colour, occupied)
        per_card = _POP[dests]
        here = _POP[word] * per_card
        if r < here:
            card = _BASE[colour] + _nth_bit(word, r // per_card)
            return int(card * 6 + _nth_bit(dests, r % per_card))
        r -= here
    return -1


@nb.njit(cache=True)
def playout(s: npt.NDArray[np.int16], key: Keys, policy: int) -> None:  # pragma: no cover - compiled
    """Play the match to its end, every seat at random or by the heuristic."""
    while s[TURN] >= 0:
        action = heuristic_action(s, key) if policy == HEURISTIC else random_action(s, key)
        apply(s, action, key)


# -- batches --------------------------------------------------------------------------------------------------------


BATCHES = batch_functions("holzwurm", new_game=new_game, apply=apply, legal_into=legal_into, observe=observe,
                          heuristic_action=heuristic_action, random_action=random_action, playout=playout, TURN=TURN,
                          ACTIONS=ACTIONS)
"""The batch functions of :class:`~dreizehn.core.kernel.CompiledKernel`, compiled from the shared templates
(:func:`dreizehn.core.scaffold.batch_functions`)."""


class HolzwurmKernel(CompiledKernel):
    """Holzwurm's kernel for one game's player count and options (the :class:`~dreizehn.core.kernel.Kernel`
    protocol)."""

    state_size = SIZE
    num_actions = ACTIONS
    turn, totals_at, last_at = TURN, TOTALS, LAST
    batches = BATCHES

    def __init__(self, game: HolzwurmRules) -> None:
        starter = game.options["starter"]
        self.game = game
        self.players = game.players
        self.obs_size = encoder_of(game).observation_layout.size
        self._header = np.zeros(SIZE, np.int16)
        self._header[PLAYERS] = game.players
        self._header[STAGES] = int(game.options["games"])
        self._header[FIRST_STARTER] = -1 if starter == "random" else int(starter)
        self._header[TURN] = -1

    def refusal(self, state: npt.NDArray[np.int16], action: int) -> DreizehnError:
        """The rules' refusal (:func:`~dreizehn.games.holzwurm.rules.refusal`), asked with what the row holds."""
        seat = int(state[TURN])
        kind, dest = divmod(action, 6)
        colour_row = [int(x) for x in state[COLOUR_ROW : COLOUR_ROW + 5]]
        row_colour = [int(x) for x in state[ROW_COLOUR : ROW_COLOUR + SLOTS]]
        return refusal(seat, kind, dest, bool(state[HANDS + seat * KINDS + kind]), int(state[OCCUPIED]), colour_row,
                       row_colour)

    def resolved_options(self, state: npt.NDArray[np.int16]) -> dict[str, object]:
        """The game's options with the first starting seat as drawn (H7): it moves on one seat a game."""
        first = int((state[STARTER] - state[STAGE] + (state[TURN] < 0)) % self.players)
        return {**self.game.options, "starter": first}

    def last_deal(self, state: npt.NDArray[np.int16]) -> list[int]:
        return [int(c) for c in state[DEAL : DEAL + WOODS]]


def make(game: HolzwurmRules) -> HolzwurmKernel:
    """The kernel of ``game`` (its player count and options)."""
    return HolzwurmKernel(game)
