"""Tables, their seats and their invitation tokens (stored hashed): made, joined, listed, and loaded with their
log to be played."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.storage.rows import DAILY_PREFIX, TUTORIAL_PREFIX, SeatRow, Stored, TableRow, hash_token, table_row
from dreizehn.server.storage.schema import actions, seats, tables


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
            ))
            c.execute(seats.insert(), [
                {"table_id": row.id, "seat": s.seat, "name": s.name, "bot": s.bot, "token_hash": h, "joined": s.joined}
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
                tuple(SeatRow(r.seat, r.name, r.bot, r.joined) for r in seat_rows),
                tuple((r.seat, r.action, r.by) for r in log),
            )

    def seat_of_token(self, token: str) -> tuple[str, int] | None:
        """The (table, seat) an invitation token opens."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(seats.c.table_id, seats.c.seat)
                              .where(seats.c.token_hash == hash_token(token))).first()
            return None if found is None else (found.table_id, found.seat)

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

    def take_seat(self, table_id: str, seat: int, name: str) -> bool:
        """Give a person's seat not taken yet a name; whether it was taken now (``False``: it was taken before, and
        keeps its name). One statement: of two people joining at once, one gets the seat."""
        with self.engine.begin() as c:
            done = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                  seats.c.joined.is_(False))
                             .values(name=name, joined=True))
            return bool(done.rowcount)

    def take_free_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Give a free person's seat (not a bot's, not taken yet) a name and a new token, as a person who takes it
        from the list of tables; whether it was taken now. The seat's invitation no longer opens it: whoever had
        that link does not see the new player's hand. One statement: of two people taking it at once, one gets it."""
        with self.engine.begin() as c:
            done = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                  seats.c.bot.is_(None), seats.c.joined.is_(False))
                             .values(name=name, joined=True, token_hash=token_hash))
            return bool(done.rowcount)

    def listing(self, status: Sequence[str], limit: int = 50) -> list[tuple[TableRow, tuple[SeatRow, ...]]]:
        """Tables of the given statuses, newest first, with their seats; tutorials' and daily deals' tables left
        out."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(tables).where(tables.c.status.in_(status),
                                                     tables.c.id.not_like(f"{TUTORIAL_PREFIX}%"),
                                                     tables.c.id.not_like(f"{DAILY_PREFIX}%"))
                             .order_by(tables.c.created_at.desc()).limit(limit)).mappings().all()
            out = []
            for found in rows:
                seat_rows = c.execute(sa.select(seats).where(seats.c.table_id == found["id"]).order_by(seats.c.seat))
                out.append((table_row(found), tuple(SeatRow(r.seat, r.name, r.bot, r.joined) for r in seat_rows)))
            return out

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
