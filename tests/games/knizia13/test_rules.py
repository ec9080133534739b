"""Rules K1–K18 of 13 (shared/rules/knizia13.md), one test per rule, and the rulebooks' examples."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import dreizehn
from dreizehn.core.conformance import check_game, snapshot
from dreizehn.games.knizia13 import (
    DECK,
    NASTY,
    Knizia13,
    Knizia13Action,
    Knizia13Card,
    Knizia13State,
    stage_points,
)

C = Knizia13Card.parse


def kinds(*texts: str) -> list[int]:
    return [int(C(t)) for t in texts]


def position(players: int = 4, hands: dict[int, list[str]] | None = None, targets: list[list[str]] | None = None,
             stock: list[str] | None = None, turn: int = 1, **options: object) -> Knizia13State:
    """A state of the first stage with the given cards (the rest of the deck goes to the taken pile of seat 0, which
    keeps the cards conserved; tests that score set the taken piles themselves)."""
    state = dreizehn.new_game("knizia13", players=players, seed=0, **options)
    assert isinstance(state, Knizia13State)
    if hands is not None:
        state.hands = [kinds(*hands.get(s, [])) for s in range(players)]
    if targets is not None:
        state.targets = [kinds(*t) for t in targets]
        state.sums = [sum(C(t).value for t in target) for target in targets]
    if stock is not None:
        state.stock = kinds(*stock)
    state.turn = turn
    used = Counter(state.all_cards())
    rest = Counter(DECK)
    rest.subtract(used)
    state.taken = [[] for _ in range(players)]
    state.taken[0] = sorted(rest.elements())
    state.plays = 0
    return state


def test_k1_colour_cards() -> None:
    """K1: 42 colour cards, per colour two 4s and three each of 1, 2, 5, 7."""
    counts = Counter(C(Knizia13Card.of(k).text) for k in DECK)
    for colour in "BYG":
        assert [counts[C(f"{colour}{v}")] for v in (1, 2, 4, 5, 7)] == [3, 3, 2, 3, 3]
    assert sum(n for card, n in counts.items() if card != NASTY) == 42


def test_k2_nasty_fours() -> None:
    """K2: 8 red nasty fours of value 4; 50 cards in all."""
    assert DECK.count(NASTY) == 8 and C("R4").value == 4 and C("R4").colour == "red"
    assert len(DECK) == 50


def test_k3_three_fixed_targets() -> None:
    """K3: one target per colour; a target's colour is fixed, not set by the first card."""
    state = position(hands={1: ["R4", "B1"]}, stock=["Y1", "Y2"])
    state.apply("R4>Y")  # a nasty four on the yellow target
    assert state.targets[1] == kinds("R4")
    with pytest.raises(dreizehn.IllegalActionError, match=r"K10"):
        state.apply("B1>Y")  # the yellow target still takes only yellow (and nasty fours)


@pytest.mark.parametrize("players", [1, 2, 7])
def test_k4_player_counts(players: int) -> None:
    """K4: 3 to 6 players; other counts are refused naming the rule."""
    with pytest.raises(dreizehn.InvalidOptionError, match=r"3 to 6 players.*\(K4\)"):
        dreizehn.load_game("knizia13", players)


def test_k4_dealer_passes_clockwise() -> None:
    """K4: the dealer passes to the next seat after each stage."""
    state = dreizehn.new_game("knizia13", players=4, seed=11, dealer=2)
    assert isinstance(state, Knizia13State)
    dealers = []
    rng = random.Random(1)
    while not state.is_over:
        if state.plays == 0:
            dealers.append(state.dealer)
        state.apply(rng.choice(state.legal_actions()))
    assert dealers == [2, 3, 0, 1]


@pytest.mark.parametrize(("players", "stages"), [(3, 6), (4, 4), (5, 5), (6, 6)])
def test_k5_number_of_stages(players: int, stages: int) -> None:
    """K5: one stage per player; with exactly 3 players two stages per player."""
    state = dreizehn.new_game("knizia13", players=players, seed=players)
    rng = random.Random(players)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.stage_scores) == stages == Knizia13(players).stages
    assert len(state.history) == 50 * stages


def test_k6_first_dealer_option() -> None:
    """K6: the first dealer is an option: seat 0 by default, a seat, or drawn from the seed."""
    assert dreizehn.new_game("knizia13", 4, seed=1).dealer == 0  # type: ignore[attr-defined]
    assert dreizehn.new_game("knizia13", 4, seed=1, dealer=3).dealer == 3  # type: ignore[attr-defined]
    drawn = {dreizehn.new_game("knizia13", 4, seed=s, dealer="random").dealer for s in range(40)}  # type: ignore[attr-defined]
    assert drawn == {0, 1, 2, 3}
    again = dreizehn.new_game("knizia13", 4, seed=5, dealer="random")
    assert again.dealer == dreizehn.new_game("knizia13", 4, seed=5, dealer="random").dealer  # type: ignore[attr-defined]
    with pytest.raises(dreizehn.InvalidOptionError, match=r"'dealer'.*\(K6\)"):
        dreizehn.load_game("knizia13", 4, {"dealer": 4})


def test_k7_deal() -> None:
    """K7: all 50 cards shuffled, 5 face down to each player, the rest is the stock; the targets start empty."""
    for players in range(3, 7):
        state = dreizehn.new_game("knizia13", players, seed=players)
        assert isinstance(state, Knizia13State)
        assert [len(h) for h in state.hands] == [5] * players
        assert len(state.stock) == 50 - 5 * players
        assert state.targets == [[], [], []]
        assert sorted(state.all_cards()) == sorted(DECK)
        order = state.shuffles[0]
        # dealt one at a time from the dealer's left; the next card is the top of the stock
        assert state.hands[1][0] == order[0] and state.hands[2][0] == order[1]
        assert state.stock[-1] == order[5 * players]


def test_k8_left_of_dealer_starts() -> None:
    """K8: the player left of the dealer plays first; play goes clockwise."""
    state = dreizehn.new_game("knizia13", players=5, seed=3, dealer=4)
    assert state.current_player == 0
    state.apply(state.legal_actions()[0])
    assert state.current_player == 1


def test_k9_play_one_card_then_draw() -> None:
    """K9: a player must play one hand card onto a target, then draws the top card of the stock."""
    state = position(hands={1: ["B1", "Y2", "G4", "G5", "R4"]}, stock=["Y7", "G1"], targets=[[], [], []])
    state.apply("G4")
    assert sorted(state.hands[1]) == sorted(kinds("B1", "Y2", "G5", "R4", "G1"))
    assert state.stock == kinds("Y7") and state.current_player == 2
    with pytest.raises(dreizehn.IllegalActionError, match=r"holds no B7.*\(K9\)"):
        state.apply("B7")


def test_k9_no_draw_when_stock_empty() -> None:
    """K9: once the stock is empty, a player plays without drawing."""
    state = position(hands={1: ["B1", "Y2"]}, stock=[])
    state.apply("B1")
    assert state.hands[1] == kinds("Y2")


def test_k10_colour_rule() -> None:
    """K10: a colour card only on its own target; a nasty four on any; a target of only nasty fours still takes its
    colour."""
    state = position(hands={1: ["G5", "R4", "R4", "B1", "Y1"]}, stock=["Y2"] * 0 + ["B2", "B4", "B5"])
    before = snapshot(state)
    with pytest.raises(dreizehn.IllegalActionError, match=r"green card may only be played on the green target.*K10"):
        state.apply("G5>B")
    assert snapshot(state) == before
    legal = state.legal_texts()
    assert {"G5", "R4>B", "R4>Y", "R4>G", "B1", "Y1"} == set(legal)
    state.apply("R4>G")
    state.turn = 1
    state.apply("G5")  # green card on the green target holding only a nasty four
    assert state.targets[2] == kinds("R4", "G5")


def test_k10_always_a_legal_play() -> None:
    """K10: a player always has at least one legal play."""
    rng = random.Random(3)
    for seed in range(30):
        state = dreizehn.new_game("knizia13", players=rng.randint(3, 6), seed=seed)
        while not state.is_over:
            assert state.legal_actions()
            state.apply(rng.choice(state.legal_actions()))


def test_k11_example_1() -> None:
    """K11, example 1 (the rulebook): a target at 11; Ben's 2 makes 13 and nothing happens; then Marina's 4 makes 17:
    she takes the three cards that lay there, and her 4 stays."""
    state = position(hands={1: ["B2"], 2: ["B4"]}, targets=[["B7", "B4"], [], []], stock=[], turn=1)
    state.taken = [[] for _ in range(4)]
    assert state.sums[0] == 11
    state.apply("B2")
    assert state.sums[0] == 13 and len(state.targets[0]) == 3 and state.taken[1] == []
    state.apply("B4")
    assert state.sums[0] == 4 and state.targets[0] == kinds("B4")
    assert sorted(state.taken[2]) == sorted(kinds("B7", "B4", "B2")) and len(state.taken[2]) == 3


def test_k11_example_2() -> None:
    """K11, example 2 (the rulebook): a nasty four brings a target to 11; a yellow 5 makes 16: that player takes the
    three cards on it, nasty four included; the yellow 5 stays."""
    state = position(hands={1: ["R4"], 2: ["Y5"]}, targets=[[], ["Y2", "Y5"], []], stock=[], turn=1)
    state.taken = [[] for _ in range(4)]
    state.apply("R4>Y")
    assert state.sums[1] == 11 and len(state.targets[1]) == 3
    state.apply("Y5")
    assert state.targets[1] == kinds("Y5") and state.sums[1] == 5
    assert sorted(state.taken[2]) == sorted(kinds("Y2", "Y5", "R4"))


def test_k11_exactly_13_takes_nothing() -> None:
    """K11: a sum of exactly 13 takes nothing; 14 takes."""
    state = position(hands={1: ["G7"], 2: ["G1"]}, targets=[[], [], ["G5", "G1"]], stock=[], turn=1)
    state.taken = [[] for _ in range(4)]
    state.apply("G7")
    assert state.sums[2] == 13 and state.taken[1] == []
    state.apply("G1")
    assert state.targets[2] == kinds("G1") and len(state.taken[2]) == 3


def test_k12_taken_piles_hidden_even_from_owner() -> None:
    """K12: a player may not look at their own taken pile: views show only the sizes, unless open_piles is chosen."""
    for open_piles in (False, True):
        state = position(hands={1: ["Y5"]}, targets=[[], ["Y7", "Y2"], []], stock=[], turn=1, open_piles=open_piles)
        state.taken = [[] for _ in range(4)]
        state.apply("Y5")
        view = state.view(1)
        assert view.taken_sizes == (0, 2, 0, 0)
        if open_piles:
            assert view.taken is not None and sorted(view.taken[1]) == sorted(kinds("Y7", "Y2"))
        else:
            assert view.taken is None


def test_k13_stage_ends_after_50_plays() -> None:
    """K13: a stage ends when the stock is empty and every hand card is played: exactly 50 plays; cards left on the
    targets are not scored."""
    state = dreizehn.new_game("knizia13", players=4, seed=9)
    assert isinstance(state, Knizia13State)
    rng = random.Random(9)
    for _ in range(49):
        state.apply(rng.choice(state.legal_actions()))
    assert state.stage == 0 and sum(map(len, state.hands)) == 1 and not state.stock
    taken = [list(t) for t in state.taken]
    last = state.current_player
    action = Knizia13Action.of(state.legal_actions()[0])
    target = action.target
    if state.sums[target] + action.card.value > 13:  # the last play may still take a target (K11)
        taken[last].extend(state.targets[target])
        left_on_targets = sum(map(len, state.targets)) - len(state.targets[target]) + 1
    else:
        left_on_targets = sum(map(len, state.targets)) + 1
    state.apply(action)
    assert state.stage == 1 and len(state.stage_scores) == 1
    assert left_on_targets > 0  # cards were left on the targets, and they are not scored:
    assert state.stage_scores[0] == stage_points(taken)
    assert sum(map(len, taken)) + left_on_targets == 50


def test_k14_points() -> None:
    """K14: each colour card in a taken pile is 1 minus point, each nasty four 2 (no majority when two tie)."""
    b, y = int(C("B1")), int(C("Y2"))
    assert stage_points([[b, y, NASTY], [b, y], [], []]) == (4, 2, 0, 0)


def test_k15_majority() -> None:
    """K15: the one player with strictly the most cards of a colour scores 0 for it; ties all count; nasty fours always
    count 2."""
    b, g = int(C("B1")), int(C("G7"))
    assert stage_points([[b, b, b], [b], [g, g], [g, g]]) == (0, 1, 2, 2)
    assert stage_points([[NASTY] * 3, [NASTY]]) == (6, 2)


def test_k16_rulebook_score_table() -> None:
    """K16: the rulebooks' four-player example, with its own numbers."""
    b, y, g = int(C("B1")), int(C("Y4")), int(C("G7"))
    rows = [(3, 2, 0, 1), (0, 6, 2, 0), (2, 5, 6, 2), (6, 1, 6, 4)]
    piles = [[b] * nb + [y] * ny + [g] * ng + [NASTY] * nr for nb, ny, ng, nr in rows]
    assert stage_points(piles) == (7, 2, 17, 15)


def test_k17_fewest_minus_points_win_and_ties_share() -> None:
    """K17: minus points add up over the stages; the fewest wins; ties share the win."""
    state = dreizehn.new_game("knizia13", players=3, seed=1)
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    totals = state.totals
    assert totals == tuple(map(sum, zip(*state.stage_scores, strict=True)))
    assert state.winners == tuple(s for s in range(3) if totals[s] == min(totals))
    state.stage_scores = [(3, 3, 5)]
    assert state.winners == (0, 1) and state.returns() == (0.5, 0.5, 0.0)


def test_k18_information() -> None:
    """K18: a view holds its own hand, the targets, sizes and history, never another hand or the stock's order."""
    state = dreizehn.new_game("knizia13", players=4, seed=21)
    assert isinstance(state, Knizia13State)
    rng = random.Random(2)
    for _ in range(37):
        state.apply(rng.choice(state.legal_actions()))
    for seat in range(4):
        view = state.view(seat)
        assert sorted(view.hand) == sorted(state.hands[seat])
        assert view.hand_sizes == tuple(len(h) for h in state.hands) and view.stock_size == len(state.stock)
        assert view.history == state.history and view.taken is None
        text = repr(view)
        assert "stock=" not in text.replace("stock_size=", "")
        # dealing the other hands and the stock anew changes nothing in this seat's view
        for _ in range(5):
            assert state.resample_hidden(seat, rng).view(seat) == view
        # while another seat's view does change when this seat's hand changes
        other = (seat + 1) % 4
        moved = state.resample_hidden(other, rng)
        if sorted(moved.hands[seat]) != sorted(state.hands[seat]):
            assert moved.view(seat) != view


def test_notation_round_trip_and_errors() -> None:
    """Cards and actions print and parse back unchanged; malformed text is refused in words."""
    for action in Knizia13Action.all():
        assert Knizia13Action.parse(str(action)) == action
        assert eval(repr(action)) == action  # the repr reads back as code
    assert Knizia13Action.parse("b5>b") == Knizia13Action.parse("B5")
    with pytest.raises(dreizehn.IllegalActionError, match="K10"):
        Knizia13Action.parse("R4")
    with pytest.raises(dreizehn.InvalidActionError, match="not a play"):
        Knizia13Action.parse("Z9")


def test_bad_input_changes_nothing() -> None:
    """Malformed actions and options are refused with a clear message and nothing changes."""
    state = dreizehn.new_game("knizia13", players=4, seed=2)
    before = snapshot(state)
    for bad in ("", "B3", "R4>Q", 99, -1, 2.5, None, True):
        with pytest.raises(ValueError):
            state.apply(bad)  # type: ignore[arg-type]
    assert snapshot(state) == before
    with pytest.raises(dreizehn.InvalidOptionError, match="no option 'colour'"):
        dreizehn.load_game("knizia13", 4, {"colour": 1})
    with pytest.raises(dreizehn.InvalidOptionError, match="true or false"):
        dreizehn.load_game("knizia13", 4, {"open_piles": "maybe"})
    with pytest.raises(dreizehn.UnknownGameError, match="no game 'chess'"):
        dreizehn.load_game("chess", 2)


def test_same_seed_same_game() -> None:
    """The same seed and the same actions give the same game, card for card."""
    a = dreizehn.new_game("knizia13", players=5, seed=77)
    b = dreizehn.new_game("knizia13", players=5, seed=77)
    rng = random.Random(0)
    while not a.is_over:
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
        assert a.view(0) == b.view(0)
    assert a.shuffles == b.shuffles and a.stage_scores == b.stage_scores
    assert dreizehn.new_game("knizia13", players=5, seed=78).shuffles != a.shuffles[:1]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_conformance(players: int) -> None:
    """The generic conformance checks on a few games of every player count."""
    report = check_game("knizia13", players, games=2, seed=players, every=7)
    assert report.games == 2 and report.refusals > 0 and report.samples > 0


def test_copy_is_independent() -> None:
    state = dreizehn.new_game("knizia13", players=4, seed=8)
    copy = state.copy()
    copy.apply(copy.legal_actions()[0])
    assert len(state.history) == 0 and len(copy.history) == 1
