"""The bot interface: a bot sees one seat's view (never the state) and returns a legal action.

Bots are found by name with options, as a command line writes them: ``random``, ``heuristic``,
``ismcts:iterations=2000``, ``ismcts:time=0.5:c=0.7`` (name, then ``key=value`` options separated by ``:``).

>>> import random, dreizehn
>>> from dreizehn.bots.base import make_bot
>>> game = dreizehn.load_game("knizia13", players=4)
>>> bot = make_bot("random", game)
>>> state = game.new_state(seed=1)
>>> bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()
True
>>> make_bot("ismcts:iterations=50", game).spec
'ismcts:iterations=50'
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import ClassVar

from dreizehn.core.errors import InvalidOptionError
from dreizehn.core.game import Game, View


class Bot(ABC):
    """A player that decides from a view alone.

    Subclasses set ``name`` and ``option_defaults`` (every option the bot takes, with its default) and implement
    :meth:`act`. Options arrive as text or values and are converted to the type of their default.
    """

    name: ClassVar[str]
    option_defaults: ClassVar[Mapping[str, float | int | str | None]] = {}

    def __init__(self, game: Game, **options: object) -> None:
        self.game = game
        unknown = sorted(set(options) - set(self.option_defaults))
        if unknown:
            known = ", ".join(self.option_defaults) or "none"
            raise InvalidOptionError(f"bot {self.name!r} has no option {unknown[0]!r} (its options: {known})")
        self.options: dict[str, float | int | str | None] = dict(self.option_defaults)
        for key, value in options.items():
            self.options[key] = _convert(self.name, key, value, self.option_defaults[key])
        self._given = {k: self.options[k] for k in options}

    @property
    def spec(self) -> str:
        """The bot's name with the options it was given, as :func:`make_bot` reads it back."""
        return ":".join([self.name, *(f"{k}={v}" for k, v in self._given.items())])

    @abstractmethod
    def act(self, view: View, rng: random.Random) -> int:
        """A legal action for the seat of ``view``, which is to move."""

    def __repr__(self) -> str:
        return f"make_bot({self.spec!r}, {self.game!r})"


def _convert(bot: str, key: str, value: object, default: object) -> float | int | str | None:
    try:
        if isinstance(default, bool):
            raise TypeError
        if isinstance(default, int):
            number = float(str(value))
            if number != int(number) or number < 0:
                raise ValueError
            return int(number)
        if isinstance(default, float) or default is None:
            number = float(str(value))
            if not number >= 0:
                raise ValueError
            return number
        return str(value)
    except (TypeError, ValueError):
        kind = "a whole number" if isinstance(default, int) else "a number"
        raise InvalidOptionError(f"bot option {bot}:{key} must be {kind} of 0 or more, not {value!r}") from None


BotFactory = Callable[..., Bot]
_BOTS: dict[str, type[Bot]] = {}


def register_bot(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot findable by its name."""
    _BOTS[cls.name] = cls
    return cls


def bot_names() -> tuple[str, ...]:
    """The names of every registered bot."""
    _load_builtin()
    order = {"random": 0, "heuristic": 1, "ismcts": 2}
    return tuple(sorted(_BOTS, key=lambda name: order.get(name, len(order))))


_BUILTIN = ("random_bot", "heuristic", "ismcts")


def _load_builtin() -> None:
    import importlib

    for module in _BUILTIN:
        importlib.import_module(f"dreizehn.bots.{module}")


def make_bot(spec: str, game: Game) -> Bot:
    """The bot written ``spec`` (``name`` or ``name:key=value:...``) for ``game``; bad specs raise ``ValueError``."""
    _load_builtin()
    name, *parts = [p.strip() for p in str(spec).split(":")]
    if name not in _BOTS:
        raise InvalidOptionError(f"there is no bot {name!r} (the bots are: {', '.join(bot_names())})")
    options: dict[str, object] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"a bot option is written key=value, not {part!r} (in {spec!r})")
        options[key.strip()] = value.strip()
    return _BOTS[name](game, **options)
