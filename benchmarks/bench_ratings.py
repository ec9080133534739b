"""The leaderboard and the rating updates on PostgreSQL (issue 47, "Show"): ``--players`` generated rated players
(100,000) in one game, the page ``GET /api/leaderboard/{game}`` asked of a server process (``dreizehn serve`` on
127.0.0.1, one HTTP connection kept open, as a reader's browser asks it) by a guest and by signed-in readers at the
top, in the thick of the board and at its bottom (their own rank found by the counts by rating band, rule G4),
p50/p99 in ms (the goal: p99 under 50 ms); the board's queries alone, and PostgreSQL's own time for them (EXPLAIN
ANALYZE, beside the plain count of everyone above that the bands replaced); then rated games applied one after
another (:meth:`RatingStore.apply`, one transaction each: the mark, the ratings locked, updated, their counts by band
and their history) as games a second and ratings a second.

    PYTHONPATH=src python benchmarks/bench_ratings.py [--players 100000] [--requests 300] [--games 1000]
        [--database postgresql://...] [--json FILE]

Without ``--database`` it starts the tests' throwaway PostgreSQL cluster (tests/server/conftest.py). The players'
last rated games are spread over the last 40 days, so about three in four are on the board; the tables are
vacuumed once filled, as autovacuum leaves a settled table. Run it plainly (not under ``nice``): it times.
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
    from dreizehn.server.ratings.bands import recount
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
        recount(c)  # stored around RatingStore: counted by band as migration 0014 counts a database's ratings
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


def _reader(url: str, engine: sa.Engine, name: str, shown: int) -> Any:
    """A signed-in HTTP client (its connection kept open) whose account has ``shown`` as its rating, played
    today."""
    import httpx2

    from dreizehn.server.accounts.schema import accounts
    from dreizehn.server.ratings import bands
    from dreizehn.server.ratings.schema import ratings

    reader = httpx2.Client(base_url=url, timeout=30.0)
    answer = reader.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    at = dt.datetime.now(dt.UTC)
    with engine.begin() as c:
        account_id = c.execute(sa.select(accounts.c.id).where(accounts.c.name == name)).scalar_one()
        c.execute(ratings.insert().values(account_id=account_id, game_id=GAME, mu=25.0, sigma=2.0, games=50,
                                          shown=shown, played_at=at))
        bands.change(c, GAME, {bands.key_of(shown, at): 1})
    return reader


def _median_shown(engine: sa.Engine) -> int:
    with engine.connect() as c:
        return int(c.execute(sa.text("SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY shown) FROM ratings "
                                     "WHERE game_id = :g"), {"g": GAME}).scalar_one())


FLOORS = {"(the floor: a page that does nothing, 404)": "/api/no-such-page",
          "(the floor: /api/health, one database round trip)": "/api/health"}
"""Pages asked beside the board, by the guest: what any request costs on the machine at the time."""


def _row(who: str, requests: int, took: list[float]) -> dict[str, Any]:
    row = {"who": who, "requests": requests, "p50_ms": statistics.median(took), "p99_ms": _pct(took, 0.99),
           "max_ms": max(took)}
    print(f"  {who}: p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms", flush=True)
    return row


def _timed(client: Any, who: str, path: str, requests: int) -> dict[str, Any]:
    return _row(who, requests, _times(lambda: client.get(path).status_code, requests))


def _board(database: str, requests: int) -> list[dict[str, Any]]:
    import httpx2

    sys.path.insert(0, str(ROOT / "tests"))
    kit = importlib.import_module("server.kit")
    from dreizehn.server.storage import make_engine

    engine = make_engine(database)
    with tempfile.TemporaryDirectory() as data:
        server = kit.ServerProcess(Path(data), {
            "DATABASE_URL": database, "DREIZEHN_DATA_DIR": data, "DREIZEHN_RATING_INTERVAL": 3600,
            "DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_PASSWORD_MEMORY_KIB": 8192, "DREIZEHN_PASSWORD_PASSES": 1,
            "DREIZEHN_SIGNUP_LIMIT_ADDRESS": "1000 per hour"}).start(timeout=120)
        try:
            readers = {"a guest": httpx2.Client(base_url=server.url, timeout=30.0),
                       "a reader near the top": _reader(server.url, engine, "TopReader", 2400),
                       "a reader in the thick of it (the median)": _reader(server.url, engine, "MidReader",
                                                                           _median_shown(engine)),
                       "a reader at the bottom": _reader(server.url, engine, "LowReader", -5000)}
            rows = [_timed(readers["a guest"], who, path, requests) for who, path in FLOORS.items()]
            for who, reader in readers.items():
                def ask(reader: Any = reader, guest: bool = who == "a guest") -> None:
                    answer = reader.get(f"/api/leaderboard/{GAME}")
                    assert answer.status_code == 200 and len(answer.json()["rows"]) == 100, answer.text
                    assert guest or answer.json()["you"] is not None, answer.text
                rows.append(_row(who, requests, _times(ask, requests)))
            for reader in readers.values():
                reader.close()
        finally:
            server.kill()
            engine.dispose()
    return rows


def _queries(database: str, requests: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The board's queries alone (:class:`RatingStore`, no server around them): the top 100, and the rank of the
    lowest player and of the median one; before them, PostgreSQL's own time for each (and for the plain count of
    everyone above the lowest, which the counts by band replaced), and the plans of the ranks."""
    from dreizehn.server.ratings.bands import active_since
    from dreizehn.server.ratings.store import RatingStore
    from dreizehn.server.storage import make_engine

    engine = make_engine(database)
    store = RatingStore(engine)
    since = active_since(dt.datetime.now(dt.UTC))
    found = {}
    with engine.connect() as c:
        for who, order in (("lowest", "shown"), ("median", "abs(shown - :m)")):
            found[who] = c.execute(sa.text(f"SELECT account_id, shown FROM ratings WHERE game_id = :g AND "
                                           f"played_at >= :s ORDER BY {order} LIMIT 1"),
                                   {"g": GAME, "s": since, "m": _median_shown(engine)}).one()
    rows, plans = _explained(engine, since, found, requests)
    for what, ask in (("the top 100 (RatingStore.board)", lambda: store.board(GAME, since, 100)),
                      ("the lowest's rank (RatingStore.rank)", lambda: store.rank(GAME, found["lowest"][0], since)),
                      ("the median's rank (RatingStore.rank)", lambda: store.rank(GAME, found["median"][0], since))):
        took = _times(ask, requests)
        rows.append({"who": what, "requests": requests, "p50_ms": statistics.median(took),
                     "p99_ms": _pct(took, 0.99), "max_ms": max(took)})
    engine.dispose()
    return rows, plans


TOP = ("SELECT accounts.name, ratings.* FROM ratings JOIN accounts ON accounts.id = ratings.account_id "
       "WHERE ratings.game_id = :g AND ratings.played_at >= :s ORDER BY ratings.shown DESC, accounts.name_key "
       "LIMIT 100")
"""The top 100 as RatingStore.board asks it."""
PLAIN_COUNT = "SELECT count(*) FROM ratings WHERE game_id = :g AND played_at >= :s AND shown > :shown"
"""A rank as RatingStore.rank counted it before the counts by band (migration 0014)."""


def _explained(engine: sa.Engine, since: dt.datetime, found: dict[str, Any],
               requests: int) -> tuple[list[dict[str, Any]], list[str]]:
    """PostgreSQL's own execution time (EXPLAIN ANALYZE: without the round trip or Python) of the board's queries;
    and the plans of the ranks."""
    from dreizehn.server.ratings.bands import STANDING, standing_values

    def by_bands(account_id: str) -> tuple[str, dict[str, Any]]:
        return str(STANDING), standing_values(GAME, account_id, since)

    asked = {"the top 100, PostgreSQL's execution time": (TOP, {}),
             "the lowest's rank by bands, PostgreSQL's execution time": by_bands(found["lowest"].account_id),
             "the median's rank by bands, PostgreSQL's execution time": by_bands(found["median"].account_id),
             "the lowest's rank by a plain count (before 0014), PostgreSQL's execution time": (
                 PLAIN_COUNT, {"shown": found["lowest"].shown})}
    rows, plans = [], []
    with engine.connect() as c:
        for what, (sql, values) in asked.items():
            took = []
            for _ in range(requests):
                plan = c.execute(sa.text(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}"),
                                 {"g": GAME, "s": since, **values}).scalar_one()
                took.append(float(plan[0]["Execution Time"]))
            rows.append({"who": what, "requests": requests, "p50_ms": statistics.median(took),
                         "p99_ms": _pct(took, 0.99), "max_ms": max(took)})
            if "rank" in what:
                text = c.execute(sa.text(f"EXPLAIN (ANALYZE, BUFFERS) {sql}"), {"g": GAME, "s": since, **values})
                plans.append(f"{what.split(',')[0]}:\n  " + "\n  ".join(text.scalars()))
    return rows, plans


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
    load = _load()
    board = _board(database, args.requests)
    queries, plans = _queries(database, args.requests)
    updates = _updates(database, args.players, args.games, args.seed)
    load += _load()
    print(f"\nGET /api/leaderboard/{GAME}, {args.players:,} rated players (the goal: p99 under 50 ms); then its "
          f"queries alone; load average (1, 5, 15 min) before {' '.join(load[:3])}, after {' '.join(load[3:])}")
    print("| reader | requests | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|")
    for r in board + queries:
        print(f"| {r['who']} | {r['requests']} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.1f} |")
    print(f"\nrating updates: {updates['games']} games of 4 players applied one after another in "
          f"{updates['seconds']:.1f} s: {updates['games_per_s']:.0f} games a second, "
          f"{updates['ratings_per_s']:.0f} ratings a second")
    print("\nthe plans (EXPLAIN ANALYZE, BUFFERS):\n" + "\n".join(plans))
    if args.json:
        args.json.write_text(json.dumps({"players": args.players, "postgres": version, "indexes": indexes, "load": load,
                                         "leaderboard": board + queries, "updates": updates, "plans": plans},
                                        indent=1) + "\n")


def _load() -> list[str]:
    """The load average (1, 5 and 15 minutes)."""
    return Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []


if __name__ == "__main__":
    main()
