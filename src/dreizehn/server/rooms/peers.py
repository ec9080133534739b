"""The other server processes of one PostgreSQL database: the homes of this process's tables
(:mod:`dreizehn.server.homes`), and the notices the processes send each other (actions stored, presence, a seat
taken, a rematch asked, chat, signs of life, goodbyes). SQLite has one process: then there are no homes, and no
notice is sent.

What it needs of this process's rooms it asks through :class:`Rooms` (the :class:`~dreizehn.server.rooms.hub.Hub`
that keeps them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable
from typing import Any, Protocol

import orjson

from dreizehn.server.chat import CHAT_CHANNEL, Line
from dreizehn.server.homes import Elsewhere, Homes
from dreizehn.server.messages import json_text
from dreizehn.server.rooms.room import Room
from dreizehn.server.storage import PRESENCE_CHANNEL, Store

log = logging.getLogger("dreizehn.server")


class Rooms(Protocol):
    """What the cross-process part asks of this process's rooms (:class:`~dreizehn.server.rooms.hub.Hub`)."""

    def held(self) -> dict[str, Room]:
        """The rooms in memory, by table (a copy)."""

    def get(self, table_id: str) -> Room | None:
        """The room of ``table_id``, if it is in memory."""

    async def resume(self, table_ids: list[str]) -> None:
        """Take up tables being played (their rooms loaded, their homes claimed)."""

    def drop(self, table_id: str, room: Room) -> None:
        """Drop ``room`` from memory, if it is still the table's."""


class Peers:
    """This process among the server processes of one database: its homes, and its notices to and from the
    others. ``rooms`` are this process's rooms; ``presence_interval`` the seconds between signs of life (the lease
    of a home is three)."""

    def __init__(self, store: Store, rooms: Rooms, address: str, presence_interval: float) -> None:
        self._store = store
        self._rooms = rooms
        self._every = presence_interval
        self.process = secrets.token_hex(6)
        """This process among the server processes of one PostgreSQL database (its presence notices say it)."""
        self._number = 0
        self.heard_at: dict[str, float] = {}
        """When each other process was last heard of (``time.monotonic``; PostgreSQL)."""
        self.homes = Homes(store.engine, self.process, address, 3 * presence_interval) if store.postgres else None
        """The homes of this process's tables (PostgreSQL; SQLite has one process and no homes)."""
        self.tasks: set[asyncio.Task[Any]] = set()
        """The notices being sent, and the other work started here."""

    # homes

    async def claim(self, table_id: str) -> bool:
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

    def loaded(self, table_id: str) -> None:
        """PostgreSQL: a table's room was loaded here. An action another process stored while this one loaded it
        sent a notice that found no room, so the room catches up once now; and the others are asked who is
        connected to it."""
        if self._store.postgres:
            self.notified(table_id)
            self._send({"table": table_id, "ask": True})

    def release(self, table_ids: list[str]) -> None:
        """Give up the homes of rooms dropped from memory: whichever process is asked next claims them."""
        if table_ids and self.homes is not None:
            self.spawn(asyncio.to_thread(self.homes.release, table_ids), "releasing the homes of idle rooms")

    async def take_back_own(self) -> list[str]:
        """After a start: the homes an earlier process at this address held, taken back at once
        (:meth:`Homes.take_back_own`); the others stop counting that process's connections now."""
        if self.homes is None:
            return []
        taken, earlier = await asyncio.to_thread(self.homes.take_back_own)
        for process in earlier:  # gone: the other processes stop counting its connections now
            self._send({"gone": True, "left": process})
        if taken:
            log.info("took back the homes of %d tables held by an earlier process at %s", len(taken),
                     self.homes.address)
        return taken

    async def keep_homes(self) -> None:
        """PostgreSQL, with each sign of life: renew this process's homes; give up (stop, and close the
        connections of) a room whose home another process claimed meanwhile (this one was silent past the lease),
        so that its clients come back through that process; and take up the tables whose home's process went
        silent, or stopped."""
        if self.homes is None:
            return
        held = self._rooms.held()
        try:
            kept = await asyncio.to_thread(self.homes.renew)
            expired = await asyncio.to_thread(self.homes.expired)
        except Exception:
            log.warning("the homes of this process were not renewed", exc_info=True)
            return
        for table_id, room in held.items():
            if table_id not in kept and self._rooms.get(table_id) is room:
                await self._home_lost(table_id, room)
        if expired:
            await self._rooms.resume(expired)

    def doubt(self, table_id: str, room: Room) -> None:
        """PostgreSQL: an action of ``room`` was not stored for a conflict, which another process's claim of the home
        also gives (the writer's fence): the home is checked now, not at the next renewal (:meth:`_home_lost`)."""
        if self.homes is not None:
            self.spawn(self._home_lost(table_id, room), f"checking the home of table {table_id}")

    async def _home_lost(self, table_id: str, room: Room) -> None:
        """A room whose home was not renewed: claimed again (its release, when an earlier room of the table was
        dropped, may have come after this room's claim), or, where another process holds it now, the room stops
        and its websockets are closed: they come back through the table's new home."""
        try:
            await self.claim(table_id)
            return
        except Elsewhere:
            pass
        except Exception:
            log.warning("the home of table %s was not claimed again", table_id, exc_info=True)
            return
        log.warning("table %s is served by another process now: its room here stops", table_id)
        self._rooms.drop(table_id, room)
        room.stop()

    # notices to the others

    def publish_presence(self, room: Room) -> None:
        """PostgreSQL: tell the other processes this one's presence at ``room``'s table."""
        if self._store.postgres:
            self._send({"table": room.id, **room.presence.here()})

    def publish_line(self, line: Line) -> None:
        """PostgreSQL: tell the other processes of a line of chat stored here (they tell their connections)."""
        if self._store.postgres:
            payload = json_text(line.to_json() | {"table": line.table_id})
            self._notice(asyncio.to_thread(self._store.notify, CHAT_CHANNEL, payload))

    def seat_taken(self, table_id: str, seat: int, name: str, drop: bool) -> None:
        """A person took ``seat`` of ``table_id`` (:meth:`Room.seat_taken`): told to the table's room here, or
        (PostgreSQL) to the process that serves the table, by a presence notice."""
        room = self._rooms.get(table_id)
        if room is not None:
            room.seat_taken(seat, name, drop)
        elif self._store.postgres:
            self._send({"table": table_id, "seat_taken": seat, "name": name, "drop": drop})

    def publish_rematch(self, table_id: str, rematch: str, by: int) -> None:
        """PostgreSQL: a rematch of ``table_id`` asked here by ``by``, whose room is not here: the process that
        serves the table offers it to the people connected there (:meth:`Rematches.made_elsewhere`)."""
        if self._store.postgres:
            self._send({"table": table_id, "rematch": rematch, "by": by})

    def publish_take_over(self, room: Room, seat: int) -> None:
        """PostgreSQL: tell the other processes that a window here took ``seat`` of ``room``'s table over: theirs
        are told ``taken_over`` and closed."""
        if self._store.postgres:
            self._send({"table": room.id, "take_over": seat})

    def _send(self, message: dict[str, Any]) -> asyncio.Task[None]:
        """A presence notice to the other processes, numbered (they keep only the newest of each process); the task
        that sends it."""
        self._number += 1
        payload = json_text({**message, "process": self.process, "number": self._number})
        return self._notice(asyncio.to_thread(self._store.notify, PRESENCE_CHANNEL, payload))

    def _notice(self, sending: Awaitable[None]) -> asyncio.Task[None]:
        """Send a notice (presence, a line of chat) as a task; a failure is said in the log."""
        task: asyncio.Task[None] = asyncio.ensure_future(sending)
        self.tasks.add(task)
        task.add_done_callback(self._notice_sent)
        return task

    def _notice_sent(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a notice to the other server processes was not sent", exc_info=task.exception())

    def spawn(self, work: Awaitable[Any], what: str) -> None:
        """Run ``work`` (a coroutine) as a task; its failure is said in the log as ``what``."""
        task: asyncio.Task[Any] = asyncio.ensure_future(work)
        self.tasks.add(task)

        def done(finished: asyncio.Task[Any]) -> None:
            self.tasks.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                log.warning("%s failed", what, exc_info=finished.exception())

        task.add_done_callback(done)

    async def keep_presence(self) -> None:
        """PostgreSQL: give the other processes a sign of life every presence interval, renew this process's homes
        and take up those left (:meth:`keep_homes`), and forget a process not heard of for three
        (:meth:`Presence.forget`)."""
        while True:
            self._send({"alive": True})
            await asyncio.sleep(self._every)
            await self.keep_homes()
            silent = time.monotonic() - 3 * self._every
            for process in [p for p, at in self.heard_at.items() if at < silent]:
                self.forget(process)

    async def close(self) -> None:
        """The process stops: the others forget its connections at once, and take its tables up at their next
        sign of life."""
        if self._store.postgres:
            with contextlib.suppress(Exception):
                await self._send({"gone": True})
        if self.homes is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.homes.hand_over)

    # notices from the others

    def notified(self, table_id: str, seq: int | None = None) -> None:
        """A process (another, or this one: PostgreSQL tells every listener) stored action ``seq`` of ``table_id``;
        a room that has it already (its own action, or one caught up with) has nothing to fetch."""
        room = self._rooms.get(table_id)
        if room is not None and (seq is None or seq >= room.table.version):
            task = asyncio.create_task(room.catch_up())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def heard_again(self) -> None:
        """PostgreSQL's ``LISTEN`` connection is back after it broke: the notices of the actions stored meanwhile
        were missed, so every room catches up once, and asks the other processes who is connected to it."""
        for table_id in list(self._rooms.held()):
            self.notified(table_id)
            self._send({"table": table_id, "ask": True})

    def line_heard(self, payload: str) -> None:
        """A line of chat another process stored (PostgreSQL's notice): told here if its table's room is here."""
        try:
            data = orjson.loads(payload)
            line = Line.from_json(str(data["table"]), data)
        except (ValueError, KeyError, TypeError):
            log.warning("a chat notice not understood: %r", payload[:200])
            return
        room = self._rooms.get(line.table_id)
        if room is not None:
            room.hear_line(line)

    def forget(self, process: str) -> None:
        """Another process is gone: no room counts its connections any more."""
        self.heard_at.pop(process, None)
        for room in list(self._rooms.held().values()):
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
        room = self._rooms.get(table_id)
        if room is not None:
            self._tell_room(room, process, message)

    def _tell_room(self, room: Room, process: str, message: dict[str, Any]) -> None:
        """A presence notice of another process about a table whose room is here."""
        if message.get("ask"):
            self.publish_presence(room)
            return
        if "take_over" in message:
            room.presence.taken_over(int(message["take_over"]))
            return
        if "rematch" in message:
            self.spawn(room.rematches.made_elsewhere(str(message["rematch"]), int(message["by"])),
                       "offering a rematch asked through another process")
            return
        if "seat_taken" in message:
            room.seat_taken(int(message["seat_taken"]), str(message["name"]), bool(message.get("drop")))
            return
        counts = {int(seat): int(n) for seat, n in message.get("conns", {}).items()}
        room.presence.heard(process, int(message["number"]), counts, {int(s) for s in message.get("stand_in", [])})

