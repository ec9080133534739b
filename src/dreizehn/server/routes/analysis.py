"""``/api/tables/{id}/analysis``: a finished game analysed for one seat (every decision of the seat rated with the
hint search, in the background; :mod:`dreizehn.server.analysis`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, FastAPI, Path, Request, Response

from dreizehn.core.errors import InvalidActionError
from dreizehn.core.registry import load_game
from dreizehn.server.analysis import Analyst, document, stored_decisions
from dreizehn.server.protocol import INT64_MAX, INT64_MIN
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms import Hub
from dreizehn.server.routes.deps import DailyGuard, HubDep, LangDep
from dreizehn.server.schemas import AnalysisIn, AnalysisOut
from dreizehn.server.storage import AnalysisRow, Stored


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The analyst of this process (after the hub is made): it goes on with the analyses left running."""
    hub: Hub = app.state.hub
    settings = hub.settings
    analyst = Analyst(hub.store, hub.executor, settings.analysis_playouts, slots=settings.bot_workers - 1,
                      lease=settings.analysis_lease, search=settings.analysis_search)
    app.state.analyst = analyst
    await analyst.resume_all()
    try:
        yield
    finally:
        await analyst.close()


router = APIRouter(prefix="/api", tags=["analysis"], lifespan=lifespan)
TableId = Annotated[str, Path(max_length=24, pattern=r"^[A-Za-z0-9_-]+$")]


def _analyst(request: Request) -> Analyst:
    analyst: Analyst = request.app.state.analyst
    return analyst


async def _finished_seat(hub: Hub, table_id: str, seat: int) -> Stored:
    """The stored game of ``table_id``, if it has ``seat`` and is over; refused otherwise."""
    stored = await asyncio.to_thread(hub.store.tables.load, table_id)
    if stored is None:
        raise ServerError("server.no_table", rule="S1", table=table_id, status=404)
    players = stored.row.players
    if not 0 <= seat < players:
        raise InvalidActionError("seat.unknown", rule="A4", seat=seat, players=players)
    if stored.row.status != "finished":
        raise ServerError("server.analysis_not_finished", rule="S5", status=409)
    return stored


def _out(stored: Stored, row: AnalysisRow, lang: str) -> AnalysisOut:
    game = load_game(stored.row.game_id, stored.row.players, stored.row.options)
    return AnalysisOut.model_validate(document(row, game, lang))


@router.post("/tables/{table_id}/analysis", status_code=202, dependencies=[DailyGuard])
async def ask_analysis(table_id: TableId, body: AnalysisIn, request: Request, response: Response, hub: HubDep,
                       lang: LangDep) -> AnalysisOut:
    """Analyse a finished game for one seat: every decision of the seat (a position where it had more than one
    legal action) is rated with the hint search, in the background. Answers ``202`` with the analysis just begun,
    or ``200`` with the one asked before (a failed one is taken up again)."""
    stored = await _finished_seat(hub, table_id, body.seat)
    analyst = _analyst(request)
    row = await asyncio.to_thread(hub.store.analyses.load, table_id, body.seat)
    if row is None:
        total = len(await asyncio.to_thread(stored_decisions, stored, body.seat))
        if await asyncio.to_thread(hub.store.analyses.create, table_id, body.seat, total, analyst.playouts):
            analyst.start(table_id, body.seat)
            begun = AnalysisRow(table_id, body.seat, "running" if total else "done", 0, total, analyst.playouts, ())
            return _out(stored, begun, lang)
    elif row.status == "failed" and await analyst.take_up(table_id, body.seat):
        return _out(stored, replace(row, status="running"), lang)
    response.status_code = 200  # asked before (or just now by someone else): the analysis as it stands
    row = await asyncio.to_thread(hub.store.analyses.load, table_id, body.seat)
    assert row is not None
    return _out(stored, row, lang)


@router.get("/tables/{table_id}/analysis/{seat}", dependencies=[DailyGuard])
async def get_analysis(table_id: TableId, seat: Annotated[int, Path(ge=INT64_MIN, le=INT64_MAX)], hub: HubDep,
                       lang: LangDep) -> AnalysisOut:
    """The analysis of a finished game for ``seat``: its status, its progress (``done`` of ``total`` decisions) and
    the decisions rated so far, each action said in the language asked."""
    stored = await _finished_seat(hub, table_id, seat)
    row = await asyncio.to_thread(hub.store.analyses.load, table_id, seat)
    if row is None:
        raise ServerError("server.no_analysis", rule="S5", seat=seat, status=404)
    return _out(stored, row, lang)
