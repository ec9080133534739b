"""The games as Gymnasium environments: one learning seat against bots.

``import dreizehn.envs.gymnasium`` registers ``dreizehn/Knizia13-v0``, ``dreizehn/ThreeThirteen-v0`` and
``dreizehn/Holzwurm-v0``; ``gymnasium.make("dreizehn.envs.gymnasium:dreizehn/Knizia13-v0")`` imports it itself.

>>> import gymnasium
>>> import dreizehn.envs.gymnasium
>>> env = gymnasium.make("dreizehn/Knizia13-v0", opponents="heuristic")
>>> obs, info = env.reset(seed=7)
>>> obs.shape, obs.dtype.name, info["seat"], int(info["action_mask"].sum())
((153,), 'float32', 0, 5)
>>> action = int(info["action_mask"].argmax())
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> reward, terminated, truncated
(0.0, False, False)

* **Observation**: the learning seat's tensor (:mod:`dreizehn.envs.observations`), made from its view only: the
  observation (``observation_type="observation"``, the default) or the information state (``"information_state"``,
  which adds the last actions). A ``Box`` of ``float32`` with finite bounds that every observation keeps.
* **Actions**: ``Discrete(game.num_actions)``, the engine's dense action numbers; ``info["action_mask"]`` (``int8``)
  marks the legal ones and :meth:`DreizehnEnv.action_masks` gives it as booleans (for maskable algorithms).
* **Opponents**: bots by their specs (docs/bots.md), one spec for every other seat or a list with one per other
  seat, clockwise from the learning seat. Each bot sees only its seat's view and plays with its own generator,
  ``random.Random(f"{seed}:bot:{seat}")`` for the game seed ``seed``: the same seed and the same actions give the
  same episode.
* **Reward**: ``reward="win"`` (the default) gives the seat's share of the win at the end (1, 1/k for a k-way tie,
  0), as the engine's ``returns()``; ``reward="score"`` gives each finished stage's points when the stage ends,
  signed so that more is better (minus the points in 13 and Three Thirteen, the points in Holzwurm): an episode's
  rewards add up to the seat's signed total.
* **Illegal actions**: by default (``illegal_action="terminate"``) an illegal action ends the episode with
  ``illegal_reward`` (-1.0), the game unchanged and the engine's reason in ``info["illegal_action"]``; with
  ``illegal_action="raise"`` it raises the engine's :class:`~dreizehn.core.errors.IllegalActionError`.
* **Length**: an episode ends by the game's end within :attr:`DreizehnEnv.max_steps` learner steps (Three Thirteen's
  ``turn_limit`` defaults to 200 here, :func:`~dreizehn.envs.observations.research_options`); ``truncated`` is never
  true.
* **Info**: ``action_mask`` and ``seat`` (the learning seat) always; ``seed`` (the game's seed:
  ``game.new_state(seed)`` deals the same game) after ``reset``; ``totals`` and ``returns`` once the game is over.
"""

from __future__ import annotations

import json
import operator
import random
from collections.abc import Sequence
from typing import Any, Final, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from dreizehn.bots.base import Bot, make_bot
from dreizehn.core.errors import (
    EnvError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
)
from dreizehn.core.game import Game, State, View
from dreizehn.core.registry import game_class, game_ids, load_game
from dreizehn.core.wire import to_wire
from dreizehn.envs.observations import (
    Encoder,
    Layout,
    Vector,
    encoder_of,
    max_seat_actions,
    research_players,
    with_defaults,
)
from dreizehn.play.table import Seat
from dreizehn.play.table import Table as PlayTable
from dreizehn.words import Word

Mask = npt.NDArray[np.int8]
ActionLike = int | np.integer[Any] | str

OBSERVATION_TYPES: Final = ("observation", "information_state")
REWARDS: Final = ("win", "score")
ILLEGAL_ACTIONS: Final = ("terminate", "raise")
RENDER_MODES: Final = ("human", "ansi")


# -- shared with the PettingZoo adapter -----------------------------------------------------------------------------


def make_game(game: str, players: int | None, options: dict[str, object]) -> Game:
    """The engine's game for an environment: ``players`` ``None`` means the game's default count, and options not
    given take the research defaults (:func:`~dreizehn.envs.observations.research_options`: Three Thirteen's
    ``turn_limit`` is 200), else the engine's; the engine refuses bad counts and options with its own message.

    >>> make_game("holzwurm", None, {"games": 1}).players
    4
    >>> make_game("three-thirteen", None, {}).options["turn_limit"]
    200
    """
    cls = game_class(game)
    players = research_players(cls.id) if players is None else players
    return load_game(cls.id, players, with_defaults(cls.id, options))


def choose(name: str, value: object, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``, else a clear refusal naming the parameter.

    >>> choose("reward", "score", REWARDS)
    'score'
    """
    if isinstance(value, str) and value in allowed:
        return value
    raise InvalidOptionError("env.choice", rule="E2", name=name, choices=", ".join(map(repr, allowed)), value=value)


def observation_box(encoder: Encoder, observation_type: str) -> tuple[spaces.Box, Layout]:
    """The ``Box`` of an observation type (``"observation"`` or ``"information_state"``) and its layout."""
    layout = encoder.observation_layout if observation_type == "observation" else encoder.information_state_layout
    low, high = layout.bounds()
    return spaces.Box(low, high, (layout.size,), np.float32), layout


def encode(encoder: Encoder, view: View, observation_type: str) -> Vector:
    """A new tensor of ``view``."""
    if observation_type == "observation":
        return encoder.observation(view)
    return encoder.information_state(view)


def encode_state(encoder: Encoder, state: State, seat: int, observation_type: str) -> Vector:
    """A new tensor of ``seat``'s view of ``state``, made without the view where the game can
    (:meth:`~dreizehn.core.encoding.Encoder.observation_of`): equal to :func:`encode` of the view."""
    if observation_type == "observation":
        return encoder.observation_of(state, seat)
    return encoder.information_state_of(state, seat)


def state_mask(state: State, seat: int, num_actions: int) -> Mask:
    """:func:`action_mask` of ``seat``'s view of ``state``, made without the view."""
    mask = np.zeros(num_actions, np.int8)
    if seat == state.turn:
        mask[list(state.legal_actions())] = 1
    return mask


def action_mask(view: View, num_actions: int) -> Mask:
    """A new ``int8`` vector with 1 at each legal action of ``view`` (all 0 unless its seat is to move).

    >>> import dreizehn
    >>> state = dreizehn.new_game("knizia13", players=4, seed=7)
    >>> mask = action_mask(state.view(state.current_player), state.game.num_actions)
    >>> [int(a) for a in mask.nonzero()[0]] == [int(a) for a in state.legal_actions()]
    True
    """
    mask = np.zeros(num_actions, np.int8)
    mask[list(view.legal_actions)] = 1
    return mask


def action_number(action: object, game: Game) -> int | str:
    """An action as the engine takes it: a whole number (Python's or NumPy's) or a text in notation.

    >>> import dreizehn
    >>> action_number(np.int64(3), dreizehn.load_game("knizia13", players=4))
    3
    """
    if isinstance(action, str):
        return action
    if not isinstance(action, bool | np.bool_):
        try:
            return operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise InvalidActionError("env.action", rule="E3", game=game.title, last=game.num_actions - 1, action=action)


def view_text(view: View, stages: int, title: str, stage_name: str) -> str:
    """What a seat sees, as lines of text (the view without its history)."""
    if view.is_over:
        head = f"{title}: the game is over; totals {list(view.totals)}"
    else:
        head = (f"{title}, {stage_name} {view.stage + 1} of {stages}: seat {view.current_player} to move")
    lines = [f"{head} (the view of seat {view.seat})"]
    skip = {"game_id", "players", "options", "seat", "current_player", "is_over", "stage"}
    for key, value in to_wire(view, history=False).items():
        if key not in skip and value not in (None, [], ()):
            lines.append(f"  {key}: {json.dumps(value, separators=(',', ':'))}")
    return "\n".join(lines)


class AdapterGame:
    """What both adapters keep of the game being played: the engine's state, its seed, the sign that makes more
    points better, and the rendering of a view. Subclasses set ``game``, ``encoder`` and ``render_mode``."""

    game: Game
    encoder: Encoder
    render_mode: str | None
    _state: State | None = None
    _seed: int = 0

    @property
    def engine(self) -> State:
        """The engine's state of the game being played, hidden cards and all: for evaluation and tests, never for
        a learner (raises before the first ``reset``)."""
        if self._state is None:
            raise EnvError("env.no_game", rule="E4")
        return self._state

    @property
    def game_seed(self) -> int:
        """The seed of the game being played: ``game.new_state(game_seed)`` deals the same game."""
        return self._seed

    def stage_points(self, before: int) -> list[tuple[int, ...]]:
        """The points of the stages finished since ``before`` stages were, signed so that more is better (minus
        the points in 13 and Three Thirteen, the points in Holzwurm)."""
        sign = 1 if self.game.high_score_wins else -1
        return [tuple(sign * p for p in scores) for scores in self.engine.stage_scores[before:]]

    def _render(self, view: View) -> str | None:
        """``view`` as text: returned (``"ansi"``) or printed (``"human"``); a warning without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: make the environment with "
                                  "render_mode='ansi' or 'human'")
            return None
        text = view_text(view, self.encoder.stages, self.game.title, self.game.stage_name)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


# -- the environment --------------------------------------------------------------------------------------------------


class DreizehnEnv(AdapterGame, gymnasium.Env[Vector, ActionLike]):
    """One seat of a game against bots (see the module's documentation).

    ``game`` is a game id (``knizia13``, ``three-thirteen``, ``holzwurm``); ``players`` the player count (default 4,
    2 and 4); ``seat`` the learning seat, or ``"random"`` to draw it anew from each game's seed; further keywords are
    the game's options (``dreizehn games`` lists them), refused by the engine when bad.

    >>> env = DreizehnEnv("three-thirteen", players=3, opponents=["heuristic", "random"], seat="random",
    ...                   stock_out="end-round")
    >>> obs, info = env.reset(seed=2)
    >>> info["seat"], [env.game.action_to_text(a) for seat, a in env.view().history]
    (2, ['take', 'discard 2S'])
    >>> [env.game.action_to_text(a) for a in info["action_mask"].nonzero()[0]]
    ['draw', 'take']
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int | str = 0,
        reward: str = "win",
        observation_type: str = "observation",
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        self.game: Game = make_game(game, players, options)
        n = self.game.players
        self.reward_type = choose("reward", reward, REWARDS)
        self.observation_type = choose("observation_type", observation_type, OBSERVATION_TYPES)
        self.illegal_action = choose("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float):
            raise InvalidOptionError("env.illegal_reward", rule="E2", value=illegal_reward)
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None:
            choose("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        if seat == "random":
            self.seat_option: int | str = "random"
        elif isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n:
            self.seat_option = seat
        else:
            raise InvalidOptionError("env.seat", rule="E2", last=n - 1, value=seat)
        self.opponents: tuple[Bot, ...] = self._make_opponents(opponents)
        """The bots, clockwise from the seat after the learning seat."""
        self.encoder = encoder_of(self.game)
        box, _ = observation_box(self.encoder, self.observation_type)
        self.observation_space = cast("spaces.Space[Vector]", box)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._seat = 0
        self._table: PlayTable
        self._done = False
        self.max_steps: int | None = max_seat_actions(self.game)
        """A bound on the learner's steps in an episode, which ends within it by the game's end (``None``: no bound,
        Three Thirteen made with ``turn_limit=0``). No ``TimeLimit`` is registered: ``truncated`` is never true."""

    def _make_opponents(self, opponents: str | Sequence[str]) -> tuple[Bot, ...]:
        others = self.game.players - 1
        if isinstance(opponents, str):
            if "," in opponents:
                raise InvalidOptionError("env.opponents_text", rule="E2", others=others, value=opponents)
            specs: list[str] = [opponents] * others
        elif isinstance(opponents, Sequence) and all(isinstance(spec, str) for spec in opponents):
            specs = list(opponents)
            if len(specs) != others:
                raise InvalidOptionError("env.opponents_count", rule="E2", count=len(specs),
                                         specs=Word("env.bot_spec", len(specs)), players=self.game.players,
                                         others=others, seats=Word("env.opponent_seat", others))
        else:
            raise InvalidOptionError("env.opponents_type", rule="E2", value=opponents)
        return tuple(make_bot(spec, self.game) for spec in specs)

    # -- what the learner sees --------------------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        """The learning seat of the current game."""
        return self._seat

    def view(self) -> View:
        """The learning seat's view of the current game."""
        return self.engine.view(self._seat)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learning seat as booleans (what maskable algorithms call)."""
        return state_mask(self.engine, self._seat, self.game.num_actions).astype(bool)

    def _observation(self) -> Vector:
        return encode_state(self.encoder, self.engine, self._seat, self.observation_type)

    def _info(self) -> dict[str, Any]:
        engine = self.engine
        info: dict[str, Any] = {"action_mask": state_mask(engine, self._seat, self.game.num_actions),
                                "seat": self._seat}
        if engine.is_over:
            info["totals"] = engine.totals
            info["returns"] = engine.returns()
        return info

    # -- the episode ------------------------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """Deal a new game and let the bots play until the learning seat is to move.

        ``seed`` is the game's seed (a new one is drawn from the environment's generator when ``None``); ``options``
        is accepted as Gymnasium asks and not used: the game's options are fixed when the environment is made.
        ``info["seed"]`` holds the game's seed, with which the engine deals the same game.
        """
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63 - 1))
        self._seed = game_seed
        self._state = self.game.new_state(game_seed)
        n = self.game.players
        if self.seat_option == "random":
            self._seat = random.Random(f"{game_seed}:seat").randrange(n)
        else:
            self._seat = int(self.seat_option)
        bots = {(self._seat + 1 + i) % n: bot for i, bot in enumerate(self.opponents)}
        seats = tuple(Seat("learner") if seat == self._seat else Seat(bots[seat].spec, bot=bots[seat].spec)
                      for seat in range(n))
        self._table = PlayTable(self.game, seats, game_seed, self._state, events=False, given_bots=bots)
        self._play_bots()
        self._done = self._state.is_over  # never at the start of these games: every seat moves early in a game
        info = self._info()
        info["seed"] = game_seed
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def _play_bots(self) -> float:
        """Let the bots move at the table until the learning seat is to move or the game ends; the reward that came
        of it."""
        table = self._table
        reward = 0.0
        while table.bot_to_move:
            stages = len(table.state.stage_scores)
            table.step()
            reward += self._reward(stages)
        return reward

    def _apply(self, action: int | str) -> float:
        """Apply the learning seat's action at the table; the learner's reward for it."""
        stages = len(self.engine.stage_scores)
        self._table.submit(self._seat, action)
        return self._reward(stages)

    def _reward(self, stages: int) -> float:
        """The learner's reward for the action just applied, the game having had ``stages`` finished stages
        before it."""
        state = self.engine
        reward = 0.0
        if self.reward_type == "score":
            reward = float(sum(points[self._seat] for points in self.stage_points(stages)))
        elif state.is_over:
            reward = state.returns()[self._seat]
        return reward

    def step(self, action: ActionLike) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        """Play the learning seat's action, then the bots' until the learning seat is to move again or the game ends.

        An illegal action ends the episode with ``illegal_reward`` and changes nothing (``illegal_action=
        "terminate"``), or raises the engine's :class:`~dreizehn.core.errors.IllegalActionError` (``"raise"``).
        Something that is no action of the game at all raises :class:`~dreizehn.core.errors.InvalidActionError`.
        """
        state = self.engine
        if self._done:
            raise GameOverError("env.game_over", rule="E4")
        number = action_number(action, self.game)
        try:
            reward = self._apply(number)
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal_action"] = str(err)
            return self._observation(), self.illegal_reward, True, False, info
        reward += self._play_bots()
        self._done = state.is_over
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._done, False, self._info()

    def render(self) -> str | None:
        """The learning seat's view as text: returned (``"ansi"``) or printed (``"human"``)."""
        return self._render(self.view())

    def close(self) -> None:
        """Nothing to release: the game is dropped."""
        self._state = None


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``dreizehn/<Name>-v0``, its class's :meth:`~dreizehn.core.game.Game.env_name`.

    >>> env_id("three-thirteen")
    'dreizehn/ThreeThirteen-v0'
    """
    return f"dreizehn/{game_class(game_id).env_name()}-v0"


def register_games() -> None:
    """Register every game of :func:`~dreizehn.core.registry.game_ids` not registered with Gymnasium yet (done at
    import; again after a game was added, see :func:`dreizehn.core.registry.refresh`)."""
    for game_id in game_ids():
        env_id_ = env_id(game_id)
        if env_id_ not in gymnasium.registry:
            gymnasium.register(id=env_id_, entry_point=f"{__name__}:DreizehnEnv", kwargs={"game": game_id})


register_games()
