"""Faults as an operator sees them (issue 26 item 4): the storage that fails (SQLite read-only or full, PostgreSQL
restarted mid-game) has actions refused with a clear error and nothing acknowledged that was not stored, and the
game goes on when the storage is back; a client that does not read is dropped, and the others play on."""

from __future__ import annotations

import contextlib
import errno
import random
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from dreizehn.server.app import create_app
from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms import build_table
from dreizehn.words import words

from .conftest import Cluster
from .kit import (
    NetPeer,
    Peer,
    ServerProcess,
    append,
    connect,
    create_table,
    hub,
    make_settings,
    play_to_end,
    quick,
    spectator_hello,
    stored,
    tokens,
)
from .test_ops import metric, poll


def told(*peers: Peer) -> dict[int, tuple[int, str]]:
    """The actions the peers were told of (each an acknowledgement that it is stored): version → (seat, action)."""
    found: dict[int, tuple[int, str]] = {}
    for peer in peers:
        for m in peer.received:
            if m["type"] == "update":
                assert found.setdefault(m["version"], (m["seat"], m["action"])) == (m["seat"], m["action"])
    return found


def assert_all_stored(actions: list[tuple[int, str]] | tuple[tuple[int, str, str], ...],
                      acknowledged: dict[int, tuple[int, str]]) -> None:
    """Every acknowledged action is stored, in its place."""
    for version, (seat, action) in acknowledged.items():
        assert tuple(actions[version - 1][:2]) == (seat, action), version


def _mover(peers: dict[int, Peer]) -> Peer:
    view = next(iter(peers.values())).view
    assert view is not None
    return peers[view["current_player"]]


def refused_unstored(peers: dict[int, Peer]) -> dict[str, Any]:
    """The person to move acts while the storage fails: the refusal they get (after which every peer has been
    resynced to the version before the action, and told of nothing newer)."""
    mover = _mover(peers)
    assert mover.view is not None
    version = mover.view["version"]
    mover.act(mover.view["legal_actions"][0]["index"])
    refusal = mover.until(lambda m: m["type"] == "refused")
    assert (refusal["code"], refusal["rule"], refusal["version"]) == ("server.not_stored", "S7", version)
    for peer in peers.values():
        if peer is not mover:
            assert peer.until(lambda m: m["type"] in ("resync", "update"))["type"] == "resync"
        assert peer.view is not None and peer.view["version"] == version
        assert all(m["version"] <= version for m in peer.received if m["type"] == "update")
    return refusal


def _writer_pragma(client: TestClient, pragma: str) -> None:
    """Run a pragma on the connection the server stores actions on (from the server's event loop)."""
    raw = hub(client).store.actions._raw
    assert raw is not None
    portal = client.portal
    assert portal is not None
    portal.call(raw.driver_connection.execute, pragma)


def test_sqlite_read_only_refuses_actions_and_tells_nothing_unstored(client: TestClient) -> None:
    """The SQLite database turns read-only mid-game (its storing connection refuses writes: SQLite's ``attempt to
    write a readonly database``): the person's action is refused in their language (``server.not_stored``) with
    the view before it, the other person resynced to it, nothing stored or told; writable again, the game goes on
    to its end and every action told is stored."""
    created = create_table(client, "holzwurm", ["person", "person"], quick("holzwurm"))
    table_id = created["table"]["id"]
    failures = metric(client, "dreizehn_store_failures_total")
    with connect(client, token=tokens(created)[0], lang="de") as anna, \
            connect(client, token=tokens(created)[1]) as bruno:
        peers: dict[int, Peer] = {0: anna, 1: bruno}
        version = play_to_end(peers, turns=4)
        _writer_pragma(client, "PRAGMA query_only = 1")
        refusal = refused_unstored(peers)
        assert len(stored(client, table_id).actions) == version
        assert metric(client, "dreizehn_store_failures_total") - failures == 1
        lang = "de" if _mover(peers) is anna else "en"
        assert refusal["message"] == words(lang).told(ServerError("server.not_stored", rule="S7"))
        _writer_pragma(client, "PRAGMA query_only = 0")
        play_to_end(peers, rng=random.Random(5), after=version - 1)
    assert_all_stored(stored(client, table_id).actions, told(anna, bruno))
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A small tmpfs mounted at ``path`` (the test is skipped where mounting is not allowed)."""
    path.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode(errors='replace').strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True, check=False)


def fill(path: Path) -> Path:
    """Fill the filesystem of ``path`` to the last page with a file; that file."""
    filler = path / "filler"
    with filler.open("wb", buffering=0) as f:
        for chunk in (1 << 16, 1 << 12):
            try:
                while True:
                    f.write(b"\0" * chunk)
            except OSError as err:
                assert err.errno == errno.ENOSPC
    return filler


def test_sqlite_disk_full_refuses_actions_and_the_game_goes_on_after(tmp_path: Path) -> None:
    """The disk of the SQLite database full (a small tmpfs filled up): an action is refused, nothing stored or
    told; space again, the game goes on to its end and every action told is stored."""
    with tmpfs(tmp_path / "disk", "8m") as disk:
        settings = make_settings(disk / "data")
        with TestClient(create_app(settings)) as client:
            created = create_table(client, "holzwurm", ["person", "person"], quick("holzwurm"))
            table_id = created["table"]["id"]
            with connect(client, token=tokens(created)[0]) as anna, \
                    connect(client, token=tokens(created)[1]) as bruno:
                peers: dict[int, Peer] = {0: anna, 1: bruno}
                version = play_to_end(peers, turns=4)
                filler = fill(disk)
                refused_unstored(peers)
                assert len(stored(client, table_id).actions) == version
                filler.unlink()
                play_to_end(peers, rng=random.Random(6), after=version - 1)
            assert_all_stored(stored(client, table_id).actions, told(anna, bruno))
            assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"


def test_postgres_restarted_mid_game_loses_nothing_acknowledged(processes: Callable[..., ServerProcess],
                                                                 own_postgres: Cluster, tmp_path: Path) -> None:
    """PostgreSQL stopped and started again under a real server while a person and a table of bots play: while
    it is down, ``/health`` says so and the person's action is refused (``server.not_stored``); when it is back,
    the server reconnects by itself, the person plays on, the bots' table goes on to its end, and every action a
    client was told of is stored in its place. A spectator of the person's table on a second server process is
    told of every action to the end: that process listens again too."""
    env = {"DATABASE_URL": own_postgres.url, "DREIZEHN_BOT_PAUSE": 0.05, "DREIZEHN_BOT_WORKERS": 0,
           "DREIZEHN_GRACE_PERIOD": 600, "DREIZEHN_DATA_DIR": tmp_path / "data"}
    server, other = processes(env), processes(env)
    people = server.create("knizia13", ["person", "random", "random"])
    person = server.connect(token=tokens(people)[0])
    elsewhere = other.connect(**spectator_hello(people))
    version = play_to_end({0: person}, [elsewhere], turns=2)
    bots = server.create("holzwurm", ["random", "random"], {"games": 2})
    watcher = server.connect(**spectator_hello(bots))
    watcher.until(lambda m: m["type"] == "update" and m["version"] >= 4, timeout=30)
    own_postgres.stop()
    assert server.get("/health").status_code == 503
    assert person.view is not None and person.view["current_player"] == 0
    person.act(person.view["legal_actions"][0]["index"])
    refusal = person.until(lambda m: m["type"] == "refused", timeout=30)
    assert (refusal["code"], refusal["version"]) == ("server.not_stored", version)
    own_postgres.start()
    assert poll(lambda: server.get("/health").status_code == 200, timeout=30), server.tail()
    play_to_end({0: person}, [elsewhere], rng=random.Random(7), after=version - 1)
    server.wait_finished(bots["table"]["id"], timeout=120)
    watcher.until(lambda m: m.get("view") is not None and m["view"]["is_over"], timeout=30)
    assert elsewhere.view is not None and person.view is not None and elsewhere.view["is_over"]
    assert elsewhere.view["version"] == person.view["version"]
    for created, peer in ((people, person), (people, elsewhere), (bots, watcher)):
        record = server.get(f"/api/tables/{created['table']['id']}/record").json()
        assert_all_stored([tuple(a) for a in record["actions"]], told(peer))


def test_rooms_catch_up_when_the_listening_connection_is_back(client: TestClient) -> None:
    """Actions stored while PostgreSQL's ``LISTEN`` connection was broken were never announced to this process:
    when it listens again, every room catches up with what is stored, and its connections are told."""
    created = create_table(client, "holzwurm", ["person", "person"], quick("holzwurm"))
    table_id = created["table"]["id"]
    with connect(client, **spectator_hello(created)) as watcher:
        watcher.until(lambda m: m["type"] == "presence")  # its own coming: the players are told that someone watches
        table = build_table(stored(client, table_id))
        seat = table.current_player
        action = table.game.action_to_text(table.view(seat).legal_actions[0])
        append(hub(client).store, table_id, 0, seat, action, "person")  # stored elsewhere, its notice missed
        assert watcher.drain() == []
        portal = client.portal
        assert portal is not None
        portal.call(hub(client).peers.heard_again)
        update = watcher.until(lambda m: m["type"] == "update")
        assert (update["version"], update["seat"], update["action"]) == (1, seat, action)


def _reading_nothing(port: int) -> NetPeer:
    """A websocket whose socket takes in little (a small receive buffer), to a server on ``port``."""
    from websockets.sync.client import connect as ws_connect

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    peer = NetPeer.__new__(NetPeer)
    Peer.__init__(peer)
    peer.connection = ws_connect(f"ws://127.0.0.1:{port}/ws", sock=sock, open_timeout=10, close_timeout=1,
                                 legacy=True)
    return peer


def test_a_client_that_does_not_read_is_dropped_and_the_others_play_on(
        processes: Callable[..., ServerProcess], tmp_path: Path) -> None:
    """A spectator asks for thousands of whole views (a language each time) and reads none: its queue reaches its
    bound, it is dropped (the server counts it, and holds only the two players' connections), and the two people
    play their game to its end meanwhile, told of every action. When it reads at last, it finds fewer answers than
    it asked for, and the connection closed."""
    server = processes({"DREIZEHN_DATA_DIR": tmp_path / "data", "DREIZEHN_BOT_WORKERS": 0,
                        "DREIZEHN_RATE_PER_SECOND": 100000, "DREIZEHN_RATE_BURST": 100000})
    created = server.create("holzwurm", ["person", "person"], quick("holzwurm"))
    anna, bruno = (server.connect(token=tokens(created)[seat]) for seat in (0, 1))
    slow = _reading_nothing(server.port)
    slow.send({"type": "hello", "protocol": 1, **spectator_hello(created)})
    asked = 0
    with contextlib.suppress(ConnectionClosed):  # it may be dropped before it has asked for them all
        while asked < 4000:
            slow.send({"type": "lang", "lang": ("de", "nl")[asked % 2]})
            asked += 1

    def scraped(name: str) -> float:
        from prometheus_client.parser import text_string_to_metric_families

        for family in text_string_to_metric_families(server.get("/metrics").text):
            for sample in family.samples:
                if sample.name == name:
                    return float(sample.value)
        return 0.0

    assert poll(lambda: scraped("dreizehn_connections_dropped_total") == 1, timeout=30), server.tail()
    assert poll(lambda: scraped("dreizehn_connections") == 2)
    play_to_end({0: anna, 1: bruno}, rng=random.Random(8))
    record = server.get(f"/api/tables/{created['table']['id']}/record").json()
    assert_all_stored([tuple(a) for a in record["actions"]], told(anna, bruno))
    assert len(told(anna)) == len(record["actions"]) == len(told(bruno))
    answers = 0
    with pytest.raises(ConnectionClosed):
        while True:
            slow.connection.recv(timeout=30)
            answers += 1
    assert answers < asked
