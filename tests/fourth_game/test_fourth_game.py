"""docs/adding-a-game.md made true by a test: a fourth game that exists only in the tests (Twenty, the folder
``twenty/`` beside this file) is installed as another package would be (a distribution naming it under the entry
point ``dreizehn.games``) and played through the registry, the conformance suite, the table and its bots, the
wire and its schemas, the words in every language, the terminal's generic drawing, the game server and the research
adapters' own checkers, without a line of it anywhere else."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from installed import install
from rich.console import Console
from starlette.testclient import TestClient

import dreizehn
from dreizehn.bots.levels import LEVEL_NAMES, OWN_LEVELS, game_levels
from dreizehn.core import registry
from dreizehn.core import terminal as render
from dreizehn.core.conformance import check_game
from dreizehn.core.record import replay, to_record
from dreizehn.core.wire import event_schema, from_wire, schema, to_wire
from dreizehn.play.say import say_event
from dreizehn.play.table import Seat, Table
from dreizehn.words import LANGUAGES, words

HERE = Path(__file__).parent
FOLDER = HERE / "twenty"
NAMES = ["Anna", "Ben", "Cleo", "Dirk"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The folders that install Twenty as a package (a distribution's metadata naming ``twenty`` under
    ``dreizehn.games``, and the game's folder): for this process's path and for a ``dreizehn`` process's."""
    return install(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def twenty(site: list[str]) -> Iterator[type[dreizehn.Game]]:
    """Twenty installed as a package: :func:`site`'s folders on the path; the registry looks again and finds it.
    Forgotten again afterwards."""
    assert "twenty" not in dreizehn.game_ids()
    added = list(site)
    sys.path[:0] = added
    try:
        ids = registry.refresh()
        assert ids[-1] == "twenty" and ids[:3] == ("knizia13", "three-thirteen", "holzwurm")
        yield dreizehn.game_class("twenty")
    finally:
        registry.unregister("twenty")
        for path in added:
            sys.path.remove(path)


def test_found_through_the_entry_point_only(twenty: type[dreizehn.Game]) -> None:
    assert twenty.__module__ == "twenty.game" and twenty.folder() == FOLDER
    assert dreizehn.game_ids()[-1] == "twenty"
    assert words("de")("twenty.title") == "Zwanzig" and words("nl")("twenty.stage", n=2) == "partijen"
    own = (".py", ".po", ".pyc", ".svg")
    assert not [path for path in FOLDER.rglob("*") if path.is_file() and path.suffix not in own]


def test_conformance(twenty: type[dreizehn.Game]) -> None:
    for players in range(twenty.min_players, twenty.max_players + 1):
        report = check_game("twenty", players, games=5, seed=players)
        assert report.samples > 0


def test_a_table_of_bots_at_every_level_and_its_record(twenty: type[dreizehn.Game]) -> None:
    game = dreizehn.load_game("twenty", 4)
    levels = game_levels("twenty")
    # a game that declares no master (nor a learned level) offers the four levels
    assert levels == tuple(level for level in LEVEL_NAMES if level not in OWN_LEVELS)[:4]
    seats = tuple(Seat(level, bot=level) for level in levels)
    table = Table(game, seats, 11, game.new_state(11))
    table.play_bots()
    state = table.state
    assert state.is_over and len(state.totals) == 4 and max(state.totals) <= 0
    record = to_record(state, names=list(levels))
    assert replay(json.loads(json.dumps(record))).history == state.history


def test_the_wire_and_its_schemas(twenty: type[dreizehn.Game]) -> None:
    view_schema = jsonschema.Draft202012Validator(schema("twenty"))
    events = jsonschema.Draft202012Validator(event_schema("twenty"))
    state = dreizehn.new_game("twenty", players=3, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        for seat in range(3):
            doc = to_wire(state.view(seat))
            view_schema.validate(doc)
            assert from_wire(json.loads(json.dumps(doc))) == state.view(seat)
        for event in state.apply_with_events(rng.choice(state.legal_actions())):
            for seat in (*range(3), None):
                events.validate(event.for_seat(seat).to_json())


def test_every_action_and_event_in_words(twenty: type[dreizehn.Game]) -> None:
    for lang in LANGUAGES:
        speaker = words(lang)
        state = dreizehn.new_game("twenty", players=2, seed=3)
        game, rng = state.game, random.Random(3)
        said: list[str] = []
        while not state.is_over:
            said += [game.say_action(speaker, a) for a in state.legal_actions()]
            said += game.say_view(speaker, state.view(state.current_player), NAMES[:2])
            for event in state.apply_with_events(rng.choice(state.legal_actions())):
                said += [say_event(game, speaker, event.for_seat(seat), NAMES[:2]) for seat in (0, 1, None)]
        assert said and not [line for line in said if "{" in line or "twenty." in line], said[:5]
        assert any(line.startswith(("Anna", "Ben")) for line in said)


def test_the_terminal_draws_it_from_its_words(twenty: type[dreizehn.Game]) -> None:
    state = dreizehn.new_game("twenty", players=2, seed=1)
    state.apply(state.legal_actions()[0])
    view = state.view(1)
    console = Console(width=80, record=True, color_system=None)
    console.print(render.table(state.game, words("de"), view, NAMES[:2]))
    console.print(render.hand(state.game, view))
    screen = console.export_text()
    assert "Der Stapel:" in screen and all(card in screen for card in to_wire(view)["hand"])


def test_the_server_plays_it(twenty: type[dreizehn.Game], tmp_path: Path) -> None:
    from dreizehn.server.app import create_app

    sys.path.insert(0, str(HERE.parent))
    try:
        from server.kit import connect, create_table, make_settings, play_to_end, tokens
    finally:
        sys.path.remove(str(HERE.parent))
    with TestClient(create_app(make_settings(tmp_path))) as client:
        listed = {game["id"]: game for game in client.get("/api/games", params={"lang": "nl"}).json()}
        assert listed["twenty"]["title"] == "Twintig" and listed["twenty"]["high_score_wins"] is True
        assert listed["twenty"]["faces"]["B7"]["colour"] == "plain"
        assert listed["knizia13"]["picture"] == "/static/img/knizia13.svg"  # the app's own
        assert listed["twenty"]["picture"] == "/api/games/twenty/picture.svg"  # the one in the game's folder
        picture = client.get("/api/games/twenty/picture.svg")
        assert picture.status_code == 200 and picture.headers["content-type"] == "image/svg+xml"
        assert picture.content == (FOLDER / "picture.svg").read_bytes()
        assert client.get("/api/games/knizia13/picture.svg").status_code == 404
        assert client.get("/api/games/nonsense/picture.svg").json()["detail"]["code"] == "server.not_found"
        for bad in ("..%2F..%2Fpyproject.toml", "twenty%00", "tw\u202eenty", "x" * 5000):  # no way out of a folder
            assert client.get(f"/api/games/{bad}/picture.svg").status_code == 404
        created = create_table(client, "twenty", ["person", "easy", "hard"])
        with connect(client, token=tokens(created)[0], lang="de") as anna:
            play_to_end({0: anna}, rng=random.Random(2))
            said = [m for m in anna.received if m["type"] == "update"]
        assert said and said[-1]["view"]["is_over"]
        replayed = client.get(f"/api/tables/{created['table']['id']}/replay", params={"lang": "de"})
        assert replayed.status_code == 200, replayed.text


def test_the_research_adapters_own_checkers(twenty: type[dreizehn.Game], capsys: pytest.CaptureFixture[str]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    openspiel = pytest.importorskip("dreizehn.envs.openspiel")
    gym_env = pytest.importorskip("dreizehn.envs.gymnasium")
    pz = pytest.importorskip("dreizehn.envs.pettingzoo")
    gymnasium = pytest.importorskip("gymnasium")
    env_checker = pytest.importorskip("gymnasium.utils.env_checker")
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    openspiel.register_games()
    gym_env.register_games()
    pyspiel.random_sim_test(pyspiel.load_game(openspiel.short_name("twenty")), num_sims=3, serialize=True,
                            verbose=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_env(gymnasium.make(gym_env.env_id("twenty")).unwrapped)
        pettingzoo_test.api_test(pz.env(game="twenty"), num_cycles=40)
    capsys.readouterr()


def test_its_refusals_are_in_the_servers_reference(twenty: type[dreizehn.Game]) -> None:
    """No list names the games: the server's reference of refusal codes takes a registered game's rules' codes from
    the registry (a game missing there would silently drop out of docs/server.md)."""
    from dreizehn.server.reference import engine_codes, refusals_part

    assert "twenty.error.not_held" in engine_codes()
    assert "| `twenty.error.not_held` | websocket (action: one the rules of Twenty forbid now)" in refusals_part()


def test_the_terminal_session_plays_it_to_its_end(twenty: type[dreizehn.Game], tmp_path: Path) -> None:
    """``dreizehn play``'s session: a person (typing the moves as the screen lists them) against two bots, with a
    hint on the way, in German; the record saved resumes as the game it was."""
    from dreizehn.core.record import load
    from dreizehn.tui.session import Session

    session = Session.create("twenty", ["Anna"], ["easy", "medium"], 3, 4, lang="de", path=tmp_path / "g.json",
                             hint_seconds=0.05)
    said = [line.text for line in session.opening_lines()]
    session.play_bots()
    rng = random.Random(4)
    while not session.table.is_over:
        assert session.my_turn() and session.legal_line().startswith("legal: ")
        said += session.view_lines()
        if len(said) < 20:  # a hint for a view of Twenty, in words
            said += session.hint_lines(session.hint(seed=1))
        said += [line.text for line in session.say_update(session.submit(rng.choice(session.legal())))]
        said += [line.text for update in session.play_bots() for line in session.say_update(update)]
    said += session.totals_lines() + [session.over_line()] + session.help_lines()
    assert said[0].startswith("Du spielst Zwanzig") or "Zwanzig" in said[0], said[0]
    assert session.over_line().startswith("Das Spiel ist vorbei")
    assert not [line for line in said if "{" in line or "twenty." in line], said
    assert session.save() == tmp_path / "g.json" and load(tmp_path / "g.json").is_over


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_terminal_app_plays_it_to_its_end(twenty: type[dreizehn.Game], tmp_path: Path,
                                                     anyio_backend: str) -> None:
    """The full-screen app (Textual's pilot): the view in words, the moves as a list, Enter plays the first."""
    from textual.worker import WorkerState

    from dreizehn.tui.app import PlayApp, ScoringScreen
    from dreizehn.tui.session import Session

    session = Session.create("twenty", ["Anna"], ["random"], 2, 6, lang="nl", path=tmp_path / "g.json")
    app = PlayApp(session, pause=0)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(400):
            for _ in range(10_000):  # until the bot has played and the screen is drawn, or a screen waits for a key
                await pilot.pause()
                busy = [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
                if not busy or isinstance(app.screen, ScoringScreen):
                    break
            if session.table.is_over and not isinstance(app.screen, ScoringScreen):
                break
            await pilot.press("enter")
        assert session.table.is_over and "Het spel is voorbij" in " ".join(app.log_lines)
    assert (tmp_path / "g.json").exists()


def test_simulate_and_tournament_on_the_command_line(twenty: type[dreizehn.Game], site: list[str],
                                                     tmp_path: Path) -> None:
    """``dreizehn simulate`` and ``dreizehn tournament`` in a process of their own, finding Twenty through the entry
    point on ``PYTHONPATH``, their games played in worker processes (this process reads the records back); ``dreizehn
    games`` says it has no options."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*site, *filter(None, [os.environ.get("PYTHONPATH")])])}
    command = [sys.executable, "-m", "dreizehn.cli.main"]
    simulated = subprocess.run([*command, "simulate", "twenty", "-p", "3", "-n", "4", "-b", "easy,medium", "-j", "2",
                                "--records", str(tmp_path), "--json", str(tmp_path / "sim.json")],
                               env=env, capture_output=True, text=True, timeout=300, check=False)
    assert simulated.returncode == 0, simulated.stderr
    assert "4 games of twenty (Twenty), 3 players" in simulated.stdout
    assert len(list(tmp_path.glob("twenty-*.json"))) == 4
    assert replay(json.loads((tmp_path / "twenty-000003.json").read_text())).is_over
    toured = subprocess.run([*command, "tournament", "twenty", "-b", "random,heuristic,easy", "-n", "6", "-j", "2"],
                            env=env, capture_output=True, text=True, timeout=300, check=False)
    assert toured.returncode == 0, toured.stderr
    assert "6 games of twenty, 2 players: ratings" in toured.stdout and "head to head" in toured.stdout
    listed = subprocess.run([*command, "games"], env=env, capture_output=True, text=True, timeout=120, check=False)
    assert "twenty: Twenty, 2 to 4 players; no options" in listed.stdout.splitlines()  # no empty table


def test_hints_for_a_view_of_it(twenty: type[dreizehn.Game]) -> None:
    """Every legal move of a view rated by playouts, the hint level's move first (Twenty has no kernel: all in
    Python)."""
    from dreizehn.play.hints import analyse, hint

    state = dreizehn.new_game("twenty", players=3, seed=4)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    rated = analyse(view, playouts=60, rng=1)
    assert sorted(r.action for r in rated.ratings) == list(view.legal_actions)
    assert all(0.0 <= r.win <= 1.0 and -20 <= r.points <= 0 for r in rated.ratings)
    shown = hint(view, playouts=60, rng=1)
    assert shown.level == twenty.hint_level and shown.choice == shown.ratings[0].action


def test_a_game_without_a_picture_gets_the_general_one(twenty: type[dreizehn.Game], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from dreizehn.server.routes.games import picture
    from dreizehn.server.routes.web import WEB_DIR

    monkeypatch.setattr(twenty, "folder", classmethod(lambda cls: tmp_path))
    assert picture(twenty) == "/static/img/game.svg" and (WEB_DIR / "img" / "game.svg").is_file()
