"""Signing up, in and out (rules U1–U5): what the routes ask of accounts, put together from the store, the password
hashing and the rate limits.

A session is a random id (192 bits) in an HttpOnly, SameSite=Lax cookie, stored hashed; a new one is made at every
sign-in and every change of password. Its CSRF token is derived from it (:func:`csrf_of`), so it needs no storage and
dies with it. Sign-ins are limited per address (every try) and per account (failed tries), sign-ups per address, in
the process's memory (several processes each keep their own count: a limit is then per process).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy.engine import Engine
from starlette.requests import cookie_parser

from dreizehn.server.accounts.names import name_key, user_name
from dreizehn.server.accounts.passwords import Passwords, check_new
from dreizehn.server.accounts.relations import Relations
from dreizehn.server.accounts.store import AccountRow, AccountStore
from dreizehn.server.accounts.tokens import PREFIX, Tokens, is_api_token
from dreizehn.server.refusals import ServerError
from dreizehn.server.settings import Settings
from dreizehn.server.storage import hash_token, new_token
from dreizehn.server.text import refused_character

EMAIL = re.compile(r"^[^@\s<>()\[\]\\,;:\"']{1,64}@[^@\s<>()\[\]\\,;:\"'.]+(\.[^@\s<>()\[\]\\,;:\"'.]+)+$")
r"""An e-mail address as the server takes it: something, ``@``, a domain with a dot, none of the characters that
need quoting in an address (``<>()[]\,;:"'``) nor a blank; a link sent to it proves it."""


def cookie_name(settings: Settings) -> str:
    """The session cookie's name: ``__Host-`` prefixed where it is Secure (the browser then keeps it to this host,
    over https, for every path)."""
    return "__Host-dz_session" if settings.cookie_secure else "dz_session"


def bearer(header: str) -> str | None:
    """The value of an ``Authorization: Bearer …`` header, or ``None`` (no header, another scheme).

    >>> bearer("Bearer dzt_abc"), bearer("bearer  x "), bearer("Basic eDp5"), bearer("")
    ('dzt_abc', 'x', None, None)
    """
    scheme, _, value = header.strip().partition(" ")
    return (value.strip() or None) if scheme.lower() == "bearer" else None


def _header(headers: Mapping[str, str], name: str) -> str:
    """A header by its lower-case name (a starlette ``Headers`` is case-blind; a plain ``dict`` may not be)."""
    found = headers.get(name)
    if found is None:
        found = next((value for key, value in headers.items() if key.lower() == name), "")
    return found


def csrf_of(session_id: str) -> str:
    """The CSRF token of a session (rule U4): known to whoever holds the session id, and to nobody else."""
    return hashlib.sha256(f"csrf:{session_id}".encode()).hexdigest()[:32]


def email_address(raw: str | None) -> str | None:
    """An e-mail address as given (blanks around it dropped), or ``None`` for none; refused (``account.email``,
    U1) when it is no address or holds a character no text may hold."""
    if raw is None or not raw.strip():
        return None
    address = raw.strip()
    if len(address) > 254 or refused_character(address) is not None or not EMAIL.match(address):
        raise ServerError("account.email", rule="U1")
    return address


@dataclass(frozen=True)
class Signed:
    """A sign-in: the account, and the session id its cookie carries."""

    account: AccountRow
    session: str

    @property
    def csrf(self) -> str:
        return csrf_of(self.session)


class Accounts:
    """The accounts of one server process."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.store = AccountStore(engine)
        self.relations = Relations(engine)
        self.tokens = Tokens(engine)
        self.cookie_name = cookie_name(settings)
        self.passwords = Passwords(settings.password_memory_kib, settings.password_passes)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.signin_account: RateLimitItem = parse(settings.signin_limit_account)
        self.signin_address: RateLimitItem = parse(settings.signin_limit_address)
        self.signup_address: RateLimitItem = parse(settings.signup_limit_address)
        self.idle = dt.timedelta(days=settings.session_idle_days)
        self.lifetime = dt.timedelta(days=settings.session_days)
        self.ended_at = 0.0
        """When (``time.monotonic``) this process last ended a session: a connection acting for an account's seat
        checks its session in the database again at its next message (rule U7, :mod:`dreizehn.server.routes.ws`)."""

    def sessions_ended(self) -> None:
        """Say that sessions ended (signed out, a new password, an account deleted or disabled), once they are
        ended in the database: every connection of an account's seat in this process checks its own there at its
        next message."""
        self.ended_at = time.monotonic()

    def _limit(self, item: RateLimitItem, *keys: str) -> None:
        """Count one try against ``item``; refused (``account.too_many``, U5, 429, with ``Retry-After``) when the
        window's tries are spent."""
        if not self.limiter.hit(item, *keys):
            wait = max(1, int(self.limiter.get_window_stats(item, *keys).reset_time - _wall()))
            raise ServerError("account.too_many", rule="U5", status=429, seconds=wait,
                              headers=(("Retry-After", str(wait)),))

    async def _start(self, account: AccountRow) -> Signed:
        session = new_token()
        await asyncio.to_thread(self.store.start_session, account.id, hash_token(session))
        return Signed(account, session)

    async def sign_up(self, name: str, password: str, email: str | None, address: str) -> Signed:
        """A new account, signed in (U1, U2): its name, password and address checked before anything is hashed or
        counted; ``account.name_taken`` (409) where its name (or one that looks the same) is someone's."""
        shown = user_name(name)
        check_new(password)
        mail = email_address(email)
        self._limit(self.signup_address, "signup", address)
        hashed = await self.passwords.hash(password)
        account = await asyncio.to_thread(self.store.create, shown, name_key(shown), mail, hashed)
        if account is None:
            raise ServerError("account.name_taken", rule="U1", status=409, name=shown)
        return await self._start(account)

    async def sign_in(self, name: str, password: str, address: str) -> Signed:
        """Sign in (U3): an unknown name and a wrong password get one answer (``account.bad_signin``, 401) after
        the same work, one password check each; limited per address and per account (U5)."""
        key = name_key(name)
        self._limit(self.signin_address, "signin", address)
        if self.limiter.get_window_stats(self.signin_account, "account", key).remaining <= 0:
            self._limit(self.signin_account, "account", key)  # refused, with the time to wait
        found = await asyncio.to_thread(self.store.by_key, key)
        matched, rehashed = await self.passwords.verify(password, found[1] if found else None)
        if not matched or found is None:
            self.limiter.hit(self.signin_account, "account", key)
            raise ServerError("account.bad_signin", rule="U3", status=401)
        account = found[0]
        if account.disabled:
            raise ServerError("account.disabled", rule="U3", status=403)
        if rehashed is not None:
            await asyncio.to_thread(self.store.set_password, account.id, rehashed)
        return await self._start(account)

    async def session(self, session: str) -> AccountRow | None:
        """The account a session id is signed in to, or ``None`` (none such, ended, too old, disabled)."""
        return await asyncio.to_thread(self.store.session_account, hash_token(session), self.idle, self.lifetime)

    async def token_account(self, token: str) -> AccountRow:
        """The account a personal API token acts for (U9); refused (``account.bad_token``, 401) for one that is
        no account's (unknown, revoked, or of a disabled account)."""
        account = await asyncio.to_thread(self.tokens.account_of, token) if is_api_token(token) else None
        if account is None:
            raise ServerError("account.bad_token", rule="U9", status=401)
        return account

    async def who(self, headers: Mapping[str, str]) -> AccountRow | None:
        """The account a request or a websocket's handshake acts for, by its headers: a personal API token
        (``Authorization: Bearer dzt_…``, refused with ``account.bad_token`` where it is no account's), else the
        session cookie; ``None`` for a guest (no cookie, or one of a session that ended). Another bearer value
        (the operators' token) counts for nothing here."""
        given = bearer(_header(headers, "authorization"))
        if given is not None and given.startswith(PREFIX):
            return await self.token_account(given)
        cookie = cookie_parser(_header(headers, "cookie")).get(self.cookie_name)
        if not cookie or len(cookie) > 64:
            return None
        return await self.session(cookie)

    async def sign_out(self, session: str) -> None:
        await asyncio.to_thread(self.store.end_session, hash_token(session))
        self.sessions_ended()

    async def sign_out_everywhere(self, account: AccountRow) -> None:
        await asyncio.to_thread(self.store.end_sessions, account.id)
        self.sessions_ended()

    async def _confirm(self, account: AccountRow, password: str) -> None:
        """Refuse (``account.wrong_password``, 403) unless ``password`` is the account's."""
        stored = await asyncio.to_thread(self.store.password_hash, account.id)
        matched, _ = await self.passwords.verify(password, stored)
        if not matched:
            raise ServerError("account.wrong_password", rule="U3", status=403)

    async def change_password(self, account: AccountRow, password: str, new_password: str) -> Signed:
        """A new password (U2) given the one in use: every session of the account ends, and this browser gets a new
        one."""
        check_new(new_password, "new_password")
        await self._confirm(account, password)
        hashed = await self.passwords.hash(new_password, "new_password")
        await asyncio.to_thread(self.store.set_password, account.id, hashed)
        await asyncio.to_thread(self.store.end_sessions, account.id)
        self.sessions_ended()
        return await self._start(account)

    async def delete(self, account: AccountRow, password: str) -> None:
        """Delete the account given its password (U10): :meth:`AccountStore.delete`."""
        await self._confirm(account, password)
        await asyncio.to_thread(self.store.delete, account.id)
        self.sessions_ended()


def _wall() -> float:
    """The wall clock the rate limits count with (the ``limits`` library's own)."""
    return time.time()
