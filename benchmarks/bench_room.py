"""The server's own work per action, without the network: a room checks and applies an action, and writes each
receiver's update (its view and the events said in its language) as JSON text.

Run with ``python benchmarks/bench_room.py [--actions N] [--langs en,de]`` (also part of ``make bench``). Every game
is played at tables of its research player count with a person in every seat, one connection per seat, each seat
acting its view's first legal action (a game that ends starts again); storing is left out (the database runs in its
own thread, measured by ``make bench-server``). It prints microseconds per action and per receiver: the part of
``make bench-server``'s CPU per action that the project's code spends, the rest being the websocket and the database.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import time
from concurrent.futures import Executor
from typing import Any

import sqlalchemy as sa

from dreizehn.core.registry import game_class, game_ids
from dreizehn.play.table import BotRequest
from dreizehn.server.chat import Line
from dreizehn.server.rooms import Conn, Room
from dreizehn.server.rooms.acting import Writes
from dreizehn.server.rooms.room import HubLike
from dreizehn.server.settings import Settings
from dreizehn.server.storage import SeatRow, Store, Stored, TableRow
from dreizehn.server.turns.hooks import TurnHooks
from dreizehn.server.turns.store import Clocks


class _Writer:
    async def append(self, row: Any) -> None:
        return None


class _Hub:
    """What a room asks of the hub (:class:`~dreizehn.server.rooms.room.HubLike`): the writer (storing costs nothing
    here), the settings, and telling other processes (there are none); no bot, no turn clock (no table here is
    turn-based) and no game's end to announce."""

    def __init__(self) -> None:
        self.settings = Settings()
        self.writer: Writes = _Writer()
        self.store = Store(sa.create_engine("sqlite://"))  # never asked: acting reads nothing back here
        self.executor: Executor | None = None
        self.clocks = Clocks(self.store.engine)  # never asked: no table here is turn-based
        self.turn_hooks: list[TurnHooks] = []

    async def decide(self, request: BotRequest, game: Any) -> tuple[int, Any]:
        raise AssertionError("no bot plays at the benchmark's tables")

    def publish_presence(self, room: Any) -> None:
        return None

    def publish_line(self, line: Line) -> None:
        return None

    def game_over(self, table_id: str) -> None:
        return None

    def doubt_home(self, room: Any) -> None:
        return None


def _room(hub: HubLike, game_id: str, players: int, seed: int) -> Room:
    row = TableRow(id=f"bench{seed}", game_id=game_id, players=players, options={}, seed=seed,
                   package_version="bench", status="playing", clock=0.0, rematch_of=None, rematch=None,
                   created_at=dt.datetime.now(dt.UTC), finished_at=None)
    seats = tuple(SeatRow(i, f"Player {i + 1}", None, True) for i in range(players))
    return Room(hub, Stored(row, seats, ()))


async def _play(game_id: str, players: int, actions: int, langs: list[str]) -> tuple[float, int]:
    """Seconds of CPU for ``actions`` actions, and the number of messages written."""
    hub = _Hub()
    seed = 1
    room = _room(hub, game_id, players, seed)
    conns = [Conn(seat, langs[seat % len(langs)]) for seat in range(players)]

    def connect(room: Room) -> None:
        for conn in conns:
            room.presence.connect(conn)
        for conn in conns:  # what connecting told is not an action's work
            conn.outbox = asyncio.Queue()

    connect(room)
    written = 0
    start = time.process_time()
    for _ in range(actions):
        if room.table.is_over:
            seed += 1
            room = _room(hub, game_id, players, seed)
            connect(room)
        seat = room.table.current_player
        view = room.table.view(seat)
        await room.act(conns[seat], room.table.version, view.legal_actions[0])
        for conn in conns:
            written += conn.outbox.qsize()
            while not conn.outbox.empty():
                conn.outbox.get_nowait()
    return time.process_time() - start, written


def room_table(actions: int = 3000, runs: int = 3, langs: tuple[str, ...] = ("en",)) -> list[tuple[str, int, float]]:
    """Per game: its seats and the fastest of ``runs`` runs' seconds of CPU per action."""
    rows = []
    for game_id in game_ids():
        players = game_class(game_id).research_players
        times = [asyncio.run(_play(game_id, players, actions, list(langs)))[0] for _ in range(runs)]
        rows.append((game_id, players, min(times) / actions))
    return rows


def print_table(rows: list[tuple[str, int, float]]) -> None:
    print(f"{'game':<16}{'seats':>6}{'µs/action':>11}{'µs/receiver':>13}{'actions/s':>11}")
    for game_id, players, per_action in rows:
        print(f"{game_id:<16}{players:>6}{per_action * 1e6:>11.0f}{per_action * 1e6 / players:>13.0f}"
              f"{1 / per_action:>11,.0f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=3000, help="actions per game and run (default 3000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per game; the fastest is printed (default 3)")
    parser.add_argument("--langs", default="en", help="the connections' languages, seat by seat (default en)")
    args = parser.parse_args()
    langs = tuple(args.langs.split(","))
    print(f"The room's work per action (check, apply, each receiver's update as JSON), languages {','.join(langs)}; "
          f"best of {args.runs} runs of {args.actions} actions")
    print_table(room_table(args.actions, args.runs, langs))


if __name__ == "__main__":
    main()
