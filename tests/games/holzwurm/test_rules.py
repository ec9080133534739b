"""Tests of Der dreizehnte Holzwurm (game id ``holzwurm``): one test per rule H1–H17 of the specification
(``shared/rules/holzwurm.md``), the rulebook's own examples, bad input, records and the conformance checks."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dreizehn
from dreizehn.core.conformance import check_game, snapshot
from dreizehn.core.errors import IllegalActionError, InvalidActionError, InvalidOptionError
from dreizehn.core.record import dumps, loads
from dreizehn.core.registry import game_class, load_game
from dreizehn.games.holzwurm import (
    CARD_COLOUR,
    CARD_POINTS,
    THIRTEEN,
    Holzwurm,
    HolzwurmAction,
    HolzwurmCard,
    HolzwurmRow,
    HolzwurmState,
    HolzwurmView,
    fate_order,
    hand_points,
)


def cards(texts: str) -> list[int]:
    """Card numbers of space-separated card texts."""
    return [int(HolzwurmCard.parse(t)) for t in texts.split()]


def texts(seq: Sequence[int]) -> list[str]:
    """Card texts of card numbers."""
    return [HolzwurmCard.of(k).text for k in seq]


def cards_of(text: str) -> tuple[HolzwurmCard, ...]:
    """Card tokens of space-separated card texts (as views hold them)."""
    return tuple(HolzwurmCard.parse(t) for t in text.split())


def new(players: int, seed: int, **options: object) -> HolzwurmState:
    """A new match through the public entry point."""
    state = dreizehn.new_game("holzwurm", players=players, seed=seed, **options)
    assert isinstance(state, HolzwurmState)
    return state


def position(
    hands: Sequence[str],
    rows: Sequence[str] = (),
    fate: str = "13 P11 P9 P6 P8 P10",
    *,
    turn: int = 0,
    games: int = 1,
    starter: int = 0,
) -> HolzwurmState:
    """A state set up directly: hands per seat, rows per slot ("" for an empty slot; a row's colour is that of its
    first coloured card, open if none), the fate row bottom to top. Every other card lies in the removed pile, so the
    66 cards are conserved."""
    players = len(hands)
    state = load_game("holzwurm", players, {"games": games, "starter": starter}).new_state(0)
    assert isinstance(state, HolzwurmState)
    state.hands = [sorted(cards(h)) for h in hands]
    slots = [tuple(cards(r)) for r in rows] + [()] * (5 - len(rows))
    state.rows = slots
    state.row_colour = [next((CARD_COLOUR[k] for k in row if CARD_COLOUR[k] < 5), -1) for row in slots]
    state._index_rows()
    state.fate = cards(fate)
    placed = [k for h in state.hands for k in h] + [k for row in slots for k in row] + state.fate
    assert len(placed) == len(set(placed)), "a card is placed twice"
    used = set(placed)
    state.removed = [k for k in range(66) if k not in used]
    state.known = [0] * players
    state.turn = turn
    state.starter = starter
    assert sorted(state.all_cards()) == list(range(66))
    return state


def refuse(state: HolzwurmState, action: int | str, error: type[Exception], *words: str) -> str:
    """Apply ``action``, expect ``error`` whose message holds ``words``, and check that nothing changed."""
    before = snapshot(state)
    with pytest.raises(error) as info:
        state.apply(action)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert snapshot(state) == before
    return message


# -- material ------------------------------------------------------------------------------------------------------


def test_h1_sixty_five_woodworm_cards() -> None:
    """H1: five colours with values 1 to 11 and grey 2 to 11; card numbers c*11 + v - 1 and 55 + v - 2."""
    game = Holzwurm(4)
    assert game.deck == tuple(range(66))
    woodworms = [HolzwurmCard.of(k) for k in range(65)]
    for c, letter in enumerate("YRGPB"):
        for v in range(1, 12):
            card = HolzwurmCard.parse(f"{letter}{v}")
            assert card == c * 11 + v - 1 and card.value == v
            assert card.colour == ("yellow", "red", "green", "purple", "blue")[c]
    for v in range(2, 12):
        card = HolzwurmCard.parse(f"N{v}")
        assert card == 55 + v - 2 and card.value == v and card.colour == "grey"
    assert sum(1 for c in woodworms if c.colour == "grey") == 10
    assert len({c.text for c in woodworms}) == 65
    for bad in ("N1", "Y12", "Y0", "G", "X5"):
        with pytest.raises(InvalidActionError):
            HolzwurmCard.parse(bad)
    state = new(4, 1)
    assert sorted(state.all_cards()) == list(game.deck)


def test_h2_poisonous_thirteen() -> None:
    """H2: one poisonous thirteen, card 65, value −13, written 13."""
    thirteen = HolzwurmCard.parse("13")
    assert thirteen == THIRTEEN == 65 and thirteen.points == -13 and thirteen.colour is None
    assert HolzwurmCard.parse("-13") == thirteen and thirteen.text == "13"
    assert Holzwurm(3).deck.count(THIRTEEN) == 1


def test_h3_points() -> None:
    """H3: even values count plus, odd values minus, the thirteen −13; grey cards the same."""
    expected = {"Y1": -1, "Y2": 2, "R11": -11, "G10": 10, "P7": -7, "B8": 8, "N2": 2, "N3": -3, "N11": -11,
                "N10": 10, "13": -13}
    for text, points in expected.items():
        assert HolzwurmCard.parse(text).points == points == CARD_POINTS[HolzwurmCard.parse(text)]
    assert hand_points(cards("Y2 Y4 Y6 Y8 Y10")) == 30
    assert hand_points(cards("Y1 Y3 N5 13")) == -22
    # All 65 woodworm cards: the plus cards add up to 6*30 = 180, the minus cards to -(6*36 - 1) = -215.
    assert sum(CARD_POINTS[:65]) == 180 - 215


def test_h4_grey_cards_go_onto_any_row() -> None:
    """H4, H11: a grey card may be played into a row of any colour, an open row, or a new row."""
    state = position(["N6 Y9", "Y5"], rows=["R1 R2", "N3", "G4"])
    legal = state.legal_texts()
    assert [t for t in legal if t.startswith("N6")] == ["N6>1", "N6>2", "N6>3", "N6>new"]
    state.apply("N6>1")
    assert state.view(0).rows[0] == HolzwurmRow("red", tuple(HolzwurmCard.parse(t) for t in ("R1", "R2", "N6")))


# -- set-up --------------------------------------------------------------------------------------------------------


def test_h5_fate_row_and_player_counts() -> None:
    """H5: the rulebook's fate row −13, −9, −7, +2, +2, +8; 5 shuffled cards on the thirteen; 2 to 6 players."""
    fate = fate_order(cards("B8 R7 Y2 N2 G9"))
    assert [CARD_POINTS[k] for k in fate] == [-13, -9, -7, 2, 2, 8]
    assert texts(fate) == ["13", "G9", "R7", "Y2", "N2", "B8"]  # equal points: the lower card number lies lower
    for players in range(2, 7):
        state = new(players, players)
        view = state.view(0)
        assert view.fate[0] == THIRTEEN and len(view.fate) == 6
        assert [int(k) for k in view.fate] == fate_order(state.shuffles[0][:5])
        points = [c.points for c in view.fate]
        assert points == sorted(points)
        assert view.rows == (None,) * 5
    for players in (1, 7, 0):
        with pytest.raises(InvalidOptionError, match="2 to 6 players") as info:
            new(players, 1)
        assert isinstance(info.value, ValueError) and info.value.rule == "H5"


@pytest.mark.parametrize(("players", "size", "removed"), [(2, 15, 30), (3, 15, 15), (4, 15, 0), (5, 12, 0),
                                                          (6, 10, 0)])
def test_h6_deal(players: int, size: int, removed: int) -> None:
    """H6: 15 cards each with 2 to 4 players (30 or 15 removed unseen with 2 or 3), 12 with 5, 10 with 6; dealt one
    at a time clockwise from the starting seat."""
    order = list(range(64, -1, -1))  # a forced shuffle: N11 on top
    game = load_game("holzwurm", players, {"starter": 1})
    state = game.new_state(0, shuffles=[order])
    assert isinstance(state, HolzwurmState)
    assert [len(h) for h in state.hands] == [size] * players
    assert state.view(0).removed == removed and state.removed == order[5 + size * players :]
    for i, card in enumerate(order[5 : 5 + size * players]):
        assert card in state.hands[(1 + i) % players]
    assert texts(state.fate) == ["13", "N11", "N9", "N7", "N8", "N10"]
    assert sorted(state.all_cards()) == list(range(66))


def test_h7_starter_option_and_rotation() -> None:
    """H7, H16: the starter option (a seat or random) starts the first game; each game the next seat starts; play
    goes clockwise."""
    assert new(4, 5).current_player == 0
    state = new(4, 5, starter=2, games=3)
    assert state.current_player == 2 and state.view(0).starter == 2
    state.apply(state.legal_actions()[0])
    assert state.current_player == 3
    state.apply(state.legal_actions()[0])
    assert state.current_player == 0
    rng = random.Random(1)
    starters = [state.view(0).starter]
    while not state.is_over:
        stage = state.stage
        state.apply(rng.choice(state.legal_actions()))
        if state.stage != stage and not state.is_over:
            starters.append(state.view(0).starter)
            assert state.current_player == state.view(0).starter
            # the new deal starts with the starting seat: the first dealt card is theirs
            assert state.shuffles[-1][5] in state.hands[state.current_player]
    assert starters == [2, 3, 0]
    drawn = {new(5, s, starter="random").current_player for s in range(40)}
    assert len(drawn) > 1 and drawn <= set(range(5))
    again = new(5, 11, starter="random")
    assert again.current_player == new(5, 11, starter="random").current_player
    assert again.options["starter"] == again.current_player
    with pytest.raises(InvalidOptionError, match="starter") as info:
        new(4, 1, starter=9)
    assert info.value.rule == "H7"
    with pytest.raises(InvalidOptionError):
        new(4, 1, starter="youngest")


# -- a turn --------------------------------------------------------------------------------------------------------


def test_h8_must_play_a_hand_card_onto_a_row() -> None:
    """H8: the player must play one of their hand cards onto an existing row or as a new row."""
    state = position(["Y5 G3", "R4 R6"], rows=["Y1 Y2", "", "B7"])
    assert state.legal_texts() == ["Y5>1", "G3>new"]
    refuse(state, "R4>new", IllegalActionError, "seat 0 holds no R4", "(H8)")
    refuse(state, "Y5>2", IllegalActionError, "no row 2 lies on the table (H8)")
    refuse(state, "G3>4", IllegalActionError, "no row 4 lies on the table (H8)")
    state.apply("G3>new")  # a new row takes the lowest free slot
    assert state.view(1).rows[1] == HolzwurmRow("green", (HolzwurmCard.parse("G3"),))
    assert state.current_player == 1
    # There is always a legal play (the rows can never block a card, H9–H11).
    rng = random.Random(3)
    for seed in range(5):
        game = dreizehn.new_game("holzwurm", players=rng.randint(2, 6), seed=seed, games=1)
        assert isinstance(game, HolzwurmState)
        while not game.is_over:
            legal = game.legal_actions()
            hand = set(game.hands[game.current_player])
            assert legal and {a.card for a in legal} == hand
            game.apply(rng.choice(legal))


def test_h9_five_rows_at_most_and_distinct_colours() -> None:
    """H9: at most five rows, no two of the same colour."""
    state = position(["N5 Y9 R2", "B2"], rows=["Y1", "R3", "G2", "N4", "B1"])
    assert "N5>new" not in state.legal_texts() and "Y9>new" not in state.legal_texts()
    refuse(state, "N5>new", IllegalActionError, "five rows lie already: a new row cannot be started (H9)")
    refuse(state, "Y9>new", IllegalActionError, "(H9)")
    # With fewer rows: still no second row of a colour that lies.
    state = position(["R2 Y9", "B2"], rows=["R3", "G2"])
    assert [t for t in state.legal_texts() if t.startswith("R2")] == ["R2>1"]
    refuse(state, "R2>new", IllegalActionError, "a red card may only go onto the red row while one lies", "(H10)")
    assert [t for t in state.legal_texts() if t.startswith("Y9")] == ["Y9>new"]
    rng = random.Random(9)
    for seed in range(4):
        game = new(4, seed, games=1)
        assert isinstance(game, HolzwurmState)
        while not game.is_over:
            colours = [c for c, row in zip(game.row_colour, game.rows, strict=True) if row and c >= 0]
            assert len(colours) == len(set(colours)) and sum(1 for row in game.rows if row) <= 5
            game.apply(rng.choice(game.legal_actions()))


def test_h10_coloured_cards() -> None:
    """H10: a coloured card goes onto its colour's row; without one, onto an open row (giving it its colour) or a new
    row of its colour."""
    state = position(["R9 G8 P2", "B2 Y4"], rows=["R1 R2", "Y3", "N2"])
    legal = state.legal_texts()
    assert [t for t in legal if t.startswith("R9")] == ["R9>1"]
    assert [t for t in legal if t.startswith("G8")] == ["G8>3", "G8>new"]
    refuse(state, "R9>2", IllegalActionError, "a red card may only go onto the red row while one lies", "(H10)")
    refuse(state, "G8>2", IllegalActionError, "row 2 is yellow", "(H10)")
    refuse(state, "R9>3", IllegalActionError, "(H10)")
    state.apply("G8>3")
    assert state.view(0).rows[2] == HolzwurmRow("green", cards_of("N2 G8"))
    state.apply("B2>new")
    assert state.view(0).rows[3] == HolzwurmRow("blue", cards_of("B2"))
    assert [t for t in state.legal_texts() if t.startswith("P2")] == ["P2>new"]


def test_h11_open_rows() -> None:
    """H11: a grey card starts an open row; grey cards keep it open; its first coloured card gives it its colour."""
    state = position(["N3 N9 Y4 R5", "N8 G9 B11"], rows=["Y1"])
    state.apply("N3>new")
    assert state.view(0).rows[1] == HolzwurmRow(None, cards_of("N3"))
    state.apply("N8>2")  # grey onto the open row: still open
    assert state.view(0).rows[1] == HolzwurmRow(None, cards_of("N3 N8"))
    # a yellow card cannot go onto the open row while a yellow row lies; a red one can
    assert [t for t in state.legal_texts() if t.startswith(("Y4", "R5"))] == ["Y4>1", "R5>2", "R5>new"]
    refuse(state, "Y4>2", IllegalActionError, "(H10)")
    state.apply("R5>2")
    assert state.view(1).rows[1] == HolzwurmRow("red", cards_of("N3 N8 R5"))
    assert [t for t in state.legal_texts() if t.startswith("G9")] == ["G9>new"]
    # Open rows count among the five rows.
    state = position(["N5 G9", "B2"], rows=["N2", "N3", "N4", "Y1", "R1"])
    assert state.legal_texts() == ["G9>1", "G9>2", "G9>3", "N5>1", "N5>2", "N5>3", "N5>4", "N5>5"]


def test_h12_count_rule_rulebook_example() -> None:
    """H12, the rulebook's example: a green row −1, 9, 7, 4, 6 (5 cards); a green 5 takes all six cards and the top
    fate card; the row leaves the table and green is free again."""
    state = position(["G5 G8 Y1", "N9 G11 B3", "R2"], rows=["R1", "G1 G9 G7 G4 G6"], fate="13 Y9 P5 B10")
    assert "G5>2" in state.legal_texts()  # taking on purpose is a legal play
    state.apply("G5>2")
    assert texts(state.hands[0]) == ["Y1", "G1", "G4", "G5", "G6", "G7", "G8", "G9", "B10"]
    assert texts(state.fate) == ["13", "Y9", "P5"]
    view = state.view(1)
    assert view.rows == (HolzwurmRow("red", cards_of("R1")), None, None, None, None)
    assert view.known[0] == cards_of("G1 G4 G5 G6 G7 G9 B10")
    assert view.hand_sizes[0] == 9 and state.current_player == 1
    assert [t for t in state.legal_texts() if t.startswith("G11")] == ["G11>new"]  # green is free again
    state.apply("G11>new")  # the freed slot 2 is the lowest free one
    assert state.view(0).rows[1] == HolzwurmRow("green", cards_of("G11"))


def test_h12_count_rule_accepts_higher_values_and_never_a_late_one() -> None:
    """H12: a value greater than the row's length is laid; a 1 can never be laid on a row not started by it; a new
    row always accepts the card."""
    state = position(["G8 Y1 B1", "N2 N6"], rows=["G1 G9 G7 G4 G6", "Y3"], fate="13 P11 P9 P6 P8 P10")
    state.apply("G8>1")  # 8 > 5: laid
    assert texts(state.rows[0]) == ["G1", "G9", "G7", "G4", "G6", "G8"] and len(state.fate) == 6
    state.apply("N6>1")  # 6 is not greater than 6: takes the seven cards and P10
    assert texts(state.hands[1]) == ["G1", "G4", "G6", "G7", "G8", "G9", "P10", "N2", "N6"]
    assert state.rows[0] == () and state.row_colour[0] == -1
    state.apply("Y1>2")  # a 1 onto a row not started by it: takes it (1 is not greater than 1)
    assert texts(state.hands[0]) == ["Y1", "Y3", "P8", "B1"] and state.rows[1] == ()
    assert texts(state.fate) == ["13", "P11", "P9", "P6"]
    state = position(["B1", "Y2"])
    state.apply("B1>new")  # a new row always accepts (1 > 0)
    assert state.rows[0] == (int(HolzwurmCard.parse("B1")),)
    # A grey 2 on a one-card row is laid (2 > 1); on a two-card row it takes.
    state = position(["N2 Y4", "N3 Y6"], rows=["R5", "B3 B7"])
    state.apply("N2>1")
    assert len(state.rows[0]) == 2
    state.apply("N3>2")
    assert len(state.rows[1]) == 3


def test_h13_rows_keep_play_order() -> None:
    """H13: plus and minus cards lie on different sides only for show; the view gives a row's cards in play order."""
    state = position(["Y9 Y4 Y2", "Y7 Y6 Y8"], rows=["Y1"])
    for action in ("Y9>1", "Y7>1", "Y4>1", "Y6>1"):
        state.apply(action)
    assert state.view(0).rows[0] == HolzwurmRow("yellow", cards_of("Y1 Y9 Y7 Y4 Y6"))


# -- end of the game -----------------------------------------------------------------------------------------------


def test_h14a_playing_the_last_card_ends_the_game() -> None:
    """H14a, H15: a play that empties the hand ends the game at once, with the +30 bonus for that player."""
    state = position(["Y8", "R2 R4", "B10 B1"], turn=0)
    state.apply("Y8>new")
    assert state.is_over and state.current_player == -1 and state.legal_actions() == []
    assert state.stage == 1
    assert state.stage_scores == [(30, 6, 9)] and state.winners == (0,)
    assert state.all_cards() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("R2>new")
    # A play that takes a row never empties the hand: the last card taking a row keeps the game going.
    state = position(["Y1", "R2 R4"], rows=["Y3"], fate="13 B4")
    state.apply("Y1>1")
    assert not state.is_over and texts(state.hands[0]) == ["Y1", "Y3", "B4"]


def test_h14b_taking_the_thirteen_ends_the_game() -> None:
    """H14b: a player who must take the last fate card, the thirteen, ends the game at once."""
    state = position(["Y1 Y10", "R2 R4"], rows=["Y3 Y5"], fate="13")
    state.apply("Y1>1")
    assert state.is_over
    assert state.stage_scores == [(-1 - 3 - 5 + 10 - 13, 6)]
    assert state.winners == (1,)
    # With one fate card left above the thirteen, the game goes on and the thirteen is on top.
    state = position(["Y1 Y10", "R2 R4"], rows=["Y3 Y5"], fate="13 B8")
    state.apply("Y1>1")
    assert not state.is_over and texts(state.fate) == ["13"]


def test_h15_scores_bonus_and_shared_wins() -> None:
    """H15: hand points, +30 for the player who played out, the highest score wins, ties share."""
    state = position(["N4", "Y2 Y4 Y6 Y8 Y10", "R8 R10 R11 R9 R7"], rows=["B1"])
    state.apply("N4>1")
    assert state.is_over and state.stage_scores == [(30, 30, 8 + 10 - 11 - 9 - 7)]
    assert state.winners == (0, 1) and state.returns() == (0.5, 0.5, 0.0)
    assert game_class("holzwurm").high_score_wins


def test_h16_match_of_several_games() -> None:
    """H16: a match of ``games`` games (default 3), each a stage, scores added up."""
    assert Holzwurm(3).options["games"] == 3 and Holzwurm.stage_name == "game"
    rng = random.Random(4)
    for games in (1, 2, 4):
        state = new(3, games, games=games)
        shuffles = 1
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            if not state.is_over:
                assert len(state.shuffles) == state.stage + 1
                shuffles = len(state.shuffles)
        assert state.stage == games == len(state.stage_scores) and shuffles == games
        assert state.totals == tuple(sum(s[i] for s in state.stage_scores) for i in range(3))
        assert state.winners == tuple(i for i, t in enumerate(state.totals) if t == max(state.totals))
    for bad in (0, 21, -1, "three", True):
        with pytest.raises(InvalidOptionError, match="games") as info:
            new(4, 1, games=bad)
        assert isinstance(info.value, ValueError)
    # Game two starts at once after game one ends, with the next seat starting.
    state = position(["Y8 Y2", "R2 R4"], games=2, starter=1, turn=1)
    state.apply("R2>new")
    state.apply("Y8>new")
    state.apply("R4>1")  # seat 1 plays out: game 1 ends
    assert state.stage == 1 and not state.is_over and state.stage_scores == [(2, 30)]
    assert state.current_player == 0 == state.view(1).starter
    assert [len(h) for h in state.hands] == [15, 15]


# -- information ----------------------------------------------------------------------------------------------------


def test_h17_views_hide_unknown_cards_and_show_taken_ones() -> None:
    """H17: a view shows the own hand, every hand's size, the fate row and rows, the cards known from takes (minus
    those played since), the number of removed cards; nothing else of the other hands."""
    state = position(["G5 Y1 B4", "N9 R2 P4", "R8 B6"], rows=["G1 G9 G7 G4 G6"], fate="13 Y9 P5 B10")
    state.apply("G5>1")
    for seat in range(3):
        view = state.view(seat)
        assert isinstance(view, HolzwurmView)
        assert view.known == (cards_of("G1 G4 G5 G6 G7 G9 B10"), (), ())
        assert view.hand_sizes == (9, 3, 2) and view.removed == 66 - 3 - 14
        assert view.fate == cards_of("13 Y9 P5")
    assert state.view(0).hand == cards_of("Y1 G1 G4 G5 G6 G7 G9 B4 B10")
    assert state.view(1).hand == cards_of("R2 P4 N9")
    state.apply("N9>new")
    state.apply("R8>new")
    state.apply("G9>new")  # a card taken and played again is no longer known in the hand
    assert state.view(1).known[0] == cards_of("G1 G4 G5 G6 G7 B10")
    # The other seats' unknown cards are hidden: dealing them anew changes no view of the seat.
    rng = random.Random(2)
    for seat in range(3):
        view = state.view(seat)
        for _ in range(5):
            hidden = state.resample_hidden(seat, rng)
            assert hidden.view(seat) == view
            assert set(hidden.hands[0]) >= set(cards("G1 G4 G5 G6 G7 B10"))
            assert sorted(hidden.all_cards()) == list(range(66))
            sampled = Holzwurm(3, {"games": 1}).sample_state(view, rng)
            assert sampled.view(seat) == view
            assert sorted(sampled.all_cards()) == list(range(66))
    # Views of different seats differ only where the information does: the own hand and legal actions.
    a, b = state.view(1), state.view(2)
    assert (a.hand, a.seat) != (b.hand, b.seat) and a.rows == b.rows and a.known == b.known
    # A fresh deal: nobody knows anything of the others' hands.
    fresh = new(4, 8)
    view = fresh.view(2)
    assert view.known == ((), (), (), ()) and view.hand_sizes == (15,) * 4 and len(view.hand) == 15
    assert fresh.resample_hidden(2, rng).view(2) == view
    assert fresh.resample_hidden(2, rng).hands[2] == fresh.hands[2]
    assert fresh.view(0) != view


def test_h17_sampling_is_uniform_over_the_unseen_pool() -> None:
    """H17: a sampled state deals the unseen pool (not the known cards) to the other seats and the removed pile."""
    state = new(2, 21)
    view = state.view(0)
    game = Holzwurm(2)
    rng = random.Random(5)
    seen_in_opponent: set[int] = set()
    for _ in range(200):
        sampled = game.sample_state(view, rng)
        assert sampled.view(0) == view and sampled.hands[0] == state.hands[0]
        assert len(sampled.removed) == 30 and len(sampled.hands[1]) == 15
        seen_in_opponent |= set(sampled.hands[1])
    pool = set(range(65)) - set(state.hands[0]) - set(state.fate)
    assert seen_in_opponent == pool  # every unseen card can turn up in the other hand
    # the sampled game goes on from the view, with its own future shuffles
    sampled = game.sample_state(view, rng)
    sampled.apply(sampled.legal_actions()[0])
    assert sampled.log == [*state.log, (0, sampled.log[-1][1])]


def test_h17_sampling_an_over_match_agrees_with_its_view() -> None:
    state = new(3, 2, games=1)
    rng = random.Random(0)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    for seat in range(3):
        view = state.view(seat)
        assert view.is_over and view.legal_actions == ()
        assert state.game.sample_state(view, rng).view(seat) == view


# -- notation, bad input, records ----------------------------------------------------------------------------------


def test_action_notation() -> None:
    """Action numbers card*6 + destination; texts Y5>2 and Y5>new."""
    assert len(HolzwurmAction.all()) == 390 == Holzwurm(4).num_actions
    assert HolzwurmAction.parse("Y1>1") == 0 and HolzwurmAction.parse("Y1>new") == 5
    assert HolzwurmAction.parse("Y5>2") == 4 * 6 + 1 and HolzwurmAction.of(389).text == "N11>new"
    action = HolzwurmAction.parse(" y5 > NEW ")
    assert action.text == "Y5>new" and action.card == HolzwurmCard.parse("Y5") and action.destination == 5
    assert HolzwurmAction.parse("b11>3").text == "B11>3"


@pytest.mark.parametrize(
    ("text", "words"),
    [("X5>1", "'X5' is not a woodworm card"), ("Y12>1", "not a woodworm card"), ("N1>new", "not a woodworm card"),
     ("Y5>6", "'6' is not a row"), ("Y5>0", "is not a row"), ("Y5>", "is not a row"), ("Y5", "does not say where"),
     ("13>new", "thirteen is never played"), ("", "not a play"), ("new", "not a play")],
)
def test_bad_action_texts(text: str, words: str) -> None:
    state = new(3, 1)
    assert isinstance(state, HolzwurmState)
    refuse(state, text, InvalidActionError, words)
    for number in (-1, 390, 10**6):
        refuse(state, number, InvalidActionError, "is not an action number")


def test_bad_players_and_options() -> None:
    """Bad player counts and options raise ValueError subclasses with clear messages."""
    for players in (1, 7):
        with pytest.raises(ValueError, match=f"2 to 6 players, not {players}"):
            load_game("holzwurm", players)
    with pytest.raises(ValueError, match="must be a whole number from 1 to 20, not 0"):
        load_game("holzwurm", 4, {"games": 0})
    with pytest.raises(ValueError, match=r"must be a seat from 0 to 3 or 'random', not 9"):
        load_game("holzwurm", 4, {"starter": 9})
    with pytest.raises(ValueError, match="has no option 'rounds'"):
        load_game("holzwurm", 4, {"rounds": 2})
    assert load_game("holzwurm", 6, {"starter": 5, "games": "20"}).options == {"games": 20, "starter": 5}


def test_records_replay_from_the_shuffles() -> None:
    """A record replays card for card: its shuffles give the deal as docs/games/holzwurm.md describes."""
    rng = random.Random(7)
    state = new(3, 99, games=2, starter="random")
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    text = dumps(state)
    replayed = loads(text)
    assert replayed.log == state.log and replayed.view(0) == state.view(0)
    # Rebuild the current deal by hand from the last shuffle, as the docs say.
    assert isinstance(replayed, HolzwurmState)
    players, starter = 3, (int(state.options["starter"]) + state.stage) % 3
    order = state.shuffles[-1]
    fate = [THIRTEEN, *sorted(order[:5], key=lambda k: (CARD_POINTS[k], k))]
    hands: list[list[int]] = [[] for _ in range(players)]
    for i, card in enumerate(order[5 : 5 + 15 * players]):
        hands[(starter + i) % players].append(card)
    fresh_state = load_game("holzwurm", 3, {"starter": starter}).new_state(0, shuffles=[order])
    assert isinstance(fresh_state, HolzwurmState)
    assert fresh_state.fate == fate and [sorted(h) for h in hands] == fresh_state.hands
    assert fresh_state.removed == list(order[50:]) and fresh_state.current_player == starter


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_random_games_keep_the_invariants(seed: int, players: int) -> None:
    """Any random game: rows are legal (H9–H12), cards are conserved, copies are independent."""
    rng = random.Random(seed)
    state = new(players, seed, games=1)
    assert isinstance(state, HolzwurmState)
    while not state.is_over:
        for slot, row in enumerate(state.rows):
            for i, k in enumerate(row):
                assert k != THIRTEEN and HolzwurmCard.of(k).value > i
            colours = {CARD_COLOUR[k] for k in row} - {5}
            assert len(colours) <= 1
            assert state.row_colour[slot] == (colours.pop() if colours else -1)
        assert state.fate[0] == THIRTEEN and 1 <= len(state.fate) <= 6
        copy = state.copy()
        before = snapshot(copy)
        state.apply(rng.choice(state.legal_actions()))
        assert snapshot(copy) == before and copy.log != state.log
    final = state.stage_scores[0]
    out = [seat for seat in range(players) if not state.hands[seat]]
    assert len(out) <= 1 and all(final[s] == 30 for s in out)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance(players: int) -> None:
    """Every invariant of the project's conformance checks, on three random matches of two games each."""
    report = check_game("holzwurm", players=players, options={"games": 2}, games=3, seed=players)
    assert report.games == 3 and report.actions > 0 and report.samples > 0
