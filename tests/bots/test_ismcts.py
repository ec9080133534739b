"""The ``ismcts`` bot: legal, deterministic, view-only, within its time budget, sensible, and strict about options."""

from __future__ import annotations

import copy
import dataclasses
import gc
import importlib
import random
from types import SimpleNamespace

import pytest

import dreizehn
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.bots.random_bot import random_action
from dreizehn.core.game import Game, State, View
from dreizehn.games.holzwurm import HolzwurmState
from dreizehn.games.knizia13 import Knizia13State
from dreizehn.games.three_thirteen import ThreeThirteenView

CASES = [
    ("knizia13", 3),
    ("knizia13", 4),
    ("knizia13", 6),
    ("three-thirteen", 2),
    ("three-thirteen", 4),
    ("holzwurm", 2),
    ("holzwurm", 4),
    ("holzwurm", 6),
]


def random_views(game: Game, count: int, seed: int) -> list[View]:
    """``count`` views of the seat to move, drawn over random games (random players)."""
    rng = random.Random(seed)
    views: list[View] = []
    number = 0
    while len(views) < count:
        state = game.new_state(seed * 1000 + number)
        number += 1
        seen: list[View] = []
        while not state.is_over:
            view = state.view(state.current_player)
            seen.append(view)
            state.apply(random_action(view, rng))
        views.extend(rng.sample(seen, min(len(seen), 4, count - len(views))))
    return views


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_legal_actions_over_random_positions(game_id: str, players: int) -> None:
    game = dreizehn.load_game(game_id, players)
    bot = IsmctsBot(game, iterations=12)
    rng = random.Random(3)
    for view in random_views(game, 13, seed=players):
        action = bot.act(view, rng)
        assert isinstance(action, int)
        assert action in view.legal_actions


@pytest.mark.parametrize("horizon", ["stage", "game"])
@pytest.mark.parametrize("reward", ["margin", "win"])
@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_options_give_legal_actions(game_id: str, horizon: str, reward: str) -> None:
    game = dreizehn.load_game(game_id, 3)
    bot = IsmctsBot(game, iterations=15, horizon=horizon, reward=reward)
    for view in random_views(game, 3, seed=11):
        assert bot.act(view, random.Random(0)) in view.legal_actions


@pytest.mark.parametrize(("root", "playout", "cutoff"), [("ucb", "random", 12), ("paired", "greedy", 0),
                                                         ("paired", "random", 2), ("ucb", "greedy", 4)])
@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_search_variants_give_legal_actions(game_id: str, root: str, playout: str, cutoff: int) -> None:
    game = dreizehn.load_game(game_id, 2 if game_id == "three-thirteen" else 3)
    bot = IsmctsBot(game, iterations=20, root=root, playout=playout, cutoff=cutoff)
    assert bot.settings.root == root
    for view in random_views(game, 4, seed=12):
        assert bot.act(view, random.Random(0)) in view.legal_actions


@pytest.mark.parametrize("root", ["paired", "ucb"])
def test_prune_searches_only_the_heuristics_best_discards(root: str) -> None:
    # With prune=K, a Three Thirteen discard is searched among the heuristic's K best only; draws, the ways out and
    # decisions with K or fewer discards are searched whole.
    from dreizehn.games.three_thirteen.heuristic import rank

    game = dreizehn.load_game("three-thirteen", 2)
    bot = IsmctsBot(game, iterations=40, prune=2, root=root)
    whole = IsmctsBot(game, iterations=40, root=root)
    pruned = 0
    for view in random_views(game, 40, seed=21):
        action = bot.act(view, random.Random(0))
        assert action in view.legal_actions
        searched = {s.action for s in bot.last_stats}
        ranked = rank(view)
        if ranked is not None and len(ranked) > 2:
            pruned += 1
            assert searched == set(ranked[:2])
            assert action in ranked[:2]
        elif bot.last_iterations:
            whole.act(view, random.Random(0))
            assert searched == {s.action for s in whole.last_stats}
    assert pruned >= 5


def test_prune_defaults_per_game() -> None:
    # Three Thirteen plays the heuristic's discard without a search and searches the rest; prune=0 searches all.
    from dreizehn.games.three_thirteen.heuristic import rank

    game = dreizehn.load_game("three-thirteen", 2)
    bot, whole = IsmctsBot(game, iterations=30), IsmctsBot(game, iterations=30, prune=0)
    assert (bot.settings.prune, whole.settings.prune) == (1, 0)
    assert IsmctsBot(dreizehn.load_game("knizia13", 4)).settings.prune == 0
    assert IsmctsBot(dreizehn.load_game("holzwurm", 4), prune="auto").settings.prune == 0
    discards = draws = 0
    for view in random_views(game, 40, seed=8):
        assert isinstance(view, ThreeThirteenView)
        ranked = rank(view)
        action = bot.act(view, random.Random(0))
        if ranked is not None and len(ranked) > 1:
            discards += 1
            assert action == ranked[0]
            assert bot.last_iterations == 0
            whole.act(view, random.Random(0))
            assert set(ranked) <= {s.action for s in whole.last_stats}  # (and the wild cards, which it ranks not)
        elif ranked is None and len(view.legal_actions) > 1 and not view.drawn:
            draws += 1
            assert bot.last_iterations >= 30
    assert discards >= 5 and draws >= 5


def test_prune_leaves_a_game_without_ranking_alone() -> None:
    # Holzwurm's heuristic ranks nothing, so prune leaves its search exactly as it was.
    game = dreizehn.load_game("holzwurm", 3)
    pruned, whole = IsmctsBot(game, iterations=30, prune=1), IsmctsBot(game, iterations=30)
    for view in random_views(game, 4, seed=5):
        assert pruned.act(view, random.Random(0)) == whole.act(view, random.Random(0))
        assert pruned.last_stats == whole.last_stats


def test_root_defaults_per_game() -> None:
    assert IsmctsBot(dreizehn.load_game("three-thirteen", 2)).settings.root == "paired"
    assert IsmctsBot(dreizehn.load_game("knizia13", 4)).settings.root == "ucb"
    assert IsmctsBot(dreizehn.load_game("holzwurm", 4), root="paired").settings.root == "paired"


def test_goes_out_without_searching() -> None:
    # T8: once a Three Thirteen hand can go out with one discard only, that is the move, found at once.
    game = dreizehn.load_game("three-thirteen", 2)
    rng = random.Random(5)
    for seed in range(400):
        state = game.new_state(seed)
        while not state.is_over and state.stage == 0:
            view = state.view(state.current_player)
            outs = [a for a in view.legal_actions if a in game.eager_actions]
            if len(outs) == 1:
                bot = IsmctsBot(game, iterations=50)
                assert bot.act(view, random.Random(0)) == outs[0]
                assert bot.last_iterations == 0
                return
            state.apply(random_action(view, rng))
    pytest.fail("no position with a single way to go out")


def test_three_thirteen_whole_game_under_forbidden() -> None:
    """T7 (all_wild_melds=forbidden): the search bot (greedy playouts, cut off with the exact round estimate) plays
    a whole game against the heuristic with legal actions only."""
    from dreizehn.bots.heuristic import HeuristicBot

    game = dreizehn.load_game("three-thirteen", 2, {"all_wild_melds": "forbidden"})
    bots = [IsmctsBot(game, iterations=8, playout="greedy", cutoff=2), HeuristicBot(game)]
    rng = random.Random(2)
    state = game.new_state(2)
    while not state.is_over:
        view = state.view(state.current_player)
        action = bots[state.current_player].act(view, rng)
        assert action in view.legal_actions
        state.apply(action)
    assert len(state.stage_scores) == 11


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_deterministic_for_a_seed(game_id: str) -> None:
    game = dreizehn.load_game(game_id, 4)
    views = [v for v in random_views(game, 8, seed=5) if len(v.legal_actions) > 1]
    assert views
    for view in views:
        first = IsmctsBot(game, iterations=60, prune=0)  # the search itself, Three Thirteen's discards included
        second = IsmctsBot(game, iterations=60, prune=0)
        a = first.act(view, random.Random(42))
        b = second.act(copy.deepcopy(view), random.Random(42))
        assert a == b
        assert first.last_stats == second.last_stats
        assert sum(s.visits for s in first.last_stats) == first.last_iterations
        if first.settings.root == "paired":  # whole determinizations, every root action on each
            assert 60 <= first.last_iterations < 60 + len(view.legal_actions)
            assert len({s.visits for s in first.last_stats}) == 1
        else:
            assert first.last_iterations == 60


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references (the gc's view), classes and modules aside."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type) or type(obj).__name__ == "module":
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_only_the_view_is_used(game_id: str) -> None:
    game = dreizehn.load_game(game_id, 4)
    state = game.new_state(seed=9)
    rng = random.Random(0)
    for _ in range(7):
        state.apply(random_action(state.view(state.current_player), rng))
    view = state.view(state.current_player)
    # Nothing of the real game is reachable from what the bot receives.
    assert not any(isinstance(obj, State) for obj in _reachable(view))
    before = [state.view(seat) for seat in range(4)]
    action = IsmctsBot(game, iterations=40).act(view, random.Random(1))
    assert action in state.legal_actions()
    assert [state.view(seat) for seat in range(4)] == before  # the real game is untouched
    # A view rebuilt field by field (no engine object behind it) gives the same search.
    rebuilt = dataclasses.replace(view)
    assert IsmctsBot(game, iterations=40).act(rebuilt, random.Random(1)) == action


SEARCH_CLOCKS = ("dreizehn.bots.ismcts", "dreizehn.bots.tree", "dreizehn.games.three_thirteen.search")
"""The modules whose clock a search by time reads: the Python search's, the compiled searches' (one shared, Three
Thirteen's own)."""


def _searched_by_clock(monkeypatch: pytest.MonkeyPatch, game_id: str, horizon: str, still: int) -> tuple[int, int]:
    """Search a view with a 0.1 s budget on a clock the test moves: it reads 0 s ``still`` times, then 1 s (the budget
    spent); the clock's reads and the search's iterations."""
    game = dreizehn.load_game(game_id, 4)
    view = next(v for v in random_views(game, 6, seed=2) if len(v.legal_actions) > 1)
    reads: list[float] = []

    def perf_counter() -> float:
        reads.append(0.0 if len(reads) < still else 1.0)
        return reads[-1]

    for name in SEARCH_CLOCKS:
        monkeypatch.setattr(importlib.import_module(name), "time", SimpleNamespace(perf_counter=perf_counter))
    bot = IsmctsBot(game, time=0.1, horizon=horizon)
    assert bot.act(view, random.Random(0)) in view.legal_actions
    return len(reads), bot.last_iterations


@pytest.mark.parametrize("horizon", ["stage", "game"])  # the compiled search, and the Python one
@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_time_budget(monkeypatch: pytest.MonkeyPatch, game_id: str, horizon: str) -> None:
    """The budget replaces the iteration count: the search reads the clock as it goes, goes on while the budget lasts
    and stops at the first read past it (the clock is the test's: no duration of this machine decides)."""
    reads, iterations = _searched_by_clock(monkeypatch, game_id, horizon, still=4)
    assert reads == 5  # read until the budget was spent, and not once more
    assert iterations >= 1
    reads, more = _searched_by_clock(monkeypatch, game_id, horizon, still=8)
    assert reads == 9
    assert more > iterations  # a budget that lasts longer runs more iterations


def test_time_zero_runs_one_iteration() -> None:
    game = dreizehn.load_game("knizia13", 4)
    state = game.new_state(seed=1)
    bot = IsmctsBot(game, time=0)
    assert bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()
    assert bot.last_iterations == 1


def test_plays_out_for_the_bonus_in_holzwurm() -> None:
    # Seat 0 holds one card, the grey 2, and a yellow row of three cards lies. Playing the 2 onto a new row empties
    # its hand: the game ends and it scores +30 (H14a, H15). Playing it onto the row takes the row (2 <= 3 cards,
    # H12): -21 points of yellow cards and a fate card in hand, and the game goes on.
    game = dreizehn.load_game("holzwurm", 4, {"games": 1})
    grey_two, row = 55, (4, 6, 8)  # N2; Y5, Y7, Y9
    states = (game.new_state(seed) for seed in range(100))
    state = next(s for s in states if isinstance(s, HolzwurmState) and not {grey_two, *row} & set(s.fate))
    assert isinstance(state, HolzwurmState)
    hands = state.hands
    rest = [k for k in hands[0] if k != grey_two]
    for hand in hands:
        hand[:] = [k for k in hand if k not in (grey_two, *row)]
    hands[0][:] = [grey_two]
    hands[1][:] = sorted(hands[1] + rest)
    state.rows[0] = row
    state.row_colour[0] = 0
    state._index_rows()
    assert state.current_player == 0
    assert sorted(state.all_cards()) == sorted(game.deck)
    view = state.view(0)
    ends = {}
    for action in view.legal_actions:
        trial = state.copy()
        trial.apply(action)
        ends[action] = trial.is_over
    assert sorted(ends.values()) == [False, True]
    best = IsmctsBot(game, iterations=100).act(view, random.Random(0))
    assert ends[best], "the bot did not play out its last card for the +30"


def test_avoids_a_big_target_in_13() -> None:
    # 13 (K11): a card that pushes a target over 13 takes the cards that lay there. With a target loaded with nasty
    # fours and a safe play elsewhere, the bot plays safe.
    game = dreizehn.load_game("knizia13", 4)
    for seed in range(3000):
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_over:
                break
            view = state.view(state.current_player)
            costs = {}
            for action in view.legal_actions:
                trial = state.copy()
                assert isinstance(trial, Knizia13State)
                before = len(trial.taken[trial.current_player])
                trial.apply(action)
                if trial.stage != state.stage:
                    break
                costs[action] = len(trial.taken[state.current_player]) - before
            else:
                if costs and min(costs.values()) == 0 and max(costs.values()) >= 5:
                    best = IsmctsBot(game, iterations=300).act(view, random.Random(0))
                    assert costs[best] < 3, f"took {costs[best]} cards when a safe play existed: {costs}"
                    return
            state.apply(random_action(view, rng))
    pytest.skip("no position with a safe play beside a big target")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"iterations": -1}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"c": "x"}, "c"),
        ({"time": "soon"}, "time"),
        ({"horizon": "forever"}, "horizon"),
        ({"reward": "money"}, "reward"),
        ({"scale": 0}, "scale"),
        ({"depth": 3}, "depth"),
        ({"root": "widest"}, "root"),
        ({"playout": "clever"}, "playout"),
        ({"prune": -1}, "prune"),
        ({"prune": "some"}, "prune"),
        ({"prune": 1.5}, "prune"),
    ],
)
def test_bad_options(options: dict[str, object], words: str) -> None:
    game = dreizehn.load_game("knizia13", 4)
    with pytest.raises(ValueError, match=words):
        IsmctsBot(game, **options)


def test_found_by_name() -> None:
    from dreizehn.bots.base import make_bot

    game = dreizehn.load_game("holzwurm", 4)
    bot = make_bot("ismcts:iterations=50:c=0.5:horizon=game", game)
    assert isinstance(bot, IsmctsBot)
    assert bot.spec == "ismcts:iterations=50:c=0.5:horizon=game"
    assert (bot.settings.iterations, bot.settings.c, bot.settings.horizon) == (50, 0.5, "game")
    assert IsmctsBot(game).settings.iterations > 0
    with pytest.raises(ValueError, match="iterations"):
        make_bot("ismcts:iterations=-1", game)
