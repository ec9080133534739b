"""``/api/daily``: the day's deals, starting a play, a deal's results, an account's days (rules D1–D4;
dreizehn.server.daily)."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Path, Request

from dreizehn.server.daily.service import Daily, spread, today
from dreizehn.server.daily.store import Deal
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import LangDep, SettingsDep, SignedInDep, WhoDep
from dreizehn.server.schemas import (
    DailyDayOut,
    DailyDealOut,
    DailyHistoryOut,
    DailyIn,
    DailyOut,
    DailyResultsOut,
    DailyRow,
    DailyStartOut,
)
from dreizehn.server.text import person_text

router = APIRouter(prefix="/api/daily", tags=["daily"])
GameId = Annotated[str, Path(max_length=32, pattern=r"^[a-z0-9-]+$")]
Players = Annotated[int, Path(ge=2, le=8)]
SeatToken = Annotated[str | None, Header(alias="X-Seat-Token", max_length=64)]


def get_daily(request: Request) -> Daily:
    daily: Daily = request.app.state.daily
    return daily


DailyDep = Annotated[Daily, Depends(get_daily)]


@router.get("")
async def deals_of_the_day(daily: DailyDep, who: WhoDep, settings: SettingsDep, lang: LangDep) -> DailyOut:
    """Today's deals (UTC): each game at each player count, against the same bots; for a signed-in asker, the
    table of each they started and whether it is over."""
    day = today()
    out = []
    for deal in daily.deals(day):
        table = None if who is None else await asyncio.to_thread(daily.store.play_of, deal, who.account.id)
        finished = table is not None and await asyncio.to_thread(daily.mine, deal, who.account if who else None,
                                                                 None) is not None
        out.append(DailyDealOut(game=deal.game_id, players=deal.players, table=table, finished=finished))
    return DailyOut(day=day.isoformat(), bots=settings.daily_bots, deals=out)


@router.post("/{game}/{players}", status_code=201)
async def play_the_deal(game: GameId, players: Players, body: DailyIn, request: Request, daily: DailyDep,
                        who: WhoDep, lang: LangDep) -> DailyStartOut:
    """Start a play of today's deal of ``game`` at ``players`` seats (rules D1, D2): the person at seat 0, the day's
    bots at the others. An account plays each deal once (``daily.played``, 409, with its table); a guest as often
    as they like, unranked. A deal that is no game's: ``daily.no_deal`` (404)."""
    name = person_text(body.name, "name") or "Guest"
    table_id, token = await daily.start(Deal(today(), game, players), who.account if who else None, name)
    room = await request.app.state.hub.room(table_id)
    if room is not None:
        room.after_change()  # a bot may move first
    url = f"/seat/{table_id}/0" if who is not None else f"/play/{token}"
    return DailyStartOut(table=table_id, token=token, url=url)


@router.get("/{day}/{game}/{players}/results")
async def results(day: dt.date, game: GameId, players: Players, daily: DailyDep, who: WhoDep,
                  lang: LangDep, seat_token: SeatToken = None) -> DailyResultsOut:
    """A deal's results (rule D3), for one who finished it (by their account, or a guest by their seat's token in
    the header ``X-Seat-Token``): every finished play, the best first, the accounts ranked, and the spread of the
    totals; ``daily.not_finished`` (403) before."""
    deal = Deal(day, game, players)
    if deal not in daily.deals(day):
        raise ServerError("daily.no_deal", rule="D1", status=404)
    account = who.account if who else None
    mine = await asyncio.to_thread(daily.mine, deal, account, seat_token)
    if mine is None:
        raise ServerError("daily.not_finished", rule="D3", status=403)
    standings = await asyncio.to_thread(daily.standings, deal)
    rows = [DailyRow(name=s.play.name, total=s.play.total or 0, rank=s.rank, replay=f"/replay/{s.play.table_id}",
                     mine=s.play.table_id == mine) for s in standings]
    return DailyResultsOut(day=day.isoformat(), game=game, players=players, rows=rows,
                           spread=spread([r.total for r in rows]))


@router.get("/me")
async def my_days(daily: DailyDep, who: SignedInDep, lang: LangDep) -> DailyHistoryOut:
    """The signed-in person's daily deals, the newest first, and their streak: days in a row up to today (or
    yesterday, while today's is not done) with at least one deal finished."""
    for deal in {deal for deal, _, total in await asyncio.to_thread(daily.store.days, who.account.id)
                 if total is None}:
        await asyncio.to_thread(daily.settle, deal)
    days = await asyncio.to_thread(daily.store.days, who.account.id)
    done = {deal.day for deal, _, total in days if total is not None}
    day, streak = today(), 0
    if day not in done:
        day -= dt.timedelta(days=1)
    while day in done:
        streak, day = streak + 1, day - dt.timedelta(days=1)
    return DailyHistoryOut(streak=streak, days=[
        DailyDayOut(day=deal.day.isoformat(), game=deal.game_id, players=deal.players, table=table, total=total)
        for deal, table, total in days])
