"""Tools of the server tests (issue 13): settings, websocket clients that check every message they receive, a driver
that plays whole games over the websocket, real server processes and a throwaway PostgreSQL cluster."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
import httpx2
import jsonschema
from starlette.testclient import TestClient, WebSocketTestSession

import dreizehn
from dreizehn.core.wire import schema
from dreizehn.play.table import Seat, Table
from dreizehn.server.protocol import server_message
from dreizehn.server.rooms import Hub, build_table
from dreizehn.server.settings import Settings
from dreizehn.server.storage import (
    Append,
    Conflict,
    SeatRow,
    Store,
    Stored,
    TableRow,
    hash_token,
    new_table_id,
    new_token,
    now,
)

NAMES = ("Anna", "Bruno", "Clara", "Dora", "Emil", "Frida", "Gustav", "Hedwig")
"""People's names by seat (none of them reads as a card of any game)."""


class FakeClock:
    """A monotonic clock that moves only when the test moves it (:meth:`advance`), put in place of a server
    module's ``time`` by :func:`fake_clock`: a rate or a pause then does not depend on how busy the machine is."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    @staticmethod
    def perf_counter() -> float:  # the machine's: what a module measures with it decides nothing
        return time.perf_counter()

    def advance(self, seconds: float) -> None:
        self.now += seconds


def fake_clock(monkeypatch: Any, module: Any, clock: FakeClock | None = None) -> FakeClock:
    """Give ``module`` (one that reads only ``time.monotonic`` and ``time.perf_counter``) a :class:`FakeClock` for the
    test's length (or ``clock``, to share one among modules)."""
    clock = clock or FakeClock()
    monkeypatch.setattr(module, "time", clock)
    return clock


def eventually(check: Callable[[], Any], what: str, timeout: float = 30.0) -> None:
    """Wait until ``check()`` is true; ``timeout`` only bounds a failure (``what`` did not happen), it is no
    measure of the server's speed."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}: not in {timeout} s"
        time.sleep(0.01)


def quick(game_id: str) -> dict[str, Any]:
    """Options for a short whole game: the game's quick options, Three Thirteen's rounds cut to a few turns."""
    options = dict(dreizehn.game_class(game_id).quick_options)
    if "turn_limit" in options:
        options["turn_limit"] = 8
    return options


OPS_TOKEN = "the-operators-token-of-the-tests"
"""``DREIZEHN_OPS_TOKEN`` of the test servers: the test clients bring it (:data:`OPS_HEADERS`), so the tests read
``/metrics`` and the details of ``/health``; the tests of the operators' pages say what they bring."""
OPS_HEADERS = {"authorization": f"Bearer {OPS_TOKEN}"}


def make_settings(data_dir: Path, database_url: str | None = None, **overrides: Any) -> Settings:
    """Settings for a test: no ``.env`` file, no bot pause, bots in threads, no rate limit to speak of, no wait
    for the people to read a stage's scoring, the operators' token :data:`OPS_TOKEN`, two minutes for a hello
    to be welcomed (a busy machine took more than the default ten seconds to build a table; the test of that time
    sets its own), Argon2id at its cheapest (8 MiB, one pass: still Argon2id), and no limit per address on
    sign-ups and sign-ins (every test client comes from one address; the tests of those limits set their own)."""
    values: dict[str, Any] = {
        "data_dir": data_dir, "bot_pause": 0.0, "bot_workers": 0, "rate_per_second": 100_000.0,
        "rate_burst": 100_000, "hint_seconds": 0.05, "stage_hold": 0.0, "ops_token": OPS_TOKEN,
        "hello_timeout": 120.0, "password_memory_kib": 8192, "password_passes": 1,
        "signup_limit_address": "10000 per hour", "signin_limit_address": "10000 per hour",
    }
    values.update(overrides)
    if database_url is not None:
        values["DATABASE_URL"] = database_url
    values["_env_file"] = None
    return Settings(**values)


def free_port() -> int:
    """A TCP port of 127.0.0.1 free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- checking what the server says --------------------------------------------------------------------------------


@functools.cache
def view_validator(game_id: str) -> jsonschema.Draft202012Validator:
    """The validator of the view documents of a game (its published schema)."""
    return jsonschema.Draft202012Validator(schema(game_id))


@functools.cache
def event_validators(game_id: str) -> dict[str, jsonschema.Draft202012Validator]:
    """One validator per event key, each a branch of the game's published event schema."""
    branches = schema(game_id)["$defs"]["event"]["oneOf"]
    return {b["properties"]["key"]["const"]: jsonschema.Draft202012Validator(b) for b in branches}


@functools.cache
def documented_codes() -> frozenset[str]:
    """The refusal codes docs/server.md lists."""
    from dreizehn.server.reference import refusal_codes

    return frozenset(refusal_codes())


def check_message(message: Any, game_id: str | None, schemas: bool = True) -> None:
    """A server message must be one of the protocol's, and (``schemas``) its view and events those of its game."""
    server_message.validate_python(message)
    if message["type"] == "refused":  # every code a client may be sent is in docs/server.md (issue 27)
        assert message["code"] in documented_codes(), f"{message['code']} is not in docs/server.md's refusals"
    if not schemas:
        return
    game_id = message.get("game", game_id)
    view = message.get("view")
    if view is not None and game_id is not None:
        assert view["game_id"] == game_id
        view_validator(game_id).validate(view)
    if message["type"] == "update" and game_id is not None:
        for event in message["events"]:
            event_validators(game_id)[event["key"]].validate({"key": event["key"], "params": event["params"]})


class Closed(Exception):
    """The server closed the websocket."""

    def __init__(self, code: int) -> None:
        super().__init__(f"closed with code {code}")
        self.code = code


class Peer:
    """A websocket client: every message it receives is checked (:func:`check_message`) and kept in ``received``;
    updates must follow each other without a gap (each one version past the view before). With ``schema_every``
    set to n, only every n-th update's view and events are checked against the game's schemas (long games)."""

    schema_every = 1

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.sent: list[str] = []
        self.game: str | None = None
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None
        self.version: int | None = None

    def _send_text(self, text: str) -> None:
        raise NotImplementedError

    def _receive_text(self, timeout: float) -> str:
        raise NotImplementedError

    def send(self, message: Any) -> None:
        """Send a message: text as it is, anything else as JSON."""
        text = message if isinstance(message, str) else json.dumps(message)
        self.sent.append(text)
        self._send_text(text)

    def recv(self, timeout: float = 30.0, skip: Iterable[str] = ()) -> dict[str, Any]:
        """The next message (of a type not in ``skip``), checked and recorded."""
        skipped = set(skip)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no message in {timeout} s; the last ones: {self.received[-3:]}")
            message: dict[str, Any] = json.loads(self._receive_text(left))
            schemas = message["type"] != "update" or message["version"] % self.schema_every == 0
            check_message(message, self.game, schemas)
            self.received.append(message)
            kind = message["type"]
            if kind in ("welcome", "resync"):
                self.game, self.seat = message["game"], message["seat"]
            if kind == "update" and self.version is not None:
                assert message["version"] == self.version + 1, f"update {message['version']} after {self.version}"
            if message.get("view") is not None:
                self.view = message["view"]
                self.version = self.view["version"]
            if kind not in skipped:
                return message

    def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0) -> dict[str, Any]:
        """Read until a message satisfies ``predicate``; that message."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.001, deadline - time.monotonic()))
            if predicate(message):
                return message

    def hello(self, **fields: Any) -> dict[str, Any]:
        """Say hello (protocol 1, English unless told) and return the answer (a welcome or a refusal)."""
        self.send({"type": "hello", "protocol": 1, **fields})
        return self.recv(skip=("presence",))

    def act(self, action: int | str, version: int | None = None) -> None:
        """Send an action, by default in the version of the last view received."""
        assert self.view is not None
        self.send({"type": "action", "version": self.view["version"] if version is None else version,
                   "action": action})

    def drain(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Ping and read until the pong: every message that came before it."""
        start = len(self.received)
        self.send({"type": "ping"})
        self.until(lambda m: m["type"] == "pong", timeout)
        return self.received[start:-1]


async def _next(stream: Any, timeout: float) -> Any:
    with anyio.fail_after(timeout):
        return await stream.receive()


class TestPeer(Peer):
    """A websocket of the in-process test client."""

    __test__ = False

    def __init__(self, session: WebSocketTestSession) -> None:
        super().__init__()
        self.session = session

    def _send_text(self, text: str) -> None:
        self.session.send_text(text)

    def _receive_text(self, timeout: float) -> str:
        try:
            message = self.session.portal.call(_next, self.session._send_rx, timeout)
        except TimeoutError:
            raise AssertionError(f"no message in {timeout:.1f} s; the last ones: {self.received[-3:]}") from None
        if message["type"] == "websocket.close":
            raise Closed(message.get("code", 1000))
        text: str = message["text"]
        return text


class NetPeer(Peer):
    """A websocket to a real server process (the ``websockets`` package)."""

    def __init__(self, port: int, headers: Mapping[str, str] | None = None) -> None:
        from websockets.sync.client import connect

        super().__init__()
        self.connection = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, close_timeout=1, legacy=True,
                                  additional_headers=dict(headers or {}))

    def _send_text(self, text: str) -> None:
        self.connection.send(text)

    def _receive_text(self, timeout: float) -> str:
        from websockets.exceptions import ConnectionClosed

        try:
            data = self.connection.recv(timeout=timeout)
        except TimeoutError:
            raise AssertionError(f"no message in {timeout:.1f} s; the last ones: {self.received[-3:]}") from None
        except ConnectionClosed as err:
            raise Closed(err.rcvd.code if err.rcvd else 1006) from None
        return data if isinstance(data, str) else data.decode()

    def close(self) -> None:
        self.connection.close()


@contextlib.contextmanager
def connect(client: TestClient, **hello: Any) -> Iterator[TestPeer]:
    """A websocket of the in-process server; with ``hello`` fields, its hello said and answered by a welcome."""
    with client.websocket_connect("/ws") as session:
        peer = TestPeer(session)
        if hello:
            welcome = peer.hello(**hello)
            assert welcome["type"] == "welcome", welcome
        yield peer


# -- tables and games -----------------------------------------------------------------------------------------------


def table_body(game: str, seats: Sequence[str], options: Mapping[str, Any] | None = None,
               clock: float = 0.0) -> dict[str, Any]:
    """The body that creates a table: per seat ``"person"`` (named from :data:`NAMES`) or a bot level or spec."""
    return {
        "game": game, "options": dict(options or {}), "clock": clock,
        "seats": [{"kind": "person", "name": NAMES[i]} if who == "person" else {"kind": "bot", "bot": who}
                  for i, who in enumerate(seats)],
    }


def create_table(client: TestClient, game: str, seats: Sequence[str], options: Mapping[str, Any] | None = None,
                 clock: float = 0.0) -> dict[str, Any]:
    """Create a table through the API; its answer (the table, the invitations, the spectators' link)."""
    response = client.post("/api/tables", json=table_body(game, seats, options, clock))
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def wait_finished(client: Any, table_id: str, timeout: float = 300.0, pause: float = 0.01,
                  tail: Callable[[], str] = str) -> dict[str, Any]:
    """Poll a table (its bots play by themselves) until its game is over, through ``client`` (a test client or a
    server process, anything with ``get``); the table as the API shows it. ``tail`` adds to the failure's message.
    ``timeout`` bounds a failure only (a game of bots took over 30 s with both cores held by other work)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        if table["status"] == "finished":
            return table
        time.sleep(pause)
    raise AssertionError(f"table {table_id} did not finish in {timeout} s\n{tail()}")


def hub(client: TestClient) -> Hub:
    """The hub of the in-process server."""
    found: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return found


def stored(client: TestClient, table_id: str) -> Stored:
    """A table as the database holds it."""
    found = hub(client).store.tables.load(table_id)
    assert found is not None
    return found


def stored_table(client: TestClient, table_id: str) -> Table:
    """A table rebuilt from what the database holds (the engine's truth, to compare the messages with)."""
    return build_table(stored(client, table_id))


def store_table(store: Store, game_id: str, seats: list[Seat], seed: int = 7,
                options: dict[str, object] | None = None) -> tuple[TableRow, list[str | None]]:
    """Store a new table straight in ``store`` (a token per person's seat); its row and the tokens."""
    game = dreizehn.load_game(game_id, len(seats), options or dreizehn.game_class(game_id).quick_options)
    row = TableRow(id=new_table_id(), game_id=game.id, players=len(seats), options=dict(game.options), seed=seed,
                   package_version=dreizehn.__version__, status="open", clock=0.0, rematch_of=None, rematch=None,
                   created_at=now(), finished_at=None)
    seat_rows = [SeatRow(i, s.name, s.bot, s.bot is not None) for i, s in enumerate(seats)]
    tokens = [None if s.bot else new_token() for s in seats]
    store.tables.create(row, seat_rows, [t and hash_token(t) for t in tokens], hash_token("watch-" + row.id))
    return row, tokens


def play_until_seat_moves(peer: Peer, seat: int) -> dict[str, Any]:
    """The person of ``peer`` plays (their first legal action) whenever it is their turn, until an update of
    ``seat``'s action comes; that update."""
    assert peer.view is not None
    message: dict[str, Any] = {"type": "welcome", "view": peer.view}
    while not (message["type"] == "update" and message["seat"] == seat):
        if message["type"] in ("welcome", "update", "resync") \
                and message["view"]["current_player"] == peer.view["seat"]:
            peer.act(message["view"]["legal_actions"][0]["index"])
        message = peer.recv(timeout=15)
    return message


def tokens(created: Mapping[str, Any]) -> dict[int, str]:
    """The invitation token of each person's seat."""
    return {invitation["seat"]: invitation["token"] for invitation in created["invitations"]}


def spectator_hello(created: Mapping[str, Any]) -> dict[str, Any]:
    """The hello fields of the spectators of a created table."""
    return {"table": created["table"]["id"], "spectator": created["spectator"]["token"]}


def settle(peer: Peer, persons: set[int], after: int, timeout: float = 30.0) -> dict[str, Any]:
    """Read until the peer's view is past version ``after`` and waits for one of ``persons`` (or the game is over):
    the bots cannot move on from there. That view."""

    def ready() -> bool:
        view = peer.view
        return view is not None and view["version"] > after and (view["is_over"] or view["current_player"] in persons)

    if not ready():
        peer.until(lambda _: ready(), timeout)
    assert peer.view is not None
    return peer.view


def play_to_end(seats: Mapping[int, Peer], watchers: Sequence[Peer] = (), rng: random.Random | None = None,
                each_turn: Callable[[int, dict[str, Any]], None] | None = None, limit: int = 5000,
                turns: int | None = None, after: int = -1) -> int:
    """Play a game to its end over the websocket: the people of ``seats`` choose random legal actions, the bots
    play by themselves, and every peer (``watchers`` too) follows every update. ``each_turn(seat, view)`` is called
    before each person's action. Returns the final version; with ``turns``, stops after that many actions of
    people, where the next person is to move, and returns that version (``after``: a version the peers are past)."""
    rng = rng or random.Random(0)
    persons = set(seats)
    peers = [*seats.values(), *watchers]
    done = after
    for turn in range(limit):
        views = [settle(peer, persons, done) for peer in peers]
        version = int(views[0]["version"])
        assert all(v["version"] == version for v in views), [v["version"] for v in views]
        if views[0]["is_over"] or turn == turns:
            return version
        seat = views[0]["current_player"]
        mover = seats[seat]
        assert mover.view is not None
        if each_turn is not None:
            each_turn(seat, mover.view)
        mover.act(rng.choice(mover.view["legal_actions"])["index"], version)
        done = version
    raise AssertionError(f"the game did not end in {limit} turns of people")


# -- real server processes ----------------------------------------------------------------------------------------


def _console_script() -> list[str]:
    script = Path(sys.executable).parent / "dreizehn"
    return [str(script)] if script.exists() else [sys.executable, "-m", "dreizehn.cli.main"]


class ServerProcess:
    """``dreizehn serve`` in its own process (and process group, with its bot workers) on 127.0.0.1."""

    def __init__(self, workdir: Path, env: Mapping[str, str], port: int | None = None) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("DREIZEHN_") and k != "DATABASE_URL"}
        self.env["DREIZEHN_STAGE_HOLD"] = "0"  # test clients never close a stage's scoring: the bots go on at once
        self.env["DREIZEHN_HELLO_TIMEOUT"] = "120"  # a busy machine may welcome a hello after the default ten seconds
        self.env["DREIZEHN_OPS_TOKEN"] = OPS_TOKEN  # :meth:`get` brings it
        self.env.update({k: str(v) for k, v in env.items()})
        self.log = workdir / f"server-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.peers: list[NetPeer] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Start the server and wait until its API answers."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*_console_script(), "serve", "--host", "127.0.0.1", "--port", str(self.port), "-q"],
                env=self.env, cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited ({self.process.returncode}):\n{self.tail()}")
            try:
                if httpx2.get(f"{self.url}/api/games", timeout=1.0).status_code == 200:
                    return self
            except httpx2.TransportError:
                pass
            time.sleep(0.05)
        self.kill()
        raise AssertionError(f"the server did not answer in {timeout} s:\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL the server and its bot workers (its process group), and wait for it; close its clients."""
        for peer in self.peers:
            peer.close()
        process = self.process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):  # the group: its bot workers too, even if it died itself
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
        self.process = None

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def get(self, path: str) -> httpx2.Response:
        return httpx2.get(f"{self.url}{path}", headers=OPS_HEADERS, timeout=10.0)

    def post(self, path: str, body: Any) -> httpx2.Response:
        return httpx2.post(f"{self.url}{path}", json=body, timeout=10.0)

    def create(self, game: str, seats: Sequence[str], options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        response = self.post("/api/tables", table_body(game, seats, options))
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created

    def connect(self, **hello: Any) -> NetPeer:
        """A websocket to this server, its hello said and answered by a welcome."""
        peer = NetPeer(self.port)
        self.peers.append(peer)
        welcome = peer.hello(**hello)
        assert welcome["type"] == "welcome", welcome
        return peer

    def reconnect(self, timeout: float = 15.0, **hello: Any) -> NetPeer:
        """A websocket to this server, its hello answered by a welcome, tried again while it is closed with 1012
        (the table's home moved or went silent: connect again), as the browser does after a lost connection."""
        deadline = time.monotonic() + timeout
        while True:
            peer = NetPeer(self.port)
            try:
                welcome = peer.hello(**hello)
            except Closed as err:
                if err.code != 1012 or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
                continue
            assert welcome["type"] == "welcome", welcome
            self.peers.append(peer)
            return peer

    def metric(self, name: str) -> float:
        """The value of one of this server's metrics (``/metrics``, its exact name with its labels), 0 if absent."""
        for line in self.get("/metrics").text.splitlines():
            if line.startswith(name + " "):
                return float(line.split()[-1])
        return 0.0

    def wait_finished(self, table_id: str, timeout: float = 300.0) -> dict[str, Any]:
        """Poll the table until its game is over; the table."""
        return wait_finished(self, table_id, timeout, pause=0.05, tail=self.tail)


def append(store: Store, table_id: str, seq: int, seat: int, action: str, by: str, *, finished: bool = False) -> None:
    """Store action ``seq`` of a table as the server does (one row of a group); raises :class:`Conflict` if that
    number is taken."""
    if not store.actions.append_many([Append(table_id, seq, seat, action, by, finished)])[0]:
        raise Conflict(f"action {seq} of table {table_id} is taken")
