"""The Gymnasium adapter: Gymnasium's own checker for every game, full games against the engine and the bots, the
observations and masks, rewards, seats, determinism, illegal actions, registration and the refusals."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.core.registry import game_ids
from dreizehn.envs.observations import encoder_of, with_defaults

gymnasium = pytest.importorskip("gymnasium")
env_checker = pytest.importorskip("gymnasium.utils.env_checker")
gym_env = pytest.importorskip("dreizehn.envs.gymnasium")

SHORT = {"stock_out": "end-round"}
ROOT = Path(__file__).resolve().parents[2]
IDS = {"knizia13": "dreizehn/Knizia13-v0", "three-thirteen": "dreizehn/ThreeThirteen-v0",
       "holzwurm": "dreizehn/Holzwurm-v0"}


NO_SPEC = "Not able to test alternative render modes due to the environment not having a spec"
"""What the checker says of an environment made without ``gymnasium.make``."""


def _check(env: Any, allowed: tuple[str, ...] = ()) -> None:
    """Gymnasium's checker on the bare environment; any warning it gives but ``allowed`` ones fails the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env_checker.check_env(env.unwrapped)
    assert sorted({str(w.message) for w in caught if not any(text in str(w.message) for text in allowed)}) == []


@pytest.mark.parametrize("game_id", game_ids())
def test_check_env_through_make(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``gymnasium.make`` with heuristic opponents, then the checker (which makes the environment again for each
    render mode and unmasked random actions, which end the episode as illegal)."""
    env = gymnasium.make(IDS[game_id], opponents="heuristic")
    assert env.spec.id == IDS[game_id]
    _check(env)
    assert "(the view of seat 0)" in capsys.readouterr().out  # the checker renders in "human" mode too


@pytest.mark.parametrize(
    ("game_id", "players", "kwargs"),
    [
        ("knizia13", 5, {"seat": "random", "reward": "score", "open_piles": True}),
        ("three-thirteen", 4, {"opponents": ["heuristic", "random", "ismcts:iterations=5"], "seat": 2, **SHORT}),
        ("holzwurm", 2, {"observation_type": "information_state", "illegal_reward": -10, "games": 1}),
    ],
)
def test_check_env_direct(game_id: str, players: int, kwargs: dict[str, Any]) -> None:
    """The checker on environments made directly, with other seats, rewards, opponents and tensors."""
    _check(gym_env.DreizehnEnv(game_id, players=players, render_mode="ansi", **kwargs), allowed=(NO_SPEC,))


def test_registered_and_made_from_a_fresh_interpreter() -> None:
    """The three ids are registered on import, and the ``module:id`` form imports the module itself."""
    assert set(IDS.values()) <= set(gymnasium.registry)
    assert {game_id: gym_env.env_id(game_id) for game_id in dreizehn.game_ids()} == IDS
    code = ("import gymnasium; env = gymnasium.make('dreizehn.envs.gymnasium:dreizehn/Holzwurm-v0', games=1); "
            "obs, info = env.reset(seed=1); print(type(env.unwrapped).__name__, obs.shape, info['seed'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    size = encoder_of(dreizehn.load_game("holzwurm", 4, {"games": 1})).observation_layout.size
    assert out.stdout.split() == ["DreizehnEnv", f"({size},)", "1"]


def _choose(game: dreizehn.Game, mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    """A random legal action from the mask, taking the game's eager actions when legal (so Three Thirteen ends)."""
    legal = [int(a) for a in np.flatnonzero(mask)]
    eager = [a for a in legal if a in game.eager_actions]
    return rng.choice(eager or legal)


FULL_CASES = [
    ("knizia13", 4, "heuristic", 1, "win", {}),
    ("knizia13", 3, "random", "random", "score", {}),
    ("holzwurm", 3, "heuristic", 2, "win", {}),
    ("holzwurm", 4, "random", 0, "score", {"games": 2}),
    ("three-thirteen", 2, "heuristic", 0, "score", SHORT),
    ("three-thirteen", 3, "random", "random", "win", {}),
]


@pytest.mark.parametrize(("game_id", "players", "opponents", "seat", "reward", "options"), FULL_CASES)
def test_full_game_matches_the_engine_and_the_bots(
    game_id: str, players: int, opponents: str, seat: int | str, reward: str, options: dict[str, object]
) -> None:
    """A whole game through the adapter, beside the engine dealing the same seed: every action the learner sent and
    every opponent action (each what the bot gives for its view with its documented generator) replays there; after
    every step the observation and mask are the learner's view's, the reward is what the engine scored, and the
    episode's rewards add up to the engine's final result."""
    env = gym_env.DreizehnEnv(game_id, players=players, opponents=opponents, seat=seat, reward=reward, **options)
    obs, info = env.reset(seed=21)
    game_seed = info["seed"]
    assert game_seed == 21
    engine = dreizehn.load_game(game_id, players, with_defaults(game_id, options)).new_state(game_seed)
    me = info["seat"]
    bot = make_bot(opponents, engine.game)
    rngs = {s: random.Random(f"{game_seed}:bot:{s}") for s in range(players) if s != me}
    encoder = encoder_of(engine.game)
    sign = 1 if engine.game.high_score_wins else -1
    sent: list[int] = []
    rng = random.Random(5)
    total, terminated = 0.0, False

    def catch_up() -> float:
        """Replay the history the learner has seen since; the learner's reward over it."""
        history = env.view().history
        reward = 0.0
        for s, action in history[len(engine.history):]:
            if s == me:
                assert action == sent.pop(0)
            else:
                assert action == bot.act(engine.view(s), rngs[s])
            stages = len(engine.stage_scores)
            engine.apply(action)
            if env.reward_type == "score":
                reward += sum(sign * scores[me] for scores in engine.stage_scores[stages:])
            elif engine.is_over:
                reward += engine.returns()[me]
        return reward

    assert catch_up() == 0.0
    while not terminated:
        view = engine.view(me)
        assert engine.current_player == me
        assert np.array_equal(obs, encoder.observation(view))
        assert [int(a) for a in np.flatnonzero(info["action_mask"])] == [int(a) for a in view.legal_actions]
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        action = _choose(engine.game, info["action_mask"], rng)
        sent.append(action)
        obs, got, terminated, truncated, info = env.step(action)
        assert not truncated and info["seat"] == me
        assert got == catch_up()
        total += got
    assert engine.is_over and not sent
    assert np.array_equal(obs, encoder.observation(engine.view(me))) and not info["action_mask"].any()
    assert info["totals"] == engine.totals and info["returns"] == engine.returns()
    expected = engine.returns()[me] if reward == "win" else sign * engine.totals[me]
    assert total == pytest.approx(expected)
    with pytest.raises(dreizehn.GameOverError, match=r"the episode is over: call reset\(\)"):
        env.step(0)


def test_win_reward_is_the_share_of_the_win() -> None:
    """Episodes of a heuristic learner against random bots until it wins: its last reward is its share of the win,
    as the engine replaying the game counts it, and the earlier rewards are 0."""
    env = gym_env.DreizehnEnv("holzwurm", players=3, opponents="random", seat=1, games=1)
    learner = make_bot("heuristic", env.game)
    for seed in range(40):
        env.reset(seed=seed)
        rewards = []
        terminated = False
        while not terminated:
            _, got, terminated, _, info = env.step(learner.act(env.view(), random.Random(seed)))
            rewards.append(got)
        engine = env.game.new_state(seed)
        for _, action in env.view().history:
            engine.apply(action)
        assert info["returns"] == engine.returns() and rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == engine.returns()[1]
        if rewards[-1] > 0:
            break
    else:
        pytest.fail("the heuristic learner won none of 40 games against random bots")


def _trajectory(env: Any, seed: int | None, steps: int) -> list[Any]:
    obs, info = env.reset(seed=seed)
    out: list[Any] = [obs.tobytes(), info["seed"], info["seat"]]
    rng = random.Random(0)
    for _ in range(steps):
        obs, reward, terminated, _, info = env.step(_choose(env.game, info["action_mask"], rng))
        out += [obs.tobytes(), reward]
        if terminated:
            break
    return out


def test_same_seed_same_episode() -> None:
    def make() -> Any:
        return gym_env.DreizehnEnv("knizia13", players=4, opponents="ismcts:iterations=20", seat="random")
    first, second = make(), make()
    assert _trajectory(first, 8, 30) == _trajectory(second, 8, 30)
    assert _trajectory(first, 9, 30) != _trajectory(second, 8, 30)
    first.reset(seed=8)
    second.reset(seed=8)
    assert _trajectory(first, None, 5) == _trajectory(second, None, 5)  # the next seed comes from the generator
    seats = {make().reset(seed=seed)[1]["seat"] for seed in range(12)}
    assert seats == {0, 1, 2, 3}


def test_opponents_per_seat_sit_clockwise_from_the_learner() -> None:
    env = gym_env.DreizehnEnv("holzwurm", players=3, opponents=["heuristic", "random"], seat=1, games=1)
    assert [bot.spec for bot in env.opponents] == ["heuristic", "random"]
    env.reset(seed=4)
    engine = dreizehn.new_game("holzwurm", players=3, seed=4, games=1)
    bots = {2: make_bot("heuristic", engine.game), 0: make_bot("random", engine.game)}
    rngs = {s: random.Random(f"4:bot:{s}") for s in bots}
    rng = random.Random(1)
    while not engine.is_over:
        history = env.view().history
        for s, action in history[len(engine.history):]:
            if s != 1:
                assert action == bots[s].act(engine.view(s), rngs[s])
            engine.apply(action)
        if engine.is_over:
            break
        env.step(rng.choice(engine.legal_actions()))


def test_illegal_actions() -> None:
    env = gym_env.DreizehnEnv("knizia13", players=4)
    obs, info = env.reset(seed=7)
    history = env.engine.history
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert re.search(r"\(K\d+\)$", info["illegal_action"])
    assert env.engine.history == history and np.array_equal(after, obs)
    with pytest.raises(dreizehn.GameOverError, match="the episode is over"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))

    strict = gym_env.DreizehnEnv("knizia13", players=4, illegal_action="raise", illegal_reward=-5)
    obs, info = strict.reset(seed=7)
    with pytest.raises(dreizehn.IllegalActionError, match=r"\(K\d+\)"):
        strict.step(illegal)
    assert strict.engine.history == history
    with pytest.raises(dreizehn.InvalidActionError, match="a whole number from 0 to 17"):
        strict.step(np.float32(2.0))
    with pytest.raises(dreizehn.InvalidActionError, match="18 is not an action number of 13"):
        strict.step(18)
    strict.step(np.int32(int(np.flatnonzero(info["action_mask"])[0])))
    assert len(strict.view().history) > len(history)


def test_docs_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    """The Gymnasium examples of the adapters' documentation run as written."""
    text = (ROOT / "docs" / "envs.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "dreizehn.envs.gymnasium" in b]
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/envs.md", "exec"), {})
    assert capsys.readouterr().out.strip()


def test_render_and_close(capsys: pytest.CaptureFixture[str]) -> None:
    env = gym_env.DreizehnEnv("three-thirteen", players=2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("Three Thirteen, round 1 of 11: seat 0 to move (the view of seat 0)")
    assert "hand:" in text and "legal_actions:" in text
    human = gym_env.DreizehnEnv("three-thirteen", players=2, render_mode="human")
    human.reset(seed=3)
    assert human.render() is None and capsys.readouterr().out.strip().endswith(text.splitlines()[-1])
    env.close()
    env.close()
    with pytest.raises(ValueError, match=r"no game yet: call reset\(\) first"):
        env.step(0)


def test_refusals() -> None:
    make = gym_env.DreizehnEnv
    with pytest.raises(dreizehn.UnknownGameError, match="there is no game 'go'"):
        make("go")
    with pytest.raises(dreizehn.InvalidOptionError, match=r"Holzwurm is for 2 to 6 players, not 7 \(H\d+\)"):
        make("holzwurm", players=7)
    with pytest.raises(dreizehn.InvalidOptionError, match=r"option 'games' must be a whole number from 1 to 20"):
        make("holzwurm", games=0)
    with pytest.raises(dreizehn.InvalidOptionError, match="there is no bot 'genius'"):
        make("knizia13", opponents="genius")
    with pytest.raises(dreizehn.InvalidOptionError, match="bot 'ismcts' has no option 'depth'"):
        make("knizia13", opponents="ismcts:depth=3")
    with pytest.raises(dreizehn.InvalidOptionError, match="opponents lists 2 bot specs, but a game of 4 players has 3"):
        make("knizia13", opponents=["random", "heuristic"])
    with pytest.raises(dreizehn.InvalidOptionError, match="not the text 'heuristic,random'"):
        make("knizia13", opponents="heuristic,random")
    with pytest.raises(dreizehn.InvalidOptionError, match="opponents must be a bot spec or a list of bot specs"):
        make("knizia13", opponents=3)
    with pytest.raises(dreizehn.InvalidOptionError, match="seat must be a seat from 0 to 3 or 'random', not 4"):
        make("knizia13", seat=4)
    with pytest.raises(ValueError, match="reward must be one of 'win', 'score', not 'margin'"):
        make("knizia13", reward="margin")
    with pytest.raises(ValueError, match="illegal_action must be one of 'terminate', 'raise', not 'ignore'"):
        make("knizia13", illegal_action="ignore")
    with pytest.raises(ValueError, match="illegal_reward must be a number, not 'low'"):
        make("knizia13", illegal_reward="low")
    with pytest.raises(ValueError, match="observation_type must be one of"):
        make("knizia13", observation_type="pixels")
    with pytest.raises(dreizehn.InvalidOptionError, match="13 has no option 'stock_out'"):
        gymnasium.make(IDS["knizia13"], stock_out="end-round")
