"""The building blocks of a game's fixed-size tensors: named blocks laid out in a flat ``float32`` vector, and the
:class:`Encoder` a game fills them with from a seat's :class:`~dreizehn.core.game.View` (never a state).

Each game makes its own encoder (in the ``encoder`` module its class names, :attr:`~dreizehn.core.game.Game.encoder`,
reached through :func:`encoder_of`); the research adapters (:mod:`dreizehn.envs`) read them. Seats are counted
*relative to the observer*: index 0 of every per-seat block is the observing seat, index 1 the next seat clockwise,
and so on. Card multisets are counts per
card kind (kinds in the order of the game's card type, see docs/notation.md). ``docs/envs.md`` prints every layout.

The *information state* adds to the observation the last ``HISTORY`` actions of the game, oldest first, each as a
one-hot seat (relative) and a one-hot action: everything before is summed up in the observation (the scores of the
finished stages, the cards known to be in each hand, the table).
"""

from __future__ import annotations

import importlib
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dreizehn.core.errors import UnknownGameError
from dreizehn.core.game import Game, State, View

Vector = npt.NDArray[np.float32]

HISTORY = 48
"""Actions of the history held in an information-state tensor."""


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
        self.offsets = {b.name: b.offset for b in self.blocks}
        """Where each block starts."""

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


def counts(out: Vector, cards: Iterable[int]) -> None:
    """Add 1 to ``out`` at every card of ``cards`` (a multiset as counts per card kind)."""
    for card in cards:
        out[card] += 1.0


Entries = Vector | list[float]
"""Where a tensor is written: an array, or a list of floats (what OpenSpiel hands out)."""

StateFill = Callable[["Encoder", "State", int, Entries], None]
"""A game's fill of its blocks from a state for one seat, reading only what that seat's view shows, into an array or
a list of zeros (it writes entries by index, ``out[i] = x`` and ``out[i] += x``)."""


class Encoder:
    """The observation and information-state tensors of one game (its player count and options fixed).

    A game may give, beside ``fill`` (from a view), a ``fill_state`` that writes the same blocks from a state for one
    seat without making the view (:meth:`observation_of`, :meth:`information_state_of`: what the research adapters
    call on every step). It must read only what the seat's view shows: its tests prove that it writes exactly what
    ``fill`` writes from the view, over many states of every player count.
    """

    def __init__(self, game: Game, blocks: Sequence[BlockSpec], fill: Callable[[Encoder, View, Vector], None],
                 stages: int, totals: tuple[float, float], fill_state: StateFill | None = None) -> None:
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
        self._fill_state = fill_state
        self.offsets = {b.name: b.offset for b in self.observation_layout.blocks}
        """Where each block of the observation starts (the information state's shared blocks start at the same
        places)."""

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


    def observation_of(self, state: State, seat: int, out: Vector | None = None) -> Vector:
        """The observation tensor of ``seat``'s view of ``state``, made without the view where the game fills from a
        state (``fill_state``); equal to :meth:`observation` of the view."""
        if self._fill_state is None:
            return self.observation(state.view(seat), out)
        return self._encode_state(self.observation_layout, state, seat, out)

    def information_state_of(self, state: State, seat: int, out: Vector | None = None) -> Vector:
        """The information-state tensor of ``seat``'s view of ``state`` (see :meth:`observation_of`)."""
        if self._fill_state is None:
            return self.information_state(state.view(seat), out)
        layout = self.information_state_layout
        out = self._encode_state(layout, state, seat, out)
        self._history_state(state, seat, out)
        return out

    def observation_list(self, state: State, seat: int) -> list[float]:
        """:meth:`observation_of` as a new list of floats, written without an array where the game fills from a
        state (what OpenSpiel's ``observation_tensor`` returns)."""
        if self._fill_state is None:
            values: list[float] = self.observation(state.view(seat)).tolist()
            return values
        out = [0.0] * self.observation_layout.size
        self._fill_common(state, seat, out)
        return out

    def information_state_list(self, state: State, seat: int) -> list[float]:
        """:meth:`information_state_of` as a new list of floats (see :meth:`observation_list`)."""
        if self._fill_state is None:
            values: list[float] = self.information_state(state.view(seat)).tolist()
            return values
        out = [0.0] * self.information_state_layout.size
        self._fill_common(state, seat, out)
        self._history_state(state, seat, out)
        return out

    def _history_state(self, state: State, seat: int, out: Entries) -> None:
        """The last actions of ``state``'s history into the information state's blocks of ``out`` (zeros there)."""
        n = self.players
        layout = self.information_state_layout
        seats = layout.offsets["history_seat"]
        actions = layout.offsets["history_action"]
        width = self.num_actions
        for row, (who, action) in enumerate(state.log[-HISTORY:]):
            out[seats + row * n + (who - seat) % n] = 1.0
            out[actions + row * width + action] = 1.0

    def _encode_state(self, layout: Layout, state: State, seat: int, out: Vector | None) -> Vector:
        if out is None:
            out = np.zeros(layout.size, np.float32)
        else:
            out.fill(0.0)
        self._fill_common(state, seat, out)
        return out

    def _fill_common(self, state: State, seat: int, out: Entries) -> None:
        """The blocks every layout shares and the game's own, from ``state`` for ``seat``, into ``out`` (zeros)."""
        n = self.players
        offsets = self.offsets
        if state.turn >= 0:
            out[offsets["to_move"] + (state.turn - seat) % n] = 1.0
        out[offsets["stage"] + min(state.stage, self.stages - 1)] = 1.0
        at = offsets["totals"]
        for s, points in enumerate(map(sum, zip(*state.stage_scores, strict=True))):
            out[at + (s - seat) % n] = float(points)
        assert self._fill_state is not None
        self._fill_state(self, state, seat, out)


def limits(game: Game) -> tuple[tuple[float, float], tuple[float, float]]:
    """The bounds of a count of one card kind (0 to its copies in the game) and of a number of cards."""
    return (0.0, float(max(Counter(game.deck).values()))), (0.0, float(len(game.deck)))


def encoder_of(game: Game) -> Encoder:
    """The encoder of ``game`` (its player count and options), made by the module its class names
    (:attr:`~dreizehn.core.game.Game.encoder`); a game without one cannot be played in the research adapters (rule E1).
    """
    if not game.encoder:
        raise UnknownGameError("env.encoding", rule="E1", game=game.id)
    made: Encoder = importlib.import_module(game.encoder).encoder(game)
    return made
