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
from collections.abc import Mapping
from typing import ClassVar

from dreizehn.bots.levels import level_spec
from dreizehn.core.errors import BotSpecError
from dreizehn.core.game import Game, View
from dreizehn.words import Word


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
            known = ", ".join(self.option_defaults) or Word("list.none")
            raise BotSpecError("bot.option_unknown", rule="B3", bot=self.name, name=unknown[0], options=known)
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
    """``value`` as the type of the option's default (text as typed is read); a bad one is refused (B4)."""
    if isinstance(default, str):
        return str(value)
    whole = isinstance(default, int)
    number = read_number(value)
    if number is not None and number >= 0 and not isinstance(default, bool) and (not whole or number.is_integer()):
        return int(number) if whole else number
    raise BotSpecError("bot.option_whole" if whole else "bot.option_number", rule="B4", bot=bot, key=key, value=value)


def read_number(value: object) -> float | None:
    """``value`` as a finite or infinite float, or ``None`` if it is no number (NaN is none)."""
    if isinstance(value, bool):
        return None
    try:
        number = float(str(value))
    except ValueError:
        return None
    return None if number != number else number


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


_BUILTIN = ("random_bot", "heuristic", "ismcts", "learned", "policy")


def _load_builtin() -> None:
    import importlib

    for module in _BUILTIN:
        importlib.import_module(f"dreizehn.bots.{module}")


def make_bot(spec: str, game: Game) -> Bot:
    """The bot written ``spec`` (``name`` or ``name:key=value:...``, or a level's name: that level's bot in ``game``
    at its player count, :func:`~dreizehn.bots.levels.level_spec`) for ``game``; a bad spec raises a
    :class:`~dreizehn.core.errors.BotSpecError` naming the rule (B1 to B4, docs/bots.md). A trailing colon
    (``learned:``) names the bot itself, never the level of that name.

    >>> import dreizehn
    >>> make_bot("expert", dreizehn.load_game("three-thirteen", 2)).spec == make_bot(
    ...     "ismcts:playout=heuristic:prune=2:cutoff=8:iterations=600:infer=on:value=learned",
    ...     dreizehn.load_game("three-thirteen", 2)).spec
    True
    >>> holzwurm = dreizehn.load_game("holzwurm", 4)
    >>> make_bot("learned", holzwurm).name, make_bot("learned:", holzwurm).name
    ('policy', 'learned')
    """
    _load_builtin()
    text = str(spec).strip()
    # a trailing colon: the bot of that name, not a level
    spec = text[:-1] if text.endswith(":") else level_spec(text, game.id, game.players, game.options)
    name, *parts = [p.strip() for p in spec.split(":")]
    if name not in _BOTS:
        raise BotSpecError("bot.unknown", rule="B2", name=name, bots=", ".join(bot_names()))
    options: dict[str, object] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise BotSpecError("bot.option_pair", rule="B1", part=part, spec=spec)
        options[key.strip()] = value.strip()
    return _BOTS[name](game, **options)
