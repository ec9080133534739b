"""Issue 45 item 4 (the API part): a player's home, ``GET /api/me``, and another player's public part,
``GET /api/players/{name}``: games in progress their move first, finished games with results and replays, statistics
per game; never another's games, tokens or hands; a deleted account's seats shown as a former player everywhere.
On SQLite and PostgreSQL (one server per module and database; every test has its own people)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

import dreizehn
from dreizehn.server.storage import actions

from ..kit import connect, play_to_end, settle, tokens
from .browsers import browser
from .people import PASSWORD, code, sign_up

_numbers = itertools.count()
ME = {"kind": "person", "name": "Me"}
BOT = {"kind": "bot", "bot": "random"}


@pytest.fixture
def api(module_server: TestClient) -> TestClient:
    return module_server


def person(api: TestClient, base: str) -> tuple[TestClient, str]:
    new = browser(api)
    name = f"{base}{next(_numbers)}"
    new.headers["X-CSRF-Token"] = sign_up(new, name)
    return new, name


def table(browser: TestClient, seats: list[dict[str, Any]]) -> dict[str, Any]:
    answer = browser.post("/api/tables", json={"game": "holzwurm", "options": {"games": 1}, "seats": seats})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def finished_game(browser: TestClient, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A table played to its end by the browser's seat 0 (random moves) and bots."""
    created = table(browser, seats)
    with connect(browser, token=tokens(created)[0]) as peer:
        play_to_end({0: peer})
    return created


def _to_move(api: TestClient, table_id: str) -> int:
    with connect(api, table=table_id, watch=True) as watcher:
        assert watcher.view is not None
        return int(watcher.view["current_player"])


def test_me_lists_my_games_their_move_first_and_never_another_s(api: TestClient) -> None:
    anna, anna_name = person(api, "Anna")
    bob, _ = person(api, "Bob")
    waiting = table(anna, [BOT, ME])  # the random bot at seat 0 moves (or not), then it is Anna's move
    others = table(anna, [{"kind": "person"}, ME])  # a friend's seat not taken yet: whose move it is, it stays
    bobs = table(bob, [ME, BOT])
    with connect(anna, token=tokens(waiting)[1]) as peer:  # the bots' moves made: Anna's turn
        assert settle(peer, {1}, 0)["current_player"] == 1
    me = anna.get("/api/me")
    assert me.status_code == 200 and me.headers["cache-control"] == "no-store"
    body = me.json()
    assert body["name"] == anna_name and body["finished"] == [] and body["stats"] == []
    games = {g["table"]: g for g in body["playing"]}
    assert set(games) == {waiting["table"]["id"], others["table"]["id"]}  # never Bob's
    assert bobs["table"]["id"] not in me.text
    assert games[waiting["table"]["id"]]["your_turn"] is True
    assert games[others["table"]["id"]]["your_turn"] is (_to_move(api, others["table"]["id"]) == 1)
    turns = [g["your_turn"] for g in body["playing"]]
    assert turns == sorted(turns, reverse=True)  # their move first
    if turns == [True, True]:
        assert body["playing"][0]["table"] == others["table"]["id"]  # then the newest
    mine = games[waiting["table"]["id"]]
    assert mine["seat"] == 1 and mine["url"] == f"/seat/{waiting['table']['id']}/1" and not mine["invited"]
    assert mine["status"] in ("open", "playing") and mine["totals"] is None and mine["won"] is None
    assert mine["players"][1] == {"name": "Me", "account": anna_name, "bot": None, "former": False}
    assert mine["players"][0]["bot"] == "random" and mine["players"][0]["account"] is None
    for token in (*tokens(waiting).values(), *tokens(others).values(), *tokens(bobs).values()):
        assert token not in me.text  # no token in the home


def test_me_is_refused_to_a_guest(api: TestClient) -> None:
    answer = browser(api).get("/api/me")
    assert answer.status_code == 401 and code(answer) == "account.signed_out"


def test_finished_games_their_results_replays_and_statistics(api: TestClient) -> None:
    anna, anna_name = person(api, "Anna")
    games = [finished_game(anna, [ME, BOT]) for _ in range(2)]
    body = anna.get("/api/me").json()
    assert body["playing"] == []
    assert [g["table"] for g in body["finished"]] == [g["table"]["id"] for g in reversed(games)]  # newest first
    totals = []
    for game in body["finished"]:
        table_id = game["table"]
        final = api.get(f"/api/tables/{table_id}").json()
        assert game["totals"] == final["totals"] and game["won"] == (0 in final["winners"])
        assert game["url"] == f"/replay/{table_id}" and game["status"] == "finished" and game["finished_at"]
        totals.append(final["totals"][0])
    (stats,) = body["stats"]
    assert stats["game"] == "holzwurm" and stats["games"] == 2
    assert stats["wins"] == sum(bool(g["won"]) for g in body["finished"])
    assert stats["average"] == pytest.approx(sum(totals) / 2) and stats["left_to_bots"] == 0
    assert stats["best"] == (max(totals) if dreizehn.game_class("holzwurm").high_score_wins else min(totals))
    store = api.app.state.hub.store  # type: ignore[attr-defined]
    table_id = games[0]["table"]["id"]
    with store.engine.begin() as c:  # Anna's last move of one game was her stand-in's: she left it to a bot
        last = c.execute(sa.select(sa.func.max(actions.c.seq)).where(actions.c.table_id == table_id,
                                                                     actions.c.seat == 0)).scalar_one()
        c.execute(actions.update().where(actions.c.table_id == table_id, actions.c.seq == last)
                  .values(by="stand-in"))
    assert anna.get("/api/me").json()["stats"][0]["left_to_bots"] == 1
    public = api.get(f"/api/players/{anna_name.lower()}").json()  # found in any case
    assert public["name"] == anna_name and public["stats"] == anna.get("/api/me").json()["stats"]
    assert len(public["since"]) == 10 and [g["table"] for g in public["finished"]] == [g["table"] for g in
                                                                                        body["finished"]]


def test_a_player_s_public_part_never_shows_games_in_progress_nor_tokens(api: TestClient) -> None:
    anna, anna_name = person(api, "Anna")
    playing = table(anna, [ME, BOT])
    done = finished_game(anna, [ME, BOT])
    bob, _ = person(api, "Bob")
    for reader in (bob, browser(api)):  # another account, a guest
        answer = reader.get(f"/api/players/{anna_name}")
        assert answer.status_code == 200
        assert set(answer.json()) == {"name", "since", "stats", "finished"}
        assert playing["table"]["id"] not in answer.text
        assert [g["table"] for g in answer.json()["finished"]] == [done["table"]["id"]]
        for token in (*tokens(playing).values(), *tokens(done).values(), playing["spectator"]["token"]):
            assert token not in answer.text
    for strange in ("x' OR '1'='1", "%", "_", anna_name + "'--"):  # SQL's metacharacters find nobody
        assert bob.get(f"/api/players/{strange}").status_code == 404
    missing = bob.get("/api/players/Nobody_at_all", params={"lang": "de"})
    assert missing.status_code == 404 and code(missing) == "account.no_player"
    detail = missing.json()["detail"]
    assert detail["params"]["name"] == "Nobody_at_all" and "Spieler" in detail["message"]


def test_a_deleted_account_s_seats_are_a_former_player_s_everywhere(api: TestClient) -> None:
    anna, _ = person(api, "Anna")
    bob, bob_name = person(api, "Bob")
    created = table(anna, [ME, {"kind": "person", "user": bob_name}])
    table_id = created["table"]["id"]
    with connect(anna, token=tokens(created)[0]) as one, connect(bob, table=table_id, seat=1) as two:
        play_to_end({0: one, 1: two})
    assert bob.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 204
    for lang, said in (("en", "a former player"), ("de", "ein ehemaliger Spieler"), ("nl", "een voormalige speler")):
        shown = api.get(f"/api/tables/{table_id}", params={"lang": lang}).json()["seats"][1]
        assert shown["name"] == said
        replay = api.get(f"/api/tables/{table_id}/replay", params={"lang": lang}).json()
        assert replay["names"][1] == said and bob_name not in str(replay)
        record = api.get(f"/api/tables/{table_id}/record", params={"lang": lang}).json()
        assert said in str(record) and bob_name not in str(record)
        listed = api.get("/api/tables", params={"status": "finished", "limit": 200, "lang": lang}).json()
        assert [t["seats"][1]["name"] for t in listed if t["id"] == table_id] == [said]
        (game,) = [g for g in anna.get("/api/me", params={"lang": lang}).json()["finished"] if g["table"] == table_id]
        assert game["players"][1] == {"name": said, "account": None, "bot": None, "former": True}
    assert api.get(f"/api/players/{bob_name}").status_code == 404
