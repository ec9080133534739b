"""Notices: what each account asked to be told by mail, browsers' Web Push subscriptions, the turns told, and the
outbox of the notices' mails.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notice_prefs",
        sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("mail", sa.String(8), nullable=False, server_default="off"),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("endpoint", sa.String(2048), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])
    op.create_table(
        "notices_told",
        sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("told_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("table_id", sa.String(24), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("dedup", sa.String(96), nullable=True),
        sa.UniqueConstraint("dedup", name="uq_mail_outbox_dedup"),
    )
    op.create_index("ix_mail_outbox_next_at", "mail_outbox", ["next_at"])
    op.create_index("ix_mail_outbox_account_id", "mail_outbox", ["account_id", "table_id"])


def downgrade() -> None:
    op.drop_index("ix_mail_outbox_account_id", table_name="mail_outbox")
    op.drop_index("ix_mail_outbox_next_at", table_name="mail_outbox")
    op.drop_table("mail_outbox")
    op.drop_table("notices_told")
    op.drop_index("ix_push_subscriptions_account_id", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("notice_prefs")
