"""Issue 47 item 4 and its faults: the daily deal (rules D1–D4). Everyone gets the same cards and the same bots'
seats; an account plays a deal once; results and the others' replays only after one's own game is over; no route
shows a deal's cards before."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.daily.schema import daily_plays, server_secrets
from dreizehn.server.daily.service import Daily, deal_seed, today
from dreizehn.server.daily.store import Deal
from dreizehn.server.settings import Settings
from dreizehn.server.storage import tables

from ..accounts.people import code, sign_up
from ..kit import connect, make_settings, play_to_end, stored

GAME, PLAYERS = "holzwurm", 2
"""The deal the tests play: the shortest whole game."""


@pytest.fixture
def client(serve: Callable[[Settings], TestClient], tmp_path: Path) -> TestClient:
    """A server whose daily deals seat the quickest bots."""
    return serve(make_settings(tmp_path, daily_bots="easy"))


def _browser(client: TestClient) -> TestClient:
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def start(client: TestClient, csrf: str | None = None, **body: str) -> dict[str, str]:
    answer = client.post(f"/api/daily/{GAME}/{PLAYERS}", json=body, headers={"X-CSRF-Token": csrf} if csrf else {})
    assert answer.status_code == 201, answer.text
    started: dict[str, str] = answer.json()
    return started


def finish(client: TestClient, token: str, seed: int = 0) -> None:
    """Play seat 0 of a daily table to its end (random legal moves; the bots play theirs)."""
    with connect(client, token=token, lang="en") as peer:
        play_to_end({0: peer}, rng=random.Random(seed))


def results(client: TestClient, token: str | None = None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return client.get(f"/api/daily/{today().isoformat()}/{GAME}/{PLAYERS}/results", headers=headers)


def test_d1_everyone_gets_the_same_deal_and_bots_from_a_key_nobody_sees(client: TestClient) -> None:
    mine = start(client, sign_up(client, "Anna"))
    guest = start(_browser(client), name="Gast")
    anna, other = stored(client, mine["table"]), stored(client, guest["table"])
    assert anna.row.seed == other.row.seed and anna.row.options == other.row.options
    assert [(s.seat, s.bot, s.name) for s in anna.seats[1:]] == [(s.seat, s.bot, s.name) for s in other.seats[1:]]
    assert anna.seats[1].bot == "easy" and anna.seats[0].bot is None
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.connect() as c:
        key = c.execute(sa.select(server_secrets.c.value).where(server_secrets.c.name == "daily")).scalar_one()
    deal = Deal(today(), GAME, PLAYERS)
    assert anna.row.seed == deal_seed(bytes.fromhex(key), deal)
    assert deal_seed(bytes.fromhex(key), Deal(today() + dt.timedelta(days=1), GAME, PLAYERS)) != anna.row.seed
    assert deal_seed(b"another server's key", deal) != anna.row.seed  # not derivable without the key
    pages = [client.get("/api/daily").text, client.get(f"/api/tables/{mine['table']}").text,
             client.get("/api/tables?status=open").text, client.get("/api/tables?status=playing").text]
    assert all(key not in page and str(anna.row.seed) not in page for page in pages)
    daily = client.get("/api/daily").json()
    assert {(d["game"], d["players"]) for d in daily["deals"]} >= {("knizia13", 3), ("holzwurm", 2),
                                                                    ("three-thirteen", 8)}


def test_d2_an_account_plays_a_deal_once_a_guest_as_often(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    first = start(client, csrf)
    again = client.post(f"/api/daily/{GAME}/{PLAYERS}", json={}, params={"lang": "de"}, headers={"X-CSRF-Token": csrf})
    assert again.status_code == 409 and code(again) == "daily.played"
    assert again.json()["detail"]["params"]["table"] == first["table"]
    assert "heute schon gespielt" in again.json()["detail"]["message"]
    guest = _browser(client)
    assert start(guest)["table"] != start(guest)["table"]
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.connect() as c:
        assert c.execute(sa.select(sa.func.count()).select_from(daily_plays)).scalar_one() == 3
    assert code(guest.post("/api/daily/no_game/2", json={})) == "server.bad_request"  # not a game id's shape
    assert code(guest.post("/api/daily/holzwurm/7", json={})) == "daily.no_deal"


def test_d3_d4_results_and_replays_only_after_ones_own_game(client: TestClient) -> None:
    anna = start(client, sign_up(client, "Anna"))
    bruno_browser = _browser(client)
    bruno = start(bruno_browser, sign_up(bruno_browser, "Bruno"))
    guest_browser = _browser(client)
    guest = start(guest_browser, name="Gast")
    finish(client, anna["token"], seed=1)
    # Bruno and the guest have not finished: no results, no replay of Anna's game, no record, no analysis
    for asker, token in ((bruno_browser, None), (guest_browser, guest["token"]), (_browser(client), None)):
        assert code(results(asker, token)) == "daily.not_finished"
        for path in (f"/api/tables/{anna['table']}/replay", f"/api/tables/{anna['table']}/record",
                     f"/api/tables/{anna['table']}/replay/3"):
            answer = asker.get(path, headers={"X-Seat-Token": token} if token else {})
            assert answer.status_code == 403 and code(answer) == "daily.not_finished", path
    mine = results(client).json()
    assert [r["name"] for r in mine["rows"]] == ["Anna"] and mine["rows"][0]["rank"] == 1 and mine["rows"][0]["mine"]
    finish(guest_browser, guest["token"], seed=2)
    finish(bruno_browser, bruno["token"], seed=3)
    seen = results(bruno_browser).json()
    assert sorted(str(r["name"]) for r in seen["rows"]) == ["Anna", "Bruno", "None"]
    assert {r["rank"] for r in seen["rows"] if r["name"] is None} == {None}  # a guest is unranked
    low, middle, high = (seen["spread"][k] for k in ("lowest", "median", "highest"))
    assert seen["spread"]["n"] == 3 and low <= middle <= high
    assert bruno_browser.get(f"/api/tables/{anna['table']}/replay").status_code == 200
    assert guest_browser.get(f"/api/tables/{anna['table']}/replay",
                             headers={"X-Seat-Token": guest["token"]}).status_code == 200
    history = client.get("/api/daily/me").json()
    assert history["streak"] == 1 and history["days"][0]["total"] == mine["rows"][0]["total"]


def test_d4_daily_tables_are_never_listed(client: TestClient) -> None:
    table = start(_browser(client))["table"]
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.connect() as c:
        assert c.execute(sa.select(tables.c.id).where(tables.c.id == table)).scalar() == table
    for status in ("open", "playing", "finished"):
        assert table not in client.get("/api/tables", params={"status": status}).text


def test_d1_the_key_is_made_once_and_kept(client: TestClient) -> None:
    daily: Daily = client.app.state.daily  # type: ignore[attr-defined]
    first = daily.store.key()
    assert daily.store.key() == first and len(first) == 32
