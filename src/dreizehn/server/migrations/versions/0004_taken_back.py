"""Moves taken back: the actions a person took back at a table of bots, kept with when and by whom.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "taken_back",
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


def downgrade() -> None:
    op.drop_table("taken_back")
