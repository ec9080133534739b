"""Many games at once: a batched environment over a game's compiled kernel (docs/vector.md).

:class:`VectorGame` steps ``num_envs`` games of one game, player count and options together, every seat played by
the caller (self-play, as pgx and OpenSpiel's batched games are): each step takes one action per game, for the seat
to move there, and returns the observations of the seats to move next (each seat's own view only, the layout of
docs/envs.md), their legal-action masks, every seat's rewards and which games ended. A game that ends is dealt anew
in the same step (Gymnasium's ``SAME_STEP`` autoreset), so every row always holds a game in progress. The same seed
gives the same games, whatever ``num_envs`` is: game ``i`` draws its chance from its own key.

>>> from dreizehn.study.vector import VectorGame
>>> env = VectorGame("knizia13", num_envs=3, players=4)
>>> first = env.reset(seed=1)
>>> first.observation.shape, first.action_mask.shape, first.current_player.tolist()
((3, 153), (3, 18), [1, 1, 1])
>>> step = env.step(first.action_mask.argmax(axis=1))
>>> step.rewards.shape, step.terminated.tolist()
((3, 4), [False, False, False])

Bad input is refused before any game changes (:class:`VectorError`, naming the game's index and the rule): actions of
the wrong shape or type (V2), a number that is no action (A5), an action not legal for the seat to move (the game's
rule). With ``illegal="penalty"`` an illegal action instead ends that game: the seat that chose it gets
``illegal_reward``, the others 0, and the game is dealt anew.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from dreizehn.core.errors import InvalidOptionError, VectorError
from dreizehn.core.game import Game
from dreizehn.core.kernel import GAME_OVER, ILLEGAL, RANDOM, STAGE_OVER, Kernel, Keys, load_kernel, make_keys
from dreizehn.core.record import FORMAT, VERSION
from dreizehn.core.registry import game_class, load_game

REWARDS = ("win", "score")
ILLEGAL_MODES = ("raise", "penalty")


class Batch(NamedTuple):
    """What :meth:`VectorGame.reset` and :meth:`VectorGame.step` return. The arrays are the environment's own and are
    written again by its next call: copy what you keep. Writing into them changes nothing: steps are checked against
    the games' own state."""

    observation: npt.NDArray[np.float32]
    """``(num_envs, obs_size)``: the observation of the seat to move in each game."""
    action_mask: npt.NDArray[np.bool_]
    """``(num_envs, num_actions)``: that seat's legal actions."""
    current_player: npt.NDArray[np.int64]
    """``(num_envs,)``: the seat to move."""
    rewards: npt.NDArray[np.float32]
    """``(num_envs, players)``: what the step gave every seat (0 after a reset)."""
    terminated: npt.NDArray[np.bool_]
    """``(num_envs,)``: the games that ended in this step (and were dealt anew)."""


SEEDS = 2**64
"""Seeds are whole numbers from 0 to ``SEEDS - 1``: every key is drawn from a seed's 64 bits."""


def seed_value(seed: object) -> int:
    """``seed`` as a Python ``int`` if it is a whole number (of any integer type, ``bool`` not) from 0 to 2**64 - 1,
    else a refusal (V1): a seed outside is not wrapped onto another's games.

    >>> seed_value(np.uint64(2**64 - 1)) == 2**64 - 1
    True
    """
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer) or not 0 <= int(seed) < SEEDS:
        raise InvalidOptionError("vector.seed", rule="V1", value=seed)
    return int(seed)


def win_shares(totals: npt.NDArray[np.int64], high_score_wins: bool) -> npt.NDArray[np.float32]:
    """Each seat's share of the win for rows of final totals: 1 for a sole winner, ``1/k`` for a win shared by
    ``k`` seats, 0 for the others (the engine's ``returns()``)."""
    best = totals.max(axis=1, keepdims=True) if high_score_wins else totals.min(axis=1, keepdims=True)
    won = totals == best
    shares: npt.NDArray[np.float32] = (won / won.sum(axis=1, keepdims=True)).astype(np.float32)
    return shares


class VectorGame:
    """``num_envs`` games of ``game_id`` on the game's kernel, every seat played by the caller.

    ``reward="win"`` gives every seat its share of the win when a game ends; ``reward="score"`` gives each stage's
    points as they fall, signed so that more is better (minus the points where the fewest win). ``illegal`` says
    what an illegal action does: ``"raise"`` (the default) refuses the whole step, ``"penalty"`` ends that game with
    ``illegal_reward`` for the seat that chose it.
    """

    def __init__(self, game_id: str, num_envs: int, players: int | None = None, *, reward: str = "win",
                 illegal: str = "raise", illegal_reward: float = -1.0, options: Mapping[str, object] | None = None,
                 **more_options: object) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or not 1 <= num_envs <= 10**6:
            raise InvalidOptionError("vector.num_envs", rule="V1", value=num_envs)
        if reward not in REWARDS:
            raise InvalidOptionError("option.not_choice", rule="E2", name="reward", choices=", ".join(REWARDS),
                                     value=reward)
        if illegal not in ILLEGAL_MODES:
            raise InvalidOptionError("option.not_choice", rule="E2", name="illegal",
                                     choices=", ".join(ILLEGAL_MODES), value=illegal)
        cls_game = _load(game_id, players, {**(options or {}), **more_options})
        self.game: Game = cls_game
        self.kernel: Kernel = load_kernel(cls_game)
        self.num_envs = int(num_envs)
        self.players = cls_game.players
        self.num_actions = cls_game.num_actions
        self.obs_size = self.kernel.obs_size
        self.reward = reward
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self._sign = 1.0 if cls_game.high_score_wins else -1.0
        n = self.num_envs
        self.states = self.kernel.new(n)
        self.keys: Keys = make_keys(0, n)
        self._obs = np.zeros((n, self.obs_size), np.float32)
        self._legal = np.zeros((n, self.num_actions), np.bool_)
        """The legal actions of the seat to move, the kernel's own: the check of every step (D1 of issue 48)."""
        self._seat = np.zeros(n, np.int64)
        """The seat to move in each game, the kernel's own."""
        self._mask = np.zeros((n, self.num_actions), np.bool_)
        """A copy of ``_legal`` handed out to the caller, who may write into it."""
        self._rewards = np.zeros((n, self.players), np.float32)
        self._status = np.zeros(n, np.int8)
        self._current = np.zeros(n, np.int64)
        self._rows = np.arange(n)
        self._started = False

    def reset(self, seed: int | np.integer[Any] = 0) -> Batch:
        """Deal every game anew, game ``i`` from key ``i`` of ``seed`` (a whole number from 0 to 2**64 - 1)."""
        return self._deal(make_keys(seed_value(seed), self.num_envs))

    def _deal(self, keys: Keys) -> Batch:
        """Deal every game anew from its key of ``keys`` (one per game), which the environment keeps and advances."""
        self.keys = keys
        self.kernel.reset(self.states, self.keys)
        self._rewards[:] = 0.0
        self._started = True
        return self._batch(np.zeros(self.num_envs, np.bool_))

    def step(self, actions: object) -> Batch:
        """One action per game for its seat to move; the games that end are scored and dealt anew."""
        over = self._play(actions)
        ended = np.flatnonzero(over)
        if len(ended):
            self.kernel.reset(self.states, self.keys, ended)
        return self._batch(over)

    def _play(self, actions: object) -> npt.NDArray[np.bool_]:
        """Check and play one action per game and write the step's rewards; the games that ended (by their end, or
        by an illegal action in penalty mode), not yet dealt anew."""
        if not self._started:
            raise VectorError("vector.not_reset", rule="E4")
        chosen = self._check(actions)
        kernel, states = self.kernel, self.states
        kernel.step(states, self.keys, chosen, self._status)  # an illegal action (penalty mode) changes nothing
        status = self._status
        rewards = self._rewards
        rewards[:] = 0.0
        over: npt.NDArray[np.bool_] = status == GAME_OVER
        if self.reward == "score":
            scored = (status == STAGE_OVER) | over
            if scored.any():
                rewards[scored] = self._sign * kernel.stage_scores(states[scored])
        elif over.any():
            rewards[over] = win_shares(kernel.totals(states[over]), self.game.high_score_wins)
        if self.illegal == "penalty":
            illegal = status == ILLEGAL
            if illegal.any():  # the seat that chose it is still self._seat's until _batch below
                rewards[illegal] = 0.0
                rewards[illegal, self._seat[illegal]] = self.illegal_reward
                over |= illegal
        return over

    def _check(self, actions: object) -> npt.NDArray[np.int64]:
        """The actions as int64, or a refusal that names the first bad game (nothing has changed)."""
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise VectorError("vector.shape", rule="V2", shape=str(array.shape), num_envs=self.num_envs)
        if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
            raise VectorError("vector.dtype", rule="V2", dtype=str(array.dtype))
        outside = np.flatnonzero((array < 0) | (array >= self.num_actions))
        if len(outside):
            index = int(outside[0])
            raise VectorError("vector.not_action", rule="A5", index=index, action=int(array[index]),
                              game=self.game.title)
        chosen = array.astype(np.int64)
        if self.illegal == "raise":
            bad = np.flatnonzero(~self._legal[self._rows, chosen])
            if len(bad):
                index = int(bad[0])
                reason = copy.copy(self.kernel.why(self.states[index], int(chosen[index])))
                rule, reason.rule = reason.rule, None  # the rule is said once, after the whole sentence
                raise VectorError("vector.illegal", rule=rule, index=index,
                                  action=self.game.action_to_text(int(chosen[index])), error=reason)
        return chosen

    def _refresh(self) -> None:
        """Read the seat to move and its legal actions from the kernel into the environment's own arrays, and copy
        them into the arrays handed out: what the caller writes there is never what a step is checked against."""
        kernel, states = self.kernel, self.states
        self._seat[:] = kernel.current(states)
        kernel.legal(states, self._legal)
        np.copyto(self._mask, self._legal)
        np.copyto(self._current, self._seat)

    def _batch(self, terminated: npt.NDArray[np.bool_]) -> Batch:
        self._refresh()
        self.kernel.observe(self.states, self._seat, self._obs)
        return Batch(self._obs, self._mask, self._current, self._rewards, terminated)


def play_record(game_id: str, players: int | None = None, seed: int = 0, policy: int = RANDOM,
                **options: object) -> dict[str, Any]:
    """One whole game played on the kernel (every seat at random, or by the game's heuristic), as a record
    (docs/record-format.md) that ``dreizehn replay`` checks card for card.

    >>> from dreizehn.core.record import replay
    >>> doc = play_record("knizia13", 4, seed=5)
    >>> replay(doc).totals == tuple(doc["totals"])
    True
    """
    game = _load(game_id, players, options)
    kernel = load_kernel(game)
    states, keys = kernel.new(1), make_keys(seed, 1)
    kernel.reset(states, keys)
    row = states[0]
    resolved = kernel.resolved_options(row)
    card, action_type = game.card_type, game.action_type
    shuffles = [kernel.last_deal(row)]
    actions: list[list[object]] = []
    scores: list[list[int]] = []
    status = np.zeros(1, np.int8)
    counted = getattr(kernel, "shuffle_count", None)  # a kernel that also shuffles within a stage counts them
    while True:
        seat = int(kernel.current(states)[0])
        if seat < 0:
            break
        chosen = kernel.choose(states, keys, policy)
        before = None if counted is None else int(counted(states)[0])
        kernel.step(states, keys, chosen, status)
        actions.append([seat, action_type.of(int(chosen[0])).text])
        if status[0] in (STAGE_OVER, GAME_OVER):
            scores.append(kernel.stage_scores(states)[0].tolist())
        if (status[0] == STAGE_OVER) if counted is None else (int(counted(states)[0]) != before):
            shuffles.append(kernel.last_deal(row))
    totals = kernel.totals(states)[0]
    shares = win_shares(totals[None, :], game.high_score_wins)[0]
    return {
        "format": FORMAT, "version": VERSION, "game": game.id,
        "players": [f"seat {seat}" for seat in range(game.players)],
        "options": resolved,
        "shuffles": [[card.of(c).text for c in order] for order in shuffles],
        "actions": actions,
        "stage_scores": scores,
        "totals": totals.tolist(),
        "over": True,
        "winners": [int(seat) for seat in np.flatnonzero(shares)],
    }


def _load(game_id: str, players: int | None, options: Mapping[str, object]) -> Game:
    """The game as the research adapters make it (docs/envs.md): their player count where none is given, their
    options (Three Thirteen's ``turn_limit`` of 200, so that every game ends) where these do not say otherwise."""
    cls = game_class(game_id)
    return load_game(game_id, players if players is not None else cls.research_players or cls.min_players,
                     {**cls.research_options, **options})
