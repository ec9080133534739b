"""Three Thirteen, the rummy game of eleven rounds: game id ``three-thirteen``.

Rules T1–T13 of the specification (``shared/rules/three-thirteen.md``; notation and view in
``docs/games/three-thirteen.md``).

Cards are written rank then suit: ``AS``, ``7H``, ``10D``, ``QC`` (``T`` is read for 10, case does not matter; the
canonical text uses ``10``). Card kind ``k = suit * 13 + rank - 1`` with suits 0..3 = clubs, diamonds, hearts,
spades and ranks 1..13 = A..K. With several decks, identical cards are the same kind: hands are multisets.

A turn is two actions by the same seat (T6, T8): first ``draw`` (0, the top card of the stock) or ``take`` (1, the top
card of the discard pile), then ``discard X`` (2 + k) or ``out X`` (54 + k: lay every other card in melds, arranged by
the engine with the meld solver of :mod:`dreizehn.games.three_thirteen.melds`, and discard X).

Decisions of the project where the specification leaves room:

- ``decks`` defaults by T1 (1 deck for 2 players, 2 for 3–4, from 5 on the smallest d with 52·d ≥ 13·players + 27);
  a value below what the last round needs (52·decks ≥ 13·players + 2: the deal, the discard pile's first card and one
  card to draw) is refused naming T1. :attr:`Game.deck` holds each kind ``decks`` times, sorted.
- Each round shuffles the whole deck (in kind order) with one shuffle: the output, top first, is dealt one card at a
  time clockwise from the seat after the dealer; the next card starts the discard pile; the rest, in order, is the
  stock (its first card on top). The dealer passes one seat clockwise each round; the seat after the dealer starts.
- T10 ``reshuffle``: a ``draw`` from an empty stock first shuffles the discard pile less its top card (input sorted by
  kind, output top first) into a new stock; ``draw`` is not legal when that would leave nothing to draw.
  ``end-round``: ``draw`` from an empty stock is legal and ends the round at once, before the draw (T11 scoring).
- T10 ``turn_limit`` (an option of the project, for research: the rules have none; 0, the default, is no limit): a
  round lasts at most ``turn_limit`` turns. A turn is one seat's ``draw`` or ``take`` with the ``discard`` or ``out``
  that follows it; the turns of every seat count together, the last turns of T9 included. The round ends at once when
  its ``turn_limit``-th turn is over (before the next turn; T9's last turns still owed are not played), everyone
  scored as under ``end-round`` (T11). So a round has at most ``2 * turn_limit`` actions.
- T9: after the first player goes out, each other player has exactly one more turn, in order (they may go out too);
  then the round ends. A player who went out has laid all their cards: their hand is empty and they score 0.
- T13: each seat's view shows the multiset of cards known to be in every hand (cards taken from the discard pile,
  less one of a kind for each card of that kind discarded since; reset each round), the melds of the seats that went
  out, the previous round's hands with their arrangements, and after a reshuffle in this round the cards reshuffled
  and those that may still be in the stock as this seat sees it (the reshuffled cards less those it drew since).
- Words (the catalogue domain ``three-thirteen``, docs/games/three-thirteen.md "In words"): :func:`say_card`,
  :func:`say_melds` and :func:`say_hand` say cards, melds and scored hands; the game's ``say_*`` methods say its
  actions, events (a drawn card only to its drawer), round explanations and views. Refusals are data: a code
  ``three-thirteen.error.*``, the rule and the cards as text.
- Sampling (:meth:`ThreeThirteen.sample_state`, :meth:`ThreeThirteenState.resample_hidden`): the unseen pool is the
  deck less the seat's hand, the discard pile, the laid melds and the cards known in other hands; the stock is a
  uniformly random subset of the pool (after a reshuffle this round: of the pool's cards among the seat's stock
  candidates), shuffled; the rest fills the other hands beside their known cards. Future shuffles come from ``rng``.

>>> import dreizehn
>>> state = dreizehn.new_game("three-thirteen", players=2, seed=3)
>>> [card.text for card in state.view(1).hand], state.view(1).discard_pile, state.view(1).wild_rank
(['7C', 'JC', '4H'], (ThreeThirteenCard.parse('3S'),), 3)
>>> state.legal_texts()
['draw', 'take']
>>> state.apply("take")
>>> state.view(0).known
((), (ThreeThirteenCard.parse('3S'),))
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dreizehn.core.cards import Token
from dreizehn.core.errors import IllegalActionError, InvalidOptionError
from dreizehn.core.events import BOOL, INTS, SEAT, Event, cards_schema, params_schema
from dreizehn.core.game import Game, Option, OptionSpec, State, View
from dreizehn.games.three_thirteen.melds import arrange, card_value, go_out_discards

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The rank texts, rank 1 (ace) to 13 (king)."""
SUITS = "CDHS"
"""The suit letters: clubs, diamonds, hearts, spades (suit numbers 0..3)."""
KINDS = 52
ROUNDS = 11
"""A game is 11 rounds (T3)."""
RESEARCH_TURN_LIMIT = 200
"""``turn_limit`` (T10) in the research adapters: a round ends after 200 turns, every seat's counted. Games between
the ``heuristic`` bots never came near it (docs/envs.md: at most 40 turns a round with 2 players, 88 with 8), while
uniformly random players, who seldom go out, reach it in most rounds."""
DRAW = 0
TAKE = 1
DISCARD = 2
"""Action ``DISCARD + k`` discards kind ``k``."""
OUT = DISCARD + KINDS
"""Action ``OUT + k`` goes out discarding kind ``k``."""
TURN_LIMIT_MAX = 100_000
"""The highest value of the option ``turn_limit``."""


def deal_size(round_no: int) -> int:
    """Cards dealt to each player in round ``round_no`` (1 … 11): r + 2 (T3); it is also the wild rank.

    >>> [deal_size(r) for r in range(1, 12)]
    [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    """
    return round_no + 2


def default_decks(players: int) -> int:
    """The number of decks by T1: 1 for 2 players, 2 for 3 or 4, from 5 on the smallest d with 52·d ≥ 13·p + 27.

    >>> [default_decks(p) for p in range(2, 9)]
    [1, 2, 2, 2, 3, 3, 3]
    """
    if players <= 2:
        return 1
    if players <= 4:
        return 2
    return -(-(13 * players + 27) // 52)


class ThreeThirteenCard(Token):
    """A card kind: rank and suit letter, ``AS``, ``7H``, ``10D``, ``QC`` (``TD`` is read as ``10D``)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """1 (ace) … 13 (king)."""
        return self % 13 + 1

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self // 13


ThreeThirteenCard._define(
    [f"{RANKS[k % 13]}{SUITS[k // 13]}" for k in range(KINDS)],
    aliases={f"T{s}": f"10{s}" for s in SUITS},
    noun="card of Three Thirteen (such as AS, 10H or QD)", noun_key="three-thirteen.noun.card",
)
_CARDS = ThreeThirteenCard.all()


class ThreeThirteenAction(Token):
    """An action: ``draw``, ``take``, ``discard 7H`` or ``out 7H`` (go out discarding the 7H)."""

    __slots__ = ()

    @property
    def card(self) -> ThreeThirteenCard | None:
        """The card discarded (by ``discard`` or ``out``); ``None`` for ``draw`` and ``take``."""
        if self < DISCARD:
            return None
        return _CARDS[(self - DISCARD) % KINDS]

    @property
    def goes_out(self) -> bool:
        """Whether the action is ``out X``."""
        return self >= OUT


ThreeThirteenAction._define(
    ["draw", "take"]
    + [f"discard {c}" for c in ThreeThirteenCard._texts]
    + [f"out {c}" for c in ThreeThirteenCard._texts],
    aliases={f"{verb} T{s}": f"{verb} 10{s}" for verb in ("discard", "out") for s in SUITS},
    noun="Three Thirteen action (draw, take, discard 7H or out 7H)", noun_key="three-thirteen.noun.action",
)
_ACTIONS = ThreeThirteenAction.all()
_CARD_SCHEMA, _CARDS_SCHEMA = cards_schema(ThreeThirteenCard._texts)
_MELDS_SCHEMA = {"type": "array", "items": _CARDS_SCHEMA}
_DRAW_TAKE: list[ThreeThirteenAction] = [_ACTIONS[DRAW], _ACTIONS[TAKE]]
_TAKE_ONLY: list[ThreeThirteenAction] = [_ACTIONS[TAKE]]

CardTuple = tuple[ThreeThirteenCard, ...]
Melds = tuple[CardTuple, ...]


@dataclass(frozen=True, kw_only=True)
class ThreeThirteenView(View):
    """What one seat may know (T13). Card multisets are sorted, so equal information gives equal views.

    ``round`` is 1 … 11 (the last round once the game is over) and ``wild_rank`` its wild rank (T3). ``drawn`` tells
    whether the seat to move has drawn (then it discards or goes out). ``known[s]`` is the multiset of cards known to
    be in seat ``s``'s hand: those it took from the discard pile this round, less one of a kind for each card of that
    kind it discarded since. ``out_seats`` lists the seats that went out this round, in order, and ``out_melds[s]``
    the melds seat ``s`` laid (empty if it has not gone out); ``turns_left`` counts the turns still to play once
    someone went out, the current one included (-1 before); ``turns_played`` counts the turns of this round that are
    over, every seat's (what the option ``turn_limit`` bounds, T10). ``previous_hands``, ``previous_melds`` and
    ``previous_deadwood`` show every hand of the previous round as scored (empty in round 1; the penalties are in
    ``stage_scores``). ``reshuffled`` is the multiset of cards that became the stock at the last reshuffle of this
    round (``None`` if none), and ``stock_candidates`` those of them that may still be in the stock as this seat
    sees it (the reshuffled cards less those this seat drew since).
    """

    round: int
    wild_rank: int
    dealer: int
    hand: CardTuple
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_pile: CardTuple
    drawn: bool
    known: tuple[CardTuple, ...]
    out_seats: tuple[int, ...]
    out_melds: tuple[Melds, ...]
    turns_left: int
    turns_played: int
    previous_hands: tuple[CardTuple, ...]
    previous_melds: tuple[Melds, ...]
    previous_deadwood: tuple[CardTuple, ...]
    reshuffled: CardTuple | None
    stock_candidates: CardTuple | None


class ThreeThirteenRules(Game):
    """The rules of Three Thirteen for 2 to 8 players (T1): 11 rounds of rummy with a changing wild rank (T3). The
    game itself, with its words and its encoder, is :class:`~dreizehn.games.three_thirteen.game.ThreeThirteen`."""

    id: ClassVar[str] = "three-thirteen"
    title: ClassVar[str] = "Three Thirteen"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    player_rule: ClassVar[str] = "T1"
    turn_rule: ClassVar[str] = "T5"
    quick_options: ClassVar[dict[str, object]] = {"turn_limit": 40}
    event_params: ClassVar[dict[str, dict[str, Any]]] = {
        "three-thirteen.drew": params_schema({"seat": SEAT}, {"card": _CARD_SCHEMA}),
        "three-thirteen.took": params_schema({"seat": SEAT, "card": _CARD_SCHEMA}),
        "three-thirteen.discarded": params_schema({"seat": SEAT, "card": _CARD_SCHEMA}),
        "three-thirteen.went_out": params_schema({"seat": SEAT, "card": _CARD_SCHEMA, "melds": _MELDS_SCHEMA}),
        "three-thirteen.reshuffled": params_schema({"cards": SEAT}),
        "three-thirteen.stock_out": params_schema({"seat": SEAT}),
        "three-thirteen.turn_limit": params_schema({"turns": SEAT}),
    }
    explanation_schema: ClassVar[dict[str, Any]] = params_schema({
        "hands": {"type": "array", "items": params_schema({
            "melds": _MELDS_SCHEMA, "deadwood": _CARDS_SCHEMA, "out": BOOL,
            "deadwood_points": {"type": "array", "items": SEAT},
        })},
        "wild_rank": SEAT,
        "ended": {"enum": ["out", "stock", "limit"]},
        "points": INTS,
    })
    stage_name: ClassVar[str] = "round"
    high_score_wins: ClassVar[bool] = False
    eager_actions: ClassVar[frozenset[int]] = frozenset(range(OUT, OUT + KINDS))
    card_type: ClassVar[type[Token]] = ThreeThirteenCard
    action_type: ClassVar[type[Token]] = ThreeThirteenAction
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "decks", "int", None, "T1",
            "number of 52-card decks (default: 1 for 2 players, 2 for 3-4, then enough for the last round and a stock)",
            low=1, high=12,
        ),
        OptionSpec(
            "aces", "choice", "low", "T2",
            "low: aces only below the 2; low-or-high: an ace may also follow the king (an unmatched ace costs 15)",
            choices=("low", "low-or-high"),
        ),
        OptionSpec(
            "all_wild_melds", "choice", "allowed", "T7",
            "allowed: a meld may be made of wild cards only; forbidden: each meld needs a card not of the wild rank",
            choices=("allowed", "forbidden"),
        ),
        OptionSpec(
            "stock_out", "choice", "reshuffle", "T10",
            "when the stock is empty: reshuffle the discard pile less its top card, or end the round",
            choices=("reshuffle", "end-round"),
        ),
        OptionSpec("dealer", "seat", 0, "T4", "dealer of the first round: a seat, or random (drawn from the seed)"),
        OptionSpec(
            "turn_limit", "int", 0, "T10",
            "the most turns a round may last, every seat's counted (0: no limit); the round then ends as under "
            "end-round",
            low=0, high=TURN_LIMIT_MAX,
        ),
    )

    def __init__(self, players: int, options: Mapping[str, object] | None = None) -> None:
        super().__init__(players, options)
        decks = int(self.options["decks"])
        self.deck = tuple(k for k in range(KINDS) for _ in range(decks))
        self.decks = decks

    def _default(self, spec: OptionSpec) -> Option:
        if spec.name == "decks":
            return default_decks(self.players)
        return spec.default

    def _check_options(self) -> None:
        decks = int(self.options["decks"])
        need = 13 * self.players + 2
        if KINDS * decks < need:
            least = -(-need // KINDS)
            raise InvalidOptionError("three-thirteen.error.decks", rule="T1", n=decks, players=self.players,
                                     least=least)

    def max_actions(self) -> int | None:
        """A turn is two actions (T6) and a round at most ``turn_limit`` turns (T10), the last turns of T9 included: 11
        rounds of at most ``2 * turn_limit`` actions (a ``draw`` that ends a round at an empty stock under
        ``stock_out=end-round`` ends its turn after one action, so it never makes a round longer). Without a limit
        there is no bound: players who keep taking the discard never run the stock out."""
        limit = int(self.options["turn_limit"])
        return ROUNDS * 2 * limit if limit > 0 else None

    def max_seat_actions(self) -> int | None:
        """The turns of a round go round the table, so a seat has at most ``ceil(turn_limit / players)`` of a
        round's turns: ``11 * 2 * ceil(turn_limit / players)`` actions."""
        limit = int(self.options["turn_limit"])
        return ROUNDS * 2 * -(-limit // self.players) if limit > 0 else None

    def new_state(self, seed: int, *, shuffles: Sequence[Sequence[int]] | None = None) -> ThreeThirteenState:
        state = ThreeThirteenState.__new__(ThreeThirteenState)
        state._init_base(self, seed, shuffles)
        state._set_flags()
        state.round_no = 0
        state.dealer = int(state.options["dealer"])
        state.previous = ((), (), ())
        state._deal()
        return state

    def sample_state(self, view: View, rng: random.Random) -> ThreeThirteenState:
        assert isinstance(view, ThreeThirteenView)
        n = self.players
        state = ThreeThirteenState.__new__(ThreeThirteenState)
        state._init_base(self, rng.getrandbits(63), options=view.options)
        state._set_flags()
        state.log = list(view.history)
        state.stage_scores = list(view.stage_scores)
        state.round_no = view.stage
        state.dealer = view.dealer
        state.turn = view.current_player
        state.drawn = view.drawn
        state.wild = view.wild_rank
        state.previous = (view.previous_hands, view.previous_melds, view.previous_deadwood)
        state.pile = [int(c) for c in view.discard_pile]
        state.known = [[int(c) for c in cards] for cards in view.known]
        state.laid = list(view.out_melds)
        state.out_order = list(view.out_seats)
        state.turns_left = view.turns_left
        state.turns_played = view.turns_played
        state.reshuffled = None if view.reshuffled is None else tuple(int(c) for c in view.reshuffled)
        state._outs = None
        state.hands = [[] for _ in range(n)]
        state.hands[view.seat] = [int(c) for c in view.hand]
        state.stock = []
        state.drawn_since = [[] for _ in range(n)]
        if view.is_over:
            return state
        candidates = None if view.stock_candidates is None else [int(c) for c in view.stock_candidates]
        state._redeal(view.seat, list(view.hand_sizes), view.stock_size, candidates, rng)
        return state

def _minus(cards: Sequence[int], removed: Sequence[int]) -> list[int]:
    """The multiset ``cards`` less ``removed`` (each element once), order kept."""
    out = list(cards)
    for k in removed:
        out.remove(k)
    return out


class ThreeThirteenState(State):
    """A game of Three Thirteen in progress.

    ``hands`` are sorted lists of kinds; ``stock`` has its top card last; ``pile`` (the discard pile) runs bottom to
    top. ``laid[s]`` holds the melds of a seat that went out this round (its hand is then empty).
    """

    __slots__ = (
        "_aces_high", "_all_wild", "_end_round", "_outs", "_turn_limit", "dealer", "drawn", "drawn_since", "hands",
        "known", "laid", "out_order", "pile", "previous", "reshuffled", "round_no", "stock", "turns_left",
        "turns_played", "wild",
    )

    _aces_high: bool
    _all_wild: bool
    _end_round: bool
    _outs: tuple[int, ...] | None
    _turn_limit: int
    dealer: int
    drawn: bool
    drawn_since: list[list[int]]
    hands: list[list[int]]
    known: list[list[int]]
    laid: list[Melds]
    out_order: list[int]
    pile: list[int]
    previous: tuple[tuple[CardTuple, ...], tuple[Melds, ...], tuple[CardTuple, ...]]
    reshuffled: tuple[int, ...] | None
    round_no: int
    stock: list[int]
    turns_left: int
    turns_played: int
    wild: int

    def _set_flags(self) -> None:
        self._aces_high = self.options["aces"] == "low-or-high"
        self._all_wild = self.options["all_wild_melds"] == "allowed"
        self._end_round = self.options["stock_out"] == "end-round"
        self._turn_limit = int(self.options["turn_limit"])

    def _clear_round(self, hands: list[list[int]], stock: list[int], pile: list[int]) -> None:
        """Lay out a round's cards and forget what the last round made known."""
        n = self.game.players
        self.hands = hands
        self.stock = stock
        self.pile = pile
        self.known = [[] for _ in range(n)]
        self.laid = [() for _ in range(n)]
        self.out_order = []
        self.turns_left = -1
        self.turns_played = 0
        self.reshuffled = None
        self.drawn_since = [[] for _ in range(n)]

    def _deal(self) -> None:
        """Shuffle the whole deck, deal r + 2 cards each from the dealer's left, turn up the next card (T3–T5)."""
        n = self.game.players
        size = self.round_no + 3
        order = self._shuffle(self.game.deck)
        hands: list[list[int]] = [[] for _ in range(n)]
        first = (self.dealer + 1) % n
        for i in range(size * n):
            hands[(first + i) % n].append(order[i])
        for hand in hands:
            hand.sort()
        self._clear_round(hands, order[size * n + 1 :][::-1], [order[size * n]])  # the stock's top is its end
        self.drawn = False
        self.wild = size
        self._outs = None
        self.turn = first

    # -- the protocol ---------------------------------------------------------------------------------------------

    @property
    def stage(self) -> int:
        return self.round_no

    def go_out_discards(self) -> tuple[int, ...]:
        """The kinds the seat to move may discard to go out (T8), once it has drawn; cached until its hand changes."""
        outs = self._outs
        if outs is None:
            outs = go_out_discards(self.hands[self.turn], self.wild, self._aces_high, self._all_wild)
            self._outs = outs
        return outs

    def legal_actions(self) -> list[ThreeThirteenAction]:
        turn = self.turn
        if turn < 0:
            return []
        if not self.drawn:
            if self.stock or self._end_round or len(self.pile) > 1:
                return _DRAW_TAKE.copy()
            return _TAKE_ONLY.copy()
        actions = _ACTIONS
        out: list[ThreeThirteenAction] = []
        last = -1
        for k in self.hands[turn]:
            if k != last:
                out.append(actions[DISCARD + k])
                last = k
        outs = self._outs
        if outs is None:
            outs = self.go_out_discards()
        for k in outs:
            out.append(actions[OUT + k])
        return out

    def may_shuffle(self, action: int) -> bool:
        """A draw from an empty stock ends the round or reshuffles the discard pile (T10); a discard may end the
        round, as the last of the last turns (T9) or at the turn limit (T10), and the next round is dealt."""
        if action < DISCARD:
            return action == DRAW and not self.stock
        return self.turns_left == 1 or self.turns_played + 1 == self._turn_limit

    def _apply(self, action: int) -> None:
        seat = self.turn
        if action < DISCARD:
            if self.drawn:
                raise refusal(seat, action, True, False)
            if action == DRAW:
                if not self.stock:
                    if self._end_round:  # T10: the round ends before the draw
                        self._round_end()
                        return
                    if len(self.pile) < 2:
                        raise refusal(seat, action, False, False)
                    self._reshuffle()
                card = self.stock.pop()
                if self.reshuffled is not None:
                    self.drawn_since[seat].append(card)
            else:
                if not self.pile:
                    raise refusal(seat, action, False, False)
                card = self.pile.pop()
                insort(self.known[seat], card)
            insort(self.hands[seat], card)
            self.drawn = True
            self._outs = None
            return
        if not self.drawn:
            raise refusal(seat, action, False, False)
        going_out = action >= OUT
        kind = action - OUT if going_out else action - DISCARD
        hand = self.hands[seat]
        i = bisect_left(hand, kind)
        if i == len(hand) or hand[i] != kind:
            raise refusal(seat, action, True, False)
        if going_out and kind not in self.go_out_discards():
            raise refusal(seat, action, True, True)
        del hand[i]
        self.pile.append(kind)
        known = self.known[seat]
        j = bisect_left(known, kind)
        if j < len(known) and known[j] == kind:
            del known[j]
        self.drawn = False
        self._outs = None
        n = self.game.players
        if going_out:  # T8: lay every other card in melds
            arrangement = arrange(hand, self.wild, self._aces_high, self._all_wild)
            assert not arrangement.deadwood, "the meld solver left cards of a hand that goes out unmatched"
            self.laid[seat] = tuple(tuple(_CARDS[k] for k in meld) for meld in arrangement.melds)
            self.out_order.append(seat)
            hand.clear()
            known.clear()
            if self.turns_left < 0:  # T9: every other player has one more turn
                self.turns_left = n
        self.turns_played += 1
        if self.turns_left > 0:
            self.turns_left -= 1
            if self.turns_left == 0:
                self._round_end()
                return
        if self.turns_played == self._turn_limit:  # T10 turn_limit: the round ends before the next turn
            self._round_end()
            return
        self.turn = (seat + 1) % n

    def _reshuffle(self) -> None:
        """T10: the discard pile less its top card, sorted by kind, is shuffled into a new stock."""
        pile = self.pile
        cards = sorted(pile[:-1])
        order = self._shuffle(cards)
        self.stock = order[::-1]
        del pile[:-1]
        self.reshuffled = tuple(cards)
        self.drawn_since = [[] for _ in range(self.game.players)]

    def _round_end(self) -> None:
        """T11: score every hand at its fewest penalty points (0 for a player who went out); deal the next round."""
        n = self.game.players
        scores: list[int] = []
        hands: list[CardTuple] = []
        melds: list[Melds] = []
        deadwood: list[CardTuple] = []
        for seat in range(n):
            laid = self.laid[seat]
            if laid:
                scores.append(0)
                hands.append(tuple(sorted(c for meld in laid for c in meld)))
                melds.append(laid)
                deadwood.append(())
                continue
            hand = self.hands[seat]
            arrangement = arrange(hand, self.wild, self._aces_high, self._all_wild)
            scores.append(arrangement.penalty)
            hands.append(tuple(_CARDS[k] for k in hand))
            melds.append(tuple(tuple(_CARDS[k] for k in meld) for meld in arrangement.melds))
            deadwood.append(tuple(_CARDS[k] for k in sorted(arrangement.deadwood)))
        self.stage_scores.append(tuple(scores))
        self.previous = (tuple(hands), tuple(melds), tuple(deadwood))
        self.round_no += 1
        self._outs = None
        self.drawn = False
        if self.round_no == ROUNDS:  # T12
            self.turn = -1
            self._clear_round([[] for _ in range(n)], [], [])
            return
        self.dealer = (self.dealer + 1) % n  # T4
        self._deal()

    def copy(self) -> ThreeThirteenState:
        other = ThreeThirteenState.__new__(ThreeThirteenState)
        self._copy_base(other)
        other._aces_high = self._aces_high
        other._all_wild = self._all_wild
        other._end_round = self._end_round
        other._outs = self._outs
        other._turn_limit = self._turn_limit
        other.dealer = self.dealer
        other.drawn = self.drawn
        other.drawn_since = [d.copy() for d in self.drawn_since]
        other.hands = [h.copy() for h in self.hands]
        other.known = [k.copy() for k in self.known]
        other.laid = self.laid.copy()
        other.out_order = self.out_order.copy()
        other.pile = self.pile.copy()
        other.previous = self.previous
        other.reshuffled = self.reshuffled
        other.round_no = self.round_no
        other.stock = self.stock.copy()
        other.turns_left = self.turns_left
        other.turns_played = self.turns_played
        other.wild = self.wild
        return other

    def _action_events(self, before: State, seat: int, action: int) -> list[Event]:
        assert isinstance(before, ThreeThirteenState)
        if action == DRAW:
            if not before.stock and before._end_round:
                return [Event("three-thirteen.stock_out", {"seat": seat})]
            events = []
            if not before.stock:
                events.append(Event("three-thirteen.reshuffled", {"cards": len(before.pile) - 1}))
            drawn = Counter(self.hands[seat])
            drawn.subtract(before.hands[seat])
            new = _CARDS[next(k for k, n in drawn.items() if n > 0)].text
            return [*events, Event("three-thirteen.drew", {"seat": seat}, private={seat: {"card": new}})]
        if action == TAKE:
            return [Event("three-thirteen.took", {"seat": seat, "card": _CARDS[before.pile[-1]].text})]
        card = _CARDS[(action - DISCARD) % KINDS].text
        if action < OUT:
            events = [Event("three-thirteen.discarded", {"seat": seat, "card": card})]
        else:
            laid = self.laid[seat] if self.stage == before.stage else self.previous[1][seat]
            melds = [[c.text for c in meld] for meld in laid]
            events = [Event("three-thirteen.went_out", {"seat": seat, "card": card, "melds": melds})]
        if self.stage != before.stage and before.turns_left != 1:  # ended by the turn limit, not by T9
            events.append(Event("three-thirteen.turn_limit", {"turns": before.turns_played + 1}))
        return events

    def _explain_stage(self, before: State, seat: int, action: int) -> dict[str, Any]:
        assert isinstance(before, ThreeThirteenState)
        hands, melds, deadwood = self.previous
        out = set(before.out_order) | ({seat} if action >= OUT else set())
        if action == DRAW:
            ended = "stock"
        elif before.turns_left == 1:
            ended = "out"
        else:
            ended = "limit"
        aces_high = self._aces_high
        return {
            "hands": [
                {
                    "melds": [[c.text for c in meld] for meld in melds[s]],
                    "deadwood": [c.text for c in deadwood[s]],
                    "deadwood_points": [card_value(c, aces_high) for c in deadwood[s]],
                    "out": s in out,
                }
                for s in range(len(hands))
            ],
            "wild_rank": before.wild,
            "ended": ended,
            "points": list(self.stage_scores[-1]),
        }

    def _spectator_fields(self, view: View) -> dict[str, Any]:
        assert isinstance(view, ThreeThirteenView)
        return {"hand": (), "stock_candidates": view.reshuffled}

    def stock_candidates(self, seat: int) -> list[int] | None:
        """The cards that may still be in the stock as ``seat`` sees it, after a reshuffle this round (T10, T13)."""
        if self.reshuffled is None:
            return None
        return _minus(self.reshuffled, self.drawn_since[seat])

    def view(self, seat: int) -> ThreeThirteenView:
        cards = _CARDS
        candidates = self.stock_candidates(seat)
        round_no = min(self.round_no, ROUNDS - 1) + 1
        return ThreeThirteenView(
            **self._view_fields(seat),
            round=round_no,
            wild_rank=deal_size(round_no),
            dealer=self.dealer,
            hand=tuple(cards[k] for k in self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock_size=len(self.stock),
            discard_pile=tuple(cards[k] for k in self.pile),
            drawn=self.drawn,
            known=tuple(tuple(cards[k] for k in known) for known in self.known),
            out_seats=tuple(self.out_order),
            out_melds=tuple(self.laid),
            turns_left=self.turns_left,
            turns_played=self.turns_played,
            previous_hands=self.previous[0],
            previous_melds=self.previous[1],
            previous_deadwood=self.previous[2],
            reshuffled=None if self.reshuffled is None else tuple(cards[k] for k in self.reshuffled),
            stock_candidates=None if candidates is None else tuple(cards[k] for k in candidates),
        )

    def _redeal(
        self, seat: int, sizes: list[int], stock_size: int, candidates: list[int] | None, rng: random.Random
    ) -> None:
        """Deal everything ``seat`` cannot see anew, uniformly and consistently with its view (T13).

        The unseen pool is the deck less ``seat``'s hand, the discard pile, the laid melds and the cards known to be
        in other hands. The stock is a random subset of the pool (of the pool's cards among ``candidates`` after a
        reshuffle this round), in random order; the rest fills the other hands beside their known cards.
        """
        n = self.game.players
        unseen = Counter(self.game.deck)
        unseen.subtract(self.hands[seat])
        unseen.subtract(self.pile)
        for s in range(n):
            if s != seat:
                unseen.subtract(self.known[s])
            for meld in self.laid[s]:
                unseen.subtract(int(c) for c in meld)
        assert all(v >= 0 for v in unseen.values()), "the view holds more cards of a kind than the deck"
        pool = sorted(unseen.elements())
        if candidates is None:
            rng.shuffle(pool)
            stock = pool[:stock_size]
            rest = pool[stock_size:]
            leftover: Counter[int] = Counter()
        else:
            allowed = Counter(candidates)
            inside: list[int] = []
            outside: list[int] = []
            for k in pool:
                if allowed[k] > 0:
                    allowed[k] -= 1
                    inside.append(k)
                else:
                    outside.append(k)
            assert len(inside) >= stock_size, "the view's stock candidates are fewer than the stock"
            rng.shuffle(inside)
            stock = inside[:stock_size]
            leftover = Counter(inside[stock_size:])
            rest = inside[stock_size:] + outside
            rng.shuffle(rest)
        self.stock = stock
        hands = self.hands
        for s in range(n):
            if s == seat:
                continue
            missing = sizes[s] - len(self.known[s])
            fill = rest[:missing]
            del rest[:missing]
            hands[s] = sorted(self.known[s] + fill)
            if self.reshuffled is not None:
                drawn: list[int] = []
                for k in fill:  # a plausible history: those reshuffled cards came to s by its draws
                    if leftover[k] > 0:
                        leftover[k] -= 1
                        drawn.append(k)
                self.drawn_since[s] = drawn
        assert not rest, "the view's hand sizes do not add up with the unseen cards"
        if self.reshuffled is not None:
            assert candidates is not None
            self.drawn_since[seat] = _minus(self.reshuffled, candidates)
        self._outs = None

    def resample_hidden(self, seat: int, rng: random.Random) -> ThreeThirteenState:
        other = self.copy()
        if self.turn >= 0:
            other._redeal(
                seat, [len(h) for h in self.hands], len(self.stock), self.stock_candidates(seat), rng
            )
        return other

    def all_cards(self) -> list[int]:
        if self.turn < 0:
            return []
        out = [k for h in self.hands for k in h] + self.stock + self.pile
        for laid in self.laid:
            for meld in laid:
                out.extend(meld)
        return out


def refusal(seat: int, action: int, drawn: bool, held: bool) -> IllegalActionError:
    """Why ``seat`` may not take ``action`` (a number of the game, the game not over) from what the refusal depends
    on: whether the seat has ``drawn`` this turn and, for a discard, whether it ``held`` the card. A draw is refused
    after the draw (T6), from an empty stock with too small a pile to reshuffle (T10) or from an empty pile (T6); a
    discard before the draw (T6), of a card not held (T6), or as a way out that does not go out (T8). The one source
    of the refusals: the engine and the compiled kernel's ``why`` both ask it."""
    if action < DISCARD:
        if drawn:
            return IllegalActionError("three-thirteen.error.drawn", rule="T6", seat=seat)
        if action == DRAW:
            return IllegalActionError("three-thirteen.error.nothing_to_reshuffle", rule="T10")
        return IllegalActionError("three-thirteen.error.pile_empty", rule="T6")
    if not drawn:
        return IllegalActionError("three-thirteen.error.draw_first", rule="T6")
    kind = action - OUT if action >= OUT else action - DISCARD
    if not held:
        return IllegalActionError("three-thirteen.error.not_held", rule="T6", seat=seat, card=_CARDS[kind].text)
    return IllegalActionError("three-thirteen.error.cannot_go_out", rule="T8", card=_CARDS[kind].text)
