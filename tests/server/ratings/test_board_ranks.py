"""Rule G4's ranks by bands (issue 47, "Show": a board of 100,000 players served fast): a reader's place computed
from the counts by rating band and day equals a plain count of the active players above them, for many generated
players with equal ratings, ratings at the bands' edges and below zero, last games right at the board's first moment
and past it; after the migration that made the counts, rated games applied, and accounts deleted (SQLite and
PostgreSQL). The board a process keeps in memory is forgotten when it applies a rated game."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from starlette.testclient import TestClient

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.accounts.store import AccountStore
from dreizehn.server.ratings import service
from dreizehn.server.ratings.bands import BAND, active_since, band_of, day_of
from dreizehn.server.ratings.schema import rating_bands, ratings
from dreizehn.server.ratings.store import Outcome, RatingStore
from dreizehn.server.schemas import LeaderboardOut
from dreizehn.server.settings import Settings
from dreizehn.server.storage import MIGRATIONS, make_engine, migrate, now, tables

from ..accounts.people import sign_up
from .test_ratings import account_ids, engine_of, finished_game

GAMES = ("knizia13", "holzwurm")
EDGES = (0, -1, -9, -10, -11, 1499, 1500, 1501, 1509, 1510, 1511, 1000, 1000, 1000)
"""Ratings at and beside bands' edges (every multiple of BAND is one), below zero, and many equal ones."""


def _upgrade_to(engine: sa.Engine, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def _stored_players(engine: sa.Engine, rng: random.Random, count: int, at: dt.datetime) -> list[str]:
    """``count`` accounts; most with a rating in one or both games, its last game at or about the board's first
    moment, past it, or lately; their ids."""
    since = active_since(at)
    moments = (since, since - dt.timedelta(microseconds=1), since + dt.timedelta(microseconds=1),
               since + dt.timedelta(hours=23, minutes=59), at - dt.timedelta(days=31), at - dt.timedelta(days=45),
               at, at - dt.timedelta(days=3))
    ids = [f"gen{i:06d}" for i in range(count)]
    with engine.begin() as c:
        c.execute(accounts.insert(), [{"id": a, "name": f"Player{i}", "name_key": f"player{i}", "password_hash": "x",
                                       "settings": {}, "created_at": at} for i, a in enumerate(ids)])
        rows = []
        for i, account in enumerate(ids[:count * 3 // 4]):
            for game in GAMES[:1 + i % 2]:
                shown = rng.choice(EDGES) if rng.random() < 0.6 else rng.randint(-300, 2500)
                rows.append({"account_id": account, "game_id": game, "mu": 25.0, "sigma": 8.0, "games": 3,
                             "shown": shown, "played_at": rng.choice(moments)})
        c.execute(ratings.insert(), rows)
    return ids


def _check(engine: sa.Engine) -> int:
    """The counts by band and day are the ratings' own, and every account's place by them is a plain count;
    how many places were compared."""
    since = active_since(now())
    with engine.connect() as c:
        rows = c.execute(sa.select(ratings.c.account_id, ratings.c.game_id, ratings.c.shown,
                                   ratings.c.played_at)).all()
        kept = {(r.game_id, r.day, r.band): r.players for r in c.execute(sa.select(rating_bands)) if r.players}
    assert kept == Counter((r.game_id, day_of(r.played_at), band_of(r.shown)) for r in rows)
    active = [r for r in rows if _aware(r.played_at) >= since]
    store = RatingStore(engine)
    for r in rows:
        counted = (1 + sum(1 for o in active if o.game_id == r.game_id and o.shown > r.shown)
                   if _aware(r.played_at) >= since else None)
        assert store.rank(r.game_id, r.account_id, since) == counted, (r, counted)
    return len(rows)


def _aware(at: dt.datetime) -> dt.datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)


def _games(engine: sa.Engine, rng: random.Random, ids: list[str], count: int) -> list[Outcome]:
    """``count`` finished rated games of 2 to 6 of ``ids`` (some never rated before), places with ties."""
    at = now()
    outcomes = []
    for i in range(count):
        seated = rng.sample(ids, rng.randint(2, 6))
        places = tuple(sorted(rng.randint(1, len(seated)) for _ in seated))
        outcomes.append(Outcome(f"band{i:05d}", GAMES[i % 2], tuple(seated), places))
    with engine.begin() as c:
        c.execute(tables.insert(), [{"id": o.table_id, "game_id": o.game_id, "players": len(o.places), "options": {},
                                     "seed": 0, "package_version": "test", "status": "finished",
                                     "spectator_hash": "x", "clock": 0, "created_at": at, "finished_at": at,
                                     "rated": True} for o in outcomes])
    return outcomes


def test_g4_ranks_by_bands_equal_a_plain_count(db_settings: Settings) -> None:
    engine = make_engine(db_settings.database, db_settings.data_dir)
    try:
        rng = random.Random(47)
        _upgrade_to(engine, "0013")
        ids = _stored_players(engine, rng, 240, now())
        migrate(engine)  # 0014 counts the ratings stored before it
        assert _check(engine) > 200
        store = RatingStore(engine)
        for outcome in _games(engine, rng, ids, 80):
            assert store.apply(outcome)
        _check(engine)
        people = AccountStore(engine)
        for account in rng.sample(ids, 12):
            assert people.delete(account)
        assert _check(engine) > 200
        with engine.connect() as c:  # the edges were there: equal ratings, a band's first and last point
            shown = Counter(c.execute(sa.select(ratings.c.shown)).scalars())
        assert max(shown.values()) > 5 and any(s % BAND == 0 for s in shown)
        assert any(s % BAND == BAND - 1 for s in shown) and any(s < 0 for s in shown)
    finally:
        engine.dispose()


def test_g4_a_process_forgets_its_board_when_it_applies_a_game(serve: Callable[[Settings], TestClient],
                                                               settings: Settings,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "BOARD_SECONDS", 3600.0)  # kept until forgotten, however slow the machine
    client = serve(settings.model_copy(update={"rating_interval": 3600.0}))
    people = account_ids(client, "Anna", "Bruno", "Clara")
    engine = engine_of(client)
    ratings_of: service.Ratings = client.app.state.ratings  # type: ignore[attr-defined]
    finished_game(engine, people, seed=1)
    assert ratings_of.sweep() == 1
    first = client.get("/api/leaderboard/knizia13").json()["rows"]
    finished_game(engine, people, seed=2)
    assert ratings_of.sweep() == 1
    page = client.get("/api/leaderboard/knizia13")
    assert page.headers["content-type"] == "application/json"
    then = LeaderboardOut.model_validate_json(page.content).model_dump()["rows"]  # the page's text is the schema's
    assert {row["games"] for row in first} == {1} and {row["games"] for row in then} == {2}
    for row in then:
        assert row["rating"] == client.get(f"/api/ratings/{row['name']}").json()["ratings"][0]["rating"]
    reader = TestClient(client.app)
    sign_up(reader, "Dora")
    assert reader.get("/api/leaderboard/knizia13").json()["you"] is None
    reader.post("/api/session", json={"name": then[1]["name"], "password": "correct horse battery"})
    assert reader.get("/api/leaderboard/knizia13").json()["you"] == then[1]
