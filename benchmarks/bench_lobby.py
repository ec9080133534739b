"""How long people wait for a table in the lobby (issue 46 item 3): ``--players`` simulated accounts (1,000) queue
at once for ``--seats``-player tables (4) of one game; the time from each one's "Play now" to the moment their table
is made, at its median (p50), 99th percentile and longest.

Run with ``python benchmarks/bench_lobby.py [--players 1000] [--seats 4] [--tick 1.0] [--database URL]
[--out benchmarks/results/lobby.txt]``. It runs the server's own lobby in this process (``Lobby`` on its store and a
hub, as ``dreizehn serve`` holds them; a new SQLite database in a temporary folder unless ``--database`` names a
PostgreSQL one, which it fills), without HTTP: the accounts are written straight into the database, each person
queues through ``Lobby.queue`` (all of them at once, on the lobby's threads), and the lobby's rounds run every
``--tick`` seconds (its setting ``DREIZEHN_LOBBY_TICK``), sooner when someone queues, as in the server. Two kinds
of table:

- turn-based: a group found is made into a table at once;
- real-time: a group found waits for everyone's "ready"; each simulated person confirms as soon as the round that
  found their group is over (a person's page asks every 3 seconds and they click: add that to these times).

Tables are made as the server makes them (rows stored, each table's room loaded). It prints a table (kind, people,
tables, p50, p99, longest, people left waiting) and writes it to ``--out``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.accounts.store import AccountRow
from dreizehn.server.lobby.matcher import QueueKey
from dreizehn.server.lobby.schema import lobby_queue
from dreizehn.server.lobby.service import Choice, Lobby
from dreizehn.server.lobby.store import READY, Claim, LobbyStore
from dreizehn.server.rooms import Hub
from dreizehn.server.settings import Settings
from dreizehn.server.storage import Store, make_engine, migrate, now

GAME = "knizia13"


class TimedLobby(Lobby):
    """The lobby, noting when each person's table is made; real-time groups confirmed at once after each round."""

    made_at: dict[str, float]

    async def _make(self, claim: Claim) -> None:
        await super()._make(claim)
        done = time.perf_counter()
        for _, account_id, _ in claim.people:
            self.made_at[account_id] = done

    async def step(self) -> list[str]:
        made = await super().step()
        asked = await asyncio.to_thread(self._in_ready_checks)
        for account in asked:
            with contextlib.suppress(Exception):  # a check ended meanwhile: the next round finds them again
                await self.ready(account)
        return made

    def _in_ready_checks(self) -> list[AccountRow]:
        with self.store.engine.connect() as c:
            ids = c.execute(sa.select(lobby_queue.c.account_id).where(lobby_queue.c.state == READY,
                                                                     lobby_queue.c.ready.is_(False))).scalars()
            return [_account(a) for a in ids]


def _account(account_id: str) -> AccountRow:
    return AccountRow(account_id, account_id, None, False, {}, False, now())


def _people(engine: sa.Engine, n: int, prefix: str) -> list[AccountRow]:
    rows = [_account(f"{prefix}{i:05d}") for i in range(n)]
    with engine.begin() as c:
        c.execute(accounts.insert(), [{"id": a.id, "name": a.name, "name_key": a.name.lower(), "password_hash": "-",
                                       "settings": {}, "created_at": a.created_at} for a in rows])
    return rows


async def _run(settings: Settings, pace: str, players: int, seats: int, prefix: str) -> dict[str, float]:
    engine = make_engine(settings.database, settings.data_dir)
    await asyncio.to_thread(migrate, engine)
    hub = Hub(settings, Store(engine), None)
    lobby = TimedLobby(LobbyStore(engine), hub, settings)
    lobby.made_at = {}
    people = await asyncio.to_thread(_people, engine, players, prefix)
    rounds = asyncio.create_task(lobby.keep_matching(settings.lobby_tick))
    key = QueueKey(GAME, seats, pace, 86400 if pace == "turn-based" else None, False)
    queued: dict[str, float] = {}

    async def play_now(person: AccountRow) -> None:
        await lobby.queue(person, Choice(key, None, "medium"))
        queued[person.id] = time.perf_counter()

    try:
        await asyncio.gather(*(play_now(p) for p in people))
        deadline = time.perf_counter() + 300
        while len(lobby.made_at) < players - players % seats and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)  # polled until every full table is made (or the benchmark gives up)
    finally:
        rounds.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await rounds
        await hub.close()
        engine.dispose()
    waits = sorted(lobby.made_at[a] - queued[a] for a in lobby.made_at)
    return {"people": players, "tables": len(lobby.made_at) // seats, "p50": statistics.median(waits),
            "p99": waits[max(0, round(0.99 * len(waits)) - 1)], "longest": waits[-1],
            "left": players - len(lobby.made_at)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--tick", type=float, default=1.0)
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (default: SQLite in a temporary folder)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    lines = [f"{args.players} people queue at once for {args.seats}-player tables of {GAME}; lobby round every "
             f"{args.tick} s; {'PostgreSQL' if args.database else 'SQLite'}; {os.cpu_count()} CPUs, load average "
             f"{os.getloadavg()[0]:.1f} at the start (a shared machine: the times vary with it)",
             "| kind | people | tables | p50 s | p99 s | longest s | left waiting |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory(prefix="bench-lobby-") as folder:
        for i, pace in enumerate(("turn-based", "realtime")):
            settings = Settings(data_dir=Path(folder) / pace, database_url=args.database, lobby_tick=args.tick,
                                lobby_expiry=3600.0, lobby_ready_window=600.0, bot_workers=0,
                                _env_file=None)  # type: ignore[call-arg]
            r = asyncio.run(_run(settings, pace, args.players, args.seats, f"b{i}-"))
            lines.append(f"| {pace} | {r['people']:.0f} | {r['tables']:.0f} | {r['p50']:.2f} | {r['p99']:.2f} | "
                         f"{r['longest']:.2f} | {r['left']:.0f} |")
            print(lines[-1], file=sys.stderr)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
