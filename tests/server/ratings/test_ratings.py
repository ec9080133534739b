"""Issue 47 item 1 and its faults: ratings per game (rules G1–G4), updated exactly once per rated game, whatever
process or restart comes first; a player who left the game to the bots is placed last; the board of active
players."""

from __future__ import annotations

import datetime as dt
import random
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from dreizehn.core.registry import load_game
from dreizehn.server.accounts.schema import accounts
from dreizehn.server.ratings.model import SIGMA, Skill, places, skills_after
from dreizehn.server.ratings.schema import rated_games, rating_history, ratings
from dreizehn.server.ratings.service import Ratings
from dreizehn.server.ratings.store import RatingStore
from dreizehn.server.settings import Settings
from dreizehn.server.storage import Tables, actions, make_engine, migrate, new_table_id, now, seats, tables

from ..accounts.people import sign_up
from ..kit import eventually, make_settings


def finished_game(engine: sa.Engine, owners: Sequence[str | None], seed: int, rated: bool = True,
                  stand_in: int | None = None, game_id: str = "knizia13") -> tuple[str, tuple[int, ...]]:
    """Store a finished game of random moves at a new table, seat ``i`` bound to account ``owners[i]``; with
    ``stand_in``, that seat's moves from the middle of the game on are the stand-in's. Its id and totals."""
    game = load_game(game_id, len(owners), {})
    state = game.new_state(seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while not state.is_over:
        seat = state.current_player
        action = rng.choice(list(state.legal_actions()))
        log.append((seat, game.action_to_text(int(action))))
        state.apply(int(action))
    table_id, at = new_table_id(), now()
    with engine.begin() as c:
        c.execute(tables.insert().values(id=table_id, game_id=game_id, players=len(owners), options={},
                                         seed=seed, package_version="test", status="finished", spectator_hash="x",
                                         clock=0, created_at=at, finished_at=at, rated=rated))
        c.execute(seats.insert(), [{"table_id": table_id, "seat": i, "name": f"p{i}", "bot": None, "joined": True,
                                    "account_id": owner} for i, owner in enumerate(owners)])
        c.execute(actions.insert(), [{"table_id": table_id, "seq": i, "seat": seat, "action": text,
                                      "by": "stand-in" if seat == stand_in and i > len(log) // 2 else "person",
                                      "at": at} for i, (seat, text) in enumerate(log)])
    return table_id, state.totals


def account_ids(client: TestClient, *names: str) -> list[str]:
    ids = []
    for name in names:
        sign_up(TestClient(client.app), name)
    with engine_of(client).connect() as c:
        found = dict(c.execute(sa.select(accounts.c.name, accounts.c.id)).all())
    ids = [found[name] for name in names]
    return ids


def engine_of(client: TestClient) -> sa.Engine:
    engine: sa.Engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    return engine


def _rows(engine: sa.Engine, table: sa.Table) -> int:
    with engine.connect() as c:
        return int(c.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def test_g2_places_ties_and_leavers() -> None:
    assert places((5, 5, 1), high_score_wins=False, left=(False, False, False)) == [2, 2, 1]
    assert places((5, 5, 1), high_score_wins=False, left=(False, False, True)) == [1, 1, 3]
    assert places((0, 9, 9, 3), high_score_wins=True, left=(True, True, False, False)) == [3, 3, 1, 2]


def test_g1_a_win_raises_a_loss_lowers_a_fixed_seat_keeps() -> None:
    after = skills_after([Skill(), Skill(), Skill(30.0, 2.0, 40)], [1, 2, 3], [False, False, True])
    assert after[0].mu > after[1].mu > 25 and after[0].sigma < SIGMA and after[1].games == 1  # both beat the bot
    winner, loser = skills_after([Skill(), Skill()], [1, 2], [False, False])
    assert winner.mu > 25 > loser.mu
    assert after[2] == Skill(30.0, 2.0, 40)
    assert Skill().shown == 1000 and Skill(games=9).provisional and not Skill(games=10).provisional


@pytest.fixture
def rating_settings(tmp_path: Path) -> Settings:
    """Sweeps only when the test asks (an hour apart otherwise)."""
    return make_settings(tmp_path, rating_interval=3600.0)


def test_g3_a_rated_game_updates_its_accounts_once(serve: Callable[[Settings], TestClient],
                                                  rating_settings: Settings) -> None:
    client = serve(rating_settings)
    anna, bruno, clara = account_ids(client, "Anna", "Bruno", "Clara")
    engine = engine_of(client)
    _, totals = finished_game(engine, [anna, bruno, clara, None], seed=7)
    unrated, _ = finished_game(engine, [anna, bruno, clara], seed=8, rated=False)
    service: Ratings = client.app.state.ratings  # type: ignore[attr-defined]
    assert service.sweep() == 1
    assert service.sweep() == 0  # applied: never twice
    assert _rows(engine, rating_history) == 3 and _rows(engine, rated_games) == 1
    placed = places(totals, load_game("knizia13", 4, {}).high_score_wins, (False,) * 4)[:3]
    skills = [dict(RatingStore(engine).of_account(a))["knizia13"] for a in (anna, bruno, clara)]
    assert [s.games for s in skills] == [1, 1, 1]
    for i, j in ((0, 1), (0, 2), (1, 2)):  # all began equal: the better place ends higher, an equal one equal
        if placed[i] != placed[j]:
            assert (placed[i] < placed[j]) == (skills[i].mu > skills[j].mu)
        else:
            assert skills[i].mu == pytest.approx(skills[j].mu)
    answer = client.get("/api/ratings/anna").json()
    assert answer["name"] == "Anna" and answer["ratings"][0]["games"] == 1 and answer["ratings"][0]["provisional"]
    assert len(answer["history"]["knizia13"]) == 1 and unrated not in str(answer)


def test_g3_two_sweeps_at_once_apply_a_game_once(db_settings: Settings,
                                                 serve: Callable[[Settings], TestClient]) -> None:
    client = serve(db_settings.model_copy(update={"rating_interval": 3600.0}))
    people = account_ids(client, "Anna", "Bruno", "Clara")
    engine = engine_of(client)
    for seed in range(6):
        finished_game(engine, people, seed=seed)
    stores = [Ratings(make_engine(db_settings.database, db_settings.data_dir), Tables(engine)) for _ in range(2)]
    applied: list[int] = []
    start = threading.Barrier(2)

    def sweep(service: Ratings) -> None:
        start.wait()
        while True:
            try:
                applied.append(service.sweep())
                return
            except sa.exc.OperationalError:  # SQLite: the other writer held the database; sweep again
                continue

    threads = [threading.Thread(target=sweep, args=(s,)) for s in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(applied) == 6 and _rows(engine, rated_games) == 6
    for person in people:  # no update lost: every game counted in every rating
        assert dict(RatingStore(engine).of_account(person))["knizia13"].games == 6
    for service in stores:
        service.store.engine.dispose()


def test_g3_a_game_finished_before_a_kill_is_rated_at_the_next_start(tmp_path: Path,
                                                                    serve: Callable[[Settings], TestClient]) -> None:
    """The process stored the game's last action and was killed before it rated the game: the rated game is in
    the database, not applied; the next start applies it."""
    settings = make_settings(tmp_path, rating_interval=3600.0)
    engine = make_engine(settings.database, settings.data_dir)
    migrate(engine)
    with engine.begin() as c:
        c.execute(accounts.insert(), [{"id": f"id{i}", "name": n, "name_key": n.lower(), "password_hash": "x",
                                       "settings": {}, "created_at": now()} for i, n in enumerate(("Anna", "Bruno"))])
    finished_game(engine, ["id0", "id1", None], seed=3)
    engine.dispose()
    client = serve(settings)  # its start sweeps once

    eventually(lambda: _rows(engine_of(client), rated_games) == 1, "the start rated the game")
    assert _rows(engine_of(client), rating_history) == 2


def test_g2_who_left_to_the_bots_loses_as_last(serve: Callable[[Settings], TestClient],
                                               rating_settings: Settings) -> None:
    client = serve(rating_settings)
    people = account_ids(client, "Anna", "Bruno", "Clara")
    engine = engine_of(client)
    finished_game(engine, people, seed=11, stand_in=0)
    client.app.state.ratings.sweep()  # type: ignore[attr-defined]
    with engine.connect() as c:
        place = c.execute(sa.select(rating_history.c.place).where(rating_history.c.account_id == people[0])).scalar()
    assert place == 3


def test_g4_leaderboard(serve: Callable[[Settings], TestClient], rating_settings: Settings) -> None:
    client = serve(rating_settings)
    people = account_ids(client, "Anna", "Bruno", "Clara", "Dora")
    engine = engine_of(client)
    for seed in range(4):
        finished_game(engine, people[:3], seed=seed)
    client.app.state.ratings.sweep()  # type: ignore[attr-defined]
    with engine.begin() as c:  # Clara has not played for 31 days: off the board
        c.execute(ratings.update().where(ratings.c.account_id == people[2])
                  .values(played_at=now() - dt.timedelta(days=31)))
    board = client.get("/api/leaderboard/knizia13").json()
    names = [row["name"] for row in board["rows"]]
    assert sorted(names) == ["Anna", "Bruno"] and board["you"] is None
    assert board["rows"][0]["rating"] >= board["rows"][1]["rating"] and board["rows"][0]["rank"] == 1
    reader = TestClient(client.app)
    reader.post("/api/session", json={"name": names[1], "password": "correct horse battery"})
    assert reader.get("/api/leaderboard/knizia13").json()["you"]["rank"] == board["rows"][1]["rank"]
    dora = TestClient(client.app)
    dora.post("/api/session", json={"name": "Dora", "password": "correct horse battery"})
    assert dora.get("/api/leaderboard/knizia13").json()["you"] is None  # never played rated
    assert client.get("/api/leaderboard/nogame").status_code == 404
    assert client.get("/api/ratings/Nobody").json()["detail"]["code"] == "account.no_player"
