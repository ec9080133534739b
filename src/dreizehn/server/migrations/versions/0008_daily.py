"""The daily deal: the server's secrets, and the plays of each day's deals.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "daily_plays",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("total", sa.Integer, nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("day", "game_id", "players", "account_id", name="uq_daily_plays_once"),
    )
    op.create_index("ix_daily_plays_deal", "daily_plays", ["day", "game_id", "players"])


def downgrade() -> None:
    op.drop_index("ix_daily_plays_deal", table_name="daily_plays")
    op.drop_table("daily_plays")
    op.drop_table("server_secrets")
