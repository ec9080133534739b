"""The ``heuristic`` bot: legal from views alone, deterministic given its rng, and following each rulebook's advice.

Its strength (one heuristic against three random bots) is measured in ``benchmarks/strength.py``, never
asserted here on a few games.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

import dreizehn
from dreizehn.bots.heuristic import HeuristicBot
from dreizehn.bots.random_bot import random_action
from dreizehn.core.game import State
from dreizehn.core.registry import load_game
from dreizehn.games.holzwurm import CARD_COLOUR as HZ_COLOUR
from dreizehn.games.holzwurm import HolzwurmAction, HolzwurmCard, HolzwurmState
from dreizehn.games.knizia13 import CARD_VALUE as K_VALUE
from dreizehn.games.knizia13 import Knizia13Action, Knizia13Card, Knizia13State
from dreizehn.games.three_thirteen import (
    OUT,
    ThreeThirteenAction,
    ThreeThirteenCard,
    ThreeThirteenState,
    ThreeThirteenView,
)

PLAYER_COUNTS = {"knizia13": range(3, 7), "three-thirteen": range(2, 9), "holzwurm": range(2, 7)}
OPTIONS: dict[str, dict[str, object]] = {
    "knizia13": {},
    "three-thirteen": {"stock_out": "end-round"},
    "holzwurm": {"games": 2},
}
POSITIONS = 200


def positions(game_id: str, players: int, count: int, options: dict[str, object]) -> Iterator[State]:
    """``count`` positions reached by random play (the heuristic playing one seat now and then), spread over whole
    games, including their later stages."""
    game = load_game(game_id, players, options)
    rng = random.Random(f"{game_id}:{players}")
    seen = 0
    seed = 0
    bot = HeuristicBot(game)
    while seen < count:
        state = game.new_state(seed)
        seed += 1
        heuristic_seat = seed % players
        while not state.is_over and seen < count:
            seat = state.current_player
            view = state.view(seat)
            if rng.random() < 0.08:
                seen += 1
                yield state
            if seat == heuristic_seat:
                state.apply(bot.act(view, rng))
            else:
                state.apply(random_action(view, rng))


CASES = [(game_id, n) for game_id, counts in PLAYER_COUNTS.items() for n in counts]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_legal_in_random_positions(game_id: str, players: int) -> None:
    game = load_game(game_id, players, OPTIONS[game_id])
    bot = HeuristicBot(game)
    for i, state in enumerate(positions(game_id, players, POSITIONS, OPTIONS[game_id])):
        view = state.view(state.current_player)
        action = bot.act(view, random.Random(i))
        assert action in view.legal_actions, (game_id, players, i, action)
        assert bot.act(view, random.Random(i)) == action  # deterministic given the rng


@pytest.mark.parametrize("game_id", list(PLAYER_COUNTS))
def test_decides_from_a_copied_view_alone(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game(game_id, 4, OPTIONS[game_id])
    bot = HeuristicBot(game)
    checked = 0
    for i, state in enumerate(positions(game_id, 4, 30, OPTIONS[game_id])):
        original = state.view(state.current_player)
        view = dataclasses.replace(original)  # a fresh copy: no state object reachable from it
        assert view == original
        expected = bot.act(original, random.Random(i))
        cls = type(state)
        del state
        with monkeypatch.context() as patch:
            for name in ("view", "legal_actions", "copy", "apply", "_apply"):
                patch.setattr(cls, name, _forbidden)
            action = bot.act(view, random.Random(i))
        assert action == expected
        assert action in view.legal_actions
        checked += 1
    assert checked == 30


def _forbidden(*args: object, **kwargs: object) -> None:
    raise AssertionError("the heuristic bot touched a game state")


def test_not_to_move_is_refused() -> None:
    state = dreizehn.new_game("knizia13", players=4, seed=1)
    bot = HeuristicBot(state.game)
    with pytest.raises(ValueError, match="not to move"):
        bot.act(state.view((state.current_player + 1) % 4), random.Random(0))


def test_ties_are_broken_by_the_rng() -> None:
    # Two nasty fours onto empty targets of the same kind: several equally good plays, varied by the rng.
    state = knizia13_position(["R4 R4 R4 R4 R4"], targets=["", "", ""])
    view = state.view(0)
    bot = HeuristicBot(state.game)
    assert len({bot.act(view, random.Random(seed)) for seed in range(40)}) > 1


# -- 13 ------------------------------------------------------------------------------------------------------------


def knizia13_position(hands: list[str], targets: list[str], players: int = 4) -> Knizia13State:
    """Seat 0 to move with the given hand; the targets hold the given cards; other hands keep what was dealt."""
    state = dreizehn.load_game("knizia13", players).new_state(0)
    assert isinstance(state, Knizia13State)
    for seat, hand in enumerate(hands):
        state.hands[seat] = [int(Knizia13Card.parse(t)) for t in hand.split()]
    state.targets = [[int(Knizia13Card.parse(t)) for t in target.split()] for target in targets]
    state.sums = [sum(K_VALUE[k] for k in target) for target in state.targets]
    state.turn = 0
    return state


def knizia13_play(state: Knizia13State, seed: int = 0) -> str:
    return Knizia13Action.of(HeuristicBot(state.game).act(state.view(0), random.Random(seed))).text


def test_knizia13_never_over_13_when_a_safe_play_exists() -> None:
    # Blue at 12, yellow at 13, green at 11: only the G2 fits; everything else takes a target.
    state = knizia13_position(["B7 B5 Y1 G2 R4"], targets=["B5 B7", "Y7 Y5 Y1", "G7 G4"])
    for seed in range(20):
        assert knizia13_play(state, seed) == "G2"


def test_knizia13_safe_plays_over_random_positions() -> None:
    game = load_game("knizia13", 4)
    bot = HeuristicBot(game)
    for i, state in enumerate(positions("knizia13", 4, 300, {})):
        assert isinstance(state, Knizia13State)
        view = state.view(state.current_player)
        action = Knizia13Action.of(bot.act(view, random.Random(i)))
        sums = state.sums
        plays = [Knizia13Action.of(a) for a in view.legal_actions]
        safe = [a for a in plays if sums[a.target] + K_VALUE[a.card] <= 13]
        if safe:
            assert action in safe


def test_knizia13_takes_the_cheapest_target() -> None:
    # Every play goes over 13; blue holds two nasty fours (4 points), yellow three yellow cards, green one card.
    state = knizia13_position(["B7 Y7 G7 G5 B5"], targets=["R4 R4 B5", "Y7 Y5 Y1", "G7 G5"])
    assert knizia13_play(state) in ("G7", "G5")


def test_knizia13_dumps_a_nasty_four_onto_a_tight_target() -> None:
    # A nasty four fits blue (9 -> 13) or yellow/green (0 -> 4): it goes where the next player is forced over.
    state = knizia13_position(["R4 B1 Y1 G1 G2"], targets=["B7 B2", "", ""])
    assert knizia13_play(state) == "R4>B"


# -- Three Thirteen ------------------------------------------------------------------------------------------------


def cards33(text: str) -> list[int]:
    return sorted(int(ThreeThirteenCard.parse(t)) for t in text.split())


def three_thirteen_position(hand: str, pile: str, *, drawn: bool, round_no: int = 5) -> ThreeThirteenState:
    """Seat to move holds ``hand`` (``round_no + 2`` cards, or one more once ``drawn``) in round ``round_no``."""
    state = dreizehn.new_game("three-thirteen", players=4, seed=0)
    assert isinstance(state, ThreeThirteenState)
    state.round_no = round_no - 1
    state.wild = round_no + 2
    seat = state.turn
    state.hands[seat] = cards33(hand)
    state.pile = [int(ThreeThirteenCard.parse(t)) for t in pile.split()]
    state.drawn = drawn
    state._outs = None
    return state


def three_thirteen_act(state: ThreeThirteenState, seed: int = 0) -> str:
    view = state.view(state.turn)
    action = HeuristicBot(state.game).act(view, random.Random(seed))
    assert action in view.legal_actions
    return ThreeThirteenAction.of(action).text


def test_three_thirteen_goes_out_when_it_can() -> None:
    # Round 5 (7s wild), 8 cards after the draw: A-2-3 of clubs, three 9s and a wild 7; the 5H goes.
    state = three_thirteen_position("AC 2C 3C 9D 9H 9S 7S 5H", "4D", drawn=True)
    assert any(a.text.startswith("out") for a in state.legal_actions())
    for seed in range(10):
        assert three_thirteen_act(state, seed).startswith("out ")
    # With two ways out, it discards the highest card.
    state.hands[state.turn] = cards33("AC 2C 3C 9D 9H 9S 9C KD")
    state._outs = None
    assert three_thirteen_act(state) == "out KD"


@pytest.mark.parametrize("option", ["allowed", "forbidden"])
def test_three_thirteen_goes_out_under_all_wild_melds(option: str) -> None:
    """T7/T8: round 1, 3C 3D 3H 9S after the draw: under allowed it goes out discarding the 9S (the 3s a meld of wild
    cards only); under forbidden the 9S must head the 3s, so one 3 goes."""
    state = dreizehn.new_game("three-thirteen", players=2, seed=0, all_wild_melds=option)
    assert isinstance(state, ThreeThirteenState)
    state.hands[state.turn] = cards33("3C 3D 3H 9S")
    state.drawn = True
    state._outs = None
    assert three_thirteen_act(state) == ("out 9S" if option == "allowed" else "out 3H")


def test_three_thirteen_plays_whole_games_under_forbidden() -> None:
    """T7 (all_wild_melds=forbidden): heuristic players finish whole games with legal actions, and the game's scores
    follow the option (a hand of wild cards only is unmatched)."""
    game = load_game("three-thirteen", 3, {"all_wild_melds": "forbidden"})
    bot = HeuristicBot(game)
    rng = random.Random(7)
    for seed in range(2):
        state = game.new_state(seed)
        while not state.is_over:
            view = state.view(state.current_player)
            action = bot.act(view, rng)
            assert action in view.legal_actions
            state.apply(action)
        assert len(state.stage_scores) == 11


def test_three_thirteen_takes_a_discard_that_completes_a_meld() -> None:
    # Round 5 (7s wild): 8H 9H wait for the 10H; the top discard is the 10H.
    state = three_thirteen_position("8H 9H 2C 5D KS JD QC", "3S 10H", drawn=False)
    assert three_thirteen_act(state) == "take"
    # A card that builds nothing is not taken: the stock instead.
    state = three_thirteen_position("8H 9H 2C 5D KS JD QC", "3S 4C", drawn=False)
    assert three_thirteen_act(state) == "draw"
    # A wild card is always taken.
    state = three_thirteen_position("8H 9H 2C 5D KS JD QC", "3S 7D", drawn=False)
    assert three_thirteen_act(state) == "take"


def test_three_thirteen_discards_high_deadwood_and_keeps_wild_cards() -> None:
    # Round 5 (7s wild), 8 cards after the draw: 8H 9H 7C make a run; A-A pair; KS alone is the deadwood to go.
    state = three_thirteen_position("", "3S", drawn=True)
    state.hands[state.turn] = cards33("8H 9H 7C AC AD KS 2D 3S")
    assert three_thirteen_act(state) == "discard KS"
    # Even when every other card melds, the wild card stays.
    state.hands[state.turn] = cards33("7C 7D KS KH KD QC QD QH")
    state._outs = None
    assert three_thirteen_act(state) in ("out KS", "out KH", "out KD", "out QC", "out QD", "out QH")


# -- Holzwurm ------------------------------------------------------------------------------------------------------


def holzwurm_position(hands: list[str], rows: list[str], fate: str = "13 P11 P9 P6 P8 P10") -> HolzwurmState:
    """Seat 0 to move; hands per seat, rows per slot; every other card removed unseen (cards conserved)."""
    state = load_game("holzwurm", len(hands), {"games": 1}).new_state(0)
    assert isinstance(state, HolzwurmState)
    state.hands = [sorted(int(HolzwurmCard.parse(t)) for t in h.split()) for h in hands]
    slots = [tuple(int(HolzwurmCard.parse(t)) for t in r.split()) for r in rows] + [()] * (5 - len(rows))
    state.rows = slots
    state.row_colour = [next((HZ_COLOUR[k] for k in row if HZ_COLOUR[k] < 5), -1) for row in slots]
    state._index_rows()
    state.fate = [int(HolzwurmCard.parse(t)) for t in fate.split()]
    used = {k for h in state.hands for k in h} | {k for row in slots for k in row} | set(state.fate)
    state.removed = [k for k in range(66) if k not in used]
    state.known = [0] * len(hands)
    state.turn = 0
    return state


def holzwurm_play(state: HolzwurmState, seed: int = 0) -> str:
    view = state.view(0)
    action = HeuristicBot(state.game).act(view, random.Random(seed))
    assert action in view.legal_actions
    return HolzwurmAction.of(action).text


OTHERS = ["G2 G3 G4 G5 G6 G7", "P2 P3 P4 P5 P6 P7", "B2 B3 B4 B5 B6 B7"]


def _takes(state: HolzwurmState, text: str) -> bool:
    action = HolzwurmAction.parse(text)
    row = state.rows[action.destination] if action.destination < 5 else ()
    return bool(row) and action.card.value <= len(row)


@pytest.mark.parametrize("players", [2, 4])
def test_three_thirteen_ranking_puts_the_heuristics_discard_first(players: int) -> None:
    # The ranking ismcts:prune uses orders the discards the heuristic weighs, its own choice first (ties aside).
    from dreizehn.games.three_thirteen.heuristic import discard_scores, rank

    game = load_game("three-thirteen", players)
    rng = random.Random(players)
    ranked_positions = 0
    for seed in range(6):
        state = game.new_state(seed)
        while not state.is_over:
            view = state.view(state.current_player)
            ranked = rank(view)
            assert isinstance(view, ThreeThirteenView)
            if not view.drawn or any(a >= OUT for a in view.legal_actions):
                assert ranked is None
            else:
                ranked_positions += 1
                assert ranked is not None
                hand = [int(c) for c in view.hand]
                aces = view.options.get("aces") == "low-or-high"
                discards, scores = discard_scores(hand, view, view.legal_actions, view.wild_rank, aces)
                assert sorted(ranked) == sorted(discards)
                assert set(ranked) <= set(view.legal_actions)
                by_action = dict(zip(discards, scores, strict=True))
                assert [by_action[a] for a in ranked] == sorted(scores, reverse=True)
                chosen = HeuristicBot(game).act(view, random.Random(0))
                assert by_action[chosen] == by_action[ranked[0]]
            state.apply(HeuristicBot(game).act(view, rng))
    assert ranked_positions > 100


def test_holzwurm_low_plus_hand_plays_a_low_card_rather_than_taking_a_row() -> None:
    # Plus cards worth 2 + 4 = 6 (< 30): go out. The yellow row is 4 long, so Y3 and Y4 would take it; the red row
    # is 1 long, so R2 fits; Y1 and the grey cards fit elsewhere too.
    state = holzwurm_position(["Y3 R2 Y4 R5 R7 N3", *OTHERS], ["Y11 Y9 Y10 Y8", "R11"])
    for seed in range(10):
        play = holzwurm_play(state, seed)
        assert not _takes(state, play), play
        assert play == "R2>2"  # the lowest card where it still fits


def test_holzwurm_collector_plays_minus_cards_first() -> None:
    # Plus cards worth 10 + 10 + 8 + 8 = 36: collect points, so the -11 goes first and the row is not taken.
    state = holzwurm_position(["R10 N10 R8 N8 R11 N3", *OTHERS], ["Y11 Y9 Y10 Y8"])
    assert holzwurm_play(state) in ("R11>new", "R11>1")
    assert holzwurm_play(state) == "R11>new"


def test_holzwurm_takes_a_rich_row_when_collecting() -> None:
    # A short yellow row full of plus cards and a +10 on top of the fate row: a collector takes it with the Y1.
    state = holzwurm_position(["Y1 R10 N10 R8 N8 R4", *OTHERS], ["Y10 Y8 Y6"])
    assert holzwurm_play(state) == "Y1>1"


def test_holzwurm_plays_its_last_card() -> None:
    state = holzwurm_position(["R3", *OTHERS], ["Y11 Y9 Y10 Y8"])
    assert holzwurm_play(state) == "R3>new"


def test_holzwurm_leaves_the_thirteen_when_behind() -> None:
    # Only the thirteen is left in the fate row: taking the yellow row would end the game with -13 for us.
    state = holzwurm_position(["Y1 R3 R5 B9", *OTHERS], ["Y11 Y9"], fate="13")
    assert not _takes(state, holzwurm_play(state))
