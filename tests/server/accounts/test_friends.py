"""Issue 45 items 4 and 7: friends (ask, accept, decline, withdraw, remove) and blocks (rule U8), and the settings
kept on the server; every route that takes a name tried by a second account against the first's relations, bad
names refused in the reader's language with nothing changed, and a blocked person's lines of chat kept from the
blocker."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.accounts.relations import blocks, seat_mutes
from dreizehn.server.accounts.schema import accounts, relations
from dreizehn.server.chat import Line
from dreizehn.server.settings import Settings
from dreizehn.server.storage import seats

from ..kit import connect, create_table, tokens
from .people import code, sign_up


def _person(client: TestClient, name: str) -> tuple[TestClient, dict[str, str]]:
    """A new browser signed up as ``name``, and the header its changing requests carry."""
    browser = TestClient(client.app)
    browser.portal = client.portal  # the server's event loop: a websocket it opens meets the rooms there
    return browser, {"X-CSRF-Token": sign_up(browser, name)}


def _lists(browser: TestClient) -> dict[str, list[str]]:
    answer = browser.get("/api/me/friends")
    assert answer.status_code == 200, answer.text
    return {part: [p["name"] for p in people] for part, people in answer.json().items()}


def _rows(client: TestClient) -> list[tuple[str, str, str]]:
    """Every relation stored, as (name, other's name, kind)."""
    with client.app.state.hub.store.engine.connect() as c:  # type: ignore[attr-defined]
        names = dict(c.execute(sa.select(accounts.c.id, accounts.c.name)).all())
        found = c.execute(sa.select(relations.c.account_id, relations.c.other_id, relations.c.kind)).all()
    return sorted((names[a], names[b], kind) for a, b, kind in found)


def _id(client: TestClient, name: str) -> str:
    with client.app.state.hub.store.engine.connect() as c:  # type: ignore[attr-defined]
        return str(c.execute(sa.select(accounts.c.id).where(accounts.c.name == name)).scalar_one())


EMPTY: dict[str, list[str]] = {"friends": [], "asked": [], "asking": [], "blocked": []}


def test_u8_ask_accept_and_remove_by_name_without_regard_to_case(serve: Callable[[Settings], TestClient],
                                                                  db_settings: Settings) -> None:
    client = serve(db_settings)
    anna, anna_h = _person(client, "Anna")
    ben, ben_h = _person(client, "Ben_13")
    asked = anna.post("/api/me/friends", json={"name": "BEN_13"}, headers=anna_h)
    assert asked.status_code == 200 and asked.json()["asked"] == [{"name": "Ben_13"}]
    assert _lists(ben) == {**EMPTY, "asking": ["Anna"]}
    again = anna.post("/api/me/friends", json={"name": "ben_13"}, headers=anna_h)  # asking twice: one ask
    assert again.status_code == 200 and _rows(client) == [("Anna", "Ben_13", "asked")]
    accepted = ben.post("/api/me/friends", json={"name": "anna"}, headers=ben_h)  # asking back accepts
    assert accepted.status_code == 200 and accepted.json()["friends"] == [{"name": "Anna"}]
    assert _lists(anna) == {**EMPTY, "friends": ["Ben_13"]} and _lists(ben) == {**EMPTY, "friends": ["Anna"]}
    assert anna.delete("/api/me/friends/BEN_13", headers=anna_h).status_code == 204
    assert _lists(anna) == EMPTY and _lists(ben) == EMPTY and _rows(client) == []


def test_u8_an_ask_declined_or_withdrawn_is_gone(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    ben, ben_h = _person(client, "Ben")
    anna.post("/api/me/friends", json={"name": "Ben"}, headers=anna_h)
    assert ben.delete("/api/me/friends/anna", headers=ben_h).status_code == 204  # declined
    assert _lists(anna) == EMPTY and _lists(ben) == EMPTY
    anna.post("/api/me/friends", json={"name": "Ben"}, headers=anna_h)
    assert anna.delete("/api/me/friends/Ben", headers=anna_h).status_code == 204  # withdrawn
    assert _rows(client) == []
    nothing = anna.delete("/api/me/friends/Ben", headers=anna_h, params={"lang": "nl"})
    assert nothing.status_code == 404 and code(nothing) == "account.no_friend"
    assert "Ben" in nothing.json()["detail"]["message"]


def test_u8_a_block_ends_the_friendship_and_hides_their_asks(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    ben, ben_h = _person(client, "Ben")
    anna.post("/api/me/friends", json={"name": "Ben"}, headers=anna_h)
    ben.post("/api/me/friends", json={"name": "Anna"}, headers=ben_h)
    blocked = anna.post("/api/me/blocks", json={"name": "ben"}, headers=anna_h)
    assert blocked.status_code == 200 and blocked.json() == {**EMPTY, "blocked": [{"name": "Ben"}]}
    assert _lists(ben) == EMPTY  # not told
    assert blocks(client.app.state.hub.store, _id(client, "Anna"), _id(client, "Ben"))  # type: ignore[attr-defined]
    assert not blocks(client.app.state.hub.store.engine,  # type: ignore[attr-defined]
                      _id(client, "Ben"), _id(client, "Anna"))
    ben.post("/api/me/friends", json={"name": "Anna"}, headers=ben_h)  # kept, never shown to Anna
    assert _lists(anna)["asking"] == [] and _lists(ben)["asked"] == ["Anna"]
    refused = anna.post("/api/me/friends", json={"name": "Ben"}, headers=anna_h, params={"lang": "de"})
    assert refused.status_code == 409 and code(refused) == "account.blocking"
    assert refused.json()["detail"]["message"] == "Du blockierst Ben: hebe die Blockierung zuerst auf."
    assert anna.delete("/api/me/blocks/BEN", headers=anna_h).status_code == 204
    assert _lists(anna) == EMPTY and _rows(client) == []  # the ask made meanwhile went with the block
    again = anna.delete("/api/me/blocks/Ben", headers=anna_h)
    assert again.status_code == 404 and code(again) == "account.not_blocked"


@pytest.mark.parametrize(("route", "method"), [("/api/me/friends", "post"), ("/api/me/blocks", "post"),
                                               ("/api/me/friends/{}", "delete"), ("/api/me/blocks/{}", "delete")])
@pytest.mark.parametrize(("name", "refusal", "status"), [
    ("Nobody", "account.no_player", 404),
    ("ANNA", "account.yourself", 422),
    ("<img src=x onerror=alert(1)>", "account.no_player", 404),
    ("Ben'; DROP TABLE relations;--", "account.no_player", 404),
    ("B" * 200, "account.no_player", 404),
    ("B" * 201, "server.bad_request", 422),
])
def test_u8_bad_names_are_refused_in_the_readers_language_and_change_nothing(
        client: TestClient, route: str, method: str, name: str, refusal: str, status: int) -> None:
    anna, anna_h = _person(client, "Anna")
    _person(client, "Ben")
    anna.post("/api/me/friends", json={"name": "Ben"}, headers=anna_h)
    before = _rows(client)
    if method == "post":
        answer = anna.post(route, json={"name": name}, headers=anna_h, params={"lang": "de"})
    else:
        answer = anna.delete(route.format(quote(name, safe="")), headers=anna_h, params={"lang": "de"})
    assert answer.status_code == status and code(answer) == refusal, answer.text
    message = answer.json()["detail"]["message"]
    assert message and "<img" not in message and "U8" not in message
    assert _rows(client) == before


def test_u4_changing_friends_needs_the_csrf_token(client: TestClient) -> None:
    anna, _ = _person(client, "Anna")
    _person(client, "Ben")
    for answer in (anna.post("/api/me/friends", json={"name": "Ben"}),
                   anna.post("/api/me/blocks", json={"name": "Ben"}),
                   anna.delete("/api/me/friends/Ben"), anna.delete("/api/me/blocks/Ben"),
                   anna.put("/api/me/settings", json={"sound": False})):
        assert answer.status_code == 403 and code(answer) == "account.csrf"
    assert _rows(client) == [] and anna.get("/api/me/settings").json()["sound"] is True


def test_u3_a_guest_has_no_friends_list(client: TestClient) -> None:
    guest = TestClient(client.app)
    for answer in (guest.get("/api/me/friends"), guest.post("/api/me/friends", json={"name": "Ben"}),
                   guest.delete("/api/me/friends/Ben"), guest.post("/api/me/blocks", json={"name": "Ben"}),
                   guest.delete("/api/me/blocks/Ben"), guest.get("/api/me/settings")):
        assert answer.status_code == 401 and code(answer) == "account.signed_out"


# -- a second account against the first's relations: one test per route ----------------------------------------------
def _anna_and_clara_friends_anna_blocks_dora(client: TestClient) -> tuple[list[tuple[str, str, str]], TestClient,
                                                                            dict[str, str]]:
    anna, anna_h = _person(client, "Anna")
    clara, clara_h = _person(client, "Clara")
    _person(client, "Dora")
    anna.post("/api/me/friends", json={"name": "Clara"}, headers=anna_h)
    clara.post("/api/me/friends", json={"name": "Anna"}, headers=clara_h)
    anna.post("/api/me/blocks", json={"name": "Dora"}, headers=anna_h)
    ben, ben_h = _person(client, "Ben")
    return _rows(client), ben, ben_h


def test_u8_another_account_reads_not_the_friends_list(client: TestClient) -> None:
    _, ben, _ = _anna_and_clara_friends_anna_blocks_dora(client)
    assert _lists(ben) == EMPTY


def test_u8_another_account_cannot_end_a_friendship(client: TestClient) -> None:
    before, ben, ben_h = _anna_and_clara_friends_anna_blocks_dora(client)
    answer = ben.delete("/api/me/friends/Clara", headers=ben_h)
    assert answer.status_code == 404 and code(answer) == "account.no_friend"
    assert ben.delete("/api/me/friends/Anna", headers=ben_h).status_code == 404
    assert _rows(client) == before


def test_u8_another_account_cannot_lift_a_block(client: TestClient) -> None:
    before, ben, ben_h = _anna_and_clara_friends_anna_blocks_dora(client)
    answer = ben.delete("/api/me/blocks/Dora", headers=ben_h)
    assert answer.status_code == 404 and code(answer) == "account.not_blocked"
    assert _rows(client) == before


def test_u8_another_accounts_ask_or_block_touches_only_its_own_rows(client: TestClient) -> None:
    before, ben, ben_h = _anna_and_clara_friends_anna_blocks_dora(client)
    ben.post("/api/me/friends", json={"name": "Clara"}, headers=ben_h)
    ben.post("/api/me/blocks", json={"name": "Clara"}, headers=ben_h)
    ben.post("/api/me/blocks", json={"name": "Anna"}, headers=ben_h)
    assert _rows(client) == sorted([*before, ("Ben", "Clara", "blocked"), ("Ben", "Anna", "blocked")])


def test_u10_deleting_an_account_deletes_its_relations(client: TestClient) -> None:
    _anna_and_clara_friends_anna_blocks_dora(client)
    clara = TestClient(client.app)
    clara_h = {"X-CSRF-Token": clara.post("/api/session", json={"name": "Clara", "password": "correct horse battery"})
               .json()["csrf"]}
    assert clara.request("DELETE", "/api/account", json={"password": "correct horse battery"},
                         headers=clara_h).status_code == 204
    assert _rows(client) == [("Anna", "Dora", "blocked")]


# -- settings kept on the server -------------------------------------------------------------------------------------
def test_settings_are_kept_for_every_device(serve: Callable[[Settings], TestClient], db_settings: Settings) -> None:
    client = serve(db_settings)
    anna, anna_h = _person(client, "Anna")
    defaults = {"language": None, "sound": True, "reduced_motion": False, "bot_level": "medium"}
    assert anna.get("/api/me/settings").json() == defaults
    changed = anna.put("/api/me/settings", json={"language": "nl", "bot_level": "expert"}, headers=anna_h)
    assert changed.status_code == 200 and changed.json() == {**defaults, "language": "nl", "bot_level": "expert"}
    laptop = TestClient(client.app)
    assert laptop.post("/api/session", json={"name": "anna", "password": "correct horse battery"}).json()[
        "settings"] == {**defaults, "language": "nl", "bot_level": "expert"}
    laptop_h = {"X-CSRF-Token": laptop.get("/api/session").json()["csrf"]}
    laptop.put("/api/me/settings", json={"sound": False, "language": None}, headers=laptop_h)
    assert anna.get("/api/session").json()["settings"] == {**defaults, "sound": False, "bot_level": "expert"}


def test_another_accounts_settings_are_its_own(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    bruno, bruno_h = _person(client, "Bruno")
    anna.put("/api/me/settings", json={"language": "de", "sound": False}, headers=anna_h)
    assert bruno.get("/api/me/settings").json() == {"language": None, "sound": True, "reduced_motion": False,
                                                   "bot_level": "medium"}
    bruno.put("/api/me/settings", json={"language": "nl"}, headers=bruno_h)
    assert anna.get("/api/me/settings").json()["language"] == "de"


@pytest.mark.parametrize("body", [
    {"colour": "red"}, {"language": "fr"}, {"sound": "yes"}, {"sound": 1}, {"bot_level": "godlike"},
    {"reduced_motion": None}, {"language": "<b>de</b>"}, [], {"bot_level": "medium", "extra": True},
])
def test_settings_are_checked_strictly_and_a_refusal_changes_nothing(client: TestClient, body: Any) -> None:
    anna, anna_h = _person(client, "Anna")
    anna.put("/api/me/settings", json={"bot_level": "hard"}, headers=anna_h)
    answer = anna.put("/api/me/settings", json=body, headers=anna_h, params={"lang": "de"})
    assert answer.status_code == 422 and code(answer) == "server.bad_request"
    assert answer.json()["detail"]["params"]["field"].startswith("body")
    assert anna.get("/api/me/settings").json()["bot_level"] == "hard"


# -- a blocked person's lines of chat --------------------------------------------------------------------------------
def _bind(client: TestClient, table_id: str, names: dict[int, str]) -> None:
    """Bind seats to accounts straight in the store (as a signed-in person's seat is)."""
    with client.app.state.hub.store.engine.begin() as c:  # type: ignore[attr-defined]
        for seat, name in names.items():
            c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat)
                      .values(account_id=_id(client, name)))


def _said(peer: Any) -> list[str]:
    return [m["text"] for m in peer.received if m["type"] == "said"]


def test_u8_the_blocker_reads_no_line_of_the_blocked(client: TestClient) -> None:
    anna, anna_h = _person(client, "Anna")
    bruno, _ = _person(client, "Bruno")
    clara, _ = _person(client, "Clara")
    created = create_table(TestClient(client.app), "knizia13", ["person", "person", "person"])
    table_id, invited = created["table"]["id"], tokens(created)
    _bind(client, table_id, {0: "Anna", 1: "Bruno", 2: "Clara"})
    anna.post("/api/me/blocks", json={"name": "Bruno"}, headers=anna_h)
    assert seat_mutes(client.app.state.hub.store, table_id) == {0: frozenset({1})}  # type: ignore[attr-defined]
    with connect(anna, token=invited[0]) as a, connect(bruno, token=invited[1]) as b, \
            connect(clara, token=invited[2]) as c:
        b.send({"type": "say", "text": "from Bruno"})
        c.until(lambda m: m["type"] == "said" and m["text"] == "from Bruno")
        a.send({"type": "say", "text": "from Anna"})
        for peer in (a, b, c):
            peer.until(lambda m: m["type"] == "said" and m["text"] == "from Anna")
        assert _said(a) == ["from Anna"]  # Bruno's line came before Anna's, to everyone else
        assert _said(b) == _said(c) == ["from Bruno", "from Anna"]
    with connect(anna, token=invited[0]) as back:
        assert [m["text"] for m in back.received[0]["chat"]] == ["from Anna"]
        assert anna.delete("/api/me/blocks/Bruno", headers=anna_h).status_code == 204
        with connect(bruno, token=invited[1]) as b:
            b.send({"type": "say", "text": "Bruno again"})
            back.until(lambda m: m["type"] == "said" and m["text"] == "Bruno again")


def test_u8_a_line_heard_from_another_process_is_kept_from_the_blocker(client: TestClient) -> None:
    """PostgreSQL: a line stored by another process reaches this one as a notice (:meth:`Room.hear_line`); the
    room reads the blocks again first (a block made after the room was loaded counts), and tells the lines in the
    order heard."""
    anna, _ = _person(client, "Anna")
    _person(client, "Bruno")
    clara, _ = _person(client, "Clara")
    created = create_table(TestClient(client.app), "knizia13", ["person", "person", "person"])
    table_id, invited = created["table"]["id"], tokens(created)
    _bind(client, table_id, {0: "Anna", 1: "Bruno", 2: "Clara"})
    with connect(anna, token=invited[0]) as a, connect(clara, token=invited[2]) as c:
        with client.app.state.hub.store.engine.begin() as db:  # type: ignore[attr-defined]
            db.execute(relations.insert().values(account_id=_id(client, "Anna"), other_id=_id(client, "Bruno"),
                                                 kind="blocked", at=dt.datetime.now(dt.UTC)))
        room = client.app.state.hub.rooms[table_id]  # type: ignore[attr-defined]

        async def hear() -> None:
            room.hear_line(Line(10_001, table_id, 1, "Bruno", "from Bruno elsewhere", None, 0))
            room.hear_line(Line(10_002, table_id, 2, "Clara", "from Clara elsewhere", None, 0))

        client.portal.call(hear)  # type: ignore[union-attr]
        for peer in (a, c):
            peer.until(lambda m: m["type"] == "said" and m["text"] == "from Clara elsewhere")
        assert _said(a) == ["from Clara elsewhere"]
        assert _said(c) == ["from Bruno elsewhere", "from Clara elsewhere"]


def test_u8_a_block_hides_the_lines_said_before_it_from_the_next_welcome(client: TestClient) -> None:
    """A block made while the table's room is loaded: the room reads the blocks again at once (no line need be
    said), so the blocker's next welcome leaves out what the blocked said before."""
    anna, anna_h = _person(client, "Anna")
    bruno, _ = _person(client, "Bruno")
    created = create_table(TestClient(client.app), "knizia13", ["person", "person", "medium"])
    table_id, invited = created["table"]["id"], tokens(created)
    _bind(client, table_id, {0: "Anna", 1: "Bruno"})
    with connect(bruno, token=invited[1]) as b:
        b.send({"type": "say", "text": "before the block"})
        b.until(lambda m: m["type"] == "said")
        assert anna.post("/api/me/blocks", json={"name": "Bruno"}, headers=anna_h).status_code == 200
        with connect(anna, token=invited[0]) as a:
            assert a.received[0]["chat"] == []
