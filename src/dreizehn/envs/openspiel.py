"""The games as OpenSpiel Python games: ``import dreizehn.envs.openspiel`` registers them with ``pyspiel``.

>>> import pyspiel
>>> import dreizehn.envs.openspiel
>>> game = pyspiel.load_game("dreizehn_three_thirteen", {"players": 2, "stock_out": "end-round"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

Names: ``dreizehn_knizia13``, ``dreizehn_three_thirteen`` and ``dreizehn_holzwurm``. Parameters: ``players`` and the
game's options (``dreizehn games`` lists them); a seat option takes a seat number (OpenSpiel games have no hidden
seed to draw a ``random`` seat from), and Three Thirteen's ``decks`` takes 0 for its default for the player count.
Three Thirteen's ``turn_limit`` defaults to 200 here (:data:`~dreizehn.games.three_thirteen.RESEARCH_TURN_LIMIT`),
not to the engine's 0 (no limit), so that every game loaded with default parameters ends.

* **Game length.** ``max_game_length`` is a true bound on the player actions of a game, reached by some games
  (:func:`~dreizehn.envs.observations.max_actions`): the deck once a stage in 13 and Holzwurm, ``11 * 2 * turn_limit``
  in Three Thirteen (4,400 by default). Only Three Thirteen loaded with ``turn_limit=0`` (the printed rules) has no
  bound: it reports :data:`UNBOUNDED_LENGTH`.
* **Chance nodes.** Every shuffle is dealt card by card: a chance node picks the next card of the shuffled order
  (top first) among the cards not yet placed, each kind with the probability of its share of them; the chance
  action is the card's number (its kind). The last card of a shuffle needs no chance node.
* **Actions** are the engine's dense action numbers, ``0 .. num_distinct_actions - 1`` (docs/envs.md).
* **Returns** are the engine's: 1 for a sole win, 1/k for a win shared by k players, 0 otherwise (a constant-sum
  game of utility sum 1), given at the end.
* **Observations** are made from a seat's view only (:mod:`dreizehn.envs.observations`): the information state is the
  view with the whole history (string) or its last actions (tensor); the observation leaves the history out.
* **Resampling.** ``state.resample_from_infostate(player, sampler)`` deals what ``player`` cannot see anew
  (:meth:`~dreizehn.core.game.Game.sample_state`); the resampled state's own ``history()`` is empty, as the hidden
  past is not resampled, so it can be played on and cloned, but not serialized.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

import numpy as np
import pyspiel

from dreizehn.core.errors import EnvError, IllegalActionError, InvalidActionError, InvalidOptionError, ShuffleNeeded
from dreizehn.core.game import Game, OptionSpec, State, View
from dreizehn.core.registry import game_class, game_ids
from dreizehn.core.wire import to_wire
from dreizehn.envs.observations import Encoder, Layout, encoder_of, max_actions, research_options, research_players

PREFIX = "dreizehn_"
UNBOUNDED_LENGTH = 1 << 20
"""The ``max_game_length`` given for Three Thirteen loaded with ``turn_limit=0``, whose rounds then have no bound
(players who take the discard instead of drawing can go on for ever): not a bound, a large number."""


_SHARED = frozenset(("game", "log", "options", "shuffles"))
"""Fields of a state left out of its text: the game, and what its history and shuffles already tell."""


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a game: ``dreizehn_`` and its id with ``_`` for ``-``."""
    return PREFIX + game_id.replace("-", "_")


def _parameter(spec: OptionSpec) -> object:
    if spec.kind == "int" and spec.default is None:
        return 0
    return spec.default


def engine_game(game_id: str, params: Mapping[str, object]) -> Game:
    """The engine's game for OpenSpiel parameters (checked: a bad one raises with the engine's message)."""
    cls = game_class(game_id)
    given = dict(params)
    players = given.pop("players", research_players(game_id))
    options: dict[str, object] = research_options(game_id)
    specs = {spec.name: spec for spec in cls.option_specs}
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            raise InvalidOptionError("env.parameter", rule="E1", game=cls.title, name=name, options=", ".join(specs))
        if spec.kind == "int" and spec.default is None and value == 0:
            continue
        if spec.kind == "seat" and value == "random":
            raise InvalidOptionError("env.seat_random", rule="E1", name=name)
        options[name] = value
    if not isinstance(players, int):
        raise InvalidOptionError("players.not_whole", rule=cls.player_rule, players=players)
    return cls(players, options)


def max_game_length(game: Game) -> int:
    """A bound on the number of player actions of a game (:func:`~dreizehn.envs.observations.max_actions`), or
    :data:`UNBOUNDED_LENGTH` where there is none (Three Thirteen with ``turn_limit=0``)."""
    bound = max_actions(game)
    return UNBOUNDED_LENGTH if bound is None else bound


class DreizehnGame(pyspiel.Game):  # type: ignore[misc]
    """One of the games for OpenSpiel (made by ``pyspiel.load_game``, not directly): each game has a subclass,
    :data:`GAMES`, that sets its id and OpenSpiel game type."""

    game_id: ClassVar[str]
    game_type: ClassVar[Any]

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        given = dict(params or {})
        game_type = self.game_type
        self.engine = engine_game(self.game_id, given)
        self.encoder: Encoder = encoder_of(self.engine)
        self.num_cards = len(self.engine.card_type.all())
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=len(self.engine.card_type.all()),
            num_players=self.engine.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(self.engine),
        )
        super().__init__(game_type, info, given)
        try:
            self.engine.new_state(0, shuffles=())
        except ShuffleNeeded as needed:
            self.first_shuffle: tuple[int, ...] = needed.cards
        else:
            raise AssertionError(f"{self.engine.title} starts without a shuffle")
        self.first_counts = bytes(_counts(self.first_shuffle, self.num_cards))
        """The first shuffle's cards as a count per kind (each initial state copies it: OpenSpiel makes an initial
        state every time it asks a tensor's shape)."""

    def __deepcopy__(self, memo: dict[int, object]) -> DreizehnGame:
        """The game itself: a game does not change (a cloned state keeps its game)."""
        return self

    def __reduce__(self) -> tuple[Callable[[str, dict[str, Any]], DreizehnGame], tuple[str, dict[str, Any]]]:
        """Pickled as its name and parameters, loaded again through :func:`unpickle_game`, which registers the games
        in a fresh process (pyspiel's own pickling would keep the name but lose the engine's game)."""
        return unpickle_game, (self.get_type().short_name, self.get_parameters())

    def new_initial_state(self) -> DreizehnState:
        """The game before the first shuffle: a chance node."""
        return DreizehnState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, object] | None = None) -> Observer:
        """An observer of one seat's information: the information state under perfect recall, else the
        observation."""
        if params:
            raise InvalidOptionError("env.observer_params", rule="E5", params=dict(params))
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise InvalidOptionError("env.observer_kind", rule="E5")
        return Observer(self.encoder, bool(iig_obs_type.perfect_recall))


_T = TypeVar("_T")


class _Kept(dict[int, _T]):
    """A state's texts or views by seat, kept until its next action: a clone (OpenSpiel deep-copies each field)
    shares the values, which never change (strings, frozen views); each state drops its own at its next action."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Kept[_T]:
        return _Kept(self)


def _counts(cards: tuple[int, ...], kinds: int) -> bytearray:
    """How many of each of ``kinds`` card kinds ``cards`` holds."""
    counts = bytearray(kinds)
    for card in cards:
        counts[card] += 1
    return counts


def unpickle_game(name: str, params: dict[str, Any]) -> DreizehnGame:
    """``pyspiel.load_game(name, params)`` with the games registered (importing this module did): how a pickled game
    is loaded again."""
    game: DreizehnGame = pyspiel.load_game(name, params)
    return game


class DreizehnState(pyspiel.State):  # type: ignore[misc]
    """A game in progress for OpenSpiel: the engine's state, and the shuffle being dealt when at a chance node."""

    def __init__(self, game: DreizehnGame, engine: State | None = None) -> None:
        super().__init__(game)
        self._engine: State | None = engine
        self._action: int | None = None
        """The player action waiting for its shuffles (``None`` while dealing the first one)."""
        self._orders: list[tuple[int, ...]] = []
        """The shuffles chosen so far for the action (or the start) being completed."""
        self._dealt: list[int] = []
        """The order of the shuffle being dealt, top card first."""
        self._left = 0
        """The number of cards of that shuffle still to place (0: no shuffle is being dealt)."""
        self._counts = b""
        """The cards of that shuffle still to place, as a count per card kind (immutable bytes, replaced at each card:
        OpenSpiel's clone deep-copies each field, a list item by item, bytes not at all)."""
        self._history: tuple[int, str] = (0, "")
        self._texts: _Kept[str] | None = None
        """Each seat's text of this state, kept until the next action."""
        self._views: _Kept[View] | None = None
        """Each seat's view of this state, kept until the next action."""
        self._text: str | None = None
        """The state's own text (:meth:`__str__`), kept until the next action."""
        self._game = game
        if engine is None:  # the first shuffle, found once per game (a clone comes through here too)
            if len(game.first_shuffle) > 1:
                self._open(game.first_shuffle)
            else:
                self._resume(game.engine)

    def view(self, seat: int) -> View:
        """What ``seat`` may know: the engine's view (of the state before the shuffle being dealt, if one is)."""
        views = self._views
        if views is None:
            views = self._views = _Kept()
        view = views.get(seat)
        if view is None:
            assert self._engine is not None
            view = views[seat] = self._engine.view(seat)
        return view

    @property
    def engine(self) -> State | None:
        """The engine's state (``None`` while the first shuffle is being dealt). Between the chance nodes of a
        shuffle it is the state before the action that needed the shuffle."""
        return self._engine

    # -- moving on --------------------------------------------------------------------------------------------

    def _open(self, cards: tuple[int, ...]) -> None:
        """Start dealing a shuffle of ``cards`` (more than one) card by card."""
        game = self._game
        self._counts = game.first_counts if cards is game.first_shuffle else bytes(_counts(cards, game.num_cards))
        self._left = len(cards)
        self._dealt = []

    def _resume(self, game: Game) -> None:
        """Apply the waiting action (or start the game) with the shuffles chosen so far, or open the next shuffle."""
        while True:
            try:
                if self._engine is None:
                    engine = game.new_state(0, shuffles=self._orders)
                else:
                    engine = self._engine.copy()
                    engine.await_shuffles(self._orders)
                    assert self._action is not None
                    engine.apply_legal(self._action)
            except ShuffleNeeded as needed:
                if len(needed.cards) > 1:
                    self._open(needed.cards)
                    return
                self._orders.append(needed.cards)  # one card or none: nothing to choose
                continue
            self._engine = engine
            self._action = None
            self._orders = []
            return

    def current_player(self) -> int:
        if self._left:
            return int(pyspiel.PlayerId.CHANCE)
        assert self._engine is not None
        if self._engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._engine.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self._engine is not None and player == self._engine.current_player
        return [int(a) for a in self._engine.legal_actions()]

    # OpenSpiel's own methods answered here, for callers from Python: the same answers as pyspiel's, which reach
    # them through C++ and back (and, for a tensor, make a new initial state each time to learn the tensor's shape).

    def is_chance_node(self) -> bool:
        return self._left > 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (the player to move when ``None``), as ``pyspiel.State.legal_actions``:
        the kinds of card left at a chance node, none at the end or for a player not to move."""
        if self._left:
            return [card for card, count in enumerate(self._counts) if count]
        engine = self._engine
        assert engine is not None
        if engine.turn < 0:
            return []
        if player is None or player == engine.turn:
            return [int(a) for a in engine.legal_actions()]
        if player < 0:
            return list(pyspiel.State.legal_actions(self, player))  # OpenSpiel's refusal
        return []

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (the player to move when ``None``), as
        ``pyspiel.State.observation_tensor`` gives it."""
        return self._tensor(False, player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s information-state tensor (the player to move when ``None``), as
        ``pyspiel.State.information_state_tensor`` gives it."""
        return self._tensor(True, player)

    def _tensor(self, perfect_recall: bool, player: int | None) -> list[float]:
        seat = self.current_player() if player is None else player
        if not 0 <= seat < self._game.engine.players:  # OpenSpiel's refusal
            if perfect_recall:
                return list(pyspiel.State.information_state_tensor(self, seat))
            return list(pyspiel.State.observation_tensor(self, seat))
        engine = self._engine
        encoder = self._game.encoder
        if engine is None:  # the first shuffle is being dealt: nothing to see yet
            return [0.0] * (encoder.information_state_layout if perfect_recall else encoder.observation_layout).size
        if perfect_recall:
            return encoder.information_state_list(engine, seat)
        return encoder.observation_list(engine, seat)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the shuffle: each kind left with the probability of its share of the cards left."""
        total = self._left
        return [(card, count / total) for card, count in enumerate(self._counts) if count]

    def _apply_action(self, action: int) -> None:
        game = self._game.engine
        self._texts = None
        self._views = None
        self._text = None
        if self._left:
            if not 0 <= action < len(self._counts) or not self._counts[action]:
                if 0 <= action < len(self._counts):
                    raise IllegalActionError("env.not_left", rule="E3", action=action,
                                             card=game.card_type.of(action).text)
                raise InvalidActionError("env.not_card", rule="E3", action=action)
            counts = bytearray(self._counts)
            counts[action] -= 1
            self._dealt.append(action)
            self._left -= 1
            if self._left == 1:
                last = next(card for card, count in enumerate(counts) if count)
                counts[last] = 0
                self._dealt.append(last)
                self._left = 0
            self._counts = bytes(counts)
            if not self._left:
                self._orders.append(tuple(self._dealt))
                self._dealt = []
                self._resume(game)
            return
        engine = self._engine
        assert engine is not None
        if not engine.may_shuffle(action):  # nothing to deal: applied in place, without a copy
            try:
                engine.apply_legal(action)
            except ShuffleNeeded as needed:
                raise AssertionError(f"{game.title} shuffled on an action it said would not") from needed
            return
        self._action = int(action)
        self._orders = []
        self._resume(game)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.get_game().engine
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {game.card_type.of(action).text}"
        return str(game.action_to_text(action))

    def is_terminal(self) -> bool:
        return not self._left and self._engine is not None and self._engine.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.get_game().num_players()
        assert self._engine is not None
        return list(self._engine.returns())

    # -- what the seats know ----------------------------------------------------------------------------------

    def _dealing(self) -> dict[str, object] | None:
        """The shuffle being dealt, as every seat sees it: how many cards, how many placed, after which action."""
        if not self._left:
            return None
        game = self.get_game().engine
        placed = sum(len(order) for order in self._orders) + len(self._dealt)
        after = None if self._action is None else game.action_to_text(self._action)
        return {"after": after, "placed": placed, "cards_left": self._left}

    def seat_text(self, player: int, history: bool) -> str:
        """What ``player`` knows, as JSON: its view without the history, the shuffle being dealt, and with
        ``history`` a second line with every action so far (``seat:action`` in notation)."""
        texts = self._texts
        if texts is None:
            texts = self._texts = _Kept()
        text = texts.get(player)
        if text is None:
            if self._engine is None:
                text = json.dumps({"seat": player, "dealing": self._dealing()}, separators=(",", ":"))
            else:
                view = to_wire(self.view(player), history=False)
                view["dealing"] = self._dealing()
                text = json.dumps(view, separators=(",", ":"))
            texts[player] = text
        if history and self._engine is not None:
            return f"{text}\n{self._history_text()}"
        return text

    def _history_text(self) -> str:
        """The history in notation, kept between calls (a clone copies it) so that long games stay linear."""
        assert self._engine is not None
        log = self._engine.log
        done, text = self._history  # a state's log only grows
        if done < len(log):
            texts = self._engine.game.action_type._texts
            text += "".join(f" {seat}:{texts[action]}" for seat, action in log[done:])
            self._history = (len(log), text)
        return text

    def __str__(self) -> str:
        if self._text is None:
            self._text = self._state_text()
        return self._text

    def _state_text(self) -> str:
        """Every card, wherever it lies, and the shuffle being dealt."""
        game = self.get_game().engine
        if self._engine is None:
            return f"dealing the first shuffle: {' '.join(game.card_type.of(c).text for c in self._dealt)} | " \
                   f"{self._left} left"
        engine = self._engine
        lines = [repr(engine)]
        for cls in type(engine).__mro__:  # every card, wherever it lies: the state's own fields
            for name in getattr(cls, "__slots__", ()):
                if not name.startswith("_") and name not in _SHARED:
                    lines.append(f"{name}: {getattr(engine, name, None)!r}")
        if self._left:
            lines.append(f"dealing: {' '.join(game.card_type.of(c).text for c in self._dealt)} | "
                         f"{self._left} left")
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> DreizehnState:
        """A state ``player_id`` cannot tell from this one, what it cannot see dealt anew at random."""
        if self._left or self._engine is None:
            raise EnvError("env.resample", rule="E5")
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        game = self.get_game()
        engine = game.engine.sample_state(self._engine.view(player_id), rng)
        engine.await_shuffles()
        return DreizehnState(game, engine)


class Observer:
    """OpenSpiel's observer protocol: one seat's tensor (``tensor``, its blocks in ``dict``) and string."""

    def __init__(self, encoder: Encoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        layout: Layout = encoder.information_state_layout if perfect_recall else encoder.observation_layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {block.name: layout.block(self.tensor, block.name) for block in layout.blocks}

    def set_from(self, state: DreizehnState, player: int) -> None:
        """Write what ``player`` knows of ``state`` into :attr:`tensor` (all 0 before the first deal is done)."""
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
            return
        if self.perfect_recall:
            self.encoder.information_state_of(engine, player, out=self.tensor)
        else:
            self.encoder.observation_of(engine, player, out=self.tensor)

    def string_from(self, state: DreizehnState, player: int) -> str:
        """What ``player`` knows of ``state`` as text (the history included under perfect recall)."""
        return state.seat_text(player, history=self.perfect_recall)


def _register(game_id: str) -> None:
    cls = game_class(game_id)
    name = short_name(game_id)
    parameters: dict[str, object] = {"players": research_players(game_id)}
    parameters.update({spec.name: _parameter(spec) for spec in cls.option_specs})
    parameters.update(research_options(game_id))
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{cls.title} (dreizehn)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )

    # A class, not a function: pyspiel drops its reference after the interpreter has stopped, and a class (which
    # refers to itself) is never freed then, where a function would be, without the GIL, aborting the process.
    # A name of this module too, so that pickle finds the class of a game it sends to a worker process (whose import
    # of this module registers the games again).
    cls_name = "".join(part.capitalize() for part in game_id.split("-")) + "Game"
    GAMES[game_id] = globals()[cls_name] = type(cls_name, (DreizehnGame,), {
        "game_id": game_id, "game_type": game_type, "__module__": __name__, "__qualname__": cls_name})
    pyspiel.register_game(game_type, GAMES[game_id])


GAMES: dict[str, type[DreizehnGame]] = {}
"""The OpenSpiel game class of each game, by the game's id."""


def register_games() -> None:
    """Register every game of :func:`~dreizehn.core.registry.game_ids` not registered with ``pyspiel`` yet (done at
    import; again after a game was added, see :func:`dreizehn.core.registry.refresh`)."""
    for game_id in game_ids():
        if short_name(game_id) not in pyspiel.registered_names():
            _register(game_id)


register_games()
