"""The list of tables (``GET /api/tables``, issue 46 item 5) and the honest results of finished games (item 4).

**The list.** Tables of one status (``open``: a person's seat still free; ``playing``: every seat taken; ``finished``),
of one game or all, everyone's or the caller's own, the caller's own first, then the newest (a finished game by the
time it ended). Tutorials' and daily deals' tables are never listed; a **private** table is listed (and counted) to
the accounts bound to its seats alone. Pages follow a **cursor**: the sort key of the last table of a page (mine
first, then the time, then the id), so that tables made, joined or finished meanwhile never shift a table onto two
pages nor push one off the pages still to come: a table that sorts before the cursor (a newer one) is not listed
again, one after it is listed once. A page is one query for the tables, one for their seats, one for the seats left
to bots (finished tables) and one to count the tables of the whole list, whatever the page's length.

**Finished by bots.** A finished table was finished by bots when a person's seat was played by a bot at its end:
the seat has ``left_at`` (a bot took it for good) or its last action was the stand-in's (``actions.by ==
"stand-in"``: the person was away when the game ended). Its account left that game to bots.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.storage.rows import DAILY_PREFIX, TUTORIAL_PREFIX, SeatRow, TableRow, left_to_bots, table_row
from dreizehn.server.storage.schema import actions, seats, tables

Status = Literal["open", "playing", "finished"]


@dataclass(frozen=True)
class Cursor:
    """Where a page ends: the sort key of its last table (whether it is the caller's, the time it is sorted by, its
    id). Given back as an opaque text (:meth:`text`)."""

    mine: int
    at: dt.datetime
    table_id: str

    def text(self) -> str:
        raw = json.dumps([self.mine, self.at.isoformat(), self.table_id], separators=(",", ":"))
        return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")

    @staticmethod
    def read(text: str) -> Cursor | None:
        """A cursor from its text; ``None`` for a text that is no cursor."""
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            mine, at, table_id = json.loads(raw)
            if type(mine) is not int or mine not in (0, 1) or not isinstance(table_id, str) or len(table_id) > 24:
                return None
            return Cursor(mine, dt.datetime.fromisoformat(at), table_id)
        except (binascii.Error, UnicodeDecodeError, TypeError, ValueError):  # json's errors are ValueErrors too
            return None


@dataclass(frozen=True)
class TableQuery:
    """What a page of the list asks for: the status, a game (``None``: every game), the caller's account (``None``:
    a guest), whether the caller's own tables alone (``mine``), where the page begins and how many at most."""

    status: Status = "open"
    game: str | None = None
    account_id: str | None = None
    mine: bool = False
    after: Cursor | None = None
    limit: int = 50


@dataclass(frozen=True)
class Listed:
    """A listed table: its row and seats, the caller's seat there (``None``: not theirs), whether bots finished it."""

    row: TableRow
    seats: tuple[SeatRow, ...]
    my_seat: int | None
    by_bots: bool


@dataclass(frozen=True)
class Page:
    """A page of the list, the cursor of the next one (``None``: the last page) and how many tables the list holds."""

    tables: list[Listed]
    next: Cursor | None
    total: int


def _chunks(ids: Sequence[str], size: int = 500) -> list[list[str]]:
    """Ids in groups small enough for one ``IN`` of every database."""
    return [list(ids[i:i + size]) for i in range(0, len(ids), size)]


def left_seats(c: sa.Connection, table_ids: Iterable[str]) -> set[tuple[str, int]]:
    """Of the tables' seats, those a bot played at the end in a person's stead (the module's definition):
    ``left_at`` set, or the seat's last action the stand-in's. One query per 500 tables."""
    out: set[tuple[str, int]] = set()
    for chunk in _chunks(sorted(set(table_ids))):
        left = sa.select(seats.c.table_id, seats.c.seat).where(seats.c.table_id.in_(chunk),
                                                               seats.c.left_at.is_not(None))
        last = (sa.select(actions.c.table_id, actions.c.seat, sa.func.max(actions.c.seq).label("seq"))
                .where(actions.c.table_id.in_(chunk)).group_by(actions.c.table_id, actions.c.seat).subquery())
        stood = (sa.select(actions.c.table_id, actions.c.seat)
                 .join(last, sa.and_(actions.c.table_id == last.c.table_id, actions.c.seq == last.c.seq))
                 .where(actions.c.by == "stand-in"))
        out |= {(r.table_id, int(r.seat)) for r in c.execute(sa.union(left, stood))}
    return out


def _mine(account_id: str) -> Any:
    """The tables with a seat bound to the account."""
    return sa.select(seats.c.table_id).where(seats.c.account_id == account_id)


def _where(q: TableQuery) -> list[Any]:
    """The list's conditions: status, game, never a tutorial nor a daily deal, private tables to their players."""
    free = sa.exists().where(seats.c.table_id == tables.c.id, seats.c.joined.is_(False))
    live = q.status != "finished"
    where: list[Any] = [tables.c.status.in_(("open", "playing") if live else ("finished",)),
                        tables.c.id.not_like(f"{TUTORIAL_PREFIX}%"), tables.c.id.not_like(f"{DAILY_PREFIX}%")]
    if q.status == "open":
        where.append(free)
    elif q.status == "playing":  # every seat taken: being played, whether or not anyone moved yet
        where.append(sa.not_(free))
    if q.game is not None:
        where.append(tables.c.game_id == q.game)
    if q.account_id is None:
        where.append(tables.c.private.is_(False))
    else:
        where.append(sa.or_(tables.c.private.is_(False), tables.c.id.in_(_mine(q.account_id))))
        if q.mine:
            where.append(tables.c.id.in_(_mine(q.account_id)))
    return where


def _keys(q: TableQuery) -> list[Any]:
    """The sort key, every part descending: the caller's own first (when some are and some are not), the time (a
    finished game's end, else its table's making), the id."""
    at = sa.func.coalesce(tables.c.finished_at, tables.c.created_at) if q.status == "finished" else (
        tables.c.created_at)
    if q.account_id is None or q.mine:
        return [at, tables.c.id]
    return [sa.case((tables.c.id.in_(_mine(q.account_id)), 1), else_=0), at, tables.c.id]


def _after(keys: list[Any], cursor: Cursor) -> Any:
    """The rows that sort after the cursor (every key descending)."""
    values: list[Any] = [cursor.mine, cursor.at, cursor.table_id][-len(keys):]
    condition = keys[-1] < values[-1]
    for key, value in zip(reversed(keys[:-1]), reversed(values[:-1]), strict=True):
        condition = sa.or_(key < value, sa.and_(key == value, condition))
    return condition


def list_tables(engine: Engine, q: TableQuery) -> Page:
    """A page of the list (call from a thread)."""
    where, keys = _where(q), _keys(q)
    query = sa.select(tables, *(k.label(f"k{i}") for i, k in enumerate(keys))).where(*where)
    if q.after is not None:
        query = query.where(_after(keys, q.after))
    query = query.order_by(*(k.desc() for k in keys)).limit(q.limit + 1)
    with engine.connect() as c:
        found = c.execute(query).mappings().all()
        more, found = len(found) > q.limit, found[:q.limit]
        ids = [f["id"] for f in found]
        by_table: dict[str, list[SeatRow]] = {}
        for chunk in _chunks(ids):
            for r in c.execute(sa.select(seats).where(seats.c.table_id.in_(chunk))
                               .order_by(seats.c.table_id, seats.c.seat)):
                by_table.setdefault(r.table_id, []).append(SeatRow(r.seat, r.name, r.bot, r.joined, r.account_id,
                                                                   bool(r.former), r.left_at))
        left = left_seats(c, ids) if q.status == "finished" else set()
        total = int(c.execute(sa.select(sa.func.count()).select_from(tables).where(*where)).scalar_one())
    listed = []
    for f in found:
        own = by_table.get(f["id"], [])
        mine = next((s.seat for s in own if q.account_id is not None and s.account_id == q.account_id), None)
        listed.append(Listed(table_row(f), tuple(own), mine, any((f["id"], s.seat) in left for s in own)))
    last = found[-1] if more else None
    cursor = None if last is None else Cursor(
        int(last["k0"]) if len(keys) == 3 else int(bool(q.mine)), _at(last[f"k{len(keys) - 2}"]), last["id"])
    return Page(listed, cursor, total)


def _at(value: Any) -> dt.datetime:
    """A sort time as the database gave it (SQLite may give the text of a ``coalesce``)."""
    return value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value))


def finished_by_bots(seat_rows: Sequence[SeatRow], log: Sequence[tuple[int, str, str]]) -> bool:
    """Whether a finished game's stored seats and actions ``(seat, action, by)`` say that bots finished it (the
    definition above), read from a table loaded whole."""
    return any(left_to_bots(seat_rows, log))
