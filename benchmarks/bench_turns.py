"""Turn clocks firing on time (issue 46, docs/turns.md): ``--tables`` turn-based tables (default 10,000), each with
a person to move whose clock runs out at a moment spread evenly over ``--window`` seconds, served by one and by two
``dreizehn serve`` processes on one PostgreSQL database (a new database of the tests' throwaway cluster for each
run). Each clock's rule is ``move``: a bot plays the move, stored ``by`` ``stand-in``. Printed per run: the clocks
fired, those not fired by the end, how many processes fired them (each table's first move is stored once: the
database's key), and the lateness of each (the stored move's time minus the clock's due time) p50, p99 and max.

    PYTHONPATH=src python benchmarks/bench_turns.py --tables 10000 --window 60 --sweep 1
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import secrets
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent


def _seed_tables(engine: sa.Engine, count: int, start: dt.datetime, window: float) -> None:
    """``count`` turn-based tables of two people (Holzwurm, one game) whose first clock runs out between ``start``
    and ``start + window``."""
    from dreizehn import __version__
    from dreizehn.core.registry import load_game
    from dreizehn.server.storage import seats, tables
    from dreizehn.server.turns.schema import turn_clocks

    game = load_game("holzwurm", 2, {"games": 1})
    now = dt.datetime.now(dt.UTC)
    table_rows, seat_rows, clock_rows = [], [], []
    for i in range(count):
        table_id, seed = f"bench{uuid.uuid4().hex[:16]}", secrets.randbits(62)
        table_rows.append({"id": table_id, "game_id": game.id, "players": 2, "options": dict(game.options),
                           "seed": seed, "package_version": __version__, "status": "open", "spectator_hash": "-",
                           "clock": 0.0, "created_at": now, "pace": "turn-based", "move_time": 3600,
                           "on_timeout": "move"})
        seat_rows += [{"table_id": table_id, "seat": s, "name": f"P{s}", "bot": None, "joined": True}
                      for s in range(2)]
        due = start + dt.timedelta(seconds=window * i / count)
        clock_rows.append({"table_id": table_id, "seat": game.new_state(seed).current_player, "version": 0,
                           "started_at": due - dt.timedelta(hours=1), "due_at": due, "remind_at": None})
    with engine.begin() as c:
        for rows, table in ((table_rows, tables), (seat_rows, seats), (clock_rows, turn_clocks)):
            for i in range(0, len(rows), 2000):
                c.execute(table.insert(), rows[i:i + 2000])


def _lateness(engine: sa.Engine) -> tuple[list[float], int]:
    """Per clock fired, its lateness in seconds; and how many clocks of version 0 were not fired."""
    from dreizehn.server.turns.schema import turn_clocks

    with engine.connect() as c:
        late = [float(r[0]) for r in c.execute(sa.text(
            "SELECT EXTRACT(EPOCH FROM (a.at - t.created_at)) FROM actions a JOIN bench_due t ON t.id = a.table_id "
            "WHERE a.seq = 0 AND a.by = 'stand-in'"))]
        left = c.execute(sa.select(sa.func.count()).select_from(turn_clocks).where(turn_clocks.c.version == 0)).scalar()
    return late, int(left or 0)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def run(cluster_url: str, servers: int, args: argparse.Namespace) -> dict[str, Any]:
    import psycopg

    from dreizehn.server.storage import make_engine, migrate

    base = cluster_url.rsplit("/", 1)[0]
    name = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    url = f"{base}/{name}"
    engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    migrate(engine)
    start = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=args.lead)
    _seed_tables(engine, args.tables, start, args.window)
    with engine.begin() as c:  # each table's due time, kept apart from the clocks (which the fired ones leave)
        c.execute(sa.text("CREATE TABLE bench_due AS SELECT table_id AS id, due_at AS created_at FROM turn_clocks"))
    kit = importlib.import_module("server.kit")
    env = {"DATABASE_URL": url, "DREIZEHN_TURN_SWEEP": args.sweep, "DREIZEHN_BOT_WORKERS": 0,
           "DREIZEHN_ROOM_IDLE": 30}
    work = Path(tempfile.mkdtemp(prefix="bench_turns_"))
    procs = [kit.ServerProcess(work, env).start(timeout=120) for _ in range(servers)]
    try:
        time.sleep(max(0.0, (start - dt.datetime.now(dt.UTC)).total_seconds()) + args.window + args.slack)
        late, left = _lateness(engine)
    finally:
        for proc in procs:
            proc.kill()
        engine.dispose()
    return {"servers": servers, "fired": len(late), "left": left, "p50": _percentile(late, 0.5),
            "p99": _percentile(late, 0.99), "max": max(late) if late else float("nan")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10_000, help="turn-based tables (default 10,000)")
    parser.add_argument("--window", type=float, default=60.0, help="seconds the due times spread over (default 60)")
    parser.add_argument("--sweep", type=float, default=1.0, help="DREIZEHN_TURN_SWEEP of the servers (default 1)")
    parser.add_argument("--lead", type=float, default=20.0, help="seconds from the start to the first due time")
    parser.add_argument("--slack", type=float, default=30.0, help="seconds waited after the last due time")
    parser.add_argument("--servers", default="1,2", help="the numbers of processes, in turn (default 1,2)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    postgres_cluster = importlib.import_module("server.conftest").postgres_cluster
    rows = []
    with postgres_cluster() as cluster:
        for servers in (int(n) for n in args.servers.split(",")):
            load = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
            print(f"== {servers} process(es), {args.tables} tables over {args.window:.0f} s, sweep every "
                  f"{args.sweep} s; load: {load}", flush=True)
            rows.append(run(cluster.url, servers, args))
    print(f"\n{'processes':>9} {'fired':>7} {'not fired':>9} {'late p50 s':>10} {'p99 s':>7} {'max s':>7}")
    for r in rows:
        print(f"{r['servers']:>9} {r['fired']:>7} {r['left']:>9} {r['p50']:>10.2f} {r['p99']:>7.2f} {r['max']:>7.2f}")


if __name__ == "__main__":
    main()
