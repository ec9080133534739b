"""The analysis of a finished game (issue 14 item 3, the server's part): every decision of a seat rated with the hint
search in the background, its progress shown, the costliest decisions named with the better move, said in the
language asked; refusals; stored, so that it survives a restart and a server killed in the middle goes on with it;
on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import level_spec
from dreizehn.core.game import View
from dreizehn.core.registry import load_game
from dreizehn.play.hints import hint
from dreizehn.server.analysis import decisions, rate_decision
from dreizehn.server.app import create_app
from dreizehn.server.rooms import ServerError
from dreizehn.server.settings import Settings
from dreizehn.server.storage import analyses, analysis_decisions
from dreizehn.words import words

from .conftest import new_database
from .kit import create_table, hub, make_settings, stored, wait_finished

PLAYOUTS = 4
"""The playouts per decision in these tests (few: the ratings are rough, the tests quick)."""
SEARCH = "ismcts:iterations=300:playout=heuristic:tree=on"
"""The search whose move is a decision's ``best`` in these tests: Holzwurm's hint level (``master``) with a hundredth
of its iterations (what is checked does not depend on the search's size; the hint level's own takes seconds a
decision on a busy machine). :func:`test_the_default_search_is_the_hint_level` checks the default."""
GAME = "holzwurm"


LEASE = 1.5
"""Seconds an analysis stays with its process without a sign of life, in these tests."""
SHARED_LEASE = 5.0
"""The same where two live processes share the analyses: long enough that a sign of life delayed by a busy machine
(both cores held by other work) does not hand a live process's analysis to the other."""


def _settings(data_dir: Path, url: str | None = None) -> Settings:
    return make_settings(data_dir, url, analysis_playouts=PLAYOUTS, analysis_lease=LEASE, analysis_search=SEARCH)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """The settings of a server on SQLite or PostgreSQL (a new database), shared by the tests of the module."""
    url = new_database(request.getfixturevalue("postgres_url")) if request.param == "postgres" else None
    return _settings(tmp_path_factory.mktemp("data"), url)


@pytest.fixture(scope="module")
def api(database: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(database)) as started:
        yield started


@pytest.fixture(scope="module")
def finished(api: TestClient) -> str:
    """A finished game between random bots (quick options); its table id."""
    cls = dreizehn.game_class(GAME)
    created = create_table(api, GAME, ["random"] * cls.min_players, cls.quick_options)
    wait_finished(api, created["table"]["id"])
    return str(created["table"]["id"])


def _until_done(client: TestClient, table_id: str, seat: int, timeout: float = 300.0) -> list[dict[str, Any]]:
    """Poll the analysis as the browser does until it is no longer running; every document seen."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        response = client.get(f"/api/tables/{table_id}/analysis/{seat}")
        assert response.status_code == 200, response.text
        seen.append(response.json())
        if seen[-1]["status"] != "running":
            return seen
        time.sleep(0.01)
    raise AssertionError(f"the analysis of seat {seat} of table {table_id} did not end in {timeout} s")


@pytest.fixture(scope="module")
def analysed(api: TestClient, finished: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Seat 0 of the finished game analysed: the POST's answer and every document polled until it was done."""
    response = api.post(f"/api/tables/{finished}/analysis", json={"seat": 0})
    assert response.status_code == 202, response.text
    return response.json(), _until_done(api, finished, 0)


def _choices(api: TestClient, table_id: str, seat: int) -> dict[int, int]:
    """Walk the finished game through the replay route: the versions where ``seat`` was to move with more than one
    legal action, and how many it had."""
    steps = api.get(f"/api/tables/{table_id}/replay").json()["steps"]
    found = {}
    for version in range(len(steps)):
        view = api.get(f"/api/tables/{table_id}/replay/{version}").json()["views"][seat]
        if view["current_player"] == seat and len(view["legal_actions"]) > 1:
            found[version] = len(view["legal_actions"])
    return found


def _view(api: TestClient, table_id: str, seat: int, version: int) -> View:
    """The seat's view after ``version`` actions, rebuilt from the stored game."""
    game_of = stored(api, table_id)
    state = load_game(game_of.row.game_id, game_of.row.players, game_of.row.options).new_state(game_of.row.seed)
    for _, action, _ in game_of.actions[:version]:
        state.apply(action)
    return state.view(seat)


def test_every_decision_of_the_seat_is_rated(api: TestClient, finished: str,
                                             analysed: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """Progress goes from 0 to the number of decisions, one decision after the other in game order; every version
    where the seat had a choice is rated, with the action it played there, and nothing else."""
    begun, polled = analysed
    choices = _choices(api, finished, 0)
    assert len(choices) > 3
    assert (begun["table"], begun["seat"], begun["status"], begun["done"], begun["total"]) == (
        finished, 0, "running", 0, len(choices))
    assert begun["decisions"] == [] and begun["worst"] == [] and begun["playouts"] == PLAYOUTS
    progress = [doc["done"] for doc in polled]
    assert progress == sorted(progress) and progress[-1] == len(choices)
    for doc in polled:
        assert len(doc["decisions"]) == doc["done"] and doc["total"] == len(choices)
        assert [d["version"] for d in doc["decisions"]] == sorted(choices)[:doc["done"]]
    done = polled[-1]
    assert done["status"] == "done"
    steps = api.get(f"/api/tables/{finished}/replay").json()["steps"]
    for decision in done["decisions"]:
        version = decision["version"]
        assert decision["options"] == choices[version]
        assert decision["played"]["action"] == steps[version]["action"]  # step n is action n-1: played at version n-1
        assert steps[version]["seat"] == 0


def test_the_ratings_are_the_hint_search(api: TestClient, finished: str,
                                         analysed: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """``best`` is the action the hint puts first on the seat's view of that moment (the move of the server's
    analysis search, with the same budget and generator); ``loss`` is the chance the action played gave up against
    it, 0 when it was that move or had the better chance; the intervals hold their chances; ``worst`` names the
    costliest decisions (over 0.05), costliest first."""
    done = analysed[1][-1]
    for decision in done["decisions"]:
        played, best = decision["played"], decision["best"]
        for move in (played, best):
            assert 0.0 <= move["chance_low"] <= move["chance"] <= move["chance_high"] <= 1.0
        assert decision["loss"] == pytest.approx(max(0.0, best["chance"] - played["chance"]), abs=1e-4)
        if played["action"] == best["action"]:
            assert decision["loss"] == 0.0 and played == best
    for decision in done["decisions"][:3]:
        version = decision["version"]
        analysis = hint(_view(api, finished, 0, version), playouts=PLAYOUTS, rng=version, search=SEARCH)
        assert analysis.best.action == analysis.choice
        assert decision["best"]["action"] == analysis.best.text
        assert decision["best"]["chance"] == pytest.approx(analysis.best.win, abs=1e-4)
        assert decision["best"]["points"] == pytest.approx(analysis.best.points, abs=0.01)
    losses = {d["version"]: d["loss"] for d in done["decisions"]}
    costly = sorted((v for v, loss in losses.items() if loss > 0.05), key=lambda v: (-losses[v], v))
    assert done["worst"] == costly[:5]


def test_the_words_are_in_the_language_asked(api: TestClient, finished: str,
                                             analysed: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """The same analysis in German (``?lang=de`` or the browser's Accept-Language): the same numbers, the actions
    said in German with the game's words."""
    english = api.get(f"/api/tables/{finished}/analysis/0").json()
    german = api.get(f"/api/tables/{finished}/analysis/0?lang=de").json()
    assert api.get(f"/api/tables/{finished}/analysis/0", headers={"Accept-Language": "de-AT,de;q=0.9"}).json() == german
    game = load_game(GAME, 2)
    for mine, theirs in zip(english["decisions"], german["decisions"], strict=True):
        for part in ("played", "best"):
            assert mine[part]["text"] != theirs[part]["text"]
            assert theirs[part]["text"] == game.say_action(words("de"), int(game.parse_action(theirs[part]["action"])))
            assert {k: v for k, v in mine[part].items() if k != "text"} == {
                k: v for k, v in theirs[part].items() if k != "text"}


def test_asking_again_answers_the_same_analysis(api: TestClient, finished: str,
                                                analysed: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """A second request for the seat starts nothing: it answers the analysis there is (200)."""
    again = api.post(f"/api/tables/{finished}/analysis", json={"seat": 0})
    assert again.status_code == 200
    assert again.json() == analysed[1][-1] == api.get(f"/api/tables/{finished}/analysis/0").json()


def test_refusals(api: TestClient, finished: str) -> None:
    """An unfinished game is not analysed (409, rule S5: nothing of it is served beyond each receiver's view); a
    seat the game does not have is 422; an analysis never asked for is 404, and so is an unknown table; each
    refusal in the language asked."""
    playing = create_table(api, GAME, ["person", "random"])["table"]["id"]
    for response in (api.post(f"/api/tables/{playing}/analysis", json={"seat": 0}),
                     api.get(f"/api/tables/{playing}/analysis/0")):
        assert response.status_code == 409
        assert response.json()["detail"]["rule"] == "S5"
        assert response.json()["detail"]["code"] == "server.analysis_not_finished"
    for seat in (2, -1):
        response = api.post(f"/api/tables/{finished}/analysis", json={"seat": seat})
        assert response.status_code == 422 and response.json()["detail"]["code"] == "seat.unknown"
    assert api.get(f"/api/tables/{finished}/analysis/7").status_code == 422
    assert api.post(f"/api/tables/{finished}/analysis", json={"seat": "zero"}).status_code == 422
    never = api.get(f"/api/tables/{finished}/analysis/1?lang=de")
    assert never.status_code == 404
    assert never.json()["detail"]["code"] == "server.no_analysis"
    assert never.json()["detail"]["message"] == words("de").told(ServerError("server.no_analysis", rule="S5", seat=1))
    assert api.get("/api/tables/nosuchtable/analysis/0").status_code == 404
    assert api.post("/api/tables/nosuchtable/analysis", json={"seat": 0}).status_code == 404


def test_an_analysis_survives_a_restart_and_goes_on_after_a_kill(tmp_path: Path, request: pytest.FixtureRequest,
                                                                 database: Settings) -> None:
    """A finished analysis is served by a new server on the same database, unchanged. One left half done (the
    server killed in the middle: status ``running``, the last decisions missing) is taken up by the next server at
    its start and ends exactly as it would have."""
    settings = _settings(tmp_path / "data", None if not database.is_postgres else new_database(
        request.getfixturevalue("postgres_url")))
    cls = dreizehn.game_class(GAME)
    with TestClient(create_app(settings)) as first:
        table_id = create_table(first, GAME, ["random"] * cls.min_players, cls.quick_options)["table"]["id"]
        wait_finished(first, table_id)
        assert first.post(f"/api/tables/{table_id}/analysis", json={"seat": 1}).status_code == 202
        whole = _until_done(first, table_id, 1)[-1]
    assert whole["status"] == "done" and whole["total"] > 2

    with TestClient(create_app(settings)) as second:
        assert second.get(f"/api/tables/{table_id}/analysis/1").json() == whole
        engine = hub(second).store.engine
        kept = whole["decisions"][1]["version"]
        with engine.begin() as c:  # as if the server had been killed after the first two decisions
            c.execute(analysis_decisions.delete().where(analysis_decisions.c.table_id == table_id,
                                                        analysis_decisions.c.version > kept))
            c.execute(analyses.update().where(analyses.c.table_id == table_id).values(
                status="running", done=2, updated_at=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)))
    with TestClient(create_app(settings)) as third:
        assert _until_done(third, table_id, 1)[-1] == whole
        assert hub(third).store.analyses.load(table_id, 1) is not None


def test_two_processes_share_the_analyses_one_works_on_each(
        tmp_path: Path, request: pytest.FixtureRequest, database: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two servers on one database: the one that began an analysis works on it, and the other, started meanwhile,
    leaves it alone while it gives signs of life (the test waits for a sweep of the other's keeper that began more
    than a lease after the analysis: stale by then without them); once its server stops in the middle, the other
    takes it up after the lease and ends it exactly as one server alone would have."""
    import dreizehn.server.analysis as analysis

    settings = _settings(tmp_path / "data", None if not database.is_postgres else new_database(
        request.getfixturevalue("postgres_url")))
    lease = SHARED_LEASE  # a sign of life every third of it: one missed on a busy machine must not hand it over
    settings = settings.model_copy(update={"analysis_lease": lease, "analysis_playouts": 1})  # each rated twice
    rate = analysis.rate_decision

    gate, rated = threading.Event(), list[int]()  # after its first decision the first server's work waits for the gate

    def slowly(view: View, version: int, played: int, playouts: int, search: str) -> Any:
        if rated:
            gate.wait(120)
        rated.append(version)
        return rate(view, version, played, playouts, search)

    cls = dreizehn.game_class(GAME)
    with TestClient(create_app(settings)) as second:
        keeper = second.app.state.analyst  # type: ignore[attr-defined]
        swept: list[float] = []  # when each of the second's sweeps began (the machine's clock: a sweep is no sooner)
        sweep = keeper._sweep

        async def noted() -> None:
            swept.append(time.monotonic())
            await sweep()

        monkeypatch.setattr(keeper, "_sweep", noted)
        with TestClient(create_app(settings)) as first:
            table_id = create_table(first, GAME, ["random"] * cls.min_players, cls.quick_options)["table"]["id"]
            wait_finished(first, table_id)
            monkeypatch.setattr(analysis, "rate_decision", slowly)
            begun = time.monotonic()
            assert first.post(f"/api/tables/{table_id}/analysis", json={"seat": 0}).status_code == 202

            def far_enough() -> bool:  # the second swept past a lease's end, and the first rated a decision
                row = hub(first).store.analyses.load(table_id, 0)
                return bool([at for at in swept if at > begun + lease]) and row is not None and row.done > 0

            while not far_enough():
                assert first.app.state.analyst.jobs and not second.app.state.analyst.jobs  # type: ignore[attr-defined]
                assert time.monotonic() < begun + 60 * lease, "the second's keeper did not sweep"
                time.sleep(0.1)
            assert first.app.state.analyst.jobs and not second.app.state.analyst.jobs  # type: ignore[attr-defined]
            left = hub(first).store.analyses.load(table_id, 0)
            assert left is not None and left.status == "running" and 0 < left.done < left.total
            gate.set()  # its server stops now, in the middle
        monkeypatch.setattr(analysis, "rate_decision", rate)
        ended = _until_done(second, table_id, 0)[-1]
        assert second.get(f"/api/tables/{table_id}/analysis/0").json() == ended
        game_of = stored(second, table_id)
    assert ended["status"] == "done" and ended["done"] == ended["total"]
    game = load_game(game_of.row.game_id, game_of.row.players, game_of.row.options)
    walked = decisions(game, game_of.row.seed, [action for _, action, _ in game_of.actions], 0)
    assert [d["version"] for d in ended["decisions"]] == [version for version, _, _ in walked]
    for rated, (version, view, played) in zip(ended["decisions"], walked, strict=True):
        assert rated["best"] == {**rate_decision(view, version, played, 1, SEARCH).best, "text": rated["best"]["text"]}


def test_the_analysis_runs_in_the_worker_processes(tmp_path: Path) -> None:
    """With worker processes (as deployed), each decision is rated in the pool and gives what threads give: the
    same analysis of the same game. (The bots' time is not what is checked: a worker started on a busy machine
    imports for seconds.)"""
    cls = dreizehn.game_class(GAME)
    with TestClient(create_app(make_settings(tmp_path / "pool", analysis_playouts=PLAYOUTS, analysis_search=SEARCH,
                                             bot_workers=1, bot_timeout=120))) as pool:
        assert hub(pool).executor is not None
        table_id = create_table(pool, GAME, ["random"] * cls.min_players, cls.quick_options)["table"]["id"]
        wait_finished(pool, table_id)
        assert pool.post(f"/api/tables/{table_id}/analysis", json={"seat": 0}).status_code == 202
        done = _until_done(pool, table_id, 0)[-1]
        game_of = stored(pool, table_id)
    assert done["status"] == "done" and done["done"] == done["total"] > 0
    game = load_game(game_of.row.game_id, game_of.row.players, game_of.row.options)
    walked = decisions(game, game_of.row.seed, [action for _, action, _ in game_of.actions], 0)
    assert [d["version"] for d in done["decisions"]] == [version for version, _, _ in walked]
    version, view, played = walked[-1]
    assert done["decisions"][-1]["best"] == {**rate_decision(view, version, played, PLAYOUTS, SEARCH).best,
                                              "text": done["decisions"][-1]["best"]["text"]}


def test_a_failed_analysis_says_so_and_is_taken_up_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision whose rating raises marks the analysis ``failed`` (what was rated stays); asking again takes it
    up again (202) and it ends like any other."""
    import dreizehn.server.analysis as analysis

    rate = analysis.rate_decision
    calls: list[int] = []

    def third_fails(view: View, version: int, played: int, playouts: int, search: str) -> Any:
        assert (playouts, search) == (PLAYOUTS, SEARCH)  # the server's settings reach each decision's rating
        calls.append(version)
        if len(calls) == 3:
            raise RuntimeError("the search broke")
        return rate(view, version, played, playouts, search)

    cls = dreizehn.game_class(GAME)
    with TestClient(create_app(_settings(tmp_path / "data"))) as client:
        table_id = create_table(client, GAME, ["random"] * cls.min_players, cls.quick_options)["table"]["id"]
        wait_finished(client, table_id)
        monkeypatch.setattr(analysis, "rate_decision", third_fails)
        assert client.post(f"/api/tables/{table_id}/analysis", json={"seat": 0}).status_code == 202
        failed = _until_done(client, table_id, 0)[-1]
        assert failed["status"] == "failed" and failed["done"] == 2 < failed["total"]
        monkeypatch.setattr(analysis, "rate_decision", rate)
        again = client.post(f"/api/tables/{table_id}/analysis", json={"seat": 0})
        assert again.status_code == 202 and again.json()["status"] == "running" and again.json()["done"] == 2
        done = _until_done(client, table_id, 0)[-1]
    assert done["status"] == "done" and done["done"] == done["total"]
    assert [d["version"] for d in done["decisions"][:2]] == calls[:2]


def test_a_database_of_the_first_revision_is_migrated_and_its_games_analysed(tmp_path: Path) -> None:
    """A server's database from before analyses (revision 0001, a finished game in it) gets the analyses' tables
    when a new server starts on it (migration 0002), and its old game is analysed."""
    from alembic import command
    from alembic.config import Config

    import dreizehn.server.storage as storage

    settings = _settings(tmp_path / "data")
    cls = dreizehn.game_class(GAME)
    with TestClient(create_app(settings)) as first:
        table_id = create_table(first, GAME, ["random"] * cls.min_players, cls.quick_options)["table"]["id"]
        wait_finished(first, table_id)
    engine = storage.make_engine(settings.database, settings.data_dir)
    try:
        config = Config()
        config.set_main_option("script_location", str(storage.MIGRATIONS))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0001")
        assert "analyses" not in sa.inspect(engine).get_table_names()
    finally:
        engine.dispose()
    with TestClient(create_app(settings)) as second:
        assert second.post(f"/api/tables/{table_id}/analysis", json={"seat": 1}).status_code == 202
        assert _until_done(second, table_id, 1)[-1]["status"] == "done"


def test_the_default_search_is_the_hint_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unless the server is told another (``DREIZEHN_ANALYSIS_SEARCH``), a decision's ``best`` is the move of the
    game's hint level: the search a decision's rating makes is the hint level's bot (the test plays its move with
    :data:`SEARCH`, so as not to spend the level's seconds; the ratings are the hint's, as checked above)."""
    import dreizehn.play.hints as hints

    assert make_settings(Path("unused")).analysis_search == "auto"
    made: list[str] = []

    def smaller(spec: str, game: Any) -> Any:
        made.append(spec)
        return make_bot(SEARCH if spec == made[0] else spec, game)

    monkeypatch.setattr(hints, "make_bot", smaller)
    game = load_game(GAME, 2, dreizehn.game_class(GAME).quick_options)
    state = game.new_state(3)
    view = state.view(state.current_player)
    assert len(view.legal_actions) > 1
    rated = rate_decision(view, 7, int(view.legal_actions[0]), PLAYOUTS)
    assert made[0] == level_spec("master", GAME, 2) == level_spec(game.hint_level, GAME, 2) != SEARCH
    assert rated.best["action"] == hint(view, playouts=PLAYOUTS, rng=7, search=SEARCH).best.text
