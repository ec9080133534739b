"""The lobby's queue: the people waiting for a table, their choices and where they stand (issue 46 item 3).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lobby_queue",
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
    )
    op.create_index("ix_lobby_queue_state", "lobby_queue", ["state"])
    op.create_index("ix_lobby_queue_match_id", "lobby_queue", ["match_id"])


def downgrade() -> None:
    op.drop_index("ix_lobby_queue_match_id", table_name="lobby_queue")
    op.drop_index("ix_lobby_queue_state", table_name="lobby_queue")
    op.drop_table("lobby_queue")
