"""What turn-based tables tell the rest of the server (the notices): a person's turn began, their time runs out
soon, it ran out, or the game is over. :class:`TurnHooks` are held by the hub (``Hub.turn_hooks``) and called from
the event loop, synchronously: a hook schedules its own work and never raises nor blocks."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class TurnClock:
    """A turn-based table's clock while a person is to move (a row of ``turn_clocks``): the person of ``seat``
    (bound to ``account_id``) has been to move since ``started_at``, at the table's ``version``, until ``due_at``,
    and is reminded at ``remind_at`` (``None``: reminded already, or no reminder)."""

    table_id: str
    game_id: str
    seat: int
    version: int
    account_id: str | None
    started_at: dt.datetime
    due_at: dt.datetime
    remind_at: dt.datetime | None


class TurnHooks(Protocol):
    """Told of turn-based tables' turns. Each event is told once in the process that made it; a restart may tell a
    turn again (the same table and version): a hook is idempotent by ``(table_id, version)``."""

    def turn(self, clock: TurnClock) -> None:
        """A person's turn began; its clock is stored."""

    def reminder(self, clock: TurnClock) -> None:
        """The person's time runs out soon (told once a turn)."""

    def timed_out(self, clock: TurnClock, rule: str) -> None:
        """The person's time ran out, and the table's rule (``move``, ``seat`` or ``end``) was applied."""

    def ended(self, table_id: str) -> None:
        """The table's game is over: no turn waits there any more."""
