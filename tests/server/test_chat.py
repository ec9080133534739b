"""Chat at the table (issue 25, item 5): a seat's person speaks to everyone at the table, a spectator to the
spectators only; free text of at most 200 characters or a quick phrase each reader reads in their own language; a
line is stored before anyone is told of it, so that a page that comes back (and the replay) shows it; bad or too
many lines are refused with a code and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from dreizehn.server.routes import ws

from .kit import connect, create_table, fake_clock, play_to_end, quick, spectator_hello, stored, tokens


def _said(peer: Any) -> list[dict[str, Any]]:
    peer.drain()
    return [m for m in peer.received if m["type"] == "said"]


def test_players_speak_to_everyone_and_spectators_to_spectators(client: TestClient) -> None:
    created = create_table(client, "knizia13", ["person", "person", "medium"])
    anna_token, ben_token = tokens(created)[0], tokens(created)[1]
    with connect(client, token=anna_token) as anna, connect(client, token=ben_token) as ben, \
            connect(client, **spectator_hello(created)) as carl, connect(client, **spectator_hello(created)) as dora:
        version = anna.view["version"] if anna.view else 0
        anna.send({"type": "say", "text": "  good luck, all  "})
        carl.until(lambda m: m["type"] == "said")
        carl.send({"type": "say", "phrase": "hello"})
        for peer in (anna, ben, carl, dora):
            lines = [(m["seat"], m["text"], m["phrase"]) for m in _said(peer)]
            expected: list[tuple[int | None, str | None, str | None]] = [(0, "good luck, all", None)]
            if peer in (carl, dora):
                expected.append((None, None, "hello"))
            assert lines == expected, lines
        line = _said(dora)[0]
        assert line["name"] == stored(client, created["table"]["id"]).seats[0].name and line["version"] == version
        assert _said(dora)[1]["name"] == ""
    # stored: a page that comes back reads the lines it may read
    with connect(client, token=ben_token) as back, connect(client, **spectator_hello(created)) as watcher:
        assert [m["text"] or m["phrase"] for m in back.received[0]["chat"]] == ["good luck, all"]
        assert [m["text"] or m["phrase"] for m in watcher.received[0]["chat"]] == ["good luck, all", "hello"]


def test_bad_or_hasty_lines_are_refused_and_say_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines that are empty, too long or of no known phrase are refused; past the chat's burst (three at once, then
    one a second: the clock is the test's, and stands still) each line is refused, and none of them is said."""
    fake_clock(monkeypatch, ws)
    created = create_table(client, "knizia13", ["person", "person", "medium"])
    with connect(client, token=tokens(created)[0]) as anna, connect(client, token=tokens(created)[1]) as ben:
        for bad, code in (({}, "server.chat_empty"), ({"text": "   "}, "server.chat_empty"),
                          ({"text": "hi", "phrase": "hello"}, "server.chat_empty"),
                          ({"text": "x" * 201}, "server.bad_message"), ({"phrase": "cheat"}, "server.bad_message"),
                          ({"text": 5}, "server.bad_message")):
            anna.send({"type": "say", **bad})
            refused = anna.recv(skip=("presence",))
            assert refused["type"] == "refused" and refused["code"] == code, (bad, refused)
        for i in range(6):
            anna.send({"type": "say", "text": f"line {i}"})
        anna.drain()
        hasty = [m for m in anna.received if m["type"] == "refused" and m["code"] == "server.chat_too_fast"]
        assert len(hasty) == 3
        assert [m["text"] for m in _said(ben)] == ["line 0", "line 1", "line 2"]


def test_the_replay_shows_what_the_players_said_where_they_said_it(client: TestClient) -> None:
    """The replay of a finished game carries the players' lines with the version each was said at; the
    spectators' lines stay theirs."""
    created = create_table(client, "holzwurm", ["person", "medium"], quick("holzwurm"))
    table_id = created["table"]["id"]
    with connect(client, token=tokens(created)[0]) as anna, connect(client, **spectator_hello(created)) as carl:
        anna.send({"type": "say", "phrase": "good_luck"})
        carl.send({"type": "say", "text": "go Anna"})
        anna.until(lambda m: m["type"] == "said")
        carl.until(lambda m: m["type"] == "said" and m["text"] == "go Anna")
        start = anna.view["version"] if anna.view else 0
        mid = play_to_end({0: anna}, [carl], turns=3)
        anna.send({"type": "say", "text": "nice one"})
        anna.until(lambda m: m["type"] == "said" and m["text"] == "nice one")
        play_to_end({0: anna}, [carl], after=mid - 1)
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert [(c["seat"], c["text"] or c["phrase"], c["version"]) for c in replay["chat"]] == [
        (0, "good_luck", start), (0, "nice one", mid)]
    assert replay["chat"][0]["name"] == replay["names"][0]


def test_a_rematch_asks_the_others_who_may_decline(client: TestClient) -> None:
    """Issue 25, item 4: a rematch reaches every person of the finished table with the seat that asked (their page
    asks them: accept or decline); a decline is told to everyone there; a spectator's decline, or one before any
    rematch was asked, changes nothing."""
    created = create_table(client, "holzwurm", ["person", "person"], {"games": 1})
    table_id, invited = created["table"]["id"], tokens(created)
    with connect(client, token=invited[0]) as anna, connect(client, token=invited[1]) as bruno, \
            connect(client, **spectator_hello(created)) as carl:
        bruno.send({"type": "decline"})  # no rematch asked yet
        play_to_end({0: anna, 1: bruno}, [carl])
        asked = client.post(f"/api/tables/{table_id}/rematch", json={"token": invited[0]})
        assert asked.status_code == 200, asked.text
        offer = bruno.until(lambda m: m["type"] == "rematch")
        assert offer["by"] == 0 and offer["token"] and offer["table"] == asked.json()["table"]["id"]
        assert anna.until(lambda m: m["type"] == "rematch")["by"] == 0
        carl.send({"type": "decline"})
        bruno.send({"type": "decline"})
        for peer in (anna, carl):
            told = peer.until(lambda m: m["type"] == "declined")
            assert told["seat"] == 1
        for peer in (anna, bruno, carl):
            peer.drain()
            assert [m["seat"] for m in peer.received if m["type"] == "declined"] == [1]


def test_a_rematch_is_offered_answered_and_started_with_bots_for_who_declined(client: TestClient) -> None:
    """Issue 49 item 2: a person of the finished table offers a rematch (``offer``): everyone is told at once, and
    each answer (``accept``, ``decline``) is told to everyone, the asker included; nothing is created until the
    asker starts it, then with a bot in the seat of the person who declined (``bots``), whose seat gets no
    invitation. A seat that is the asker's own, or a bot's, cannot be given to a bot."""
    created = create_table(client, "holzwurm", ["person", "person", "person"], {"games": 1})
    table_id, invited = created["table"]["id"], tokens(created)
    with connect(client, token=invited[0]) as anna, connect(client, token=invited[1]) as bruno, \
            connect(client, token=invited[2]) as clara:
        bruno.send({"type": "offer"})  # not before the game's end
        play_to_end({0: anna, 1: bruno, 2: clara}, [])
        anna.send({"type": "offer"})
        for peer in (anna, bruno, clara):
            assert peer.until(lambda m: m["type"] == "offered")["by"] == 0
        bruno.send({"type": "offer"})  # one offer: a second changes nothing
        bruno.send({"type": "accept"})
        clara.send({"type": "decline"})
        for peer in (anna, bruno, clara):
            assert peer.until(lambda m: m["type"] == "accepted")["seat"] == 1
            assert peer.until(lambda m: m["type"] == "declined")["seat"] == 2
        assert stored(client, table_id).row.rematch is None  # nothing started yet
        for bots in ([0], [3]):
            refused = client.post(f"/api/tables/{table_id}/rematch", json={"token": invited[0], "bots": bots})
            assert refused.status_code == 422 and refused.json()["detail"]["code"] == "server.rematch_bots"
        started = client.post(f"/api/tables/{table_id}/rematch", json={"token": invited[0], "bots": [2]})
        assert started.status_code == 200, started.text
        seats = started.json()["table"]["seats"]
        assert [s["kind"] for s in seats] == ["person", "person", "bot"] and seats[2]["name"] == "Clara"
        assert bruno.until(lambda m: m["type"] == "rematch")["token"]
        assert clara.until(lambda m: m["type"] == "rematch")["token"] is None
        for peer in (anna, bruno, clara):
            peer.drain()
            assert [m["by"] for m in peer.received if m["type"] == "offered"] == [0]
