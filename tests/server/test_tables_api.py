"""The HTTP API (issue 13 item 3, and item 7's replays): create, join and list tables, a finished game's record,
replays and rematch, refusals with a code, a rule and a message in the language asked, the OpenAPI page; on SQLite
and PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import level_spec
from dreizehn.core.errors import DreizehnError
from dreizehn.core.record import replay
from dreizehn.core.wire import to_wire

from .kit import NAMES, connect, create_table, hub, play_to_end, table_body, tokens, view_validator, wait_finished

PERSON: dict[str, Any] = {"kind": "person", "name": "Anna"}
BOT: dict[str, Any] = {"kind": "bot", "bot": "medium"}


@pytest.fixture
def api(module_server: TestClient) -> TestClient:
    """An in-process server on SQLite or PostgreSQL (one per module and database: the tests share it)."""
    return module_server


def _bots_game(api: TestClient, game: str = "holzwurm") -> dict[str, Any]:
    """A game between bots, played to its end; the created table's answer."""
    cls = dreizehn.game_class(game)
    created = create_table(api, game, ["random"] * cls.min_players, cls.quick_options)
    wait_finished(api, created["table"]["id"])
    return created


def test_create_a_table(api: TestClient) -> None:
    """Item 3: a table of a game with options and per seat a person or a bot level: one invitation per person's
    seat and a spectators' link; the options completed; neither the seed nor any token of another kind shown."""
    body = {"game": "knizia13", "options": {"open_piles": True},
            "seats": [PERSON, {"kind": "person"}, {"kind": "bot", "bot": "easy"}], "clock": 30}
    response = api.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    table = created["table"]
    assert table["game"] == "knizia13" and table["players"] == 3 and table["clock"] == 30
    assert table["options"] == {"dealer": 0, "open_piles": True}
    assert table["status"] == "open"
    assert [(s["kind"], s["name"], s["bot"], s["joined"]) for s in table["seats"]] == [
        ("person", "Anna", None, True), ("person", "", None, False), ("bot", "Ada", "easy", True)]
    invitations = created["invitations"]
    assert [i["seat"] for i in invitations] == [0, 1]
    assert len({i["token"] for i in invitations}) == 2
    for invitation in invitations:
        assert len(invitation["token"]) >= 32 and invitation["url"].endswith(f"/play/{invitation['token']}")
    spectator = created["spectator"]
    assert spectator["url"].endswith(f"/watch/{table['id']}/{spectator['token']}")
    assert "seed" not in response.text
    shown = api.get(f"/api/tables/{table['id']}").json()
    assert shown["id"] == table["id"] and "seed" not in shown
    assert all(i["token"] not in str(shown) for i in invitations)


def test_a_bot_seat_keeps_the_level_it_plays(api: TestClient) -> None:
    """A level's name is stored as the level it plays at the table: Three Thirteen has no ``master``, so that seat
    plays, and is shown as, its ``expert``; a bot specification stays as given; an unnamed bot seat is named."""
    spec = "ismcts:iterations=50"
    body = {"game": "three-thirteen", "seats": [PERSON, {"kind": "bot", "bot": " Master"}, {"kind": "bot", "bot": spec},
                                                {"kind": "bot"}]}
    created = api.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    seats = created.json()["table"]["seats"]
    assert [(s["kind"], s["bot"]) for s in seats] == [("person", None), ("bot", "expert"), ("bot", spec),
                                                      ("bot", "medium")]
    assert all(s["name"] for s in seats) and seats[0]["name"] == "Anna"
    body = {"game": "holzwurm", "seats": [PERSON, {"kind": "bot", "bot": "master"}]}
    assert api.post("/api/tables", json=body).json()["table"]["seats"][1]["bot"] == "master"


def test_the_learned_level_is_offered_where_it_plays_and_a_table_of_it_plays_a_game(api: TestClient) -> None:
    """The games' description offers ``learned`` at the player counts its network plays at (13 and Holzwurm at 4
    players: in 13 between ``medium`` and ``hard``, in Holzwurm between ``hard`` and ``expert``), nowhere else; a
    table of its bots plays a whole game."""
    described = {g["id"]: g for g in api.get("/api/games?lang=de").json()}
    for game_id, facts in described.items():
        offered = {int(n): levels for n, levels in facts["levels_by_players"].items()}
        assert sorted(offered) == list(range(facts["min_players"], facts["max_players"] + 1))
        with_it = [n for n, levels in offered.items() if "learned" in levels]
        assert with_it == ([4] if game_id in ("knizia13", "holzwurm") else []), game_id
        assert all(levels == [level for level in facts["levels"] if level in levels] for levels in offered.values())
    assert described["knizia13"]["levels_by_players"]["4"] == ["easy", "medium", "learned", "hard", "expert", "master"]
    for game_id in ("knizia13", "holzwurm"):
        created = create_table(api, game_id, ["person", "learned", "learned", "learned"])
        assert [s["bot"] for s in created["table"]["seats"]] == [None, "learned", "learned", "learned"]
        created = create_table(api, game_id, ["learned"] * 4)
        finished = wait_finished(api, created["table"]["id"])
        assert finished["status"] == "finished" and [s["bot"] for s in finished["seats"]] == ["learned"] * 4


BAD_TABLES: list[tuple[dict[str, Any], str, str | None]] = [
    ({"game": "skat", "seats": [PERSON, BOT, BOT]}, "game.unknown", "A1"),
    ({"game": "knizia13", "seats": [PERSON, BOT]}, "players.range", "K4"),
    ({"game": "knizia13", "seats": [PERSON, BOT, BOT], "options": {"open_piles": "maybe"}}, "option.not_bool", "K12"),
    ({"game": "knizia13", "seats": [PERSON, BOT, BOT], "options": {"colour": "red"}}, "option.unknown", "A2"),
    ({"game": "three-thirteen", "seats": [PERSON, BOT], "options": {"turn_limit": -3}}, "option.not_in_range", "T10"),
    ({"game": "knizia13", "seats": [PERSON, {"kind": "bot", "bot": "genius"}, BOT]}, "bot.unknown", "B2"),
    ({"game": "holzwurm", "seats": [PERSON, {"kind": "bot", "bot": "ismcts:depth=3"}]}, "bot.option_unknown", "B3"),
    ({"game": "holzwurm", "seats": [{"kind": "person", "bot": "easy"}, BOT]}, "server.person_with_bot", "S2"),
    # the learned level where its network does not play: at 3 players, and at 4 with other options
    ({"game": "knizia13", "seats": [PERSON, {"kind": "bot", "bot": "learned"}, BOT]}, "bot.fitted", "B5"),
    ({"game": "holzwurm", "seats": [PERSON, {"kind": "bot", "bot": "learned"}, BOT, BOT], "options": {"games": 1}},
     "bot.fitted", "B5"),
]


def _engine_code(body: dict[str, Any]) -> str | None:
    """The code of the error the engine raises for a table's game, options and bots, if any."""
    try:
        game = dreizehn.load_game(body["game"], len(body["seats"]), body.get("options", {}))
        for seat in body["seats"]:
            if seat["kind"] == "bot":
                make_bot(level_spec(seat["bot"], game.id, game.players), game)
    except DreizehnError as err:
        return err.code
    return None


def test_a_bad_table_is_refused_with_a_code_a_rule_and_a_message_in_the_language_asked(api: TestClient) -> None:
    """Item 3: a bad game, player count, option or bot level answers 422 with the error's code, rule and
    parameters, and its message for people in the language asked (``?lang=de``), without the rule; nothing is
    created."""
    before = len(api.get("/api/tables?status=open").json())
    for body, code, rule in BAD_TABLES:
        code = _engine_code(body) or code  # the engine's own code for it (codes are data, renamed at one place)
        said = {}
        for lang in ("en", "de"):
            response = api.post(f"/api/tables?lang={lang}", json=body)
            assert response.status_code == 422, response.text
            detail = response.json()["detail"]
            assert (detail["code"], detail["rule"]) == (code, rule)
            assert isinstance(detail["params"], dict) and detail["message"]
            said[lang] = detail["message"]
        if not code.startswith("server."):  # the server's codes have no catalogue entries yet
            assert said["de"] != said["en"], code
            assert f"({rule})" not in said["de"]  # the rule is data for developers, not words for people
    assert len(api.get("/api/tables?status=open").json()) == before


def test_refusals_of_the_api(api: TestClient) -> None:
    """Item 3: an unknown language, a body that is not a table, an unknown table, a bad table id."""
    response = api.post("/api/tables?lang=xx", json=table_body("holzwurm", ["person", "easy"]))
    assert response.status_code == 422 and response.json()["detail"]["code"] == "words.language"
    assert api.post("/api/tables", json={"game": "holzwurm"}).status_code == 422
    assert api.post("/api/tables", json={**table_body("holzwurm", ["person", "easy"]), "extra": 1}).status_code == 422
    missing = api.get("/api/tables/nosuchtable?lang=de")
    assert missing.status_code == 404
    assert (missing.json()["detail"]["code"], missing.json()["detail"]["rule"]) == ("server.no_table", "S1")
    assert api.get("/api/tables/bad%20id!").status_code == 422
    assert api.get("/api/tables/" + "x" * 25).status_code == 422


def test_join_a_seat_and_list_tables(api: TestClient) -> None:
    """Item 3: joining with an invitation names the seat; open tables are those with a person's seat free, then
    the table is listed as being played."""
    body = {"game": "knizia13", "seats": [{"kind": "person"}, {"kind": "person"}, BOT]}
    created = api.post("/api/tables", json=body).json()
    table_id = created["table"]["id"]
    first, second = tokens(created)[0], tokens(created)[1]
    assert table_id in [t["id"] for t in api.get("/api/tables?status=open").json()]
    assert table_id not in [t["id"] for t in api.get("/api/tables?status=playing").json()]
    joined = api.post("/api/seats/join", json={"token": first, "name": "  Anna   Maria "})
    assert joined.status_code == 200 and joined.json() == {"table": table_id, "seat": 0}
    assert table_id in [t["id"] for t in api.get("/api/tables?status=open").json()]
    blank = api.post("/api/seats/join", json={"token": second, "name": "   "})
    assert blank.status_code == 422 and blank.json()["detail"]["code"] == "server.empty_name"
    assert api.post("/api/seats/join", json={"token": second, "name": "Bruno"}).json()["seat"] == 1
    seats = api.get(f"/api/tables/{table_id}").json()["seats"]
    assert [(s["name"], s["joined"]) for s in seats] == [("Anna Maria", True), ("Bruno", True), ("Ada", True)]
    assert table_id not in [t["id"] for t in api.get("/api/tables?status=open").json()]
    assert table_id in [t["id"] for t in api.get("/api/tables?status=playing").json()]
    wrong = api.post("/api/seats/join?lang=nl", json={"token": "x" * 32, "name": "Mallory"})
    assert wrong.status_code == 404
    assert (wrong.json()["detail"]["code"], wrong.json()["detail"]["rule"]) == ("server.bad_token", "S1")


def test_a_finished_games_record_replays_to_its_totals(api: TestClient) -> None:
    """Item 3: a finished game is listed as finished, with its totals and winners (the list of finished games
    shows who won, issue 25); its record replays with dreizehn.core.record.replay to the
    totals and winners the table shows."""
    created = _bots_game(api, "holzwurm")
    table_id = created["table"]["id"]
    table = api.get(f"/api/tables/{table_id}").json()
    assert table["status"] == "finished" and table["finished_at"] is not None
    listed = {t["id"]: t for t in api.get("/api/tables?status=finished").json()}
    assert (listed[table_id]["totals"], listed[table_id]["winners"]) == (table["totals"], table["winners"])
    assert table_id not in [t["id"] for t in api.get("/api/tables?status=open").json()]
    record = api.get(f"/api/tables/{table_id}/record").json()
    state = replay(record)
    assert state.is_over
    assert list(state.totals) == table["totals"] and list(state.winners) == table["winners"]
    assert record["players"] == [s["name"] for s in table["seats"]]


def test_replays_step_by_step_and_by_version(api: TestClient) -> None:
    """Items 3 and 7: a finished game's replay, action by action with every event whole, in the language asked;
    ``replay/{version}`` gives every seat's view after that many actions."""
    created = _bots_game(api, "holzwurm")
    table_id = created["table"]["id"]
    record = api.get(f"/api/tables/{table_id}/record").json()
    english = api.get(f"/api/tables/{table_id}/replay").json()
    dutch = api.get(f"/api/tables/{table_id}/replay?lang=nl").json()
    steps = english["steps"]
    assert [s["version"] for s in steps] == list(range(1, len(record["actions"]) + 1))
    assert [[s["seat"], s["action"]] for s in steps] == [list(a) for a in record["actions"]]
    assert {s["by"] for s in steps} == {"bot"}
    assert english["opening"][0]["key"] == "stage.dealt" and "private" in english["opening"][0]
    assert english["names"] == record["players"]
    assert english["table"]["totals"] == api.get(f"/api/tables/{table_id}").json()["totals"]
    assert [s["text"] for s in dutch["steps"]] != [s["text"] for s in steps]
    assert [e["key"] for s in dutch["steps"] for e in s["events"]] == [e["key"] for s in steps for e in s["events"]]
    game = dreizehn.load_game("holzwurm", 2, record["options"])
    final = replay(record)
    for version in (0, 1, len(steps) // 2, len(steps)):
        doc = api.get(f"/api/tables/{table_id}/replay/{version}").json()
        assert doc["version"] == version and len(doc["views"]) == game.players
        for seat, view in enumerate(doc["views"]):
            view_validator("holzwurm").validate(view)
            assert view["version"] == version and view["seat"] == seat
    last = api.get(f"/api/tables/{table_id}/replay/{len(steps)}").json()
    assert last["views"] == [to_wire(final.view(seat)) for seat in range(game.players)]
    for bad in (-1, len(steps) + 1):
        response = api.get(f"/api/tables/{table_id}/replay/{bad}")
        assert response.status_code == 422 and response.json()["detail"]["code"] == "server.bad_version"


def test_records_and_replays_of_an_unfinished_game_are_refused(api: TestClient) -> None:
    """Items 3 and 7: the record and the replays of a game being played answer 409, and show nothing of it."""
    created = create_table(api, "knizia13", ["person", "medium", "medium"])
    table_id = created["table"]["id"]
    for path in ("record", "replay", "replay/0", "replay/1"):
        response = api.get(f"/api/tables/{table_id}/{path}?lang=de")
        assert response.status_code == 409, path
        detail = response.json()["detail"]
        assert (detail["code"], detail["rule"]) == ("server.not_finished", "S5")
        assert set(response.json()) == {"detail"} and set(detail) == {"code", "rule", "params", "message"}
    assert api.get(f"/api/tables/{table_id}").json()["totals"] is None


def test_rematch_with_the_same_seats(api: TestClient) -> None:
    """Item 3: a person of a finished game asks for a rematch: a new table with the same seats; each connected
    person is told over the websocket with their own invitation; asking again is refused, the invitation kept."""
    created = create_table(api, "holzwurm", ["person", "medium"], {"games": 1})
    table_id = created["table"]["id"]
    token = tokens(created)[0]
    early = api.post(f"/api/tables/{table_id}/rematch", json={"token": token})
    assert early.status_code == 409
    with connect(api, token=token) as person:
        play_to_end({0: person}, rng=random.Random(3))
        response = api.post(f"/api/tables/{table_id}/rematch", json={"token": token})
        assert response.status_code == 200, response.text
        rematch = response.json()
        offer = person.until(lambda m: m["type"] == "rematch")
    new = rematch["table"]
    assert new["id"] != table_id and new["game"] == "holzwurm" and new["options"] == created["table"]["options"]
    assert [(s["name"], s["kind"], s["bot"]) for s in new["seats"]] == [(NAMES[0], "person", None),
                                                                         ("Ada", "bot", "medium")]
    assert offer["table"] == new["id"] and offer["token"]
    assert [i["seat"] for i in rematch["invitations"]] == [0]
    assert api.get(f"/api/tables/{table_id}").json()["rematch"] == new["id"]
    with connect(api, token=rematch["invitations"][0]["token"]) as again:
        assert again.game == "holzwurm" and again.seat == 0
    second = api.post(f"/api/tables/{table_id}/rematch", json={"token": token})  # given once (issue 27)
    assert second.status_code == 409 and second.json()["detail"]["code"] == "server.rematch_issued"
    with connect(api, token=rematch["invitations"][0]["token"]) as again:
        assert again.seat == 0
    refused = api.post(f"/api/tables/{table_id}/rematch", json={"token": "not-a-token-at-all"})
    assert refused.status_code == 403 and refused.json()["detail"]["code"] == "server.bad_token"


def test_games_and_the_openapi_page(api: TestClient) -> None:
    """Item 3: the games with their words in the language asked; the OpenAPI page (/docs) and its document."""
    games = api.get("/api/games?lang=de").json()
    assert [g["id"] for g in games] == list(dreizehn.game_ids())
    four = ["easy", "medium", "hard", "expert"]
    levels = {g["id"]: g["levels"] for g in games}  # master where a game has one, learned at 4 players (bots.md)
    ladder = ["easy", "medium", "learned", "hard", "expert", "master"]
    assert levels["knizia13"] == ladder and levels["three-thirteen"] == four
    assert levels["holzwurm"] == ["easy", "medium", "hard", "learned", "expert", "master"]  # weakest first, measured
    assert all(g["title"] for g in games)
    english = api.get("/api/games", headers={"accept-language": "en-GB,en;q=0.8"}).json()
    assert [g["rules"] for g in english] != [g["rules"] for g in games]
    docs = api.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    openapi = api.get("/openapi.json").json()
    for path in ("/api/games", "/api/tables", "/api/seats/join", "/api/tables/{table_id}/record",
                 "/api/tables/{table_id}/replay", "/api/tables/{table_id}/replay/{version}",
                 "/api/tables/{table_id}/rematch"):
        assert path in openapi["paths"], path


def test_the_catalogues_of_each_language(api: TestClient) -> None:
    """Clients that say things themselves get every template of a language; an unknown language is refused (C7)."""
    german = api.get("/api/words/de").json()
    assert german["lang"] == "de" and german["templates"]["web.title"].startswith("dreizehn: Kartenspiele")
    assert german["templates"]["knizia13.stage"] == ["Durchgang", "Durchgänge"]
    assert set(german["templates"]) == set(api.get("/api/words/nl").json()["templates"])
    refused = api.get("/api/words/fr")
    assert refused.status_code == 404 and refused.json()["detail"]["rule"] == "C7"


def test_an_unknown_address_is_the_apps_page_for_a_browser_and_json_for_the_api(api: TestClient) -> None:
    """Issue 25: a browser asking for an address nobody serves gets the app's page with 404 (the app shows its "not
    found" view in the person's language, with the way back), not the raw ``{"detail":"Not Found"}``; an unknown
    ``/api/...`` address, a missing static file and a client that asks for no page keep the JSON answer (the API's
    refusal, ``server.not_found``: issue 43 item 8)."""
    browser = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    page = api.get("/no/such/page", headers=browser)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert 'id="app"' in page.text
    for path in ("/api/no-such-thing", "/api", "/static/no-such-file.js"):
        answer = api.get(path, headers=browser)
        assert answer.status_code == 404 and answer.json()["detail"]["code"] == "server.not_found", path
    assert api.get("/no/such/page").json()["detail"]["code"] == "server.not_found"
    for path in ("/new/chess", "/games/chess/rules", "/learn/chess"):  # a game the server does not offer (issue 49)
        answer = api.get(path, headers=browser)
        assert answer.status_code == 404 and 'id="app"' in answer.text, path
    for path in ("/new/knizia13", "/games/holzwurm/rules", "/learn/three-thirteen"):
        assert api.get(path, headers=browser).status_code == 200, path


def test_a_free_seat_is_taken_from_the_list_of_tables(api: TestClient) -> None:
    """Issue 25: a person takes a free seat of an open table under a name and gets the seat's new invitation; the
    seat's old invitation stops opening it (a window that had it open is disconnected, so it never sees the new
    player's hand); a bot's seat, a seat taken already and one that is not there are refused."""
    body = {"game": "knizia13", "options": {}, "clock": 0.0,
            "seats": [{"kind": "person", "name": "Anna"}, {"kind": "person"}, {"kind": "bot", "bot": "easy"}]}
    created = api.post("/api/tables", json=body).json()
    table_id, old = created["table"]["id"], tokens(created)[1]
    assert table_id in [t["id"] for t in api.get("/api/tables?status=open").json()]
    with connect(api, token=old) as opened_before:
        taken = api.post(f"/api/tables/{table_id}/seats/1?lang=de", json={"name": "  Bruno  "})
        assert taken.status_code == 200, taken.text
        seat = taken.json()
        assert seat["seat"] == 1 and seat["url"].endswith(f"/play/{seat['token']}") and seat["token"] != old
        room = hub(api).rooms[table_id]
        assert opened_before and all(c.closed for c in room.conns if c.seat == 1)  # ended: no longer its seat
    with connect(api) as late:
        assert late.hello(token=old)["code"] == "server.bad_token"
    with connect(api, token=seat["token"]) as bruno:
        assert bruno.view is not None and bruno.view["seat"] == 1
    listed = api.get(f"/api/tables/{table_id}").json()["seats"][1]
    assert listed["name"] == "Bruno" and listed["joined"]
    assert table_id not in [t["id"] for t in api.get("/api/tables?status=open").json()]
    for seat_number in (1, 2, 3):  # taken already, a bot's, not there
        refused = api.post(f"/api/tables/{table_id}/seats/{seat_number}", json={"name": "Cleo"})
        assert refused.status_code == 409 and refused.json()["detail"]["code"] == "server.seat_not_free"
    assert api.post(f"/api/tables/{table_id}/seats/1", json={"name": "   "}).status_code == 422
