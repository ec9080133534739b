"""Issue 47's faults of ratings, with real server processes: a server killed (SIGKILL) while rated games end rates
every one of them exactly once after it starts again; two processes on one PostgreSQL database finishing rated games
of the same two accounts at once lose no update and apply none twice. The games play themselves: turn-based tables
whose clocks (one second) hand each person's seat to a bot (rule P3 ``seat``), which plays it to the end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx2
import sqlalchemy as sa

from dreizehn.server.accounts.schema import accounts
from dreizehn.server.ratings.schema import rated_games, rating_history, ratings
from dreizehn.server.storage import tables

from ..accounts.people import PASSWORD
from ..conftest import new_database
from ..kit import ServerProcess, eventually

ENV = {"DREIZEHN_BOT_WORKERS": 0, "DREIZEHN_BOT_PAUSE": 0.0, "DREIZEHN_TURN_SWEEP": 0.05,
       "DREIZEHN_MOVE_TIME_MIN": 1, "DREIZEHN_PASSWORD_MEMORY_KIB": 8192, "DREIZEHN_PASSWORD_PASSES": 1,
       "DREIZEHN_PRESENCE_INTERVAL": 0.3, "DREIZEHN_SIGNUP_LIMIT_ADDRESS": "1000 per hour",
       "DREIZEHN_SIGNIN_LIMIT_ADDRESS": "1000 per hour"}


def signed_in(server: ServerProcess, name: str, new: bool) -> httpx2.Client:
    client = httpx2.Client(base_url=server.url, timeout=30.0)
    answer = client.post("/api/accounts" if new else "/api/session", json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    client.headers.update({"X-CSRF-Token": answer.json()["csrf"], "Origin": server.url})
    return client


def rated_games_of(client: httpx2.Client, friend: str, count: int) -> list[str]:
    """``count`` rated turn-based Holzwurm games of the client's person and ``friend``, each person's seat handed
    to a bot after a second: their ids."""
    made = []
    for _ in range(count):
        answer = client.post("/api/tables", json={
            "game": "holzwurm", "options": {"games": 1}, "rated": True, "pace": "turn-based", "move_time": 1,
            "on_timeout": "seat", "seats": [{"kind": "person", "name": "Me"}, {"kind": "person", "user": friend}]})
        assert answer.status_code == 201, answer.text
        made.append(answer.json()["table"]["id"])
    return made


def count(engine: sa.Engine, query: sa.Select[Any]) -> int:
    with engine.connect() as c:
        return int(c.execute(query).scalar_one())


def finished(engine: sa.Engine, ids: list[str]) -> int:
    return count(engine, sa.select(sa.func.count()).select_from(tables).where(tables.c.id.in_(ids),
                                                                              tables.c.status == "finished"))


def games_rated(engine: sa.Engine, name: str) -> tuple[int, int]:
    """The account's rated games in Holzwurm as its rating counts them, and its rows of history."""
    with engine.connect() as c:
        account = c.execute(sa.select(accounts.c.id).where(accounts.c.name == name)).scalar_one()
        games = c.execute(sa.select(ratings.c.games).where(ratings.c.account_id == account,
                                                           ratings.c.game_id == "holzwurm")).scalar() or 0
        history = c.execute(sa.select(sa.func.count()).select_from(rating_history)
                            .where(rating_history.c.account_id == account)).scalar_one()
    return int(games), int(history)


def test_a_server_killed_while_rated_games_end_rates_each_once_after_its_start(
        processes: Callable[..., ServerProcess], tmp_path: Path) -> None:
    env = {**ENV, "DREIZEHN_DATA_DIR": tmp_path / "data"}
    server = processes(env)
    signed_in(server, "Bruno", new=True)
    ids = rated_games_of(signed_in(server, "Anna", new=True), "Bruno", 10)
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'data' / 'dreizehn.sqlite3'}")
    try:
        eventually(lambda: finished(engine, ids) >= 2, "some games ended", timeout=120)
        server.kill()  # while the others end, and the rating of the last ended may not be applied
        assert finished(engine, ids) < len(ids)
        processes(env)
        eventually(lambda: finished(engine, ids) == len(ids), "every game ended after the start", timeout=180)
        eventually(lambda: count(engine, sa.select(sa.func.count()).select_from(rated_games)) == len(ids),
                   "every game rated")
        assert games_rated(engine, "Anna") == games_rated(engine, "Bruno") == (len(ids), len(ids))
    finally:
        engine.dispose()


def test_two_processes_ending_rated_games_of_the_same_people_at_once_lose_no_update(
        processes: Callable[..., ServerProcess], postgres_url: str, tmp_path: Path) -> None:
    database = new_database(postgres_url)
    env = {**ENV, "DATABASE_URL": database, "DREIZEHN_DATA_DIR": tmp_path / "unused"}
    first, second = processes(env), processes(env)
    signed_in(first, "Bruno", new=True)
    signed_in(first, "Anna", new=True)
    ids = [*rated_games_of(signed_in(first, "Anna", new=False), "Bruno", 6),
           *rated_games_of(signed_in(second, "Anna", new=False), "Bruno", 6)]  # each process the home of six
    engine = sa.create_engine(database.replace("postgresql://", "postgresql+psycopg://"))
    try:
        eventually(lambda: finished(engine, ids) == len(ids), "every game ended", timeout=180)
        eventually(lambda: count(engine, sa.select(sa.func.count()).select_from(rated_games)) == len(ids),
                   "every game rated")
        assert games_rated(engine, "Anna") == games_rated(engine, "Bruno") == (len(ids), len(ids))
    finally:
        engine.dispose()
