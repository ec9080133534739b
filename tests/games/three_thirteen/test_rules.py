"""Rules T1–T13 of Three Thirteen (shared/rules/three-thirteen.md), one test per rule, and the seed's tables."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

import dreizehn
from dreizehn.core.conformance import check_game, snapshot
from dreizehn.core.game import State
from dreizehn.games.three_thirteen import (
    OUT,
    ThreeThirteen,
    ThreeThirteenAction,
    ThreeThirteenCard,
    ThreeThirteenState,
    ThreeThirteenView,
    default_decks,
)
from dreizehn.games.three_thirteen.melds import card_value

C = ThreeThirteenCard.parse


def kinds(*texts: str) -> list[int]:
    return [int(C(t)) for t in texts]


def texts(cards: object) -> list[str]:
    return [ThreeThirteenCard.of(int(k)).text for k in cards]  # type: ignore[attr-defined]


def position(players: int = 2, round_no: int = 1, hands: dict[int, list[str]] | None = None,
             pile: list[str] | None = None, stock: list[str] | None = None, turn: int | None = None,
             drawn: bool = False, rest: bool = False, **options: object) -> ThreeThirteenState:
    """A state of round ``round_no`` with the given cards: ``pile`` bottom to top, ``stock`` top first. Cards not
    named are left out (these positions test rules, not conservation), or with ``rest`` go below the stock."""
    state = dreizehn.new_game("three-thirteen", players=players, seed=0, **options)
    assert isinstance(state, ThreeThirteenState)
    state.round_no = round_no - 1
    state.wild = round_no + 2
    state.stage_scores = [(0,) * players] * (round_no - 1)
    if hands is not None:
        state.hands = [sorted(kinds(*hands.get(s, []))) for s in range(players)]
    if pile is not None:
        state.pile = kinds(*pile)
    if stock is not None:
        state.stock = kinds(*stock)[::-1]
    if rest:
        left = Counter(state.game.deck)
        left.subtract(k for hand in state.hands for k in hand)
        left.subtract(state.pile + state.stock)
        state.stock[:0] = sorted(left.elements())
    state.turn = (state.dealer + 1) % players if turn is None else turn
    state.drawn = drawn
    state.known = [[] for _ in range(players)]
    state._outs = None
    return state


def play_out(state: State, rng: random.Random) -> int:
    """Go out when possible, else a random legal action (so rounds end under ``reshuffle`` too)."""
    legal = state.legal_actions()
    outs = [a for a in legal if a >= OUT]
    return rng.choice(outs) if outs else rng.choice(legal)


def test_t1_players_and_decks() -> None:
    """T1: 2 to 8 players; 1 deck for 2, 2 for 3–4, then the smallest d with 52·d ≥ 13·players + 27; identical
    cards of several decks are one kind; ``decks`` overrides but must leave the last round a card to draw."""
    assert [default_decks(p) for p in range(2, 9)] == [1, 2, 2, 2, 3, 3, 3]
    for players in range(5, 9):
        d = default_decks(players)
        assert 52 * d >= 13 * players + 27 > 52 * (d - 1)
    for players in range(2, 9):
        game = dreizehn.load_game("three-thirteen", players)
        assert isinstance(game, ThreeThirteen)
        assert game.options["decks"] == default_decks(players)
        assert sorted(game.deck) == list(game.deck) == sorted(list(range(52)) * default_decks(players))
    state = dreizehn.new_game("three-thirteen", players=3, seed=1)
    assert Counter(state.all_cards()) == Counter({k: 2 for k in range(52)})
    assert dreizehn.load_game("three-thirteen", 2, {"decks": 3}).deck.count(int(C("QS"))) == 3
    for players in (1, 9):
        with pytest.raises(dreizehn.InvalidOptionError, match=r"2 to 8 players.*\(T1\)"):
            dreizehn.load_game("three-thirteen", players)
    with pytest.raises(dreizehn.InvalidOptionError, match=r"too few for 8 players.*at least 3 decks.*\(T1\)"):
        dreizehn.load_game("three-thirteen", 8, {"decks": 2})
    assert dreizehn.load_game("three-thirteen", 7, {"decks": 2}).options["decks"] == 2  # 104 >= 93
    for bad in (0, 13, "two"):
        with pytest.raises(dreizehn.InvalidOptionError, match=r"'decks'.*\(T1\)"):
            dreizehn.load_game("three-thirteen", 2, {"decks": bad})


def test_t2_aces_low_or_high() -> None:
    """T2: aces are low (Q-K-A is no run); under ``aces=low-or-high`` Q-K-A is a run and a lone ace costs 15."""
    hands = {1: ["QH", "KH", "9C"]}
    low = position(hands=hands, stock=["AH"], turn=1)
    low.apply("draw")
    assert "out 9C" not in low.legal_texts()
    high = position(hands=hands, stock=["AH"], turn=1, aces="low-or-high")
    high.apply("draw")
    assert "out 9C" in high.legal_texts()
    # an unmatched ace: 1 point, or 15 under low-or-high (scored when the round ends on an empty stock)
    for aces, points in (("low", 1 + 9), ("low-or-high", 15 + 9)):
        state = position(hands={0: ["AS", "9C"], 1: ["7C", "7D", "7H"]}, stock=[], turn=1, aces=aces,
                         stock_out="end-round")
        state.apply("draw")
        assert state.stage_scores == [(points, 0)]
    for bad in ("high", "ace"):
        with pytest.raises(dreizehn.InvalidOptionError, match=r"'aces'.*low, low-or-high.*\(T2\)"):
            dreizehn.load_game("three-thirteen", 2, {"aces": bad})


def test_t3_rounds_deal_sizes_and_wild_ranks() -> None:
    """T3: 11 rounds; the seed's tables: round r deals r + 2 cards, and that rank is wild (3s … 10s, J, Q, K)."""
    deal_table = {1: 3, 2: 4, 3: 5, 4: 6, 5: 7, 6: 8, 7: 9, 8: 10, 9: 11, 10: 12, 11: 13}
    wild_table = {1: "3", 2: "4", 3: "5", 4: "6", 5: "7", 6: "8", 7: "9", 8: "10", 9: "J", 10: "Q", 11: "K"}
    state = dreizehn.new_game("three-thirteen", players=3, seed=5, stock_out="end-round")
    assert isinstance(state, ThreeThirteenState)
    rng = random.Random(5)
    seen: dict[int, tuple[int, str]] = {}
    while not state.is_over:
        view = state.view(0)
        assert isinstance(view, ThreeThirteenView)
        if view.round not in seen:
            assert view.hand_sizes == (deal_table[view.round],) * 3 and not view.drawn
            assert view.stage == view.round - 1 and len(view.discard_pile) == 1
            seen[view.round] = (len(view.hand), ThreeThirteenCard.of(view.wild_rank - 1).text[:-1])
        state.apply(rng.choice(state.legal_actions()))
    assert seen == {r: (deal_table[r], wild_table[r]) for r in range(1, 12)}
    assert len(state.stage_scores) == 11 == state.stage


def test_t4_dealer_and_deal_order() -> None:
    """T4: the first dealer is an option and passes clockwise each round; cards are dealt one at a time from the
    dealer's left; the next card starts the discard pile; the rest, in order, is the stock."""
    for players, dealer in ((2, 0), (4, 3), (8, 5)):
        state = dreizehn.new_game("three-thirteen", players=players, seed=players, dealer=dealer,
                                  stock_out="end-round")
        assert isinstance(state, ThreeThirteenState)
        rng = random.Random(players)
        dealers: list[int] = []
        while not state.is_over:
            if not state.log or state.stage > len(dealers) - 1:
                size = state.stage + 3
                order = state.shuffles[-1]
                assert sorted(order) == sorted(state.game.deck)
                first = (state.dealer + 1) % players
                for seat in range(players):
                    dealt = [order[i] for i in range(size * players) if (first + i) % players == seat]
                    assert state.hands[seat] == sorted(dealt)
                assert state.pile == [order[size * players]]
                assert state.stock[::-1] == list(order[size * players + 1 :])
                dealers.append(state.dealer)
            state.apply(rng.choice(state.legal_actions()))
        assert dealers == [(dealer + r) % players for r in range(11)]
    assert dreizehn.new_game("three-thirteen", 4, seed=1).dealer == 0  # type: ignore[attr-defined]
    drawn = {dreizehn.new_game("three-thirteen", 4, seed=s, dealer="random").dealer  # type: ignore[attr-defined]
             for s in range(40)}
    assert drawn == {0, 1, 2, 3}
    with pytest.raises(dreizehn.InvalidOptionError, match=r"'dealer'.*\(T4\)"):
        dreizehn.load_game("three-thirteen", 4, {"dealer": 4})
    # a record's shuffles give the same deal
    state = dreizehn.new_game("three-thirteen", 3, seed=9)
    again = state.game.new_state(0, shuffles=state.shuffles)
    assert again.view(1) == state.view(1)


def test_t5_left_of_dealer_starts_clockwise() -> None:
    """T5: the player after the dealer plays first; play goes clockwise, a turn being two actions."""
    state = dreizehn.new_game("three-thirteen", players=5, seed=3, dealer=4)
    assert state.current_player == 0
    state.apply("draw")
    assert state.current_player == 0
    state.apply(state.legal_actions()[0])
    assert state.current_player == 1
    state.apply("take")
    state.apply(state.legal_actions()[-1])
    assert state.current_player == 2


def test_t6_draw_take_discard() -> None:
    """T6: a turn is one draw (the stock's top card or the discard pile's top card) and one discard; the card
    just taken may be discarded again."""
    state = position(hands={1: ["2C", "5D", "9H"], 0: ["KS", "KD", "4C"]}, pile=["JC", "8S"],
                     stock=["6H", "7H"], turn=1)
    assert state.legal_texts() == ["draw", "take"]
    with pytest.raises(dreizehn.IllegalActionError, match=r"draw first.*\(T6\)"):
        state.apply("discard 2C")
    state.apply("take")  # only the top card of the pile
    assert state.hands[1] == sorted(kinds("2C", "5D", "9H", "8S")) and state.pile == kinds("JC")
    assert state.legal_texts() == ["discard 2C", "discard 5D", "discard 9H", "discard 8S"]  # in kind order
    with pytest.raises(dreizehn.IllegalActionError, match=r"drawn already.*\(T6\)"):
        state.apply("draw")
    with pytest.raises(dreizehn.IllegalActionError, match=r"seat 1 holds no 7H \(T6\)"):
        state.apply("discard 7H")
    state.apply("discard 8S")  # the card just taken goes back
    assert state.pile == kinds("JC", "8S") and state.current_player == 0 and not state.drawn
    state.apply("draw")
    assert state.hands[0] == sorted(kinds("KS", "KD", "4C", "6H")) and state.stock == kinds("7H")
    state.apply("discard KD")
    assert state.pile == kinds("JC", "8S", "KD") and state.current_player == 1


def test_t7_melds_sets_runs_wilds() -> None:
    """T7: sets of one rank (identical cards of several decks count), runs of one suit, wild cards standing for
    any card, each card in at most one meld; a meld of wild cards only works under all_wild_melds=allowed only."""
    # identical cards of two decks make a set (3 players: 2 decks)
    state = position(players=3, hands={1: ["7H", "7H", "KS"]}, stock=["7C"], turn=1)
    state.apply("draw")
    assert "out KS" in state.legal_texts()
    # round 3: fives are wild and fill the gap of a run 8S-(9S)-10S
    state = position(round_no=3, hands={1: ["8S", "10S", "5C", "JS", "KD"]}, stock=["QS"], turn=1)
    state.apply("draw")
    assert [t for t in state.legal_texts() if t.startswith("out")] == ["out KD"]
    state.apply("out KD")
    assert [texts(m) for m in state.laid[1]] == [["8S", "5C", "10S", "JS", "QS"]]  # the 5C stands for the 9S
    # one card, one meld: three 7s and 7-8-9 of hearts cannot share the 7H
    state = position(hands={1: ["7C", "7D", "7H", "8H"]}, stock=["9H", "KS"], turn=1)
    state.apply("draw")
    assert not [t for t in state.legal_texts() if t.startswith("out")]
    for option in ("allowed", "forbidden"):  # three 3s in round 1: wild cards standing for themselves
        state = position(hands={1: ["3C", "3D", "KS"]}, stock=["3H"], turn=1, all_wild_melds=option)
        state.apply("draw")
        outs = [t for t in state.legal_texts() if t.startswith("out")]
        assert outs == (["out 3C", "out 3D", "out 3H", "out KS"] if option == "allowed" else ["out 3C", "out 3D",
                                                                                              "out 3H"])
    with pytest.raises(dreizehn.InvalidOptionError, match=r"'all_wild_melds'.*\(T7\)"):
        dreizehn.load_game("three-thirteen", 2, {"all_wild_melds": "sometimes"})


def test_t7_t8_forbidden_no_way_out_with_wild_cards_only() -> None:
    """T7 (amended) and T8 through the engine: in round 1 (3s wild) 3C 3D and the 2S draw the 3H.  Under allowed
    any card may go (out 2S lays the three 3s); under forbidden the 2S must stay in a meld (with two 3s) and out 2S is
    refused naming T8.  In round 2 with two decks, five 4s cannot go out at all under forbidden."""
    for option in ("allowed", "forbidden"):
        state = position(hands={1: ["3C", "3D", "2S"], 0: ["4C", "8D", "JH"]}, stock=["3H", "9C"], turn=1,
                         all_wild_melds=option)
        state.apply("draw")
        outs = [t for t in state.legal_texts() if t.startswith("out")]
        if option == "allowed":
            assert outs == ["out 3C", "out 3D", "out 3H", "out 2S"]
            state.apply("out 2S")
            assert [sorted(texts(m)) for m in state.laid[1]] == [["3C", "3D", "3H"]]
        else:
            assert outs == ["out 3C", "out 3D", "out 3H"]
            with pytest.raises(dreizehn.IllegalActionError, match=r"without the 2S.*\(T8\)"):
                state.apply("out 2S")
            state.apply("out 3H")
            assert [sorted(texts(m)) for m in state.laid[1]] == [["2S", "3C", "3D"]]
    for option, expected in (("allowed", ["out 4C", "out 4D", "out 4H", "out 4S"]), ("forbidden", [])):
        state = position(players=3, round_no=2, hands={1: ["4C", "4D", "4H", "4S"]}, stock=["4C"], turn=1,
                         all_wild_melds=option)
        state.apply("draw")
        assert [t for t in state.legal_texts() if t.startswith("out")] == expected


def test_t7_t11_forbidden_scores_wild_cards_only_as_unmatched() -> None:
    """T7 (amended) and T11 through the engine: a hand of wild cards only scores 0 under allowed (one meld) and its
    cards' value under forbidden: round 1, 3C 3D 3H scores 9; round 2, 4C 4D 4H 4S scores 16, while 4C 4D 4H KS (two
    decks) scores 0 under both, the king heading the 4s."""
    for option in ("allowed", "forbidden"):
        wild_only = option == "forbidden"
        state = position(hands={0: ["3C", "3D", "3H"], 1: ["5C", "5D", "KS"]}, stock=["5H", "9C"], turn=1,
                         all_wild_melds=option)
        state.apply("draw")
        state.apply("out KS")
        state.apply("draw")
        state.apply("discard 9C")
        assert state.stage_scores == [(9 if wild_only else 0, 0)]
        view = state.view(1)
        assert [sorted(texts(m)) for m in view.previous_melds[0]] == ([] if wild_only else [["3C", "3D", "3H"]])
        assert texts(view.previous_deadwood[0]) == (["3C", "3D", "3H"] if wild_only else [])
        state = position(players=3, round_no=2, hands={0: ["4C", "4D", "4H", "4S"], 1: ["4C", "4D", "4H", "KS"]},
                         stock=[], turn=0, stock_out="end-round", all_wild_melds=option)
        state.apply("draw")  # round 2 ends at the empty stock
        assert state.stage_scores == [(0, 0, 0), (16 if wild_only else 0, 0, 0)]
        assert [sorted(texts(m)) for m in state.view(2).previous_melds[1]] == [["4C", "4D", "4H", "KS"]]


def test_t8_going_out_only_when_legal() -> None:
    """T8: after drawing, a player whose cards all meld but one may go out, laying the melds and discarding that
    card; going out is never forced, and refused when the rest does not meld."""
    state = position(hands={1: ["7C", "7D", "KS"], 0: ["2C", "4D", "6H"]}, stock=["7H", "9C", "JD"], turn=1)
    with pytest.raises(dreizehn.IllegalActionError, match=r"draw first.*\(T6\)"):
        state.apply("out KS")
    state.apply("draw")
    assert state.legal_texts() == ["discard 7C", "discard 7D", "discard 7H", "discard KS", "out KS"]
    before = snapshot(state)
    with pytest.raises(dreizehn.IllegalActionError,
                       match=r"do not all meld without the 7C: going out needs every other card in melds \(T8\)"):
        state.apply("out 7C")
    with pytest.raises(dreizehn.IllegalActionError, match=r"holds no QH \(T6\)"):
        state.apply("out QH")
    assert snapshot(state) == before
    state.apply("out KS")
    view = state.view(0)
    assert view.hand_sizes == (3, 0) and view.out_seats == (1,) and view.discard_pile[-1] == C("KS")
    assert [texts(m) for m in view.out_melds[1]] == [["7C", "7D", "7H"]] and view.out_melds[0] == ()
    assert state.current_player == 0 and view.turns_left == 1


def test_t9_last_turns() -> None:
    """T9: after a player goes out, every other player has exactly one more turn in order (and may go out too);
    then the round ends."""
    state = position(players=3, hands={1: ["7C", "7D", "KS"], 2: ["8C", "8D", "QS"], 0: ["AC", "5D", "9H"]},
                     stock=["7H", "8H", "2C", "JD"], turn=1)
    state.apply("draw")
    state.apply("out KS")
    assert state.current_player == 2 and state.turns_left == 2
    state.apply("draw")
    state.apply("out QS")  # going out in a last turn
    assert state.current_player == 0 and state.stage == 0 and state.turns_left == 1
    state.apply("draw")
    state.apply("discard 9H")
    assert state.stage == 1 and state.stage_scores == [(1 + 2 + 5, 0, 0)]
    view = state.view(2)
    assert [texts(h) for h in view.previous_hands] == [["AC", "2C", "5D"], ["7C", "7D", "7H"], ["8C", "8D", "8H"]]
    assert [texts(d) for d in view.previous_deadwood] == [["AC", "2C", "5D"], [], []]
    assert view.out_seats == () and view.turns_left == -1 and view.round == 2 and view.dealer == 1
    assert state.current_player == 2  # the new dealer's left


def test_t10_stock_runs_out() -> None:
    """T10: ``reshuffle``: drawing from an empty stock turns the discard pile less its top card, shuffled, into the
    new stock; ``end-round``: that draw ends the round at once, before the draw."""
    state = position(hands={1: ["2C", "5D", "9H"], 0: ["KS", "KD", "4C"]}, pile=["QC", "6S", "4H", "JH", "AD"],
                     stock=[], turn=1)
    state.apply("draw")
    order = state.shuffles[-1]
    assert sorted(order) == sorted(kinds("QC", "6S", "4H", "JH")) and state.pile == kinds("AD")
    assert order[0] in state.hands[1] and state.stock[::-1] == list(order[1:])
    view1, view0 = state.view(1), state.view(0)
    assert texts(view1.reshuffled or ()) == texts(sorted(kinds("QC", "6S", "4H", "JH")))
    assert view0.reshuffled == view1.reshuffled and view0.stock_candidates == view0.reshuffled
    assert Counter(view1.stock_candidates or ()) + Counter([C(texts([order[0]])[0])]) == Counter(view1.reshuffled)
    # after a reshuffle in real play, views and samples respect what each seat knows of the new stock
    live = dreizehn.new_game("three-thirteen", players=3, seed=2)
    assert isinstance(live, ThreeThirteenState)
    state = live
    rng = random.Random(2)
    checked = 0
    while checked < 60:
        state.apply(play_out(state, rng))
        if state.reshuffled is None:
            continue
        checked += 1
        for seat in range(3):
            view = state.view(seat)
            assert view.stock_candidates is not None and view.reshuffled is not None
            assert not Counter(state.stock) - Counter(view.stock_candidates)
            assert state.resample_hidden(seat, rng).view(seat) == view
            sampled = state.game.sample_state(view, rng)
            assert isinstance(sampled, ThreeThirteenState) and sampled.view(seat) == view
            assert not Counter(sampled.stock) - Counter(view.stock_candidates)
    # nothing to reshuffle: the discard pile holds only its top card, so only "take" is legal
    stuck = position(hands={1: ["2C", "5D", "9H"]}, pile=["AD"], stock=[], turn=1)
    assert stuck.legal_texts() == ["take"]
    with pytest.raises(dreizehn.IllegalActionError, match=r"nothing to reshuffle.*\(T10\)"):
        stuck.apply("draw")
    # end-round: scored as in T11 before the draw; the next round is dealt
    state = position(hands={1: ["2C", "5D", "9H"], 0: ["KS", "KD", "KH"]}, pile=["QC", "6S"], stock=[], turn=1,
                     stock_out="end-round")
    assert state.legal_texts() == ["draw", "take"]
    state.apply("draw")
    assert state.stage_scores == [(0, 16)] and state.stage == 1 and state.history == ((1, 0),)
    with pytest.raises(dreizehn.InvalidOptionError, match=r"'stock_out'.*\(T10\)"):
        dreizehn.load_game("three-thirteen", 2, {"stock_out": "never"})


def test_t11_scoring_with_the_seeds_table() -> None:
    """T11: unmatched cards cost A 1, 2 … 10 their number, J Q K 10 (the seed's table; an unmatched wild card its
    rank's value); the arrangement is the cheapest; whoever went out or melds everything scores 0."""
    table = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10,
             "K": 10}
    for rank, points in table.items():
        for suit in "CDHS":
            assert card_value(int(C(rank + suit))) == points
    state = position(hands={0: ["AC", "2D", "4H", "6S", "8C", "10D", "QH"], 1: ["3C", "5D", "7H", "9S", "JC", "KD"]},
                     stock=[], turn=0, stock_out="end-round")
    state.apply("draw")  # round 1: the lone 3C is wild but unmatched, and costs 3
    assert state.stage_scores == [(1 + 2 + 4 + 6 + 8 + 10 + 10, 3 + 5 + 7 + 9 + 10 + 10)]
    # the cheapest arrangement: 5H-6H-7H and three 7s would share the 7H; keep the 7s, leave 5H 6H (11), not 7C 7D (14)
    state = position(hands={0: ["5H", "6H", "7H", "7C", "7D"], 1: ["4S", "5S", "6S", "7S", "8S"]},
                     stock=[], turn=0, stock_out="end-round")
    state.apply("draw")
    assert state.stage_scores == [(11, 0)]
    view = state.view(1)
    assert [texts(m) for m in view.previous_melds[0]] == [["7C", "7D", "7H"]]
    assert texts(view.previous_deadwood[0]) == ["5H", "6H"]


def test_t12_totals_and_shared_wins() -> None:
    """T12: points add up over the 11 rounds; the fewest total wins; tied players share the win."""
    state = dreizehn.new_game("three-thirteen", players=3, seed=4, stock_out="end-round")
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    totals = [sum(scores[s] for scores in state.stage_scores) for s in range(3)]
    assert list(state.totals) == totals and len(state.stage_scores) == 11
    assert state.winners == tuple(s for s in range(3) if totals[s] == min(totals))
    assert state.current_player == -1 and state.legal_actions() == [] and state.all_cards() == []
    # a tie after the last round: both share the win
    state = position(round_no=11, hands={0: ["4H", "5H", "6H"], 1: ["5C"]}, stock=[], turn=0, stock_out="end-round")
    state.stage_scores = [(15, 10)]
    state.stage_scores.extend((0, 0) for _ in range(9))
    state.apply("draw")
    assert state.is_over and state.totals == (15, 15) and state.winners == (0, 1)
    assert state.returns() == (0.5, 0.5)
    view = state.view(0)
    assert view.is_over and view.round == 11 and view.wild_rank == 13 and view.totals == (15, 15)
    with pytest.raises(dreizehn.GameOverError):
        state.apply("draw")


def test_t13_information() -> None:
    """T13: hands are hidden from everyone but their owner, the stock's order from all; a card taken from the
    discard pile is known to be in the taker's hand until a card of its kind is discarded; samples agree."""
    state = position(hands={1: ["2C", "5D", "9H"], 0: ["KS", "KD", "4C"]}, pile=["JC", "8S"],
                     stock=["6H", "7H", "QD"], turn=1, rest=True)
    assert sorted(state.all_cards()) == list(range(52))
    state.apply("take")
    view0 = state.view(0)
    assert texts(view0.hand) == ["4C", "KD", "KS"] and view0.hand_sizes == (3, 4) and view0.drawn
    assert view0.known == ((), (C("8S"),)) and view0.stock_size == 52 - 8 and view0.legal_actions == ()
    assert "2C" not in str(view0) and "5D" not in str(view0)
    rng = random.Random(1)
    for _ in range(20):
        assert state.resample_hidden(0, rng).view(0) == view0
        sampled = state.game.sample_state(view0, rng)
        assert isinstance(sampled, ThreeThirteenState)
        assert sampled.view(0) == view0 and int(C("8S")) in sampled.hands[1]
        assert sorted(sampled.hands[0]) == kinds("4C", "KD", "KS")
    others = {tuple(state.resample_hidden(0, rng).hands[1]) for _ in range(20)}
    assert len(others) > 1  # the unknown cards really are hidden
    state.apply("discard 8S")
    assert state.view(0).known == ((), ())
    state.apply("draw")  # a card drawn from the stock is not revealed
    view1 = state.view(1)
    assert view1.known == ((), ()) and view1.hand_sizes == (4, 3)
    assert state.resample_hidden(1, rng).view(1) == view1
    # the seat to move sees its legal actions; views compare equal exactly on equal information
    assert state.view(0).legal_actions == tuple(state.legal_actions()) and view1.legal_actions == ()
    assert state.view(0) == state.copy().view(0)


def test_bad_input_is_refused_and_changes_nothing() -> None:
    """Unknown texts, bad options and bad player counts raise ValueErrors with clear messages."""
    state = dreizehn.new_game("three-thirteen", players=2, seed=1)
    before = snapshot(state)
    for text in ("jump", "discard 1H", "discard", "out XX", "draw 7H", ""):
        with pytest.raises(ValueError, match=r"is not a Three Thirteen action"):
            state.apply(text)
    for number in (-1, 106):
        with pytest.raises(ValueError, match=r"not an action number"):
            state.apply(number)
    with pytest.raises(ValueError, match=r"is not a card of Three Thirteen"):
        state.game.parse_card("1H")
    assert snapshot(state) == before
    with pytest.raises(dreizehn.InvalidOptionError, match=r"has no option 'jokers'"):
        dreizehn.load_game("three-thirteen", 2, {"jokers": True})


def test_notation() -> None:
    """Cards ``AS``, ``10H``, ``QD`` (``T`` and lower case read too); actions draw, take, discard X, out X."""
    assert [c.text for c in ThreeThirteenCard.all()[:13]] == ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C",
                                                             "10C", "JC", "QC", "KC"]
    assert C("th") == C("10H") == 9 + 26 and C("as") == 39 and C("QD").rank == 12 and C("QD").suit == 1
    action = ThreeThirteenAction.parse
    assert action("DRAW") == 0 and action("take") == 1 and action("discard ac") == 2 and action("out KS") == 105
    assert action("discard  th").text == "discard 10H" and action("out 7h").card == C("7H")
    assert action("out 7h").goes_out and not action("discard 7H").goes_out and action("take").card is None
    assert len(ThreeThirteenAction.all()) == 106 == ThreeThirteen(2).num_actions


@pytest.mark.parametrize("players", range(2, 9))
def test_conformance_end_round(players: int, scale: Callable[[int, int], int]) -> None:
    """The protocol's conformance checks, random play under ``stock_out=end-round``."""
    games = scale(1, 5)
    report = check_game("three-thirteen", players=players, options={"stock_out": "end-round"}, games=games,
                        seed=players, every=10 + 5 * players)
    assert report.games == games and report.samples > 0


def test_conformance_reshuffle(scale: Callable[[int, int], int]) -> None:
    """The conformance checks under the default ``reshuffle``, with players who go out when they can."""
    games = scale(1, 5)
    for players, options in ((3, {}), (2, {"aces": "low-or-high"}), (6, {"all_wild_melds": "forbidden"})):
        report = check_game("three-thirteen", players=players, options=options, games=games, seed=players,
                            every=20, policy=play_out)
        assert report.games == games


def test_t10_turn_limit() -> None:
    """T10 ``turn_limit`` (a project option; 0, the default, is no limit): the turns of all seats count together, the
    last turns of T9 too; the round ends at once when its ``turn_limit``-th turn is over, before the next turn (a last
    turn still owed by T9 is not played), everyone scored as in T11; the count starts again each round."""
    assert dreizehn.load_game("three-thirteen", 2).options["turn_limit"] == 0
    with pytest.raises(dreizehn.InvalidOptionError, match=r"'turn_limit' must be a whole number from 0.*\(T10\)"):
        dreizehn.load_game("three-thirteen", 2, {"turn_limit": -1})
    state = position(players=3, hands={1: ["AC", "5D", "9H"], 2: ["8C", "8D", "QS"], 0: ["2C", "4D", "6H"]},
                     stock=["KC", "8H", "JD", "2S"], turn=1, turn_limit=3)
    state.apply("draw")
    assert state.view(0).turns_played == 0  # a turn counts once it is over
    state.apply("discard KC")
    assert state.view(0).turns_played == 1 and state.copy().turns_played == 1
    state.apply("draw")
    state.apply("out QS")  # turn 2: seats 0 and 1 are owed a last turn (T9)
    assert state.turns_left == 2 and state.view(1).turns_played == 2
    state.apply("draw")
    state.apply("discard JD")  # turn 3, the last: seat 1's last turn is not played
    assert state.stage == 1 and state.stage_scores == [(2 + 4 + 6, 1 + 5 + 9, 0)]
    view = state.view(0)
    assert view.turns_played == 0 and view.round == 2 and view.out_seats == () and view.turns_left == -1
    # without anyone going out: 2 players, 2 turns a round, every round
    game = dreizehn.new_game("three-thirteen", players=2, seed=4, turn_limit=2)
    rng = random.Random(4)
    while not game.is_over:
        stage = game.stage
        for _ in range(4):  # two turns of two actions each (nobody goes out here)
            assert game.stage == stage
            game.apply(rng.choice([a for a in game.legal_actions() if a < OUT]))
        assert game.stage == stage + 1
    assert len(game.history) == 11 * 4


def test_conformance_turn_limit(scale: Callable[[int, int], int]) -> None:
    """The conformance checks under ``turn_limit`` with uniformly random players (the count is in the views, and
    sampled states keep it)."""
    games = scale(1, 5)
    for players, options in ((3, {"turn_limit": 9}), (2, {"turn_limit": 40, "stock_out": "end-round"})):
        report = check_game("three-thirteen", players=players, options=options, games=games, seed=players, every=7)
        assert report.games == games and report.samples > 0
