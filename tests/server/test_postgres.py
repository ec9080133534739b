"""Several server processes on one PostgreSQL database (issue 13 items 10 and 12): started together, they share the
tables; an action sent to either reaches every client of the table on both (LISTEN/NOTIFY); two actions racing for one
turn through the two servers end with exactly one stored, the other refused or resynced. Each table is served by one
of them, its home (the other relays its clients there): a client whose home process is killed connects again.
(The storage and API tests run on PostgreSQL too: ``db_settings``; tests/server/test_homes.py tests the homes.)"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient

from dreizehn.play.table import Seat
from dreizehn.server.app import create_app
from dreizehn.server.storage import NOTIFY_CHANNEL, Append, Store, make_engine, migrate

from .conftest import _unavailable, new_database
from .kit import (
    Closed,
    NetPeer,
    ServerProcess,
    connect,
    create_table,
    hub,
    make_settings,
    play_to_end,
    play_until_seat_moves,
    settle,
    spectator_hello,
    store_table,
    tokens,
    wait_finished,
)


@pytest.fixture(scope="module")
def pair(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ServerProcess,
                                                                                         Store]]:
    """Two server processes on one new PostgreSQL database, started at the same moment (both migrate it), and the
    database's store (to read what is stored); both killed at the end of the module."""
    database, workdir = new_database(postgres_url), tmp_path_factory.mktemp("servers")
    env = {"DATABASE_URL": database, "DREIZEHN_DATA_DIR": str(workdir / "unused"), "DREIZEHN_BOT_PAUSE": "0.01",
           "DREIZEHN_BOT_WORKERS": "0", "DREIZEHN_GRACE_PERIOD": "600"}
    servers = [ServerProcess(workdir, env) for _ in range(2)]
    failures: list[Exception] = []

    def start(server: ServerProcess) -> None:
        try:
            server.start()
        except Exception as err:  # reported below
            failures.append(err)

    threads = [threading.Thread(target=start, args=(server,)) for server in servers]
    engine = make_engine(make_settings(workdir / "unused", database).database)
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, f"a server did not start: {failures}"
        yield servers[0], servers[1], Store(engine)
    finally:
        for server in servers:
            server.kill()
        engine.dispose()


def _log(store: Store, table_id: str) -> tuple[tuple[int, str, str], ...]:
    stored = store.tables.load(table_id)
    assert stored is not None
    return stored.actions


def _told(peer: NetPeer, version: int) -> bool:
    """Whether a client was told of action ``version``: by its update, or by a resync that holds it."""
    return any((m["type"] == "update" and m["version"] == version)
               or (m["type"] == "resync" and m["view"]["version"] >= version) for m in peer.received)


def test_an_action_through_either_server_reaches_every_client_on_both(
        pair: tuple[ServerProcess, ServerProcess, Store]) -> None:
    """Items 10 and 12: a table created on one server is played by a person on each server, watched from both;
    every action, whichever server received it (or whichever played a bot), reaches every client on both, in
    order (updates without gaps); each person's action reaches the other server's clients as an update; in the end
    both servers show the same table."""
    first, second, store = pair
    created = first.create("knizia13", ["person", "person", "medium"])
    table_id = created["table"]["id"]
    on_first = first.connect(token=tokens(created)[0])
    on_second = second.connect(token=tokens(created)[1])
    watchers = [first.connect(**spectator_hello(created)), second.connect(**spectator_hello(created))]
    start = on_first.received[0]["view"]["version"]
    version = play_to_end({0: on_first, 1: on_second}, watchers, turns=8)
    log = _log(store, table_id)
    assert len(log) == version
    for peer in [on_first, on_second, *watchers]:
        assert peer.view is not None and peer.view["version"] == version
        assert all(_told(peer, number) for number in range(start + 1, version + 1)), peer.received
    for number, (seat, _, by) in enumerate(log, 1):
        if by == "person" and number > start:  # a person's action reaches the other server as an update
            other = second if seat == 0 else first
            watcher = watchers[1] if other is second else watchers[0]
            assert any(m["type"] == "update" and m["version"] == number for m in watcher.received)
    assert watchers[0].view == watchers[1].view
    assert first.get(f"/api/tables/{table_id}").json() == second.get(f"/api/tables/{table_id}").json()


def test_two_actions_racing_for_one_turn_end_with_exactly_one_stored(
        pair: tuple[ServerProcess, ServerProcess, Store]) -> None:
    """Items 10 and 12: the same person connected to both servers sends, at once, two actions for the same turn
    and version, one through each server: exactly one is stored, as the person's; the other is refused or its
    sender resynced; both connections end with the same view."""
    first, second, store = pair
    created = first.create("knizia13", ["person", "medium", "medium"])
    table_id = created["table"]["id"]
    on_first = first.connect(token=tokens(created)[0])
    on_second = second.connect(token=tokens(created)[0])
    done = -1
    for race in range(4):
        views = [settle(peer, {0}, done) for peer in (on_first, on_second)]
        version = views[0]["version"]
        assert views[1]["version"] == version
        legal = views[0]["legal_actions"]
        mine, theirs = legal[race % len(legal)], legal[(race + 1) % len(legal)]
        marks = len(on_first.received), len(on_second.received)
        on_first.act(mine["index"], version)
        on_second.act(theirs["index"], version)
        for peer in (on_first, on_second):
            settle(peer, {0, 1, 2}, version)  # past the race: whatever is to move
        log = _log(store, table_id)
        seat, action, by = log[version]
        assert (seat, by) == (0, "person") and action in {mine["text"], theirs["text"]}
        assert all(s != 0 for s, _, _ in log[version + 1:])  # the other was not stored later either
        if mine != theirs:
            loser, mark = (on_second, marks[1]) if action == mine["text"] else (on_first, marks[0])
            if not any(m["type"] in ("refused", "resync") for m in loser.received[mark:]):
                loser.until(lambda m: m["type"] in ("refused", "resync"), timeout=10)
            told = [m["type"] if m["type"] != "refused" else m["code"] for m in loser.received[mark:]]
            assert "resync" in told or any(t.startswith("table.") for t in told), told
        done = version
    final = [settle(peer, {0}, done) for peer in (on_first, on_second)]
    assert final[0]["version"] == final[1]["version"] == len(_log(store, table_id))
    assert {k: v for k, v in final[0].items() if k != "history"} == {
        k: v for k, v in final[1].items() if k != "history"}


def test_without_postgresql_the_tests_skip_here_and_fail_on_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 10: where PostgreSQL is missing, its tests are skipped, except on CI (the variable CI set), which
    installs it: there they fail."""
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        _unavailable("no PostgreSQL here")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        _unavailable("no PostgreSQL here")


def test_a_notice_of_an_action_the_room_has_fetches_nothing(tmp_path: Path) -> None:
    """Item 12: PostgreSQL tells every listening process of every action, its own too; a room that has the action
    already (it stored it, or caught up with it) fetches nothing, and one that lacks it catches up."""
    with TestClient(create_app(make_settings(tmp_path / "data"))) as client:
        table_id = create_table(client, "holzwurm", ["random", "random"], {"games": 1})["table"]["id"]
        wait_finished(client, table_id)
        the_hub, portal = hub(client), client.portal
        assert portal is not None
        room = portal.call(the_hub.room, table_id)
        assert room is not None and room.table.version > 1
        fetched: list[int] = []
        catch_up = room.catch_up

        async def counted() -> None:
            fetched.append(room.table.version)
            await catch_up()

        room.catch_up = counted  # type: ignore[method-assign]
        portal.call(_notify, the_hub, table_id, room.table.version - 1)
        assert fetched == []
        portal.call(_notify, the_hub, table_id, room.table.version)
        assert fetched == [room.table.version]


def test_presence_notices_count_until_their_process_says_goodbye(tmp_path: Path) -> None:
    """Items 6 and 12: what another process says of a table's connections counts, and its own notices are not
    heard; a process that says goodbye (it stops) is forgotten at once: its people are away, and the grace period
    runs for them here."""
    with TestClient(create_app(make_settings(tmp_path / "data", grace_period=600))) as client:
        created = create_table(client, "knizia13", ["person", "person", "person"])
        table_id = created["table"]["id"]
        the_hub, portal = hub(client), client.portal
        assert portal is not None
        with connect(client, **spectator_hello(created)) as watcher:
            room = portal.call(the_hub.room, table_id)
            assert room is not None and not room.presence.away
            arrived = watcher.recv()  # the watcher's own coming: the players are told that someone watches
            assert arrived["type"] == "presence" and arrived["watching"] == 1
            notice = {"process": "other", "number": 1, "table": table_id, "conns": {"1": 1}, "stand_in": []}
            portal.call(_hear, the_hub, notice)
            seen = watcher.recv()
            assert seen["type"] == "presence" and [s["connected"] for s in seen["seats"]] == [False, True, False]
            portal.call(_hear, the_hub, {"process": the_hub.peers.process, "gone": True})  # its own: not heard
            portal.call(_hear, the_hub, {"process": "other", "alive": True})
            assert "other" in the_hub.peers.heard_at and "other" in room.presence.elsewhere
            portal.call(_hear, the_hub, {"process": "other", "gone": True})
            seen = watcher.recv()
            assert seen["type"] == "presence" and not any(s["connected"] for s in seen["seats"])
            assert "other" not in the_hub.peers.heard_at and not room.presence.elsewhere
            assert set(room.presence.away) == {0, 1, 2}


async def _hear(the_hub: Any, notice: dict[str, Any]) -> None:
    the_hub.peers.presence_heard(json.dumps(notice))


async def _notify(the_hub: Any, table_id: str, seq: int) -> None:
    the_hub.peers.notified(table_id, seq)
    await asyncio.sleep(0)  # the catch-up task (if any) starts


def test_a_group_is_stored_with_its_notices_and_a_broken_storing_connection_is_replaced(pg_database: str) -> None:
    """Items 2, 8 and 12: on PostgreSQL a group of actions is one statement: the rows whose number is free, the
    tables' status, and one notice (``table:seq``) for each row stored, none for a refused one. When the connection
    kept for storing breaks (the database restarted, say), that group fails and the next one is stored on a new
    connection."""
    engine = make_engine(pg_database)
    migrate(engine)
    store = Store(engine)
    row, _ = store_table(store, "holzwurm", [Seat("Anna"), Seat("Ben")])
    plain = pg_database.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        assert store.actions.append_many([Append(row.id, 0, 0, "Y1>new", "person"),
                                          Append(row.id, 0, 1, "Y2>new", "person"),
                                          Append(row.id, 1, 1, "Y3>new", "person")]) == [True, False, True]
        heard = [note.payload for note in listener.notifies(timeout=2, stop_after=2)]
        assert heard == [f"{row.id}:0", f"{row.id}:1"]
        stored = store.tables.load(row.id)
        assert stored is not None and stored.row.status == "playing"
        assert stored.actions == ((0, "Y1>new", "person"), (1, "Y3>new", "person"))

        kept = store.actions._raw.driver_connection.info.backend_pid
        listener.execute("SELECT pg_terminate_backend(%s)", [kept])
        with pytest.raises(Exception):  # noqa: B017 - the driver's error of a closed connection
            store.actions.append_many([Append(row.id, 2, 0, "Y4>new", "person")])
        assert store.actions.append_many([Append(row.id, 2, 0, "Y4>new", "person", finished=True)]) == [True]
        assert store.actions._raw.driver_connection.info.backend_pid != kept
        assert [note.payload for note in listener.notifies(timeout=2, stop_after=1)] == [f"{row.id}:2"]
    stored = store.tables.load(row.id)
    assert stored is not None and stored.row.status == "finished" and len(stored.actions) == 3
    store.close()
    engine.dispose()


def test_presence_is_one_across_the_processes_and_a_person_back_on_the_other_takes_the_seat_back(
        processes: Callable[..., ServerProcess], postgres_url: str, tmp_path: Path) -> None:
    """Items 6 and 12: two processes tell each other who is connected (PostgreSQL's NOTIFY): a spectator on one sees
    a person connected to the other; when that person stays away past the grace period, their process's stand-in
    plays the seat and the spectator sees it marked; the person who comes back through the other process takes the
    seat back: the stand-in stops, and the person's moves are theirs again."""
    env = {"DATABASE_URL": new_database(postgres_url), "DREIZEHN_DATA_DIR": tmp_path / "unused",
           "DREIZEHN_BOT_PAUSE": 0.01, "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_GRACE_PERIOD": 1}
    first, second = processes(env), processes(env)
    engine = make_engine(str(env["DATABASE_URL"]))
    store = Store(engine)
    created = first.create("knizia13", ["person", "person", "medium"])
    table_id = created["table"]["id"]
    watcher = second.connect(**spectator_hello(created))
    ben = second.connect(token=tokens(created)[1])
    anna = first.connect(token=tokens(created)[0])
    watcher.until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"] and m["seats"][1]["connected"])
    play_to_end({0: anna, 1: ben}, [watcher], turns=2)
    anna.close()

    message = play_until_seat_moves(ben, 0)  # Ben plays on until Anna's seat moves
    assert message["seats"][0]["stand_in"] and not message["seats"][0]["connected"]  # as the second process says
    assert _log(store, table_id)[message["version"] - 1][2] == "stand-in"

    back = second.connect(token=tokens(created)[0])
    watcher.until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"] and not m["seats"][0]["stand_in"])
    assert back.view is not None
    mark = back.view["version"]
    play_to_end({0: back, 1: ben}, [watcher], turns=4, after=mark - 1)
    mine = [by for seat, _, by in _log(store, table_id)[mark:] if seat == 0]
    engine.dispose()
    assert "person" in mine and mine[-1] == "person"
    assert not any(m["type"] == "refused" for m in back.received)


def test_a_killed_process_is_forgotten_and_the_other_plays_its_seats(
        processes: Callable[..., ServerProcess], postgres_url: str, tmp_path: Path) -> None:
    """Items 6 and 12, and tables with a home (issue "The server under faults and growth", item 3): the tables
    created on the first process have their home there, and the second relays its clients to it. The first is
    killed: the relayed websockets are closed with 1012 ("connect again"), and the clients connect again, as the
    browser does after any lost connection (:meth:`ServerProcess.reconnect`). After the lease (three presence
    intervals without a sign of life) the second takes the tables up: their bots go on, the grace period runs for
    the people connected nowhere (Anna, whom the killed process's stand-in played, and Dora, connected there at
    the kill), and then the second's stand-in plays their seats."""
    env = {"DATABASE_URL": new_database(postgres_url), "DREIZEHN_DATA_DIR": tmp_path / "unused",
           "DREIZEHN_BOT_PAUSE": 0.01, "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_GRACE_PERIOD": 1,
           "DREIZEHN_PRESENCE_INTERVAL": 0.5}  # a lease of 1.5 s: long enough on a busy machine
    first, second = processes(env), processes(env)
    engine = make_engine(str(env["DATABASE_URL"]))
    store = Store(engine)
    left = first.create("knizia13", ["person", "person", "medium"])  # Anna leaves before the kill
    killed = first.create("knizia13", ["person", "person", "medium"])  # Dora is connected at the kill
    watcher = second.connect(**spectator_hello(killed))
    ben, eve = second.connect(token=tokens(left)[1]), second.connect(token=tokens(killed)[1])
    anna = first.connect(token=tokens(left)[0])
    first.connect(token=tokens(killed)[0])  # Dora, connected until the kill
    watcher.until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"] and m["seats"][1]["connected"])
    anna.close()
    message = play_until_seat_moves(ben, 0)  # the first process's stand-in plays for Anna
    assert message["seats"][0]["stand_in"]
    assert _log(store, left["table"]["id"])[message["version"] - 1][2] == "stand-in"
    assert second.metric("dreizehn_rooms") == 0 and second.metric("dreizehn_relayed") == 3

    first.kill()
    for peer in (watcher, ben, eve):
        with pytest.raises(Closed) as closed:
            peer.until(lambda m: False, timeout=10)
        assert closed.value.code == 1012
    watcher = second.reconnect(**spectator_hello(killed))
    ben, eve = second.reconnect(token=tokens(left)[1]), second.reconnect(token=tokens(killed)[1])
    for peer, created in ((ben, left), (eve, killed)):
        assert peer.view is not None
        mark = peer.view["version"]
        message = play_until_seat_moves(peer, 0)  # the second process's stand-in plays seat 0 now
        assert message["version"] > mark and message["seats"][0]["stand_in"]
        log = _log(store, created["table"]["id"])
        assert log[message["version"] - 1][2] == "stand-in" and "bot" in {by for _, _, by in log[mark:]}
    assert watcher.until(lambda m: m["type"] == "presence" and not m["seats"][0]["connected"])
    assert second.metric("dreizehn_rooms") == 2 and second.metric("dreizehn_relayed") == 0
    engine.dispose()


def test_a_line_of_chat_said_on_one_server_reaches_the_table_on_the_other(
        pair: tuple[ServerProcess, ServerProcess, Store]) -> None:
    """Issue 25, item 5: a line said through one process is stored and told there, and reaches the table's
    connections on the other process (PostgreSQL's NOTIFY), once; a spectator's line reaches the spectators on the
    other process and no player there."""
    first, second, _ = pair
    created = first.create("knizia13", ["person", "person", "medium"])
    anna = first.connect(token=tokens(created)[0])
    ben = second.connect(token=tokens(created)[1])
    watcher = second.connect(**spectator_hello(created))
    other_watcher = first.connect(**spectator_hello(created))
    anna.send({"type": "say", "phrase": "good_luck"})
    for peer in (ben, watcher):
        line = peer.until(lambda m: m["type"] == "said", timeout=10)
        assert (line["seat"], line["phrase"]) == (0, "good_luck")
    other_watcher.send({"type": "say", "text": "who wins?"})
    assert watcher.until(lambda m: m["type"] == "said" and m["text"] == "who wins?", timeout=10)["seat"] is None
    ben.drain()
    assert [m["phrase"] or m["text"] for m in ben.received if m["type"] == "said"] == ["good_luck"]


def test_a_move_taken_back_on_one_server_is_taken_back_on_the_other(
        pair: tuple[ServerProcess, ServerProcess, Store]) -> None:
    """Undo against bots (S8): the take-back stored through one process reaches the table's connections on the
    other (PostgreSQL's NOTIFY): it reloads the table, resyncs them to the position before the move, and tells them
    who took it back."""
    first, second, store = pair
    created = first.create("holzwurm", ["person", "medium"])
    table_id = created["table"]["id"]
    anna = first.connect(token=tokens(created)[0])
    watcher = second.connect(**spectator_hello(created), lang="nl")
    before = settle(anna, {0}, -1)
    anna.act(before["legal_actions"][0]["index"])
    after = settle(anna, {0}, before["version"])
    settle(watcher, {0}, after["version"] - 1)
    anna.send({"type": "undo", "version": after["version"]})
    told = watcher.until(lambda m: m["type"] == "taken_back", timeout=10)
    assert told["version"] == before["version"] and told["text"] == (
        "Anna heeft de zet die hierna kwam teruggenomen: vanaf hier ging het verder.")
    assert watcher.view is not None and watcher.view["version"] == before["version"]
    assert anna.until(lambda m: m["type"] == "taken_back")["count"] == after["version"] - before["version"]
    assert len(_log(store, table_id)) == before["version"]
    assert [row.seq for row in store.actions.taken_back(table_id)] == list(range(before["version"], after["version"]))
    anna.act(before["legal_actions"][-1]["index"], before["version"])  # and the game goes on on both
    watcher.until(lambda m: m["type"] == "update" and m["version"] == before["version"] + 1, timeout=10)
