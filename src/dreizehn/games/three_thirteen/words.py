"""Three Thirteen in words: its cards, melds, hands, plays, events, scoring and views in every language. The
templates are the game's catalogues, ``locale/<lang>.po`` in this folder (docs/words.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dreizehn.core.events import Event
from dreizehn.core.game import Game, View, player_name, say_view_head
from dreizehn.games.three_thirteen.melds import arrange, card_value
from dreizehn.games.three_thirteen.rules import (
    DRAW,
    OUT,
    ROUNDS,
    SUITS,
    ThreeThirteenAction,
    ThreeThirteenCard,
    ThreeThirteenView,
)
from dreizehn.words import Words

_RANK_KEYS = {1: "A", 11: "J", 12: "Q", 13: "K"}


def _card(card: int | str) -> ThreeThirteenCard:
    return ThreeThirteenCard.parse(card) if isinstance(card, str) else ThreeThirteenCard.of(int(card))


def say_card(words: Words, card: int | str, short: bool = False) -> str:
    """A card (a card number or its text) in words: ``"the 7 of hearts"``, ``"Herz 7"``, ``"harten 7"``; ``short``
    gives rank and suit symbol in the language's letters: ``"7♥"``, ``"D♠"`` (Dame), ``"H♠"`` (heer).

    >>> from dreizehn.words import words
    >>> say_card(words("en"), "QS"), say_card(words("de"), "QS"), say_card(words("nl"), "QS")
    ('the queen of spades', 'Pik Dame', 'schoppen vrouw')
    >>> say_card(words("en"), "QS", short=True), say_card(words("de"), "QS", True), say_card(words("nl"), "KS", True)
    ('Q♠', 'D♠', 'H♠')
    """
    token = _card(card)
    tail = ".short" if short else ""
    letter = _RANK_KEYS.get(token.rank)
    rank = words(f"three-thirteen.rank.{letter}{tail}") if letter else str(token.rank)
    suit = words(f"three-thirteen.suit.{SUITS[token.suit]}{tail}")
    return words(f"three-thirteen.card{tail}", rank=rank, suit=suit)


def say_cards(words: Words, cards: Sequence[int | str], joined: bool = True) -> str:
    """Cards in short words: ``"7♣, J♣ and 4♥"`` (``joined``), or one after the other as in a meld:
    ``"3♣ 4♣ 5♣"``.

    >>> from dreizehn.words import words
    >>> say_cards(words("nl"), ["7C", "JC", "4H"]), say_cards(words("en"), ["3C", "4C", "5C"], joined=False)
    ('7♣, B♣ en 4♥', '3♣ 4♣ 5♣')
    """
    said = [say_card(words, card, short=True) for card in cards]
    return words.join(said) if joined else " ".join(said)


def say_melds(words: Words, melds: Sequence[Sequence[int | str]]) -> str:
    """Melds in words, each meld's cards in short form: ``"3♣ 4♣ 5♣ and 7♦ 7♠ 7♥"``.

    >>> from dreizehn.words import words
    >>> say_melds(words("de"), [["3C", "4C", "5C"], ["7D", "7S", "7H"]]), say_melds(words("en"), [])
    ('3♣ 4♣ 5♣ und 7♦ 7♠ 7♥', 'no melds')
    """
    if not melds:
        return words("three-thirteen.melds.none")
    return words.join([say_cards(words, meld, joined=False) for meld in melds])


def say_wild(words: Words, wild_rank: int) -> str:
    """The cards of a wild rank, in the plural: ``"sevens"``, ``"Siebenen"``, ``"zevens"``."""
    return words(f"three-thirteen.ranks.{wild_rank}")


def say_hand(
    words: Words, player: str, melds: Sequence[Sequence[int | str]], deadwood: Sequence[int | str], points: int,
    card_points: Sequence[int] | None = None, aces_high: bool = False, key: str = "three-thirteen.explain.hand",
) -> str:
    """A hand as scored (T11): its melds, its unmatched cards each with its points (``card_points``, else their
    value under ``aces_high``), and its ``points``: ``"Ben: melds 3♣ 4♣ 5♣; unmatched K♦ (10) and 7♥ (7): 17
    points."`` (``key`` names the sentence: the view says the best arrangement of a hand with the same parts).

    >>> from dreizehn.words import words
    >>> say_hand(words("en"), "Ben", [["3C", "4C", "5C"]], ["KD", "7H"], 17)
    'Ben: melds 3♣ 4♣ 5♣; unmatched K♦ (10) and 7♥ (7): 17 points.'
    """
    melds_said = words("three-thirteen.explain.melds", melds=say_melds(words, melds)) if melds else words(
        "three-thirteen.melds.none")
    if deadwood:
        values = list(card_points) if card_points is not None else [
            card_value(int(_card(card)), aces_high) for card in deadwood]
        each = [words("three-thirteen.explain.card_points", card=say_card(words, card, short=True), points=value)
                for card, value in zip(deadwood, values, strict=True)]
        dead_said = words("three-thirteen.explain.deadwood", cards=words.join(each))
    else:
        dead_said = words("three-thirteen.explain.no_deadwood")
    return _capital(words(key, n=points, player=player, melds=melds_said, deadwood=dead_said))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _say_or(words: Words, items: Sequence[str]) -> str:
    """``a, b or c`` in the language of ``words``."""
    if len(items) < 2:
        return "".join(items)
    return words("three-thirteen.or", head=", ".join(items[:-1]), last=items[-1])


_SUIT_COLOURS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
"""The name a drawing styles each suit's cards by."""


class ThreeThirteenWords(Game):
    """The words of Three Thirteen, mixed into :class:`~dreizehn.games.three_thirteen.game.ThreeThirteen`."""

    def say_card(self, words: Words, card: int, short: bool = False) -> str:
        """A card in words: ``"the 7 of hearts"``, ``"Herz 7"``, ``"harten 7"`` (``short``: ``"7♥"``)."""
        return say_card(words, card, short)

    def card_face(self, words: Words, card: int) -> dict[str, str]:
        """A card's face: its rank in the language's letters (the rulebooks' B-D-K-A in German, B-V-H-A in Dutch),
        and its suit's symbol in the suit's colour.

        >>> from dreizehn.words import words
        >>> ThreeThirteen(players=2).card_face(words("nl"), ThreeThirteenCard.parse("QH"))
        {'colour': 'hearts', 'value': 'V', 'shape': '♥', 'label': 'harten vrouw'}
        >>> ThreeThirteen(players=2).card_face(words("de"), ThreeThirteenCard.parse("JS"))["value"]
        'B'
        """
        token = ThreeThirteenCard.of(int(card))
        suit = token.text[-1]
        letter = _RANK_KEYS.get(token.rank)
        rank = words(f"three-thirteen.rank.{letter}.short") if letter else str(token.rank)
        return {"colour": _SUIT_COLOURS[suit], "value": rank, "shape": words(f"three-thirteen.suit.{suit}.short"),
                "label": self.say_card(words, card)}

    def say_action(self, words: Words, action: int, player: str | None = None, *, view: View | None = None) -> str:
        """An action offered to the player to move (``player`` ``None``) or told as done by ``player``. ``take``
        names the top card of the discard pile when ``view`` (a view before the action) is given.

        >>> from dreizehn.words import words
        >>> game = ThreeThirteen(2)
        >>> game.say_action(words("en"), ThreeThirteenAction.parse("out 7H"))
        'Go out, discarding the 7 of hearts'
        >>> game.say_action(words("de"), ThreeThirteenAction.parse("discard QS"), "Anna")
        'Anna legt Pik Dame ab'
        >>> game.say_action(words("nl"), DRAW), game.say_action(words("nl"), TAKE, "Ben")
        ('Trek van de trekstapel', 'Ben pakt de bovenste kaart van de aflegstapel')
        """
        token = ThreeThirteenAction.of(action)
        card = token.card
        params: dict[str, Any] = {}
        if card is not None:
            verb = "out" if token.goes_out else "discard"
            params["card"] = say_card(words, card)
        elif token == DRAW:
            verb = "draw"
        else:
            verb = "take"
            if isinstance(view, ThreeThirteenView) and view.discard_pile:
                verb = "take.card"
                params["card"] = say_card(words, view.discard_pile[-1])
        if player is None:
            return _capital(words(f"three-thirteen.action.{verb}", **params))
        return _capital(words(f"three-thirteen.action.done.{verb}", player=player, **params))

    def event_words(self, words: Words, event: Event, names: Sequence[str]) -> dict[str, Any]:
        """The parameters of an event's sentence: ``player``, ``card`` in words, the ``melds`` laid in words
        (``"3♣ 4♣ 5♣ and 7♦ 7♠ 7♥"``) and ``n`` (the cards reshuffled, the turns played). A drawn card is said
        only where the event carries it, in the drawer's own sentence (:meth:`event_key`).

        >>> from dreizehn.words import words
        >>> from dreizehn.play.say import say_event
        >>> event = Event("three-thirteen.drew", {"seat": 1}, private={1: {"card": "7H"}})
        >>> game, names = ThreeThirteen(2), ["Anna", "Ben"]
        >>> say_event(game, words("en"), event.for_seat(1), names)
        'Ben draws the 7 of hearts from the stock.'
        >>> say_event(game, words("de"), event.for_seat(0), names)
        'Ben zieht eine Karte vom Ziehstapel.'
        >>> say_event(game, words("nl"), Event("three-thirteen.went_out", {"seat": 0, "card": "KD",
        ...                                    "melds": [["3C", "4C", "5C"], ["7D", "7S", "7H"]]}), names)
        'Anna gaat uit, legt 3♣ 4♣ 5♣ en 7♦ 7♠ 7♥ neer en legt ruiten heer af.'
        """
        params = super().event_words(words, event, names)
        key = event.key
        if not key.startswith("three-thirteen."):
            return params
        given = event.params
        if "card" in given:
            params["card"] = say_card(words, str(given["card"]))
        if key == "three-thirteen.went_out":
            params["melds"] = say_melds(words, given["melds"])
        elif key == "three-thirteen.reshuffled":
            params["n"] = int(given["cards"])
        elif key == "three-thirteen.turn_limit":
            params["n"] = int(given["turns"])
        return params

    def event_key(self, event: Event) -> str:
        """The key of an event's sentence: ``three-thirteen.drew.card`` for a draw that carries its card (the
        drawer's own event), else the event's key.

        >>> event, game = Event("three-thirteen.drew", {"seat": 0}, private={0: {"card": "7H"}}), ThreeThirteen(2)
        >>> game.event_key(event.for_seat(0)), game.event_key(event.for_seat(1))
        ('three-thirteen.drew.card', 'three-thirteen.drew')
        """
        if event.key == "three-thirteen.drew" and "card" in event.params:
            return "three-thirteen.drew.card"
        return event.key

    def say_explanation(self, words: Words, explanation: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """A round's scoring (:meth:`ThreeThirteenState._explain_stage`) in words: how the round ended, its wild
        rank, then per player the melds and the unmatched cards with their points (T11), or that they went out.

        >>> import dreizehn
        >>> from dreizehn.words import words
        >>> state = dreizehn.new_game("three-thirteen", players=2, seed=3, turn_limit=1)
        >>> _ = state.apply_with_events("take")
        >>> scored = state.apply_with_events("discard JC")[-2]
        >>> for line in state.game.say_explanation(words("en"), scored.params["explanation"], ["Anna", "Ben"]):
        ...     print(line)
        The round ended at the turn limit.
        The threes were wild.
        Anna: no melds; unmatched K♣ (10), 9♥ (9) and 8♠ (8): 27 points.
        Ben: no melds; unmatched 7♣ (7), 4♥ (4) and 3♠ (3): 14 points.
        """
        points = explanation["points"]
        lines = [
            _capital(words(f"three-thirteen.explain.ended.{explanation['ended']}")),
            _capital(words("three-thirteen.explain.wild", ranks=say_wild(words, int(explanation["wild_rank"])))),
        ]
        for seat, hand in enumerate(explanation["hands"]):
            player = player_name(words, names, seat)
            if hand["out"]:
                lines.append(_capital(words("three-thirteen.explain.out", n=int(points[seat]), player=player,
                                            melds=say_melds(words, hand["melds"]))))
            else:
                lines.append(say_hand(words, player, hand["melds"], hand["deadwood"], int(points[seat]),
                                      hand["deadwood_points"]))
        return lines

    def say_view(self, words: Words, view: View, names: Sequence[str]) -> list[str]:
        """A view in words, a line each (T13): after :func:`~dreizehn.core.game.say_view_head`, the round and its
        wild rank, the hand with its best arrangement (T11) and the ways out, the discard pile and the stock, the
        other hands (their sizes and the cards known in them), the melds laid, the turns left, and the last round
        as scored.

        >>> import dreizehn
        >>> from dreizehn.words import words
        >>> state = dreizehn.new_game("three-thirteen", players=2, seed=3)
        >>> print("\\n".join(state.game.say_view(words("en"), state.view(1), ["Anna", "Ben"])))
        Round 1
        It is your turn.
        Points so far: Anna 0 and Ben 0.
        Round 1 of 11: threes are wild; Anna deals.
        Your hand, 3 cards: 7♣, J♣ and 4♥.
        Best arrangement: no melds; unmatched 7♣ (7), J♣ (10) and 4♥ (4): 21 penalty points.
        Discard pile: 1 card, the 3 of spades on top.
        Stock: 45 cards.
        Anna holds 3 cards.
        """
        lines = say_view_head(self, words, view, names)
        if not isinstance(view, ThreeThirteenView):
            return lines

        def add(key: str, **params: Any) -> None:
            lines.append(_capital(words(key, **params)))

        aces_high = view.options.get("aces") == "low-or-high"
        all_wild = view.options.get("all_wild_melds") != "forbidden"
        if not view.is_over:
            add("three-thirteen.view.round", round=view.round, rounds=ROUNDS, ranks=say_wild(words, view.wild_rank),
                dealer=player_name(words, names, view.dealer))
            if view.hand:
                add("three-thirteen.view.hand", n=len(view.hand), cards=say_cards(words, view.hand))
                best = arrange([int(c) for c in view.hand], view.wild_rank, aces_high, all_wild)
                lines.append(say_hand(words, "", best.melds, best.deadwood, best.penalty, aces_high=aces_high,
                                      key="three-thirteen.view.best"))
                outs = sorted({int(card) for a in view.legal_actions
                               if (card := ThreeThirteenAction.of(a).card) is not None and a >= OUT})
                if outs:
                    add("three-thirteen.view.can_go_out", cards=_say_or(words, [say_card(words, k) for k in outs]))
            if view.drawn:
                if view.current_player == view.seat:
                    add("three-thirteen.view.drawn.you")
                else:
                    add("three-thirteen.view.drawn", player=player_name(words, names, view.current_player))
            if view.discard_pile:
                add("three-thirteen.view.pile", n=len(view.discard_pile), card=say_card(words, view.discard_pile[-1]))
            else:
                add("three-thirteen.view.pile.empty")
            add("three-thirteen.view.stock", n=view.stock_size)
            for seat in range(view.players):
                if seat == view.seat or seat in view.out_seats:
                    continue
                player, size, known = player_name(words, names, seat), view.hand_sizes[seat], view.known[seat]
                if known:
                    add("three-thirteen.view.seat.known", n=size, player=player, cards=say_cards(words, known))
                else:
                    add("three-thirteen.view.seat", n=size, player=player)
            for seat in view.out_seats:
                add("three-thirteen.view.laid", player=player_name(words, names, seat),
                    melds=say_melds(words, view.out_melds[seat]))
            limit = int(view.options.get("turn_limit") or 0)
            if view.turns_left >= 0:
                add("three-thirteen.view.turns_left", n=view.turns_left)
            elif limit:
                add("three-thirteen.view.turn_limit", n=limit - view.turns_played)
            if view.reshuffled is not None:
                add("three-thirteen.view.reshuffled", n=len(view.reshuffled))
        if view.previous_hands and view.stage_scores:
            add("three-thirteen.view.previous")
            scores = view.stage_scores[-1]
            for seat in range(view.players):
                lines.append(say_hand(words, player_name(words, names, seat), view.previous_melds[seat],
                                      view.previous_deadwood[seat], scores[seat], aces_high=aces_high))
        return lines
