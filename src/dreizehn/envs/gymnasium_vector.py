"""Gymnasium's vector API over a game's compiled kernel: ``num_envs`` games in which one seat learns and the
kernel plays the others, at random or by the game's heuristic (docs/vector.md).

>>> import numpy as np
>>> from dreizehn.envs.gymnasium_vector import DreizehnVectorEnv
>>> env = DreizehnVectorEnv("knizia13", num_envs=4, opponents="heuristic")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].shape
((4, 153), (4, 18))
>>> actions = info["action_mask"].argmax(axis=1)
>>> observation, reward, terminated, truncated, info = env.step(actions)
>>> reward.shape, bool(terminated.any())
((4,), False)

The learning seat is ``seat`` (0 by default) in every game. A game that ends is dealt anew in the same step
(``AutoresetMode.SAME_STEP``): its row of ``terminated`` is true, its reward is the learner's, the observation is the
new game's, and ``info["final_obs"]`` holds the learner's observation of the game's end, after the move that ended it
(rows marked by ``info["_final_obs"]``). Actions are checked as :class:`dreizehn.study.vector.VectorGame` checks them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import InvalidOptionError
from dreizehn.core.kernel import GAME_OVER, HEURISTIC, RANDOM, STAGE_OVER, WAITING, make_keys
from dreizehn.study.vector import VectorGame, seed_value, win_shares

POLICIES = {"random": RANDOM, "heuristic": HEURISTIC}


class DreizehnVectorEnv(gymnasium.vector.VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64],
                                                   npt.NDArray[Any]]):
    """``num_envs`` games of ``game``: the learner at ``seat``, the kernel's ``opponents`` (``"random"`` or
    ``"heuristic"``) at the others. Rewards as :class:`~dreizehn.study.vector.VectorGame`'s, for the learner."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012 (as Gymnasium declares it)

    def __init__(self, game: str, num_envs: int, players: int | None = None, *, opponents: str = "random",
                 seat: int = 0, reward: str = "win", options: Mapping[str, object] | None = None,
                 **more_options: object) -> None:
        self.vector = VectorGame(game, num_envs, players, reward=reward, options={**(options or {}), **more_options})
        if opponents not in POLICIES:
            raise InvalidOptionError("option.not_choice", rule="E2", name="opponents", choices=", ".join(POLICIES),
                                     value=opponents)
        n = self.vector.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOptionError("env.seat", rule="E2", last=n - 1, value=seat)
        self.seat = seat
        self.policy = POLICIES[opponents]
        self.num_envs = self.vector.num_envs
        low, high = encoder_of(self.vector.game).observation_layout.bounds()
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.vector.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._final = np.zeros((self.num_envs, self.vector.obs_size), np.float32)
        self._seats = np.full(self.num_envs, seat, np.int64)
        self._status = np.zeros(self.num_envs, np.int8)

    def reset(self, *, seed: int | np.integer[Any] | Sequence[int | np.integer[Any]] | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every game and let the opponents play until the learner is to move. ``seed``: a whole number (of any
        integer type, from 0 to 2**64 - 1) deals game ``i`` from its key ``i``, as :meth:`VectorGame.reset`; a list
        of ``num_envs`` of them deals game ``i`` as ``seed[i]`` deals game 0; ``None`` draws the next seed from the
        environment's generator. Anything else is refused (:class:`~dreizehn.core.errors.InvalidOptionError`, V1).
        """
        seeds = self._seeds(seed)
        super().reset(seed=None if seeds is None else seeds[0])
        if seeds is None:
            self.vector.reset(int(self.np_random.integers(2**62)))
        elif len(seeds) == 1 and not isinstance(seed, Sequence | np.ndarray):
            self.vector.reset(seeds[0])
        else:
            self.vector._deal(np.array([make_keys(one, 1)[0] for one in seeds], np.uint64))
        rewards = np.zeros(self.num_envs, np.float32)
        self._advance(rewards, np.zeros(self.num_envs, np.bool_))
        return self._observe(), self._info(None)

    def _seeds(self, seed: object) -> list[int] | None:
        """The seeds ``reset`` was given, as Python ints: one, or one per game; a refusal naming both forms."""
        if seed is None:
            return None
        try:
            if isinstance(seed, Sequence | np.ndarray) and not isinstance(seed, str | bytes):
                if len(seed) != self.num_envs:
                    raise InvalidOptionError("vector.seed", rule="V1", value=seed)
                return [seed_value(one) for one in seed]
            return [seed_value(seed)]
        except InvalidOptionError:
            raise InvalidOptionError("vector.seeds", rule="V1", num_envs=self.num_envs, value=seed) from None

    def step(self, actions: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                                            npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                                            dict[str, Any]]:
        """The learner's actions, then the opponents' until the learner is to move again in every game."""
        observation, rewards, ended = self._step(actions)
        return observation, rewards, ended, np.zeros(self.num_envs, np.bool_), self._info(ended)

    def _step(self, actions: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                                             npt.NDArray[np.bool_]]:
        """:meth:`step`'s observations, rewards and ended games, without its ``info`` (which copies the masks and
        the final observations: ``dreizehn.envs.sb3`` reads the rows it needs); the final observations of the games
        that ended are in ``_final``."""
        vec = self.vector
        ended = vec._play(actions)  # the games that end on the learner's move, not dealt anew yet
        rewards = vec._rewards[:, self.seat].copy()
        rows = np.flatnonzero(ended)
        if len(rows):
            self._keep_final(vec.states[rows], rows)
            vec.kernel.reset(vec.states, vec.keys, rows)
        self._advance(rewards, ended)
        return self._observe(), rewards, ended

    def _advance(self, rewards: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_]) -> None:
        """Play the opponents' turns in every game until the learner is to move, adding the learner's rewards;
        a game that ends on an opponent's move is scored, its final observation kept, and dealt anew. The kernel
        plays in the environment's own arrays (:meth:`~dreizehn.core.kernel.Kernel.advance`): no game's state is
        copied, only the rows that scored or ended are read."""
        vec = self.vector
        kernel, states, keys = vec.kernel, vec.states, vec.keys
        status = self._status
        while True:
            kernel.advance(states, keys, self.seat, self.policy, status)
            if (status == WAITING).all():
                return
            over = np.flatnonzero(status == GAME_OVER)
            if vec.reward == "score":
                scored = np.flatnonzero((status == STAGE_OVER) | (status == GAME_OVER))
                if len(scored):
                    rewards[scored] += vec._sign * kernel.stage_scores(states[scored])[:, self.seat]
            elif len(over):
                rewards[over] += win_shares(kernel.totals(states[over]), vec.game.high_score_wins)[:, self.seat]
            if len(over):
                self._keep_final(states[over], over)
                ended[over] = True
                kernel.reset(states, keys, over)

    def _keep_final(self, states: npt.NDArray[np.int16], rows: npt.NDArray[np.int64]) -> None:
        """The learner's observation of games that just ended (``states``), kept for ``info["final_obs"]``."""
        out = np.empty((len(rows), self.vector.obs_size), np.float32)
        self.vector.kernel.observe(states, self._seats[rows], out)
        self._final[rows] = out

    def _observe(self) -> npt.NDArray[np.float32]:
        vec = self.vector
        vec._refresh()
        out = np.empty((self.num_envs, vec.obs_size), np.float32)
        vec.kernel.observe(vec.states, self._seats, out)
        return out

    def _info(self, ended: npt.NDArray[np.bool_] | None) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.vector._legal.astype(np.int8)}
        if ended is not None and ended.any():
            info["final_obs"] = self._final.copy()
            info["_final_obs"] = ended.copy()
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in every game, as booleans (for maskable algorithms)."""
        return self.vector._legal.copy()
