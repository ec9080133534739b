"""The room: a table being played in this process, made of parts that each own their state
(:class:`~.state.TableState` the table, :class:`~.presence.Presence` who is there, :class:`~.telling.Telling` the
messages, :class:`~.hold.Hold` the wait for a stage's scoring, :class:`~.bots.Bots` the bots and the turn clock,
:class:`~.acting.Acting` acting and storing, :class:`~.rematch.Rematches` the rematch). The room makes them, hands
each what it needs of the others, and is what the hub and the routes speak to; of its own it has the lock, when it
was last used, chat and hints."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, Protocol

from dreizehn.play.table import BotRequest, Table
from dreizehn.server import messages
from dreizehn.server.accounts.relations import seat_mutes
from dreizehn.server.chat import Line, store_line
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms.acting import Acting, Writes
from dreizehn.server.rooms.bots import Bots
from dreizehn.server.rooms.conn import Conn
from dreizehn.server.rooms.hold import Hold
from dreizehn.server.rooms.presence import Presence, PresenceHooks
from dreizehn.server.rooms.rematch import Rematches
from dreizehn.server.rooms.state import TableState
from dreizehn.server.rooms.telling import Telling
from dreizehn.server.settings import Settings
from dreizehn.server.storage import Store, Stored
from dreizehn.server.takebacks import TakeBack
from dreizehn.server.turns.hooks import TurnHooks
from dreizehn.server.turns.keeper import TurnKeeper
from dreizehn.server.turns.store import Clocks

log = logging.getLogger("dreizehn.server")


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

    def game_over(self, table_id: str) -> None: ...

    def doubt_home(self, room: Any) -> None: ...

    clocks: Clocks
    turn_hooks: list[TurnHooks]


class Room:
    """A table being played in this process: its parts, and what the hub and the routes ask of it."""

    def __init__(self, hub: HubLike, stored: Stored, chat: list[Line] | None = None,
                 take_backs: list[TakeBack] | None = None) -> None:
        settings = hub.settings
        self._hub = hub
        self.id = stored.row.id
        self.lock = asyncio.Lock()
        self._last_used = time.monotonic()
        """When a connection last came or went, or a seat was named or a line said (``time.monotonic``)."""
        self._stopped = False
        self.state = TableState(stored, take_backs or ())
        grace = None if stored.row.turn_based else settings.grace_period  # turn-based: the turn clock, no grace
        self.presence = Presence(self.state, self.lock, grace, settings.stand_in, PresenceHooks(
            publish=lambda: hub.publish_presence(self), tell=self._tell_presence, moved=self.after_change))
        self.telling = Telling(self.state, self.presence, chat)
        self.hold = Hold(self.presence.people_here, lambda: self.state.table.is_over)
        self.bots = Bots(self.state, self.lock, self.hold, lambda request, game: hub.decide(request, game),
                         self._store_and_tell, self._stand_in, settings.bot_pause, settings.stage_hold)
        store = hub.store
        self.acting = Acting(self.state, self.lock, hub.writer, store.actions, store.tables.load, self.telling,
                             self._pace(), self.presence.stand_in_here, settings.stand_in,
                             lambda: hub.doubt_home(self))
        self._chat_lock = asyncio.Lock()
        """Lines heard from other processes are told in the order heard (each after the blocks are read again)."""
        self._heard: set[asyncio.Task[None]] = set()
        self.turns = TurnKeeper(self.state, self.lock, hub.clocks, lambda: hub.turn_hooks, self._store_and_tell,
                                self.telling.resync_all, self.after_change, lambda: hub.game_over(self.id),
                                settings.stand_in, self.telling.tell_timed_out)
        """A turn-based table's clock (:mod:`dreizehn.server.turns`)."""
        self.rematches = Rematches(self.presence.conns, lambda: self.state.table.is_over, len(stored.seats),
                                   store.tables.issue_token)

    def _stand_in(self) -> frozenset[int]:
        """The seats a bot plays for their people: this process's stand-in's, and those a bot took for good."""
        return self.presence.stand_in_here() | self.state.left_seats()

    def _pace(self) -> _Pace:
        return _Pace(self.bots, self.hold, lambda: self._hub.game_over(self.id))

    def _tell_presence(self) -> None:
        self.telling.broadcast_presence()

    async def _store_and_tell(self, update: Any, by: str) -> bool | None:
        """A bot's or the clock's move stored and told; a turn-based table's clock follows."""
        stored = await self.acting.store_and_tell(update, by)
        self.turns.after_change()
        return stored

    @property
    def table(self) -> Table:
        """The table as played now (rebuilt from the log after a conflict or a take-back)."""
        return self.state.table

    @property
    def conns(self) -> list[Conn]:
        """The connections of this process to the table."""
        return self.presence.conns()

    @property
    def stopped(self) -> bool:
        """Set when the room stops (the server stops, or another process serves the table now): nothing starts
        in it any more."""
        return self._stopped

    def _used(self) -> None:
        self._last_used = time.monotonic()

    # connections

    def welcome(self, conn: Conn, kind: str = "welcome") -> str:
        """The whole of the table for ``conn``: a ``welcome`` after its hello, a ``resync`` later."""
        return self.telling.welcome(conn, kind)

    def connect(self, conn: Conn) -> None:
        """A connection joined the room (after its welcome): told the rematch offered, if any, and counted."""
        self._used()
        self.rematches.retell(conn)
        self.presence.connect(conn)

    def disconnect(self, conn: Conn) -> None:
        """A connection left; the stage's scoring waits for its person no more."""
        self.presence.disconnect(conn)
        self._used()
        self.hold.check()

    def ready(self, seat: int | None, version: int) -> None:
        """The person of ``seat`` closed the scoring of the stage ended at ``version``."""
        self.hold.ready(seat, version)

    # acting

    def after_change(self) -> None:
        """Start the bots or the turn clock, as the table now needs."""
        self.bots.after_change()
        self.turns.after_change()

    async def act(self, conn: Conn, version: int, action: int | str) -> None:
        """A person's action (:meth:`Acting.act`); then the table moves on."""
        await self.acting.act(conn, version, action)
        self.after_change()

    async def undo(self, conn: Conn, version: int) -> None:
        """A take-back (:meth:`Acting.undo`); then the table moves on."""
        await self.acting.undo(conn, version)
        self.after_change()

    async def catch_up(self) -> None:
        """The actions another process stored (:meth:`Acting.catch_up`); then the table moves on."""
        await self.acting.catch_up()
        self.after_change()

    # seats and rematches

    def seat_taken(self, seat: int, name: str, drop: bool) -> None:
        """A person took ``seat`` under ``name``: by its invitation, or (``drop``) from the list of tables, with a
        new invitation: then the windows the old one opened are closed (they never see the new player's hand)."""
        if drop:
            self.presence.seat_lost(seat)
        self.state.rename(seat, name)
        self._used()
        self.telling.broadcast_presence()

    def offer(self, conn: Conn) -> None:
        self.rematches.offer(conn)

    def answer(self, conn: Conn, accept: bool) -> None:
        self.rematches.answer(conn, accept)

    # chat and hints

    @staticmethod
    def well_said(text: str | None, phrase: str | None) -> bool:
        """Whether a line of chat has text (not blanks alone) or a phrase, not both."""
        return (text is None) != (phrase is None) and (text is None or bool(text.strip()))

    async def say(self, conn: Conn, text: str | None, phrase: str | None) -> None:
        """A line of chat from ``conn``'s person (or spectator), :meth:`well_said` already: stored, then told to
        whoever may read it, here and (PostgreSQL) in the other processes; refused (``server.not_stored``) with
        nothing said when the database fails."""
        name = "" if conn.seat is None else self.state.seats[conn.seat].name
        try:
            line = await asyncio.to_thread(store_line, self._hub.store, self.id, conn.seat, name,
                                           None if text is None else text.strip(), phrase, self.table.version)
        except Exception:
            log.warning("a line of chat at table %s was not stored", self.id, exc_info=True)
            conn.send(self.telling.refusal(conn, ServerError("server.not_stored", rule="S7"), with_view=False))
            return
        self._used()
        await self.refresh_mutes()
        self.telling.tell_line(line)
        self._hub.publish_line(line)

    async def refresh_mutes(self) -> None:
        """Read again who blocks whom among the accounts the seats are bound to (rule U8): a reader gets no line of
        chat of a seat whose account their own blocks. Read when the room is loaded, before each line is told, when
        a block is made or ended here, and where a seat is bound to an account. A failing database keeps what was
        read last."""
        try:
            mutes = await asyncio.to_thread(seat_mutes, self._hub.store, self.id)
        except Exception:
            log.warning("the blocks at table %s were not read", self.id, exc_info=True)
            return
        self.telling.set_mutes(mutes)

    def hear_line(self, line: Line) -> None:
        """A line of chat another process stored (PostgreSQL's notice): told here, after the blocks are read
        again, in the order heard."""

        async def tell() -> None:
            async with self._chat_lock:
                await self.refresh_mutes()
                self.telling.tell_line(line)

        task = asyncio.get_running_loop().create_task(tell())
        self._heard.add(task)
        task.add_done_callback(self._heard.discard)

    async def hint(self, conn: Conn) -> None:
        """The hint of the position for a person to move, computed off the event loop."""
        table = self.table
        if conn.seat is None or conn.seat != table.current_player or table.is_over:
            conn.send(self.telling.refusal(conn, ServerError("server.hint_not_your_turn", rule="S5"),
                                           with_view=False))
            return
        view, version = table.view(conn.seat), table.version
        loop = asyncio.get_running_loop()
        from dreizehn.server.hinting import hint_in_worker

        try:
            analysis = await loop.run_in_executor(self._hub.executor, hint_in_worker, view,
                                                  self._hub.settings.hint_seconds, conn.lang)
        except Exception:  # a hint that fails is refused; the connection goes on
            log.warning("the hint of table %s failed", self.id, exc_info=True)
            conn.send(self.telling.refusal(conn, ServerError("server.hint_failed", rule="S5"), with_view=False))
            return
        conn.send(messages.hint(version, analysis))

    # the room's life

    def busy(self) -> bool:
        """Whether a bot, the turn clock or a grace period is running, or an action being applied."""
        return self.lock.locked() or self.bots.busy() or self.presence.busy() or self.turns.busy()

    def idle_since(self, now: float, idle: float) -> bool:
        """Whether the room may be dropped from memory (and rebuilt from the stored log when needed): no
        connection, no task running (a bot, the turn clock, a grace period), no bot to move nor stand-in playing in
        a game not over, no other process's presence to keep track of, and not used for ``idle`` seconds before
        ``now`` (``time.monotonic``). A table whose people all left is played to its end by the stand-ins first."""
        table = self.table
        playing = not table.is_over and bool(self.presence.stand_in_here() or table.bot_to_move)
        used = max(self._last_used, self.bots.told_at)
        return self.presence.alone() and not self.busy() and not playing and now - used >= idle

    def stop(self) -> None:
        """Cancel the room's tasks and close its connections (the server stops, or another process serves the
        table now: the clients come back through it)."""
        self._stopped = True
        self.bots.stop()
        self.turns.stop()
        self.presence.stop()


class _Pace:
    """What acting tells of the pace of the table: to the bots (an action told) and the hold (a stage scored, or
    its end taken back)."""

    def __init__(self, bots: Bots, hold: Hold, over: Callable[[], None]) -> None:
        self._bots, self._hold, self._over = bots, hold, over

    def told(self) -> None:
        self._bots.told()

    def scored(self, update: Any) -> None:
        self._hold.scored(update)

    def release(self) -> None:
        self._hold.release()

    def over(self) -> None:
        self._over()
