"""13: the independent replayer of its records (K1-K18), written only from ``docs/record-format.md``,
``docs/notation.md``, ``docs/games/knizia13.md`` and ``shared/rules/knizia13.md``: no ``dreizehn`` here, and
no code shared with it (``tests/core/test_independent_replay.py`` checks it). The driver (``clean_room.driver``)
finds it by its folder, checks the record's fields and compares what :func:`replay` gives with the record."""

from __future__ import annotations

from collections import Counter
from typing import Any

from clean_room.kit import Actions, Replayed, Shuffles, check_option_names, check_seat_option, fail

GAME_ID = "knizia13"
HIGH_WINS = False
"""Whether the highest total wins (K17: the fewest minus points win)."""


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


def replay(players: int, options: dict[str, Any], shuffles: Shuffles, actions: Actions) -> Replayed:
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
