"""Every game made with default parameters in OpenSpiel, PettingZoo and Gymnasium ends under random play, within the
length its adapter declares (docs/envs.md, "Every game ends"): each library's own checker on every game, and
uniformly random games (no eager going out) held against the declared bounds, which some of them reach."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from dreizehn.core.game import Game
from dreizehn.core.registry import game_class, game_ids
from dreizehn.envs.observations import max_actions, max_seat_actions, research_players
from dreizehn.games.three_thirteen import RESEARCH_TURN_LIMIT

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("dreizehn.envs.openspiel")
pettingzoo_test = pytest.importorskip("pettingzoo.test")
pz = pytest.importorskip("dreizehn.envs.pettingzoo")
gymnasium = pytest.importorskip("gymnasium")
env_checker = pytest.importorskip("gymnasium.utils.env_checker")
gym_env = pytest.importorskip("dreizehn.envs.gymnasium")

PZ_KNOWN_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)
"""What PettingZoo's ``api_test`` says of every dict observation with an action mask (see test_pettingzoo.py)."""


def _no_other_warnings(check: Callable[[], object], allowed: tuple[str, ...] = ()) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    assert sorted({str(w.message) for w in caught if not str(w.message).startswith(allowed)}) == []


def _random_game(game: Game, seed: int) -> tuple[int, int]:
    """A game of uniformly random legal actions on the engine: its number of actions, and the most in one stage."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    stage, in_stage, most = 0, 0, 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        in_stage += 1
        if state.stage != stage:
            stage, in_stage, most = state.stage, 0, max(most, in_stage)
    return len(state.history), max(most, in_stage)


# -- the checkers -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", game_ids())
def test_openspiel_random_sim_test_with_default_parameters(game_id: str, scale: Callable[[int, int], int]) -> None:
    """OpenSpiel's checker on the game loaded without parameters; it also checks every game's length against
    ``max_game_length``. A default Three Thirteen game takes about 10 s (3,000 to 4,400 actions and the chance nodes,
    each state kept), so one game under the ci profile."""
    game = pyspiel.load_game(openspiel.short_name(game_id))
    assert game.max_game_length() == max_actions(game.engine)
    pyspiel.random_sim_test(game, num_sims=scale(1, 5), serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", game_ids())
def test_pettingzoo_api_test_with_default_parameters(game_id: str) -> None:
    """PettingZoo's checker on ``env(game=...)`` with nothing else: given cycles enough for ``max_actions``, its random
    game (from the action masks) ends before they run out."""
    raw = pz.raw_env(game=game_id)
    bound = raw.max_actions
    assert isinstance(bound, int)
    finished: list[int] = []
    step = raw.step

    def counting_step(action: Any) -> None:
        over = raw.engine.is_over
        step(action)
        if raw.engine.is_over and not over:
            finished.append(len(raw.engine.history))

    raw.step = counting_step
    aec = pz.OrderEnforcingWrapper(raw)
    for seat, agent in enumerate(raw.possible_agents):
        raw.action_space(agent).seed(seat)
    players = len(raw.possible_agents)
    cycles = -(-bound // players) + 1  # the actions (at most the bound), then one leaving step for each agent
    _no_other_warnings(lambda: pettingzoo_test.api_test(aec, num_cycles=cycles), PZ_KNOWN_WARNINGS)
    assert len(finished) == 1 and finished[0] <= bound


@pytest.mark.parametrize("game_id", game_ids())
def test_gymnasium_check_env_with_default_parameters(game_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Gymnasium's checker on ``gymnasium.make`` of the id with nothing else (random opponents)."""
    env = gymnasium.make(gym_env.env_id(game_id))
    assert env.spec.max_episode_steps is None  # no TimeLimit: the game ends by its rules, within max_steps
    _no_other_warnings(lambda: env_checker.check_env(env.unwrapped))
    capsys.readouterr()


# -- the bounds are true bounds, and tight -------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", game_ids())
def test_max_game_length_is_a_true_bound(game_id: str, scale: Callable[[int, int], int]) -> None:
    """Uniformly random games (no eager going out) of the game OpenSpiel loads for each player count: none is longer
    than ``max_game_length``. In Three Thirteen the bound is 11 rounds of the longest round, which random players
    reach: some round ends at the limit, after exactly ``2 * turn_limit`` actions. Every game of 13 reaches its bound
    (every card is played); Holzwurm's, the deck each game, is loose (H6 and H14 end a game with cards unplayed)."""
    lo, hi = game_class(game_id).min_players, game_class(game_id).max_players
    for players in range(lo, hi + 1):
        game = pyspiel.load_game(openspiel.short_name(game_id), {"players": players})
        bound = game.max_game_length()
        lengths, longest_stage = [], 0
        for seed in range(scale(4, 40) if players == research_players(game_id) else scale(1, 10)):
            length, stage = _random_game(game.engine, seed)
            lengths.append(length)
            longest_stage = max(longest_stage, stage)
        assert max(lengths) <= bound, (players, max(lengths), bound)
        if game_id == "three-thirteen":
            limit = game.engine.options["turn_limit"]
            assert limit == RESEARCH_TURN_LIMIT and bound == 11 * 2 * limit
            assert longest_stage == 2 * limit, (players, longest_stage)
            if players == research_players(game_id):  # whole games come near the bound too
                assert max(lengths) > bound * 0.7, (players, max(lengths), bound)
        elif game_id == "knizia13":
            assert max(lengths) == bound  # every card is played


@pytest.mark.parametrize("game_id", game_ids())
def test_gymnasium_episodes_end_within_max_steps(game_id: str) -> None:
    """A uniformly random learner against the default (random) opponents: the episode terminates, never truncated,
    within ``max_steps``; in Three Thirteen it comes near the bound (the learner's share of the limit's turns)."""
    env = gym_env.DreizehnEnv(game_id)
    assert env.max_steps == max_seat_actions(env.game) and isinstance(env.max_steps, int)
    rng = np.random.default_rng(0)
    most = 0
    for seed in range(3):
        _, info = env.reset(seed=seed)
        steps, terminated, truncated = 0, False, False
        while not (terminated or truncated):
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        assert terminated and not truncated and steps <= env.max_steps
        most = max(most, steps)
    if game_id == "three-thirteen":
        assert most > env.max_steps * 0.7


@pytest.mark.parametrize(("players", "limit"), [(2, 1), (3, 7), (5, 12)])
def test_three_thirteen_turn_limit_bounds_are_exact(players: int, limit: int) -> None:
    """Small limits: no round of random play lasts more than ``2 * turn_limit`` actions and some last exactly that,
    the bounds follow, and the adapters pass the option through (0 is the printed rules: no bound)."""
    game = openspiel.engine_game("three-thirteen", {"players": players, "turn_limit": limit})
    assert max_actions(game) == 11 * 2 * limit and max_seat_actions(game) == 11 * 2 * -(-limit // players)
    longest = 0
    for seed in range(5):
        length, stage = _random_game(game, seed)
        assert length <= 11 * 2 * limit
        longest = max(longest, stage)
    assert longest == 2 * limit
    loaded = pyspiel.load_game("dreizehn_three_thirteen", {"players": players, "turn_limit": limit})
    assert loaded.max_game_length() == 11 * 2 * limit
    assert pz.raw_env("three-thirteen", players, turn_limit=limit).max_actions == 11 * 2 * limit
    unlimited = pyspiel.load_game("dreizehn_three_thirteen", {"players": players, "turn_limit": 0})
    assert unlimited.max_game_length() == openspiel.UNBOUNDED_LENGTH
    assert gym_env.DreizehnEnv("three-thirteen", players, turn_limit=0).max_steps is None
