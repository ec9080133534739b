"""Presence: who is connected to a table, in this process and in the others (PostgreSQL), the grace period of a
person who is away, and the stand-in bot that plays for them until they come back."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from dreizehn.server import messages
from dreizehn.server.rooms.base import Conn
from dreizehn.server.rooms.telling import Telling


class Presence(Telling):
    """Connections coming and going, here and in other server processes."""

    def connected_elsewhere(self, seat: int) -> bool:
        """Whether a connection of another server process holds ``seat``."""
        return any(counts.get(seat, 0) > 0 for _, counts, _ in self.elsewhere.values())

    def taken_over(self, seat: int, conns: list[Conn] | None = None) -> None:
        """Another window took ``seat`` over: this process's windows of it (``conns``, by default every open one)
        are told so and closed, after what they were sent."""
        for conn in [c for c in self.conns if c.seat == seat and not c.closed] if conns is None else conns:
            conn.send(messages.TAKEN_OVER)
            conn.close()

    def connected(self, seat: int) -> bool:
        """Whether a connection of this process or of another holds ``seat``."""
        return any(c.seat == seat and not c.closed for c in self.conns) or self.connected_elsewhere(seat)

    def presence_here(self) -> dict[str, Any]:
        """This process's part of the table's presence: connections per seat, and the seats its stand-in plays."""
        counts: dict[int, int] = {}
        for conn in self.conns:
            if conn.seat is not None and not conn.closed:
                counts[conn.seat] = counts.get(conn.seat, 0) + 1
        return {"conns": counts, "stand_in": sorted(self.stand_in)}

    def heard_presence(self, process: str, number: int, counts: dict[int, int], stand_in: set[int]) -> None:
        """Another process's presence at this table (its notice number ``number``; older notices are dropped). A
        person whom this process's stand-in plays and who is connected there has come back: the seat is theirs."""
        known = self.elsewhere.get(process)
        if known is not None and known[0] >= number:
            return
        self.elsewhere[process] = (number, counts, stand_in)
        back = [seat for seat in self.stand_in if self.connected_elsewhere(seat)]
        for seat in back:
            self._take_back(seat)
        if back:
            self.hub.publish_presence(self)
        self.broadcast_presence()

    def _take_back(self, seat: int) -> None:
        """A person is back: their seat is theirs again, if the stand-in played it."""
        if seat in self.stand_in:
            self.stand_in.discard(seat)
            self.table.replace(seat, None)
            self.stand_in_changes.append({"version": self.table.version, "seat": seat, "playing": False})

    def _stand_in_for(self, seat: int) -> None:
        """A person is away: this process's stand-in plays their seat."""
        self.stand_in.add(seat)
        self.table.replace(seat, self.hub.settings.stand_in)
        self.stand_in_changes.append({"version": self.table.version, "seat": seat, "playing": True})

    def start_away_timers(self) -> None:
        """After a start, or when another process is gone: every person who joined a table being played and is
        connected nowhere is away until a connection comes, so the grace period runs for each (a connection stops
        it)."""
        if self.table.is_over or self.stopped:
            return
        for s in self.seat_rows:
            if s.bot is None and s.joined and s.seat not in self.away and not self.connected(s.seat):
                self.away[s.seat] = asyncio.create_task(self._away(s.seat))

    def forget(self, process: str) -> None:
        """Another process is gone (killed, say): its connections count no more. The seats its stand-in played
        are this process's stand-in's at once (their grace period ran out there), and the grace period runs for
        the people who were connected there only; the bots it was playing go on here."""
        known = self.elsewhere.pop(process, None)
        if known is None:
            return
        _, _, played = known
        taken = [seat for seat in played
                 if not self.table.is_over and seat not in self.stand_in and not self.connected(seat)]
        for seat in taken:
            self._stand_in_for(seat)
        self.start_away_timers()
        if taken:
            self.hub.publish_presence(self)
        self.broadcast_presence()
        self.after_change()

    def connect(self, conn: Conn) -> None:
        """A connection joined the room; a person back within the grace period, or from the stand-in, has the
        seat again."""
        self.conns.add(conn)
        self.last_used = time.monotonic()
        self.retell_offer(conn)
        seat = conn.seat
        if seat is None:  # a spectator: the players see that someone watches
            self.broadcast_presence()
            return
        timer = self.away.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._take_back(seat)
        self.hub.publish_presence(self)
        self.broadcast_presence()

    def retell_offer(self, conn: Conn) -> None:
        """A page that comes to a finished table after a rematch was offered there (a reload) is told the offer and
        each answer so far, after its welcome, as the others were told them."""
        if self.offered_by is None:
            return
        conn.send(messages.offered(self.offered_by))
        for seat, accept in self.rematch_answers.items():
            conn.send(messages.accepted(seat) if accept else messages.declined(seat))

    def disconnect(self, conn: Conn) -> None:
        """A connection left; the grace period runs for a person with no other connection to their seat."""
        self.conns.discard(conn)
        conn.close()
        self.last_used = time.monotonic()
        if self.held_at is not None:
            self.check_ready()  # the person who left waits no more
        seat = conn.seat
        if seat is None and not self.stopped:  # a spectator left
            self.broadcast_presence()
        if seat is None or any(c.seat == seat for c in self.conns) or self.table.is_over or self.stopped:
            return
        if self.seat_rows[seat].bot is None and seat not in self.away:
            self.away[seat] = asyncio.create_task(self._away(seat))
        self.hub.publish_presence(self)
        self.broadcast_presence()

    async def _away(self, seat: int) -> None:
        """After the grace period, a bot plays for a person who has not come back."""
        await asyncio.sleep(self.hub.settings.grace_period)
        async with self.lock:
            self.away.pop(seat, None)
            if self.connected(seat) or self.table.is_over:
                return
            if any(seat in played for _, _, played in self.elsewhere.values()):
                return  # another process's stand-in plays the seat already
            self._stand_in_for(seat)
        self.hub.publish_presence(self)
        self.broadcast_presence()
        self.after_change()
