"""The PettingZoo adapter: PettingZoo's own checkers for every game, full games against the engine, observations and
masks made from the views, the rewards, determinism, and the refusals."""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dreizehn
from dreizehn.core.game import Game
from dreizehn.core.registry import game_ids
from dreizehn.envs.observations import encoder_of, with_defaults

pettingzoo_test = pytest.importorskip("pettingzoo.test")
pz = pytest.importorskip("dreizehn.envs.pettingzoo")
gym_env = pytest.importorskip("dreizehn.envs.gymnasium")

SHORT = {"stock_out": "end-round"}
ROOT = Path(__file__).resolve().parents[2]

KNOWN_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)
"""What ``api_test`` says of every observation that is a dict with an action mask, unless the environment is one of
PettingZoo's own classic games (its list of names): the layout PettingZoo asks for masked actions."""


def _quietly(check: Callable[[], object]) -> None:
    """Run a PettingZoo checker; every warning but :data:`KNOWN_WARNINGS` fails the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    others = sorted({str(w.message) for w in caught if not str(w.message).startswith(KNOWN_WARNINGS)})
    assert others == []


class Counting(pz.DreizehnAEC):  # type: ignore[misc,name-defined]
    """The environment, counting the games that reach their end."""

    finished = 0

    def step(self, action: Any) -> None:
        over = self.engine.is_over
        super().step(action)
        self.finished += int(self.engine.is_over and not over)


API_CASES = [
    ("knizia13", 3, {}, 120, True),
    ("knizia13", 6, {"open_piles": True}, 60, True),
    ("holzwurm", 2, {}, 200, True),
    ("holzwurm", 4, {"games": 1, "starter": "random"}, 60, True),
    ("three-thirteen", 2, SHORT, 1500, True),
    ("three-thirteen", 4, SHORT, 1500, True),
    ("three-thirteen", 2, {}, 200, False),  # 400 actions: a default game runs longer (test_default_games.py)
]


@pytest.mark.parametrize(("game_id", "players", "options", "cycles", "ends"), API_CASES)
def test_api_test(game_id: str, players: int, options: dict[str, object], cycles: int, ends: bool) -> None:
    """PettingZoo's own checker, playing random games from the action masks (to their end but for the last). It seeds
    the first reset with 0, which seeds the later ones; the action spaces are seeded here, so the games are fixed."""
    counting = Counting(game_id, players, **options)
    aec = pz.OrderEnforcingWrapper(counting)
    for seat, agent in enumerate(counting.possible_agents):
        counting.action_space(agent).seed(seat)
    _quietly(lambda: pettingzoo_test.api_test(aec, num_cycles=cycles))
    assert (counting.finished >= 1) == ends


@pytest.mark.parametrize(("reward", "observation_type"), [("score", "observation"), ("win", "information_state")])
def test_api_test_other_rewards_and_tensors(reward: str, observation_type: str) -> None:
    aec = pz.env(game="holzwurm", players=3, reward=reward, observation_type=observation_type, games=1)
    _quietly(lambda: pettingzoo_test.api_test(aec, num_cycles=60))


@pytest.mark.parametrize("game_id", game_ids())
def test_seed_and_render_tests(game_id: str) -> None:
    options = SHORT if game_id == "three-thirteen" else {}
    _quietly(lambda: pettingzoo_test.seed_test(lambda: pz.env(game=game_id, **options), num_cycles=50))
    _quietly(lambda: pettingzoo_test.render_test(lambda render_mode: pz.env(game=game_id, render_mode=render_mode,
                                                                            **options)))


def _policy(game: Game, rng: random.Random) -> Callable[[np.ndarray[Any, Any]], int]:
    """A random legal action from the mask, taking the game's eager actions when legal (so Three Thirteen ends)."""
    def choose(mask: np.ndarray[Any, Any]) -> int:
        legal = [int(a) for a in np.flatnonzero(mask)]
        eager = [a for a in legal if a in game.eager_actions]
        return rng.choice(eager or legal)
    return choose


FULL_CASES = [
    ("knizia13", 4, "win", {}),
    ("knizia13", 3, "score", {}),
    ("holzwurm", 3, "win", {}),
    ("holzwurm", 2, "score", {"games": 2}),
    ("three-thirteen", 2, "win", SHORT),
    ("three-thirteen", 3, "score", {}),
]


@pytest.mark.parametrize(("game_id", "players", "reward", "options"), FULL_CASES)
def test_full_game_matches_the_engine(game_id: str, players: int, reward: str, options: dict[str, object]) -> None:
    """A whole game through the adapter, beside the engine replaying the same actions from the same seed: the agent to
    move, every agent's observation and mask after every action, the rewards, and the final scores agree."""
    seed = 11
    aec = pz.env(game=game_id, players=players, reward=reward, **options)
    raw = aec.unwrapped
    aec.reset(seed=seed)
    engine = dreizehn.load_game(game_id, players, with_defaults(game_id, options)).new_state(seed)
    encoder = encoder_of(engine.game)
    sign = 1 if engine.game.high_score_wins else -1
    choose = _policy(engine.game, random.Random(3))
    got = dict.fromkeys(raw.possible_agents, 0.0)
    steps = 0
    while not engine.is_over:
        for s, agent in enumerate(raw.possible_agents):
            obs = aec.observe(agent)
            assert raw.observation_space(agent).contains(obs)
            view = engine.view(s)
            assert np.array_equal(obs["observation"], encoder.observation(view))
            assert [int(a) for a in np.flatnonzero(obs["action_mask"])] == [int(a) for a in view.legal_actions]
        assert aec.agent_selection == f"player_{engine.current_player}"
        action = choose(aec.observe(aec.agent_selection)["action_mask"])
        stages = len(engine.stage_scores)
        engine.apply(action)
        aec.step(action)
        steps += 1
        expected = dict.fromkeys(raw.possible_agents, 0.0)
        if reward == "score":
            for scores in engine.stage_scores[stages:]:
                for s, agent in enumerate(raw.possible_agents):
                    expected[agent] += sign * scores[s]
        elif engine.is_over:
            expected = dict(zip(raw.possible_agents, engine.returns(), strict=True))
        assert aec.rewards == expected
        for agent in raw.possible_agents:
            got[agent] += aec.rewards[agent]
    assert steps == len(engine.history)
    assert raw.engine.totals == engine.totals and raw.engine.history == engine.history
    final = engine.returns() if reward == "win" else tuple(sign * t for t in engine.totals)
    assert tuple(got[a] for a in raw.possible_agents) == pytest.approx(final)
    assert all(aec.terminations.values()) and not any(aec.truncations.values())
    left = []
    for agent in aec.agent_iter():  # every agent leaves with its last observation and, by last(), its reward
        obs, last_reward, terminated, truncated, _ = aec.last()
        assert terminated and not truncated and not obs["action_mask"].any()
        if reward == "win":
            assert last_reward == engine.returns()[raw.seat(agent)]
        left.append(agent)
        aec.step(None)
    assert sorted(left) == sorted(raw.possible_agents) and aec.agents == []


def test_turns_follow_the_engine_in_three_thirteen() -> None:
    """A Three Thirteen turn is two actions by the same seat: the agent to move stays for the discard."""
    aec = pz.env(game="three-thirteen", players=2)
    aec.reset(seed=3)
    first = aec.agent_selection
    aec.step(aec.unwrapped.game.parse_action("draw"))
    assert aec.agent_selection == first
    mask = aec.observe(first)["action_mask"]
    aec.step(int(np.flatnonzero(mask)[0]))
    assert aec.agent_selection != first


def test_illegal_action_raises_and_changes_nothing() -> None:
    aec = pz.env(game="knizia13", players=4)
    aec.reset(seed=7)
    agent = aec.agent_selection
    before = aec.observe(agent)
    history = aec.unwrapped.engine.history
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(dreizehn.IllegalActionError, match=r"\(K\d+\)"):
        aec.step(illegal)
    assert aec.agent_selection == agent and aec.unwrapped.engine.history == history
    assert np.array_equal(aec.observe(agent)["observation"], before["observation"])
    with pytest.raises(dreizehn.InvalidActionError, match="a whole number from 0 to 17"):
        aec.step(1.5)
    with pytest.raises(dreizehn.InvalidActionError, match="18 is not an action number of 13"):
        aec.step(18)
    aec.step(np.int64(int(np.flatnonzero(before["action_mask"])[0])))  # NumPy whole numbers are actions too
    assert len(aec.unwrapped.engine.history) == 1


def test_terminate_illegal_wrapper() -> None:
    """PettingZoo's wrapper finds the mask in the observation: an illegal action ends the game, -1 for its agent."""
    wrappers = pytest.importorskip("pettingzoo.utils.wrappers")
    aec = wrappers.OrderEnforcingWrapper(wrappers.TerminateIllegalWrapper(pz.raw_env("knizia13", 4), illegal_reward=-1))
    aec.reset(seed=7)
    agent = aec.agent_selection
    mask = aec.last()[0]["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper's own message about the illegal move
        aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(aec.terminations.values())
    assert aec.rewards == {a: (-1.0 if a == agent else 0.0) for a in aec.possible_agents}
    assert aec.unwrapped.engine.history == ()


def test_docs_examples_run() -> None:
    """The PettingZoo examples of the adapters' documentation run as written."""
    text = (ROOT / "docs" / "envs.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "dreizehn.envs.pettingzoo" in b]
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/envs.md", "exec"), {})


def test_actions_as_text() -> None:
    aec = pz.env(game="knizia13", players=4)
    aec.reset(seed=3)
    aec.step("R4>Y")  # seat 1 holds a nasty four (see the game's module)
    assert aec.unwrapped.engine.history[-1][1] == aec.unwrapped.game.parse_action("R4>Y")


def test_seeds() -> None:
    """A given seed deals that seed's game; without one the environment's own generator draws the seed, so a seeded
    environment repeats its sequence of games."""
    aec = pz.env(game="holzwurm", players=3)
    aec.reset(seed=5)
    assert aec.unwrapped.game_seed == 5
    engine = dreizehn.new_game("holzwurm", players=3, seed=5)
    assert np.array_equal(aec.observe("player_1")["observation"], encoder_of(engine.game).observation(engine.view(1)))
    drawn = []
    for _ in range(2):
        aec.reset(seed=5)
        aec.reset()
        drawn.append((aec.unwrapped.game_seed, aec.observe("player_0")["observation"].tobytes()))
    assert drawn[0] == drawn[1] and drawn[0][0] != 5
    aec.reset(seed=6)
    assert aec.observe("player_0")["observation"].tobytes() != drawn[0][1]
    fresh = [pz.env(game="holzwurm", players=3) for _ in range(2)]
    for one in fresh:
        one.reset()
    assert fresh[0].unwrapped.game_seed != fresh[1].unwrapped.game_seed


def test_spaces_and_metadata() -> None:
    aec = pz.raw_env("three-thirteen", players=3, observation_type="information_state")
    assert aec.metadata["name"] == "dreizehn_three_thirteen_v0" and aec.metadata["is_parallelizable"] is False
    assert str(aec) == "dreizehn_three_thirteen_v0"
    assert aec.possible_agents == ["player_0", "player_1", "player_2"]
    space = aec.observation_space("player_2")
    size = encoder_of(aec.game).information_state_layout.size
    assert space["observation"].shape == (size,) and space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (aec.game.num_actions,) and space["action_mask"].dtype == np.int8
    assert aec.action_space("player_0").n == aec.game.num_actions
    assert aec.observation_space("player_0") is aec.observation_space("player_0")
    assert pz.env(game="knizia13").unwrapped.game.players == 4  # the default player counts
    assert pz.env(game="three-thirteen").unwrapped.game.players == 2


def test_render_text() -> None:
    aec = pz.env(game="knizia13", players=4, render_mode="ansi")
    aec.reset(seed=3)
    text = aec.render()
    assert text.startswith("13, stage 1 of 4: seat 1 to move (the view of seat 1)")
    assert 'hand: ["B4","B5","Y7","G1","R4"]' in text


def test_refusals() -> None:
    with pytest.raises(dreizehn.UnknownGameError, match="there is no game 'chess'"):
        pz.env(game="chess")
    with pytest.raises(dreizehn.InvalidOptionError, match=r"13 is for 3 to 6 players, not 2 \(K4\)"):
        pz.env(game="knizia13", players=2)
    with pytest.raises(dreizehn.InvalidOptionError, match="13 has no option 'colour'"):
        pz.env(game="knizia13", colour="red")
    with pytest.raises(dreizehn.InvalidOptionError, match="option 'stock_out' must be one of reshuffle, end-round"):
        pz.env(game="three-thirteen", stock_out="never")
    with pytest.raises(ValueError, match="reward must be one of 'win', 'score', not 'points'"):
        pz.env(game="holzwurm", reward="points")
    with pytest.raises(ValueError, match="observation_type must be one of"):
        pz.env(game="holzwurm", observation_type="state")
    with pytest.raises(ValueError, match="render_mode must be one of 'human', 'ansi', not 'rgb_array'"):
        pz.env(game="holzwurm", render_mode="rgb_array")
    raw = pz.raw_env("holzwurm")
    with pytest.raises(ValueError, match=r"no game yet: call reset\(\) first"):
        raw.engine  # noqa: B018
    with pytest.raises(ValueError, match="there is no agent 'player_9'"):
        raw.seat("player_9")


@pytest.mark.parametrize("game_id", game_ids())
def test_observation_bounds_are_finite_and_hold(game_id: str) -> None:
    """Every block of both tensors has finite bounds; the random games above keep them (api_test checks every
    observation against its space), and the score bound is what the rules allow."""
    game = dreizehn.load_game(game_id, 3)
    encoder = encoder_of(game)
    for layout in (encoder.observation_layout, encoder.information_state_layout):
        low, high = layout.bounds()
        assert np.isfinite(low).all() and np.isfinite(high).all() and (low <= high).all()
    low, high = encoder.observation_layout.bounds()
    totals = encoder.observation_layout.block(high, "totals")
    bound = {"knizia13": 58 * 6, "three-thirteen": 88 * 10, "holzwurm": 210 * 3}[game_id]
    assert (totals == bound).all()
