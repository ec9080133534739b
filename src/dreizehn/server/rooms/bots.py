"""Bots and clocks: a room's bots play after the bot pause, in the hub's worker pool; a person's turn clock, when
the table has one, has the stand-in play the move that ran out."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

from dreizehn.bots.base import make_bot
from dreizehn.server.rooms.acting import Acting

STORE_RETRY = 0.25
"""Seconds a bot waits before trying again a move the database did not store (doubled at each failure in a row)."""
STORE_RETRY_MAX = 10.0
"""The longest of those waits: a long outage costs each table of bots a rebuild every ten seconds."""


class Bots(Acting):
    """The tasks that move a table on by themselves."""

    def after_change(self) -> None:
        """Start the bots or the turn clock, as the table now needs (not in a room that stopped)."""
        if self.table.is_over or self.stopped:
            return
        if self.table.bot_to_move and (self.bot_task is None or self.bot_task.done()):
            self.bot_task = asyncio.create_task(self._play_bots())
        self._start_clock()

    def busy(self) -> bool:
        """Whether a bot, the turn clock or a grace period is running, or an action being applied."""
        tasks = (self.bot_task, self.clock_task, *self.away.values())
        return self.lock.locked() or any(task is not None and not task.done() for task in tasks)

    async def _pause(self) -> None:
        """The bot pause, from the latest action told, whoever made it, so people can follow every bot's move."""
        pause = self.hub.settings.bot_pause
        delay = pause
        while delay > 0:
            await asyncio.sleep(delay)
            delay = self.told_at + pause - time.monotonic()
        await self._hold()

    async def _hold(self) -> None:
        """After an update that ended a stage: wait until every person connected here to a seat has closed its
        scoring (``ready``), at most ``DREIZEHN_STAGE_HOLD`` seconds after it was told, so that the bots do not play
        the next stage behind the window."""
        version = self.held_at
        if version is None:
            return
        left = self.told_at + self.hub.settings.stage_hold - time.monotonic()
        if self.table.version == version and left > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.all_ready.wait(), left)
        self.held_at = None

    async def _play_bots(self) -> None:
        failures = 0  # moves in a row the database did not store
        while True:
            if failures:  # the database failed: the move is tried again after a wait that doubles, up to a limit
                await asyncio.sleep(min(STORE_RETRY_MAX, STORE_RETRY * 2 ** (failures - 1)))
            await self._pause()
            async with self.lock:
                if not self.table.bot_to_move:
                    return
                request = self.table.bot_request()
            started = time.perf_counter()
            action, rng = await self.hub.decide(request, self.table.game)
            async with self.lock:
                seat = self.table.current_player
                if not self.table.bot_to_move:  # the person came back while their stand-in thought: theirs again
                    continue
                update = self.table.apply_bot_answer(request, action, rng, time.perf_counter() - started)
                if update is None:
                    continue
                stored = await self._store_and_tell(update, "stand-in" if seat in self.stand_in else "bot")
            failures = failures + 1 if stored is None else 0
            self._start_clock()

    def _start_clock(self) -> None:
        if self.row.clock <= 0 or not self.table.waiting_for_person:
            return
        if self.clock_task is not None and not self.clock_task.done():
            self.clock_task.cancel()
        self.clock_task = asyncio.create_task(self._clock(self.table.version, self.row.clock))

    async def _clock(self, version: int, seconds: float) -> None:
        """The turn clock: a person who lets it run out has the stand-in play that one move."""
        await asyncio.sleep(seconds)
        async with self.lock:
            table = self.table
            if table.version != version or not table.waiting_for_person:
                return
            seat = table.current_player
            bot = make_bot("heuristic", table.game)
            action = bot.act(table.view(seat), random.Random(f"{self.id}:clock:{version}"))
            update = table.apply_as(seat, action)
            await self._store_and_tell(update, "stand-in")
        self.after_change()

    def stop(self) -> None:
        """Cancel the room's tasks and close its connections (the server stops, or another process serves the
        table now: the clients come back through it)."""
        self.stopped = True
        for task in (self.bot_task, self.clock_task, *self.away.values()):
            if task is not None:
                task.cancel()
        for conn in list(self.conns):
            conn.close()
