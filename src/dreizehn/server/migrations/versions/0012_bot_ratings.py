"""Ratings: the bot levels' calibrated ratings (``dreizehn ratings calibrate``, rule G5).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_ratings",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("level", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("measured_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_ratings")
