"""The links sent by mail (rule U6): stored as the SHA-256 of their token, each for one purpose (``verify``: proves
an address is the account's; ``reset``: sets a new password), working once and until it expires. Every method is one
short transaction (call them from a thread); using a link marks it used in the same transaction as what it does, on
the condition that nobody used it first (two tries at once: one of them wins)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dreizehn.server.accounts.schema import accounts, mail_links, sessions
from dreizehn.server.accounts.store import AccountRow, _aware, _row
from dreizehn.server.refusals import ServerError

VERIFY, RESET = "verify", "reset"
"""The purposes of a link."""


def email_key(address: str) -> str:
    """What accounts are found by for an address: the address lower-cased."""
    return address.lower()


def _checked(c: Connection, token_hash: str, purpose: str, at: dt.datetime) -> Any:
    """The stored link of ``token_hash`` for ``purpose``, refused (U6, in the reader's language) when there is
    none (``account.link_unknown``, 404), it was used (``account.link_used``, 410) or it expired
    (``account.link_expired``, 410)."""
    found = c.execute(sa.select(mail_links).where(mail_links.c.token_hash == token_hash,
                                                  mail_links.c.purpose == purpose)).mappings().first()
    if found is None:
        raise ServerError("account.link_unknown", rule="U6", status=404)
    if found["used_at"] is not None:
        raise ServerError("account.link_used", rule="U6", status=410)
    if _aware(found["expires_at"]) <= at:
        raise ServerError("account.link_expired", rule="U6", status=410)
    return found


def _use(c: Connection, token_hash: str, at: dt.datetime) -> None:
    """Mark a link used, unless another request did first (then ``account.link_used``: this transaction is rolled
    back)."""
    done = c.execute(mail_links.update().where(mail_links.c.token_hash == token_hash, mail_links.c.used_at.is_(None))
                     .values(used_at=at))
    if done.rowcount != 1:
        raise ServerError("account.link_used", rule="U6", status=410)


class LinkStore:
    """The mail links on the server's database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def set_email(self, account_id: str, address: str | None, token_hash: str | None,
                  expires_at: dt.datetime) -> None:
        """Give an account a new address (``None``: none), not verified, with the link that verifies it
        (``token_hash``); the verify links sent before stop working."""
        with self.engine.begin() as c:
            c.execute(accounts.update().where(accounts.c.id == account_id).values(
                email=address, email_key=email_key(address) if address else None, email_verified=False))
            c.execute(mail_links.delete().where(mail_links.c.account_id == account_id,
                                                mail_links.c.purpose == VERIFY, mail_links.c.used_at.is_(None)))
            if address is not None and token_hash is not None:
                c.execute(mail_links.insert().values(token_hash=token_hash, account_id=account_id, purpose=VERIFY,
                                                     email=address, expires_at=expires_at, used_at=None))

    def add(self, account_id: str, purpose: str, token_hash: str, address: str | None,
            expires_at: dt.datetime) -> None:
        """Store a link (before it is sent: a link somebody holds is always stored)."""
        with self.engine.begin() as c:
            c.execute(mail_links.insert().values(token_hash=token_hash, account_id=account_id, purpose=purpose,
                                                 email=address, expires_at=expires_at, used_at=None))

    def check(self, token_hash: str, purpose: str, at: dt.datetime) -> None:
        """Refuse a link that would not work now (as :func:`_checked`), changing nothing."""
        with self.engine.connect() as c:
            _checked(c, token_hash, purpose, at)

    def verify(self, token_hash: str, at: dt.datetime) -> AccountRow:
        """Use a verify link: the address it was sent to is proved the account's (a link sent to an address the
        account no longer has is unknown)."""
        with self.engine.begin() as c:
            link = _checked(c, token_hash, VERIFY, at)
            account = c.execute(sa.select(accounts).where(accounts.c.id == link["account_id"])).mappings().first()
            if account is None or account["email_key"] != email_key(link["email"] or ""):
                raise ServerError("account.link_unknown", rule="U6", status=404)
            _use(c, token_hash, at)
            c.execute(accounts.update().where(accounts.c.id == link["account_id"]).values(email_verified=True))
            return _row({**account, "email_verified": True})

    def reset(self, token_hash: str, at: dt.datetime, password_hash: str) -> str:
        """Use a reset link: the account's password becomes ``password_hash``, every session of it ends, and every
        other reset link of it stops working. The account's id."""
        with self.engine.begin() as c:
            link = _checked(c, token_hash, RESET, at)
            _use(c, token_hash, at)
            account_id: str = link["account_id"]
            c.execute(accounts.update().where(accounts.c.id == account_id).values(password_hash=password_hash))
            c.execute(sessions.delete().where(sessions.c.account_id == account_id))
            c.execute(mail_links.update().where(mail_links.c.account_id == account_id,
                                                mail_links.c.purpose == RESET, mail_links.c.used_at.is_(None))
                      .values(used_at=at))
            return account_id

    def verified(self, address: str) -> list[AccountRow]:
        """The accounts whose verified address is ``address`` (in any case), not disabled."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(accounts).where(accounts.c.email_key == email_key(address),
                                                        accounts.c.email_verified.is_(True),
                                                        accounts.c.disabled.is_(False))
                              .order_by(accounts.c.created_at)).mappings().all()
            return [_row(f) for f in found]
