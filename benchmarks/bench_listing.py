"""The list of tables (``GET /api/tables``'s query, :mod:`dreizehn.server.storage.listing`) on a large database: the
time to read a page of 50 (its tables, seats, seats left to bots and the count) for a guest, for a signed-in person
(their own tables first), their own tables alone, a private table's player, and the 20th page of finished games
reached by the cursor. A SQLite database in a temporary folder, or PostgreSQL (``--url``); prints a table.

    python benchmarks/bench_listing.py --tables 20000
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.storage import actions, seats, tables
from dreizehn.server.storage.listing import Cursor, TableQuery, list_tables
from dreizehn.server.storage.store import make_engine, migrate

ACCOUNTS = 200


def fill(engine: Any, count: int, rng: random.Random) -> None:
    """``count`` tables, a third each open, playing and finished (40 actions each, one in 20 the stand-in's last),
    2 to 4 seats, half of the people's seats bound to one of :data:`ACCOUNTS` accounts, one table in 10 private."""
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    people = [f"acc{i}" for i in range(ACCOUNTS)]
    with engine.begin() as c:
        c.execute(accounts.insert(), [{"id": a, "name": a, "name_key": a, "password_hash": "-", "settings": {},
                                       "created_at": start} for a in people])
    for first in range(0, count, 2000):
        rows, seat_rows, action_rows = [], [], []
        for i in range(first, min(count, first + 2000)):
            status = ("open", "playing", "finished")[i % 3]
            made = start + dt.timedelta(seconds=i * 60)
            table_id = f"t{i:07d}"
            rows.append({"id": table_id, "game_id": rng.choice(["holzwurm", "knizia13", "three-thirteen"]),
                         "players": 3, "options": {}, "seed": i, "package_version": "bench", "status": status,
                         "spectator_hash": f"{i:064d}", "clock": 0, "created_at": made, "private": i % 10 == 0,
                         "finished_at": made + dt.timedelta(minutes=30) if status == "finished" else None})
            for seat in range(rng.randint(2, 4)):
                bot = seat > 0 and rng.random() < 0.3
                seat_rows.append({"table_id": table_id, "seat": seat, "name": f"P{seat}",
                                  "bot": "medium" if bot else None,
                                  "joined": not (status == "open" and seat == 1 and not bot),
                                  "account_id": rng.choice(people) if not bot and rng.random() < 0.5 else None})
            if status == "finished":
                last_by = "stand-in" if rng.random() < 0.05 else "person"
                action_rows += [{"table_id": table_id, "seq": s, "seat": s % 2, "action": "x",
                                 "by": last_by if s >= 38 else "person", "at": made} for s in range(40)]
        with engine.begin() as c:
            c.execute(tables.insert(), rows)
            c.execute(seats.insert(), seat_rows)
            if action_rows:
                c.execute(actions.insert(), action_rows)


def timed(engine: Any, query: TableQuery, runs: int) -> tuple[float, int]:
    """The median milliseconds of a page, and its length."""
    times, length = [], 0
    for _ in range(runs):
        begun = time.perf_counter()
        length = len(list_tables(engine, query).tables)
        times.append((time.perf_counter() - begun) * 1000)
    return statistics.median(times), length


def deep_cursor(engine: Any, query: TableQuery, pages: int) -> Cursor | None:
    cursor = None
    for _ in range(pages - 1):
        cursor = list_tables(engine, TableQuery(query.status, query.game, query.account_id, query.mine, cursor,
                                                query.limit)).next
    return cursor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--url", default=None, help="a PostgreSQL database's URL (an empty one); else SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(args.url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        migrate(engine)
        begun = time.perf_counter()
        fill(engine, args.tables, random.Random(1))
        print(f"{args.tables} tables made in {time.perf_counter() - begun:.1f} s ({engine.dialect.name})")
        person = "acc7"
        cases = [
            ("open, a guest", TableQuery("open")),
            ("open, signed in (mine first)", TableQuery("open", account_id=person)),
            ("playing, one game, signed in", TableQuery("playing", "knizia13", account_id=person)),
            ("finished, signed in", TableQuery("finished", account_id=person)),
            ("finished, mine alone", TableQuery("finished", account_id=person, mine=True)),
        ]
        deep = TableQuery("finished", account_id=person)
        cases.append(("finished, page 20 by cursor", TableQuery("finished", account_id=person,
                                                                 after=deep_cursor(engine, deep, 20))))
        print(f"{'page of 50':34} {'ms (median)':>12} {'tables':>7}")
        for name, query in cases:
            ms, length = timed(engine, query, args.runs)
            print(f"{name:34} {ms:12.1f} {length:7d}")


if __name__ == "__main__":
    main()
