"""``/api/learn/{game}``: a game's tutorial (dreizehn.play.tutorial), a first game on a fixed deal that teaches its
rules
on the table page: its steps, and a new table on its deal with its bots."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Annotated

from fastapi import APIRouter, Path, Request

from dreizehn.bots.levels import name_bot_seats
from dreizehn.core.errors import DreizehnError
from dreizehn.core.registry import load_game
from dreizehn.play.tutorial import Tutorial, load_tutorial
from dreizehn.server.refusals import ServerError
from dreizehn.server.routes.deps import HubDep, LangDep, SettingsDep
from dreizehn.server.routes.tables import _link, _new_table
from dreizehn.server.schemas import Invitation, LearnIn, TutorialOut
from dreizehn.server.storage import TUTORIAL_PREFIX, hash_token
from dreizehn.server.text import person_text

router = APIRouter(prefix="/api/learn", tags=["learn"])
GameId = Annotated[str, Path(max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


def _tutorial(game: str) -> Tutorial:
    try:
        found = load_tutorial(game)
    except DreizehnError:  # an unknown game has no tutorial either
        found = None
    if found is None:
        raise ServerError("server.no_tutorial", rule="A1", status=404, game=game)
    return found


@router.get("/{game}")
def tutorial_steps(game: GameId, lang: LangDep) -> TutorialOut:
    """The game's tutorial: the person's seat and the steps the table page follows. A game without one is refused
    (``server.no_tutorial``, 404)."""
    found = _tutorial(game)
    return TutorialOut(**found.to_json())


@router.post("/{game}", status_code=201)
async def learn(game: GameId, body: LearnIn, request: Request, hub: HubDep, settings: SettingsDep,
                lang: LangDep) -> Invitation:
    """A new table on the game's tutorial deal: the person's seat (joined under ``name``) and the tutorial's bots,
    whose moves are the same each time. Answers the person's invitation (its page is ``/learn/{game}/{token}``)."""
    found = _tutorial(game)
    name = person_text(body.name, "name")
    if not name:
        raise ServerError("server.empty_name", rule="S2", status=422)
    bots = [seat != found.seat for seat in range(found.players)]
    named = name_bot_seats([None if bot else name for bot in bots], bots)
    seats = [(str(given), found.level if bot else None, True) for given, bot in zip(named, bots, strict=True)]
    options = dict(load_game(game, found.players, found.options).options)
    row, seat_rows, tokens, spectator = _new_table(game, options, seats, 0)
    row = dataclasses.replace(row, id=TUTORIAL_PREFIX + row.id, seed=found.seed)  # not listed among the tables
    await asyncio.to_thread(hub.store.tables.create, row, seat_rows, [t and hash_token(t) for t in tokens],
                            hash_token(spectator))
    room = await hub.room(row.id)
    if room is not None:
        room.after_change()
    token = str(tokens[found.seat])
    return Invitation(seat=found.seat, token=token, url=_link(request, settings.public_url, f"/learn/{game}/{token}"))
