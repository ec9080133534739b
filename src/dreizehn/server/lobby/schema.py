"""The lobby's queue (made by migration ``0011``, which this module must agree with)."""

from __future__ import annotations

import sqlalchemy as sa

from dreizehn.server.storage import metadata

LOBBY_LOCK = 0x647A_6C62
"""PostgreSQL's advisory lock held by every transaction that changes the queue (rule L3): the server processes on
one database match one after the other, so that a group is made into one table, never two."""

lobby_queue = sa.Table(
    "lobby_queue", metadata,
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("pace", sa.String(16), nullable=False),
    sa.Column("move_time", sa.Integer, nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("bot_wait", sa.Integer, nullable=True),
    sa.Column("bot_level", sa.String(16), nullable=False),
    sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("match_id", sa.String(24), nullable=True),
    sa.Column("ready", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("ready_due", sa.DateTime(timezone=True), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("bots", sa.Integer, nullable=False, server_default="0"),
    sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_lobby_queue_state", "state"),
    sa.Index("ix_lobby_queue_match_id", "match_id"),
)
"""One row per signed-in account in the lobby (rule L1: queued twice is one row). What the person asked for (the
queue key: game, players, pace, time to move, rated; and the wait before bots fill the free seats, ``NULL`` for
never, at ``bot_level``), when they queued and when their page last asked (rule L2), and where they stand:
``waiting``; ``ready`` (a real-time group found: ``match_id`` names the table to be, ``ready_due`` ends the check,
``ready`` whether they confirmed; rule L4); ``making`` (the table is being made by the process that claimed the
group); ``seated`` (the table ``match_id`` exists, their seat is ``seat``; the row stays until they queue again,
leave, or their page stops asking)."""
