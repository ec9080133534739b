"""Gymnasium's vector API over the kernels (dreizehn.envs.gymnasium_vector): the learner always to move, opponents
played by
the kernel, games that end scored for the learner and dealt anew in the same step."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode

from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import InvalidOptionError, VectorError
from dreizehn.core.kernel import GAME_OVER
from dreizehn.envs.gymnasium_vector import DreizehnVectorEnv


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_the_learner_is_always_to_move_and_games_end(opponents: str) -> None:
    env = DreizehnVectorEnv("knizia13", num_envs=8, opponents=opponents, seat=2)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    observation, info = env.reset(seed=5)
    assert observation.shape == (8, 153) and env.observation_space.contains(observation)
    rng = np.random.default_rng(1)
    ended = 0
    total = 0.0
    while ended < 8:
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.any(axis=1).all()
        assert (env.vector.kernel.current(env.vector.states) == 2).all()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        observation, reward, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(observation) and not truncated.any()
        if terminated.any():
            assert info["_final_obs"].tolist() == terminated.tolist()
            final = info["final_obs"][terminated]
            assert (final[:, :4] == 0).all()  # to_move is all 0 in the final observation: the game is over
            ended += int(terminated.sum())
            total += float(reward[terminated].sum())
        assert not reward[~terminated].any()
    assert 0.0 <= total <= ended


def test_same_seed_same_games() -> None:
    a, b = (DreizehnVectorEnv("knizia13", num_envs=4, opponents="heuristic") for _ in range(2))
    oa, ia = a.reset(seed=11)
    ob, _ = b.reset(seed=11)
    for _ in range(60):
        assert np.array_equal(oa, ob)
        actions = ia["action_mask"].argmax(axis=1)
        oa, ra, ta, _, ia = a.step(actions)
        ob, rb, tb, _, _ = b.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)


def test_bad_parameters_and_actions() -> None:
    with pytest.raises(InvalidOptionError):
        DreizehnVectorEnv("knizia13", num_envs=2, opponents="expert")
    with pytest.raises(InvalidOptionError):
        DreizehnVectorEnv("knizia13", num_envs=2, seat=4)
    env = DreizehnVectorEnv("knizia13", num_envs=2)
    env.reset(seed=0)
    with pytest.raises(VectorError):
        env.step(np.array([0.5, 1.0]))


@pytest.mark.parametrize(("game_id", "players", "seat"), [("knizia13", 4, 1), ("three-thirteen", 2, 0)])
def test_final_obs_is_after_the_learners_own_last_move(game_id: str, players: int, seat: int) -> None:
    env = DreizehnVectorEnv(game_id, num_envs=32, players=players, seat=seat, opponents="heuristic")
    vec, kernel = env.vector, env.vector.kernel
    layout = encoder_of(vec.game).observation_layout
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(2)
    seats = np.full(32, seat, np.int64)
    own = 0
    for _ in range(3000):
        mask = info["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        # the learner's move alone, played on a copy of the games: the observation it leaves
        states, keys, status = vec.states.copy(), vec.keys.copy(), np.zeros(32, np.int8)
        kernel.step(states, keys, actions, status)
        after = np.empty((32, vec.obs_size), np.float32)
        kernel.observe(states, seats, after)
        _, _, terminated, _, info = env.step(actions)
        mine = status == GAME_OVER
        assert terminated[mine].all()
        if mine.any():
            final = info["final_obs"][mine]
            assert np.array_equal(final, after[mine])
            assert not any(layout.block(row, "to_move").any() for row in final)  # the game is over: no one to move
            own += int(mine.sum())
        if own >= 3:
            break
    assert own >= 3


def test_reset_takes_seeds_of_any_integer_type_and_a_list_of_one_per_game() -> None:
    env = DreizehnVectorEnv("knizia13", num_envs=3)
    plain = env.reset(seed=3)[0].copy()
    for seed in (np.int64(3), np.uint32(3), np.int8(3)):
        assert np.array_equal(env.reset(seed=seed)[0], plain)
    one = DreizehnVectorEnv("knizia13", num_envs=1)
    alone = [one.reset(seed=s)[0][0].copy() for s in (5, 8, 2**64 - 1)]
    assert np.array_equal(env.reset(seed=[5, np.int64(8), 2**64 - 1])[0], np.stack(alone))
    for bad in (1.5, True, "3", [1, 2], [1, 2, 3, 4], [1, 2.0, 3], [1, None, 3], -1, 2**64, (x for x in (1, 2, 3))):
        with pytest.raises(InvalidOptionError) as caught:
            env.reset(seed=bad)  # type: ignore[arg-type]
        assert caught.value.rule == "V1"


def _one_game(kernel: object, states: np.ndarray, keys: np.ndarray, action: int, seat: int, policy: int,
              reward: str, sign: float) -> tuple[float, bool]:
    """The learner's ``action`` and then the opponents' moves in one game (rows of length one, advanced in place),
    played one action at a time through the kernel's ``choose`` and ``step``: the learner's reward and whether the
    game ended (and was dealt anew)."""
    from dreizehn.core.kernel import STAGE_OVER
    from dreizehn.study.vector import win_shares

    status = np.zeros(1, np.int8)
    got, ended = 0.0, False
    while True:
        kernel.step(states, keys, np.array([action]), status)  # type: ignore[attr-defined]
        if reward == "score" and status[0] in (STAGE_OVER, GAME_OVER):
            got += sign * float(kernel.stage_scores(states)[0, seat])  # type: ignore[attr-defined]
        if status[0] == GAME_OVER:
            if reward == "win":
                got += float(win_shares(kernel.totals(states), sign > 0)[0, seat])  # type: ignore[attr-defined]
            ended = True
            kernel.reset(states, keys)  # type: ignore[attr-defined]
        if kernel.current(states)[0] == seat:  # type: ignore[attr-defined]
            return got, ended
        action = int(kernel.choose(states, keys, policy)[0])  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game_id", "players", "seat", "opponents", "reward"), [
    ("knizia13", 4, 1, "heuristic", "score"), ("knizia13", 3, 0, "random", "win"),
    ("holzwurm", 4, 2, "heuristic", "win"), ("three-thirteen", 2, 1, "heuristic", "score"),
    ("three-thirteen", 3, 0, "heuristic", "score")])
def test_the_opponents_play_in_place_as_one_game_at_a_time(game_id: str, players: int, seat: int, opponents: str,
                                                          reward: str) -> None:
    """The opponents' moves, played by the kernel in the environment's own arrays (no copy of the batch), are the
    moves the kernel chooses game by game: every observation, reward and end agrees with each game played on its
    own, one action at a time, from the same keys."""
    env = DreizehnVectorEnv(game_id, num_envs=6, players=players, opponents=opponents, seat=seat, reward=reward)
    kernel = env.vector.kernel
    observation, info = env.reset(seed=3)
    states, keys = env.vector.states.copy(), env.vector.keys.copy()
    rng = np.random.default_rng(4)
    sign = env.vector._sign if reward == "score" else (1.0 if env.vector.game.high_score_wins else -1.0)
    seen = np.zeros(6, np.int64)
    for _ in range(150):
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        observation, rewards, terminated, _, info = env.step(actions)
        for row in range(6):
            got, ended = _one_game(kernel, states[row : row + 1], keys[row : row + 1], int(actions[row]), seat,
                                   env.policy, reward, sign)
            assert rewards[row] == pytest.approx(got) and terminated[row] == ended
            seen[row] += ended or got != 0.0
        expected = np.empty_like(observation)
        kernel.observe(states, np.full(6, seat, np.int64), expected)
        assert np.array_equal(observation, expected)
    assert seen.sum() > 0


@pytest.mark.parametrize("game_id", ["knizia13", "holzwurm", "three-thirteen"])
def test_advance_moves_only_the_other_seats_games(game_id: str) -> None:
    """``Kernel.advance`` plays one move in the games whose seat to move is not ``seat`` and leaves the others,
    key and all, as they were (``WAITING``)."""
    from dreizehn.core.kernel import HEURISTIC, WAITING
    from dreizehn.study.vector import VectorGame

    vec = VectorGame(game_id, num_envs=32)
    vec.reset(seed=9)
    for _ in range(5):
        vec.step(vec.kernel.choose(vec.states.copy(), vec.keys.copy(), HEURISTIC))
    before, before_keys = vec.states.copy(), vec.keys.copy()
    vec.step(vec.kernel.choose(vec.states.copy(), vec.keys.copy(), HEURISTIC))
    # half the games one move behind the others: two different seats to move in the batch
    states = np.concatenate([before[:16], vec.states[16:]])
    keys = np.concatenate([before_keys[:16], vec.keys[16:]])
    seat = int(vec.kernel.current(states)[0])
    played, played_keys = states.copy(), keys.copy()
    status = np.zeros(32, np.int8)
    vec.kernel.advance(played, played_keys, seat, HEURISTIC, status)
    waiting = vec.kernel.current(states) == seat
    assert waiting.any() and (~waiting).any()
    assert (status[waiting] == WAITING).all() and (status[~waiting] >= 0).all()
    assert np.array_equal(played[waiting], states[waiting]) and np.array_equal(played_keys[waiting], keys[waiting])
    assert all(not np.array_equal(played[i], states[i]) for i in np.flatnonzero(~waiting))
