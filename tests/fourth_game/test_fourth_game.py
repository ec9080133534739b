"""docs/adding-a-game.md made true by a test: a fourth game that exists only in the tests (Twenty, the folder
``twenty/`` beside this file) is installed as another package would be (a distribution naming it under the entry
point ``dreizehn.games``) and played through the registry, the conformance suite, the table and its bots, the
wire and its schemas, the words in every language, the terminal's generic drawing, the game server and the research
adapters' own checkers, without a line of it anywhere else."""

from __future__ import annotations

import json
import random
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console
from starlette.testclient import TestClient

import dreizehn
from dreizehn.bots.levels import LEVEL_NAMES, game_levels
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
def twenty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[type[dreizehn.Game]]:
    """Twenty installed as a package: a distribution's metadata naming ``twenty`` under ``dreizehn.games``, and the
    game's folder, on the path; the registry looks again and finds it. Forgotten again afterwards."""
    site = tmp_path_factory.mktemp("site")
    info = site / "dreizehn_twenty-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dreizehn-twenty\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[dreizehn.games]\ntwenty = twenty\n", encoding="utf-8")
    assert "twenty" not in dreizehn.game_ids()
    added = [str(site), str(HERE)]
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
    assert not [path for path in FOLDER.rglob("*") if path.is_file() and path.suffix not in (".py", ".po", ".pyc")]


def test_conformance(twenty: type[dreizehn.Game]) -> None:
    for players in range(twenty.min_players, twenty.max_players + 1):
        report = check_game("twenty", players, games=5, seed=players)
        assert report.samples > 0


def test_a_table_of_bots_at_every_level_and_its_record(twenty: type[dreizehn.Game]) -> None:
    game = dreizehn.load_game("twenty", 4)
    levels = game_levels("twenty")
    assert levels == LEVEL_NAMES[:4]  # a game that declares no master offers the four levels
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
