"""Three Thirteen's records replay independently: seeded random records under every option, finished and stopped
around each shuffle, replayed by this folder's clean-room replayer (``replayer.py``) through the shared driver
(``tests/clean_room``); and the replayer's brute-force penalties (T7, T11) on hands worked by hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from clean_room.driver import replay_record
from clean_room.kit import ReplayError
from clean_room.records import (
    Policy,
    check_replays,
    eager_out_policy,
    make_record,
    new_shuffle_stops,
    random_policy,
)

import dreizehn
from dreizehn.core.record import to_record

from .replayer import tt_card, tt_hand_penalty, tt_min_decks

TT_CASES: list[tuple[int, dict[str, object], Policy]] = [
    (2, {"stock_out": "end-round"}, random_policy),
    (3, {"stock_out": "end-round", "dealer": "random", "aces": "low-or-high"}, random_policy),
    (5, {"stock_out": "end-round", "all_wild_melds": "forbidden"}, random_policy),
    (2, {}, eager_out_policy),
    (4, {"dealer": "random"}, eager_out_policy),
    (3, {"aces": "low-or-high", "decks": 3, "all_wild_melds": "forbidden"}, eager_out_policy),
    (8, {"dealer": 5}, eager_out_policy),
    (2, {"turn_limit": 15}, random_policy),  # T10 turn_limit: most rounds end at the limit, some by going out
    (5, {"turn_limit": 25, "dealer": "random", "stock_out": "end-round"}, eager_out_policy),
]


@pytest.mark.parametrize(("players", "options", "policy"), TT_CASES)
def test_three_thirteen_records_replay_independently(players: int, options: dict[str, object],
                                                     policy: Policy) -> None:
    for seed in range(2):
        doc, state = make_record("three-thirteen", players, seed, options, policy)
        assert check_replays(doc, state).over
        if "decks" not in options:  # the default number of decks (T1) is what the record holds
            assert doc["options"]["decks"] == tt_min_decks(players)
        total = len(doc["actions"])
        for stop in (0, 1, 2, random.Random(seed).randrange(total)):
            doc, state = make_record("three-thirteen", players, seed, options, policy, stop=stop)
            assert not check_replays(doc, state).over


@pytest.mark.slow  # about 20 s of replays: make test runs it
def test_three_thirteen_reshuffles_and_round_ends_are_covered() -> None:
    """Rounds end after the last turns (T9) and at an empty stock (T10 end-round), discard piles are reshuffled
    (T10 reshuffle), and unfinished records stop just before and just after each new shuffle."""
    events: Counter[str] = Counter()
    for players, options, policy in TT_CASES:
        for seed in range(2):
            events += check_replays(*make_record("three-thirteen", players, seed, options, policy)).events
    assert events["reshuffle"] and events["round ended at an empty stock"] and events["round ended after the last "
                                                                                       "turns"]
    assert events["round ended at the turn limit"]
    seed = next(seed for seed in range(20)
                if check_replays(*make_record("three-thirteen", 2, seed, {}, eager_out_policy)).events["reshuffle"])
    new_shuffle = new_shuffle_stops("three-thirteen", 2, seed, {}, eager_out_policy)
    assert len(new_shuffle) > 10  # the rounds and at least one reshuffle
    for stop in new_shuffle:
        for at in (stop - 1, stop, stop + 1):
            check_replays(*make_record("three-thirteen", 2, seed, {}, eager_out_policy, stop=at))
    end_round: dict[str, object] = {"stock_out": "end-round"}
    new_round = new_shuffle_stops("three-thirteen", 2, 0, end_round, random_policy)
    assert len(new_round) == 10  # rounds 2 .. 11, some ended at an empty stock (above)
    for stop in new_round:
        for at in (stop - 1, stop):
            check_replays(*make_record("three-thirteen", 2, 0, end_round, random_policy, stop=at))


@pytest.mark.parametrize("option", ["allowed", "forbidden"])
def test_three_thirteen_all_wild_melds_records_replay_independently(option: str) -> None:
    """T7 (amended), T8, T11: a forced first deal (2 players; seat 1 plays first) gives seat 0 the wild 3C 3D 3H.
    Seat 1 draws the 5H and goes out with 5C 5D 5H; seat 0 draws the 9C and discards it: 3C 3D 3H score 0 under
    allowed, 9 under forbidden. In a second record seat 0 goes out with the 9C instead, legal under allowed only: the
    independent replayer refuses it under forbidden (T8). The rest of each game is seeded play."""
    from dreizehn.games.three_thirteen import ThreeThirteenCard

    # seat 1, seat 0, seat 1, ..., the discard pile, the stock top first
    dealt = [int(ThreeThirteenCard.parse(t)) for t in ("5C", "3C", "5D", "3D", "KS", "3H", "8D", "5H", "9C")]
    order = dealt + [k for k in range(52) if k not in dealt]
    for last in ("discard 9C", "out 9C"):
        game = dreizehn.load_game("three-thirteen", 2, {"all_wild_melds": option})
        state = game.new_state(0, shuffles=[order])
        state.reseed(0)
        for text in ("draw", "out KS", "draw"):
            state.apply(text)
        if last == "out 9C" and option == "forbidden":
            assert "out 9C" not in state.legal_texts()
            state.apply("discard 9C")
            doc = to_record(state)
            doc["actions"][-1] = [0, "out 9C"]
            with pytest.raises(ReplayError, match=r"do not all meld without the 9C \(T8\)"):
                replay_record(doc)
            continue
        state.apply(last)
        assert state.stage_scores == [(9 if option == "forbidden" and last == "discard 9C" else 0, 0)]
        rng = random.Random(3)
        while not state.is_over:
            state.apply(eager_out_policy(state, rng))
        assert check_replays(to_record(state), state).over


def tt_penalty_of(texts: str, wild_rank: int, aces_high: bool = False, all_wild: bool = True) -> int:
    return tt_hand_penalty(Counter(tt_card(text) for text in texts.split()), wild_rank, aces_high, all_wild)


def test_three_thirteen_brute_force_penalties() -> None:
    assert tt_penalty_of("7C JC 4H", 3) == 7 + 10 + 4
    assert tt_penalty_of("3S 7C JC", 3) == 3 + 7 + 10  # a lone wild card costs its rank (T11)
    assert tt_penalty_of("3S 7C 8C", 3) == 0  # 7C 8C 9C, the 3 standing for the 9
    assert tt_penalty_of("3S 3H 3D", 3) == 0  # a meld of wild cards only
    assert tt_penalty_of("AC 2C 3C 9D", 5) == 9  # aces are low
    assert tt_penalty_of("QC KC AC", 5) == 1 + 10 + 10  # no Q-K-A with low aces (T2) ...
    assert tt_penalty_of("QC KC AC", 5, aces_high=True) == 0  # ... but with low-or-high
    assert tt_penalty_of("KC AC 2C", 5, aces_high=True) == 15 + 10 + 2  # never K-A-2; an unmatched ace costs 15
    assert tt_penalty_of("4H 5H 6H 6S 6C", 3) == 4 + 5  # 6H in one meld only: the set 6H 6S 6C leaves 4H 5H ...
    assert tt_penalty_of("4H 5H 6H 6S 6C 3D", 3) == 0  # ... and a wild card completes both
    assert tt_penalty_of("7D 7D 7D", 3) == 0  # identical cards of several decks form a set (T7)
    assert tt_penalty_of("KS KS", 13) == 20  # two wild kings alone: no meld
    assert tt_penalty_of("9H 10H JH QH KH AH 2H", 3) == 3  # a long run; the A 2 are left over
    assert tt_penalty_of("9H 10H JH QH KH AH 2H", 3, aces_high=True) == 2
    assert tt_penalty_of("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", 13) == 0
    assert tt_penalty_of("AS 2S 4S 5S 6S 9D 9H 9C 8C 8C 8C JD QD", 10) == 1 + 2 + 10 + 10
    assert tt_penalty_of("AS 2S 4S 5S 6S 9D 9H 9C 8C 8C 8C JD 10D", 10) == 10  # the wild 10D makes A-2-3, not J-Q


def test_three_thirteen_brute_force_penalties_all_wild_melds_forbidden() -> None:
    """T7 (amended) forbidden: each meld needs a card not of the wild rank; T11 scores the rest unmatched."""
    assert tt_penalty_of("3S 3H 3D", 3, all_wild=False) == 9  # three 3s in round 1 are no meld
    assert tt_penalty_of("4C 4D 3S", 3, all_wild=False) == 0  # the 3 stands in: a set of 4s
    assert tt_penalty_of("5H 3C 7H", 3, all_wild=False) == 0  # ... a run 5H-6H-7H
    assert tt_penalty_of("4C 4D 4H 4S", 4, all_wild=False) == 16
    assert tt_penalty_of("4C 4D 4H 4S KD", 4, all_wild=False) == 0  # the king heads the 4s
    assert tt_penalty_of("KS KS KD KH", 13, all_wild=False) == 40
    assert tt_penalty_of("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KC KD KH", 13, all_wild=False) == 0
    assert tt_penalty_of("AS 2S 4S 5S 6S 9D 9H 9C 8C 8C 8C JD 10D", 10, all_wild=False) == 10
