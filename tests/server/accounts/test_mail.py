"""Issue 45 item 5 and rule U6: e-mail through SMTP, links that verify an address and reset a forgotten password.

The mails are read from a real SMTP server process (aiosmtpd's, writing each mail it takes into a maildir), polled
until the mail is there (bounded); time is moved by the accounts' clock (``Recovery.clock``), never slept through.
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import logging
import mailbox
import re
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx2
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.accounts.schema import accounts, mail_links
from dreizehn.server.settings import Settings
from dreizehn.server.storage import now
from dreizehn.words import words

from ..kit import ServerProcess, eventually, free_port, make_settings
from .people import PASSWORD, code, sign_in, sign_up

NEW_PASSWORD = "a new and better one"


class MailSink:
    """aiosmtpd in its own process on 127.0.0.1, putting every mail it takes into a maildir."""

    def __init__(self, root: Path) -> None:
        self.port = free_port()
        self.maildir = root / "maildir"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{self.port}",
             "-c", "aiosmtpd.handlers.Mailbox", str(self.maildir)],
            stdout=subprocess.DEVNULL, stderr=(root / "smtp.log").open("wb"),
        )
        self.log = root / "smtp.log"
        self.seen: set[str] = set()
        self.inbox: list[EmailMessage] = []
        eventually(self._listening, "the SMTP server listens")

    def _listening(self) -> bool:
        assert self.process.poll() is None, self.log.read_text(errors="replace")
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def env(self) -> dict[str, Any]:
        """The server's settings that send mail here."""
        return {"smtp_host": "127.0.0.1", "smtp_port": self.port, "smtp_tls": "none",
                "smtp_from": "dreizehn <dreizehn@example.org>", "public_url": "http://testserver"}

    def _read(self) -> None:
        """Take the mails the SMTP server wrote since the last look into :attr:`inbox`, in their order."""
        if not self.maildir.exists():
            return
        box = mailbox.Maildir(self.maildir, create=False)
        for key in sorted(set(box.keys()) - self.seen):
            self.seen.add(key)
            self.inbox.append(email.message_from_bytes(box.get_bytes(key), policy=email.policy.default))

    def next(self, to: str) -> EmailMessage:
        """The next mail to ``to`` (waited for), taken out of the inbox."""

        def arrived() -> bool:
            self._read()
            return any(m["To"] == to for m in self.inbox)

        eventually(arrived, f"a mail to {to}")
        mail = next(m for m in self.inbox if m["To"] == to)
        self.inbox.remove(mail)
        return mail

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(10)


@pytest.fixture
def sink(tmp_path: Path) -> Iterator[MailSink]:
    started = MailSink(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def link_of(mail: EmailMessage, kind: str) -> tuple[str, str]:
    """The link of ``kind`` (``verify``, ``reset``) in a mail's text, and its token."""
    body = mail.get_body(("plain",))
    assert body is not None
    text = body.get_content()
    found = re.search(rf"(\S+/{kind}/)(\S+)", text)
    assert found is not None, text
    return found.group(0), found.group(2)


def said(answer: Any, lang: str, key: str) -> bool:
    """Whether a refusal's message says the catalogue's words of ``key`` in ``lang`` (as a sentence)."""
    message: str = answer.json()["detail"]["message"]
    return words(lang)(key).lower() in message.lower()


def _engine(client: TestClient) -> sa.Engine:
    engine: sa.Engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    return engine


def _links(client: TestClient, purpose: str) -> int:
    with _engine(client).connect() as c:
        return int(c.execute(sa.select(sa.func.count()).select_from(mail_links)
                             .where(mail_links.c.purpose == purpose)).scalar_one())


def _browser(client: TestClient) -> TestClient:
    """Another browser on the same server (its own cookies), on the server's event loop (``portal``): a
    ``TestClient`` outside a ``with`` runs each request on an event loop of its own, which ends with the request,
    and the mail being sent with it."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def _clock(client: TestClient, later: dt.timedelta) -> None:
    """Move the accounts' clock ``later`` from now."""
    client.app.state.recovery.clock = lambda: now() + later  # type: ignore[attr-defined]


def verified_account(client: TestClient, sink: MailSink, name: str = "Anna",
                     address: str = "anna@example.org") -> str:
    """Sign up ``name`` with ``address`` and open the link mailed to it; the CSRF token."""
    csrf = sign_up(client, name, email=address)
    _, token = link_of(sink.next(address), "verify")
    assert client.post("/api/account/verify", json={"token": token}).status_code == 200
    return csrf


@pytest.fixture
def mail_client(serve: Callable[[Settings], TestClient], sink: MailSink, db_settings: Settings) -> TestClient:
    """An in-process server (SQLite and PostgreSQL) that mails through :class:`MailSink`."""
    return serve(db_settings.model_copy(update=sink.env()))


# -- verify --------------------------------------------------------------------------------------------------------
def test_u6_an_address_given_at_sign_up_is_verified_by_its_link_once(mail_client: TestClient,
                                                                      sink: MailSink) -> None:
    client = mail_client
    assert client.get("/api/account/mail").json() == {"configured": True}
    sign_up(client, "Anna", email="anna@example.org")
    assert client.get("/api/session").json()["email_verified"] is False
    mail = sink.next("anna@example.org")
    link, token = link_of(mail, "verify")
    assert link == f"http://testserver/verify/{token}" and mail["From"] == "dreizehn <dreizehn@example.org>"
    assert mail["Subject"] == words("en")("mail.verify.subject")
    stranger = _browser(client)  # the link works in any browser, signed in or not
    answer = stranger.post("/api/account/verify", json={"token": token})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"name": "Anna", "email": "anna@example.org", "email_verified": True}
    assert client.get("/api/session").json()["email_verified"] is True
    again = stranger.post("/api/account/verify", json={"token": token}, params={"lang": "de"})
    assert again.status_code == 410 and code(again) == "account.link_used"
    assert said(again, "de", "account.link_used")
    unknown = stranger.post("/api/account/verify", json={"token": token[:-2] + "xx"})
    assert unknown.status_code == 404 and code(unknown) == "account.link_unknown"


def test_u6_an_address_set_later_is_unverified_until_its_link_and_the_old_link_stops(
        serve: Callable[[Settings], TestClient], sink: MailSink, settings: Settings) -> None:
    client = serve(settings.model_copy(update=sink.env()))
    csrf = verified_account(client, sink)
    answer = client.post("/api/account/email", json={"email": "anna@example.net"}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 202 and answer.json() == {"configured": True}
    me = client.get("/api/session").json()
    assert me["email"] == "anna@example.net" and me["email_verified"] is False
    _, first = link_of(sink.next("anna@example.net"), "verify")
    client.post("/api/account/email", json={"email": "anna@example.com"}, headers={"X-CSRF-Token": csrf})
    _, second = link_of(sink.next("anna@example.com"), "verify")
    old = client.post("/api/account/verify", json={"token": first})
    assert old.status_code == 404 and code(old) == "account.link_unknown"
    assert client.post("/api/account/verify", json={"token": second}).status_code == 200
    me = client.get("/api/session").json()
    assert (me["name"], me["email"], me["email_verified"]) == ("Anna", "anna@example.com", True)


def test_u6_an_address_is_checked_and_needs_a_signed_in_person_with_the_csrf_token(client: TestClient) -> None:
    csrf = sign_up(client, "Anna", email="anna@example.org")
    bad = client.post("/api/account/email", json={"email": "anna at example"}, headers={"X-CSRF-Token": csrf})
    assert bad.status_code == 422 and code(bad) == "account.email"
    assert client.post("/api/account/email", json={"email": "x@example.org"}).status_code == 403  # no CSRF token
    guest = _browser(client).post("/api/account/email", json={"email": "x@example.org"})
    assert guest.status_code == 401 and code(guest) == "account.signed_out"
    assert client.get("/api/session").json()["email"] == "anna@example.org"  # nothing changed
    none = client.post("/api/account/email", json={"email": None}, headers={"X-CSRF-Token": csrf})
    assert none.status_code == 202 and client.get("/api/session").json()["email"] is None


def test_u6_a_verify_link_expires_after_a_day(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, "dreizehn.server.mail"):
        sign_up(client, "Anna", email="anna@example.org")
    token = re.findall(r"/verify/(\S+)", caplog.text)[-1]
    _clock(client, dt.timedelta(hours=24, seconds=1))
    late = client.post("/api/account/verify", json={"token": token})
    assert late.status_code == 410 and code(late) == "account.link_expired"
    _clock(client, dt.timedelta(hours=23, minutes=59))
    assert client.post("/api/account/verify", json={"token": token}).status_code == 200


# -- reset ---------------------------------------------------------------------------------------------------------
def test_u6_a_reset_link_works_once_sets_the_password_and_ends_every_session(mail_client: TestClient,
                                                                             sink: MailSink) -> None:
    client = mail_client
    verified_account(client, sink)
    phone = _browser(client)
    sign_in(phone, "Anna")
    forgetful = _browser(client)
    asked = forgetful.post("/api/account/reset", json={"name": "anna"})
    assert asked.status_code == 202 and asked.json() == {"configured": True}
    mail = sink.next("anna@example.org")
    link, token = link_of(mail, "reset")
    assert link == f"http://testserver/reset/{token}" and mail["Subject"] == words("en")("mail.reset.subject")
    short = forgetful.post("/api/account/reset/confirm", json={"token": token, "password": "short"})
    assert short.status_code == 422 and code(short) == "account.password_length"  # the link still works
    done = forgetful.post("/api/account/reset/confirm", json={"token": token, "password": NEW_PASSWORD})
    assert done.status_code == 204, done.text
    for browser in (client, phone):
        assert browser.get("/api/session").status_code == 401
    again = forgetful.post("/api/account/reset/confirm", json={"token": token, "password": "yet another one"})
    assert again.status_code == 410 and code(again) == "account.link_used"
    assert forgetful.post("/api/session", json={"name": "Anna", "password": PASSWORD}).status_code == 401
    sign_in(forgetful, "Anna", NEW_PASSWORD)


def test_u6_a_reset_link_used_twice_at_once_works_once(mail_client: TestClient, sink: MailSink) -> None:
    client = mail_client
    verified_account(client, sink)
    client.post("/api/account/reset", json={"name": "Anna"})
    _, token = link_of(sink.next("anna@example.org"), "reset")
    browsers = [_browser(client) for _ in range(4)]
    with ThreadPoolExecutor(len(browsers)) as pool:
        answers = list(pool.map(lambda b: b.post("/api/account/reset/confirm", json={
            "token": token, "password": f"{NEW_PASSWORD} {browsers.index(b)}"}), browsers))
    assert sorted(a.status_code for a in answers) == [204, 410, 410, 410]
    winner = next(i for i, a in enumerate(answers) if a.status_code == 204)
    sign_in(client, "Anna", f"{NEW_PASSWORD} {winner}")


def test_u6_a_reset_link_expires_after_an_hour(serve: Callable[[Settings], TestClient], sink: MailSink,
                                               settings: Settings) -> None:
    client = serve(settings.model_copy(update=sink.env()))
    verified_account(client, sink)
    tokens = []
    for _ in range(2):
        assert client.post("/api/account/reset", json={"name": "Anna"}).status_code == 202
        tokens.append(link_of(sink.next("anna@example.org"), "reset")[1])
    _clock(client, dt.timedelta(minutes=60))
    late = client.post("/api/account/reset/confirm", json={"token": tokens[0], "password": NEW_PASSWORD},
                       params={"lang": "nl"})
    assert late.status_code == 410 and code(late) == "account.link_expired"
    assert said(late, "nl", "account.link_expired")
    _clock(client, dt.timedelta(minutes=59))
    assert client.post("/api/account/reset/confirm",
                       json={"token": tokens[1], "password": NEW_PASSWORD}).status_code == 204
    sign_in(client, "Anna", NEW_PASSWORD)


def test_u6_a_link_is_for_its_purpose_only(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, "dreizehn.server.mail"):
        sign_up(client, "Anna", email="anna@example.org")
    verify = re.findall(r"/verify/(\S+)", caplog.text)[-1]
    wrong = client.post("/api/account/reset/confirm", json={"token": verify, "password": NEW_PASSWORD})
    assert wrong.status_code == 404 and code(wrong) == "account.link_unknown"
    assert client.post("/api/account/verify", json={"token": verify}).status_code == 200  # still unused


def test_u6_reset_of_anyone_and_of_nobody_get_the_same_answer(serve: Callable[[Settings], TestClient],
                                                              sink: MailSink, settings: Settings) -> None:
    client = serve(settings.model_copy(update=sink.env()))
    verified_account(client, sink)
    sign_up(_browser(client), "Bruno", email="bruno@example.org")  # an address never verified
    sink.next("bruno@example.org")
    asker = _browser(client)
    answers = {name: asker.post("/api/account/reset", json={"name": name})
               for name in ("Anna", "nobody", "ANNA@example.org", "nobody@example.org", "Bruno")}
    seen = {(a.status_code, a.text, tuple(sorted(k for k in a.headers if k != "date"))) for a in answers.values()}
    assert len(seen) == 1 and next(iter(seen))[0] == 202
    # a link for Anna's name and one for her address; none for Bruno's unverified address (stored before sent)
    sink.next("anna@example.org")
    sink.next("anna@example.org")
    with _engine(client).connect() as c:
        mailed = c.execute(sa.select(accounts.c.name).join(mail_links, mail_links.c.account_id == accounts.c.id)
                           .where(mail_links.c.purpose == "reset")).scalars().all()
    assert sorted(mailed) == ["Anna", "Anna"]


def test_u5_reset_requests_are_limited_alike_for_anyone_and_nobody(
        serve: Callable[[Settings], TestClient], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    client = serve(make_settings(tmp_path, reset_limit_account="2 per hour"))
    with caplog.at_level(logging.WARNING, "dreizehn.server.mail"):
        sign_up(client, "Anna", email="anna@example.org")
    token = re.findall(r"/verify/(\S+)", caplog.text)[-1]
    client.post("/api/account/verify", json={"token": token})
    for name in ("Anna", "nobody"):
        statuses = [client.post("/api/account/reset", json={"name": name}).status_code for _ in range(3)]
        assert statuses == [202, 202, 429], name
    # per account mailed: her address asked twice more gets two answers, and no more links (2 per hour)
    assert [client.post("/api/account/reset", json={"name": "anna@example.org"}).status_code
            for _ in range(2)] == [202, 202]
    assert _links(client, "reset") == 2
    limited = client.post("/api/account/reset", json={"name": "nobody"})
    assert code(limited) == "account.too_many" and int(limited.headers["retry-after"]) > 0


def test_u6_a_reset_a_person_may_not_use_cannot_be_asked_for_by_the_way(client: TestClient) -> None:
    big = client.post("/api/account/reset", json={"name": "A" * 5000})
    assert big.status_code == 422 and code(big) == "server.bad_request"
    odd = client.post("/api/account/reset", json={"name": "Robert');DROP TABLE accounts;--"})
    assert odd.status_code == 202
    long_token = client.post("/api/account/reset/confirm", json={"token": "x" * 200, "password": NEW_PASSWORD})
    assert long_token.status_code == 422


# -- no SMTP server ------------------------------------------------------------------------------------------------
def test_u6_without_smtp_the_answers_say_so_and_the_log_carries_the_link(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    assert client.get("/api/account/mail").json() == {"configured": False}
    with caplog.at_level(logging.WARNING, "dreizehn.server.mail"):
        csrf = sign_up(client, "Anna", email="anna@example.org")
        verify = re.findall(r"http://testserver/verify/(\S+)", caplog.text)
        assert len(verify) == 1
        assert client.post("/api/account/verify", json={"token": verify[0]}).status_code == 200
        changed = client.post("/api/account/email", json={"email": "anna@example.net"},
                              headers={"X-CSRF-Token": csrf})
        assert changed.status_code == 202 and changed.json() == {"configured": False}
        asked = _browser(client).post("/api/account/reset", json={"name": "Anna"})
        assert asked.status_code == 202 and asked.json() == {"configured": False}
    assert "anna@example.net" in caplog.text
    # her new address is not verified yet: the link goes to none; with the new one verified, it does
    assert not re.findall(r"/reset/(\S+)", caplog.text)
    token = re.findall(r"/verify/(\S+)", caplog.text)[-1]
    assert client.post("/api/account/verify", json={"token": token}).status_code == 200
    with caplog.at_level(logging.WARNING, "dreizehn.server.mail"):
        _browser(client).post("/api/account/reset", json={"name": "Anna"})
    reset = re.findall(r"http://testserver/reset/(\S+)", caplog.text)
    assert len(reset) == 1
    assert client.post("/api/account/reset/confirm", json={"token": reset[0], "password": NEW_PASSWORD}).status_code \
        == 204
    sign_in(client, "Anna", NEW_PASSWORD)


def test_u6_a_mail_that_cannot_be_sent_is_logged_without_its_link(
        serve: Callable[[Settings], TestClient], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    nobody_listens = free_port()
    client = serve(make_settings(tmp_path, smtp_host="127.0.0.1", smtp_port=nobody_listens, smtp_tls="none",
                                 smtp_timeout=5, public_url="http://testserver"))
    with caplog.at_level(logging.INFO, "dreizehn.server.mail"):
        sign_up(client, "Anna", email="anna@example.org")
        eventually(lambda: "was not sent" in caplog.text, "the failure logged")
    failure = next(r for r in caplog.records if "was not sent" in r.getMessage())
    assert failure.levelno == logging.ERROR and "Anna" in failure.getMessage()
    assert "/verify/" not in caplog.text and _links(client, "verify") == 1


# -- languages -----------------------------------------------------------------------------------------------------
def test_u6_a_mail_is_in_the_accounts_language_else_the_requests(serve: Callable[[Settings], TestClient],
                                                                  sink: MailSink, settings: Settings) -> None:
    client = serve(settings.model_copy(update=sink.env()))
    sign_up(client, "Dörte", email="doerte@example.org")
    first = sink.next("doerte@example.org")
    assert first["Subject"] == words("en")("mail.verify.subject")
    german = _browser(client)
    german.post("/api/accounts", json={"name": "Bruno", "password": PASSWORD, "email": "bruno@example.org"},
                headers={"Accept-Language": "de-AT, en;q=0.5"})
    mail = sink.next("bruno@example.org")
    assert mail["Subject"] == words("de")("mail.verify.subject")
    assert link_of(mail, "verify")[0] in mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "Hallo Bruno" in mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    verify = client.post("/api/account/verify", json={"token": link_of(first, "verify")[1]})
    assert verify.status_code == 200
    recovery = client.app.state.recovery  # type: ignore[attr-defined]
    account = recovery.accounts.store.by_key("dörte")[0]
    recovery.accounts.store.set_settings(account.id, {"language": "nl"})  # her settings (kept on the server)
    client.post("/api/account/reset", json={"name": "Dörte"}, params={"lang": "de"})
    dutch = sink.next("doerte@example.org")
    assert dutch["Subject"] == words("nl")("mail.reset.subject")
    text = dutch.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert text.startswith("Hallo Dörte,") and "60 minuten" in text


# -- a real server killed right after the answer ------------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgres"])
def database_env(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, Any]:
    if request.param == "postgres":
        return {"DATABASE_URL": request.getfixturevalue("pg_database")}
    return {"DREIZEHN_DATA_DIR": tmp_path / "data"}


def test_u6_kill_9_right_after_a_reset_loses_nothing_acknowledged(
        processes: Callable[..., ServerProcess], sink: MailSink, database_env: dict[str, Any]) -> None:
    env = {**database_env, "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_PASSWORD_MEMORY_KIB": 8192,
           "DREIZEHN_PASSWORD_PASSES": 1, **{f"DREIZEHN_{k.upper()}": v for k, v in sink.env().items()}}
    server = processes(env)
    with httpx2.Client(base_url=server.url, timeout=10.0) as browser:
        signed = browser.post("/api/accounts", json={"name": "Anna", "password": PASSWORD,
                                                     "email": "anna@example.org"})
        assert signed.status_code == 201
        _, verify = link_of(sink.next("anna@example.org"), "verify")
        assert browser.post("/api/account/verify", json={"token": verify}).status_code == 200
        assert browser.post("/api/account/reset", json={"name": "Anna"}).status_code == 202
    mail = sink.next("anna@example.org")
    server.kill()  # SIGKILL, the moment the mail is there
    again = processes(env)
    _, token = link_of(mail, "reset")
    with httpx2.Client(base_url=again.url, timeout=10.0) as browser:
        done = browser.post("/api/account/reset/confirm", json={"token": token, "password": NEW_PASSWORD})
        assert done.status_code == 204, done.text
    again.kill()  # SIGKILL, the moment the new password was acknowledged
    last = processes(env)
    with httpx2.Client(base_url=last.url, timeout=10.0) as browser:
        assert browser.post("/api/session", json={"name": "Anna", "password": NEW_PASSWORD}).status_code == 200
        assert browser.get("/api/session").json()["email_verified"] is True
        used = browser.post("/api/account/reset/confirm", json={"token": token, "password": "yet another one"})
        assert used.status_code == 410



def test_u6_without_a_public_url_no_link_is_mailed_wherever_the_host_header_says(
        serve: Callable[[Settings], TestClient], sink: MailSink, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """An attacker asks a reset for Anna with ``Host: evil.example``: a link built from the request would send Anna
    to the attacker's site with her token. With an SMTP server but no ``DREIZEHN_PUBLIC_URL``, the server sends no
    mail at all (the page says mail is off), and the operator's log carries the link."""
    env = {**sink.env(), "public_url": None}
    client = serve(make_settings(tmp_path, **env))
    assert client.get("/api/account/mail").json() == {"configured": False}
    with caplog.at_level(logging.INFO):
        sign_up(client, "Anna", email="anna@example.org")
        verify = re.findall(r"/verify/(\S+)", caplog.text)
        assert client.post("/api/account/verify", json={"token": verify[-1]}).status_code == 200
        answer = _browser(client).post("/api/account/reset", json={"name": "Anna"}, headers={"Host": "evil.example"})
        assert answer.status_code == 202 and answer.json() == {"configured": False}
    assert not client.app.state.recovery.mailer.configured  # type: ignore[attr-defined]  # so nothing is sent
    assert re.search(r"/reset/\S+", caplog.text)  # the operator's log has the link
    sink._read()
    assert sink.inbox == []


def test_u6_a_mail_says_its_language() -> None:
    from dreizehn.server.accounts.mail import compose

    for lang in ("en", "de", "nl"):
        mail = compose("dreizehn <dz@example.org>", "anna@example.org", lang, "reset", "Anna", "https://x/reset/t")
        assert mail["Content-Language"] == lang and mail["Subject"] == words(lang)("mail.reset.subject")
