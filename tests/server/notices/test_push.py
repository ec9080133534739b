"""Issue 46 item 2, rules N2 and N4: Web Push with the server's VAPID key, delivered to a push service the test runs
and read with the browser's private key; a subscription whose service answers 410 (or 404) is dropped."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import secrets
from collections.abc import Callable, Iterator

import pytest
from starlette.testclient import TestClient

from dreizehn.server.notices.push import Pusher
from dreizehn.server.notices.store import NoticeStore
from dreizehn.server.settings import Settings

from ..accounts.people import code, sign_up
from ..kit import eventually, free_port
from .pushing import BrowserKeys, PushService
from .turns import account_id, engine, notices, turn_table


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    try:
        yield service
    finally:
        service.stop()


@pytest.fixture
def push_client(serve: Callable[[Settings], TestClient], settings: Settings) -> TestClient:
    return serve(settings.model_copy(update={"push_allow_http": True}))


def settle(client: TestClient) -> None:
    """Wait for the notices' tasks under way (a hook's work) to end."""

    async def drained() -> None:
        while notices(client).pending:
            await asyncio.gather(*notices(client).pending, return_exceptions=True)

    client.portal.call(drained)  # type: ignore[union-attr]


def _hook(client: TestClient, name: str, *args: object) -> None:
    """Call a hook as the turn clock does: synchronously, on the server's event loop."""
    client.portal.call(lambda: getattr(notices(client), name)(*args))  # type: ignore[union-attr]
    settle(client)


def test_n4_a_turn_is_pushed_once_encrypted_for_the_browser_with_the_servers_vapid_key(
        push_client: TestClient, push_service: PushService) -> None:
    client = push_client
    csrf = sign_up(client, "Anna")
    sign_up(TestClient(client.app), "Bert")
    browser = BrowserKeys()
    answer = client.post("/api/me/push", json=browser.subscription(push_service.endpoint("anna")),
                         headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 204, answer.text
    assert client.get("/api/me/notices").json()["push_subscriptions"] == 1
    clock = turn_table(client, ["Anna", "Bert"], 0, game="three-thirteen", left=dt.timedelta(hours=30))
    _hook(client, "turn", clock)
    _hook(client, "turn", clock)  # told again (a restart): not pushed again
    eventually(lambda: len(push_service.received) >= 1, "a push")
    assert len(push_service.received) == 1
    push = push_service.received[0]
    assert push.path == "/push/anna"
    key = client.get("/api/push/key").json()["key"]
    assert push.headers["authorization"].startswith("vapid t=") and f"k={key}" in push.headers["authorization"]
    payload = browser.read(push)
    assert payload == {"title": "Your turn: Three Thirteen",
                       "body": "It is your turn in Three Thirteen with Bert. You have 29 hours to move.",
                       "url": f"/seat/{clock.table_id}/0", "tag": f"dreizehn-{clock.table_id}"}
    _hook(client, "turn", dataclasses.replace(clock, version=clock.version + 1))  # the next turn is told
    eventually(lambda: len(push_service.received) == 2, "the next turn's push")


def test_n4_a_push_is_said_in_the_accounts_language(push_client: TestClient, push_service: PushService) -> None:
    client = push_client
    csrf = sign_up(client, "Anna")
    client.put("/api/me/settings", json={"language": "nl"}, headers={"X-CSRF-Token": csrf})
    sign_up(TestClient(client.app), "Bert")
    browser = BrowserKeys()
    client.post("/api/me/push", json=browser.subscription(push_service.endpoint("a")), headers={"X-CSRF-Token": csrf})
    clock = turn_table(client, ["Bert", "bot:Carla", "Anna"], 2, game="holzwurm", left=dt.timedelta(minutes=50))
    _hook(client, "reminder", clock)
    eventually(lambda: len(push_service.received) == 1, "a push")
    payload = browser.read(push_service.received[0])
    assert payload["title"] == "Je tijd loopt af: De dertiende houtworm"
    assert payload["body"] == "Nog maar 49 minuten voor je zet bij De dertiende houtworm met Bert en Carla."


def test_n4_a_subscription_its_service_says_is_gone_is_dropped(push_client: TestClient,
                                                              push_service: PushService) -> None:
    client = push_client
    csrf = sign_up(client, "Anna")
    sign_up(TestClient(client.app), "Bert")
    push_service.statuses["old"] = 410
    push_service.statuses["lost"] = 404
    push_service.statuses["busy"] = 429
    for name in ("old", "lost", "busy", "new"):
        answer = client.post("/api/me/push", json=BrowserKeys().subscription(push_service.endpoint(name)),
                             headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 204
    _hook(client, "turn", turn_table(client, ["Anna", "Bert"], 0))
    eventually(lambda: len(push_service.received) == 4, "four pushes")
    kept = NoticeStore(engine(client)).subscriptions(account_id(client, "Anna"))
    assert sorted(s.endpoint.rsplit("/", 1)[-1] for s in kept) == ["busy", "new"]
    assert client.get("/api/me/notices").json()["push_subscriptions"] == 2


def test_n4_subscribing_is_checked_and_each_account_drops_its_own(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    keys = BrowserKeys()
    plain = client.post("/api/me/push", json=keys.subscription("http://push.example.org/x"),
                        headers={"X-CSRF-Token": csrf})
    assert plain.status_code == 422 and code(plain) == "notices.push_endpoint"
    assert plain.json()["detail"]["params"]["field"] == "endpoint"
    good = keys.subscription("https://push.example.org/x")
    bad_keys = {**good, "keys": {"p256dh": "A" * 87, "auth": good["keys"]["auth"]}}
    refused = client.post("/api/me/push", json=bad_keys, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 422 and code(refused) == "notices.push_endpoint"
    assert client.post("/api/me/push", json=good).status_code == 403  # no CSRF token
    guest = TestClient(client.app).post("/api/me/push", json=good)
    assert guest.status_code == 401 and code(guest) == "account.signed_out"
    assert client.post("/api/me/push", json=good, headers={"X-CSRF-Token": csrf}).status_code == 204
    other = TestClient(client.app)
    other_csrf = sign_up(other, "Bert")
    theirs = other.request("DELETE", "/api/me/push", json={"endpoint": good["endpoint"]},
                           headers={"X-CSRF-Token": other_csrf})
    assert theirs.status_code == 404 and code(theirs) == "notices.no_subscription"
    mine = client.request("DELETE", "/api/me/push", json={"endpoint": good["endpoint"]},
                          headers={"X-CSRF-Token": csrf})
    assert mine.status_code == 204 and client.get("/api/me/notices").json()["push_subscriptions"] == 0


def test_n4_the_vapid_key_is_made_once_and_kept(client: TestClient, settings: Settings) -> None:
    key = client.get("/api/push/key").json()["key"]
    assert len(key) == 87 and key.startswith("B")  # an uncompressed P-256 point (0x04 …), base64url
    assert Pusher(NoticeStore(engine(client)), settings).public_key == key


def test_n4_the_service_worker_is_served_at_the_root(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and "javascript" in answer.headers["content-type"]
    assert 'addEventListener("push"' in answer.text and "notificationclick" in answer.text


def test_n2_two_server_processes_told_the_same_turn_push_it_once(
        serve: Callable[[Settings], TestClient], db_settings: Settings, push_service: PushService) -> None:
    shared = db_settings.model_copy(update={"push_allow_http": True})
    first, second = serve(shared), serve(shared)  # two servers on one database
    assert first.get("/api/push/key").json() == second.get("/api/push/key").json()  # one VAPID key for all
    csrf = sign_up(first, "Anna")
    sign_up(TestClient(first.app), "Bert")
    browser = BrowserKeys()
    first.post("/api/me/push", json=browser.subscription(push_service.endpoint("anna")), headers={"X-CSRF-Token": csrf})
    clock = turn_table(first, ["Anna", "Bert"], 0)
    for server in (first, second):
        server.portal.call(notices(server).turn, clock)  # type: ignore[union-attr]
    settle(first)
    settle(second)
    eventually(lambda: len(push_service.received) >= 1, "a push")
    assert len(push_service.received) == 1
    assert browser.read(push_service.received[0])["url"] == f"/seat/{clock.table_id}/0"


def test_n4_n5_a_deleted_accounts_subscriptions_and_mail_choice_go_with_it(serve: Callable[[Settings], TestClient],
                                                                           db_settings: Settings) -> None:
    import sqlalchemy as sa

    from dreizehn.server.accounts.schema import accounts
    from dreizehn.server.notices.schema import notice_prefs, push_subscriptions

    from ..accounts.people import PASSWORD

    client = serve(db_settings)
    csrf = sign_up(client, "Anna")
    client.post("/api/me/push", json=BrowserKeys().subscription("https://push.example.org/a"),
                headers={"X-CSRF-Token": csrf})
    with engine(client).begin() as c:
        c.execute(accounts.update().values(email="anna@example.org", email_verified=True))
    assert client.put("/api/me/notices", json={"mail": "digest"}, headers={"X-CSRF-Token": csrf}).status_code == 200
    answer = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert answer.status_code in (200, 204), answer.text
    with engine(client).connect() as c:
        for table in (push_subscriptions, notice_prefs):
            assert c.execute(sa.select(sa.func.count()).select_from(table)).scalar_one() == 0, table.name


def test_n2_the_other_hooks_tell_nothing_and_an_ended_game_is_forgotten(push_client: TestClient,
                                                                        push_service: PushService) -> None:
    import sqlalchemy as sa

    from dreizehn.server.notices.schema import notices_told

    client = push_client
    csrf = sign_up(client, "Anna")
    sign_up(TestClient(client.app), "Bert")
    client.post("/api/me/push", json=BrowserKeys().subscription(push_service.endpoint("a")),
                headers={"X-CSRF-Token": csrf})
    clock = turn_table(client, ["Anna", "Bert", "bot:Carla"], 0, game="knizia13")
    _hook(client, "turn", dataclasses.replace(clock, account_id=None))  # a seat bound to no account: nobody told
    _hook(client, "timed_out", clock, "move")
    assert push_service.received == []
    _hook(client, "turn", clock)
    eventually(lambda: len(push_service.received) == 1, "a push")

    def told() -> int:
        with engine(client).connect() as c:
            return int(c.execute(sa.select(sa.func.count()).select_from(notices_told)
                                 .where(notices_told.c.table_id == clock.table_id)).scalar_one())

    assert told() == 1
    _hook(client, "ended", clock.table_id)
    assert told() == 0


def _retrying(settings: Settings, **more: object) -> Settings:
    """Settings that try a push again soon (rule N9) and wait little for a push service that does not answer."""
    return settings.model_copy(update={"push_allow_http": True, "notice_poll": 0.05, "notice_retry": 0.1,
                                       "notice_retry_max": 0.4, "push_timeout": 0.5, **more})


def pushes_waiting(client: TestClient) -> int:
    """The pushes in the outbox (rule N9): not yet taken by their push services."""
    import sqlalchemy as sa

    from dreizehn.server.notices.schema import push_outbox

    with engine(client).connect() as c:
        return int(c.execute(sa.select(sa.func.count()).select_from(push_outbox)).scalar_one())


def test_n9_a_push_its_service_does_not_take_is_tried_again_until_it_does(
        serve: Callable[[Settings], TestClient], db_settings: Settings, push_service: PushService) -> None:
    client = serve(_retrying(db_settings))
    csrf = sign_up(client, "Anna")
    sign_up(TestClient(client.app), "Bert")
    push_service.statuses.update({"busy": 429, "down": 503})
    push_service.held.add("slow")  # read, never answered: the sender's time runs out
    browsers = {name: BrowserKeys() for name in ("busy", "down", "slow")}
    for name, browser in browsers.items():
        answer = client.post("/api/me/push", json=browser.subscription(push_service.endpoint(name)),
                             headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 204
    clock = turn_table(client, ["Anna", "Bert"], 0)
    _hook(client, "turn", clock)
    eventually(lambda: all(push_service.tries(name) >= 2 for name in browsers), "each push tried again")
    assert not any(push_service.delivered(name) for name in browsers)
    assert client.get("/api/me/waiting").json()["count"] == 1  # the server goes on meanwhile
    push_service.statuses.clear()  # the services are back
    push_service.held.clear()
    eventually(lambda: all(push_service.delivered(name) for name in browsers), "each push taken at last")
    eventually(lambda: pushes_waiting(client) == 0, "the outbox emptied")
    for name, browser in browsers.items():
        assert len(push_service.delivered(name)) == 1
        assert browser.read(push_service.delivered(name)[0])["url"] == f"/seat/{clock.table_id}/0"
    assert len(NoticeStore(engine(client)).subscriptions(account_id(client, "Anna"))) == 3


def test_n9_a_push_never_taken_is_dropped_after_its_tries_and_logged_without_its_secrets(
        serve: Callable[[Settings], TestClient], settings: Settings, push_service: PushService,
        caplog: pytest.LogCaptureFixture) -> None:
    client = serve(_retrying(settings, push_tries=3))
    csrf = sign_up(client, "Anna")
    sign_up(TestClient(client.app), "Bert")
    secret = "private" + secrets.token_hex(8)  # the endpoint's path: the browser's own address at its service
    push_service.statuses[secret] = 503
    nobody = f"http://127.0.0.1:{free_port()}/push/{secret}x"  # nothing listens there: no answer at all
    browsers = [BrowserKeys(), BrowserKeys()]
    for endpoint, browser in zip((push_service.endpoint(secret), nobody), browsers, strict=True):
        answer = client.post("/api/me/push", json=browser.subscription(endpoint), headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 204
    caplog.set_level(logging.INFO, logger="dreizehn.server.notices")
    _hook(client, "turn", turn_table(client, ["Anna", "Bert"], 0))
    eventually(lambda: push_service.tries(secret) >= 3, "the push tried three times")
    eventually(lambda: pushes_waiting(client) == 0, "both pushes dropped after three tries")
    assert push_service.tries(secret) == 3
    assert len(NoticeStore(engine(client)).subscriptions(account_id(client, "Anna"))) == 2  # kept: may come back
    assert len([r for r in caplog.records if "dropped after 3 tries" in r.getMessage()]) == 2
    for record in caplog.records:
        said = record.getMessage()
        assert secret not in said and "/push/" not in said
        assert all(b.p256dh not in said and b.subscription("x")["keys"]["auth"] not in said for b in browsers)


def test_n9_a_push_tried_again_says_the_time_left_then_and_one_whose_time_ran_out_is_dropped(
        serve: Callable[[Settings], TestClient], settings: Settings, push_service: PushService) -> None:
    """The outbox keeps a notice's parameters, not its words: a push the service took only hours later says the
    time left at that moment; a push whose turn's time ran out before any service took it is dropped unsent."""
    client = serve(_retrying(settings))
    csrf = sign_up(client, "Anna")
    sign_up(TestClient(client.app), "Bert")
    browser = BrowserKeys()
    answer = client.post("/api/me/push", json=browser.subscription(push_service.endpoint("anna")),
                         headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 204
    service = notices(client)
    push_service.statuses["anna"] = 503
    _hook(client, "turn", turn_table(client, ["Anna", "Bert"], 0, left=dt.timedelta(hours=10)))
    eventually(lambda: push_service.tries("anna") >= 2, "the push tried again")
    later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=7)  # a little under 3 hours left
    service.clock = lambda: later
    push_service.statuses.clear()
    eventually(lambda: len(push_service.delivered("anna")) == 1, "the push taken")
    assert browser.read(push_service.delivered("anna")[0])["body"] == (
        "It is your turn in Three Thirteen with Bert. You have 2 hours to move.")
    service.clock = lambda: dt.datetime.now(dt.UTC)
    push_service.statuses["anna"] = 503
    tries = push_service.tries("anna")
    _hook(client, "turn", turn_table(client, ["Anna", "Bert"], 0, left=dt.timedelta(hours=1)))
    eventually(lambda: push_service.tries("anna") >= tries + 2, "the second push tried again")
    service.clock = lambda: dt.datetime.now(dt.UTC) + dt.timedelta(hours=2)  # its turn's time ran out
    push_service.statuses.clear()
    eventually(lambda: pushes_waiting(client) == 0, "the second push dropped")
    assert len(push_service.delivered("anna")) == 1


def test_n9_a_kept_push_is_said_when_sent_and_one_stored_whole_is_sent_as_it_is() -> None:
    """:func:`push_said`: a notice's parameters said in its language with the time left at the moment of sending;
    none once that time ran out; a payload stored whole (by a server before the outbox kept parameters) unchanged."""
    import json

    from dreizehn.server.notices import wording

    due = dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC)
    kept = wording.push_notice("de", "reminder", "holzwurm", "Bert", due, "/seat/t1/0", "t1")
    said = json.loads(wording.push_said(kept, due - dt.timedelta(hours=5, minutes=1)) or "{}")
    assert said == json.loads(wording.push_payload("de", "reminder", "holzwurm", "Bert",
                                                   dt.timedelta(hours=5, minutes=1), "/seat/t1/0", "t1"))
    assert "5 Stunden" in said["body"]
    assert wording.push_said(kept, due) is None
    whole = wording.push_payload("en", "turn", "knizia13", "Anna", dt.timedelta(days=3), "/seat/t2/1", "t2")
    assert wording.push_said(whole, due + dt.timedelta(days=9)) == whole
