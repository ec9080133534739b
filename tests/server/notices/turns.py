"""Tools of the notices' tests: turn-based tables with seats bound to accounts and their turn clocks, written
straight into the database (the turn-based core that writes them is tested on its own), and the hooks it calls."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.notices.service import Notices
from dreizehn.server.storage import now, seats, tables
from dreizehn.server.turns.hooks import TurnClock
from dreizehn.server.turns.schema import turn_clocks


def engine(client: TestClient) -> sa.Engine:
    found: sa.Engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    return found


def notices(client: TestClient) -> Notices:
    found: Notices = client.app.state.notices  # type: ignore[attr-defined]
    return found


def _engine(client: TestClient | sa.Engine) -> sa.Engine:
    return client if isinstance(client, sa.Engine) else engine(client)


def account_id(client: TestClient | sa.Engine, name: str) -> str:
    with _engine(client).connect() as c:
        return str(c.execute(sa.select(accounts.c.id).where(accounts.c.name == name)).scalar_one())


def turn_table(client: TestClient | sa.Engine, players: list[str], to_move: int = 0, game: str = "three-thirteen",
               left: dt.timedelta = dt.timedelta(hours=5), version: int = 3) -> TurnClock:
    """A turn-based table whose seats are bound to the accounts named in ``players`` (``"bot:Name"``: a bot's
    seat), the seat ``to_move`` to move, its time running out in ``left``; its clock row stored and returned."""
    table_id = "t" + secrets.token_hex(8)
    stamp = now()
    ids: dict[int, str | None] = {}
    rows: list[dict[str, Any]] = []
    for seat, who in enumerate(players):
        bot = who.startswith("bot:")
        ids[seat] = None if bot else account_id(client, who)
        rows.append({"table_id": table_id, "seat": seat, "name": who.removeprefix("bot:"), "bot": "medium" if bot
                     else None, "token_hash": None, "joined": True, "account_id": ids[seat]})
    clock = TurnClock(table_id, game, to_move, version, ids[to_move], stamp, stamp + left, stamp + left / 2)
    with _engine(client).begin() as c:
        c.execute(tables.insert().values(id=table_id, game_id=game, players=len(players), options={}, seed=7,
                                         package_version="test", status="playing", spectator_hash="x" * 64,
                                         clock=0.0, created_at=stamp, rated=False, pace="turn-based",
                                         move_time=int(left.total_seconds()), on_timeout="move"))
        c.execute(seats.insert(), rows)
        c.execute(turn_clocks.insert().values(table_id=table_id, seat=to_move, version=version,
                                              account_id=ids[to_move], started_at=stamp, due_at=clock.due_at,
                                              remind_at=clock.remind_at))
    return clock


def move_on(client: TestClient, clock: TurnClock, to_move: int, left: dt.timedelta) -> TurnClock:
    """The table's turn passes to seat ``to_move`` (the next version), as the turn-based core writes it."""
    with engine(client).begin() as c:
        account = c.execute(sa.select(seats.c.account_id).where(seats.c.table_id == clock.table_id,
                                                                seats.c.seat == to_move)).scalar_one()
        stamp = now()
        moved = TurnClock(clock.table_id, clock.game_id, to_move, clock.version + 1, account, stamp, stamp + left,
                          None)
        c.execute(turn_clocks.update().where(turn_clocks.c.table_id == clock.table_id)
                  .values(seat=to_move, version=moved.version, account_id=account, started_at=stamp,
                          due_at=moved.due_at, remind_at=None))
    return moved


def end(client: TestClient, clock: TurnClock) -> None:
    with engine(client).begin() as c:
        c.execute(turn_clocks.delete().where(turn_clocks.c.table_id == clock.table_id))
        c.execute(tables.update().where(tables.c.id == clock.table_id).values(status="finished"))
