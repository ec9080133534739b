"""Acting and storing: an action is checked and applied by the engine, stored (the unique (table, sequence) key
settles races with other processes), and only then told; actions other processes stored are caught up with."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace

from dreizehn.core.errors import DreizehnError
from dreizehn.play.table import Update
from dreizehn.server import metrics
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms.base import Conn, build_table
from dreizehn.server.rooms.presence import Presence
from dreizehn.server.storage import Append, Conflict, Stored, now
from dreizehn.server.takebacks import take_backs

log = logging.getLogger("dreizehn.server")


class Acting(Presence):
    """A room's actions: applied, stored, told."""

    async def act(self, conn: Conn, version: int, action: int | str) -> None:
        """A person's action from ``conn``: applied, stored, told; or refused with the current view (an action the
        database did not store too: nothing is told that is not stored)."""
        started = time.perf_counter()
        async with self.lock:
            if conn.seat is None:
                conn.send(self.refusal(conn, ServerError("server.spectator_acts", rule="S1")))
                return
            try:
                update = self.table.submit(conn.seat, action, version)
            except DreizehnError as err:
                conn.send(self.refusal(conn, err))
                return
            stored = await self._store_and_tell(update, "person")
            if stored is None:
                conn.send(self.refusal(conn, ServerError("server.not_stored", rule="S7")))
            elif stored:
                metrics.ACTION_SECONDS.observe(time.perf_counter() - started)
        self.after_change()

    async def _store_and_tell(self, update: Update, by: str) -> bool | None:
        """Store an update already applied to the table, then tell everyone (``True``); on a conflict (another
        process took the turn) reload the table and resync (``False``); if the database failed, the table as it
        was before the update, and every connection resynced (``None``). Call under the lock."""
        try:
            await self.hub.writer.append(Append(self.id, update.version - 1, update.seat, update.action, by,
                                                self.table.is_over))
        except Conflict:
            await self._reload()
            return False
        except Exception:  # the database failed: the action is not stored, so it never happened
            log.warning("storing action %s of table %s failed: it is undone", update.version - 1, self.id,
                        exc_info=True)
            metrics.STORE_FAILURES.inc()
            self._undo_last()
            return None
        metrics.actions_by(by).inc()
        self._told()
        if self.table.is_over:
            self.row = replace(self.row, status="finished", finished_at=now())
        self.broadcast_update(update)
        self.hold_for_scoring(update)
        return True

    def _told(self) -> None:
        self.told_at = self.last_used = time.monotonic()

    def _undo_last(self) -> None:
        """The table without its latest action (one the database did not store), rebuilt from the room's own log,
        which needs no database (it may be the database that is gone); every connection resynced."""
        game, state = self.table.game, self.table.state
        kept = tuple((seat, game.action_to_text(action), "") for seat, action in state.log[:-1])
        self._rebuild(Stored(self.row, tuple(self.seat_rows), kept))

    def _rebuild(self, stored: Stored) -> None:
        """The table of ``stored``, with this process's stand-ins, and every connection resynced."""
        self.row = stored.row
        self.set_seats(list(stored.seats))
        self.table = build_table(stored, self.told)
        for seat in self.stand_in:
            self.table.replace(seat, self.hub.settings.stand_in)
        self.resync_all()

    async def _reload(self) -> None:
        """The table as stored (another process took the turn, or the database failed): rebuilt, and every
        connection resynced."""
        stored = await asyncio.to_thread(self.hub.store.load, self.id)
        if stored is not None:
            self._rebuild(stored)

    async def _taken_back_elsewhere(self) -> None:
        """The latest action known here is no longer stored: another process took it back (S8). The table as
        stored, every connection resynced, then told of the latest take-back."""
        await self._reload()
        backs = take_backs(await asyncio.to_thread(self.hub.store.taken_back, self.id))
        if backs:
            self.take_backs = backs
            self._told()
            self.tell_taken_back(backs[-1])

    async def catch_up(self) -> None:
        """Apply the actions another process stored (PostgreSQL NOTIFY) and tell this process's connections; a table
        whose latest action known here is no longer stored (taken back in another process) is reloaded."""
        async with self.lock:
            known = self.table.version
            fresh = await asyncio.to_thread(self.hub.store.actions_from, self.id, max(0, known - 1))
            last = self.table.state.log[-1] if known else None
            if last is not None and (not fresh or fresh[0][:2] != (last[0], self.table.game.action_to_text(last[1]))):
                await self._taken_back_elsewhere()
                fresh = []
            for seat, action, _ in fresh[1 if known else 0:]:
                if self.table.current_player != seat:
                    await self._reload()
                    break
                update = self.table.apply_as(seat, action)
                self._told()
                self.broadcast_update(update)
        self.after_change()
