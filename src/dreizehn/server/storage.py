"""Storage: tables, their seats, and the append-only log of actions, in SQLite (WAL) or PostgreSQL.

Event-sourced: a table's state is never stored, only the facts it is rebuilt from: the game, its options and the
seed (which never leaves the server), the seats, and every action keyed by (table, sequence number). That key is
unique, so two actions racing for one turn (two server processes, say) are settled by the database: the second
insert fails and its sender resyncs. A move taken back (a person alone with bots, :meth:`Store.take_back`) leaves
the log of the game that stands, and is kept in ``taken_back`` with every action after it: nothing that happened is
lost. The schema is made by Alembic migrations (``migrations/``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import queue
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

metadata = sa.MetaData()

tables = sa.Table(
    "tables", metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("package_version", sa.String(32), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("spectator_hash", sa.String(64), nullable=False),
    sa.Column("clock", sa.Float, nullable=False, server_default="0"),
    sa.Column("rematch_of", sa.String(24), nullable=True),
    sa.Column("rematch", sa.String(24), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
)
"""One row per table: ``status`` is ``open`` (seats to fill), ``playing`` or ``finished``."""

seats = sa.Table(
    "seats", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("bot", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("joined", sa.Boolean, nullable=False),
)
"""One row per seat: a bot (``bot`` names its level or specification) or a person, whose invitation token is stored
hashed."""

actions = sa.Table(
    "actions", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("by", sa.String(16), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""The log of the game that stands: action ``seq`` (from 0) of a table, by ``seat``; ``by`` says who chose it
(``person``, ``bot``, or ``stand-in`` for a bot playing for a person who is away). Rows are only added, except the
last few when a move is taken back: those move to :data:`taken_back`."""

taken_back = sa.Table(
    "taken_back", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("undo", sa.Integer, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("by", sa.String(16), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("undo_seat", sa.Integer, nullable=False),
    sa.Column("taken_back_at", sa.DateTime(timezone=True), nullable=False),
)
"""The actions taken back: take-back ``undo`` (from 0, per table) by the person of ``undo_seat`` at
``taken_back_at`` took back action ``seq`` and every action after it, each row as it stood in :data:`actions`."""

analyses = sa.Table(
    "analyses", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("playouts", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
"""One row per analysis of a finished game for one seat: ``status`` is ``running``, ``done`` or ``failed``;
``done`` of ``total`` decisions are rated, each with ``playouts`` playouts."""

analysis_decisions = sa.Table(
    "analysis_decisions", metadata,
    sa.Column("table_id", sa.String(24), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("options", sa.Integer, nullable=False),
    sa.Column("played", sa.JSON, nullable=False),
    sa.Column("best", sa.JSON, nullable=False),
    sa.Column("loss", sa.Float, nullable=False),
    sa.ForeignKeyConstraint(["table_id", "seat"], ["analyses.table_id", "analyses.seat"], ondelete="CASCADE"),
)
"""The rated decisions of an analysis, keyed by the version (actions before the decision): the action played and
the best one (each ``{"action", "chance", "chance_low", "chance_high", "points"}``) and the win chance lost."""

NOTIFY_CHANNEL = "dreizehn_actions"
PRESENCE_CHANNEL = "dreizehn_presence"
"""Where server processes on one PostgreSQL database tell each other who is connected to which seat (and which
seats their stand-ins play), and ask for it when they load a table."""
MIGRATION_LOCK = 0x647A_6D69
"""The PostgreSQL advisory lock that migrations hold, so that server processes started together do not race."""


@dataclass(frozen=True)
class Append:
    """An action to store: its table, sequence number, seat, text, who chose it, and whether it ended the game."""

    table_id: str
    seq: int
    seat: int
    action: str
    by: str
    finished: bool = False


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
        insert = _insert_into(actions, dialect.name).on_conflict_do_nothing().compile(dialect=dialect)
        status = tables.update().where(tables.c.id == sa.bindparam("id")).values(
            status=sa.bindparam("status"), finished_at=sa.bindparam("finished_at")).compile(dialect=dialect)
        at = actions.c.at.type.bind_processor(dialect) or (lambda value: value)
        return cls(str(insert), list(insert.positiontup or []), str(status), list(status.positiontup or []), at)


_PG_APPEND = """
WITH stored AS (
    INSERT INTO actions (table_id, seq, seat, action, "by", at)
    SELECT * FROM unnest(%s::varchar[], %s::int[], %s::int[], %s::varchar[], %s::varchar[], %s::timestamptz[])
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
"""A group of actions stored on PostgreSQL in one statement: the rows whose (table, seq) is free, the status of the
tables whose first or last action is among them (a table's latest stored action decides), and a ``NOTIFY`` (payload
``table:seq``) for each row stored; it answers the keys stored."""


class Writer:
    """Stores actions from the event loop in groups, one commit for every action waiting; each caller awaits its own
    answer.

    On SQLite the group is stored on the event loop itself, once per turn of the loop: a commit without ``fsync``
    (WAL, ``synchronous=NORMAL``) costs tens of microseconds, far less than handing the group to a thread, which
    must wait for the interpreter lock while the loop works (5 ms a wait, several waits a group: most of an action's
    time under load). The write-ahead log is copied into the database file (a checkpoint, which does ``fsync``) by a
    thread instead, every :data:`CHECKPOINT_EVERY` commits. On PostgreSQL, where a commit is a round trip, a thread
    stores the groups."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.inline = not store.postgres
        self._pending: list[tuple[Append, asyncio.Future[bool]]] = []
        self._commits = 0
        self._checkpoint: asyncio.Future[None] | None = None
        self._queue: queue.SimpleQueue[tuple[Append, asyncio.AbstractEventLoop, asyncio.Future[bool]] | None] = (
            queue.SimpleQueue())
        self._thread: threading.Thread | None = None
        if not self.inline:
            self._thread = threading.Thread(target=self._run, name="dreizehn-writer", daemon=True)
            self._thread.start()

    async def append(self, row: Append) -> None:
        """Store ``row``; raises :class:`Conflict` if its sequence number is taken."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        if self.inline:
            self._pending.append((row, future))
            if len(self._pending) == 1:
                loop.call_soon(self._flush)
        else:
            self._queue.put((row, loop, future))
        if not await future:
            raise Conflict(f"action {row.seq} of table {row.table_id} is taken")

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)

    def _store(self, rows: list[Append]) -> list[bool | BaseException]:
        """Each row's answer: stored or not, or the error of a database that failed (every caller hears of it)."""
        try:
            return list(self.store.append_many(rows))
        except Exception as err:
            return [err] * len(rows)

    def _flush(self) -> None:
        """SQLite: store the actions of this turn of the loop in one transaction, and answer their callers."""
        batch, self._pending = self._pending, []
        answers = self._store([row for row, _ in batch])
        _settle([(future, answer) for (_, future), answer in zip(batch, answers, strict=True)])
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and (self._checkpoint is None or self._checkpoint.done()):
            self._commits = 0
            self._checkpoint = asyncio.get_running_loop().run_in_executor(None, self.store.checkpoint)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < 256:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)
                    break
                batch.append(item)
            answers = self._store([row for row, _, _ in batch])
            by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[bool], bool | BaseException]]] = {}
            for (_, loop, future), answer in zip(batch, answers, strict=True):
                by_loop.setdefault(loop, []).append((future, answer))
            for loop, settled in by_loop.items():  # one wake-up of each loop for the whole group
                loop.call_soon_threadsafe(_settle, settled)


CHECKPOINT_EVERY = 500
"""SQLite commits of actions between two checkpoints (each commit adds a few pages to the write-ahead log)."""


def _settle(settled: list[tuple[asyncio.Future[bool], bool | BaseException]]) -> None:
    for future, answer in settled:
        if future.done():
            continue
        if isinstance(answer, BaseException):
            future.set_exception(answer)
        else:
            future.set_result(answer)


class Conflict(Exception):
    """An action whose sequence number another action took first."""


def hash_token(token: str) -> str:
    """How a token is stored: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """An unguessable token (192 random bits)."""
    return secrets.token_urlsafe(24)


def new_table_id() -> str:
    """A short random table id."""
    return secrets.token_urlsafe(9)


TUTORIAL_PREFIX = "learn-"
"""How the id of a tutorial's table begins (``/api/learn``): a first game on a practice deal, which the lists of
tables leave out."""


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    bot: str | None
    joined: bool


@dataclass(frozen=True)
class TableRow:
    id: str
    game_id: str
    players: int
    options: dict[str, Any]
    seed: int
    package_version: str
    status: str
    clock: float
    rematch_of: str | None
    rematch: str | None
    created_at: dt.datetime
    finished_at: dt.datetime | None


@dataclass(frozen=True)
class Stored:
    """A table as stored: its row, its seats, its actions ``(seat, action text, by)`` in order."""

    row: TableRow
    seats: tuple[SeatRow, ...]
    actions: tuple[tuple[int, str, str], ...]


@dataclass(frozen=True)
class TakenBack:
    """An action taken back: the take-back's number at its table, the action's sequence number, seat, text and who
    chose it, and the seat whose person took it back."""

    undo: int
    seq: int
    seat: int
    action: str
    by: str
    undo_seat: int


def make_engine(url: str, data_dir: Path | None = None) -> Engine:
    """The engine of ``url``: SQLite in WAL mode with foreign keys on, or PostgreSQL through psycopg."""
    if url.startswith("sqlite"):
        if data_dir is not None:
            data_dir.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi: Any, _: Any) -> None:
            cursor = dbapi.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (Alembic's ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # processes starting together migrate one after the other
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """The server's storage; every method is one short transaction (call them from a thread, not the event
    loop; the :class:`Writer` alone calls :meth:`append_many` on the loop, with SQLite)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self._append_lock = threading.Lock()
        self._raw: Any = None
        self._sql: _Prepared | None = None

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection

    def create(self, row: TableRow, seat_rows: Sequence[SeatRow], token_hashes: Sequence[str | None],
               spectator_hash: str) -> None:
        """Store a new table with its seats."""
        with self._tx() as c:
            c.execute(tables.insert().values(
                id=row.id, game_id=row.game_id, players=row.players, options=row.options, seed=row.seed,
                package_version=row.package_version, status=row.status, spectator_hash=spectator_hash,
                clock=row.clock, rematch_of=row.rematch_of, created_at=row.created_at,
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
                _table_row(found),
                tuple(SeatRow(r.seat, r.name, r.bot, r.joined) for r in seat_rows),
                tuple((r.seat, r.action, r.by) for r in log),
            )

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
        with self._tx() as c:
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

    def append_many(self, rows: Sequence[Append]) -> list[bool]:
        """Add several actions in one transaction (a group commit); each answer says whether its row was stored
        (``False``: its sequence number was taken). A busy server stores hundreds of actions a second, so each
        database has its fastest way, on a connection kept for storing: on PostgreSQL one statement a group (the
        keys it returns are the rows stored), on SQLite statements compiled once, one execution of the driver a
        row."""
        if not self.postgres:
            return self._sqlite_append_many(rows)
        return self._postgres_append_many(rows)

    def _postgres_append_many(self, rows: Sequence[Append]) -> list[bool]:
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
            [row.action for row in rows], [row.by for row in rows], [stamp] * len(rows),
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

    def ping(self) -> None:
        """Ask the database a question (``SELECT 1``) on a connection of the pool (raises if it cannot answer)."""
        with self.engine.connect() as c:
            c.exec_driver_sql("SELECT 1")

    def notify(self, channel: str, payload: str) -> None:
        """PostgreSQL: a notice to every process listening on ``channel``."""
        with self._tx() as c:
            c.execute(sa.text("SELECT pg_notify(:channel, :payload)"), {"channel": channel, "payload": payload})

    def checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database file as far as no reader needs it (``PASSIVE``: it
        never holds up a writer), so that the log starts over and stays small."""
        with self.engine.connect() as c:
            c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Give back the connection kept for storing actions."""
        with self._append_lock:
            if self._raw is not None:
                self._raw.close()
                self._raw = self._sql = None

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
        with self._tx() as c:
            c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat)
                      .values(name=name, joined=True))
            waiting = c.execute(sa.select(sa.func.count()).select_from(seats).where(
                seats.c.table_id == table_id, seats.c.joined.is_(False))).scalar()
            return not waiting

    def take_seat(self, table_id: str, seat: int, name: str) -> bool:
        """Give a person's seat not taken yet a name; whether it was taken now (``False``: it was taken before, and
        keeps its name). One statement: of two people joining at once, one gets the seat."""
        with self._tx() as c:
            done = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                  seats.c.joined.is_(False))
                             .values(name=name, joined=True))
            return bool(done.rowcount)

    def take_free_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Give a free person's seat (not a bot's, not taken yet) a name and a new token, as a person who takes it
        from the list of tables; whether it was taken now. The seat's invitation no longer opens it: whoever had
        that link does not see the new player's hand. One statement: of two people taking it at once, one gets it."""
        with self._tx() as c:
            done = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                  seats.c.bot.is_(None), seats.c.joined.is_(False))
                             .values(name=name, joined=True, token_hash=token_hash))
            return bool(done.rowcount)

    def listing(self, status: Sequence[str], limit: int = 50) -> list[tuple[TableRow, tuple[SeatRow, ...]]]:
        """Tables of the given statuses, newest first, with their seats; tutorials' tables left out."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(tables).where(tables.c.status.in_(status),
                                                     tables.c.id.not_like(f"{TUTORIAL_PREFIX}%"))
                             .order_by(tables.c.created_at.desc()).limit(limit)).mappings().all()
            out = []
            for found in rows:
                seat_rows = c.execute(sa.select(seats).where(seats.c.table_id == found["id"]).order_by(seats.c.seat))
                out.append((_table_row(found), tuple(SeatRow(r.seat, r.name, r.bot, r.joined) for r in seat_rows)))
            return out

    def playing(self) -> list[str]:
        """The ids of the tables being played (to resume their bots after a restart)."""
        with self.engine.connect() as c:
            return list(c.execute(sa.select(tables.c.id).where(tables.c.status == "playing")).scalars())

    def set_token(self, table_id: str, seat: int, token_hash: str) -> None:
        """Give a person's seat a new token (the old one stops working)."""
        with self._tx() as c:
            c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat)
                      .values(token_hash=token_hash))

    def issue_token(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give a person's seat its token if it has none yet (a rematch's invitation not given when the rematch
        began); whether it was given now. A token given stays the seat's."""
        with self._tx() as c:
            done = c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                  seats.c.bot.is_(None), seats.c.token_hash.is_(None))
                             .values(token_hash=token_hash))
            return bool(done.rowcount)

    def set_rematch(self, table_id: str, rematch: str) -> None:
        with self._tx() as c:
            c.execute(tables.update().where(tables.c.id == table_id).values(rematch=rematch))

    # -- analyses of finished games (dreizehn.server.analysis) ----------------------------------------------------

    def create_analysis(self, table_id: str, seat: int, total: int, playouts: int) -> bool:
        """Start the analysis of a seat (``done`` at once when it has no decision to rate); whether it is new (an
        analysis already stored, even by another process, is left as it is)."""
        stamp = now()
        with self._tx() as c:
            result = c.execute(_insert_into(analyses, c.dialect.name).values(
                table_id=table_id, seat=seat, status="running" if total else "done", done=0, total=total,
                playouts=playouts, created_at=stamp, updated_at=stamp,
            ).on_conflict_do_nothing().returning(analyses.c.seat))
            return result.first() is not None

    def load_analysis(self, table_id: str, seat: int) -> AnalysisRow | None:
        """An analysis with its decisions rated so far, in game order, or ``None``."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(analyses).where(analyses.c.table_id == table_id,
                                                        analyses.c.seat == seat)).first()
            if found is None:
                return None
            rows = c.execute(sa.select(analysis_decisions).where(
                analysis_decisions.c.table_id == table_id, analysis_decisions.c.seat == seat,
            ).order_by(analysis_decisions.c.version))
            decisions = tuple(DecisionRow(r.version, r.options, dict(r.played), dict(r.best), float(r.loss))
                              for r in rows)
            status = found.status  # (decisions stored between the two reads are counted alike)
            if status == "running" and len(decisions) >= found.total:
                status = "done"
            return AnalysisRow(table_id, seat, status, len(decisions), found.total, found.playouts, decisions)

    def add_decision(self, table_id: str, seat: int, decision: DecisionRow) -> int:
        """Store a rated decision (once: a decision rated twice keeps its first rating) and count it; the analysis
        is ``done`` when every decision is in. Returns how many are in."""
        with self._tx() as c:
            c.execute(_insert_into(analysis_decisions, c.dialect.name).values(
                table_id=table_id, seat=seat, version=decision.version, options=decision.options,
                played=decision.played, best=decision.best, loss=decision.loss,
            ).on_conflict_do_nothing())
            done = int(c.execute(sa.select(sa.func.count()).select_from(analysis_decisions).where(
                analysis_decisions.c.table_id == table_id, analysis_decisions.c.seat == seat)).scalar() or 0)
            mine = (analyses.c.table_id == table_id) & (analyses.c.seat == seat)
            c.execute(analyses.update().where(mine).values(done=done, updated_at=now()))
            c.execute(analyses.update().where(mine, analyses.c.total <= done).values(status="done"))
            return done

    def set_analysis_status(self, table_id: str, seat: int, status: str) -> None:
        """Set the status of an analysis (the analyst marks one ``failed`` when a rating fails)."""
        with self._tx() as c:
            c.execute(analyses.update().where(analyses.c.table_id == table_id, analyses.c.seat == seat)
                      .values(status=status, updated_at=now()))

    def running_analyses(self, idle: float = 0.0) -> list[tuple[str, int]]:
        """The (table, seat) of the analyses not finished, oldest first; with ``idle``, only those without a sign
        of life (:meth:`touch_analyses`) for that many seconds: nobody is working on them."""
        query = sa.select(analyses.c.table_id, analyses.c.seat).where(analyses.c.status == "running")
        if idle > 0:
            query = query.where(analyses.c.updated_at < now() - dt.timedelta(seconds=idle))
        with self.engine.connect() as c:
            return [(r.table_id, r.seat) for r in c.execute(query.order_by(analyses.c.created_at))]

    def claim_analysis(self, table_id: str, seat: int, idle: float) -> bool:
        """Take up an analysis left ``running`` without a sign of life for ``idle`` seconds, or a ``failed`` one:
        whether this caller got it (of several processes trying at once, one does)."""
        stamp = now()
        mine = (analyses.c.table_id == table_id) & (analyses.c.seat == seat)
        left = ((analyses.c.status == "running") & (analyses.c.updated_at < stamp - dt.timedelta(seconds=idle))) | (
            analyses.c.status == "failed")
        with self._tx() as c:
            result = c.execute(analyses.update().where(mine, left).values(status="running", updated_at=stamp))
            return result.rowcount == 1

    def touch_analyses(self, keys: Sequence[tuple[str, int]]) -> None:
        """A sign of life of the analyses this process works on (their ``updated_at`` is now)."""
        if not keys:
            return
        stamp = now()
        with self._tx() as c:
            for table_id, seat in keys:
                c.execute(analyses.update().where(analyses.c.table_id == table_id, analyses.c.seat == seat,
                                                  analyses.c.status == "running").values(updated_at=stamp))


@dataclass(frozen=True)
class DecisionRow:
    """A rated decision: its version, the number of legal actions, the action played and the best one (each
    ``{"action", "chance", "chance_low", "chance_high", "points"}``, the action in notation) and the chance lost."""

    version: int
    options: int
    played: dict[str, Any]
    best: dict[str, Any]
    loss: float


@dataclass(frozen=True)
class AnalysisRow:
    """An analysis as stored: its status, its progress and the decisions rated so far, in game order."""

    table_id: str
    seat: int
    status: str
    done: int
    total: int
    playouts: int
    decisions: tuple[DecisionRow, ...]


def _insert_into(table: sa.Table, dialect: str) -> Any:
    """An INSERT into ``table`` that may do nothing when its key is taken (``on_conflict_do_nothing``)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table)


def _table_row(found: Any) -> TableRow:
    return TableRow(
        id=found["id"], game_id=found["game_id"], players=found["players"], options=dict(found["options"]),
        seed=int(found["seed"]), package_version=found["package_version"], status=found["status"],
        clock=float(found["clock"]), rematch_of=found["rematch_of"], rematch=found["rematch"],
        created_at=found["created_at"], finished_at=found["finished_at"],
    )
