"""The lobby of one server process (rules L1–L6, docs/lobby.md): queueing people, their pages' heartbeats, the ready
checks, and the tables made of the groups the matcher finds, made as ``POST /api/tables`` makes them."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from dreizehn import __version__
from dreizehn.bots.levels import level_name, name_bot_seats
from dreizehn.core.registry import load_game
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.lobby.matcher import QueueKey
from dreizehn.server.lobby.store import Claim, Entry, Limits, LobbyStore
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms import Hub
from dreizehn.server.settings import Settings
from dreizehn.server.storage import SeatRow, TableRow, hash_token, new_token, now
from dreizehn.server.waiting import woken

log = logging.getLogger("dreizehn.server.lobby")
MAKING_AT_ONCE = 4
"""Tables of one round made at the same time."""


@dataclass(frozen=True)
class Choice:
    """What a person asks "Play now" for: the queue key, the wait before bots (``None``: never) and their level."""

    key: QueueKey
    bot_wait: int | None
    bot_level: str


class Lobby:
    """The lobby on ``store``, making its tables through ``hub``; ``clock`` is the time (a test's own)."""

    def __init__(self, store: LobbyStore, hub: Hub, settings: Settings,
                 clock: Callable[[], dt.datetime] = now) -> None:
        self.store, self.hub, self.clock = store, hub, clock
        self.limits = Limits(dt.timedelta(seconds=settings.lobby_expiry),
                             dt.timedelta(seconds=settings.lobby_ready_window))
        self.online_window = dt.timedelta(seconds=settings.lobby_online)
        self._nudged = asyncio.Event()

    # -- one person ----------------------------------------------------------------------------------------------
    async def queue(self, account: AccountRow, choice: Choice) -> tuple[Entry, bool]:
        """Queue ``account`` (L1: merged into its one entry when queued already); a round follows at once."""
        key = choice.key
        game = load_game(key.game_id, key.players, {})  # an unknown game or player count is the engine's refusal
        level = level_name(choice.bot_level, game.id, key.players)
        if level is None:
            raise ServerError("lobby.bot_level", rule="L3", level=choice.bot_level[:40], status=422)
        if key.pace == "turn-based" and key.move_time is None:
            raise ServerError("lobby.move_time", rule="L3", status=422)
        key = QueueKey(game.id, key.players, key.pace, key.move_time if key.pace == "turn-based" else None,
                       key.rated)
        entry, merged = await asyncio.to_thread(self.store.put, account.id, account.name, key, choice.bot_wait,
                                                level, self.clock())
        self.nudge()
        return entry, merged

    async def entry(self, account: AccountRow) -> Entry:
        """The person's entry, their page's heartbeat (L2); ``lobby.not_queued`` (404) when they have none."""
        found = await asyncio.to_thread(self.store.entry, account.id, self.clock())
        if found is None:
            raise ServerError("lobby.not_queued", rule="L2", status=404)
        return found

    async def leave(self, account: AccountRow) -> None:
        await asyncio.to_thread(self.store.remove, account.id, self.clock())
        self.nudge()

    async def ready(self, account: AccountRow) -> Entry:
        """The person confirms "ready" (L4); the last of a group to confirm has its table made before the answer."""
        entry, claims = await asyncio.to_thread(self.store.confirm, account.id, self.clock())
        await self._make_all(claims)
        return await asyncio.to_thread(self.store.entry, account.id) or entry

    # -- rounds --------------------------------------------------------------------------------------------------
    async def step(self) -> list[str]:
        """One round (:meth:`LobbyStore.step`) and the tables of the groups it claimed; answers their ids."""
        claims = await asyncio.to_thread(self.store.step, self.clock(), self.limits)
        return await self._make_all(claims)

    def nudge(self) -> None:
        """A round soon, before the next tick (someone queued, left or confirmed)."""
        self._nudged.set()

    async def keep_matching(self, interval: float) -> None:
        """A round every ``interval`` seconds, or sooner when nudged, until cancelled."""
        while True:
            await woken(self._nudged, interval)
            self._nudged.clear()
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a round of the lobby failed; the next one tries again")

    async def _make_all(self, claims: list[Claim]) -> list[str]:
        """The tables of ``claims``, a few at a time (storing one waits on the database, building its room on this
        process); a table that cannot be made puts its people back in the queue."""
        at_once = asyncio.Semaphore(MAKING_AT_ONCE)

        async def make(claim: Claim) -> str | None:
            async with at_once:
                try:
                    await self._make(claim)
                except Exception:
                    log.exception("the lobby's table %s could not be made; its people wait again", claim.table_id)
                    await asyncio.to_thread(self.store.unmade, claim, self.clock())
                    return None
                return claim.table_id

        return [t for t in await asyncio.gather(*(make(c) for c in claims)) if t is not None]

    async def _make(self, claim: Claim) -> None:
        """The table of a claimed group, as ``POST /api/tables`` makes one (rule L5): each person's seat bound to
        their account under its name, bots at the other seats; then its room told, and its people seated."""
        row, seat_rows = table_rows(claim, self.clock())
        tokens = [None if s.bot else hash_token(new_token()) for s in seat_rows]
        await asyncio.to_thread(self.hub.store.tables.create, row, seat_rows, tokens, hash_token(new_token()))
        room = await self.hub.room(row.id)
        if room is not None:
            room.after_change()
        await asyncio.to_thread(self.store.made, claim, self.clock())


def table_rows(claim: Claim, at: dt.datetime) -> tuple[TableRow, list[SeatRow]]:
    """The table row and seats of a claimed group (rule L5): a turn-based table's time to move is the group's, and
    a person whose time runs out has a bot play that one move (``on_timeout`` "move")."""
    key = claim.key
    game = load_game(key.game_id, key.players, {})
    turn_based = key.pace == "turn-based"
    row = TableRow(
        id=claim.table_id, game_id=game.id, players=key.players, options=dict(game.options),
        seed=secrets.randbits(63), package_version=__version__, status="open", clock=0.0, rematch_of=None,
        rematch=None, created_at=at, finished_at=None, rated=key.rated, pace=key.pace,
        move_time=key.move_time if turn_based else None, on_timeout="move" if turn_based else None,
    )
    people = {seat: (account_id, name) for seat, account_id, name in claim.people}
    level = level_name(claim.bot_level, game.id, key.players) or "medium"
    names = name_bot_seats([people[s][1] if s in people else None for s in range(key.players)],
                           [s not in people for s in range(key.players)])
    seats = [SeatRow(s, people[s][1], None, True, people[s][0]) if s in people
             else SeatRow(s, names[s] or level, level, True) for s in range(key.players)]
    return row, seats
