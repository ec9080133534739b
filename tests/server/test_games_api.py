"""``/api/games`` gives every interface the facts it draws a game by (issue 22, item 1): which way totals win, what
a stage is called, and every card's face in the asked language, so that no interface names a game's id."""

from __future__ import annotations

from typing import Any

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


def test_the_browsers_language_is_negotiated_by_its_weights(client: TestClient) -> None:
    """Issue 49 item 7: Accept-Language is read with its weights (``en;q=0.1, de`` wants German most) and a
    regional tag finds its language (``nl-BE``); a header of languages the project does not speak gets English."""
    def said(answer: Any) -> str:
        return str(answer.json()["detail"]["message"])  # a refusal, in the request's language

    titles = {lang: said(client.get(f"/api/tables/no-such-table?lang={lang}")) for lang in ("en", "de", "nl")}
    assert len(set(titles.values())) == 3
    for header, lang in [("en;q=0.1, de", "de"), ("fr, nl-BE;q=0.8, de;q=0.5", "nl"), ("fr, es", "en"),
                         ("de;q=0, en", "en"), ("DE-at", "de")]:
        answer = client.get("/api/tables/no-such-table", headers={"accept-language": header})
        assert said(answer) == titles[lang], header
