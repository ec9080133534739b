"""What turn-based tables keep in the database: the turn clocks (one row per table while a person is to move), the
seats a bot took for good, the games ended by a person's time, and how many turn-based games an account holds. Every
method is one short transaction (call them from a thread)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.storage import actions, seats, tables
from dreizehn.server.turns.hooks import TurnClock
from dreizehn.server.turns.schema import turn_clocks


@dataclass(frozen=True)
class Due:
    """A clock whose time ran out: its table, its version and the seat to move."""

    table_id: str
    version: int
    seat: int


def _utc(value: dt.datetime) -> dt.datetime:
    """A time read from the database in UTC (SQLite gives it back without its zone)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def _clock(row: sa.RowMapping) -> TurnClock:
    """A row of ``turn_clocks`` joined with its table's ``game_id``."""
    remind = row["remind_at"]
    return TurnClock(row["table_id"], row["game_id"], row["seat"], row["version"], row["account_id"],
                     _utc(row["started_at"]), _utc(row["due_at"]), None if remind is None else _utc(remind))


class Clocks:
    """The turn clocks and what the turn-based tables' rules change."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def get(self, table_id: str) -> TurnClock | None:
        """A table's clock, or ``None`` (no person is to move, or the table is not turn-based)."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(turn_clocks, tables.c.game_id)
                              .join(tables, tables.c.id == turn_clocks.c.table_id)
                              .where(turn_clocks.c.table_id == table_id)).mappings().first()
        return None if found is None else _clock(found)

    def last_action_at(self, table_id: str) -> dt.datetime | None:
        """When the table's latest action was stored (``None``: none yet)."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(sa.func.max(actions.c.at)).where(actions.c.table_id == table_id)).scalar()
        return None if found is None else _utc(found)

    def put(self, clock: TurnClock) -> bool:
        """Store ``clock`` as its table's, unless the table's stored clock is of a later version; whether a clock of
        a new version was stored (``False``: the same version's clock was there, and is kept as it was)."""
        values = {"seat": clock.seat, "version": clock.version, "account_id": clock.account_id,
                  "started_at": clock.started_at, "due_at": clock.due_at, "remind_at": clock.remind_at}
        with self.engine.begin() as c:
            done = c.execute(turn_clocks.update().where(turn_clocks.c.table_id == clock.table_id,
                                                        turn_clocks.c.version < clock.version).values(**values))
            if done.rowcount:
                return True
            there = c.execute(sa.select(turn_clocks.c.version).where(turn_clocks.c.table_id == clock.table_id)).first()
            if there is not None:
                return False
            c.execute(turn_clocks.insert().values(table_id=clock.table_id, **values))
            return True

    def clear(self, table_id: str, version: int) -> None:
        """No person is to move at ``version`` (a bot is, or the game is over): the table's clocks up to it go."""
        with self.engine.begin() as c:
            c.execute(turn_clocks.delete().where(turn_clocks.c.table_id == table_id,
                                                 turn_clocks.c.version <= version))

    def waiting(self) -> set[str]:
        """The tables whose person to move has a clock running (nothing moves there until they do or it fires)."""
        with self.engine.connect() as c:
            return set(c.execute(sa.select(turn_clocks.c.table_id)).scalars())

    def due(self, at: dt.datetime, limit: int) -> list[Due]:
        """The clocks run out at ``at``, the earliest first (at most ``limit``)."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(turn_clocks.c.table_id, turn_clocks.c.version, turn_clocks.c.seat)
                              .where(turn_clocks.c.due_at <= at).order_by(turn_clocks.c.due_at).limit(limit))
            return [Due(r.table_id, r.version, r.seat) for r in found]

    def take_reminders(self, at: dt.datetime, limit: int) -> list[TurnClock]:
        """The clocks whose reminder is due at ``at``, each taken by this call alone (its ``remind_at`` cleared in
        the statement that finds it taken: of two processes, one reminds)."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(turn_clocks, tables.c.game_id)
                              .join(tables, tables.c.id == turn_clocks.c.table_id)
                              .where(turn_clocks.c.remind_at <= at).order_by(turn_clocks.c.remind_at)
                              .limit(limit)).mappings().all()
        taken = []
        for row in found:
            with self.engine.begin() as c:
                done = c.execute(turn_clocks.update().where(
                    turn_clocks.c.table_id == row["table_id"], turn_clocks.c.version == row["version"],
                    turn_clocks.c.remind_at.is_not(None)).values(remind_at=None))
            if done.rowcount:
                taken.append(_clock(row))
        return taken

    def leave_seat(self, table_id: str, seat: int, bot: str, at: dt.datetime) -> None:
        """A bot (``bot``) takes a person's seat for the rest of the game; the seat stays bound to its account."""
        with self.engine.begin() as c:
            c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.bot.is_(None))
                      .values(bot=bot, left_at=at))

    def end_game(self, table_id: str, seat: int, version: int, at: dt.datetime) -> bool:
        """The game ends now with ``seat`` last (its person's time ran out at ``version``): whether this call ended
        it (``False``: an action was stored since, or it ended already)."""
        with self.engine.begin() as c:
            stored = c.execute(sa.select(sa.func.count()).select_from(actions)
                               .where(actions.c.table_id == table_id)).scalar()
            if stored != version:
                return False
            done = c.execute(tables.update().where(tables.c.id == table_id, tables.c.status != "finished")
                             .values(status="finished", finished_at=at, ended_seat=seat))
            c.execute(turn_clocks.delete().where(turn_clocks.c.table_id == table_id))
            return bool(done.rowcount)

    def names(self, account_ids: list[str]) -> dict[str, str]:
        """The user names of these accounts, by id."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(account_ids)))
            return {r.id: r.name for r in found}

    def turn_based(self, table_id: str) -> bool:
        """Whether the table is turn-based (``False`` for none)."""
        with self.engine.connect() as c:
            return c.execute(sa.select(tables.c.pace).where(tables.c.id == table_id)).scalar() == "turn-based"

    def held(self, account_id: str) -> int:
        """How many turn-based games not over the account holds a seat at (and has not left)."""
        with self.engine.connect() as c:
            return int(c.execute(
                sa.select(sa.func.count(sa.distinct(seats.c.table_id))).select_from(
                    seats.join(tables, tables.c.id == seats.c.table_id))
                .where(seats.c.account_id == account_id, seats.c.left_at.is_(None), seats.c.bot.is_(None),
                       tables.c.pace == "turn-based", tables.c.status != "finished")).scalar() or 0)
