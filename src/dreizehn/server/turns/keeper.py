"""A turn-based table's clock, kept by its room: written to the database whenever the table changes (the person to
move and until when), and fired when the sweep finds it run out (:mod:`.sweep`): the table's rule applies.

The rules when a person's time runs out (``tables.on_timeout``, rule P3 of docs/turns.md):

- ``move``: a bot (the heuristic) plays that one move for them; their seat stays theirs.
- ``seat``: a bot (the stand-in's level) takes their seat for the rest of the game; the seat's moves are the
  stand-in's (``by`` ``stand-in``), so the game counts as left to bots.
- ``end``: the game ends now with them last; the others are placed by their totals.

Writing is in order and coalesced: a change while a write runs is written after it, the latest table alone."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from dreizehn.bots.base import make_bot
from dreizehn.play.table import Update
from dreizehn.server.rooms.state import TableState
from dreizehn.server.storage import now
from dreizehn.server.turns.hooks import TurnClock, TurnHooks
from dreizehn.server.turns.store import Clocks, Due

log = logging.getLogger("dreizehn.server.turns")

REMIND_SHARE = 0.2
"""A person is reminded when this share of their time to move is left…"""
REMIND_MOST = dt.timedelta(hours=6)
"""…but not earlier than this before it runs out."""

StoreAndTell = Callable[[Update, str], Awaitable[bool | None]]


def remind_at(started: dt.datetime, due: dt.datetime) -> dt.datetime:
    """When a person to move since ``started`` with time until ``due`` is reminded."""
    return due - min((due - started) * REMIND_SHARE, REMIND_MOST)


class TurnKeeper:
    """The clock of one turn-based table, in its room. ``store_and_tell`` stores and tells a move (the room's
    acting), ``resync`` tells every connection the table again (a seat changed hands, or the game ended), ``moved``
    moves the table on (its bots), ``over`` says the game ended here (the hub's game-over hooks), ``told`` tells
    everyone whose time ran out and the rule applied (``timed_out``)."""

    def __init__(self, state: TableState, lock: asyncio.Lock, clocks: Clocks, hooks: Callable[[], list[TurnHooks]],
                 store_and_tell: StoreAndTell, resync: Callable[[], None], moved: Callable[[], None],
                 over: Callable[[], None], level: str, told: Callable[[int, str], None]) -> None:
        self._state = state
        self._lock = lock
        self._clocks = clocks
        self._hooks = hooks
        self._store_and_tell = store_and_tell
        self._resync = resync
        self._moved = moved
        self._over = over
        self._level = level
        self._told = told
        self._dirty = False
        self._cleared = False
        """Whether the stored clock was deleted here since the last one written (nothing to delete again)."""
        self._writing: asyncio.Task[None] | None = None
        self.clock: TurnClock | None = None
        """The clock as stored, once written or read here."""
        self._stopped = False

    @property
    def active(self) -> bool:
        return self._state.row.turn_based and not self._stopped

    def after_change(self) -> None:
        """The table changed: its clock is written (in order, the latest table alone)."""
        if not self.active:
            return
        self._dirty = True
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._write())

    def busy(self) -> bool:
        """Whether the clock is being written."""
        return self._writing is not None and not self._writing.done()

    async def settled(self) -> None:
        """Wait until the clock written is the table's as it is now (tests, and the sweep before it fires)."""
        while self._writing is not None and not self._writing.done():
            await asyncio.shield(self._writing)

    async def _write(self) -> None:
        while self._dirty and not self._stopped:
            self._dirty = False
            try:
                await self._write_once()
            except Exception:  # the database failed: the sweep finds the clock behind and the room writes it again
                log.warning("writing the turn clock of table %s failed", self._state.id, exc_info=True)
                return

    async def _write_once(self) -> None:
        state, table = self._state, self._state.table
        version = table.version
        if not table.waiting_for_person:
            if self.clock is not None or not self._cleared:  # a bot's moves in a row delete the clock once
                await asyncio.to_thread(self._clocks.clear, state.id, version)
                if self.clock is not None and table.is_over:
                    for hook in self._hooks():
                        hook.ended(state.id)
            self.clock, self._cleared = None, True
            return
        self._cleared = False
        if self.clock is not None and self.clock.version == version:
            return
        seat = table.current_player
        clock, new = await asyncio.to_thread(self._start, seat, version)
        self.clock = clock
        if new:
            for hook in self._hooks():
                hook.turn(clock)

    def _start(self, seat: int, version: int) -> tuple[TurnClock, bool]:
        """The clock of ``seat``'s turn at ``version`` (call from a thread): it began with the latest action stored;
        stored now (``True``), or as stored already by this table's earlier room, before a restart (``False``)."""
        state = self._state
        started = self._clocks.last_action_at(state.id) or now()
        due = started + dt.timedelta(seconds=state.row.move_time or 0)
        clock = TurnClock(state.id, state.row.game_id, seat, version, state.seats[seat].account_id, started, due,
                          remind_at(started, due))
        if self._clocks.put(clock):
            return clock, True
        return self._clocks.get(state.id) or clock, False

    async def fire(self, due: Due) -> bool:
        """The clock of ``due`` ran out: the table's rule applies, if the person it names is still to move at its
        version (else the clock is written again). Whether the rule was applied."""
        await self.settled()
        clock = self.clock
        async with self._lock:
            table = self._state.table
            fired = (table.version == due.version and table.waiting_for_person and table.current_player == due.seat
                     and not self._stopped and await self._apply_rule(due.seat))
            if fired:
                self._told(due.seat, self._state.row.on_timeout or "move")
        if fired and clock is not None:
            for hook in self._hooks():
                hook.timed_out(clock, self._state.row.on_timeout or "move")
        if not fired:  # the clock stored is not the table's (written before a crash, say): written again
            self.clock, self._cleared = None, False
        self.after_change()
        self._moved()
        return bool(fired)

    async def _apply_rule(self, seat: int) -> bool:
        """Apply the table's rule for ``seat``, whose time ran out (under the lock); whether it was applied
        (``False``: the database failed, or another process was first)."""
        state, table = self._state, self._state.table
        rule = state.row.on_timeout or "move"
        if rule == "seat":
            await asyncio.to_thread(self._clocks.leave_seat, state.id, seat, self._level, now())
            state.left(seat, self._level)
            self._resync()
        elif rule == "end":
            if not await asyncio.to_thread(self._clocks.end_game, state.id, seat, table.version, now()):
                return False
            state.ended(seat)
            self._resync()
            self._over()
        else:
            bot = make_bot("heuristic", table.game)
            action: Any = bot.act(table.view(seat), random.Random(f"{state.id}:turn:{table.version}"))
            return bool(await self._store_and_tell(table.apply_as(seat, action), "stand-in"))
        return True

    def stop(self) -> None:
        self._stopped = True
        if self._writing is not None:
            self._writing.cancel()
