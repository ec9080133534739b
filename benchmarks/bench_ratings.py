"""The leaderboard and the rating updates on PostgreSQL (issue 47, "Show"): ``--players`` generated rated players
(100,000) in one game, the page ``GET /api/leaderboard/{game}`` asked through the server's application
(in-process, its ASGI app and database as served, no network between), for a guest and for signed-in readers near
the top and at the bottom of the board (their own rank counted), p50/p99 in ms (the goal: p99 under 50 ms); then
rated games applied one after another (:meth:`RatingStore.apply`, one transaction each: the mark, the ratings
locked, updated and their history) as games a second and ratings a second.

    PYTHONPATH=src python benchmarks/bench_ratings.py [--players 100000] [--requests 300] [--games 1000]
        [--database postgresql://...] [--json FILE]

Without ``--database`` it starts the tests' throwaway PostgreSQL cluster (tests/server/conftest.py). The players'
last rated games are spread over the last 40 days, so about three in four are on the 30-day board; the tables are
vacuumed once filled, as autovacuum leaves a settled table (the counts of a rank read the index alone).
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
GAME = "knizia13"
PASSWORD = "correct horse battery"


def _fill(engine: sa.Engine, players: int, seed: int) -> None:
    """``players`` accounts, each with a rating in :data:`GAME` (mu, sigma and games spread as a live site's would
    be) and a last rated game in the last 40 days."""
    from dreizehn.server.accounts.schema import accounts
    from dreizehn.server.ratings.model import Skill
    from dreizehn.server.ratings.schema import ratings

    rng = random.Random(seed)
    now = dt.datetime.now(dt.UTC)
    batch = 10_000
    with engine.begin() as c:
        for start in range(0, players, batch):
            people, rated = [], []
            for i in range(start, min(players, start + batch)):
                account_id = f"gen{i:08d}"
                games = rng.randint(1, 300)
                skill = Skill(rng.gauss(25.0, 4.0), max(0.8, 8.33 / (1 + games / 15)), games)
                people.append({"id": account_id, "name": f"Player{i}", "name_key": f"player{i}",
                               "password_hash": "x", "settings": {}, "created_at": now})
                rated.append({"account_id": account_id, "game_id": GAME, "mu": skill.mu, "sigma": skill.sigma,
                              "games": games, "shown": skill.shown,
                              "played_at": now - dt.timedelta(seconds=rng.uniform(0, 40 * 86400))})
            c.execute(accounts.insert(), people)
            c.execute(ratings.insert(), rated)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.exec_driver_sql("VACUUM ANALYZE")  # as autovacuum leaves a table that has settled: index-only scans


def _times(ask: Callable[[], Any], count: int) -> list[float]:
    for _ in range(10):  # warm: connections, caches
        ask()
    out = []
    for _ in range(count):
        start = time.perf_counter()
        ask()
        out.append((time.perf_counter() - start) * 1000)
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _reader(client: Any, engine: sa.Engine, name: str, shown: int) -> Any:
    """A signed-in client whose account has ``shown`` as its rating, played today."""
    from starlette.testclient import TestClient

    from dreizehn.server.accounts.schema import accounts
    from dreizehn.server.ratings.schema import ratings

    reader = TestClient(client.app)
    answer = reader.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    with engine.begin() as c:
        account_id = c.execute(sa.select(accounts.c.id).where(accounts.c.name == name)).scalar_one()
        c.execute(ratings.insert().values(account_id=account_id, game_id=GAME, mu=25.0, sigma=2.0, games=50,
                                          shown=shown, played_at=dt.datetime.now(dt.UTC)))
    return reader


def _board(database: str, requests: int) -> list[dict[str, Any]]:
    from starlette.testclient import TestClient

    sys.path.insert(0, str(ROOT / "tests"))
    kit = importlib.import_module("server.kit")
    from dreizehn.server.app import create_app

    with tempfile.TemporaryDirectory() as data:
        settings = kit.make_settings(Path(data), database, rating_interval=3600.0)
        with TestClient(create_app(settings)) as client:
            engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
            readers = {"a guest": TestClient(client.app),
                       "a reader near the top": _reader(client, engine, "TopReader", 2400),
                       "a reader at the bottom": _reader(client, engine, "LowReader", -5000)}
            rows = []
            for who, reader in readers.items():
                def ask(reader: Any = reader) -> None:
                    answer = reader.get(f"/api/leaderboard/{GAME}")
                    assert answer.status_code == 200 and len(answer.json()["rows"]) == 100, answer.text
                took = _times(ask, requests)
                rows.append({"who": who, "requests": requests, "p50_ms": statistics.median(took),
                             "p99_ms": _pct(took, 0.99), "max_ms": max(took)})
                print(f"  {who}: p50 {rows[-1]['p50_ms']:.1f} ms, p99 {rows[-1]['p99_ms']:.1f} ms", flush=True)
    return rows


def _queries(database: str, requests: int) -> list[dict[str, Any]]:
    """The board's two queries alone (:class:`RatingStore`, no application around them): the top 100, and the rank
    of a player at the bottom (every active rating above it counted)."""
    from dreizehn.server.ratings.store import RatingStore
    from dreizehn.server.storage import make_engine

    engine = make_engine(database)
    store = RatingStore(engine)
    since = dt.datetime.now(dt.UTC) - dt.timedelta(days=30)
    with engine.connect() as c:
        lowest = c.execute(sa.text("SELECT account_id FROM ratings WHERE game_id = :g AND played_at >= :s "
                                   "ORDER BY shown LIMIT 1"), {"g": GAME, "s": since}).scalar_one()
    rows = _explained(engine, since, lowest, requests)
    for what, ask in (("the top 100 (RatingStore.board)", lambda: store.board(GAME, since, 100)),
                      ("the lowest's rank (RatingStore.rank)", lambda: store.rank(GAME, lowest, since))):
        took = _times(ask, requests)
        rows.append({"who": what, "requests": requests, "p50_ms": statistics.median(took),
                     "p99_ms": _pct(took, 0.99), "max_ms": max(took)})
    engine.dispose()
    return rows


EXPLAINED = {
    "the top 100, PostgreSQL's execution time": (
        "SELECT accounts.name, ratings.* FROM ratings JOIN accounts ON accounts.id = ratings.account_id "
        "WHERE ratings.game_id = :g AND ratings.played_at >= :s ORDER BY ratings.shown DESC, accounts.name_key "
        "LIMIT 100"),
    "the lowest's rank, PostgreSQL's execution time": (
        "SELECT count(*) FROM ratings WHERE game_id = :g AND played_at >= :s AND shown > "
        "(SELECT shown FROM ratings WHERE game_id = :g AND account_id = :a)"),
}
"""The board's queries as RatingStore.board and RatingStore.rank ask them, timed by EXPLAIN ANALYZE (the server's
own time, without the client's round trip or Python)."""


def _explained(engine: sa.Engine, since: dt.datetime, lowest: str, requests: int) -> list[dict[str, Any]]:
    rows = []
    for what, sql in EXPLAINED.items():
        took = []
        with engine.connect() as c:
            for _ in range(requests):
                plan = c.execute(sa.text(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}"),
                                 {"g": GAME, "s": since, "a": lowest}).scalar_one()
                took.append(float(plan[0]["Execution Time"]))
        rows.append({"who": what, "requests": requests, "p50_ms": statistics.median(took),
                     "p99_ms": _pct(took, 0.99), "max_ms": max(took)})
    return rows


def _updates(database: str, players: int, games: int, seed: int) -> dict[str, Any]:
    """``games`` rated games of 4 random players applied one after another, each in its own transaction."""
    from dreizehn.server.ratings.store import Outcome, RatingStore
    from dreizehn.server.storage import make_engine, tables

    engine = make_engine(database)
    rng = random.Random(seed)
    at = dt.datetime.now(dt.UTC)
    ids = [f"b{uuid.uuid4().hex[:20]}" for _ in range(games)]
    with engine.begin() as c:
        c.execute(tables.insert(), [{"id": t, "game_id": GAME, "players": 4, "options": {}, "seed": i,
                                     "package_version": "bench", "status": "finished", "spectator_hash": "x",
                                     "clock": 0, "created_at": at, "finished_at": at, "rated": True}
                                    for i, t in enumerate(ids)])
    store = RatingStore(engine)
    outcomes = [Outcome(t, GAME, tuple(f"gen{n:08d}" for n in rng.sample(range(players), 4)),
                        tuple(rng.sample([1, 2, 3, 4], 4))) for t in ids]
    start = time.perf_counter()
    applied = sum(store.apply(o) for o in outcomes)
    took = time.perf_counter() - start
    engine.dispose()
    return {"games": applied, "seconds": took, "games_per_s": applied / took, "ratings_per_s": 4 * applied / took}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=300, help="leaderboard requests a reader (default 300)")
    parser.add_argument("--games", type=int, default=1000, help="rated games applied (default 1000)")
    parser.add_argument("--database", help="an empty PostgreSQL database (default: a throwaway cluster's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if args.database:
        _run(args, args.database)
        return
    sys.path.insert(0, str(ROOT / "tests"))
    postgres_cluster = importlib.import_module("server.conftest").postgres_cluster
    with postgres_cluster() as cluster:
        _run(args, cluster.url)


def _run(args: argparse.Namespace, database: str) -> None:
    from dreizehn.server.storage import make_engine, migrate

    engine = make_engine(database)
    migrate(engine)
    start = time.perf_counter()
    _fill(engine, args.players, args.seed)
    with engine.connect() as c:
        indexes = [r[0] for r in c.exec_driver_sql(
            "SELECT indexdef FROM pg_indexes WHERE tablename = 'ratings' ORDER BY indexname")]
        version = c.exec_driver_sql("SHOW server_version").scalar()
    engine.dispose()
    print(f"{args.players:,} rated players stored in {time.perf_counter() - start:.1f} s (PostgreSQL {version})")
    print("indexes of ratings:\n  " + "\n  ".join(indexes), flush=True)
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    board = _board(database, args.requests) + _queries(database, args.requests)
    updates = _updates(database, args.players, args.games, args.seed)
    load += Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    print(f"\nGET /api/leaderboard/{GAME}, {args.players:,} rated players (the goal: p99 under 50 ms); then its two "
          f"queries alone; load average (1, 5, 15 min) before {' '.join(load[:3])}, after {' '.join(load[3:])}")
    print("| reader | requests | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|")
    for r in board:
        print(f"| {r['who']} | {r['requests']} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.1f} |")
    print(f"\nrating updates: {updates['games']} games of 4 players applied one after another in "
          f"{updates['seconds']:.1f} s: {updates['games_per_s']:.0f} games a second, "
          f"{updates['ratings_per_s']:.0f} ratings a second")
    if args.json:
        args.json.write_text(json.dumps({"players": args.players, "postgres": version, "indexes": indexes, "load": load,
                                         "leaderboard": board, "updates": updates}, indent=1) + "\n")


if __name__ == "__main__":
    main()
