"""The outside client (issue 43): a black-box client of real ``dreizehn serve`` processes, written from
docs/server.md alone. It talks to the server only over the network (HTTP and the websocket, on 127.0.0.1); of the
package it uses the rules API alone (``dreizehn.load_game(...).parse_card``), to know which strings are cards.

Run with ``python benchmarks/outside_client.py [--backend sqlite|postgresql|both] [--games 6] [--rounds 3]
[--seed 1] [--database URL]``. For each backend it starts its own server (SQLite in a temporary folder;
PostgreSQL in a throwaway cluster of ``/usr/lib/postgresql/*/bin``, or the database of ``--database``) and prints
one table of figures:

1. **Leaks**: ``--games`` whole games (every game, 2 to 4 seats, people and bots mixed) played to the end by random
   players on every person's seat, a spectator watching each; every message received is checked against the
   finished game's replay: a message to a receiver names no card it could not see at that version (its own views
   up to then, and every card shown publicly), and each update's events are the replay's, filtered for it.
2. **Bad input**: malformed websocket messages and HTTP requests, each of which must be refused in the documented
   shape (``refused``, the connection left open; ``{"detail": {"code", "rule", "params", "message"}}``), never a
   5xx; and paths with NUL and dots.
3. **kill -9**: ``--rounds`` rounds of tables played by the client's players, one more table made with a bot to move
   first just before the server is killed (its process alone: its workers must end with it), the server started
   again at the same address; every action acknowledged (an ``update`` of the client's own action) must be in the
   table's log, every table must move on (the bot-first one too), and no worker of the killed server be left.
4. **A costly bot**: a table asked for with the bots of :data:`COSTLY` (``ismcts:time=600``,
   ``ismcts:iterations=1000000000``, …): the status and code answered; if it was accepted, how long its first move
   took and how busy the workers stay after it.

Not a test: it prints what it finds (tests/server/test_outside_client.py runs it at its smallest size). Every wait
has a timeout and every loop a bound.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import pwd
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

import dreizehn
from dreizehn.core.errors import DreizehnError

HOST = "127.0.0.1"
NAMES = ("Anna", "Bruno", "Clara", "Dora", "Emil", "Frida", "Gustav", "Hedwig")
"""People's names (none reads as a card of any game)."""
GAMES = ("holzwurm", "three-thirteen", "knizia13")
"""The games, the shortest first (the leaks' first game)."""
SHORT = {"knizia13": {}, "three-thirteen": {"turn_limit": 8}, "holzwurm": {"games": 1}}
"""Options for a short whole game (docs/server.md: `GET /api/games` lists them)."""
WORKER_MARKS = ("dreizehn.server.workers import work", "spawn_main")
"""What a worker process's command line holds."""
REFUSAL_FIELDS = ("code", "rule", "params", "message")


# -- the server --------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Server:
    """``dreizehn serve`` on 127.0.0.1 in a session of its own (so its leftovers can be found and ended)."""

    def __init__(self, workdir: Path, env: dict[str, str], port: int | None = None) -> None:
        self.workdir, self.port = workdir, port or free_port()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("DREIZEHN_") and k != "DATABASE_URL"}
        self.env.update(env)
        self.process: subprocess.Popen[bytes] | None = None
        self.pids: list[int] = []
        """Every server process started, so that the end can clear what any left."""

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{HOST}:{self.port}/ws"

    def start(self, timeout: float = 90.0) -> float:
        """Start it and wait until its API answers; the seconds that took."""
        script = Path(sys.executable).parent / "dreizehn"
        command = [str(script)] if script.exists() else [sys.executable, "-m", "dreizehn.cli.main"]
        self.workdir.mkdir(parents=True, exist_ok=True)
        began = time.monotonic()
        with (self.workdir / "server.log").open("ab") as log:
            self.process = subprocess.Popen([*command, "serve", "--host", HOST, "--port", str(self.port), "-q"],
                                            env=self.env, cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        self.pids.append(self.process.pid)
        while time.monotonic() - began < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): see {self.workdir}/server.log")
            with contextlib.suppress(httpx2.TransportError):
                if httpx2.get(f"{self.url}/api/server", timeout=2.0).status_code == 200:
                    return time.monotonic() - began
            time.sleep(0.1)
        raise RuntimeError(f"the server did not answer in {timeout} s")

    def kill9(self) -> int:
        """SIGKILL the server's process alone (not its group): its workers must end by themselves. Its pid."""
        assert self.process is not None
        pid = self.process.pid
        os.kill(pid, signal.SIGKILL)
        self.process.wait(20)
        self.process = None
        return pid

    def stop(self) -> None:
        """End everything this client started: each server's process group (workers a killed one left)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(20)
            self.process = None
        for pid in self.pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)


def session_processes(sid: int) -> list[tuple[int, str, float]]:
    """The live processes of session ``sid`` that are workers (:data:`WORKER_MARKS`): pid, command line, CPU
    seconds used."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == sid and any(mark in cmdline for mark in WORKER_MARKS):
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            found.append((int(entry.name), cmdline, cpu))
    return found


@dataclass
class Cluster:
    """A throwaway PostgreSQL cluster (initdb in a temporary folder, 127.0.0.1 on a free port)."""

    root: Path
    port: int
    pg_ctl: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://postgres@{HOST}:{self.port}/dreizehn"


@contextlib.contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    """Start a throwaway cluster (as the user ``postgres`` when run as root, as tests/server/conftest.py does) with a
    database ``dreizehn``; stop and remove it at the end."""
    bindirs = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda d: int(d.parent.name)
                     if d.parent.name.isdigit() else 0, reverse=True)
    bindir = next((d for d in bindirs if (d / "initdb").exists()), None)
    if bindir is None:
        raise RuntimeError("PostgreSQL (initdb, pg_ctl) is not installed")
    root = Path(tempfile.mkdtemp(prefix="outside-pg-"))
    owner: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        owner = ["runuser", "-u", "postgres", "--"]
    cluster = Cluster(root, free_port(), [*owner, str(bindir / "pg_ctl"), "-D", str(root / "data")])
    try:
        subprocess.run([*owner, str(bindir / "initdb"), "-D", str(root / "data"), "-U", "postgres", "--auth=trust",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True, timeout=120)
        subprocess.run([*cluster.pg_ctl, "-l", str(root / "log"), "-w", "-t", "60", "-o",
                        f"-p {cluster.port} -k {root} -c listen_addresses={HOST} -c fsync=off "
                        "-c synchronous_commit=off -c max_connections=200", "start"],
                       check=True, capture_output=True, timeout=90)
        for database in ("dreizehn", "killed"):
            subprocess.run([*owner, str(bindir / "createdb"), "-h", HOST, "-p", str(cluster.port), "-U",
                            "postgres", database], check=True, capture_output=True, timeout=60)
        yield cluster
    finally:
        subprocess.run([*cluster.pg_ctl, "-m", "immediate", "-w", "stop"], capture_output=True, check=False,
                       timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def server_env(data_dir: Path, database: str | None, **extra: str) -> dict[str, str]:
    """The settings of a server of this client: no bot pause, no wait for a stage's scoring to be read, a rate
    limit that the battery of bad input does not reach (its refusals would hide the ones looked for)."""
    env = {"DREIZEHN_DATA_DIR": str(data_dir), "DREIZEHN_BOT_PAUSE": "0", "DREIZEHN_STAGE_HOLD": "0",
           "DREIZEHN_RATE_PER_SECOND": "1000", "DREIZEHN_RATE_BURST": "1000", "DREIZEHN_HINT_SECONDS": "0.05",
           "DREIZEHN_GRACE_PERIOD": "3600", "DREIZEHN_BOT_WORKERS": "2"}
    if database:
        env["DATABASE_URL"] = database
    env.update(extra)
    return env


# -- a websocket of the client -----------------------------------------------------------------------------------


class Peer:
    """A websocket: every message received kept, with the table's version it was received at."""

    def __init__(self, ws: ClientConnection, receiver: int | None) -> None:
        self.ws, self.receiver = ws, receiver
        self.received: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.version = 0
        self.closed: int | None = None
        self.refusal: str | None = None
        """The code of the latest refusal the bad input's battery read."""

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def recv(self, timeout: float) -> dict[str, Any] | None:
        """The next message (``None`` after ``timeout`` seconds, or once closed: ``closed`` holds the code)."""
        if self.closed is not None:
            return None
        try:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
        except TimeoutError:
            return None
        except ConnectionClosed as err:
            self.closed = err.rcvd.code if err.rcvd else 1006
            return None
        message: dict[str, Any] = json.loads(text)
        self.received.append(message)
        if message.get("view") is not None:
            self.view = message["view"]
            self.version = self.view["version"]
        elif isinstance(message.get("version"), int) and message["type"] != "hint":
            self.version = message["version"]
        return message

    async def until(self, kinds: set[str], timeout: float) -> dict[str, Any] | None:
        """The first message of one of ``kinds`` within ``timeout`` seconds, or ``None``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = await self.recv(left)
            if message is None:
                return None
            if message["type"] in kinds:
                return message
        return None

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), 3)


async def open_peer(server: Server, hello: dict[str, Any], receiver: int | None, timeout: float = 60.0) -> Peer:
    """A websocket with its hello answered by a welcome; connecting again while the server is away or closes it
    with 1012 (the table's home moved: connect again), for ``timeout`` seconds at most."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            ws = await connect(server.ws_url, open_timeout=10, close_timeout=2, max_size=2 ** 24)
        except (OSError, InvalidStatus, WebSocketException, TimeoutError) as err:
            last = err
            await asyncio.sleep(0.2)
            continue
        peer = Peer(ws, receiver)
        await peer.send({"type": "hello", "protocol": 1, **hello})
        welcome = await peer.until({"welcome", "refused"}, 30)
        if welcome is not None and welcome["type"] == "welcome":
            return peer
        last = welcome or f"closed {peer.closed}"
        await peer.close()
        await asyncio.sleep(0.2)
    raise RuntimeError(f"no welcome in {timeout} s: {last}")


def my_turn(peer: Peer) -> bool:
    view = peer.view
    return (view is not None and not view["is_over"] and view["current_player"] == peer.receiver
            and bool(view["legal_actions"]))


@dataclass
class Acks:
    """The actions acknowledged to the client: (table, version) -> (seat, action)."""

    done: dict[tuple[str, int], tuple[int, str]] = field(default_factory=dict)


async def play(peer: Peer, rng: random.Random, table: str, until: float, acks: Acks | None = None,
               mischief: float = 0.0) -> None:
    """Play random legal actions for the peer's seat until the game is over, the connection closes, or the
    monotonic time ``until``; now and then (``mischief``) a stale action or a hint asked first."""
    with contextlib.suppress(ConnectionClosed):  # the server went (a kill round): the peer reads its close
        await _play(peer, rng, table, until, acks, mischief)


async def _play(peer: Peer, rng: random.Random, table: str, until: float, acks: Acks | None,
                mischief: float) -> None:
    acted_at: int | None = None
    steps = 0
    while time.monotonic() < until and steps < 100_000 and peer.closed is None:
        steps += 1
        view = peer.view
        if view is not None and view["is_over"]:
            return
        if my_turn(peer) and acted_at != peer.version:
            assert view is not None
            if rng.random() < mischief and view["version"] > 0:
                await peer.send({"type": "action", "version": view["version"] - 1,
                                 "action": view["legal_actions"][0]["index"]})
            if rng.random() < mischief:
                await peer.send({"type": "hint"})
            choice = rng.choice(view["legal_actions"])
            await peer.send({"type": "action", "version": view["version"], "action": choice["index"]})
            acted_at = view["version"]
        message = await peer.recv(min(30.0, max(0.01, until - time.monotonic())))
        if message is None:
            continue
        if message["type"] == "refused":
            acted_at = None
        elif message["type"] == "update":
            if acks is not None and message["seat"] == peer.receiver:
                acks.done[(table, message["version"])] = (message["seat"], message["action"])
            if any(e["key"] == "stage.scored" for e in message["events"]):
                await peer.send({"type": "ready", "version": message["version"]})


async def watch(peer: Peer, until: float) -> None:
    """Read everything a spectator is told until the game is over or ``until``."""
    while time.monotonic() < until and peer.closed is None:
        if peer.view is not None and peer.view["is_over"]:
            return
        await peer.recv(min(30.0, max(0.01, until - time.monotonic())))


async def drain(peer: Peer, timeout: float = 10.0) -> None:
    """Ping and read until the pong: every message sent before it is in."""
    with contextlib.suppress(ConnectionClosed):
        await peer.send({"type": "ping"})
        await peer.until({"pong"}, timeout)


# -- 1. leaks ----------------------------------------------------------------------------------------------------


STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
"""A JSON string in a document (the keys of objects too)."""


@functools.cache
def rules(game_id: str, players: int) -> Any:
    return dreizehn.load_game(game_id, players)


@functools.cache
def as_card(game_id: str, players: int, raw: str) -> str | None:
    """The card the JSON string ``raw`` (as written, without its quotes) reads as in the game, or ``None``."""
    try:
        text = json.loads(f'"{raw}"')
        return str(rules(game_id, players).parse_card(text).text) if len(text) <= 6 else None
    except (DreizehnError, ValueError):
        return None


def cards_in(game_id: str, players: int, value: Any) -> set[str]:
    """The cards a JSON value names: every string in it (a key or a value) that reads as a card of the game."""
    texts = STRING.findall(json.dumps(value, ensure_ascii=False))
    return {card for text in texts if (card := as_card(game_id, players, text)) is not None}


def table_body(game: str, seats: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """A `TableIn`: ``person`` seats named (joined at once), other entries bot levels."""
    return {"game": game, "options": options,
            "seats": [{"kind": "person", "name": NAMES[i]} if s == "person" else {"kind": "bot", "bot": s}
                      for i, s in enumerate(seats)]}


async def create(http: httpx2.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    response = await http.post("/api/tables", json=body)
    if response.status_code != 201:
        raise RuntimeError(f"POST /api/tables answered {response.status_code}: {response.text[:300]}")
    created: dict[str, Any] = response.json()
    return created


def leak_tables(rng: random.Random, count: int, players: dict[str, tuple[int, int]]) -> list[dict[str, Any]]:
    """``count`` tables in turn of every game, 2 to 4 seats, at least one person and (from three seats) one bot."""
    bodies = []
    for index in range(count):
        game = GAMES[index % len(GAMES)]
        low, high = players[game]
        n = rng.randint(max(2, low), min(4, high))
        seats = [rng.choice(["person", "person", "easy", "easy", "medium"]) for _ in range(n)]
        seats[0] = "person"
        if n >= 3 and all(s == "person" for s in seats):
            seats[-1] = "easy"
        bodies.append(table_body(game, seats, dict(SHORT[game])))
    return bodies


async def play_whole(server: Server, http: httpx2.AsyncClient, body: dict[str, Any], seed: int,
                     timeout: float) -> tuple[dict[str, Any], list[Peer], Peer]:
    """Create the table, a random player on every person's seat and a spectator (``/watch`` or the spectators'
    link), play the game to its end; the creation's answer, the seats' peers and the spectator's."""
    created = await create(http, body)
    table = created["table"]["id"]
    rng = random.Random(seed)
    hello: dict[str, Any] = ({"table": table, "watch": True} if rng.random() < 0.5 else
                             {"table": table, "spectator": created["spectator"]["token"]})
    spectator = await open_peer(server, hello, None)
    seats = [await open_peer(server, {"token": inv["token"]}, inv["seat"]) for inv in created["invitations"]]
    until = time.monotonic() + timeout
    await asyncio.gather(watch(spectator, until),
                         *(play(p, random.Random(seed * 10 + p.receiver), table, until, mischief=0.03)
                           for p in seats if p.receiver is not None))
    for peer in (*seats, spectator):
        await drain(peer)
        await peer.close()
    return created, seats, spectator


@dataclass
class Knowledge:
    """What each receiver could see at each version of a finished game (from its replay): ``allowed[r][v]``, for
    each seat and the spectators (``None``); and each step's events whole."""

    allowed: dict[int | None, list[set[str]]]
    steps: list[dict[str, Any]]


async def knowledge(http: httpx2.AsyncClient, table: str, game: str, players: int) -> Knowledge:
    """Read the replay and every version's views: a seat may know every card its views showed up to a version and
    every card an event showed everyone; a spectator what every seat could see and what events showed everyone."""
    replay = (await http.get(f"/api/tables/{table}/replay")).json()
    steps = replay["steps"]
    seen: dict[int, set[str]] = {s: set() for s in range(players)}
    public: set[str] = set()
    for event in replay["opening"]:
        public |= cards_in(game, players, event["params"])
    allowed: dict[int | None, list[set[str]]] = {r: [] for r in [*range(players), None]}
    for version in range(len(steps) + 1):
        if version:
            for event in steps[version - 1]["events"]:
                public |= cards_in(game, players, event["params"])
        views = (await http.get(f"/api/tables/{table}/replay/{version}")).json()["views"]
        for seat in range(players):
            seen[seat] |= cards_in(game, players, views[seat])
            allowed[seat].append(seen[seat] | public)
        allowed[None].append(set.intersection(*seen.values()) | public)
    return Knowledge(allowed, steps)


def check_peer(know: Knowledge, peer: Peer, game: str, players: int, found: list[str]) -> tuple[int, int, int]:
    """Every message of the peer against what it could see: (messages, leaks, updates whose events are not the
    replay's as filtered for the receiver); what was found is described in ``found``."""
    leaks = mismatches = 0
    version = 0
    last = len(know.steps)
    for message in peer.received:
        if message.get("view") is not None:
            version = message["view"]["version"]
        elif isinstance(message.get("version"), int):
            version = message["version"]
        foreign = cards_in(game, players, message) - know.allowed[peer.receiver][min(max(version, 0), last)]
        if foreign:
            leaks += 1
            found.append(f"leak: {game} receiver {peer.receiver} told {sorted(foreign)} at version {version}: "
                         f"{json.dumps(message)[:300]}")
        if message["type"] == "update" and 1 <= message["version"] <= last:
            private = str(peer.receiver)
            expected = [(e["key"], {**e["params"], **(e.get("private", {}).get(private, {})
                                                      if peer.receiver is not None else {})})
                        for e in know.steps[message["version"] - 1]["events"]]
            if [(e["key"], e["params"]) for e in message["events"]] != expected:
                mismatches += 1
                found.append(f"events: {game} receiver {peer.receiver} at version {message['version']}: "
                             f"{message['events']} against the replay's {expected}")
    return len(peer.received), leaks, mismatches


async def leaks_section(server: Server, http: httpx2.AsyncClient, games: int, seed: int,
                        found: list[str]) -> dict[str, Any]:
    """Section 1: ``games`` whole games, two at a time, each checked against its replay."""
    listed = (await http.get("/api/games")).json()
    players = {g["id"]: (g["min_players"], g["max_players"]) for g in listed}
    bodies = leak_tables(random.Random(seed), games, players)
    figures = {"games": 0, "unfinished": 0, "messages": 0, "leaks": 0, "events unlike the replay": 0}
    for start in range(0, len(bodies), 2):
        played = await asyncio.gather(*(play_whole(server, http, body, seed * 1000 + start + i, 240.0)
                                        for i, body in enumerate(bodies[start:start + 2])))
        for created, seats, spectator in played:
            table, game = created["table"]["id"], created["table"]["game"]
            n = created["table"]["players"]
            if not (spectator.view and spectator.view["is_over"]):
                figures["unfinished"] += 1
                found.append(f"unfinished: {game} table {table} ({created['table']['seats']}) stopped at version "
                             f"{spectator.version} (spectator closed: {spectator.closed}; seats at "
                             f"{[(p.receiver, p.version, p.closed) for p in seats]})")
                continue
            figures["games"] += 1
            know = await knowledge(http, table, game, n)
            for peer in (*seats, spectator):
                messages, leaks, mismatches = check_peer(know, peer, game, n, found)
                figures["messages"] += messages
                figures["leaks"] += leaks
                figures["events unlike the replay"] += mismatches
    return figures


# -- 2. bad input ------------------------------------------------------------------------------------------------


DEEP = "[" * 100_000 + "]" * 100_000
WS_BATTERY: list[tuple[str, str | bytes]] = [
    ("not JSON", "hello there"),
    ("truncated JSON", '{"type": "ping"'),
    ("a list", "[]"),
    ("a string", '"ping"'),
    ("a number", "42"),
    ("null", "null"),
    ("no type", '{"version": 0}'),
    ("unknown type", '{"type": "nope"}'),
    ("type not a string", '{"type": 7}'),
    ("version as text", '{"type": "action", "version": "0", "action": 0}'),
    ("version a float", '{"type": "action", "version": 0.0, "action": 0}'),
    ("version a boolean", '{"type": "action", "version": true, "action": 0}'),
    ("version negative", '{"type": "action", "version": -1, "action": 0}'),
    ("version beyond 64 bits", '{"type": "action", "version": 99999999999999999999999, "action": 0}'),
    ("action beyond 64 bits", '{"type": "action", "version": 0, "action": -99999999999999999999999}'),
    ("action a float 1e400", '{"type": "action", "version": 0, "action": 1e400}'),
    ("NaN", '{"type": "action", "version": NaN, "action": 0}'),
    ("Infinity", '{"type": "action", "version": 0, "action": Infinity}'),
    ("-Infinity", '{"type": "ready", "version": -Infinity}'),
    ("5000 digits", '{"type": "ready", "version": ' + "9" * 5000 + "}"),
    ("action a list", '{"type": "action", "version": 0, "action": [0]}'),
    ("action text too long", '{"type": "action", "version": 0, "action": "' + "B" * 40 + '"}'),
    ("action no card", '{"type": "action", "version": 0, "action": "Z99"}'),
    ("unknown field", '{"type": "ping", "extra": 1}'),
    ("unknown field in action", '{"type": "action", "version": 0, "action": 0, "seat": 1}'),
    ("deep nesting", '{"type": "say", "text": ' + DEEP + "}"),
    ("deep nesting alone", DEEP),
    ("binary frame", b'{"type": "ping"}'),
    ("binary frame not UTF-8", b"\xff\xfe\xfd"),
    ("oversized message", '{"type": "say", "text": "' + "x" * 9000 + '"}'),
    ("lone surrogate", '{"type": "say", "text": "\\ud800"}'),
    ("second hello", '{"type": "hello", "protocol": 1, "token": "abcdefgh"}'),
    ("language unknown", '{"type": "lang", "lang": "xx"}'),
    ("language too long", '{"type": "lang", "lang": "' + "e" * 50 + '"}'),
    ("chat of nothing", '{"type": "say"}'),
    ("chat text and phrase", '{"type": "say", "text": "hi", "phrase": "hello"}'),
    ("chat unknown phrase", '{"type": "say", "phrase": "nope"}'),
    ("chat too long", '{"type": "say", "text": "' + "y" * 201 + '"}'),
    ("ready negative", '{"type": "ready", "version": -5}'),
    ("undo with nothing to take back", '{"type": "undo", "version": 0, "extra": null}'),
]
"""Websocket messages said after a good hello: each must be refused, the connection left open."""
CHAT_BATTERY = [
    ("chat with NUL", "hi\u0000there"),
    ("chat with BEL", "ring\u0007"),
    ("chat with ESC (a terminal colour)", "\u001b[31mred\u001b[0m"),
    ("chat with DEL", "del\u007f"),
    ("chat with a C1 control (NEL)", "next\u0085line"),
    ("chat of blanks and a tab", " \t "),
]
"""Lines of chat with control characters: each must be refused (spoken a line a second, the chat's rate)."""
HELLO_BATTERY: list[tuple[str, str]] = [
    ("message before hello", '{"type": "action", "version": 0, "action": 0}'),
    ("hello of protocol 2", '{"type": "hello", "protocol": 2, "token": "abcdefgh"}'),
    ("hello without a token", '{"type": "hello", "protocol": 1}'),
    ("hello with a wrong token", '{"type": "hello", "protocol": 1, "token": "abcdefghijklmnop"}'),
    ("hello with a NUL token", '{"type": "hello", "protocol": 1, "token": "abc\\u0000defgh"}'),
    ("hello watching no table", '{"type": "hello", "protocol": 1, "table": "nothere", "watch": true}'),
    ("hello protocol as text", '{"type": "hello", "protocol": "1", "token": "abcdefgh"}'),
]
"""Messages on a new connection (the first must be a good hello): each must be refused."""


@dataclass
class Tally:
    """The bad input sent and how it was answered."""

    sent: int = 0
    clean: int = 0
    server_errors: int = 0
    other: int = 0
    notes: list[str] = field(default_factory=list)
    items: list[tuple[str, str, str | None]] = field(default_factory=list)
    """Every input sent: what, the outcome, the refusal's code (if refused)."""

    def count(self, what: str, outcome: str, code: str | None = None) -> None:
        """``outcome``: ``clean``, ``5xx: …`` or anything else (described). A refusal for the database's failure
        to store (``server.not_stored``) is no refusal of bad input: it counts as other."""
        if outcome == "clean" and code is not None and code.endswith("server.not_stored"):
            outcome = "refused only because the database could not store it (server.not_stored)"
        self.sent += 1
        self.items.append((what, outcome, code))
        if outcome == "clean":
            self.clean += 1
            return
        if outcome.startswith("5xx"):
            self.server_errors += 1
        else:
            self.other += 1
        self.notes.append(f"{what}: {outcome}")


def refusal_shape(value: Any) -> bool:
    return (isinstance(value, dict) and all(k in value for k in REFUSAL_FIELDS) and isinstance(value["code"], str)
            and isinstance(value["params"], dict) and isinstance(value["message"], str)
            and (value["rule"] is None or isinstance(value["rule"], str)))


async def answer_of(peer: Peer, timeout: float = 10.0) -> str:
    """How the server answered the message just sent: ``clean`` for a refusal in the documented shape with the
    connection still open (a ping answered), else what happened."""
    message = await peer.until({"refused", "said", "pong", "welcome", "update", "hint", "taken_back"}, timeout)
    if message is None:
        return "5xx: closed 1011" if peer.closed == 1011 else f"no refusal (closed {peer.closed})" \
            if peer.closed is not None else "no answer"
    if message["type"] != "refused":
        return f"accepted ({message['type']}: {json.dumps(message)[:120]})"
    peer.refusal = message.get("code")
    if not refusal_shape(message):
        return f"refused in another shape: {json.dumps(message)[:200]}"
    with contextlib.suppress(ConnectionClosed):
        await peer.send({"type": "ping"})
    if await peer.until({"pong"}, timeout) is None:
        return f"refused ({message['code']}) but the connection closed ({peer.closed})"
    return "clean"


async def ws_bad_input(server: Server, http: httpx2.AsyncClient, tally: Tally) -> None:
    """The websocket battery on a seat of a table (a person and a bot) and on fresh connections."""
    created = await create(http, table_body("holzwurm", ["person", "easy"], {"games": 1}))
    token = created["invitations"][0]["token"]
    peer = await open_peer(server, {"token": token}, 0)
    for what, message in WS_BATTERY:
        await peer.send(message)
        peer.refusal = None
        tally.count(what, await answer_of(peer), peer.refusal)
        if peer.closed is not None:
            peer = await open_peer(server, {"token": token}, 0)
    for index, (what, text) in enumerate(CHAT_BATTERY):
        if index >= 2:
            await asyncio.sleep(1.1)  # the chat's own rate: three lines at once, then one a second
        await peer.send({"type": "say", "text": text})
        peer.refusal = None
        tally.count(what, await answer_of(peer), peer.refusal)
    await peer.send(json.dumps({"type": "say", "text": "x" * 2_000_000}))  # beyond the frame limit: 1009
    reply = await peer.until({"refused"}, 10)
    tally.count("frame beyond 1 MiB", "clean" if peer.closed == 1009 else
                f"answered {reply and reply.get('code')}, closed {peer.closed} (the docs say 1009)")
    await peer.close()
    for what, first in HELLO_BATTERY:
        ws = await connect(server.ws_url, open_timeout=10, close_timeout=2)
        fresh = Peer(ws, None)
        await fresh.send(first)
        reply = await fresh.until({"refused", "welcome"}, 10)
        code = reply.get("code") if reply else None
        tally.count(what, "clean" if reply is not None and reply["type"] == "refused" and refusal_shape(reply)
                    else f"answered {reply and reply['type']}, closed {fresh.closed}", code)
        await fresh.close()


def http_battery(table: str, tokens: list[str]) -> list[tuple[str, str, str, bytes | None]]:
    """(what, method, path, body) of the HTTP battery: bodies, parameters and paths that must be refused."""
    def body(value: Any) -> bytes:
        return json.dumps(value).encode()

    person = {"kind": "person", "name": "Anna"}

    def seats(*more: dict[str, Any]) -> bytes:
        return body({"game": "holzwurm", "seats": [person, *more]})

    tables = "/api/tables"
    return [
        ("body not JSON", "POST", tables, b"hello"),
        ("body truncated", "POST", tables, b'{"game":'),
        ("body empty", "POST", tables, b""),
        ("body a list", "POST", tables, b"[]"),
        ("body nested deep", "POST", tables, DEEP.encode()),
        ("body nested deep in a field", "POST", tables, b'{"game": "holzwurm", "options": ' + DEEP.encode() + b"}"),
        ("body NaN", "POST", tables, b'{"game": "holzwurm", "seats": [], "clock": NaN}'),
        ("body 1e400", "POST", tables, b'{"game": "holzwurm", "seats": [], "clock": 1e400}'),
        ("body not UTF-8", "POST", tables, b'{"game": "\xff\xfe"}'),
        ("game a number", "POST", tables, body({"game": 13, "seats": [person, person]})),
        ("seats a string", "POST", tables, body({"game": "holzwurm", "seats": "two"})),
        ("unknown field", "POST", tables, body({"game": "holzwurm", "seats": [person, person], "x": 1})),
        ("clock as text", "POST", tables, body({"game": "holzwurm", "seats": [person, person], "clock": "5"})),
        ("option as text", "POST", tables, body({"game": "holzwurm", "seats": [person, person],
                                                  "options": {"games": "2"}})),
        ("option beyond 64 bits", "POST", tables,
         b'{"game": "holzwurm", "seats": [{"kind": "person"}, {"kind": "person"}], "options": {"games": '
         + b"9" * 30 + b"}}"),
        ("one seat", "POST", tables, body({"game": "holzwurm", "seats": [person]})),
        ("65 seats", "POST", tables, body({"game": "holzwurm", "seats": [{"kind": "person"}] * 65})),
        ("name with NUL", "POST", tables, seats({"kind": "person", "name": "Bru\u0000no"})),
        ("name with BEL", "POST", tables, seats({"kind": "person", "name": "Bruno\u0007"})),
        ("name with ESC", "POST", tables, seats({"kind": "person", "name": "\u001b[31mBruno"})),
        ("name with a newline", "POST", tables, seats({"kind": "person", "name": "Bru\nno"})),
        ("name too long", "POST", tables, seats({"kind": "person", "name": "B" * 41})),
        ("bot name with a control character", "POST", tables, seats({"kind": "bot", "name": "Ro\u0008bo"})),
        ("person naming a bot", "POST", tables, seats({"kind": "person", "bot": "easy"})),
        ("unknown bot", "POST", tables, seats({"kind": "bot", "bot": "nobody"})),
        ("bot spec too long", "POST", tables, seats({"kind": "bot", "bot": "ismcts:time=1," + "x" * 60})),
        ("bot spec time=-1", "POST", tables, seats({"kind": "bot", "bot": "ismcts:time=-1"})),
        ("bot spec time=nan", "POST", tables, seats({"kind": "bot", "bot": "ismcts:time=nan"})),
        ("bot spec time=inf", "POST", tables, seats({"kind": "bot", "bot": "ismcts:time=inf"})),
        ("bot spec time=600", "POST", tables, seats({"kind": "bot", "bot": "ismcts:time=600"})),
        ("bot spec iterations=1e9", "POST", tables, seats({"kind": "bot", "bot": "ismcts:iterations=1000000000"})),
        ("join: token a number", "POST", "/api/seats/join", body({"token": 12345678, "name": "Anna"})),
        ("join: name with NUL", "POST", "/api/seats/join", body({"token": tokens[1], "name": "A\u0000b"})),
        ("join: name with ESC", "POST", "/api/seats/join", body({"token": tokens[2], "name": "\u001b]0;x\u0007"})),
        ("join: name of blanks", "POST", "/api/seats/join", body({"token": tokens[3], "name": "   "})),
        ("free seat: name with BEL", "POST", f"/api/tables/{table}/seats/4", body({"name": "Cla\u0007ra"})),
        ("rematch: token of nothing", "POST", f"/api/tables/{table}/rematch", body({"token": "abcdefghijkl"})),
        ("analysis: seat beyond 64 bits", "POST", f"/api/tables/{table}/analysis",
         b'{"seat": 99999999999999999999999}'),
        ("status unknown", "GET", "/api/tables?status=bogus", None),
        ("limit 0", "GET", "/api/tables?limit=0", None),
        ("limit a float", "GET", "/api/tables?limit=1e3", None),
        ("limit beyond 64 bits", "GET", "/api/tables?limit=99999999999999999999999", None),
        ("lang unknown", "GET", "/api/games?lang=xx", None),
        ("lang too long", "GET", "/api/games?lang=" + "e" * 50, None),
        ("lang with NUL", "GET", "/api/games?lang=e%00n", None),
        ("table id with NUL", "GET", "/api/tables/abc%00def", None),
        ("table of nobody", "GET", "/api/tables/nothere", None),
        ("replay of an unfinished game", "GET", f"/api/tables/{table}/replay", None),
        ("replay version beyond 64 bits", "GET", f"/api/tables/{table}/replay/99999999999999999999999", None),
        ("words of no language", "GET", "/api/words/xx", None),
        ("words with NUL", "GET", "/api/words/%00", None),
        ("learn of no game", "GET", "/api/learn/nothing", None),
    ]


PATHS = ["/api/tables/..%2F..%2Fetc",
         "/static/app.js%00.png", "/static/%00", "/static/..%2f..%2fetc%2fpasswd", "/static/%2e%2e/%2e%2e/etc/passwd",
         "/play/%00", "/watch/%00/%00", "/learn/%00/%00", "/%00", "/static/app.js%00"]
"""Paths with NUL and dots: each may be refused or served the page, never a 5xx nor a file outside the static
folder."""


async def asked(http: httpx2.AsyncClient, method: str, path: str, content: bytes | None) -> httpx2.Response:
    """A request, asked once more on a new connection if the kept-alive one was closed under it."""
    headers = {"content-type": "application/json"} if content is not None else None
    try:
        return await http.request(method, path, content=content, headers=headers)
    except httpx2.TransportError:
        return await http.request(method, path, content=content, headers=headers)


async def http_bad_input(http: httpx2.AsyncClient, tally: Tally) -> None:
    body = table_body("holzwurm", ["person", "easy"], {"games": 1})
    body["seats"] = [body["seats"][0], *[{"kind": "person"}] * 4]  # free seats, to join under bad names
    created = await create(http, body)
    table, tokens = created["table"]["id"], [inv["token"] for inv in created["invitations"]]
    for what, method, path, content in http_battery(table, tokens):
        try:
            response = await asked(http, method, path, content)
        except httpx2.TransportError as err:
            tally.count(what, f"no answer ({type(err).__name__})")
            continue
        detail = response.json().get("detail") if response.headers.get("content-type", "").startswith(
            "application/json") else None
        if response.status_code >= 500:
            tally.count(what, f"5xx: {response.status_code} {response.text[:120]}")
        elif response.status_code < 400:
            tally.count(what, f"accepted: {response.status_code} {response.text[:120]}")
        else:
            tally.count(what, "clean" if refusal_shape(detail) else
                        f"refused in another shape: {response.status_code} {response.text[:160]}",
                        f"{response.status_code} {detail['code']}" if detail and refusal_shape(detail) else None)
    for path in PATHS:
        try:
            response = await asked(http, "GET", path, None)
        except httpx2.TransportError as err:
            tally.count(f"path {path}", f"no answer ({type(err).__name__}): the connection dropped")
            continue
        leaked = "root:" in response.text or "import " in response.text
        tally.count(f"path {path}", f"5xx: {response.status_code}" if response.status_code >= 500 else
                    "a file outside the static folder served" if leaked else "clean")


# -- 3. kill -9 --------------------------------------------------------------------------------------------------


@dataclass
class Played:
    """A table of the kill rounds: its creation's answer, the highest version the client saw, whether it is over."""

    created: dict[str, Any]
    version: int = 0
    over: bool = False

    @property
    def id(self) -> str:
        return str(self.created["table"]["id"])


@dataclass
class KillFigures:
    rounds: int = 0
    acknowledged: int = 0
    lost: int = 0
    stuck: set[str] = field(default_factory=set)
    workers_at_kill: int = 0
    bot_first_pending: int = 0
    bot_first_started: int = 0
    workers_left: int = 0
    longest_back: float = 0.0


KILL_TABLES = [("holzwurm", ["person", "easy"]), ("knizia13", ["person", "person", "easy"]),
               ("three-thirteen", ["person", "easy", "person"])]
"""The tables the kill rounds play (one made again when its game ends)."""


PATIENCE = 30.0
"""Seconds a table has, beyond the play asked for, to move on before it is counted stuck (``--patience``)."""


async def moves_on(tables: list[Played], peers: dict[str, Peer], seconds: float) -> set[str]:
    """Let the players play for ``seconds`` at least, and until every table not over has moved on (at most
    :data:`PATIENCE` seconds more); the tables that moved (or ended)."""
    began = {t.id: t.version for t in tables}
    start = time.monotonic()
    moved: set[str] = set()
    while time.monotonic() - start < seconds + PATIENCE:
        for table in tables:
            mine = [p for key, p in peers.items() if key.startswith(f"{table.id}/")]
            table.version = max([table.version, *(p.version for p in mine)])
            table.over = table.over or any(p.view is not None and p.view["is_over"] for p in mine)
            if table.over or table.version > began[table.id]:
                moved.add(table.id)
        if time.monotonic() - start >= seconds and len(moved) == len(tables):
            break
        await asyncio.sleep(0.2)
    return moved


async def workers_left(pid: int, found: list[str], timeout: float = 10.0) -> int:
    """The worker processes of the killed server ``pid`` still alive ``timeout`` seconds after it died (ended
    then, by this client that started them)."""
    deadline = time.monotonic() + timeout
    left = session_processes(pid)
    while left and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        left = session_processes(pid)
    for worker, cmdline, _ in left:
        found.append(f"worker left: pid {worker} of the killed server {pid}: {cmdline[:100]}")
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    return len(left)


async def check_log(server: Server, table: Played, acks: Acks, figures: KillFigures, found: list[str]) -> None:
    """Watch the table after the restart: every action acknowledged must be in its view's history."""
    peer = await open_peer(server, {"table": table.id, "spectator": table.created["spectator"]["token"]}, None)
    assert peer.view is not None
    history = peer.view["history"]
    table.version, table.over = peer.view["version"], peer.view["is_over"]
    for (table_id, version), (seat, action) in sorted(acks.done.items()):
        if table_id != table.id:
            continue
        if version > len(history) or history[version - 1] != {"seat": seat, "action": action}:
            figures.lost += 1
            found.append(f"lost: table {table.id} version {version} ({seat}: {action}); the log holds "
                         f"{history[version - 1] if version <= len(history) else 'nothing there'}")
    await peer.close()


async def check_bot_first(server: Server, table: Played, figures: KillFigures, found: list[str]) -> None:
    """The table whose first move was a bot's, pending at the kill: it must start after the restart."""
    peer = await open_peer(server, {"table": table.id, "spectator": table.created["spectator"]["token"]}, None)
    deadline = time.monotonic() + PATIENCE
    while peer.version == 0 and time.monotonic() < deadline and peer.closed is None:
        await peer.recv(deadline - time.monotonic())
    table.version = peer.version
    if peer.version > 0:
        figures.bot_first_started += 1
    else:
        figures.stuck.add(table.id)
        found.append(f"stuck: table {table.id}, its bot to move first, still at version 0 {PATIENCE:g} s after "
                     "the restart")
    await peer.close()


async def kill_round(server: Server, http: httpx2.AsyncClient, tables: list[Played], seed: int,
                     seconds: float, figures: KillFigures, found: list[str]) -> None:
    """Play; make a table whose first move is a bot's and kill the server at once (its process alone); count its
    workers left; start it again at the same address; check the actions acknowledged and the bot-first table."""
    acks = Acks()
    peers = {f"{t.id}/{inv['seat']}": await open_peer(server, {"token": inv["token"]}, inv["seat"])
             for t in tables if not t.over for inv in t.created["invitations"]}
    until = time.monotonic() + seconds + 120
    tasks = [asyncio.create_task(play(p, random.Random(f"{seed}/{i}"), key.split("/")[0], until, acks))
             for i, (key, p) in enumerate(peers.items())]
    moved = await moves_on(tables, peers, seconds)
    for table in tables:
        if table.id not in moved:
            figures.stuck.add(table.id)
            found.append(f"stuck: table {table.id} ({table.created['table']['game']}) stayed at version "
                         f"{table.version}")
    first = Played(await create(http, {"game": "holzwurm", "options": {"games": 1, "starter": 0},
                                       "seats": [{"kind": "bot", "bot": "easy"},
                                                 {"kind": "person", "name": NAMES[1]}]}))
    pending = (await http.get(f"/api/tables/{first.id}")).json()["status"] == "open"
    assert server.process is not None
    figures.workers_at_kill += len(session_processes(server.process.pid))
    pid = server.kill9()
    figures.bot_first_pending += pending
    await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        task.cancel()
    for peer in peers.values():
        await peer.close()
    figures.rounds += 1
    figures.acknowledged += len(acks.done)
    figures.workers_left += await workers_left(pid, found)
    back = time.monotonic()
    await asyncio.to_thread(server.start)
    for table in tables:
        await check_log(server, table, acks, figures, found)
    figures.longest_back = max(figures.longest_back, time.monotonic() - back)
    await check_bot_first(server, first, figures, found)
    tables.append(first)


async def kill_section(server: Server, rounds: int, seed: int, seconds: float, found: list[str]) -> KillFigures:
    """Section 3: ``rounds`` rounds of play and kill -9, then a last spell of play: every table must move on."""
    figures = KillFigures()
    async with httpx2.AsyncClient(base_url=server.url, timeout=30) as http:
        tables: list[Played] = []
        made = 0
        for index in range(rounds):
            tables = [t for t in tables if not t.over]
            while len(tables) < len(KILL_TABLES):  # a table whose game ended is replaced
                game, seats = KILL_TABLES[made % len(KILL_TABLES)]
                made += 1
                tables.append(Played(await create(http, table_body(game, seats, dict(SHORT[game])))))
            await kill_round(server, http, tables, seed * 100 + index, seconds, figures, found)
        live = [t for t in tables if not t.over]
        peers = {f"{t.id}/{inv['seat']}": await open_peer(server, {"token": inv["token"]}, inv["seat"])
                 for t in live for inv in t.created["invitations"]}
        until = time.monotonic() + seconds + 120
        tasks = [asyncio.create_task(play(p, random.Random(f"{seed}/last/{i}"), key.split("/")[0], until))
                 for i, (key, p) in enumerate(peers.items())]
        moved = await moves_on(live, peers, seconds)
        for table in live:
            if table.id not in moved:
                figures.stuck.add(table.id)
                found.append(f"stuck: table {table.id} stayed at version {table.version} after the last restart")
        for peer in peers.values():
            await peer.close()
        await asyncio.wait(tasks, timeout=30)
    return figures


# -- 4. a costly bot ---------------------------------------------------------------------------------------------


COSTLY = ("ismcts:time=600", "ismcts:iterations=1000000000", "ismcts:time=600:iterations=100000")
"""Costly bots: 600 s of thought (bounded by the 800 iterations it keeps), a tree of a billion nodes (more memory
than there is), and 600 s over a hundred thousand iterations (longer than the bot's time, its tree in memory)."""


async def workers_busy(sid: int, seconds: float = 3.0) -> float:
    """The CPU the worker processes of server ``sid`` use over ``seconds``, in cores."""
    before = {pid: cpu for pid, _, cpu in session_processes(sid)}
    await asyncio.sleep(seconds)
    after = {pid: cpu for pid, _, cpu in session_processes(sid)}
    return sum(after[p] - before.get(p, 0.0) for p in after) / seconds


async def costly_section(server: Server, http: httpx2.AsyncClient) -> list[tuple[str, str]]:
    """Section 4: ask for a table with a costly bot; if it is made, time its first move and measure how busy the
    workers stay after it (a worker still thinking for a move already played burns a core)."""
    assert server.process is not None
    rows = [("workers busy before (3 s)", f"{await workers_busy(server.process.pid):.2f} cores")]
    for spec in COSTLY:
        body = {"game": "holzwurm", "options": {"games": 1, "starter": 0},
                "seats": [{"kind": "bot", "bot": spec}, {"kind": "person", "name": NAMES[1]}]}
        response = await http.post("/api/tables", json=body)
        answer = response.json()
        code = answer.get("detail", {}).get("code") if isinstance(answer.get("detail"), dict) else None
        rows.append((f"{spec}: answer", f"{response.status_code} {code or ''}".strip()))
        if response.status_code != 201:
            continue
        began = time.monotonic()
        peer = await open_peer(server, {"token": answer["invitations"][0]["token"]}, 1)
        while peer.version == 0 and time.monotonic() - began < 60 and peer.closed is None:
            await peer.recv(60 - (time.monotonic() - began))
        rows.append((f"{spec}: first move after", f"{time.monotonic() - began:.1f} s" if peer.version else
                     "none in 60 s"))
        rows.append((f"{spec}: workers busy after it (3 s)", f"{await workers_busy(server.process.pid):.2f} cores"))
        await peer.close()
    return rows


# -- the run -----------------------------------------------------------------------------------------------------


def print_table(title: str, rows: list[tuple[str, Any]]) -> None:
    width = max(len(k) for k, _ in rows)
    print(f"\n{title}\n{'-' * len(title)}")
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


async def run_backend(name: str, database: str | None, kill_database: str | None, args: argparse.Namespace,
                      work: Path) -> dict[str, Any]:
    """Every section against servers of one backend; prints its table and returns its figures."""
    found: list[str] = []
    server = Server(work / f"{name}-a", server_env(work / f"{name}-a" / "data", database))
    tally = Tally()
    try:
        await asyncio.to_thread(server.start)
        async with httpx2.AsyncClient(base_url=server.url, timeout=60) as http:
            began = time.monotonic()
            leaks = await leaks_section(server, http, args.games, args.seed, found)
            took = [("seconds: leaks", f"{time.monotonic() - began:.0f}")]
            began = time.monotonic()
            await ws_bad_input(server, http, tally)
            await http_bad_input(http, tally)
            took.append(("seconds: bad input", f"{time.monotonic() - began:.0f}"))
            began = time.monotonic()
            costly = await costly_section(server, http)
            took.append(("seconds: a costly bot", f"{time.monotonic() - began:.0f}"))
    finally:
        server.stop()
    killer = Server(work / f"{name}-k", server_env(work / f"{name}-k" / "data", kill_database,
                                                   DREIZEHN_BOT_PAUSE="0.5"))
    try:
        await asyncio.to_thread(killer.start)
        began = time.monotonic()
        kill = await kill_section(killer, args.rounds, args.seed, args.seconds, found)
        took.append(("seconds: kill -9", f"{time.monotonic() - began:.0f}"))
    finally:
        killer.stop()
    rows: list[tuple[str, Any]] = [
        ("games played to the end", leaks["games"]), ("games not finished", leaks["unfinished"]),
        ("messages checked", leaks["messages"]), ("leaks found", leaks["leaks"]),
        ("updates whose events are not the replay's", leaks["events unlike the replay"]),
        ("bad input sent", tally.sent), ("refused cleanly", tally.clean), ("5xx", tally.server_errors),
        ("other (accepted, closed, another shape)", tally.other),
        ("kill -9 rounds", kill.rounds), ("actions acknowledged", kill.acknowledged), ("lost", kill.lost),
        ("tables stuck", len(kill.stuck)), ("workers alive at the kills", kill.workers_at_kill),
        ("bot-first tables pending at the kill", kill.bot_first_pending),
        ("bot-first tables started after it", kill.bot_first_started),
        ("workers left", kill.workers_left), ("longest restart to every table back", f"{kill.longest_back:.1f} s"),
        *costly, *took]
    print_table(f"The outside client on {name} (seed {args.seed})", rows)
    notes = [*found, *tally.notes]
    if notes:
        print("\nwhat was not as the docs say:")
        for note in notes:
            print(f"  {note}")
    if args.every:
        print("\nevery bad input and its answer:")
        for what, outcome, code in tally.items:
            print(f"  {what}: {outcome}{f' ({code})' if code else ''}")
    return {"rows": dict(rows), "notes": notes, "bad input": tally.items}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="outside-") as folder:
        work = Path(folder)
        if args.backend in ("sqlite", "both"):
            results["sqlite"] = await run_backend("SQLite", None, None, args, work)
        if args.backend in ("postgresql", "both"):
            if args.database:
                results["postgresql"] = await run_backend("PostgreSQL", args.database, args.database, args, work)
            else:
                with postgres_cluster() as cluster:
                    killed = cluster.url.rsplit("/", 1)[0] + "/killed"
                    results["postgresql"] = await run_backend("PostgreSQL", cluster.url, killed, args, work)
    return results


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--games", type=int, default=6, help="whole games played and checked for leaks")
    parser.add_argument("--rounds", type=int, default=3, help="kill -9 rounds")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds of play in each kill round")
    parser.add_argument("--patience", type=float, default=PATIENCE,
                        help="seconds a table has to move on before it counts as stuck")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", help="a PostgreSQL URL to use instead of a throwaway cluster")
    parser.add_argument("--every", action="store_true", help="list every bad input sent, with its answer's code")
    parser.add_argument("--json", type=Path, help="also write the figures and notes here")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    global PATIENCE
    args = parse(argv)
    PATIENCE = args.patience
    results = asyncio.run(run(args))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
