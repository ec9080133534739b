"""Hints (:mod:`dreizehn.play.hints`): every legal action rated, best first, from the view alone; the ``hint``
command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import dreizehn
from dreizehn.bots.advice import Heuristic, heuristic
from dreizehn.bots.base import make_bot
from dreizehn.bots.levels import level_spec
from dreizehn.cli.main import app
from dreizehn.core.game import State
from dreizehn.core.record import dumps
from dreizehn.games.three_thirteen import OUT
from dreizehn.play.hints import HINT_SEARCH, MIN_SAMPLES, Analysis, analyse, hint

CASES = [("knizia13", 4), ("holzwurm", 3), ("three-thirteen", 2)]


def _act(game_id: str) -> Heuristic:
    found = heuristic(game_id)
    assert found is not None
    return found


def heuristic_game(game_id: str, players: int, seed: int, stop: int) -> State:
    """A game between heuristic bots, stopped after ``stop`` actions (or where it ended)."""
    state = dreizehn.new_game(game_id, players, seed)
    rng = random.Random(seed)
    while not state.is_over and len(state.history) < stop:
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else _act(game_id)(state.view(state.turn), rng))
    return state


def decision(game_id: str, players: int, seed: int, stop: int) -> State:
    """The first position at or after ``stop`` actions with two or more legal actions."""
    state = heuristic_game(game_id, players, seed, stop)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("allocation", ["even", "halving"])
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_ratings_cover_the_legal_actions_best_first(game_id: str, players: int, allocation: str) -> None:
    state = decision(game_id, players, seed=3, stop=30)
    seat = state.current_player
    analysis = analyse(state.view(seat), playouts=40, rng=1, allocation=allocation)
    assert isinstance(analysis, Analysis) and analysis.seat == seat and analysis.game_id == game_id
    actions = [r.action for r in analysis.ratings]
    assert sorted(actions) == [int(a) for a in state.legal_actions()]
    assert analysis.best is analysis.ratings[0]
    for r in analysis.ratings:
        assert r.text == state.game.action_to_text(r.action)
        assert 0.0 <= r.win <= 1.0 and r.win_sd >= 0.0 and r.points_sd >= 0.0
        assert r.samples >= MIN_SAMPLES
    assert analysis.playouts == sum(r.samples for r in analysis.ratings) >= 40
    samples = [r.samples for r in analysis.ratings]
    if allocation == "even":  # every action on every world, the best chance first
        assert len(set(samples)) == 1 and samples[0] == analysis.worlds
        chances = [r.win for r in analysis.ratings]
        assert chances == sorted(chances, reverse=True)
    else:  # the actions that got most playouts stayed in longest, so they come first
        assert samples == sorted(samples, reverse=True)
    doc = json.loads(json.dumps(analysis.to_json()))
    assert [r["action"] for r in doc["ratings"]] == [r.text for r in analysis.ratings]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_analysis_sees_only_the_view(game_id: str, players: int) -> None:
    state = decision(game_id, players, seed=5, stop=20)
    seat = state.current_player
    twin = state.resample_hidden(seat, random.Random(9))
    assert twin.view(seat) == state.view(seat)
    assert twin.all_cards() != state.all_cards()  # the hidden cards lie elsewhere
    first = analyse(state.view(seat), playouts=30, rng=4)
    second = analyse(twin.view(seat), playouts=30, rng=4)
    assert first == second
    assert first.to_json()["ratings"] == second.to_json()["ratings"]


def test_going_out_rates_at_least_as_well_as_a_discard() -> None:
    # seed 0: the last round, seat 0 can go out at 54 points to 56 (the fewest points win)
    state = dreizehn.new_game("three-thirteen", 2, 0)
    rng = random.Random(0)
    while not (state.stage == 10 and any(a >= OUT for a in state.legal_actions())):
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else _act("three-thirteen")(state.view(state.turn), rng))
    analysis = analyse(state.view(state.current_player), playouts=120, rng=2)
    outs = [r for r in analysis.ratings if r.action >= OUT]
    discards = [r for r in analysis.ratings if r.action < OUT]
    assert outs and discards
    best_out = max(r.win for r in outs)
    assert best_out >= max(r.win for r in discards)
    assert analysis.best.win == best_out > 0.5


def test_a_single_legal_action_is_rated_too() -> None:
    state = heuristic_game("knizia13", 3, seed=2, stop=0)
    while len(state.legal_actions()) != 1:
        legal = state.legal_actions()
        state.apply(_act("knizia13")(state.view(state.turn), random.Random(len(state.history))))
        assert legal
    analysis = analyse(state.view(state.current_player), playouts=5, rng=0)
    assert len(analysis.ratings) == 1 and analysis.ratings[0].action == state.legal_actions()[0]
    assert analysis.ratings[0].samples >= 5


def test_budget_in_seconds_and_bad_budgets() -> None:
    state = decision("holzwurm", 2, seed=1, stop=4)
    view = state.view(state.current_player)
    analysis = analyse(view, seconds=0.2, rng=3)
    assert analysis.seconds < 2.0 and all(r.samples >= MIN_SAMPLES for r in analysis.ratings)
    for bad in ({"playouts": 0}, {"seconds": 0.0}, {"seconds": -1.0}, {"allocation": "ucb"}):
        with pytest.raises(ValueError):
            analyse(view, **bad)
    other = (view.seat + 1) % 2
    with pytest.raises(ValueError, match="not to move"):
        analyse(state.view(other), playouts=10)


@pytest.mark.slow  # the hint level's search (compiled where the game has a kernel)
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_hint_puts_the_hint_levels_move_first_and_rates_as_the_analysis(game_id: str, players: int) -> None:
    """``hint``: the move the game's hint level plays (on the generator the hint draws for it) comes first, the other
    moves follow by their chance; every legal move is rated by the hint's playouts, within its budget."""
    state = decision(game_id, players, seed=4, stop=24)
    view = state.view(state.current_player)
    shown = hint(view, playouts=40, rng=5)
    level = state.game.hint_level
    spec = level_spec(level, game_id, players)
    rng = random.Random(5)
    expert = int(make_bot(spec, state.game).act(view, random.Random(rng.getrandbits(64))))
    assert shown.search == spec and shown.choice == expert and shown.best.action == expert
    assert shown.level == level
    assert sorted(r.action for r in shown.ratings) == [int(a) for a in state.legal_actions()]
    assert all(r.samples >= MIN_SAMPLES for r in shown.ratings) and shown.playouts >= 40
    sign = 1.0 if state.game.high_score_wins else -1.0
    assert list(shown.ratings[1:]) == sorted(shown.ratings[1:], key=lambda r: (-r.win, -sign * r.points, r.action))
    doc = shown.to_json()
    assert doc["search"] == spec and doc["choice"] == state.game.action_to_text(expert) == doc["ratings"][0]["action"]
    assert doc["level"] == level
    assert hint(view, playouts=40, rng=5, search=HINT_SEARCH) == shown
    assert hint(view, playouts=40, rng=5, search=level) == shown
    plain = hint(view, playouts=40, rng=5, search=None)
    assert plain == analyse(view, playouts=40, rng=5) and plain.search is None and plain.to_json()["choice"] is None
    assert plain.level is None
    by_spec = hint(view, playouts=40, rng=5, search=spec)  # the same bot named by its specification: no level named
    assert by_spec.choice == expert and by_spec.level is None


def test_each_games_hint_level_is_a_level_it_offers_at_every_player_count() -> None:
    """A game's hint level (docs/bots.md, "Hints") is one of its own levels at every player count, so that a hint
    names the level whose move it puts first, never a stronger level standing in for it."""
    from dreizehn.bots.levels import game_levels, level_name
    from dreizehn.core.registry import game_class

    for game_id, _ in CASES:
        cls = game_class(game_id)
        assert cls.hint_level in game_levels(game_id)
        for players in range(cls.min_players, cls.max_players + 1):
            assert level_name(cls.hint_level, game_id, players) == cls.hint_level


runner = CliRunner()


def test_hint_command(tmp_path: Path) -> None:
    state = decision("knizia13", 4, seed=7, stop=9)
    file = tmp_path / "game.json"
    file.write_text(dumps(state))
    seat = state.current_player
    result = runner.invoke(app, ["hint", str(file), "--seat", str(seat), "--playouts", "30", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["seat"] == seat and doc["game"] == "knizia13"
    assert sorted(r["action"] for r in doc["ratings"]) == sorted(state.legal_texts())
    again = runner.invoke(app, ["hint", str(file), "--seat", str(seat), "--playouts", "30", "--json"])
    assert json.loads(again.output)["ratings"] == doc["ratings"]
    table = runner.invoke(app, ["hint", str(file), "--seat", str(seat), "--time", "0.2"])
    assert table.exit_code == 0, table.output
    assert "win chance" in table.output and "±" in table.output and state.legal_texts()[0] in table.output
    level = state.game.hint_level
    said = f"First the move of the {level} level ({level_spec(level, 'knizia13', 4)})"
    assert said in " ".join(table.output.split())
    by_spec = runner.invoke(app, ["hint", str(file), "--seat", str(seat), "--playouts", "30",
                                  "--search", "ismcts:iterations=500"])
    assert "First the move of ismcts:iterations=500," in " ".join(by_spec.output.split())
    plain = runner.invoke(app, ["hint", str(file), "--seat", str(seat), "--playouts", "30", "--search", "none"])
    assert plain.exit_code == 0 and "Best first." in plain.output
    assert json.loads(runner.invoke(app, ["hint", str(file), "--seat", str(seat), "--playouts", "30", "--json",
                                          "--search", "none"]).output)["search"] is None


def test_hint_command_refuses_a_seat_not_to_move(tmp_path: Path) -> None:
    state = decision("holzwurm", 3, seed=2, stop=5)
    file = tmp_path / "game.json"
    file.write_text(dumps(state))
    wrong = (state.current_player + 1) % 3
    result = runner.invoke(app, ["hint", str(file), "--seat", str(wrong), "--playouts", "10"])
    assert result.exit_code == 1
    assert f"seat {wrong} is not to move" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert runner.invoke(app, ["hint", str(bad), "--seat", "0"]).exit_code == 1


@pytest.mark.slow  # the compiled kernels' search
@pytest.mark.parametrize(("game_id", "players", "moves", "infer"), [
    ("knizia13", 4, 20, None), ("holzwurm", 4, 14, None), ("three-thirteen", 2, 185, None),
    ("three-thirteen", 2, 185, False)])
def test_compiled_hints_rate_as_the_python_ones(game_id: str, players: int, moves: int, infer: bool | None) -> None:
    """The hints are played in the games' kernels: the same ratings, within their standard errors, as the Python
    playouts of the same heuristic on the same view (Three Thirteen's from its ninth round on, where the Python
    playouts are short enough for a test), on worlds dealt the same way: by what the seat saw where the game infers
    (Three Thirteen, by default), else uniformly."""
    import dreizehn.play.hints as hints

    game = dreizehn.load_game(game_id, players)
    assert hints._compiled_rate(game, "heuristic") is not None
    assert hints._compiled_rate(game, "random") is None
    if game_id == "three-thirteen":  # first moves would never go out: the heuristic plays up to the late rounds
        state = decision(game_id, players, 5, moves)
        assert state.stage >= 8
    else:
        state = game.new_state(5)
        for _ in range(moves):
            state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    fast_analysis = analyse(view, playouts=200 * len(view.legal_actions), rng=1, infer=infer)
    slow_analysis = analyse(view, playouts=40 * len(view.legal_actions), rng=1, game=game,
                            policy="heuristic:blunder=0", infer=infer)
    assert fast_analysis.inferred == slow_analysis.inferred == (game.infers and infer is not False)
    compiled = {r.action: r for r in fast_analysis.ratings}
    python = {r.action: r for r in slow_analysis.ratings}
    assert set(compiled) == set(python) == set(view.legal_actions)
    for action, slow in python.items():
        fast = compiled[action]
        assert abs(fast.win - slow.win) < 4 * (fast.win_sd**2 + slow.win_sd**2) ** 0.5 + 0.02
        assert abs(fast.points - slow.points) < 4 * (fast.points_sd**2 + slow.points_sd**2) ** 0.5 + 0.5


def _last_fate_capture(players: int) -> State:
    """A single Holzwurm game at the position the issue met: only the poisonous thirteen is left in the fate row and
    the seat to move has a card that takes a row (and with it the −13, which ends the game, H12, H14) beside cards
    that take nothing."""
    game = dreizehn.load_game("holzwurm", players, {"games": 1})
    rng = random.Random(players)
    while True:
        state = game.new_state(rng.randrange(10**6))
        while not state.is_over:
            view = state.view(state.turn)
            costs = [game.action_cost(view, a) for a in view.legal_actions]
            if len(getattr(view, "fate", ())) == 1 and any(costs) and not all(costs):
                return state
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 4])
def test_hints_rate_a_capture_of_the_poisonous_thirteen_by_what_it_brings(players: int) -> None:
    """Issue 25's position: a capture that takes the −13 ends the game at once, so the seat's final total after it
    is known to the seat (its hand, the row and the −13: no spread), and its win chance is the chance that the hidden
    hands score less. The hint's kernel playouts must say exactly that total and a win chance within the sampling
    error of the one found by the reference rules alone (the capture applied on worlds drawn from the view, no
    playout); a move that takes nothing is rated apart from it."""
    from dreizehn.games.holzwurm.rules import HolzwurmState, hand_points

    state = _last_fate_capture(players)
    assert isinstance(state, HolzwurmState)
    game, seat = state.game, state.turn
    view = state.view(seat)
    analysis = analyse(view, playouts=400 * len(view.legal_actions), rng=3, game=game)
    rng = random.Random(11)
    for action in view.legal_actions:
        cost = game.action_cost(view, action)
        if cost is None:
            continue
        rating = analysis.rating(action)
        after = state.copy()
        after.apply(action)
        assert after.is_over
        assert isinstance(after, HolzwurmState)
        assert rating.points == hand_points(after.hands[seat]) and rating.points_sd == 0
        won = []
        for _ in range(2000):
            world = game.sample_state(view, rng)
            world.apply(action)
            won.append(world.returns()[seat])
        exact, error = sum(won) / len(won), (rating.win_sd**2 + 0.25 / len(won)) ** 0.5
        assert abs(rating.win - exact) < 4 * error + 0.01, (action, rating, exact)
    safe = [analysis.rating(a) for a in view.legal_actions if game.action_cost(view, a) is None]
    taking = [analysis.rating(a) for a in view.legal_actions if game.action_cost(view, a) is not None]
    assert all(r.points_sd > 0 for r in safe)  # the game goes on: the hidden cards still decide
    assert {r.points for r in safe}.isdisjoint(r.points for r in taking)


DEADLOCK = """
import dreizehn
from dreizehn.play.hints import analyse
game = dreizehn.load_game("three-thirteen", 2)
state = game.new_state(5)
for _ in range(150):
    state.apply(state.legal_actions()[0])
analysis = analyse(state.view(state.current_player), playouts=800, rng=2, game=game)
print(analysis.playouts)
"""


@pytest.mark.slow  # a Python process of its own, 800 playouts: about 10 s of CPU
def test_a_three_thirteen_hint_ends_where_two_heuristic_players_would_draw_for_ever() -> None:
    """Among the worlds this hint samples is a round of five cards in which each heuristic player holds two wild
    cards and a pair of sixes, the other's pair being the sixes each needs: they draw and discard for ever, as the
    rules (no ``turn_limit``) let them. The hint's playouts end such a round after 200 turns (T10's limit), so the
    hint ends (it never did: run apart, with a time limit, as a hang is what it would fail by)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", DEADLOCK], capture_output=True, text=True, timeout=300, check=True)
    assert int(done.stdout.split()[-1]) >= 800
