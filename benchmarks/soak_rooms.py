"""A soak of the rooms: many tables created and played through one process, to show that its memory stays flat
(rooms idle for ``DREIZEHN_ROOM_IDLE`` seconds are dropped from memory, and rebuilt from the stored log on demand).

Run with ``python benchmarks/soak_rooms.py [--tables 20000] [--at-once 20] [--every 2000] [--tracemalloc]``. A hub
on SQLite in a temporary folder, as ``dreizehn serve`` makes it (the writer storing on the event loop, the sweep of
idle rooms running), plays whole games of Holzwurm (its quick options: one game, about 35 actions) between two
people, each seat a connection acting a random legal action through the room's own path (checked, stored, told to
both seats as JSON); ``--at-once`` tables are played at the same time. Every ``--every`` tables it prints the
tables played, the rooms in memory, the resident memory (RSS) and, with ``--tracemalloc``, the memory Python
allocated (which makes the run about twice as slow). Not a test: it passes whatever it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import tempfile
import time
import tracemalloc
from pathlib import Path

import dreizehn
from dreizehn.server.rooms import Conn, Hub, Room
from dreizehn.server.settings import Settings
from dreizehn.server.storage import (
    SeatRow,
    Store,
    TableRow,
    hash_token,
    make_engine,
    migrate,
    new_table_id,
    new_token,
    now,
)

GAME = "holzwurm"


def _rss_mb() -> float:
    """The resident memory of this process now (Linux: ``/proc/self/statm``), in MB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize() / 1e6


def _create(store: Store, seed: int) -> str:
    """A new table of two people stored, as the API creates it; its id."""
    game = dreizehn.load_game(GAME, 2, dreizehn.game_class(GAME).quick_options)
    row = TableRow(id=new_table_id(), game_id=GAME, players=2, options=dict(game.options), seed=seed,
                   package_version=dreizehn.__version__, status="open", clock=0.0, rematch_of=None, rematch=None,
                   created_at=now(), finished_at=None)
    seats = [SeatRow(0, "Anna", None, True), SeatRow(1, "Bruno", None, True)]
    store.tables.create(row, seats, [hash_token(new_token()), hash_token(new_token())], hash_token(new_token()))
    return row.id


async def _play(hub: Hub, seed: int) -> int:
    """Create a table, connect both seats, play its game to the end, leave; the actions played."""
    table_id = await asyncio.to_thread(_create, hub.store, seed)
    room = await hub.room(table_id)
    assert isinstance(room, Room)
    conns = [Conn(seat, "en" if seat == 0 else "de") for seat in range(2)]
    for conn in conns:
        conn.outbox = asyncio.Queue()
        room.connect(conn)
    rng = random.Random(seed)
    actions = 0
    while not room.table.is_over:
        seat = room.table.current_player
        await room.act(conns[seat], room.table.version, rng.choice(room.table.view(seat).legal_actions))
        actions += 1
        for conn in conns:
            while not conn.outbox.empty():
                conn.outbox.get_nowait()
    for conn in conns:
        room.disconnect(conn)
    return actions


async def soak(tables: int, at_once: int, every: int, trace: bool) -> None:
    """Play ``tables`` tables, ``at_once`` at a time, printing the memory every ``every`` tables."""
    dreizehn.game_class(GAME)  # the games registered before the threads that create tables ask for one
    with tempfile.TemporaryDirectory(prefix="dreizehn-soak-") as folder:
        settings = Settings(data_dir=Path(folder), bot_pause=0.0, bot_workers=0, room_idle=1.0,
                            _env_file=None)  # type: ignore[call-arg]
        engine = make_engine(settings.database, settings.data_dir)
        migrate(engine)
        hub = Hub(settings, Store(engine), None)
        tidy = asyncio.create_task(hub.keep_tidy())
        if trace:
            tracemalloc.start()
        print(f"{'tables':>8}{'actions':>10}{'rooms':>7}{'RSS MB':>8}" + (f"{'traced MB':>11}" if trace else "")
              + f"{'seconds':>9}", flush=True)
        started, played, actions = time.perf_counter(), 0, 0
        seeds = iter(range(1, tables + 1))

        async def worker() -> None:
            nonlocal played, actions
            for seed in seeds:
                played_now = await _play(hub, seed)
                actions += played_now
                played += 1
                if played % every == 0 or played == tables:
                    traced = f"{tracemalloc.get_traced_memory()[0] / 1e6:>11.1f}" if trace else ""
                    print(f"{played:>8,}{actions:>10,}{len(hub.rooms):>7}{_rss_mb():>8.0f}{traced}"
                          f"{time.perf_counter() - started:>9.0f}", flush=True)

        await asyncio.gather(*(worker() for _ in range(at_once)))
        tidy.cancel()
        await hub.close()
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20_000, help="tables created and played (default 20000)")
    parser.add_argument("--at-once", type=int, default=20, help="tables played at the same time (default 20)")
    parser.add_argument("--every", type=int, default=2000, help="print every this many tables (default 2000)")
    parser.add_argument("--tracemalloc", action="store_true", help="print the memory Python allocated too")
    args = parser.parse_args()
    asyncio.run(soak(args.tables, args.at_once, max(1, args.every), args.tracemalloc))


if __name__ == "__main__":
    main()
