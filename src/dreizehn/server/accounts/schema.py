"""The tables of accounts (made by migration ``0006``, which this module must agree with): the accounts, their
sessions, their personal API tokens, the links sent by mail, and what people are to each other."""

from __future__ import annotations

import sqlalchemy as sa

from dreizehn.server.storage import metadata

accounts = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(96), nullable=False, unique=True),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("email_key", sa.String(254), nullable=True, index=True),
    sa.Column("email_verified", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""One row per account: the name as shown and its key (:func:`~.names.name_key`, unique), the e-mail address (its
key, lower-cased, unique) and whether a link proved it, the Argon2id hash, the settings kept for every device, and
whether an operator disabled it. Deleting an account deletes its row (and, by their foreign keys, its sessions,
tokens, links and relations)."""

sessions = sa.Table(
    "sessions", metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
              index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
)
"""A signed-in browser: the SHA-256 of its cookie's session id (the id itself is never stored), when it signed in and
when it was last seen (a session ends after its idle time or its whole lifetime, whichever comes first)."""

api_tokens = sa.Table(
    "api_tokens", metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
              index=True),
    sa.Column("label", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
)
"""A personal API token (``Authorization: Bearer``) a player made for a script: shown once, stored hashed."""

mail_links = sa.Table(
    "mail_links", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
              index=True),
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
)
"""A link sent by mail: ``verify`` (proves ``email`` is the account's) or ``reset`` (sets a new password); stored
hashed, it works once and until ``expires_at``."""

relations = sa.Table(
    "relations", metadata,
    sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("other_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""What one account is to another, seen from ``account_id``: ``asked`` (asked the other to be friends), ``friend``
(both rows say it once the other accepted) or ``blocked`` (no invitation, no line of chat from the other)."""
