"""What every part of a room holds: the table rebuilt from its stored log, its seats, its connections, its tasks,
and what a room needs of its hub. The parts (:mod:`.telling`, :mod:`.presence`, :mod:`.acting`, :mod:`.bots`,
:mod:`.room`) each add one concern; :class:`~dreizehn.server.rooms.room.Room` is all of them."""

from __future__ import annotations

import asyncio
import contextlib
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Protocol

from dreizehn.bots.levels import LEVEL_NAMES
from dreizehn.core.registry import load_game
from dreizehn.core.wire import ViewWriter
from dreizehn.play.table import BotRequest, Seat, Table, Update
from dreizehn.server import metrics
from dreizehn.server.chat import RECENT_LINES, Line
from dreizehn.server.settings import Settings
from dreizehn.server.storage import Append, SeatRow, Store, Stored
from dreizehn.server.takebacks import TakeBack
from dreizehn.words import words

OUTBOX_LIMIT = 256
"""Messages waiting for a slow connection before it is closed."""


@dataclass(eq=False)
class Conn:
    """One websocket: its seat (``None`` for a spectator), its language, and the messages waiting to be sent (as
    JSON text, from :mod:`dreizehn.server.messages`)."""

    seat: int | None
    lang: str
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX_LIMIT))
    closed: bool = False
    dropped: bool = False
    """Closed for falling :data:`OUTBOX_LIMIT` messages behind (a client that does not read)."""
    on_drop: Callable[[], None] | None = None
    """What ends the connection's handler when it is dropped (the websocket route sets it)."""
    window: str | None = None
    """The client's window (its hello's ``window``): a new connection from the same window replaces this one."""

    def send(self, message: str) -> None:
        """Queue a message's text (written once for receivers who get the same); a connection that falls too far
        behind is dropped: what waits for it is thrown away, and its handler ends (the socket is closed)."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.drop()

    def drop(self, slow: bool = True) -> None:
        """End the connection from the server's side: for falling behind (``slow``, counted in the metrics), or
        because its seat is no longer its own (taken from the list of tables)."""
        if self.closed:
            return
        self.dropped = True
        if slow:
            metrics.DROPPED.inc()
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.close()
        if self.on_drop is not None:
            self.on_drop()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


class Writes(Protocol):
    """What stores a room's actions (:class:`~dreizehn.server.storage.Writer`)."""

    async def append(self, row: Append) -> None: ...


class HubLike(Protocol):
    """What a room asks of its hub: the settings, the storage, the bot pool, and telling other processes."""

    settings: Settings
    store: Store
    executor: Executor | None

    @property
    def writer(self) -> Writes: ...

    async def decide(self, request: BotRequest, game: Any) -> tuple[int, Any]: ...

    def publish_presence(self, room: Any) -> None: ...

    def publish_line(self, line: Line) -> None: ...


def build_table(stored: Stored, told: deque[Update] | None = None) -> Table:
    """The table of a stored game, its actions replayed through the engine; with ``told``, every action is
    replayed with its events into it, and so is every action applied afterwards: a welcome's ``recent`` is the whole
    game as it was told (a client that comes back shows every move in the sentences it showed them in live), and a
    take-back looks in it for what was shown since the move (:mod:`dreizehn.server.takebacks`)."""
    game = load_game(stored.row.game_id, stored.row.players, stored.row.options)
    seats = tuple(Seat(s.name, bot=s.bot) for s in stored.seats)
    table = Table(game, seats, stored.row.seed, game.new_state(stored.row.seed))
    if told is None:
        state = table.state
        for _, action, _ in stored.actions:
            state.apply(action)
        return table
    told.clear()
    table.listen(told.append)
    for seat, action, _ in stored.actions:
        table.apply_as(seat, action)
    return table


def seat_names(seats: list[SeatRow], lang: str) -> list[str]:
    """The seats' names in ``lang``. A bot seat created without a name is stored under its level (``easy``), and is
    named by the level's word in each receiver's language (``leicht``, ``makkelijk``), with its seat number where the
    level sits twice, as the browser names the bots it creates."""
    levels = [s.bot if s.bot is not None and s.name == s.bot and s.bot in LEVEL_NAMES else None for s in seats]
    w = words(lang)
    return [s.name if level is None else w(f"web.level.{level}") + (f" {s.seat + 1}" if levels.count(level) > 1
                                                                      else "")
            for s, level in zip(seats, levels, strict=True)]


class RoomBase(ABC):
    """A table being played in this process: its state, and what the parts of a room share."""

    def __init__(self, hub: HubLike, stored: Stored) -> None:
        self.hub = hub
        self.id = stored.row.id
        self.row = stored.row
        self.seat_rows = list(stored.seats)
        self.told: deque[Update] = deque()
        """Every action of the game applied, each with all its events (filtered for each receiver when said)."""
        self.table = build_table(stored, self.told)
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.away: dict[int, asyncio.Task[None]] = {}
        self.stand_in: set[int] = set()
        self.elsewhere: dict[str, tuple[int, dict[int, int], set[int]]] = {}
        """What other server processes said of this table (PostgreSQL): per process, the number of its notice,
        its connections per seat, and the seats its stand-in plays."""
        self.stopped = False
        """Set when the room stops (the server stops, or another process serves the table now): nothing starts
        in it any more."""
        self.bot_task: asyncio.Task[None] | None = None
        self.clock_task: asyncio.Task[None] | None = None
        self.last_used = time.monotonic()
        """When the room was last used (``time.monotonic``): a connection came or went, or an action was told."""
        self.told_at = 0.0
        """When the latest action was told (``time.monotonic``): bots wait the bot pause after it."""
        self.writers: dict[str, ViewWriter] = {}
        """Per language, what writes the views as documents: it keeps each legal action said as an offer and each
        field as last written (:class:`~dreizehn.core.wire.ViewWriter`)."""
        self._names: dict[str, list[str]] = {}
        self.chat: deque[Line] = deque(maxlen=RECENT_LINES)
        """The latest lines of chat, every reader's (the hub loads them with the room)."""
        self.take_backs: list[TakeBack] = []
        """The moves taken back at this table, in order (the hub loads them with the room)."""
        self.rematch_asked = False
        """Whether a rematch was asked for at this table (while the room is in memory)."""
        self.stand_in_changes: list[dict[str, Any]] = []
        """When a stand-in began to play for an away person and when they came back (``version``, ``seat``,
        ``playing``), in order, while the room is in memory: the welcome tells them."""
        self.offered_by: int | None = None
        """The seat whose person asked the others for a rematch (``offer``), while the room is in memory."""
        self.rematch_answers: dict[int, bool] = {}
        """Each answer to that offer, by seat (``True``: they play again)."""
        self.held_at: int | None = None
        """The version whose update ended a stage, while the bots wait for the people to read its scoring."""
        self.ready_seats: set[int] = set()
        """The seats whose person closed the scoring of the stage ended at :attr:`held_at`."""
        self.all_ready = asyncio.Event()
        """Set when every person connected here to a seat has closed that scoring (:meth:`check_ready`)."""

    def hold_for_scoring(self, update: Update) -> None:
        """An update told: if it ended a stage (not the game), the bots wait for the people to read its scoring."""
        if not self.table.is_over and any(event.key == "stage.scored" for event in update.events):
            self.held_at = update.version
            self.ready_seats = set()
            self.all_ready.clear()
            self.check_ready()

    def ready(self, seat: int | None, version: int) -> None:
        """The person of ``seat`` closed the scoring of the stage ended at ``version`` (an older one, a spectator's
        or one with no wait on changes nothing)."""
        if seat is not None and version == self.held_at:
            self.ready_seats.add(seat)
            self.check_ready()

    def check_ready(self) -> None:
        """Let the bots go on if every person connected here to a seat has closed the scoring (or none is)."""
        people = {c.seat for c in self.conns
                  if c.seat is not None and not c.closed and self.seat_rows[c.seat].bot is None}
        if people <= self.ready_seats:
            self.all_ready.set()

    def names(self, lang: str) -> list[str]:
        """The seats' names said in ``lang`` (:func:`seat_names`)."""
        found = self._names.get(lang)
        if found is None:
            found = self._names[lang] = seat_names(self.seat_rows, lang)
        return found

    def set_seats(self, seats: list[SeatRow]) -> None:
        """The seats changed (a person joined, or the table was reloaded)."""
        self.seat_rows = seats
        self._names.clear()

    def view_doc(self, seat: int | None, lang: str, history: bool) -> dict[str, Any]:
        """``seat``'s view (a spectator's for ``None``) as the document of docs/wire.md, said in ``lang``."""
        table = self.table
        view = table.state.spectator_view() if seat is None else table.view(seat)
        write = self.writers.get(lang)
        if write is None:
            game, w = table.game, words(lang)
            said: dict[int, str] = {}

            def offer(action: int) -> str:
                text = said.get(action)
                if text is None:
                    text = said[action] = game.say_action(w, action)
                return text

            write = self.writers[lang] = ViewWriter(offer)
        return write(view, history=history)

    # the parts of a room call each other through these; each is written by one part, and only the whole Room
    # (all parts together) is ever made

    @abstractmethod
    def after_change(self) -> None:
        """Start the bots or the turn clock, as the table now needs (:mod:`.bots`)."""

    @abstractmethod
    def broadcast_presence(self) -> None:
        """Tell every connection who is at the table (:mod:`.telling`)."""

    @abstractmethod
    def broadcast_update(self, update: Update) -> None:
        """Tell every connection of an applied action (:mod:`.telling`)."""

    @abstractmethod
    def resync_all(self) -> None:
        """Send every connection the whole view again (:mod:`.telling`)."""

    @abstractmethod
    def connected(self, seat: int) -> bool:
        """Whether a connection of this process or of another holds ``seat`` (:mod:`.presence`)."""
