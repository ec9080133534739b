"""The server's storage as one object: the database's engine, shared by the stores of what it holds
(:class:`~.seating.Tables`, :class:`~.actionlog.Actions`, :class:`~.analysing.Analyses`), and what concerns the database
as a whole (made and migrated, asked if it answers, notices, checkpoints)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.storage.actionlog import Actions
from dreizehn.server.storage.analysing import Analyses
from dreizehn.server.storage.schema import MIGRATION_LOCK
from dreizehn.server.storage.seating import Tables

MIGRATIONS = Path(__file__).parent.parent / "migrations"
"""The Alembic migrations that make the schema (:mod:`dreizehn.server.migrations`)."""


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
    """Bring the schema to the newest migration (Alembic's ``upgrade head``); on SQLite, then empty the write-ahead
    log the migrations filled."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # processes starting together migrate one after the other
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    if engine.dialect.name == "sqlite":  # a migration that copies a table fills the log: start it over, empty
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


class Store:
    """The server's storage: :attr:`tables` (tables, seats, tokens), :attr:`actions` (the log and the actions taken
    back) and :attr:`analyses`, on one engine. Every method of each is one short transaction: call them from a
    thread, not the event loop (the :class:`~dreizehn.server.storage.writer.Writer` alone stores actions on the
    loop, with SQLite)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self.tables = Tables(engine)
        self.actions = Actions(engine)
        self.analyses = Analyses(engine)

    def ping(self) -> None:
        """Ask the database a question (``SELECT 1``) on a connection of the pool (raises if it cannot answer)."""
        with self.engine.connect() as c:
            c.exec_driver_sql("SELECT 1")

    def notify(self, channel: str, payload: str) -> None:
        """PostgreSQL: a notice to every process listening on ``channel``."""
        with self.engine.begin() as c:
            c.execute(sa.text("SELECT pg_notify(:channel, :payload)"), {"channel": channel, "payload": payload})

    def checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database file as far as no reader needs it (``PASSIVE``: it
        never holds up a writer), so that the log starts over and stays small."""
        with self.engine.connect() as c:
            c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Give back the connection kept for storing actions."""
        self.actions.close()
