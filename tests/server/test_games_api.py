"""``/api/games`` gives every interface the facts it draws a game by (issue 22, item 1): which way totals win, what
a stage is called, and every card's face in the asked language, so that no interface names a game's id."""

from __future__ import annotations

from starlette.testclient import TestClient

import dreizehn


def test_each_game_says_which_way_its_totals_win_and_what_a_stage_is(client: TestClient) -> None:
    games = {game["id"]: game for game in client.get("/api/games", params={"lang": "de"}).json()}
    assert {gid: (g["high_score_wins"], g["stage_name"]) for gid, g in games.items()} == {
        "knizia13": (False, "stage"), "three-thirteen": (False, "round"), "holzwurm": (True, "game")}
    assert all(game["drawing"] for game in games.values())  # each has web/games/<id>.js


def test_every_card_has_a_face_in_the_language_asked(client: TestClient) -> None:
    for lang, nasty, queen in (("en", "a nasty four", "the queen of hearts"), ("de", "eine Fiese Vier", "Herz Dame")):
        games = {game["id"]: game for game in client.get("/api/games", params={"lang": lang}).json()}
        for gid, game in games.items():
            cls = dreizehn.game_class(gid)
            assert sorted(game["faces"]) == sorted(card.text for card in cls.card_type.all())
            assert all(face["label"] and face["value"] and face["colour"] for face in game["faces"].values())
        assert games["knizia13"]["faces"]["R4"] == {"colour": "red", "value": "4", "shape": "✖", "label": nasty}
        assert games["three-thirteen"]["faces"]["QH"]["label"] == queen
        assert games["holzwurm"]["faces"]["13"]["value"] == "−13"
