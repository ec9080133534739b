"""Issue 47 item 2: ``dreizehn ratings calibrate`` places the bot levels on the players' scale and stores them
(rule G5); a rated game with bot seats rates its people against their levels' ratings, which do not move."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from typer.testing import CliRunner

from dreizehn.cli.main import app
from dreizehn.cli.ratings import to_json
from dreizehn.core.registry import load_game
from dreizehn.server.ratings.model import LevelRating, Skill, places, skills_after
from dreizehn.server.ratings.schema import bot_ratings, rated_games, rating_history
from dreizehn.server.ratings.store import RatingStore
from dreizehn.server.settings import Settings
from dreizehn.server.storage import seats

from ..kit import make_settings
from .test_ratings import account_ids, engine_of, finished_game


def _calibrate(settings: Settings, *args: str) -> tuple[int, str]:
    env = {"DATABASE_URL": settings.database, "DREIZEHN_DATA_DIR": str(settings.data_dir)}
    result = CliRunner().invoke(app, ["ratings", "calibrate", *args], env=env)
    return result.exit_code, result.output


def test_g5_calibrate_orders_levels_known_apart_and_stores_them(tmp_path: Path) -> None:
    """Three Thirteen at 2 players: ``medium`` beat ``easy`` in 98% of 1,000 games, ``hard`` ``medium`` in 97%
    (docs/bots.md); the games are the same on every run of one seed."""
    settings = make_settings(tmp_path)
    out = tmp_path / "levels.json"
    code, output = _calibrate(settings, "-g", "three-thirteen", "-p", "2", "-n", "12", "--levels",
                              "easy,medium,hard", "-j", "1", "--out", str(out))
    assert code == 0, output
    measured = json.loads(out.read_text())["levels"]
    assert [m["level"] for m in measured] == ["easy", "medium", "hard"]
    assert measured[0]["mu"] < measured[1]["mu"] < measured[2]["mu"]
    assert [m["games"] for m in measured] == [8, 8, 8]  # each pair met 4 times, each seat in turn
    assert abs(sum(m["mu"] for m in measured) / 3 - 25) < 1e-9  # the scale's anchor: the levels' mean is 25
    assert "hard" in output and str(measured[2]["rating"]) in output
    engine = sa.create_engine(settings.database)
    with engine.connect() as c:
        stored = dict(c.execute(sa.select(bot_ratings.c.level, bot_ratings.c.mu)
                                .where(bot_ratings.c.game_id == "three-thirteen", bot_ratings.c.players == 2)).all())
    engine.dispose()
    assert stored == {m["level"]: pytest.approx(m["mu"]) for m in measured}


def test_g5_a_level_the_game_lacks_is_refused_by_name(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    code, output = _calibrate(settings, "-g", "three-thirteen", "-n", "2", "--levels", "easy,grandmaster")
    assert code == 2 and "grandmaster" in output and "G5" in output
    code, output = _calibrate(settings, "-g", "knizia13", "-p", "3", "-n", "2", "--levels", "easy,medium")
    assert code == 2 and "G5" in output  # three seats, two levels


def test_g5_the_learned_level_is_calibrated_where_it_plays() -> None:
    """``learned`` joins the levels a calibration plays at 4 players in 13 and Holzwurm, where its network plays;
    at 3 players it is not offered, and naming it there is refused by name (G5)."""
    from dreizehn.core.errors import SimulationError
    from dreizehn.server.ratings.calibrate import chosen_levels

    assert chosen_levels("knizia13", 4, None) == ["easy", "medium", "learned", "hard", "expert"]
    assert chosen_levels("holzwurm", 4, None) == ["easy", "medium", "hard", "learned", "expert"]  # as measured
    for game_id in ("knizia13", "holzwurm"):
        assert chosen_levels(game_id, 3, None) == ["easy", "medium", "hard", "expert"]
        with pytest.raises(SimulationError) as refused:
            chosen_levels(game_id, 3, ["easy", "learned", "hard"])
        assert (refused.value.code, refused.value.rule, refused.value.params["level"]) == ("ratings.level", "G5",
                                                                                          "learned")
    assert "learned" not in chosen_levels("three-thirteen", 4, None)


def _bot_seats(engine: sa.Engine, table_id: str, bots: dict[int, str]) -> None:
    with engine.begin() as c:
        for seat, bot in bots.items():
            c.execute(seats.update().where(seats.c.table_id == table_id, seats.c.seat == seat).values(bot=bot))


def test_g5_a_bot_seat_rates_the_person_against_its_level_and_keeps_its_own(
        serve: Callable[[Settings], TestClient], tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path, rating_interval=3600.0))
    (anna,) = account_ids(client, "Anna")
    engine = engine_of(client)
    store = RatingStore(engine)
    at = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    hard, easy = Skill(31.0, 2.0, 40), Skill(18.0, 2.5, 40)
    store.save_levels([LevelRating("knizia13", 3, "hard", hard, at), LevelRating("knizia13", 3, "easy", easy, at),
                       LevelRating("knizia13", 5, "hard", Skill(50.0, 1.0, 40), at)])
    table_id, totals = finished_game(engine, [anna, None, None, None], seed=5)
    _bot_seats(engine, table_id, {1: "hard", 2: "Easy", 3: "random"})  # random: no level, left out
    client.app.state.ratings.sweep()  # type: ignore[attr-defined]

    placed = places(totals, load_game("knizia13", 4, {}).high_score_wins, (False,) * 4)
    expected = skills_after([Skill(), hard, easy], placed[:3], [False, True, True])[0]  # 4 players: the 3-player levels
    mine = dict(store.of_account(anna))["knizia13"]
    assert mine.games == 1 and mine.mu == pytest.approx(expected.mu) and mine.sigma == pytest.approx(expected.sigma)
    with engine.connect() as c:
        assert c.execute(sa.select(rating_history.c.place)).scalars().all() == [placed[0]]
        levels = {(r.players, r.level): (r.mu, r.sigma, r.games) for r in c.execute(sa.select(bot_ratings))}
    assert levels[(3, "hard")] == (31.0, 2.0, 40) and levels[(3, "easy")] == (18.0, 2.5, 40)  # the bots' stay


def test_g5_one_person_among_uncalibrated_bots_is_not_rated(serve: Callable[[Settings], TestClient],
                                                           tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path, rating_interval=3600.0))
    (anna,) = account_ids(client, "Anna")
    engine = engine_of(client)
    table_id, _ = finished_game(engine, [anna, None, None], seed=6)
    _bot_seats(engine, table_id, {1: "expert", 2: "random"})  # no level calibrated in this database
    assert client.app.state.ratings.sweep() == 1  # type: ignore[attr-defined]
    with engine.connect() as c:
        assert c.execute(sa.select(sa.func.count()).select_from(rated_games)).scalar_one() == 1
        assert c.execute(sa.select(sa.func.count()).select_from(rating_history)).scalar_one() == 0


def test_g5_a_profile_shows_the_levels_beside_a_rating(serve: Callable[[Settings], TestClient],
                                                       tmp_path: Path) -> None:
    client = serve(make_settings(tmp_path, rating_interval=3600.0))
    anna, bruno = account_ids(client, "Anna", "Bruno")
    engine = engine_of(client)
    at = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    RatingStore(engine).save_levels([
        LevelRating("knizia13", 3, "hard", Skill(40.0, 4.4, 45), at),
        LevelRating("knizia13", 3, "easy", Skill(-5.3, 5.4, 45), at),
        LevelRating("knizia13", 5, "easy", Skill(0.0, 5.0, 20), at),  # a count measured less: not shown
        LevelRating("holzwurm", 3, "easy", Skill(0.0, 5.0, 20), at)])  # a game Anna has no rating in
    finished_game(engine, [anna, bruno, None], seed=4)
    client.app.state.ratings.sweep()  # type: ignore[attr-defined]
    levels = client.get("/api/ratings/Anna").json()["levels"]
    assert list(levels) == ["knizia13"]
    assert [(x["level"], x["players"], x["rating"]) for x in levels["knizia13"]] == [
        ("easy", 3, Skill(-5.3, 5.4).shown), ("hard", 3, Skill(40.0, 4.4).shown)]


def test_g5_master_once_calibrated_rates_its_seat_and_shows_on_a_profile(serve: Callable[[Settings], TestClient],
                                                                         tmp_path: Path) -> None:
    """``master`` (calibrated by name, docs/bots.md) is a level like the others: a rated game's master seat rates
    the person against it, and the profile lists it, the strongest last; Three Thirteen, which offers no master,
    plays and rates the name as its expert."""
    client = serve(make_settings(tmp_path, rating_interval=3600.0))
    anna, bruno = account_ids(client, "Anna", "Bruno")
    engine = engine_of(client)
    at = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
    master, expert = Skill(43.6, 6.8, 12), Skill(33.3, 6.4, 12)
    RatingStore(engine).save_levels([LevelRating("knizia13", 3, "master", master, at),
                                     LevelRating("knizia13", 3, "expert", expert, at),
                                     LevelRating("three-thirteen", 3, "expert", expert, at)])
    thirteen, totals = finished_game(engine, [anna, None, None], seed=3)
    _bot_seats(engine, thirteen, {1: "Master", 2: "expert"})
    rummy, rummy_totals = finished_game(engine, [bruno, None, None], seed=3, game_id="three-thirteen")
    _bot_seats(engine, rummy, {1: "master", 2: "random"})
    assert client.app.state.ratings.sweep() == 2  # type: ignore[attr-defined]
    placed = places(totals, load_game("knizia13", 3, {}).high_score_wins, (False,) * 3)
    expected = skills_after([Skill(), master, expert], placed, [False, True, True])[0]
    assert dict(RatingStore(engine).of_account(anna))["knizia13"].mu == pytest.approx(expected.mu)
    placed = places(rummy_totals, load_game("three-thirteen", 3, {}).high_score_wins, (False,) * 3)
    # its master is its expert; random left out
    expected = skills_after([Skill(), expert], placed[:2], [False, True])[0]
    assert dict(RatingStore(engine).of_account(bruno))["three-thirteen"].mu == pytest.approx(expected.mu)
    levels = client.get("/api/ratings/Anna").json()["levels"]["knizia13"]
    assert [x["level"] for x in levels] == ["expert", "master"] and levels[1]["rating"] == master.shown



def test_g5_levels_measured_elsewhere_are_stored_from_their_file(tmp_path: Path) -> None:
    """``dreizehn ratings store FILE``: the levels a ``calibrate --out`` file holds (such as the repository's, with
    master, measured once over many minutes) go to the server's database in place of those stored; a file that
    holds none, or a level its game does not offer, is refused by name."""
    settings = make_settings(tmp_path)
    env = {"DATABASE_URL": settings.database, "DREIZEHN_DATA_DIR": str(settings.data_dir)}
    assert _calibrate(settings, "-g", "knizia13", "-p", "3", "-n", "2", "--levels", "easy,medium,hard")[0] == 0
    at = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
    measured = [LevelRating("knizia13", 3, level, Skill(mu, 6.5, 12), at)
                for level, mu in (("easy", 3.9), ("hard", 27.9), ("master", 43.6))]
    measured.append(LevelRating("holzwurm", 3, "master", Skill(44.0, 6.9, 12), at))
    levels = tmp_path / "levels.json"
    levels.write_text(json.dumps(to_json(measured, 20, 0)))
    result = CliRunner().invoke(app, ["ratings", "store", str(levels)], env=env)
    assert result.exit_code == 0, result.output
    engine = sa.create_engine(settings.database)
    with engine.connect() as c:
        stored = {(r.game_id, r.level): r.mu for r in c.execute(sa.select(bot_ratings))}
    engine.dispose()
    assert stored.pop(("knizia13", "medium")) != 0  # measured by the small run, not in the file: kept
    assert stored == {(m.game_id, m.level): m.skill.mu for m in measured}
    for text, named in (("{}", "levels.json"), (levels.read_text().replace('"master"', '"grandmaster"'),
                                                 "grandmaster")):
        levels.write_text(text)
        result = CliRunner().invoke(app, ["ratings", "store", str(levels)], env=env)
        assert result.exit_code == 2 and named in result.output, result.output
