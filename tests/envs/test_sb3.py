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

from dreizehn.bots.policy import load_policy
from dreizehn.core.errors import VectorError
from dreizehn.envs.sb3 import DreizehnVecEnv, export_policy, trained_steps


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


@pytest.mark.parametrize(("game_id", "players"), [("knizia13", 4), ("holzwurm", 4), ("three-thirteen", 2)])
def test_an_exported_policy_plays_as_the_model_does(game_id: str, players: int, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``export_policy`` gives the model's actor in NumPy: after a little learning (its weights no longer the
    initial ones), the saved and loaded network's logits equal the model's within float32 rounding and its choice is
    ``predict(..., deterministic=True)``'s at every position of a few hundred, wherever the two best legal logits are
    not within that rounding of each other; the file knows its game, player count and options (not those
    that name a seat, 13's ``dealer`` and Holzwurm's ``starter``)."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))
    torch.set_num_threads(1)
    env = DreizehnVecEnv(game_id, num_envs=16, players=players, opponents="heuristic", reward="score")
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=128, n_epochs=2, seed=1, device="cpu")
    model.learn(16 * 16 * 2)
    export_policy(model).save(tmp_path / "policy.npz")
    net = load_policy(tmp_path / "policy.npz")
    game = env.env.vector.game
    assert (net.game_id, net.players, net.num_actions, net.steps) == (game_id, players, game.num_actions, 512)
    seats = {spec.name for spec in game.option_specs if spec.kind == "seat"}
    assert net.options == {k: v for k, v in game.options.items() if k not in seats} and net.options
    observations, masks = [], []
    obs = env.reset()
    for _ in range(20):
        mask = env.action_masks()
        observations.append(obs)
        masks.append(mask)
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        obs, *_ = env.step(action)
    obs_all, mask_all = np.concatenate(observations), np.concatenate(masks)
    with torch.no_grad():
        features = model.policy.extract_features(torch.as_tensor(obs_all), model.policy.pi_features_extractor)
        assert isinstance(features, torch.Tensor)
        theirs = model.policy.action_net(model.policy.mlp_extractor.forward_actor(features)).numpy()
    ours = net.logits(obs_all)
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4)
    predicted, _ = model.predict(obs_all, action_masks=mask_all, deterministic=True)
    legal = np.where(mask_all, theirs, -np.inf)
    top2 = np.sort(legal, axis=1)[:, -2:]
    clear = (top2[:, 1] - top2[:, 0] > 1e-3) | ~np.isfinite(top2[:, 0])
    assert clear.sum() > len(clear) // 2
    assert (net.choose(obs_all, mask_all)[clear] == predicted[clear]).all()


def test_only_a_tanh_mlp_policy_is_exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A policy whose layers are not linear with ``tanh`` between them (here ReLU) is refused, not exported wrong;
    a file of another kind (the ``learned`` bot's value network) is refused as a policy."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))
    env = DreizehnVecEnv("knizia13", num_envs=4, players=4)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, device="cpu",
                        policy_kwargs={"activation_fn": torch.nn.ReLU})
    with pytest.raises(VectorError) as refused:
        export_policy(model)
    assert (refused.value.code, refused.value.rule, refused.value.params["layer"]) == ("vector.policy_layers", "V4",
                                                                                       "ReLU")
    from dreizehn.bots.learned import MODEL_FILE

    with pytest.raises(VectorError) as refused:
        load_policy(Path(__file__).parents[2] / "src/dreizehn/games/knizia13" / MODEL_FILE)
    assert (refused.value.code, refused.value.rule) == ("vector.policy_file", "V4") and "value" in str(refused.value)


def test_the_exported_policy_plays_in_the_arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``examples/policy_agent.py`` plays an exported network in the arena, as docs/envs.md's command does, without a
    fault; a network of another game or player count is refused as the agent is loaded."""
    from dreizehn.study.arena import play_arena

    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    env = DreizehnVecEnv("knizia13", num_envs=4, players=4)
    model = MaskablePPO("MlpPolicy", env, n_steps=8, batch_size=32, device="cpu")
    export_policy(model).save(tmp_path / "policy.npz")
    monkeypatch.setenv("DREIZEHN_POLICY", str(tmp_path / "policy.npz"))
    result = play_arena("knizia13", 4, "examples.policy_agent:PolicyAgent", levels=["easy"], games=2)
    assert not result.faults and result.rows[0].games == 2
    with pytest.raises(ValueError, match="plays knizia13 at 4 players"):
        play_arena("knizia13", 3, "examples.policy_agent:PolicyAgent", levels=["easy"], games=1)


def test_a_rollout_cut_short_is_not_counted_as_learned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``trained_steps``: the exported network says the learner steps it learned from; a time limit that stops
    learning in the middle of a rollout (``examples/train_maskable_ppo.py --minutes``) leaves that rollout out."""
    from stable_baselines3.common.callbacks import BaseCallback

    class StopAt(BaseCallback):
        def _on_step(self) -> bool:
            return self.num_timesteps < 2 * 64 + 20

    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))
    env = DreizehnVecEnv("knizia13", num_envs=4, players=4)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=3, device="cpu")
    model.learn(10_000, callback=StopAt())
    assert model.num_timesteps == 2 * 64 + 20 and trained_steps(model) == 2 * 64
    assert export_policy(model).steps == 2 * 64
