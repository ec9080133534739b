"""The ``learned`` bot: legal from views alone in every game it has a network for, the same action for the same view
and rng, its weights read back as written, and no torch needed to play. The network reads the observation of a view
(``Encoder.observation``) where it was fitted on the kernel's: the differential tests (``tests/kernels``) prove the two
the same on every decision.

Its strength against the heuristic is measured by ``benchmarks/fit_learned.py --evaluate`` (docs/learned.md), never
asserted here.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.learned import MODEL_FILE, LearnedBot, Network, fits, from_arrays, shipped
from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import BotError
from dreizehn.core.kernel import load_kernel
from dreizehn.games.three_thirteen.bot_kernel import narrow_to_best
from dreizehn.games.three_thirteen.heuristic import rank
from dreizehn.games.three_thirteen.rules import OUT
from dreizehn.games.three_thirteen.search import row_of_view

GAMES = [g for g in dreizehn.game_ids() if shipped(g) is not None]
"""The games with a shipped network."""


def test_some_games_ship_a_network() -> None:
    assert "knizia13" in GAMES


def _game(game_id: str) -> dreizehn.Game:
    network = shipped(game_id)
    assert network is not None
    return dreizehn.load_game(game_id, network.players, dict(network.options))


@pytest.mark.parametrize("game_id", GAMES)
def test_plays_legal_moves_in_whole_games(game_id: str, scale: Callable[[int, int], int]) -> None:
    """Whole games with the bot in every seat (and with random seats beside it): every move legal, every game over."""
    game = _game(game_id)
    bot = LearnedBot(game)  # by name in Holzwurm at 4 players, ``learned`` is the level: the ``policy`` bot
    rng = random.Random(0)
    for seed in range(scale(10, 100)):
        state = game.new_state(seed)
        learners = {seat for seat in range(game.players) if seed % 2 == 0 or seat == seed % game.players}
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            action = bot.act(view, rng) if seat in learners else rng.choice(view.legal_actions)
            assert action in state.legal_actions()
            state.apply(action)


@pytest.mark.parametrize("game_id", GAMES)
def test_same_view_and_rng_give_the_same_action(game_id: str) -> None:
    game = _game(game_id)
    bot = LearnedBot(game)
    rng = random.Random(1)
    state = game.new_state(3)
    for _ in range(30):
        if state.is_over:
            break
        view = state.view(state.current_player)
        first = bot.act(view, random.Random(7))
        assert all(bot.act(view, random.Random(7)) == first for _ in range(3))
        state.apply(rng.choice(state.legal_actions()))


def _small_network() -> Network:
    rng = np.random.default_rng(0)
    sizes = [5 + 3, 4, 3]
    return Network(
        weights=tuple(rng.normal(size=(sizes[i], sizes[i + 1])).astype(np.float32) for i in range(2)),
        biases=tuple(rng.normal(size=sizes[i + 1]).astype(np.float32) for i in range(2)),
        scale=np.array([1, 2, 4, 8, 1], np.float32), target_scale=1.0, game_id="knizia13", players=4,
        options={"open_piles": False}, num_actions=3)


def test_weights_read_back_as_written() -> None:
    network = _small_network()
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **network.to_arrays())  # type: ignore[arg-type]
    buffer.seek(0)
    with np.load(buffer) as saved:
        again = from_arrays({name: saved[name] for name in saved.files})
    obs = np.arange(10, dtype=np.float32).reshape(2, 5)
    hint = np.array([0, 2], np.int64)
    assert np.array_equal(again.values(obs, hint), network.values(obs, hint))
    assert (again.game_id, again.players, dict(again.options)) == ("knizia13", 4, {"open_piles": False})


def test_values_are_the_layers_by_hand() -> None:
    """The forward pass: the observation divided by its scale, the heuristic's action one-hot, ReLU between
    layers, none after the last."""
    network = _small_network()
    obs = np.array([[1, 2, 3, 4, 5]], np.float32)
    x = np.concatenate([obs[0] / network.scale, [0, 1, 0]])
    hidden = np.maximum(x @ network.weights[0] + network.biases[0], 0)
    expected = hidden @ network.weights[1] + network.biases[1]
    assert np.allclose(network.values(obs, np.array([1], np.int64))[0], expected, atol=1e-5)


def test_refuses_a_game_it_has_no_network_for() -> None:
    missing = [g for g in dreizehn.game_ids() if g not in GAMES]
    for game_id in missing:
        with pytest.raises(BotError) as caught:
            make_bot("learned", dreizehn.load_game(game_id, 2))
        assert caught.value.rule == "B5"
    network = shipped("knizia13")
    assert network is not None
    other = 3 if network.players != 3 else 4
    assert not fits(network, dreizehn.load_game("knizia13", other))
    with pytest.raises(BotError):
        make_bot("learned", dreizehn.load_game("knizia13", other))


@pytest.mark.slow  # a Python process of its own
def test_plays_without_torch() -> None:
    """The runtime package loads the weights and plays with torch unimportable (the ``learn`` extra absent)."""
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import random, dreizehn\n"
        "from dreizehn.bots.base import make_bot\n"
        "game = dreizehn.load_game('knizia13', 4)\n"
        "state = game.new_state(2)\n"
        "bot = make_bot('learned', game)\n"
        "assert bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()\n"
        "assert sys.modules['torch'] is None\n"
        f"print({MODEL_FILE!r})\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == MODEL_FILE


def _three_thirteen_views(games: int) -> list[Any]:
    """The views of every decision of ``games`` 2-player Three Thirteen games of the heuristic against itself."""
    game = dreizehn.load_game("three-thirteen", 2)
    bot = make_bot("heuristic", game)
    views = []
    for seed in range(games):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_over:
            view = state.view(state.current_player)
            views.append(view)
            state.apply(bot.act(view, rng))
    return views


def test_the_kernels_candidates_are_the_heuristics_best_discards_and_its_own() -> None:
    """``narrow_to_best`` (the fitting's narrowing, compiled) leaves at each discard with no way out the heuristic's
    best ``k`` discards as :func:`.three_thirteen.heuristic.rank` orders them where its advice is one of them (else
    that advice alone: a discard at random, to end a stalemate), at a way out the heuristic's alone, and the draws as
    they were: what the ``learned`` bot narrows to at play."""
    game = dreizehn.load_game("three-thirteen", 2)
    kernel = load_kernel(game)
    empty = kernel.new(1)[0]
    narrowed = untouched = ways_out = 0
    for view in _three_thirteen_views(3):
        row = row_of_view(empty, view)
        legal = np.zeros((1, game.num_actions), np.bool_)
        kernel.legal(row[None, :], legal)
        before = legal.copy()
        ranked = rank(view)
        outs = [a for a in view.legal_actions if a >= OUT]
        hint = ranked[0] if ranked else outs[0] if outs else view.legal_actions[0]  # the heuristic's advice
        narrow_to_best(row[None, :], np.array([hint], np.int64), 2, legal)
        if outs:
            assert set(np.flatnonzero(legal[0])) == {hint}  # a way out: the heuristic's
            ways_out += 1
        elif ranked is None:
            assert np.array_equal(legal, before)
            untouched += 1
        else:
            assert set(np.flatnonzero(legal[0])) == set(ranked[:2])
            if len(ranked) > 2:  # advice outside its own best two (a discard at random): that discard alone
                unbacked = before.copy()
                narrow_to_best(row[None, :], np.array([ranked[-1]], np.int64), 2, unbacked)
                assert set(np.flatnonzero(unbacked[0])) == {ranked[-1]}
                narrowed += 1
    assert narrowed > 50 and untouched > 50 and ways_out > 0


def test_a_network_with_candidates_plays_only_among_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A network fitted with ``candidates`` plays at a ranked decision only the heuristic's best ``candidates`` or
    its own action, however it rates the others; the same network without them plays others too."""
    game = dreizehn.load_game("three-thirteen", 2)
    encoder = encoder_of(game)
    size = len(encoder.observation(game.new_state(0).view(0)))
    rng = np.random.default_rng(1)
    widths = [size + game.num_actions, 16, game.num_actions]
    free = Network(weights=tuple(rng.normal(size=(widths[i], widths[i + 1])).astype(np.float32) for i in range(2)),
                   biases=tuple(rng.normal(size=widths[i + 1]).astype(np.float32) for i in range(2)),
                   scale=np.ones(size, np.float32), target_scale=1.0, game_id="three-thirteen", players=2,
                   options={}, num_actions=game.num_actions)
    outside = {}
    for network in (free, replace(free, candidates=2)):
        monkeypatch.setattr("dreizehn.bots.learned.shipped", lambda game_id, n=network: n)
        bot = LearnedBot(game)
        outside[network.candidates] = 0
        for view in _three_thirteen_views(2):
            ranked = rank(view)
            if ranked is None or len(ranked) < 4:
                continue
            hint = make_bot("heuristic", game).act(view, random.Random(0))
            action = bot.act(view, random.Random(0))
            outside[network.candidates] += action not in {*ranked[:2], hint}  # the advice itself, where unbacked
    assert outside[2] == 0 and outside[0] > 0
