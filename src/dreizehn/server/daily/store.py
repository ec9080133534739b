"""The daily deal's storage: the server's key, the plays of each deal (started with their table in one
transaction), their totals once over, and an account's days. Every method is one short transaction (call them from a
thread)."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.daily.schema import daily_plays, server_secrets
from dreizehn.server.storage import SeatRow, TableRow, seats, tables
from dreizehn.server.storage.schema import insert_into

KEY_NAME = "daily"


@dataclass(frozen=True)
class Deal:
    """One deal of a day: the day (UTC), the game, the player count."""

    day: dt.date
    game_id: str
    players: int


@dataclass(frozen=True)
class Play:
    """A play of a deal: its table, the account's name (``None``: a guest), the person's total once over."""

    table_id: str
    name: str | None
    account_id: str | None
    total: int | None
    finished_at: dt.datetime | None


class DailyStore:
    """The daily deal's tables on the server's database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def key(self) -> bytes:
        """The server's key of the daily deals: made at the first start (of any process) and kept."""
        with self.engine.begin() as c:
            c.execute(insert_into(server_secrets, c.dialect.name)
                      .values(name=KEY_NAME, value=secrets.token_hex(32)).on_conflict_do_nothing())
            value = c.execute(sa.select(server_secrets.c.value).where(server_secrets.c.name == KEY_NAME)).scalar_one()
        return bytes.fromhex(value)

    def start(self, deal: Deal, row: TableRow, seat_rows: Sequence[SeatRow], token_hashes: Sequence[str | None],
              spectator_hash: str, account_id: str | None) -> bool:
        """Store a play's table (seat 0 the person's, bound to ``account_id``) and the play, in one transaction;
        ``False`` (nothing stored) where the account has played this deal already."""
        try:
            with self.engine.begin() as c:
                c.execute(tables.insert().values(
                    id=row.id, game_id=row.game_id, players=row.players, options=row.options, seed=row.seed,
                    package_version=row.package_version, status=row.status, spectator_hash=spectator_hash,
                    clock=row.clock, created_at=row.created_at, rated=False))
                c.execute(seats.insert(), [
                    {"table_id": row.id, "seat": s.seat, "name": s.name, "bot": s.bot, "token_hash": h,
                     "joined": s.joined, "account_id": account_id if s.seat == 0 else None}
                    for s, h in zip(seat_rows, token_hashes, strict=True)])
                c.execute(daily_plays.insert().values(table_id=row.id, day=deal.day, game_id=deal.game_id,
                                                      players=deal.players, account_id=account_id))
        except sa.exc.IntegrityError:
            return False
        return True

    def play_of(self, deal: Deal, account_id: str) -> str | None:
        """The table of an account's play of a deal, if it has one."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(daily_plays.c.table_id).where(*_of(deal),
                                                                      daily_plays.c.account_id == account_id)).scalar()
            return None if found is None else str(found)

    def deal_of(self, table_id: str) -> Deal | None:
        """The deal a table plays, or ``None`` for a table that is no daily deal's."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(daily_plays.c.day, daily_plays.c.game_id, daily_plays.c.players)
                              .where(daily_plays.c.table_id == table_id)).first()
            return None if found is None else Deal(found.day, found.game_id, found.players)

    def plays(self, deal: Deal) -> list[Play]:
        """Every play of a deal, the finished ones with their totals."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(daily_plays.c.table_id, accounts.c.name, daily_plays.c.account_id,
                                       daily_plays.c.total, daily_plays.c.finished_at, tables.c.status)
                             .join(tables, tables.c.id == daily_plays.c.table_id)
                             .outerjoin(accounts, accounts.c.id == daily_plays.c.account_id)
                             .where(*_of(deal)).order_by(daily_plays.c.table_id)).all()
            return [Play(r.table_id, r.name, r.account_id, r.total, r.finished_at) for r in rows]

    def unsettled(self, deal: Deal) -> list[str]:
        """The finished games of a deal whose total is not stored yet."""
        with self.engine.connect() as c:
            return list(c.execute(sa.select(daily_plays.c.table_id)
                                  .join(tables, tables.c.id == daily_plays.c.table_id)
                                  .where(*_of(deal), daily_plays.c.total.is_(None),
                                         tables.c.status == "finished")).scalars())

    def settle(self, table_id: str, total: int, finished_at: dt.datetime | None) -> None:
        with self.engine.begin() as c:
            c.execute(daily_plays.update().where(daily_plays.c.table_id == table_id)
                      .values(total=total, finished_at=finished_at))

    def days(self, account_id: str, limit: int = 400) -> list[tuple[Deal, str, int | None]]:
        """An account's plays, the newest first: the deal, the table, the total (``None`` while it is played)."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(daily_plays).where(daily_plays.c.account_id == account_id)
                             .order_by(daily_plays.c.day.desc(), daily_plays.c.game_id).limit(limit)).all()
            return [(Deal(r.day, r.game_id, r.players), r.table_id, r.total) for r in rows]


def _of(deal: Deal) -> tuple[sa.ColumnElement[bool], ...]:
    return (daily_plays.c.day == deal.day, daily_plays.c.game_id == deal.game_id,
            daily_plays.c.players == deal.players)
