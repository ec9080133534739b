"""The ``ismcts`` bot's options as one typed value: :class:`SearchOptions`, read from and written as the text of a bot
specification (``ismcts:time=1:prune=2``), every value checked as it is made.

A value is made from text or from typed values alike; each option is converted to its type (the rules B1 to B4 of
docs/bots.md refuse what does not fit, naming the option) and a choice is read in any letter case. ``auto`` and
``None`` stand for the game's own value, which :meth:`SearchOptions.resolve` fills in.

>>> options = SearchOptions.from_text("ismcts:time=1:prune=2:horizon=GAME")
>>> options.time, options.prune, options.horizon
(1.0, 2, 'game')
>>> options.to_text()
'ismcts:time=1.0:horizon=game:prune=2'
>>> SearchOptions.from_text(options.to_text()) == options
True
>>> SearchOptions(iterations=-1)
Traceback (most recent call last):
...
dreizehn.core.errors.BotSpecError: bot option ismcts:iterations must be a whole number of 0 or more, not -1 (B4)
>>> import dreizehn
>>> resolved = SearchOptions().resolve(dreizehn.load_game("three-thirteen", 2))
>>> resolved.root, resolved.prune, resolved.tree
('paired', 1, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal

from dreizehn.bots.advice import estimator
from dreizehn.bots.base import bot_names, read_number
from dreizehn.core.errors import BotSpecError
from dreizehn.core.game import Game
from dreizehn.words import Word

NAME = "ismcts"
"""The bot whose options these are."""

GENERAL: dict[str, object] = {"iterations": 500, "scale": 10.0, "root": "ucb", "prune": 0, "infer": "off"}
"""The defaults of a game that does not set its own in :attr:`~dreizehn.core.game.Game.search`: ``iterations`` per
move when neither ``iterations`` nor ``time`` is given (see :mod:`dreizehn.bots.ismcts`); ``scale``, about one
standard deviation of a seat's point advantage over the mean of the others in one stage of random play at 4 players
(the games' own, measured: 13 4.3-6.1 points for 3-6 players, Holzwurm 22-32, Three Thirteen 22-29); ``root``, how
the root is searched (Three Thirteen's ``paired``); ``prune``, how many of the heuristic's best actions are searched
(0: all; Three Thirteen plays the heuristic's discard and searches its draws); ``infer``, whether determinizations
are weighted by what the seat saw (only where the game's kernel search infers: Three Thirteen)."""


def search_default(game: Game, name: str) -> object:
    """The game's default for one of the search's options (its :attr:`~dreizehn.core.game.Game.search`, else
    :data:`GENERAL`).

    >>> import dreizehn
    >>> search_default(dreizehn.load_game("three-thirteen", 2), "root")
    'paired'
    >>> search_default(dreizehn.load_game("knizia13", 4), "root")
    'ucb'
    """
    return game.search.get(name, GENERAL[name])


Horizon = Literal["stage", "game"]
Reward = Literal["margin", "win"]
Playout = Literal["greedy", "random", "heuristic", "learned-bot"]
Switch = Literal["auto", "on", "off"]
Root = Literal["auto", "ucb", "paired"]
Value = Literal["points", "learned", "learned-large", "learned-bot", "learned-bot-mix"]


ROLLOUTS = ("heuristic", "learned-bot")
"""The playouts by a bot, from the root action on: no tree below the root unless ``tree=on``."""

MIX = 0.5
"""``mix``'s default: the network and the playout weigh alike (as AlphaGo mixed its value network and rollouts)."""


@dataclass(frozen=True)
class SearchOptions:
    """The options of one ``ismcts`` bot (see :mod:`dreizehn.bots.ismcts` for what each does); ``auto`` and ``None``:
    the game's own (:meth:`resolve`)."""

    iterations: int = 0
    """Iterations per move; 0: the game's (or none, with ``time``)."""
    time: float | None = None
    """Seconds per move instead of an iteration count; ``None``: none."""
    c: float = 0.7
    """The exploration constant of the upper confidence bound (rewards lie in [0, 1])."""
    horizon: Horizon = "stage"
    """How far a playout goes: to the end of the root's ``stage`` or of the ``game``."""
    reward: Reward = "margin"
    """The points against the mean of the others' squashed by a logistic (``margin``), or the share of the ``win``."""
    scale: float | None = None
    """Points of the margin reward's logistic, above 0; ``None``: the game's."""
    cutoff: int = 4
    """Playout actions before a Three Thirteen round is scored by its hands; 0: never."""
    playout: Playout = "greedy"
    """Who plays the playouts: the game's ``greedy`` player, ``random`` actions, its ``heuristic``, or the
    ``learned`` bot (``learned-bot``, where its network was fitted: compiled in Three Thirteen)."""
    tree: Switch = "auto"
    """Whether the tree grows below the root; ``auto``: not with ``playout=heuristic`` or ``learned-bot``."""
    root: Root = "auto"
    """How the root is searched: ``ucb``, or ``paired`` (every root action on each sampled world)."""
    prune: int | Literal["auto"] = "auto"
    """How many of the heuristic's best root actions are searched, where it ranks them; 0: all."""
    infer: Switch = "auto"
    """Whether the determinizations are weighted by what the seat saw (where the game's compiled search infers)."""
    potential: float = 0.0
    """Points a cut-off hand counts less per unit of meld potential (compiled Three Thirteen)."""
    value: Value = "points"
    """How a cut-off hand is valued: ``points``, as it stands; ``learned`` (fitted at 2 to 4 players) or
    ``learned-large`` (at 5 to 8), by the points that network expects it to be left with (compiled Three Thirteen,
    :mod:`dreizehn.games.three_thirteen.value`); ``learned-bot``: no playout, each leaf valued by the ``learned``
    bot's network at every seat's next decision (compiled 13 and Holzwurm where that network was fitted, 4 players
    and the usual options: :mod:`dreizehn.bots.learned_kernel`, docs/learned.md)."""
    lead: float = 0.0
    """The mean reward by which a move must beat the heuristic's own to be played instead; 0: none."""
    mix: float = MIX
    """With ``value=learned-bot-mix``: the network's share (0 to 1) of the searching seat's reward, the playout's
    being the rest."""
    standing: Literal["off", "on"] = "off"
    """``on``: the margin reward counts the game's totals so far and its logistic narrows to the spread of the stages
    left, so that it stands for the chance to win the game rather than the stage (compiled Three Thirteen)."""
    replay: Literal["off", "on"] = "off"
    """``on``: a determinization is dealt again until the other seat's hand in it replays that seat's latest turn as
    the heuristic plays (compiled Three Thirteen at 2 players: :func:`dreizehn.games.three_thirteen.search.replays`)."""

    CHOICES: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "horizon": ("stage", "game"), "reward": ("margin", "win"),
        "playout": ("greedy", "random", "heuristic", "learned-bot"),
        "tree": ("auto", "on", "off"), "root": ("auto", "ucb", "paired"), "infer": ("auto", "on", "off"),
        "value": ("points", "learned", "learned-large", "learned-bot", "learned-bot-mix"), "standing": ("off", "on"),
        "replay": ("off", "on"),
    }
    """The options that take one of a few words, and their words."""
    WHOLE: ClassVar[tuple[str, ...]] = ("iterations", "cutoff")
    NUMBERS: ClassVar[tuple[str, ...]] = ("time", "c", "scale", "potential", "lead", "mix")

    def __post_init__(self) -> None:
        for name in self.WHOLE:
            self._set(name, _whole(name, getattr(self, name)))
        for name in self.NUMBERS:
            value = getattr(self, name)
            if value is not None or name not in ("time", "scale"):
                self._set(name, _number(name, value))
        for name, choices in self.CHOICES.items():
            self._set(name, _choice(name, getattr(self, name), choices))
        if self.scale is not None and not self.scale > 0:
            raise BotSpecError("bot.option_scale", rule="B4", value=self.scale)
        if self.mix > 1:
            raise BotSpecError("bot.option_share", rule="B4", bot=NAME, key="mix", value=self.mix)
        if self.mix != MIX and self.value != "learned-bot-mix":
            raise BotSpecError("bot.option_mix", rule="B4", key="mix", value=self.value)
        self._set("prune", _prune(self.prune))

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)  # a frozen value converts its own fields as it is made

    @classmethod
    def defaults(cls) -> dict[str, float | int | str | None]:
        """Every option with its default, in order (the bot's ``option_defaults``)."""
        return {f.name: f.default for f in fields(cls)}  # type: ignore[misc]

    @classmethod
    def from_mapping(cls, options: Mapping[str, object]) -> SearchOptions:
        """The options named in ``options`` (text or values), the others at their defaults; a name that is no option
        is refused (B3)."""
        known = cls.defaults()
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise BotSpecError("bot.option_unknown", rule="B3", bot=NAME, name=unknown[0],
                               options=", ".join(known) or Word("list.none"))
        values: dict[str, Any] = dict(options)
        return cls(**values)

    @classmethod
    def from_text(cls, spec: str) -> SearchOptions:
        """The options of a specification as a command line writes it: ``ismcts:key=value:...``, the name optional
        (``time=1:prune=2``; empty: the defaults); a part that is not ``key=value`` is refused (B1), another bot's
        name too (B2)."""
        parts = [p.strip() for p in str(spec).split(":")] if str(spec).strip() else []
        if parts and "=" not in parts[0]:
            name = parts.pop(0)
            if name != NAME:
                raise BotSpecError("bot.unknown", rule="B2", name=name, bots=", ".join(bot_names()))
        options: dict[str, object] = {}
        for part in parts:
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise BotSpecError("bot.option_pair", rule="B1", part=part, spec=spec)
            options[key.strip()] = value.strip()
        return cls.from_mapping(options)

    def changed(self) -> dict[str, object]:
        """The options that differ from their defaults, in order."""
        return {name: getattr(self, name) for name, default in self.defaults().items()
                if getattr(self, name) != default}

    def to_text(self) -> str:
        """The specification that :meth:`from_text` reads back as these options: the name and every option that
        differs from its default."""
        return ":".join([NAME, *(f"{key}={value}" for key, value in self.changed().items())])

    def __str__(self) -> str:
        return self.to_text()

    def resolve(self, game: Game) -> SearchSettings:
        """These options as ``game``'s search plays them: every ``auto`` and ``None`` its own (its
        :attr:`~dreizehn.core.game.Game.search`, else :data:`GENERAL`; ``tree``: not with ``playout=heuristic``),
        and ``cutoff`` 0 where the game values no stage cut off early."""

        def given(name: str, value: object) -> Any:
            return search_default(game, name) if value == "auto" else value

        return SearchSettings(
            iterations=self.iterations or _whole("iterations", search_default(game, "iterations")), time=self.time,
            c=self.c, horizon=self.horizon, reward=self.reward,
            scale=_number("scale", search_default(game, "scale") if self.scale is None else self.scale),
            cutoff=self.cutoff if estimator(game.id) else 0, playout=self.playout,
            tree=self.playout not in ROLLOUTS if self.tree == "auto" else self.tree == "on",
            root=given("root", self.root), prune=_whole("prune", given("prune", self.prune)),
            infer=given("infer", self.infer) == "on", potential=self.potential, value=self.value, lead=self.lead,
            mix=self.mix, standing=self.standing == "on", replay=self.replay == "on")


@dataclass(frozen=True)
class SearchSettings:
    """:class:`SearchOptions` as one game's search plays them (:meth:`SearchOptions.resolve`): nothing left to the
    game, the switches true or false."""

    iterations: int
    """Iterations per move (above 0; a search with ``time`` runs until its time is up instead)."""
    time: float | None
    c: float
    horizon: Horizon
    reward: Reward
    scale: float
    cutoff: int
    """Playout actions before a stage is scored by its hands; 0: never (always 0 where the game cannot)."""
    playout: Playout
    tree: bool
    """Whether the tree grows below the root (else each root action is judged by its playouts alone)."""
    root: Literal["ucb", "paired"]
    prune: int
    infer: bool
    """Whether the determinizations are weighted by what the seat saw (where the game's compiled search infers)."""
    potential: float
    value: Value
    lead: float
    mix: float
    """The network's share of the searching seat's reward with ``value=learned-bot-mix``."""
    standing: bool
    """Whether the margin reward counts the game's totals so far, its logistic narrowed to the stages left."""
    replay: bool = False
    """Whether a determinization is dealt again until its other hand replays that seat's latest turn."""


def _whole(key: str, value: object) -> int:
    """``value`` as a whole number of 0 or more (text as typed is read); anything else is refused (B4)."""
    number = read_number(value)
    if number is None or number < 0 or not number.is_integer():
        raise BotSpecError("bot.option_whole", rule="B4", bot=NAME, key=key, value=value)
    return int(number)


def _number(key: str, value: object) -> float:
    """``value`` as a number of 0 or more (text as typed is read); anything else is refused (B4)."""
    number = read_number(value)
    if number is None or number < 0:
        raise BotSpecError("bot.option_number", rule="B4", bot=NAME, key=key, value=value)
    return number


def _choice(key: str, value: object, choices: tuple[str, ...]) -> str:
    """``value`` as one of ``choices`` in any letter case; anything else is refused (B4)."""
    word = str(value).lower()
    if word not in choices:
        raise BotSpecError("bot.option_choice", rule="B4", bot=NAME, key=key, choices=", ".join(choices), value=value)
    return word


def _prune(value: object) -> int | Literal["auto"]:
    """``prune``: ``auto`` or a whole number of 0 or more, written in digits; anything else is refused (B4)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    text = str(value).lower()
    if text == "auto":
        return "auto"
    if re.fullmatch("[0-9]+", text):
        return int(text)
    raise BotSpecError("bot.option_prune", rule="B4", value=value)
