"""Updating the ratings as rated games finish (rules G1–G3): a sweep finds the finished rated games not applied yet
and applies each in one transaction with its mark (:meth:`RatingStore.apply`), so that a game is applied exactly
once whether its process was killed between the game's end and the update, or two processes sweep at once. Every
process sweeps at start, then every ``interval`` seconds (``DREIZEHN_RATING_INTERVAL``) and whenever asked
(:meth:`Ratings.nudge`)."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time

from sqlalchemy.engine import Engine

from dreizehn.server.ratings.bands import ACTIVE_DAYS, day_of
from dreizehn.server.ratings.model import places
from dreizehn.server.ratings.store import Outcome, RatingStore, Standing
from dreizehn.server.rooms.state import build_table
from dreizehn.server.storage import Tables, now
from dreizehn.server.storage.rows import left_to_bots
from dreizehn.server.waiting import woken

log = logging.getLogger("dreizehn.server.ratings")
BOARD_SECONDS = 5.0
"""How long a process answers a game's top 100 from memory: the board changes with rated games (each process
forgets its copy when it applies one, another's shows within this time) and with midnight (a new day's board is read
afresh)."""


def outcome_of(tables: Tables, store: RatingStore, table_id: str) -> Outcome | None:
    """A finished game's outcome as the ratings see it (its actions replayed), or ``None`` if it is gone or not
    over."""
    stored = tables.load(table_id)
    if stored is None or stored.row.status != "finished":
        return None
    state = build_table(stored).state
    ended = stored.row.ended_seat
    if not state.is_over and ended is None:
        return None
    left = list(left_to_bots(stored.seats, stored.actions))
    if ended is not None:  # the person whose time ended the game is last (rule P3), as one who left
        left[ended] = True
    bound, bots = store.seated(table_id)
    return Outcome(table_id, stored.row.game_id, bound, tuple(places(state.totals, state.game.high_score_wins, left)),
                   bots)


class Ratings:
    """The ratings of one server process."""

    def __init__(self, engine: Engine, tables: Tables) -> None:
        self.store = RatingStore(engine)
        self.tables = tables
        self.wake = asyncio.Event()
        self.boards: dict[str, tuple[dt.datetime, int, float, list[Standing]]] = {}
        """Each game's board as last read: its first moment, its length, when it was read (monotonic), its rows."""
        self.changes = 0
        """Rating updates this process applied: a board read while one was applied is not kept."""

    def sweep(self) -> int:
        """Apply every finished rated game not applied yet; how many this call applied (call from a thread)."""
        applied = 0
        for table_id in self.store.pending():
            outcome = outcome_of(self.tables, self.store, table_id)
            if outcome is not None and self.store.apply(outcome):
                applied += 1
                self.changes += 1
                self.boards.clear()
        if applied:
            self.store.prune(day_of(now()) - dt.timedelta(days=ACTIVE_DAYS + 1))
        return applied

    def board(self, game_id: str, since: dt.datetime, limit: int) -> list[Standing]:
        """A game's top ``limit`` (:meth:`RatingStore.board`), kept for :data:`BOARD_SECONDS` and forgotten as soon
        as this process applies a rated game (another process's shows within that time; call from a thread)."""
        start, changes = time.monotonic(), self.changes
        kept = self.kept(game_id, since, limit)
        if kept is not None:
            return kept
        found = self.store.board(game_id, since, limit)
        if changes == self.changes:  # no game applied here while it was read: it may be stale already
            self.boards[game_id] = (since, limit, start, found)
        return found

    def kept(self, game_id: str, since: dt.datetime, limit: int) -> list[Standing] | None:
        """A game's top ``limit`` as this process keeps it (:meth:`board`), or ``None`` where it keeps none fresh:
        no database, no thread (the event loop may ask)."""
        kept = self.boards.get(game_id)
        if kept is not None and kept[:2] == (since, limit) and time.monotonic() - kept[2] < BOARD_SECONDS:
            return kept[3]
        return None

    def nudge(self) -> None:
        """A rated game ended here: sweep now rather than at the next interval."""
        self.wake.set()

    async def keep_rating(self, interval: float) -> None:
        """Sweep at once, then whenever nudged or every ``interval`` seconds, until cancelled."""
        while True:
            self.wake.clear()
            try:
                await asyncio.to_thread(self.sweep)
            except Exception:  # the database may be away: the next sweep tries again, nothing is lost
                log.warning("updating the ratings failed; trying again later", exc_info=True)
            await woken(self.wake, interval)
