"""What every game's compiled kernel shares: random numbers drawn from an explicit key, the status codes of a step,
and the small protocol a game's kernel implements (docs/vector.md).

A kernel plays a game on flat arrays in numba-compiled code: a state is one row of ``int16``, a batch of games an
``(N, state_size)`` array, and every random draw (the deals, Three Thirteen's reshuffles, random playouts) comes from
a ``uint64`` key that the caller owns, one per game, so that the same keys give the same games on any machine. The
reference engine (:mod:`dreizehn.core.game`) stays the definition of the rules: the differential tests
(``tests/kernels``) play the same deals through both and compare every legal set, state, view and score.

The random numbers are SplitMix64 (Steele, Lea and Flood 2014): one 64-bit word of state, passed as a ``uint64``
array of length one (a row of the batch's keys) so that the compiled functions advance it in place.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

import numba as nb
import numpy as np
import numpy.typing as npt

from dreizehn.core.game import number_refusal

if TYPE_CHECKING:
    from dreizehn.core.errors import DreizehnError
    from dreizehn.core.game import Game

States = npt.NDArray[np.int16]
Keys = npt.NDArray[np.uint64]
Masks = npt.NDArray[np.bool_]
Observations = npt.NDArray[np.float32]

# The status of one step (a kernel's ``step`` returns it per game; the batched environment turns the negative ones
# into errors that name the environment's index and the rule).
OK = 0
"""The action was applied; the game goes on in the same stage."""
STAGE_OVER = 1
"""The action ended a stage: it was scored and the next one dealt."""
GAME_OVER = 2
"""The action ended the game."""
ILLEGAL = -1
"""The action is not legal here: nothing changed (the kernel's ``why`` names the rule)."""
FINISHED = -2
"""The game was already over: nothing changed (rule A6)."""
OUT_OF_RANGE = -3
"""The number is no action of the game: nothing changed (rule A5)."""
WAITING = -4
"""No move was made: the seat to move is the caller's own (:meth:`Kernel.advance`), or the game is over."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@nb.njit(cache=True)
def next_u64(key: Keys) -> np.uint64:  # pragma: no cover - compiled
    """The next 64 random bits of ``key`` (a ``uint64`` array of length one, advanced in place)."""
    key[0] += _GOLDEN
    z = key[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return np.uint64(z ^ (z >> _S31))


@nb.njit(cache=True)
def below(key: Keys, bound: int) -> int:  # pragma: no cover - compiled
    """A uniform whole number in ``0 .. bound - 1`` (``bound`` from 1 to 2**32), without bias (Lemire 2019)."""
    b = np.uint64(bound)
    m = (next_u64(key) >> _S32) * b
    low = m & _LOW32
    if low < b:
        threshold = (_TWO32 - b) % b
        while low < threshold:
            m = (next_u64(key) >> _S32) * b
            low = m & _LOW32
    return int(np.int64(m >> _S32))


@nb.njit(cache=True)
def shuffle(key: Keys, cards: npt.NDArray[np.int16], count: int) -> None:  # pragma: no cover - compiled
    """Shuffle the first ``count`` entries of ``cards`` in place (Fisher and Yates)."""
    for i in range(count - 1, 0, -1):
        j = below(key, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


@nb.njit(cache=True)
def pick_legal(key: Keys, mask: Masks) -> int:  # pragma: no cover - compiled
    """A legal action of ``mask`` drawn uniformly; -1 where there is none."""
    n = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            n += 1
    if n == 0:
        return -1
    r = below(key, n)
    for a in range(mask.shape[0]):
        if mask[a]:
            if r == 0:
                return a
            r -= 1
    return -1


def make_keys(seed: int, count: int) -> Keys:
    """``count`` independent keys from one seed: key ``i`` is SplitMix64's output for ``(seed, i)``, so game ``i``
    of a batch is the same game whatever the batch's size."""
    seeds = np.empty(count, np.uint64)
    base = np.array([np.uint64(seed & 0xFFFFFFFFFFFFFFFF)], np.uint64)
    first = int(next_u64(base))
    with np.errstate(over="ignore"):
        seeds[:] = np.uint64(first) + np.arange(count, dtype=np.uint64) * _GOLDEN
    out = np.empty(count, np.uint64)
    one = np.empty(1, np.uint64)
    for i in range(count):
        one[0] = seeds[i]
        out[i] = next_u64(one)
    return out


def load_kernel(game: Game) -> Kernel:
    """The compiled kernel of ``game`` (its player count and options), from the module its class names
    (:attr:`~dreizehn.core.game.Game.kernel`); a game without one is refused (rule V1, docs/vector.md)."""
    if not game.kernel:
        from dreizehn.core.errors import UnknownGameError

        raise UnknownGameError("kernel.none", rule="V1", game=game.title)
    made: Kernel = importlib.import_module(game.kernel).make(game)
    return made


def warm_up(*only: str, skip: tuple[str, ...] = ()) -> None:
    """Compile (or load from the disk cache) every registered game's kernel and search (those of the games named in
    ``only``, if any, and not in ``skip``), so that the first real call is fast and parallel test workers do not each
    compile them (``make warm`` warms Three Thirteen in one process and the other games in another, at once)."""
    from dreizehn.core.registry import game_class, game_ids, load_game

    for game_id in [g for g in only or game_ids() if g not in skip]:
        cls = game_class(game_id)
        if not cls.kernel:
            continue
        game = load_game(game_id, cls.research_players or cls.min_players, cls.research_options)
        kernel = load_kernel(game)
        states, keys = kernel.new(2), make_keys(0, 2)
        kernel.random_games(states, keys, 1)
        kernel.reset(states, keys)
        masks = np.zeros((2, kernel.num_actions), np.bool_)
        kernel.legal(states, masks)
        kernel.observe(states, kernel.current(states), np.zeros((2, kernel.obs_size), np.float32))
        kernel.step(states, keys, masks.argmax(axis=1), np.zeros(2, np.int8))
        kernel.choose(states, keys, HEURISTIC)
        kernel.playout(states, keys, HEURISTIC)
        search = getattr(kernel, "search", None)
        if search is not None:  # every compiled variant of the search, and the hints' rating loop
            state = game.new_state(0)
            view = state.view(state.current_player)
            variants: tuple[Mapping[str, object], ...] = getattr(kernel, "compiled_searches", ({},))
            for names in variants:
                search(view, 2, 0.7, 5.0, 0, None, **names)
            kernel.rate(view, [int(state.legal_actions()[0])], 1, 0)  # type: ignore[attr-defined]


class Kernel(Protocol):
    """What a game's kernel offers (each game's ``kernel`` module builds one for a :class:`Game`; docs/vector.md).

    Every method works on a batch: ``states`` is ``(N, state_size)`` ``int16``, ``keys`` is ``(N,)`` ``uint64``.
    """

    game: Game
    state_size: int
    num_actions: int
    players: int
    obs_size: int

    def new(self, count: int) -> States:
        """``count`` empty states of this game (its player count and options set); deal them with :meth:`reset`."""

    def reset(self, states: States, keys: Keys, rows: npt.NDArray[np.int64] | None = None) -> None:
        """Deal a new game in every row (or in ``rows``), its chance drawn from ``keys``."""

    def legal(self, states: States, masks: Masks) -> None:
        """Write each game's legal actions for the seat to move into ``masks`` (``(N, num_actions)``)."""

    def step(self, states: States, keys: Keys, actions: npt.NDArray[np.int64],
             status: npt.NDArray[np.int8]) -> None:
        """Apply one action in each game (chance from ``keys``); ``status`` gets :data:`OK`, :data:`STAGE_OVER`,
        :data:`GAME_OVER` or a refusal (:data:`ILLEGAL`, :data:`FINISHED`, :data:`OUT_OF_RANGE`) that changed
        nothing."""

    def observe(self, states: States, seats: npt.NDArray[np.int64], out: Observations) -> None:
        """Write the observation of ``seats[i]`` in game ``i`` (docs/envs.md's layout) into ``out[i]``."""

    def current(self, states: States) -> npt.NDArray[np.int64]:
        """The seat to move in each game, -1 where it is over."""

    def totals(self, states: States) -> npt.NDArray[np.int64]:
        """Each seat's points over the finished stages, ``(N, players)``."""

    def stage_scores(self, states: States) -> npt.NDArray[np.int64]:
        """The points of the last finished stage, ``(N, players)`` (what a step that ends a stage scored)."""

    def choose(self, states: States, keys: Keys, policy: int) -> npt.NDArray[np.int64]:
        """An action for the seat to move in each game, uniformly at random among the legal ones (``policy`` 0) or
        the game's heuristic's (``policy`` 1); -1 where a game is over."""

    def advance(self, states: States, keys: Keys, seat: int, policy: int, status: npt.NDArray[np.int8]) -> None:
        """One move by ``policy`` (as :meth:`choose` chooses it) in every game whose seat to move is not ``seat``,
        in place, with no copy of the batch; ``status`` as :meth:`step`'s, :data:`WAITING` where ``seat`` is to move
        or the game is over (the batched environment's opponents, docs/vector.md)."""

    def playout(self, states: States, keys: Keys, policy: int) -> None:
        """Play every game to its end: each seat uniformly at random (``policy`` 0) or by the game's heuristic
        (``policy`` 1)."""

    def random_games(self, states: States, keys: Keys, games: int) -> int:
        """Play ``games`` whole games in each row, one after the other, every seat uniformly at random (as the
        ``random`` bot plays); the number of actions played (the benchmarks' random play)."""

    def why(self, state: npt.NDArray[np.int16], action: int) -> DreizehnError:
        """Why ``action`` is refused in ``state``: the engine's own error (its code, rule and parameters)."""

    def resolved_options(self, state: npt.NDArray[np.int16]) -> dict[str, object]:
        """The options of the game in one row, every ``"random"`` seat as its key drew it (as a record holds them)."""

    def last_deal(self, state: npt.NDArray[np.int16]) -> list[int]:
        """The order of the latest shuffle in one row, top card first (as a record keeps it, docs/record-format.md):
        what makes a kernel's game a record that ``dreizehn replay`` checks."""


RANDOM, HEURISTIC = 0, 1
"""The playout policies every kernel offers."""


class CompiledKernel(ABC):
    """The Python side of a game's kernel, written once: a game's class sets where the seat to move, the totals and
    the last stage's points lie in its row (``turn``, ``totals_at``, ``last_at``), its row's header and its compiled
    batch functions (``batches``: ``reset_batch``, ``legal_batch``, ``step_batch``, ``observe_batch``,
    ``choose_batch``, ``playout_batch``, ``random_games``, made for the game from the shared templates by
    :func:`dreizehn.core.scaffold.batch_functions`), and adds what differs by game (``refusal``,
    ``resolved_options``, ``last_deal``)."""

    turn: int
    totals_at: int
    last_at: int
    batches: Any
    players: int
    game: Game
    _header: States

    def new(self, count: int) -> States:
        return np.tile(self._header, (count, 1))

    def reset(self, states: States, keys: Keys, rows: npt.NDArray[np.int64] | None = None) -> None:
        self.batches.reset_batch(states, keys, np.arange(len(states)) if rows is None else rows)

    def legal(self, states: States, masks: Masks) -> None:
        self.batches.legal_batch(states, masks)

    def step(self, states: States, keys: Keys, actions: npt.NDArray[np.int64],
             status: npt.NDArray[np.int8]) -> None:
        self.batches.step_batch(states, keys, actions, status)

    def observe(self, states: States, seats: npt.NDArray[np.int64], out: Observations) -> None:
        self.batches.observe_batch(states, seats, out)

    def current(self, states: States) -> npt.NDArray[np.int64]:
        return states[:, self.turn].astype(np.int64)

    def totals(self, states: States) -> npt.NDArray[np.int64]:
        return states[:, self.totals_at : self.totals_at + self.players].astype(np.int64)

    def stage_scores(self, states: States) -> npt.NDArray[np.int64]:
        return states[:, self.last_at : self.last_at + self.players].astype(np.int64)

    def choose(self, states: States, keys: Keys, policy: int) -> npt.NDArray[np.int64]:
        out = np.empty(len(states), np.int64)
        self.batches.choose_batch(states, keys, policy, out)
        return out

    def advance(self, states: States, keys: Keys, seat: int, policy: int, status: npt.NDArray[np.int8]) -> None:
        self.batches.advance_batch(states, keys, seat, policy, status)

    def playout(self, states: States, keys: Keys, policy: int) -> None:
        self.batches.playout_batch(states, keys, policy)

    def random_games(self, states: States, keys: Keys, games: int) -> int:
        return int(self.batches.random_games(states, keys, games))

    def why(self, state: npt.NDArray[np.int16], action: int) -> DreizehnError:
        """The engine's refusal of ``action`` in ``state``: the number or the finished game (A5, A6, asked of
        :func:`~dreizehn.core.game.number_refusal` in the engine's order), else the game's rule (:meth:`refusal`)."""
        refused = number_refusal(self.game, action, bool(state[self.turn] < 0))
        return refused if refused is not None else self.refusal(state, action)

    @abstractmethod
    def refusal(self, state: npt.NDArray[np.int16], action: int) -> DreizehnError:
        """Why the rules refuse ``action`` (a number of the game, in a game not over) in ``state``: each game asks
        its rules engine's own refusal, so that the kernel never words a refusal itself."""
