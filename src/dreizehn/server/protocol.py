"""The websocket protocol: JSON messages, each an object with a ``type``; version :data:`PROTOCOL`.

docs/server.md describes every message; these pydantic models are its schemas. A client sends :data:`ClientMessage`
messages; the server answers with the ``Server*`` ones.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

PROTOCOL = 1
"""The protocol version a client names in its hello: the one place it is written on the server's side (the browser
client reads it from ``GET /api/server``)."""

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
"""The bounds of every whole number of the protocol (signed 64 bits, what every JSON library of a client reads
exactly); tighter where a field allows."""

Int64 = Annotated[StrictInt, Field(ge=INT64_MIN, le=INT64_MAX)]
"""A whole number of the protocol: a JSON integer, never a string, a float (``2.0``) or a boolean."""


class _Message(BaseModel):
    """A message of the protocol: closed (a field the protocol does not name is refused)."""

    model_config = ConfigDict(extra="forbid")


class _FromClient(_Message):
    """A message from a client: strict besides (no value is coerced: ``"2"``, ``2.0`` and ``true`` are no integers,
    ``1`` is no string)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_FromClient):
    """The first message: a seat's token (from the invitation link), or a table and its spectator token."""

    type: Literal["hello"]
    protocol: Int64
    token: str | None = Field(default=None, max_length=64)
    table: str | None = Field(default=None, max_length=24)
    spectator: str | None = Field(default=None, max_length=64)
    lang: str = Field(default="en", max_length=8)


class Act(_FromClient):
    """An action, by its index or its text, chosen in state version ``version``."""

    type: Literal["action"]
    version: Annotated[StrictInt, Field(ge=0, le=INT64_MAX)]
    action: Int64 | Annotated[StrictStr, Field(max_length=32)]


class AskHint(_FromClient):
    """Ask for the hint of the position (a seat to move only)."""

    type: Literal["hint"]


class SetLanguage(_FromClient):
    """Speak another language from now on."""

    type: Literal["lang"]
    lang: str = Field(max_length=8)


class Ping(_FromClient):
    """Keep-alive; answered by a pong."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | Act | AskHint | SetLanguage | Ping, Field(discriminator="type")]
client_message: TypeAdapter[Hello | Act | AskHint | SetLanguage | Ping] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "action", "hint", "lang", "ping")
"""The types of the messages a client sends."""


class SeatInfo(_Message):
    """A seat as everyone sees it."""

    seat: int
    name: str
    kind: Literal["person", "bot"]
    bot: str | None
    joined: bool
    connected: bool
    stand_in: bool
    """A bot plays for the person, who is away."""


class SaidEvent(_Message):
    """An event as its receiver may know it, with its sentence in the receiver's language."""

    key: str
    params: dict[str, Any]
    text: str
    lines: list[str] | None = None
    """A scored stage's explanation in words, a line each (``stage.scored`` only)."""


class Welcome(_Message):
    """The answer to a hello, and a resync: the whole view (with its history) and the seats."""

    type: Literal["welcome", "resync"]
    protocol: int
    table: str
    game: str
    seat: int | None
    lang: str
    view: dict[str, Any]
    seats: list[SeatInfo]
    history: list[str]
    """The course of the game so far in words, a line per action."""
    recent: list[Told]
    """The latest actions (up to 40), each as its update told this receiver: a client that comes back shows its last
    moves in the sentences it showed them in live."""


class Told(BaseModel):
    """An action as told to one receiver: who did what, in words, and its events filtered for the receiver."""

    model_config = ConfigDict(extra="forbid")

    version: int
    seat: int
    action: str
    text: str
    events: list[SaidEvent]


class Update(Told, _Message):
    """An action applied (:class:`Told`) with the receiver's new view (without its history) and the seats."""

    type: Literal["update"]
    view: dict[str, Any]
    seats: list[SeatInfo]


class Refusal(_Message):
    """A refusal as data: the code, the rule and the message in the receiver's language. The HTTP API answers it as
    its ``detail``; the websocket's :class:`Refused` adds to it."""

    code: str
    rule: str | None
    params: dict[str, Any]
    message: str


class Refused(Refusal):
    """A refused message: the :class:`Refusal`, and the current view when the refusal concerned an action."""

    type: Literal["refused"]
    view: dict[str, Any] | None = None
    version: int | None = None


class Presence(_Message):
    """Seats came, went, or were taken over by a bot."""

    type: Literal["presence"]
    seats: list[SeatInfo]


class Hint(_Message):
    """The hint of the position: every legal action rated."""

    type: Literal["hint"]
    version: int
    analysis: dict[str, Any]


class Rematch(_Message):
    """Someone asked for a rematch: the new table and this seat's invitation to it (``None`` for a spectator)."""

    type: Literal["rematch"]
    table: str
    token: str | None


class Pong(_Message):
    type: Literal["pong", "ping"]


ServerMessage = Annotated[Welcome | Update | Refused | Presence | Hint | Rematch | Pong, Field(discriminator="type")]
server_message: TypeAdapter[Welcome | Update | Refused | Presence | Hint | Rematch | Pong] = TypeAdapter(ServerMessage)
