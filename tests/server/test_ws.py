"""The websocket (issue 13 item 4): hello and welcome with the whole view, actions told to every seat and spectator,
stale, out-of-turn and illegal actions refused with a code and a rule, keep-alive, and a language per connection.
Every message a test receives is checked against the protocol (``server_message``) and its view against the game's
published schema (``kit.Peer``)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from starlette.testclient import TestClient

import dreizehn
from dreizehn.core.events import Event
from dreizehn.core.wire import from_wire
from dreizehn.play.say import say_event
from dreizehn.server import waiting
from dreizehn.server.protocol import PROTOCOL
from dreizehn.server.rooms import build_table
from dreizehn.server.rooms import hold as hold_module
from dreizehn.server.storage import Stored
from dreizehn.words import words

from .kit import (
    Closed,
    TestPeer,
    connect,
    create_table,
    eventually,
    hub,
    settle,
    spectator_hello,
    stored,
    stored_table,
    tokens,
)

SEATS = ["person", "person", "medium"]
"""Two people and a bot at a table of 13."""


@pytest.fixture
def table(client: TestClient) -> dict[str, Any]:
    """A table of 13 (two people, a bot)."""
    return create_table(client, "knizia13", SEATS)


@contextlib.contextmanager
def _everyone(client: TestClient, created: dict[str, Any], **hello: Any) -> Any:
    """Both people and a spectator connected, settled where a person is to move: (peers by seat, spectator)."""
    with contextlib.ExitStack() as stack:
        seats = {seat: stack.enter_context(connect(client, token=token, **hello))
                 for seat, token in tokens(created).items()}
        spectator = stack.enter_context(connect(client, **spectator_hello(created), **hello))
        for peer in [*seats.values(), spectator]:
            settle(peer, set(seats), -1)
        yield seats, spectator


def _mover(seats: dict[int, TestPeer]) -> tuple[TestPeer, TestPeer]:
    """The person to move and the other one."""
    view = next(iter(seats.values())).view
    assert view is not None
    mover = seats[view["current_player"]]
    return mover, next(p for p in seats.values() if p is not mover)


def test_hello_with_a_seat_token_is_welcomed_with_the_whole_view(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: a hello with a seat's token is answered by a welcome: the protocol, the table, the game, the seat,
    the seats, the course in words and the seat's whole view, valid under the game's schema and equal to the
    engine's view; a spectator's hello gets the spectator's view."""
    table_id = table["table"]["id"]
    with connect(client) as peer:
        welcome = peer.hello(token=tokens(table)[1])
        assert welcome["type"] == "welcome"
        assert (welcome["protocol"], welcome["table"], welcome["game"], welcome["seat"], welcome["lang"]) == (
            PROTOCOL, table_id, "knizia13", 1, "en")
        assert welcome["stages"] == 6  # 13 with 3 players: two stages per player (K5), said "stage 1 of 6"
        view = welcome["view"]
        engine = stored_table(client, table_id)
        assert view["version"] == engine.version and "history" in view
        assert from_wire(view) == engine.view(1)
        assert len(welcome["history"]) == engine.version
        assert [(s["seat"], s["kind"], s["name"]) for s in welcome["seats"]] == [
            (0, "person", "Anna"), (1, "person", "Bruno"), (2, "bot", "Ada")]
        assert not any(s["stand_in"] for s in welcome["seats"])
        presence = peer.recv()  # then everyone, this connection too, is told the seat is connected
        assert presence["type"] == "presence" and presence["seats"][1]["connected"]
        if view["current_player"] == 1:
            assert [a["index"] for a in view["legal_actions"]] == list(engine.view(1).legal_actions)
            assert all(a["words"] for a in view["legal_actions"])
    with connect(client) as watcher:
        welcome = watcher.hello(**spectator_hello(table))
        assert welcome["type"] == "welcome" and welcome["seat"] is None and welcome["view"]["seat"] is None
        assert from_wire(welcome["view"]) == stored_table(client, table_id).state.spectator_view()


def test_a_bad_hello_is_refused(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: a wrong token, a wrong spectators' token, another protocol, no token at all, a message before the
    hello and a second hello are refused with their code and rule; the connection stays usable."""
    table_id = table["table"]["id"]
    with connect(client) as peer:
        for hello, code, rule in [
            ({"token": "x" * 32}, "server.bad_token", "S1"),
            ({"table": table_id, "spectator": "y" * 32}, "server.bad_token", "S1"),
            ({"table": "nosuchtable", "spectator": table["spectator"]["token"]}, "server.bad_token", "S1"),
            ({"token": tokens(table)[0], "protocol": PROTOCOL + 1}, "server.protocol", "S4"),
            ({}, "server.hello_needs_token", "S4"),
            ({"token": tokens(table)[0], "lang": "xx"}, "words.language", "C7"),
        ]:
            answer = peer.hello(**hello)
            assert (answer["type"], answer["code"], answer["rule"]) == ("refused", code, rule), answer
        for message in ({"type": "action", "version": 0, "action": 0}, {"type": "ping"}, {"type": "hint"}):
            peer.send(message)
            answer = peer.recv()
            assert (answer["code"], answer["rule"]) == ("server.hello_first", "S4")
        assert peer.hello(token=tokens(table)[0])["type"] == "welcome"
        again = peer.hello(token=tokens(table)[1])
        assert (again["code"], again["rule"]) == ("server.hello_twice", "S4")


def test_an_action_is_told_to_every_seat_and_spectator(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: a person's action is answered by an update to every connection of the table, each with the
    receiver's own view and the events filtered for it; the action is stored as the person's."""
    table_id = table["table"]["id"]
    with _everyone(client, table) as (seats, spectator):
        mover, _ = _mover(seats)
        assert mover.view is not None
        version, action = mover.view["version"], mover.view["legal_actions"][-1]
        mover.act(action["index"])
        for peer in [*seats.values(), spectator]:
            update = peer.until(lambda m: m["type"] == "update")
            assert (update["version"], update["seat"], update["action"]) == (version + 1, mover.seat, action["text"])
            assert update["view"]["seat"] == peer.seat and "history" not in update["view"]
            assert update["events"] and all(e["text"] for e in update["events"])
        whole = stored(client, table_id)
        assert whole.actions[version] == (mover.seat, action["text"], "person")
        then = build_table(Stored(whole.row, whole.seats, whole.actions[:version + 1]))  # the engine after it
        history = [{"seat": s, "action": then.game.action_to_text(a)} for s, a in then.state.history]
        for peer in [*seats.values(), spectator]:
            update = next(m for m in peer.received if m["type"] == "update" and m["version"] == version + 1)
            seen = then.state.spectator_view() if peer.seat is None else then.view(peer.seat)
            assert from_wire({**update["view"], "history": history}) == seen


def test_a_stale_version_is_refused_with_the_current_view(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: an action chosen in an earlier version is refused (W6) with the current view, and changes
    nothing."""
    table_id = table["table"]["id"]
    with _everyone(client, table) as (seats, spectator):
        mover, other = _mover(seats)
        assert mover.view is not None
        version = mover.view["version"]
        before = stored(client, table_id).actions
        for stale in ({version - 1, version + 1} - {-1}):
            mover.act(mover.view["legal_actions"][0]["index"], stale)
            refused = mover.recv(skip=("presence",))
            assert (refused["type"], refused["code"], refused["rule"]) == ("refused", "table.stale", "W6")
            assert refused["params"] == {"given": stale, "current": version}
            assert refused["version"] == version and refused["view"]["version"] == version
            assert refused["view"]["legal_actions"] == mover.view["legal_actions"]
        assert stored(client, table_id).actions == before
        # nothing but presence notices (people and the spectator coming: the players are told that someone watches)
        assert {m["type"] for m in other.drain() + spectator.drain()} <= {"presence"}


def test_an_action_out_of_turn_is_refused(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: an action of a seat that is not to move is refused with the game's turn rule; a spectator cannot
    act at all."""
    table_id = table["table"]["id"]
    with _everyone(client, table) as (seats, spectator):
        mover, other = _mover(seats)
        assert mover.view is not None
        before = stored(client, table_id).actions
        other.act(mover.view["legal_actions"][0]["index"])
        refused = other.recv(skip=("presence",))
        game = dreizehn.load_game("knizia13", 3)
        assert (refused["code"], refused["rule"]) == ("table.not_your_turn", game.turn_rule)
        assert refused["view"] == other.view
        spectator.act(mover.view["legal_actions"][0]["index"])
        refused = spectator.recv(skip=("presence",))
        assert refused["code"] == "server.spectator_acts"
        assert stored(client, table_id).actions == before


def test_an_illegal_action_is_refused_with_its_code_and_rule(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: an action the rules do not allow now, or that is no action at all, is refused with its code and
    rule, and changes nothing."""
    table_id = table["table"]["id"]
    with _everyone(client, table) as (seats, _):
        mover, _ = _mover(seats)
        assert mover.view is not None
        legal = {a["index"] for a in mover.view["legal_actions"]}
        illegal = next(i for i in range(len(dreizehn.game_class("knizia13").action_type.all())) if i not in legal)
        before = stored(client, table_id).actions
        cases: list[tuple[int | str, str, str]] = [  # (codes are being renamed elsewhere: their endings are checked)
            ("no such play", ".unknown", "A5"),
            (10**6, ".not_number", "A5"),
            (-1, ".not_number", "A5"),
            ("R4", ".nasty_target", "K10"),
            (illegal, "", "K"),
        ]
        for action, ending, rule in cases:
            mover.act(action)
            refused = mover.recv(skip=("presence",))
            assert refused["type"] == "refused" and refused["message"]
            assert refused["code"].endswith(ending) and refused["rule"].startswith(rule), (action, refused)
            assert refused["view"]["version"] == mover.view["version"]
        assert stored(client, table_id).actions == before


def test_keep_alive(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: after the hello, a ping is answered by a pong."""
    with connect(client) as peer:
        peer.hello(token=tokens(table)[0])
        for _ in range(3):
            peer.send({"type": "ping"})
            assert peer.recv(skip=("presence", "update"))["type"] == "pong"


def test_each_connection_has_its_language(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: the hello names the connection's language; ``lang`` switches it and resyncs the whole view in the
    new language; from then on the events of every update are said in it."""
    with _everyone(client, table) as (seats, spectator), connect(client) as german:
        welcome = german.hello(**spectator_hello(table), lang="de")
        assert welcome["lang"] == "de"
        settle(german, set(seats), -1)
        game = dreizehn.load_game("knizia13", 3)
        names = [s["name"] for s in welcome["seats"]]
        mover, _ = _mover(seats)
        assert mover.view is not None
        legal = mover.view["legal_actions"]
        assert [a["words"] for a in legal] == [game.say_action(words("en"), a["index"]) for a in legal]
        mover.send({"type": "lang", "lang": "nl"})
        resync = mover.recv(skip=("presence",))
        assert (resync["type"], resync["lang"]) == ("resync", "nl")
        assert [a["words"] for a in resync["view"]["legal_actions"]] == [
            game.say_action(words("nl"), a["index"]) for a in legal]
        assert resync["view"]["version"] == mover.view["version"]
        mover.act(legal[0]["index"])
        said = {}
        for lang, peer in (("nl", mover), ("en", spectator), ("de", german)):
            update = peer.until(lambda m: m["type"] == "update")
            for event in update["events"]:
                expected = say_event(game, words(lang), Event(event["key"], event["params"]), names)
                assert event["text"] == expected
            said[lang] = [e["text"] for e in update["events"]]
            assert update["text"] == game.say_action(words(lang), game.action_type.parse(update["action"]),
                                                     names[update["seat"]])
        assert said["nl"] != said["en"] and said["de"] != said["en"]
        mover.send({"type": "lang", "lang": "klingon"})
        refused = mover.recv(skip=("presence", "update"))
        assert refused["code"] == "words.language"


def test_hints_are_for_the_seat_to_move(client: TestClient, table: dict[str, Any]) -> None:
    """Item 4: a hint is refused to a seat not to move and to a spectator (S5); the seat to move gets the hint of
    its position: every legal action rated, with its words; the connection goes on."""
    with _everyone(client, table) as (seats, spectator):
        mover, other = _mover(seats)
        assert mover.view is not None
        for peer in (other, spectator):
            peer.send({"type": "hint"})
            refused = peer.recv(skip=("presence",))
            assert (refused["code"], refused["rule"], refused["view"]) == ("server.hint_not_your_turn", "S5", None)
        mover.send({"type": "hint"})
        answer = mover.recv(skip=("presence",), timeout=300)  # bounds a failure only
        assert answer["type"] == "hint" and answer["version"] == mover.view["version"], answer
        ratings = answer["analysis"]["ratings"]
        assert sorted(r["action"] for r in ratings) == sorted(a["text"] for a in mover.view["legal_actions"])
        assert all(r["words"] and 0.0 <= r["win"] <= 1.0 for r in ratings), ratings
        assert answer["analysis"]["level"] == "master" and answer["analysis"]["choice"] == ratings[0]["action"]
        note, rival = answer["analysis"]["note"], answer["analysis"]["rival"]  # why the bot's move is first (issue 49)
        assert (note, rival) == (None, None) or (note in ("level", "search") and rival == ratings[1]["action"])
        mover.send({"type": "ping"})
        assert mover.recv(skip=("presence",))["type"] == "pong"


def test_a_refusal_reads_as_a_sentence_with_names_for_people_and_keeps_its_data(client: TestClient,
                                                                                 table: dict[str, Any]) -> None:
    """Issue 25: a refusal's message is for people (the player's name, no seat number, no rule, in their
    language); the code, rule and seat numbers stay in its data for developers."""
    with _everyone(client, table, lang="de") as (seats, spectator):
        mover, other = _mover(seats)
        assert mover.view is not None and other.view is not None
        current = mover.view["current_player"]
        name = next(s["name"] for s in table["table"]["seats"] if s["seat"] == current)
        other.act(other.view["legal_actions"][0]["index"] if other.view["legal_actions"] else 0)
        refused = other.recv(skip=("presence",))
        assert refused["code"] == "table.not_your_turn" and refused["rule"]
        assert refused["params"]["current"] == current
        assert refused["message"] == f"{name} ist am Zug."
        spectator.act(0)
        watching = spectator.recv(skip=("presence",))
        assert watching["message"] == "Du schaust zu: Nur die Spieler ziehen."


def _to_a_stage_end_before_a_bot(peer: TestPeer) -> dict[str, Any]:
    """The person plays their first legal action on each turn until an update ends a stage with a bot to move
    next: that update."""
    assert peer.view is not None
    message: dict[str, Any] = {"type": "welcome", "view": peer.view}
    for _ in range(500):
        view = message.get("view")
        if message["type"] == "update" and any(e["key"] == "stage.scored" for e in message["events"]):
            assert view is not None
            if not view["is_over"] and view["current_player"] != peer.seat:
                return message
        if message["type"] in ("welcome", "update", "resync") and view and view["current_player"] == peer.seat:
            peer.act(view["legal_actions"][0]["index"])
        message = peer.recv(timeout=15)
    raise AssertionError("no stage ended with a bot to move next")


class HoldSpy:
    """In place of :func:`dreizehn.server.waiting.woken` in the stage hold's module: notes each wait of the hold
    (its seconds) and each end; with ``run_out``, the hold runs out at once, as if its seconds had passed (the
    test's time, not the machine's)."""

    def __init__(self, run_out: bool) -> None:
        self.run_out = run_out
        self.waits: list[float] = []
        self.ended: list[str] = []

    async def woken(self, event: asyncio.Event, seconds: float) -> bool:
        self.waits.append(seconds)
        if self.run_out:
            self.ended.append("ran out")
            return False
        result = await waiting.woken(event, seconds)
        self.ended.append("ready" if result else "ran out")
        return result


@pytest.mark.parametrize("run_out", [False, True])
def test_the_bots_wait_for_the_people_to_read_a_stages_scoring(
        serve: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, run_out: bool) -> None:
    """Issue 25: the scoring window holds the game. After an update that ends a stage, the bots do not play the
    next stage until every person connected to a seat has closed its scoring (``ready`` for that version; an older
    version or a spectator's changes nothing), or until ``DREIZEHN_STAGE_HOLD`` seconds have passed. The hold is
    seen from inside (:class:`HoldSpy`): the bot waits in it, and plays only once it ends."""
    hold = 30.0
    spy = HoldSpy(run_out)
    monkeypatch.setattr(hold_module, "woken", spy.woken)
    client = serve(settings.model_copy(update={"stage_hold": hold, "bot_pause": 0.0}))
    created = create_table(client, "knizia13", ["person", "medium", "medium"])
    with connect(client, token=tokens(created)[0]) as anna, \
            connect(client, **spectator_hello(created)) as watcher:
        room = hub(client).rooms[created["table"]["id"]]
        ended = _to_a_stage_end_before_a_bot(anna)
        version = ended["version"]
        watcher.until(lambda m: m.get("version") == version)
        eventually(lambda: spy.waits, "the bot to move next did not wait in the hold")
        assert len(spy.waits) == 1 and 0 < spy.waits[0] <= hold
        if not run_out:
            watcher.send({"type": "ready", "version": version})  # a spectator's: changes nothing
            anna.send({"type": "ready", "version": version - 1})  # an older version: changes nothing
            quiet = watcher.drain() + anna.drain()  # both read by the server
            assert not [m for m in quiet if m["type"] == "update"], "a bot played behind the scoring window"
            assert not spy.ended and not room.hold.all_ready, "the hold ended without a person's ready"
            assert room.hold.at == version == room.table.version
            anna.send({"type": "ready", "version": version})
        nxt = anna.recv(skip=("presence", "pong"))
        assert nxt["type"] == "update" and nxt["version"] == version + 1 and nxt["seat"] != 0
        assert spy.ended == ["ran out" if run_out else "ready"]


def test_a_seat_open_in_another_window_is_taken_over_only_when_asked(client: TestClient,
                                                                     table: dict[str, Any]) -> None:
    """Issue 25: a seat's link opened in a second window no longer takes the seat silently. A hello with
    ``takeover: "ask"`` is refused (``server.seat_open``, said to people as a sentence) while another window holds
    the seat, and changes nothing; with ``"yes"`` the other window is told ``taken_over`` and closed; the same
    window coming back (a reload) replaces its old connection without asking; a hello without ``takeover`` keeps
    every window, as before."""
    token = tokens(table)[0]
    with connect(client, token=token, window="tab-1", takeover="ask") as first, connect(client) as second:
        refused = second.hello(token=token, window="tab-2", takeover="ask")
        assert refused["type"] == "refused" and refused["code"] == "server.seat_open"
        assert refused["rule"] == "S1" and "window" in refused["message"]
        assert first.drain() is not None  # still connected, told nothing
        assert not [m for m in first.received if m["type"] == "taken_over"]
        assert second.hello(token=token, window="tab-2", takeover="yes")["type"] == "welcome"
        assert first.recv(skip=("presence",))["type"] == "taken_over"
        with pytest.raises(Closed):
            first.recv(timeout=30, skip=("presence",))
        with connect(client, token=token, window="tab-2", takeover="ask") as again:  # tab-2 reloaded
            with pytest.raises(Closed):
                second.recv(timeout=30, skip=("presence",))
            assert not [m for m in second.received if m["type"] == "taken_over"]
            with connect(client, token=token) as api_client:  # no takeover: both stay
                assert again.drain() is not None and api_client.drain() is not None


def test_anyone_may_watch_a_table_from_the_list_of_tables(client: TestClient, table: dict[str, Any]) -> None:
    """Issue 25, item 3: a hello with a table and ``watch`` (no spectators' token) is a spectator's, with the
    spectator's view; an unknown table is refused (``server.no_table``); ``watch`` false needs the token as before."""
    table_id = table["table"]["id"]
    with connect(client) as watcher:
        welcome = watcher.hello(table=table_id, watch=True)
        assert welcome["type"] == "welcome" and welcome["seat"] is None
        assert from_wire(welcome["view"]) == stored_table(client, table_id).state.spectator_view()
    with connect(client) as lost:
        refused = lost.hello(table="nosuchtable", watch=True)
        assert (refused["type"], refused["code"]) == ("refused", "server.no_table")
        refused = lost.hello(table=table_id)
        assert (refused["type"], refused["code"]) == ("refused", "server.hello_needs_token")


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_a_page_of_an_older_protocol_is_told_to_reload_in_words(client: TestClient, table: dict[str, Any],
                                                                 lang: str) -> None:
    """A page loaded before the server was updated says hello in its old protocol: the code, rule and versions are
    for developers; the person reads, in their language, that the page is out of date, with no protocol numbers
    ("this server speaks protocol 2, not 1" was their message)."""
    with connect(client) as peer:
        answer = peer.hello(token=tokens(table)[0], protocol=PROTOCOL + 1, lang=lang)
    assert (answer["code"], answer["rule"], answer["params"]) == (
        "server.protocol", "S4", {"given": PROTOCOL + 1, "protocol": PROTOCOL})
    assert answer["message"] == words(lang)("server.person.protocol")
    assert not any(str(n) in answer["message"] for n in (PROTOCOL, PROTOCOL + 1))
