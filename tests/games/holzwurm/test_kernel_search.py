"""The compiled search of Der dreizehnte Holzwurm (games/holzwurm/search.py): its determinizations agree with the view
(the known cards stay in their hands, H17) and deal the cards the seat cannot place uniformly, as ``sample_state``
does, it searches as the Python ``ismcts`` does, and the ``ismcts`` bot uses it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

import dreizehn
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.core.encoding import encoder_of
from dreizehn.core.kernel import Kernel, load_kernel
from dreizehn.games.holzwurm import HolzwurmView, heuristic
from dreizehn.games.holzwurm.kernel import (
    ACTIONS,
    FATE,
    FATE_N,
    HANDS,
    KINDS,
    KNOWN,
    ROW_LEN,
    ROW_ROOM,
    ROWS,
    heuristic_scores,
)
from dreizehn.games.holzwurm.search import determinize, row_of_view


def views(players: int, seeds: range, most: int = 200) -> list[HolzwurmView]:
    """Views of the seat to move after up to ``most`` random plays of a 3-game match."""
    game = dreizehn.load_game("holzwurm", players)
    found = []
    for seed in seeds:
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, most)):
            state.apply(rng.choice(state.legal_actions()))
            if state.is_over:
                state = game.new_state(seed + 1000)
        view = state.view(state.current_player)
        assert isinstance(view, HolzwurmView)
        found.append(view)
    return found


def _legal(kernel: Kernel, row: np.ndarray) -> list[int]:
    mask = np.zeros((1, ACTIONS), np.bool_)
    kernel.legal(row[None, :], mask)
    return [int(a) for a in np.flatnonzero(mask[0])]


def _hand(row: np.ndarray, seat: int) -> set[int]:
    return {k for k in range(KINDS) if row[HANDS + seat * KINDS + k]}


def _placed(row: np.ndarray, players: int) -> Counter[int]:
    """Every card of the row in a hand, a row or the fate row, counted."""
    cards = Counter[int]()
    for seat in range(players):
        cards.update(_hand(row, seat))
    cards.update(int(row[FATE + i]) for i in range(row[FATE_N]))
    for slot in range(5):
        cards.update(int(row[ROWS + slot * ROW_ROOM + j]) for j in range(row[ROW_LEN + slot]))
    return cards


def python_scores(view: HolzwurmView, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The Python heuristic's scores of the view's legal actions, as ``act`` hands them to ``pick_best``."""
    seen: list[list[float]] = []

    def capture(actions: Sequence[int], scores: Sequence[float], rng: random.Random, eps: float = 1e-9) -> int:
        seen.append(list(scores))
        return int(actions[0])

    monkeypatch.setattr(heuristic, "pick_best", capture)
    heuristic.act(view, random.Random(0))
    return seen[0]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_determinization_shows_its_seat_what_the_view_shows(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its observation, its legal plays and the heuristic's scores of them (which read the plays and takes of the
    game, the totals and the known cards) are the view's; every card lies in one place, the known ones in their
    hands."""
    game = dreizehn.load_game("holzwurm", players)
    kernel, encoder = load_kernel(game), encoder_of(game)
    out = np.zeros((1, kernel.obs_size), np.float32)
    scores = np.empty(ACTIONS, np.float64)
    key = np.array([7], np.uint64)
    for view in views(players, range(12)):
        row = row_of_view(kernel.new(1)[0], view)
        expected = python_scores(view, monkeypatch)
        for _ in range(3):
            determinize(row, view.seat, key)
            kernel.observe(row[None, :], np.array([view.seat]), out)
            assert np.array_equal(out[0], encoder.observation(view))
            assert _legal(kernel, row) == list(view.legal_actions)
            heuristic_scores(row, scores)
            assert scores[list(view.legal_actions)].tolist() == expected
            placed = _placed(row, players)
            assert max(placed.values()) == 1 and 66 - len(placed) == view.removed
            for seat in range(players):
                assert {int(c) for c in view.known[seat]} <= _hand(row, seat)
                assert len(_hand(row, seat)) == view.hand_sizes[seat]
                assert [int(row[KNOWN + seat * KINDS + k]) for k in range(KINDS)] == [
                    int(k in view.known[seat]) for k in range(KINDS)]
            assert _hand(row, view.seat) == {int(c) for c in view.hand}


def _uneven_view() -> HolzwurmView:
    """A 3-player view (15 cards removed unseen) in which another seat holds known cards."""
    for view in views(3, range(100, 200), most=40):
        if any(view.known[s] for s in range(3) if s != view.seat) and view.stage == 0:
            return view
    raise AssertionError("no view with known cards")


def test_the_cards_the_seat_cannot_place_are_dealt_uniformly() -> None:
    view = _uneven_view()
    kernel = load_kernel(dreizehn.load_game("holzwurm", 3))
    row = row_of_view(kernel.new(1)[0], view)
    others = [s for s in range(3) if s != view.seat]
    known = {s: {int(c) for c in view.known[s]} for s in others}
    unplaced = [k for k in range(KINDS) if k not in _placed(row, 3)] + [
        k for s in others for k in _hand(row, s) - known[s]]
    room = {s: view.hand_sizes[s] - len(known[s]) for s in others}
    assert len(unplaced) == sum(room.values()) + view.removed
    key = np.array([1], np.uint64)
    draws = 4000
    held = {s: Counter[int]() for s in others}
    for _ in range(draws):
        determinize(row, view.seat, key)
        for s in others:
            hand = _hand(row, s)
            assert known[s] <= hand
            held[s].update(hand - known[s])
    for s in others:  # each card the seat cannot place lies in the unknown part of a hand as often as it has room
        share = room[s] / len(unplaced)
        bound = 4 * (share * (1 - share) / draws) ** 0.5
        for card in unplaced:
            assert abs(held[s][card] / draws - share) < bound, (s, card)
    removed = view.removed / len(unplaced)  # and among the removed cards as often as they are
    bound = 4 * (removed * (1 - removed) / draws) ** 0.5
    for card in unplaced:
        assert abs(1 - sum(held[s][card] for s in others) / draws - removed) < bound, card


def test_the_search_is_deterministic_and_agrees_with_the_python_search() -> None:
    game = dreizehn.load_game("holzwurm", 4)
    kernel = load_kernel(game)
    agree = 0
    checked = views(4, range(40, 52))
    for view in checked:
        stats, done = kernel.search(view, 3000, 0.7, 30.0, 11)  # type: ignore[attr-defined]
        again, _ = kernel.search(view, 3000, 0.7, 30.0, 11)  # type: ignore[attr-defined]
        assert stats == again and done == 3000
        assert sorted(a for a, *_ in stats) == list(view.legal_actions)
        assert sum(v for _, v, _, _ in stats) == 3000
        python = IsmctsBot(game, iterations=3000)
        python._compiled_search = lambda keep: None  # type: ignore[method-assign]
        reference = {s.action: s.mean for s in python.search(view, random.Random(3))}
        compiled = {a: mean for a, _, _, mean in stats}
        best = max(compiled, key=lambda a: compiled[a])
        # the compiled search's favourite is worth, by the Python search, within noise of the Python favourite
        agree += reference[best] >= max(reference.values()) - 0.03
    assert agree >= len(checked) - 2


@pytest.mark.parametrize("tree", [False, True])
def test_heuristic_playouts_agree_with_the_python_search(tree: bool) -> None:
    """``playout=heuristic``: every seat plays the heuristic to the end of the game of the match, from the root's
    child chosen (a search flat at the root, ``tree=auto``) or from the leaf of a tree below it (``tree=on``, the
    ``master`` level), in the kernel as in Python (the ``heuristic`` bot on each sampled state's views). The two
    searches value the root actions alike, within the noise of 2000 iterations (0.016 and 0.015 apart on average,
    weighted by visits, when measured), where the compiled search with random playouts lies 0.17 to 0.18 from the
    Python one; and the compiled favourite is, by the Python search, worth about what the Python favourite is."""
    game = dreizehn.load_game("holzwurm", 2)
    kernel = load_kernel(game)
    checked = views(2, range(70, 76))
    heuristic_apart: list[float] = []
    random_apart: list[float] = []
    agree = 0
    for view in checked:
        python = IsmctsBot(game, iterations=2000, playout="heuristic", tree="on" if tree else "off")
        python._compiled_search = lambda keep: None  # type: ignore[method-assign]
        reference = {s.action: s.mean for s in python.search(view, random.Random(3))}
        for playout, apart in (("heuristic", heuristic_apart), ("random", random_apart)):
            stats, done = kernel.search(  # type: ignore[attr-defined]
                view, 2000, 0.7, 30.0, 11, playout=playout, tree=tree)
            assert done == sum(v for _, v, _, _ in stats) == 2000
            assert sorted(a for a, *_ in stats) == list(view.legal_actions)
            apart.append(sum(v * abs(mean - reference[a]) for a, v, _, mean in stats) / done)
            if playout == "heuristic":
                compiled = {a: mean for a, _, _, mean in stats}
                best = max(compiled, key=lambda a: compiled[a])
                agree += reference[best] >= max(reference.values()) - 0.03
    assert sum(heuristic_apart) / len(checked) < 0.03
    assert sum(random_apart) / len(checked) > 0.1  # the policies differ enough for the bound above to tell them apart
    assert agree >= len(checked) - 2


def test_the_bot_searches_in_the_kernel_where_it_can() -> None:
    game = dreizehn.load_game("holzwurm", 4)
    view = views(4, range(60, 61))[0]
    bot = IsmctsBot(game)
    assert bot._compiled_search(frozenset()) is not None
    assert bot.act(view, random.Random(0)) in view.legal_actions
    assert bot.last_iterations == 800 and sum(s.visits for s in bot.last_stats) == 800
    timed = IsmctsBot(game, time=0.05)
    timed.act(view, random.Random(0))
    assert timed.last_iterations >= 1 and sum(s.visits for s in timed.last_stats) == timed.last_iterations
    for tree in ("auto", "on", "off"):
        heuristic_bot = IsmctsBot(game, iterations=300, playout="heuristic", tree=tree)
        assert heuristic_bot._compiled_search(frozenset()) is not None
        assert heuristic_bot.act(view, random.Random(0)) in view.legal_actions
        assert heuristic_bot.last_iterations == 300
    for spec in ({"horizon": "game"}, {"reward": "win"}, {"root": "paired"}, {"prune": "2"}):
        assert IsmctsBot(game, iterations=10, **spec)._compiled_search(frozenset({1, 2})) is None
