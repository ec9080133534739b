"""The batched environment (dreizehn.study.vector, docs/vector.md): determinism, auto-reset, rewards, records, and every
kind of bad input refused with the game's index and the rule, nothing changed."""

from __future__ import annotations

import numpy as np
import pytest

from dreizehn.core.errors import InvalidOptionError, UnknownGameError, VectorError
from dreizehn.core.kernel import HEURISTIC, RANDOM, load_kernel, make_keys
from dreizehn.core.record import replay
from dreizehn.core.registry import load_game
from dreizehn.study.vector import VectorGame, play_record, win_shares
from dreizehn.words import words

KERNEL_GAMES = [("knizia13", 4), ("holzwurm", 3), ("three-thirteen", 2)]


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    chosen: np.ndarray = (rng.random(mask.shape) * mask).argmax(axis=1)
    return chosen


@pytest.mark.parametrize(("game_id", "players"), KERNEL_GAMES)
def test_game_i_is_the_same_game_whatever_the_batch(game_id: str, players: int) -> None:
    small, large = VectorGame(game_id, 2, players), VectorGame(game_id, 5, players)
    a, b = small.reset(seed=9), large.reset(seed=9)
    assert np.array_equal(a.observation, b.observation[:2])
    other = VectorGame(game_id, 2, players).reset(seed=10)
    assert not np.array_equal(a.observation, other.observation)
    for _ in range(30):
        actions = a.action_mask.argmax(axis=1)
        a = small.step(actions)
        b = large.step(np.concatenate([actions, b.action_mask[2:].argmax(axis=1)]))
        assert np.array_equal(a.observation, b.observation[:2])
        assert np.array_equal(a.action_mask, b.action_mask[:2])


@pytest.mark.parametrize(("game_id", "players"), KERNEL_GAMES)
def test_games_end_are_scored_and_dealt_anew(game_id: str, players: int) -> None:
    env = VectorGame(game_id, 16, players)
    scored = VectorGame(game_id, 16, players, reward="score")
    batch, other = env.reset(seed=3), scored.reset(seed=3)
    rng = np.random.default_rng(0)
    points = np.zeros((16, players))
    ended = 0
    while ended < 16:
        actions = random_actions(batch.action_mask, rng)
        batch, other = env.step(actions), scored.step(actions)
        points += other.rewards
        assert np.array_equal(batch.terminated, other.terminated)
        running = ~batch.terminated
        # each stage's points come as it ends, signed so that more is better (minus the points where the fewest win):
        # they add up to the signed totals
        sign = 1 if env.game.high_score_wins else -1
        assert np.array_equal(points[running], sign * scored.kernel.totals(scored.states)[running])
        for i in np.flatnonzero(batch.terminated):
            assert batch.rewards[i].sum() == pytest.approx(1.0) and batch.rewards[i].max() > 0
            points[i] = 0
            ended += 1
        # every row holds a game in progress, with a seat to move and a legal action
        assert (batch.current_player >= 0).all() and batch.action_mask.any(axis=1).all()
    assert (env.kernel.current(env.states) >= 0).all()


def test_win_shares_split_ties() -> None:
    totals = np.array([[3, 1, 1, 4], [2, 2, 2, 2]])
    assert win_shares(totals, high_score_wins=False).tolist() == [[0, 0.5, 0.5, 0], [0.25] * 4]
    assert win_shares(totals, high_score_wins=True).tolist() == [[0, 0, 0, 1], [0.25] * 4]


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = VectorGame("knizia13", 4, 4)
    batch = env.reset(seed=1)
    states, keys = env.states.copy(), env.keys.copy()
    illegal = np.flatnonzero(~batch.action_mask[2])[0]
    good = batch.action_mask.argmax(axis=1)
    bad_inputs: list[tuple[object, str, str | None]] = [
        (good[:3], "vector.shape", "V2"),
        (np.stack([good, good]), "vector.shape", "V2"),
        ("B1", "vector.shape", "V2"),
        (good.astype(np.float64), "vector.dtype", "V2"),
        (good.astype(np.bool_), "vector.dtype", "V2"),
        (np.where(np.arange(4) == 1, 18, good), "vector.not_action", "A5"),
        (np.where(np.arange(4) == 3, -1, good), "vector.not_action", "A5"),
        (np.where(np.arange(4) == 2, illegal, good), "vector.illegal", "K9"),
    ]
    for actions, code, rule in bad_inputs:
        with pytest.raises(VectorError) as caught:
            env.step(actions)
        assert (caught.value.code, caught.value.rule) == (code, rule)
        assert np.array_equal(env.states, states) and np.array_equal(env.keys, keys)
    message = str(caught.value)
    assert message.startswith("game 2: ") and "(K9)" in message
    assert words("de").error(caught.value).startswith("Spiel 2: ")
    env.step(good)  # and the games go on


def test_step_before_reset_and_bad_parameters() -> None:
    with pytest.raises(VectorError, match=r"reset\(\)"):
        VectorGame("knizia13", 2).step(np.zeros(2, np.int64))
    for kwargs in ({"num_envs": 0}, {"num_envs": True}, {"num_envs": 2, "reward": "points"},
                   {"num_envs": 2, "illegal": "ignore"}):
        with pytest.raises(InvalidOptionError):
            VectorGame("knizia13", **kwargs)
    with pytest.raises(InvalidOptionError):
        VectorGame("knizia13", 2, players=7)


def test_a_game_without_a_kernel_is_refused_by_name() -> None:
    game = load_game("knizia13", 4)
    type(game).kernel, saved = "", type(game).kernel
    try:
        with pytest.raises(UnknownGameError) as caught:
            load_kernel(game)
    finally:
        type(game).kernel = saved
    assert (caught.value.code, caught.value.rule) == ("kernel.none", "V1")


def test_penalty_ends_the_game_of_an_illegal_action() -> None:
    env = VectorGame("knizia13", 3, 4, illegal="penalty", illegal_reward=-2.0)
    batch = env.reset(seed=4)
    mover = int(batch.current_player[1])
    actions = batch.action_mask.argmax(axis=1)
    actions[1] = np.flatnonzero(~batch.action_mask[1])[0]
    step = env.step(actions)
    assert step.terminated.tolist() == [False, True, False]
    expected = np.zeros(4)
    expected[mover] = -2.0
    assert step.rewards[1].tolist() == expected.tolist() and not step.rewards[[0, 2]].any()
    fresh = VectorGame("knizia13", 3, 4)
    fresh.reset(seed=4)
    assert int(env.states[1, 3]) == 0  # stage 0 of a new game


@pytest.mark.parametrize("policy", [RANDOM, HEURISTIC])
@pytest.mark.parametrize(("game_id", "seat_option", "low"),
                         [("knizia13", "dealer", 3), ("holzwurm", "starter", 2), ("three-thirteen", "dealer", 2)])
def test_kernel_games_are_records_that_replay(policy: int, game_id: str, seat_option: str, low: int) -> None:
    for seed in range(5):
        doc = play_record(game_id, low + seed % 4, seed=seed, policy=policy, **{seat_option: "random"})
        state = replay(doc)
        assert state.is_over and list(state.totals) == doc["totals"]
        assert [list(s) for s in state.stage_scores] == doc["stage_scores"]


def test_keys_are_independent_and_reproducible() -> None:
    assert np.array_equal(make_keys(5, 3), make_keys(5, 10)[:3])
    assert len(set(make_keys(5, 1000).tolist())) == 1000
    kernel = load_kernel(load_game("knizia13", 4))
    states, keys = kernel.new(200), make_keys(1, 200)
    kernel.reset(states, keys)
    kernel.playout(states, keys, RANDOM)
    assert (kernel.current(states) == -1).all()
    # the random deals put each card kind first about equally often (50 cards; 8 nasty fours of 50)
    firsts = np.array([kernel.last_deal(row)[0] for row in states])
    assert 0.06 < np.mean(firsts == 15) < 0.27


@pytest.mark.parametrize("illegal", ["raise", "penalty"])
def test_legality_is_checked_against_the_games_not_the_mask_handed_out(illegal: str) -> None:
    env = VectorGame("knizia13", 3, 4, illegal=illegal)
    batch = env.reset(seed=2)
    truly_legal = batch.action_mask.copy()
    bad = int(np.flatnonzero(~truly_legal[1])[0])
    batch.action_mask[1, bad] = True  # the caller writes into the array it was handed
    batch.current_player[1] = (batch.current_player[1] + 1) % 4
    actions = truly_legal.argmax(axis=1)
    actions[1] = bad
    states = env.states.copy()
    if illegal == "raise":
        with pytest.raises(VectorError) as caught:
            env.step(actions)
        assert (caught.value.code, caught.value.rule, caught.value.params["index"]) == ("vector.illegal", "K9", 1)
        assert np.array_equal(env.states, states)
    else:
        mover = int(env.kernel.current(env.states)[1])
        step = env.step(actions)
        assert step.terminated.tolist() == [False, True, False]
        assert step.rewards[1, mover] == -1.0 and step.rewards[1].sum() == -1.0


def test_seeds_outside_their_range_are_refused_not_wrapped() -> None:
    env = VectorGame("knizia13", 2, 4)
    for seed in (2**64, -1, 2**80 + 5, np.int64(-3)):
        with pytest.raises(InvalidOptionError) as caught:
            env.reset(seed=seed)
        assert (caught.value.code, caught.value.rule) == ("vector.seed", "V1")
    last = env.reset(seed=2**64 - 1).observation.copy()
    assert np.array_equal(env.reset(seed=np.uint64(2**64 - 1)).observation, last)
    assert not np.array_equal(env.reset(seed=0).observation, last)
