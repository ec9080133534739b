"""Presence: who is connected to a table, in this process and in the others (PostgreSQL), the grace period of a
person who is away, and the stand-in bot that plays for them until they come back.

It owns the connections here, what the other processes said of the table, the grace periods running and the
seats the stand-in plays. What it does to the rest of the room goes through :class:`PresenceHooks`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dreizehn.server import messages
from dreizehn.server.rooms.conn import Conn
from dreizehn.server.rooms.state import TableState


@dataclass(frozen=True)
class PresenceHooks:
    """What presence asks of the rest of the room: to tell the other processes (``publish``) and the connections
    here (``tell``) who is at the table, and to move the table on (``moved``: a stand-in may be to play now)."""

    publish: Callable[[], None]
    tell: Callable[[], None]
    moved: Callable[[], None]


class Presence:
    """Connections coming and going, here and in other server processes; grace periods and stand-ins. A
    ``grace_period`` of ``None``: nobody plays for a person away (a turn-based table, where their clock runs)."""

    def __init__(self, state: TableState, lock: asyncio.Lock, grace_period: float | None, stand_in_level: str,
                 hooks: PresenceHooks) -> None:
        self._state = state
        self._lock = lock
        self._grace_period = grace_period
        self._level = stand_in_level
        self._hooks = hooks
        self._conns: set[Conn] = set()
        self.away: dict[int, asyncio.Task[None]] = {}
        """The grace periods running, by seat."""
        self._stand_in: set[int] = set()
        self.elsewhere: dict[str, tuple[int, dict[int, int], set[int]]] = {}
        """What other server processes said of this table (PostgreSQL): per process, the number of its notice,
        its connections per seat, and the seats its stand-in plays."""
        self._changes: list[dict[str, Any]] = []
        """When a stand-in began to play for an away person and when they came back (``version``, ``seat``,
        ``playing``), in order, while the room is in memory: the welcome tells them."""
        self._stopped = False

    # what the messages ask (telling.Audience), and the rest of the room

    def conns(self) -> list[Conn]:
        return list(self._conns)

    def seats_connected(self) -> set[int]:
        connected = {c.seat for c in self._conns if c.seat is not None and not c.closed}
        for _, counts, _ in self.elsewhere.values():
            connected.update(seat for seat, n in counts.items() if n > 0)
        return connected

    def seats_stand_in(self) -> set[int]:
        stand_in = set(self._stand_in)
        for _, _, played in self.elsewhere.values():
            stand_in |= played
        return stand_in

    def watching(self) -> int:
        return sum(1 for conn in self._conns if conn.seat is None and not conn.closed)

    def changes(self) -> list[dict[str, Any]]:
        return self._changes

    def stand_in_here(self) -> frozenset[int]:
        """The seats this process's stand-in plays."""
        return frozenset(self._stand_in)

    def people_here(self) -> set[int]:
        """The persons' seats a connection of this process holds."""
        return {c.seat for c in self._conns if c.seat is not None and not c.closed and self._state.is_person(c.seat)}

    def alone(self) -> bool:
        """Whether no connection is here, and no other process said anything of the table to keep track of."""
        return not self._conns and not self.elsewhere

    def busy(self) -> bool:
        """Whether a grace period is running."""
        return any(not task.done() for task in self.away.values())

    def connected_elsewhere(self, seat: int) -> bool:
        """Whether a connection of another server process holds ``seat``."""
        return any(counts.get(seat, 0) > 0 for _, counts, _ in self.elsewhere.values())

    def connected(self, seat: int) -> bool:
        """Whether a connection of this process or of another holds ``seat``."""
        return any(c.seat == seat and not c.closed for c in self._conns) or self.connected_elsewhere(seat)

    def here(self) -> dict[str, Any]:
        """This process's part of the table's presence: connections per seat, and the seats its stand-in plays."""
        counts: dict[int, int] = {}
        for conn in self._conns:
            if conn.seat is not None and not conn.closed:
                counts[conn.seat] = counts.get(conn.seat, 0) + 1
        return {"conns": counts, "stand_in": sorted(self._stand_in)}

    # connections coming and going

    def connect(self, conn: Conn) -> None:
        """A connection joined the room; a person back within the grace period, or from the stand-in, has the
        seat again."""
        self._conns.add(conn)
        seat = conn.seat
        if seat is None:  # a spectator: the players see that someone watches
            self._hooks.tell()
            return
        timer = self.away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._take_back(seat)
        self._hooks.publish()
        self._hooks.tell()

    def disconnect(self, conn: Conn) -> None:
        """A connection left; the grace period runs for a person with no other connection to their seat."""
        self._conns.discard(conn)
        conn.close()
        seat = conn.seat
        if seat is None and not self._stopped:  # a spectator left
            self._hooks.tell()
        if seat is None or any(c.seat == seat for c in self._conns) or self._state.table.is_over or self._stopped:
            return
        if self._state.is_person(seat) and seat not in self.away and self._grace_period is not None:
            self.away[seat] = asyncio.create_task(self._away(seat))
        self._hooks.publish()
        self._hooks.tell()

    def taken_over(self, seat: int, conns: list[Conn] | None = None) -> None:
        """Another window took ``seat`` over: this process's windows of it (``conns``, by default every open one)
        are told so and closed, after what they were sent."""
        for conn in [c for c in self._conns if c.seat == seat and not c.closed] if conns is None else conns:
            conn.send(messages.TAKEN_OVER)
            conn.close()

    def seat_lost(self, seat: int) -> None:
        """``seat`` is another person's now (taken from the list of tables with a new invitation): the windows the
        old invitation opened are closed (they never see the new player's hand)."""
        for conn in [c for c in self._conns if c.seat == seat]:
            conn.drop(slow=False)

    # the other processes

    def heard(self, process: str, number: int, counts: dict[int, int], stand_in: set[int]) -> None:
        """Another process's presence at this table (its notice number ``number``; older notices are dropped). A
        person whom this process's stand-in plays and who is connected there has come back: the seat is theirs."""
        known = self.elsewhere.get(process)
        if known is not None and known[0] >= number:
            return
        self.elsewhere[process] = (number, counts, stand_in)
        back = [seat for seat in self._stand_in if self.connected_elsewhere(seat)]
        for seat in back:
            self._take_back(seat)
        if back:
            self._hooks.publish()
        self._hooks.tell()

    def forget(self, process: str) -> None:
        """Another process is gone (killed, say): its connections count no more. The seats its stand-in played
        are this process's stand-in's at once (their grace period ran out there), and the grace period runs for
        the people who were connected there only; the bots it was playing go on here."""
        known = self.elsewhere.pop(process, None)
        if known is None:
            return
        _, _, played = known
        taken = [seat for seat in played
                 if not self._state.table.is_over and seat not in self._stand_in and not self.connected(seat)]
        for seat in taken:
            self._stand_in_for(seat)
        self.start_away_timers()
        if taken:
            self._hooks.publish()
        self._hooks.tell()
        self._hooks.moved()

    # grace periods and the stand-in

    def start_away_timers(self) -> None:
        """After a start, or when another process is gone: every person who joined a table being played and is
        connected nowhere is away until a connection comes, so the grace period runs for each (a connection stops
        it)."""
        if self._state.table.is_over or self._stopped or self._grace_period is None:
            return
        for s in self._state.seats:
            if s.bot is None and s.joined and s.seat not in self.away and not self.connected(s.seat):
                self.away[s.seat] = asyncio.create_task(self._away(s.seat))

    def _take_back(self, seat: int) -> None:
        """A person is back: their seat is theirs again, if the stand-in played it."""
        if seat in self._stand_in:
            self._stand_in.discard(seat)
            self._state.table.replace(seat, None)
            self._changes.append({"version": self._state.table.version, "seat": seat, "playing": False})

    def _stand_in_for(self, seat: int) -> None:
        """A person is away: this process's stand-in plays their seat."""
        self._stand_in.add(seat)
        self._state.table.replace(seat, self._level)
        self._changes.append({"version": self._state.table.version, "seat": seat, "playing": True})

    async def _away(self, seat: int) -> None:
        """After the grace period, a bot plays for a person who has not come back."""
        await asyncio.sleep(self._grace_period or 0.0)
        async with self._lock:
            self.away.pop(seat, None)
            if self.connected(seat) or self._state.table.is_over:
                return
            if any(seat in played for _, _, played in self.elsewhere.values()):
                return  # another process's stand-in plays the seat already
            self._stand_in_for(seat)
        self._hooks.publish()
        self._hooks.tell()
        self._hooks.moved()

    def stop(self) -> None:
        """Cancel the grace periods and close the connections (the room stops)."""
        self._stopped = True
        for task in self.away.values():
            task.cancel()
        for conn in list(self._conns):
            conn.close()
