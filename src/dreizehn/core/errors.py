"""The project's errors. Every refusal is a :class:`ValueError` with a sentence a person understands.

>>> from dreizehn.core.errors import IllegalActionError
>>> err = IllegalActionError("a green card may only be played on the green target", rule="K10")
>>> str(err)
'a green card may only be played on the green target (K10)'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations


class DreizehnError(ValueError):
    """Base class of every error this package raises on bad input.

    ``rule`` names the rule of the specification the input breaks (``"K10"``, ``"T8"``, ``"H12"``), when one does.
    """

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.message = message
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


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

    def __init__(self, message: str, cards: tuple[int, ...]) -> None:
        super().__init__(message)
        self.cards = cards
