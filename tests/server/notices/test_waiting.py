"""Issue 46 item 2, rule N1: the count of games waiting for a signed-in person (``GET /api/me/waiting``), their own
only."""

from __future__ import annotations

import datetime as dt

from starlette.testclient import TestClient

from ..accounts.people import code, sign_up
from .turns import end, move_on, turn_table


def _browser(client: TestClient) -> TestClient:
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def test_n1_the_games_waiting_for_me_soonest_first_and_nobody_elses(client: TestClient) -> None:
    sign_up(client, "Anna")
    bert = _browser(client)
    sign_up(bert, "Bert")
    assert client.get("/api/me/waiting").json() == {"count": 0, "games": []}
    later = turn_table(client, ["Anna", "Bert"], 0, left=dt.timedelta(days=3))
    sooner = turn_table(client, ["Bert", "bot:Carla", "Anna"], 2, game="holzwurm", left=dt.timedelta(hours=2))
    berts = turn_table(client, ["Anna", "Bert"], 1)
    answer = client.get("/api/me/waiting", params={"lang": "de"})
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    found = answer.json()
    assert found["count"] == 2
    assert [(g["table"], g["game"], g["seat"], g["url"]) for g in found["games"]] == [
        (sooner.table_id, "holzwurm", 2, f"/seat/{sooner.table_id}/2"),
        (later.table_id, "three-thirteen", 0, f"/seat/{later.table_id}/0")]
    assert found["games"][0]["players"] == ["Bert", "Carla"]
    assert dt.datetime.fromisoformat(found["games"][0]["due_at"]) == sooner.due_at
    theirs = bert.get("/api/me/waiting").json()
    assert [g["table"] for g in theirs["games"]] == [berts.table_id] and theirs["count"] == 1
    move_on(client, later, 1, dt.timedelta(hours=1))  # Anna moved: the game waits for Bert now
    end(client, sooner)
    assert client.get("/api/me/waiting").json() == {"count": 0, "games": []}
    assert bert.get("/api/me/waiting").json()["count"] == 2


def test_n1_a_guest_is_told_to_sign_in(client: TestClient) -> None:
    answer = client.get("/api/me/waiting")
    assert answer.status_code == 401 and code(answer) == "account.signed_out"
