"""The message writer: every message the server sends, built from the models of :mod:`dreizehn.server.protocol`
and written as JSON text, and the one refusal of both the websocket and the HTTP API.

Each message is validated by its model's validator (``extra="forbid"``: a field the protocol does not name is an
error) and then written by orjson from the checked fields; so the models are the schemas and the checks, and the
text is written as fast as before. A receiver that gets the same message as another gets the same text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel, TypeAdapter

from dreizehn.core.errors import DreizehnError
from dreizehn.server import metrics
from dreizehn.server.protocol import (
    INT64_MAX,
    INT64_MIN,
    PROTOCOL,
    Accepted,
    Declined,
    Hint,
    Offered,
    Pong,
    Presence,
    Refusal,
    Refused,
    Rematch,
    SaidEvent,
    SeatInfo,
    TakenBack,
    TakenOver,
    TimedOut,
    Update,
    Welcome,
)
from dreizehn.server.protocol import (
    Said as SaidLine,
)
from dreizehn.words import words

_SEATS: TypeAdapter[list[SeatInfo]] = TypeAdapter(list[SeatInfo])


def json_text(message: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson: the server writes a view for every receiver of every action)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def _checked(model: type[BaseModel], fields: dict[str, Any]) -> str:
    """``fields`` checked by ``model`` (raises ``ValidationError`` for a message the protocol does not allow) and
    written as JSON text."""
    model.__pydantic_validator__.validate_python(fields)
    return json_text(fields)


def writable(value: Any) -> Any:
    """A value as JSON can carry it to every client: a whole number beyond signed 64 bits, and a float that is not
    finite (NaN, infinities), as its text (cut to 40 characters); lists and objects value by value. A refusal
    echoes what it was given only so."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if INT64_MIN <= value <= INT64_MAX else _text(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, list | tuple):
        return [writable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): writable(v) for k, v in value.items()}
    return _text(value)


def _text(value: Any) -> str:
    try:
        text = str(value)
    except ValueError:  # a whole number too long for Python to write as text
        return "(a number too long to write)"
    return text if len(text) <= 40 else text[:39] + "…"


def refusal_fields(err: DreizehnError, lang: str, names: list[str] | None = None) -> dict[str, Any]:
    """A refusal as data: code, rule and parameters for developers, and the message for people, in ``lang``
    without the rule and with seats said by their players' ``names`` (:meth:`~dreizehn.words.Words.told`); the
    HTTP API's ``detail``, and the body of the websocket's ``refused``. A parameter JSON cannot carry to every
    client is sent as its text (:func:`writable`)."""
    data = err.to_json()
    fields = {"code": data["code"], "rule": data["rule"], "params": writable(data["params"]),
              "message": words(lang).told(err, names or ())}
    Refusal.__pydantic_validator__.validate_python(fields)
    metrics.REFUSALS.labels(code=data["code"]).inc()
    return fields


def refused(err: DreizehnError, lang: str, view: dict[str, Any] | None = None, version: int | None = None,
            names: list[str] | None = None) -> str:
    """The websocket's ``refused``: the refusal (seats said by ``names``), and for a refused action the current
    view and its version."""
    return _checked(Refused, {"type": "refused", **refusal_fields(err, lang, names), "view": view, "version": version})


def welcome(kind: str, table: str, game: str, seat: int | None, lang: str, view: dict[str, Any],
            seats: list[dict[str, Any]], history: list[str], recent: list[dict[str, Any]],
            chat: list[dict[str, Any]], stages: int | None = None, undo: tuple[bool, str | None] = (False, None),
            taken_back: list[dict[str, Any]] | None = None, watching: int = 0,
            stand_ins: list[dict[str, Any]] | None = None) -> str:
    """A ``welcome`` (``kind``) or ``resync``: the whole view, the seats, the course so far, every action as told,
    the latest lines of chat the receiver may read, how many stages the game has, whether the receiver may take
    back a move (and why not, ``undo_blocked``), and the moves taken back."""
    return _checked(Welcome, {"type": kind, "protocol": PROTOCOL, "table": table, "game": game, "seat": seat,
                              "lang": lang, "stages": stages, "view": view, "seats": seats, "history": history,
                              "recent": recent, "chat": chat, "undo": undo[0], "undo_blocked": undo[1],
                              "taken_back": taken_back or [], "watching": watching,
                              "stand_ins": stand_ins or []})


def said(line: dict[str, Any]) -> str:
    """A line of chat (``said``), written once for all its readers."""
    return _checked(SaidLine, line)


@dataclass(frozen=True)
class Seats:
    """The seats as every receiver of an update in one language gets them: the fields, and the models they were
    checked into once (an update checks its receiver's own parts and takes these as they are)."""

    fields: list[dict[str, Any]]
    models: list[SeatInfo]


def seats(fields: list[dict[str, Any]]) -> Seats:
    """The seats checked by :class:`~dreizehn.server.protocol.SeatInfo`, once for every receiver of an update."""
    return Seats(fields, _SEATS.validate_python(fields))


def checked_event(fields: dict[str, Any]) -> SaidEvent:
    """An event as told, checked by its model, once for every receiver told the same."""
    return SaidEvent.model_validate(fields)


def update(told: dict[str, Any], events: list[SaidEvent], view: dict[str, Any], checked: Seats,
           whole: bool = True, undo: tuple[bool, str | None] = (False, None)) -> str:
    """An ``update``: an action as told to its receiver (its ``events`` checked already, as ``events``), the
    receiver's new view and the seats (checked already: the model takes the instances of the parts checked before
    as they are, so what receivers share is checked once).

    ``whole=False`` for the further receivers of one update in one language: what they share with the first
    (``whole``) one, the envelope and the seats, was checked with it, and their events are checked once each; their
    views come from the same writer as the first's, checked with it. This keeps the checks to about a tenth of the
    room's work per action."""
    if whole:
        Update.__pydantic_validator__.validate_python(
            {"type": "update", **told, "events": events, "view": view, "seats": checked.models, "undo": undo[0],
             "undo_blocked": undo[1]})
    return json_text({"type": "update", **told, "view": view, "seats": checked.fields, "undo": undo[0],
                  "undo_blocked": undo[1]})


def presence(seats: list[dict[str, Any]], watching: int = 0) -> str:
    """A ``presence``: the seats, after someone came or went, and how many spectators watch."""
    return _checked(Presence, {"type": "presence", "seats": seats, "watching": watching})


def hint(version: int, analysis: dict[str, Any]) -> str:
    """A ``hint``: every legal action of version ``version`` rated."""
    return _checked(Hint, {"type": "hint", "version": version, "analysis": analysis})


def rematch(table: str, token: str | None, by: int | None = None) -> str:
    """A ``rematch``: the new table, this receiver's invitation to it, and the seat that asked."""
    return _checked(Rematch, {"type": "rematch", "table": table, "token": token, "by": by})


def offered(by: int) -> str:
    """An ``offered``: ``by``'s person asks the others for a rematch."""
    return _checked(Offered, {"type": "offered", "by": by})


def accepted(seat: int) -> str:
    """An ``accepted``: ``seat``'s person wants the rematch."""
    return _checked(Accepted, {"type": "accepted", "seat": seat})


def declined(seat: int) -> str:
    """A ``declined``: ``seat``'s person does not want the rematch."""
    return _checked(Declined, {"type": "declined", "seat": seat})


def taken_back_fields(seat: int, version: int, count: int, text: str) -> dict[str, Any]:
    """A ``taken_back``'s fields: ``seat``'s person took back ``count`` actions, the game went back to ``version``;
    ``text`` says so in the receiver's language."""
    return {"type": "taken_back", "seat": seat, "version": version, "count": count, "text": text}


def taken_back(seat: int, version: int, count: int, text: str) -> str:
    """A ``taken_back`` (:func:`taken_back_fields`)."""
    return _checked(TakenBack, taken_back_fields(seat, version, count, text))


def timed_out(seat: int, rule: str, version: int, text: str) -> str:
    """A ``timed_out``: ``seat``'s time ran out at a turn-based table and ``rule`` was applied; ``text`` says so in
    the receiver's language."""
    return _checked(TimedOut, {"type": "timed_out", "seat": seat, "rule": rule, "version": version, "text": text})


PONG = _checked(Pong, {"type": "pong"})
"""The answer to a ping, written once."""
TAKEN_OVER = _checked(TakenOver, {"type": "taken_over"})
"""What a connection is told when another window took its seat over, written once."""
