"""Der dreizehnte Holzwurm in words: its cards, plays, events, scoring and views in every language. The templates
are the game's catalogues, ``locale/<lang>.po`` in this folder (docs/words.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dreizehn.core.events import Event
from dreizehn.core.game import Game, View, player_name, say_view_head
from dreizehn.games.holzwurm.rules import (
    CARD_COLOUR,
    CARD_POINTS,
    CARD_VALUE,
    COLOURS,
    GREY,
    NEW,
    THIRTEEN,
    HolzwurmCard,
    HolzwurmView,
    hand_points,
)
from dreizehn.words import Words

_SHAPES = {"yellow": "▲", "red": "◆", "green": "■", "purple": "★", "blue": "●", "grey": "○"}
"""The shape each colour's cards show beside their value, so that colour is not the only sign."""


class HolzwurmWords(Game):
    """The words of Der dreizehnte Holzwurm, mixed into :class:`~dreizehn.games.holzwurm.game.Holzwurm`."""

    def say_card(self, words: Words, card: int) -> str:
        """A card in words, as it stands in a list: its colour and value, or the poisonous thirteen.

        >>> from dreizehn.words import words
        >>> game = Holzwurm(3)
        >>> [game.say_card(words("en"), HolzwurmCard.parse(t)) for t in ("Y5", "N7", "13")]
        ['yellow 5', 'grey 7', 'the poisonous thirteen']
        >>> game.say_card(words("nl"), HolzwurmCard.parse("P4")), game.say_card(words("de"), THIRTEEN)
        ('paarse 4', 'die giftige Dreizehn')
        """
        colour = CARD_COLOUR[card]
        if colour < 0:
            return words("holzwurm.card.thirteen")
        name = COLOURS[colour] if colour < GREY else "grey"
        return words(f"holzwurm.card.{name}", value=CARD_VALUE[card])

    def _the_card(self, words: Words, card: int) -> str:
        """A card with its article, as a sentence names it: "the yellow 5", "die gelbe 5", "de gele 5"."""
        if card == THIRTEEN:
            return words("holzwurm.card.thirteen")
        return words("holzwurm.card.the", card=self.say_card(words, card))

    def _cards(self, words: Words, cards: Sequence[int]) -> str:
        """Cards in words, joined: "green 1, grey 4 and green 9"."""
        return words.join([self.say_card(words, k) for k in cards])

    def card_face(self, words: Words, card: int) -> dict[str, str]:
        """A card's face: its colour with a shape of its own and its value; the poisonous thirteen a skull and −13.

        >>> from dreizehn.words import words
        >>> Holzwurm(players=3).card_face(words("en"), THIRTEEN)["value"]
        '−13'
        """
        kind = int(card)
        label = self.say_card(words, card)
        if kind == THIRTEEN:
            return {"colour": "thirteen", "value": "−13", "shape": "☠", "label": label}
        colour = HolzwurmCard.of(kind).colour or "grey"
        return {"colour": colour, "value": str(CARD_VALUE[kind]), "shape": _SHAPES[colour], "label": label}

    def say_action(self, words: Words, action: int, player: str | None = None) -> str:
        """A play in words, offered or done by ``player``.

        >>> from dreizehn.words import words
        >>> game = Holzwurm(3)
        >>> game.say_action(words("en"), HolzwurmAction.parse("Y5>2"))
        'Play the yellow 5 onto row 2'
        >>> game.say_action(words("en"), HolzwurmAction.parse("Y5>new"), "Anna")
        'Anna starts a new row with the yellow 5'
        >>> game.say_action(words("nl"), HolzwurmAction.parse("N7>3"), "Anna")
        'Anna speelt de grijze 7 uit in rij 3'
        """
        kind, dest = divmod(int(action), 6)
        key = "holzwurm.action.new" if dest == NEW else "holzwurm.action"
        if player is not None:
            key += ".done"
        return words(key, card=self._the_card(words, kind), row=dest + 1, player=player)

    def event_words(self, words: Words, event: Event, names: Sequence[str]) -> dict[str, Any]:
        """The parameters of a play's sentence: the cards in words, where the card went (``place``), the row's cards
        taken (``taken``, with its plural) and what is left of the fate row (``left``).

        >>> from dreizehn.words import words
        >>> from dreizehn.play.say import say_event
        >>> took = Event("holzwurm.took", {"seat": 0, "card": "G5", "row": 3, "cards": ["G1", "G9", "G7", "G4", "G6",
        ...              "G5"], "fate": "N8", "fate_left": 4})
        >>> say_event(Holzwurm(3), words("en"), took, ["Anna", "Ben", "Cleo"])  # doctest: +NORMALIZE_WHITESPACE
        "Anna plays the green 5 onto row 3 and takes the row's 6 cards (green 1, green 9, green 7, green 4, green 6 and
        green 5) and the top card of the fate row, the grey 8 (4 fate cards left)."
        """
        params = super().event_words(words, event, names)
        if event.key not in ("holzwurm.played", "holzwurm.took"):
            return params
        parse = HolzwurmCard.parse
        params["card"] = self._the_card(words, parse(str(event.params["card"])))
        row = int(event.params["row"])
        if event.key == "holzwurm.played":
            params["place"] = words("holzwurm.place.new" if event.params["new"] else "holzwurm.place.row", row=row)
            return params
        cards = [parse(str(t)) for t in event.params["cards"]]
        params["cards"] = self._cards(words, cards)
        params["taken"] = words("holzwurm.took.cards", n=len(cards), cards=params["cards"])
        params["fate"] = self._the_card(words, parse(str(event.params["fate"])))
        left = int(event.params["fate_left"])
        params["left"] = words("holzwurm.fate_left", n=left) if left else words("holzwurm.fate_left.none")
        return params

    def say_explanation(self, words: Words, explanation: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """A game's scoring (:func:`explain_points`) in words, a line per player: the plus cards, the minus cards, the
        bonus of who played out, the points (H3, H15).

        >>> from dreizehn.words import words
        >>> lines = Holzwurm(2).say_explanation(words("en"), explain_points([[1, 2, THIRTEEN], []]), ["Anna", "Ben"])
        >>> lines[0]
        'Anna: plus cards yellow 2 (+2); minus cards yellow 3 and the poisonous thirteen (-16); -14 points.'
        >>> lines[1]
        'Ben played out all cards: a bonus of 30 plus points; 30 points.'
        """
        lines = []
        for seat, (hand, points) in enumerate(zip(explanation["hands"], explanation["points"], strict=True)):
            player = player_name(words, names, seat)
            if hand["bonus"]:
                lines.append(words("holzwurm.explain.out", n=int(points), player=player, bonus=hand["bonus"]))
                continue
            parts = []
            for kind in ("plus", "minus"):
                cards = [HolzwurmCard.parse(str(t)) for t in hand[kind]]
                if cards:
                    total = sum(CARD_POINTS[k] for k in cards)
                    parts.append(
                        words(f"holzwurm.explain.{kind}", cards=self._cards(words, cards), points=f"{total:+d}")
                    )
                else:
                    parts.append(words(f"holzwurm.explain.no_{kind}"))
            lines.append(words("holzwurm.explain.hand", n=int(points), player=player, plus=parts[0], minus=parts[1]))
        return lines

    def say_view(self, words: Words, view: View, names: Sequence[str]) -> list[str]:
        """A view in words: the head (:func:`~dreizehn.core.game.say_view_head`), then each row with its colour and
        length (the count rule, H12), the fate row from its top card, the hand, the cards known to lie in other hands
        (H17), the hand sizes and the cards removed unseen.

        >>> import dreizehn
        >>> from dreizehn.words import words
        >>> state = dreizehn.new_game("holzwurm", players=3, seed=3)
        >>> state.apply("Y6>new")
        >>> lines = state.game.say_view(words("en"), state.view(1), ["Anna", "Ben", "Cleo"])
        >>> lines[3]
        'Row 1 (yellow, 1 card; whoever plays a 1 takes it): yellow 6.'
        >>> lines[4][:42]
        'The fate row holds 6 cards; on top lies th'
        """
        assert isinstance(view, HolzwurmView)
        lines = say_view_head(self, words, view, names)
        rows = [(slot, row) for slot, row in enumerate(view.rows) if row is not None]
        for slot, row in rows:
            colour = words(f"holzwurm.colour.{row.colour}") if row.colour else words("holzwurm.view.open")
            lines.append(words("holzwurm.view.row", n=len(row.cards), row=slot + 1, colour=colour,
                               cards=self._cards(words, row.cards)))
        if not rows:
            lines.append(words("holzwurm.view.no_rows"))
        if view.fate:
            top_first = list(reversed(view.fate))
            lines.append(words("holzwurm.view.fate", n=len(top_first), top=self._the_card(words, top_first[0]),
                               cards=self._cards(words, top_first)))
        else:
            lines.append(words("holzwurm.view.fate.empty"))
        if view.seat >= 0:
            if view.hand:
                lines.append(words("holzwurm.view.hand", n=len(view.hand), points=hand_points(view.hand),
                                   cards=self._cards(words, view.hand)))
            else:
                lines.append(words("holzwurm.view.hand.empty"))
        for seat, known in enumerate(view.known):
            if known and seat != view.seat:
                lines.append(words("holzwurm.view.known", player=player_name(words, names, seat),
                                   cards=self._cards(words, known)))
        sizes = [words("holzwurm.view.size", player=player_name(words, names, seat), n=size)
                 for seat, size in enumerate(view.hand_sizes)]
        lines.append(words("holzwurm.view.sizes", sizes=words.join(sizes)))
        if view.removed:
            lines.append(words("holzwurm.view.removed", n=view.removed))
        return lines
