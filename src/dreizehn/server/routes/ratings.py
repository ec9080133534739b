"""``/api/ratings/{name}`` and ``/api/leaderboard/{game}``: a player's ratings with their history, and a game's board
of active players (rules G1, G4; docs/ratings.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Request, Response
from pydantic import TypeAdapter

from dreizehn.core.registry import game_ids
from dreizehn.server.accounts.names import name_key
from dreizehn.server.ratings.bands import active_since
from dreizehn.server.ratings.model import LevelRating, Skill
from dreizehn.server.ratings.service import Ratings
from dreizehn.server.ratings.store import Standing
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import AccountsDep, LangDep, WhoDep
from dreizehn.server.schemas import BoardRow, LeaderboardOut, LevelOut, PlayerRatingsOut, RatingOut, RatingPoint
from dreizehn.server.storage import now

router = APIRouter(prefix="/api", tags=["ratings"])
BOARD = 100
"""Rows of a leaderboard."""


def _ratings(request: Request) -> Ratings:
    ratings: Ratings = request.app.state.ratings
    return ratings


def rating_out(game_id: str, skill: Skill) -> RatingOut:
    return RatingOut(game=game_id, rating=skill.shown, spread=skill.spread, games=skill.games,
                     provisional=skill.provisional)


@router.get("/ratings/{name}")
async def player_ratings(name: Annotated[str, Path(max_length=200)], request: Request, accounts: AccountsDep,
                         lang: LangDep) -> PlayerRatingsOut:
    """A player's ratings in each game they played rated, each with its history; ``account.no_player`` (404) for
    a name nobody has."""
    found = await asyncio.to_thread(accounts.store.by_key, name_key(name))
    if found is None:
        raise ServerError("account.no_player", rule="U1", status=404, name=name[:40])
    account = found[0]
    store = _ratings(request).store
    rated = await asyncio.to_thread(store.of_account, account.id)
    history = {game_id: [RatingPoint(at=at.isoformat(), rating=shown, place=place)
                         for at, shown, place in await asyncio.to_thread(store.history, account.id, game_id)]
               for game_id, _ in rated}
    levels = {game_id: shown_levels(await asyncio.to_thread(store.levels, game_id)) for game_id, _ in rated}
    return PlayerRatingsOut(name=account.name, ratings=[rating_out(g, s) for g, s in rated], history=history,
                            levels={game_id: found for game_id, found in levels.items() if found})


def shown_levels(measured: list[LevelRating]) -> list[LevelOut]:
    """A game's calibrated levels as a profile shows them beside a person's rating (rule G5): those of the player
    count measured most (of equal ones the nearest to 3), the weakest first."""
    counts: dict[int, int] = {}
    for m in measured:
        counts[m.players] = counts.get(m.players, 0) + 1
    if not counts:
        return []
    players = min(counts, key=lambda n: (-counts[n], abs(n - 3), n))
    return [LevelOut(level=m.level, players=m.players, rating=m.skill.shown, spread=m.skill.spread)
            for m in sorted(measured, key=lambda m: m.skill.mu) if m.players == players]


@router.get("/leaderboard/{game}", response_model=LeaderboardOut)
async def leaderboard(game: Annotated[str, Path(max_length=32)], request: Request, who: WhoDep,
                      lang: LangDep) -> Response:
    """The game's top 100 accounts among those that played a rated game of it on one of the last 30 days (UTC) or
    today, the highest rating first, and the signed-in reader's own row; 404 ``server.not_found`` for a game nobody
    plays here. The rows are made into JSON once for as long as the process keeps the board (:meth:`Ratings.kept`):
    a page is that text and the reader's own row."""
    if game not in game_ids():
        raise HTTPException(404)
    ratings = _ratings(request)
    since = active_since(now())
    standings = ratings.kept(game, since, BOARD)
    if standings is None:
        standings = await asyncio.to_thread(ratings.board, game, since, BOARD)
    rows, text = _rendered(game, standings)
    you = None
    if who is not None:
        you = rows.get(who.account.name)  # among the top 100: its row as shown, no count of those above it
        if you is None:
            mine = await asyncio.to_thread(ratings.store.standing, game, who.account.id, since)
            if mine is not None:
                you = BoardRow(rank=mine[1], name=who.account.name, **rating_out(game, mine[0]).model_dump())
    head = json.dumps({"game": game, "since": since.isoformat()})[:-1].encode()  # without its closing brace
    mine_text = you.model_dump_json().encode() if you is not None else b"null"
    return Response(b'%s, "rows": %s, "you": %s}' % (head, text, mine_text), media_type="application/json")


_RENDERED: dict[str, tuple[list[Standing], dict[str, BoardRow], bytes]] = {}
"""Each game's board as last made into rows and JSON, with the list of standings it was made of (the same list
while a process keeps the board: :meth:`Ratings.kept`)."""
_ROWS = TypeAdapter(list[BoardRow])


def _rendered(game: str, standings: list[Standing]) -> tuple[dict[str, BoardRow], bytes]:
    """A board's rows by name, and as JSON (made again only when the standings are another list)."""
    kept = _RENDERED.get(game)
    if kept is not None and kept[0] is standings:
        return kept[1], kept[2]
    rows: list[BoardRow] = []
    for i, standing in enumerate(standings):
        tied = bool(rows) and rows[-1].rating == standing.skill.shown
        rows.append(BoardRow(rank=rows[-1].rank if tied else i + 1, name=standing.name,
                             **rating_out(game, standing.skill).model_dump()))
    by_name, text = {row.name: row for row in rows}, _ROWS.dump_json(rows)
    _RENDERED[game] = (standings, by_name, text)
    return by_name, text
