"""Tables with a home (issue "The server under faults and growth", item 3): with several server processes on one
PostgreSQL database, each table is served by one process at a time, its home (:mod:`dreizehn.server.homes`); a
client that reaches another process is relayed to the home (:mod:`dreizehn.server.relay`), which alone holds the
table's room and plays its bots. A home is given up when its room is dropped from memory, and lost when its process
is silent past the lease: another process claims it then, and the room of the silent one stops. (A killed home's
tables taken up by the other process: tests/server/test_postgres.py.)"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.server.app import create_app
from dreizehn.server.homes import Elsewhere, Home, Homes, homes
from dreizehn.server.relay import MOVED, RELAYED
from dreizehn.server.storage import make_engine

from .conftest import new_database
from .kit import (
    Closed,
    ServerProcess,
    connect,
    create_table,
    eventually,
    free_port,
    hub,
    make_settings,
    play_to_end,
    spectator_hello,
    tokens,
    wait_finished,
)


def _holder(database: str, table_id: str) -> Any:
    engine = make_engine(database)
    try:
        with engine.connect() as c:
            return c.execute(sa.select(homes.c.process, homes.c.address).where(homes.c.table_id == table_id)).first()
    finally:
        engine.dispose()


def test_one_process_serves_a_table_and_the_other_relays_its_clients(
        processes: Callable[..., ServerProcess], postgres_url: str, tmp_path: Path) -> None:
    """Two processes, one table, people and spectators connected to both: the process that created the table is
    its home and the only one with a room for it, and it alone plays the bots (the other stores no action and
    counts no room, and does not play the bots a second time); the other relays its clients there: the person
    connected to it sees every update and their actions are stored as theirs."""
    database = new_database(postgres_url)
    env = {"DATABASE_URL": database, "DREIZEHN_DATA_DIR": tmp_path / "unused", "DREIZEHN_BOT_PAUSE": 0.01,
           "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_GRACE_PERIOD": 600}
    first, second = processes(env), processes(env)
    created = first.create("knizia13", ["person", "person", "medium"])
    table_id = created["table"]["id"]
    assert _holder(database, table_id).address == f"127.0.0.1:{first.port}"  # the serve command's host and port
    anna = first.connect(token=tokens(created)[0])
    ben = second.connect(token=tokens(created)[1])  # relayed to the first
    watchers = [first.connect(**spectator_hello(created)), second.connect(**spectator_hello(created))]
    start = ben.received[0]["view"]["version"]
    version = play_to_end({0: anna, 1: ben}, watchers, turns=6)
    assert ben.view is not None and ben.view["version"] == version
    assert all(any(m["type"] in ("update", "resync") and m["view"]["version"] >= number for m in ben.received)
               for number in range(start + 1, version + 1))
    assert watchers[0].view == watchers[1].view
    assert (first.metric("dreizehn_rooms"), second.metric("dreizehn_rooms")) == (1, 0)
    assert second.metric("dreizehn_relayed") == 2
    bots_first = first.metric('dreizehn_actions_total{by="bot"}')
    persons_first = first.metric('dreizehn_actions_total{by="person"}')
    assert bots_first > 0 and persons_first == version - bots_first  # Ben's actions too were stored by the first
    assert second.metric('dreizehn_actions_total{by="bot"}') == second.metric(
        'dreizehn_actions_total{by="person"}') == 0
    ben.close()
    watchers[1].close()
    assert second.get(f"/api/tables/{table_id}").json() == first.get(f"/api/tables/{table_id}").json()


def test_a_seat_taken_through_the_other_process_is_told_where_the_table_is_served(
        processes: Callable[..., ServerProcess], postgres_url: str, tmp_path: Path) -> None:
    """A free seat taken from the list of tables through the process that does not serve the table: the table's
    home gives the seat its new name for everyone, and closes the window its old invitation opened (relayed
    through that same other process): that window never sees the new player's hand."""
    env = {"DATABASE_URL": new_database(postgres_url), "DREIZEHN_DATA_DIR": tmp_path / "unused",
           "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_GRACE_PERIOD": 600}
    first, second = processes(env), processes(env)
    body = {"game": "knizia13", "options": {}, "clock": 0.0,
            "seats": [{"kind": "person", "name": "Anna"}, {"kind": "person"}, {"kind": "bot", "bot": "easy"}]}
    created = first.post("/api/tables", body).json()
    table_id = created["table"]["id"]
    opened_before = second.connect(token=tokens(created)[1])  # relayed to the first, the table's home
    watcher = first.connect(**spectator_hello(created))
    taken = second.post(f"/api/tables/{table_id}/seats/1", {"name": "Bruno"})
    assert taken.status_code == 200, taken.text
    with pytest.raises(Closed):
        opened_before.until(lambda m: False, timeout=10)
    watcher.until(lambda m: m["type"] == "presence" and m["seats"][1]["name"] == "Bruno" and m["seats"][1]["joined"])
    bruno = second.connect(token=taken.json()["token"])
    assert bruno.view is not None and bruno.view["seat"] == 1
    assert (first.metric("dreizehn_rooms"), second.metric("dreizehn_rooms")) == (1, 0)


def test_a_rematch_asked_through_the_other_process_is_offered_where_the_table_is_served(
        processes: Callable[..., ServerProcess], postgres_url: str, tmp_path: Path) -> None:
    """A rematch asked through the process that does not serve the finished table: its home offers it to the
    people connected there, the other person (relayed) with an invitation of their own, which opens their seat of
    the new table; asking for one again is refused (the invitation was given)."""
    env = {"DATABASE_URL": new_database(postgres_url), "DREIZEHN_DATA_DIR": tmp_path / "unused",
           "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_GRACE_PERIOD": 600}
    first, second = processes(env), processes(env)
    created = first.create("holzwurm", ["person", "person"], {"games": 1})
    table_id = created["table"]["id"]
    anna = first.connect(token=tokens(created)[0])
    ben = second.connect(token=tokens(created)[1])  # relayed to the first, the table's home
    play_to_end({0: anna, 1: ben}, rng=random.Random(5))
    asked = second.post(f"/api/tables/{table_id}/rematch", {"token": tokens(created)[0]})
    assert asked.status_code == 200, asked.text
    new_id = asked.json()["table"]["id"]
    offer = ben.until(lambda m: m["type"] == "rematch", timeout=10)
    assert offer["table"] == new_id and offer["by"] == 0 and offer["token"]
    assert anna.until(lambda m: m["type"] == "rematch", timeout=10)["token"] is None  # Anna's is in the answer
    again = second.connect(token=offer["token"])
    assert again.view is not None and again.view["seat"] == 1
    late = first.post(f"/api/tables/{table_id}/rematch", {"token": tokens(created)[1]})
    assert late.status_code == 409 and late.json()["detail"]["code"] == "server.rematch_issued"


def test_a_dropped_room_gives_its_home_up(pg_database: str, tmp_path: Path) -> None:
    """A room dropped from memory (idle) releases its table's home: another process may claim it then, and could
    not before; a process that claims the home of another's table is told where it is served (``Elsewhere``). An
    expired home of a finished table is removed by the sweep, not taken up."""
    settings = make_settings(tmp_path / "data", pg_database, address="127.0.0.1:1")
    with TestClient(create_app(settings)) as client:
        table_id = create_table(client, "holzwurm", ["random", "random"], {"games": 1})["table"]["id"]
        wait_finished(client, table_id)
        the_hub, portal = hub(client), client.portal
        assert portal is not None
        other = Homes(the_hub.store.engine, "other", "127.0.0.1:2", lease=60)
        assert other.claim(table_id) == Home(the_hub.peers.process, "127.0.0.1:1")
        assert portal.call(_evict, the_hub) == [table_id]
        assert _holder(pg_database, table_id) is None
        assert other.claim(table_id) is False  # a new home: the other's now
        with pytest.raises(Elsewhere) as away:
            portal.call(the_hub.room, table_id)
        assert away.value.home == Home("other", "127.0.0.1:2") and table_id not in the_hub.rooms
        with the_hub.store.engine.begin() as c:  # the other is killed; its home of a finished table expires
            c.execute(homes.update().values(renewed_at=sa.text("now() - interval '1 hour'")))
        assert other.expired() == [] and _holder(pg_database, table_id) is None  # nothing to take up: removed


async def _evict(the_hub: Any) -> list[str]:
    """Drop the hub's idle rooms (once the catch-up that follows a load is done), and wait for the release."""
    import asyncio

    dropped: list[str] = []
    for _ in range(1500):  # 30 s at most: it bounds a failure only
        dropped = the_hub.evict_idle(now=1e12)
        if dropped:
            break
        await asyncio.sleep(0.02)
    for _ in range(1500):  # the release runs in a thread
        await asyncio.sleep(0.02)
        if not the_hub.peers.tasks:
            break
    return dropped


def test_a_home_lost_past_the_lease_stops_the_room_and_closes_its_connections(pg_database: str,
                                                                             tmp_path: Path) -> None:
    """A process silent past the lease (its renewal did not come) loses its homes: another process claims the
    table, and at this process's next renewal the room stops (no bot of it plays on) and its connections are
    closed, so that they come back through the table's new home."""
    settings = make_settings(tmp_path / "data", pg_database, address="127.0.0.1:1", grace_period=600)
    with TestClient(create_app(settings)) as client:
        created = create_table(client, "knizia13", ["person", "medium", "medium"])
        table_id = created["table"]["id"]
        the_hub, portal = hub(client), client.portal
        assert portal is not None
        with connect(client, token=tokens(created)[0]) as anna:
            room = portal.call(the_hub.room, table_id)
            assert room is not None
            with the_hub.store.engine.begin() as c:  # as if this process had been silent past the lease
                c.execute(homes.update().values(renewed_at=sa.text("now() - interval '1 hour'")))
            assert Homes(the_hub.store.engine, "other", "127.0.0.1:2", lease=60).claim(table_id) is True
            portal.call(the_hub.peers.keep_homes)
            assert table_id not in the_hub.rooms and room.stopped
            with pytest.raises(Closed):  # what was sent before, then the close
                anna.until(lambda m: False, timeout=30)
            room.after_change()
            assert room.bots.task is None or room.bots.task.done()


def _actions(database: str, table_id: str) -> list[tuple[int, str]]:
    engine = make_engine(database)
    try:
        with engine.connect() as c:
            return [(r.seq, r.by) for r in c.execute(sa.text(
                'SELECT seq, "by" FROM actions WHERE table_id = :t ORDER BY seq'), {"t": table_id})]
    finally:
        engine.dispose()


def _take_home(the_hub: Any, table_id: str) -> None:
    """As if this process had been silent past the lease and another had claimed the table meanwhile."""
    with the_hub.store.engine.begin() as c:
        c.execute(homes.update().values(renewed_at=sa.text("now() - interval '1 hour'")))
    assert Homes(the_hub.store.engine, "other", "127.0.0.1:2", lease=60).claim(table_id) is True


def test_a_room_whose_home_another_process_claimed_stores_no_bots_move_and_stops(pg_database: str,
                                                                               tmp_path: Path) -> None:
    """Between the claim of its home by another process and this process's next renewal (here not before the test
    ends), a room still in memory cannot store a move (the writer stores only where no other process holds the
    home): its next bot's move is refused, and that stops the room at once, so that no two rooms play one table."""
    settings = make_settings(tmp_path / "data", pg_database, address="127.0.0.1:1", presence_interval=3600,
                             bot_pause=0.02)
    with TestClient(create_app(settings)) as client:
        table_id = create_table(client, "holzwurm", ["medium", "medium"], {"games": 3})["table"]["id"]
        the_hub, portal = hub(client), client.portal
        assert portal is not None
        room = portal.call(the_hub.room, table_id)
        assert room is not None
        eventually(lambda: len(_actions(pg_database, table_id)) >= 3, "the bots play")
        _take_home(the_hub, table_id)
        claimed = len(_actions(pg_database, table_id))
        eventually(lambda: room.stopped, "the room stops")
        assert table_id not in the_hub.rooms and not room.table.is_over
        eventually(lambda: room.bots.task is None or room.bots.task.done(), "its bots stop")
        stored = _actions(pg_database, table_id)
        assert len(stored) <= claimed + 1  # at most a group under way when the home was claimed
        assert [seq for seq, _ in stored] == list(range(len(stored)))


def test_a_persons_move_where_another_process_claimed_the_home_is_not_stored(pg_database: str,
                                                                            tmp_path: Path) -> None:
    """A person's move reaching a room whose home another process claimed is not stored (not told as played), and
    their connection is closed so that they come back through the table's new home."""
    settings = make_settings(tmp_path / "data", pg_database, address="127.0.0.1:1", presence_interval=3600,
                             grace_period=600)
    with TestClient(create_app(settings)) as client:
        created = create_table(client, "holzwurm", ["person", "medium"], {"starter": 0})
        table_id = created["table"]["id"]
        the_hub = hub(client)
        with connect(client, token=tokens(created)[0]) as anna:
            assert anna.view is not None and anna.view["current_player"] == 0  # Anna begins: no bot moves first
            before = _actions(pg_database, table_id)
            room = the_hub.rooms[table_id]
            _take_home(the_hub, table_id)
            anna.act(anna.view["legal_actions"][0]["index"])
            told = []
            with pytest.raises(Closed):
                while True:
                    told.append(anna.recv(timeout=30))
            assert not any(m["type"] == "update" for m in told)
        assert _actions(pg_database, table_id) == before
        assert room.stopped and table_id not in the_hub.rooms


def test_a_home_released_late_is_claimed_again_by_its_room(pg_database: str, tmp_path: Path) -> None:
    """A room whose home row is gone at a renewal (the release of an earlier room of the table, dropped from
    memory, came after this room's claim) claims it again and goes on: no connection is closed."""
    settings = make_settings(tmp_path / "data", pg_database, address="127.0.0.1:1", grace_period=600)
    with TestClient(create_app(settings)) as client:
        created = create_table(client, "knizia13", ["person", "medium", "medium"])
        table_id = created["table"]["id"]
        the_hub, portal = hub(client), client.portal
        assert portal is not None
        with connect(client, token=tokens(created)[0]) as anna:
            room = portal.call(the_hub.room, table_id)
            with the_hub.store.engine.begin() as c:
                c.execute(homes.delete().where(homes.c.table_id == table_id))
            portal.call(the_hub.peers.keep_homes)
            assert the_hub.rooms.get(table_id) is room and room is not None and not room.stopped
            assert _holder(pg_database, table_id).process == the_hub.peers.process
            anna.drain()


def test_a_websocket_whose_home_cannot_be_reached_is_told_to_connect_again(pg_database: str,
                                                                           tmp_path: Path) -> None:
    """A hello for a table another process serves is relayed to that process's address; when nothing answers
    there (the home is gone, its lease not run out yet), the websocket is closed with 1012 ("connect again"), and
    so is a relayed websocket that reaches a process which does not serve the table: it is never relayed twice.
    No room of the table is loaded here either way. Once the lease runs out, the sweep finds the table (open: no
    action yet) to take up."""
    settings = make_settings(tmp_path / "data", pg_database, address="127.0.0.1:1")
    with TestClient(create_app(settings)) as client:
        created = create_table(client, "knizia13", ["person", "person", "person"])
        table_id = created["table"]["id"]
        the_hub, portal = hub(client), client.portal
        assert portal is not None
        assert portal.call(_evict, the_hub) == [table_id]
        gone = f"127.0.0.1:{free_port()}"
        assert Homes(the_hub.store.engine, "other", gone, lease=60).claim(table_id) is False
        hello = {"type": "hello", "protocol": 1, "token": tokens(created)[0]}
        for headers, reason in (({}, "gone"), ({RELAYED: "1"}, "moved")):
            with client.websocket_connect("/ws", headers=headers) as session:
                session.send_json(hello)
                closed = session.receive()
            assert closed["type"] == "websocket.close" and closed["code"] == MOVED and reason in closed["reason"]
        assert table_id not in the_hub.rooms
        with the_hub.store.engine.begin() as c:  # the other is killed: its home of the table, open, expires
            status = c.execute(sa.text("SELECT status FROM tables WHERE id = :t"), {"t": table_id}).scalar()
            c.execute(homes.update().values(renewed_at=sa.text("now() - interval '1 hour'")))
        assert status == "open" and the_hub.peers.homes is not None and the_hub.peers.homes.expired() == [table_id]
        assert _holder(pg_database, table_id).process == "other"  # left for the sweep to claim, not removed
