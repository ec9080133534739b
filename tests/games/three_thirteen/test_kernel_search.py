"""The compiled search of Three Thirteen (games/three_thirteen/search.py): its determinizations agree with the view
(the known cards stay in their hands, T13; the stock after a reshuffle from the seat's stock candidates) and deal the
unseen cards uniformly, as ``sample_state`` does; it searches as the Python ``ismcts`` does with the game's defaults
(``root=paired``, greedy playouts, ``cutoff``, going out eagerly, a pruned root); and the ``ismcts`` bot uses it."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import partial
from itertools import pairwise
from typing import Any

import numpy as np
import pytest

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.bots.levels import level_spec
from dreizehn.bots.random_bot import random_action
from dreizehn.bots.tree import new_tree
from dreizehn.core.encoding import encoder_of
from dreizehn.core.errors import BotSpecError
from dreizehn.core.kernel import Kernel, load_kernel
from dreizehn.games.three_thirteen import ThreeThirteenView, heuristic
from dreizehn.games.three_thirteen import search as search_module
from dreizehn.games.three_thirteen.compiled import ThreeThirteenSearchKernel
from dreizehn.games.three_thirteen.kernel import ACTIONS, DECKS, HANDS, KNOWN, LAID, PILE_N, STOCK, STOCK_N
from dreizehn.games.three_thirteen.rules import DISCARD, KINDS, OUT, TAKE
from dreizehn.games.three_thirteen.search import (
    determinize,
    inferred,
    replayed,
    replays,
    reweigh,
    row_of_view,
    standing,
)


def views(players: int, seeds: range, most: int = 300, stay: bool = False) -> list[ThreeThirteenView]:
    """Views of the seat to move after up to ``most`` random actions: the random bot's, which goes out when it can,
    or (``stay``) never going out, so that rounds last until the stock runs out and the discard pile is
    reshuffled."""
    game = dreizehn.load_game("three-thirteen", players)
    found = []
    for seed in seeds:
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, most)):
            legal = state.legal_actions()
            stays = [a for a in legal if a < OUT]
            state.apply(rng.choice(stays) if stay else random_action(state.view(state.current_player), rng))
            if state.is_over:
                state = game.new_state(seed + 1000)
        view = state.view(state.current_player)
        assert isinstance(view, ThreeThirteenView)
        found.append(view)
    return found


def _legal(kernel: Kernel, row: np.ndarray) -> list[int]:
    mask = np.zeros((1, ACTIONS), np.bool_)
    kernel.legal(row[None, :], mask)
    return [int(a) for a in np.flatnonzero(mask[0])]


def _counts(row: np.ndarray, at: int, seat: int) -> Counter[int]:
    return Counter({k: int(row[at + seat * KINDS + k]) for k in range(KINDS) if row[at + seat * KINDS + k]})


def _stock(row: np.ndarray) -> list[int]:
    return [int(c) for c in row[STOCK : STOCK + row[STOCK_N]]]


def test_a_determinization_shows_its_seat_what_the_view_shows() -> None:
    """Its observation and legal actions are the view's; the known cards stay in their hands; every card of the
    deck lies in one place; after a reshuffle the stock holds only the seat's stock candidates."""
    reshuffles = 0
    for players in (2, 4):
        game = dreizehn.load_game("three-thirteen", players)
        kernel, encoder = load_kernel(game), encoder_of(game)
        out = np.zeros((1, kernel.obs_size), np.float32)
        key = np.array([7], np.uint64)
        after = [v for v in views(players, range(100, 110), most=400, stay=True) if v.reshuffled is not None][:4]
        for view in views(players, range(16)) + after:
            row = row_of_view(kernel.new(1)[0], view)
            reshuffles += view.reshuffled is not None
            for _ in range(3):
                determinize(row, view.seat, key)
                kernel.observe(row[None, :], np.array([view.seat]), out)
                assert np.array_equal(out[0], encoder.observation(view))
                assert _legal(kernel, row) == list(view.legal_actions)
                cards = Counter(_stock(row)) + Counter(int(c) for c in row[STOCK + KINDS * row[DECKS] :][
                    : row[PILE_N]])
                for seat in range(players):
                    hand = _counts(row, HANDS, seat)
                    assert hand.total() == view.hand_sizes[seat]
                    assert Counter(int(c) for c in view.known[seat]) == _counts(row, KNOWN, seat) <= hand
                    cards += hand + _counts(row, LAID, seat)
                assert cards == Counter({k: int(row[DECKS]) for k in range(KINDS)})
                if view.stock_candidates is not None:
                    assert Counter(_stock(row)) <= Counter(int(c) for c in view.stock_candidates)
    assert reshuffles >= 3


def _uneven_view(reshuffled: bool) -> ThreeThirteenView:
    """A 3-player view in which the next seat holds known cards (and, if ``reshuffled``, after a reshuffle)."""
    for view in views(3, range(100, 400), most=400, stay=reshuffled):
        if view.known[(view.seat + 1) % 3] and (view.reshuffled is not None) == reshuffled:
            return view
    raise AssertionError("no such view")


def _check_uniform(view: ThreeThirteenView) -> None:
    kernel = load_kernel(dreizehn.load_game("three-thirteen", 3))
    row = row_of_view(kernel.new(1)[0], view)
    other = (view.seat + 1) % 3
    known = Counter(int(c) for c in view.known[other])
    key = np.array([1], np.uint64)
    determinize(row, view.seat, key)
    unseen = Counter(_stock(row)) + sum(((_counts(row, HANDS, s) - Counter(int(c) for c in view.known[s]))
                                         for s in range(3) if s != view.seat), Counter[int]())
    candidates = Counter(int(c) for c in view.stock_candidates) if view.stock_candidates is not None else unseen
    inside = unseen & candidates  # the unseen cards the stock may hold
    draws = 4000
    held, top = Counter[int](), Counter[int]()
    for _ in range(draws):
        determinize(row, view.seat, key)
        held.update(_counts(row, HANDS, other) - known)
        top[_stock(row)[-1]] += 1
    room = view.hand_sizes[other] - known.total()
    for card, copies in unseen.items():
        # the top of the stock: uniform over the cards the stock may hold
        share = inside[card] / inside.total()
        assert abs(top[card] / draws - share) < 4 * (share * (1 - share) / draws) ** 0.5 + 1e-9, card
        if view.stock_candidates is None:  # the unknown part of the next hand: uniform over the unseen cards
            share = copies * room / unseen.total()
            assert abs(held[card] / draws - share) < 4 * (share * (1 - share) / draws) ** 0.5 + 1e-9, card


def test_the_unseen_cards_are_dealt_uniformly() -> None:
    _check_uniform(_uneven_view(reshuffled=False))


def test_after_a_reshuffle_the_stock_is_dealt_uniformly_from_the_candidates() -> None:
    _check_uniform(_uneven_view(reshuffled=True))


@pytest.mark.parametrize(("playout", "bound"), [("greedy", 0.01), ("random", 0.012)])
def test_the_search_is_deterministic_and_agrees_with_the_python_search(playout: str, bound: float) -> None:
    """With every root action searched (``prune=0``, so discards too) and the game's other defaults (or random
    playouts): the compiled search's favourite is, by the Python search's own means, within noise of the Python
    favourite, and the two searches' means of the root actions differ by noise alone (when measured, 0.004 on average
    with greedy playouts, 0.006 with random ones; searches that differ from the Python one differ more: 0.013 with
    ``cutoff=8``, 0.02 with random playouts against greedy ones, 0.03 without the cutoff)."""
    agree = 0
    checked = 0
    differences: list[float] = []
    for players in (2, 4):
        game = dreizehn.load_game("three-thirteen", players)
        kernel = load_kernel(game)
        for view in views(players, range(40, 46)):
            if len(view.legal_actions) < 2:
                continue
            checked += 1
            stats, done = kernel.search(view, 2000, 0.7, 25.0, 11, playout=playout)  # type: ignore[attr-defined]
            again, _ = kernel.search(view, 2000, 0.7, 25.0, 11, playout=playout)  # type: ignore[attr-defined]
            assert stats == again
            searched = [a for a in view.legal_actions if a >= OUT] or list(view.legal_actions)
            assert [a for a, *_ in stats] == searched
            assert done == sum(v for _, v, _, _ in stats) and 2000 <= done < 2000 + len(searched)
            python = IsmctsBot(game, iterations=2000, prune=0, playout=playout)
            python._compiled_search = lambda keep: None  # type: ignore[method-assign]
            reference = {s.action: s.mean for s in python.search(view, random.Random(3))}
            compiled = {a: mean for a, _, _, mean in stats}
            best = max(compiled, key=lambda a: compiled[a])
            agree += reference[best] >= max(reference.values()) - 0.02
            differences.extend(abs(compiled[a] - reference[a]) for a in searched)
    assert checked >= 10 and agree >= checked - 2
    assert sum(differences) / len(differences) < bound


def test_the_root_is_narrowed_to_the_kept_actions() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    kernel = load_kernel(game)
    view = next(v for v in views(2, range(200, 260)) if v.drawn and len(v.legal_actions) > 3
                and not any(a >= OUT for a in v.legal_actions))
    keep = frozenset(int(a) for a in view.legal_actions[1:3])
    stats, done = kernel.search(view, 100, 0.7, 25.0, 5, keep=keep)  # type: ignore[attr-defined]
    assert [a for a, *_ in stats] == sorted(keep) and done == 100
    assert all(v == 50 and n == 50 for _, v, n, _ in stats)  # paired: both on every determinization


def test_the_bot_searches_in_the_kernel_with_the_default_options() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    bot = IsmctsBot(game)
    assert bot._compiled_search(frozenset()) is not None
    assert bot._compiled_search(frozenset({2, 3})) is not None
    draw = next(v for v in views(2, range(60, 90)) if not v.drawn and len(v.legal_actions) == 2)
    assert bot.act(draw, random.Random(0)) in draw.legal_actions
    assert bot.last_iterations == 800 and sum(s.visits for s in bot.last_stats) == 800
    pruned = IsmctsBot(game, prune=3)
    discard = next(v for v in views(2, range(60, 120)) if v.drawn and len(v.legal_actions) > 3
                   and not any(a >= OUT for a in v.legal_actions))
    assert pruned.act(discard, random.Random(0)) in discard.legal_actions
    assert len(pruned.last_stats) == 3 and pruned.last_iterations == 801
    timed = IsmctsBot(game, time=0.05)
    timed.act(draw, random.Random(0))
    assert timed.last_iterations >= 2 and sum(s.visits for s in timed.last_stats) == timed.last_iterations
    for spec in ({"horizon": "game"}, {"reward": "win"}, {"root": "ucb"}):
        assert IsmctsBot(game, iterations=10, **spec)._compiled_search(frozenset()) is None


def test_the_bot_hands_its_options_to_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept root actions, the cutoff, the playout policy and whether a tree grows below the root reach the
    kernel's search (``tree=auto``: below the greedy player's and random playouts, not below the heuristic's)."""
    game = dreizehn.load_game("three-thirteen", 2)
    seen: list[dict[str, object]] = []

    def spy(self: object, view: object, *args: object, **options: object) -> tuple[list[object], int]:
        seen.append(options)
        return [], 0

    monkeypatch.setattr(ThreeThirteenSearchKernel, "search", spy)
    specs: tuple[tuple[dict[str, object], frozenset[int]], ...] = (
        ({}, frozenset({2, 5})), ({"playout": "random", "cutoff": 0}, frozenset()),
        ({"playout": "heuristic", "potential": 1.5}, frozenset({3})), ({"playout": "heuristic", "tree": "on"},
                                                                       frozenset()))
    for spec, keep in specs:
        found = IsmctsBot(game, **spec)._compiled_search(keep)
        assert found is not None
        found(views(2, range(1))[0], 10, 0.7, 25.0, 0, None)
    assert seen == [{"keep": frozenset({2, 5}), "cutoff": 4, "playout": "greedy", "tree": True},
                    {"keep": frozenset(), "cutoff": 0, "playout": "random", "tree": True},
                    {"keep": frozenset({3}), "cutoff": 4, "playout": "heuristic", "tree": False, "potential": 1.5},
                    {"keep": frozenset(), "cutoff": 4, "playout": "heuristic", "tree": True}]


def test_heuristic_rollouts_agree_with_the_python_search() -> None:
    """``playout=heuristic``: each root action followed by the heuristic for every seat (no tree below the root), in
    the kernel (:mod:`.kernel_heuristic`) as in Python (the ``heuristic`` bot on each sampled state's views). Both
    judge the root actions alike, within the noise of 1500 rollouts: their means differ by 0.015 on average when
    measured, where the compiled search with greedy playouts (and a tree) differs from the Python rollouts by 0.026,
    with random playouts by 0.038."""
    differences: list[float] = []
    game = dreizehn.load_game("three-thirteen", 2)
    kernel = load_kernel(game)
    for view in views(2, range(300, 306)):
        if len(view.legal_actions) < 2:
            continue
        stats, done = kernel.search(view, 1500, 0.7, 25.0, 3, playout="heuristic")  # type: ignore[attr-defined]
        searched = [a for a in view.legal_actions if a >= OUT] or list(view.legal_actions)
        assert [a for a, *_ in stats] == searched and done == sum(v for _, v, _, _ in stats)
        python = IsmctsBot(game, iterations=1500, prune=0, playout="heuristic")
        python._compiled_search = lambda keep: None  # type: ignore[method-assign]
        reference = {s.action: s.mean for s in python.search(view, random.Random(3))}
        differences.extend(abs(mean - reference[a]) for a, _, _, mean in stats)
    assert len(differences) >= 10
    assert sum(differences) / len(differences) < 0.02


def test_a_tree_grows_below_the_root_above_the_heuristics_rollouts_where_asked() -> None:
    """``playout=heuristic:tree=on``: the tree grows below the root (its nodes outnumber the root's children), the
    heuristic plays on from its leaves, and the root is judged as by the rollouts alone within noise; without
    ``tree`` the search is flat, as ``tree=off`` and the default say alike."""
    game = dreizehn.load_game("three-thirteen", 2)
    search = partial(load_kernel(game).search, iterations=600, c=0.7, scale=25.0, seed=7,  # type: ignore[attr-defined]
                     playout="heuristic")
    positions = [v for v in views(2, range(500, 506)) if len(v.legal_actions) > 1]
    differences: list[float] = []
    for view in positions:
        flat, done = search(view)
        assert search(view, tree=False) == (flat, done)
        deep, deep_done = search(view, tree=True)
        assert [a for a, *_ in deep] == [a for a, *_ in flat] and deep_done == done
        assert deep != flat  # the same random numbers, other playouts below the root's children
        differences.extend(abs(d[3] - f[3]) for d, f in zip(deep, flat, strict=True))
    assert len(positions) >= 4 and sum(differences) / len(differences) < 0.05
    made: list[tuple[Any, ...]] = []

    def kept(size: int, actions: int) -> tuple[Any, ...]:
        made.append(new_tree(size, actions))
        return made[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_module, "new_tree", kept)
        for grow in (False, True):
            search(positions[0], tree=grow)
    used = [int((visits > 0).sum()) for _, visits, _, _ in made]
    roots = len(positions[0].legal_actions)
    assert used[0] <= roots + 1 < used[1]  # the root and its children, then nodes below them


def test_a_lead_keeps_the_heuristics_move_unless_beaten_by_it() -> None:
    """``lead``: a move other than the heuristic's own is played only where its mean reward beats the heuristic's by
    more than the lead; a lead no mean can make up always plays the heuristic's move, a lead of 0 the best mean."""
    game = dreizehn.load_game("three-thirteen", 2)
    positions = [v for v in views(2, range(400, 430)) if len(v.legal_actions) > 1]
    differed = 0
    for view in positions:
        own = heuristic.act(view, random.Random(0))
        kept = IsmctsBot(game, playout="heuristic", prune=0, lead=1.0, iterations=40)
        assert kept.act(view, random.Random(1)) == own
        free = IsmctsBot(game, playout="heuristic", prune=0, iterations=40)
        move = free.act(view, random.Random(1))
        assert move == max(free.last_stats, key=lambda s: (s.visits, s.mean, -s.action)).action
        differed += move != own
        means = {s.action: s.mean for s in free.last_stats}
        close = IsmctsBot(game, playout="heuristic", prune=0, lead=0.01, iterations=40)
        assert close.act(view, random.Random(1)) == (move if means[move] > means[own] + 0.01 else own)
    assert len(positions) >= 20 and differed > 0


def test_the_expert_level_rolls_the_heuristic_out_and_values_the_hands_it_stops_at_in_the_kernel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Three Thirteen's ``expert`` (docs/bots.md, "Levels"): the compiled search, rollouts of the heuristic cut off
    after 8 actions where the learned network values the hands, determinizations dealt by inference, its root narrowed
    to the heuristic's two best discards; at a draw both ways are searched. The heuristic (``hard``) is the level
    below."""
    game = dreizehn.load_game("three-thirteen", 2)
    assert level_spec("hard", "three-thirteen", 2) == "heuristic"
    bot = make_bot(level_spec("expert", "three-thirteen", 2), game)
    assert isinstance(bot, IsmctsBot)
    seen: list[dict[str, object]] = []
    search = ThreeThirteenSearchKernel.search

    def spy(self: ThreeThirteenSearchKernel, view: ThreeThirteenView, *args: Any,
            **options: Any) -> tuple[list[tuple[int, int, int, float]], int]:
        seen.append(options)
        return search(self, view, *args, **options)

    monkeypatch.setattr(ThreeThirteenSearchKernel, "search", spy)
    draw = next(v for v in views(2, range(60, 90)) if not v.drawn and len(v.legal_actions) == 2)
    assert bot.act(draw, random.Random(0)) in draw.legal_actions
    assert {s.action for s in bot.last_stats} == set(draw.legal_actions) and bot.last_iterations == 600
    discard = next(v for v in views(2, range(60, 120)) if v.drawn and len(v.legal_actions) > 3
                   and not any(a >= OUT for a in v.legal_actions))
    ranked = heuristic.rank(discard)
    assert ranked is not None
    assert bot.act(discard, random.Random(0)) in ranked[:2]
    kind = {"cutoff": 8, "playout": "heuristic", "tree": False, "infer": True, "value": "learned"}
    assert seen == [{"keep": frozenset(), **kind}, {"keep": frozenset(ranked[:2]), **kind}]


def test_standing_counts_the_games_totals_at_a_scale_narrowed_to_the_rounds_left() -> None:
    """``standing=on`` (:func:`.search.standing`): the reward's base is each seat's total so far and its scale the
    round's own in the first round, narrower in every later one (the spread of the rounds left shrinks); in the
    kernel a seat far behind in the game sees every move's reward near 0 and one far ahead near 1, where the reward
    of the round alone (the default) sees neither."""
    game = dreizehn.load_game("three-thirteen", 2)
    kernel = load_kernel(game)
    view = next(v for v in views(2, range(500, 540)) if v.drawn and v.stage > 0 and len(v.legal_actions) > 1
                and not any(a >= OUT for a in v.legal_actions))
    base, scale = standing(view, 25.0)
    assert list(base[:2]) == list(view.totals) and not base[2:].any()
    scales = [standing(replace(view, stage=stage), 25.0)[1] for stage in range(11)]
    assert scales[0] == pytest.approx(25.0)
    assert all(later < earlier for earlier, later in pairwise(scales)) and scale in scales
    seat = view.seat
    for behind, near in ((500, 0.0), (-500, 1.0)):
        totals = tuple(100 + behind if other == seat else 100 for other in range(2))
        placed = replace(view, stage_scores=(totals,))
        assert placed.totals == totals
        stats, _ = kernel.search(placed, 40, 0.7, 25.0, 3, playout="heuristic")  # type: ignore[attr-defined]
        assert all(0.02 < mean < 0.98 for *_, mean in stats)
        stats, _ = kernel.search(placed, 40, 0.7, 25.0, 3, playout="heuristic",  # type: ignore[attr-defined]
                                 standing=True)
        assert all(mean == pytest.approx(near, abs=1e-6) for *_, mean in stats)


def test_the_bot_hands_standing_to_the_kernel_and_a_game_without_it_refuses_it() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    found = IsmctsBot(game, playout="heuristic", standing="on")._compiled_search(frozenset())
    assert isinstance(found, partial) and found.keywords["standing"] is True
    assert "standing" not in IsmctsBot(game, playout="heuristic")._compiled_search(frozenset()).keywords  # type: ignore[union-attr]
    with pytest.raises(BotSpecError) as refused:
        IsmctsBot(dreizehn.load_game("holzwurm", 2), standing="on")
    assert (refused.value.code, refused.value.rule) == ("bot.option_standing", "B4")


def _replay_positions(seeds: range) -> list[tuple[Any, ThreeThirteenView]]:
    """Heuristic games at 2 players: each decision where the other seat's latest turn can be replayed, with its
    state."""
    game = dreizehn.load_game("three-thirteen", 2)
    bot = make_bot("heuristic", game)
    found = []
    for seed in seeds:
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_over:
            view = state.view(state.current_player)
            assert isinstance(view, ThreeThirteenView)
            if replayed(view)[0] >= 0:
                found.append((state.copy(), view))
            state.apply(bot.act(view, rng))
    return found


def test_the_other_seats_latest_turn_is_read_from_the_view_where_it_can_be_replayed() -> None:
    """``replay`` (:func:`.search.replayed`): at 2 players, the card the other seat let go (on top of the pile, the
    seat to move not yet drawn or drawn from the stock) and the card it took before (-1 where it drew blind); none
    before that seat's first discard of the round, after the seat to move took from the pile, or once someone went
    out."""
    positions = _replay_positions(range(600, 604))
    assert len(positions) > 100
    for _, view in positions:
        let_go, taken = replayed(view)
        assert int(view.discard_pile[-1]) == let_go and view.turns_left < 0 and view.turns_played > 0
        at = len(view.history) - (2 if view.drawn else 1)
        assert view.history[at] == (1 - view.seat, DISCARD + let_go)
        assert (taken >= 0) == (view.history[at - 1][1] == TAKE and at >= 2
                                 and DISCARD <= view.history[at - 2][1] < OUT)
    assert any(taken >= 0 for _, view in positions for taken in [replayed(view)[1]])
    first = dreizehn.load_game("three-thirteen", 2).new_state(600).view(1)
    three = dreizehn.load_game("three-thirteen", 3).new_state(1).view(0)
    assert isinstance(first, ThreeThirteenView) and isinstance(three, ThreeThirteenView)
    assert replayed(first) == replayed(three) == (-1, -1)  # the round's first turn, and 3 players: none


def test_the_true_hand_replays_the_other_seats_turn_and_most_inferred_deals_do_not() -> None:
    """:func:`.search.replays`: the other seat's true hand (played by the heuristic) replays its latest turn in
    nearly every position (the heuristic's ties are kept, the seat's own hand is not read); of the determinizations
    ``infer=on`` deals, fewer than half do, so ``replay=on`` deals most of them again."""
    kernel = load_kernel(dreizehn.load_game("three-thirteen", 2))
    empty = kernel.new(1)[0]
    mask = np.zeros(ACTIONS, np.bool_)
    key = np.array([11], np.uint64)
    true = dealt = kept = 0
    positions = _replay_positions(range(600, 606))
    for state, view in positions:
        let_go, taken = replayed(view)
        seat = view.seat
        known = list(view.known)
        known[1 - seat] = state.view(1 - seat).hand
        world = row_of_view(empty, replace(view, known=tuple(known)))  # the other hand as it is
        determinize(world, seat, key)
        true += replays(world, seat, let_go, taken, world.copy(), mask)
        row = row_of_view(empty, view)
        weights, sweeps = inferred(view)
        for _ in range(10):
            world = row.copy()
            determinize(world, seat, key)
            reweigh(world, seat, weights, sweeps, key)
            dealt += 1
            kept += replays(world, seat, let_go, taken, world.copy(), mask)
    assert true >= 0.98 * len(positions)
    assert 0.1 * dealt < kept < 0.6 * dealt


def test_replay_changes_some_moves_and_a_game_without_it_refuses_it() -> None:
    """``replay=on`` reaches the kernel and changes the search's choice at some decisions (the same iterations and
    random numbers otherwise); a game whose search cannot replay refuses it (B4)."""
    game = dreizehn.load_game("three-thirteen", 2)
    found = IsmctsBot(game, playout="heuristic", replay="on")._compiled_search(frozenset())
    assert isinstance(found, partial) and found.keywords["replay"] is True
    kernel = load_kernel(game)
    changed = 0
    views_seen = [view for _, view in _replay_positions(range(600, 602)) if len(view.legal_actions) > 1][:40]
    for view in views_seen:
        stats = [kernel.search(view, 60, 0.7, 25.0, 5, playout="heuristic", cutoff=8,  # type: ignore[attr-defined]
                               infer=True, replay=on)[0] for on in (False, True)]
        changed += stats[0] != stats[1]
    assert changed > len(views_seen) // 2
    with pytest.raises(BotSpecError) as refused:
        IsmctsBot(dreizehn.load_game("holzwurm", 2), replay="on")
    assert (refused.value.code, refused.value.rule) == ("bot.option_replay", "B4")
