"""``/api/me`` and ``/api/players/{name}``: a player's home (issue 45 item 4; rule U7). ``/api/me`` is the signed-in
account's own: its games in progress (their move first), its finished games with their results and replays, and its
statistics per game. ``/api/players/{name}`` is another player's public part: statistics and finished games alone (a
finished game's replay is public), never a game in progress nor a token."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Annotated

from fastapi import APIRouter, Path, Response

from dreizehn.core.errors import DreizehnError
from dreizehn.core.registry import game_class
from dreizehn.server.accounts.home import FINISHED_LIMIT, PLAYING_LIMIT, PUBLIC_LIMIT, HomeStore, Sitting
from dreizehn.server.accounts.seats import seat_path
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms import build_table, seat_names
from dreizehn.server.routes.deps import HubDep, LangDep, SignedInDep, WhoDep
from dreizehn.server.routes.tables import final_scores
from dreizehn.server.schemas import GameStats, MeOut, MyGame, PlayerAt, PlayerOut

router = APIRouter(prefix="/api", tags=["players"])


def _players(sitting: Sitting, lang: str) -> list[PlayerAt]:
    names = seat_names(list(sitting.seats), lang)
    return [PlayerAt(name=names[s.seat], account=sitting.accounts.get(s.account_id) if s.account_id else None,
                     bot=s.bot, former=s.former) for s in sitting.seats]


async def _to_move(hub: HubDep, table_id: str) -> int | None:
    """The seat to move at a table in progress (``None``: nobody, the game is over): from its room here, else
    rebuilt from the database."""
    room = hub.rooms.get(table_id)
    if room is not None:
        table = room.state.table
    else:
        stored = await asyncio.to_thread(hub.store.tables.load, table_id)
        if stored is None:
            return None
        table = await asyncio.to_thread(build_table, stored)
    return None if table.is_over else table.current_player


async def _playing(hub: HubDep, sitting: Sitting, lang: str) -> MyGame:
    me = sitting.seats[sitting.seat] if sitting.seat < len(sitting.seats) else None
    deadline = None
    if sitting.row.turn_based:  # whose turn is its clock's (no game rebuilt), and until when
        clock = await asyncio.to_thread(hub.clocks.get, sitting.row.id)
        your_turn = clock is not None and clock.seat == sitting.seat
        deadline = clock.due_at.isoformat() if clock is not None else None
    else:
        your_turn = await _to_move(hub, sitting.row.id) == sitting.seat
    return MyGame(table=sitting.row.id, game=sitting.row.game_id, seat=sitting.seat, players=_players(sitting, lang),
                  status=sitting.row.status,  # type: ignore[arg-type]
                  your_turn=your_turn, invited=me is not None and not me.joined, totals=None, won=None,
                  created_at=sitting.row.created_at.isoformat(), finished_at=None,
                  url=seat_path(sitting.row.id, sitting.seat),
                  pace=sitting.row.pace, deadline=deadline)  # type: ignore[arg-type]


async def _finished(hub: HubDep, sitting: Sitting, lang: str) -> MyGame:
    final = await final_scores(hub, sitting.row.id)
    totals, winners = final if final is not None else (None, None)
    return MyGame(table=sitting.row.id, game=sitting.row.game_id, seat=sitting.seat, players=_players(sitting, lang),
                  status="finished", your_turn=False, invited=False, totals=totals,
                  won=None if winners is None else sitting.seat in winners,
                  created_at=sitting.row.created_at.isoformat(),
                  finished_at=sitting.row.finished_at.isoformat() if sitting.row.finished_at else None,
                  url=f"/replay/{sitting.row.id}", by_bots=sitting.by_bots)


def _high_wins(game_id: str) -> bool:
    try:
        return bool(game_class(game_id).high_score_wins)
    except DreizehnError:
        return True


def stats(games: list[MyGame], left: dict[str, int]) -> list[GameStats]:
    """Statistics per game of finished games (those with totals), in the order of the games' ids; ``left``: games
    left to bots per game."""
    by_game: dict[str, list[MyGame]] = defaultdict(list)
    for game in games:
        by_game[game.game].append(game)
    out = []
    for game_id in sorted(by_game):
        scores = [g.totals[g.seat] for g in by_game[game_id] if g.totals is not None and g.seat < len(g.totals)]
        best = (max(scores) if _high_wins(game_id) else min(scores)) if scores else None
        out.append(GameStats(game=game_id, games=len(by_game[game_id]), wins=sum(bool(g.won) for g in by_game[game_id]),
                             average=round(sum(scores) / len(scores), 2) if scores else None, best=best,
                             left_to_bots=left.get(game_id, 0)))
    return out


async def _stats(hub: HubDep, home: HomeStore, account_id: str, lang: str,
                 reader: str | None = None) -> tuple[list[GameStats], list[MyGame]]:
    """The statistics of every finished game of an account, and its finished games, the latest first: of a private
    table only if ``reader`` (an account id; the account itself when it is ``None``) sat there too."""
    sittings = await asyncio.to_thread(home.sittings, account_id, True, None)
    finished = [await _finished(hub, s, lang) for s in sittings]
    left: dict[str, int] = defaultdict(int)
    for s in sittings:
        left[s.row.game_id] += s.left
    reader = account_id if reader is None else reader
    shown = [game for s, game in zip(sittings, finished, strict=True) if _shown(s, reader)]
    return stats(finished, left), shown


def _shown(sitting: Sitting, reader: str) -> bool:
    """Whether a finished game is listed to a reader (an account id, ``""`` for a guest): a private table to those
    who sat there alone."""
    return not sitting.row.private or any(s.account_id == reader for s in sitting.seats)


@router.get("/me")
async def get_me(who: SignedInDep, hub: HubDep, response: Response, lang: LangDep) -> MeOut:
    """The signed-in account's home: its games in progress (those whose next move is its first, then the newest),
    its finished games (the newest first) with their results and replays' links, and its statistics per game;
    ``account.signed_out`` (401) for a guest. Only the account's own seats are listed: never another's."""
    response.headers["Cache-Control"] = "no-store"
    home = HomeStore(hub.store.engine)
    sittings = await asyncio.to_thread(home.sittings, who.account.id, False, PLAYING_LIMIT)
    playing = [await _playing(hub, s, lang) for s in sittings]
    playing.sort(key=lambda g: not g.your_turn)  # stable: the newest first among each
    game_stats, finished = await _stats(hub, home, who.account.id, lang)
    return MeOut(name=who.account.name, playing=playing, finished=finished[:FINISHED_LIMIT], stats=game_stats)


@router.get("/players/{name}")
async def get_player(name: Annotated[str, Path(max_length=64)], hub: HubDep, lang: LangDep,
                     who: WhoDep) -> PlayerOut:
    """Another player's public part: since when they play, their statistics per game and their last finished games
    (each with its replay's link; a private table's only to a reader who sat there too: its statistics count it).
    Nothing of a game in progress, no token. A name no account has is refused
    (``account.no_player``, 404)."""
    home = HomeStore(hub.store.engine)
    found = await asyncio.to_thread(home.account, name)
    if found is None:
        raise ServerError("account.no_player", rule="U1", status=404, name=name[:40])
    account_id, shown, since = found
    game_stats, finished = await _stats(hub, home, account_id, lang, who.account.id if who is not None else "")
    return PlayerOut(name=shown, since=since.date().isoformat(), stats=game_stats, finished=finished[:PUBLIC_LIMIT])
