"""The accounts' mail (issue 45 item 5): links that verify an address and reset a password, sent through the SMTP
server of the settings (``DREIZEHN_SMTP_*``) with aiosmtplib, as plain text in the account's language (en, de, nl,
from the catalogues: ``mail.*``).

A mail is sent after its link is stored (a link somebody holds always works), off the request: the request is
answered while the mail is handed over, so that its answer takes as long whether a mail goes out or not. A mail that
cannot be handed over is logged for the operator (to whom, which purpose, why; never the link). With no SMTP server
set, nothing is sent: the pages say so (``GET /api/account/mail``), and the operator's log carries the link to pass
on.
"""

from __future__ import annotations

import asyncio
import logging
from email.errors import MessageError
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

import aiosmtplib

from dreizehn.server.settings import Settings
from dreizehn.server.waiting import wait_then_cancel
from dreizehn.words import LANGUAGES, words

log = logging.getLogger("dreizehn.server.mail")

VERIFY_HOURS = 24
"""How long a link that verifies an address works."""
RESET_MINUTES = 60
"""How long a link that resets a password works."""


def mail_language(settings: dict[str, object], asked: str) -> str:
    """The language of a mail to an account: its settings' ``language``, else ``asked`` (the request's), else
    English."""
    chosen = settings.get("language")
    if isinstance(chosen, str) and chosen in LANGUAGES:
        return chosen
    return asked if asked in LANGUAGES else "en"


def compose(sender: str, to: str, lang: str, purpose: str, name: str, link: str) -> EmailMessage:
    """A plain-text mail of ``purpose`` (``verify`` or ``reset``) to ``to`` for the account ``name``, in ``lang``,
    carrying ``link``."""
    say = words(lang)
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = say(f"mail.{purpose}.subject")
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=sender.rsplit("@", 1)[-1].strip("> ") or "localhost")
    body = say(f"mail.{purpose}.body", name=name, email=to, link=link, hours=VERIFY_HOURS, minutes=RESET_MINUTES)
    message.set_content(body + "\n")
    message["Content-Language"] = lang  # after the content: setting it clears the content headers
    return message


class Mailer:
    """Sends the accounts' mail through the settings' SMTP server, each mail in its own task."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pending: set[asyncio.Task[None]] = set()

    @property
    def configured(self) -> bool:
        return self.settings.mail_configured

    def tell(self, to: str, lang: str, purpose: str, name: str, link: str) -> None:
        """Send ``link`` (stored already) to ``to``; without SMTP, log it for the operator instead."""
        if not self.configured:
            log.warning("no mail is sent (DREIZEHN_SMTP_HOST and DREIZEHN_PUBLIC_URL are not both set): the %s link "
                        "of the account %s, for %s: %s", purpose, name, to, link)
            return
        try:
            message = compose(self.settings.smtp_from, to, lang, purpose, name, link)
        except (ValueError, TypeError, MessageError) as err:
            log.error("the %s mail of the account %s could not be written: %s", purpose, name, err)
            return
        task = asyncio.create_task(self._send(message, purpose, name))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _send(self, message: EmailMessage, purpose: str, name: str) -> None:
        settings = self.settings
        password = settings.smtp_password.get_secret_value() if settings.smtp_password is not None else None
        try:
            await aiosmtplib.send(
                message, hostname=settings.smtp_host, port=settings.mail_port,
                username=settings.smtp_user or None, password=password,
                use_tls=settings.smtp_tls == "tls", start_tls=settings.smtp_tls == "starttls",
                timeout=settings.smtp_timeout,
            )
        except (aiosmtplib.SMTPException, OSError, TimeoutError, ValueError) as err:
            log.error("the %s mail of the account %s to %s was not sent (SMTP %s:%s): %s", purpose, name,
                      message["To"], settings.smtp_host, settings.mail_port, type(err).__name__ + ": " + str(err))
            return
        log.info("the %s mail of the account %s was handed to the SMTP server", purpose, name)

    async def close(self, timeout: float = 10.0) -> None:
        """Wait (at most ``timeout`` seconds) for the mails being handed over, then give up on the rest."""
        await wait_then_cancel(self.pending, timeout)

