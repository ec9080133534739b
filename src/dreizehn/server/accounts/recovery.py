"""An account's e-mail address and a forgotten password (rule U6): what the routes ask, put together from the links'
store (:mod:`.links`), the mail (:mod:`.mail`), the password hashing and the rate limits of :class:`~.service.Accounts`.

Every link is stored before it is sent and before the request is answered (a link anybody holds works, a server
killed right after the answer loses none). Asking for a reset answers the same, after the same work but the mail,
whether the name or address asked for is anyone's: nobody learns from it who has an account. Time is read from
:attr:`Recovery.clock` (the tests move it).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Callable

from limits import RateLimitItem, parse

from dreizehn.server.accounts.links import RESET, VERIFY, LinkStore, email_key
from dreizehn.server.accounts.mail import RESET_MINUTES, VERIFY_HOURS, Mailer, mail_language
from dreizehn.server.accounts.names import name_key
from dreizehn.server.accounts.passwords import check_new
from dreizehn.server.accounts.service import Accounts, email_address
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.refusals import ServerError
from dreizehn.server.settings import Settings
from dreizehn.server.storage import hash_token, new_token, now

log = logging.getLogger("dreizehn.server.mail")


class Recovery:
    """Verifying addresses and resetting passwords, for the accounts of one server process."""

    def __init__(self, accounts: Accounts, settings: Settings, mailer: Mailer | None = None) -> None:
        self.accounts = accounts
        self.links = LinkStore(accounts.store.engine)
        self.mailer = mailer or Mailer(settings)
        self.limiter = accounts.limiter
        self.reset_address: RateLimitItem = parse(settings.reset_limit_address)
        self.reset_account: RateLimitItem = parse(settings.reset_limit_account)
        self.clock: Callable[[], dt.datetime] = now
        """The time links are made and checked at."""

    def _limit(self, item: RateLimitItem, *keys: str) -> None:
        """Count one try; refused (``account.too_many``, U5, 429, ``Retry-After``) when the window's are spent."""
        if not self.limiter.hit(item, *keys):
            wait = max(1, int(self.limiter.get_window_stats(item, *keys).reset_time - time.time()))
            raise ServerError("account.too_many", rule="U5", status=429, seconds=wait,
                              headers=(("Retry-After", str(wait)),))

    async def set_email(self, account: AccountRow, raw: str | None, base: str, lang: str) -> None:
        """Give the account a new address (none for ``None`` or blank), unverified until the link mailed to it is
        opened (``<base>/verify/<token>``, :data:`~.mail.VERIFY_HOURS` hours). The same address once more, verified,
        changes nothing. Limited per account (``account.too_many``)."""
        address = email_address(raw)
        if address is not None and account.email_verified and email_key(account.email or "") == email_key(address):
            return
        self._limit(self.reset_account, "email", account.id)
        token = new_token() if address is not None else None
        expires = self.clock() + dt.timedelta(hours=VERIFY_HOURS)
        await asyncio.to_thread(self.links.set_email, account.id, address, token and hash_token(token), expires)
        if address is not None and token is not None:
            self.mailer.tell(address, mail_language(account.settings, lang), VERIFY, account.name,
                             f"{base}/verify/{token}")

    async def send_verify(self, account: AccountRow, base: str, lang: str) -> None:
        """Mail the link that verifies the account's address (at sign-up), stored first."""
        if account.email is None:
            return
        token = new_token()
        expires = self.clock() + dt.timedelta(hours=VERIFY_HOURS)
        await asyncio.to_thread(self.links.add, account.id, VERIFY, hash_token(token), account.email, expires)
        self.mailer.tell(account.email, mail_language(account.settings, lang), VERIFY, account.name,
                         f"{base}/verify/{token}")

    async def verify(self, token: str) -> AccountRow:
        """Open a verify link: the account's address is proved (``account.link_*`` for one that does not work)."""
        return await asyncio.to_thread(self.links.verify, hash_token(token), self.clock())

    async def _targets(self, asked: str) -> list[AccountRow]:
        """The accounts a reset asked for by ``asked`` may be mailed to: those whose verified address it is, or the
        account of that user name if its address is verified; none disabled."""
        if "@" in asked:
            return await asyncio.to_thread(self.links.verified, asked)
        found = await asyncio.to_thread(self.accounts.store.by_key, name_key(asked))
        if found is None:
            return []
        account = found[0]
        return [account] if account.email and account.email_verified and not account.disabled else []

    async def ask_reset(self, asked: str, address: str, base: str, lang: str) -> None:
        """Mail a reset link (``<base>/reset/<token>``, :data:`~.mail.RESET_MINUTES` minutes) to each account
        ``asked`` (a user name or an e-mail address) names, or to none: the caller answers the same either way.
        Limited per address asking and per name or address asked (``account.too_many``, 429, alike for anyone's
        and nobody's), and per account mailed (past it, nothing is mailed: the operator's log says so)."""
        asked = asked.strip()
        self._limit(self.reset_address, "reset", address)
        self._limit(self.reset_account, "reset-asked", email_key(asked) if "@" in asked else name_key(asked))
        expires = self.clock() + dt.timedelta(minutes=RESET_MINUTES)
        for account in await self._targets(asked):
            if not self.limiter.hit(self.reset_account, "reset-mailed", account.id):
                log.warning("the account %s was sent its limit of reset links: no more for now", account.name)
                continue
            token = new_token()
            await asyncio.to_thread(self.links.add, account.id, RESET, hash_token(token), account.email, expires)
            assert account.email is not None
            self.mailer.tell(account.email, mail_language(account.settings, lang), RESET, account.name,
                             f"{base}/reset/{token}")

    async def reset(self, token: str, password: str) -> None:
        """Open a reset link with a new password (U2): the link is checked first (``account.link_*``), then the new
        password's rules (length, not a common one), then it is hashed and set, every session of the account ends,
        and the link (with every other reset link of the account) works no more."""
        token_hash = hash_token(token)
        await asyncio.to_thread(self.links.check, token_hash, RESET, self.clock())
        check_new(password)
        hashed = await self.accounts.passwords.hash(password)
        await asyncio.to_thread(self.links.reset, token_hash, self.clock(), hashed)
        self.accounts.sessions_ended()  # the connections of its seats ask again at their next message
