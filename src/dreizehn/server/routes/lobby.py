"""``/api/lobby``: "Play now" for signed-in people, the heartbeat of a waiting page, the ready check, and the lobby
as anyone sees it (rules L1–L6, docs/lobby.md)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from dreizehn.server.lobby.matcher import QueueKey
from dreizehn.server.lobby.models import LobbyOut, QueueIn, QueueOut, WaitingOut
from dreizehn.server.lobby.service import Choice, Lobby
from dreizehn.server.lobby.store import SEATED, Entry
from dreizehn.server.routes.deps import HubDep, SettingsDep, SignedInDep, WhoDep
from dreizehn.server.storage import now
from dreizehn.server.turns.pacing import check_room_for

router = APIRouter(prefix="/api/lobby", tags=["lobby"])


def get_lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(get_lobby)]


async def queue_out(lobby: Lobby, entry: Entry, merged: bool = False) -> QueueOut:
    """A person's entry as the API answers it."""
    counts = dict(await asyncio.to_thread(lobby.store.waiting_by_key))
    group = await asyncio.to_thread(lobby.store.group, entry.match_id) if entry.match_id else []
    seated = entry.state == SEATED
    return QueueOut(
        state=entry.state,  # type: ignore[arg-type]
        merged=merged, game=entry.key.game_id, players=entry.key.players, pace=entry.key.pace,
        move_time=entry.key.move_time, rated=entry.key.rated, bot_wait=entry.bot_wait, bot_level=entry.bot_level,
        queued_at=entry.queued_at.isoformat(), waiting=counts.get(entry.key, 0), ready=entry.ready,
        ready_due=entry.ready_due.isoformat() if entry.ready_due else None, group=group, bots=entry.bots,
        table=entry.match_id if seated else None, seat=entry.seat if seated else None,
        url=f"/seat/{entry.match_id}/{entry.seat}" if seated else None,
    )


@router.get("")
async def lobby_now(lobby: LobbyDep, who: WhoDep) -> LobbyOut:
    """Who is online (signed-in accounts seen within ``DREIZEHN_LOBBY_ONLINE`` seconds: rule L6), how many people
    wait for each kind of table, and the signed-in person's own place: asked by their waiting page every few
    seconds, the heartbeat that keeps them in the queue (rule L2)."""
    since = now() - lobby.online_window
    count, names = await asyncio.to_thread(lobby.store.online, since, 50)
    waiting = await asyncio.to_thread(lobby.store.waiting_by_key)
    me = None
    if who is not None:
        entry = await asyncio.to_thread(lobby.store.entry, who.account.id, lobby.clock())
        me = None if entry is None else await queue_out(lobby, entry)
    return LobbyOut(online=count, online_names=names, me=me, waiting=[
        WaitingOut(game=k.game_id, players=k.players, pace=k.pace, move_time=k.move_time, rated=k.rated, count=n)
        for k, n in waiting])


@router.post("/queue")
async def queue(body: QueueIn, lobby: LobbyDep, hub: HubDep, settings: SettingsDep, who: SignedInDep) -> QueueOut:
    """"Play now": queue the signed-in person (rule L1: one entry per account; queued again, from another tab too,
    the entry is merged: the newest choice, the same place in the queue where the kind of table is the same).
    Refused while their group's ready check runs (``lobby.busy``), and for a turn-based table to one who holds
    ``DREIZEHN_TURN_BASED_LIMIT`` turn-based games already (``turns.too_many``, rule P2)."""
    key = QueueKey(body.game, body.players, body.pace, body.move_time, body.rated)
    if body.pace == "turn-based":  # no more turn-based games than the limit (rule P2)
        await check_room_for(hub.clocks, settings, {who.account.id: who.account.name})
    entry, merged = await lobby.queue(who.account, Choice(key, body.bot_wait, body.bot_level))
    return await queue_out(lobby, entry, merged)


@router.get("/queue")
async def my_place(lobby: LobbyDep, who: SignedInDep) -> QueueOut:
    """The person's place in the lobby, and the heartbeat of their waiting page (rule L2: a page that has not asked
    for ``DREIZEHN_LOBBY_EXPIRY`` seconds has left). Seated, ``url`` is their seat's page."""
    return await queue_out(lobby, await lobby.entry(who.account))


@router.post("/ready")
async def ready(lobby: LobbyDep, who: SignedInDep) -> QueueOut:
    """Confirm "ready" in a real-time group's ready check (rule L4); the last to confirm starts the table."""
    return await queue_out(lobby, await lobby.ready(who.account))


@router.delete("/queue", status_code=204)
async def leave(lobby: LobbyDep, who: SignedInDep) -> Response:
    """Leave the lobby (a ready check the person was in ends: the others go back to their places)."""
    await lobby.leave(who.account)
    return Response(status_code=204)
