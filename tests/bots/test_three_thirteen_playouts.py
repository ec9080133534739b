"""What the search bot takes from Three Thirteen's heuristic module: its greedy playout policy and its round
estimate."""

from __future__ import annotations

import random

import pytest

import dreizehn
from dreizehn.games.three_thirteen import DISCARD, DRAW, OUT, TAKE, ThreeThirteenCard, ThreeThirteenState
from dreizehn.games.three_thirteen.heuristic import _taken, _takes, estimate, playout_action
from dreizehn.games.three_thirteen.melds import min_penalty


def kinds(text: str) -> list[int]:
    return sorted(int(ThreeThirteenCard.parse(t)) for t in text.split())


@pytest.mark.parametrize(
    ("options", "players"),
    [({}, 2), ({}, 4), ({"decks": 2}, 5), ({"aces": "low-or-high"}, 3), ({"stock_out": "end-round"}, 2),
     ({"all_wild_melds": "forbidden"}, 3)],
)
def test_greedy_policy_plays_legal_actions_and_ends_rounds(options: dict[str, object], players: int) -> None:
    game = dreizehn.load_game("three-thirteen", players, options)
    rng = random.Random(players)
    for seed in range(6):
        state = game.new_state(seed)
        actions = 0
        rounds_before = 0
        while not state.is_over:
            legal = state.legal_actions()
            action = playout_action(state, rng.random)
            assert action in legal, (state, action, legal)
            state.apply_legal(action)
            actions += 1
            if len(state.stage_scores) > rounds_before:
                rounds_before = len(state.stage_scores)
                actions = 0
            assert actions < 3000, "greedy players did not end a round"


def test_greedy_policy_goes_out_and_takes_wild_cards() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    state = game.new_state(3)
    assert isinstance(state, ThreeThirteenState)
    assert state.pile[-1] % 13 + 1 == state.wild  # the turned-up card is wild in round 1
    assert playout_action(state, random.Random(0).random) == TAKE
    state.apply(TAKE)
    # Holding 7C JC 4H and the wild 3S: no meld, so discard the card that builds least, the highest of equals.
    assert playout_action(state, random.Random(0).random) == DISCARD + kinds("JC")[0]
    hand = state.hands[state.turn]
    hand[:] = kinds("7C 8C 3S 4H")  # 7C 8C and a wild 3 meld: go out with the 4H
    state._outs = None
    assert playout_action(state, random.Random(0).random) == OUT + kinds("4H")[0]


@pytest.mark.parametrize(
    ("top", "hand", "wild", "takes"),
    [
        ("5H", "5C 5D KS", 13, True),  # a set of three
        ("5H", "5C 9D KS", 13, True),  # a pair and a wild king
        ("5H", "5C 9D QS", 13, False),  # a pair only
        ("5H", "4H 6H 9S", 13, True),  # a run 4-5-6
        ("5H", "3H 4H 9S", 13, True),  # a run 3-4-5
        ("5H", "3H KS 9S", 13, True),  # 3H, a wild for the 4H
        ("5H", "KC KS 9S", 13, False),  # two wild cards alone: any card would do
        ("QH", "9H QS 2S", 12, False),  # the QS is wild, but no natural card is near the QH
        ("QH", "JH QS 2S", 12, True),  # J-Q and the wild QS for the king
        ("KH", "QH JH 2S", 5, True),  # the run J-Q-K
        ("AH", "2H 3H 9S", 5, True),
        ("KH", "AH 2H 9S", 5, False),  # aces are low in a run
    ],
)
def test_takes_only_cards_that_complete_a_meld(top: str, hand: str, wild: int, takes: bool) -> None:
    assert _takes(kinds(top)[0], kinds(hand), wild) is takes


def test_the_card_taken_is_kept() -> None:
    game = dreizehn.load_game("three-thirteen", 2)
    state = game.new_state(11)
    assert isinstance(state, ThreeThirteenState)
    rng = random.Random(0)
    seen = 0
    while not state.is_over and seen < 200:
        action = playout_action(state, rng.random)
        if action == TAKE:
            top = state.pile[-1]
            first = not state.log or state.log[-1][1] < DISCARD or len(state.pile) == 1
            state.apply(TAKE)
            assert _taken(state) in ((top, -1) if first else (top,))
            discard = playout_action(state, rng.random)
            assert discard - DISCARD != top or state.hands[state.turn].count(top) > 1 or all(
                k % 13 + 1 == state.wild or k == top for k in state.hands[state.turn]
            )
            seen += 1
            state.apply(discard)
        else:
            if action == DRAW:
                state.apply(DRAW)
                assert _taken(state) == -1
                continue
            state.apply(action)
    assert seen > 20


def test_estimate_scores_hands_between_turns_only() -> None:
    game = dreizehn.load_game("three-thirteen", 3)
    state = game.new_state(4)
    assert isinstance(state, ThreeThirteenState)
    assert estimate(state) == [min_penalty(hand, state.wild) for hand in state.hands]
    state.apply(DRAW)
    assert estimate(state) is None


@pytest.mark.parametrize(("option", "penalty"), [("allowed", 0), ("forbidden", 9)])
def test_estimate_follows_all_wild_melds(option: str, penalty: int) -> None:
    """T7/T11: the estimate scores 3C 3D 3H in round 1 as the game would: 0 under allowed, 9 under forbidden."""
    state = dreizehn.new_game("three-thirteen", players=2, seed=4, all_wild_melds=option)
    assert isinstance(state, ThreeThirteenState)
    state.hands[0] = kinds("3C 3D 3H")
    assert estimate(state)[0] == penalty  # type: ignore[index]
