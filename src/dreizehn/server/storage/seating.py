"""Tables, their seats and their invitation tokens (stored hashed): made, joined, listed, and loaded with their
log to be played."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.storage.listing import Page, TableQuery, list_tables
from dreizehn.server.storage.rows import SeatRow, Stored, TableRow, hash_token, table_row
from dreizehn.server.storage.schema import actions, seats, tables


def seat_row(r: Any) -> SeatRow:
    """A stored seat's row (a row of :data:`seats`) as a :class:`SeatRow`."""
    return SeatRow(r.seat, r.name, r.bot, r.joined, r.account_id, bool(r.former), r.left_at)


@dataclass(frozen=True)
class TokenSeat:
    """The seat an invitation token opens: its table, its number, the account it is bound to (rule U7) and whether
    a person took it."""

    table_id: str
    seat: int
    account_id: str | None
    joined: bool


def _free_for(account_id: str | None) -> Any:
    """The seats a person may take: those bound to nobody, and (signed in) those bound to their own account."""
    if account_id is None:
        return seats.c.account_id.is_(None)
    return sa.or_(seats.c.account_id.is_(None), seats.c.account_id == account_id)


class Tables:
    """The tables and their seats; every method is one short transaction (call them from a thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, row: TableRow, seat_rows: Sequence[SeatRow], token_hashes: Sequence[str | None],
               spectator_hash: str) -> None:
        """Store a new table with its seats."""
        with self.engine.begin() as c:
            c.execute(tables.insert().values(
                id=row.id, game_id=row.game_id, players=row.players, options=row.options, seed=row.seed,
                package_version=row.package_version, status=row.status, spectator_hash=spectator_hash,
                clock=row.clock, rematch_of=row.rematch_of, created_at=row.created_at, rated=row.rated,
                pace=row.pace, move_time=row.move_time, on_timeout=row.on_timeout, private=row.private,
            ))
            c.execute(seats.insert(), [
                {"table_id": row.id, "seat": s.seat, "name": s.name, "bot": s.bot, "token_hash": h, "joined": s.joined,
                 "account_id": s.account_id}
                for s, h in zip(seat_rows, token_hashes, strict=True)
            ])

    def load(self, table_id: str) -> Stored | None:
        """A table with its seats and actions, or ``None``."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(tables).where(tables.c.id == table_id)).mappings().first()
            if found is None:
                return None
            seat_rows = c.execute(sa.select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
            log = c.execute(sa.select(actions.c.seat, actions.c.action, actions.c.by)
                            .where(actions.c.table_id == table_id).order_by(actions.c.seq))
            return Stored(
                table_row(found),
                tuple(seat_row(r) for r in seat_rows),
                tuple((r.seat, r.action, r.by) for r in log),
            )

    def seat_of_token(self, token: str) -> tuple[str, int] | None:
        """The (table, seat) an invitation token opens."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(seats.c.table_id, seats.c.seat)
                              .where(seats.c.token_hash == hash_token(token))).first()
            return None if found is None else (found.table_id, found.seat)

    def token_seat(self, token: str) -> TokenSeat | None:
        """The seat an invitation token opens, with the account it is bound to."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(seats.c.table_id, seats.c.seat, seats.c.account_id, seats.c.joined)
                              .where(seats.c.token_hash == hash_token(token))).first()
            return None if found is None else TokenSeat(found.table_id, found.seat, found.account_id,
                                                         bool(found.joined))

    def seat(self, table_id: str, seat: int) -> SeatRow | None:
        """One seat of a table, or ``None``."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(seats).where(seats.c.table_id == table_id, seats.c.seat == seat)).first()
            return None if found is None else seat_row(found)

    def claim(self, token_hashes: Sequence[str], account_id: str) -> int:
        """Bind to an account the seats of these tokens (hashed) that a person took and that are bound to nobody
        (a guest's seats, when the guest signs up or in: rule U7); how many were bound. One statement: a seat bound
        meanwhile to another account stays theirs."""
        if not token_hashes:
            return 0
        with self.engine.begin() as c:
            done = c.execute(seats.update().where(
                seats.c.token_hash.in_(list(token_hashes)), seats.c.account_id.is_(None), seats.c.bot.is_(None),
                seats.c.joined.is_(True), seats.c.former.is_(False)).values(account_id=account_id))
            return int(done.rowcount)

    def spectator_ok(self, table_id: str, token: str) -> bool:
        with self.engine.connect() as c:
            found = c.execute(sa.select(tables.c.spectator_hash).where(tables.c.id == table_id)).scalar()
            return found is not None and secrets.compare_digest(found, hash_token(token))

    def join(self, table_id: str, seat: int, name: str) -> bool:
        """Give a person's seat a name; returns whether every person's seat is now taken."""
        with self.engine.begin() as c:
            c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat)
                      .values(name=name, joined=True))
            waiting = c.execute(sa.select(sa.func.count()).select_from(seats).where(
                seats.c.table_id == table_id, seats.c.joined.is_(False))).scalar()
            return not waiting

    def take_seat(self, table_id: str, seat: int, name: str, account_id: str | None = None) -> bool:
        """Give a person's seat not taken yet a name (and, signed in, bind it to ``account_id``: rule U7); whether it
        was taken now (``False``: it was taken before, and keeps its name, or it is bound to another account). One
        statement: of two people joining at once, one gets the seat."""
        values: dict[str, Any] = {"name": name, "joined": True}
        if account_id is not None:
            values["account_id"] = account_id
        with self.engine.begin() as c:
            done = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                  seats.c.joined.is_(False), _free_for(account_id))
                             .values(**values))
            return bool(done.rowcount)

    def take_free_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                       account_id: str | None = None) -> bool:
        """Give a free person's seat (not a bot's, not taken yet, bound to nobody else) a name and a new token, as a
        person who takes it from the list of tables (signed in: bound to ``account_id``); whether it was taken now.
        The seat's invitation no longer opens it: whoever had that link does not see the new player's hand. One
        statement: of two people taking it at once, one gets it."""
        values: dict[str, Any] = {"name": name, "joined": True, "token_hash": token_hash}
        if account_id is not None:
            values["account_id"] = account_id
        with self.engine.begin() as c:
            done = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                  seats.c.bot.is_(None), seats.c.joined.is_(False),
                                                  _free_for(account_id))
                             .values(**values))
            return bool(done.rowcount)

    def listing(self, query: TableQuery) -> Page:
        """A page of the list of tables (:mod:`.listing`)."""
        return list_tables(self.engine, query)

    def playing(self) -> list[str]:
        """The ids of the tables to take up after a restart: those being played, and those not begun that seat a
        bot (whose first move may be a bot's, which nobody else would wake)."""
        has_bot = sa.exists().where(seats.c.table_id == tables.c.id, seats.c.bot.is_not(None))
        moving = sa.or_(tables.c.status == "playing", sa.and_(tables.c.status == "open", has_bot))
        with self.engine.connect() as c:
            return list(c.execute(sa.select(tables.c.id).where(moving)).scalars())

    def set_token(self, table_id: str, seat: int, token_hash: str) -> None:
        """Give a person's seat a new token (the old one stops working)."""
        with self.engine.begin() as c:
            c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat)
                      .values(token_hash=token_hash))

    def issue_token(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give a person's seat its token if it has none yet (a rematch's invitation not given when the rematch
        began); whether it was given now. A token given stays the seat's."""
        with self.engine.begin() as c:
            done = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                  seats.c.bot.is_(None), seats.c.token_hash.is_(None))
                             .values(token_hash=token_hash))
            return bool(done.rowcount)

    def set_rematch(self, table_id: str, rematch: str) -> None:
        with self.engine.begin() as c:
            c.execute(tables.update().where(tables.c.id == table_id).values(rematch=rematch))

    # -- analyses of finished games (dreizehn.server.analysis) ----------------------------------------------------
