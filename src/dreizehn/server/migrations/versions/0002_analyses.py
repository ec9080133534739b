"""Analyses of finished games: one row per (table, seat) with its status and progress, and the rated decisions.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("playouts", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_analyses_status", "analyses", ["status"])
    op.create_table(
        "analysis_decisions",
        sa.Column("table_id", sa.String(24), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("options", sa.Integer, nullable=False),
        sa.Column("played", sa.JSON, nullable=False),
        sa.Column("best", sa.JSON, nullable=False),
        sa.Column("loss", sa.Float, nullable=False),
        sa.ForeignKeyConstraint(["table_id", "seat"], ["analyses.table_id", "analyses.seat"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    op.drop_table("analysis_decisions")
    op.drop_index("ix_analyses_status", table_name="analyses")
    op.drop_table("analyses")
