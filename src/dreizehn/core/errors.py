"""The project's errors. Every refusal is a :class:`ValueError` that is data: a code (a catalogue key), the rule it
breaks and parameters, said in any language by :mod:`dreizehn.words`; ``str()`` gives the English sentence.

>>> from dreizehn.words import Word, words
>>> err = IllegalActionError("knizia13.error.colour", rule="K10", card="G5", colour=Word("knizia13.colour.green"),
...                          target=Word("knizia13.colour.blue"))
>>> str(err)
'the green card G5 may only be played on the green target, not on the blue one (K10)'
>>> err.to_json()["params"]["target"]
{'word': 'knizia13.colour.blue'}
>>> words("de").error(err)
'Die grüne Karte G5 darf nur auf die grüne Zielscheibe, nicht auf die blaue (K10)'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

from typing import Any


class DreizehnError(ValueError):
    """Base class of every error this package raises on bad input.

    ``code`` is the key of its sentence in the catalogues (``dreizehn.words``), ``params`` the values the sentence
    names, and ``rule`` the rule of the specification the input breaks (``"K10"``, ``"T8"``, ``"H12"``), when one
    does. ``message`` is the English sentence without the rule.
    """

    def __init__(self, code: str, /, *, rule: str | None = None, **params: Any) -> None:
        self.code = code
        self.rule = rule
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        """The sentence in English, without the rule."""
        from dreizehn.words import words

        english = words("en")
        return english(self.code, **self.params) if english.has(self.code) else self.code

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message

    def to_json(self) -> dict[str, Any]:
        """The error as data: code, rule and parameters (JSON-ready), as a client renders it."""
        from dreizehn.words import Word

        def plain(value: Any) -> Any:
            if isinstance(value, Word):
                return value.to_json()
            if isinstance(value, DreizehnError):
                return value.to_json()
            if isinstance(value, list | tuple):
                return [plain(v) for v in value]
            if isinstance(value, dict):
                return {str(k): plain(v) for k, v in value.items()}
            if value is None or isinstance(value, bool | int | float | str):
                return value
            return str(value)

        return {"code": self.code, "rule": self.rule, "params": plain(self.params)}

    def __reduce__(self) -> tuple[Any, ...]:  # errors cross process boundaries (worker pools) intact
        return (_rebuild, (type(self), self.code, self.rule, self.params, self.__dict__))


def _rebuild(cls: type[DreizehnError], code: str, rule: str | None, params: dict[str, Any],
             state: dict[str, Any]) -> DreizehnError:
    err = cls.__new__(cls)
    ValueError.__init__(err, code)
    err.__dict__.update(state)
    err.code, err.rule, err.params = code, rule, params
    return err


class IllegalActionError(DreizehnError):
    """An action that the rules do not allow in this state (the state is left unchanged)."""


class InvalidActionError(DreizehnError):
    """A text or number that does not denote an action of this game at all."""


class GameOverError(IllegalActionError):
    """An action sent to a game that has ended."""


class UnknownGameError(DreizehnError):
    """A game id that is not registered."""


class InvalidOptionError(DreizehnError):
    """A bad number of players or a bad game option."""


class RecordError(DreizehnError):
    """A game record that is malformed or does not replay (names the field or action that is wrong)."""


class ShuffleNeeded(RecordError):
    """A state that takes its shuffles from given orders needed one it was not given.

    ``cards`` are the cards (card numbers, sorted) the state wanted to shuffle. Replaying a record, this means the
    record is short of a shuffle; a state set to :meth:`~dreizehn.core.game.State.await_shuffles` raises it on purpose,
    so that the caller (the OpenSpiel adapter, which deals as chance nodes) can choose the order and apply again.
    """

    def __init__(self, code: str, /, cards: tuple[int, ...] = (), *, rule: str | None = None, **params: Any) -> None:
        super().__init__(code, rule=rule, **params)
        self.cards = cards


class BotSpecError(InvalidOptionError):
    """A bot specification that names no bot, or an option its bot does not take, or a value it cannot use (the rules
    B1 to B4 of docs/bots.md)."""


class BotError(DreizehnError):
    """A bot asked to act where it cannot: for a seat that is not to move, or in a game it does not know (B5)."""


class SimulationError(DreizehnError):
    """Arguments a simulation, a tournament or their statistics cannot use (the rules C* of docs/cli.md)."""


class BackendError(SimulationError):
    """A backend that does not exist or cannot be reached (C4); also ``dreizehn.study.sim.BackendError``."""


class UsageError(DreizehnError):
    """A command line the commands cannot carry out: an option not written ``NAME=VALUE``, a folder that cannot be
    made (the rules C* of docs/cli.md)."""


class EnvError(DreizehnError):
    """A research environment used out of order: asked for its game before the first ``reset``, or resampled while
    a shuffle is being dealt (the rules E* of docs/envs.md)."""


class VectorError(DreizehnError):
    """Input a batched environment cannot take (:mod:`dreizehn.study.vector`): actions of the wrong shape or type, or
    one
    that is no action or not legal in one of its games; it names that game's index and the rule (V1–V3 of
    docs/vector.md), and no game changed."""
