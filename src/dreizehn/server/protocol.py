"""The websocket protocol: JSON messages, each an object with a ``type``; version :data:`PROTOCOL`.

docs/server.md describes every message; these pydantic models are its schemas. A client sends :data:`ClientMessage`
messages; the server answers with the ``Server*`` ones.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter

PROTOCOL = 1
"""The protocol version a client names in its hello: the one place it is written on the server's side (the browser
client reads it from ``GET /api/server``)."""

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
"""The bounds of every whole number of the protocol (signed 64 bits, what every JSON library of a client reads
exactly); tighter where a field allows."""

Int64 = Annotated[StrictInt, Field(ge=INT64_MIN, le=INT64_MAX)]
"""A whole number of the protocol: a JSON integer, never a string, a float (``2.0``) or a boolean."""


class _Message(BaseModel):
    """A message of the protocol: closed (a field the protocol does not name is refused). The docstring under each
    field is its description (docs/server.md's reference is written from them: :mod:`dreizehn.server.reference`)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class _FromClient(_Message):
    """A message from a client: strict besides (no value is coerced: ``"2"``, ``2.0`` and ``true`` are no integers,
    ``1`` is no string)."""

    model_config = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)


class Hello(_FromClient):
    """The first message: a seat's token (from the invitation link), or a table and its spectator token, or a table
    and one of the signed-in account's seats (``seat``)."""

    type: Literal["hello"]
    """Every message names its type."""
    protocol: Int64
    """The protocol version the client speaks: 1 (``GET /api/server`` says it); another is refused."""
    token: str | None = Field(default=None, max_length=64)
    """A seat's token (the last part of its invitation link ``/play/<token>``): opens that seat."""
    table: str | None = Field(default=None, max_length=24, pattern=r"^[A-Za-z0-9_-]+$")
    """With ``spectator``, instead of ``token``: the id of the table to watch (letters, digits, ``-`` and ``_``, as
    every table's id)."""
    spectator: str | None = Field(default=None, max_length=64)
    """The table's spectators' token (the last part of ``/watch/<table>/<token>``)."""
    seat: Annotated[StrictInt, Field(ge=0, le=63)] | None = None
    """With ``table``, instead of a token: open this seat of the table as the account it is bound to (rule U7), by
    the session the websocket's handshake carries (its cookie; the page ``/seat/<table>/<seat>``). A guest is
    refused (``account.signed_out``), a seat of another account or of a guest too (``account.seat_bound``,
    ``account.not_your_seat``); a seat the account was invited to by user name is taken now. The session is checked
    again at every message: once it ended, the connection is refused and closed."""
    watch: StrictBool = False
    """With ``table`` and no ``spectator`` token: watch the table as anyone may from the list of tables
    (``/watch/<table>``); a table that does not exist is refused (``server.no_table``)."""
    lang: str = Field(default="en", max_length=8)
    """The language everything is said in: ``en``, ``de`` or ``nl`` (another is refused: ``words.language``)."""
    window: str | None = Field(default=None, max_length=40)
    """An id of the client's window (a browser tab's, the same across its reloads): a new connection of a seat from
    the same window replaces that window's older one without asking."""
    takeover: Literal["ask", "yes"] | None = None
    """When the seat is open in another window (here or on another server process): ``ask`` refuses this hello
    (``server.seat_open``), so that the person can be asked; ``yes`` takes the seat over: the other windows are told
    ``taken_over`` and closed. Absent: every window stays connected."""


class Act(_FromClient):
    """An action, by its index or its text, chosen in state version ``version``."""

    type: Literal["action"]
    """Every message names its type."""
    version: Annotated[StrictInt, Field(ge=0, le=INT64_MAX)]
    """The version of the view the action was chosen in (its ``version``); a stale one is refused (``table.stale``)
    with the current view."""
    action: Int64 | Annotated[StrictStr, Field(max_length=32)]
    """The action: its ``index`` or its ``text`` (notation) from the view's ``legal_actions``."""


class AskHint(_FromClient):
    """Ask for the hint of the position (a seat to move only)."""

    type: Literal["hint"]
    """Every message names its type."""


class SetLanguage(_FromClient):
    """Speak another language from now on."""

    type: Literal["lang"]
    """Every message names its type."""
    lang: str = Field(max_length=8)
    """``en``, ``de`` or ``nl``: the connection is resynced in it."""


class Ready(_FromClient):
    """A seat's person has read the scoring of the stage that ended at version ``version`` (closed its window): the
    bots, which wait for every person connected to the table (or ``DREIZEHN_STAGE_HOLD`` seconds), may go on."""

    type: Literal["ready"]
    """Every message names its type."""
    version: Annotated[StrictInt, Field(ge=0, le=INT64_MAX)]
    """The version of the view whose stage ended (the update that ended it); an older one changes nothing."""


class Say(_FromClient):
    """Say a line at the table: free ``text`` or a quick ``phrase`` (exactly one). A seat's person speaks to everyone
    at the table, a spectator to the spectators only. At most one line a second (three at once); a line is stored
    before anyone is told of it."""

    type: Literal["say"]
    """Every message names its type."""
    text: Annotated[StrictStr, Field(min_length=1, max_length=200)] | None = None
    """Free text, 1 to 200 characters (blanks alone are refused: ``server.chat_empty``)."""
    phrase: Literal["hello", "good_luck", "well_played", "thanks", "oops", "good_game", "one_moment", "bye"] | None = (
        None)
    """A quick phrase, which each reader reads in their own language."""


class Offer(_FromClient):
    """Ask the other people of the finished table for a rematch: everyone there is told (``offered``) and each
    answers (``accept`` or ``decline``); the asker's page starts it (``POST /api/tables/{id}/rematch``) once all
    accepted, or at once with bots in the seats of those who declined. A spectator's, one before the game's end, or
    one after another's offer, changes nothing."""

    type: Literal["offer"]
    """Every message names its type."""


class Accept(_FromClient):
    """Say yes to the rematch another seat asked for (its ``offered``): everyone at the finished table is told
    (``accepted``). A spectator's, the asker's, or one with no rematch asked, changes nothing."""

    type: Literal["accept"]
    """Every message names its type."""


class Decline(_FromClient):
    """Say no to the rematch another seat asked for (its ``offered``, or its ``rematch`` message): everyone at the
    finished table is told (``declined``). A spectator's, or one with no rematch asked, changes nothing."""

    type: Literal["decline"]
    """Every message names its type."""


class Undo(_FromClient):
    """Take back the person's latest move, and every bot move after it (S8): only at a table of one person and bots,
    on the person's own turn, never past a deal, a scored stage or a card hidden from the person shown to them since.
    Everyone at the table is told (a ``resync``, then ``taken_back``)."""

    type: Literal["undo"]
    """Every message names its type."""
    version: Annotated[StrictInt, Field(ge=0, le=INT64_MAX)]
    """The version of the view the person saw; a stale one is refused (``table.stale``) with the current view."""


class Ping(_FromClient):
    """Keep-alive; answered by a pong."""

    type: Literal["ping"]
    """Every message names its type."""


ClientMessage = Annotated[Hello | Act | AskHint | SetLanguage | Ready | Say | Offer | Accept | Decline | Undo | Ping,
                          Field(discriminator="type")]
client_message: TypeAdapter[
    Hello | Act | AskHint | SetLanguage | Ready | Say | Offer | Accept | Decline | Undo | Ping] = TypeAdapter(
    ClientMessage)
CLIENT_TYPES = ("hello", "action", "hint", "lang", "ready", "say", "offer", "accept", "decline", "undo", "ping")
"""The types of the messages a client sends."""


class SeatInfo(_Message):
    """A seat as everyone sees it."""

    seat: int
    """Its number, from 0 (the order of play's seats)."""
    name: str
    """The person's name (empty until they join), or the bot's: a bot created without one sits under a bot's name
    (``Bruno``); one stored under its level (an older table) is named by the level's word in the receiver's language
    (``leicht``), with its seat number where a level sits twice."""
    kind: Literal["person", "bot"]
    """Who sits there."""
    bot: str | None
    """A bot's level (``easy``, ``medium``, ``hard``, ``expert``, ``master``) or specification; ``null`` for a
    person."""
    joined: bool
    """Whether the seat is taken: a bot's always, a person's once named (at creation or by ``POST /api/seats/join``).
    """
    connected: bool
    """Whether the person has a connection open (to any server process)."""
    stand_in: bool
    """A bot plays for the person, who is away."""


class SaidEvent(_Message):
    """An event as its receiver may know it, with its sentence in the receiver's language."""

    key: str
    """The event's key (docs/wire.md, "Events")."""
    params: dict[str, Any]
    """Its parameters as this receiver may know them (a card drawn only for the seat that drew it)."""
    text: str
    """The event in words, in the receiver's language."""
    lines: list[str] | None = None
    """A scored stage's explanation in words, a line each (``stage.scored`` only)."""


class Welcome(_Message):
    """The answer to a hello, and a resync: the whole view (with its history) and the seats."""

    type: Literal["welcome", "resync"]
    """``welcome`` after the hello; ``resync`` after a change of language or when the connection missed something
    (another process took the turn, the database failed): take it as the whole truth."""
    protocol: int
    """The protocol version: 1."""
    table: str
    """The table's id."""
    game: str
    """The game's id: ``knizia13``, ``three-thirteen`` or ``holzwurm``."""
    seat: int | None
    """The receiver's seat; ``null`` for a spectator."""
    lang: str
    """The language of the connection."""
    stages: int | None = None
    """How many stages (rounds, games of a match) the game has: the page says "round 3 of 11"; ``null`` for a game
    that does not know it beforehand."""
    view: dict[str, Any]
    """The whole view document of the receiver (docs/wire.md), with its ``history``."""
    seats: list[SeatInfo]
    """Every seat, seat 0 first."""
    history: list[str]
    """The course of the game so far in words, a line per action."""
    recent: list[Told]
    """Every action of the game so far, each as its update told this receiver: a client that comes back shows the
    whole game's log in the sentences it showed it in live (a move taken back is no longer among them)."""
    chat: list[Said] = []
    """The latest lines said at the table that the receiver may read (up to 50), oldest first."""
    undo: bool = False
    """Whether the receiver may take back a move now (``undo``: a person alone with bots, S8)."""
    undo_blocked: Literal["server.undo_dealt", "server.undo_drawn"] | None = None
    """Why the receiver, alone with bots on their turn, may not take back their latest move: cards were dealt (or
    a stage scored) since, or a card hidden from them was shown to them since (the refusal ``undo`` would get);
    ``null`` otherwise. The page says so where its Undo button would be."""
    watching: int = 0
    """How many spectators' windows are open at the table, the receiver's own included."""
    stand_ins: list[StandInChange] = []
    """When a bot began to play for someone away and when they came back, oldest first (while the server keeps the
    table in memory): a page that comes back, or a late spectator, says so in the log where it happened."""
    taken_back: list[TakenBack] = []
    """The moves taken back in the game as it stands, oldest first, each as its ``taken_back`` told it (its
    ``version`` places it in the log; one that a later take-back went back before is left out)."""


class StandInChange(BaseModel):
    """A bot began to play for a person who was away, or the person came back and took their seat again."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    version: int
    """The table's version when it happened (it is said in the log after that action)."""
    seat: int
    """The seat."""
    playing: bool
    """``true``: a bot began to play for the seat's person; ``false``: the person took their seat back."""


class Told(BaseModel):
    """An action as told to one receiver: who did what, in words, and its events filtered for the receiver."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    version: int
    """The version the action made: the number of actions applied with it."""
    seat: int
    """The seat that acted."""
    action: str
    """The action in notation (docs/notation.md)."""
    text: str
    """The action in words, in the receiver's language."""
    events: list[SaidEvent]
    """What happened, in order, each as this receiver may know it."""


class Update(Told, _Message):
    """An action applied (:class:`Told`) with the receiver's new view (without its history) and the seats: sent
    after every action to every connection of the table, versions one after another."""

    type: Literal["update"]
    """Every message names its type."""
    view: dict[str, Any]
    """The receiver's new view document (docs/wire.md), its ``history`` left out (the client appends the action)."""
    seats: list[SeatInfo]
    """Every seat, seat 0 first."""
    undo: bool = False
    """Whether the receiver may take back a move now (``undo``: a person alone with bots, S8)."""
    undo_blocked: Literal["server.undo_dealt", "server.undo_drawn"] | None = None
    """Why the receiver, alone with bots on their turn, may not take back their latest move: cards were dealt (or
    a stage scored) since, or a card hidden from them was shown to them since (the refusal ``undo`` would get);
    ``null`` otherwise. The page says so where its Undo button would be."""


class Refusal(_Message):
    """A refusal as data: the code, the rule and the message in the receiver's language. The HTTP API answers it as
    its ``detail``; the websocket's :class:`Refused` adds to it."""

    code: str
    """What was refused (the list of codes: docs/server.md, "Refusals"): also the key of its sentence."""
    rule: str | None
    """The rule the message or request broke (``S3``, ``K10``, ``A2``, …), if one."""
    params: dict[str, Any]
    """What the sentence names; a value JSON cannot carry to every client (a whole number beyond 64 bits, NaN) is
    given as its text."""
    message: str
    """The refusal in words for people, in the receiver's language: no rule, seats said by their players' names
    (``code``, ``rule`` and ``params`` are the data)."""


class Refused(Refusal):
    """A refused message: the :class:`Refusal`, and the current view when the refusal concerned an action."""

    type: Literal["refused"]
    """Every message names its type."""
    view: dict[str, Any] | None = None
    """For a refused action: the receiver's current view document, whole (show it and let the person choose
    again); else ``null``."""
    version: int | None = None
    """The table's current version, for a refusal of a message to a table (an action, a hint); else ``null``."""


class Presence(_Message):
    """Seats came, went, or were taken over by a bot; or a spectator came or went."""

    type: Literal["presence"]
    """Every message names its type."""
    seats: list[SeatInfo]
    """Every seat, seat 0 first."""
    watching: int = 0
    """How many spectators' windows are open at the table (the players' page says that someone watches)."""


class HintRating(_Message):
    """One legal action rated by the hint search."""

    action: str
    """The action in notation."""
    words: str
    """The action in words, in the receiver's language."""
    win: float
    """The seat's expected share of the win, in [0, 1]."""
    win_sd: float
    """The standard error of ``win`` (the sampling error)."""
    points: float
    """The seat's expected total at the end of the game."""
    points_sd: float
    """The standard error of ``points``."""
    samples: int
    """The playouts behind the numbers."""


class HintAnalysis(_Message):
    """Every legal action of the seat to move, rated, best first (docs/bots.md, "Hints")."""

    game: str
    """The game's id."""
    seat: int
    """The seat the hint is for."""
    policy: str
    """The policy that played the playouts."""
    playouts: int
    """The playouts over all actions."""
    worlds: int
    """The hidden cards sampled (worlds consistent with the seat's view)."""
    inferred: bool
    """Whether the worlds were dealt by what the seat saw of the others' play, not uniformly."""
    search: str | None
    """The search whose move comes first (the specification of the game's hint level, ``master`` in 13
    and Holzwurm, ``expert`` in Three Thirteen), or ``None`` where the ratings are in the order of their chances."""
    choice: str | None
    """The move of ``search``, in notation (the first rating's action)."""
    level: str | None
    """The level whose specification ``search`` is (the game's hint level), for the page to name in the reader's
    language."""
    note: Literal["level", "search"] | None = None
    """Why the search's move comes first although ``rival`` shows a better number: ``level``, the playouts cannot
    tell the two apart (the rival's lead is under two standard errors on the deals both were played on);
    ``search``, they can, but the search looks further ahead than they do. ``None`` where the search's move shows
    the best number (docs/bots.md, "Hints")."""
    rival: str | None = None
    """The move showing the best number, in notation, where ``note`` is set."""
    seconds: float
    """The time the hint took, the search's and the playouts'."""
    ratings: list[HintRating]
    """Every legal action, best first: the search's move, then the others by their chance to win."""


class Hint(_Message):
    """The hint of the position: every legal action rated."""

    type: Literal["hint"]
    """Every message names its type."""
    version: int
    """The version of the position rated."""
    analysis: HintAnalysis
    """The actions rated."""


class Rematch(_Message):
    """Someone asked for a rematch: the new table and this seat's invitation to it (``null`` for a spectator)."""

    type: Literal["rematch"]
    """Every message names its type."""
    table: str
    """The new table's id."""
    token: str | None
    """This seat's invitation token to it (open ``/play/<token>``, or say hello with it); ``null`` for a spectator.
    It is given once: keep it."""
    by: int | None = None
    """The seat that asked for it (its page goes there at once; the others are asked, and may ``decline``)."""


class Offered(_Message):
    """A person at the finished table asks the others for a rematch (their ``offer``); each answers with ``accept``
    or ``decline``, told to everyone as ``accepted`` or ``declined``."""

    type: Literal["offered"]
    """Every message names its type."""
    by: int
    """The seat that asks."""


class Accepted(_Message):
    """A person at the finished table wants the rematch asked for (their ``accept``)."""

    type: Literal["accepted"]
    """Every message names its type."""
    seat: int
    """The seat whose person accepted."""


class Declined(_Message):
    """A person at the finished table does not want the rematch (their ``decline``); their seat of it stays free,
    or is a bot's when the asker starts it without them (``bots`` of ``POST /api/tables/{id}/rematch``)."""

    type: Literal["declined"]
    """Every message names its type."""
    seat: int
    """The seat whose person declined."""


class Said(_Message):
    """A line said at the table (``say``), told to everyone who may read it; a welcome carries the latest."""

    type: Literal["said"]
    """``said``."""
    id: int
    """The line's number: a line stored later has a higher one (two lines said at the same moment may be told in
    either order; a page shows them by number)."""
    seat: int | None
    """The speaker's seat; ``null`` for a spectator (read by spectators only)."""
    name: str
    """The speaker's name (empty for a spectator)."""
    text: str | None
    """The free text, or ``null`` for a phrase."""
    phrase: str | None
    """The quick phrase's key (``hello``, ``good_luck``, ``well_played``, ``thanks``, ``oops``, ``good_game``,
    ``one_moment``, ``bye``), or ``null`` for free text."""
    version: int
    """The game's version when it was said (the replay shows it there)."""


class TakenOver(_Message):
    """The seat of this connection was taken over by another window (a hello with ``takeover: "yes"``); the
    connection is closed after it. A page shows that it was, and reconnects only when its person asks."""

    type: Literal["taken_over"]
    """``taken_over``."""


class TakenBack(_Message):
    """A move was taken back (``undo``): told to everyone at the table right after the ``resync`` that shows the
    position before it."""

    type: Literal["taken_back"]
    """``taken_back``."""
    seat: int
    """The seat whose person took their move back."""
    version: int
    """The table's version now, the move taken back and all after it gone."""
    count: int
    """How many actions were taken back: the person's and the bots' after it."""
    text: str
    """What happened in words, in the receiver's language."""


class TimedOut(_Message):
    """At a turn-based table, a person's time to move ran out and the table's rule was applied (rule P3 of
    docs/turns.md): told to everyone at the table after what the rule changed (the bot's move, or a ``resync``)."""

    type: Literal["timed_out"]
    """``timed_out``."""
    seat: int
    """The seat whose time ran out."""
    rule: Literal["move", "seat", "end"]
    """What happened: a bot played that ``move``; a bot took the ``seat`` for the rest of the game; the game
    ``end``-ed with that person last."""
    version: int
    """The table's version now."""
    text: str
    """What happened in words, in the receiver's language."""


class Pong(_Message):
    """The answer to a ping."""

    type: Literal["pong", "ping"]
    """``pong``."""


ServerMessage = Annotated[Welcome | Update | Refused | Presence | Hint | Rematch | Offered | Accepted | Declined
                          | Said | TakenOver | TakenBack | TimedOut | Pong, Field(discriminator="type")]
server_message: TypeAdapter[
    Welcome | Update | Refused | Presence | Hint | Rematch | Offered | Accepted | Declined | Said | TakenOver
    | TakenBack | TimedOut | Pong] = (TypeAdapter(ServerMessage))
