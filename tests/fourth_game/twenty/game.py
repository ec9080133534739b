"""The rules of Twenty (Z1–Z7) and its words.

- Z1: 2 to 4 players; 20 cards, A1 … A10 and B1 … B10, each card's value its number.
- Z2: each player is dealt 4 cards, one at a time from seat 0; the rest is the face-down stock. Seat 0 begins.
- Z3: in turn, a player plays a card of their hand face up onto the pile.
- Z4: a card that brings the pile's sum over 20 makes its player take the pile, the card played included; the pile
  is then empty.
- Z5: after playing, the player draws the stock's top card while there is one.
- Z6: the game ends when every hand is empty; the pile left is nobody's.
- Z7: a taken card costs 1 point; the highest total (the fewest cards taken) wins.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from dreizehn.core.cards import Token
from dreizehn.core.encoding import BlockSpec, Encoder, Vector, counts, limits
from dreizehn.core.errors import IllegalActionError
from dreizehn.core.events import INTS, SEAT, Event, cards_schema, params_schema
from dreizehn.core.game import Game, OptionSpec, State, View, player_name, say_view_head
from dreizehn.core.registry import register
from dreizehn.words import Words

HAND = 4
LIMIT = 20


class TwentyCard(Token):
    """A card: ``A1`` … ``A10``, ``B1`` … ``B10`` (Z1)."""

    __slots__ = ()


TwentyCard._define([f"{suit}{value}" for suit in "AB" for value in range(1, 11)], noun="card of Twenty",
                   noun_key="twenty.noun.card")
DECK = tuple(range(20))
VALUE = tuple(k % 10 + 1 for k in DECK)
_CARDS = TwentyCard.all()
_CARD, _CARD_LIST = cards_schema(TwentyCard._texts)


@dataclass(frozen=True, kw_only=True)
class TwentyView(View):
    """What one seat may know: its hand, the pile, the sizes of the hands and the stock, the cards each seat took."""

    hand: tuple[TwentyCard, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[TwentyCard, ...]
    taken: tuple[tuple[TwentyCard, ...], ...]


@register
class Twenty(Game):
    """Twenty for 2 to 4 players (Z1)."""

    id: ClassVar[str] = "twenty"
    title: ClassVar[str] = "Twenty"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    player_rule: ClassVar[str] = "Z1"
    turn_rule: ClassVar[str] = "Z3"
    order: ClassVar[int] = 4
    high_score_wins: ClassVar[bool] = True
    heuristic: ClassVar[str] = "twenty.heuristic"
    encoder: ClassVar[str] = "twenty.game"
    card_type: ClassVar[type[Token]] = TwentyCard
    action_type: ClassVar[type[Token]] = TwentyCard
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    search: ClassVar[Mapping[str, object]] = {"iterations": 100}
    event_params: ClassVar[dict[str, dict[str, Any]]] = {
        "twenty.played": params_schema({"seat": SEAT, "card": _CARD, "sum": SEAT, "took": _CARD_LIST}),
        "twenty.drew": params_schema({"seat": SEAT}, {"card": _CARD}),
    }
    explanation_schema: ClassVar[dict[str, Any]] = params_schema({"taken": INTS, "points": INTS})
    deck = DECK

    def new_state(self, seed: int, *, shuffles: Sequence[Sequence[int]] | None = None) -> TwentyState:
        state = TwentyState.__new__(TwentyState)
        state._init_base(self, seed, shuffles)
        order = state._shuffle(DECK)
        n = self.players
        state.hands = [[order[i] for i in range(seat, HAND * n, n)] for seat in range(n)]
        state.stock = order[HAND * n:][::-1]
        state.pile, state.taken, state.turn = [], [[] for _ in range(n)], 0
        return state

    def sample_state(self, view: View, rng: random.Random) -> TwentyState:
        assert isinstance(view, TwentyView)
        state = TwentyState.__new__(TwentyState)
        state._init_base(self, rng.getrandbits(63), options=view.options)
        state.log, state.stage_scores, state.turn = list(view.history), list(view.stage_scores), view.current_player
        unseen = Counter(DECK)
        unseen.subtract([*view.hand, *view.pile, *(card for pile in view.taken for card in pile)])
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        state.hands = []
        for seat, size in enumerate(view.hand_sizes):
            state.hands.append([int(card) for card in view.hand] if seat == view.seat else pool[:size])
            if seat != view.seat:
                del pool[:size]
        state.stock, state.pile = pool, [int(card) for card in view.pile]
        state.taken = [[int(card) for card in pile] for pile in view.taken]
        return state


    # -- words (locale/<lang>.po in this folder) -------------------------------------------------------------------

    def say_card(self, words: Words, card: int) -> str:
        text = _CARDS[card].text
        return words("twenty.card", suit=text[0], value=VALUE[card])

    def say_action(self, words: Words, action: int, player: str | None = None) -> str:
        key = "twenty.action" if player is None else "twenty.action.done"
        return words(key, card=self.say_card(words, action), player=player)

    def event_key(self, event: Event) -> str:
        if event.key == "twenty.played" and event.params.get("took"):
            return "twenty.played.took"
        if event.key == "twenty.drew" and "card" in event.params:
            return "twenty.drew.card"
        return event.key

    def event_words(self, words: Words, event: Event, names: Sequence[str]) -> dict[str, Any]:
        params = super().event_words(words, event, names)
        if "card" in params:
            params["card"] = self.say_card(words, TwentyCard.parse(str(params["card"])))
        if params.get("took"):
            params["n"] = len(params["took"])
        return params

    def say_explanation(self, words: Words, explanation: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        return [words("twenty.explain", n=int(taken), player=player_name(words, names, seat))
                for seat, taken in enumerate(explanation.get("taken", []))]

    def say_view(self, words: Words, view: View, names: Sequence[str]) -> list[str]:
        lines = say_view_head(self, words, view, names)
        if isinstance(view, TwentyView):
            said = words.join([self.say_card(words, card) for card in view.pile])
            lines.append(words("twenty.view.pile", n=sum(VALUE[card] for card in view.pile), cards=said or "–"))
            if view.hand:
                lines.append(words("twenty.view.hand", cards=words.join([self.say_card(words, c) for c in view.hand])))
        return lines


class TwentyState(State):
    """A game of Twenty in progress."""

    __slots__ = ("hands", "pile", "stock", "taken")

    hands: list[list[int]]
    pile: list[int]
    stock: list[int]
    taken: list[list[int]]

    @property
    def stage(self) -> int:
        return 0 if self.turn >= 0 else 1

    def legal_actions(self) -> list[TwentyCard]:
        return [] if self.turn < 0 else [_CARDS[k] for k in sorted(set(self.hands[self.turn]))]

    def _apply(self, action: int) -> None:
        seat, hand = self.turn, self.hands[self.turn]
        if action not in hand:
            raise IllegalActionError("twenty.error.not_held", rule="Z3", card=_CARDS[action].text)
        hand.remove(action)
        self.pile.append(action)
        if sum(VALUE[k] for k in self.pile) > LIMIT:  # Z4
            self.taken[seat].extend(self.pile)
            self.pile = []
        if self.stock:  # Z5
            hand.append(self.stock.pop())
        n = self.game.players
        if not any(self.hands):  # Z6, Z7
            self.stage_scores.append(tuple(-len(pile) for pile in self.taken))
            self.turn = -1
        else:
            self.turn = next(s % n for s in range(seat + 1, seat + 1 + n) if self.hands[s % n])

    def _action_events(self, before: State, seat: int, action: int) -> list[Event]:
        assert isinstance(before, TwentyState)
        pile = [*before.pile, action]
        total = sum(VALUE[k] for k in pile)
        took = [_CARDS[k].text for k in pile] if total > LIMIT else []
        events = [Event("twenty.played", {"seat": seat, "card": _CARDS[action].text, "sum": 0 if took else total,
                                          "took": took})]
        if before.stock:
            events.append(Event("twenty.drew", {"seat": seat}, private={seat: {"card": _CARDS[before.stock[-1]].text}}))
        return events

    def _explain_stage(self, before: State, seat: int, action: int) -> dict[str, Any]:
        return {"taken": [len(pile) for pile in self.taken], "points": list(self.stage_scores[-1])}

    def copy(self) -> TwentyState:
        other = TwentyState.__new__(TwentyState)
        self._copy_base(other)
        other.hands, other.pile = [h.copy() for h in self.hands], self.pile.copy()
        other.stock, other.taken = self.stock.copy(), [t.copy() for t in self.taken]
        return other

    def view(self, seat: int) -> TwentyView:
        return TwentyView(
            **self._view_fields(seat), hand=tuple(_CARDS[k] for k in sorted(self.hands[seat])),
            hand_sizes=tuple(len(h) for h in self.hands), stock_size=len(self.stock),
            pile=tuple(_CARDS[k] for k in self.pile), taken=tuple(tuple(_CARDS[k] for k in t) for t in self.taken),
        )

    def resample_hidden(self, seat: int, rng: random.Random) -> TwentyState:
        other = self.copy()
        pool = [k for s, h in enumerate(self.hands) if s != seat for k in h] + self.stock
        rng.shuffle(pool)
        for s, hand in enumerate(other.hands):
            if s != seat:
                other.hands[s] = pool[:len(hand)]
                del pool[:len(hand)]
        other.stock = pool
        return other

    def all_cards(self) -> list[int]:
        if self.turn < 0:
            return []
        return [*(k for h in self.hands for k in h), *self.stock, *self.pile, *(k for t in self.taken for k in t)]


def encoder(game: Twenty) -> Encoder:
    """The game's tensors for research (its class names this module as its ``encoder``)."""
    n, k = game.players, len(DECK)

    def fill(enc: Encoder, any_view: View, out: Vector) -> None:
        view = cast(TwentyView, any_view)
        block = enc.observation_layout.block
        counts(block(out, "hand"), view.hand)
        counts(block(out, "pile"), view.pile)
        block(out, "stock_size")[0] = view.stock_size
        for i, seat in enumerate(enc.seats(view)):
            block(out, "hand_sizes")[i] = view.hand_sizes[seat]
            block(out, "taken")[i] = len(view.taken[seat])

    count, size = limits(game)
    blocks: list[BlockSpec] = [
        ("hand", (k,), "the observer's cards", count), ("pile", (k,), "the pile's cards", count),
        ("stock_size", (1,), "cards in the stock", size), ("hand_sizes", (n,), "cards in each hand", size),
        ("taken", (n,), "cards each seat took", size),
    ]
    return Encoder(game, blocks, fill, 1, (-float(k), 0.0))
