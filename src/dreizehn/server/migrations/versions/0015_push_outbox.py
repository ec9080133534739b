"""Notices: the outbox of pushes (rule N9). A push whose service does not answer waits here and is tried again, as
the mails of ``mail_outbox`` do; it is stored in the transaction that marks its turn told, so that a process killed
before it pushed leaves it to the next start.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("subscription_id", sa.String(64), sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_push_outbox_next_at", "push_outbox", ["next_at"])
    op.create_index("ix_push_outbox_subscription_id", "push_outbox", ["subscription_id"])


def downgrade() -> None:
    op.drop_index("ix_push_outbox_subscription_id", table_name="push_outbox")
    op.drop_index("ix_push_outbox_next_at", table_name="push_outbox")
    op.drop_table("push_outbox")
