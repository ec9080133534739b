"""Acting and storing: an action is checked and applied by the engine, stored (the unique (table, sequence) key
settles races with other processes), and only then told; actions other processes stored are caught up with, and a
person's latest move is taken back (S8).

Acting changes the table (:class:`~.state.TableState`) and tells through :class:`Tells` (the room's telling); it
stores through :class:`Writes` and :class:`Log`, and says when an action was told through :class:`Pace` (the bots'
pause, the wait for a stage's scoring)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from dreizehn.core.errors import DreizehnError
from dreizehn.play.table import StaleVersionError, Update
from dreizehn.server import metrics
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms.conn import Conn
from dreizehn.server.rooms.state import TableState
from dreizehn.server.storage import Append, Conflict, Stored, TakenBack
from dreizehn.server.takebacks import TakeBack, take_backs, undo_point

log = logging.getLogger("dreizehn.server")


class Tells(Protocol):
    """What acting tells (:class:`~dreizehn.server.rooms.telling.Telling`)."""

    def broadcast_update(self, update: Update) -> None: ...

    def resync_all(self) -> None: ...

    def tell_taken_back(self, back: TakeBack) -> None: ...

    def refusal(self, conn: Conn, err: DreizehnError, with_view: bool = True) -> str: ...


class Writes(Protocol):
    """What stores a room's actions, in groups, on the event loop (:class:`~dreizehn.server.storage.Writer`)."""

    async def append(self, row: Append) -> None: ...


class Log(Protocol):
    """Where acting reads a table's actions and takes moves back (:class:`~dreizehn.server.storage.Actions`; each
    one short transaction, called from a thread)."""

    def actions_from(self, table_id: str, seq: int) -> list[tuple[int, str, str]]: ...

    def take_back(self, table_id: str, seq: int, version: int, seat: int) -> bool: ...

    def taken_back(self, table_id: str) -> list[TakenBack]: ...


class Pace(Protocol):
    """What acting tells the bots: an action was told (the bot pause runs from it), a stage's scoring was told
    (they wait for the people to read it), or that wait is over (the stage's end was taken back); and the hub
    that the game is over (its last action stored: the ratings are updated)."""

    def told(self) -> None: ...

    def scored(self, update: Update) -> None: ...

    def release(self) -> None: ...

    def over(self) -> None: ...


class Acting:
    """A room's actions: applied, stored, told. ``load`` reads a table as stored
    (:meth:`~dreizehn.server.storage.Tables.load`), ``stand_in`` says the seats this process's stand-in plays (kept
    when the table is rebuilt), ``level`` the stand-in's bot; ``conflicted`` is called when an action was not stored
    for a conflict (another process took the turn, or serves the table now: its home is to be checked)."""

    def __init__(self, state: TableState, lock: asyncio.Lock, writer: Writes, log: Log,
                 load: Callable[[str], Stored | None], tells: Tells, pace: Pace, stand_in: Callable[[], Iterable[int]],
                 level: str, conflicted: Callable[[], None] = lambda: None) -> None:
        self._state = state
        self._lock = lock
        self._writer = writer
        self._log = log
        self._load = load
        self._tells = tells
        self._pace = pace
        self._stand_in = stand_in
        self._level = level
        self._conflicted = conflicted

    async def act(self, conn: Conn, version: int, action: int | str) -> None:
        """A person's action from ``conn``: applied, stored, told; or refused with the current view (an action the
        database did not store too: nothing is told that is not stored)."""
        started = time.perf_counter()
        async with self._lock:
            if conn.seat is None:
                conn.send(self._tells.refusal(conn, ServerError("server.spectator_acts", rule="S1")))
                return
            try:
                update = self._state.table.submit(conn.seat, action, version)
            except DreizehnError as err:
                conn.send(self._tells.refusal(conn, err))
                return
            stored = await self.store_and_tell(update, "person")
            if stored is None:
                conn.send(self._tells.refusal(conn, ServerError("server.not_stored", rule="S7")))
            elif stored:
                metrics.ACTION_SECONDS.observe(time.perf_counter() - started)

    async def store_and_tell(self, update: Update, by: str) -> bool | None:
        """Store an update already applied to the table, then tell everyone (``True``); on a conflict (another
        process took the turn) reload the table and resync (``False``); if the database failed, the table as it
        was before the update, and every connection resynced (``None``). Call under the lock."""
        state = self._state
        try:
            await self._writer.append(Append(state.id, update.version - 1, update.seat, update.action, by,
                                            state.table.is_over))
        except Conflict:
            self._conflicted()
            await self._reload()
            return False
        except Exception:  # the database failed: the action is not stored, so it never happened
            log.warning("storing action %s of table %s failed: it is undone", update.version - 1, state.id,
                        exc_info=True)
            metrics.STORE_FAILURES.inc()
            self._rebuild(state.kept(len(state.table.state.log) - 1))  # the room's own log: the database may be gone
            return None
        metrics.actions_by(by).inc()
        self._pace.told()
        if state.table.is_over:
            state.finished()
            self._pace.over()
        self._tells.broadcast_update(update)
        self._pace.scored(update)
        return True

    def _rebuild(self, stored: Stored) -> None:
        """The table of ``stored``, with this process's stand-ins, and every connection resynced."""
        self._state.rebuild(stored, self._stand_in(), self._level)
        self._tells.resync_all()

    async def _reload(self) -> None:
        """The table as stored (another process took the turn, or the database failed): rebuilt, and every
        connection resynced."""
        stored = await asyncio.to_thread(self._load, self._state.id)
        if stored is not None:
            self._rebuild(stored)

    async def _taken_back_elsewhere(self) -> None:
        """The latest action known here is no longer stored: another process took it back (S8). The table as
        stored, every connection resynced, then told of the latest take-back."""
        await self._reload()
        backs = take_backs(await asyncio.to_thread(self._log.taken_back, self._state.id))
        if backs:
            self._state.set_take_backs(backs)
            self._pace.told()
            self._tells.tell_taken_back(backs[-1])

    async def catch_up(self) -> None:
        """Apply the actions another process stored (PostgreSQL NOTIFY) and tell this process's connections; a table
        whose latest action known here is no longer stored (taken back in another process) is reloaded."""
        async with self._lock:
            table = self._state.table
            known = table.version
            fresh = await asyncio.to_thread(self._log.actions_from, self._state.id, max(0, known - 1))
            last = table.state.log[-1] if known else None
            if last is not None and (not fresh or fresh[0][:2] != (last[0], table.game.action_to_text(last[1]))):
                await self._taken_back_elsewhere()
                fresh = []
            for seat, action, _ in fresh[1 if known else 0:]:
                table = self._state.table
                if table.current_player != seat:
                    await self._reload()
                    break
                update = table.apply_as(seat, action)
                self._pace.told()
                self._tells.broadcast_update(update)

    async def undo(self, conn: Conn, version: int) -> None:
        """``conn``'s person takes back their latest move and the bot moves after it (:mod:`dreizehn.server.takebacks`):
        stored first (the actions move to ``taken_back``), then the table is rebuilt from the log that stands and
        everyone is told (a ``resync``, then ``taken_back`` in their language); refused with the current view when
        it may not be, or when the database fails (``server.not_stored``: nothing is taken back)."""
        async with self._lock:
            state, table = self._state, self._state.table
            try:
                if version != table.version:
                    raise StaleVersionError("table.stale", rule="W6", given=version, current=table.version)
                seq = undo_point(state.told, state.seats, conn.seat, table.current_player)
            except DreizehnError as err:
                conn.send(self._tells.refusal(conn, err))
                return
            seat, count = int(conn.seat or 0), table.version - seq
            try:
                done = await asyncio.to_thread(self._log.take_back, state.id, seq, table.version, seat)
            except Exception:  # the database failed: nothing is taken back
                log.warning("taking back moves at table %s failed", state.id, exc_info=True)
                metrics.STORE_FAILURES.inc()
                conn.send(self._tells.refusal(conn, ServerError("server.not_stored", rule="S7")))
                return
            if not done:  # another process stored an action meanwhile: the table as stored
                await self._reload()
                return
            self._pace.release()
            self._rebuild(state.kept(seq))
            self._pace.told()
            back = TakeBack(seq, seat, count)
            state.taken_back(back)
            self._tells.tell_taken_back(back)
