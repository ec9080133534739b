"""13 in words: its cards, plays, events, scoring and views in every language. The templates are the game's
catalogues, ``locale/<lang>.po`` in this folder (docs/words.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dreizehn.core.events import Event
from dreizehn.core.game import Game, View, player_name, say_view_head
from dreizehn.games.knizia13.rules import (
    _ACTIONS,
    CARD_COLOUR,
    CARD_VALUE,
    COLOURS,
    NASTY,
    Knizia13Card,
    Knizia13View,
    colour_word,
)
from dreizehn.words import Words

_SHAPES = {"blue": "●", "yellow": "▲", "green": "■", "red": "✖"}
"""The shape each colour's cards show beside their value, so that colour is not the only sign."""


def _counts(words: Words, names: Sequence[str], counts: Sequence[int]) -> str:
    """Each seat's count in words: ``Anna 4, Ben 2 and Cleo 0``."""
    return words.join([words("score.of", player=player_name(words, names, seat), points=count)
                       for seat, count in enumerate(counts)])


class Knizia13Words(Game):
    """The words of 13, mixed into :class:`~dreizehn.games.knizia13.game.Knizia13`."""

    def say_card(self, words: Words, card: int) -> str:
        """A card in words: a colour card with its colour and value, a nasty four as the rulebooks name it.

        >>> from dreizehn.words import words
        >>> game = Knizia13(players=3)
        >>> [game.say_card(words(lang), Knizia13Card.parse("B5")) for lang in ("en", "de", "nl")]
        ['the blue 5', 'die blaue 5', 'de blauwe 5']
        >>> [game.say_card(words(lang), NASTY) for lang in ("en", "de", "nl")]
        ['a nasty four', 'eine Fiese Vier', 'een vieze vier']
        """
        kind = int(card)
        if kind == NASTY:
            return words("knizia13.card.nasty")
        return words("knizia13.card", colour=colour_word(CARD_COLOUR[kind]), value=CARD_VALUE[kind])

    def card_face(self, words: Words, card: int) -> dict[str, str]:
        """A card's face: its colour with a shape of its own (a nasty four red, a cross), and its value.

        >>> from dreizehn.words import words
        >>> Knizia13(players=3).card_face(words("de"), Knizia13Card.parse("G5"))
        {'colour': 'green', 'value': '5', 'shape': '■', 'label': 'die grüne 5'}
        """
        kind = int(card)
        colour = "red" if kind == NASTY else COLOURS[CARD_COLOUR[kind]]
        return {"colour": colour, "value": str(CARD_VALUE[kind]), "shape": _SHAPES[colour],
                "label": self.say_card(words, card)}

    def say_action(self, words: Words, action: int, player: str | None = None) -> str:
        """A play in words, offered (``player`` ``None``) or done by ``player``.

        >>> from dreizehn.words import words
        >>> game = Knizia13(players=3)
        >>> game.say_action(words("en"), Knizia13Action.parse("B5"))
        'Put the blue 5 on the blue target'
        >>> game.say_action(words("de"), Knizia13Action.parse("R4>Y"), "Anna")
        'Anna spielt eine Fiese Vier auf die gelbe Zielscheibe'
        """
        play = _ACTIONS[action]
        key = "knizia13.action" if player is None else "knizia13.action.done"
        return words(key, card=self.say_card(words, play.card), target=colour_word(play.target), player=player)

    def event_key(self, event: Event) -> str:
        """``knizia13.played.took`` for a play that takes cards, ``knizia13.drew.card`` for a draw its receiver
        sees the card of (the drawer); otherwise the event's key."""
        if event.key == "knizia13.played" and event.params.get("took"):
            return "knizia13.played.took"
        if event.key == "knizia13.drew" and "card" in event.params:
            return "knizia13.drew.card"
        return event.key

    def event_words(self, words: Words, event: Event, names: Sequence[str]) -> dict[str, Any]:
        """The parameters of 13's events in words: the card played or drawn, the target's colour, and ``n``, the
        number of cards taken (it picks the plural form).

        >>> from dreizehn.words import words
        >>> from dreizehn.play.say import say_event
        >>> game = Knizia13(players=3)
        >>> play = Event("knizia13.played", {"seat": 0, "card": "R4", "target": "yellow", "sum": 4,
        ...                                  "took": ["Y5", "Y2", "Y4"]})
        >>> say_event(game, words("en"), play, ["Anna", "Ben", "Cleo"])
        'Anna puts a nasty four on the yellow target and takes 3 cards.'
        >>> say_event(game, words("nl"), Event("knizia13.drew", {"seat": 1, "card": "G7"}), ["Anna", "Ben"])
        'Ben trekt de groene 7 van de voorraadstapel.'
        """
        params = super().event_words(words, event, names)
        if event.key in ("knizia13.played", "knizia13.drew"):
            if "card" in params:
                params["card"] = self.say_card(words, Knizia13Card.parse(str(params["card"])))
            if "target" in params:
                params["target"] = words.say(colour_word(COLOURS.index(str(params["target"]))))
            if params.get("took"):
                params["n"] = len(params["took"])
        return params

    def say_explanation(self, words: Words, explanation: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """A stage's scoring (K14, K15) in words: a line per colour (the counts and who has the majority), the
        nasty fours, and a line per player with the minus points.

        >>> from dreizehn.words import words
        >>> b, y, r = 0, 5, NASTY
        >>> explained = explain_points([[b, b, y], [b, r], [y, y]])
        >>> for line in Knizia13(players=3).say_explanation(words("en"), explained, ["Anna", "Ben", "Cleo"]):
        ...     print(line)
        Blue: Anna 2, Ben 1 and Cleo 0 — Anna has the majority and scores nothing for blue
        Yellow: Anna 1, Ben 0 and Cleo 2 — Cleo has the majority and scores nothing for yellow
        Green: nobody took any
        Nasty fours: Ben 1 (2 points)
        Anna scores 1 point
        Ben scores 3 points
        Cleo scores 0 points
        """
        lines: list[str] = []
        colours: Mapping[str, Any] = explanation.get("colours", {})
        for index, name in enumerate(COLOURS):
            entry = colours.get(name)
            if entry is None:
                continue
            counts: list[int] = list(entry["counts"])
            colour = colour_word(index, noun=True)
            said = _counts(words, names, counts)
            if not any(counts):
                lines.append(words("knizia13.explain.none", colour=colour))
            elif entry.get("majority") is None:
                lines.append(words("knizia13.explain.tie", colour=colour, counts=said))
            else:
                lines.append(words("knizia13.explain.majority", colour=colour, counts=said,
                                   player=player_name(words, names, int(entry["majority"]))))
        nasty: list[int] = list(explanation.get("nasty", []))
        holders = [words("knizia13.explain.nasty.of", n=2 * count, player=player_name(words, names, seat), count=count)
                   for seat, count in enumerate(nasty) if count]
        if holders:
            lines.append(words("knizia13.explain.nasty", counts=words.join(holders)))
        elif nasty:
            lines.append(words("knizia13.explain.nasty.none"))
        for seat, points in enumerate(explanation.get("points", [])):
            lines.append(words("knizia13.explain.points", n=int(points), player=player_name(words, names, seat)))
        return [line[:1].upper() + line[1:] for line in lines]

    def say_view(self, words: Words, view: View, names: Sequence[str]) -> list[str]:
        """A view in words, a line each: the common head, the dealer, the three targets with their cards and sums,
        the hand (not a spectator's), the hand sizes, the cards taken (counted; shown under ``open_piles``), the
        stock.

        >>> import dreizehn
        >>> from dreizehn.words import words
        >>> state = dreizehn.new_game("knizia13", players=3, seed=7)
        >>> state.apply("B7")
        >>> for line in state.game.say_view(words("en"), state.view(2), ["Anna", "Ben", "Cleo"]):
        ...     print(line)
        Stage 1
        It is your turn.
        Points so far: Anna 0, Ben 0 and Cleo 0.
        Dealer: Anna.
        The blue target: the blue 7 (sum 7).
        The yellow target is empty.
        The green target is empty.
        Your cards: the blue 1, the blue 2, the yellow 4, the green 1 and the green 4.
        Cards in hand: Anna 5, Ben 5 and Cleo 5.
        Cards taken: Anna 0, Ben 0 and Cleo 0.
        The stock holds 34 cards.
        """
        lines = say_view_head(self, words, view, names)
        if not isinstance(view, Knizia13View):
            return lines
        lines.append(words("knizia13.view.dealer", player=player_name(words, names, view.dealer)))
        for index, cards in enumerate(view.targets):
            if cards:
                lines.append(words("knizia13.view.target", colour=colour_word(index), cards=self._cards(words, cards),
                                   sum=sum(CARD_VALUE[card] for card in cards)))
            else:
                lines.append(words("knizia13.view.target.empty", colour=colour_word(index)))
        if view.seat >= 0 and view.hand:
            lines.append(words("knizia13.view.hand", cards=self._cards(words, view.hand)))
        lines.append(words("knizia13.view.hand_sizes", counts=_counts(words, names, view.hand_sizes)))
        if view.taken is None:
            lines.append(words("knizia13.view.taken", counts=_counts(words, names, view.taken_sizes)))
        else:
            for seat, pile in enumerate(view.taken):
                player = player_name(words, names, seat)
                lines.append(words("knizia13.view.pile", n=len(pile), player=player, cards=self._cards(words, pile))
                             if pile else words("knizia13.view.pile.empty", player=player))
        if view.stock_size:
            lines.append(words("knizia13.view.stock", n=view.stock_size))
        else:
            lines.append(words("knizia13.view.stock.empty"))
        return lines

    def _cards(self, words: Words, cards: Sequence[int]) -> str:
        return words.join([self.say_card(words, card) for card in cards])
