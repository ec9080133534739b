"""The sweep of the turn clocks: every ``DREIZEHN_TURN_SWEEP`` seconds each server process looks for the clocks run
out and fires those of the tables whose home it holds or claims (with PostgreSQL, a table another process serves is
left to it: :class:`~dreizehn.server.homes.Elsewhere`), and takes the reminders due (each taken by one process, in
the statement that clears it). A clock fires once: its room checks the version it names, and the move it stores is
keyed by the table and version, so that of two processes one stores it. Clocks live in the database, so a restart or
a kill -9 loses none: the next sweep finds the ones that ran out meanwhile."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from dreizehn.server.homes import Elsewhere
from dreizehn.server.storage import now
from dreizehn.server.turns.hooks import TurnHooks
from dreizehn.server.turns.keeper import TurnKeeper
from dreizehn.server.turns.store import Clocks, Due

log = logging.getLogger("dreizehn.server.turns")

BATCH = 2000
"""The most clocks (and reminders) one pass takes: the rest wait for the next pass."""
AT_ONCE = 32
"""The clocks of one pass fired at once (each table has its room and lock; the database's pool is shared)."""


class _Room(Protocol):
    @property
    def turns(self) -> TurnKeeper: ...


class _Hub(Protocol):
    turn_hooks: list[TurnHooks]

    async def room(self, table_id: str) -> _Room | None: ...


class Sweep:
    """The turn clocks' sweep of one server process."""

    def __init__(self, hub: _Hub, clocks: Clocks) -> None:
        self._hub = hub
        self._clocks = clocks

    async def once(self) -> int:
        """One pass: the clocks run out fired, the reminders due told; how many clocks this pass fired."""
        at = now()
        gate = asyncio.Semaphore(AT_ONCE)

        async def fire(due: Due) -> bool:
            async with gate:
                try:
                    room = await self._hub.room(due.table_id)
                except Elsewhere:
                    return False
                return room is not None and await room.turns.fire(due)

        dues = await asyncio.to_thread(self._clocks.due, at, BATCH)
        fired = sum(await asyncio.gather(*(fire(due) for due in dues)))
        for clock in await asyncio.to_thread(self._clocks.take_reminders, at, BATCH):
            for hook in self._hub.turn_hooks:
                hook.reminder(clock)
        return fired

    async def keep_sweeping(self, interval: float) -> None:
        """A pass every ``interval`` seconds, until cancelled (a pass that fails is logged, and the next one runs)."""
        while True:
            try:
                await self.once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("a pass of the turn clocks' sweep failed", exc_info=True)
            await asyncio.sleep(interval)
