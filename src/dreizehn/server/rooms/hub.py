"""The hub: the rooms of this process (a cache of the tables being played, loaded from the stored log when needed
and dropped from memory when idle), the storage and the bot pool. What the server processes of one PostgreSQL
database tell each other, and the homes of their tables, is its :class:`~.peers.Peers`.

With PostgreSQL a process holds a room only for the tables whose home it holds (:mod:`dreizehn.server.homes`): it
claims the home before it loads the room. :meth:`Hub.room` raises :class:`~dreizehn.server.homes.Elsewhere` for a
table another process serves. A room whose home was lost (its process silent past the lease) may stay in memory until
the next renewal, but it can store nothing more: the writer stores only the actions of tables whose home no other
process holds, and the first action refused so stops the room."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from dreizehn.bots.base import make_bot
from dreizehn.play.table import BotRequest, decide_in_worker
from dreizehn.server import metrics
from dreizehn.server.accounts.relations import seat_mutes, tables_of
from dreizehn.server.chat import Line
from dreizehn.server.chat import lines as chat_lines
from dreizehn.server.homes import Elsewhere
from dreizehn.server.rooms.peers import Peers
from dreizehn.server.rooms.room import Room
from dreizehn.server.settings import Settings
from dreizehn.server.storage import Store, Stored, TakenBack, Writer
from dreizehn.server.takebacks import take_backs
from dreizehn.server.turns.hooks import TurnHooks
from dreizehn.server.turns.store import Clocks
from dreizehn.server.workers import Workers

log = logging.getLogger("dreizehn.server")

DEADLINE_SLACK = 1.0
"""Seconds the room waits for a bot's decision beyond ``DREIZEHN_BOT_TIMEOUT``, in which the workers kill a worker
that overran it and answer so (threads, ``DREIZEHN_BOT_WORKERS=0``, cannot be stopped: they are waited for no more)."""


class Hub:
    """The rooms of this process, the storage, the bot pool; :attr:`peers`, the other processes."""

    def __init__(self, settings: Settings, store: Store, executor: Executor | None) -> None:
        self.settings = settings
        self.store = store
        self.game_over_hooks: list[Callable[[str], None]] = []
        """Told the id of each table whose game ends in this process (:meth:`game_over`)."""
        self.clocks = Clocks(store.engine)
        """The turn clocks of turn-based tables (:mod:`dreizehn.server.turns`)."""
        self.turn_hooks: list[TurnHooks] = []
        """Told of the turns of turn-based tables (:mod:`dreizehn.server.turns`): the notices."""
        self.executor = executor
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.peers = Peers(store, self, settings.address or "", settings.presence_interval)
        self.writer = Writer(store, self.peers.process if store.postgres else None)
        """Stores the rooms' actions; with PostgreSQL only those of tables whose home no other process holds."""
        metrics.watch(self)

    async def room(self, table_id: str) -> Room | None:
        """The live room of a table, loaded from the database when needed (``None``: no such table); with
        PostgreSQL its home is claimed first, and :class:`Elsewhere` raised when another process serves it."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table_id)
            if room is None:
                taken = await self.peers.claim(table_id)
                room = await self._load(table_id)
                if taken and room is not None:  # its process went silent or stopped: its bots go on here, and
                    room.presence.start_away_timers()  # the grace period runs for the people connected nowhere
                    room.after_change()
        return room

    async def _load(self, table_id: str) -> Room | None:
        """A table's room, rebuilt from its stored log."""
        found = await asyncio.to_thread(self._read, table_id)
        if found is None:
            return None
        stored, said, kept, mutes = found
        room = self.rooms[table_id] = Room(self, stored, said, take_backs(kept))
        room.telling.set_mutes(mutes)
        self.peers.loaded(table_id)
        return room

    def _read(self, table_id: str) -> tuple[Stored, list[Line], list[TakenBack], dict[int, frozenset[int]]] | None:
        """What a room is built from, read in one go (call from a thread): the stored table, its chat, the moves
        taken back and who blocks whom at it; ``None`` for no such table."""
        stored = self.store.tables.load(table_id)
        if stored is None:
            return None
        return (stored, chat_lines(self.store, table_id, True), self.store.actions.taken_back(table_id),
                seat_mutes(self.store, table_id))

    # what the peers ask of the rooms (peers.Rooms)

    def held(self) -> dict[str, Room]:
        return dict(self.rooms)

    def get(self, table_id: str) -> Room | None:
        return self.rooms.get(table_id)

    def drop(self, table_id: str, room: Room) -> None:
        if self.rooms.get(table_id) is room:
            del self.rooms[table_id]

    # what a room asks of its hub (room.HubLike)

    def publish_presence(self, room: Room) -> None:
        self.peers.publish_presence(room)

    def publish_line(self, line: Line) -> None:
        self.peers.publish_line(line)

    def game_over(self, table_id: str) -> None:
        """A game of this process ended (its last action stored): each of :attr:`game_over_hooks` is told (the
        ratings sweep at once)."""
        for hook in self.game_over_hooks:
            hook(table_id)

    def doubt_home(self, room: Room) -> None:
        """An action of ``room`` was not stored for a conflict: with PostgreSQL another process may serve its table
        now (this one was silent past the lease), and then the room stops at once (:meth:`Peers.doubt`)."""
        self.peers.doubt(room.id, room)

    async def blocks_changed(self, *account_ids: str) -> None:
        """A block between these accounts was made or ended (rule U8): the rooms loaded here where one of them
        holds a seat read who blocks whom again."""
        tables = await asyncio.to_thread(tables_of, self.store, account_ids)
        for table_id in tables:
            room = self.rooms.get(table_id)
            if room is not None:
                await room.refresh_mutes()

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the rooms idle for ``DREIZEHN_ROOM_IDLE`` seconds (:meth:`Room.idle_since`) from memory; the next
        connection or request rebuilds each from its stored log, and (PostgreSQL) their homes are given up. The
        tables dropped."""
        at = time.monotonic() if now is None else now
        idle = [table_id for table_id, room in self.rooms.items() if room.idle_since(at, self.settings.room_idle)]
        for table_id in idle:
            del self.rooms[table_id]
            lock = self._loading.get(table_id)
            if lock is not None and not lock.locked():
                del self._loading[table_id]
        self.peers.release(idle)
        return idle

    async def keep_tidy(self) -> None:
        """Look for idle rooms every half of ``DREIZEHN_ROOM_IDLE`` (at most every minute)."""
        while True:
            await asyncio.sleep(min(60.0, self.settings.room_idle / 2))
            self.evict_idle()

    async def decide(self, request: BotRequest, game: Any) -> tuple[int, Any]:
        """A bot's decision in the worker pool, within the time allowed; a bot that fails or overruns is replaced
        by the heuristic for that move."""
        loop = asyncio.get_running_loop()
        seconds = self.settings.bot_timeout
        try:
            if isinstance(self.executor, Workers):  # past its deadline the worker is killed: nothing runs on
                future = asyncio.wrap_future(self.executor.submit_within(seconds, decide_in_worker, request))
            else:
                future = loop.run_in_executor(self.executor, decide_in_worker, request)
            action, rng = await asyncio.wait_for(future, seconds + DEADLINE_SLACK)
            if action in request.view.legal_actions:
                return action, rng
            log.warning("bot %s chose %s, which is not legal: the heuristic plays", request.spec, action)
        except Exception:
            log.warning("bot %s failed or took too long: the heuristic plays", request.spec, exc_info=True)
        fallback = make_bot("heuristic", game)
        return fallback.act(request.view, request.rng), request.rng

    async def resume_all(self) -> None:
        """After a start, let the bots of every table being played (or not begun, with a bot) go on, and the grace
        period run for its people (PostgreSQL: those of the tables whose home this process claims; first the homes
        an earlier process at this address held, taken back at once, :meth:`Peers.take_back_own`). A turn-based table
waiting for a person (its clock stored) is left to the turn clocks' sweep, which loads it when its clock runs out."""
        taken = await self.peers.take_back_own()
        playing = await asyncio.to_thread(self.store.tables.playing)
        waiting = await asyncio.to_thread(self.clocks.waiting)  # a person's clock runs there: the sweep's to fire
        await self.resume([*taken, *sorted(set(playing) - set(taken) - waiting)])

    async def resume(self, table_ids: list[str]) -> None:
        """Take up tables being played: each one's room (its home claimed), its bots and its grace periods; a table
        another process serves is left to it."""
        for table_id in table_ids:
            try:
                room = await self.room(table_id)
            except Elsewhere:
                continue
            if room is not None:
                room.presence.start_away_timers()
                room.after_change()

    async def close(self) -> None:
        metrics.unwatch(self)
        await self.peers.close()
        self.writer.close()
        self.store.close()
        for room in self.rooms.values():
            room.stop()
