"""13 by Reiner Knizia (Amigo 2009), "the game with the nasty fours": game id ``knizia13``.

Rules K1–K18 of the specification (docs/rules, ``shared/rules/knizia13.md``). Cards are written ``B5`` (blue 5),
``Y1``, ``G7`` and ``R4`` (a nasty four); an action is the card played, and a nasty four names its target:
``R4>B``, ``R4>Y``, ``R4>G``.

>>> import dreizehn
>>> state = dreizehn.new_game("knizia13", players=4, seed=3)
>>> [card.text for card in state.view(1).hand]
['B4', 'B5', 'Y7', 'G1', 'R4']
>>> state.apply("R4>Y")
>>> state.view(2).targets
((), (Knizia13Card.parse('R4'),), ())
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from dreizehn.core.cards import Token
from dreizehn.core.errors import IllegalActionError
from dreizehn.core.events import INTS, SEAT, Event, cards_schema, params_schema
from dreizehn.core.game import Game, OptionSpec, State, View
from dreizehn.words import Word

COLOURS = ("blue", "yellow", "green")
"""The three target colours (K3), in target order 0, 1, 2."""
COLOUR_LETTERS = "BYG"
VALUES = (1, 2, 4, 5, 7)
"""The values of the colour cards (K1)."""
COPIES = (3, 3, 2, 3, 3)
"""How many cards of each value a colour has: two 4s, three of each other value (K1)."""
NASTY = 15
"""The kind number of a nasty four (K2)."""
NASTY_COUNT = 8
HAND_SIZE = 5

CARD_VALUE = tuple(VALUES[k % 5] for k in range(15)) + (4,)
CARD_COLOUR = tuple(k // 5 for k in range(15)) + (-1,)


def colour_word(colour: int, noun: bool = False) -> Word:
    """A target colour (0 blue, 1 yellow, 2 green) as a word: the adjective after a definite article ("the blue
    target", "die blaue Zielscheibe"), or the noun ("blue: Anna 4 …", "Blau: …").

    >>> from dreizehn.words import words
    >>> words("de").say(colour_word(2)), words("de").say(colour_word(2, noun=True)), words("nl").say(colour_word(0))
    ('grüne', 'Grün', 'blauwe')
    """
    return Word(f"knizia13.colour.{COLOURS[colour]}" + (".noun" if noun else ""))


class Knizia13Card(Token):
    """A card kind of 13: ``B1`` … ``G7`` (colour letter and value) or ``R4``, a nasty four."""

    __slots__ = ()

    @property
    def value(self) -> int:
        """The card's value (K11)."""
        return CARD_VALUE[self]

    @property
    def colour(self) -> str:
        """``"blue"``, ``"yellow"``, ``"green"`` or ``"red"`` for a nasty four."""
        return COLOURS[self // 5] if self != NASTY else "red"


Knizia13Card._define(
    [f"{COLOUR_LETTERS[c]}{v}" for c in range(3) for v in VALUES] + ["R4"],
    noun="card of 13", noun_key="knizia13.noun.card",
)

DECK: tuple[int, ...] = tuple(
    sorted([c * 5 + i for c in range(3) for i in range(5) for _ in range(COPIES[i])] + [NASTY] * NASTY_COUNT)
)
"""All 50 cards in kind order (K1, K2): the order every shuffle starts from."""


class Knizia13Action(Token):
    """A play: a colour card goes to its own target (``B5``); a nasty four names its target (``R4>Y``)."""

    __slots__ = ()

    @property
    def card(self) -> Knizia13Card:
        """The card played."""
        return Knizia13Card.of(min(int(self), NASTY))

    @property
    def target(self) -> int:
        """The target played on: 0 blue, 1 yellow, 2 green."""
        return self // 5 if self < NASTY else self - NASTY

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parse ``B5``, ``B5>B`` (the same), ``R4>Y``; a colour card sent to another target names rule K10."""
        key = " ".join(str(text).split()).upper().replace(" ", "")
        if ">" in key:
            card_text, _, target_text = key.partition(">")
            if card_text in Knizia13Card._by_text and target_text in ("B", "Y", "G"):
                kind = Knizia13Card._by_text[card_text]
                target = "BYG".index(target_text)
                if kind != NASTY and CARD_COLOUR[kind] != target:
                    raise IllegalActionError(
                        "knizia13.error.own_target", rule="K10", card=card_text,
                        colour=colour_word(CARD_COLOUR[kind]), target=colour_word(target),
                    )
                return cls._instances[kind if kind != NASTY else NASTY + target]  # type: ignore[return-value]
        elif key == "R4":
            raise IllegalActionError("knizia13.error.nasty_target", rule="K10", card="R4")
        return super().parse(text)


Knizia13Action._define(
    list(Knizia13Card._texts[:NASTY]) + ["R4>B", "R4>Y", "R4>G"],
    noun="play of 13 (such as B5 or R4>Y)", noun_key="knizia13.noun.action",
)
_ACTIONS = Knizia13Action.all()
_CARD_SCHEMA, _CARDS_SCHEMA = cards_schema(Knizia13Card._texts)
_NASTY_ACTIONS = _ACTIONS[NASTY:]
_CARDS = Knizia13Card.all()


def stage_points(taken: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Minus points of each player's taken pile at the end of a stage (K14, K15).

    A colour card costs 1, a nasty four 2; the one player with strictly the most cards of a colour scores 0 for that
    colour. The rulebooks' example (K16), one card per count:

    >>> b, y, g, r = 0, 5, 10, NASTY
    >>> stage_points([[b]*3 + [y]*2 + [r], [y]*6 + [g]*2, [b]*2 + [y]*5 + [g]*6 + [r]*2, [b]*6 + [y] + [g]*6 + [r]*4])
    (7, 2, 17, 15)
    """
    counts = [[0, 0, 0, 0] for _ in taken]
    for seat, pile in enumerate(taken):
        row = counts[seat]
        for kind in pile:
            row[3 if kind == NASTY else kind // 5] += 1
    points = [2 * row[3] for row in counts]
    for colour in range(3):
        column = [row[colour] for row in counts]
        most = max(column)
        sole = column.count(most) == 1
        for seat, n in enumerate(column):
            if not (sole and n == most):
                points[seat] += n
    return tuple(points)


def replay_plays(
    plays: Sequence[tuple[int, int]], players: int
) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """The targets, their sums and the taken piles after ``plays`` (seat, action) from the start of a stage (K11).

    Every play is public, so anyone can follow the table and the taken piles this way (K18).
    """
    targets: list[list[int]] = [[], [], []]
    sums = [0, 0, 0]
    taken: list[list[int]] = [[] for _ in range(players)]
    for seat, action in plays:
        kind, target = (action, action // 5) if action < NASTY else (NASTY, action - NASTY)
        total = sums[target] + CARD_VALUE[kind]
        if total > 13:
            taken[seat].extend(targets[target])
            targets[target] = [kind]
            sums[target] = CARD_VALUE[kind]
        else:
            targets[target].append(kind)
            sums[target] = total
    return targets, sums, taken


def explain_points(taken: Sequence[Sequence[int]]) -> dict[str, Any]:
    """Why each taken pile scores what :func:`stage_points` gives (K14, K15), as JSON-ready data: per colour each
    seat's count and the seat with the sole majority (``None`` on a tie), the nasty fours per seat, the points.

    >>> b, y, r = 0, 5, NASTY
    >>> explained = explain_points([[b, b, y], [b, r], [y, y]])
    >>> explained["colours"]["blue"], explained["colours"]["yellow"], explained["nasty"], explained["points"]
    ({'counts': [2, 1, 0], 'majority': 0}, {'counts': [1, 0, 2], 'majority': 2}, [0, 1, 0], [1, 3, 0])
    """
    colours: dict[str, dict[str, Any]] = {}
    for colour, name in enumerate(COLOURS):
        counts = [sum(1 for kind in pile if kind != NASTY and kind // 5 == colour) for pile in taken]
        most = max(counts)
        majority = counts.index(most) if most and counts.count(most) == 1 else None
        colours[name] = {"counts": counts, "majority": majority}
    return {
        "colours": colours,
        "nasty": [sum(1 for kind in pile if kind == NASTY) for pile in taken],
        "points": list(stage_points(taken)),
    }


def stage_plays(view: View) -> tuple[tuple[int, int], ...]:
    """The plays of the stage in progress (of the last stage, once the game is over): every stage is 50 plays."""
    played = len(view.history) % len(DECK) or (len(DECK) if view.is_over else 0)
    return view.history[len(view.history) - played :]


@dataclass(frozen=True, kw_only=True)
class Knizia13View(View):
    """What one seat may know (K18).

    ``taken`` holds the taken piles' cards only under the ``open_piles`` option; otherwise they are hidden, even from
    their owner (K12), though a player with a perfect memory can rebuild them from ``history``.
    """

    dealer: int
    hand: tuple[Knizia13Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    targets: tuple[tuple[Knizia13Card, ...], ...]
    taken_sizes: tuple[int, ...]
    taken: tuple[tuple[Knizia13Card, ...], ...] | None


class Knizia13Rules(Game):
    """The rules of 13 for 3 to 6 players (K4): one stage per player, two per player with 3 (K5). The game itself,
    with its words and its encoder, is :class:`~dreizehn.games.knizia13.game.Knizia13`."""

    id: ClassVar[str] = "knizia13"
    title: ClassVar[str] = "13"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    player_rule: ClassVar[str] = "K4"
    turn_rule: ClassVar[str] = "K8"
    event_params: ClassVar[dict[str, dict[str, Any]]] = {
        "knizia13.played": params_schema({
            "seat": SEAT, "card": _CARD_SCHEMA, "target": {"enum": list(COLOURS)}, "sum": SEAT, "took": _CARDS_SCHEMA,
        }),
        "knizia13.drew": params_schema({"seat": SEAT}, {"card": _CARD_SCHEMA}),
    }
    explanation_schema: ClassVar[dict[str, Any]] = params_schema({
        "colours": params_schema({
            name: params_schema({"counts": INTS, "majority": {"type": ["integer", "null"]}}) for name in COLOURS
        }),
        "nasty": INTS,
        "points": INTS,
    })
    stage_name: ClassVar[str] = "stage"
    card_type: ClassVar[type[Token]] = Knizia13Card
    action_type: ClassVar[type[Token]] = Knizia13Action
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("dealer", "seat", 0, "K6", "dealer of the first stage: a seat, or random (drawn from the seed)"),
        OptionSpec(
            "open_piles", "bool", False, "K12",
            "show every taken pile's cards in the views (by K12 they are hidden, even from their owner)",
        ),
    )

    deck = DECK

    @property
    def stages(self) -> int:
        """The number of stages: one per player, two per player with 3 players (K5)."""
        return self.players * (2 if self.players == 3 else 1)

    captures: ClassVar[bool] = True

    @classmethod
    def action_cost(cls, view: View, action: int) -> tuple[int, int] | None:
        """A play that makes its target's sum greater than 13 takes the cards on it (K11): their number, and their
        minus points by K14 (1 a colour card, 2 a nasty four; the majority, K15, is decided at the stage's end)."""
        assert isinstance(view, Knizia13View)
        kind, target = (action, action // 5) if action < NASTY else (NASTY, action - NASTY)
        cards = view.targets[target]
        if sum(CARD_VALUE[c] for c in cards) + CARD_VALUE[kind] <= 13:
            return None
        return len(cards), -sum(2 if c == NASTY else 1 for c in cards)

    def new_state(self, seed: int, *, shuffles: Sequence[Sequence[int]] | None = None) -> Knizia13State:
        state = Knizia13State.__new__(Knizia13State)
        state._init_base(self, seed, shuffles)
        state.stage_no = 0
        state.stages = self.stages
        state.dealer = int(state.options["dealer"])
        state._deal()
        return state

    def sample_state(self, view: View, rng: random.Random) -> Knizia13State:
        assert isinstance(view, Knizia13View)
        n = self.players
        state = Knizia13State.__new__(Knizia13State)
        state._init_base(self, rng.getrandbits(63), options=view.options)
        state.log = list(view.history)
        state.stage_scores = list(view.stage_scores)
        state.stages = self.stages
        state.stage_no = view.stage
        state.dealer = view.dealer
        state.turn = view.current_player
        # The targets and taken piles follow from the public plays of this stage (K11, K18).
        stage_log = stage_plays(view)
        state.plays = len(stage_log)
        targets, sums, taken = replay_plays(stage_log, n)
        state.targets, state.sums, state.taken = targets, sums, taken
        unseen = Counter(DECK)
        unseen.subtract(int(c) for c in view.hand)
        for pile in (*targets, *taken):
            unseen.subtract(pile)
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        hands: list[list[int]] = []
        for seat in range(n):
            if seat == view.seat:
                hands.append([int(c) for c in view.hand])
            else:
                size = view.hand_sizes[seat]
                hands.append(pool[:size])
                del pool[:size]
        state.hands = hands
        state.stock = pool
        return state

class Knizia13State(State):
    """A game of 13 in progress."""

    __slots__ = ("dealer", "hands", "plays", "stage_no", "stages", "stock", "sums", "taken", "targets")

    dealer: int
    hands: list[list[int]]
    plays: int
    stage_no: int
    stages: int
    stock: list[int]
    sums: list[int]
    taken: list[list[int]]
    targets: list[list[int]]

    def _deal(self) -> None:
        """Shuffle all 50 cards and deal 5 to each player, one at a time from the dealer's left (K7)."""
        n = self.game.players
        order = self._shuffle(DECK)
        hands: list[list[int]] = [[] for _ in range(n)]
        first = (self.dealer + 1) % n
        for i in range(HAND_SIZE * n):
            hands[(first + i) % n].append(order[i])
        self.hands = hands
        self.stock = order[HAND_SIZE * n :][::-1]  # top of the stock is the last element
        self.targets = [[], [], []]
        self.sums = [0, 0, 0]
        self.taken = [[] for _ in range(n)]
        self.plays = 0
        self.turn = first  # K8

    @property
    def stage(self) -> int:
        return self.stage_no

    def legal_actions(self) -> list[Knizia13Action]:
        if self.turn < 0:
            return []
        actions: list[Knizia13Action] = []
        for kind in sorted(set(self.hands[self.turn])):
            if kind == NASTY:
                actions.extend(_NASTY_ACTIONS)
            else:
                actions.append(_ACTIONS[kind])
        return actions

    def may_shuffle(self, action: int) -> bool:
        """Only the last play of a stage deals (K13, K4)."""
        return self.plays == len(DECK) - 1

    def _apply(self, action: int) -> None:
        seat = self.turn
        if action < NASTY:
            kind = action
            target = action // 5
        else:
            kind = NASTY
            target = action - NASTY
        hand = self.hands[seat]
        if kind not in hand:
            raise refusal(seat, kind)
        hand.remove(kind)
        total = self.sums[target] + CARD_VALUE[kind]
        if total > 13:  # K11: take what lay there before; the card played stays alone
            self.taken[seat].extend(self.targets[target])
            self.targets[target] = [kind]
            self.sums[target] = CARD_VALUE[kind]
        else:
            self.targets[target].append(kind)
            self.sums[target] = total
        if self.stock:
            hand.append(self.stock.pop())  # K9
        self.plays += 1
        n = self.game.players
        if self.plays == len(DECK):  # K13
            self.stage_scores.append(stage_points(self.taken))
            self.stage_no += 1
            if self.stage_no == self.stages:  # K17
                self.turn = -1
                return
            self.dealer = (self.dealer + 1) % n  # K4
            self._deal()
        else:
            self.turn = (seat + 1) % n

    def _action_events(self, before: State, seat: int, action: int) -> list[Event]:
        assert isinstance(before, Knizia13State)
        play = _ACTIONS[action]
        target = play.target
        total = before.sums[target] + CARD_VALUE[play.card]
        took = [_CARDS[k].text for k in before.targets[target]] if total > 13 else []
        events = [Event("knizia13.played", {
            "seat": seat, "card": play.card.text, "target": COLOURS[target],
            "sum": CARD_VALUE[play.card] if took else total, "took": took,
        })]
        if before.stock:
            drawn = _CARDS[before.stock[-1]].text
            events.append(Event("knizia13.drew", {"seat": seat}, private={seat: {"card": drawn}}))
        return events

    def _explain_stage(self, before: State, seat: int, action: int) -> dict[str, Any]:
        _, _, taken = replay_plays(self.log[-len(DECK):], self.game.players)
        return explain_points(taken)

    def copy(self) -> Knizia13State:
        other = Knizia13State.__new__(Knizia13State)
        self._copy_base(other)
        other.dealer = self.dealer
        other.hands = [h.copy() for h in self.hands]
        other.plays = self.plays
        other.stage_no = self.stage_no
        other.stages = self.stages
        other.stock = self.stock.copy()
        other.sums = self.sums.copy()
        other.taken = [t.copy() for t in self.taken]
        other.targets = [t.copy() for t in self.targets]
        return other

    def view(self, seat: int) -> Knizia13View:
        cards = _CARDS
        return Knizia13View(
            **self._view_fields(seat),
            dealer=self.dealer,
            hand=tuple(cards[k] for k in sorted(self.hands[seat])),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            targets=tuple(tuple(cards[k] for k in t) for t in self.targets),
            taken_sizes=tuple(len(t) for t in self.taken),
            taken=(
                tuple(tuple(cards[k] for k in sorted(t)) for t in self.taken)
                if self.options["open_piles"]
                else None
            ),
        )

    def resample_hidden(self, seat: int, rng: random.Random) -> Knizia13State:
        other = self.copy()
        pool = [k for s, h in enumerate(self.hands) if s != seat for k in h] + self.stock
        rng.shuffle(pool)
        for s, hand in enumerate(other.hands):
            if s != seat:
                size = len(hand)
                other.hands[s] = pool[:size]
                del pool[:size]
        other.stock = pool
        return other

    def all_cards(self) -> list[int]:
        if self.turn < 0:
            return []
        out = [k for h in self.hands for k in h] + self.stock
        for pile in (*self.targets, *self.taken):
            out.extend(pile)
        return out


def refusal(seat: int, kind: int) -> IllegalActionError:
    """Why ``seat`` may not play a card of ``kind``: it holds none (K9), the only rule a play of 13 can break. The
    one source of the refusal: the engine and the compiled kernel's ``why`` both ask it."""
    return IllegalActionError("knizia13.error.not_held", rule="K9", seat=seat, card=Knizia13Card._texts[kind])
