"""Issue 46 item 2, rules N5–N8: the notices' mails to verified addresses, opt-in, at most one a game per period or a
daily digest, with an unsubscribe link that works without signing in (a POST only) and RFC 8058's one-click
headers; the outbox keeps them while the mail server is down and sends them once it is back.

Mail is read from a real SMTP server process (aiosmtpd, as the accounts' tests do); the turn clock's hooks are
called on the server's event loop as the turn-based core calls them."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.notices.schema import mail_outbox
from dreizehn.server.settings import Settings

from ..accounts import test_mail as account_mail
from ..accounts.people import code, sign_up
from ..kit import eventually, free_port
from .turns import engine, move_on, notices, turn_table

MailSink = account_mail.MailSink
sink = account_mail.sink  # the accounts' real SMTP server (aiosmtpd), one per test


def _quick(settings: Settings, sink_env: dict[str, object]) -> Settings:
    return settings.model_copy(update={**sink_env, "notice_poll": 0.05, "notice_retry": 0.1,
                                       "notice_retry_max": 0.5})


@pytest.fixture
def mail_client(serve: Callable[[Settings], TestClient], sink: MailSink, db_settings: Settings) -> TestClient:
    return serve(_quick(db_settings, sink.env()))


def _hook(client: TestClient, name: str, *args: object) -> None:
    """Call a hook as the turn clock does (synchronously, on the server's event loop) and wait for its work."""
    told = notices(client)
    client.portal.call(lambda: getattr(told, name)(*args))  # type: ignore[union-attr]

    async def drained() -> None:
        while told.pending:
            await asyncio.gather(*told.pending, return_exceptions=True)

    client.portal.call(drained)  # type: ignore[union-attr]


def _verified(client: TestClient, name: str, address: str, language: str | None = None) -> str:
    """Sign up ``name`` with ``address``, set verified (its link is the accounts' tests' matter: no mail is sent)."""
    csrf = sign_up(client, name)
    with engine(client).begin() as c:
        c.execute(accounts.update().where(accounts.c.name == name)
                  .values(email=address, email_key=address.lower(), email_verified=True))
    if language:
        client.put("/api/me/settings", json={"language": language}, headers={"X-CSRF-Token": csrf})
    return csrf


def _outbox(client: TestClient) -> list[sa.Row[tuple[object, ...]]]:
    with engine(client).connect() as c:
        return list(c.execute(sa.select(mail_outbox).order_by(mail_outbox.c.id)).all())


def _text(mail: EmailMessage) -> str:
    body = mail.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def _browser(client: TestClient) -> TestClient:
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def test_n5_mail_is_opt_in_and_needs_a_verified_address(client: TestClient) -> None:
    csrf = sign_up(client, "Anna", email="anna@example.org")
    assert client.get("/api/me/notices").json() == {"mail": "off", "mail_configured": False,
                                                    "email_verified": False, "push_subscriptions": 0}
    refused = client.put("/api/me/notices", json={"mail": "each"}, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 409 and code(refused) == "notices.no_address"
    assert client.put("/api/me/notices", json={"mail": "each"}).status_code == 403  # no CSRF token
    guest = _browser(client).get("/api/me/notices")
    assert guest.status_code == 401 and code(guest) == "account.signed_out"


def test_n5_n6_a_turn_is_mailed_once_a_period_with_a_link_that_unsubscribes_only_by_post(
        mail_client: TestClient, sink: MailSink) -> None:
    client = mail_client
    csrf = _verified(client, "Anna", "anna@example.org")
    sign_up(_browser(client), "Bert")
    assert client.put("/api/me/notices", json={"mail": "each"}, headers={"X-CSRF-Token": csrf}).json()["mail"] == "each"
    clock = turn_table(client, ["Anna", "Bert", "bot:Carla"], 0, game="knizia13",
                       left=dt.timedelta(hours=20, minutes=30))
    _hook(client, "turn", clock)
    _hook(client, "turn", clock)  # told again (a restart): nothing more
    mail = sink.next("anna@example.org")
    assert mail["Subject"] == "dreizehn: your turn in 13"
    assert mail["Content-Language"] == "en"
    text = _text(mail)
    assert "it is your turn in 13 with Bert and Carla. You have 20 hours to move." in text
    assert f"http://testserver/seat/{clock.table_id}/0" in text
    page = re.search(r"http://testserver/unsubscribe/(\S+)", text)
    assert page is not None
    token = page.group(1)
    assert mail["List-Unsubscribe"] == f"<http://testserver/api/notices/unsubscribe/{token}>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    moved = move_on(client, move_on(client, clock, 1, dt.timedelta(hours=5)), 0, dt.timedelta(hours=5))
    _hook(client, "turn", moved)  # Anna's next turn in the same game, within the period: no second mail
    assert [(row.kind, row.table_id) for row in _outbox(client)] == [("turn", clock.table_id)]
    stranger = _browser(client)  # the link works signed in or not; following it changes nothing
    assert stranger.get(f"/unsubscribe/{token}").status_code == 200
    assert client.get("/api/me/notices").json()["mail"] == "each"
    assert stranger.post(f"/api/notices/unsubscribe/{token}x").status_code == 404
    other = "B" if token.endswith("A") else "A"  # one character changed, never the same token
    bad = stranger.post(f"/api/notices/unsubscribe/{token[:-1]}{other}")
    assert bad.status_code == 404 and code(bad) == "notices.bad_link"
    one_click = stranger.post(f"/api/notices/unsubscribe/{token}", content=b"List-Unsubscribe=One-Click",
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert one_click.status_code == 204
    assert client.get("/api/me/notices").json()["mail"] == "off"
    _hook(client, "turn", turn_table(client, ["Anna", "Bert"], 0))
    assert len(_outbox(client)) == 1  # unsubscribed: no mail for the new game


def test_n5_n8_mails_speak_the_accounts_language_and_a_reminder_says_the_time_left(
        mail_client: TestClient, sink: MailSink) -> None:
    client = mail_client
    csrf = _verified(client, "Anna", "anna@example.org", language="de")
    sign_up(_browser(client), "Bert")
    client.put("/api/me/notices", json={"mail": "each"}, headers={"X-CSRF-Token": csrf})
    clock = turn_table(client, ["Bert", "bot:Carla", "Anna"], 2, game="three-thirteen",
                       left=dt.timedelta(minutes=90))
    _hook(client, "reminder", clock)
    mail = sink.next("anna@example.org")
    assert mail["Subject"] == "dreizehn: noch 1 Stunde bei Three Thirteen"
    assert "deine Zeit für deinen Zug bei Three Thirteen mit Bert und Carla läuft in 1 Stunde ab" in _text(mail)
    assert "abbestellen" in _text(mail)


def test_n5_a_daily_digest_lists_the_games_waiting_once_a_period(mail_client: TestClient, sink: MailSink) -> None:
    client = mail_client
    csrf = _verified(client, "Anna", "anna@example.org", language="nl")
    sign_up(_browser(client), "Bert")
    first = turn_table(client, ["Anna", "Bert", "bot:Carla"], 0, game="knizia13", left=dt.timedelta(days=3, hours=1))
    second = turn_table(client, ["Bert", "Anna"], 1, game="holzwurm", left=dt.timedelta(hours=3))
    # asked for once both games wait: the outbox's task (every 0.05 s) cannot make a digest of the first alone
    client.put("/api/me/notices", json={"mail": "digest"}, headers={"X-CSRF-Token": csrf})
    _hook(client, "turn", first)  # a digest reader gets no mail a game
    made = client.portal.call(notices(client).digests)  # type: ignore[union-attr]
    assert made in (0, 1)  # the outbox's task may have made it first
    mail = sink.next("anna@example.org")
    assert mail["Subject"] == "dreizehn: 2 spellen wachten op je"
    text = _text(mail)
    assert text.index("De dertiende houtworm met Bert: nog 2 uur") < text.index("13 met Bert en Carla: nog 3 dagen")
    assert f"/seat/{second.table_id}/1" in text and f"/seat/{first.table_id}/0" in text
    assert client.portal.call(notices(client).digests) == 0  # type: ignore[union-attr]
    assert [row.kind for row in _outbox(client)] == ["digest"]


def test_n7_mails_wait_while_the_mail_server_is_down_and_go_out_once_it_is_back(
        serve: Callable[[Settings], TestClient], settings: Settings, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    env = {"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_tls": "none",
           "smtp_from": "dreizehn <dreizehn@example.org>", "public_url": "http://testserver"}
    client = serve(_quick(settings, env))
    csrf = _verified(client, "Anna", "anna@example.org")
    sign_up(_browser(client), "Bert")
    client.put("/api/me/notices", json={"mail": "each"}, headers={"X-CSRF-Token": csrf})
    clock = turn_table(client, ["Anna", "Bert"], 0)
    _hook(client, "turn", clock)
    eventually(lambda: _outbox(client)[0].attempts >= 2, "two failed tries")
    assert _outbox(client)[0].sent_at is None
    assert client.get("/api/me/waiting").json()["count"] == 1  # the server goes on
    monkeypatch.setattr(account_mail, "free_port", lambda: port)
    (tmp_path / "later").mkdir()
    back = MailSink(tmp_path / "later")
    try:
        mail = back.next("anna@example.org")
        assert mail["Subject"] == "dreizehn: your turn in Three Thirteen"
        eventually(lambda: _outbox(client)[0].sent_at is not None, "the mail marked sent")
        assert len(_outbox(client)) == 1
    finally:
        back.stop()


def test_n7_two_processes_share_the_outbox_and_each_mail_is_claimed_by_one(
        serve: Callable[[Settings], TestClient], db_settings: Settings) -> None:
    from dreizehn.server.notices.store import NoticeStore

    client = serve(db_settings)  # sends no mail: its own outbox task leaves the outbox to the two stores below
    _verified(client, "Anna", "anna@example.org")
    mine, theirs = NoticeStore(engine(client)), NoticeStore(engine(client))  # as two processes
    with engine(client).connect() as c:
        account_id = str(c.execute(sa.select(accounts.c.id).where(accounts.c.name == "Anna")).scalar_one())
    mine.enqueue(account_id, None, "digest", "Subject: x\n\nx\n", dedup="digest:test")
    assert not theirs.enqueue(account_id, None, "digest", "Subject: x\n\nx\n", dedup="digest:test")
    lease = dt.timedelta(minutes=5)
    claimed = mine.claim(lease) + theirs.claim(lease)
    assert len(claimed) == 1
    assert theirs.claim(lease) == [] and mine.claim(lease) == []  # leased: nobody takes it again meanwhile
