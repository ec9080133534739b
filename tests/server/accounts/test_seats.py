"""Issue 45 item 3 (rule U7): seats belong to people. A seat a signed-in person takes is bound to the account: its
invitation opens it to nobody else, and its owner opens it from any device by signing in; a table invites by user
name; the websocket carries the session, checked at every message; a guest keeps the seats of that browser when
signing up or in (item 2). Each attack is tried with a second account or a guest against the first's seat, on
SQLite and PostgreSQL (one server per module and database; every test has its own people)."""

from __future__ import annotations

import datetime as dt
import itertools
import threading
from typing import Any

import httpx2
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.accounts.schema import accounts, relations, sessions
from dreizehn.server.routes import ws
from dreizehn.server.storage import seats

from ..conftest import new_database
from ..kit import Closed, NetPeer, connect, eventually, play_to_end, tokens
from .browsers import browser
from .people import PASSWORD, code, sign_in, sign_up

_numbers = itertools.count()


@pytest.fixture
def api(module_server: TestClient) -> TestClient:
    return module_server


def _name(base: str) -> str:
    """A user name no other test of the module's server took."""
    return f"{base}{next(_numbers)}"


def person(api: TestClient, base: str) -> tuple[TestClient, str, str]:
    """A browser signed up as a new account: the browser, its user name and its CSRF token."""
    new = browser(api)
    name = _name(base)
    csrf = sign_up(new, name)
    new.headers["X-CSRF-Token"] = csrf
    return new, name, csrf


def guest(api: TestClient) -> TestClient:
    return browser(api)


def table(browser: TestClient, seats_: list[dict[str, Any]]) -> dict[str, Any]:
    answer = browser.post("/api/tables", json={"game": "holzwurm", "options": {"games": 1}, "seats": seats_})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def bound(api: TestClient, table_id: str) -> list[str | None]:
    """The user name each seat of a table is bound to."""
    with api.app.state.hub.store.engine.connect() as c:  # type: ignore[attr-defined]
        rows = c.execute(sa.select(seats.c.seat, accounts.c.name)
                         .outerjoin(accounts, accounts.c.id == seats.c.account_id)
                         .where(seats.c.table_id == table_id).order_by(seats.c.seat)).all()
    return [r.name for r in rows]


def refusal(browser: TestClient, lang: str = "en", **hello: Any) -> dict[str, Any]:
    with connect(browser) as peer:
        answer = peer.hello(lang=lang, **hello)
    assert answer["type"] == "refused", answer
    return answer


ME = {"kind": "person", "name": "Me"}
FRIEND = {"kind": "person"}
BOT = {"kind": "bot", "bot": "random"}


def test_u7_a_signed_in_creator_s_seat_is_bound_and_its_link_opens_it_to_nobody_else(api: TestClient) -> None:
    anna, anna_name, _ = person(api, "Anna")
    bob, _, _ = person(api, "Bob")
    created = table(anna, [ME, BOT])
    table_id, token = created["table"]["id"], tokens(created)[0]
    assert bound(api, table_id) == [anna_name, None]
    for other in (guest(api), bob):  # a guest and another account: told the seat is taken, and where to watch
        answer = refusal(other, "de", token=token)
        assert answer["code"] == "account.seat_bound" and answer["rule"] == "U7"
        assert answer["params"]["watch"] == f"/watch/{table_id}" and "zuschauen" in answer["message"]
        join = other.post("/api/seats/join", json={"token": token, "name": "Mallory"})
        assert join.status_code == 403 and code(join) == "account.seat_bound"
    with connect(anna, token=token, lang="en") as own:  # the owner's own link, signed in
        assert own.seat == 0
    assert bound(api, table_id) == [anna_name, None]


def test_u7_a_seat_joined_by_a_signed_in_person_is_theirs(api: TestClient) -> None:
    creator = guest(api)
    created = table(creator, [ME, FRIEND])
    table_id, token = created["table"]["id"], tokens(created)[1]
    bob, bob_name, _ = person(api, "Bob")
    assert bob.post("/api/seats/join", json={"token": token, "name": "Bob"}).status_code == 200
    assert bound(api, table_id) == [None, bob_name]  # the guest creator's seat stays a guest's
    answer = refusal(creator, token=token)  # the creator holds the link too: the seat is Bob's now
    assert answer["code"] == "account.seat_bound" and answer["params"]["name"] == "Bob"
    with connect(creator, token=tokens(created)[0]) as own:  # a guest's seat opens by its link, as ever
        assert own.seat == 0


def test_u7_a_seat_taken_from_the_list_by_a_signed_in_person_is_theirs(api: TestClient) -> None:
    created = table(guest(api), [ME, FRIEND])
    table_id = created["table"]["id"]
    clara, clara_name, _ = person(api, "Clara")
    taken = clara.post(f"/api/tables/{table_id}/seats/1", json={"name": "Clara"})
    assert taken.status_code == 200, taken.text
    assert bound(api, table_id) == [None, clara_name]
    assert refusal(guest(api), token=taken.json()["token"])["code"] == "account.seat_bound"


def test_u7_the_owner_opens_the_seat_from_another_device_by_signing_in(api: TestClient) -> None:
    anna, anna_name, _ = person(api, "Anna")
    created = table(anna, [ME, BOT])
    table_id = created["table"]["id"]
    phone = browser(api)
    sign_in(phone, anna_name)
    with connect(phone, table=table_id, seat=0) as peer:
        assert peer.seat == 0 and peer.view is not None and peer.view["seat"] == 0
    assert refusal(guest(api), table=table_id, seat=0)["code"] == "account.signed_out"
    bob, _, _ = person(api, "Bob")
    assert refusal(bob, table=table_id, seat=0)["code"] == "account.seat_bound"
    other = table(guest(api), [ME, FRIEND])  # a guest's seat is not Anna's: its link opens it, not her session
    assert refusal(phone, table=other["table"]["id"], seat=0)["code"] == "account.not_your_seat"
    assert refusal(phone, table=table_id, seat=1)["code"] == "account.not_your_seat"  # a bot's
    assert api.get(f"/seat/{table_id}/0", headers={"accept": "text/html"}).status_code == 200


def _sign_out_everywhere(browser: TestClient, name: str) -> None:
    assert browser.delete("/api/sessions").status_code == 204


def _new_password(browser: TestClient, name: str) -> None:
    answer = browser.put("/api/account/password", json={"password": PASSWORD, "new_password": PASSWORD + "!"})
    assert answer.status_code == 200


def _delete(browser: TestClient, name: str) -> None:
    assert browser.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204


@pytest.mark.parametrize("end", [_sign_out_everywhere, _new_password, _delete])
def test_u7_a_connection_whose_session_ended_acts_no_more(api: TestClient, end: Any) -> None:
    anna, anna_name, _ = person(api, "Anna")
    created = table(anna, [ME, BOT])
    table_id = created["table"]["id"]
    phone = browser(api)
    phone.headers["X-CSRF-Token"] = sign_in(phone, anna_name)
    with connect(phone, table=table_id, seat=0) as peer:
        peer.send({"type": "ping"})
        assert peer.recv(skip=("presence",))["type"] == "pong"  # signed in: it acts
        end(phone, anna_name)
        peer.send({"type": "ping"})
        answer = peer.recv(skip=("presence", "update"))
        assert answer["type"] == "refused" and answer["code"] == "account.signed_out"
        with pytest.raises(Closed) as closed:
            peer.recv(skip=("presence", "update"))
        assert closed.value.code == 1008


def test_u7_a_table_invites_a_person_by_user_name(api: TestClient) -> None:
    anna, anna_name, _ = person(api, "Anna")
    bob, bob_name, _ = person(api, "Bob")
    created = table(anna, [ME, {"kind": "person", "user": bob_name.upper()}])  # a name in any case
    table_id = created["table"]["id"]
    assert bound(api, table_id) == [anna_name, bob_name]
    seat = created["table"]["seats"][1]
    assert seat["name"] == bob_name and seat["joined"] is False
    invitation = {i["seat"]: i for i in created["invitations"]}[1]
    assert invitation["url"].endswith(f"/seat/{table_id}/1")
    mine = bob.get("/api/me").json()["playing"]
    assert [(g["table"], g["seat"], g["invited"]) for g in mine] == [(table_id, 1, True)]
    assert refusal(guest(api), token=invitation["token"])["code"] == "account.seat_bound"
    carol, _, _ = person(api, "Carol")
    for other in (guest(api), carol):  # nobody else takes it from the list of open tables
        taken = other.post(f"/api/tables/{table_id}/seats/1", json={"name": "Mallory"})
        assert taken.status_code == 409 and code(taken) == "server.seat_not_free"
        assert refusal(other, table=table_id, seat=1)["code"] in ("account.seat_bound", "account.signed_out")
    with connect(bob, table=table_id, seat=1) as peer:
        assert peer.seat == 1
    assert bob.get("/api/me").json()["playing"][0]["invited"] is False
    assert api.get(f"/api/tables/{table_id}").json()["seats"][1]["joined"] is True


def test_u7_an_invitation_by_name_is_refused_to_a_guest_a_stranger_and_a_blocker(api: TestClient) -> None:
    anna, anna_name, _ = person(api, "Anna")
    bob, bob_name, _ = person(api, "Bob")
    before = api.get("/api/tables", params={"status": "open", "limit": 200}).json()
    answer = guest(api).post("/api/tables", json={"game": "holzwurm", "seats": [ME, {"kind": "person",
                                                                                      "user": bob_name}]})
    assert answer.status_code == 401 and code(answer) == "account.signed_out"
    answer = anna.post("/api/tables", json={"game": "holzwurm", "seats": [ME, {"kind": "person", "user": "Nobody_x"}]},
                       params={"lang": "nl"})
    assert answer.status_code == 422 and code(answer) == "account.no_player"
    assert answer.json()["detail"]["params"]["name"] == "Nobody_x" and "speler" in answer.json()["detail"]["message"]
    answer = anna.post("/api/tables", json={"game": "holzwurm", "seats": [ME, {"kind": "bot", "user": bob_name}]})
    assert answer.status_code == 422 and code(answer) == "account.bot_invited"
    store = api.app.state.hub.store  # type: ignore[attr-defined]
    with store.engine.begin() as c:  # Bob blocks Anna (the friends' routes are another part of the issue)
        ids = dict(c.execute(sa.select(accounts.c.name, accounts.c.id)).all())
        c.execute(relations.insert().values(account_id=ids[bob_name], other_id=ids[anna_name], kind="blocked",
                                            at=dt.datetime.now(dt.UTC)))
    answer = anna.post("/api/tables", json={"game": "holzwurm", "seats": [ME, {"kind": "person", "user": bob_name}]})
    assert answer.status_code == 403 and code(answer) == "account.invite_blocked"
    assert api.get("/api/tables", params={"status": "open", "limit": 200}).json() == before  # nothing made
    assert bob.get("/api/me").json()["playing"] == []


def test_u7_a_guest_keeps_the_seats_of_that_browser_at_sign_up_and_sign_in(api: TestClient) -> None:
    here = guest(api)
    first = table(here, [ME, FRIEND])  # the browser's seat 0; seat 1's link is for a friend, not joined
    second = table(here, [ME, BOT])
    friend = guest(api)
    joined = table(friend, [ME, BOT])  # another guest's seat: its token is not this browser's to claim
    theirs = tokens(joined)[0]
    bob, bob_name, _ = person(api, "Bob")
    owned = table(bob, [ME, BOT])  # a seat bound to Bob stays his whatever token is sent
    name = _name("Anna")
    answer = here.post("/api/accounts", json={"name": name, "password": PASSWORD,
                                                 "seats": [tokens(first)[0], tokens(first)[1], tokens(owned)[0],
                                                           "no-such-token-at-all"]})
    assert answer.status_code == 201, answer.text
    assert bound(api, first["table"]["id"]) == [name, None]  # the friend's seat, not taken, is not claimed
    assert bound(api, owned["table"]["id"]) == [bob_name, None]
    assert bound(api, second["table"]["id"]) == [None, None]  # not sent: not claimed
    assert bound(api, joined["table"]["id"]) == [None, None]
    again = browser(api)  # signing in claims too
    assert again.post("/api/session", json={"name": name, "password": PASSWORD,
                                            "seats": [tokens(second)[0]]}).status_code == 200
    assert bound(api, second["table"]["id"]) == [name, None]
    listed = {(g["table"], g["seat"]) for g in again.get("/api/me").json()["playing"]}
    assert listed == {(first["table"]["id"], 0), (second["table"]["id"], 0)}
    assert theirs not in again.get("/api/me").text


def test_u7_a_rematch_of_a_bound_seat_is_asked_by_its_account_alone(api: TestClient) -> None:
    anna, anna_name, _ = person(api, "Anna")
    created = table(anna, [ME, BOT])
    table_id, token = created["table"]["id"], tokens(created)[0]
    with connect(anna, token=token) as peer:
        play_to_end({0: peer})
    bob, _, _ = person(api, "Bob")
    for other in (guest(api), bob):
        answer = other.post(f"/api/tables/{table_id}/rematch", json={"token": token})
        assert answer.status_code == 403 and code(answer) == "account.seat_bound"
    answer = anna.post(f"/api/tables/{table_id}/rematch", json={"token": token})
    assert answer.status_code == 200, answer.text
    assert bound(api, answer.json()["table"]["id"]) == [anna_name, None]  # the rematch's seat is hers too


def test_u7_kill_9_at_claim_loses_no_claim_acknowledged(processes: Any, tmp_path: Any) -> None:
    """Real server processes: guests sign up one after another, each keeping its seat, while the server is killed
    (SIGKILL) at some point of it. After a restart on the same database, every seat whose sign-up was answered is
    the account's; one cut short is claimed when its browser signs in again with its seats, as the page does."""
    env = {"DREIZEHN_DATA_DIR": tmp_path / "data", "DREIZEHN_PASSWORD_MEMORY_KIB": 8192,
           "DREIZEHN_PASSWORD_PASSES": 1, "DREIZEHN_SIGNUP_LIMIT_ADDRESS": "10000 per hour",
           "DREIZEHN_SIGNIN_LIMIT_ADDRESS": "10000 per hour"}
    server = processes(env)
    body = {"game": "holzwurm", "options": {"games": 1}, "seats": [ME, FRIEND]}
    created = [server.post("/api/tables", body).json() for _ in range(40)]
    acknowledged: list[int] = []
    tried: list[int] = []

    def sign_ups() -> None:
        for i, table_ in enumerate(created):
            tried.append(i)
            try:
                answer = httpx2.post(f"{server.url}/api/accounts", timeout=10.0, json={
                    "name": f"Claim{i}", "password": PASSWORD, "seats": [tokens(table_)[0]]})
            except httpx2.TransportError:
                return
            assert answer.status_code == 201, answer.text
            acknowledged.append(i)

    thread = threading.Thread(target=sign_ups)
    thread.start()
    eventually(lambda: len(acknowledged) >= 5, "five sign-ups answered")
    server.kill()
    thread.join(30)
    assert len(acknowledged) < len(created)  # killed in the middle

    again = processes(env)
    for i in tried:
        browser = httpx2.Client(base_url=again.url, timeout=10.0)
        seats_ = [] if i in acknowledged else [tokens(created[i])[0]]  # a browser cut short sends its seats again
        answer = browser.post("/api/session", json={"name": f"Claim{i}", "password": PASSWORD, "seats": seats_})
        if answer.status_code == 401:  # its account was never made: nothing was acknowledged
            assert i not in acknowledged
            continue
        assert answer.status_code == 200, answer.text
        playing = browser.get("/api/me").json()["playing"]
        assert [(g["table"], g["seat"]) for g in playing] == [(created[i]["table"]["id"], 0)], i


def test_u7_an_idle_connection_is_closed_once_its_session_ended(api: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection that says nothing learns too that its session ended (checked every ``SESSION_RECHECK``
    seconds): it sees no more of the seat's hand."""
    monkeypatch.setattr(ws, "SESSION_RECHECK", 0.05)
    anna, anna_name, _ = person(api, "Anna")
    table_id = table(anna, [ME, BOT])["table"]["id"]
    phone = browser(api)
    phone.headers["X-CSRF-Token"] = sign_in(phone, anna_name)
    with connect(phone, table=table_id, seat=0) as peer:
        assert phone.delete("/api/sessions").status_code == 204
        answer = peer.recv(skip=("presence", "update"))  # nothing sent: the server says it
        assert answer["type"] == "refused" and answer["code"] == "account.signed_out"
        with pytest.raises(Closed) as closed:
            peer.recv(skip=("presence", "update"))
        assert closed.value.code == 1008


def test_u7_a_seat_opened_by_session_through_the_other_process_is_relayed_with_its_session(
        processes: Any, postgres_url: str, tmp_path: Any) -> None:
    """Two processes on one PostgreSQL database: the owner's hello by session, said to the process that does not
    serve the table, reaches the table's home with the session (the relay carries the cookie on), and a guest's is
    refused there."""
    env = {"DATABASE_URL": new_database(postgres_url), "DREIZEHN_DATA_DIR": tmp_path / "unused",
           "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_GRACE_PERIOD": 600, "DREIZEHN_PASSWORD_MEMORY_KIB": 8192,
           "DREIZEHN_PASSWORD_PASSES": 1}
    first, second = processes(env), processes(env)
    anna = httpx2.Client(base_url=first.url, timeout=10.0)
    csrf = anna.post("/api/accounts", json={"name": _name("Anna"), "password": PASSWORD}).json()["csrf"]
    created = anna.post("/api/tables", headers={"X-CSRF-Token": csrf},
                        json={"game": "holzwurm", "options": {"games": 1}, "seats": [ME, FRIEND]}).json()
    table_id = created["table"]["id"]
    cookie = "; ".join(f"{k}={v}" for k, v in anna.cookies.items())

    def hello(headers: dict[str, str]) -> dict[str, Any]:
        peer = NetPeer(second.port, headers)
        try:
            return peer.hello(table=table_id, seat=0)
        finally:
            peer.close()

    welcome = hello({"cookie": cookie})
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    assert (first.metric("dreizehn_rooms"), second.metric("dreizehn_rooms")) == (1, 0)  # the first served it
    assert hello({})["code"] == "account.signed_out"


def test_u7_a_session_ended_by_another_process_stops_the_connection_within_its_freshness(
        api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session ended in the database by another process (an operator's ``dreizehn admin``, a second server
    process) is seen at the first message after the last check's freshness (``SESSION_FRESH``, here none) once the
    check is too old to act on (``SESSION_STALE``, here none too)."""
    monkeypatch.setattr(ws, "SESSION_FRESH", 0.0)
    monkeypatch.setattr(ws, "SESSION_STALE", 0.0)
    anna, anna_name, _ = person(api, "Anna")
    table_id = table(anna, [ME, BOT])["table"]["id"]
    phone = browser(api)
    sign_in(phone, anna_name)
    with connect(phone, table=table_id, seat=0) as peer:
        peer.send({"type": "ping"})
        assert peer.recv(skip=("presence", "update"))["type"] == "pong"
        with api.app.state.hub.store.engine.begin() as c:  # type: ignore[attr-defined]
            c.execute(sessions.delete())  # as another process would: this one does not know
        peer.send({"type": "ping"})
        answer = peer.recv(skip=("presence", "update"))
        assert answer["type"] == "refused" and answer["code"] == "account.signed_out"


def test_u7_a_stale_check_is_made_beside_the_message_and_ends_the_connection(
        api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its freshness but not yet stale, a connection's message is answered at once while the session is asked
    again beside it; the answer that the session ended refuses and closes the connection (1008)."""
    monkeypatch.setattr(ws, "SESSION_FRESH", 0.0)
    anna, anna_name, _ = person(api, "Anna")
    table_id = table(anna, [ME, BOT])["table"]["id"]
    phone = browser(api)
    sign_in(phone, anna_name)
    with connect(phone, table=table_id, seat=0) as peer:
        with api.app.state.hub.store.engine.begin() as c:  # type: ignore[attr-defined]
            c.execute(sessions.delete())  # as another process would: this one does not know
        peer.send({"type": "ping"})
        told = peer.until(lambda m: m["type"] == "refused")
        assert told["code"] == "account.signed_out"
        with pytest.raises(Closed) as closed:
            peer.recv(skip=("presence", "update", "pong"))
        assert closed.value.code == 1008

