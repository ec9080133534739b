"""Bots and clocks: a room's bots play after the bot pause, in the hub's worker pool; a person's turn clock, when
the table has one, has the stand-in play the move that ran out.

The bots own their tasks and the time the latest action was told; they store and tell a move through the room's
acting (``store_and_tell``), and wait for a stage's scoring through its :class:`~.hold.Hold`."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from dreizehn.bots.base import make_bot
from dreizehn.play.table import BotRequest, Update
from dreizehn.server.rooms.hold import Hold
from dreizehn.server.rooms.state import TableState

STORE_RETRY = 0.25
"""Seconds a bot waits before trying again a move the database did not store (doubled at each failure in a row)."""
STORE_RETRY_MAX = 10.0
"""The longest of those waits: a long outage costs each table of bots a rebuild every ten seconds."""

Decide = Callable[[BotRequest, Any], Awaitable[tuple[int, Any]]]
"""A bot's decision in the worker pool (:meth:`~dreizehn.server.rooms.hub.Hub.decide`)."""
StoreAndTell = Callable[[Update, str], Awaitable[bool | None]]
"""Store and tell an applied update, by whom (:meth:`~dreizehn.server.rooms.acting.Acting.store_and_tell`)."""


class Bots:
    """The tasks that move a table on by themselves: its bots and its turn clock. ``pause`` is the bot pause,
    ``stage_hold`` the longest wait for a stage's scoring, ``stand_in`` the seats this process's stand-in plays."""

    def __init__(self, state: TableState, lock: asyncio.Lock, hold: Hold, decide: Decide,
                 store_and_tell: StoreAndTell, stand_in: Callable[[], frozenset[int]], pause: float,
                 stage_hold: float) -> None:
        self._state = state
        self._lock = lock
        self._hold = hold
        self._decide = decide
        self._store_and_tell = store_and_tell
        self._stand_in = stand_in
        self._pause_seconds = pause
        self._stage_hold = stage_hold
        self.task: asyncio.Task[None] | None = None
        """The bots' task, while one is to move."""
        self._clock_task: asyncio.Task[None] | None = None
        self.told_at = 0.0
        """When the latest action was told (``time.monotonic``): bots wait the bot pause after it."""
        self._stopped = False

    def told(self) -> None:
        """An action was told now."""
        self.told_at = time.monotonic()

    def after_change(self) -> None:
        """Start the bots or the turn clock, as the table now needs (not in a room that stopped)."""
        table = self._state.table
        if table.is_over or self._stopped:
            return
        if table.bot_to_move and (self.task is None or self.task.done()):
            self.task = asyncio.create_task(self._play())
        self._start_clock()

    def busy(self) -> bool:
        """Whether a bot or the turn clock is running."""
        return any(task is not None and not task.done() for task in (self.task, self._clock_task))

    async def _pause(self) -> None:
        """The bot pause, from the latest action told, whoever made it, so people can follow every bot's move;
        then, after an update that ended a stage, the wait until every person connected here to a seat has closed
        its scoring (``ready``), at most ``DREIZEHN_STAGE_HOLD`` seconds after it was told, so that the bots do
        not play the next stage behind the window."""
        delay = self._pause_seconds
        while delay > 0:
            await asyncio.sleep(delay)
            delay = self.told_at + self._pause_seconds - time.monotonic()
        left = self.told_at + self._stage_hold - time.monotonic()
        await self._hold.wait(self._state.table.version, left)

    async def _play(self) -> None:
        failures = 0  # moves in a row the database did not store
        while True:
            if failures:  # the database failed: the move is tried again after a wait that doubles, up to a limit
                await asyncio.sleep(min(STORE_RETRY_MAX, STORE_RETRY * 2 ** (failures - 1)))
            await self._pause()
            async with self._lock:
                table = self._state.table
                if not table.bot_to_move:
                    return
                request = table.bot_request(per_decision=True)  # a take-back's replay answers alike (S8)
            started = time.perf_counter()
            action, rng = await self._decide(request, table.game)
            async with self._lock:
                table = self._state.table
                seat = table.current_player
                if not table.bot_to_move:  # the person came back while their stand-in thought: theirs again
                    continue
                update = table.apply_bot_answer(request, action, rng, time.perf_counter() - started)
                if update is None:
                    continue
                stored = await self._store_and_tell(update, "stand-in" if seat in self._stand_in() else "bot")
            failures = failures + 1 if stored is None else 0
            self._start_clock()

    def _start_clock(self) -> None:
        clock = self._state.row.clock
        if clock <= 0 or not self._state.table.waiting_for_person:
            return
        if self._clock_task is not None and not self._clock_task.done():
            self._clock_task.cancel()
        self._clock_task = asyncio.create_task(self._clock(self._state.table.version, clock))

    async def _clock(self, version: int, seconds: float) -> None:
        """The turn clock: a person who lets it run out has the stand-in play that one move."""
        await asyncio.sleep(seconds)
        async with self._lock:
            table = self._state.table
            if table.version != version or not table.waiting_for_person:
                return
            seat = table.current_player
            bot = make_bot("heuristic", table.game)
            action = bot.act(table.view(seat), random.Random(f"{self._state.id}:clock:{version}"))
            update = table.apply_as(seat, action)
            await self._store_and_tell(update, "stand-in")
        self.after_change()

    def stop(self) -> None:
        """Cancel the bots' and the clock's tasks (the room stops)."""
        self._stopped = True
        for task in (self.task, self._clock_task):
            if task is not None:
                task.cancel()
