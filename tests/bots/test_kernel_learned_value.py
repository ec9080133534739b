"""``ismcts:value=learned-bot`` and ``learned-bot-mix``: the search's leaves valued by the ``learned`` bot's network
(:mod:`dreizehn.bots.learned_kernel`, :mod:`dreizehn.bots.tree`). The compiled forward pass rates every action as
the NumPy network does, and chooses as the bot does, on positions of whole games on the kernel; the bot searches
with it where the network was fitted and is refused, naming the option, everywhere else.

Whether it plays stronger than ``expert`` is measured by ``benchmarks/learned_value.py`` (docs/learned.md), never
asserted here.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from kernel_walk import walk

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.bots.learned import Network, shipped
from dreizehn.bots.learned_kernel import choice, compile_network, fitted_network, values
from dreizehn.bots.levels import level_spec
from dreizehn.core.errors import BotSpecError
from dreizehn.core.game import Game, View
from dreizehn.core.kernel import HEURISTIC
from dreizehn.play.table import Seat, Table

GAMES = ("knizia13", "holzwurm")
"""The games whose network the search can value leaves by (4 players, the usual options)."""


def _network(game_id: str) -> tuple[dreizehn.Game, Network]:
    network = shipped(game_id)
    assert network is not None
    return dreizehn.load_game(game_id, network.players, dict(network.options)), network


def _positions(game: dreizehn.Game, games: int, steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations of the seat to move, legal masks and the heuristic's actions of ``games`` games on the kernel,
    at each of ``steps`` moves (random ones, so that the positions spread), finished games left out."""
    found: tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]] = ([], [], [])
    for kernel, states, keys, live, legal in walk(game, games, steps):
        obs = np.zeros((games, kernel.obs_size), np.float32)
        kernel.observe(states, np.maximum(kernel.current(states), 0), obs)
        hint = kernel.choose(states, keys, HEURISTIC)
        found[0].append(obs[live])
        found[1].append(legal[live].copy())
        found[2].append(hint[live])
    obs_all, legal_all, hint_all = (np.concatenate(part) for part in found)
    return obs_all, legal_all, hint_all


@pytest.mark.parametrize("game_id", GAMES)
def test_the_compiled_pass_rates_and_chooses_as_the_numpy_network(game_id: str,
                                                                  scale: Callable[[int, int], int]) -> None:
    game, network = _network(game_id)
    obs, legal, hint = _positions(game, scale(40, 200), 60)
    assert len(obs) > scale(1000, 5000)
    expected = network.values(obs, hint)
    compiled = compile_network(network)
    got = values(compiled, obs, hint)
    assert np.allclose(got, expected, rtol=1e-4, atol=1e-3), float(np.abs(got - expected).max())
    chosen = network.choose(obs, legal, hint)
    assert (chosen != hint).any()  # some positions where the network overrules the heuristic
    mine = [choice(got[i], legal[i], int(hint[i]), compiled.threshold) for i in range(len(obs))]
    close = np.abs(np.sort(got, axis=1)[:, -1] - got[np.arange(len(got)), hint] - compiled.threshold) < 1e-3
    assert (np.array(mine) == chosen)[~close].all()  # the same choice but where a rating lies at the threshold


def _position(game: Game, seed: int, moves: int) -> View:
    """The view of the seat to move after ``moves`` random moves of the game of ``seed``."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state.view(state.current_player)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_search_values_its_leaves_by_the_network(game_id: str) -> None:
    """Both ways of valuing leaves search legal moves, the same for the same seed, and give other statistics than
    the playouts alone and than each other on the same tree's budget."""
    game, _ = _network(game_id)
    view = _position(game, 4, 7)
    found = []
    for value in ("points", "learned-bot", "learned-bot-mix"):
        bot = make_bot(f"ismcts:iterations=300:value={value}", game)
        assert isinstance(bot, IsmctsBot)
        action = bot.act(view, random.Random(1))
        assert action in view.legal_actions and bot.last_iterations == 300
        stats = bot.last_stats
        assert bot.act(view, random.Random(1)) == action and bot.last_stats == stats  # the same seed, the same
        assert all(0.0 < stat.mean < 1.0 for stat in stats if stat.visits)
        found.append(stats)
    assert len({tuple(stats) for stats in found}) == 3  # each valued otherwise


@pytest.mark.parametrize("game_id", GAMES)
def test_the_mix_weighs_the_network_against_the_playout(game_id: str) -> None:
    """``mix`` is the network's share of the searching seat's reward: 0.5 by default, and each share searches
    otherwise; at 0 the playout's reward alone, which still plays the network's move at the seat's first decision
    (so not the plain search's statistics either)."""
    game, _ = _network(game_id)
    view = _position(game, 5, 9)
    found = {}
    for mix in ("", ":mix=0.5", ":mix=0", ":mix=0.25", ":mix=1", ":mix=1.0"):
        bot = make_bot(f"ismcts:iterations=300:value=learned-bot-mix{mix}", game)
        assert isinstance(bot, IsmctsBot)
        bot.act(view, random.Random(2))
        found[mix] = bot.last_stats
    plain = make_bot("ismcts:iterations=300", game)
    assert isinstance(plain, IsmctsBot)
    plain.act(view, random.Random(2))
    assert found[""] == found[":mix=0.5"] and found[":mix=1"] == found[":mix=1.0"]
    assert len({found[m] for m in ("", ":mix=0", ":mix=0.25", ":mix=1")} | {plain.last_stats}) == 5


@pytest.mark.parametrize(("spec", "code"), [
    ("ismcts:value=learned-bot-mix:mix=1.5", "bot.option_share"),
    ("ismcts:value=learned-bot-mix:mix=-0.5", "bot.option_number"),
    ("ismcts:value=learned-bot-mix:mix=half", "bot.option_number"),
    ("ismcts:mix=0.7", "bot.option_mix"),
    ("ismcts:value=learned-bot:mix=0.7", "bot.option_mix"),
])
def test_a_mix_out_of_range_or_without_the_mixed_value_is_refused(spec: str, code: str) -> None:
    game, _ = _network("knizia13")
    with pytest.raises(BotSpecError) as refused:
        make_bot(spec, game)
    assert (refused.value.code, refused.value.rule) == (code, "B4")
    assert "mix" in str(refused.value)


@pytest.mark.parametrize(("game_id", "players", "options", "code", "network"), [
    ("knizia13", 3, {}, "bot.option_value_fitted", "bot.option_value_fitted"),
    ("knizia13", 4, {"open_piles": True}, "bot.option_value_fitted", "bot.option_value_fitted"),
    ("holzwurm", 4, {"games": 2}, "bot.option_value_fitted", "bot.option_value_fitted"),
    ("holzwurm", 5, {}, "bot.option_value_fitted", "bot.option_value_fitted"),
    # Three Thirteen's network (2 players) is the bot's alone: its search reads a value of its own (value=learned)
    ("three-thirteen", 4, {}, "bot.option_value_network", "bot.option_value_fitted"),
    ("three-thirteen", 2, {}, "bot.option_value_network", None),
])
def test_a_game_without_the_network_refuses_the_option(game_id: str, players: int, options: dict[str, object],
                                                       code: str, network: str | None) -> None:
    game = dreizehn.load_game(game_id, players, options)
    for value in ("learned-bot", "learned-bot-mix"):
        with pytest.raises(BotSpecError) as refused:
            make_bot(f"ismcts:value={value}", game)
        assert (refused.value.code, refused.value.rule, refused.value.params["key"]) == (code, "B4", "value")
        assert f"ismcts:value={value} needs" in str(refused.value)
    if network is None:
        assert fitted_network(game).threshold >= 0  # the network there, which the search does not read
        return
    with pytest.raises(BotSpecError) as direct:
        fitted_network(game)
    assert direct.value.code == network


def test_a_search_the_kernel_does_not_run_refuses_the_option() -> None:
    game, _ = _network("knizia13")
    with pytest.raises(BotSpecError) as refused:
        make_bot("ismcts:value=learned-bot:horizon=game", game)  # the Python search: no network
    assert (refused.value.code, refused.value.params["key"], refused.value.params["value"]) == (
        "bot.option_value", "value", "learned-bot")
    assert "ismcts:value=learned-bot" in str(refused.value)


@pytest.mark.parametrize(("game_id", "other"), [("holzwurm", {"games": 1}), ("knizia13", {"open_piles": True})])
def test_expert_at_4_players_mixes_the_network_where_it_was_fitted(game_id: str, other: dict[str, object]) -> None:
    """13's and Holzwurm's ``expert`` at 4 players, with the options the network was fitted at, is the search valued
    by the network too (docs/learned.md, "In the search"); with other options, or at other player counts, the usual
    ``expert`` plays, and a table of it is made, where the network would refuse."""
    four = dreizehn.load_game(game_id, 4)
    spec = level_spec("expert", game_id, 4)
    assert spec.startswith("ismcts:iterations=") and spec.endswith(":value=learned-bot-mix")
    assert make_bot("expert", four).spec == spec
    usual = "ismcts:iterations=10000"
    unfitted = dreizehn.load_game(game_id, 4, other)
    assert level_spec("expert", game_id, 4, unfitted.options) == usual
    assert make_bot("expert", unfitted).spec == usual
    table = Table(unfitted, tuple(Seat("expert", bot="expert") for _ in range(4)), 0, unfitted.new_state(0))
    assert all(bot.spec == usual for bot in table._bots.values())
    for players in (3, 5):
        assert make_bot("expert", dreizehn.load_game(game_id, players)).spec == usual
    # the level of its own: the network's bot in 13, MaskablePPO's policy in Holzwurm (docs/learned.md)
    assert make_bot("learned", four).spec == {"knizia13": "learned", "holzwurm": "policy"}[game_id]
