"""How long a person waits for a bot's move (issue 49 item 6): each bot level's time per action at a table of four
bots of that level, while the server is busy with other tables of bots.

Run with ``python benchmarks/bot_wait.py [--game knizia13] [--levels easy,master] [--busy 50] [--busy-level medium]
[--actions 12] [--workers 2] [--pause 0.8]``. It starts ``dreizehn serve`` as a subprocess (a fresh SQLite database
in a temporary data directory, the bot workers and the bot pause as told: by default the server's two worker
processes and its bot pause of 0.8 s), creates ``--busy`` tables of
four bots of ``--busy-level`` (each finished one replaced, so that as many are being played all along), then, one
level at a time, a table of four bots of that level, watched through the spectators' websocket: the time between
one update of that table and the next is the time a bot took over an action. A person at a table waits that (plus
the bot pause, 0.8 s unless the server is told otherwise) for each bot's action; the page says "Bruno is thinking…"
once 1.5 s have passed.

It prints a table: per level, the actions measured, their median, 90th percentile and longest time, and the median
less the bot pause, in seconds. By default the server keeps its own bot pause (0.8 s), so the busy tables load it
as tables being played do; ``--pause 0`` plays them flat out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

PLAYERS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, data_dir: Path, workers: int, pause: float) -> subprocess.Popen[bytes]:
    """``dreizehn serve`` on 127.0.0.1:``port`` with the bot workers and the bot pause told."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DREIZEHN_DATA_DIR=str(data_dir), DREIZEHN_BOT_PAUSE=str(pause), DREIZEHN_BOT_WORKERS=str(workers),
               DREIZEHN_RATE_PER_SECOND="100000", DREIZEHN_RATE_BURST="100000")
    exe = Path(sys.executable).with_name("dreizehn")
    program = [str(exe)] if exe.exists() else [sys.executable, "-m", "dreizehn.cli.main"]
    with open(data_dir / "server.log", "wb") as log:
        return subprocess.Popen([*program, "serve", "--host", "127.0.0.1", "--port", str(port), "-q"], env=env,
                                cwd=data_dir, stdout=log, stderr=subprocess.STDOUT)


def call(url: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or POST ``body``) a JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"},
                                     method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def wait_until_up(proc: subprocess.Popen[bytes], base: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server stopped with status {proc.returncode}")
        try:
            call(f"{base}/api/games")
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not answer /api/games within 60 s")


def new_table(base: str, game: str, level: str) -> str:
    """A table of four bots of ``level``: its id (its bots begin at once)."""
    seats = [{"kind": "bot", "bot": level} for _ in range(PLAYERS)]
    created = call(f"{base}/api/tables", {"game": game, "options": {}, "seats": seats})
    return str(created["table"]["id"])


async def keep_busy(base: str, game: str, level: str, count: int, stop: asyncio.Event) -> None:
    """Keep ``count`` tables of bots being played besides the measured one: a finished one is replaced."""
    busy: set[str] = set()
    while not stop.is_set():
        playing = {t["id"] for t in await asyncio.to_thread(call, f"{base}/api/tables?status=playing&limit=200")}
        busy &= playing
        while len(busy) < count:
            busy.add(await asyncio.to_thread(new_table, base, game, level))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 2.0)


@dataclass
class Waits:
    level: str
    seconds: list[float]

    def row(self, pause: float) -> str:
        """The level's line: the actions, the median, 90th percentile and longest wait, and the median without the
        bot pause (the bot's thinking, the worker queue and the server's own work)."""
        s = sorted(self.seconds)
        if not s:
            return f"| {self.level} | 0 | | | | |"
        p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
        median = statistics.median(s)
        return (f"| {self.level} | {len(s)} | {median:.2f} | {p90:.2f} | {s[-1]:.2f} | "
                f"{max(0.0, median - pause):.2f} |")


async def measure(base: str, game: str, level: str, actions: int) -> Waits:
    """The times between one update of a new table of four ``level`` bots and the next, ``actions`` of them."""
    table = await asyncio.to_thread(new_table, base, game, level)
    seconds: list[float] = []
    ws_url = base.replace("http://", "ws://") + "/ws"
    async with connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "table": table, "watch": True, "lang": "en"}))
        last: float | None = None
        while len(seconds) < actions:
            message = json.loads(await ws.recv())
            if message["type"] != "update":
                continue
            now = time.perf_counter()
            if last is not None:  # the first update may have been under way before the watch began
                seconds.append(now - last)
            last = now
            if message["view"]["is_over"]:
                break
    return Waits(level, seconds)


async def run(args: argparse.Namespace, base: str) -> list[Waits]:
    levels = args.levels.split(",") if args.levels else next(
        g["levels"] for g in call(f"{base}/api/games") if g["id"] == args.game)
    stop = asyncio.Event()
    busy = asyncio.create_task(keep_busy(base, args.game, args.busy_level, args.busy, stop))
    while len(call(f"{base}/api/tables?status=playing&limit=200")) < args.busy:
        await asyncio.sleep(0.5)
    results = []
    for level in levels:
        results.append(await measure(base, args.game, level, args.actions))
        print(results[-1].row(args.pause), flush=True)
    stop.set()
    await busy
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="knizia13")
    parser.add_argument("--levels", default="", help="comma-separated (default: every level of the game)")
    parser.add_argument("--busy", type=int, default=50, help="other tables of bots played meanwhile")
    parser.add_argument("--busy-level", default="medium")
    parser.add_argument("--actions", type=int, default=12, help="actions measured per level")
    parser.add_argument("--workers", type=int, default=2, help="the server's bot worker processes")
    parser.add_argument("--pause", type=float, default=0.8, help="the bot pause, seconds (the server's own)")
    args = parser.parse_args()
    print(f"{args.game}: a table of {PLAYERS} bots per level, the server busy with {args.busy} tables of "
          f"{PLAYERS} {args.busy_level} bots, {args.workers} bot workers, bot pause {args.pause:g} s, "
          f"{os.cpu_count()} CPUs")
    print("| level | actions | median s | p90 s | longest s | median less the pause s |\n"
          "|---|---:|---:|---:|---:|---:|", flush=True)
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        proc = start_server(port, Path(data), args.workers, args.pause)
        try:
            wait_until_up(proc, f"http://127.0.0.1:{port}")
            asyncio.run(run(args, f"http://127.0.0.1:{port}"))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    main()
