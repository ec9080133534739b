"""A strict protocol (issue 27): no value is coerced, every whole number is bounded, and a refusal never echoes what
JSON cannot carry; each case an outside client found is refused with its code, changes nothing and keeps the
connection. Over HTTP: strict bodies, options of their JSON type, bounded queries, NaN refused (not a 500), a seat
joined once, a rematch's invitation given once."""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import dreizehn
from dreizehn.server import messages
from dreizehn.server.protocol import INT64_MAX, INT64_MIN
from dreizehn.server.refusals import ServerError

from .kit import (
    TestPeer,
    connect,
    create_table,
    documented_codes,
    hub,
    play_to_end,
    settle,
    stored,
    table_body,
    tokens,
)

HUGE = 10**30


@pytest.fixture
def table(client: TestClient) -> dict[str, Any]:
    """A table of 13: two people and a bot."""
    return create_table(client, "knizia13", ["person", "person", "medium"])


def _mover(client: TestClient, created: dict[str, Any]) -> str:
    """The token of the person to move once the bot has played."""
    with connect(client, token=tokens(created)[0]) as peer:
        view = settle(peer, {0, 1}, -1)
    return tokens(created)[view["current_player"]]


def _refused(peer: TestPeer, text: str) -> dict[str, Any]:
    """Send ``text``; the answer, which must be a refusal; then the connection must still answer a ping."""
    peer.send(text)
    answer = peer.recv(skip=("presence",))
    assert answer["type"] == "refused", answer
    peer.send({"type": "ping"})
    alive = peer.recv(skip=("presence",))
    assert alive["type"] == "pong" or alive["code"] == "server.hello_first", alive  # answered: still connected
    return answer


def test_actions_of_loose_or_unbounded_numbers_are_refused_and_change_nothing(client: TestClient,
                                                                            table: dict[str, Any]) -> None:
    """Issue 27 items 1 and 2: a version of a string, a float, a boolean or beyond 64 bits, an action of a boolean,
    a float or beyond 64 bits: each refused (``server.bad_message`` naming the field), the connection kept, the
    table unchanged; then the legal action is applied."""
    token = _mover(client, table)
    table_id = table["table"]["id"]
    with connect(client, token=token) as peer:
        view = settle(peer, {0, 1}, -1)
        version, legal = view["version"], view["legal_actions"][0]["index"]
        log = stored(client, table_id).actions
        cases = [
            ({"version": str(version), "action": True}, "version"), ({"version": str(version), "action": legal},
                                                                     "version"),
            ({"version": float(version), "action": legal}, "version"), ({"version": True, "action": legal}, "version"),
            ({"version": 10**20, "action": legal}, "version"), ({"version": version, "action": True}, "action"),
            ({"version": version, "action": float(legal)}, "action"), ({"version": version, "action": HUGE}, "action"),
            ({"version": version, "action": -HUGE}, "action"), ({"version": version, "action": [legal]}, "action"),
            ({"version": version, "action": "x" * 33}, "action"),
        ]
        for fields, field in cases:
            answer = _refused(peer, json.dumps({"type": "action", **fields}))
            assert (answer["code"], answer["rule"], answer["params"]) == (
                "server.bad_message", "S3", {"type": "action", "field": field}), fields
        edge = _refused(peer, json.dumps({"type": "action", "version": version, "action": 2**63 - 1}))
        assert edge["code"] == "action.not_number" and edge["params"]["action"] == 2**63 - 1  # bounded: the engine's
        assert hub(client).rooms[table_id].table.version == version
        assert stored(client, table_id).actions == log
        peer.act(legal, version)
        assert peer.until(lambda m: m["type"] == "update")["version"] == version + 1


def test_hellos_of_loose_or_unbounded_protocols_are_refused(client: TestClient, table: dict[str, Any]) -> None:
    """Issue 27 items 1 and 2: a hello whose protocol is a string, a float, a boolean or beyond 64 bits is refused
    (``server.bad_message``, field ``protocol``) and the connection stays, so a right hello is welcomed after it;
    a 64-bit protocol that is not this one is refused by name, echoed as it came."""
    with connect(client) as peer:
        for protocol in ("1", 1.0, True, HUGE, -(2**63) - 1, None):
            answer = _refused(peer, json.dumps({"type": "hello", "protocol": protocol, "token": tokens(table)[0]}))
            assert (answer["code"], answer["params"]) == ("server.bad_message", {"type": "hello", "field": "protocol"})
        for fields in ({"token": 12345678}, {"lang": 1}, {"token": tokens(table)[0], "lang": ["de"]}):
            answer = _refused(peer, json.dumps({"type": "hello", "protocol": 1, **fields}))
            assert answer["code"] == "server.bad_message" and answer["params"]["field"] in fields
        other = _refused(peer, json.dumps({"type": "hello", "protocol": -(2**63), "token": tokens(table)[0]}))
        assert (other["code"], other["params"]) == ("server.protocol", {"given": -(2**63), "protocol": 1})
        assert peer.hello(token=tokens(table)[0])["type"] == "welcome"
        assert _refused(peer, '{"type": "lang", "lang": 7}')["params"] == {"type": "lang", "field": "lang"}


@pytest.mark.parametrize("text", ['{"type": "action", "version": NaN, "action": 0}',
                                  '{"type": "action", "version": 0, "action": Infinity}',
                                  '{"type": "hello", "protocol": -Infinity}', "NaN"])
def test_numbers_json_has_not_are_not_json(client: TestClient, table: dict[str, Any], text: str) -> None:
    """Issue 27: NaN and the infinities (which Python's parser reads) are no JSON: ``server.bad_json``."""
    with connect(client, token=tokens(table)[0]) as peer:
        assert _refused(peer, text)["code"] == "server.bad_json"


def test_a_refusal_never_echoes_what_json_cannot_carry() -> None:
    """Issue 27 item 1: a parameter beyond 64 bits or not finite is echoed as its text, so every refusal can be
    written (orjson writes no larger integer; JSON has no NaN)."""
    err = ServerError("server.protocol", rule="S4", given=HUGE, protocol=1, worth=math.nan, deep=[{"n": -HUGE}])
    sent = orjson.loads(messages.refused(err, "de"))
    assert sent["params"] == {"given": str(HUGE), "protocol": 1, "worth": "nan", "deep": [{"n": str(-HUGE)}]}
    assert messages.writable(2**63 - 1) == 2**63 - 1 and messages.writable(2**63) == str(2**63)
    assert messages.writable(10**100) == "1" + "0" * 38 + "…"
    assert messages.writable(math.inf) == "inf" and messages.writable(1.5) == 1.5


def _post_raw(client: TestClient, path: str, text: str) -> Any:
    return client.post(path, content=text, headers={"content-type": "application/json"})


def test_a_table_with_loose_or_non_finite_numbers_is_refused(client: TestClient) -> None:
    """Issue 27 items 2 and 4: a clock of NaN, infinity, a string or a boolean answers 422 ``server.bad_request``
    naming the field, without the value (not a 500); nothing is created."""
    body = json.dumps(table_body("holzwurm", ["person", "medium"]))
    for clock in ("NaN", "Infinity", '"5"', "true", "-1", "601"):
        response = _post_raw(client, "/api/tables?lang=nl", body.replace('"clock": 0.0', f'"clock": {clock}'))
        assert response.status_code == 422, (clock, response.text)
        detail = response.json()["detail"]
        assert (detail["code"], detail["rule"], detail["params"]["field"]) == ("server.bad_request", "S6",
                                                                                "body.clock")
        assert "body.clock" in detail["message"] and "NaN" not in response.text
    for name in (5, True, 1.5):
        seats = [{"kind": "person", "name": name}, {"kind": "bot"}]
        response = client.post("/api/tables", json={"game": "holzwurm", "seats": seats})
        assert response.status_code == 422 and response.json()["detail"]["params"]["field"] == "body.seats.0.name"
    assert client.get("/api/tables?status=open").json() == []


def test_options_must_be_of_their_json_type(client: TestClient) -> None:
    """Issue 27 item 2: ``open_piles: "yes"`` and the like are refused with the engine's code for the option; the
    option's own JSON values are taken."""
    bad: list[tuple[str, dict[str, Any], str]] = [
        ("knizia13", {"open_piles": "yes"}, "option.not_bool"), ("knizia13", {"open_piles": 1}, "option.not_bool"),
        ("knizia13", {"dealer": "1"}, "option.not_seat"), ("knizia13", {"dealer": 1.0}, "option.not_seat"),
        ("knizia13", {"dealer": True}, "option.not_seat"),
        ("three-thirteen", {"turn_limit": "20"}, "option.not_in_range"),
        ("three-thirteen", {"aces": "HIGH"}, "option.not_choice"),
        ("three-thirteen", {"turn_limit": math.nan}, "option.not_in_range")]
    for game, options, code in bad:
        body = table_body(game, ["person", "medium", "medium"], options)
        response = _post_raw(client, "/api/tables", json.dumps(body))
        assert response.status_code == 422, (options, response.text)
        detail = response.json()["detail"]
        assert detail["code"] == code and detail["params"]["name"] == next(iter(options)), detail
    assert client.get("/api/tables?status=open").json() == []
    good = create_table(client, "knizia13", ["person", "medium", "medium"], {"open_piles": True, "dealer": "random"})
    assert good["table"]["options"]["open_piles"] is True


def test_listing_queries_are_checked(client: TestClient) -> None:
    """Issue 27 item 2: ``?status=bogus`` and a limit out of 1..200 are refused, not read as the default."""
    for query, field in (("status=bogus", "query.status"), ("limit=0", "query.limit"), ("limit=201", "query.limit"),
                         (f"limit={HUGE}", "query.limit")):
        response = client.get(f"/api/tables?{query}")
        assert response.status_code == 422, query
        assert (response.json()["detail"]["code"], response.json()["detail"]["params"]["field"]) == (
            "server.bad_request", field)
    assert client.get("/api/tables?status=finished&limit=200").status_code == 200


def test_a_seat_is_joined_once(client: TestClient) -> None:
    """Issue 27 item 3: joining a joined seat answers 409 ``server.seat_taken`` and renames nothing, whether it
    was joined or named at creation."""
    created = create_table(client, "holzwurm", ["person", "medium"])
    body = {"game": "holzwurm", "seats": [{"kind": "person"}, {"kind": "bot", "bot": "easy"}]}
    fresh = client.post("/api/tables", json=body).json()
    token = tokens(fresh)[0]
    assert client.post("/api/seats/join", json={"token": token, "name": "Anna"}).status_code == 200
    for asked in (token, tokens(created)[0]):
        again = client.post("/api/seats/join?lang=de", json={"token": asked, "name": "Mallory"})
        assert again.status_code == 409, again.text
        assert (again.json()["detail"]["code"], again.json()["detail"]["rule"]) == ("server.seat_taken", "S2")
    assert client.get(f"/api/tables/{fresh['table']['id']}").json()["seats"][0]["name"] == "Anna"
    assert client.get(f"/api/tables/{created['table']['id']}").json()["seats"][0]["name"] == "Anna"
    for bad in ({"token": 12345678, "name": "x"}, {"token": token, "name": 5}, {"token": token}):
        assert client.post("/api/seats/join", json=bad).json()["detail"]["code"] == "server.bad_request"


def test_a_rematch_invitation_is_given_once(client: TestClient) -> None:
    """Issue 27 item 5: the asker's invitation and the one told to a connected person keep working: asking again
    is refused (409 ``server.rematch_issued``); a person who was not connected gets theirs by asking, once."""
    created = create_table(client, "holzwurm", ["person", "person", "person"], {"games": 1})
    table_id, invited = created["table"]["id"], tokens(created)
    with connect(client, token=invited[0]) as anna, connect(client, token=invited[1]) as bruno:
        with connect(client, token=invited[2]) as clara:
            play_to_end({0: anna, 1: bruno, 2: clara}, rng=random.Random(1))
        room = hub(client).rooms[table_id]
        deadline = time.monotonic() + 60  # bounds a failure only
        while any(c.seat == 2 for c in room.conns) and time.monotonic() < deadline:  # until Clara has gone
            time.sleep(0.01)
        first = client.post(f"/api/tables/{table_id}/rematch", json={"token": invited[0]})
        assert first.status_code == 200, first.text
        offered = bruno.until(lambda m: m["type"] == "rematch")
    new_id = first.json()["table"]["id"]
    mine = first.json()["invitations"][0]["token"]
    for asker in (invited[0], invited[1]):
        again = client.post(f"/api/tables/{table_id}/rematch", json={"token": asker})
        assert again.status_code == 409 and again.json()["detail"]["code"] == "server.rematch_issued", again.text
    late = client.post(f"/api/tables/{table_id}/rematch", json={"token": invited[2]})
    assert late.status_code == 200 and late.json()["table"]["id"] == new_id
    assert client.post(f"/api/tables/{table_id}/rematch", json={"token": invited[2]}).status_code == 409
    for seat, token in ((0, mine), (1, offered["token"]), (2, late.json()["invitations"][0]["token"])):
        with connect(client, token=token) as peer:
            assert peer.seat == seat


def test_random_table_bodies_are_created_or_refused_never_a_500(client: TestClient,
                                                                 scale: Callable[[int, int], int]) -> None:
    """Issue 27: bodies of every shape for ``POST /api/tables`` (numbers beyond 64 bits, NaN and the infinities,
    numbers as strings, booleans, junk where an object is meant) are created (201) or refused with a listed code
    (422), and every answer is JSON that any client reads (no NaN, no integer beyond 64 bits)."""
    games = list(dreizehn.game_ids())
    options = sorted({spec.name for g in games for spec in dreizehn.game_class(g).option_specs})
    seat = st.fixed_dictionaries({"kind": st.sampled_from(["person", "bot"]) | junk},
                                 optional={"name": st.text(max_size=5) | junk, "bot": st.sampled_from(["easy"]) | junk})
    body = st.fixed_dictionaries(
        {"game": st.sampled_from(games) | junk, "seats": st.lists(seat, min_size=0, max_size=4) | junk},
        optional={"options": st.dictionaries(st.sampled_from(options), junk | st.booleans(), max_size=3) | junk,
                  "clock": junk, "extra": junk})

    @settings(max_examples=scale(60, 400), deadline=None, suppress_health_check=list(HealthCheck))
    @given(body)
    def post(fields: dict[str, Any]) -> None:
        response = _post_raw(client, "/api/tables", json.dumps(fields))
        answer = json.loads(response.text, parse_constant=_no_constant)
        assert response.status_code in (201, 422), response.text
        if response.status_code == 422:
            assert answer["detail"]["code"] in documented_codes(), answer
        for number in _numbers(answer):
            assert INT64_MIN <= number <= INT64_MAX if isinstance(number, int) else math.isfinite(number)

    post()


junk = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(2**63, 10**30),
                 st.integers(-(10**30), -(2**63) - 1), st.floats(), st.text(max_size=6),
                 st.integers(-5, 700).map(str), st.lists(st.integers(), max_size=2),
                 st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
"""Values of every JSON shape, numbers beyond 64 bits and not finite among them."""


def _no_constant(name: str) -> Any:
    raise AssertionError(f"the answer holds {name}, which is no JSON")


def _numbers(value: Any) -> list[int | float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [value]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    return []


def test_the_openapi_document_names_the_refusal_the_api_sends(client: TestClient) -> None:
    """Issue 27: ``/docs`` tells a client the 422 it gets (``{"detail": Refusal}``), not FastAPI's own validation
    error, which the API never sends."""
    document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and set(schemas["Refusal"]["properties"]) == {
        "code", "rule", "params", "message"}
    answers = [op["responses"]["422"] for ops in document["paths"].values() for op in ops.values()
               if "422" in op["responses"]]
    assert answers and all(a["content"]["application/json"]["schema"]["$ref"].endswith("/RefusalAnswer")
                           for a in answers)
    refused = client.post("/api/tables", json={"game": 13})
    assert set(refused.json()) == {"detail"} and set(refused.json()["detail"]) == set(schemas["Refusal"]["properties"])
