"""The turn clocks of turn-based tables (made by migration ``0009``, which this module must agree with)."""

from __future__ import annotations

import sqlalchemy as sa

from dreizehn.server.storage import metadata

turn_clocks = sa.Table(
    "turn_clocks", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_turn_clocks_due_at", "due_at"),
    sa.Index("ix_turn_clocks_remind_at", "remind_at"),
    sa.Index("ix_turn_clocks_account_id", "account_id"),
)
"""The clock of a turn-based table while a person is to move: the person of ``seat`` (bound to ``account_id``) has
been to move since ``started_at``, at the table's ``version`` (the actions stored), until ``due_at``; they are
reminded at ``remind_at`` (``NULL`` once reminded, or when the time is too short for a reminder). One row per table
at most; none while a bot is to move or the game is over. The row is an index of what the log says: the room writes
it again whenever it finds it behind."""
