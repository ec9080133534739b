"""Taking back a move (item 6 of "The table players would choose over Board Game Arena"): at a table of one person
and bots the person takes back their latest move and the bots' moves after it; never at a table of two people,
with nothing to take back, past a deal, nor past a hidden card shown to them. The take-back is stored before anyone
is told, the log keeps what was taken back, and a server killed and started again rebuilds the position after it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from dreizehn.core.record import replay
from dreizehn.server.settings import Settings
from dreizehn.server.storage import Store, TakenBack, make_engine
from dreizehn.server.takebacks import TakeBack, standing_take_backs, take_backs

from .kit import (
    Peer,
    ServerProcess,
    connect,
    create_table,
    hub,
    make_settings,
    play_to_end,
    quick,
    settle,
    spectator_hello,
    stored,
    tokens,
)

GERMAN = "Anna hat den Zug zurückgenommen, der hierauf folgte: Von hier ging es weiter."
"""A take-back in German words, said after the last move that stands (issue 49 item 7)."""


def _without_history(view: dict[str, Any] | None) -> dict[str, Any]:
    assert view is not None
    return {k: v for k, v in view.items() if k != "history"}


def _my_turn(peer: Peer, after: int = -1) -> dict[str, Any]:
    """The person's view once it is their turn (past version ``after``)."""
    assert peer.seat is not None
    return settle(peer, {peer.seat}, after)


def _undo(peer: Peer, version: int | None = None) -> dict[str, Any]:
    """Send ``undo`` (in the version of the view now by default); the answer: a ``refused``, or the ``resync``
    (the ``taken_back`` after it read too)."""
    assert peer.view is not None
    peer.send({"type": "undo", "version": peer.view["version"] if version is None else version})
    answer = peer.until(lambda m: m["type"] in ("refused", "resync"))
    if answer["type"] == "resync":
        told = peer.recv(skip=("presence",))
        assert told["type"] == "taken_back", told
    return answer


def _last(peer: Peer, kind: str) -> dict[str, Any]:
    return [m for m in peer.received if m["type"] == kind][-1]


def test_a_person_alone_with_bots_takes_back_their_move_and_the_bots_after_it(client: TestClient) -> None:
    created = create_table(client, "holzwurm", ["person", "medium", "medium"])
    table_id = created["table"]["id"]
    with connect(client, token=tokens(created)[0]) as anna, \
            connect(client, **spectator_hello(created), lang="de") as watcher:
        before = _my_turn(anna)
        start = before["version"]
        log_before = stored(client, table_id).actions
        anna.act(before["legal_actions"][0]["index"])
        after = _my_turn(anna, start)
        assert after["version"] == start + 3  # the person's move and the two bots' after it
        assert _last(anna, "update")["undo"] is True
        settle(watcher, {0}, start)
        assert _last(watcher, "update")["undo"] is False

        resync = _undo(anna)
        assert resync["view"]["version"] == start and resync["undo"] is False  # nothing left of this stage's
        assert _without_history(anna.view) == _without_history(before)
        told = _last(anna, "taken_back")
        assert told == {"type": "taken_back", "seat": 0, "version": start, "count": after["version"] - start,
                        "text": "Anna took back the move that came next: play went on from here."}
        watcher.until(lambda m: m["type"] == "taken_back")
        assert _last(watcher, "taken_back")["text"] == GERMAN
        assert watcher.view is not None and watcher.view["version"] == start

        # stored: the log is the game that stands, and what was taken back is kept
        assert stored(client, table_id).actions == log_before
        kept = hub(client).store.actions.taken_back(table_id)
        assert {(row.undo, row.undo_seat) for row in kept} == {(0, 0)} and kept[0].seq == start
        assert len(kept) == after["version"] - start and kept[0].seat == 0 and kept[0].by == "person"
        assert all(row.by == "bot" for row in kept[1:])

        # it is the person's turn: the bots wait, and the game goes on from the position before the move
        assert not [m for m in anna.drain() if m["type"] == "update"]
        anna.act(before["legal_actions"][-1]["index"])
        assert anna.until(lambda m: m["type"] == "update")["version"] == start + 1


def test_two_people_may_not_take_back(client: TestClient) -> None:
    created = create_table(client, "holzwurm", ["person", "person", "medium"])
    with connect(client, token=tokens(created)[0]) as anna, connect(client, token=tokens(created)[1]) as ben:
        peers = {0: anna, 1: ben}
        seat = settle(anna, {0, 1}, -1)["current_player"]
        mover = peers[seat]
        view = settle(mover, {0, 1}, -1)
        mover.act(view["legal_actions"][0]["index"])
        mover.until(lambda m: m["type"] == "update")
        assert _last(mover, "update")["undo"] is False
        refused = _undo(mover)
        assert refused["code"] == "server.undo_people" and refused["rule"] == "S8"
        assert refused["message"] == "Moves can be taken back only when you play alone against bots."
        assert refused["view"] is not None


def test_nothing_to_take_back_a_stale_version_and_a_spectator_are_refused(client: TestClient) -> None:
    created = create_table(client, "holzwurm", ["person", "medium"])
    with connect(client, token=tokens(created)[0]) as anna, connect(client, **spectator_hello(created)) as watcher:
        view = _my_turn(anna)
        assert _last(anna, "welcome")["undo"] is False or view["version"] > 0
        assert _undo(anna)["code"] == "server.undo_nothing"
        assert _undo(anna, view["version"] + 5)["code"] == "table.stale"
        assert _undo(watcher)["code"] == "server.spectator_acts"
        assert anna.view is not None and anna.view["version"] == view["version"]


def test_a_take_back_waits_for_the_persons_turn(serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    """Asked while the bots are to move, a take-back is refused: the bots' moves after the person's are taken back
    with it once made (and no bot move can be stored after it)."""
    client = serve(make_settings(tmp_path / "data", bot_pause=3.0))
    created = create_table(client, "holzwurm", ["person", "medium"])
    with connect(client, token=tokens(created)[0]) as anna:
        view = _my_turn(anna)
        anna.act(view["legal_actions"][0]["index"])
        moved = anna.until(lambda m: m["type"] == "update")
        assert moved["undo"] is False
        refused = _undo(anna)
        assert refused["code"] == "server.undo_wait"
        assert refused["message"] == "Wait for your turn: then you can take back your move."


def _play_until_scored(peer: Peer) -> None:
    """The person plays (taking the discard, never drawing from the stock; then their first discard) until a stage
    is scored and it is their turn again."""
    while True:
        view = _my_turn(peer)
        if any(e["key"] == "stage.scored" for m in peer.received if m["type"] == "update" for e in m["events"]):
            return
        choices = [a for a in view["legal_actions"] if a["text"] != "draw"]
        peer.act(choices[0]["index"])
        peer.until(lambda m: m["type"] == "update")


def test_no_take_back_past_a_deal(client: TestClient) -> None:
    created = create_table(client, "three-thirteen", ["person", "medium"], quick("three-thirteen"))
    with connect(client, token=tokens(created)[0]) as anna:
        _play_until_scored(anna)
        refused = _undo(anna)
        assert refused["code"] == "server.undo_dealt", refused
        assert refused["message"] == "Your last move cannot be taken back: new cards have been dealt since."


def test_no_take_back_of_a_card_drawn_from_the_stock(client: TestClient) -> None:
    created = create_table(client, "three-thirteen", ["person", "medium"], quick("three-thirteen"))
    with connect(client, token=tokens(created)[0]) as anna:
        view = _my_turn(anna)
        anna.act(next(a["index"] for a in view["legal_actions"] if a["text"] == "draw"))
        drew = anna.until(lambda m: m["type"] == "update")
        assert any("card" in e["params"] for e in drew["events"])  # the person saw the card
        assert drew["undo"] is False
        assert drew["undo_blocked"] == "server.undo_drawn"  # the page says why (issue 49 item 5)
        assert _undo(anna)["code"] == "server.undo_drawn"
        assert _last(anna, "welcome")["undo_blocked"] is None  # nothing to take back: nothing to say


def test_a_killed_server_rebuilds_the_position_after_the_take_back(processes: Callable[..., ServerProcess],
                                                                   tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"DREIZEHN_DATA_DIR": data, "DREIZEHN_BOT_PAUSE": 0.01, "DREIZEHN_BOT_WORKERS": 0,
           "DREIZEHN_GRACE_PERIOD": 600}
    server = processes(env)
    created = server.create("holzwurm", ["person", "medium"])
    anna = server.connect(token=tokens(created)[0])
    before = _my_turn(anna)
    anna.act(before["legal_actions"][0]["index"])
    after = _my_turn(anna, before["version"])
    assert _undo(anna)["view"]["version"] == before["version"]
    server.kill()

    again = processes(env)
    back = again.connect(token=tokens(created)[0])
    assert _without_history(back.view) == _without_history(before)
    table_id = created["table"]["id"]
    store = Store(make_engine(make_settings(data).database))
    kept = store.actions.taken_back(table_id)
    loaded = store.tables.load(table_id)
    assert loaded is not None and len(loaded.actions) == before["version"]
    assert len(kept) == after["version"] - before["version"] and kept[0].seq == before["version"]
    back.act(before["legal_actions"][0]["index"])  # the person plays on from there
    assert back.until(lambda m: m["type"] == "update")["version"] == before["version"] + 1


def test_the_record_and_the_replay_are_the_game_that_stands(client: TestClient) -> None:
    """The record holds the moves that stand and replays (the engine checks it); the replay says where a move was
    taken back."""
    created = create_table(client, "holzwurm", ["person", "medium"], {"games": 1})
    table_id = created["table"]["id"]
    with connect(client, token=tokens(created)[0]) as anna:
        before = _my_turn(anna)
        anna.act(before["legal_actions"][0]["index"])
        after = _my_turn(anna, before["version"])
        _undo(anna)
        play_to_end({0: anna}, after=before["version"] - 1)
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert [tuple(a) for a in record["actions"]] == [(s, a) for s, a, _ in stored(client, table_id).actions]
    replay(record)  # a valid record: the engine replays it
    answer = client.get(f"/api/tables/{table_id}/replay").json()
    taken = {"version": before["version"], "seat": 0, "count": after["version"] - before["version"]}
    assert answer["taken_back"] == [taken]
    assert len(answer["steps"]) == len(record["actions"])


def test_take_backs_are_grouped_and_those_a_later_one_went_back_before_are_left_out() -> None:
    rows = [TakenBack(0, 12, 0, "a", "person", 0), TakenBack(0, 13, 1, "b", "bot", 0),
            TakenBack(1, 12, 0, "c", "person", 0), TakenBack(2, 10, 0, "d", "person", 0),
            TakenBack(2, 11, 1, "e", "bot", 0), TakenBack(3, 14, 0, "f", "person", 0)]
    backs = take_backs(rows)
    assert backs == [TakeBack(12, 0, 2), TakeBack(12, 0, 1), TakeBack(10, 0, 2), TakeBack(14, 0, 1)]
    assert standing_take_backs(backs) == [TakeBack(10, 0, 2), TakeBack(14, 0, 1)]
    assert standing_take_backs(backs[:2]) == backs[:2]  # twice at the same place: both stand


def test_who_comes_back_reads_the_take_backs_in_the_log(client: TestClient) -> None:
    """A welcome's ``taken_back`` holds the take-backs of the game as it stands, in the reader's language; one that
    a later take-back went back before is left out."""
    created = create_table(client, "holzwurm", ["person", "medium"])
    with connect(client, token=tokens(created)[0]) as anna:
        start = _my_turn(anna)["version"]
        for _ in range(2):  # two moves, a take-back of the second, then of the first
            assert anna.view is not None
            anna.act(anna.view["legal_actions"][0]["index"])
            _my_turn(anna, anna.view["version"])
        versions = [_undo(anna)["view"]["version"], _undo(anna)["view"]["version"]]
    assert versions == [start + 2, start]
    with connect(client, token=tokens(created)[0], lang="de") as back:
        told = back.received[0]["taken_back"]
    assert [(t["version"], t["text"]) for t in told] == [(start, GERMAN)]
