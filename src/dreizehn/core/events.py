"""Events: what an applied action did, as data that every interface renders in its own words.

An :class:`Event` is a key (``"knizia13.took"``, ``"stage.scored"``) and JSON-ready parameters, never a sentence:
the words live in the catalogues, so a log or a replay reads in each viewer's language. Parameters that only some
seats may know (the card a player drew from the stock, a new hand) sit in ``private``, per seat; :meth:`Event.for_seat`
gives what one receiver may see, and a spectator (seat ``None``) gets the public part alone.

>>> event = Event("three-thirteen.drew", {"seat": 1}, private={1: {"card": "7H"}})
>>> event.for_seat(1).params
{'seat': 1, 'card': '7H'}
>>> event.for_seat(0).params, event.for_seat(None).params
({'seat': 1}, {'seat': 1})
>>> Event.from_json(event.for_seat(1).to_json()) == event.for_seat(1)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dreizehn.core.errors import DreizehnError

EVERYONE = -1
"""The receiver that sees every private part: a finished game's replay, where every hand is revealed."""


@dataclass(frozen=True)
class Event:
    """One thing that happened: ``key`` names it, ``params`` are public, ``private[seat]`` only that seat may know.

    Parameters are JSON values: numbers, strings (cards and actions in notation), booleans, lists and objects. Seats
    are numbered from 0 as everywhere in the package; the words number them for people.
    """

    key: str
    params: Mapping[str, Any]
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> Event:
        """What ``seat`` may know of the event (``None``: a spectator; :data:`EVERYONE`: all of it, for the replay
        of a finished game)."""
        if not self.private or seat == EVERYONE:
            return self
        extra = self.private.get(seat) if seat is not None else None
        return Event(self.key, {**self.params, **extra} if extra else dict(self.params))

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready object: ``{"key": ..., "params": {...}}``, and ``"private"`` (per seat, as
        text) only for an unfiltered event. Send :meth:`for_seat`'s result, never the event itself, until the game
        is over."""
        out: dict[str, Any] = {"key": self.key, "params": dict(self.params)}
        if self.private:
            out["private"] = {str(seat): dict(extra) for seat, extra in sorted(self.private.items())}
        return out

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Event:
        """The event of a JSON object written by :meth:`to_json`."""
        key, params, private = doc.get("key"), doc.get("params"), doc.get("private", {})
        if (not isinstance(key, str) or not isinstance(params, Mapping) or not isinstance(private, Mapping)
                or not set(doc) <= {"key", "params", "private"}):
            raise EventError("event.malformed", rule="W5", doc=doc)
        try:
            hidden = {int(seat): dict(extra) for seat, extra in private.items()}
        except (TypeError, ValueError):
            raise EventError("event.private", rule="W5", private=private) from None
        return cls(key, dict(params), hidden)


class EventError(DreizehnError):
    """An event that is not well formed."""


def params_schema(required: Mapping[str, Any], optional: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON Schema of an event's parameters: ``required`` and ``optional`` map each name to its schema (an
    optional parameter is one only some receivers get, such as a drawn card)."""
    properties = {**required, **(optional or {})}
    return {"type": "object", "properties": properties, "required": sorted(required), "additionalProperties": False}


SEAT = {"type": "integer", "minimum": 0}
INT = {"type": "integer"}
INTS = {"type": "array", "items": INT}
BOOL = {"type": "boolean"}


def cards_schema(texts: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The schemas of one card and of a list of cards, for a game's card texts."""
    card = {"enum": list(texts)}
    return card, {"type": "array", "items": card}


def common_schemas(card_texts: tuple[str, ...], explanation: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The parameters of the events every game has: a stage scored (with the game's ``explanation``), a stage
    dealt, the game over."""
    _, cards = cards_schema(card_texts)
    return {
        "stage.scored": params_schema({"stage": SEAT, "scores": INTS, "totals": INTS, "explanation": explanation}),
        "stage.dealt": params_schema({"stage": SEAT, "first": SEAT, "hand_sizes": INTS}, {"hand": cards}),
        "game.over": params_schema({"totals": INTS, "winners": {"type": "array", "items": SEAT}}),
    }
