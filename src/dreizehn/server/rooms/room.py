"""The room: a table being played in this process, every part of it (:mod:`.base` to :mod:`.bots`), and the
extras of a table: chat, hints, joining a seat, rematches."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace

from dreizehn.core.errors import DreizehnError
from dreizehn.play.table import StaleVersionError
from dreizehn.server import messages, metrics
from dreizehn.server.chat import store_line
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms.base import Conn
from dreizehn.server.rooms.bots import Bots
from dreizehn.server.storage import Stored, hash_token, new_token
from dreizehn.server.takebacks import TakeBack, undo_point

log = logging.getLogger("dreizehn.server")


class Room(Bots):
    """A table being played in this process: acting and storing, presence, bots and clocks (its parts), and hints,
    names and rematches."""

    def idle_since(self, now: float, idle: float) -> bool:
        """Whether the room may be dropped from memory (and rebuilt from the stored log when needed): no
        connection, no task running (a bot, the turn clock, a grace period), no bot to move nor stand-in playing in
        a game not over, no other process's presence to keep track of, and not used for ``idle`` seconds before
        ``now`` (``time.monotonic``). A table whose people all left is played to its end by the stand-ins first."""
        over = self.table.is_over
        return (not self.conns and not self.busy() and (over or not (self.stand_in or self.table.bot_to_move))
                and not self.elsewhere and now - self.last_used >= idle)

    def rename(self, seat: int, name: str) -> None:
        """A person joined a seat under ``name``."""
        seats = list(self.seat_rows)
        seats[seat] = replace(seats[seat], name=name, joined=True)
        self.set_seats(seats)
        self.last_used = time.monotonic()
        self.broadcast_presence()

    def seat_taken(self, seat: int, name: str, drop: bool) -> None:
        """A person took ``seat`` under ``name``: by its invitation, or (``drop``) from the list of tables, with a
        new invitation: then the windows the old one opened are closed (they never see the new player's hand)."""
        if drop:
            for conn in [c for c in self.conns if c.seat == seat]:
                conn.drop(slow=False)
        self.rename(seat, name)

    def offer_rematch(self, table_id: str, tokens: list[str | None], by: int | None = None) -> None:
        """Tell each connected person of a rematch, with their own new invitation and the seat that asked; the offer
        is over (a page that comes later asks for its invitation, ``POST .../rematch``)."""
        self.rematch_asked = True
        self.offered_by, self.rematch_answers = None, {}
        for conn in list(self.conns):
            conn.send(messages.rematch(table_id, tokens[conn.seat] if conn.seat is not None else None, by))

    async def offer_rematch_asked_elsewhere(self, table_id: str, by: int) -> None:
        """A rematch of this room's table (``table_id``) was asked by ``by`` through another process (PostgreSQL):
        each other person connected here is given an invitation to it (issued once, :meth:`Store.issue_token`: one
        asking later is refused) and told with it; the spectators and the asker's windows are told without one
        (the asker's answer holds theirs)."""
        seats = sorted({c.seat for c in self.conns if c.seat is not None and c.seat != by and not c.closed})
        tokens: list[str | None] = [None] * len(self.seat_rows)
        for seat in seats:
            token = new_token()
            if await asyncio.to_thread(self.hub.store.issue_token, table_id, seat, hash_token(token)):
                tokens[seat] = token
        self.offer_rematch(table_id, tokens, by)

    def offer(self, conn: Conn) -> None:
        """A person of the finished table asks the others for a rematch: everyone at the table is told, once (a
        second offer, or one before the game's end or from a spectator, changes nothing)."""
        if conn.seat is None or not self.table.is_over or self.offered_by is not None:
            return
        self.offered_by = conn.seat
        self.rematch_asked = True
        message = messages.offered(conn.seat)
        for other in list(self.conns):
            other.send(message)

    def answer(self, conn: Conn, accept: bool) -> None:
        """A person answers the rematch asked for (``accept``: they want it): everyone at the table is told (not the
        asker's own answer, nor a spectator's, nor one with no rematch asked)."""
        if conn.seat is None or not self.rematch_asked or (accept and conn.seat == self.offered_by):
            return
        if self.offered_by is not None:
            self.rematch_answers[conn.seat] = accept
        message = messages.accepted(conn.seat) if accept else messages.declined(conn.seat)
        for other in list(self.conns):
            other.send(message)

    def decline(self, conn: Conn) -> None:
        """A person does not want the rematch asked for: everyone at the table is told."""
        self.answer(conn, accept=False)

    @staticmethod
    def well_said(text: str | None, phrase: str | None) -> bool:
        """Whether a line of chat has text (not blanks alone) or a phrase, not both."""
        return (text is None) != (phrase is None) and (text is None or bool(text.strip()))

    async def say(self, conn: Conn, text: str | None, phrase: str | None) -> None:
        """A line of chat from ``conn``'s person (or spectator), :meth:`well_said` already: stored, then told to
        whoever may read it, here and (PostgreSQL) in the other processes; refused (``server.not_stored``) with
        nothing said when the database fails."""
        name = "" if conn.seat is None else self.seat_rows[conn.seat].name
        try:
            line = await asyncio.to_thread(store_line, self.hub.store, self.id, conn.seat, name,
                                           None if text is None else text.strip(), phrase, self.table.version)
        except Exception:
            log.warning("a line of chat at table %s was not stored", self.id, exc_info=True)
            conn.send(self.refusal(conn, ServerError("server.not_stored", rule="S7"), with_view=False))
            return
        self.last_used = time.monotonic()
        self.tell_line(line)
        self.hub.publish_line(line)

    async def undo(self, conn: Conn, version: int) -> None:
        """``conn``'s person takes back their latest move and the bot moves after it (:mod:`dreizehn.server.takebacks`):
        stored first (the actions move to ``taken_back``), then the table is rebuilt from the log that stands and
        everyone is told (a ``resync``, then ``taken_back`` in their language); refused with the current view when
        it may not be, or when the database fails (``server.not_stored``: nothing is taken back)."""
        async with self.lock:
            table = self.table
            try:
                if version != table.version:
                    raise StaleVersionError("table.stale", rule="W6", given=version, current=table.version)
                seq = undo_point(self.told, self.seat_rows, conn.seat, table.current_player)
            except DreizehnError as err:
                conn.send(self.refusal(conn, err))
                return
            seat, count = int(conn.seat or 0), table.version - seq
            try:
                done = await asyncio.to_thread(self.hub.store.take_back, self.id, seq, table.version, seat)
            except Exception:  # the database failed: nothing is taken back
                log.warning("taking back moves at table %s failed", self.id, exc_info=True)
                metrics.STORE_FAILURES.inc()
                conn.send(self.refusal(conn, ServerError("server.not_stored", rule="S7")))
                return
            if not done:  # another process stored an action meanwhile: the table as stored
                await self._reload()
                return
            game = table.game
            kept = tuple((s, game.action_to_text(a), "") for s, a in table.state.log[:seq])
            self.held_at = None
            self._rebuild(Stored(self.row, tuple(self.seat_rows), kept))
            self._told()
            back = TakeBack(seq, seat, count)
            self.take_backs.append(back)
            self.tell_taken_back(back)
        self.after_change()

    async def hint(self, conn: Conn) -> None:
        """The hint of the position for a person to move, computed off the event loop."""
        table = self.table
        if conn.seat is None or conn.seat != table.current_player or table.is_over:
            conn.send(self.refusal(conn, ServerError("server.hint_not_your_turn", rule="S5"), with_view=False))
            return
        view, version = table.view(conn.seat), table.version
        loop = asyncio.get_running_loop()
        from dreizehn.server.hinting import hint_in_worker

        try:
            analysis = await loop.run_in_executor(self.hub.executor, hint_in_worker, view,
                                                  self.hub.settings.hint_seconds, conn.lang)
        except Exception:  # a hint that fails is refused; the connection goes on
            log.warning("the hint of table %s failed", self.id, exc_info=True)
            conn.send(self.refusal(conn, ServerError("server.hint_failed", rule="S5"), with_view=False))
            return
        conn.send(messages.hint(version, analysis))
