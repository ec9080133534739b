"""Stable-Baselines3's ``VecEnv`` over a game's compiled kernel: ``num_envs`` games in which one seat learns and the
kernel plays the others, with the learner's legal actions for sb3-contrib's ``MaskablePPO`` (docs/vector.md).

>>> from sb3_contrib import MaskablePPO
>>> from dreizehn.envs.sb3 import DreizehnVecEnv
>>> env = DreizehnVecEnv("knizia13", num_envs=64, opponents="heuristic", reward="score")
>>> model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=256, seed=0)  # then model.learn(steps)
>>> env.reset().shape, env.action_masks().shape
((64, 153), (64, 18))

It is :class:`~dreizehn.envs.gymnasium_vector.DreizehnVectorEnv` in Stable-Baselines3's shape: ``step_wait`` returns the
observations, the learner's rewards, ``dones`` and one ``info`` dict per game; a game that ends is dealt anew in the
same step, its last observation in ``info["terminal_observation"]`` and its return and length in
``info["episode"]`` (``{"r", "l"}``, what ``VecMonitor`` would add, so that ``rollout/ep_rew_mean`` is logged without
a wrapper). ``action_masks()`` gives the learner's legal actions, ``(num_envs, num_actions)`` booleans. The
observations are a fresh C-contiguous ``float32`` array each step, which PyTorch takes without a copy
(``torch.as_tensor``, as Stable-Baselines3 does, or ``torch.from_numpy``). The same seed (``env.seed(s)``, or
``MaskablePPO(..., seed=s)``) deals the same games: game ``i`` from key ``i`` of ``s``, as
:meth:`dreizehn.study.vector.VectorGame.reset`.

Needs the ``learn`` extra (``pip install 'dreizehn[learn]'``: torch, stable-baselines3, sb3-contrib).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices

from dreizehn.bots.policy import PolicyNetwork
from dreizehn.core.errors import VectorError
from dreizehn.envs.gymnasium_vector import DreizehnVectorEnv

Step = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]
"""What a step returns: observations, the learner's rewards, which games ended, one info dict per game."""


class DreizehnVecEnv(VecEnv):
    """``num_envs`` games of ``game`` for Stable-Baselines3: the learner at ``seat``, the kernel's ``opponents``
    (``"random"`` or ``"heuristic"``) at the others; ``reward`` ``"win"`` (the learner's share of the win at the end)
    or ``"score"`` (each stage's points, signed so that more is better). Parameters as
    :class:`~dreizehn.envs.gymnasium_vector.DreizehnVectorEnv`'s."""

    render_mode = None

    def __init__(self, game: str, num_envs: int, players: int | None = None, *, opponents: str = "random",
                 seat: int = 0, reward: str = "win", options: Mapping[str, object] | None = None,
                 **more_options: object) -> None:
        self.env = DreizehnVectorEnv(game, num_envs, players, opponents=opponents, seat=seat, reward=reward,
                                     options=options, **more_options)
        super().__init__(self.env.num_envs, self.env.single_observation_space, self.env.single_action_space)
        self._actions: npt.NDArray[np.int64] | None = None
        self._returns = np.zeros(self.num_envs, np.float64)
        self._lengths = np.zeros(self.num_envs, np.int64)

    def reset(self) -> npt.NDArray[np.float32]:
        """Deal every game: from the seed given to :meth:`seed` (once), else from the environment's generator."""
        seed = self._seeds[0]
        observation, _ = self.env.reset(seed=None if seed is None else int(seed) % 2**64)
        self._reset_seeds()
        self._returns[:] = 0.0
        self._lengths[:] = 0
        self._actions = None
        return observation

    def step(self, actions: np.ndarray) -> Step:
        """``step_async`` and ``step_wait`` in one (as Stable-Baselines3's own)."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> Step:
        """The learner's actions in every game, then the opponents' until the learner is to move again."""
        actions, self._actions = self._actions, None  # none without step_async: refused as no actions (V2)
        # no Gymnasium info: it would copy every game's mask and final observation each step; only the rows of the
        # games that ended are read (a copy each: the array is written again when they end next)
        observation, rewards, dones = self.env._step(actions)  # type: ignore[arg-type]
        self._returns += rewards
        self._lengths += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        final = self.env._final
        for row in np.flatnonzero(dones):
            infos[row] = {"terminal_observation": final[row].copy(), "TimeLimit.truncated": False,
                          "episode": {"r": float(self._returns[row]), "l": int(self._lengths[row])}}
        self._returns[dones] = 0.0
        self._lengths[dones] = 0
        return observation, rewards, dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions in every game, ``(num_envs, num_actions)`` booleans (a copy)."""
        return self.env.action_masks()

    def close(self) -> None:
        """Nothing to release: the games live in this process's arrays."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of the environment, once per game asked for (every game shares it)."""
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks`` gives each game's row of :meth:`action_masks` (sb3-contrib stacks them); another method
        is called once and its answer given for each game asked for."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[row] for row in rows]
        value = getattr(self, method_name)(*method_args, **method_kwargs)
        return [value for _ in rows]

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper[Any, Any, Any, Any]],
                       indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices) if isinstance(indices, Sequence) else indices


def export_policy(model: Any, steps: int | None = None) -> PolicyNetwork:
    """The actor of a MaskablePPO ``model`` trained on a :class:`DreizehnVecEnv` (Stable-Baselines3's
    ``MlpPolicy``: its ``policy_net`` of linear layers and ``tanh``, then ``action_net``) as a NumPy
    :class:`~dreizehn.bots.policy.PolicyNetwork`, which plays as ``model.predict(..., deterministic=True)`` does with
    neither torch nor Stable-Baselines3; it notes the game's options but those that name a seat (Holzwurm's
    ``starter``: the observation gives seats as seen from the player's own). Another kind of model or policy is
    refused (:class:`~dreizehn.core.errors.VectorError`, V4)."""
    import torch

    env = model.get_env()
    if not isinstance(env, DreizehnVecEnv):
        raise VectorError("vector.policy_env", rule="V4")
    layers = [*model.policy.mlp_extractor.policy_net, model.policy.action_net]
    for i, layer in enumerate(layers):
        if not isinstance(layer, torch.nn.Tanh if i % 2 else torch.nn.Linear):
            raise VectorError("vector.policy_layers", rule="V4", layer=type(layer).__name__)
    linear = layers[::2]
    game = env.env.vector.game
    return PolicyNetwork(
        weights=tuple(layer.weight.detach().cpu().numpy().T.astype(np.float32).copy() for layer in linear),
        biases=tuple(layer.bias.detach().cpu().numpy().astype(np.float32).copy() for layer in linear),
        game_id=game.id, players=game.players, num_actions=game.num_actions,
        options={spec.name: game.options[spec.name] for spec in game.option_specs if spec.kind != "seat"},
        steps=int(trained_steps(model) if steps is None else steps))


def trained_steps(model: Any) -> int:
    """The learner steps whose rollouts ``model`` has learned from: a rollout cut short (a time limit) is not."""
    return int(model._n_updates // model.n_epochs * model.n_steps * model.n_envs)
