"""The action log: every action of the game that stands, keyed by (table, sequence number), and the actions
taken back. A busy server stores hundreds of actions a second, so each database has its fastest way of storing a
group of them (:meth:`Actions.append_many`)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.storage.rows import Append, TakenBack, now
from dreizehn.server.storage.schema import NOTIFY_CHANNEL, actions, insert_into, tables, taken_back


def _status_after(row: Append, stamp: Any) -> dict[str, Any] | None:
    """What a stored action changes in its table's row: ``playing`` from the first action, ``finished`` (at
    ``stamp``) with the last; ``None`` for the others."""
    if row.finished:
        return {"status": "finished", "finished_at": stamp}
    if row.seq == 0:
        return {"status": "playing", "finished_at": None}
    return None


class _Prepared(NamedTuple):
    """The statements that store an action on SQLite, compiled once for the driver: each with its parameters in
    order, and the writer of the ``at`` column's values."""

    insert: str
    insert_order: list[str]
    status: str
    status_order: list[str]
    at: Callable[[dt.datetime], Any]

    @classmethod
    def of(cls, dialect: Any) -> _Prepared:
        insert = insert_into(actions, dialect.name).on_conflict_do_nothing().compile(dialect=dialect)
        status = tables.update().where(tables.c.id == sa.bindparam("id")).values(
            status=sa.bindparam("status"), finished_at=sa.bindparam("finished_at")).compile(dialect=dialect)
        at = actions.c.at.type.bind_processor(dialect) or (lambda value: value)
        return cls(str(insert), list(insert.positiontup or []), str(status), list(status.positiontup or []), at)


_PG_APPEND = """
WITH stored AS (
    INSERT INTO actions (table_id, seq, seat, action, "by", at)
    SELECT given.* FROM unnest(%s::varchar[], %s::int[], %s::int[], %s::varchar[], %s::varchar[], %s::timestamptz[])
        AS given(table_id, seq, seat, action, "by", at)
    WHERE NOT EXISTS (SELECT 1 FROM homes WHERE homes.table_id = given.table_id AND homes.process <> %s)
    ON CONFLICT DO NOTHING
    RETURNING table_id, seq
), changed AS (
    UPDATE tables SET status = latest.status, finished_at = latest.finished_at
    FROM (
        SELECT DISTINCT ON (change.id) change.id, change.status, change.finished_at
        FROM unnest(%s::varchar[], %s::int[], %s::varchar[], %s::timestamptz[]) AS change(id, seq, status, finished_at)
        JOIN stored ON stored.table_id = change.id AND stored.seq = change.seq
        ORDER BY change.id, change.seq DESC
    ) AS latest
    WHERE tables.id = latest.id
)
SELECT table_id, seq, pg_notify(%s, table_id || ':' || seq) FROM stored
"""
"""A group of actions stored on PostgreSQL in one statement: the rows whose (table, seq) is free and whose table's
home no other process holds (the fence: a process that lost a home stores nothing more there), the status of the
tables whose first or last action is among them (a table's latest stored action decides), and a ``NOTIFY`` (payload
``table:seq``) for each row stored; it answers the keys stored."""



class Actions:
    """The actions of every table and those taken back; every method is one short transaction (call them from a
    thread, not the event loop; the :class:`~dreizehn.server.storage.writer.Writer` alone calls :meth:`append_many`
    on the loop, with SQLite)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self._append_lock = threading.Lock()
        self._raw: Any = None
        self._sql: _Prepared | None = None

    def actions_from(self, table_id: str, seq: int) -> list[tuple[int, str, str]]:
        """The actions of a table from sequence number ``seq`` on."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(actions.c.seat, actions.c.action, actions.c.by)
                             .where(actions.c.table_id == table_id, actions.c.seq >= seq).order_by(actions.c.seq))
            return [(r.seat, r.action, r.by) for r in rows]

    def take_back(self, table_id: str, seq: int, version: int, seat: int) -> bool:
        """Take back action ``seq`` of a table and every action after it, by the person of ``seat``, in one
        transaction: the rows leave the log and are kept in :data:`taken_back`. Only while the log holds exactly
        ``version`` actions (``False``: another action was stored meanwhile, and nothing changed). PostgreSQL tells
        the other processes (``table:undo`` on the actions' channel), which reload the table."""
        with self.engine.begin() as c:
            count = c.execute(sa.select(sa.func.count()).select_from(actions)
                              .where(actions.c.table_id == table_id)).scalar()
            if count != version or not 0 <= seq < version:
                return False
            undo = c.execute(sa.select(sa.func.coalesce(sa.func.max(taken_back.c.undo) + 1, 0))
                             .where(taken_back.c.table_id == table_id)).scalar()
            moved = c.execute(sa.select(actions).where(actions.c.table_id == table_id, actions.c.seq >= seq)
                              .order_by(actions.c.seq)).mappings().all()
            stamp = now()
            c.execute(taken_back.insert(), [{**row, "undo": undo, "undo_seat": seat, "taken_back_at": stamp}
                                            for row in moved])
            c.execute(actions.delete().where(actions.c.table_id == table_id, actions.c.seq >= seq))
            if self.postgres:
                c.execute(sa.text("SELECT pg_notify(:channel, :payload)"),
                          {"channel": NOTIFY_CHANNEL, "payload": f"{table_id}:undo"})
            return True

    def taken_back(self, table_id: str) -> list[TakenBack]:
        """Every action taken back at a table, in the order of the take-backs and of the game."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(taken_back).where(taken_back.c.table_id == table_id)
                             .order_by(taken_back.c.undo, taken_back.c.seq))
            return [TakenBack(r.undo, r.seq, r.seat, r.action, r.by, r.undo_seat) for r in rows]

    def append_many(self, rows: Sequence[Append], process: str | None = None) -> list[bool]:
        """Add several actions in one transaction (a group commit); each answer says whether its row was stored
        (``False``: its sequence number was taken, or, on PostgreSQL, another process than ``process`` holds its
        table's home, :mod:`dreizehn.server.homes`; ``None`` stores whoever holds it). A busy server stores
        hundreds of actions a second, so each database has its fastest way, on a connection kept for storing: on
        PostgreSQL one statement a group (the keys it returns are the rows stored), on SQLite statements compiled
        once, one execution of the driver a row."""
        if not self.postgres:
            return self._sqlite_append_many(rows)
        return self._postgres_append_many(rows, process)

    def _postgres_append_many(self, rows: Sequence[Append], process: str | None) -> list[bool]:
        """PostgreSQL: the whole group in one statement (:data:`_PG_APPEND`) on a connection kept for storing, in
        autocommit: the rows, the tables' status and the notices are one transaction and one round trip. Each round
        trip is a wait of the storing thread for the interpreter lock, which the event loop holds most of the time
        under load; the group took five and more (a ping, ``BEGIN``, the insert, a ``pg_notify`` a row, ``COMMIT``)."""
        stamp = now()
        first: dict[tuple[str, int], int] = {}
        for i, row in enumerate(rows):
            first.setdefault((row.table_id, row.seq), i)
        changes = [(row, status) for i, row in enumerate(rows) if first[(row.table_id, row.seq)] == i
                   for status in [_status_after(row, stamp)] if status is not None]
        params = (
            [row.table_id for row in rows], [row.seq for row in rows], [row.seat for row in rows],
            [row.action for row in rows], [row.by for row in rows], [stamp] * len(rows), process,
            [row.table_id for row, _ in changes], [row.seq for row, _ in changes],
            [status["status"] for _, status in changes], [status["finished_at"] for _, status in changes],
            NOTIFY_CHANNEL,
        )
        with self._append_lock:
            try:
                if self._raw is None:
                    self._raw = self.engine.raw_connection()
                    self._raw.driver_connection.autocommit = True
                with self._raw.cursor() as cursor:
                    cursor.execute(_PG_APPEND, params)
                    inserted = {(table_id, seq) for table_id, seq, _ in cursor.fetchall()}
            except BaseException:
                if self._raw is not None:  # a connection that failed is not kept: the next group opens another
                    self._raw.invalidate()
                    self._raw = None
                raise
        return [(row.table_id, row.seq) in inserted and first[(row.table_id, row.seq)] == i
                for i, row in enumerate(rows)]

    def _sqlite_append_many(self, rows: Sequence[Append]) -> list[bool]:
        """SQLite: the same statements, compiled once by SQLAlchemy, on a connection kept for storing actions (the
        driver's own ``execute`` costs a few microseconds a row; a pooled connection and SQLAlchemy's execution
        about 150 a transaction, which the server pays hundreds of times a second)."""
        with self._append_lock:
            if self._sql is None:
                self._raw = self.engine.raw_connection()
                setup = self._raw.cursor()
                setup.execute("PRAGMA wal_autocheckpoint=0")  # the writer checkpoints from a thread
                setup.close()
                self._sql = _Prepared.of(self.engine.dialect)
            sql = self._sql
            stamp = now()
            stamp_text = sql.at(stamp)
            cursor = self._raw.cursor()
            stored = []
            try:
                for row in rows:
                    values = {"table_id": row.table_id, "seq": row.seq, "seat": row.seat, "action": row.action,
                              "by": row.by, "at": stamp_text}
                    cursor.execute(sql.insert, [values[name] for name in sql.insert_order])
                    ok = cursor.rowcount == 1
                    stored.append(ok)
                    status = _status_after(row, stamp_text) if ok else None
                    if status is not None:
                        changes = {"id": row.table_id, **status}
                        cursor.execute(sql.status, [changes[name] for name in sql.status_order])
                self._raw.commit()
            except BaseException:
                self._raw.rollback()
                raise
            finally:
                cursor.close()
            return stored


    def close(self) -> None:
        """Give back the connection kept for storing actions."""
        with self._append_lock:
            if self._raw is not None:
                self._raw.close()
                self._raw = self._sql = None
