"""The wait after a stage's scoring: when an update ends a stage (not the game), the bots wait until every person
connected here to a seat has closed its scoring (``ready``), at most ``DREIZEHN_STAGE_HOLD`` seconds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from dreizehn.play.table import Update
from dreizehn.server.waiting import woken


class Hold:
    """The stage whose scoring the bots wait for, and who closed it. ``people`` says the persons' seats connected
    here; ``is_over`` whether the game is over."""

    def __init__(self, people: Callable[[], set[int]], is_over: Callable[[], bool]) -> None:
        self._people = people
        self._is_over = is_over
        self._at: int | None = None
        """The version whose update ended a stage, while the bots wait for the people to read its scoring."""
        self._ready: set[int] = set()
        """The seats whose person closed the scoring of the stage ended at :attr:`_at`."""
        self._all_ready = asyncio.Event()
        """Set when every person connected here to a seat has closed that scoring (:meth:`check`)."""

    @property
    def at(self) -> int | None:
        """The version whose update ended a stage while the bots wait for its scoring to be read, or ``None``."""
        return self._at

    @property
    def all_ready(self) -> bool:
        """Whether every person connected here to a seat has closed that scoring."""
        return self._all_ready.is_set()

    def scored(self, update: Update) -> None:
        """An update told: if it ended a stage (not the game), the bots wait for the people to read its scoring."""
        if not self._is_over() and any(event.key == "stage.scored" for event in update.events):
            self._at = update.version
            self._ready = set()
            self._all_ready.clear()
            self.check()

    def ready(self, seat: int | None, version: int) -> None:
        """The person of ``seat`` closed the scoring of the stage ended at ``version`` (an older one, a spectator's
        or one with no wait on changes nothing)."""
        if seat is not None and version == self._at:
            self._ready.add(seat)
            self.check()

    def check(self) -> None:
        """Let the bots go on if every person connected here to a seat has closed the scoring (or none is); a
        person who left is waited for no more."""
        if self._at is not None and self._people() <= self._ready:
            self._all_ready.set()

    def release(self) -> None:
        """Wait no more (the stage's end was taken back)."""
        self._at = None

    async def wait(self, version: int, left: float) -> None:
        """Wait, at most ``left`` seconds, for the scoring ended at the table's ``version`` (the one now) to be
        closed by everyone; then the hold is over."""
        if self._at is None:
            return
        if version == self._at and left > 0:
            await woken(self._all_ready, left)
        self._at = None
