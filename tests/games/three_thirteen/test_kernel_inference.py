"""Inference in Three Thirteen's search (games/three_thirteen/inference.py, ``ismcts:infer``; issue 24, item 1): the
round's public actions become a weight per hidden card of each other hand, and the weighted determinizations deal
the hidden cards in proportion to the product of those weights, not uniformly."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.core.errors import BotSpecError
from dreizehn.games.three_thirteen import ThreeThirteenView
from dreizehn.games.three_thirteen.compiled import ThreeThirteenSearchKernel
from dreizehn.games.three_thirteen.inference import EVENTS, SWEEPS, events, log_weights, round_history
from dreizehn.games.three_thirteen.inference import reweigh as python_reweigh
from dreizehn.games.three_thirteen.kernel import HANDS
from dreizehn.games.three_thirteen.rules import DISCARD, DRAW, KINDS, ThreeThirteenRules, ThreeThirteenState
from dreizehn.games.three_thirteen.search import determinize, inferred, reweigh, row_of_view


def built() -> ThreeThirteenView:
    """Round 1 of a 2-player game (3 cards each, wild rank 3) after seat 1 drew from the stock and discarded, seat
    0 drew and discarded the highest card it held, and seat 1 drew from the stock again, passing that card over,
    then discarded: what seat 0 sees before its second turn."""
    game = dreizehn.load_game("three-thirteen", 2)
    state = game.new_state(seed=11)
    assert isinstance(state, ThreeThirteenState)
    for seat in (1, 0, 1):
        assert state.current_player == seat
        state.apply(DRAW)
        state.apply(DISCARD + max(state.hands[seat]))
    view = state.view(0)
    assert isinstance(view, ThreeThirteenView) and view.current_player == 0 and not view.drawn
    return view


def exact_marginals(unseen: list[int], size: int, weights: np.ndarray) -> dict[int, float]:
    """Each unseen kind's chance to be among ``size`` hidden cards dealt with probability proportional to the
    product of their weights, by enumerating every hand."""
    total = 0.0
    mass = dict.fromkeys(unseen, 0.0)
    for hand in itertools.combinations(unseen, size):
        p = math.prod(float(weights[c]) for c in hand)
        total += p
        for c in hand:
            mass[c] += p
    return {c: m / total for c, m in mass.items()}


def test_the_round_history_names_each_seats_events() -> None:
    view = built()
    history = round_history(view)
    assert len(history) == 2 * view.turns_played == 6
    found = list(events(history, 1))
    kinds = [EVENTS[e] for e, _, _ in found]
    # seat 1's first draw passed over the card turned up, which the history does not show
    assert kinds == ["discard", "pass", "discard"]
    assert found[1][1] == history[3][1] - DISCARD  # the card seat 0 discarded is the one passed over
    assert [age for _, _, age in found] == [1, 0, 0]


@pytest.mark.parametrize(("side", "draws"), [("compiled", 20_000), ("python", 4_000)])
def test_the_weighted_determinizations_deal_in_proportion_to_the_evidence(side: str, draws: int) -> None:
    """The compiled search's deal (determinize, then reweigh) and the Python one (``sample_state``, then
    :func:`inference.reweigh`, which ``infer_state`` runs for the hints) follow the same weights."""
    view = built()
    seat, other = 0, 1
    weights, sweeps = inferred(view)
    assert sweeps == SWEEPS
    logw = log_weights(view)
    assert np.allclose(np.log(weights[: view.players]), logw) and not logw[seat].any()
    seen = set(view.hand) | set(view.discard_pile)
    unseen = [c for c in range(KINDS) if c not in seen]
    size = view.hand_sizes[other]
    exact = exact_marginals(unseen, size, weights[other])
    uniform = size / len(unseen)

    game = dreizehn.load_game("three-thirteen", 2)
    assert isinstance(game, ThreeThirteenRules)
    counts = np.zeros(KINDS)
    if side == "compiled":
        root = row_of_view(ThreeThirteenSearchKernel(game).new(1)[0], view)
        key = np.array([12345], np.uint64)
        for _ in range(draws):
            row = root.copy()
            determinize(row, seat, key)
            reweigh(row, seat, weights, sweeps, key)
            counts += row[HANDS + other * KINDS : HANDS + (other + 1) * KINDS]
    else:
        rng = random.Random(12345)
        for _ in range(draws):
            state = game.sample_state(view, rng)
            assert isinstance(state, ThreeThirteenState)
            stock = len(state.stock)
            python_reweigh(state, seat, weights, sweeps, rng)
            assert len(state.stock) == stock and sorted(state.hands[seat]) == sorted(view.hand)
            np.add.at(counts, state.hands[other], 1)
    assert counts.sum() == draws * size
    freq = counts / draws
    for c in unseen:
        se = math.sqrt(exact[c] * (1 - exact[c]) / draws)
        assert abs(freq[c] - exact[c]) < 5 * se + 1e-3, (c, freq[c], exact[c])
    # the evidence moves the deal: the discarded cards' ranks and neighbours are dealt to seat 1 less often than
    # uniformly, by as much as the model says
    discarded = [card for e, card, _ in events(round_history(view), other) if EVENTS[e] == "discard"]
    related = [c for c in unseen if any(c % 13 == x % 13 for x in discarded)]
    assert related
    assert freq[related].mean() < 0.8 * uniform
    assert max(abs(exact[c] - uniform) for c in unseen) > 10 * math.sqrt(uniform / draws)


def test_infer_state_deals_a_whole_consistent_state() -> None:
    """The game's ``infer_state`` (the hints' worlds) deals every card once, keeps the seat's own hand and what it
    knows of the others, and deals uniformly where the game has no model of the others' play."""
    game = dreizehn.load_game("three-thirteen", 3)
    assert game.infers and not dreizehn.load_game("knizia13", 3).infers
    rng = random.Random(5)
    state = game.new_state(seed=5)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(state.turn)
    assert isinstance(view, ThreeThirteenView)
    for seed in range(20):
        world = game.infer_state(view, random.Random(seed))
        assert isinstance(world, ThreeThirteenState)
        held = [card for hand in world.hands for card in hand] + world.stock + list(world.pile)
        held += [card for melds in world.laid for meld in melds for card in meld]
        assert sorted(held) == sorted(game.deck)
        assert world.hands[view.seat] == list(view.hand)
        assert [len(h) for h in world.hands] == list(view.hand_sizes)
        for other, known in enumerate(view.known):
            if other != view.seat:
                assert not Counter(int(c) for c in known) - Counter(world.hands[other])


def test_without_evidence_the_weights_are_even() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    view = game.new_state(seed=4).view(1)
    assert isinstance(view, ThreeThirteenView) and not view.history
    logw = log_weights(view)
    wild = [c for c in range(KINDS) if c % 13 + 1 == view.wild_rank]
    others = [c for c in range(KINDS) if c not in wild]
    assert not logw[1].any() and np.ptp(logw[0, others]) == 0.0


def test_the_bot_infers_where_its_search_can() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    bot = make_bot("ismcts:infer=on:iterations=60", game)
    assert isinstance(bot, IsmctsBot)
    view = built()
    legal = view.legal_actions
    assert bot.act(view, random.Random(1)) in legal
    assert bot.last_iterations >= 60
    with pytest.raises(BotSpecError) as refused:
        make_bot("ismcts:infer=on", dreizehn.load_game("knizia13", 3))
    assert refused.value.code == "bot.option_infer"
    with pytest.raises(BotSpecError):
        make_bot("ismcts:infer=on:playout=random:root=ucb", game)
