"""A player's home (issue 45 item 4): the games of an account's seats, in progress and finished, and the statistics
of its finished games, read from the database (call from a thread). The routes (:mod:`dreizehn.server.routes.players`)
put the answers together: what is public (``/api/players/{name}``) is finished games and statistics alone.

**Games left to bots** (:attr:`Sitting.left`): a finished game whose seat of the player a bot played at its end: a
bot took the seat for good (``seats.left_at``), or its last move was chosen by the stand-in, the bot that plays for
a person who is away (``actions.by == "stand-in"``): the player was not there when their part of the game ended. A
game some person left so was **finished by bots** (:attr:`Sitting.by_bots`; :mod:`dreizehn.server.storage.listing`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.accounts.names import name_key
from dreizehn.server.accounts.schema import accounts
from dreizehn.server.storage import TUTORIAL_PREFIX, SeatRow, TableRow, seats, tables
from dreizehn.server.storage.listing import left_seats
from dreizehn.server.storage.rows import table_row
from dreizehn.server.storage.seating import seat_row

PLAYING_LIMIT = FINISHED_LIMIT = 50
"""At most this many games in progress and finished games in ``/api/me``."""
PUBLIC_LIMIT = 20
"""At most this many finished games in ``/api/players/{name}``."""


@dataclass(frozen=True)
class Sitting:
    """One seat of an account at a table: the table, all its seats, the user names of the accounts they are bound
    to (by account id), whether the player left the game to a bot and whether bots finished it (finished games
    only)."""

    row: TableRow
    seats: tuple[SeatRow, ...]
    accounts: dict[str, str]
    seat: int
    left: bool = False
    by_bots: bool = False


class HomeStore:
    """The queries of a player's home on the server's database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def account(self, name: str) -> tuple[str, str, dt.datetime] | None:
        """The account of a user name (in any case): its id, its name as shown, when it was made."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.created_at)
                              .where(accounts.c.name_key == name_key(name))).first()
            return None if found is None else (found.id, found.name, found.created_at)

    def sittings(self, account_id: str, finished: bool, limit: int | None) -> list[Sitting]:
        """The account's seats at tables in progress (the newest first) or finished (the latest ended first), at
        most ``limit`` (``None``: all); tutorials left out."""
        statuses = ("finished",) if finished else ("open", "playing")
        order = (tables.c.finished_at.desc(), tables.c.created_at.desc()) if finished else (
            tables.c.created_at.desc(),)
        query = (sa.select(tables, seats.c.seat.label("my_seat"))
                 .join(seats, seats.c.table_id == tables.c.id)
                 .where(seats.c.account_id == account_id, tables.c.status.in_(statuses),
                        tables.c.id.not_like(f"{TUTORIAL_PREFIX}%"))
                 .order_by(*order, seats.c.seat))
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as c:
            found = c.execute(query).mappings().all()
            ids = sorted({f["id"] for f in found})
            all_seats: dict[str, list[SeatRow]] = {}
            names: dict[str, str] = {}
            for chunk in _chunks(ids):
                for r in c.execute(sa.select(seats, accounts.c.name.label("account_name"))
                                   .outerjoin(accounts, accounts.c.id == seats.c.account_id)
                                   .where(seats.c.table_id.in_(chunk)).order_by(seats.c.table_id, seats.c.seat)):
                    all_seats.setdefault(r.table_id, []).append(seat_row(r))
                    if r.account_id is not None:
                        names[r.account_id] = r.account_name
            left = left_seats(c, ids) if finished else set()
        by_bots = {table_id for table_id, _ in left}
        return [Sitting(table_row(f), tuple(all_seats.get(f["id"], ())), names, int(f["my_seat"]),
                        (f["id"], int(f["my_seat"])) in left, f["id"] in by_bots) for f in found]


def _chunks(ids: list[str], size: int = 500) -> list[list[str]]:
    """Ids in groups small enough for one ``IN`` of every database."""
    return [ids[i:i + size] for i in range(0, len(ids), size)]
