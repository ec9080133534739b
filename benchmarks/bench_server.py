"""Load on the game server: many tables played at once through the websocket API, on loopback.

Run with ``make bench-server`` (or ``python benchmarks/bench_server.py [--tables N] [--seconds S] [--rate R]
[--flat-out]``). It starts ``dreizehn serve`` as a subprocess (a fresh SQLite database in a temporary data
directory unless ``--database`` names another), creates the tables over HTTP with a person in every seat, opens one
websocket per seat and lets every seat play random legal actions:

- paced (the default): each table makes ``players * rate`` actions a second; the seat to move sends its action
  ``1 / (players * rate)`` seconds (on average: a factor from 1 ± ``--jitter``, 0.5 unless told) after its table's
  previous action was sent (at once when that time is past), so with ``--rate 1`` each seat acts about once a second
  and 200 tables of 4 make 800 actions a second. With ``--jitter 0`` every delay is the same, which no table of
  people does: the tables that any pause holds up then act in step ever after, each pause adds to them, and the
  server gets the actions in bursts that grow through the run (in 30 s at 800 a second, the busiest 20 ms went
  from 24 actions to 50-63, with 20 ms spans of none between);
- ``--flat-out``: the seat to move acts as soon as it sees its turn; the actions a second are the most the server
  (or the client) sustains with that many tables.

The latency of an action is the time from sending it to receiving the ``update`` of that version on the same
websocket. A table whose game ends gets a fresh table (created over HTTP, its seats reconnected). The server's CPU
(share of one core) and resident memory are read from ``/proc`` over the measured window, and so is each client
process's CPU: a client near 100 % measures itself, not the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

TICKS = os.sysconf("SC_CLK_TCK")
CONNECT_AT_ONCE = 32
"""Websockets opened (and tables created) at the same time while setting up."""


# -- the server -------------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, data_dir: Path, database: str | None, bot_workers: int) -> subprocess.Popen[bytes]:
    """``dreizehn serve`` on 127.0.0.1:``port``, its output in ``data_dir/server.log``."""
    data_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)
    env.update(
        DREIZEHN_DATA_DIR=str(data_dir), DREIZEHN_RATE_PER_SECOND="100000", DREIZEHN_RATE_BURST="100000",
        DREIZEHN_BOT_PAUSE="0", DREIZEHN_BOT_WORKERS=str(bot_workers), DREIZEHN_GRACE_PERIOD="3600",
        DREIZEHN_SIGNUP_LIMIT_ADDRESS="1000000 per hour", DREIZEHN_SIGNIN_LIMIT_ADDRESS="1000000 per hour",
    )
    if database:
        env["DATABASE_URL"] = database
    exe = Path(sys.executable).with_name("dreizehn")  # the script beside the interpreter, else its module
    program = [str(exe)] if exe.exists() else [sys.executable, "-m", "dreizehn.cli.main"]
    command = [*program, "serve", "--host", "127.0.0.1", "--port", str(port), "-q"]
    with open(data_dir / "server.log", "wb") as log:
        return subprocess.Popen(command, env=env, cwd=data_dir, stdout=log, stderr=subprocess.STDOUT)


def wait_until_up(proc: subprocess.Popen[bytes] | None, base: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server stopped with status {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/api/games", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer /api/games within {timeout:g} s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGINT (uvicorn's graceful stop), then SIGKILL after 10 s."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


class Sampler(threading.Thread):
    """Reads a process's CPU time (utime + stime, all threads) and resident memory every ``every`` seconds."""

    def __init__(self, pid: int, every: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.samples: list[tuple[float, float, int]] = []  # (monotonic, cpu seconds, rss kB)
        self.halt = threading.Event()

    def read(self) -> tuple[float, float, int] | None:
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
            status = Path(f"/proc/{self.pid}/status").read_text()
        except OSError:
            return None
        fields = stat.rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICKS  # fields 14 and 15 of the whole line
        rss = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        return time.monotonic(), cpu, rss

    def run(self) -> None:
        while not self.halt.is_set():
            sample = self.read()
            if sample is not None:
                self.samples.append(sample)
            self.halt.wait(self.every)

    def window(self, start: float, end: float) -> tuple[float, float, float]:
        """CPU % of one core between ``start`` and ``end``, the largest and the last RSS in MB within it."""
        inside = [s for s in self.samples if start - self.every <= s[0] <= end + self.every] or self.samples[-1:]
        if len(inside) < 2:
            return float("nan"), float("nan"), float("nan")
        (t0, c0, _), (t1, c1, _) = inside[0], inside[-1]
        return 100 * (c1 - c0) / (t1 - t0), max(s[2] for s in inside) / 1024, inside[-1][2] / 1024


# -- the clients (one or more processes, each an event loop with its tables' websockets) ------------------------------


@dataclass
class Config:
    bases: list[str]
    """The servers' addresses: table ``n`` is created on, and its seats connect to, ``bases[n % len(bases)]`` (as a
    load balancer that keeps a table's connections on one process routes them)."""
    game: str
    players: int
    options: dict[str, Any]
    rate: float
    flat_out: bool
    warmup: float
    seconds: float
    deflate: bool
    seed: int
    jitter: float = 0.5
    """Each action's delay after its table's previous one is the mean interval times a factor drawn uniformly
    from 1 ± ``jitter``: people do not act to the millisecond, and with a fixed delay the tables a pause held up
    act together from then on, in step, so that bursts grow through the run (see the module's docstring)."""
    accounts: bool = False
    """Every other table (the odd numbers) is played by signed-in people: each seat an account, the table made by
    seat 0's person with the others invited by user name, every websocket opened by the session's cookie (the
    hello's ``table`` and ``seat``), whose session the server checks at every message (rule U7)."""
    relayed: bool = False
    """With several servers: table ``n``'s seats connect to the next server, ``bases[(n + 1) % len(bases)]``, which
    relays them to the table's home, the one that created it (a load balancer that routes without regard to
    tables)."""


@dataclass
class Counts:
    """What one client process saw; summed over the processes at the end."""

    latencies: list[float] = field(default_factory=list)  # ms, of actions sent within the window
    signed: list[float] = field(default_factory=list)  # the same, at the tables of signed-in people (--accounts)
    per_second: list[int] = field(default_factory=list)  # actions completed in each second of the window
    refused: int = 0
    games: int = 0
    lost: int = 0  # connections that closed while the run went on
    cpu: float = 0.0  # seconds of this process's CPU within the window

    def add(self, other: Counts) -> None:
        """Count what another client process saw too."""
        self.latencies += other.latencies
        self.signed += other.signed
        self.per_second = [a + b for a, b in zip(self.per_second or [0] * len(other.per_second), other.per_second,
                                                 strict=True)]
        self.refused += other.refused
        self.games += other.games
        self.lost += other.lost
        self.cpu += other.cpu


def post_json(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json", **(headers or {})}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


PASSWORD = "a bench of thirteen"
"""Every benchmark account's password."""


def sign(url: str, name: str) -> tuple[str, str]:
    """Sign up (or in) ``name`` at ``url`` (``/api/accounts`` or ``/api/session``): its session cookie and CSRF
    token."""
    request = urllib.request.Request(url, data=json.dumps({"name": name, "password": PASSWORD}).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        cookie = answer.headers["set-cookie"].split(";", 1)[0]
        return cookie, json.loads(answer.read())["csrf"]


class Seat:
    def __init__(self, table: TableClient, index: int, ws: ClientConnection) -> None:
        self.table, self.index, self.ws = table, index, ws
        self.sent_version = -1
        self.sent_at = 0.0
        self.reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        table, run = self.table, self.table.run
        try:
            async for text in self.ws:
                now = time.monotonic()
                message = orjson.loads(text)  # the client's own parsing must not be what is measured
                kind = message.get("type")
                if kind == "update":
                    if message["seat"] == self.index and message["version"] == self.sent_version + 1:
                        run.completed(self.sent_at, now, table.signed)
                        self.sent_version = -1
                    table.seen(self, message["view"])
                elif kind == "refused":
                    run.counts.refused += 1
                    self.sent_version = -1
                    table.acted = -1
                    if message.get("view") is not None:
                        table.seen(self, message["view"])
                elif kind in ("welcome", "resync"):
                    table.seen(self, message["view"])
        except ConnectionClosed:
            pass
        if not table.closing and not run.stopping:
            run.counts.lost += 1


class TableClient:
    """A table's four (or so) websockets, in one client process."""

    def __init__(self, run: Run, number: int) -> None:
        self.run, self.number = run, number
        self.seats: list[Seat] = []
        self.views: dict[int, dict[str, Any]] = {}
        self.acted = -1  # the version this table last acted on
        self.last_sent = 0.0
        self.closing = False
        self.restarting = False
        self.signed = run.cfg.accounts and number % 2 == 1
        """Played by signed-in people (``--accounts``): the latencies count apart."""
        self.sessions: list[tuple[str, str]] = []  # (cookie, CSRF token) per seat, made once

    async def _create(self, base: str) -> tuple[dict[int, str], str]:
        """Create a table over HTTP: its seats' tokens (guests), and its id."""
        cfg = self.run.cfg
        if not self.signed:
            body = {"game": cfg.game, "options": cfg.options,
                    "seats": [{"kind": "person", "name": f"t{self.number}s{i}"} for i in range(cfg.players)]}
            created = await asyncio.to_thread(post_json, f"{base}/api/tables", body)
            return {inv["seat"]: inv["token"] for inv in created["invitations"]}, created["table"]["id"]
        names = [f"b{self.number}x{i}" for i in range(cfg.players)]
        if not self.sessions:
            self.sessions = [await asyncio.to_thread(sign, f"{base}/api/accounts", name) for name in names]
        cookie, csrf = self.sessions[0]
        body = {"game": cfg.game, "options": cfg.options,
                "seats": [{"kind": "person", "name": names[0]}] + [{"kind": "person", "user": name}
                                                                    for name in names[1:]]}
        created = await asyncio.to_thread(post_json, f"{base}/api/tables", body,
                                          {"Cookie": cookie, "X-CSRF-Token": csrf, "Origin": base})
        return {}, created["table"]["id"]

    async def open(self) -> None:
        """Create a table over HTTP and open its seats' websockets, each with its welcome."""
        cfg = self.run.cfg
        base = cfg.bases[self.number % len(cfg.bases)]
        tokens, table_id = await self._create(base)
        if cfg.relayed:
            base = cfg.bases[(self.number + 1) % len(cfg.bases)]
        url = base.replace("http://", "ws://", 1) + "/ws"
        self.views, self.acted, self.closing = {}, -1, False
        seats = []
        for index in range(cfg.players):
            headers = {"Cookie": self.sessions[index][0]} if self.signed else None
            ws = await connect(url, compression="deflate" if cfg.deflate else None, max_size=2**22,
                               ping_interval=None, open_timeout=60, additional_headers=headers)
            hello = ({"table": table_id, "seat": index} if self.signed else {"token": tokens[index]})
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "lang": "en", **hello}))
            while True:
                welcome = json.loads(await ws.recv())
                if welcome["type"] == "welcome":
                    break
            seat = Seat(self, index, ws)
            self.views[index] = welcome["view"]
            seats.append(seat)
        self.seats = seats
        for seat in seats:
            seat.reader = asyncio.create_task(seat.read())

    async def close(self) -> None:
        self.closing = True
        for seat in self.seats:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(seat.ws.close(), 5)
        for seat in self.seats:
            if seat.reader is not None:
                seat.reader.cancel()

    def seen(self, seat: Seat, view: dict[str, Any]) -> None:
        """A seat's newest view: act if it is that seat's turn; start a fresh table when the game is over."""
        self.views[seat.index] = view
        run = self.run
        if not run.going or run.stopping or self.closing:
            return
        if view["is_over"]:
            if not self.restarting:
                self.restarting = True
                run.counts.games += 1
                run.spawn(self.restart())
            return
        if view["current_player"] != seat.index or view["version"] <= self.acted or not view["legal_actions"]:
            return
        self.acted = view["version"]
        now = time.monotonic()
        jitter = run.cfg.jitter
        think = run.interval * (1 + jitter * (2 * run.rng.random() - 1)) if jitter else run.interval
        due = now if run.cfg.flat_out else max(now, self.last_sent + think)
        action = run.rng.choice(view["legal_actions"])["index"]
        run.spawn(self.send(seat, view["version"], action, due))

    async def send(self, seat: Seat, version: int, action: int, due: float) -> None:
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if self.run.stopping or self.closing:
            return
        seat.sent_version = version
        seat.sent_at = self.last_sent = time.monotonic()
        with contextlib.suppress(ConnectionClosed):
            await seat.ws.send(json.dumps({"type": "action", "version": version, "action": action}))

    def kick(self) -> None:
        """Start: the seat to move (by its own view) acts."""
        for seat in self.seats:
            self.seen(seat, self.views[seat.index])

    async def restart(self) -> None:
        await self.close()
        try:
            await self.open()
        except Exception as err:  # keep the others going; count it
            print(f"table {self.number}: a fresh table failed: {err!r}", file=sys.stderr)
            self.run.counts.lost += 1
            return
        finally:
            self.restarting = False
        self.last_sent = time.monotonic()
        self.kick()


class Run:
    def __init__(self, cfg: Config, numbers: range) -> None:
        self.cfg = cfg
        self.interval = 1.0 / (cfg.players * cfg.rate) if cfg.rate > 0 else 0.0
        self.rng = random.Random(cfg.seed)
        self.tables = [TableClient(self, n) for n in numbers]
        self.counts = Counts()
        self.going = self.stopping = False
        self.start = self.end = 0.0
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def completed(self, sent: float, received: float, signed: bool = False) -> None:
        if self.start <= sent < self.end:
            (self.counts.signed if signed else self.counts.latencies).append((received - sent) * 1000)
        second = int(received - self.start)
        if received >= self.start and second < len(self.counts.per_second):
            self.counts.per_second[second] += 1

    async def main(self, ready: Queue[Any], go: EventType, go_at: Any) -> None:
        gate = asyncio.Semaphore(max(1, CONNECT_AT_ONCE // 4))

        async def open_one(table: TableClient) -> None:
            async with gate:
                await table.open()

        await asyncio.gather(*(open_one(t) for t in self.tables))
        ready.put(os.getpid())
        await asyncio.to_thread(go.wait)
        began = go_at.value
        self.start, self.end = began + self.cfg.warmup, began + self.cfg.warmup + self.cfg.seconds
        self.counts.per_second = [0] * int(self.cfg.seconds)
        await asyncio.sleep(max(0.0, began - time.monotonic()))
        self.going = True
        for table in self.tables:  # staggered within the first interval, so the tables do not act in step
            table.last_sent = time.monotonic() - self.interval + self.rng.uniform(0, self.interval)
            table.kick()
        await asyncio.sleep(max(0.0, self.start - time.monotonic()))
        cpu0 = sum(os.times()[:2])
        await asyncio.sleep(max(0.0, self.end - time.monotonic()))
        self.counts.cpu = sum(os.times()[:2]) - cpu0
        self.stopping = True
        await asyncio.sleep(1.0)  # the last updates in flight
        await asyncio.gather(*(t.close() for t in self.tables), return_exceptions=True)
        for task in list(self.tasks):
            task.cancel()


def client_process(cfg: Config, numbers: range, ready: Queue[Any], go: EventType, go_at: Any,
                   results: Queue[Any]) -> None:
    run = Run(cfg, numbers)
    try:
        import uvloop

        uvloop.run(run.main(ready, go, go_at))
    except ImportError:
        asyncio.run(run.main(ready, go, go_at))
    results.put(run.counts)


def take(queue: Queue[Any], workers: list[mp.process.BaseProcess], timeout: float) -> Any:
    """The next item of ``queue``; fails when a client process died or time ran out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            return queue.get(timeout=1)
        if any(w.exitcode not in (None, 0) for w in workers):
            raise RuntimeError("a client process failed")
    raise RuntimeError(f"no answer from the client processes within {timeout:g} s")


# -- the report -------------------------------------------------------------------------------------------------------


def percentile(ordered: list[float], p: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def _arguments() -> argparse.Namespace:
    """The command line, checked."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="the measured window (default 30)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds played before the window (default 2)")
    parser.add_argument("--rate", type=float, default=1.0,
                        help="actions a second per seat: each table makes players × rate a second (default 1)")
    parser.add_argument("--flat-out", action="store_true", help="act as soon as it is one's turn")
    parser.add_argument("--jitter", type=float, default=0.5,
                        help="each delay between a table's actions is the mean times 1 ± this (default 0.5; 0: "
                             "every delay the same)")
    parser.add_argument("--game", default="knizia13", help="knizia13 (default), holzwurm or three-thirteen")
    parser.add_argument("--players", type=int, default=4, help="seats per table (default 4)")
    parser.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    parser.add_argument("--database", default=None,
                        help="an SQLAlchemy or postgresql:// URL (default: SQLite in a temporary data directory)")
    parser.add_argument("--workers", type=int, default=1, help="client processes (default 1; the server needs a core)")
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes on one PostgreSQL database (--database), each table on one of them "
                             "(default 1)")
    parser.add_argument("--relayed", action="store_true",
                        help="with --servers 2 or more: each table's seats connect to another process than the one "
                             "that serves the table, which relays them (the handoff)")
    parser.add_argument("--bot-workers", type=int, default=0, help="the server's DREIZEHN_BOT_WORKERS (default 0)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="no permessage-deflate (browsers and the server negotiate it by default)")
    parser.add_argument("--url", default=None,
                        help="play against a server already running at this address instead of starting one")
    parser.add_argument("--pid", type=int, default=None, help="with --url: the server's process, to sample")
    parser.add_argument("--accounts", action="store_true",
                        help="every other table played by signed-in people (accounts, sessions checked at every "
                             "message), the others by guests: the latencies of both, side by side, and sign-ins a "
                             "second (Argon2id at the server's cost)")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    if args.servers > 1 and not (args.database or "").startswith("postgresql"):
        parser.error("--servers above 1 needs --database postgresql://... (the processes share its tables)")
    return args


def _describe(args: argparse.Namespace) -> None:
    """Print what is measured, and how."""
    database = args.database or "SQLite (a temporary file, WAL)"
    print(f"Server load: {args.game}, {args.tables} tables × {args.players} seats = {args.tables * args.players} "
          f"websockets on loopback, {database}, permessage-deflate {'off' if args.no_deflate else 'on'}"
          + (f", {args.servers} server processes (a table's seats on "
             + ("another, relayed to the table's)" if args.relayed else "the table's)") if args.servers > 1 else ""))
    if args.flat_out:
        print("Pace: flat out (the seat to move acts as soon as it sees its turn)")
    else:
        print(f"Pace: each table makes players × rate = {args.players * args.rate:g} actions/s (the seat to move "
              f"sends {1000 / (args.players * args.rate):.0f} ms × (1 ± {args.jitter:g}) after its table's previous "
              f"action, at once if late)")
    print(f"Latency: action sent → its update received on the same websocket; window {args.seconds:g} s after "
          f"{args.warmup:g} s of warm-up; {args.workers} client process(es) on {os.cpu_count()} cores", flush=True)


def signin_rate(base: str, count: int = 120, at_once: int = 4) -> float:
    """Sign-ins a second: ``count`` sign-ins of ``at_once`` accounts, ``at_once`` at a time (each hashes its
    password with Argon2id at the server's cost), after one sign-up each."""
    from concurrent.futures import ThreadPoolExecutor

    names = [f"signin{i}" for i in range(at_once)]
    for name in names:
        sign(f"{base}/api/accounts", name)
    started = time.perf_counter()
    with ThreadPoolExecutor(at_once) as pool:
        list(pool.map(lambda i: sign(f"{base}/api/session", names[i % at_once]), range(count)))
    return count / (time.perf_counter() - started)


def _measure(args: argparse.Namespace, cfg: Config, ports: list[int],
             data_dir: Path) -> tuple[Counts, float, float]:
    """Start the servers (unless --url), play from the client processes, and answer what they saw with the
    servers' CPU seconds and largest memory (MB) within the window."""
    procs = [] if args.url else [start_server(port, data_dir / str(i), args.database, args.bot_workers)
                                 for i, port in enumerate(ports)]
    workers: list[mp.process.BaseProcess] = []
    try:
        started: list[subprocess.Popen[bytes] | None] = list(procs) or [None]
        for proc, base in zip(started, cfg.bases, strict=True):
            wait_until_up(proc, base)
        if args.accounts:
            print(f"sign-ins a second (4 at a time, Argon2id at the server's cost): {signin_rate(cfg.bases[0]):.1f}",
                  flush=True)
        samplers = [Sampler(proc.pid) for proc in procs] if procs else [Sampler(args.pid or -1)]
        for sampler in samplers:
            sampler.start()
        ctx = mp.get_context("spawn")
        ready: Queue[Any] = ctx.Queue()
        results: Queue[Any] = ctx.Queue()
        go = ctx.Event()
        go_at = ctx.Value("d", 0.0)
        share = [range(i * args.tables // args.workers, (i + 1) * args.tables // args.workers)
                 for i in range(args.workers)]
        for numbers in share:
            worker = ctx.Process(target=client_process, args=(cfg, numbers, ready, go, go_at, results))
            worker.start()
            workers.append(worker)
        set_up = time.monotonic()
        for _ in workers:
            take(ready, workers, 300)
        print(f"set up {args.tables} tables and {args.tables * args.players} websockets in "
              f"{time.monotonic() - set_up:.1f} s", flush=True)
        go_at.value = time.monotonic() + 0.5
        go.set()
        total = Counts()
        for _ in workers:
            total.add(take(results, workers, args.warmup + args.seconds + 120))
        start = go_at.value + args.warmup
        cpu = rss_max = 0.0
        for sampler in samplers:
            sampler.halt.set()
            sampler.join()
            one_cpu, one_rss, _ = sampler.window(start, start + args.seconds)
            cpu, rss_max = cpu + one_cpu, rss_max + one_rss
    except BaseException:
        for log in sorted(data_dir.glob("*/server.log")):
            print(f"the server's log ({log}) ends:\n" + "\n".join(log.read_text().splitlines()[-20:]), file=sys.stderr)
        raise
    finally:
        for process in workers:
            process.join(10)
            if process.is_alive():
                process.kill()
        for proc in procs:
            stop_server(proc)
    return total, cpu, rss_max


def main() -> None:
    args = _arguments()
    ports = [args.port or free_port()] + [free_port() for _ in range(args.servers - 1)]
    bases = [args.url.rstrip("/")] if args.url else [f"http://127.0.0.1:{port}" for port in ports]
    data_dir = Path(tempfile.mkdtemp(prefix="dreizehn-bench-"))
    cfg = Config(bases, args.game, args.players, {}, args.rate, args.flat_out, args.warmup, args.seconds,
                 not args.no_deflate, args.seed, args.jitter, accounts=args.accounts, relayed=args.relayed)
    _describe(args)
    total, cpu, rss_max = _measure(args, cfg, ports, data_dir)
    report(args, total, cpu, rss_max)
    shutil.rmtree(data_dir, ignore_errors=True)


def report(args: argparse.Namespace, total: Counts, cpu: float, rss: float) -> None:
    if args.accounts:
        _compare(total)
    ordered = sorted(total.latencies + total.signed)
    rate = len(ordered) / args.seconds
    target = "flat out" if args.flat_out else f"{args.tables * args.players * args.rate:g}"
    print()
    print(f"{'tables':>7}{'seats':>7}{'target/s':>10}{'actions/s':>11}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}"
          f"{'max ms':>9}{'refused':>9}{'games':>7}{'server CPU %':>14}{'CPU ms/action':>15}{'server RSS MB':>15}"
          f"{'client CPU %':>14}")
    print(f"{args.tables:>7}{args.tables * args.players:>7}{target:>10}{rate:>11,.0f}"
          f"{percentile(ordered, 50):>9.1f}{percentile(ordered, 90):>9.1f}{percentile(ordered, 99):>9.1f}"
          f"{(ordered[-1] if ordered else float('nan')):>9.1f}{total.refused:>9}{total.games:>7}{cpu:>14.0f}"
          f"{(10 * cpu / rate if rate else float('nan')):>15.2f}{rss:>15.0f}{100 * total.cpu / args.seconds:>14.0f}")
    if total.per_second:
        seconds = sorted(total.per_second)
        print(f"actions/s second by second: lowest {seconds[0]:,}, median {seconds[len(seconds) // 2]:,}, "
              f"highest {seconds[-1]:,}" + ("" if not total.lost else f"; {total.lost} connections lost"))
    if not args.flat_out:
        met = percentile(ordered, 99) < 100 and rate >= 0.95 * args.tables * args.players * args.rate
        print(f"goal (the target rate at p99 under 100 ms): {'met' if met else 'NOT met'}")


def _compare(total: Counts) -> None:
    """The latencies at the guests' tables and at the signed-in people's, side by side, and their p99 ratio."""
    guests, signed = sorted(total.latencies), sorted(total.signed)
    print()
    print(f"{'tables of':>12}{'actions':>9}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for label, ordered in (("guests", guests), ("signed in", signed)):
        print(f"{label:>12}{len(ordered):>9}{percentile(ordered, 50):>9.1f}{percentile(ordered, 90):>9.1f}"
              f"{percentile(ordered, 99):>9.1f}{(ordered[-1] if ordered else float('nan')):>9.1f}")
    ratio = percentile(signed, 99) / percentile(guests, 99) if guests and signed else float("nan")
    print(f"p99 signed in / guests: {ratio:.2f} (goal at most 1.1: {'met' if ratio <= 1.1 else 'NOT met'})")


if __name__ == "__main__":
    main()
