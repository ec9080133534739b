"""The learned value of a cut-off hand in Three Thirteen's search (games/three_thirteen/value.py,
``ismcts:value=learned``; issue 24, item 4): the features describe the hand, the compiled network is the one fitted,
the fitting command is reproducible from its seed, and the shipped network estimates better than the mean."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from benchmark_scripts import load

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.core.errors import BotSpecError
from dreizehn.games.three_thirteen import ThreeThirteenView
from dreizehn.games.three_thirteen.compiled import ThreeThirteenSearchKernel
from dreizehn.games.three_thirteen.heuristic import potential
from dreizehn.games.three_thirteen.kernel import OUT_ORDER
from dreizehn.games.three_thirteen.melds import min_penalty
from dreizehn.games.three_thirteen.rules import DISCARD, DRAW, ThreeThirteenRules, ThreeThirteenState
from dreizehn.games.three_thirteen.search import leaf_points, row_of_view
from dreizehn.games.three_thirteen.value import FEATURES, HIDDEN, NETWORKS, features, network, predict_flat

fitting = load("fit_value")  # the fitting is no part of the runtime package (benchmarks/fit_value.py)
collect, errors_by_count, estimate, fit = fitting.collect, fitting.errors_by_count, fitting.estimate, fitting.fit
main, player_counts, unflatten = fitting.main, fitting.player_counts, fitting.unflatten


def view_after(turns: int, players: int = 3, seed: int = 5, mover: bool = False) -> ThreeThirteenView:
    """What seat 0 (or, with ``mover``, the seat to move) sees after ``turns`` turns of drawing from the stock and
    discarding the highest card."""
    game = dreizehn.load_game("three-thirteen", players)
    state = game.new_state(seed=seed)
    assert isinstance(state, ThreeThirteenState)
    for _ in range(turns):
        seat = state.current_player
        state.apply(DRAW)
        state.apply(DISCARD + max(state.hands[seat]))
    view = state.view(state.current_player if mover else 0)
    assert isinstance(view, ThreeThirteenView) and not view.drawn
    return view


def search_kernel(players: int) -> ThreeThirteenSearchKernel:
    game = dreizehn.load_game("three-thirteen", players)
    assert isinstance(game, ThreeThirteenRules)
    return ThreeThirteenSearchKernel(game)


@pytest.mark.parametrize("turns", [0, 4])
def test_the_features_describe_the_seats_hand(turns: int) -> None:
    view = view_after(turns)
    kernel = search_kernel(3)
    row = row_of_view(kernel.new(1)[0], view)
    x = np.zeros(FEATURES)
    features(row, 0, x)
    hand, size = list(view.hand), view.stage + 3
    points = min_penalty(hand, size)
    assert x[0] * 20 == pytest.approx(points)
    assert x[1] * 5 == pytest.approx(potential(hand, size))
    assert x[2] == sum(1 for card in hand if card % 13 + 1 == size)  # the wild cards (T2)
    assert x[3] == pytest.approx(view.turns_played / 30)
    assert (x[4], x[5]) == (0.0, 0.0)  # nobody went out
    assert x[6] == ((0 - view.current_player) % 3) / 2
    assert x[7] == pytest.approx(size / 13) and x[8] == pytest.approx(1 / 6)
    assert x[9] == (points == 0) and x[10] == pytest.approx(view.stock_size / 52)


@pytest.mark.parametrize("name", list(NETWORKS))
def test_the_compiled_network_is_the_fitted_one(name: str) -> None:
    net = network(name)
    assert net.shape == (FEATURES * HIDDEN + 2 * HIDDEN + 1,)
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 2, (50, FEATURES))
    expected = estimate(x, unflatten(net))
    assert [predict_flat(row, net) for row in x] == pytest.approx(list(expected), abs=1e-9)


def test_the_networks_are_two_and_each_is_best_where_it_was_fitted() -> None:
    assert not np.array_equal(network("learned"), network("learned-large"))
    for fitted, other, players in (("learned", "learned-large", 3), ("learned-large", "learned", 8)):
        x, y, _ = collect(30, seed=777, players=[players])
        errors = [float(np.mean((estimate(x, unflatten(network(n))) - y) ** 2)) for n in (fitted, other)]
        assert errors[0] < errors[1], (fitted, players, errors)


def test_a_cut_off_hand_is_valued_by_the_network_and_a_hand_gone_out_at_nothing() -> None:
    view = view_after(5)
    kernel = search_kernel(3)
    row = row_of_view(kernel.new(1)[0], view)
    net = network()
    x = np.zeros(FEATURES)
    features(row, 0, x)
    assert leaf_points(row, 0, 0.0, net) == pytest.approx(predict_flat(x, net))
    assert leaf_points(row, 0, 0.0, np.empty(0)) == x[0] * 20  # no network: the points as they stand
    row[OUT_ORDER + 0] = 1
    assert leaf_points(row, 0, 0.0, net) == 0.0


def test_self_play_samples_are_reproducible_and_scored_at_their_rounds_end() -> None:
    x, y, groups = collect(3, seed=8, players=[2])
    again = collect(3, seed=8, players=[2])
    assert np.array_equal(x, again[0]) and np.array_equal(y, again[1]) and np.array_equal(groups, again[2])
    assert len(y) > 50 and (y >= 0).all() and (y == 0).any()  # a seat that went out is left with no points
    assert set(np.unique(groups)) <= set(range(33)) and (np.diff(groups) >= 0).all()  # 3 games of 11 rounds
    other = collect(3, seed=9, players=[2])
    assert not np.array_equal(x[:50], other[0][:50])


def test_the_command_writes_the_same_network_from_the_same_seed(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    main(["--games", "12", "--seed", "4", "--players", "2", "--out", str(first)])
    main(["--games", "12", "--seed", "4", "--players", "2", "--out", str(second)])
    assert first.read_text() == second.read_text()
    weights = json.loads(first.read_text())["weights"]
    assert len(weights) == FEATURES * HIDDEN + 2 * HIDDEN + 1


def test_fitting_lowers_the_error_on_what_it_was_fitted_to() -> None:
    x, y, _ = collect(20, seed=2, players=[2])
    params = fit(x, y, seed=0, epochs=60)
    assert np.mean((estimate(x, params) - y) ** 2) < 0.8 * np.var(y)


def test_the_shipped_network_estimates_new_rounds_better_than_their_mean() -> None:
    x, y, _ = collect(40, seed=12345, players=[2, 4])
    error = float(np.mean((estimate(x, unflatten(network())) - y) ** 2))
    assert error < 0.75 * float(np.var(y))
    assert error < float(np.mean((x[:, 0] * 20 - y) ** 2))  # and better than the points as they stand


def test_the_errors_by_player_count_are_each_counts_own() -> None:
    (x2, y2, _), (x5, y5, _) = collect(4, seed=3, players=[2]), collect(3, seed=3, players=[5])
    x, y = np.concatenate([x2, x5]), np.concatenate([y2, y5])
    known = np.repeat([2, 5], [len(x2), len(x5)])  # each row's count, as collected
    assert player_counts(x).tolist() == known.tolist()
    shipped = unflatten(network())
    table = errors_by_count(x, y, [shipped])
    assert sorted(table) == [2, 5]
    for n in (2, 5):
        rows = known == n
        hands, (error, spread) = table[n]
        assert hands == int(rows.sum()) > 0
        assert error == pytest.approx(float(np.mean((estimate(x[rows], shipped) - y[rows]) ** 2)))
        assert spread == pytest.approx(float(np.var(y[rows])))
    assert table[2][1][1] != table[5][1][1]


def test_the_bot_values_cut_off_hands_by_the_network_where_its_search_can() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    view = view_after(6, players=2, seed=3, mover=True)
    spec = "ismcts:playout=heuristic:prune=2:cutoff=4:iterations=60:lead=0"
    learned, points = make_bot(f"{spec}:value=learned", game), make_bot(spec, game)
    assert isinstance(learned, IsmctsBot) and isinstance(points, IsmctsBot)
    assert learned.act(view, random.Random(1)) in view.legal_actions
    points.act(view, random.Random(1))
    assert learned.last_stats != points.last_stats  # the same worlds, valued otherwise
    large = make_bot(f"{spec}:value=learned-large", game)
    assert isinstance(large, IsmctsBot)
    large.act(view, random.Random(1))
    assert large.last_stats not in (learned.last_stats, points.last_stats)  # the other network
    with pytest.raises(BotSpecError) as refused:
        make_bot("ismcts:value=learned", dreizehn.load_game("knizia13", 3))
    assert refused.value.code == "bot.option_value"
    with pytest.raises(BotSpecError):
        make_bot("ismcts:value=guessed", game)
