"""The accounts' storage: accounts, their sessions, and what deleting one does to the seats it took. Every method is
one short transaction (call them from a thread). Sessions and tokens are found by the SHA-256 of their secret, never
the secret itself."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.accounts.schema import accounts, sessions
from dreizehn.server.chat import chat
from dreizehn.server.ratings import bands
from dreizehn.server.storage import now, seats

SEEN_EVERY = dt.timedelta(minutes=1)
"""A session's ``seen_at`` is written at most this often (a page asks on every load)."""


@dataclass(frozen=True)
class AccountRow:
    """An account as stored (its password hash stays in the store but for :meth:`AccountStore.password_hash`)."""

    id: str
    name: str
    email: str | None
    email_verified: bool
    settings: dict[str, Any]
    disabled: bool
    created_at: dt.datetime


def _row(found: Any) -> AccountRow:
    return AccountRow(id=found["id"], name=found["name"], email=found["email"],
                      email_verified=bool(found["email_verified"]), settings=dict(found["settings"] or {}),
                      disabled=bool(found["disabled"]), created_at=found["created_at"])


def new_account_id() -> str:
    return secrets.token_urlsafe(12)


class AccountStore:
    """Accounts and sessions on the server's database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- accounts ----------------------------------------------------------------------------------------------
    def create(self, name: str, key: str, email: str | None, password_hash: str) -> AccountRow | None:
        """A new account, or ``None`` where its name's key is taken (the database settles two sign-ups at once)."""
        row: dict[str, Any] = {"id": new_account_id(), "name": name, "name_key": key, "email": email,
               "email_key": email.lower() if email else None, "email_verified": False,
               "password_hash": password_hash, "settings": {}, "disabled": False, "created_at": now()}
        try:
            with self.engine.begin() as c:
                c.execute(accounts.insert().values(**row))
        except sa.exc.IntegrityError:
            return None
        return _row(row)

    def by_key(self, key: str) -> tuple[AccountRow, str] | None:
        """The account of a name's key, with its password hash."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(accounts).where(accounts.c.name_key == key)).mappings().first()
            return None if found is None else (_row(found), found["password_hash"])

    def by_id(self, account_id: str) -> AccountRow | None:
        with self.engine.connect() as c:
            found = c.execute(sa.select(accounts).where(accounts.c.id == account_id)).mappings().first()
            return None if found is None else _row(found)

    def password_hash(self, account_id: str) -> str | None:
        with self.engine.connect() as c:
            found = c.execute(sa.select(accounts.c.password_hash).where(accounts.c.id == account_id)).scalar()
            return None if found is None else str(found)

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self.engine.begin() as c:
            c.execute(accounts.update().where(accounts.c.id == account_id).values(password_hash=password_hash))

    def set_settings(self, account_id: str, settings: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            c.execute(accounts.update().where(accounts.c.id == account_id).values(settings=settings))

    def set_disabled(self, account_id: str, disabled: bool) -> None:
        """An operator disables (or enables again) an account; a disabled one is signed out everywhere."""
        with self.engine.begin() as c:
            c.execute(accounts.update().where(accounts.c.id == account_id).values(disabled=disabled))
            if disabled:
                c.execute(sessions.delete().where(sessions.c.account_id == account_id))

    def delete(self, account_id: str) -> bool:
        """Delete an account: its row (name, e-mail, password hash, settings) and, by their foreign keys, its
        sessions, tokens, links and relations. The seats it took stay in their games, bound to nobody, their name
        gone (``former``: shown as a former player), and so do their lines of chat. Whether it existed."""
        with self.engine.begin() as c:
            taken = c.execute(sa.select(seats.c.table_id, seats.c.seat).where(seats.c.account_id == account_id)).all()
            for table_id, seat in taken:
                c.execute(chat.update().where(chat.c.table_id == table_id, chat.c.seat == seat).values(name=""))
            c.execute(seats.update().where(seats.c.account_id == account_id)
                      .values(name="", former=True, account_id=None))
            bands.forget(c, account_id)  # its ratings go with it (their key): the boards' counts lose them here
            return bool(c.execute(accounts.delete().where(accounts.c.id == account_id)).rowcount)

    # -- sessions ----------------------------------------------------------------------------------------------
    def start_session(self, account_id: str, id_hash: str) -> None:
        at = now()
        with self.engine.begin() as c:
            c.execute(sessions.insert().values(id_hash=id_hash, account_id=account_id, created_at=at, seen_at=at))

    def session_account(self, id_hash: str, idle: dt.timedelta, lifetime: dt.timedelta) -> AccountRow | None:
        """The account of a session that has neither been idle for ``idle`` nor lasted ``lifetime``, and is not
        disabled; a session past either is ended here."""
        at = now()
        with self.engine.begin() as c:
            found = c.execute(sa.select(sessions.c.created_at, sessions.c.seen_at, accounts)
                              .join(accounts, accounts.c.id == sessions.c.account_id)
                              .where(sessions.c.id_hash == id_hash)).mappings().first()
            if found is None:
                return None
            created, seen = _aware(found["created_at"]), _aware(found["seen_at"])
            if at - seen > idle or at - created > lifetime or found["disabled"]:
                c.execute(sessions.delete().where(sessions.c.id_hash == id_hash))
                return None
            if at - seen > SEEN_EVERY:
                c.execute(sessions.update().where(sessions.c.id_hash == id_hash).values(seen_at=at))
            return _row(found)

    def end_session(self, id_hash: str) -> None:
        with self.engine.begin() as c:
            c.execute(sessions.delete().where(sessions.c.id_hash == id_hash))

    def end_sessions(self, account_id: str, keep: str | None = None) -> int:
        """End every session of an account but ``keep`` (a session id's hash); how many were ended."""
        with self.engine.begin() as c:
            which = sessions.delete().where(sessions.c.account_id == account_id)
            if keep is not None:
                which = which.where(sessions.c.id_hash != keep)
            return int(c.execute(which).rowcount)


def _aware(at: dt.datetime) -> dt.datetime:
    """SQLite gives back times without their zone: they were stored in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)
