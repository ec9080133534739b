"""Issue 22: the server made easy to carry on. One message writer (every message built from the protocol's models
and checked, the protocol version in one place, ``GET /api/server``), one refusal for the websocket and the HTTP
API, rooms dropped from memory when idle and rebuilt from the stored log, and bot seats named in each receiver's
language."""

from __future__ import annotations

import time

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from dreizehn.core.errors import DreizehnError
from dreizehn.server import messages
from dreizehn.server.protocol import PROTOCOL
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms.state import seat_names
from dreizehn.server.storage import SeatRow

from .kit import connect, create_table, hub, settle, spectator_hello, stored, table_body, tokens


def test_the_server_says_its_protocol_version(client: TestClient) -> None:
    """``GET /api/server`` answers the protocol version, the one the welcome names (so a client need not write it
    down)."""
    assert client.get("/api/server").json() == {"protocol": PROTOCOL}
    created = create_table(client, "knizia13", ["person", "easy", "easy"])
    with connect(client) as peer:
        assert peer.hello(token=tokens(created)[0])["protocol"] == PROTOCOL


def test_the_writer_refuses_a_message_the_protocol_does_not_allow() -> None:
    """Every message is checked by its model: a field the protocol does not name, or one missing, is an error of
    the server, not a message sent."""
    seat = {"seat": 0, "name": "Anna", "kind": "person", "bot": None, "joined": True, "connected": True,
            "stand_in": False}
    assert '"presence"' in messages.presence([seat])
    with pytest.raises(ValidationError):
        messages.presence([{**seat, "token": "secret"}])
    with pytest.raises(ValidationError):
        messages.hint(1, None)  # type: ignore[arg-type]
    checked = messages.seats([seat])
    told = {"version": 1, "seat": 0, "action": "G1", "text": "Anna plays G1", "events": []}
    with pytest.raises(ValidationError):
        messages.update({**told, "seed": 7}, [], {}, checked)


def test_one_refusal_for_the_websocket_and_the_api(client: TestClient) -> None:
    """The websocket's ``refused`` and the API's ``detail`` are the same refusal, said in the language asked."""
    err = ServerError("server.no_table", status=404, rule="S1", table="nope")
    body = messages.refusal_fields(err, "de")
    answer = client.get("/api/tables/nope?lang=de")
    assert answer.status_code == 404 and answer.json() == {"detail": body}
    import orjson

    sent = orjson.loads(messages.refused(err, "de"))
    assert {k: sent[k] for k in body} == body and sent["type"] == "refused"


def test_a_refusal_raised_anywhere_in_the_api_is_answered_by_the_one_handler(client: TestClient) -> None:
    """A route raises the refusal; the application's handler answers it with its status, in the request's
    language (a language the server does not speak is refused itself, in English)."""
    bad = client.post("/api/web/arrange?lang=nl",
                      json={"game": "three-thirteen", "view": {"players": 2, "hand": ["ZZ"], "wild_rank": 3}})
    assert bad.status_code == 422
    detail = bad.json()["detail"]
    assert set(detail) == {"code", "rule", "params", "message"} and detail["code"]
    unknown = client.get("/api/tables/nope?lang=xx")
    assert unknown.status_code == 422 and unknown.json()["detail"]["code"]
    assert isinstance(ServerError("server.no_table"), DreizehnError)


def _idle(client: TestClient) -> list[str]:
    """Drop the rooms idle now, as if ``DREIZEHN_ROOM_IDLE`` had passed."""
    found = hub(client)
    return found.evict_idle(time.monotonic() + found.settings.room_idle + 1)


def test_an_idle_room_is_dropped_and_rebuilt_the_same(client: TestClient) -> None:
    """A room with no connection and nothing running (here: the bots played until the person's turn, and the
    person never came) is dropped after ``DREIZEHN_ROOM_IDLE``; the next connection rebuilds it from the stored log
    and is welcomed exactly as before: the same view, version, course and latest actions."""
    body = {"game": "knizia13", "options": {}, "seats": [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"},
                                                         {"kind": "person"}]}
    created = client.post("/api/tables", json=body).json()
    table_id = created["table"]["id"]
    with connect(client, **spectator_hello(created)) as peer:
        settle(peer, {2}, 0)
    with connect(client) as peer:
        before = peer.hello(**spectator_hello(created))
        assert table_id not in _idle(client)  # a connection keeps the room
    _wait_dropped(client, table_id)
    assert table_id not in hub(client).rooms
    with connect(client) as peer:
        again = peer.hello(**spectator_hello(created))
    assert again == before and again["view"]["version"] == len(stored(client, table_id).actions) > 0
    assert table_id in hub(client).rooms


def _wait_dropped(client: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 60  # bounds a failure only
    while table_id not in _idle(client):
        assert time.monotonic() < deadline, "the idle room was not dropped"
        time.sleep(0.01)


def test_a_room_with_a_connection_a_grace_period_or_a_bot_to_move_is_kept(client: TestClient) -> None:
    """A connection keeps a room; so does the grace period of a person who left, and a bot that is to move; a
    finished game's room goes."""
    created = create_table(client, "knizia13", ["person", "easy", "easy"])
    table_id = created["table"]["id"]
    with connect(client, token=tokens(created)[0]) as peer:
        settle(peer, {0}, -1)
        assert table_id not in _idle(client)
    room = hub(client).rooms[table_id]
    assert room.presence.away  # the person left: their grace period runs
    assert table_id not in _idle(client)

    async def back() -> None:  # as if the grace period were over and the person's seat theirs again
        for task in room.presence.away.values():
            task.cancel()
        room.presence.away.clear()

    assert client.portal is not None
    client.portal.call(back)
    room.table.replace(0, "easy")  # the person's seat played by a bot: a bot is to move
    assert table_id not in _idle(client)
    room.table.replace(0, None)
    _wait_dropped(client, table_id)


def test_a_bot_seat_without_a_name_gets_a_bots_name(client: TestClient) -> None:
    """A bot seat created without a name sits under a bot's name (Ada, Bruno…: "medium 2 0, medium 3 3" was what a
    scoring read with bots named by their level), none the same as a person's, its level kept apart in ``bot``."""
    body = table_body("knizia13", ["person", "easy", "medium", "medium"])
    body["seats"][0]["name"] = "ada"
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    seats = stored(client, response.json()["table"]["id"]).seats
    assert [(s.name, s.bot) for s in seats] == [("ada", None), ("Bruno", "easy"), ("Clara", "medium"),
                                                ("Emil", "medium")]
    with connect(client) as peer:
        names = [s["name"] for s in peer.hello(table=response.json()["table"]["id"],
                                               spectator=response.json()["spectator"]["token"])["seats"]]
        assert names == ["ada", "Bruno", "Clara", "Emil"]


@pytest.mark.parametrize(("lang", "name"), [("en", "easy"), ("de", "leicht"), ("nl", "makkelijk")])
def test_a_bot_seat_stored_under_its_level_is_named_in_the_receivers_language(lang: str, name: str) -> None:
    """A bot seat stored under its level (tables made before bots had names) is named by the level's word in each
    receiver's language, with its seat number where the level sits twice."""
    seats = [SeatRow(0, "Anna", None, True), SeatRow(1, "easy", "easy", True), SeatRow(2, "medium", "medium", True),
             SeatRow(3, "medium", "medium", True)]
    names = seat_names(seats, lang)
    assert names[1] == name
    assert names[2] != names[3] and names[2].endswith(" 3") and names[3].endswith(" 4")
