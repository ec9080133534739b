"""The tables of the daily deal (made by migration ``0008``, which this module must agree with)."""

from __future__ import annotations

import sqlalchemy as sa

from dreizehn.server.storage import metadata

server_secrets = sa.Table(
    "server_secrets", metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),
)
"""Secrets the server makes at its first start and keeps (the daily deal's key): never sent to anyone."""

daily_plays = sa.Table(
    "daily_plays", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("day", sa.Date, nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
    sa.Column("total", sa.Integer, nullable=True),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.UniqueConstraint("day", "game_id", "players", "account_id", name="uq_daily_plays_once"),
    sa.Index("ix_daily_plays_deal", "day", "game_id", "players"),
)
"""One play of a day's deal: its table, the deal (day, game, player count), the account that plays it (``NULL``: a
guest, unranked; an account plays each deal once, rule D2), and once the game is over the person's total."""
