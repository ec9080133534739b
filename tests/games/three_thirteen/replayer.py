"""Three Thirteen: the independent replayer of its records (T1-T13), written only from ``docs/record-format.md``,
``docs/notation.md``, ``docs/games/three-thirteen.md`` and ``shared/rules/three-thirteen.md``: no ``dreizehn`` here, and
no code shared with it (``tests/core/test_independent_replay.py`` checks it). The driver (``clean_room.driver``)
finds it by its folder, checks the record's fields and compares what :func:`replay` gives with the record."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from clean_room.kit import Actions, Replayed, Shuffles, check_option_names, check_seat_option, fail, is_int

GAME_ID = "three-thirteen"
HIGH_WINS = False
"""Whether the highest total wins (T12: the fewest points win)."""


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


@dataclass(frozen=True)
class TTRules:
    """The game's options, checked: what the replay needs of them."""

    players: int
    first_dealer: int
    aces_high: bool  # T2
    all_wild: bool  # T7: a meld of wild cards only is allowed
    end_round_on_empty_stock: bool  # T10
    turn_limit: int  # T10: 0 for none


def tt_rules(players: int, options: dict[str, Any]) -> TTRules:
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
    return TTRules(players, check_seat_option(options, "dealer", players), options["aces"] == "low-or-high",
                   options["all_wild_melds"] == "allowed", options["stock_out"] == "end-round", turn_limit)


def tt_draw(state: TTRound, take: bool, what: str, rules: TTRules, shuffles: Shuffles,
            events: Counter[str]) -> bool:
    """A draw from the stock or a take from the discard pile (T6); whether it ended the round instead (T10)."""
    hand = state.hands[state.to_move]
    if state.drawn:
        fail(f"{what}: seat {state.to_move} has drawn already (T6)")
    round_over = False
    if take:
        if not state.pile:
            fail(f"{what}: the discard pile is empty (T6)")
        hand[state.pile.pop()] += 1
    elif state.stock:
        hand[state.stock.pop()] += 1
    elif rules.end_round_on_empty_stock:  # T10 end-round: the round ends at once, before any card is drawn
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
    return round_over


def tt_discard(state: TTRound, out: bool, card: str, what: str, rules: TTRules, events: Counter[str]) -> bool:
    """A discard, or going out with it (T8); whether the round ended with it (T9, T10)."""
    seat = state.to_move
    hand = state.hands[seat]
    if not state.drawn:
        fail(f"{what}: draw first (T6)")
    if hand[card] == 0:
        fail(f"{what}: seat {seat} holds no {card} (T6)")
    hand[card] -= 1
    if out:  # T8: every other card melds
        if tt_hand_penalty(hand, state.wild, rules.aces_high, rules.all_wild) != 0:
            fail(f"{what}: the cards do not all meld without the {card} (T8)")
        hand.clear()
        state.out.add(seat)
    state.pile.append(card)
    state.drawn = False
    round_over = False
    if state.turns_left > 0:  # T9: one of the last turns is over
        state.turns_left -= 1
        round_over = state.turns_left == 0
        events["round ended after the last turns"] += round_over
    elif out:  # the first to go out: every other player has one more turn
        state.turns_left = rules.players - 1
    state.turns += 1
    if rules.turn_limit and state.turns == rules.turn_limit and not round_over:  # T10: the round's last allowed turn
        round_over = True
        events["round ended at the turn limit"] += 1
    state.to_move = (seat + 1) % rules.players
    return round_over


def replay(players: int, options: dict[str, Any], shuffles: Shuffles, actions: Actions) -> Replayed:
    rules = tt_rules(players, options)
    deck = Counter({rank + suit: int(options["decks"]) for rank in TT_RANKS for suit in TT_SUITS})
    scores: list[list[int]] = []
    events: Counter[str] = Counter()

    def deal(index: int) -> TTRound:
        order = shuffles.next(deck, tt_card)
        size = index + 3  # T3
        first = (rules.first_dealer + index + 1) % players  # T4, T5
        hands: list[Counter[str]] = [Counter() for _ in range(players)]
        for i, card in enumerate(order[: size * players]):
            hands[(first + i) % players][card] += 1
        stock = order[size * players + 1:]
        stock.reverse()
        return TTRound(wild=size, hands=hands, pile=[order[size * players]], stock=stock, to_move=first)

    def end_round(state: TTRound) -> None:
        scores.append([0 if seat in state.out else tt_hand_penalty(state.hands[seat], state.wild, rules.aces_high,
                                                                   rules.all_wild)
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
        if words in (["draw"], ["take"]):
            round_over = tt_draw(state, words == ["take"], what, rules, shuffles, events)
        elif len(words) == 2 and words[0] in ("discard", "out"):
            round_over = tt_discard(state, words[0] == "out", tt_card(words[1]), what, rules, events)
        else:
            fail(f"action {number} ({text!r}) is not an action of Three Thirteen")
        if round_over:
            end_round(state)
            index += 1
            state = deal(index) if index < 11 else None
    return Replayed(scores, state is None, events)
