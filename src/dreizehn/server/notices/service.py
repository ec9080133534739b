"""The notices (issue 46 item 2, docs/notices.md): told of turn-based tables' turns by the turn clock's hooks
(:class:`~dreizehn.server.turns.hooks.TurnHooks`), they store a push for each of the person's browsers and a mail
(the outboxes), then send the pushes; a task of every process sends the outboxes' mails and pushes that are due
(tried again later while the mail server or a push service is down) and the daily digests.

Each hook returns at once: its work runs in a task of its own, the database and the push services off the event
loop; a failure is logged, never raised into the game."""

from __future__ import annotations

import asyncio
import datetime as dt
import email
import email.policy
import logging
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import urlsplit

import aiosmtplib
from sqlalchemy.engine import Engine

from dreizehn.server.accounts.mail import mail_language
from dreizehn.server.accounts.seats import seat_path
from dreizehn.server.notices import wording
from dreizehn.server.notices.push import GONE, TTL, Pusher, try_again
from dreizehn.server.notices.schema import push_outbox
from dreizehn.server.notices.store import NoticeStore, Push, Recipient, Waiting, sign
from dreizehn.server.settings import Settings
from dreizehn.server.storage import now
from dreizehn.server.turns.hooks import TurnClock
from dreizehn.server.waiting import wait_then_cancel, woken
from dreizehn.words import words

log = logging.getLogger("dreizehn.server.notices")
TTL_SPAN = dt.timedelta(seconds=TTL)


class Notices:
    """The notices of one server process (a :class:`TurnHooks`). Made in a thread (it reads its keys)."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.store = NoticeStore(engine)
        self.settings = settings
        self.pusher = Pusher(self.store, settings)
        self.link_key = self.store.link_key()
        self.clock: Callable[[], dt.datetime] = now
        self.pending: set[asyncio.Task[Any]] = set()
        self.wake: asyncio.Event | None = None

    # -- the turn clock's hooks ------------------------------------------------------------------------------------
    def turn(self, clock: TurnClock) -> None:
        self._spawn(self.tell(clock, "turn"))

    def reminder(self, clock: TurnClock) -> None:
        self._spawn(self.tell(clock, "reminder"))

    def timed_out(self, clock: TurnClock, rule: str) -> None:
        """Nothing is told: the table itself shows what the rule did."""

    def ended(self, table_id: str) -> None:
        self._spawn(asyncio.to_thread(self.store.forget_told, table_id))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(self._guarded(work))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    @staticmethod
    async def _guarded(work: Coroutine[Any, Any, Any]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a notice failed")

    # -- telling a turn (rules N2, N4, N5, N8) ---------------------------------------------------------------------
    async def tell(self, clock: TurnClock, kind: str) -> None:
        """Tell the person of ``clock`` that it is their turn (``kind`` ``turn``) or that their time runs out soon
        (``reminder``): once per table and version, whatever process or restart says it again. Store, then tell:
        the mark, the pushes and the mail are stored in one transaction, and the pushes sent from their rows after
        it; a process that stops in between leaves them to the outbox's task of the next (rule N9)."""
        if clock.account_id is None:
            return
        if await asyncio.to_thread(self.store.told, clock.table_id, clock.version, kind):
            return
        person = await asyncio.to_thread(self.store.recipient, clock.account_id)
        if person is None:
            return
        lang = mail_language(person.settings, "en")
        players = wording.others(lang, await asyncio.to_thread(self.store.players, clock.table_id), clock.seat)
        remaining = clock.due_at - self.clock()
        payload = wording.push_notice(lang, kind, clock.game_id, players, clock.due_at,
                                   seat_path(clock.table_id, clock.seat), clock.table_id)
        mail = None
        if self._mails(person, kind) and await self._not_mailed_lately(person, clock, kind):
            mail = self._turn_mail(person, lang, kind, clock, players, remaining)
        pushes = await asyncio.to_thread(self.store.tell_once, clock.table_id, clock.version, kind,
                                         person.account_id, payload, mail, self._push_lease())
        if pushes is None:  # another process (or call) told it meanwhile
            return
        if mail is not None:
            self.nudge()
        await self.send_pushes(pushes)

    # -- the pushes (rules N4, N9) ---------------------------------------------------------------------------------
    def _push_lease(self) -> dt.timedelta:
        """How long a process holds the pushes it sends (the others leave them alone): two of a push's timeouts
        (connecting, then the answer), and a little more."""
        return dt.timedelta(seconds=2 * self.settings.push_timeout + 5)

    async def send_pushes(self, pushes: list[Push]) -> int:
        """Send the (claimed) ``pushes``, all at once, each in a thread; the number the push services took."""
        done = await asyncio.gather(*(self._send(push) for push in pushes), return_exceptions=True)
        for failure in (d for d in done if isinstance(d, BaseException)):
            log.error("a push failed", exc_info=failure)
        return sum(1 for d in done if d is True)

    async def pushes_due(self) -> int:
        """Send the outbox's pushes that are due: tried again, or left by a process that stopped before it sent
        them. The number the push services took."""
        return await self.send_pushes(await asyncio.to_thread(self.store.claim_pushes, self._push_lease()))

    async def _send(self, push: Push) -> bool:
        """Send a push of the outbox. Taken (2xx), it goes; a subscription its service says is gone (404, 410) is
        dropped, its pushes with it; no answer, 429 or 5xx: tried again later (each wait twice the one before, up
        to ``notice_retry_max``), until ``push_tries`` tries or a day (its TTL); any other refusal: given up. Logged
        with the push service's host only (an endpoint's path and the browser's keys are the browser's secrets)."""
        settings = self.settings
        payload = wording.push_said(push.payload, self.clock())
        if payload is None:
            await asyncio.to_thread(self.store.pushed, push.id)
            log.info("a push was dropped: the time it spoke of ran out before it was taken")
            return False
        status = await asyncio.to_thread(self.pusher.send, push.subscription, payload)
        if 200 <= status < 300:
            await asyncio.to_thread(self.store.pushed, push.id)
            return True
        if status in GONE:
            await asyncio.to_thread(self.store.unsubscribe, None, push.subscription.endpoint)
            log.info("a push subscription of an account was dropped: its service answered %s", status)
            return False
        tries, host = push.attempts + 1, urlsplit(push.subscription.endpoint).hostname
        answer = status or "none"
        if not try_again(status) or tries >= settings.push_tries or self.clock() - push.created_at >= TTL_SPAN:
            await asyncio.to_thread(self.store.pushed, push.id)
            log.warning("a push to %s was dropped after %d tries (its last answer: %s)", host, tries, answer)
            return False
        wait = min(settings.notice_retry * 2 ** push.attempts, settings.notice_retry_max)
        await asyncio.to_thread(self.store.failed, push.id, tries, dt.timedelta(seconds=wait), push_outbox)
        log.info("a push to %s was not taken (try %d, again in %.0f s; its answer: %s)", host, tries, wait, answer)
        return False

    def _mails(self, person: Recipient, kind: str) -> bool:
        """Whether a ``kind`` notice is mailed to ``person``: mail is set up, the address verified, and they asked
        for a mail a game (a reminder: for a mail a game or the digest)."""
        if not self.settings.mail_configured or person.email is None:
            return False
        return person.mail == "each" or (kind == "reminder" and person.mail == "digest")

    async def _not_mailed_lately(self, person: Recipient, clock: TurnClock, kind: str) -> bool:
        if kind != "turn":
            return True
        since = self.clock() - dt.timedelta(seconds=self.settings.notice_mail_period)
        return not await asyncio.to_thread(self.store.mailed_since, person.account_id, clock.table_id, "turn", since)

    # -- the mails -------------------------------------------------------------------------------------------------
    def links(self, account_id: str) -> tuple[str, str, str]:
        """The unsubscribe page's link, the one-click address (RFC 8058) and the settings' link of an account."""
        public = (self.settings.public_url or "").rstrip("/")
        token = sign(self.link_key, account_id)
        return (f"{public}/unsubscribe/{token}", f"{public}/api/notices/unsubscribe/{token}",
                f"{public}/me/settings")

    def _compose(self, person: Recipient, lang: str, subject: str, body: str) -> str:
        assert person.email is not None
        page, one_click, settings_link = self.links(person.account_id)
        message = wording.mail(self.settings.smtp_from, person.email, lang, subject, body, page, one_click,
                               settings_link)
        return message.as_string()

    def _turn_mail(self, person: Recipient, lang: str, kind: str, clock: TurnClock, players: str,
                   remaining: dt.timedelta) -> str:
        say = words(lang)
        game = wording.game_name(lang, clock.game_id)
        spoken = wording.left(lang, remaining)
        link = (self.settings.public_url or "").rstrip("/") + seat_path(clock.table_id, clock.seat)
        subject = say(f"notices.mail.{kind}.subject", game=game, left=spoken)
        body = say(f"notices.mail.{kind}.body", name=person.name, game=game, players=players, left=spoken,
                   link=link)
        return self._compose(person, lang, subject, body)

    def _digest_mail(self, person: Recipient, waiting: list[Waiting],
                     seated: dict[str, list[tuple[int, str, bool, bool]]]) -> str:
        lang = mail_language(person.settings, "en")
        say = words(lang)
        public = (self.settings.public_url or "").rstrip("/")
        lines = [say("notices.mail.digest.line", game=wording.game_name(lang, w.game_id),
                     players=wording.others(lang, seated[w.table_id], w.seat),
                     left=wording.left(lang, w.due_at - self.clock()), link=public + seat_path(w.table_id, w.seat))
                 for w in waiting]
        subject = say("notices.mail.digest.subject", n=len(waiting))
        body = say("notices.mail.digest.body", name=person.name, games="\n".join(lines))
        return self._compose(person, lang, subject, body)

    async def digests(self) -> int:
        """Put a digest into the outbox for each account that asked for one, has games waiting and had no digest
        in the last ``notice_digest_period``; how many. Two processes at once store one (its key names the
        account and the period)."""
        if not self.settings.mail_configured:
            return 0
        made = 0
        since = self.clock() - dt.timedelta(seconds=self.settings.notice_digest_period)
        for account_id in await asyncio.to_thread(self.store.digest_accounts):
            person = await asyncio.to_thread(self.store.recipient, account_id)
            if person is None or person.email is None or person.mail != "digest":
                continue
            if await asyncio.to_thread(self.store.mailed_since, account_id, None, "digest", since):
                continue
            waiting = await asyncio.to_thread(self.store.waiting, account_id)
            if not waiting:
                continue
            seated = await asyncio.to_thread(self.store.players_of, [w.table_id for w in waiting])
            slot = int(self.clock().timestamp() // self.settings.notice_digest_period)
            made += await asyncio.to_thread(self.store.enqueue, account_id, None, "digest",
                                            self._digest_mail(person, waiting, seated), f"digest:{account_id}:{slot}")
        if made:
            self.nudge()
        return made

    # -- the outbox (rule N7) --------------------------------------------------------------------------------------
    def nudge(self) -> None:
        """Look at the outbox now."""
        if self.wake is not None:
            self.wake.set()

    async def send_due(self) -> int:
        """Send the outbox's mails that are due; one the SMTP server does not take is tried again later (each wait
        twice the one before, up to ``notice_retry_max``). How many were handed over."""
        settings = self.settings
        if not settings.mail_configured:
            return 0
        lease = dt.timedelta(seconds=2 * settings.smtp_timeout + 30)
        sent = 0
        for mail in await asyncio.to_thread(self.store.claim, lease):
            message = email.message_from_string(mail.message, policy=email.policy.default)
            password = settings.smtp_password.get_secret_value() if settings.smtp_password is not None else None
            try:
                await aiosmtplib.send(message, hostname=settings.smtp_host, port=settings.mail_port,
                                      username=settings.smtp_user or None, password=password,
                                      use_tls=settings.smtp_tls == "tls", start_tls=settings.smtp_tls == "starttls",
                                      timeout=settings.smtp_timeout)
            except (aiosmtplib.SMTPException, OSError, TimeoutError, ValueError) as err:
                wait = min(settings.notice_retry * 2 ** mail.attempts, settings.notice_retry_max)
                await asyncio.to_thread(self.store.failed, mail.id, mail.attempts + 1, dt.timedelta(seconds=wait))
                log.warning("a notice mail was not sent (try %d, again in %.0f s): %s", mail.attempts + 1, wait,
                            type(err).__name__)
                continue
            await asyncio.to_thread(self.store.sent, mail.id)
            sent += 1
        return sent

    async def keep_sending(self) -> None:
        """Send the outboxes' pushes and mails that are due and make the digests, every ``notice_poll`` seconds or
        when nudged."""
        self.wake = asyncio.Event()
        while True:
            try:
                await self.pushes_due()
                await self.digests()
                await self.send_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the outbox of notices failed; trying again")
            await woken(self.wake, self.settings.notice_poll)
            self.wake.clear()

    async def close(self, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` seconds) for the notices being sent, then give up on the rest."""
        await wait_then_cancel(self.pending, timeout)
