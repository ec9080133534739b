"""The record format is documented well enough to replay a game without this package.

The replayers below were written only from ``docs/record-format.md``, ``docs/notation.md``, ``docs/games/*.md`` and
the rules in ``shared/rules/*.md``: they do not import ``dreizehn`` and share no code with it. They parse a record,
deal every stage from the record's shuffles as the docs say, check and apply every action, score every stage, and
compare ``stage_scores``, ``totals``, ``over`` and ``winners`` with the record. Only the tests at the bottom use
``dreizehn``, and only to produce records from seeded random play (and to find actions the rules forbid).
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NoReturn

import pytest

# ======================================================================================================================
# The independent replayers (no ``dreizehn`` below this line until the tests)
# ======================================================================================================================


class ReplayError(Exception):
    """The record is invalid: the message says what the replay found first."""


def fail(message: str) -> NoReturn:
    raise ReplayError(message)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class Replayed:
    """What a replay gives: the scores of each finished stage and whether the game is over."""

    stage_scores: list[list[int]]
    over: bool
    events: Counter[str] = field(default_factory=Counter)  # how stages ended, reshuffles: for the tests' coverage


class Shuffles:
    """The record's shuffles, handed out in order; each must be an order of exactly the cards being shuffled."""

    def __init__(self, shuffles: list[list[str]]) -> None:
        self.shuffles = shuffles
        self.used = 0

    def next(self, cards: Counter[str], parse: Callable[[str], str]) -> list[str]:
        """The next shuffle, its cards in canonical text, top card first; ``cards`` is what is being shuffled."""
        if self.used >= len(self.shuffles):
            fail(f"too few shuffles (shuffle {self.used + 1} is missing)")
        order = [parse(text) for text in self.shuffles[self.used]]
        self.used += 1
        if Counter(order) != cards:
            fail(f"shuffle {self.used} is not an order of the {sum(cards.values())} cards being shuffled")
        return order

    def check_all_used(self) -> None:
        if self.used != len(self.shuffles):
            fail(f"{len(self.shuffles) - self.used} shuffle(s) more than the game made")


Actions = list[tuple[int, str]]
GameReplayer = Callable[[int, dict[str, Any], Shuffles, Actions], Replayed]


def check_seat_option(options: dict[str, Any], name: str, players: int) -> int:
    value = options[name]
    if not is_int(value) or not 0 <= value < players:
        fail(f"option {name!r} must be the seat (0 .. {players - 1}), not {value!r}")
    return int(value)


def check_option_names(options: dict[str, Any], names: set[str]) -> None:
    if set(options) != names:
        fail(f"the options must be exactly {sorted(names)}, not {sorted(options)}")


# ----------------------------------------------------------------------------------------------------------------------
# 13 (knizia13): K1-K18, docs/games/knizia13.md
# ----------------------------------------------------------------------------------------------------------------------

K13_COLOURS = "BYG"
K13_VALUES = (1, 2, 4, 5, 7)


def k13_deck() -> Counter[str]:
    deck: Counter[str] = Counter()
    for colour in K13_COLOURS:  # K1: two 4s and three each of 1, 2, 5, 7 per colour
        for value in K13_VALUES:
            deck[f"{colour}{value}"] = 2 if value == 4 else 3
    deck["R4"] = 8  # K2
    return deck


def k13_card(text: str) -> str:
    card = text.strip().upper()
    if card != "R4" and not (len(card) == 2 and card[0] in K13_COLOURS and card[1:] in {"1", "2", "4", "5", "7"}):
        fail(f"{text!r} is not a card of 13")
    return card


def k13_action(text: str) -> tuple[str, str]:
    """(card, target letter) of a play; a colour card's target must be its own (K10), a nasty four needs one."""
    card_text, _, target = text.strip().upper().partition(">")
    card = k13_card(card_text)
    if card == "R4":
        if target not in ("B", "Y", "G"):
            fail(f"{text!r}: a nasty four needs a target (K10)")
        return card, target
    if target not in ("", card[0]):
        fail(f"{text!r}: a colour card may only be played on its own target (K10)")
    return card, card[0]


def replay_knizia13(players: int, options: dict[str, Any], shuffles: Shuffles, actions: Actions) -> Replayed:
    if not 3 <= players <= 6:
        fail(f"13 is for 3 to 6 players, not {players} (K4)")
    check_option_names(options, {"dealer", "open_piles"})
    first_dealer = check_seat_option(options, "dealer", players)
    if not isinstance(options["open_piles"], bool):
        fail("option 'open_piles' must be true or false")
    stages = 6 if players == 3 else players  # K5
    deck = k13_deck()
    scores: list[list[int]] = []

    hands: list[Counter[str]] = []
    stock: list[str] = []
    targets: dict[str, list[str]] = {}
    taken: list[list[str]] = []
    to_move = 0
    plays = 0

    def deal(stage: int) -> None:
        nonlocal hands, stock, targets, taken, to_move, plays
        order = shuffles.next(deck, k13_card)
        dealer = (first_dealer + stage) % players
        first = (dealer + 1) % players
        hands = [Counter() for _ in range(players)]
        for i, card in enumerate(order[: 5 * players]):  # 5 cards one at a time from the dealer's left (K7)
            hands[(first + i) % players][card] += 1
        stock = order[5 * players:]  # the next card drawn is the shuffle's card 5n
        stock.reverse()  # so that pop() draws the top card
        targets = {colour: [] for colour in K13_COLOURS}
        taken = [[] for _ in range(players)]
        to_move = first  # K8
        plays = 0

    def score() -> list[int]:  # K14, K15
        counts = [Counter(card[0] for card in pile) for pile in taken]
        points = [2 * count["R"] for count in counts]
        for colour in K13_COLOURS:
            most = max(count[colour] for count in counts)
            holders = [seat for seat in range(players) if counts[seat][colour] == most]
            for seat in range(players):
                if not (len(holders) == 1 and holders[0] == seat):
                    points[seat] += counts[seat][colour]
        return points

    stage = 0
    deal(stage)
    for number, (seat, text) in enumerate(actions, 1):
        if stage >= stages:
            fail(f"action {number} ({text!r}) comes after the game ended")
        if seat != to_move:
            fail(f"action {number} ({text!r}) is by seat {seat}, but it was seat {to_move}'s turn")
        card, target = k13_action(text)
        if hands[seat][card] == 0:
            fail(f"action {number} ({text!r} by seat {seat}) is illegal: seat {seat} holds no {card} (K9)")
        hands[seat][card] -= 1
        pile = targets[target]
        if sum(int(c[1:]) for c in pile) + int(card[1:]) > 13:  # K11: over 13 takes what lay there before
            taken[seat].extend(pile)
            targets[target] = [card]
        else:
            pile.append(card)
        if stock:  # K9
            hands[seat][stock.pop()] += 1
        plays += 1
        to_move = (seat + 1) % players
        if plays == 50:  # K13
            assert not stock and all(sum(hand.values()) == 0 for hand in hands)
            scores.append(score())
            stage += 1
            if stage < stages:
                deal(stage)
    return Replayed(scores, stage >= stages)


# ----------------------------------------------------------------------------------------------------------------------
# Three Thirteen: T1-T13, docs/games/three-thirteen.md
# ----------------------------------------------------------------------------------------------------------------------

TT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # rank r (1..13) is TT_RANKS[r - 1]
TT_SUITS = "CDHS"

Card = tuple[int, int]  # (rank 1..13, suit 0..3)


def tt_card(text: str) -> str:
    """The canonical text of a card text (``T`` is read as 10)."""
    upper = text.strip().upper()
    rank, suit = upper[:-1], upper[-1:]
    if rank == "T":
        rank = "10"
    if rank not in TT_RANKS or suit == "" or suit not in TT_SUITS:
        fail(f"{text!r} is not a card of Three Thirteen")
    return rank + suit


def tt_parts(text: str) -> Card:
    return TT_RANKS.index(text[:-1]) + 1, TT_SUITS.index(text[-1])


def tt_cost(rank: int, aces_high: bool) -> int:
    """T11: A 1 (15 under low-or-high), 2 .. 10 their number, J Q K 10."""
    if rank == 1:
        return 15 if aces_high else 1
    return min(rank, 10)


def tt_melds_with(first: Card, rest: tuple[Card, ...], jokers: int, aces_high: bool) -> Iterator[tuple[Counter[Card],
                                                                                                       int]]:
    """Every meld that contains the natural card ``first``, drawn from ``rest`` and up to ``jokers`` wild cards:
    (the natural cards of ``rest`` it uses, the number of wild cards it uses). Brute force, duplicates allowed."""
    rank, suit = first
    available = Counter(rest)
    # Sets (T7): three or more cards of one rank; wild cards stand for any card of it.
    same_rank = sorted(card for card in available if card[0] == rank)
    for counts in itertools.product(*(range(available[card] + 1) for card in same_rank)):
        used = Counter({card: count for card, count in zip(same_rank, counts, strict=True) if count})
        for wild in range(jokers + 1):
            if 1 + sum(counts) + wild >= 3:
                yield used, wild
    # Runs (T2, T7): three or more consecutive ranks of one suit; position 14 is an ace above the king (low-or-high).
    top = 14 if aces_high else 13
    own_positions = [rank] + ([14] if rank == 1 and aces_high else [])
    for own in own_positions:
        for low in range(1, own + 1):
            for high in range(max(own, low + 2), top + 1):
                if low == 1 and high == 14:
                    continue  # an ace cannot be both ends: no wrap-around
                others = [position for position in range(low, high + 1) if position != own]
                naturals = [(position if position <= 13 else 1, suit) for position in others]
                must_be_wild = sum(1 for card in naturals if available[card] == 0)
                if must_be_wild > jokers:
                    continue
                choices = [(True, False) if available[card] else (False,) for card in naturals]
                for pick in itertools.product(*choices):
                    wild = sum(1 for natural in pick if not natural)
                    if wild <= jokers:
                        yield Counter(card for card, natural in zip(naturals, pick, strict=True) if natural), wild


@cache
def tt_min_penalty(naturals: tuple[Card, ...], jokers: int, wild_rank: int, aces_high: bool,
                   all_wild: bool = True) -> int:
    """T11: the fewest penalty points of a hand: ``naturals`` (sorted) are its cards not of the wild rank, ``jokers``
    the number of its wild cards. A wild card may stand for any card (itself included), so every card of the wild rank
    is a joker here. Slow and simple: the first natural card is either unmatched, or in some meld that contains it;
    the jokers left at the end make one meld of jokers only (three or more), which T7's ``all_wild_melds=forbidden``
    does not allow (each meld needs a card not of the wild rank): then they are unmatched."""
    if not naturals:
        return 0 if jokers >= 3 and all_wild else jokers * tt_cost(wild_rank, aces_high)
    first, rest = naturals[0], naturals[1:]
    best = tt_cost(first[0], aces_high) + tt_min_penalty(rest, jokers, wild_rank, aces_high, all_wild)
    for used, wild in tt_melds_with(first, rest, jokers, aces_high):
        remaining = tuple(sorted((Counter(rest) - used).elements()))
        best = min(best, tt_min_penalty(remaining, jokers - wild, wild_rank, aces_high, all_wild))
        if best == 0:
            break
    return best


def tt_hand_penalty(hand: Counter[str], wild_rank: int, aces_high: bool, all_wild: bool = True) -> int:
    cards = [tt_parts(text) for text in hand.elements()]
    naturals = tuple(sorted(card for card in cards if card[0] != wild_rank))
    return tt_min_penalty(naturals, len(cards) - len(naturals), wild_rank, aces_high, all_wild)


def tt_min_decks(players: int) -> int:
    if players == 2:
        return 1
    if players <= 4:
        return 2
    decks = 1
    while 52 * decks < 13 * players + 27:
        decks += 1
    return decks


@dataclass
class TTRound:
    wild: int
    hands: list[Counter[str]]
    pile: list[str]  # bottom to top
    stock: list[str]  # bottom to top: pop() draws
    to_move: int
    drawn: bool = False
    out: set[int] = field(default_factory=set)
    turns_left: int = -1  # once someone went out: the other players' last turns still to play
    turns: int = 0  # the turns of this round that are over, every seat's (T10 turn_limit)


def replay_three_thirteen(players: int, options: dict[str, Any], shuffles: Shuffles, actions: Actions) -> Replayed:
    if not 2 <= players <= 8:
        fail(f"Three Thirteen is for 2 to 8 players, not {players} (T1)")
    check_option_names(options, {"decks", "aces", "all_wild_melds", "stock_out", "dealer", "turn_limit"})
    decks = options["decks"]
    if not is_int(decks) or not 1 <= decks <= 12 or 52 * decks < 13 * players + 2:
        fail(f"option 'decks' cannot be {decks!r} with {players} players (T1)")
    if options["aces"] not in ("low", "low-or-high"):
        fail("option 'aces' must be 'low' or 'low-or-high' (T2)")
    if options["all_wild_melds"] not in ("allowed", "forbidden"):
        fail("option 'all_wild_melds' must be 'allowed' or 'forbidden' (T7)")
    if options["stock_out"] not in ("reshuffle", "end-round"):
        fail("option 'stock_out' must be 'reshuffle' or 'end-round' (T10)")
    turn_limit = options["turn_limit"]
    if not is_int(turn_limit) or not 0 <= turn_limit <= 100_000:
        fail(f"option 'turn_limit' must be 0 .. 100000, not {turn_limit!r} (T10)")
    first_dealer = check_seat_option(options, "dealer", players)
    aces_high = options["aces"] == "low-or-high"
    all_wild = options["all_wild_melds"] == "allowed"  # T7
    end_round_on_empty_stock = options["stock_out"] == "end-round"
    deck = Counter({rank + suit: int(decks) for rank in TT_RANKS for suit in TT_SUITS})
    scores: list[list[int]] = []
    events: Counter[str] = Counter()

    def deal(index: int) -> TTRound:
        order = shuffles.next(deck, tt_card)
        size = index + 3  # T3
        first = (first_dealer + index + 1) % players  # T4, T5
        hands: list[Counter[str]] = [Counter() for _ in range(players)]
        for i, card in enumerate(order[: size * players]):
            hands[(first + i) % players][card] += 1
        stock = order[size * players + 1:]
        stock.reverse()
        return TTRound(wild=size, hands=hands, pile=[order[size * players]], stock=stock, to_move=first)

    def end_round(state: TTRound) -> None:
        scores.append([0 if seat in state.out else tt_hand_penalty(state.hands[seat], state.wild, aces_high, all_wild)
                       for seat in range(players)])

    index = 0
    state: TTRound | None = deal(index)
    for number, (seat, text) in enumerate(actions, 1):
        if state is None:
            fail(f"action {number} ({text!r}) comes after the game ended")
        if seat != state.to_move:
            fail(f"action {number} ({text!r}) is by seat {seat}, but it was seat {state.to_move}'s turn")
        words = text.strip().lower().split()
        what = f"action {number} ({text!r} by seat {seat}) is illegal"
        hand = state.hands[seat]
        round_over = False
        if words in (["draw"], ["take"]):
            if state.drawn:
                fail(f"{what}: seat {seat} has drawn already (T6)")
            if words == ["take"]:
                if not state.pile:
                    fail(f"{what}: the discard pile is empty (T6)")
                hand[state.pile.pop()] += 1
            elif state.stock:
                hand[state.stock.pop()] += 1
            elif end_round_on_empty_stock:  # T10 end-round: the round ends at once, before any card is drawn
                round_over = True
                events["round ended at an empty stock"] += 1
            else:  # T10 reshuffle: the discard pile less its top card becomes the new stock, then the draw
                if len(state.pile) < 2:
                    fail(f"{what}: the stock is empty and there is nothing to reshuffle (T10)")
                order = shuffles.next(Counter(state.pile[:-1]), tt_card)
                state.pile = state.pile[-1:]
                events["reshuffle"] += 1
                state.stock = order[::-1]
                hand[state.stock.pop()] += 1
            state.drawn = True
        elif len(words) == 2 and words[0] in ("discard", "out"):
            card = tt_card(words[1])
            if not state.drawn:
                fail(f"{what}: draw first (T6)")
            if hand[card] == 0:
                fail(f"{what}: seat {seat} holds no {card} (T6)")
            hand[card] -= 1
            if words[0] == "out":  # T8: every other card melds
                if tt_hand_penalty(hand, state.wild, aces_high, all_wild) != 0:
                    fail(f"{what}: the cards do not all meld without the {card} (T8)")
                hand.clear()
                state.out.add(seat)
            state.pile.append(card)
            state.drawn = False
            if state.turns_left > 0:  # T9: one of the last turns is over
                state.turns_left -= 1
                round_over = state.turns_left == 0
                events["round ended after the last turns"] += round_over
            elif words[0] == "out":  # the first to go out: every other player has one more turn
                state.turns_left = players - 1
            state.turns += 1
            if turn_limit and state.turns == turn_limit and not round_over:  # T10: the round's last allowed turn
                round_over = True
                events["round ended at the turn limit"] += 1
            state.to_move = (seat + 1) % players
        else:
            fail(f"action {number} ({text!r}) is not an action of Three Thirteen")
        if round_over:
            end_round(state)
            index += 1
            state = deal(index) if index < 11 else None
    return Replayed(scores, state is None, events)


# ----------------------------------------------------------------------------------------------------------------------
# Der dreizehnte Holzwurm: H1-H17, docs/games/holzwurm.md
# ----------------------------------------------------------------------------------------------------------------------

HW_COLOURS = "YRGPB"


def hw_card(text: str) -> str:
    card = text.strip().upper()
    if card in ("13", "-13"):
        return "13"
    letter, value = card[:1], card[1:]
    if value.isdigit() and str(int(value)) == value:
        if letter in HW_COLOURS and 1 <= int(value) <= 11:
            return card
        if letter == "N" and 2 <= int(value) <= 11:
            return card
    fail(f"{text!r} is not a card of Holzwurm")


def hw_points(card: str) -> int:  # H3
    if card == "13":
        return -13
    value = int(card[1:])
    return value if value % 2 == 0 else -value


def hw_number(card: str) -> int:  # the card number, to order cards of equal points in the fate row
    value = int(card[1:])
    return 55 + value - 2 if card[0] == "N" else HW_COLOURS.index(card[0]) * 11 + value - 1


def hw_deck() -> Counter[str]:
    return Counter([f"{c}{v}" for c in HW_COLOURS for v in range(1, 12)] + [f"N{v}" for v in range(2, 12)])


@dataclass
class HWRow:
    colour: str | None  # a colour letter, or None for an open row (H11)
    cards: list[str]


def replay_holzwurm(players: int, options: dict[str, Any], shuffles: Shuffles, actions: Actions) -> Replayed:
    if not 2 <= players <= 6:
        fail(f"Holzwurm is for 2 to 6 players, not {players} (H5)")
    check_option_names(options, {"games", "starter"})
    games = options["games"]
    if not is_int(games) or not 1 <= games <= 20:
        fail(f"option 'games' must be 1 .. 20, not {games!r} (H16)")
    starter = check_seat_option(options, "starter", players)
    hand_size = {2: 15, 3: 15, 4: 15, 5: 12, 6: 10}[players]  # H6
    deck = hw_deck()
    scores: list[list[int]] = []
    events: Counter[str] = Counter()

    hands: list[Counter[str]] = []
    fate: list[str] = []  # bottom (the thirteen) to top
    rows: list[HWRow | None] = []
    to_move = 0

    def deal(game: int) -> None:
        nonlocal hands, fate, rows, to_move
        order = shuffles.next(deck, hw_card)
        fate = ["13", *sorted(order[:5], key=lambda card: (hw_points(card), hw_number(card)))]  # H5
        first = (starter + game) % players  # H7
        hands = [Counter() for _ in range(players)]
        for i, card in enumerate(order[5: 5 + hand_size * players]):
            hands[(first + i) % players][card] += 1
        rows = [None] * 5
        to_move = first

    def end_game(played_out: int | None) -> None:  # H15
        scores.append([sum(hw_points(card) * count for card, count in hands[seat].items())
                       + (30 if seat == played_out else 0) for seat in range(players)])

    game = 0
    deal(game)
    for number, (seat, text) in enumerate(actions, 1):
        if game >= games:
            fail(f"action {number} ({text!r}) comes after the match ended")
        if seat != to_move:
            fail(f"action {number} ({text!r}) is by seat {seat}, but it was seat {to_move}'s turn")
        what = f"action {number} ({text!r} by seat {seat}) is illegal"
        card_text, arrow, slot_text = text.replace(" ", "").partition(">")
        card = hw_card(card_text)
        slot_text = slot_text.lower()
        if not arrow or card == "13" or slot_text not in ("new", "1", "2", "3", "4", "5"):
            fail(f"action {number} ({text!r}) is not a play of Holzwurm")
        if hands[seat][card] == 0:
            fail(f"{what}: seat {seat} holds no {card} (H8)")
        colour = None if card[0] == "N" else card[0]
        own_row = next((i for i, row in enumerate(rows) if row is not None and colour and row.colour == colour), None)
        if slot_text == "new":
            if all(row is not None for row in rows):
                fail(f"{what}: five rows lie already (H9)")
            if own_row is not None:
                fail(f"{what}: a row of its colour lies (H10)")
            slot = rows.index(None)  # the lowest free slot
            rows[slot] = HWRow(colour, [])
        else:
            slot = int(slot_text) - 1
            target = rows[slot]
            if target is None:
                fail(f"{what}: no row {slot + 1} lies on the table (H8)")
            if colour is not None and own_row is not None and own_row != slot:
                fail(f"{what}: it may only go onto the row of its colour (H10)")
            if colour is not None and own_row is None and target.colour is not None:
                fail(f"{what}: row {slot + 1} has another colour (H10)")
        row = rows[slot]
        assert row is not None
        hands[seat][card] -= 1
        to_move = (seat + 1) % players
        if int(card[1:]) > len(row.cards):  # H12: the count rule
            row.cards.append(card)
            if row.colour is None:
                row.colour = colour  # an open row takes the colour of its first coloured card (H10, H11)
            ended, played_out = sum(hands[seat].values()) == 0, seat  # H14a
        else:  # the player takes the row, the card included, and the top fate card
            for taken in [*row.cards, card, fate.pop()]:
                hands[seat][taken] += 1
            rows[slot] = None
            ended, played_out = not fate, None  # H14b: they took the thirteen
        if ended:
            events["played out" if played_out is not None else "took the thirteen"] += 1
            end_game(played_out)
            game += 1
            if game < games:
                deal(game)
    return Replayed(scores, game >= games, events)


# ----------------------------------------------------------------------------------------------------------------------
# The record (docs/record-format.md)
# ----------------------------------------------------------------------------------------------------------------------

REPLAYERS: dict[str, tuple[GameReplayer, bool]] = {  # game id: (replayer, whether the highest total wins)
    "knizia13": (replay_knizia13, False),
    "three-thirteen": (replay_three_thirteen, False),
    "holzwurm": (replay_holzwurm, True),
}


def replay_record(doc: object) -> Replayed:
    """Replay and check a record; raise ``ReplayError`` naming the first thing that is wrong."""
    if not isinstance(doc, dict):
        fail("a record is a JSON object")
    for name in ("format", "version", "game", "players", "options", "shuffles", "actions", "stage_scores", "totals",
                 "over", "winners"):
        if name not in doc:
            fail(f"the record has no {name!r} field")
    if doc["format"] != "dreizehn-record":
        fail("the 'format' field must be 'dreizehn-record'")
    if doc["version"] != 1 or not is_int(doc["version"]):
        fail(f"records of version 1, not {doc['version']!r}")
    if doc["game"] not in REPLAYERS:
        fail(f"no game {doc['game']!r}")
    names = doc["players"]
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        fail("'players' must be a list of names")
    if not isinstance(doc["options"], dict):
        fail("'options' must be an object")
    raw_shuffles = doc["shuffles"]
    if not isinstance(raw_shuffles, list) or not all(
            isinstance(order, list) and all(isinstance(card, str) for card in order) for order in raw_shuffles):
        fail("'shuffles' must be a list of lists of card texts")
    actions: Actions = []
    for number, pair in enumerate(doc["actions"] if isinstance(doc["actions"], list) else [None], 1):
        if not (isinstance(pair, list) and len(pair) == 2 and is_int(pair[0]) and isinstance(pair[1], str)):
            fail(f"action {number} must be a pair [seat, action text]")
        actions.append((pair[0], pair[1]))
    for name in ("stage_scores", "totals", "winners"):
        value = doc[name]
        rows = value if name == "stage_scores" else [value]
        if not isinstance(rows, list) or not all(isinstance(row, list) and all(is_int(x) for x in row)
                                                 for row in rows):
            fail(f"{name!r} has the wrong type")
    if not isinstance(doc["over"], bool):
        fail("'over' must be true or false")

    replayer, high_wins = REPLAYERS[doc["game"]]
    shuffles = Shuffles(raw_shuffles)
    result = replayer(len(names), doc["options"], shuffles, actions)
    shuffles.check_all_used()
    if len(doc["stage_scores"]) != len(result.stage_scores):
        fail(f"the record has {len(doc['stage_scores'])} stage scores, the game {len(result.stage_scores)}")
    for stage, (recorded, replayed) in enumerate(zip(doc["stage_scores"], result.stage_scores, strict=True), 1):
        if recorded != replayed:
            fail(f"'stage_scores' of stage {stage} are {recorded}, but the game gives {replayed}")
    totals = [sum(stage[seat] for stage in result.stage_scores) for seat in range(len(names))]
    if doc["totals"] != totals:
        fail(f"the 'totals' field is {doc['totals']}, but the game gives {totals}")
    if doc["over"] != result.over:
        fail(f"the 'over' field is {doc['over']}, but the game gives {result.over}")
    best = (max if high_wins else min)(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best] if result.over else []
    if doc["winners"] != winners:
        fail(f"the 'winners' field is {doc['winners']}, but the game gives {winners}")
    return result


# ======================================================================================================================
# The tests: records come from the package, the replay does not
# ======================================================================================================================

import dreizehn  # noqa: E402  (only the tests below use the package: to make records)
from dreizehn.core.record import to_record  # noqa: E402

Policy = Callable[[Any, random.Random], str]


def random_policy(state: Any, rng: random.Random) -> str:
    texts: list[str] = state.legal_texts()
    return rng.choice(texts)


def eager_out_policy(state: Any, rng: random.Random) -> str:
    """Three Thirteen: go out whenever an ``out`` action is legal, else play at random."""
    texts: list[str] = state.legal_texts()
    outs = [text for text in texts if text.startswith("out ")]
    return rng.choice(outs or texts)


def careful_policy(state: Any, rng: random.Random) -> str:
    """Holzwurm: never take a row when another play is possible (so that players do play out, H14a)."""
    texts: list[str] = state.legal_texts()
    rows = state.view(state.current_player).rows
    safe = [text for text in texts if text.endswith(">new")
            or int(text.split(">")[0][1:]) > len(rows[int(text.split(">")[1]) - 1].cards)]
    return rng.choice(safe or texts)


def new_shuffle_stops(game_id: str, players: int, seed: int, options: dict[str, object],
                      policy: Policy) -> list[int]:
    """The numbers of actions after which the game has just shuffled (a new stage, or a reshuffle)."""
    state = dreizehn.new_game(game_id, players=players, seed=seed, **options)
    rng = random.Random(seed * 7919 + players)
    stops, count, shuffles = [], 0, len(to_record(state)["shuffles"])
    while not state.is_over:
        state.apply(policy(state, rng))
        count += 1
        now = len(to_record(state)["shuffles"])
        if now > shuffles:
            stops.append(count)
        shuffles = now
    return stops


def make_record(game_id: str, players: int, seed: int, options: dict[str, object],
                policy: Policy = random_policy, stop: int | None = None) -> tuple[dict[str, Any], Any]:
    """Play seeded random actions (``stop`` of them, or to the end) and return (the record, the state)."""
    state = dreizehn.new_game(game_id, players=players, seed=seed, **options)
    rng = random.Random(seed * 7919 + players)
    count = 0
    while not state.is_over and (stop is None or count < stop):
        state.apply(policy(state, rng))
        count += 1
    doc: dict[str, Any] = to_record(state)
    return doc, state


def check_replays(doc: dict[str, Any], state: Any) -> Replayed:
    result = replay_record(copy.deepcopy(doc))
    assert result.stage_scores == [list(stage) for stage in state.stage_scores]
    assert result.over == state.is_over == doc["over"]
    assert doc["winners"] == list(state.winners)
    return result


# ---------------------------------------------------------------------------------------------------------------- 13

K13_CASES: list[tuple[int, dict[str, object]]] = [
    (3, {}), (4, {"dealer": "random"}), (5, {"dealer": 3, "open_piles": True}), (6, {"dealer": "random"}),
]


@pytest.mark.parametrize(("players", "options"), K13_CASES)
def test_knizia13_records_replay_independently(players: int, options: dict[str, object]) -> None:
    for seed in range(3):
        doc, state = make_record("knizia13", players, seed, options)
        assert check_replays(doc, state).over
        total = len(doc["actions"])
        # unfinished records: mid-stage, and exactly at the end of a stage (the next stage is dealt already)
        for stop in (0, 1, 37, 50, 99, 100, random.Random(seed).randrange(total)):
            doc, state = make_record("knizia13", players, seed, options, stop=stop)
            assert not check_replays(doc, state).over


# ---------------------------------------------------------------------------------------------------- Three Thirteen

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


# ---------------------------------------------------------------------------------------------------------- Holzwurm

HW_CASES: list[tuple[int, dict[str, object], Policy]] = [
    (2, {"games": 1}, random_policy), (3, {"games": 2, "starter": "random"}, random_policy),
    (4, {}, careful_policy), (5, {"games": 3, "starter": 4}, random_policy),
    (6, {"games": 2, "starter": "random"}, careful_policy), (2, {"games": 3, "starter": "random"}, careful_policy),
    (3, {"games": 1, "starter": 2}, careful_policy),
]


@pytest.mark.parametrize(("players", "options", "policy"), HW_CASES)
def test_holzwurm_records_replay_independently(players: int, options: dict[str, object], policy: Policy) -> None:
    for seed in range(4):
        doc, state = make_record("holzwurm", players, seed, options, policy)
        assert check_replays(doc, state).over
        total = len(doc["actions"])
        for stop in (0, 1, random.Random(seed).randrange(total), total - 1):
            doc, state = make_record("holzwurm", players, seed, options, policy, stop=stop)
            assert not check_replays(doc, state).over


def test_holzwurm_endings_are_covered_and_records_stop_at_game_boundaries() -> None:
    """Games end by playing out (H14a, +30) and by taking the thirteen (H14b); unfinished records stop just before
    and just after a game of the match ends."""
    events: Counter[str] = Counter()
    for players, options, policy in HW_CASES:
        for seed in range(4):
            events += check_replays(*make_record("holzwurm", players, seed, options, policy)).events
    assert events["played out"] and events["took the thirteen"]
    for policy in (random_policy, careful_policy):
        new_game = new_shuffle_stops("holzwurm", 3, 2, {"games": 3}, policy)
        assert len(new_game) == 2
        for stop in new_game:
            for at in (stop - 1, stop, stop + 1):
                check_replays(*make_record("holzwurm", 3, 2, {"games": 3}, policy, stop=at))


def test_holzwurm_fate_row_example_from_the_docs() -> None:
    """docs/games/holzwurm.md: seed 3 with 4 players begins R10 P7 P3 Y4 N11 B8 N10 R2 ..."""
    doc, _ = make_record("holzwurm", 4, 3, {}, stop=0)
    assert doc["shuffles"][0][:8] == ["R10", "P7", "P3", "Y4", "N11", "B8", "N10", "R2"]
    order = doc["shuffles"][0][:5]
    assert ["13", *sorted(order, key=lambda c: (hw_points(c), hw_number(c)))] == ["13", "N11", "P7", "P3", "Y4", "R10"]


# ------------------------------------------------------------------------------------------- the replayer refuses

def finished_record(game_id: str) -> dict[str, Any]:
    options: dict[str, object] = {"games": 2} if game_id == "holzwurm" else {}
    policy = eager_out_policy if game_id == "three-thirteen" else random_policy
    doc = make_record(game_id, 3, 1, options, policy)[0]
    replay_record(doc)
    return doc


def refused(doc: dict[str, Any], match: str) -> None:
    with pytest.raises(ReplayError, match=match):
        replay_record(doc)


def state_before(doc: dict[str, Any], index: int) -> Any:
    """The package's state before action ``index`` of a record (to learn what the seat to move holds)."""
    options: dict[str, object] = {"games": 2} if doc["game"] == "holzwurm" else {}
    state = dreizehn.new_game(doc["game"], players=3, seed=1, **options)
    for _, text in doc["actions"][:index]:
        state.apply(text)
    return state


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_replayer_refuses_a_card_the_seat_does_not_hold(game_id: str) -> None:
    doc = finished_record(game_id)
    index = next(i for i, (_, text) in enumerate(doc["actions"]) if i >= 10 and text not in ("draw", "take"))
    seat = doc["actions"][index][0]
    legal: list[str] = state_before(doc, index).legal_texts()
    if game_id == "knizia13":  # every colour card held is a legal play
        text = next(f"{c}{v}" for c in K13_COLOURS for v in K13_VALUES if f"{c}{v}" not in legal)
    elif game_id == "three-thirteen":  # after the draw, every card held may be discarded
        text = next(f"discard {r}{s}" for r in TT_RANKS for s in TT_SUITS if f"discard {r}{s}" not in legal)
    else:  # every card held has a legal play
        held = {legal_text.split(">")[0] for legal_text in legal}
        text = next(f"{c}{v}>1" for c in HW_COLOURS for v in range(1, 12) if f"{c}{v}" not in held)
    bad = copy.deepcopy(doc)
    bad["actions"][index] = [seat, text]
    refused(bad, rf"action {index + 1} .* is illegal: seat {seat} holds no ")


def test_replayer_refuses_plays_the_rules_forbid() -> None:
    # 13: a colour card onto another colour's target (K10)
    doc = finished_record("knizia13")
    index, (seat, text) = next((i, a) for i, a in enumerate(doc["actions"]) if not a[1].startswith("R4"))
    bad = copy.deepcopy(doc)
    bad["actions"][index] = [seat, f"{text}>{'Y' if text[0] != 'Y' else 'G'}"]
    refused(bad, r"\(K10\)")
    # Three Thirteen: going out with cards that do not all meld (T8), two draws in one turn (T6)
    doc = finished_record("three-thirteen")
    state = state_before(doc, 0)

    def not_out(text: str) -> bool:  # a discard that the package would not allow as going out
        refuse = text.startswith("discard ") and "out " + text.removeprefix("discard ") not in state.legal_texts()
        state.apply(text)
        return refuse

    index = next(i for i, (_, text) in enumerate(doc["actions"]) if not_out(text))
    seat, text = doc["actions"][index]
    bad = copy.deepcopy(doc)
    bad["actions"][index] = [seat, "out " + text.removeprefix("discard ")]
    refused(bad, r"do not all meld .*\(T8\)")
    bad = copy.deepcopy(doc)
    bad["actions"][1] = [bad["actions"][0][0], "draw"]
    refused(bad, r"drawn already \(T6\)")
    # Holzwurm: a play the package does not list as legal, with a card the seat holds (H8-H10)
    doc = finished_record("holzwurm")
    for index, (seat, text) in enumerate(doc["actions"]):
        state = state_before(doc, index)
        legal = state.legal_texts()
        card = text.split(">")[0]
        wrong = [f"{card}>{slot}" for slot in ("1", "2", "3", "4", "5", "new") if f"{card}>{slot}" not in legal]
        if wrong and index > 5:
            bad = copy.deepcopy(doc)
            bad["actions"][index] = [seat, wrong[0]]
            refused(bad, rf"action {index + 1} .* is illegal: .*\(H(8|9|10)\)")
            break
    else:
        pytest.fail("no illegal Holzwurm play found")
    # any game: the wrong seat
    bad = copy.deepcopy(doc)
    bad["actions"][1][0] = (bad["actions"][1][0] + 1) % 3
    refused(bad, r"is by seat .* but it was seat")


@pytest.mark.parametrize("game_id", dreizehn.game_ids())
def test_replayer_refuses_wrong_scores_and_shuffles(game_id: str) -> None:
    doc = finished_record(game_id)
    bad = copy.deepcopy(doc)
    bad["stage_scores"][1][2] += 1
    refused(bad, r"'stage_scores' of stage 2 are .*, but the game gives")
    bad = copy.deepcopy(doc)
    bad["totals"][0] -= 1
    refused(bad, r"'totals' field")
    bad = copy.deepcopy(doc)
    bad["winners"] = [seat for seat in range(3) if seat not in doc["winners"]]
    refused(bad, r"'winners' field")
    bad = copy.deepcopy(doc)
    bad["over"] = False
    refused(bad, r"'over' field")
    bad = copy.deepcopy(doc)
    bad["shuffles"].append(bad["shuffles"][0])
    refused(bad, r"more than the game made")
    bad = copy.deepcopy(doc)
    del bad["shuffles"][-1]
    refused(bad, r"too few shuffles")
    bad = copy.deepcopy(doc)
    first = bad["shuffles"][0]
    first[0] = next(card for card in first if card != first[0])
    refused(bad, r"shuffle 1 is not an order")
    bad = copy.deepcopy(doc)
    bad["actions"].append(bad["actions"][-1])
    refused(bad, r"comes after the (game|match) ended")


def test_the_replayers_do_not_use_the_package() -> None:
    """Everything above the tests is written from the documents alone: no ``dreizehn`` import, no shared code."""
    source = Path(__file__).read_text(encoding="utf-8")
    replayers = source.split("# The tests: records come from the package")[0]
    assert "import dreizehn" not in replayers and "from dreizehn" not in replayers
    assert "dreizehn." not in replayers.replace("dreizehn-record", "")
