"""Fixed-size tensors of what a seat may know: the observation layouts shared by every research adapter.

An :class:`Encoder` turns a seat's :class:`~dreizehn.core.game.View` (never a state) into a flat ``float32`` vector
made of named blocks. Seats are counted *relative to the observer*: index 0 of every per-seat block is the observing
seat, index 1 the next seat clockwise, and so on. Card multisets are counts per card kind (kinds in the order of the
game's card type, see docs/notation.md). ``docs/envs.md`` prints every layout; :meth:`Layout.describe` gives it as
data.

The *information state* adds to the observation the last ``HISTORY`` actions of the game, oldest first, each as a
one-hot seat (relative) and a one-hot action: everything before is summed up in the observation (the scores of the
finished stages, the cards known to be in each hand, the table).

>>> import dreizehn
>>> from dreizehn.envs.encoding import encoder_for
>>> state = dreizehn.new_game("knizia13", players=4, seed=7)
>>> encoder = encoder_for(state.game)
>>> vector = encoder.observation(state.view(0))
>>> vector.shape == (encoder.observation_layout.size,)
True
>>> int(encoder.observation_layout.block(vector, "hand").sum())
5
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from dreizehn.core.errors import UnknownGameError
from dreizehn.core.game import Game, View
from dreizehn.games.holzwurm import BONUS as HOLZWURM_BONUS
from dreizehn.games.holzwurm import CARD_POINTS as HOLZWURM_POINTS
from dreizehn.games.holzwurm import HolzwurmView
from dreizehn.games.knizia13 import NASTY, Knizia13, Knizia13View
from dreizehn.games.melds import card_value
from dreizehn.games.three_thirteen import ROUNDS, ThreeThirteenView

Vector = npt.NDArray[np.float32]

HISTORY = 48
"""Actions of the history held in an information-state tensor."""

DEFAULT_PLAYERS = {"knizia13": 4, "three-thirteen": 2, "holzwurm": 4}
"""The player count of an environment or OpenSpiel game made without one."""

RESEARCH_TURN_LIMIT = 200
"""Three Thirteen's ``turn_limit`` (T10) in the research adapters: a round ends after 200 turns, every seat's counted.
Games between the ``heuristic`` bots never came near it (docs/envs.md: at most 40 turns a round with 2 players, 88
with 8), while uniformly random players, who seldom go out, reach it in most rounds."""

DEFAULT_OPTIONS: dict[str, dict[str, object]] = {"three-thirteen": {"turn_limit": RESEARCH_TURN_LIMIT}}
"""The options an environment or OpenSpiel game takes where it is not given them, when they differ from the engine's
defaults: so that every game made with default parameters ends, whoever plays it."""


def with_defaults(game_id: str, options: Mapping[str, object]) -> dict[str, object]:
    """``options`` with :data:`DEFAULT_OPTIONS` for those not given.

    >>> with_defaults("three-thirteen", {"stock_out": "end-round"})
    {'turn_limit': 200, 'stock_out': 'end-round'}
    """
    return {**DEFAULT_OPTIONS.get(game_id, {}), **options}


def max_actions(game: Game) -> int | None:
    """A bound on the number of player actions in a whole game, reached by some games; ``None`` where there is none
    (Three Thirteen with ``turn_limit=0``: players who keep taking the discard never run the stock out).

    In 13 and Holzwurm every action plays a card, so a stage has at most as many actions as the deck has cards. In
    Three Thirteen a turn is two actions (T6) and a round at most ``turn_limit`` turns (T10), the last turns of T9
    included: 11 rounds of at most ``2 * turn_limit`` actions (a ``draw`` that ends a round at an empty stock under
    ``stock_out=end-round`` ends its turn after one action, so it never makes a round longer).

    >>> import dreizehn
    >>> max_actions(dreizehn.load_game("three-thirteen", 2, {"turn_limit": 200}))
    4400
    >>> max_actions(dreizehn.load_game("three-thirteen", 2)) is None
    True
    """
    if game.id == "three-thirteen":
        limit = int(game.options["turn_limit"])
        return ROUNDS * 2 * limit if limit > 0 else None
    return encoder_for(game).stages * len(game.deck)


def max_seat_actions(game: Game) -> int | None:
    """A bound on the number of actions of one seat in a whole game; ``None`` where there is none.

    In Three Thirteen the turns of a round go round the table, so a seat has at most ``ceil(turn_limit / players)``
    of a round's turns: ``11 * 2 * ceil(turn_limit / players)`` actions. In 13 and Holzwurm it is
    :func:`max_actions`, the whole game's bound (not tight).

    >>> import dreizehn
    >>> max_seat_actions(dreizehn.load_game("three-thirteen", 3, {"turn_limit": 200}))
    1474
    """
    if game.id == "three-thirteen":
        limit = int(game.options["turn_limit"])
        return ROUNDS * 2 * -(-limit // game.players) if limit > 0 else None
    return max_actions(game)


FLAG = (0.0, 1.0)
"""The bounds of a one-hot block or a flag."""

BlockSpec = tuple[str, tuple[int, ...], str, tuple[float, float]]
"""A block as a layout is given it: name, shape, description, and (least, greatest) value."""


@dataclass(frozen=True)
class Block:
    """One named part of a flat vector: where it starts, its shape, and what it holds."""

    name: str
    offset: int
    shape: tuple[int, ...]
    description: str
    size: int
    """The number of entries: the product of the shape."""
    low: float
    high: float
    """The least and the greatest value any entry of the block can take, by the rules."""


class Layout:
    """Named blocks laid end to end in one flat vector."""

    def __init__(self, blocks: Iterable[BlockSpec]) -> None:
        self.blocks: list[Block] = []
        self._by_name: dict[str, Block] = {}
        offset = 0
        for name, shape, description, (low, high) in blocks:
            block = Block(name, offset, tuple(shape), description, math.prod(shape), float(low), float(high))
            self.blocks.append(block)
            self._by_name[name] = block
            offset += block.size
        self.size = offset

    def block(self, vector: Vector, name: str) -> Vector:
        """The part of ``vector`` named ``name``, shaped (a view into it: writing to it writes the vector)."""
        b = self._by_name[name]
        return vector[b.offset : b.offset + b.size].reshape(b.shape)

    def describe(self) -> list[tuple[str, int, tuple[int, ...], str]]:
        """Every block as ``(name, offset, shape, description)``."""
        return [(b.name, b.offset, b.shape, b.description) for b in self.blocks]

    def bounds(self) -> tuple[Vector, Vector]:
        """The least and the greatest value of every entry (for an observation space's ``Box``)."""
        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for b in self.blocks:
            low[b.offset : b.offset + b.size] = b.low
            high[b.offset : b.offset + b.size] = b.high
        return low, high


def _counts(out: Vector, cards: Iterable[int]) -> None:
    for card in cards:
        out[card] += 1.0


class Encoder:
    """The observation and information-state tensors of one game (its player count and options fixed)."""

    def __init__(self, game: Game, blocks: Sequence[BlockSpec], fill: Callable[[Encoder, View, Vector], None],
                 stages: int, totals: tuple[float, float]) -> None:
        n = game.players
        self.game = game
        self.players = n
        self.stages = stages
        self.num_cards = len(game.card_type.all())
        self.num_actions = game.num_actions
        common: list[BlockSpec] = [
            ("to_move", (n,), "1 at the seat to move (relative); all 0 once the game is over", FLAG),
            ("stage", (stages,), f"1 at the {game.stage_name} being played (the last one once the game is over)",
             FLAG),
            ("totals", (n,), "points of each seat over the finished stages (relative seats, unscaled)", totals),
        ]
        self.observation_layout = Layout([*common, *blocks])
        self.information_state_layout = Layout([
            *common, *blocks,
            ("history_seat", (HISTORY, n), f"the last {HISTORY} actions, oldest first: the seat that made each "
                                           "(relative); rows of 0 before the first action", FLAG),
            ("history_action", (HISTORY, self.num_actions), "the same actions, one-hot by action index", FLAG),
        ])
        self._fill = fill

    def rel(self, view: View, seat: int) -> int:
        """``seat`` counted from the observer."""
        return (seat - view.seat) % self.players

    def seats(self, view: View) -> list[int]:
        """The seats in relative order (the observer first), as absolute seat numbers."""
        n = self.players
        return [(view.seat + i) % n for i in range(n)]

    def _common(self, view: View, layout: Layout, out: Vector) -> None:
        if not view.is_over:
            layout.block(out, "to_move")[self.rel(view, view.current_player)] = 1.0
        layout.block(out, "stage")[min(view.stage, self.stages - 1)] = 1.0
        totals = view.totals
        layout.block(out, "totals")[:] = [totals[s] for s in self.seats(view)]

    def _encode(self, layout: Layout, view: View, out: Vector | None) -> Vector:
        """``out`` (a new vector when ``None``) zeroed, then the blocks every layout shares filled in."""
        if out is None:
            out = np.zeros(layout.size, np.float32)
        else:
            out.fill(0.0)
        self._common(view, layout, out)
        self._fill(self, view, out)
        return out

    def observation(self, view: View, out: Vector | None = None) -> Vector:
        """The observation tensor of ``view`` (written into ``out`` when given, which is zeroed first)."""
        return self._encode(self.observation_layout, view, out)

    def information_state(self, view: View, out: Vector | None = None) -> Vector:
        """The information-state tensor of ``view``: its observation and the last actions of its history."""
        layout = self.information_state_layout
        out = self._encode(layout, view, out)
        seats = layout.block(out, "history_seat")
        actions = layout.block(out, "history_action")
        recent = view.history[-HISTORY:]
        for row, (seat, action) in enumerate(recent):
            seats[row, self.rel(view, seat)] = 1.0
            actions[row, action] = 1.0
        return out


def _limits(game: Game) -> tuple[tuple[float, float], tuple[float, float]]:
    """The bounds of a count of one card kind (0 to its copies in the game) and of a number of cards."""
    return (0.0, float(max(Counter(game.deck).values()))), (0.0, float(len(game.deck)))


# -- the games --------------------------------------------------------------------------------------------------


def _knizia13(game: Game) -> Encoder:
    n, k = game.players, len(game.card_type.all())

    def fill(enc: Encoder, any_view: View, out: Vector) -> None:
        view = cast(Knizia13View, any_view)
        b = enc.observation_layout.block
        b(out, "dealer")[enc.rel(view, view.dealer)] = 1.0
        _counts(b(out, "hand"), view.hand)
        b(out, "stock_size")[0] = view.stock_size
        targets = b(out, "targets")
        for t, pile in enumerate(view.targets):
            _counts(targets[t], pile)
        sizes, taken_sizes, taken = b(out, "hand_sizes"), b(out, "taken_sizes"), b(out, "taken")
        for i, s in enumerate(enc.seats(view)):
            sizes[i] = view.hand_sizes[s]
            taken_sizes[i] = view.taken_sizes[s]
            if view.taken is not None:
                _counts(taken[i], view.taken[s])

    count, size = _limits(game)
    blocks: list[BlockSpec] = [
        ("dealer", (n,), "1 at the dealer of this stage (relative)", FLAG),
        ("hand", (k,), "the observer's cards, counts per card kind", count),
        ("hand_sizes", (n,), "cards in each hand (relative seats)", size),
        ("stock_size", (1,), "cards left in the stock", size),
        ("targets", (3, k), "the blue, yellow and green targets: counts per card kind", count),
        ("taken_sizes", (n,), "cards in each seat's taken pile (relative seats)", size),
        ("taken", (n, k), "each taken pile's cards, counts per kind; all 0 unless the open_piles option is on "
                          "(K12 hides them)", count),
    ]
    stages = cast(Knizia13, game).stages
    # K14: a stage costs a seat at most every card it could take, 1 a colour card and 2 a nasty four
    per_stage = sum(2 if kind == NASTY else 1 for kind in game.deck)
    return Encoder(game, blocks, fill, stages, (0.0, float(per_stage * stages)))


HOLZWURM_COLOURS = ("yellow", "red", "green", "purple", "blue")


def _holzwurm(game: Game) -> Encoder:
    n, k = game.players, len(game.card_type.all())
    slots, fate_rows = 5, 6

    def fill(enc: Encoder, any_view: View, out: Vector) -> None:
        view = cast(HolzwurmView, any_view)
        b = enc.observation_layout.block
        b(out, "starter")[enc.rel(view, view.starter)] = 1.0
        _counts(b(out, "hand"), view.hand)
        fate = b(out, "fate")
        for i, card in enumerate(view.fate[:fate_rows]):
            fate[i, card] = 1.0
        rows = b(out, "rows")
        for slot, row in enumerate(view.rows):
            if row is None:
                continue
            rows[slot, 0] = 1.0
            rows[slot, 1 + (HOLZWURM_COLOURS.index(row.colour) if row.colour is not None else 5)] = 1.0
            for card in row.cards:
                rows[slot, 7 + card] = 1.0
        sizes, known = b(out, "hand_sizes"), b(out, "known")
        for i, s in enumerate(enc.seats(view)):
            sizes[i] = view.hand_sizes[s]
            _counts(known[i], view.known[s])
        b(out, "removed")[0] = view.removed

    count, size = _limits(game)
    blocks: list[BlockSpec] = [
        ("starter", (n,), "1 at the seat that started this game of the match (relative)", FLAG),
        ("hand", (k,), "the observer's cards, 1 per card held", count),
        ("hand_sizes", (n,), "cards in each hand (relative seats)", size),
        ("fate", (fate_rows, k), "the fate row, bottom (the thirteen) first: one card a row; rows past its end "
                                 "are 0", FLAG),
        ("rows", (slots, 7 + k), "slots 1..5: [occupied, colour yellow/red/green/purple/blue/open, then 1 per "
                                 "card in the row]", FLAG),
        ("known", (n, k), "cards known to be in each hand (relative seats)", count),
        ("removed", (1,), "cards removed unseen (H6)", size),
    ]
    games = int(game.options["games"])
    # H3, H15: a game gives a seat at most every plus card and the bonus, at least every minus card
    low = sum(p for p in HOLZWURM_POINTS if p < 0)
    high = sum(p for p in HOLZWURM_POINTS if p > 0) + HOLZWURM_BONUS
    return Encoder(game, blocks, fill, games, (float(low * games), float(high * games)))


def _three_thirteen(game: Game) -> Encoder:
    n, k = game.players, len(game.card_type.all())
    limit = int(game.options["turn_limit"])

    def fill(enc: Encoder, any_view: View, out: Vector) -> None:
        view = cast(ThreeThirteenView, any_view)
        b = enc.observation_layout.block
        b(out, "dealer")[enc.rel(view, view.dealer)] = 1.0
        b(out, "wild_rank")[view.wild_rank - 1] = 1.0
        _counts(b(out, "hand"), view.hand)
        b(out, "stock_size")[0] = view.stock_size
        pile = view.discard_pile
        if pile:
            b(out, "discard_top")[pile[-1]] = 1.0
        _counts(b(out, "discard_pile"), pile)
        b(out, "drawn")[0] = float(view.drawn)
        b(out, "turns_left")[0] = view.turns_left
        if limit:
            b(out, "turns_to_limit")[0] = limit - view.turns_played
        if view.stock_candidates is not None:
            _counts(b(out, "stock_candidates"), view.stock_candidates)
        sizes, known, out_melds, went_out = b(out, "hand_sizes"), b(out, "known"), b(out, "out_melds"), b(out, "out")
        for i, s in enumerate(enc.seats(view)):
            sizes[i] = view.hand_sizes[s]
            _counts(known[i], view.known[s])
            for meld in view.out_melds[s]:
                _counts(out_melds[i], meld)
            if s in view.out_seats:
                went_out[i] = 1.0 + view.out_seats.index(s)

    count, size = _limits(game)
    blocks: list[BlockSpec] = [
        ("dealer", (n,), "1 at the dealer of this round (relative)", FLAG),
        ("wild_rank", (13,), "the round's wild rank, ace .. king (T3)", FLAG),
        ("hand", (k,), "the observer's cards, counts per card kind", count),
        ("hand_sizes", (n,), "cards in each hand (relative seats)", size),
        ("stock_size", (1,), "cards in the stock", size),
        ("discard_top", (k,), "1 at the top card of the discard pile", FLAG),
        ("discard_pile", (k,), "the whole discard pile, counts per card kind", count),
        ("drawn", (1,), "1 when the seat to move has drawn this turn", FLAG),
        ("known", (n, k), "cards known to be in each hand (taken from the discard pile, T13)", count),
        ("out", (n,), "0, or the order (1, 2, ...) in which each seat went out this round", (0.0, float(n))),
        ("out_melds", (n, k), "the cards each seat laid when going out", count),
        ("turns_left", (1,), "turns still to play once someone went out, -1 before", (-1.0, float(n))),
        ("turns_to_limit", (1,), "turns the round may still last under turn_limit (T10), the current one included; "
                                 "0 without a limit", (0.0, float(limit))),
        ("stock_candidates", (k,), "after a reshuffle: the cards that may still be in the stock; all 0 before",
         count),
    ]
    # T11: round r scores a hand of r + 2 cards, each unmatched card at most the dearest card's penalty
    dearest = max(card_value(kind, game.options["aces"] == "low-or-high") for kind in range(k))
    return Encoder(game, blocks, fill, 11, (0.0, float(dearest * sum(r + 2 for r in range(1, 12)))))


ENCODERS: dict[str, Callable[[Game], Encoder]] = {
    "knizia13": _knizia13,
    "holzwurm": _holzwurm,
    "three-thirteen": _three_thirteen,
}


def encoder_for(game: Game) -> Encoder:
    """The encoder of ``game`` (its player count and options)."""
    try:
        return ENCODERS[game.id](game)
    except KeyError:
        raise UnknownGameError("env.encoding", rule="E1", game=game.id) from None
