"""The observation and information-state tensors: their layouts, what they hold, and that they leak nothing."""

from __future__ import annotations

import random

import numpy as np
import pytest

import dreizehn
from dreizehn.core.errors import UnknownGameError
from dreizehn.core.game import State
from dreizehn.envs.observations import HISTORY, Encoder, encoder_of
from dreizehn.games.knizia13 import Knizia13

CASES = [("knizia13", 3), ("knizia13", 6), ("holzwurm", 2), ("holzwurm", 5), ("three-thirteen", 2),
         ("three-thirteen", 4)]


def _positions(game_id: str, players: int, count: int, seed: int = 0) -> list[State]:
    """States met in random games (the game's eager actions taken, so that Three Thirteen's rounds end)."""
    rng = random.Random(seed)
    out: list[State] = []
    game = dreizehn.load_game(game_id, players)
    while len(out) < count:
        state = game.new_state(rng.randrange(10**6))
        while not state.is_over and len(out) < count:
            if rng.random() < 0.2:
                out.append(state.copy())
            legal = state.legal_actions()
            eager = [a for a in legal if a in game.eager_actions]
            state.apply(rng.choice(eager or legal))
        if state.is_over:
            out.append(state)
    return out


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_layouts_tile_the_vector(game_id: str, players: int) -> None:
    encoder = encoder_of(dreizehn.load_game(game_id, players))
    for layout in (encoder.observation_layout, encoder.information_state_layout):
        end = 0
        for _, offset, shape, description in layout.describe():
            assert offset == end and description
            end += int(np.prod(shape))
        assert end == layout.size
    extra = encoder.information_state_layout.size - encoder.observation_layout.size
    assert extra == HISTORY * (players + encoder.num_actions)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_tensors_hold_the_view(game_id: str, players: int) -> None:
    for state in _positions(game_id, players, 60):
        encoder = encoder_of(state.game)
        for seat in range(players):
            view = state.view(seat)
            obs = encoder.observation(view)
            layout = encoder.observation_layout
            assert obs.dtype == np.float32 and obs.shape == (layout.size,)
            hand = layout.block(obs, "hand")
            assert hand.sum() == len(view.hand)  # type: ignore[attr-defined]
            for card in set(view.hand):  # type: ignore[attr-defined]
                assert hand[card] == view.hand.count(card)  # type: ignore[attr-defined]
            sizes = layout.block(obs, "hand_sizes")
            assert [int(x) for x in sizes] == [view.hand_sizes[(seat + i) % players]  # type: ignore[attr-defined]
                                               for i in range(players)]
            assert sizes[0] == len(view.hand)  # type: ignore[attr-defined]  # relative: 0 is the observer
            totals = layout.block(obs, "totals")
            assert [int(x) for x in totals] == [view.totals[(seat + i) % players] for i in range(players)]
            to_move = layout.block(obs, "to_move")
            if state.is_over:
                assert to_move.sum() == 0
            else:
                assert to_move[(state.current_player - seat) % players] == 1 and to_move.sum() == 1
            info = encoder.information_state(view)
            assert np.array_equal(info[: layout.size], obs)
            recent = view.history[-HISTORY:]
            actions = encoder.information_state_layout.block(info, "history_action")
            assert actions.sum() == len(recent)
            if recent:
                assert actions[len(recent) - 1, recent[-1][1]] == 1


def test_observation_written_in_place() -> None:
    state = _positions("three-thirteen", 3, 5)[-1]
    encoder = encoder_of(state.game)
    out = np.full(encoder.observation_layout.size, 7.0, np.float32)
    assert encoder.observation(state.view(1), out=out) is out
    assert np.array_equal(out, encoder.observation(state.view(1)))


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_tensors_leak_nothing(game_id: str, players: int) -> None:
    """Dealing anew everything a seat cannot see leaves its tensors exactly as they were."""
    rng = random.Random(5)
    for state in _positions(game_id, players, 40, seed=3):
        encoder: Encoder = encoder_of(state.game)
        for seat in range(players):
            other = state.resample_hidden(seat, rng)
            assert np.array_equal(encoder.information_state(state.view(seat)),
                                  encoder.information_state(other.view(seat)))


def test_hidden_cards_change_the_tensor_of_their_owner() -> None:
    """The check above can fail: the owner of a hand sees it in its tensor."""
    rng = random.Random(1)
    state = dreizehn.new_game("holzwurm", players=3, seed=4)
    encoder = encoder_of(state.game)
    other = state.resample_hidden(0, rng)
    assert not np.array_equal(encoder.observation(state.view(1)), encoder.observation(other.view(1)))


def test_a_game_without_an_encoder_is_refused() -> None:
    """A game that does not define its encoder (the protocol's default) cannot be encoded (E1)."""

    class Plain(Knizia13):
        id = "plain"

        encoder = ""

    with pytest.raises(UnknownGameError, match="no tensor encoding of the game 'plain'") as refused:
        encoder_of(Plain(4))
    assert refused.value.rule == "E1"


def _staying(players: int, options: dict[str, object], count: int, seed: int) -> list[State]:
    """Three Thirteen states of random games in which nobody goes out until the stock has run out (reshuffles,
    stock candidates, last turns and a turn limit met)."""
    rng = random.Random(seed)
    game = dreizehn.load_game("three-thirteen", players, options)
    out: list[State] = []
    while len(out) < count:
        state = game.new_state(rng.randrange(10**6))
        while not state.is_over and len(out) < count:
            out.append(state.copy())
            legal = state.legal_actions()
            stays = [a for a in legal if a not in game.eager_actions]
            state.apply(rng.choice(legal if not stays or state.turns_played > 250 else stays))  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_tensor_made_from_the_state_is_the_views_tensor(game_id: str, players: int) -> None:
    """``observation_of`` and ``information_state_of`` (from a state, without the view, where the game fills from
    states: every game) write exactly what the view's tensors hold, for every seat: so they show no more."""
    states = _positions(game_id, players, 150, seed=players)
    if game_id == "three-thirteen":
        staying = _staying(players, {}, 900, seed=1)
        assert any(s.reshuffled for s in staying)  # type: ignore[attr-defined]
        states += staying + _staying(players, {"turn_limit": 30}, 100, seed=2)
    for state in states:
        encoder = encoder_of(state.game)
        for seat in range(players):
            view = state.view(seat)
            assert np.array_equal(encoder.observation_of(state, seat), encoder.observation(view))
            assert np.array_equal(encoder.information_state_of(state, seat), encoder.information_state(view))
            _same_list(encoder.observation_list(state, seat), encoder.observation(view))
            _same_list(encoder.information_state_list(state, seat), encoder.information_state(view))


def _same_list(values: list[float], tensor: np.ndarray) -> None:
    """A tensor written as a list holds the array's values, every one a float (as OpenSpiel hands them out)."""
    assert values == tensor.tolist() and all(type(x) is float for x in values)


@pytest.mark.parametrize(("game_id", "players", "options"), [("knizia13", 4, {"open_piles": True}),
                                                             ("knizia13", 5, {"dealer": 3}),
                                                             ("holzwurm", 4, {"games": 2}),
                                                             ("holzwurm", 3, {})])
def test_a_tensor_made_from_the_state_holds_every_option_and_the_end(game_id: str, players: int,
                                                                       options: dict[str, object]) -> None:
    """13's and Holzwurm's tensors from the state, under their options and once the game is over, equal the
    view's (every position of a few whole games)."""
    rng = random.Random(3)
    game = dreizehn.load_game(game_id, players, options)
    encoder = encoder_of(game)
    for seed in range(3):
        state = game.new_state(seed)
        while True:
            for seat in range(players):
                view = state.view(seat)
                assert np.array_equal(encoder.observation_of(state, seat), encoder.observation(view))
                assert np.array_equal(encoder.information_state_of(state, seat), encoder.information_state(view))
                _same_list(encoder.observation_list(state, seat), encoder.observation(view))
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
