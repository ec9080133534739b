"""``ismcts:playout=learned-bot``: the search's rollouts played by the ``learned`` bot. Compiled in Three Thirteen
(:func:`dreizehn.games.three_thirteen.bot_kernel.learned_action`), where it chooses as the NumPy network does after
the bot's narrowing, on positions of whole games; the search plays it where the network was fitted (2 players) and
refuses it elsewhere, naming the option; the other games play it in Python.

Whether it plays stronger than ``expert`` is measured by ``benchmarks/strength.py`` (docs/learned.md), never
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
from dreizehn.bots.learned import shipped
from dreizehn.bots.learned_kernel import compile_network
from dreizehn.bots.search_options import SearchOptions
from dreizehn.core.errors import BotSpecError
from dreizehn.core.kernel import load_kernel
from dreizehn.games.three_thirteen.bot_kernel import learned_action, narrow_to_best, new_scratch
from dreizehn.games.three_thirteen.kernel_heuristic import action as heuristic_action
from dreizehn.games.three_thirteen.rules import OUT
from dreizehn.games.three_thirteen.search import bound

EXPERT = "ismcts:playout=heuristic:prune=2:cutoff=8:iterations=300:infer=on:value=learned"
"""``expert``'s search at half its iterations, and the same with the learned bot's rollouts."""
LEARNED = EXPERT.replace("playout=heuristic", "playout=learned-bot")


def _states(games: int, steps: int) -> list[np.ndarray]:
    """Rows of the seat to move in 2-player games on the kernel: each move the greedy player's, one in five at
    random (so that the positions spread), finished games left out."""
    found: list[np.ndarray] = []
    for _, states, _, live, _ in walk(dreizehn.load_game("three-thirteen", 2), games, steps, random_share=0.2):
        found.extend(states[live].copy())
    return found


def test_the_compiled_rollout_chooses_as_the_learned_bot(scale: Callable[[int, int], int]) -> None:
    """At each position :func:`learned_action` plays the heuristic's advice (the same random numbers) where the
    seat has one legal action or can go out, else the NumPy network's choice among the legal actions narrowed to the
    heuristic's best discards: what :class:`~dreizehn.bots.learned.LearnedBot` plays. On the same row with the
    search's bound on its rounds (a turn limit the game does not set) it plays the same: the network, fitted without
    a limit, does not see that one (a first version did, and its rollouts lost 7.9 ± 5.3 points a game)."""
    game = dreizehn.load_game("three-thirteen", 2)
    network = shipped("three-thirteen")
    assert network is not None and network.candidates > 0
    compiled = compile_network(network)
    scratch = new_scratch(compiled.arrays())
    kernel = load_kernel(game)
    overruled = compared = 0
    for i, s in enumerate(_states(scale(20, 80), 160)):
        key = np.array([1000 + i], np.uint64)
        hint = int(heuristic_action(s.copy(), key.copy()))
        legal = np.zeros((1, game.num_actions), np.bool_)
        kernel.legal(s[None, :], legal)
        got = int(learned_action(s.copy(), key.copy(), compiled.arrays(), network.candidates, scratch, False))
        bounded = s.copy()
        assert bound(bounded)  # the search's bound on a game without a turn limit: hidden from the network
        assert learned_action(bounded, key.copy(), compiled.arrays(), network.candidates, scratch, True) == got
        if legal.sum() <= 1 or legal[0, OUT:].any():
            assert got == hint
            continue
        narrow_to_best(s[None, :], np.array([hint], np.int64), network.candidates, legal)
        obs = np.zeros((1, kernel.obs_size), np.float32)
        kernel.observe(s[None, :], kernel.current(s[None, :]), obs)
        rated = network.values(obs, np.array([hint], np.int64))[0]
        if abs(rated[legal[0]].max() - rated[hint] - network.threshold) < 1e-3:
            continue  # a rating at the threshold: float32 sums in another order may fall either side
        expected = int(network.choose(obs, legal, np.array([hint], np.int64))[0])
        assert got == expected, (i, got, expected, hint)
        compared += 1
        overruled += got != hint
    assert compared > scale(1000, 4000) and overruled >= 5  # the network overrules about 1 decision in 300


def _view(seed: int, moves: int) -> dreizehn.View:
    game = dreizehn.load_game("three-thirteen", 2)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    heuristic = make_bot("heuristic", game)
    for _ in range(moves):
        state.apply(heuristic.act(state.view(state.current_player), rng))
    return state.view(state.current_player)


def test_the_search_rolls_out_by_the_learned_bot() -> None:
    """The compiled search takes the option (no tree below the root, as with ``playout=heuristic``), gives the same
    statistics for the same seed, and other statistics than the heuristic's rollouts on the same random numbers."""
    game = dreizehn.load_game("three-thirteen", 2)
    bot = make_bot(LEARNED, game)
    assert isinstance(bot, IsmctsBot) and not bot.settings.tree
    assert bot._compiled_search(frozenset()) is not None  # compiled, not the Python search
    view = _view(7, 9)
    first = bot.search(view, random.Random(3))
    again = make_bot(LEARNED, game)
    assert isinstance(again, IsmctsBot) and again.search(view, random.Random(3)) == first
    assert {s.action for s in first} <= set(view.legal_actions) and bot.last_iterations >= 300
    heuristic = make_bot(EXPERT, game)
    assert isinstance(heuristic, IsmctsBot)
    assert heuristic.search(view, random.Random(3)) != first
    assert bot.act(view, random.Random(3)) in view.legal_actions


@pytest.mark.parametrize(("game_id", "players"), [("three-thirteen", 3), ("knizia13", 3), ("holzwurm", 5)])
def test_where_the_network_was_not_fitted_the_option_is_refused(game_id: str, players: int) -> None:
    game = dreizehn.load_game(game_id, players)
    with pytest.raises(BotSpecError) as refused:
        make_bot("ismcts:playout=learned-bot", game)
    assert (refused.value.code, refused.value.rule, refused.value.params["key"]) == (
        "bot.option_value_fitted", "B4", "playout")
    assert "ismcts:playout=learned-bot needs the learned bot" in str(refused.value)


def test_the_other_games_roll_out_by_the_bot_in_python() -> None:
    """In 13 at 4 players (where its network was fitted) the search plays the bot's rollouts in Python, the tree
    flat at the root."""
    game = dreizehn.load_game("knizia13", 4)
    bot = make_bot("ismcts:playout=learned-bot:iterations=12", game)
    assert isinstance(bot, IsmctsBot) and bot._compiled_search(frozenset()) is None and not bot.settings.tree
    state = game.new_state(seed=4)
    view = state.view(state.current_player)
    assert bot.act(view, random.Random(0)) in view.legal_actions
    assert sum(s.visits for s in bot.last_stats) == bot.last_iterations >= 12


def test_the_option_reads_back_and_grows_no_tree_unless_asked() -> None:
    options = SearchOptions.from_text("ismcts:playout=Learned-Bot")
    assert options.to_text() == "ismcts:playout=learned-bot"
    game = dreizehn.load_game("three-thirteen", 2)
    assert not options.resolve(game).tree
    assert SearchOptions.from_text("ismcts:playout=learned-bot:tree=on").resolve(game).tree


def test_the_kernel_refuses_observations_the_network_does_not_read() -> None:
    """Below the bot's refusal, the compiled search itself refuses the network where the game's observation is
    another size (3 players): its forward pass would read and write past the arrays. The options the network was
    fitted at are the bot's to check (above): the kernel's warm-up compiles this search on the research adapters'
    game, whose turn limit changes the observation's values, not its size."""
    game = dreizehn.load_game("three-thirteen", 3)
    kernel = load_kernel(game)
    state = game.new_state(seed=1)
    with pytest.raises(BotSpecError) as refused:
        kernel.search(state.view(state.current_player), 4, 0.7, 25.0, 0, playout="learned-bot")  # type: ignore[attr-defined]
    assert (refused.value.code, refused.value.params["key"], refused.value.params["players"]) == (
        "bot.option_value_fitted", "playout", 2)
