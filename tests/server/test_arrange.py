"""``POST /api/web/arrange`` asks the game for the best arrangement of a seat's own hand (issue 22): a game says
whether it has one (``arranges`` in ``/api/games``); one without is refused plainly; no game id is written in the
route."""

from __future__ import annotations

from starlette.testclient import TestClient

from dreizehn.core.game import Game


def _view(hand: list[str], **fields: object) -> dict[str, object]:
    return {"players": 2, "options": {}, "hand": hand, **fields}


def test_each_game_says_whether_it_arranges_a_hand(client: TestClient) -> None:
    games = {game["id"]: game["arranges"] for game in client.get("/api/games").json()}
    assert games == {"knizia13": False, "three-thirteen": True, "holzwurm": False}
    assert Game.arranges is False  # a new game has none unless it says so


def test_a_three_thirteen_hand_is_arranged_by_its_game(client: TestClient) -> None:
    # round 1: threes are wild (T3); 4H 5H 6H is a run, 3C stands in for a fourth, KS is left: 10 points (T11)
    answer = client.post("/api/web/arrange", json={
        "game": "three-thirteen", "view": _view(["KS", "4H", "5H", "6H", "3C"], wild_rank=3, round=1)})
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["deadwood"] == ["KS"] and found["penalty"] == 10
    assert sorted(card for meld in found["melds"] for card in meld) == ["3C", "4H", "5H", "6H"]


def test_a_game_without_an_arrangement_is_refused_in_the_language_asked(client: TestClient) -> None:
    answer = client.post("/api/web/arrange?lang=de", json={"game": "knizia13", "view": _view(["B1", "Y2"])})
    assert answer.status_code == 404
    detail = answer.json()["detail"]
    assert detail["code"] == "server.no_arrangement" and detail["rule"] == "A7"
    assert detail["message"] == "'knizia13' kennt keine Anordnung einer Hand."


def test_a_bad_request_is_refused_and_arranges_nothing(client: TestClient) -> None:
    bad_rank = client.post("/api/web/arrange", json={"game": "three-thirteen", "view": _view(["4H"], wild_rank=2)})
    assert bad_rank.status_code == 422 and bad_rank.json()["detail"]["code"] == "option.not_in_range"
    too_many = client.post("/api/web/arrange", json={
        "game": "three-thirteen", "view": _view(["4H"] * 15, wild_rank=3)})
    assert too_many.status_code == 422
    unknown = client.post("/api/web/arrange", json={"game": "nope", "view": _view([])})
    assert unknown.status_code == 422 and unknown.json()["detail"]["code"] == "game.unknown"
