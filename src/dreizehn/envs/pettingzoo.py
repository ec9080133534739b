"""The games as PettingZoo AEC environments: every seat an agent, ``player_0`` … ``player_{n-1}``.

>>> from dreizehn.envs.pettingzoo import env
>>> aec = env(game="knizia13", players=4)
>>> aec.reset(seed=7)
>>> aec.agent_selection
'player_1'
>>> obs, reward, terminated, truncated, info = aec.last()
>>> obs["observation"].shape, obs["action_mask"].dtype.name, int(obs["action_mask"].sum())
((153,), 'int8', 6)
>>> aec.step(int(obs["action_mask"].argmax()))
>>> aec.agent_selection
'player_2'

:func:`env` wraps :class:`DreizehnAEC` in PettingZoo's order-enforcing wrapper (stepping before ``reset`` is refused);
:func:`raw_env` gives it bare.

* **Observation** of an agent: ``{"observation": tensor, "action_mask": mask}``, both made from its seat's view only
  (:mod:`dreizehn.envs.observations`): the tensor is ``float32`` (the observation, or with
  ``observation_type="information_state"`` the information state) in a ``Box`` with finite bounds, the mask ``int8``
  with 1 at each legal action (all 0 for an agent not to move).
* **Actions**: ``Discrete(game.num_actions)``, the engine's dense action numbers (Python or NumPy whole numbers, or
  the action's text). An illegal one raises the engine's :class:`~dreizehn.core.errors.IllegalActionError`, naming
  the rule, and changes nothing; mask the policy (PettingZoo's ``TerminateIllegalWrapper`` turns illegal actions into
  a lost game instead).
* **Turns** follow the engine: ``agent_selection`` is the seat to move, which in Three Thirteen moves twice in a row
  (draw, then discard).
* **Rewards**: ``reward="win"`` (the default) gives every agent its share of the win when the game ends (1, 1/k for
  a k-way tie, 0); ``reward="score"`` gives every agent each stage's points when the stage ends, signed so that more
  is better (minus the points in 13 and Three Thirteen). All agents terminate together when the game ends.
* **Length**: a game ends within :attr:`DreizehnAEC.max_actions` actions (Three Thirteen's ``turn_limit`` defaults to
  200 here, :func:`~dreizehn.envs.observations.research_options`); no agent is ever truncated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

from dreizehn.core.errors import InvalidOptionError
from dreizehn.core.game import Game
from dreizehn.envs.gymnasium import (
    OBSERVATION_TYPES,
    RENDER_MODES,
    REWARDS,
    AdapterGame,
    action_number,
    choose,
    encode_state,
    make_game,
    observation_box,
    state_mask,
)
from dreizehn.envs.observations import encoder_of, max_actions
from dreizehn.play.table import Seat
from dreizehn.play.table import Table as PlayTable

Observation = dict[str, np.ndarray[Any, Any]]


def env_name(game_id: str) -> str:
    """The environment's name in its metadata: ``dreizehn_`` and the game id with ``_`` for ``-``, then ``_v0``.

    >>> env_name("three-thirteen")
    'dreizehn_three_thirteen_v0'
    """
    return f"dreizehn_{game_id.replace('-', '_')}_v0"


class DreizehnAEC(AdapterGame, AECEnv):  # type: ignore[misc]
    """A game with every seat an agent (see the module's documentation); made by :func:`env` or :func:`raw_env`.

    >>> aec = DreizehnAEC("holzwurm", players=2, reward="score", games=1)
    >>> aec.possible_agents, aec.metadata["name"]
    (['player_0', 'player_1'], 'dreizehn_holzwurm_v0')
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "dreizehn_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        reward: str = "win",
        observation_type: str = "observation",
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        super().__init__()
        self.game: Game = make_game(game, players, options)
        self.reward_type = choose("reward", reward, REWARDS)
        self.observation_type = choose("observation_type", observation_type, OBSERVATION_TYPES)
        if render_mode is not None:
            choose("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": env_name(self.game.id)}
        self.encoder = encoder_of(self.game)
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(self.game.players)]
        self.agents: list[str] = []
        box, _ = observation_box(self.encoder, self.observation_type)
        mask_box = spaces.Box(0, 1, (self.game.num_actions,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask_box}) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.game.num_actions) for agent in self.possible_agents}
        self._np_random, _ = seeding.np_random()
        self.max_actions: int | None = max_actions(self.game)
        """A bound on the actions of a game, every agent's, after which every agent has terminated (``None``: no
        bound, Three Thirteen made with ``turn_limit=0``). Nothing is ever truncated."""

    # -- spaces and observations ------------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """``Dict(observation=Box(float32), action_mask=Box(int8))``, the same object on every call."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(game.num_actions)``, the same object on every call."""
        return self.action_spaces[agent]

    def seat(self, agent: str) -> int:
        """The seat of an agent: ``player_2`` sits at seat 2."""
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise InvalidOptionError("env.agent", rule="E2", agent=agent,
                                     agents=", ".join(self.possible_agents)) from None

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now: its tensor and its action mask, new arrays made from its seat's view."""
        seat = self.seat(agent)
        return {
            "observation": encode_state(self.encoder, self.engine, seat, self.observation_type),
            "action_mask": state_mask(self.engine, seat, self.game.num_actions),
        }

    # -- the game ---------------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game from ``seed`` (a new seed from the environment's generator when ``None``; a given seed
        also seeds that generator). ``options`` is accepted as PettingZoo asks and not used: the game's options are
        fixed when the environment is made."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            game_seed = seed
        else:
            game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self._seed = game_seed
        self._state = self.game.new_state(game_seed)
        self._table = PlayTable(self.game, tuple(Seat(agent) for agent in self.possible_agents), game_seed,
                                self._state, events=False)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player]
        self._skip_agent_selection = None
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` once it has terminated, to let it leave)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.engine
        number = action_number(action, self.game)
        stages = len(state.stage_scores)
        seat = state.current_player
        self._table.submit(seat, number)  # an illegal action raises here and changes nothing
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.reward_type == "score":
            for points in self.stage_points(stages):
                for s, name in enumerate(self.possible_agents):
                    self.rewards[name] += float(points[s])
        if state.is_over:
            if self.reward_type == "win":
                for s, share in enumerate(state.returns()):
                    self.rewards[self.possible_agents[s]] = share
            for name in self.agents:
                self.terminations[name] = True
            self.agent_selection = self.possible_agents[(seat + 1) % self.game.players]
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The view of the agent to move as text: returned (``"ansi"``) or printed (``"human"``)."""
        return self._render(self.engine.view(self.seat(self.agent_selection)))

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    game: str,
    players: int | None = None,
    reward: str = "win",
    observation_type: str = "observation",
    render_mode: str | None = None,
    **options: object,
) -> DreizehnAEC:
    """The environment without wrappers; the parameters are :func:`env`'s."""
    return DreizehnAEC(game, players, reward, observation_type, render_mode, **options)


def env(
    game: str,
    players: int | None = None,
    reward: str = "win",
    observation_type: str = "observation",
    render_mode: str | None = None,
    **options: object,
) -> Any:
    """A PettingZoo AEC environment of ``game`` (``knizia13``, ``three-thirteen``, ``holzwurm``) for ``players``
    (default 4, 2 and 4), wrapped to enforce the order of calls.

    ``reward`` is ``"win"`` or ``"score"``; ``observation_type`` ``"observation"`` or ``"information_state"``;
    ``render_mode`` ``"human"``, ``"ansi"`` or ``None``; further keywords are the game's options (``dreizehn games``
    lists them), refused by the engine when bad.

    >>> env(game="three-thirteen", players=2, stock_out="end-round").unwrapped.game.options["stock_out"]
    'end-round'
    """
    return OrderEnforcingWrapper(raw_env(game, players, reward, observation_type, render_mode, **options))
