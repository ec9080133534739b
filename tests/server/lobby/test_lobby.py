"""The lobby through the HTTP API (rules L1–L6): a person whose page goes silent leaves the queue, one person
queued from two tabs is one entry, the ready check of a real-time group, tables made with bots after the wait, and
a few people queued at once. The lobby's time is the test's own (its rounds run when the test says)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from dreizehn.server.app import create_app
from dreizehn.server.lobby.service import Lobby
from dreizehn.server.storage import now

from ..accounts.browsers import browser
from ..accounts.people import code, sign_in, sign_up
from ..kit import OPS_HEADERS, eventually, make_settings


class Clock:
    """The lobby's time, moved on by the test."""

    def __init__(self) -> None:
        self.at = now()

    def __call__(self) -> dt.datetime:
        return self.at

    def pass_(self, seconds: float) -> None:
        self.at += dt.timedelta(seconds=seconds)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    settings = make_settings(tmp_path / "data", lobby_tick=3600.0, lobby_expiry=15.0, lobby_ready_window=20.0)
    with TestClient(create_app(settings), headers=OPS_HEADERS) as started:
        yield started


@pytest.fixture
def clock(server: TestClient) -> Clock:
    made = Clock()
    lobby(server).clock = made
    return made


def lobby(server: TestClient) -> Lobby:
    found: Lobby = server.app.state.lobby  # type: ignore[attr-defined]
    return found


def step(server: TestClient) -> list[str]:
    made: list[str] = server.portal.call(lobby(server).step)  # type: ignore[union-attr]
    return made


class Person:
    """A signed-in browser."""

    def __init__(self, server: TestClient, name: str) -> None:
        self.client = browser(server)
        self.csrf = sign_up(self.client, name)
        self.name = name

    def queue(self, **choice: Any) -> Any:
        body = {"game": "knizia13", "players": 3, "bot_wait": None, **choice}
        return self.client.post("/api/lobby/queue", json=body, headers={"X-CSRF-Token": self.csrf})

    def place(self) -> Any:
        return self.client.get("/api/lobby/queue")

    def ready(self) -> Any:
        return self.client.post("/api/lobby/ready", headers={"X-CSRF-Token": self.csrf})


def test_a_queued_person_whose_page_goes_silent_leaves_the_queue(server: TestClient, clock: Clock) -> None:
    ada, bruno, clara = (Person(server, n) for n in ("Ada", "Bruno", "Clara"))
    assert ada.queue().status_code == 200
    assert bruno.queue().status_code == 200
    for _ in range(3):  # Bruno's page keeps asking; Ada's tab was closed
        clock.pass_(10)
        assert bruno.place().json()["state"] == "waiting"
        step(server)
    assert code(ada.place()) == "lobby.not_queued"
    assert ada.place().status_code == 404
    assert clara.queue().json()["waiting"] == 2  # Bruno and Clara: Ada is not counted
    step(server)
    assert clara.place().json()["state"] == "waiting"  # two of three: no table with one who left
    assert [w["count"] for w in server.get("/api/lobby").json()["waiting"]] == [2]


def test_the_same_person_queued_from_two_tabs_is_one_entry(server: TestClient, clock: Clock) -> None:
    ada = Person(server, "Ada")
    tab = browser(server)
    csrf = sign_in(tab, "Ada")
    first = ada.queue(bot_wait=300).json()
    clock.pass_(5)
    second = tab.post("/api/lobby/queue", json={"game": "knizia13", "players": 3, "bot_wait": 300},
                      headers={"X-CSRF-Token": csrf}).json()
    assert (first["merged"], second["merged"]) == (False, True)
    assert second["queued_at"] == first["queued_at"] and second["waiting"] == 1  # the same place, one entry
    changed = ada.queue(players=4, bot_wait=None).json()
    assert changed["merged"] and changed["players"] == 4 and changed["queued_at"] != first["queued_at"]
    assert server.get("/api/lobby").json()["waiting"] == [
        {"game": "knizia13", "players": 4, "pace": "realtime", "move_time": None, "rated": False, "count": 1}]
    bruno, clara, emil = (Person(server, n) for n in ("Bruno", "Clara", "Emil"))
    for person in (bruno, clara, emil):
        person.queue(players=4)
    step(server)
    group = ada.place().json()["group"]
    assert sorted(group) == ["Ada", "Bruno", "Clara", "Emil"]  # Ada once, with the three others


def test_a_real_time_group_confirms_and_one_who_does_not_is_dropped(server: TestClient, clock: Clock) -> None:
    ada, bruno, clara = (Person(server, n) for n in ("Ada", "Bruno", "Clara"))
    queued = ada.queue(game="holzwurm", players=2).json()["queued_at"]
    clock.pass_(1)
    bruno.queue(game="holzwurm", players=2)
    step(server)
    assert ada.place().json()["state"] == "ready" and bruno.place().json()["state"] == "ready"
    assert code(ada.queue(game="holzwurm", players=2)) == "lobby.busy"
    assert ada.ready().json()["ready"]
    for _ in range(3):  # Bruno's page is open, but he never confirms
        clock.pass_(7)
        assert ada.place().json()["state"] == bruno.place().json()["state"] == "ready"
    clara.queue(game="holzwurm", players=2)
    step(server)
    assert code(bruno.place()) == "lobby.not_queued"
    place = ada.place().json()
    assert place["queued_at"] == queued  # back at the front, with her old place
    assert place["state"] == "ready" and set(place["group"]) == {"Ada", "Clara"}
    ada.ready()
    done = clara.ready().json()
    assert done["state"] == "seated", done
    assert ada.place().json()["table"] == done["table"]
    table = server.get(f"/api/tables/{done['table']}").json()
    assert table["status"] in ("open", "playing") and {s["name"] for s in table["seats"]} == {"Ada", "Clara"}
    assert done["url"] == f"/seat/{done['table']}/{done['seat']}"
    assert code(clara.ready()) == "lobby.no_ready_check"


def test_bots_fill_a_turn_based_table_after_the_wait(server: TestClient, clock: Clock) -> None:
    ada = Person(server, "Ada")
    ada.queue(pace="turn-based", move_time=86400, bot_wait=60, bot_level="easy", rated=True)
    step(server)
    assert ada.place().json()["state"] == "waiting"
    place, stored = _after_the_bot_wait(server, clock, ada)
    assert place["state"] == "seated" and place["bots"] == 2
    row, seats = stored.row, stored.seats
    assert (row.pace, row.move_time, row.on_timeout, row.rated) == ("turn-based", 86400, "move", True)
    assert sorted((s.bot or "", s.account_id is not None) for s in seats) == [("", True), ("easy", False),
                                                                             ("easy", False)]


def test_learned_bots_fill_a_table_where_the_level_plays(server: TestClient, clock: Clock) -> None:
    """The learned level chosen in the lobby at 4 players of 13 seats its bots, stored under the level's name."""
    ada = Person(server, "Ada")
    assert ada.queue(pace="turn-based", move_time=86400, bot_wait=60, bot_level="learned", players=4).status_code \
        == 200
    place, stored = _after_the_bot_wait(server, clock, ada)
    assert place["state"] == "seated" and place["bots"] == 3
    assert sorted(s.bot or "" for s in stored.seats) == ["", "learned", "learned", "learned"]


def _after_the_bot_wait(server: TestClient, clock: Clock, person: Person) -> tuple[dict[str, Any], Any]:
    """Past a 60 s bot wait: the person's place after one lobby round, and the table it seated them at, stored."""
    clock.pass_(61)
    person.place()
    assert len(step(server)) == 1
    place: dict[str, Any] = person.place().json()
    stored = lobby(server).hub.store.tables.load(place["table"])
    assert stored is not None
    return place, stored


def test_a_few_people_queued_at_once_each_sit_at_one_table(server: TestClient, clock: Clock) -> None:
    people = [Person(server, f"P{i:02d}") for i in range(10)]
    for person in people:
        assert person.queue(pace="turn-based", move_time=3600, bot_wait=30, players=4).status_code == 200
    step(server)
    places = [p.place().json() for p in people]
    assert sorted(p["state"] for p in places) == ["seated"] * 8 + ["waiting"] * 2
    tables = [p["table"] for p in places if p["table"]]
    assert sorted(tables.count(t) for t in set(tables)) == [4, 4]
    clock.pass_(31)
    for person in people[8:]:
        person.place()
    step(server)
    last = [p.place().json() for p in people[8:]]
    assert {p["table"] for p in last} != {None} and len({p["table"] for p in last}) == 1 and last[0]["bots"] == 2
    assert not set(tables) & {p["table"] for p in last}


def test_refusals_of_the_lobby(server: TestClient, clock: Clock) -> None:
    ada = Person(server, "Ada")
    assert code(ada.queue(pace="turn-based")) == "lobby.move_time"
    assert code(ada.queue(bot_level="learned")) == "lobby.bot_level"  # 3 players: no learned level there
    assert ada.queue(bot_level="learned", players=4).status_code == 200  # where its network plays
    assert ada.client.delete("/api/lobby/queue", headers={"X-CSRF-Token": ada.csrf}).status_code in (200, 204)
    assert ada.queue(game="chess").status_code == 422
    assert code(browser(server).post("/api/lobby/queue", json={"game": "knizia13", "players": 3})) == \
        "account.signed_out"
    assert code(ada.place()) == "lobby.not_queued"
    assert server.get("/api/lobby", params={"lang": "de"}).json()["online"] == 1


def test_the_lobby_tells_a_signed_in_person_their_place_and_keeps_them_in_the_queue(server: TestClient,
                                                                                    clock: Clock) -> None:
    ada, bruno = Person(server, "Ada"), Person(server, "Bruno")
    ada.queue()
    for _ in range(3):  # Ada's page asks the lobby only
        clock.pass_(10)
        assert ada.client.get("/api/lobby").json()["me"]["state"] == "waiting"
        step(server)
    assert bruno.client.get("/api/lobby").json()["me"] is None
    assert browser(server).get("/api/lobby").json()["me"] is None  # a guest


def test_the_lobby_page_is_the_apps_page(server: TestClient) -> None:
    answer = server.get("/lobby", headers={"accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert answer.status_code == 200 and 'id="app"' in answer.text


def test_p2_nobody_queues_for_more_turn_based_games_than_the_limit(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "data", lobby_tick=3600.0, turn_based_limit=1)
    with TestClient(create_app(settings), headers=OPS_HEADERS) as limited:
        ada = Person(limited, "Ada")
        assert ada.queue(pace="turn-based", move_time=3600, bot_wait=0, players=3).status_code == 200
        eventually(lambda: bool(step(limited)) or ada.place().json()["state"] == "seated", "Ada is seated")
        eventually(lambda: ada.place().json()["state"] == "seated", "Ada's table is made")  # one game: the limit
        refused = ada.queue(pace="turn-based", move_time=3600, bot_wait=0, players=3)
        assert refused.status_code == 409 and code(refused) == "turns.too_many"
        assert ada.queue(players=3).status_code == 200  # a real-time table is not counted
