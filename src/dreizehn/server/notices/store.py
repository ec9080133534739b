"""The notices' storage: the games waiting for an account (its turn clocks), the account's mail choice, its
browsers' push subscriptions, the turns told, and the outbox of mails. Every method is one short transaction (call
them from a thread)."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.daily.schema import server_secrets
from dreizehn.server.notices.schema import mail_outbox, notice_prefs, notices_told, push_outbox, push_subscriptions
from dreizehn.server.storage import now, seats, tables
from dreizehn.server.storage.schema import insert_into
from dreizehn.server.turns.schema import turn_clocks

MAIL_CHOICES = ("off", "each", "digest")
"""What an account may ask to be told by mail (rule N5)."""
VAPID_NAME = "vapid"
"""The name of the server's VAPID private key (raw, base64url) in ``server_secrets``."""
LINK_KEY_NAME = "notices"
"""The name of the key that signs the unsubscribe links (hex) in ``server_secrets``."""


def utc(at: dt.datetime) -> dt.datetime:
    """A stored time as an aware UTC time (SQLite gives it back naive)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Waiting:
    """A game waiting for an account's move: its table, game, the account's seat, when its time runs out."""

    table_id: str
    game_id: str
    seat: int
    due_at: dt.datetime


@dataclass(frozen=True)
class Subscription:
    """A browser's Web Push subscription."""

    id: str
    account_id: str
    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class Recipient:
    """What a mail to an account needs: its name, verified address (``None``: none, or not verified), settings
    (its language) and mail choice."""

    account_id: str
    name: str
    email: str | None
    settings: dict[str, object]
    mail: str


@dataclass(frozen=True)
class Outgoing:
    """A mail of the outbox due to be sent."""

    id: int
    message: str
    attempts: int


@dataclass(frozen=True)
class Push:
    """A push of the outbox, claimed to be sent: its row, the subscription, the payload, the tries so far and when
    it was stored."""

    id: int
    subscription: Subscription
    payload: str
    attempts: int
    created_at: dt.datetime


def endpoint_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _take(c: Connection, table: sa.Table, due: Sequence[Any], until: dt.datetime,
          *where: sa.ColumnElement[bool]) -> list[Any]:
    """The rows of an outbox (``due``: read with their ``id`` and ``next_at``) this transaction claims until
    ``until``: each that no other process claimed since it was read (its ``next_at`` unchanged)."""
    taken = []
    for r in due:
        done = c.execute(table.update().where(table.c.id == r.id, table.c.next_at == r.next_at, *where)
                         .values(next_at=until))
        if done.rowcount:
            taken.append(r)
    return taken


def _subscription(r: Any) -> Subscription:
    return Subscription(str(r.subscription_id), str(r.account_id), str(r.endpoint), str(r.p256dh), str(r.auth))


class NoticeStore:
    """The notices' tables on the server's database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- secrets ---------------------------------------------------------------------------------------------------
    def secret(self, name: str, make: str) -> str:
        """The server secret ``name``: ``make`` stored at the first start (of any process), the stored one after."""
        with self.engine.begin() as c:
            c.execute(insert_into(server_secrets, c.dialect.name).values(name=name, value=make)
                      .on_conflict_do_nothing())
            return str(c.execute(sa.select(server_secrets.c.value).where(server_secrets.c.name == name))
                       .scalar_one())

    def link_key(self) -> bytes:
        return bytes.fromhex(self.secret(LINK_KEY_NAME, secrets.token_hex(32)))

    # -- waiting (rule N1) -----------------------------------------------------------------------------------------
    def waiting(self, account_id: str) -> list[Waiting]:
        """The games whose turn clock waits for ``account_id``, the soonest due first."""
        with self.engine.connect() as c:
            rows = c.execute(sa.select(turn_clocks.c.table_id, tables.c.game_id, turn_clocks.c.seat,
                                       turn_clocks.c.due_at)
                             .join(tables, tables.c.id == turn_clocks.c.table_id)
                             .where(turn_clocks.c.account_id == account_id)
                             .order_by(turn_clocks.c.due_at, turn_clocks.c.table_id)).all()
        return [Waiting(r.table_id, r.game_id, r.seat, utc(r.due_at)) for r in rows]

    def players(self, table_id: str) -> list[tuple[int, str, bool, bool]]:
        """A table's seats: number, name, whether a bot's, whether a former player's."""
        return self.players_of([table_id])[table_id]

    def players_of(self, table_ids: list[str]) -> dict[str, list[tuple[int, str, bool, bool]]]:
        """The seats of several tables (as :meth:`players`), by table."""
        found: dict[str, list[tuple[int, str, bool, bool]]] = {table_id: [] for table_id in table_ids}
        if not table_ids:
            return found
        with self.engine.connect() as c:
            rows = c.execute(sa.select(seats.c.table_id, seats.c.seat, seats.c.name, seats.c.bot, seats.c.former)
                             .where(seats.c.table_id.in_(table_ids)).order_by(seats.c.table_id, seats.c.seat)).all()
        for r in rows:
            found[r.table_id].append((r.seat, r.name, r.bot is not None, bool(r.former)))
        return found

    # -- told once (rule N2) ---------------------------------------------------------------------------------------
    def told(self, table_id: str, version: int, kind: str) -> bool:
        """Whether ``kind`` was told at the table's version already (by any process)."""
        with self.engine.connect() as c:
            return c.execute(sa.select(notices_told.c.table_id).where(
                notices_told.c.table_id == table_id, notices_told.c.version == version,
                notices_told.c.kind == kind)).first() is not None

    def tell_once(self, table_id: str, version: int, kind: str, account_id: str, payload: str, mail: str | None,
                  lease: dt.timedelta) -> list[Push] | None:
        """Mark ``kind`` told at the table's version and store what tells it, in one transaction (store, then tell:
        a process that stops after it leaves the telling to the others): a push of ``payload`` to each of the
        account's subscriptions, claimed by the caller for ``lease`` (it sends them at once), and ``mail`` (where
        given) in the mails' outbox. The pushes stored; ``None`` (nothing stored) where it was told already."""
        with self.engine.begin() as c:
            done = c.execute(insert_into(notices_told, c.dialect.name)
                             .values(table_id=table_id, version=version, kind=kind, told_at=now())
                             .on_conflict_do_nothing().returning(notices_told.c.table_id))
            if done.first() is None:  # (not rowcount: psycopg's is -1 here)
                return None
            pushes = self.store_pushes(c, account_id, table_id, kind, payload, now() + lease)
            if mail is not None:
                self._enqueue(c, account_id, table_id, kind, mail, None)
            return pushes

    def forget_told(self, table_id: str) -> None:
        """The table's game is over: its turns told are no longer needed."""
        with self.engine.begin() as c:
            c.execute(notices_told.delete().where(notices_told.c.table_id == table_id))

    # -- the account -----------------------------------------------------------------------------------------------
    def recipient(self, account_id: str) -> Recipient | None:
        with self.engine.connect() as c:
            row = c.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.email, accounts.c.email_verified,
                                      accounts.c.settings, accounts.c.disabled, notice_prefs.c.mail)
                            .outerjoin(notice_prefs, notice_prefs.c.account_id == accounts.c.id)
                            .where(accounts.c.id == account_id)).first()
        if row is None or row.disabled:
            return None
        email = row.email if row.email and row.email_verified else None
        return Recipient(row.id, row.name, email, dict(row.settings or {}), row.mail or "off")

    def set_mail(self, account_id: str, choice: str) -> None:
        with self.engine.begin() as c:
            c.execute(notice_prefs.delete().where(notice_prefs.c.account_id == account_id))
            if choice != "off":
                c.execute(notice_prefs.insert().values(account_id=account_id, mail=choice))

    def digest_accounts(self) -> list[str]:
        """The accounts that asked for a daily digest and have a game waiting."""
        with self.engine.connect() as c:
            return list(c.execute(sa.select(notice_prefs.c.account_id).distinct()
                                  .join(turn_clocks, turn_clocks.c.account_id == notice_prefs.c.account_id)
                                  .where(notice_prefs.c.mail == "digest")).scalars())

    # -- push subscriptions (rule N4) ------------------------------------------------------------------------------
    def subscribe(self, account_id: str, endpoint: str, p256dh: str, auth: str) -> None:
        key = endpoint_id(endpoint)
        with self.engine.begin() as c:  # the same account's again: its pushes waiting (rule N9) stay
            changed = c.execute(push_subscriptions.update().where(push_subscriptions.c.id == key,
                                                                  push_subscriptions.c.account_id == account_id)
                                .values(endpoint=endpoint, p256dh=p256dh, auth=auth))
            if not changed.rowcount:  # new, or another account's (its pushes go with it)
                c.execute(push_subscriptions.delete().where(push_subscriptions.c.id == key))
                c.execute(push_subscriptions.insert().values(id=key, account_id=account_id, endpoint=endpoint,
                                                             p256dh=p256dh, auth=auth, created_at=now()))

    def unsubscribe(self, account_id: str | None, endpoint: str) -> bool:
        """Drop a subscription (of ``account_id`` only, where given); whether there was one."""
        where = [push_subscriptions.c.id == endpoint_id(endpoint)]
        if account_id is not None:
            where.append(push_subscriptions.c.account_id == account_id)
        with self.engine.begin() as c:
            return bool(c.execute(push_subscriptions.delete().where(*where)).rowcount)

    def subscriptions(self, account_id: str) -> list[Subscription]:
        with self.engine.connect() as c:
            rows = c.execute(sa.select(push_subscriptions).where(push_subscriptions.c.account_id == account_id)
                             .order_by(push_subscriptions.c.created_at)).all()
        return [Subscription(r.id, r.account_id, r.endpoint, r.p256dh, r.auth) for r in rows]

    # -- the outbox (rules N5, N7) ---------------------------------------------------------------------------------
    def mailed_since(self, account_id: str, table_id: str | None, kind: str, since: dt.datetime) -> bool:
        """Whether a mail of ``kind`` about ``table_id`` (``None``: a digest) went into the outbox since ``since``."""
        table = mail_outbox.c.table_id.is_(None) if table_id is None else mail_outbox.c.table_id == table_id
        with self.engine.connect() as c:
            return c.execute(sa.select(mail_outbox.c.id).where(
                mail_outbox.c.account_id == account_id, table, mail_outbox.c.kind == kind,
                mail_outbox.c.created_at > since).limit(1)).first() is not None

    def enqueue(self, account_id: str, table_id: str | None, kind: str, message: str,
                dedup: str | None = None) -> bool:
        """Put a mail into the outbox; ``False`` (nothing stored) where one with the same ``dedup`` key is there."""
        with self.engine.begin() as c:
            return self._enqueue(c, account_id, table_id, kind, message, dedup)

    @staticmethod
    def _enqueue(c: Connection, account_id: str, table_id: str | None, kind: str, message: str,
                 dedup: str | None) -> bool:
        stamp = now()
        done = c.execute(insert_into(mail_outbox, c.dialect.name)
                         .values(account_id=account_id, table_id=table_id, kind=kind, message=message,
                                 created_at=stamp, next_at=stamp, dedup=dedup)
                         .on_conflict_do_nothing().returning(mail_outbox.c.id))
        return done.first() is not None

    def claim(self, lease: dt.timedelta, limit: int = 20) -> list[Outgoing]:
        """The unsent mails due now, each claimed for ``lease`` (another process leaves it alone meanwhile)."""
        stamp = now()
        with self.engine.begin() as c:
            rows = c.execute(sa.select(mail_outbox.c.id, mail_outbox.c.message, mail_outbox.c.attempts,
                                       mail_outbox.c.next_at)
                             .where(mail_outbox.c.sent_at.is_(None), mail_outbox.c.next_at <= stamp)
                             .order_by(mail_outbox.c.next_at).limit(limit)).all()
            taken = _take(c, mail_outbox, rows, stamp + lease, mail_outbox.c.sent_at.is_(None))
        return [Outgoing(r.id, r.message, r.attempts) for r in taken]

    def sent(self, mail_id: int) -> None:
        with self.engine.begin() as c:
            c.execute(mail_outbox.update().where(mail_outbox.c.id == mail_id).values(sent_at=now()))

    def failed(self, mail_id: int, attempts: int, wait: dt.timedelta, table: sa.Table = mail_outbox) -> None:
        """A mail (or, with ``table`` ``push_outbox``, a push) not taken: tried again after ``wait``."""
        with self.engine.begin() as c:
            c.execute(table.update().where(table.c.id == mail_id).values(attempts=attempts, next_at=now() + wait))

    def drop_unsent(self, account_id: str) -> None:
        """An account that asked for no more mail: what waits in the outbox for it is not sent."""
        with self.engine.begin() as c:
            c.execute(mail_outbox.delete().where(mail_outbox.c.account_id == account_id,
                                                 mail_outbox.c.sent_at.is_(None)))

    def next_due(self) -> dt.datetime | None:
        with self.engine.connect() as c:
            found = c.execute(sa.select(sa.func.min(mail_outbox.c.next_at))
                              .where(mail_outbox.c.sent_at.is_(None))).scalar()
        return None if found is None else utc(found)


    # -- the pushes' outbox (rule N9) -----------------------------------------------------------------------------
    @staticmethod
    def store_pushes(c: Connection, account_id: str, table_id: str | None, kind: str, payload: str,
                     until: dt.datetime) -> list[Push]:
        """Put a push of ``payload`` into the outbox for each subscription of the account, claimed by the caller
        until ``until`` (it sends them at once; after that, any process may); in the transaction of ``c`` (the
        one of :meth:`tell_once`)."""
        stamp = now()
        stored = []
        for r in c.execute(sa.select(push_subscriptions.c.id.label("subscription_id"), push_subscriptions.c.account_id,
                                     push_subscriptions.c.endpoint, push_subscriptions.c.p256dh,
                                     push_subscriptions.c.auth)
                           .where(push_subscriptions.c.account_id == account_id)
                           .order_by(push_subscriptions.c.created_at)).all():
            push_id = c.execute(push_outbox.insert().values(subscription_id=r.subscription_id, table_id=table_id,
                                                            kind=kind, payload=payload, created_at=stamp,
                                                            next_at=until).returning(push_outbox.c.id)).scalar_one()
            stored.append(Push(int(push_id), _subscription(r), payload, 0, stamp))
        return stored

    def claim_pushes(self, lease: dt.timedelta, limit: int = 20) -> list[Push]:
        """The pushes due now (tried again, or left by a process that stopped before it sent them), each claimed
        for ``lease``."""
        stamp = now()
        with self.engine.begin() as c:
            rows = c.execute(sa.select(push_outbox.c.id, push_outbox.c.next_at, push_outbox.c.payload,
                                       push_outbox.c.attempts, push_outbox.c.created_at,
                                       push_outbox.c.subscription_id, push_subscriptions.c.account_id,
                                       push_subscriptions.c.endpoint, push_subscriptions.c.p256dh,
                                       push_subscriptions.c.auth)
                             .join(push_subscriptions, push_subscriptions.c.id == push_outbox.c.subscription_id)
                             .where(push_outbox.c.next_at <= stamp)
                             .order_by(push_outbox.c.next_at).limit(limit)).all()
            taken = _take(c, push_outbox, rows, stamp + lease)
        return [Push(r.id, _subscription(r), r.payload, r.attempts, utc(r.created_at)) for r in taken]

    def pushed(self, push_id: int) -> None:
        """A push done with (taken by its service, or given up): out of the outbox."""
        with self.engine.begin() as c:
            c.execute(push_outbox.delete().where(push_outbox.c.id == push_id))


def sign(key: bytes, account_id: str) -> str:
    """The token of an account's unsubscribe link (rule N6): its id and a signature of it."""
    mac = hmac.new(key, b"unsubscribe:" + account_id.encode(), hashlib.sha256).digest()[:18]
    return f"{account_id}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def signed_account(key: bytes, token: str) -> str | None:
    """The account an unsubscribe token names, where its signature is right; else ``None``."""
    account_id, _, _ = token.partition(".")
    if not account_id or len(token) > 80:
        return None
    return account_id if hmac.compare_digest(sign(key, account_id), token) else None
