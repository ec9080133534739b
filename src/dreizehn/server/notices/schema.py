"""The notices' tables (made by migration ``0010``, which this module must agree with)."""

from __future__ import annotations

import sqlalchemy as sa

from dreizehn.server.storage import metadata

notice_prefs = sa.Table(
    "notice_prefs", metadata,
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("mail", sa.String(8), nullable=False, server_default="off"),
)
"""What an account asked to be told by mail (rule N5): ``off`` (the default: no row), ``each`` (a mail a game per
period) or ``digest`` (one mail a day listing the games waiting)."""

push_subscriptions = sa.Table(
    "push_subscriptions", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("endpoint", sa.String(2048), nullable=False),
    sa.Column("p256dh", sa.String(128), nullable=False),
    sa.Column("auth", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_push_subscriptions_account_id", "account_id"),
)
"""A browser's Web Push subscription (rule N4): ``id`` is the SHA-256 of its endpoint (one row per endpoint: a
browser subscribing again replaces its keys and account), the endpoint and the browser's keys (its P-256 public key
and authentication secret, base64url)."""

notices_told = sa.Table(
    "notices_told", metadata,
    sa.Column("table_id", sa.String(24), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), primary_key=True),
    sa.Column("told_at", sa.DateTime(timezone=True), nullable=False),
)
"""A turn told (``kind`` ``turn`` or ``reminder``) at a table's version: each is told once (rule N2), however many
times the turn clock's hooks say it (a restart may say a turn again)."""

mail_outbox = sa.Table(
    "mail_outbox", metadata,
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
    sa.Index("ix_mail_outbox_next_at", "next_at"),
    sa.Index("ix_mail_outbox_account_id", "account_id", "table_id"),
)
"""The notices' mails (rule N7), written whole (``message``: the mail as its text) before they are sent: a mail
server that is down leaves them here, tried again at ``next_at`` (later each time); ``sent_at`` once handed over.
``kind``: ``turn``, ``reminder`` or ``digest``; ``table_id`` the game a mail tells of (``NULL`` for a digest);
``dedup`` a key two processes making the same mail at once share (a digest's: the account and the period), so that
one of them only is stored."""

push_outbox = sa.Table(
    "push_outbox", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("subscription_id", sa.String(64), sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("table_id", sa.String(24), nullable=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Index("ix_push_outbox_next_at", "next_at"),
    sa.Index("ix_push_outbox_subscription_id", "subscription_id"),
)
"""The pushes not yet taken by their push services (rule N9), one a subscription, stored before they are sent (in
the transaction that marks the turn told): a push service that does not answer (or answers 429 or 5xx) leaves the
row here, tried again at ``next_at`` (later each time); a row goes once its service took it, said the subscription
is gone (the subscription goes, and its rows with it), refused it for good, or after its tries (``push_tries``) or
a day (its TTL), or once the time it speaks of ran out. ``payload``: the notice's parameters
(:func:`dreizehn.server.notices.wording.push_notice`), said as the JSON the browser decrypts when it is sent, with the
time left then; ``kind``: ``turn`` or ``reminder``."""
