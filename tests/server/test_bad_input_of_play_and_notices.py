"""Bad input to the routes of issue 46 (turn-based tables, the list's filters, the lobby, the notices) and of the
ratings' pages, on SQLite and PostgreSQL: a value of the wrong type, a text with NUL (which PostgreSQL cannot store)
or another control character, and a huge text are refused with a 4xx naming the refusal, never a 500, and change
nothing; a second account reaches none of the first's lobby entry or push subscription."""

from __future__ import annotations

import itertools
import urllib.parse
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.lobby.schema import lobby_queue
from dreizehn.server.notices.schema import push_subscriptions
from dreizehn.server.storage import tables

from .accounts.browsers import browser
from .accounts.people import sign_up

_numbers = itertools.count()
BAD_TEXTS = ["nul\x00here", "bell\x07", "\x00", "x" * 100_000]
"""Texts no route may store or choke on: NUL, a control character, and one far above every limit."""
URL_TEXTS = [*BAD_TEXTS[:3], "x" * 5000]
"""The same in an address (percent-encoded; an address of 100,000 characters is no client's)."""


def quoted(text: str) -> str:
    return urllib.parse.quote(text, safe="")


@pytest.fixture
def api(module_server: TestClient) -> TestClient:
    return module_server


def person(api: TestClient) -> TestClient:
    new = browser(api)
    new.headers["X-CSRF-Token"] = sign_up(new, f"Input{next(_numbers)}")
    return new


def count(api: TestClient, table: sa.Table) -> int:
    engine: sa.Engine = api.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.connect() as c:
        return int(c.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def refused(answer: Any) -> None:
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[:300])
    assert "code" in answer.json()["detail"]


def test_a_new_table_s_pace_fields_of_the_wrong_type_or_text_are_refused(api: TestClient) -> None:
    anna = person(api)
    base = {"game": "holzwurm", "options": {"games": 1}, "pace": "turn-based",
            "seats": [{"kind": "person", "name": "Me"}, {"kind": "bot", "bot": "random"}]}
    before = count(api, tables)
    for field, value in [("pace", "turn-based\x00"), ("pace", 1), ("move_time", "86400"), ("move_time", 86400.5),
                         ("move_time", 10**30), ("on_timeout", "end\x00"), ("on_timeout", None), ("private", "yes"),
                         *[("on_timeout", text) for text in BAD_TEXTS]]:
        refused(anna.post("/api/tables", json={**base, field: value}))
    assert count(api, tables) == before


def test_the_list_s_filters_of_bad_text_are_refused(api: TestClient) -> None:
    reader = person(api)
    for params in [*({"game": text} for text in URL_TEXTS), *({"cursor": text} for text in URL_TEXTS),
                   {"whose": "mine\x00"}, {"limit": "ten"}, {"status": "\x00"}]:
        refused(reader.get("/api/tables?" + urllib.parse.urlencode(params)))


def test_the_ratings_and_players_pages_of_a_name_or_game_of_bad_text_are_refused(api: TestClient) -> None:
    for text in URL_TEXTS:
        refused(api.get(f"/api/ratings/{quoted(text)}"))
        refused(api.get(f"/api/leaderboard/{quoted(text)}"))
        refused(api.get(f"/api/players/{quoted(text)}"))  # a name with NUL is nobody's, on PostgreSQL too


def test_a_queue_entry_of_bad_input_is_refused_and_nothing_is_queued(api: TestClient) -> None:
    anna = person(api)
    base = {"game": "knizia13", "players": 3, "bot_wait": None}
    before = count(api, lobby_queue)
    for field, value in [*(("game", text) for text in BAD_TEXTS), *(("bot_level", text) for text in BAD_TEXTS),
                         ("players", "3"), ("players", 10**30), ("bot_wait", -1), ("bot_wait", "soon"),
                         ("pace", "turn-based\x00"), ("move_time", 3600.5), ("rated", "yes")]:
        refused(anna.post("/api/lobby/queue", json={**base, field: value}))
    assert count(api, lobby_queue) == before


def test_a_second_account_reaches_none_of_the_first_s_lobby_entry(api: TestClient) -> None:
    anna, bert = person(api), person(api)
    assert anna.post("/api/lobby/queue", json={"game": "knizia13", "players": 4, "bot_wait": None}).status_code == 200
    assert bert.get("/api/lobby").json()["me"] is None
    assert bert.get("/api/lobby/queue").status_code == 404  # Bert has no entry; Anna's is not his to read
    assert bert.request("DELETE", "/api/lobby/queue").status_code in (204, 404)
    assert bert.post("/api/lobby/ready").status_code in (404, 409)
    assert anna.get("/api/lobby/queue").json()["state"] == "waiting"  # Anna's entry is as it was
    assert anna.request("DELETE", "/api/lobby/queue").status_code == 204


def test_a_push_subscription_of_bad_text_is_refused_and_nothing_is_stored(api: TestClient) -> None:
    anna = person(api)
    keys = {"p256dh": "B" * 87, "auth": "A" * 22}
    before = count(api, push_subscriptions)
    for body in [*({"endpoint": f"https://push.example.org/{text}", "keys": keys} for text in BAD_TEXTS),
                 {"endpoint": 7, "keys": keys}, {"endpoint": "https://push.example.org/x", "keys": "k"},
                 *({"endpoint": "https://push.example.org/x", "keys": {**keys, "auth": text}} for text in BAD_TEXTS),
                 *({"endpoint": "https://push.example.org/x", "keys": {**keys, "p256dh": text}} for text in BAD_TEXTS)]:
        refused(anna.post("/api/me/push", json=body))
    for text in BAD_TEXTS:
        refused(anna.request("DELETE", "/api/me/push", json={"endpoint": f"https://push.example.org/{text}"}))
    refused(anna.put("/api/me/notices", json={"mail": "each\x00"}))
    assert count(api, push_subscriptions) == before


def test_an_unsubscribe_link_of_bad_text_is_refused(api: TestClient) -> None:
    guest = browser(api)
    for text in [*URL_TEXTS, "acct.\x00", "acct.x.y"]:
        refused(guest.post(f"/api/notices/unsubscribe/{quoted(text)}"))
