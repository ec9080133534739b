"""Der dreizehnte Holzwurm by Wolfgang Kramer and Michael Kiesling (Queen Games 1998): game id ``holzwurm``.

Rules H1–H17 of the specification (``shared/rules/holzwurm.md``); docs/games/holzwurm.md describes the notation.

Cards. Colour ``c`` (yellow ``Y`` = 0, red ``R`` = 1, green ``G`` = 2, purple ``P`` = 3, blue ``B`` = 4) and value
``v`` (1..11) give card number ``c * 11 + v - 1`` (0..54), written ``Y1`` … ``B11``; the grey cards (letter ``N``,
neutral, H4) with values 2..11 are numbers ``55 + v - 2`` (55..64), written ``N2`` … ``N11``; the poisonous thirteen
is number 65, written ``13``. Points (H3): an even value counts plus its value, an odd one minus it, the thirteen −13.

Actions. Card (0..64) times destination (0..4: row slot 1..5; 5: a new row): action number ``card * 6 + dest``, 390
in all, written ``Y5>2`` (onto row 2) or ``Y5>new``. The rows lie in five slots numbered 1..5; a new row takes the
lowest free slot. A row's colour is fixed by its first coloured card; a row started by a grey card is open until then
(H11).

Decisions where the specification leaves a choice:

- A state is a whole match of ``games`` games (H16, default 3); each game is one stage (``stage_name`` "game") and
  adds one tuple to ``stage_scores``: each seat's hand points, plus 30 for the seat that played out (H15).
- The first game is started by the ``starter`` option (a seat or "random", H7); each further game by the next seat
  clockwise (seat + 1).
- Each game shuffles the 65 woodworm cards (given in card-number order; the shuffle is top first). The top 5 form the
  fate row on the thirteen, sorted by points, the lower card number lying lower among equal points (H5). The rest is
  dealt one card at a time clockwise from the game's starting seat (H6); with 2 or 3 players the 30 or 15 cards left
  over are removed unseen (kept, in order, for :meth:`HolzwurmState.all_cards`). The starting seat moves first (H7).
- Taking the last fate card (always the thirteen) ends the game at once (H14b); so does a play that empties a hand
  (H14a). A hand never holds the thirteen while the game goes on, so it is never played.
- What a seat knows of another hand (H17): the cards that seat took with rows and from the fate row, minus those it has
  played since.

>>> import dreizehn
>>> state = dreizehn.new_game("holzwurm", players=4, seed=3)
>>> [card.text for card in state.view(0).fate]
['13', 'N11', 'P7', 'P3', 'Y4', 'R10']
>>> state.legal_texts()[:4]
['Y1>new', 'Y6>new', 'R6>new', 'R7>new']
>>> state.apply("Y6>new")
>>> state.view(1).rows[0]
HolzwurmRow(colour='yellow', cards=(HolzwurmCard.parse('Y6'),))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Self

from dreizehn.core.cards import Token
from dreizehn.core.errors import IllegalActionError, InvalidActionError
from dreizehn.core.events import BOOL, INT, INTS, SEAT, Event, cards_schema, params_schema
from dreizehn.core.game import Game, OptionSpec, State, View
from dreizehn.words import Word

COLOURS = ("yellow", "red", "green", "purple", "blue")
"""The five row colours (H1), in card-number order 0..4."""
COLOUR_LETTERS = "YRGPB"
GREY_LETTER = "N"
"""The letter of the grey (neutral) cards (H4)."""
GREY = 5
"""The colour number used for grey cards in the tables below."""
THIRTEEN = 65
"""The card number of the poisonous thirteen (H2)."""
WOODWORMS: tuple[int, ...] = tuple(range(65))
"""The 65 woodworm cards in card-number order (H1): the order every shuffle starts from."""
SLOTS = 5
"""At most five rows lie on the table (H9)."""
NEW = 5
"""The destination number of "start a new row"."""
FATE_SIZE = 5
"""Woodworm cards laid on the thirteen to form the fate row (H5)."""
BONUS = 30
"""The bonus of the player who played out all cards (H15)."""

CARD_VALUE: tuple[int, ...] = tuple(k % 11 + 1 for k in range(55)) + tuple(range(2, 12)) + (13,)
"""Each card's value: 1..11, the thirteen 13 (H1, H2)."""
CARD_COLOUR: tuple[int, ...] = tuple(k // 11 for k in range(55)) + (GREY,) * 10 + (-1,)
"""Each card's colour number: 0..4, 5 for grey, -1 for the thirteen."""
CARD_POINTS: tuple[int, ...] = tuple(v if v % 2 == 0 else -v for v in CARD_VALUE[:65]) + (-13,)
"""Each card's points (H3)."""


def hand_size(players: int) -> int:
    """Cards dealt to each player (H6): 15 with 2 to 4 players, 12 with 5, 10 with 6."""
    return 15 if players <= 4 else 12 if players == 5 else 10


def fate_order(cards: Sequence[int]) -> list[int]:
    """The fate row, bottom to top, made of the thirteen and ``cards`` (H5): sorted by points, the lower card number
    lying lower among equal points. The rulebook's example:

    >>> [HolzwurmCard.of(k).text for k in fate_order([HolzwurmCard.parse(t) for t in ("Y2", "G9", "B8", "N2", "R7")])]
    ['13', 'G9', 'R7', 'Y2', 'N2', 'B8']
    >>> [CARD_POINTS[k] for k in fate_order([1, 30, 51, 55, 17])]
    [-13, -9, -7, 2, 2, 8]
    """
    return [THIRTEEN, *sorted(cards, key=lambda k: (CARD_POINTS[k], k))]


def hand_points(hand: Sequence[int]) -> int:
    """The points of a hand (H3, H15), without the bonus."""
    return sum(CARD_POINTS[k] for k in hand)


def explain_points(hands: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Why each hand scores what it does at the end of a game (H3, H15), as JSON-ready data: per seat its plus and
    minus cards, the +30 bonus of the seat that played out, and the points.

    >>> explained = explain_points([[1, 2, THIRTEEN], []])
    >>> explained["hands"][0], explained["hands"][1]["bonus"], explained["points"]
    ({'plus': ['Y2'], 'minus': ['Y3', '13'], 'bonus': 0}, 30, [-14, 30])
    """
    texts = HolzwurmCard._texts
    seats = [
        {
            "plus": [texts[k] for k in sorted(hand) if CARD_POINTS[k] > 0],
            "minus": [texts[k] for k in sorted(hand) if CARD_POINTS[k] < 0],
            "bonus": 0 if hand else BONUS,
        }
        for hand in hands
    ]
    return {"hands": seats, "points": [hand_points(hand) if hand else BONUS for hand in hands]}


class HolzwurmCard(Token):
    """A card: ``Y1`` … ``B11`` (colour letter and value), grey ``N2`` … ``N11``, the poisonous thirteen ``13``."""

    __slots__ = ()

    @property
    def value(self) -> int:
        """The card's value: 1..11, 13 for the poisonous thirteen."""
        return CARD_VALUE[self]

    @property
    def colour(self) -> str | None:
        """``"yellow"``, ``"red"``, ``"green"``, ``"purple"``, ``"blue"``, ``"grey"``, or ``None`` for the thirteen."""
        colour = CARD_COLOUR[self]
        if colour < 0:
            return None
        return COLOURS[colour] if colour < GREY else "grey"

    @property
    def points(self) -> int:
        """The card's points (H3)."""
        return CARD_POINTS[self]


HolzwurmCard._define(
    [f"{COLOUR_LETTERS[c]}{v}" for c in range(5) for v in range(1, 12)]
    + [f"{GREY_LETTER}{v}" for v in range(2, 12)]
    + ["13"],
    aliases={"-13": "13"},
    noun="card of Der dreizehnte Holzwurm", noun_key="holzwurm.noun.card",
)
_CARDS = HolzwurmCard.all()
_CARD_SCHEMA, _CARDS_SCHEMA = cards_schema(HolzwurmCard._texts)
_ROW_SCHEMA = {"type": "integer", "minimum": 1, "maximum": SLOTS}


def _destination_text(dest: int) -> str:
    return "new" if dest == NEW else str(dest + 1)


class HolzwurmAction(Token):
    """A play: the card and where it goes, ``Y5>2`` (onto the row in slot 2) or ``Y5>new`` (as a new row)."""

    __slots__ = ()

    @property
    def card(self) -> HolzwurmCard:
        """The card played."""
        return _CARDS[self // 6]

    @property
    def destination(self) -> int:
        """0..4 for the row in slot 1..5, 5 (:data:`NEW`) for a new row."""
        return self % 6

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parse ``Y5>2`` or ``Y5>new``; spaces and case do not matter. A malformed card or row raises
        :class:`InvalidActionError` saying which part is wrong."""
        key = "".join(str(text).split()).upper()
        index = cls._by_text.get(key)
        if index is not None:
            return cls._instances[index]  # type: ignore[return-value]
        card_text, sep, dest_text = key.partition(">")
        card = HolzwurmCard._by_text.get(card_text)
        if card == THIRTEEN:
            raise InvalidActionError("holzwurm.error.thirteen", rule="H14")
        if card is None:
            raise InvalidActionError("holzwurm.error.not_a_card", rule="H1", text=str(text), card=card_text)
        if not sep:
            raise InvalidActionError("holzwurm.error.no_destination", rule="H8", text=str(text), card=card_text)
        raise InvalidActionError("holzwurm.error.not_a_row", rule="H9", text=str(text), row=dest_text)


HolzwurmAction._define(
    [f"{HolzwurmCard._texts[k]}>{_destination_text(d)}" for k in range(65) for d in range(6)],
    noun="play of Der dreizehnte Holzwurm (such as Y5>2 or Y5>new)", noun_key="holzwurm.noun.action",
)
_ACTIONS = HolzwurmAction.all()

# _CHOICES[card][mask]: the actions of ``card`` onto the destinations in the 6-bit ``mask`` (bit d: destination d),
# in index order. legal_actions looks them up instead of building anything.
_CHOICES: tuple[tuple[tuple[HolzwurmAction, ...], ...], ...] = tuple(
    tuple(tuple(_ACTIONS[k * 6 + d] for d in range(6) if mask >> d & 1) for mask in range(64)) for k in range(65)
)
_CHOICE_COLOUR = CARD_COLOUR[:65]
_NOT_NEW_ROW = (1 << SLOTS) - 1
"""The occupied-slots mask with all five slots taken."""


class HolzwurmRow(NamedTuple):
    """A row on the table as a view shows it: its colour (``None`` while open, H11) and its cards in play order."""

    colour: str | None
    cards: tuple[HolzwurmCard, ...]


@dataclass(frozen=True, kw_only=True)
class HolzwurmView(View):
    """What one seat may know (H17).

    ``hand``: the seat's own cards (sorted); ``hand_sizes``: every seat's number of cards; ``fate``: the fate row,
    bottom (the thirteen) to top; ``rows``: slots 1..5, ``None`` for an empty slot; ``known``: per seat, the cards
    known to be in its hand (taken with rows and from the fate row, and not played since; sorted); ``removed``: the
    number of cards removed unseen (H6); ``starter``: the seat that started the current game.
    """

    starter: int
    hand: tuple[HolzwurmCard, ...]
    hand_sizes: tuple[int, ...]
    fate: tuple[HolzwurmCard, ...]
    rows: tuple[HolzwurmRow | None, ...]
    known: tuple[tuple[HolzwurmCard, ...], ...]
    removed: int


def _bits(mask: int) -> list[int]:
    """The card numbers in a set given as a bit mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class HolzwurmRules(Game):
    """The rules of Der dreizehnte Holzwurm for 2 to 6 players (H5), a match of ``games`` games (H16). The game
    itself, with its words and its encoder, is :class:`~dreizehn.games.holzwurm.game.Holzwurm`."""

    id: ClassVar[str] = "holzwurm"
    title: ClassVar[str] = "Der dreizehnte Holzwurm"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    player_rule: ClassVar[str] = "H5"
    turn_rule: ClassVar[str] = "H7"
    quick_options: ClassVar[dict[str, object]] = {"games": 1}
    event_params: ClassVar[dict[str, dict[str, Any]]] = {
        "holzwurm.played": params_schema({"seat": SEAT, "card": _CARD_SCHEMA, "row": _ROW_SCHEMA, "new": BOOL}),
        "holzwurm.took": params_schema({
            "seat": SEAT, "card": _CARD_SCHEMA, "row": _ROW_SCHEMA, "cards": _CARDS_SCHEMA, "fate": _CARD_SCHEMA,
            "fate_left": SEAT,
        }),
    }
    explanation_schema: ClassVar[dict[str, Any]] = params_schema({
        "hands": {
            "type": "array", "items": params_schema({"plus": _CARDS_SCHEMA, "minus": _CARDS_SCHEMA, "bonus": INT}),
        },
        "points": INTS,
    })
    stage_name: ClassVar[str] = "game"
    high_score_wins: ClassVar[bool] = True
    card_type: ClassVar[type[Token]] = HolzwurmCard
    action_type: ClassVar[type[Token]] = HolzwurmAction
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("games", "int", 3, "H16", "number of games in the match (scores are added up)", low=1, high=20),
        OptionSpec(
            "starter", "seat", 0, "H7",
            "starting seat of the first game: a seat, or random (drawn from the seed); it moves one seat clockwise "
            "each game",
        ),
    )

    deck = tuple(range(66))

    captures: ClassVar[bool] = True

    @classmethod
    def action_cost(cls, view: View, action: int) -> tuple[int, int] | None:
        """A card whose value is not greater than the number of cards in its row takes the row (the card played
        with it) and the fate row's top card (H12): the row's cards, the card played counted as the log counts them
        (``holzwurm.took``: "takes the row's 6 cards"; the fate card is said apart, ``holzwurm.takes``), and the
        points the hand changes by (H3: the row's cards before the play and the fate card; the card played was in
        the hand already)."""
        assert isinstance(view, HolzwurmView)
        card, dest = action // 6, action % 6
        row = view.rows[dest] if dest != NEW else None
        if row is None or CARD_VALUE[card] > len(row.cards):
            return None
        gained = [*row.cards, *view.fate[-1:]]
        return len(row.cards) + 1, sum(CARD_POINTS[c] for c in gained)

    def new_state(self, seed: int, *, shuffles: Sequence[Sequence[int]] | None = None) -> HolzwurmState:
        state = HolzwurmState.__new__(HolzwurmState)
        state._init_base(self, seed, shuffles)
        state.games = int(state.options["games"])
        state.stage_no = 0
        state.starter = int(state.options["starter"])
        state._deal()
        return state

    def sample_state(self, view: View, rng: random.Random) -> HolzwurmState:
        assert isinstance(view, HolzwurmView)
        n = self.players
        state = HolzwurmState.__new__(HolzwurmState)
        state._init_base(self, rng.getrandbits(63), options=view.options)
        state.log = list(view.history)
        state.stage_scores = list(view.stage_scores)
        state.games = int(view.options["games"])
        state.stage_no = view.stage
        state.starter = view.starter
        state.turn = view.current_player
        state.fate = [int(k) for k in view.fate]
        state.rows = [() if row is None else tuple(int(k) for k in row.cards) for row in view.rows]
        state.row_colour = [
            -1 if row is None or row.colour is None else COLOURS.index(row.colour) for row in view.rows
        ]
        state._index_rows()
        state.known = [sum(1 << int(k) for k in cards) for cards in view.known]
        # The unseen pool: every card the seat cannot place, dealt anew to the unknown hand slots and the removed pile.
        seen = 0
        for card in (*view.fate, *view.hand):
            seen |= 1 << card
        for row in state.rows:
            for k in row:
                seen |= 1 << k
        for mask in state.known:
            seen |= mask
        pool = [k for k in range(66) if not seen >> k & 1]
        rng.shuffle(pool)
        hands: list[list[int]] = []
        for seat in range(n):
            if seat == view.seat:
                hands.append([int(k) for k in view.hand])
            else:
                size = view.hand_sizes[seat] - len(view.known[seat])
                hands.append(sorted(_bits(state.known[seat]) + pool[:size]))
                del pool[:size]
        assert len(pool) == view.removed, "the view's card counts do not add up"
        state.hands = hands
        state.removed = pool
        return state


class HolzwurmState(State):
    """A match of Der dreizehnte Holzwurm in progress.

    ``hands``: each seat's cards, kept sorted; ``rows``: five slots, each the cards of a row in play order (``()``
    for an empty slot); ``row_colour``: each slot's colour (0..4; -1 for an open row or an empty slot); ``fate``: the
    fate row, bottom first (the top card is the last); ``removed``: the cards removed unseen this game; ``known``: per
    seat, the set (a bit mask of card numbers) of its cards the others have seen it take; ``starter``: the seat that
    started this game; ``turn``: the seat to move, -1 once the match is over. ``occupied``, ``open_rows`` (bit masks of
    slots) and ``colour_row`` (each colour's slot, or -1) follow from ``rows`` and ``row_colour``.
    """

    __slots__ = (
        "colour_row", "fate", "games", "hands", "known", "occupied", "open_rows", "removed", "row_colour", "rows",
        "stage_no", "starter",
    )

    colour_row: list[int]
    fate: list[int]
    games: int
    hands: list[list[int]]
    known: list[int]
    occupied: int
    open_rows: int
    removed: list[int]
    row_colour: list[int]
    rows: list[tuple[int, ...]]
    stage_no: int
    starter: int

    def _deal(self) -> None:
        """Shuffle the 65 woodworm cards, lay the fate row (H5) and deal from the starting seat (H6, H7)."""
        n = self.game.players
        order = self._shuffle(WOODWORMS)
        self.fate = fate_order(order[:FATE_SIZE])
        size = hand_size(n)
        hands: list[list[int]] = [[] for _ in range(n)]
        first = self.starter
        dealt = order[FATE_SIZE : FATE_SIZE + size * n]
        for i, card in enumerate(dealt):
            hands[(first + i) % n].append(card)
        for hand in hands:
            hand.sort()
        self.hands = hands
        self.removed = order[FATE_SIZE + size * n :]  # H6: with 2 or 3 players; never changed during a game
        self.rows = [()] * SLOTS
        self.row_colour = [-1] * SLOTS
        self.colour_row = [-1] * 5
        self.occupied = 0
        self.open_rows = 0
        self.known = [0] * n
        self.turn = first  # H7

    def _index_rows(self) -> None:
        """Recompute ``occupied``, ``open_rows`` and ``colour_row`` from ``rows`` and ``row_colour``."""
        self.occupied = sum(1 << s for s in range(SLOTS) if self.rows[s])
        self.open_rows = sum(1 << s for s in range(SLOTS) if self.rows[s] and self.row_colour[s] < 0)
        self.colour_row = [-1] * 5
        for s in range(SLOTS):
            if self.rows[s] and self.row_colour[s] >= 0:
                self.colour_row[self.row_colour[s]] = s

    @property
    def stage(self) -> int:
        return self.stage_no

    def legal_actions(self) -> list[HolzwurmAction]:
        if self.turn < 0:
            return []
        occupied = self.occupied
        new = 0 if occupied == _NOT_NEW_ROW else 1 << NEW
        free = self.open_rows | new
        # The destinations of each colour (H10) and, last, of grey cards (H11), as masks.
        masks = [free if s < 0 else 1 << s for s in self.colour_row]
        masks.append(occupied | new)
        choices = _CHOICES
        colour = _CHOICE_COLOUR
        out: list[HolzwurmAction] = []
        extend = out.extend
        for k in self.hands[self.turn]:
            extend(choices[k][masks[colour[k]]])
        return out

    def may_shuffle(self, action: int) -> bool:
        """A game of the match ends, and the next is dealt, when the last hand card is played (H14a) or the thirteen
        is taken from the fate row (H14b)."""
        return len(self.hands[self.turn]) == 1 or len(self.fate) == 1

    def _apply(self, action: int) -> None:
        seat = self.turn
        kind = action // 6
        dest = action - kind * 6
        hand = self.hands[seat]
        colour = CARD_COLOUR[kind]
        occupied = self.occupied
        # The destinations the card may go to (H8–H11), as in legal_actions.
        if colour < GREY:
            own = self.colour_row[colour]
            allowed = 1 << own if own >= 0 else self.open_rows | (0 if occupied == _NOT_NEW_ROW else 1 << NEW)
        else:
            allowed = occupied | (0 if occupied == _NOT_NEW_ROW else 1 << NEW)
        if not allowed >> dest & 1 or kind not in hand:
            raise self._refusal(seat, kind, dest)
        # The play is legal: from here on the state changes.
        hand.remove(kind)
        self.known[seat] &= ~(1 << kind)
        if dest == NEW:
            occupied = self.occupied
            slot = (~occupied & (occupied + 1)).bit_length() - 1  # the lowest free slot
            self.rows[slot] = (kind,)
            self.occupied = occupied | 1 << slot
            if colour < GREY:
                self.row_colour[slot] = colour
                self.colour_row[colour] = slot
            else:
                self.open_rows |= 1 << slot  # H11
        else:
            row = self.rows[dest]
            if CARD_VALUE[kind] > len(row):  # H12: the row accepts the card
                self.rows[dest] = (*row, kind)
                if colour < GREY and self.open_rows >> dest & 1:  # H11: the first coloured card gives the colour
                    self.open_rows &= ~(1 << dest)
                    self.row_colour[dest] = colour
                    self.colour_row[colour] = dest
            else:  # H12: take the row, the card played and the top fate card
                top = self.fate.pop()
                taken = 1 << kind | 1 << top
                for k in row:
                    taken |= 1 << k
                hand.extend(row)
                hand.append(kind)
                hand.append(top)
                hand.sort()
                self.known[seat] |= taken
                self.rows[dest] = ()
                self.occupied &= ~(1 << dest)
                self.open_rows &= ~(1 << dest)
                old = self.row_colour[dest]
                if old >= 0:  # the colour is free again
                    self.row_colour[dest] = -1
                    self.colour_row[old] = -1
                if not self.fate:  # H14b: the thirteen was taken
                    self._end_game()
                    return
                self.turn = (seat + 1) % self.game.players
                return
        if not hand:  # H14a: the last hand card was played
            self._end_game()
            return
        self.turn = (seat + 1) % self.game.players

    def _refusal(self, seat: int, kind: int, dest: int) -> IllegalActionError:
        """Why ``seat`` may not play card ``kind`` to ``dest`` (:func:`refusal`)."""
        return refusal(seat, kind, dest, kind in self.hands[seat], self.occupied, self.colour_row, self.row_colour)

    def _end_game(self) -> None:
        """Score the game (H15), then deal the next game of the match or end the match (H16)."""
        self.stage_scores.append(
            tuple(hand_points(hand) if hand else BONUS for hand in self.hands)
        )
        self.stage_no += 1
        if self.stage_no == self.games:
            self.turn = -1
            return
        self.starter = (self.starter + 1) % self.game.players  # H7
        self._deal()

    def _action_events(self, before: State, seat: int, action: int) -> list[Event]:
        assert isinstance(before, HolzwurmState)
        kind, dest = divmod(action, 6)
        card = _CARDS[kind].text
        if dest == NEW:
            slot = (~before.occupied & (before.occupied + 1)).bit_length() - 1
            return [Event("holzwurm.played", {"seat": seat, "card": card, "row": slot + 1, "new": True})]
        row = before.rows[dest]
        if CARD_VALUE[kind] > len(row):
            return [Event("holzwurm.played", {"seat": seat, "card": card, "row": dest + 1, "new": False})]
        return [Event("holzwurm.took", {
            "seat": seat, "card": card, "row": dest + 1, "cards": [_CARDS[k].text for k in (*row, kind)],
            "fate": _CARDS[before.fate[-1]].text, "fate_left": len(before.fate) - 1,
        })]

    def _explain_stage(self, before: State, seat: int, action: int) -> dict[str, Any]:
        assert isinstance(before, HolzwurmState)
        hands = [list(hand) for hand in before.hands]
        kind, dest = divmod(action, 6)
        hands[seat].remove(kind)
        if dest != NEW and CARD_VALUE[kind] <= len(before.rows[dest]):  # the game ended on the thirteen (H14b)
            hands[seat] += [*before.rows[dest], kind, before.fate[-1]]
        return explain_points(hands)

    def copy(self) -> HolzwurmState:
        other = HolzwurmState.__new__(HolzwurmState)
        self._copy_base(other)
        other.colour_row = self.colour_row.copy()
        other.fate = self.fate.copy()
        other.games = self.games
        other.hands = [h.copy() for h in self.hands]
        other.known = self.known.copy()
        other.occupied = self.occupied
        other.open_rows = self.open_rows
        other.removed = self.removed  # never changed in place: a new list each deal
        other.row_colour = self.row_colour.copy()
        other.rows = self.rows.copy()  # rows are tuples
        other.stage_no = self.stage_no
        other.starter = self.starter
        return other

    def view(self, seat: int) -> HolzwurmView:
        cards = _CARDS
        return HolzwurmView(
            **self._view_fields(seat),
            starter=self.starter,
            hand=tuple(cards[k] for k in self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            fate=tuple(cards[k] for k in self.fate),
            rows=tuple(
                HolzwurmRow(
                    COLOURS[self.row_colour[s]] if self.row_colour[s] >= 0 else None,
                    tuple(cards[k] for k in row),
                )
                if row
                else None
                for s, row in enumerate(self.rows)
            ),
            known=tuple(tuple(cards[k] for k in _bits(mask)) for mask in self.known),
            removed=len(self.removed),
        )

    def resample_hidden(self, seat: int, rng: random.Random) -> HolzwurmState:
        other = self.copy()
        pool = [k for s, h in enumerate(self.hands) if s != seat for k in h if not self.known[s] >> k & 1]
        pool += self.removed
        rng.shuffle(pool)
        for s, hand in enumerate(self.hands):
            if s != seat:
                size = len(hand) - self.known[s].bit_count()
                other.hands[s] = sorted(_bits(self.known[s]) + pool[:size])
                del pool[:size]
        other.removed = pool
        return other

    def all_cards(self) -> list[int]:
        if self.turn < 0:
            return []
        out = [k for h in self.hands for k in h]
        for row in self.rows:
            out.extend(row)
        out.extend(self.fate)
        out.extend(self.removed)
        return out


def refusal(seat: int, kind: int, dest: int, held: bool, occupied: int, colour_row: Sequence[int],
            row_colour: Sequence[int]) -> IllegalActionError:
    """Why ``seat`` may not play card ``kind`` to ``dest``, as a coded error naming the rule (H8–H11), from what the
    refusal depends on: whether ``seat`` holds the card, the occupied slots (a bit mask), each colour's row and each
    row's colour (-1: none). The one source of Holzwurm's refusals: the engine's :meth:`HolzwurmState._apply` and
    the compiled kernel's ``why`` both ask it. The colours are :class:`~dreizehn.words.Word` parameters, said in the
    reader's language."""
    if not held:
        return IllegalActionError("holzwurm.error.not_held", rule="H8", seat=seat, card=HolzwurmCard._texts[kind])
    if dest == NEW and occupied == _NOT_NEW_ROW:
        return IllegalActionError("holzwurm.error.five_rows", rule="H9")
    if dest != NEW and not occupied >> dest & 1:
        return IllegalActionError("holzwurm.error.no_row", rule="H8", row=dest + 1)
    # Only a coloured card is refused from here on: a grey one goes onto any row, or a new one while a slot is free.
    name = COLOURS[CARD_COLOUR[kind]]
    own = colour_row[CARD_COLOUR[kind]]
    a_card, the_row = Word(f"holzwurm.a_card.{name}"), Word(f"holzwurm.the_row.{name}")
    if dest == NEW:
        return IllegalActionError("holzwurm.error.own_row_new", rule="H10", a_card=a_card, the_row=the_row,
                                  own=own + 1)
    if own >= 0:
        return IllegalActionError("holzwurm.error.own_row", rule="H10", a_card=a_card, the_row=the_row,
                                  own=own + 1, row=dest + 1)
    return IllegalActionError(
        "holzwurm.error.other_colour", rule="H10", row=dest + 1,
        colour=Word(f"holzwurm.colour.{COLOURS[row_colour[dest]]}"), a_card=a_card,
        new_row=Word(f"holzwurm.new_row.{name}"),
    )
