"""The compiled search of 13 (games/knizia13/search.py): its determinizations agree with the view and deal the
unseen cards uniformly, it searches as the Python ``ismcts`` does, and the ``ismcts`` bot uses it."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import dreizehn
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.core.encoding import encoder_of
from dreizehn.core.kernel import Kernel, load_kernel
from dreizehn.games.knizia13 import Knizia13View
from dreizehn.games.knizia13.kernel import HANDS, KINDS, STOCK, STOCK_N
from dreizehn.games.knizia13.search import determinize, row_of_view


def views(players: int, seeds: range) -> list[Knizia13View]:
    game = dreizehn.load_game("knizia13", players)
    found = []
    for seed in seeds:
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 140)):
            state.apply(rng.choice(state.legal_actions()))
        view = state.view(state.current_player)
        assert isinstance(view, Knizia13View)
        found.append(view)
    return found


def test_a_determinization_shows_its_seat_what_the_view_shows() -> None:
    game = dreizehn.load_game("knizia13", 4)
    kernel, encoder = load_kernel(game), encoder_of(game)
    out = np.zeros((1, kernel.obs_size), np.float32)
    key = np.array([7], np.uint64)
    for view in views(4, range(30)):
        row = row_of_view(kernel.new(1)[0], view)
        for _ in range(3):
            determinize(row, view.seat, key)
            kernel.observe(row[None, :], np.array([view.seat]), out)
            assert np.array_equal(out[0], encoder.observation(view))
            assert [int(a) for a in np.flatnonzero(_legal(kernel, row))] == list(view.legal_actions)


def _legal(kernel: Kernel, row: np.ndarray) -> np.ndarray:
    mask = np.zeros((1, 18), np.bool_)
    kernel.legal(row[None, :], mask)
    legal: np.ndarray = mask[0]
    return legal


def test_the_unseen_cards_are_dealt_uniformly() -> None:
    view = views(4, range(3, 4))[0]
    kernel = load_kernel(dreizehn.load_game("knizia13", 4))
    row = row_of_view(kernel.new(1)[0], view)
    other = (view.seat + 1) % 4
    key = np.array([1], np.uint64)
    top, held = Counter[int](), Counter[int]()
    draws = 4000
    for _ in range(draws):
        determinize(row, view.seat, key)
        top[int(row[STOCK + row[STOCK_N] - 1])] += 1
        held.update({k: int(row[HANDS + other * KINDS + k]) for k in range(KINDS)})
    pool = Counter[int]()
    for seat in range(4):
        if seat != view.seat:
            pool.update({k: int(row[HANDS + seat * KINDS + k]) for k in range(KINDS)})
    pool.update(int(c) for c in row[STOCK : STOCK + row[STOCK_N]])
    unseen = sum(pool.values())
    for kind, copies in pool.items():
        share = copies / unseen
        assert abs(top[kind] / draws - share) < 4 * (share * (1 - share) / draws) ** 0.5 + 1e-9
        expected = share * view.hand_sizes[other]
        assert abs(held[kind] / draws - expected) < 0.08 + 0.1 * expected


def test_the_search_is_deterministic_and_agrees_with_the_python_search() -> None:
    game = dreizehn.load_game("knizia13", 4)
    kernel = load_kernel(game)
    agree = 0
    checked = views(4, range(40, 52))
    for view in checked:
        stats, done = kernel.search(view, 3000, 0.7, 5.0, 11)  # type: ignore[attr-defined]
        again, _ = kernel.search(view, 3000, 0.7, 5.0, 11)  # type: ignore[attr-defined]
        assert stats == again and done == 3000
        assert sorted(a for a, *_ in stats) == list(view.legal_actions)
        assert sum(v for _, v, _, _ in stats) == 3000
        python = IsmctsBot(game, iterations=3000, playout="random")
        python._compiled_search = lambda keep: None  # type: ignore[method-assign]
        reference = {s.action: s.mean for s in python.search(view, random.Random(3))}
        compiled = {a: mean for a, _, _, mean in stats}
        best = max(compiled, key=lambda a: compiled[a])
        # the compiled search's favourite is worth, by the Python search, within noise of the Python favourite
        agree += reference[best] >= max(reference.values()) - 0.03
    assert agree >= len(checked) - 2


@pytest.mark.parametrize("tree", [False, True])
def test_heuristic_playouts_agree_with_the_python_search(tree: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``playout=heuristic``: every seat plays the heuristic to the end of the stage, from the root's child chosen (a
    search flat at the root, ``tree=auto``) or from the leaf of a tree below it (``tree=on``), in the kernel as in
    Python (the ``heuristic`` bot on each sampled state's views): the two searches value the root actions alike,
    within the noise of 2000 iterations (0.011 apart on average, weighted by visits, when measured, where random
    playouts lie 0.029 from them), and the compiled favourite is, by the Python search, worth about what the Python
    favourite is. The bot hands both options to the kernel."""
    game = dreizehn.load_game("knizia13", 4)
    kernel = load_kernel(game)
    checked = views(4, range(40, 48))
    apart: list[float] = []
    agree = 0
    option = "on" if tree else "off"
    for view in checked:
        python = IsmctsBot(game, iterations=2000, playout="heuristic", tree=option)
        python._compiled_search = lambda keep: None  # type: ignore[method-assign]
        reference = {s.action: s.mean for s in python.search(view, random.Random(3))}
        stats, done = kernel.search(  # type: ignore[attr-defined]
            view, 2000, 0.7, 5.0, 11, playout="heuristic", tree=tree)
        assert done == sum(v for _, v, _, _ in stats) == 2000
        assert sorted(a for a, *_ in stats) == list(view.legal_actions)
        apart.append(sum(v * abs(mean - reference[a]) for a, v, _, mean in stats) / done)
        compiled = {a: mean for a, _, _, mean in stats}
        best = max(compiled, key=lambda a: compiled[a])
        agree += reference[best] >= max(reference.values()) - 0.03
    assert sum(apart) / len(checked) < 0.02 and agree >= len(checked) - 2
    seen: list[tuple[str, bool]] = []
    searched = kernel.search  # type: ignore[attr-defined]

    def spy(self: object, *args: object, **kw: object) -> object:
        seen.append((str(kw["playout"]), bool(kw["tree"])))
        return searched(*args, **kw)

    monkeypatch.setattr(type(kernel), "search", spy)
    bot = IsmctsBot(game, iterations=200, playout="heuristic", tree=option)
    bot._kernel = kernel
    assert bot.act(checked[0], random.Random(0)) in checked[0].legal_actions and bot.last_iterations == 200
    assert seen == [("heuristic", tree)]


def test_the_bot_searches_in_the_kernel_where_it_can() -> None:
    game = dreizehn.load_game("knizia13", 4)
    view = views(4, range(60, 61))[0]
    bot = IsmctsBot(game, iterations=500)
    assert bot._compiled_search(frozenset()) is not None
    bot.act(view, random.Random(0))
    assert bot.last_iterations == 500 and sum(s.visits for s in bot.last_stats) == 500
    for spec in ({"horizon": "game"}, {"reward": "win"}, {"root": "paired"}):
        assert IsmctsBot(game, iterations=10, **spec)._compiled_search(frozenset()) is None
    pruned = IsmctsBot(game, iterations=10)
    assert pruned._compiled_search(frozenset({0, 1})) is None  # a root narrowed by the heuristic: the Python search
