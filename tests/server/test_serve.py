"""The websocket layer of a real ``dreizehn serve`` process (uvicorn's, which the in-process test client does not
use): the Origin check (issue 13 item 9), the message size limits, keep-alive pings, and a refused message that
changes nothing while the table plays on."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from .kit import Closed, NetPeer, ServerProcess, play_to_end, tokens


@pytest.fixture
def server(processes: Callable[..., ServerProcess], tmp_path: Path) -> ServerProcess:
    return processes({"DREIZEHN_DATA_DIR": tmp_path / "data", "DREIZEHN_BOT_WORKERS": 0,
                      "DREIZEHN_MAX_MESSAGE_BYTES": 1000, "DREIZEHN_MAX_FRAME_BYTES": 20_000,
                      "DREIZEHN_PING_INTERVAL": 0.2,
                      "DREIZEHN_GRACE_PERIOD": 600})


def test_a_foreign_origin_is_turned_away(server: ServerProcess) -> None:
    """S9: a page of another site may not open the websocket; the server's own page may."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    from websockets.typing import Origin

    url = f"ws://127.0.0.1:{server.port}/ws"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=Origin("http://evil.example"), open_timeout=10, legacy=True)
    assert refused.value.response.status_code == 403
    with connect(url, origin=Origin(f"http://127.0.0.1:{server.port}"), open_timeout=10, legacy=True) as own:
        own.send('{"type": "ping"}')
        assert '"code":"server.hello_first"' in str(own.recv(timeout=10))  # let in: answered by the protocol


def test_sizes_and_refusals_over_a_real_socket(server: ServerProcess) -> None:
    """S3: a message above the limit is refused by name and changes nothing, up to the frame limit (issue 27: a
    frame of more than 4 times the message limit was closed with 1009); a frame above the frame limit closes that
    connection (1009, too big) and nothing else; the table plays on."""
    created = server.create("holzwurm", ["person", "person"])
    anna = server.connect(token=tokens(created)[0])
    ben = server.connect(token=tokens(created)[1])
    assert anna.view is not None
    version = anna.view["version"]

    anna.send('{"type": "ping", "pad": "' + "x" * 2000 + '"}')  # 2 kB: above the 1000 bytes allowed
    refused = anna.recv(skip=("presence",))
    assert (refused["type"], refused["code"], refused["rule"]) == ("refused", "server.too_large", "S3")
    assert "1000" in refused["message"]
    anna.send('{"type": "ping", "pad": "' + "x" * 15_000 + '"}')  # 15 kB: above 4 × the limit, under the frame's
    assert anna.recv(skip=("presence",))["code"] == "server.too_large"

    intruder = NetPeer(server.port)
    intruder.hello(token=tokens(created)[1])
    intruder.send("x" * 100_000)  # far above the frame limit (20 kB here)
    with pytest.raises(Closed) as closed:
        intruder.recv(timeout=10, skip=("presence",))
    assert closed.value.code == 1009

    for peer in (anna, ben):
        assert all(m["type"] == "presence" for m in peer.drain())
        assert peer.view is not None and peer.view["version"] == version
    play_to_end({0: anna, 1: ben}, turns=4)


def test_the_server_pings_an_idle_connection(server: ServerProcess) -> None:
    """Keep-alive: the server pings a connection that says nothing, every ping interval (0.2 s here)."""
    from websockets.client import ClientProtocol
    from websockets.frames import Frame, Opcode
    from websockets.uri import parse_uri

    client = ClientProtocol(parse_uri(f"ws://127.0.0.1:{server.port}/ws"))
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        client.send_request(client.connect())
        for data in client.data_to_send():
            sock.sendall(data)
        pings = 0
        deadline = time.monotonic() + 60  # bounds a failure only: three pings come, however busy the machine
        while pings < 3:
            assert time.monotonic() < deadline, f"{pings} pings of an idle connection in 60 s"
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            with contextlib.suppress(TimeoutError):
                data = sock.recv(65536)
                assert data, "the server closed the idle connection"
                client.receive_data(data)
            pings += sum(1 for e in client.events_received() if isinstance(e, Frame) and e.opcode is Opcode.PING)
            for answer in client.data_to_send():  # the pongs
                sock.sendall(answer)
        assert client.handshake_exc is None
