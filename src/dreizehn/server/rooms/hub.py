"""The hub: the rooms of this process, the storage, the bot pool, and what the server processes of one PostgreSQL
database tell each other (actions stored, presence, signs of life). Rooms idle for a while are dropped from memory
and rebuilt from the stored log when needed.

With PostgreSQL a process holds a room only for the tables whose home it holds (:mod:`dreizehn.server.homes`): it
claims the home before it loads the room, renews its homes with each sign of life, gives a room up when its home
was lost, and takes up the tables whose home's process went silent. :meth:`Hub.room` raises
:class:`~dreizehn.server.homes.Elsewhere` for a table another process serves."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from concurrent.futures import Executor
from typing import Any

import orjson

from dreizehn.bots.base import make_bot
from dreizehn.server import metrics
from dreizehn.server.chat import CHAT_CHANNEL, Line
from dreizehn.server.chat import lines as chat_lines
from dreizehn.server.homes import Elsewhere, Homes
from dreizehn.server.messages import dumps
from dreizehn.server.rooms.room import Room
from dreizehn.server.settings import Settings
from dreizehn.server.storage import PRESENCE_CHANNEL, Store, Writer
from dreizehn.server.undo import take_backs
from dreizehn.server.workers import Workers
from dreizehn.table import BotRequest, decide_in_worker

log = logging.getLogger("dreizehn.server")

DEADLINE_SLACK = 1.0
"""Seconds the room waits for a bot's decision beyond ``DREIZEHN_BOT_TIMEOUT``, in which the workers kill a worker
that overran it and answer so (threads, ``DREIZEHN_BOT_WORKERS=0``, cannot be stopped: they are waited for no more)."""


class Hub:
    """The rooms of this process, the storage, the bot pool."""

    def __init__(self, settings: Settings, store: Store, executor: Executor | None) -> None:
        self.settings = settings
        self.store = store
        self.writer = Writer(store)
        self.executor = executor
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.process = secrets.token_hex(6)
        """This process among the server processes of one PostgreSQL database (its presence notices say it)."""
        self._presence_number = 0
        self.heard_at: dict[str, float] = {}
        """When each other process was last heard of (``time.monotonic``; PostgreSQL)."""
        self.homes = Homes(store.engine, self.process, settings.address or "", 3 * settings.presence_interval) \
            if store.postgres else None
        """The homes of this process's tables (PostgreSQL; SQLite has one process and no homes)."""
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
                taken = await self._claim(table_id)
                room = await self._load(table_id)
                if taken and room is not None:  # its process went silent or stopped: its bots go on here, and
                    room.presence.start_away_timers()  # the grace period runs for the people connected nowhere
                    room.after_change()
        return room

    async def _claim(self, table_id: str) -> bool:
        """PostgreSQL: make this process the table's home, or raise :class:`Elsewhere` (another process holds it);
        whether it was taken over from a process gone silent or stopped. A home released between the claim's two
        statements is claimed again; no home at all: no such table."""
        if self.homes is None:
            return False
        for _ in range(2):
            home = await asyncio.to_thread(self.homes.claim, table_id)
            if isinstance(home, bool):
                return home
            if home.process:
                raise Elsewhere(home)
        return False

    async def _load(self, table_id: str) -> Room | None:
        """A table's room, rebuilt from its stored log."""
        stored = await asyncio.to_thread(self.store.load, table_id)
        if stored is None:
            return None
        said = await asyncio.to_thread(chat_lines, self.store, table_id, True)
        kept = await asyncio.to_thread(self.store.taken_back, table_id)
        room = self.rooms[table_id] = Room(self, stored, said, take_backs(kept))
        if self.store.postgres:  # an action another process stored while this one loaded it: its NOTIFY
            self.notified(table_id)  # found no room, so catch up once now
            self._send_presence({"table": table_id, "ask": True})  # and who is connected to it elsewhere
        return room

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Drop the rooms idle for ``DREIZEHN_ROOM_IDLE`` seconds (:meth:`Room.idle_since`) from memory; the next
        connection or request rebuilds each from its stored log. The tables dropped."""
        at = time.monotonic() if now is None else now
        idle = [table_id for table_id, room in self.rooms.items() if room.idle_since(at, self.settings.room_idle)]
        for table_id in idle:
            del self.rooms[table_id]
            lock = self._loading.get(table_id)
            if lock is not None and not lock.locked():
                del self._loading[table_id]
        if idle and self.homes is not None:  # their homes are given up: whichever process is asked next claims them
            self._spawn(asyncio.to_thread(self.homes.release, idle), "releasing the homes of idle rooms")
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
        an earlier process at this address held, taken back at once, :meth:`Homes.take_back_own`)."""
        if self.homes is not None:
            taken, earlier = await asyncio.to_thread(self.homes.take_back_own)
            for process in earlier:  # gone: the other processes stop counting its connections now
                self._send_presence({"gone": True, "left": process})
            if taken:
                log.info("took back the homes of %d tables held by an earlier process at %s", len(taken),
                         self.homes.address)
        else:
            taken = []
        playing = await asyncio.to_thread(self.store.playing)
        await self.resume([*taken, *sorted(set(playing) - set(taken))])

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

    async def keep_homes(self) -> None:
        """PostgreSQL, with each sign of life: renew this process's homes; give up (stop, and close the
        connections of) a room whose home another process claimed meanwhile (this one was silent past the lease),
        so that its clients come back through that process; and take up the tables whose home's process went
        silent, or stopped."""
        if self.homes is None:
            return
        held = dict(self.rooms)
        try:
            kept = await asyncio.to_thread(self.homes.renew)
            expired = await asyncio.to_thread(self.homes.expired)
        except Exception:
            log.warning("the homes of this process were not renewed", exc_info=True)
            return
        for table_id, room in held.items():
            if table_id not in kept and self.rooms.get(table_id) is room:
                await self._home_lost(table_id, room)
        if expired:
            await self.resume(expired)

    def notified(self, table_id: str, seq: int | None = None) -> None:
        """A process (another, or this one: PostgreSQL tells every listener) stored action ``seq`` of ``table_id``;
        a room that has it already (its own action, or one caught up with) has nothing to fetch."""
        room = self.rooms.get(table_id)
        if room is not None and (seq is None or seq >= room.table.version):
            task = asyncio.create_task(room.catch_up())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def heard_again(self) -> None:
        """PostgreSQL's ``LISTEN`` connection is back after it broke: the notices of the actions stored meanwhile
        were missed, so every room catches up once, and asks the other processes who is connected to it."""
        for table_id in list(self.rooms):
            self.notified(table_id)
            self._send_presence({"table": table_id, "ask": True})

    async def _home_lost(self, table_id: str, room: Room) -> None:
        """A room whose home was not renewed: claimed again (its release, when an earlier room of the table was
        dropped, may have come after this room's claim), or, where another process holds it now, the room stops
        and its websockets are closed: they come back through the table's new home."""
        try:
            await self._claim(table_id)
            return
        except Elsewhere:
            pass
        except Exception:
            log.warning("the home of table %s was not claimed again", table_id, exc_info=True)
            return
        log.warning("table %s is served by another process now: its room here stops", table_id)
        if self.rooms.get(table_id) is room:
            del self.rooms[table_id]
        room.stop()

    def _spawn(self, work: Any, what: str) -> None:
        """Run ``work`` (a coroutine) as a task of the hub; its failure is said in the log as ``what``."""
        task: asyncio.Task[Any] = asyncio.create_task(work)
        self._tasks.add(task)

        def done(finished: asyncio.Task[Any]) -> None:
            self._tasks.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.warning("%s failed", what, exc_info=finished.exception())

        task.add_done_callback(done)

    def publish_presence(self, room: Room) -> None:
        """PostgreSQL: tell the other processes this one's presence at ``room``'s table."""
        if self.store.postgres:
            self._send_presence({"table": room.id, **room.presence.here()})

    def publish_line(self, line: Line) -> None:
        """PostgreSQL: tell the other processes of a line of chat stored here (they tell their connections)."""
        if self.store.postgres:
            payload = dumps(line.to_json() | {"table": line.table_id})
            task = asyncio.create_task(asyncio.to_thread(self.store.notify, CHAT_CHANNEL, payload))
            self._tasks.add(task)
            task.add_done_callback(self._notice_sent)

    def line_heard(self, payload: str) -> None:
        """A line of chat another process stored (PostgreSQL's notice): told here if its table's room is here."""
        try:
            data = orjson.loads(payload)
            line = Line.from_json(str(data["table"]), data)
        except (ValueError, KeyError, TypeError):
            log.warning("a chat notice not understood: %r", payload[:200])
            return
        room = self.rooms.get(line.table_id)
        if room is not None:
            room.telling.tell_line(line)

    def seat_taken(self, table_id: str, seat: int, name: str, drop: bool) -> None:
        """A person took ``seat`` of ``table_id`` (:meth:`Room.seat_taken`): told to the table's room here, or
        (PostgreSQL) to the process that serves the table, by a presence notice."""
        room = self.rooms.get(table_id)
        if room is not None:
            room.seat_taken(seat, name, drop)
        elif self.store.postgres:
            self._send_presence({"table": table_id, "seat_taken": seat, "name": name, "drop": drop})

    def publish_rematch(self, table_id: str, rematch: str, by: int) -> None:
        """PostgreSQL: a rematch of ``table_id`` asked here by ``by``, whose room is not here: the process that
        serves the table offers it to the people connected there (:meth:`Rematches.made_elsewhere`)."""
        if self.store.postgres:
            self._send_presence({"table": table_id, "rematch": rematch, "by": by})

    def publish_take_over(self, room: Room, seat: int) -> None:
        """PostgreSQL: tell the other processes that a window here took ``seat`` of ``room``'s table over: theirs
        are told ``taken_over`` and closed."""
        if self.store.postgres:
            self._send_presence({"table": room.id, "take_over": seat})

    def _send_presence(self, message: dict[str, Any]) -> asyncio.Task[None]:
        """A presence notice to the other processes, numbered (they keep only the newest of each process); the task
        that sends it."""
        self._presence_number += 1
        payload = dumps({**message, "process": self.process, "number": self._presence_number})
        task = asyncio.create_task(asyncio.to_thread(self.store.notify, PRESENCE_CHANNEL, payload))
        self._tasks.add(task)
        task.add_done_callback(self._notice_sent)
        return task

    def _notice_sent(self, task: asyncio.Task[None]) -> None:
        """A notice to the other processes (presence, a line of chat) was sent, or failed: said in the log."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a notice to the other server processes was not sent", exc_info=task.exception())

    async def keep_presence(self) -> None:
        """PostgreSQL: give the other processes a sign of life every presence interval, renew this process's homes
        and take up those left (:meth:`keep_homes`), and forget a process not heard of for three
        (:meth:`Presence.forget`)."""
        every = self.settings.presence_interval
        while True:
            self._send_presence({"alive": True})
            await asyncio.sleep(every)
            await self.keep_homes()
            silent = time.monotonic() - 3 * every
            for process in [p for p, at in self.heard_at.items() if at < silent]:
                self.forget(process)

    def forget(self, process: str) -> None:
        """Another process is gone: no room counts its connections any more."""
        self.heard_at.pop(process, None)
        for room in list(self.rooms.values()):
            room.presence.forget(process)

    def presence_heard(self, payload: str) -> None:
        """A presence notice (PostgreSQL): another process's presence at a table, its question for ours, a seat
        taken or a rematch asked through it (:meth:`seat_taken`, :meth:`publish_rematch`), its sign of life, or its
        goodbye."""
        try:
            message = orjson.loads(payload)
            process = str(message["process"])
            if process == self.process:
                return
            if message.get("gone"):  # its own goodbye, or an earlier process at its address that it replaced
                self.forget(str(message.get("left", process)))
                return
            self.heard_at[process] = time.monotonic()
            if message.get("alive"):
                return
            table_id = str(message["table"])
        except (ValueError, KeyError, TypeError):
            log.warning("a presence notice not understood: %r", payload[:200])
            return
        room = self.rooms.get(table_id)
        if room is None:
            return
        if message.get("ask"):
            self.publish_presence(room)
            return
        if "take_over" in message:
            room.presence.taken_over(int(message["take_over"]))
            return
        if "rematch" in message:
            self._spawn(room.rematches.made_elsewhere(str(message["rematch"]), int(message["by"])),
                        "offering a rematch asked through another process")
            return
        if "seat_taken" in message:
            room.seat_taken(int(message["seat_taken"]), str(message["name"]), bool(message.get("drop")))
            return
        counts = {int(seat): int(n) for seat, n in message.get("conns", {}).items()}
        room.presence.heard(process, int(message["number"]), counts, {int(s) for s in message.get("stand_in", [])})

    async def close(self) -> None:
        metrics.unwatch(self)
        if self.store.postgres:  # the others forget this process's connections at once
            with contextlib.suppress(Exception):
                await self._send_presence({"gone": True})
        if self.homes is not None:  # and take its tables up at their next sign of life
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.homes.hand_over)
        self.writer.close()
        self.store.close()
        for room in self.rooms.values():
            room.stop()
