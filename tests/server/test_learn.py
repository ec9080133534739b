"""``/api/learn/{game}``: a game's tutorial (issue "The table players would choose over Board Game Arena", item 7):
its steps without the deal, and a table on its fixed deal whose bots play as the engine's walk of the tutorial says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.testclient import TestClient

from dreizehn.core.wire import to_wire
from dreizehn.play.table import Seat, Table
from dreizehn.play.tutorial import load_tutorial

from .kit import connect, stored


def _update(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "update" and m["version"] == version


def test_the_steps_and_the_games_that_have_one(client: TestClient) -> None:
    steps = client.get("/api/learn/knizia13")
    assert steps.status_code == 200
    body = steps.json()
    assert body["game"] == "knizia13" and body["seat"] == 0 and body["steps"][0]["until"] == "next"
    assert "seed" not in body and "level" not in body  # the deal stays hidden
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert games["knizia13"]["tutorial"] is True
    for game in ("nothing", "../knizia13"):
        refused = client.get(f"/api/learn/{game}")
        assert refused.status_code in (404, 422)
    unknown = client.post("/api/learn/nothing", json={"name": "Ann"})
    assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "server.no_tutorial"
    assert client.post("/api/learn/knizia13", json={"name": "  "}).status_code == 422
    for page in ("/learn/knizia13", "/learn/knizia13/some-token"):  # the app's page, which routes them itself
        answer = client.get(page, headers={"accept": "text/html"})
        assert answer.status_code == 200 and "<html" in answer.text.lower()


def test_a_tutorial_table_is_the_fixed_deal_with_its_bots(client: TestClient) -> None:
    tutorial = load_tutorial("knizia13")
    assert tutorial is not None
    made = client.post("/api/learn/knizia13", json={"name": "Ann"})
    assert made.status_code == 201, made.text
    invitation = made.json()
    assert invitation["seat"] == tutorial.seat and invitation["url"].endswith(f"/learn/knizia13/{invitation['token']}")
    bots = [Seat(name, bot=tutorial.level) for name in ("a", "b")]
    engine = Table.create("knizia13", [Seat("Ann"), *bots], tutorial.seed, options=tutorial.options)
    with connect(client, token=invitation["token"]) as peer:
        assert peer.view is not None
        table = stored(client, peer.received[0]["table"])
        assert table.row.seed == tutorial.seed and table.seats[tutorial.seat].joined
        assert [s.bot for s in table.seats] == [None, "heuristic", "heuristic"]
        assert peer.view["hand"] == to_wire(engine.view(tutorial.seat))["hand"]
        for step in tutorial.steps[:6]:  # the wanted moves of the first steps, and the bots' answers, as the engine's
            if "want" not in step:
                continue
            peer.act(step["want"])
            engine.submit(tutorial.seat, step["want"])
            for update in engine.play_bots():
                told = peer.until(_update(update.version), 15)
                assert told["action"] == update.action


def test_a_tutorial_table_is_left_out_of_the_lists_of_tables(client: TestClient) -> None:
    """A first game on the practice deal is nobody else's business: the lists of open and running tables (the tables
    page) do not show it, while a table made as usual is listed."""
    made = client.post("/api/learn/holzwurm", json={"name": "Ann"}).json()
    with connect(client, token=made["token"]) as peer:
        table_id = peer.received[0]["table"]
        assert table_id.startswith("learn-")
        listed = [t["id"] for status in ("open", "playing") for t in client.get(f"/api/tables?status={status}").json()]
        assert table_id not in listed
        body = {"game": "holzwurm", "seats": [{"kind": "person", "name": "Bo"}, {"kind": "person"}]}
        other = client.post("/api/tables", json=body).json()["table"]["id"]
        listed = [t["id"] for t in client.get("/api/tables?status=open").json()]
        assert other in listed
