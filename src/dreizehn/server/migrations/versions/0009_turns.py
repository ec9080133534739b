"""Turn-based tables: a table's pace, time to move and rule when that time runs out; private tables; the seat whose
time ended the game; seats a bot took for the rest of a game; and the turn clocks running.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("pace", sa.String(16), nullable=False, server_default="realtime"))
        batch.add_column(sa.Column("move_time", sa.Integer, nullable=True))
        batch.add_column(sa.Column("on_timeout", sa.String(8), nullable=True))
        batch.add_column(sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("ended_seat", sa.Integer, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("left_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "turn_clocks",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_turn_clocks_due_at", "turn_clocks", ["due_at"])
    op.create_index("ix_turn_clocks_remind_at", "turn_clocks", ["remind_at"])
    op.create_index("ix_turn_clocks_account_id", "turn_clocks", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_turn_clocks_account_id", table_name="turn_clocks")
    op.drop_index("ix_turn_clocks_remind_at", table_name="turn_clocks")
    op.drop_index("ix_turn_clocks_due_at", table_name="turn_clocks")
    op.drop_table("turn_clocks")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left_at")
    with op.batch_alter_table("tables") as batch:
        for column in ("ended_seat", "private", "on_timeout", "move_time", "pace"):
            batch.drop_column(column)
