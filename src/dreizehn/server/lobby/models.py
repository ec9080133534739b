"""The lobby's bodies and answers in the HTTP API (``/api/lobby``; docs/lobby.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from dreizehn.server.schemas import _In, _Out


class QueueIn(_In):
    """"Play now": what a signed-in person waits for (rule L1: queued again, this replaces what they asked)."""

    game: str = Field(min_length=1, max_length=32)
    """The game's id (``knizia13``, ``three-thirteen``, ``holzwurm``)."""
    players: int = Field(ge=2, le=12)
    """The number of seats of the table (the game's own bounds refuse others: ``players.*``)."""
    pace: Literal["realtime", "turn-based"] = "realtime"
    """Real-time (everyone confirms "ready" before it starts: rule L4) or turn-based."""
    move_time: int | None = Field(default=None, ge=3600, le=604800)
    """A turn-based table's time to move in seconds (1 hour to 7 days); needed for turn-based, else ignored."""
    rated: bool = False
    """Whether the table is rated (people who ask for rated tables wait only with each other)."""
    bot_wait: int | None = Field(default=60, ge=0, le=86400)
    """Seconds to wait for people before bots fill the free seats; ``null``: never (only people)."""
    bot_level: Literal["easy", "medium", "learned", "hard", "expert", "master"] = "medium"
    """The level of the bots that fill the free seats (the longest waiting person's level is the table's);
    ``learned`` only where the game offers it at ``players`` (13 and Holzwurm at 4), else ``lobby.bot_level``."""


class QueueOut(_Out):
    """A person's place in the lobby."""

    state: Literal["waiting", "ready", "making", "seated"]
    """``waiting`` in the queue; ``ready``: a real-time group was found and waits for everyone to confirm (rule
    L4); ``making``: the table is being made; ``seated``: the table is made, at ``url``."""
    merged: bool = False
    """Whether this queueing was merged into the person's entry of before (queued twice, in two tabs: rule L1)."""
    game: str
    """The game asked for."""
    players: int
    """The number of seats asked for."""
    pace: str
    """``realtime`` or ``turn-based``."""
    move_time: int | None
    """A turn-based table's time to move (seconds)."""
    rated: bool
    """Whether a rated table is asked for."""
    bot_wait: int | None
    """Seconds before bots fill the free seats; ``null``: never."""
    bot_level: str
    """The bots' level asked for."""
    queued_at: str
    """When the person queued (ISO 8601, UTC): the older, the nearer the front."""
    waiting: int
    """How many people wait for the same table (the person among them)."""
    ready: bool
    """In a ready check: whether the person confirmed."""
    ready_due: str | None
    """In a ready check: when it ends (ISO 8601, UTC); one who has not confirmed by then leaves the queue."""
    group: list[str]
    """In a ready check or seated: the names of the people of the group."""
    bots: int
    """In a ready check or seated: how many bots fill the other seats."""
    table: str | None
    """Seated: the table's id."""
    seat: int | None
    """Seated: the person's seat."""
    url: str | None
    """Seated: the person's own seat's page (``/seat/<table>/<seat>``)."""


class WaitingOut(_Out):
    """How many people wait for one kind of table."""

    game: str
    """The game."""
    players: int
    """The number of seats."""
    pace: str
    """``realtime`` or ``turn-based``."""
    move_time: int | None
    """A turn-based table's time to move (seconds)."""
    rated: bool
    """Whether rated."""
    count: int
    """How many people wait (in the queue or its ready check)."""


class LobbyOut(_Out):
    """The lobby as anyone sees it: who is online and who waits for what (open and running tables are
    ``GET /api/tables``)."""

    online: int
    """How many signed-in accounts are online (rule L6)."""
    online_names: list[str]
    """The names of the first 50 of them, in the order of names."""
    waiting: list[WaitingOut]
    """The people waiting, by kind of table."""
    me: QueueOut | None
    """The signed-in person's place in the lobby (``null`` for a guest or one not in it); asking is their waiting
    page's heartbeat (rule L2), as ``GET /api/lobby/queue`` is."""
