"""``/api/ratings/{name}`` and ``/api/leaderboard/{game}``: a player's ratings with their history, and a game's board
of active players (rules G1, G4; docs/ratings.md)."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Request

from dreizehn.core.registry import game_ids
from dreizehn.server.accounts.names import name_key
from dreizehn.server.ratings.model import LevelRating, Skill
from dreizehn.server.ratings.service import Ratings
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import AccountsDep, LangDep, WhoDep
from dreizehn.server.schemas import BoardRow, LeaderboardOut, LevelOut, PlayerRatingsOut, RatingOut, RatingPoint
from dreizehn.server.storage import now

router = APIRouter(prefix="/api", tags=["ratings"])
ACTIVE = dt.timedelta(days=30)
"""A player is on a game's board while their last rated game of it is at most this old."""
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


@router.get("/leaderboard/{game}")
async def leaderboard(game: Annotated[str, Path(max_length=32)], request: Request, who: WhoDep,
                      lang: LangDep) -> LeaderboardOut:
    """The game's top 100 accounts among those that played a rated game of it in the last 30 days, the highest
    rating first, and the signed-in reader's own row; 404 ``server.not_found`` for a game nobody plays here."""
    if game not in game_ids():
        raise HTTPException(404)
    store = _ratings(request).store
    since = now() - ACTIVE
    standings = await asyncio.to_thread(store.board, game, since, BOARD)
    rows, last = [], None
    for i, standing in enumerate(standings):
        rank = rows[-1].rank if last == standing.skill.shown and rows else i + 1
        last = standing.skill.shown
        rows.append(BoardRow(rank=rank, name=standing.name, **rating_out(game, standing.skill).model_dump()))
    you = None
    if who is not None:
        on_board = [row for row in rows if row.name == who.account.name]
        if on_board:  # among the top 100: its row as shown, no count of those above it
            you = on_board[0]
        else:
            mine = dict(await asyncio.to_thread(store.of_account, who.account.id)).get(game)
            place = await asyncio.to_thread(store.rank, game, who.account.id, since)
            if mine is not None and place is not None:
                you = BoardRow(rank=place, name=who.account.name, **rating_out(game, mine).model_dump())
    return LeaderboardOut(game=game, since=since.isoformat(), rows=rows, you=you)
