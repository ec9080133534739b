"""The OpenSpiel adapter: OpenSpiel's own checker for every game and player count, full games against the engine,
no leaks through the strings and tensors, resampling, and OpenSpiel's ISMCTS bot playing the games."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import numpy as np
import pytest

import dreizehn
from dreizehn.core.game import State
from dreizehn.core.registry import game_class, game_ids
from dreizehn.envs.observations import with_defaults

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("dreizehn.envs.openspiel")

SHORT = {"stock_out": "end-round"}
"""Three Thirteen under ``stock_out=end-round`` for OpenSpiel's checker at every player count: uniformly random games
are shorter (1,300 to 3,200 actions) than under the default reshuffle (most rounds reach the default ``turn_limit``:
3,000 to 4,400 actions), and the checker keeps a copy of every state it passes. test_default_games.py checks the
defaults."""


def _params(game_id: str, players: int) -> dict[str, Any]:
    return {"players": players, **(SHORT if game_id == "three-thirteen" else {})}


EVERY_COUNT = [(g, n) for g in game_ids() for n in range(game_class(g).min_players, game_class(g).max_players + 1)]


@pytest.mark.parametrize(("game_id", "players"), EVERY_COUNT)
def test_random_sim_test(game_id: str, players: int, scale: Callable[[int, int], int]) -> None:
    """OpenSpiel's own checker: random games with clones, serialization round trips, chance outcomes, observations,
    returns and the game length bound."""
    game = pyspiel.load_game(openspiel.short_name(game_id), _params(game_id, players))
    pyspiel.random_sim_test(game, num_sims=scale(1, 5), serialize=True, verbose=False)


def test_registered_names_and_parameters() -> None:
    names = set(pyspiel.registered_names())
    assert {"dreizehn_knizia13", "dreizehn_three_thirteen", "dreizehn_holzwurm"} <= names
    game = pyspiel.load_game("dreizehn_three_thirteen")
    assert game.num_players() == 2
    assert game.get_parameters()["decks"] == 0 and game.get_parameters()["stock_out"] == "reshuffle"
    assert game.engine.options["decks"] == 1  # 0 is the default for the player count
    assert game.get_parameters()["turn_limit"] == game.engine.options["turn_limit"] == 200  # the research default
    assert game.max_game_length() == 11 * 2 * 200
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    four = pyspiel.load_game("dreizehn_knizia13", {"players": 4, "open_piles": True})
    assert four.num_players() == 4 and four.engine.options["open_piles"] is True
    assert four.num_distinct_actions() == four.engine.num_actions
    assert four.max_chance_outcomes() == 16
    assert four.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (four.min_utility(), four.max_utility(), four.utility_sum()) == (0.0, 1.0, 1.0)


def test_bad_parameters_refused() -> None:
    with pytest.raises(ValueError, match=r"13 is for 3 to 6 players, not 2 \(K4\)"):
        pyspiel.load_game("dreizehn_knizia13", {"players": 2})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("dreizehn_knizia13", {"colour": "red"})
    with pytest.raises(ValueError, match=r"option 'dealer' must be a seat from 0 to 3"):
        pyspiel.load_game("dreizehn_knizia13", {"dealer": 7})
    with pytest.raises(ValueError, match="stock_out"):
        pyspiel.load_game("dreizehn_three_thirteen", {"stock_out": "never"})


def _reference(game_id: str, players: int, seed: int, options: dict[str, Any]) -> State:
    """A whole game on the engine: random moves, the eager ones (going out) whenever legal."""
    state = dreizehn.load_game(game_id, players, with_defaults(game_id, options)).new_state(seed)
    rng = random.Random(seed)
    eager = state.game.eager_actions
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(rng.choice([a for a in legal if a in eager] or legal))
    return state


def _replay(game: Any, reference: State) -> Any:
    """The same game through the adapter: the reference's shuffles dealt at the chance nodes, its actions played."""
    outcomes: Iterator[int] = iter([card for order in reference.shuffles if len(order) > 1 for card in order[:-1]])
    actions = iter(reference.history)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            card = next(outcomes)
            assert card in dict(state.chance_outcomes())
            state.apply_action(card)
        else:
            seat, action = next(actions)
            assert state.current_player() == seat
            assert state.legal_actions() == [int(a) for a in state.engine.legal_actions()]
            state.apply_action(action)
    assert next(outcomes, None) is None and next(actions, None) is None
    return state


@pytest.mark.parametrize(("game_id", "players", "options"), [
    ("knizia13", 3, {}), ("knizia13", 5, {"open_piles": True}), ("holzwurm", 2, {}), ("holzwurm", 4, {}),
    ("three-thirteen", 2, {}), ("three-thirteen", 4, {}), ("three-thirteen", 3, SHORT),
])
def test_full_game_matches_engine(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = pyspiel.load_game(openspiel.short_name(game_id), {"players": players, **options})
    reshuffles = 0
    for seed in range(3):
        reference = _reference(game_id, players, seed, options)
        state = _replay(game, reference)
        assert state.engine.totals == reference.totals
        assert state.returns() == list(reference.returns())
        assert state.engine.shuffles == reference.shuffles
        assert len(state.history()) == len(reference.history) + sum(max(0, len(o) - 1) for o in reference.shuffles)
        reshuffles += len(reference.shuffles) - len(reference.stage_scores)  # one deal a stage, the rest reshuffles
        restored = game.deserialize_state(state.serialize())
        assert str(restored) == str(state) and restored.returns() == state.returns()
    if game_id == "three-thirteen" and not options:
        assert reshuffles > 0  # the stock ran out at least once: mid-round shuffles are chance nodes too


def _step(state: Any, rng: random.Random) -> None:
    """One random move: a chance outcome by its probability, or a legal action (an eager one when there is)."""
    if state.is_chance_node():
        cards, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(cards, probs)[0])
    else:
        legal = state.legal_actions()
        state.apply_action(rng.choice([a for a in legal if a in state.engine.game.eager_actions] or legal))


def _positions(game: Any, count: int, seed: int) -> list[Any]:
    """Player nodes and chance nodes met in random games through the adapter."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if rng.random() < 0.05:
                out.append(state.clone())
            _step(state, rng)
    return out


LEAK_CASES = [("knizia13", 4), ("holzwurm", 3), ("three-thirteen", 2), ("three-thirteen", 4)]


@pytest.mark.parametrize(("game_id", "players"), LEAK_CASES)
def test_strings_and_tensors_leak_nothing(game_id: str, players: int) -> None:
    """A player's strings and tensors stay the same when everything it cannot see is dealt anew."""
    game = pyspiel.load_game(openspiel.short_name(game_id), {"players": players})
    rng = random.Random(2)
    for state in _positions(game, 60, seed=1):
        if state.engine is None or state.is_chance_node():
            continue
        for seat in range(players):
            other = openspiel.DreizehnState(game, state.engine.resample_hidden(seat, rng))
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_string(seat) == state.observation_string(seat)
            assert np.array_equal(other.information_state_tensor(seat), state.information_state_tensor(seat))
            assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))


def test_partial_deal_is_hidden() -> None:
    """While a shuffle is being dealt, no player can tell which cards came first."""
    game = pyspiel.load_game("dreizehn_knizia13", {"players": 3})
    state = game.new_initial_state()
    for _ in range(10):
        state.apply_action(state.chance_outcomes()[0][0])
    a, b = state.clone(), state.clone()
    a.apply_action(a.chance_outcomes()[0][0])
    b.apply_action(b.chance_outcomes()[-1][0])
    assert str(a) != str(b)
    for seat in range(3):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert np.array_equal(a.information_state_tensor(seat), b.information_state_tensor(seat))


def test_chance_outcomes_follow_the_cards_left() -> None:
    game = pyspiel.load_game("dreizehn_knizia13", {"players": 4})
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert outcomes[15] == pytest.approx(8 / 50)  # eight nasty fours (K2) among 50 cards
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 15) == "deal R4"
    with pytest.raises(ValueError, match="not a card left to deal"):
        for _ in range(9):
            state.apply_action(15)


def test_a_clone_and_its_original_move_apart() -> None:
    """A clone shares what its original kept (the cards left to deal, the seats' texts and views, its own text) and
    each, moved on, tells only its own state: at a chance node and at a seat's turn. A second initial state deals
    from a full shuffle after the first one dealt cards."""
    game = pyspiel.load_game("dreizehn_three_thirteen", {"players": 2})
    first = game.new_initial_state()
    first.apply_action(first.chance_outcomes()[0][0])
    assert dict(game.new_initial_state().chance_outcomes()).keys() > dict(first.chance_outcomes()).keys()
    rng = random.Random(4)
    while first.is_chance_node():
        first.apply_action(rng.choice([a for a, _ in first.chance_outcomes()]))
    for state in (first, first.child(first.legal_actions()[0])):  # a seat's turn, then a chance node or a turn
        texts = [str(state), state.observation_string(0), state.information_state_string(1)]
        clone = state.clone()
        assert [str(clone), clone.observation_string(0), clone.information_state_string(1)] == texts
        action = (clone.chance_outcomes()[0][0] if clone.is_chance_node() else clone.legal_actions()[0])
        clone.apply_action(action)
        assert [str(state), state.observation_string(0), state.information_state_string(1)] == texts
        assert str(clone) != texts[0] and clone.information_state_string(1) != texts[2]
        assert str(clone) == str(state.child(action))


def test_illegal_action_refused_with_the_rule() -> None:
    game = pyspiel.load_game("dreizehn_three_thirteen", {"players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = str(state), state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=r"\(T\d+\)"):
        state.apply_action(illegal)
    assert (str(state), state.history()) == before


@pytest.mark.parametrize(("game_id", "players"), LEAK_CASES)
def test_resample_from_infostate(game_id: str, players: int) -> None:
    game = pyspiel.load_game(openspiel.short_name(game_id), {"players": players})
    rng = random.Random(7)
    differs = 0
    for state in _positions(game, 40, seed=4):
        if state.is_chance_node():
            with pytest.raises(ValueError, match="while a shuffle is being dealt"):
                state.resample_from_infostate(0, rng.random)
            continue
        if state.is_terminal():
            continue
        player = state.current_player()
        sample = state.resample_from_infostate(player, rng.random)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(sample.information_state_tensor(player), state.information_state_tensor(player))
        assert sample.legal_actions() == state.legal_actions()
        differs += str(sample) != str(state)
        for _ in range(300):  # the sample plays on, its shuffles as chance nodes
            if sample.is_terminal():
                break
            _step(sample, rng)
    assert differs > 0


@pytest.mark.parametrize(("game_id", "params", "from_stage"), [
    ("holzwurm", {"players": 2, "games": 1}, 0),
    ("knizia13", {"players": 3}, 5),
    ("three-thirteen", {"players": 2, "stock_out": "end-round"}, 10),
])
def test_openspiel_ismcts_plays(game_id: str, params: dict[str, Any], from_stage: int) -> None:
    """OpenSpiel's own information-set MCTS bot plays a game to its end from the start of ``from_stage`` (the last
    stage of 13 and Three Thirteen: its random rollouts play the rest of the whole game, and they are slow), keyed by
    our information-state strings and resampling through ``resample_from_infostate``."""
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = pyspiel.load_game(openspiel.short_name(game_id), params)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=4, random_state=rs)
    rng = random.Random(0)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0 and state.engine.stage >= from_stage:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            _step(state, rng)
    assert moves > 0 and sum(state.returns()) == pytest.approx(1.0)


def test_docs_examples_run() -> None:
    """The OpenSpiel examples of docs/envs.md run as written (the bot example after the game example)."""
    import re
    import textwrap
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "pyspiel" in b or "open_spiel" in b]
    assert len(blocks) >= 2
    scope: dict[str, object] = {}
    for block in blocks:
        exec(compile(textwrap.dedent(block), "docs/envs.md", "exec"), scope)
    assert scope["state"].is_terminal()  # type: ignore[attr-defined]
    assert scope["bot"] is not None


def test_games_pickle_for_worker_processes() -> None:
    """A game goes to a worker (multiprocessing, Ray) by pickle, as OpenSpiel's own games do; a fresh interpreter
    unpickles it by importing the adapter."""
    import pickle
    import subprocess
    import sys

    for game_id in game_ids():
        game = pyspiel.load_game(openspiel.short_name(game_id), _params(game_id, game_class(game_id).min_players))
        again = pickle.loads(pickle.dumps(game))
        assert type(again) is type(game) and str(again) == str(game)
        state, copy = game.new_initial_state(), again.new_initial_state()
        rng = random.Random(4)
        for _ in range(200):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = rng.choice([a for a, _ in state.chance_outcomes()])
            else:
                action = rng.choice(state.legal_actions())
                assert state.observation_tensor() == copy.observation_tensor()
            state.apply_action(action)
            copy.apply_action(action)
        assert str(pickle.loads(pickle.dumps(state))) == str(state)
    data = pickle.dumps(pyspiel.load_game("dreizehn_holzwurm", {"players": 3, "games": 2}))
    script = "import pickle, sys; game = pickle.loads(sys.stdin.buffer.read()); print(game, type(game).__name__)"
    done = subprocess.run([sys.executable, "-c", script], input=data, capture_output=True, check=True, timeout=120)
    assert done.stdout.decode().split() == ["dreizehn_holzwurm(games=2,players=3,starter=0)", "HolzwurmGame"]


@pytest.mark.parametrize(("game_id", "players", "limit"), [("knizia13", 3, None), ("holzwurm", 4, None),
                                                           ("three-thirteen", 2, 1500)])
def test_answers_from_python_equal_openspiels_through_cpp(game_id: str, players: int, limit: int | None) -> None:
    """The state answers legal_actions, is_chance_node and the tensors itself; pyspiel's own methods (through C++
    and back) give the same, at every node of a game, and refuse the same."""
    game = pyspiel.load_game(openspiel.short_name(game_id), _params(game_id, players))
    base = pyspiel.State
    state = game.new_initial_state()
    rng = random.Random(7)
    for step in range(limit or 10**6):
        assert state.is_chance_node() == base.is_chance_node(state)
        assert state.legal_actions() == base.legal_actions(state)
        for player in range(players):
            assert state.legal_actions(player) == base.legal_actions(state, player)
            if step % 7 == 0 or state.is_terminal():
                assert state.observation_tensor(player) == base.observation_tensor(state, player)
                assert state.information_state_tensor(player) == base.information_state_tensor(state, player)
        if not state.is_chance_node() and not state.is_terminal():
            assert state.observation_tensor() == base.observation_tensor(state)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    if limit is None:
        assert state.is_terminal()
        for method in (state.observation_tensor, state.information_state_tensor,
                       partial(base.observation_tensor, state)):
            with pytest.raises(pyspiel.SpielError):
                method()


@pytest.mark.parametrize(("game_id", "options"), [("knizia13", {}), ("holzwurm", {"games": 3}),
                                                  ("three-thirteen", {"turn_limit": 40}),
                                                  ("three-thirteen", {"stock_out": "end-round"})])
def test_an_action_said_not_to_shuffle_never_does(game_id: str, options: dict[str, Any]) -> None:
    """The adapter applies an action in place, without a copy, when the engine says it cannot shuffle
    (``may_shuffle``): over whole games at every player count, no such action shuffled, and some said to did."""
    rng = random.Random(5)
    shuffled_when_said = 0
    cls = game_class(game_id)
    for players in range(cls.min_players, cls.max_players + 1):
        game = dreizehn.load_game(game_id, players, options)
        for seed in range(2):
            state = game.new_state(seed)
            while not state.is_over:
                action = rng.choice(state.legal_actions())
                said, before = state.may_shuffle(action), len(state.shuffles)
                state.apply(action)
                assert said or len(state.shuffles) == before
                shuffled_when_said += len(state.shuffles) > before
    assert shuffled_when_said > 0
