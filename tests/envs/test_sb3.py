"""Stable-Baselines3's VecEnv over the kernels (dreizehn.envs.sb3): MaskablePPO trains on it with no glue, masks
come from the kernel, ended games hand their last observation and return, and the same seed deals the same games.

Needs the ``learn`` extra (torch, stable-baselines3, sb3-contrib); without it every test here is skipped, and says
so in pytest's summary (``-ra``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the learn extra is not installed: pip install 'dreizehn[learn]'")

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecEnv

from dreizehn.envs.sb3 import DreizehnVecEnv


@pytest.mark.parametrize(("game_id", "players"), [("knizia13", 4), ("holzwurm", 3), ("three-thirteen", 2)])
def test_maskable_ppo_trains_with_no_glue(
    game_id: str, players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few hundred learner steps of MaskablePPO straight on the environment: every action it takes is legal
    (an illegal one would be refused by the kernel's own check), and whole games end and are logged."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # its logger's folder, else a new one in /tmp each run
    torch.set_num_threads(1)
    env = DreizehnVecEnv(game_id, num_envs=16, players=players, opponents="heuristic", reward="score")
    assert isinstance(env, VecEnv) and is_masking_supported(env)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=128, n_epochs=1, seed=0, device="cpu")
    model.learn(16 * 32 * 2)
    assert model.num_timesteps == 16 * 32 * 2
    if game_id == "knizia13":  # its games are short enough to end within the run
        assert model.ep_info_buffer is not None and len(model.ep_info_buffer) > 0
    observation = env.reset()
    action, _ = model.predict(observation, action_masks=get_action_masks(env), deterministic=True)
    assert env.action_masks()[np.arange(16), action].all()


def test_masks_final_observations_and_returns() -> None:
    env = DreizehnVecEnv("knizia13", num_envs=8, opponents="random", seat=1, reward="score")
    env.seed(3)
    observation = env.reset()
    assert observation.dtype == np.float32 and observation.flags.c_contiguous and observation.shape == (8, 153)
    assert np.shares_memory(torch.as_tensor(observation).numpy(), observation)  # PyTorch takes it without a copy
    rng = np.random.default_rng(0)
    returns = np.zeros(8)
    ended = 0
    while ended < 8:
        masks = get_action_masks(env)
        assert masks.dtype == np.bool_ and masks.shape == (8, 18) and masks.any(axis=1).all()
        observation, rewards, dones, infos = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        returns += rewards
        assert len(infos) == 8
        for row in np.flatnonzero(dones):
            info = infos[row]
            assert info["episode"]["r"] == pytest.approx(returns[row]) and info["episode"]["l"] > 10
            assert info["terminal_observation"].shape == (153,) and not info["terminal_observation"][:4].any()
            assert info["TimeLimit.truncated"] is False
            returns[row] = 0.0
            ended += 1
        assert all(not infos[row] for row in np.flatnonzero(~dones))


def test_a_step_copies_no_games_masks_or_final_observations(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 48 item 1: a step builds no Gymnasium ``info`` (which copied every game's mask and every game's final
    observation); the games that ended hand a copy of their own final observation, which later ends do not
    overwrite."""
    from dreizehn.envs.gymnasium_vector import DreizehnVectorEnv

    def no_info(self: DreizehnVectorEnv, ended: object) -> None:
        raise AssertionError("the sb3 adapter built Gymnasium's info")

    env = DreizehnVecEnv("knizia13", num_envs=8, opponents="random", reward="score")
    env.seed(5)
    env.reset()
    monkeypatch.setattr(DreizehnVectorEnv, "_info", no_info)
    rng = np.random.default_rng(1)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    while len(kept) < 12:
        masks = get_action_masks(env)
        _, _, dones, infos = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        for row in np.flatnonzero(dones):
            final = infos[row]["terminal_observation"]
            assert not np.shares_memory(final, env.env._final)
            kept.append((final, final.copy()))
    assert all(np.array_equal(final, seen) for final, seen in kept)


def test_the_same_seed_deals_the_same_games() -> None:
    a, b = (DreizehnVecEnv("holzwurm", num_envs=4, opponents="heuristic") for _ in range(2))
    a.seed(7)
    b.seed(7)
    oa, ob = a.reset(), b.reset()
    assert np.array_equal(oa, ob)
    for _ in range(20):
        actions = a.action_masks().argmax(axis=1)
        oa, ra, da, _ = a.step(actions)
        ob, rb, db, _ = b.step(actions)
        assert np.array_equal(oa, ob) and np.array_equal(ra, rb) and np.array_equal(da, db)
    assert a.get_attr("render_mode") == [None] * 4
    assert a.env_is_wrapped(gymnasium.Wrapper, indices=[0, 2]) == [False, False]
