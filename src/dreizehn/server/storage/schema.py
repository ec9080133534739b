"""The schema of the server's database: its tables (made by the Alembic migrations of ``migrations/``, which this
module must agree with), the channels of PostgreSQL's notices, and what the stores share to write it."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

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
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("pace", sa.String(16), nullable=False, server_default="realtime"),
    sa.Column("move_time", sa.Integer, nullable=True),
    sa.Column("on_timeout", sa.String(8), nullable=True),
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("ended_seat", sa.Integer, nullable=True),
)
"""One row per table: ``status`` is ``open`` (seats to fill), ``playing`` or ``finished``; a ``rated`` game updates
the ratings of the accounts that played it (:mod:`dreizehn.server.ratings`). ``pace`` is ``realtime`` or
``turn-based``: a turn-based table gives each person ``move_time`` seconds a move and, when they run out, applies
``on_timeout`` (``move``: a bot plays that move; ``seat``: a bot takes the seat for the rest of the game; ``end``: the
game ends with that person last, ``ended_seat``; :mod:`dreizehn.server.turns`). A ``private`` table is listed to
its players only."""

seats = sa.Table(
    "seats", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("bot", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    sa.Column("joined", sa.Boolean, nullable=False),
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="SET NULL",
                                                         name="fk_seats_account_id"), nullable=True),
    sa.Column("former", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_seats_account_id", "account_id"),
)
"""One row per seat: a bot (``bot`` names its level or specification) or a person, whose invitation token is stored
hashed. A seat a signed-in person took is bound to their account (``account_id``, :mod:`dreizehn.server.accounts`):
its invitation opens it to nobody else. ``former``: the seat's account was deleted, and its name with it.
``left_at``: when a bot took the person's seat for the rest of the game (their time ran out at a turn-based table
whose rule says so); the seat's ``bot`` names the bot that plays it since."""

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


def insert_into(table: sa.Table, dialect: str) -> Any:
    """An INSERT into ``table`` that may do nothing when its key is taken (``on_conflict_do_nothing``)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table)

