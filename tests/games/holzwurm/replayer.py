"""Der dreizehnte Holzwurm: the independent replayer of its records (H1-H17), written only from
``docs/record-format.md``, ``docs/notation.md``, ``docs/games/holzwurm.md`` and ``shared/rules/holzwurm.md``: no
``dreizehn`` here, and no code shared with it (``tests/core/test_independent_replay.py`` checks it). The driver
(``clean_room.driver``) finds it by its folder, checks the record's fields and compares what :func:`replay` gives
with the record."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from clean_room.kit import Actions, Replayed, Shuffles, check_option_names, check_seat_option, fail, is_int

GAME_ID = "holzwurm"
HIGH_WINS = True
"""Whether the highest total wins (H16: the highest total wins)."""


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


def hw_slot(rows: list[HWRow | None], colour: str | None, slot_text: str, what: str) -> int:
    """The slot a card of ``colour`` (None: grey) is played to, ``slot_text`` "new" or "1" to "5" (H8 to H10); a new
    row is laid in the lowest free slot."""
    own_row = next((i for i, row in enumerate(rows) if row is not None and colour and row.colour == colour), None)
    if slot_text == "new":
        if all(row is not None for row in rows):
            fail(f"{what}: five rows lie already (H9)")
        if own_row is not None:
            fail(f"{what}: a row of its colour lies (H10)")
        slot = rows.index(None)  # the lowest free slot
        rows[slot] = HWRow(colour, [])
        return slot
    slot = int(slot_text) - 1
    target = rows[slot]
    if target is None:
        fail(f"{what}: no row {slot + 1} lies on the table (H8)")
    if colour is not None and own_row is not None and own_row != slot:
        fail(f"{what}: it may only go onto the row of its colour (H10)")
    if colour is not None and own_row is None and target.colour is not None:
        fail(f"{what}: row {slot + 1} has another colour (H10)")
    return slot


def replay(players: int, options: dict[str, Any], shuffles: Shuffles, actions: Actions) -> Replayed:
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
        slot = hw_slot(rows, colour, slot_text, what)
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
