"""The ``policy`` bot: a policy network (MaskablePPO's actor, exported to NumPy) legal from views alone in every game
that ships one, the same action for the same view, its weights read back as written, its forward pass the layers by
hand, and no torch needed to play. The network reads the observation of a view (``Encoder.observation``) where it
learned on the kernel's: the differential tests (``tests/kernels``) prove the two the same on every decision; that
the exported network plays as the torch model does is ``tests/envs/test_sb3.py``'s (the ``learn`` extra).

Its strength is measured by the arena (docs/learned.md), never asserted here.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.policy import POLICY_FILE, PolicyBot, PolicyNetwork, load_policy, shipped_policy
from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import BotError

GAMES = [g for g in dreizehn.game_ids() if shipped_policy(g) is not None]
"""The games with a shipped policy network."""


def test_holzwurm_ships_a_policy() -> None:
    network = shipped_policy("holzwurm")
    assert network is not None and network.players == 4 and dict(network.options) == {"games": 3}
    layout = encoder_of(dreizehn.load_game("holzwurm", 4)).observation_layout
    assert network.steps > 0 and network.obs_size == layout.size


def _game(game_id: str) -> dreizehn.Game:
    network = shipped_policy(game_id)
    assert network is not None
    return dreizehn.load_game(game_id, network.players, dict(network.options))


@pytest.mark.parametrize("game_id", GAMES)
def test_plays_legal_moves_in_whole_games(game_id: str, scale: Callable[[int, int], int]) -> None:
    """Whole games with the bot in every seat (and with random seats beside it), from each seat a first game's
    starter: every move legal, every game over."""
    bot = make_bot("policy", _game(game_id))
    assert isinstance(bot, PolicyBot)
    rng = random.Random(0)
    for seed in range(scale(4, 40)):
        game = dreizehn.load_game(game_id, bot.game.players, {**bot.game.options, "starter": seed % bot.game.players}
                                  if game_id == "holzwurm" else bot.game.options)
        state = game.new_state(seed)
        bots = {seat for seat in range(game.players) if seed % 2 == 0 or seat == seed % game.players}
        while not state.is_over:
            seat = state.current_player
            view = state.view(seat)
            action = bot.act(view, rng) if seat in bots else rng.choice(view.legal_actions)
            assert action in state.legal_actions()
            state.apply(action)


@pytest.mark.parametrize("game_id", GAMES)
def test_same_view_gives_the_same_action(game_id: str) -> None:
    """The network's choice is the view's alone: no rng is read."""
    game = _game(game_id)
    bot = make_bot("policy", game)
    rng = random.Random(1)
    state = game.new_state(3)
    for _ in range(40):
        view = state.view(state.current_player)
        first = bot.act(view, random.Random(7))
        assert all(bot.act(view, random.Random(k)) == first for k in range(3))
        state.apply(rng.choice(state.legal_actions()))


def _small_network() -> PolicyNetwork:
    rng = np.random.default_rng(0)
    sizes = [5, 4, 3]
    return PolicyNetwork(
        weights=tuple(rng.normal(size=(sizes[i], sizes[i + 1])).astype(np.float32) for i in range(2)),
        biases=tuple(rng.normal(size=sizes[i + 1]).astype(np.float32) for i in range(2)),
        game_id="knizia13", players=4, options={"open_piles": False}, num_actions=3, steps=12)


def test_weights_read_back_as_written(tmp_path: Path) -> None:
    network = _small_network()
    network.save(tmp_path / "p.npz")
    again = load_policy(tmp_path / "p.npz")
    obs = np.arange(10, dtype=np.float32).reshape(2, 5)
    assert np.array_equal(again.logits(obs), network.logits(obs))
    assert (again.game_id, again.players, dict(again.options), again.steps) == ("knizia13", 4,
                                                                                {"open_piles": False}, 12)


def test_logits_are_the_layers_by_hand() -> None:
    """The forward pass: the observation as it is, tanh between layers, none after the last; the choice the legal
    action of the highest logit."""
    network = _small_network()
    obs = np.array([[1, -2, 3, 0.5, 5]], np.float32)
    hidden = np.tanh(obs[0] @ network.weights[0] + network.biases[0])
    expected = hidden @ network.weights[1] + network.biases[1]
    assert np.allclose(network.logits(obs)[0], expected, atol=1e-5)
    for legal in ([True, True, True], [True, False, True], [False, True, False]):
        mask = np.array([legal])
        best = max((i for i in range(3) if legal[i]), key=lambda i: expected[i])
        assert network.choose(obs, mask).tolist() == [best]


def test_refuses_a_table_it_has_no_network_for() -> None:
    """B5: a game without a shipped policy, another player count or other options are refused, not played."""
    for game_id in [g for g in dreizehn.game_ids() if g not in GAMES]:
        with pytest.raises(BotError) as caught:
            make_bot("policy", dreizehn.load_game(game_id, 4))
        assert caught.value.rule == "B5" and caught.value.code == "bot.game"
    for players, options in ((3, {}), (4, {"games": 1})):
        with pytest.raises(BotError) as caught:
            make_bot("policy", dreizehn.load_game("holzwurm", players, options))
        assert caught.value.rule == "B5" and caught.value.code == "bot.fitted"
    assert isinstance(make_bot("policy", dreizehn.load_game("holzwurm", 4, {"starter": 2})), PolicyBot)


@pytest.mark.slow  # a Python process of its own
def test_plays_without_torch() -> None:
    """The runtime package loads the weights and plays with torch unimportable (the ``learn`` extra absent)."""
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import random, dreizehn\n"
        "from dreizehn.bots.base import make_bot\n"
        "game = dreizehn.load_game('holzwurm', 4)\n"
        "state = game.new_state(2)\n"
        "bot = make_bot('policy', game)\n"
        "assert bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()\n"
        "assert sys.modules['torch'] is None\n"
        f"print({POLICY_FILE!r})\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == POLICY_FILE
